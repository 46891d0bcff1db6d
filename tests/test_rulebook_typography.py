"""Typography of what is printed: no line ends between a Russian particle or preposition, a number
or a dash and the word it belongs to, in the built rulebooks and on the cards; no space is lost or
doubled around bold words."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate

from toolkit.cards import render
from toolkit.layout.engine import Look
from toolkit.layout.text import Setting, set_text, words
from toolkit.catalogue import load
from toolkit.games.registry import ids

BUILTIN_GAMES = ids()
from toolkit.rulebook.layout import Styles, geometry, typeset
from toolkit.typeset.breaks import NBSP, bind

PARTICLE = re.compile(r"^(?:бы|б|ли|ль|же|ж)(?![\w-])")
SHORT_RU = re.compile(r"(?<![\w\-])(?!(?:бы|б|ли|ль|же|ж)$)[а-яё]{1,2}$", re.IGNORECASE)
SHORT_EN = re.compile(r"(?<![\w\-'’])(?:a|A|I)$")
NUMBER = re.compile(r"(?:^|\s)\d+(?:[.,]\d+)?$")


def bad_breaks(lines: list[str], lang: str) -> list[tuple[str, str]]:
    """Pairs of consecutive lines whose break falls where it must not."""
    bad = []
    for a, b in zip(lines, lines[1:]):
        a, b = a.replace(NBSP, " ").strip(), b.replace(NBSP, " ").strip()
        if not a or not b:
            continue
        if ((lang == "ru" and (PARTICLE.match(b) or SHORT_RU.search(a))) or (lang == "en" and SHORT_EN.search(a))
                or (NUMBER.search(a) and (b[0].islower() or b[0] == "%")) or b[0] in "—–"):
            bad.append((a[-30:], b[:30]))
    return bad


@pytest.fixture(scope="module")
def books(rulebook):
    return {(game, lang): rulebook(game, lang).pdf for game in BUILTIN_GAMES for lang in ("ru", "en")}


def test_bind_rules():
    ru = bind("Если хотя бы 3 карты лежат справа от тебя - ничего не теряй. Тот же ход: 8,61 % и 12 ходов", "ru")
    for group in ("хотя бы", "3 карты", "от тебя", "тебя —", "не теряй", "Тот же", "8,61 %", "и 12 ходов"):
        assert group.replace(" ", NBSP) in ru, group
    assert "бы 3" in ru  # a particle binds to the word before it only
    en = bind("Draw a card: 70 cards, or I say so", "en")
    assert all(g.replace(" ", NBSP) in en for g in ("a card", "70 cards", "I say"))
    # Markup: tags count as nothing, entities as one non-letter; tags themselves are untouched.
    marked = bind('Иди в <b>замок</b> и <font name="PTSans-Bold">к ним</font> &amp; в', "ru", markup=True)
    assert marked == f'Иди в{NBSP}<b>замок</b> и{NBSP}<font name="PTSans-Bold">к{NBSP}ним</font> &amp; в'


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_no_line_of_a_rulebook_ends_where_it_must_not(books, game, lang):
    reader = pypdf.PdfReader(io.BytesIO(books[game, lang]))
    bad = [pair for page in reader.pages for pair in bad_breaks(page.extract_text().splitlines(), lang)]
    assert not bad, bad


def text_lines(face, element: str = "text") -> list[str]:
    """The lines an element of a card face prints, top to bottom (its runs joined)."""
    rows: dict[float, list] = {}
    for line in face.lines:
        if line.element == element:
            rows.setdefault(round(line.y, 6), []).append(line)
    return [" ".join(run.text for run in sorted(runs, key=lambda run: run.x)) for _, runs in sorted(rows.items())]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_card_texts_break_only_at_ordinary_spaces(game, lang):
    catalogue = load(game)
    for size in ("poker", "tarot"):
        look = Look(catalogue, lang, render.CARD_SIZES[size])
        for card in catalogue.cards:
            body = text_lines(look.face(card))
            assert " ".join(body) == " ".join(bind(card.text[lang], lang).split(" ")), card.id
            assert not bad_breaks(body, lang), (card.id, size, body)


def test_a_narrow_card_keeps_bound_words_together():
    text = "Положи справа от себя и ничего не теряй, хотя бы 3 раза"
    setting = Setting("serif", lambda font, style: font, 2.65, 1.2, {})
    lines = set_text(words(text, "ru", {}, "here"), setting, 0.0, 60.0, lambda top, bottom: (0.0, 14.0))
    printed = [" ".join(piece.text for word in line.words for piece in word) for line in lines]
    assert len(printed) > 3  # the box forces many breaks
    assert not bad_breaks(printed, "ru"), printed


def test_no_space_is_lost_or_doubled_beside_bold_words(tmp_path):
    """reportlab drops the space after a hyphenated word that ends a run before a tag, and doubles
    the space after a bold word it splits: every width must print 'exactly one' and single spaces."""
    styles = Styles(geometry("a4", False))
    text = ("On your turn you take exactly **one** of the four actions. **Is the goal the same with two "
            "players?** Yes, sometimes unquestionably.")
    markup = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    for width in range(60, 100, 3):
        buffer = io.BytesIO()
        doc = SimpleDocTemplate(buffer, pagesize=(width * mm + 20, 200 * mm), leftMargin=10, rightMargin=10,
                                invariant=1)
        doc.build([Paragraph(typeset(markup, "en"), styles.body("en"))])
        words = " ".join(pypdf.PdfReader(buffer).pages[0].extract_text().split("\n"))
        words = re.sub(r"-\s", "", words)  # rejoin hyphenated words
        assert "exactly one" in words, (width, words)
        assert "players? Yes" in words and "  " not in words, (width, words)


def test_abbreviations_stay_with_the_next_word():
    ru = bind("или наводнение (см. раздел «Карты»), т. е. карта, напр. фея и т. д.", "ru")
    for group in ("см. раздел", "т. е. карта", "напр. фея", "т. д."):
        assert group.replace(" ", NBSP) in ru, group
    en = bind("a fairy, e.g. the one on p. 2, i.e. yours", "en")
    for group in ("e.g. the", "p. 2", "i.e. yours"):
        assert group.replace(" ", NBSP) in en, group
    assert bind("Castle. No cards", "en") == "Castle. No cards"


def test_a_paragraph_never_ends_in_a_word_fragment():
    marked = typeset("Карты замков, которые пока не пригодились.", "ru")
    assert "\u00ad" in marked  # other long words may still be hyphenated
    assert marked.endswith("пригодились.")
    assert typeset("<b>Фея</b> защищает от ведьмы и остаётся <b>лежать</b>", "ru").endswith("<b>лежать</b>")


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_every_first_line_of_a_list_item_starts_at_the_hanging_indent(books, game):
    """The first word of a bullet or numbered item stands exactly above the lines wrapped under it."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(books[game, "en"])
    checked = 0
    for page in pdf:
        text = page.get_textpage()
        chars = [(text.get_text_range(i, 1), text.get_charbox(i, loose=True)) for i in range(text.count_chars())]
        lines: dict[int, list] = {}
        for char, (left, bottom, _, _) in chars:
            if char.strip():
                lines.setdefault(round(bottom), []).append((left, char))
        for y, row in lines.items():
            row.sort()
            if row[0][1] == "•" and len(row) > 1:  # a bullet: its item's first word, and the next line of the item
                word_x = row[1][0]
                below = [r for yy, r in lines.items() if 0 < y - yy < 16 and r[0][1] not in "•"
                         and abs(min(r)[0] - word_x) < 6]
                if below:
                    # within half a point: an item opening with a rule's name in italics ("A free colour")
                    # starts with a letter whose slant reaches a little left of its place
                    assert abs(min(below[0])[0] - word_x) < 0.5, (game, row[:8], below[0][:4])
                    checked += 1
    assert checked >= 3


@pytest.mark.parametrize("booklet", [False, True])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_pdf_metadata_speak_the_books_language_and_name_no_software(lang, booklet, rulebook):
    catalogue = load("diamoniak")
    # the session's book (conftest's ``rulebook``: test_rulebook_proof reads the same four)
    reader = pypdf.PdfReader(io.BytesIO(rulebook("diamoniak", lang, booklet=booklet).pdf))
    meta = reader.metadata
    title = catalogue.title[lang]
    assert meta["/Title"] == {"ru": f"{title}: правила игры", "en": f"{title}: rules of play"}[lang]
    assert meta["/Subject"] == {"ru": f"Правила карточной игры «{title}»", "en": f"Rules of the card game {title}"}[lang]
    assert meta.get("/Author", "") == ""  # the built-in deck names no author of its own (game.author)
    for key in ("/Creator", "/Producer"):  # the toolkit, in the metadata only (issue 37)
        assert re.fullmatch(r"toolkit \S+", meta[key]), (key, meta[key])
    assert meta["/CreationDate"] == meta["/ModDate"] and meta["/CreationDate"].startswith("D:20")
    assert reader.trailer["/Root"]["/Lang"] == lang
