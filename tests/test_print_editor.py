"""The editor's read of every printed page (wave 4): what the print-and-play sheets, the player aids and
the rulebooks must now do, each read back from the PDF the command writes (pdfplumber) or from the
faces the layout engine draws."""

from __future__ import annotations

import shutil

import io

import pytest
from pypdf import PdfReader

from conftest import ROOT, matrix_product
from toolkit.errors import UserError

EXAMPLE = ROOT / "examples" / "weathervane"
PT = 72 / 25.4


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("example") / "weathervane"
    shutil.copytree(EXAMPLE, folder)
    return folder / "weathervane.toml"


def runs(path, page: int = 0) -> list[tuple[str, float, float, float, bool]]:
    """(text, x, y, size in points, turned upside down) of each run of text on a page of the PDF."""
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    out = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            a, b, c, d, e, f = matrix_product(tm, cm)
            out.append((text.strip(), e, f, size * (a * a + b * b) ** 0.5, a < 0 and d < 0))

    reader.pages[page].extract_text(visitor_text=visit)
    return out


# --- finding 1 and 25: the Weathervane faces -----------------------------------------------------------

@pytest.mark.parametrize("size", ["mini", "poker", "square", "tarot", "bridge"])
def test_the_weathervane_name_stays_clear_of_its_picture(example, size):
    """Finding 1: the weather's picture kept at least 1 mm below the card's name at every size."""
    from toolkit.catalogue import load
    from toolkit.cards.render import CARD_SIZES, Line, Picture
    from toolkit.typeset.fonts import font_metrics
    from toolkit.layout.engine import Look, _inked

    catalogue = load(None, str(example), [])
    look = Look(catalogue, "en", CARD_SIZES[size])
    for card in catalogue.cards[:10]:
        face = look.face(card)
        name = [op for op in face.ops if isinstance(op, Line) and op.element == "name"]
        foot = max(op.y + font_metrics(op.font)[1] * op.size for op in name)
        picture = next(op for op in face.ops if isinstance(op, Picture) and op.element == "picture")
        assert _inked(picture)[1] - foot >= 1.0, (size, card.id)


def test_the_weathervane_index_is_repeated_turned_at_the_foot(run, example, tmp_path):
    """Finding 25: each face's number is printed again upside down in its bottom right corner."""
    out = tmp_path / "cards.pdf"
    assert run("print-cards", "--catalogue", str(example), "--card", "mini", "--out", str(out)).exit_code == 0
    found = runs(out)
    turned = [text for text, *_, upside_down in found if upside_down]
    upright = [text for text, *_, upside_down in found if text.isdigit() and not upside_down]
    assert sorted(turned) == sorted(upright) and len(turned) == 16  # every card of the 4 x 4 sheet, both ways


def test_a_picture_laid_over_earlier_text_is_refused(tmp_path):
    """The layout check behind finding 1: an icon drawn over words drawn before it is refused in one
    line naming the card, the two elements and the size; words drawn on an icon after it stay."""
    from toolkit.catalogue import load
    from toolkit.cards.render import CARD_SIZES
    from toolkit.layout.engine import Look

    folder = tmp_path / "deck"
    shutil.copytree(EXAMPLE, folder)
    layout = folder / "layout.toml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text + '\n[sizes.bridge.elements.picture]\nbox = ["10%", "12%", "90%", "70%"]\n',
                      encoding="utf-8")
    catalogue = load(None, str(folder / "weathervane.toml"), [])
    with pytest.raises(UserError, match=r"card 'sun-1': its picture covers its name \('Sun 1'\) on a bridge "
                                        r"57 x 89 mm card; .*\[sizes.bridge.elements.picture\]"):
        Look(catalogue, "en", CARD_SIZES["bridge"]).face(catalogue.cards[0])
    # a number on a badge: the text comes after the icon in the layout
    layout.write_text(text + '\n[elements.label]\ntype = "text"\ntext = "{value}"\nbox = ["22%", "32%", "78%", "64%"]\n'
                      'size = 20\n', encoding="utf-8")
    catalogue = load(None, str(folder / "weathervane.toml"), [])
    Look(catalogue, "en", CARD_SIZES["poker"]).face(catalogue.cards[0])


def test_rotate_is_0_or_180(tmp_path):
    from toolkit.layout.model import read

    path = tmp_path / "layout.toml"
    path.write_text('[elements.n]\ntype = "text"\ntext = "{name}"\nbox = [0, 0, 10, 10]\nrotate = 90\n',
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"layout.toml: elements.n: rotate: 90: 0 or 180"):
        read(path)


# --- findings 11 and 12: mini cards at 7.5 pt, the aid at poker size beside them ----------------------

@pytest.mark.parametrize("game,lang", [("diamoniak", "en"), ("diamoniak", "ru"), ("palaces", "en"), ("palaces", "ru")])
def test_mini_cards_print_nothing_under_7_5_pt_and_their_aids_at_poker(run, tmp_path, game, lang):
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--game", game, "--lang", lang, "--card", "mini", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "4 player aids (poker 63 x 88 mm, on sheets of their own" in result.stdout
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    title = "Player aid" if lang == "en" else "Памятка игрока"
    aid_pages = [i for i, page in enumerate(reader.pages) if title in page.extract_text()]
    assert aid_pages, "the aids are printed"
    for index in range(len(reader.pages)):
        found = runs(out, index)
        # every word on the cards; the sheet's line of small print for the printer ("no bleed · cards
        # 44 × 63 mm", 6.5 pt outside the cards) is no card's
        sizes = [size for text, *_, size, _ in found if not text.endswith(("mm", "мм"))]
        if not found or index in aid_pages:
            continue
        assert min(sizes) >= 7.5 - 0.01, (index, min(sizes))
    # an aid sheet holds aids of 63 x 88 mm: 3 across an A4 page, as poker cards (their titles 63 mm apart)
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(out.read_bytes())[aid_pages[0]]
    textpage = page.get_textpage()
    lefts = set()
    for i in range(textpage.count_chars()):
        box = textpage.get_charbox(i)
        if textpage.get_text_range(i, 1) == title[0] and box[3] > page.get_size()[1] - 40 * PT:  # top row
            lefts.add(round(box[0] / PT))
    lefts = sorted(lefts)
    assert len(lefts) == 3 and all(abs((b - a) - 63) <= 1 for a, b in zip(lefts, lefts[1:])), lefts


# --- findings 2, 3, 5, 17: the rulebooks ------------------------------------------------------------

def test_the_weathervane_book_pictures_a_sample_of_its_cards_as_printed(run, example, tmp_path):
    """Findings 2 and 5: the card grid and the cover's fan show each card as printed, its number in its
    band (the picture of the printed face, pixel for pixel), and of the 40 near-identical cards a
    sample: one of each weather, and the 1 and the 10 with their texts."""
    from toolkit.catalogue import load
    from toolkit.cards.render import CARD_SIZES, card_image
    from toolkit.layout.engine import Look
    from toolkit.rulebook.layout import PICTURE_DPI

    out = tmp_path / "rules.pdf"
    assert run("rulebook", "--catalogue", str(example), "--lang", "en", "--booklet", "--out", str(out)).exit_code == 0
    catalogue = load(None, str(example), [])
    look = Look(catalogue, "en", CARD_SIZES["poker"])
    printed = {card_image(look.face(card), PICTURE_DPI).tobytes(): card.id for card in catalogue.cards}
    found = []
    for page in PdfReader(io.BytesIO(out.read_bytes())).pages:
        for image in page.images:
            key = image.image.convert("RGB").tobytes()
            if key in printed:
                found.append(printed[key])
    assert {"sun-10", "rain-1", "wind-7", "snow-4"} <= set(found)  # the cover's fan
    grid = [card for card in found if card not in ("sun-10", "rain-1", "wind-7", "snow-4")] + ["sun-10"]
    assert sorted(set(grid)) == ["rain-2", "snow-2", "sun-1", "sun-10", "sun-2", "wind-2"]


def test_a_quick_start_in_two_languages_gives_each_its_column(run, tmp_path):
    """Finding 17: on the quick start's page of a book in two languages, the Russian text fills the left
    column and the English the right one (the Russian 'Победа.' headed the English column)."""
    out = tmp_path / "rules.pdf"
    assert run("rulebook", "--game", "palaces", "--lang", "ru+en", "--out", str(out)).exit_code == 0
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    found = runs(out, len(reader.pages) - 1)
    middle = float(reader.pages[-1].mediabox.width) / 2
    russian = [x for text, x, *_ in found if any("а" <= ch <= "я" for ch in text.lower())]
    english = [x for text, x, *_ in found if text.isascii() and any(ch.isalpha() for ch in text) and len(text) > 3]
    assert russian and max(russian) < middle
    assert english and min(x for x in english if x > 60) > middle - 5


# --- findings 20 and 21: captions' second language, rule names ---------------------------------------

def test_a_bilingual_caption_gloss_is_at_least_60_percent_black(run, tmp_path):
    import re

    out = tmp_path / "rules.pdf"
    assert run("rulebook", "--game", "palaces", "--lang", "ru+en", "--out", str(out)).exit_code == 0
    page = PdfReader(io.BytesIO(out.read_bytes())).pages[0]
    content = page.get_contents().get_data().decode("latin-1")
    # the fill colour of the English gloss under each card's caption ("Red foundation"): #4a4f57
    colours = re.findall(r"([0-9.]+) ([0-9.]+) ([0-9.]+) rg", content)
    greys = {tuple(float(v) for v in c) for c in colours if len(set(c)) > 1 or c[0] not in ("0", "1")}
    assert (0.290196, 0.309804, 0.341176) in {tuple(round(v, 6) for v in c) for c in greys}


def test_a_rule_name_is_italic_unquoted_and_never_hyphenated(run, tmp_path):
    out = tmp_path / "rules.pdf"
    assert run("rulebook", "--game", "diamoniak", "--lang", "ru", "--out", str(out)).exit_code == 0
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(out.read_bytes())).pages)
    assert "«Свободный" not in text and "Свобод-" not in text and "Свободный" in text
    found = []
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    for page in reader.pages:
        page.extract_text(visitor_text=lambda t, cm, tm, font, size: found.append((t, (font or {}).get("/BaseFont", ""))))
    names = [str(font) for t, font in found if "Свободный" in t]
    assert names and all("PTSerif-Italic" in name for name in names)


def test_the_default_backs_frame_lies_3_mm_inside_the_trim_at_every_size():
    """Finding 13: a back printed 1 mm off its front shows an uneven frame when the frame runs close to
    the trim; the default layout's back frame keeps the 3 mm margin on every card size (6 % of a mini
    card's width was 2.6 mm)."""
    import dataclasses

    from toolkit.catalogue import load
    from toolkit.cards.render import CARD_SIZES, Shape
    from toolkit.layout.engine import Look

    deck = dataclasses.replace(load("diamoniak"), back_art="", back_art_path=None)
    for size, (w, h) in CARD_SIZES.items():
        frame = next(op for op in Look(deck, "en", (w, h)).back().ops if isinstance(op, Shape))
        x0, y0, x1, y1 = frame.box
        assert min(x0, y0, w - x1, h - y1) >= 3.0 - 1e-9, size
