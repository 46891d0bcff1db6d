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
from toolkit.catalogue import BUILTIN_GAMES, load
from toolkit.rulebook import build_rulebook
from toolkit.rulebook.layout import Styles, geometry, typeset
from toolkit.typography import NBSP, bind

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
def books():
    return {(game, lang): build_rulebook(load(game), lang=lang).pdf for game in BUILTIN_GAMES for lang in ("ru", "en")}


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


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_card_texts_break_only_at_ordinary_spaces(game, lang):
    catalogue = load(game)
    for size in ("poker", "mini"):
        card_mm = render.CARD_SIZES[size]
        panel, badge = render.panel_box(card_mm, 0), render.badge_corner(card_mm, 0)
        for card in catalogue.cards:
            lines = render.layout_text(card.name[lang], card.text[lang], panel, badge, lang)
            body = [line.text for line in lines if line.font == "text"]
            if body and not body[-1].endswith("…"):
                assert " ".join(body) == " ".join(bind(card.text[lang], lang).split(" ")), card.id
            assert not bad_breaks(body, lang), (card.id, size, body)


def test_a_narrow_card_keeps_bound_words_together():
    text = "Положи справа от себя и ничего не теряй, хотя бы 3 раза"
    panel = (0.0, 0.0, 14.0, 60.0)
    lines = [line.text for line in render.layout_text("", text, panel, (14.0, 60.0), "ru")]
    assert len(lines) > 3  # the panel forces many breaks
    assert not bad_breaks(lines, "ru"), lines


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
