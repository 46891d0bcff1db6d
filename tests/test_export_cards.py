"""export-cards: PNGs and manifest for card printers, one-card-per-page PDF with TrimBox/BleedBox,
and a Tabletop Simulator deck (sheet, back, saved object)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from toolkit.catalogue import load
from toolkit.print.export import MARK, export_cards
from toolkit.print.tts import tts_grid
from toolkit.typeset.units import PT_PER_MM


@pytest.fixture(scope="module")
def diamoniak():
    return load("diamoniak")


@pytest.fixture(scope="module")
def png_export(tmp_path_factory, diamoniak):
    out = tmp_path_factory.mktemp("png")
    return out, export_cards(diamoniak, "png", out, lang="ru")


def test_png_per_face_and_back_at_300_dpi_with_bleed(png_export, diamoniak):
    out, result = png_export
    files = sorted(p.name for p in out.iterdir() if p.name != MARK)  # the export's mark: see test_files
    assert files == sorted([f"{c.id}.png" for c in diamoniak.cards] + ["back.png", "manifest.csv"])
    for name in files:
        if name.endswith(".png"):
            with Image.open(out / name) as image:
                assert image.size == (815, 1110) and image.mode == "RGB"
                assert round(image.info["dpi"][0]) == 300


def test_png_manifest(png_export, diamoniak):
    out, _ = png_export
    rows = list(csv.DictReader(io.StringIO((out / "manifest.csv").read_text(encoding="utf-8"))))
    assert [r["card_id"] for r in rows] == [c.id for c in diamoniak.cards] + ["back"]
    assert {r["card_id"]: int(r["count"]) for r in rows} == {**{c.id: c.count for c in diamoniak.cards}, "back": 54}
    assert all((out / r["file"]).is_file() for r in rows)
    assert rows[0]["name"] == "Красный замок"


def test_png_bleed_option_and_same_bytes(tmp_path, diamoniak, png_export):
    out, _ = png_export
    one = load("diamoniak", overrides=[f"{c.id}=0" for c in diamoniak.cards if c.id != "witch"])
    export_cards(one, "png", tmp_path / "a", lang="ru")
    assert (tmp_path / "a/witch.png").read_bytes() == (out / "witch.png").read_bytes()
    export_cards(one, "png", tmp_path / "b", lang="ru", bleed=0, card_mm=(57, 89))
    with Image.open(tmp_path / "b/witch.png") as image:
        assert image.size == (673, 1051)  # 57 x 89 mm at 300 DPI
    rows = (tmp_path / "b/manifest.csv").read_text(encoding="utf-8").splitlines()
    assert rows == ["file,card_id,count,name,side,back", "witch.png,witch,7,Ведьма,face,back.png",
                    "back.png,back,7,Рубашка,back,"]


def test_pdf_single_one_card_per_page_with_trim_and_bleed_boxes(tmp_path):
    catalogue = load("diamoniak", overrides=["castle-red=1", "castle-blue=0", "castle-green=0", "castle-yellow=0",
                                             "diamond=1", "witch=0", "fairy=1"])
    result = export_cards(catalogue, "pdf-single", tmp_path, lang="en")
    (path,) = result.files
    reader = PdfReader(path)
    assert len(reader.pages) == 6  # three cards, each face then its back
    for page in reader.pages:
        media = [float(v) / PT_PER_MM for v in page.mediabox]
        trim = [float(v) / PT_PER_MM for v in page.trimbox]
        bleed = [float(v) / PT_PER_MM for v in page.bleedbox]
        assert media == pytest.approx([0, 0, 69, 94], abs=0.01)
        assert trim == pytest.approx([3, 3, 66, 91], abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)
    text = [page.extract_text() for page in reader.pages]
    assert "Red castle" in text[0] and "Diamond" in text[2] and "Fairy" in text[4]
    assert text[1].strip() == "" and text[3].strip() == ""
    again = export_cards(catalogue, "pdf-single", tmp_path / "again", lang="en")
    assert again.files[0].read_bytes() == path.read_bytes()


# The largest cells first (full size where a grid allows), then the fewest empty cells, then the
# squarest: 18 cells take 5 x 4 at 733 x 1024 px (6 x 3, with no empty cell, would be 682 x 952).
@pytest.mark.parametrize("count, expected, full", [(7, (4, 2), True), (8, (4, 2), True), (14, (5, 3), True),
                                                   (18, (5, 4), False), (1, (2, 2), True), (70, (10, 7), False)])
def test_tts_grid(count, expected, full):
    cols, rows, cell = tts_grid(count, (744, 1039))
    assert (cols, rows) == expected and cols * rows >= count
    assert cols * cell[0] <= 4096 and rows * cell[1] <= 4096
    assert abs(cell[0] / cell[1] - 744 / 1039) < 0.01
    assert (cell == (744, 1039)) is full


def test_screentop_grid_keeps_diamoniaks_seven_faces_full_size():
    from toolkit.print.screentop import screentop_grid

    assert screentop_grid(7, (744, 1039)) == (4, 2, (744, 1039))  # 2976 x 2078, not 7 x 1 shrunk to 585 px


def test_tts_deck(tmp_path):
    palaces = load("palaces")
    result = export_cards(palaces, "tts", tmp_path, lang="ru")
    names = sorted(p.name for p in result.files)
    assert names == ["palaces-ru-back.png", "palaces-ru-deck-1.png", "palaces-ru-token-1.png",
                     "palaces-ru-token-5.png", "palaces-ru.json", "palaces-ru.png"]
    saved = json.loads((tmp_path / "palaces-ru.json").read_text(encoding="utf-8"))
    deck, *bags = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and [bag["Name"] for bag in bags] == ["Bag", "Bag"]
    (key, entry), = deck["CustomDeck"].items()
    faces = [card for card in palaces.cards if card.count]
    assert len(faces) == 17
    assert (entry["NumWidth"], entry["NumHeight"]) == (5, 4)  # 17 faces and the hidden card, the largest cells
    assert entry["FaceURL"] == (tmp_path / "palaces-ru-deck-1.png").resolve().as_uri()
    assert entry["BackURL"] == (tmp_path / "palaces-ru-back.png").resolve().as_uri()
    assert entry["FaceURL"].startswith("file:///")
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == 70
    by_name = {}
    for card in deck["ContainedObjects"]:
        by_name[card["Nickname"]] = by_name.get(card["Nickname"], 0) + 1
        assert card["CardID"] // 100 == int(key) and card["CardID"] % 100 < len(faces)
    assert by_name == {card.name["ru"]: card.count for card in faces}
    with Image.open(tmp_path / "palaces-ru-deck-1.png") as sheet, Image.open(tmp_path / "palaces-ru-back.png") as back:
        assert max(sheet.size) <= 4096
        assert back.size == (744, 1039)  # 63 x 88 mm at 300 DPI, cut at the trim
        cell = (sheet.width // 5, sheet.height // 4)
        assert sheet.size == (5 * cell[0], 4 * cell[1])
        # The slot of card id n shows that card: the sheet cell of "Наводнение" (flood, the last) is not blank.
        flood = next(c["CardID"] % 100 for c in deck["ContainedObjects"] if c["Nickname"] == "Наводнение")
        x, y = (flood % 5) * cell[0] + cell[0] // 2, (flood // 5) * cell[1] + cell[1] // 4
        assert sheet.getpixel((x, y)) != (255, 255, 255)
        # The 20th, last cell is the hidden card: the back.
        hidden = sheet.crop((4 * cell[0], 3 * cell[1], 5 * cell[0], 4 * cell[1]))
        assert hidden.tobytes() == back.resize(cell, Image.Resampling.LANCZOS).convert("RGB").tobytes()


def test_cli_export(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("export-cards", "--target", "png", "--set", "diamond=0", "--set", "witch=0", "--set", "fairy=0",
                 "--set", "castle-blue=0", "--set", "castle-green=0", "--set", "castle-yellow=0")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "output/diamoniak-png-en/"
    assert sorted(p.name for p in Path("output/diamoniak-png-en").iterdir()) == [
        MARK, "back.png", "castle-red.png", "manifest.csv", "player_aid-en.png", "player_aid_back-en.png"]
    result = run("export-cards")
    assert result.exit_code == 2 and "--target" in result.stderr
    result = run("export-cards", "--target", "png", "--bleed", "11")
    assert result.exit_code == 2 and result.stderr.startswith("toolkit: error: --bleed 11: must be from 0 to 10 mm")


ONE_TOWER = [f"{c.id}=0" for c in load("palaces").cards if c.id != "tower"]


def test_png_palaces_tokens_go_with_the_cards(tmp_path):
    palaces = load("palaces", overrides=ONE_TOWER)
    result = export_cards(palaces, "png", tmp_path, lang="en", bleed=2)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "manifest.csv").read_text(encoding="utf-8"))))
    tokens = [r for r in rows if r["side"] == "token"]
    assert [(r["file"], r["card_id"], int(r["count"]), r["back"]) for r in tokens] == [
        (f"{t.id}.png", t.id, t.count, f"{t.id}.png") for t in palaces.tokens]  # each token its own back
    assert {r["side"] for r in rows if r not in tokens} == {"face", "back"}
    for token in tokens:
        with Image.open(tmp_path / token["file"]) as image:
            assert image.size == (343, 343) and image.mode == "RGB"  # 25 mm + 2 mm bleed each side
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([r["file"] for r in rows] + ["manifest.csv", MARK])
    assert "2 kinds of token (32 in all" in result.summary


def _token_centres(reader: PdfReader, page) -> list[tuple[str, float, float]]:
    """(token form, centre x, y in mm) of each token a page draws."""
    placed, at = [], None
    for args, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            at = (float(args[4]) / PT_PER_MM, float(args[5]) / PT_PER_MM)
        elif op == b"Do" and str(args[0]).startswith("/FormXob.token-"):
            placed.append((str(args[0]), *at))
    return sorted(placed)


def test_pdf_single_palaces_token_cards_each_followed_by_its_tokens_mirrored(tmp_path):
    palaces = load("palaces", overrides=ONE_TOWER)
    result = export_cards(palaces, "pdf-single", tmp_path, lang="ru")
    reader = PdfReader(result.files[0])
    tokens = sum(t.count for t in palaces.tokens)
    cards = -(-tokens // 6)  # six tokens on a poker card
    assert len(reader.pages) == 2 * (palaces.total + cards)
    # The Subject counts every card the file holds, the token cards too.
    assert reader.metadata.subject == f"{palaces.total + cards} карт, 63 × 88 мм"
    drawn = {}
    for front, back in zip(reader.pages[2 * palaces.total::2], reader.pages[2 * palaces.total + 1::2]):
        here = _token_centres(reader, front)
        mirrored = sorted((name, 69 - x, y) for name, x, y in _token_centres(reader, back))
        assert [n for n, _, _ in here] == [n for n, _, _ in mirrored] and here
        assert np.allclose([xy for _, *xy in here], [xy for _, *xy in mirrored], atol=1e-3)
        for name, x, y in here:  # each cut circle (and its 1 mm of colour) inside the trim, 3 mm in
            assert 3 + 3 - 0.01 <= x - 12.5 and x + 12.5 <= 66 - 3 + 0.01
            assert 3 + 3 - 0.01 <= y - 12.5 and y + 12.5 <= 91 - 3 + 0.01
            drawn[name] = drawn.get(name, 0) + 1
        assert front.trimbox == reader.pages[0].trimbox
    assert drawn == {f"/FormXob.token-{t.id}": t.count for t in palaces.tokens}
    assert "6 token cards" in result.summary and f"{2 * (palaces.total + cards)} pages" in result.summary
