"""Cards with backs of their own (a sheet's ``back`` column): each card's back behind its own face
on the print-and-play sheets and in every export, read back from outside: the sheet PDF's pixels,
the exports' manifests, files and saved object, and preflight on each."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

# The deck's back (back.png beside the sheet) and two backs of the cards' own, each its own colour.
BACKS = {"back.png": (30, 60, 200), "red.png": (200, 30, 30), "green.png": (30, 160, 60)}
# id, copies, face colour, back picture ("" for the deck's)
CARDS = [("anchor", 2, (230, 200, 40), "red.png"), ("bell", 1, (150, 80, 200), "green.png"),
         ("crown", 2, (240, 140, 40), ""), ("drum", 1, (40, 200, 200), "red.png")]
BACK_OF = {card_id: BACKS[back or "back.png"] for card_id, _, _, back in CARDS}
# The files the exports name each back after: the deck's, then each picture after its first card.
BACK_FILES = {"back.png": "back.png", "red.png": "back_anchor.png", "green.png": "back_bell.png"}
FILE_OF = {card_id: BACK_FILES[back or "back.png"] for card_id, _, _, back in CARDS}


def colour_file(path: Path, rgb: tuple[int, int, int], size=(126, 176)) -> None:
    Image.new("RGB", size, rgb).save(path)


@pytest.fixture
def deck(tmp_path) -> Path:
    """A CSV deck of four card types, three of them with a back picture of their own (two sharing one)."""
    for name, rgb in BACKS.items():
        colour_file(tmp_path / name, rgb)
    lines = ["id,name,copies,art,back"]
    for card_id, copies, rgb, back in CARDS:
        colour_file(tmp_path / f"{card_id}.png", rgb)
        lines.append(f"{card_id},{card_id.title()},{copies},{card_id}.png,{back}")
    path = tmp_path / "crests.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def near(pixel, rgb, tolerance: int = 12) -> bool:
    return max(abs(int(a) - int(b)) for a, b in zip(pixel, rgb)) <= tolerance


def runs(present: np.ndarray) -> list[tuple[int, int]]:
    """The [start, end) runs of True in a 1-D array."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], present.astype(int), [0]))))
    return list(zip(edges[::2], edges[1::2]))


def patches(page: np.ndarray, rgb) -> list[tuple[int, int]]:
    """The centre (x, y) of every card-sized patch of ``rgb`` on a page of cards in a grid (cards
    apart by a gutter, so that two copies side by side are two patches)."""
    mask = (np.abs(page.astype(int) - np.array(rgb)).max(axis=2) <= 12)
    found = []
    for y0, y1 in runs(mask.any(axis=1)):
        for x0, x1 in runs(mask[y0:y1].any(axis=0)):
            if (x1 - x0) * (y1 - y0) > 400:  # a card, not an antialiased edge
                found.append(((x0 + x1) // 2, (y0 + y1) // 2))
    return found


def rendered(pdf: Path) -> list[np.ndarray]:
    document = pdfium.PdfDocument(str(pdf))
    return [np.asarray(page.render(scale=1).to_pil().convert("RGB")) for page in document]


@pytest.mark.parametrize("duplex", ["long", "short", "fold"])
def test_each_back_lies_behind_its_own_face(run, deck, tmp_path, duplex):
    out = tmp_path / "sheet.pdf"
    result = run("print-cards", "--catalogue", str(deck), "--duplex", duplex, "--gutter", "4", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    pages = rendered(out)
    # (fronts, their backs): the next page for a duplex flip, the same page for a fold.
    sheets = [(page, page) for page in pages] if duplex == "fold" else list(zip(pages[::2], pages[1::2]))
    assert len(sheets) * (1 if duplex == "fold" else 2) == len(pages)
    found = dict.fromkeys(BACK_OF, 0)
    for fronts, backs in sheets:
        height, width = fronts.shape[:2]
        centres = [(card_id, xy) for card_id, _, rgb, _ in CARDS for xy in patches(fronts, rgb)]
        # A fold: the fronts on one half of the page, their backs mirrored about the fold line.
        across = duplex == "long" or (duplex == "fold" and all(x < width / 2 for _, (x, _) in centres))
        for card_id, (x, y) in centres:
            behind = (width - 1 - x, y) if across else (x, height - 1 - y)
            assert near(backs[behind[1], behind[0]], BACK_OF[card_id]), (card_id, behind, backs[behind[1], behind[0]])
            found[card_id] += 1
    assert found == {card_id: copies for card_id, copies, _, _ in CARDS}


def test_fronts_only_print_no_back(run, deck, tmp_path):
    """--duplex none: fronts only, no back of any card on the page."""
    out = tmp_path / "fronts.pdf"
    assert run("print-cards", "--catalogue", str(deck), "--duplex", "none", "--out", str(out)).exit_code == 0
    (page,) = rendered(out)
    assert not any(patches(page, rgb) for rgb in BACKS.values())


def read_manifest(folder: Path) -> list[dict]:
    return list(csv.DictReader((folder / "manifest.csv").open(encoding="utf-8")))


def centre(path: Path) -> tuple[int, int, int]:
    with Image.open(path) as image:
        return image.convert("RGB").getpixel((image.width // 2, image.height // 2))


@pytest.mark.parametrize("target", ["png", "tgc", "mpc", "tabletopia"])
def test_png_sets_name_each_cards_back(run, deck, tmp_path, target):
    out = tmp_path / target
    result = run("export-cards", "--catalogue", str(deck), "--target", target, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "and 3 backs of" in result.stdout
    rows = read_manifest(out)
    count = "count" if target == "png" else "quantity"
    faces = {row["card_id"]: row for row in rows if row["side"] == "face"}
    assert {card_id: row["back"] for card_id, row in faces.items()} == FILE_OF
    backs = {row["file"]: int(row[count]) for row in rows if row["side"] == "back"}
    assert backs == {"back.png": 2, "back_anchor.png": 3, "back_bell.png": 1}
    for picture, file in BACK_FILES.items():
        assert near(centre(out / file), BACKS[picture]), file
    if target != "png":
        check = run("preflight", str(out), "--target", target)
        assert check.exit_code == 0, check.stdout


def test_pdf_single_follows_each_face_with_its_own_back(run, deck, tmp_path):
    out = tmp_path / "single"
    assert run("export-cards", "--catalogue", str(deck), "--target", "pdf-single", "--out", str(out)).exit_code == 0
    pages = rendered(next(out.glob("*.pdf")))
    order = [card_id for card_id, copies, _, _ in CARDS for _ in range(copies)]
    assert len(pages) == 2 * len(order)
    for index, card_id in enumerate(order):
        face, back = pages[2 * index], pages[2 * index + 1]
        h, w = back.shape[:2]
        assert near(back[h // 2, w // 2], BACK_OF[card_id]), (index, card_id)
        assert not near(face[h // 2, w // 2], BACK_OF[card_id])


def test_drivethru_puts_each_cards_own_back_before_it(run, deck, tmp_path):
    out = tmp_path / "dtc"
    assert run("export-cards", "--catalogue", str(deck), "--target", "drivethru", "--out", str(out)).exit_code == 0
    pages = rendered(next(out.glob("*.pdf")))
    order = [card_id for card_id, copies, _, _ in CARDS for _ in range(copies)]
    assert len(pages) == 2 * len(order)
    for index, card_id in enumerate(order):
        back = pages[2 * index]
        h, w = back.shape[:2]
        # Through CMYK and back: the hue stays, the shade moves a little.
        assert near(back[h // 2, w // 2], BACK_OF[card_id], 60), (index, card_id, back[h // 2, w // 2])
    check = run("preflight", str(out), "--target", "drivethru")
    assert check.exit_code == 0, check.stdout
    assert "cards with backs of their own" in check.stdout


def test_screentop_names_each_cards_back(run, deck, tmp_path):
    out = tmp_path / "screentop"
    assert run("export-cards", "--catalogue", str(deck), "--target", "screentop", "--out", str(out)).exit_code == 0
    rows = read_manifest(out)
    prefix = "crests-en-"
    assert {row["id"]: row["back"] for row in rows if row["side"] == "face"} == {
        card_id: prefix + file for card_id, file in FILE_OF.items()}
    assert {row["file"]: int(row["count"]) for row in rows if row["side"] == "back"} == {
        prefix + "back.png": 2, prefix + "back_anchor.png": 3, prefix + "back_bell.png": 1}
    saved = json.loads((out / "screentop.json").read_text(encoding="utf-8"))
    assert [card["back"] for card in saved["cards"]] == [prefix + FILE_OF[c[0]] for c in CARDS]
    for picture, file in BACK_FILES.items():
        assert near(centre(out / (prefix + file)), BACKS[picture]), file
    check = run("preflight", str(out), "--target", "screentop")
    assert check.exit_code == 0, check.stdout
    assert "3 backs" in check.stdout


def test_tts_gives_a_unique_back_sheet_cut_like_the_faces(run, deck, tmp_path):
    out = tmp_path / "tts"
    assert run("export-cards", "--catalogue", str(deck), "--target", "tts", "--out", str(out)).exit_code == 0
    saved = json.loads((out / "crests-en.json").read_text(encoding="utf-8"))
    (deck_object,) = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    (entry,) = deck_object["CustomDeck"].values()
    assert entry["UniqueBack"] is True and entry["BackURL"].endswith("crests-en-backs-1.png")
    faces = Image.open(out / "crests-en-deck-1.png").convert("RGB")
    backs = Image.open(out / "crests-en-backs-1.png").convert("RGB")
    assert backs.size == faces.size
    cols, rows = entry["NumWidth"], entry["NumHeight"]
    cw, ch = faces.width // cols, faces.height // rows
    for card in deck_object["ContainedObjects"]:
        index = card["CardID"] % 100
        x, y = index % cols * cw + cw // 2, index // cols * ch + ch // 2
        card_id = card["Nickname"].lower()
        assert near(backs.getpixel((x, y)), BACK_OF[card_id]), card_id
        assert near(faces.getpixel((x, y)), dict((c[0], c[2]) for c in CARDS)[card_id])
    check = run("preflight", str(out), "--target", "tts")
    assert check.exit_code == 0, check.stdout


def test_a_back_the_deck_shares_prints_the_same_bytes(run, deck, tmp_path, monkeypatch):
    """Cards whose back column names the deck's own back print as a deck without the column (the two
    folders' files are written at different times, which would date the PDFs apart: one date for both)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    plain = tmp_path / "plain"
    plain.mkdir()
    for card_id, _, rgb, _ in CARDS:
        colour_file(plain / f"{card_id}.png", rgb)
    colour_file(plain / "back.png", BACKS["back.png"])
    rows = [f"{card_id},{card_id.title()},{copies},{card_id}.png" for card_id, copies, _, _ in CARDS]
    (plain / "crests.csv").write_text("id,name,copies,art\n" + "\n".join(rows) + "\n", encoding="utf-8")
    named = tmp_path / "named"
    named.mkdir()
    for file in plain.iterdir():
        (named / file.name).write_bytes(file.read_bytes())
    (named / "crests.csv").write_text("id,name,copies,art,back\n" + "\n".join(f"{r},back.png" for r in rows) + "\n",
                                      encoding="utf-8")
    for folder in (plain, named):
        assert run("print-cards", "--catalogue", str(folder / "crests.csv"), "--out", str(folder / "out.pdf")).exit_code == 0
        assert run("export-cards", "--catalogue", str(folder / "crests.csv"), "--target", "png",
                   "--out", str(folder / "png")).exit_code == 0
    assert (plain / "out.pdf").read_bytes() == (named / "out.pdf").read_bytes()
    for file in (plain / "png").iterdir():
        assert file.read_bytes() == (named / "png" / file.name).read_bytes(), file.name


def error(result) -> str:
    assert result.exit_code == 2 and result.stdout == "", (result.exit_code, result.stdout)
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.removeprefix("toolkit: error: ").rstrip("\n")


def test_a_missing_or_unreadable_back_is_one_line_naming_the_sheet_row_and_column(run, deck, tmp_path):
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("bell.png,green.png", "bell.png,grey.png"), encoding="utf-8")
    assert error(run("print-cards", "--catalogue", str(deck), "--out", str(tmp_path / "a.pdf"))) == (
        "crests.csv: row 3, column \"back\": art file 'grey.png' does not exist (run 'toolkit art' to draw it)")
    (tmp_path / "grey.png").write_bytes(b"not a picture")
    message = error(run("export-cards", "--catalogue", str(deck), "--target", "tts", "--out", str(tmp_path / "t")))
    assert message.startswith("crests.csv: row 3, column \"back\": "), message
    assert not (tmp_path / "a.pdf").exists() and not (tmp_path / "t").exists()
    # A picture whose header reads but whose pixels do not: refused when the deck is read, not half-way.
    (tmp_path / "grey.png").write_bytes((tmp_path / "red.png").read_bytes()[:60])
    assert error(run("catalogue", "--catalogue", str(deck))) == (
        "crests.csv: row 3, column \"back\": cannot read the art file 'grey.png': image file is truncated")


TOML = """[game]
id = "crests"
title = { en = "Crests" }
players = { min = 2, max = 4 }
age = 8
minutes = { min = 10, max = 20 }
langs = ["en"]
back_art = "back.png"

[[cards]]
id = "anchor"
kind = "card"
count = 2
name = { en = "Anchor" }
text = { en = "Play it." }
art = "anchor.png"
back = "BACK"

[[cards]]
id = "crown"
kind = "card"
count = 1
name = { en = "Crown" }
text = { en = "Keep it." }
art = "crown.png"
"""


def test_a_toml_card_names_its_own_back(run, deck, tmp_path):
    path = tmp_path / "crests.toml"
    path.write_text(TOML.replace("BACK", "red.png"), encoding="utf-8")
    out = tmp_path / "png"
    result = run("export-cards", "--catalogue", str(path), "--target", "png", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    rows = read_manifest(out)
    assert [(row["file"], row["count"], row["back"]) for row in rows] == [
        ("anchor.png", "2", "back_anchor.png"), ("crown.png", "1", "back.png"),
        ("back.png", "1", ""), ("back_anchor.png", "2", "")]
    assert near(centre(out / "back_anchor.png"), BACKS["red.png"])
    path.write_text(TOML.replace("BACK", "none.png"), encoding="utf-8")
    assert error(run("print-cards", "--catalogue", str(path), "--out", str(tmp_path / "a.pdf"))) == (
        "crests.toml: cards[0].back: art file 'none.png' does not exist (run 'toolkit art' to draw it)")


def test_a_drivethru_deck_of_backs_all_its_own_passes_preflight(run, deck, tmp_path):
    """Every card a back of its own and one copy: no page repeats, so which are backs cannot be told
    from the pages alone (a warning, not a failure of a file DriveThruCards prints as given)."""
    rows = "id,name,copies,art,back\nanchor,Anchor,1,anchor.png,red.png\nbell,Bell,1,bell.png,green.png\n"
    deck.write_text(rows, encoding="utf-8")
    out = tmp_path / "dtc"
    assert run("export-cards", "--catalogue", str(deck), "--target", "drivethru", "--out", str(out)).exit_code == 0
    pages = rendered(next(out.glob("*.pdf")))
    h, w = pages[0].shape[:2]
    assert [near(pages[i][h // 2, w // 2], BACKS[picture], 60) for i, picture in ((0, "red.png"), (2, "green.png"))] \
        == [True, True]
    check = run("preflight", str(out), "--target", "drivethru")
    assert check.exit_code == 0, check.stdout
    assert "WARN page order" in check.stdout and "which pages are backs cannot be told" in check.stdout
