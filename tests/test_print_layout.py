"""Sheet geometry without any drawing: how many cards fit, centring, where backs go for each duplex
mode (also on a part-filled sheet), crop marks, fold layout, card sizes and the errors."""

from __future__ import annotations

import pytest

from toolkit.cards.render import CARD_SIZES, parse_card_size
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.print.layout import (
    MARK_GAP,
    PAPERS,
    Rect,
    crop_marks,
    fit_grid,
    mirror,
    sheet_layout,
    token_grid,
)
from toolkit.print.sheets import plan_pages

TOL = 0.05  # mm: "to 0.1 mm"


def close(a: float, b: float, tol: float = TOL) -> bool:
    return abs(a - b) <= tol


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x1 - 1e-9 and b.x < a.x1 - 1e-9 and a.y < b.y1 - 1e-9 and b.y < a.y1 - 1e-9


@pytest.mark.parametrize(
    "paper, card, bleed, gutter, expected",
    [
        ("a4", "poker", 0, 0, (3, 3)),
        ("letter", "poker", 0, 0, (3, 3)),
        ("a4", "poker", 3, 0, (2, 3)),        # 3 x 69 mm = 207 > 200 mm between the margins
        ("a4", "bridge", 0, 0, (3, 3)),
        ("a4", "tarot", 0, 0, (2, 2)),
        ("letter", "poker", 3, 2, (2, 2)),
    ],
)
def test_cards_per_sheet(paper, card, bleed, gutter, expected):
    layout = sheet_layout(paper, CARD_SIZES[card], bleed, gutter, 5.0, "long")
    assert (layout.grid.cols, layout.grid.rows) == expected
    assert layout.page == PAPERS[paper]


def test_grid_is_centred_inside_the_margins_at_exact_size():
    layout = sheet_layout("a4", (63, 88), 0, 0, 5, "long")
    slots = layout.grid.slots()
    assert all(close(r.w, 63) and close(r.h, 88) for r in slots)
    left, right = min(r.x for r in slots), 210 - max(r.x1 for r in slots)
    bottom, top = min(r.y for r in slots), 297 - max(r.y1 for r in slots)
    assert close(left, right) and close(left, 10.5)
    assert close(bottom, top) and close(bottom, 16.5)
    assert slots[0].x < slots[1].x and slots[0].y > slots[3].y  # reading order: row 0 on top


def test_bleed_and_gutter_space_cards_apart():
    grid = fit_grid(Rect(0, 0, 400, 400), (63, 88), bleed=2, gutter=3)
    a, b = grid.slot(0, 0), grid.slot(0, 1)
    assert close(b.x - a.x1, 2 * 2 + 3)
    c = grid.slot(1, 0)
    assert close(a.y - c.y1, 2 * 2 + 3)
    extent = grid.extent
    assert close(extent.x, a.x - 2) and close(extent.y1, a.y1 + 2)


def test_none_takes_the_orientation_that_fits_more():
    mini = sheet_layout("a4", CARD_SIZES["mini"], 0, 0, 5, "none")
    assert mini.orientation == "landscape" and mini.per_sheet == 18   # portrait fits 4 x 4
    assert sheet_layout("a4", CARD_SIZES["mini"], 0, 0, 5, "long").per_sheet == 16
    assert sheet_layout("a4", (63, 88), 0, 0, 5, "none").orientation == "portrait"


@pytest.mark.parametrize("duplex, axis", [("long", "x"), ("short", "y")])
def test_back_of_slot_is_the_mirrored_slot(duplex, axis):
    layout = sheet_layout("letter", (63, 88), 1.5, 2.5, 5, duplex)
    grid, (W, H) = layout.grid, layout.page
    for r in range(grid.rows):
        for c in range(grid.cols):
            front = grid.slot(r, c)
            back = layout.back_of(front)
            expected = grid.slot(r, grid.cols - 1 - c) if axis == "x" else grid.slot(grid.rows - 1 - r, c)
            assert close(back.x, expected.x) and close(back.y, expected.y)
            # Seen through the paper, the back covers exactly its front.
            if axis == "x":
                assert close(W - back.x1, front.x) and close(back.y, front.y)
            else:
                assert close(H - back.y1, front.y) and close(back.x, front.x)
    assert layout.backs_turned == (axis == "y")


def test_part_filled_last_sheet_backs_follow_their_fronts():
    """52 cards on 9-card sheets: the last sheet holds 7, an asymmetric grid."""
    catalogue = load("diamoniak", overrides=["fairy=1"])
    for duplex in ("long", "short"):
        layout = sheet_layout("a4", (63, 88), 0, 0, 5, duplex)
        pages = plan_pages(catalogue, layout)
        fronts, backs = pages[-2], pages[-1]
        assert (fronts.kind, backs.kind) == ("fronts", "backs")
        assert len(fronts.cards) == len(backs.cards) == 7
        grid = layout.grid
        for i, (front, back) in enumerate(zip(fronts.cards, backs.cards)):
            r, c = divmod(i, grid.cols)
            slot = grid.slot(r, grid.cols - 1 - c) if duplex == "long" else grid.slot(grid.rows - 1 - r, c)
            assert close(back.rect.x, slot.x) and close(back.rect.y, slot.y)
            assert back.key == "back" and front.key.startswith("card:")
        # The last row has one card, in the first column: its back is in the last column (long edge)
        # or in the first row (short edge).
        last = backs.cards[-1].rect
        if duplex == "long":
            assert close(last.x, grid.slot(2, 2).x) and close(last.y, grid.slot(2, 2).y)
        else:
            assert close(last.x, grid.slot(0, 0).x) and close(last.y, grid.slot(0, 0).y)


def test_fold_puts_fronts_and_backs_either_side_of_the_fold():
    layout = sheet_layout("a4", (63, 88), 0, 0, 5, "fold")
    assert layout.orientation == "landscape" and layout.per_sheet == 4
    fold = layout.fold
    assert close(fold.x0, 297 / 2) and fold.x0 == fold.x1
    for front in layout.grid.slots():
        back = layout.back_of(front)
        assert front.x1 < fold.x0 < back.x
        assert close(fold.x0 - front.x1, back.x - fold.x0)  # mirrored about the fold line
        assert close(front.y, back.y)
    # Letter and tarot cards: tarot only fits one a half, mini ones fold the other way round.
    tarot = sheet_layout("letter", CARD_SIZES["tarot"], 0, 0, 5, "fold")
    assert tarot.per_sheet >= 1


def test_crop_marks_extend_cut_lines_outside_every_card():
    for bleed, gutter in ((0, 0), (3, 0), (2, 4)):
        layout = sheet_layout("a4", (63, 88), bleed, gutter, 5, "long")
        slots = layout.grid.slots()
        marks = crop_marks(layout, slots)
        xs = {round(v, 6) for r in slots for v in (r.x, r.x1)}
        ys = {round(v, 6) for r in slots for v in (r.y, r.y1)}
        vertical = [m for m in marks if m.x0 == m.x1]
        horizontal = [m for m in marks if m.y0 == m.y1]
        assert {round(m.x0, 6) for m in vertical} == xs
        assert {round(m.y0, 6) for m in horizontal} == ys
        assert len(vertical) == 2 * len(xs) and len(horizontal) == 2 * len(ys)
        extent = layout.grid.extent
        for m in marks:
            assert m.length >= 1.0
            box = Rect(min(m.x0, m.x1), min(m.y0, m.y1), abs(m.x1 - m.x0), abs(m.y1 - m.y0))
            assert not any(overlaps(box.grown(0.01), r.grown(bleed)) for r in slots)
            assert 5 - 1e-9 <= min(m.x0, m.x1) and max(m.x0, m.x1) <= 210 - 5 + 1e-9  # inside the margin
            assert 5 - 1e-9 <= min(m.y0, m.y1) and max(m.y0, m.y1) <= 297 - 5 + 1e-9
            # outside the grid's bleed, by MARK_GAP
            assert (min(m.y0, m.y1) >= extent.y1 + MARK_GAP - 1e-9 or max(m.y0, m.y1) <= extent.y - MARK_GAP + 1e-9
                    or min(m.x0, m.x1) >= extent.x1 + MARK_GAP - 1e-9 or max(m.x0, m.x1) <= extent.x - MARK_GAP + 1e-9)


def test_no_room_no_crop_marks():
    # Cards filling the printable area exactly leave no room for marks: none are drawn over them.
    layout = sheet_layout("a4", (200, 287), 0, 0, 5, "none")
    assert crop_marks(layout, layout.grid.slots()) == []


def test_tokens_grid():
    grid = token_grid(PAPERS["a4"], 5, 25)
    assert grid.per_sheet >= 32  # all Palaces tokens on one sheet
    centres = grid.centres()
    for (x0, y0), (x1, y1) in zip(centres, centres[1:]):
        assert ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 >= 25 + 2  # cut circles apart
    assert all(5 + 12.5 <= x <= 210 - 5 - 12.5 and 5 + 12.5 <= y <= 297 - 5 - 12.5 for x, y in centres)
    # With the token's colour 1 mm past its cut circle, the colour stays inside the margin too.
    grid = token_grid(PAPERS["a4"], 5, 25, bleed=1)
    assert grid.per_sheet >= 32
    assert all(5 + 13.5 <= x <= 210 - 5 - 13.5 and 5 + 13.5 <= y <= 297 - 5 - 13.5 for x, y in grid.centres())


def test_mirror():
    assert mirror(Rect(10, 20, 63, 88), (210, 297), "x") == Rect(137, 20, 63, 88)
    assert mirror(Rect(10, 20, 63, 88), (210, 297), "y") == Rect(10, 189, 63, 88)


@pytest.mark.parametrize(
    "value, expected",
    [("poker", (63, 88)), ("bridge", (57, 89)), ("mini", (44, 63)), ("tarot", (70, 120)),
     ("60x90", (60, 90)), (" 61.5 X 92 ", (61.5, 92))],
)
def test_card_sizes(value, expected):
    assert parse_card_size(value) == expected


@pytest.mark.parametrize("value", ["huge", "60", "60x", "x90", "0x90", "60x-90", "60x900"])
def test_bad_card_size_is_one_line(value):
    with pytest.raises(UserError) as err:
        parse_card_size(value)
    assert str(err.value).startswith(f"--card {value}:") and "\n" not in str(err.value)


@pytest.mark.parametrize(
    "kwargs, option",
    [
        ({"card": (300, 400)}, "--card"),
        ({"card": (120, 200), "margin": 50}, "--margin"),
        ({"card": (200, 285), "bleed": 6, "margin": 0}, "--bleed"),
        ({"card": (63, 88), "gutter": -1}, "--gutter"),
        ({"card": (63, 88), "paper": "a3"}, "--paper"),
        ({"card": (63, 88), "duplex": "both"}, "--duplex"),
        ({"card": (150, 200), "duplex": "fold"}, "--card"),
    ],
)
def test_layout_that_cannot_fit_is_a_clear_error(kwargs, option):
    args = {"paper": "a4", "bleed": 0, "gutter": 0, "margin": 5, "duplex": "long", **kwargs}
    with pytest.raises(UserError) as err:
        sheet_layout(args["paper"], args["card"], args["bleed"], args["gutter"], args["margin"], args["duplex"])
    assert str(err.value).startswith(option) and "\n" not in str(err.value)
