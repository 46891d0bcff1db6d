"""The card-art generator: sizes, one file per card type, same bytes every run, colour symbols, and the
committed art in card_art/ being exactly what the generator draws today."""

from __future__ import annotations

import dataclasses
from io import BytesIO
from itertools import combinations
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from toolkit.cards import art
from toolkit.catalogue import load
from toolkit.catalogue.model import SYMBOLS
from toolkit.games.registry import games

BUILTIN_GAMES = tuple(games())
GAME_KINDS = {game.id: game.kinds for game in games().values()}
COLOURED_KINDS = frozenset().union(*(game.coloured_kinds for game in games().values()))
from toolkit.errors import UserError

COMMITTED_ART = Path(__file__).parent.parent / "toolkit" / "card_art"
MAX_BYTES = 400 * 1024


@pytest.fixture(scope="module")
def catalogues():
    return {game: load(game, require_art=False) for game in BUILTIN_GAMES}


@pytest.fixture(scope="module")
def drawn(tmp_path_factory, catalogues):
    """All the art of both games, drawn once into a temporary folder: game -> (folder, written paths)."""
    out = tmp_path_factory.mktemp("art")
    return {game: (out, art.write_art(catalogue, out)) for game, catalogue in catalogues.items()}


def expected_paths(catalogue, out: Path) -> list[Path]:
    return [out / card.art for card in catalogue.cards] + [out / catalogue.back_art]


def same_picture(a: Path, b: Path) -> bool:
    """Same bytes, or (with another zlib build compressing differently) the same pixels."""
    if a.read_bytes() == b.read_bytes():
        return True
    with Image.open(a) as one, Image.open(b) as two:
        return one.mode == two.mode and one.size == two.size and one.tobytes() == two.tobytes()


def test_card_size_from_millimetres():
    assert art.CARD_PX == (815, 1110)
    assert art.card_px(63, 88, 3) == art.CARD_PX
    assert art.card_px(63, 88, 0) == (744, 1039)
    assert art.MARGIN_PX == 71


def test_every_kind_and_symbol_has_a_drawing():
    for game in games().values():
        assert all(game.kind_art(kind) is not None for kind in game.kinds), game.id
        for kind in set(game.kinds) - COLOURED_KINDS:  # its own sign or frame
            assert game.kind_art(kind).icon is not None or game.kind_art(kind).frame != art.PLAIN.frame
        assert game.back_painter() is not None, game.id  # its own back
    shapes = []
    for symbol in SYMBOLS:
        pen = art.Pen((100, 100), art.WHITE)
        art.draw_symbol(pen, symbol, 50, 50, 35, (200, 30, 30))
        shapes.append(pen.finish().tobytes())
    assert len(set(shapes)) == len(SYMBOLS)
    with pytest.raises(ValueError):
        art.draw_symbol(art.Pen((10, 10), art.WHITE), "moon", 5, 5, 3, art.INK)


def test_one_file_per_card_type_and_a_back(drawn, catalogues):
    for game, catalogue in catalogues.items():
        out, written = drawn[game]
        assert written == expected_paths(catalogue, out)
        folder = (out / catalogue.back_art).parent
        assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in written)  # no temporary files


def test_sizes_mode_and_file_size(drawn):
    for out, written in drawn.values():
        for path in written:
            assert path.stat().st_size < MAX_BYTES, path
            with Image.open(path) as image:
                assert image.format == "PNG" and image.mode == "RGB" and image.size == art.CARD_PX, path


def test_same_inputs_same_bytes(drawn, catalogues, tmp_path):
    for game, catalogue in catalogues.items():
        again = art.write_art(catalogue, tmp_path)
        assert [p.read_bytes() for p in again] == [p.read_bytes() for p in drawn[game][1]]


def test_colours_differ_and_are_told_by_shape(drawn, catalogues):
    for game, catalogue in catalogues.items():
        out, _ = drawn[game]
        for kind in COLOURED_KINDS & set(GAME_KINDS[game]):
            cards = catalogue.of_kind(kind)
            assert len({card.colour for card in cards}) > 1
            corners = {}
            for card in cards:
                with Image.open(out / card.art) as image:
                    pixels = image.tobytes()
                    # Only the dark outlines: what a reader without colour vision still sees.
                    box = [art.BADGE_CENTRE - art.BADGE_RADIUS, art.BADGE_CENTRE - art.BADGE_RADIUS,
                           art.BADGE_CENTRE + art.BADGE_RADIUS, art.BADGE_CENTRE + art.BADGE_RADIUS]
                    outline = image.crop(box).convert("L").point(lambda v: 255 if v < 90 else 0)
                corners[card.id] = (pixels, outline.tobytes())
            for a, b in combinations(corners, 2):
                assert corners[a][0] != corners[b][0], (a, b)
                assert corners[a][1] != corners[b][1], f"{a} and {b} show the same corner shape"


def test_text_panel_is_plain(drawn):
    """The lower part of every face stays one flat colour for the card renderer's text (but the badge)."""
    x0, y0, x1, y1 = art.PANEL_BOX
    inset = art.CORNER_RADIUS
    text_area = (x0 + inset, y0 + inset, x1 - inset, y1 - 2 * art.BADGE_RADIUS - inset)
    for _, written in drawn.values():
        for path in written[:-1]:
            with Image.open(path) as image:
                colours = image.crop(text_area).getcolors(4)
            assert colours is not None and len(colours) == 1, path


def test_backs_look_the_same_after_a_half_turn(catalogues):
    for catalogue in catalogues.values():
        back = art.draw_back(catalogue)
        assert back.size == art.CARD_PX and back.mode == "RGB"
        diff = ImageChops.difference(back, back.transpose(Image.Transpose.ROTATE_180)).convert("L")
        assert ImageStat.Stat(diff).mean[0] < 1.0, catalogue.game


def test_art_follows_the_catalogue_colours(catalogues):
    catalogue = catalogues["diamoniak"]
    card = catalogue.of_kind("castle")[0]
    before = art.draw_face(card, catalogue)
    repainted = tuple(
        dataclasses.replace(c, rgb="#7a3fb0", symbol="hexagon") if c.id == card.colour else c
        for c in catalogue.colours
    )
    after = art.draw_face(card, dataclasses.replace(catalogue, colours=repainted))
    assert before.tobytes() != after.tobytes()
    assert after.getpixel((art.WIDTH // 2, 5)) == (0x7A, 0x3F, 0xB0)  # the frame, in the bleed


def test_absolute_art_path_is_refused(catalogues, tmp_path):
    catalogue = catalogues["diamoniak"]
    cards = (dataclasses.replace(catalogue.cards[0], art=str(tmp_path / "elsewhere.png")),) + catalogue.cards[1:]
    with pytest.raises(UserError, match="relative"):
        art.write_art(dataclasses.replace(catalogue, cards=cards), tmp_path / "out")


def test_png_has_no_varying_metadata():
    image = Image.new("RGB", (4, 4), art.PAPER)
    data = art.png_bytes(image)
    assert data == art.png_bytes(image)
    assert b"tIME" not in data and b"tEXt" not in data
    marked = art.png_bytes(image, marked=True)  # what `toolkit art` writes: its mark and its pixels' digest
    assert b"tIME" not in marked and Image.open(BytesIO(marked)).text == dict([art.MARK, (art.PIXELS,
                                                                                        art.pixel_digest(image))])
    assert Image.open(BytesIO(data)).info.get("dpi") == pytest.approx((art.DPI, art.DPI), abs=0.01)


def test_committed_art_is_up_to_date(drawn, catalogues):
    """card_art/ holds exactly what the generator draws: run `toolkit art` (or write_art) after a change."""
    for game, catalogue in catalogues.items():
        out, written = drawn[game]
        for path in written:
            committed = COMMITTED_ART / path.relative_to(out)
            assert committed.is_file(), f"{committed} is missing"
            assert same_picture(path, committed), f"{committed} is out of date"
        folder = COMMITTED_ART / catalogue.back_art
        stale = {p.name for p in folder.parent.glob("*.png")} - {p.name for p in written}
        assert not stale, f"{folder.parent} holds art no card uses: {sorted(stale)}"


def test_art_never_replaces_a_picture_it_did_not_draw(run, tmp_path):
    """A designer's own picture at an art path is kept, and nothing is written; the toolkit's own
    pictures (and files with the very bytes it would write) are replaced as before."""
    out = tmp_path / "art"
    assert run("art", "--game", "diamoniak", "--out-dir", str(out)).exit_code == 0
    assert run("art", "--game", "diamoniak", "--out-dir", str(out)).exit_code == 0  # its own: replaced
    mine = out / "diamoniak" / "witch.png"
    Image.new("RGB", (30, 20), (1, 2, 3)).save(mine)  # the family photo
    before = {p: p.read_bytes() for p in out.rglob("*.png")}
    (out / "diamoniak" / "fairy.png").unlink()
    result = run("art", "--game", "diamoniak", "--out-dir", str(out))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"{mine}: this picture was not drawn by 'toolkit art'" in result.stderr
    assert mine.read_bytes() == before[mine] and not (out / "diamoniak" / "fairy.png").exists()
    assert not list(out.rglob(".toolkit-*"))
