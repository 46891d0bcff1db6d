"""Decks from spreadsheets (CSV, XLSX, ODS): one row per card type, through the CLI; every bad row,
column or file is one line naming the sheet, the row and the column."""

from __future__ import annotations

import datetime
import json
import shutil
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image

SHEETS = Path(__file__).parent / "sheets"
SUITS = ("hearts", "bells", "acorns", "leaves")


def picture(path: Path, shade: int = 120) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (63, 88), (shade, 90, 160)).save(path)


def folder_with_art(folder: Path) -> Path:
    picture(folder / "card.png")
    picture(folder / "back.png", 30)
    return folder


def write_csv(folder: Path, text: str, name: str = "deck.csv", encoding: str = "utf-8") -> Path:
    folder_with_art(folder)
    path = folder / name
    path.write_bytes(text.encode(encoding))
    return path


def write_xlsx(folder: Path, rows: list[list], name: str = "deck.xlsx", merge: str | None = None) -> Path:
    folder_with_art(folder)
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    if merge:
        book.active.merge_cells(merge)
    path = folder / name
    book.save(path)
    return path


def suits_rows() -> list[list]:
    rows = [["name", "copies", "art", "suit", "value", "text"]]
    rows += [[f"{value} of {suit}", 1, "card.png", suit, value, "Play it high." if value == 10 else None]
             for suit in SUITS for value in range(1, 11)]
    return rows


def error(result) -> str:
    assert result.exit_code == 2 and result.stdout == "", (result.exit_code, result.stdout)
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.removeprefix("toolkit: error: ").rstrip("\n")


def test_an_xlsx_deck_alone_is_a_game(run, tmp_path):
    path = write_xlsx(tmp_path, suits_rows(), "Four Suits.xlsx")
    data = json.loads(run("catalogue", "--catalogue", str(path), "--json").stdout)
    assert data["game"] == "four-suits" and data["total"] == 40
    assert data["cards"][9] == {"id": "10-of-hearts", "kind": "card", "colour": None, "count": 1,
                                "name": {"en": "10 of hearts"}, "fields": {"suit": "hearts", "value": 10}}
    odds = run("odds", "--catalogue", str(path), "--model", "hand", "--hand", "5", "--at-least", "2",
               "--where", "value=10", "--json")
    assert json.loads(odds.stdout)["chance"] == "97/1406"
    assert run("catalogue", "--catalogue", str(path)).stdout.startswith("Four Suits (four-suits)\n")


def test_a_csv_deck_prints_and_exports_under_its_own_name(run, tmp_path):
    lines = ["id;name;count;art;back;cost", "knight;Knight;3;card.png;;2", "queen;Queen;1;card.png;back.png;5"]
    path = write_csv(tmp_path, "\ufeff" + "\r\n".join(lines) + "\r\n", "court.csv")  # BOM, semicolons, CRLF
    deck = json.loads(run("catalogue", "--catalogue", str(path), "--json").stdout)
    assert [(c["id"], c["count"], c["fields"]) for c in deck["cards"]] == [("knight", 3, {"cost": 2}),
                                                                        ("queen", 1, {"cost": 5})]
    sheet = run("print-cards", "--catalogue", str(path), "--out", str(tmp_path / "out.pdf"))
    assert sheet.exit_code == 0, sheet.stderr
    export = run("export-cards", "--catalogue", str(path), "--target", "png", "--out", str(tmp_path / "png"))
    assert export.exit_code == 0, export.stderr
    assert {p.name for p in (tmp_path / "png").iterdir() if not p.name.startswith(".")} >= {"knight.png", "queen.png",
                                                                                            "back.png"}


def test_an_ods_deck_in_two_languages(run, tmp_path):
    shutil.copy(SHEETS / "four-suits.ods", tmp_path / "four-suits.ods")
    folder_with_art(tmp_path)
    path = tmp_path / "four-suits.ods"
    table = run("catalogue", "--catalogue", str(path), "--lang", "de")
    assert table.exit_code == 0, table.stderr
    assert "Herz 10" in table.stdout and "quantity" not in table.stdout
    deck = json.loads(run("catalogue", "--catalogue", str(path), "--json").stdout)
    assert deck["cards"][0]["name"] == {"en": "1 of hearts", "de": "Herz 1"}  # English first: the default --lang
    assert error(run("catalogue", "--catalogue", str(path), "--lang", "fr")) == (
        "--lang fr: 'four-suits.ods' has no such language (its languages: en, de)")


def test_a_toml_names_the_sheet_and_the_games_files(run, tmp_path):
    rows = [["name_en", "name_de", "name_fr", "count", "art", "text_en", "text_de", "text_fr"],
            ["Sun", "Sonne", "Soleil", 2, "card.png", "Gain {gain}.", "{gain} nehmen.", "Gagnez {gain}."],
            ["Moon", "Mond", "Lune", 1, "card.png", None, None, None]]
    write_xlsx(tmp_path, rows, "cards.xlsx")
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "sun.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (tmp_path / "layout.toml").write_text('[elements.name]\ntype = "text"\ntext = "{name}"\nbox = [3, 3, "97%", 20]\n')
    (tmp_path / "rules.de.md").write_text("# Regeln\n")
    toml = tmp_path / "sky.toml"
    toml.write_text('sheet = "cards.xlsx"\n[game]\nid = "sky"\nlangs = ["de", "en", "fr"]\n'
                    'title = { en = "Sky", de = "Himmel", fr = "Ciel" }\nplayers = { min = 1, max = 2 }\nage = 6\n'
                    'minutes = { min = 5, max = 10 }\nback_art = "back.png"\nlayout = "layout.toml"\n'
                    'rulebook = { de = "rules.de.md" }\nicons = { sun = "icons/sun.svg" }\n[rules]\ngain = 2\n'
                    '[words.de]\ncard_back = "Rückseite"\ncards = "Karte|Karten"\n', encoding="utf-8")
    from toolkit.catalogue import load

    deck = load(path=toml)
    assert deck.langs == ("de", "en", "fr") and deck.sheet == tmp_path / "cards.xlsx"
    assert deck.card("sonne").text.as_dict() == {"en": "Gain 2.", "de": "2 nehmen.", "fr": "Gagnez 2."}
    assert deck.card("mond").text.as_dict() == {"en": "", "de": "", "fr": ""}
    assert deck.layout_file == tmp_path / "layout.toml" and dict(deck.icons) == {"sun": tmp_path / "icons" / "sun.svg"}
    assert dict(deck.rulebook_texts) == {"de": tmp_path / "rules.de.md"} and deck.fonts == {}
    assert run("catalogue", "--catalogue", str(toml)).stdout.startswith("Himmel (sky)\n")
    export = run("export-cards", "--catalogue", str(toml), "--target", "screentop", "--out", str(tmp_path / "st"))
    assert export.exit_code == 0, export.stderr
    listed = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "st").iterdir()
                     if p.suffix in (".json", ".csv"))
    assert "Rückseite" in listed and "Card back" not in listed
    french = run("print-cards", "--catalogue", str(toml), "--lang", "fr", "--out", str(tmp_path / "fr.pdf"))
    assert french.exit_code == 0, french.stderr
    assert "words of its own" not in french.stderr  # the toolkit has French words (catalogue/words.py)
    from pypdf import PdfReader

    assert "sans fond perdu · cartes 63 × 88 mm" in PdfReader(tmp_path / "fr.pdf").pages[0].extract_text()
    for key, value, message in [
        ("layout", '"missing.toml"', "game.layout: the file 'missing.toml' does not exist beside the catalogue"),
        ("layout", '"../layout.toml"', "game.layout: path '../layout.toml' must stay inside the deck's folder"),
        ("layout", '"rules.de.md"', "game.layout: 'rules.de.md' is not a .toml file"),
        ("icons", '{ sun = "layout.toml" }', "game.icons.sun: 'layout.toml' is not a .png or .svg file"),
        ("rulebook", '{ ru = "rules.de.md" }', "game.rulebook.ru: unknown language (the deck's languages: de, en, fr)"),
    ]:
        text = toml.read_text(encoding="utf-8")
        bad = tmp_path / "bad.toml"
        lines = [line for line in text.splitlines() if not line.startswith(f"{key} = ")]
        lines.insert(lines.index("[rules]"), f"{key} = {value}")
        bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
        assert error(run("catalogue", "--catalogue", str(bad))).startswith(f"bad.toml: {message}")


ROW_ERRORS = [
    # (rows, message): each a small sheet with one thing wrong
    ([["name", "copies", "art"], ["Ace", 3.5, "card.png"]],
     'row 2, column "copies": expected a whole number from 0 to 500, got 3.5'),
    ([["name", "copies", "art"], ["Ace", 3.0, "card.png"], ["Two", None, "card.png"]],
     'row 3, column "copies": empty: give the number of copies (0 leaves the card out)'),
    ([["name", "copies", "art"], ["Ace", "three", "card.png"]],
     "row 2, column \"copies\": expected a whole number from 0 to 500, got 'three'"),
    ([["name", "copies", "art"], ["Ace", 501, "card.png"]],
     'row 2, column "copies": expected a whole number from 0 to 500, got 501'),
    ([["name", "copies", "art"], [None, 1, "card.png"]],
     'row 2, column "name": empty: every card needs a name in English'),
    ([["name", "copies", "art", "name"], ["Ace", 1, "card.png", "A"]],
     "row 1, column D: the column 'name' is there twice (also column A): give each column one name"),
    ([["name", "copies", "art", "value"], ["Ace", 1, "card.png", 2.5]],
     'row 2, column "value": 2.5 is not a whole number: a field is text or a whole number (format the cell as '
     'text to keep the fraction)'),
    ([["name", "copies", "art", "when"], ["Ace", 1, "card.png", datetime.date(2024, 5, 1)]],
     'row 2, column "when": a date or time (2024-05-01): write the value as a number or text'),
    ([["name", "copies", "art", "rare"], ["Ace", 1, "card.png", True]],
     'row 2, column "rare": a true/false cell (TRUE): write a number or text'),
    ([["name", "copies", "art"], ["Ace", "=1+2", "card.png"]],  # a formula no program has computed
     "sheet 'Sheet', cell B2: a formula with no saved value"),
    ([["name", "copies", "art"], ["Ace", 1, "card.png", "stray"]],
     "row 2, column D: a value under no column name"),
    ([["name", "art"], ["Ace", "card.png"]],
     "row 1: no copies column (count, copies or quantity: how many of each card)"),
    ([["title", "copies", "art"], ["Ace", 1, "card.png"]],
     "row 1: no name column (name, or name_<lang> for each language, e.g. name_en)"),
    ([["name", "copies", "count", "art"], ["Ace", 1, 1, "card.png"]],
     'column "count": the copies are already in column "copies": give one of count, copies, quantity'),
    ([["name_en", "name_xx", "copies", "art"], ["Ace", "A", 1, "card.png"]],
     "column \"name_xx\": 'xx' is not a language the toolkit knows (CLDR has no such code)"),
    ([["name_en", "name_de", "copies", "art", "text_en"], ["Ace", "Ass", 1, "card.png", "Hi"]],
     "row 1: no text_de column: the cards' texts are given in every language of the deck or in none"),
    ([["name_en", "name_de", "copies", "art", "text_en", "text_de"], ["Ace", "Ass", 1, "card.png", "Hi", None]],
     'row 2, column "text_de": empty, but the card has text in English: give it in every language of the deck'),
    ([["name", "copies", "art", "Suit ♥"], ["Ace", 1, "card.png", "x"]],
     'column "Suit ♥": not a column the toolkit knows, and not a field name'),
    ([["name", "copies", "art"], ["Ace", 1, "missing.png"]],
     "row 2, column \"art\": art file 'missing.png' does not exist"),
    ([["name", "copies", "art"], ["Ace", 1, "../card.png"]],
     "row 2, column \"art\": art path '../card.png' must stay inside the art folder"),
    ([["id", "name", "copies", "art"], ["ace", "Ace", 1, "card.png"], ["ace", "One", 1, "card.png"]],
     "row 3, column \"id\": duplicate card id 'ace'"),
    ([["id", "name", "copies", "art"], ["back", "Ace", 1, "card.png"]],
     "row 2, column \"id\": 'back' is reserved"),
    ([["name", "copies", "art"], ["Ace", 400, "card.png"], ["Two", 400, "card.png"], ["Three", 300, "card.png"]],
     'column "copies": the deck has 1100 cards, at most 1000'),
    ([["name", "copies", "art"], *[[f"Card {i}", 1, "card.png"] for i in range(101)]],
     "rows 2-102: 101 card types, at most 100"),
    ([["name", "copies", "art"]], "row 2: the sheet has no cards"),
    ([[], ["Ace", 1, "card.png"]], "row 1: no column names"),
    ([["name", "copies", "art", "text"], ["Ace", 1, "card.png", "Pay {price}"]],
     'row 2, column "text": unknown placeholder {price} (the deck has no [rules] to fill it from)'),
]


@pytest.mark.parametrize("rows, message", ROW_ERRORS, ids=[m[:40] for _, m in ROW_ERRORS])
def test_a_bad_row_or_column_is_one_line(run, tmp_path, rows, message):
    path = write_xlsx(tmp_path, rows)
    assert error(run("catalogue", "--catalogue", str(path))).startswith(f"deck.xlsx: {message}")


def test_empty_rows_are_skipped_and_ids_are_made_from_names(run, tmp_path):
    rows = [["name", "copies", "art"], ["Ace of Hearts", 1, "card.png"], [None, None, None],
            ["Ace of Hearts", 2, "card.png"], ["Ёлка", 1, "card.png"], ["Back", 1, "card.png"], ["Été", 1, "card.png"]]
    deck = json.loads(run("catalogue", "--catalogue", str(write_xlsx(tmp_path, rows)), "--json").stdout)
    assert [c["id"] for c in deck["cards"]] == ["ace-of-hearts", "ace-of-hearts-2", "card-5", "back-card", "ete"]


@pytest.mark.parametrize("content, message", [
    (b"name,copies,art\nAce,1,card.png\n\xff\xfe", "deck.csv: the file is not UTF-8 text (byte 32)"),
    (b'name,copies,art\n"Ace,1,card.png\n', "deck.csv: not a valid CSV file: unexpected end of data"),
    (b"name,copies,art\nAce,1,card.png\n" + b"x" * 5_000_001, "deck.csv: the file is larger than a catalogue may be"),
])
def test_a_bad_csv_file_is_one_line(run, tmp_path, content, message):
    path = folder_with_art(tmp_path) / "deck.csv"
    path.write_bytes(content)
    assert error(run("catalogue", "--catalogue", str(path))).startswith(message)


def test_hostile_workbooks_are_one_line(run, tmp_path):
    merged = write_xlsx(tmp_path, [["name", "copies", "art"], ["Ace", 1, "card.png"], ["x", None, None]],
                        "merged.xlsx", merge="A3:C3")
    assert error(run("catalogue", "--catalogue", str(merged))) == (
        "merged.xlsx: cells A3:C3 are merged: a deck's sheet has one value per cell (unmerge them)")
    fake = tmp_path / "fake.xlsx"
    fake.write_bytes(b"name,copies\n")
    assert error(run("catalogue", "--catalogue", str(fake))) == (
        "fake.xlsx: not a spreadsheet file (an .xlsx or .ods file is a zip archive)")
    import zipfile

    bomb = tmp_path / "bomb.ods"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("content.xml", b"\0" * 60_000_000)
    assert error(run("catalogue", "--catalogue", str(bomb))).startswith(
        "bomb.ods: the sheet unpacks to 60 MB, more than a deck may (at most 50 MB)")
    far = write_xlsx(tmp_path, [["name", "copies", "art"], ["Ace", 1, "card.png"]], "far.xlsx")
    book = openpyxl.load_workbook(far)
    book.active["XFD1048576"] = "x"
    book.save(far)
    assert error(run("catalogue", "--catalogue", str(far))) == (
        "far.xlsx: the sheet holds a value in row 1,048,576, column XFD: a deck's sheet reaches at most row "
        "10,000 and column GR (delete what lies beyond the cards)")
    repeated = tmp_path / "repeated.ods"
    with zipfile.ZipFile(SHEETS / "four-suits.ods") as source, zipfile.ZipFile(repeated, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "content.xml":
                at = data.rindex(b"<table:table-row>")
                data = data[:at] + b'<table:table-row table:number-rows-repeated="20000">' + data[at + 17:]
            target.writestr(item, data)
    assert error(run("catalogue", "--catalogue", str(repeated))).startswith(
        "repeated.ods: the sheet holds a value in row 20,040, column F")
    wide = write_csv(tmp_path, ",".join(["name", "copies", "art", *(f"f{i}" for i in range(31))]) + "\nA,1,card.png\n")
    assert error(run("catalogue", "--catalogue", str(wide))) == "deck.csv: row 1: 31 field columns, at most 30"
    broken = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("nothing.txt", b"hello")
    assert error(run("catalogue", "--catalogue", str(broken))).startswith("broken.xlsx: cannot read the spreadsheet: ")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(SUITS), st.integers(1, 13)), min_size=1, max_size=12),
       st.integers(1, 6), st.integers(0, 3))
def test_hand_odds_of_a_csv_deck_agree_with_a_count_of_its_cards(run, tmp_path, cards, hand, at_least):
    """The chance read back from a CSV deck is the hypergeometric one of its own rows' copies."""
    from math import comb

    at_least = min(at_least, hand)
    lines = ["name,copies,art,suit,value"] + [f"Card {i},{n},card.png,{suit},{value}"
                                               for i, (n, suit, value) in enumerate(cards)]
    path = write_csv(tmp_path, "\n".join(lines) + "\n")
    total = sum(n for n, _, _ in cards)
    hearts = sum(n for n, suit, _ in cards if suit == "hearts")
    result = run("odds", "--catalogue", str(path), "--model", "hand", "--hand", str(hand), "--where", "suit=hearts",
                 "--at-least", str(at_least), "--json")
    if hand > total or hearts == 0 and "hearts" not in {suit for n, suit, _ in cards}:
        assert result.exit_code == 2
        return
    assert result.exit_code == 0, result.stderr
    expected = sum((Fraction(comb(hearts, k) * comb(total - hearts, hand - k), comb(total, hand))
                    for k in range(at_least, hand + 1)), Fraction(0))
    assert Fraction(json.loads(result.stdout)["chance"]) == expected


def test_an_empty_sheet_deck_is_named_by_its_sheet(run, tmp_path):
    path = write_csv(tmp_path, "name,copies,art\nAce,0,card.png\nTwo,0,card.png\n")
    assert error(run("print-cards", "--catalogue", str(path), "--out", str(tmp_path / "x.pdf"))) == (
        "deck.csv: the deck has no cards to print (every count is 0)")
    from toolkit.catalogue import load
    from toolkit.catalogue.origin import deck_origin

    assert deck_origin(load(path=path), ["two"]) == "deck.csv: the copies of two"
