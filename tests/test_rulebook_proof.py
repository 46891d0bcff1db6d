"""Every rulebook page proofed by the layout itself (issue 22 item 3), checked on the rendered PDFs of
both games in both languages, on A4, Letter and as booklets, and with changed decks: properties of
the pages, not pictures of them, so that they hold for any reasonable text.

- No page is less than a third full, except a planned blank (no ink at all, not even a folio).
- No chart stands at the head of a column, parted from the words that introduce it (which also
  means no page is spent on a chart alone).
- The last page's two columns end at about the same height (a book of one page too), and on every
  page before the last no column ends 2 cm or more above the one beside it, unless a section that
  starts a page comes next.
- A booklet's outside back cover is blank or begins with a heading of its own (never the overflow
  of the page before).
- No line's word gap is wider than 2.2 times the book's usual one (the layout sets a paragraph
  ragged right rather than stretch a justified line's gaps past twice a space; Russian lines were
  stretched to 3-4 times).
- No text is under 7 pt (a card's picture carries no words).
- No word is broken after fewer than three letters («По-|этому») or before fewer than three, and
  no word of fewer than seven letters is broken ("cas-|tle").
"""

from __future__ import annotations

import pytest

from proof import book_pages, column_fill, early_column_ends, line_end_hyphens, overprints, text_area, word_gaps

BOOKS = [(game, (), lang, paper, booklet, False) for game in ("diamoniak", "palaces") for lang in ("en", "ru")
         for paper, booklet in (("a4", False), ("letter", False), ("a4", True))]
BOOKS += [("diamoniak", ("witch=8",), "ru", "a4", False, False), ("diamoniak", ("witch=8",), "en", "a4", True, False),
          ("diamoniak", ("fairy=1",), "en", "letter", False, False), ("diamoniak", ("fairy=1",), "ru", "a4", True, False)]
# The designer's sheets (rulebook --designer), where the charts of the odds are.
BOOKS += [("diamoniak", (), "ru", "a4", False, True), ("palaces", (), "en", "letter", False, True),
          ("diamoniak", (), "en", "a4", True, True)]
HEADING_PT = 12  # section headings are set at 13 pt, body text at 9-10 pt


@pytest.fixture(scope="module", params=BOOKS,
                ids=lambda b: "-".join([b[0], *b[1], b[2], b[3]] + ["booklet"] * b[4] + ["designer"] * b[5]))
def book(request, rulebook, shared):
    """The book and its pages as proof reads them, each made once per session (conftest's ``shared``:
    the plain A4 books are the family tests' too)."""
    game, changes, lang, paper, booklet, designer = request.param
    pdf = rulebook(game, lang, *changes, paper=paper, booklet=booklet, designer=designer).pdf
    pages = shared.get(("proof pages", *request.param), lambda: book_pages(pdf, booklet))
    return pages, paper, booklet, pdf, designer


def test_no_page_is_less_than_a_third_full_but_a_planned_blank(book):
    pages, paper, booklet, _, _ = book
    area, columns = text_area(paper, booklet)
    for page in pages:
        if page.blank or (booklet and page.number == 1):  # a planned blank; the cover
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
    """The labels of the table picture (7 pt bold) never run into the one beside them: 3 points at
    least between two (Russian labels touched)."""
    _, _, _, pdf, _ = book
    assert overprints(pdf, 3.0, size=7.0, font="Bold") == []


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


def test_no_line_stretches_its_word_gaps(book):
    _, _, _, pdf, _ = book
    wide = [(page, round(ratio, 2), text) for page, ratio, text in word_gaps(pdf) if ratio > 2.2]
    assert not wide, wide


def test_no_word_is_broken_after_a_short_prefix_or_when_short(book):
    pages, _, _, _, _ = book
    for page in pages:
        for before, after in line_end_hyphens(page.text):
            assert len(before) >= 3 and len(after.rstrip(".,;:!?»)")) >= 3, (page.number, before, after)
            assert len(before) + len(after.split("-")[0]) >= 7, (page.number, before, after)


def test_a_planned_back_cover_that_cannot_be_copyfitted_gets_blank_pages_before_it(monkeypatch):
    """With copyfitting held at a larger body size, the English Palaces booklet's text runs past page 7:
    its quick start, planned for the outside back cover, still lands there (page 12), after blank
    pages with no folio, never white pages at the end of the stack."""
    import toolkit.rulebook.layout as layout
    from toolkit.catalogue import load
    from toolkit.rulebook import build_rulebook

    monkeypatch.setattr(layout, "FITS", (0.45,))
    result = build_rulebook(load("palaces"), lang="en", paper="a4", booklet=True)
    pages = book_pages(result.pdf, True)
    blank = [p.number for p in pages if p.blank]
    assert len(pages) == 12 and blank and blank == list(range(blank[0], 12))
    back = pages[-1]
    assert not back.blank and "Quick start" in back.text
    first = max(back.chars, key=lambda ch: ch[3])
    assert first[4] >= HEADING_PT
