"""Every rulebook page proofed by the layout itself (issue 22 item 3), checked on the rendered PDFs of
both games in both languages, on A4, Letter and as booklets, and with changed decks: properties of
the pages, not pictures of them, so that they hold for any reasonable text.

- No page is less than a third full, except a planned blank (no ink at all, not even a folio) and a
  last page of its own ({newpage}: the quick start), whose page before it is two thirds full.
- No chart stands at the head of a column, parted from the words that introduce it (which also
  means no page is spent on a chart alone).
- The last page's two columns end at about the same height (a book of one page too), and on every
  page before the last no column ends 2 cm or more above the one beside it, unless a section that
  starts a page comes next.
- A booklet's outside back cover is blank or begins with a heading of its own (never the overflow
  of the page before).
- One alignment throughout: every book is set ragged right, so every word gap of its body text is
  its font's own space (justified Russian lines were stretched to 3-4 spaces, and paragraphs set
  ragged to avoid it stood beside justified ones).
- No text is under 7 pt (a card's picture carries no words).
- Every row of a card grid has captions of one height (the editor's finding 11: «Красный / замок ×6»
  wrapped beside «Синий замок ×6»), a grid broken across columns or pages repeats its section's
  heading over its rest, and a book in two languages draws each card once, captioned in both.
- No word is broken after fewer than three letters («По-|этому») or before fewer than three, and
  no word of fewer than seven letters is broken ("cas-|tle").
"""

from __future__ import annotations

import pytest

from proof import book_pages, caption_lines, column_fill, grid_pictures, early_column_ends, line_end_hyphens, overprints, text_area, word_spaces

BOOKS = [(game, (), lang, paper, booklet, False) for game in ("diamoniak", "palaces") for lang in ("en", "ru")
         for paper, booklet in (("a4", False), ("letter", False), ("a4", True))]
BOOKS += [("diamoniak", ("witch=8",), "ru", "a4", False, False), ("diamoniak", ("witch=8",), "en", "a4", True, False),
          ("diamoniak", ("fairy=1",), "en", "letter", False, False), ("diamoniak", ("fairy=1",), "ru", "a4", True, False)]
# The designer's sheets (rulebook --designer), where the charts of the odds are.
BOOKS += [("diamoniak", (), "ru", "a4", False, True), ("palaces", (), "en", "letter", False, True),
          ("diamoniak", (), "en", "a4", True, True)]
# The books in both languages (test_rulebook_words builds them too), for the pictures' tests.
BILINGUAL = [(game, (), "ru+en", "a4", False, False) for game in ("diamoniak", "palaces")]
HEADING_PT = 12  # section headings are set at 13 pt, body text at 9-10 pt
QUICK_START = ("Quick start", "Быстрый старт")  # the heading of the built-in games' last page of its own


def _name(book: tuple) -> str:
    return "-".join([book[0], *book[1], book[2], book[3]] + ["booklet"] * book[4] + ["designer"] * book[5])


def _read(request, rulebook, shared):
    """The book and its pages as proof reads them, each made once per session (conftest's ``shared``:
    the plain A4 books are the family tests' too)."""
    game, changes, lang, paper, booklet, designer = request.param
    pdf = rulebook(game, lang, *changes, paper=paper, booklet=booklet, designer=designer).pdf
    pages = shared.get(("proof pages", *request.param), lambda: book_pages(pdf, booklet))
    return pages, paper, booklet, pdf, designer


@pytest.fixture(scope="module", params=BOOKS, ids=_name)
def book(request, rulebook, shared):
    return _read(request, rulebook, shared)


@pytest.fixture(scope="module", params=BOOKS + BILINGUAL, ids=_name)
def pictured(request, rulebook, shared):
    """The books above and the books in two languages: their card grids."""
    return (*_read(request, rulebook, shared), request.param)


def _opens_with_a_heading(page, area, columns) -> bool:
    """Does the page's first column open with a heading (a section that starts the page)?"""
    left, _, right, _ = area
    first = [ch for ch in page.chars if left - 1 <= ch[0] < left + (right - left) / columns]
    return bool(first) and max(first, key=lambda ch: ch[3])[4] >= HEADING_PT


def test_no_page_is_less_than_a_third_full_but_a_planned_blank(book):
    pages, paper, booklet, _, _ = book
    area, columns = text_area(paper, booklet)
    last = max(page.number for page in pages if not page.blank)
    for page in pages:
        if page.blank or (booklet and page.number == 1):  # a planned blank; the cover
            continue
        if page.number == last and any(head in page.text for head in QUICK_START) \
                and _opens_with_a_heading(page, area, columns):  # a page of its own, planned
            # ({newpage}): the quick start, as long as it is (the page before it: test_rulebook_editor)
            continue
        fills = column_fill(page, area, columns)
        assert sum(fills) / columns >= 1 / 3, (page.number, [round(f, 2) for f in fills])
    blanks = [page.number for page in pages if page.blank]
    assert all(number > max(p.number for p in pages if not p.blank) for number in blanks), blanks


def test_no_chart_is_parted_from_the_words_before_it(book):
    pages, paper, booklet, _, designer = book
    (left, _, right, _), columns = text_area(paper, booklet)
    column = (right - left) / columns
    charts = 0
    for page in pages:
        for c_left, _, c_right, c_top in page.charts:
            if c_right - c_left < 0.4 * column:  # a card's picture, not a chart
                continue
            charts += 1
            above = [ch for ch in page.chars if ch[1] >= c_top - 1 and ch[0] < c_right and ch[2] > c_left]
            assert above, f"page {page.number}: a chart heads its column, parted from its text"
    assert charts or not designer, "every designer's sheet has a chart"


def test_the_last_pages_columns_are_balanced(book):
    """The two columns of a book's last page end within a fifth of the column's height of each other
    (the layout aims at 15 %; a chart or a grid of cards moves in one piece)."""
    pages, paper, booklet, _, _ = book
    area, columns = text_area(paper, booklet)
    last = max(pages, key=lambda page: page.number)
    if columns < 2:
        pytest.skip("one column")
    fills = column_fill(last, area, columns)
    assert max(fills) - min(fills) <= 0.2, [round(f, 2) for f in fills]


def test_no_column_ends_early_on_a_page_before_the_last(book):
    """Columns end at the foot of their page (within 2 cm of the one beside it) on every page but the
    last, unless a section that starts a page comes next (the layout shares the room left at a
    column's foot out between its blocks: issue 22 found columns ending 2 cm early)."""
    pages, paper, booklet, _, _ = book
    area, columns = text_area(paper, booklet)
    assert not early_column_ends(pages, area, columns, HEADING_PT)


def test_no_text_in_a_book_is_too_small_to_read(book):
    """Every glyph of the book is 7 pt or more: the pictures of cards and tokens carry no words (they
    were 2.2-3.6 pt), the captions under them name the cards."""
    pages, _, _, _, _ = book
    sizes = [ch[4] for page in pages for ch in page.chars]
    assert sizes and min(sizes) >= 6.95, min(sizes)


def test_the_table_pictures_labels_keep_apart(book):
    """The labels of the table picture (7.5 pt bold) never run into the one beside them: 3 points at
    least between two (Russian labels touched)."""
    _, _, _, pdf, _ = book
    assert overprints(pdf, 3.0, size=7.5, font="Bold") == []


def test_a_booklets_back_cover_is_blank_or_planned(book):
    pages, _, booklet, _, _ = book
    if not booklet:
        pytest.skip("only a booklet has an outside back cover")
    back = max(pages, key=lambda page: page.number)
    assert back.number % 4 == 0
    if back.blank:
        return
    first = max(back.chars, key=lambda ch: ch[3])
    assert first[4] >= HEADING_PT, f"the back cover (page {back.number}) continues the page before it"


def test_every_paragraph_is_ragged_right_with_plain_word_spaces(book):
    """One alignment per book (the editor's finding 10: ragged and justified paragraphs alternated):
    every space between two words of the body text, in every font, is that font's own space, never
    widened or shrunk to fill a line."""
    _, _, _, pdf, _ = book
    spaces = word_spaces(pdf)
    assert sum(len(found) for found in spaces.values()) > 100
    for font, found in spaces.items():
        widths = [width for _, width in found]
        assert max(widths) - min(widths) < 0.002, (font, min(found, key=lambda f: f[1]), max(found, key=lambda f: f[1]))


def test_no_word_is_broken_after_a_short_prefix_or_when_short(book):
    pages, _, _, _, _ = book
    for page in pages:
        for before, after in line_end_hyphens(page.text):
            assert len(before) >= 3 and len(after.rstrip(".,;:!?»)")) >= 3, (page.number, before, after)
            assert len(before) + len(after.split("-")[0]) >= 7, (page.number, before, after)


def test_a_planned_back_cover_that_cannot_be_copyfitted_is_reached_by_spreading_the_text(monkeypatch):
    """With copyfitting held at a larger body size, the English Palaces booklet's text runs past page 7:
    its quick start, planned for the outside back cover, still lands there (page 12), the text before
    it spread over every inner page: no blank page (the editor: a blank page in a booklet looks like a
    printing fault), never white pages at the end of the stack."""
    import toolkit.rulebook.layout as layout
    from toolkit.catalogue import load
    from toolkit.rulebook import build_rulebook

    monkeypatch.setattr(layout, "FITS", (0.45,))
    result = build_rulebook(load("palaces"), lang="en", paper="a4", booklet=True)
    pages = book_pages(result.pdf, True)
    assert len(pages) == 12 and not [p.number for p in pages if p.blank]
    back = pages[-1]
    assert "Quick start" in back.text
    first = max(back.chars, key=lambda ch: ch[3])
    assert first[4] >= HEADING_PT


def test_every_row_of_a_card_grid_has_captions_of_one_height(pictured):
    """Every caption of a row of the card grid takes as many lines as the row's longest: no row mixes
    one-line and two-line captions (the Russian castles «Красный / замок ×6» beside «Синий замок ×6»).
    In a book in two languages the second language's name, which has no count to carry onto a line of
    its own, may take a line fewer than the row's longest when it is one word ("Tower" beside "General /
    exchange", which no longer fits one line of 7.5 pt captions): a word is never broken."""
    pages, _, _, _, designer, (_, _, lang, *_) = pictured
    rows: dict[tuple[int, float], list[int]] = {}
    for page in pages:
        for picture in grid_pictures(page):
            rows.setdefault((page.number, round(picture[1])), []).append(caption_lines(page, picture))
    if designer:
        assert not rows
        return
    spread = 1 if "+" in lang else 0
    assert rows and all(max(lines) - min(lines) <= spread and min(lines) >= 1 for lines in rows.values()), rows


def test_a_grid_carried_over_opens_with_its_sections_heading(pictured):
    """A card grid broken across columns or pages never opens a column with its pictures: the rest
    comes under its section's heading, "(continued)" (the English Palaces booklet's towers, ruins,
    exchanges and flood opened page 3 with no heading)."""
    pages, paper, booklet, _, _, _ = pictured
    (left, _, right, top), columns = text_area(paper, booklet)
    step = (right - left) / columns
    for page in pages:
        for p_left, _, p_right, p_top in grid_pictures(page):
            column = int((p_left - left) // step)
            above = [ch for ch in page.chars if ch[1] >= p_top - 1 and left + column * step <= ch[0] < left + (column + 1) * step]
            assert above, f"page {page.number}: a row of cards heads column {column + 1}"
            if top - p_top < 40:  # the grid near the column's head: under its heading, "continued"
                assert "(continued)" in page.text or "(продолжение)" in page.text, page.number


def test_a_book_in_two_languages_draws_each_card_once_captioned_in_both(pictured):
    """Each card type is pictured once (a book in two languages drew its whole grid twice), and in a
    book in two languages its caption gives the first language's name and count, the second's name
    under it."""
    import re

    from toolkit.catalogue import load

    pages, _, _, _, designer, (game, changes, lang, *_) = pictured
    if designer:
        pytest.skip("no cards on a designer's sheet")
    catalogue = load(game, overrides=list(changes))
    assert sum(len(grid_pictures(page)) for page in pages) == sum(1 for card in catalogue.cards if card.count)
    if "+" in lang:
        first, second = lang.split("+")
        text = re.sub(r"\s+", " ", " ".join(page.text for page in pages).replace("\u00a0", " "))
        for card in catalogue.cards:
            caption = f"{card.name[first]} ×{card.count}"
            assert text.count(caption) == 1 and f"{caption} {card.name[second]}" in text, card.id
