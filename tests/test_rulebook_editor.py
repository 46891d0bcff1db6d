"""Issue 37's book items, read back from the PDFs: the castle game under its own title (the published
game named in the credits only), a deck's own title everywhere, captions and tags of 7.5 pt or more,
the page before a quick start of its own at least two thirds full, and Weathervane's whole book."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from proof import book_pages, column_fill, text_area

ROOT = Path(__file__).resolve().parent.parent
WEATHERVANE = ROOT / "examples" / "weathervane" / "weathervane.toml"


def _text(pdf: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages))


@pytest.mark.parametrize("lang, title", [("en", "Castles and Witches"), ("ru", "Замки и ведьмы")])
def test_the_castle_game_has_a_title_of_its_own(rulebook, lang, title):
    pdf = rulebook("diamoniak", lang).pdf
    meta = PdfReader(io.BytesIO(pdf)).metadata
    assert title in meta.title and title in meta.subject and "Diamoniak" not in meta.title + meta.subject
    text = _text(pdf)
    assert text.count(title) >= 2  # the title and the footers
    # the published game only in the credits, once, with its publisher
    assert text.count("Diamoniak") == 1 and "Djeco" in text.split("Diamoniak")[1][:40]
    assert "Диамониак" not in text and "Построй замок" not in text


def test_a_deck_of_ones_own_prints_its_own_title(tmp_path):
    from toolkit.catalogue import load
    from toolkit.rulebook import build_rulebook

    source = WEATHERVANE.read_text().replace('title = { en = "Weathervane", ru = "Флюгер" }',
                                             'title = { en = "Gale Force", ru = "Шквал" }')
    import shutil

    shutil.copytree(WEATHERVANE.parent, tmp_path, dirs_exist_ok=True)
    (tmp_path / "deck.toml").write_text(source)
    catalogue = load(None, tmp_path / "deck.toml")
    pdf = build_rulebook(catalogue, lang="en", paper="a4", booklet=False).pdf
    meta = PdfReader(io.BytesIO(pdf)).metadata
    assert "Gale Force" in meta.title and "Weathervane" not in _text(pdf) + meta.title


@pytest.mark.parametrize("game, lang", [("diamoniak", "ru+en"), ("palaces", "ru+en"), ("palaces", "en")])
def test_captions_tags_and_labels_are_at_least_7_5_pt(rulebook, game, lang):
    reader = PdfReader(io.BytesIO(rulebook(game, lang).pdf))
    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            sizes.append(size * (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5)

    for page in reader.pages:
        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 7.49, min(sizes)


@pytest.mark.parametrize("game, lang, booklet", [(g, lang, b) for g in ("diamoniak", "palaces") for lang in ("en", "ru")
                                                 for b in (False, True)])
def test_no_page_before_the_last_is_under_two_thirds_full(rulebook, game, lang, booklet):
    pages = book_pages(rulebook(game, lang, booklet=booklet).pdf, booklet)
    area, columns = text_area("a4", booklet)
    last = max(page.number for page in pages)
    for page in pages:
        if page.blank or page.number == last or (booklet and page.number == 1):
            continue
        assert sum(column_fill(page, area, columns)) / columns >= 0.66, page.number
    quick = [page for page in pages if page.number == last][0]
    assert "Quick start" in quick.text or "Быстрый старт" in quick.text


@pytest.mark.parametrize("lang, heads", [
    ("en", ("Components", "An example of play", "Questions players ask", "Credits", "Quick start")),
    ("ru", ("Состав игры", "Пример игры", "Частые вопросы", "Об этом издании", "Быстрый старт"))])
def test_weathervanes_book_is_complete(lang, heads):
    from toolkit.catalogue import load
    from toolkit.rulebook import build_rulebook

    catalogue = load(None, WEATHERVANE)
    for booklet in (False, True):
        pdf = build_rulebook(catalogue, lang=lang, paper="a4", booklet=booklet).pdf
        text = _text(pdf)
        assert all(head in text for head in heads), [h for h in heads if h not in text]
        assert not any(word in text for word in ("toolkit", "software")), text
        pages = book_pages(pdf, booklet)
        assert len(pages) > 1 and any(page.charts for page in pages)  # the card pictures
        if not booklet:  # the A4 book (a booklet's back cover: see the report of issue 37)
            assert not pages[-1].blank
