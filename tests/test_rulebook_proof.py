"""Every rulebook page proofed by the layout itself (issue 22 item 3), checked on the rendered PDFs of
both games in both languages, on A4, Letter and as booklets, and with changed decks: properties of
the pages, not pictures of them, so that they hold for any reasonable text.

- No page is less than a third full, except a planned blank (no ink at all, not even a folio).
- No chart stands at the head of a column, parted from the words that introduce it (which also
  means no page is spent on a chart alone).
- A booklet's outside back cover is blank or begins with a heading of its own (never the overflow
  of the page before).
- No word is broken after fewer than three letters («По-|этому») or before fewer than three, and
  no word of fewer than seven letters is broken ("cas-|tle").
"""

from __future__ import annotations

import pytest

from proof import book_pages, column_fill, line_end_hyphens, text_area

BOOKS = [(game, (), lang, paper, booklet) for game in ("diamoniak", "palaces") for lang in ("en", "ru")
         for paper, booklet in (("a4", False), ("letter", False), ("a4", True))]
BOOKS += [("diamoniak", ("witch=8",), "ru", "a4", False), ("diamoniak", ("witch=8",), "en", "a4", True),
          ("diamoniak", ("fairy=1",), "en", "letter", False), ("diamoniak", ("fairy=1",), "ru", "a4", True)]
HEADING_PT = 12  # section headings are set at 13 pt, body text at 9-10 pt


@pytest.fixture(scope="module", params=BOOKS, ids=lambda b: "-".join([b[0], *b[1], b[2], b[3]] + ["booklet"] * b[4]))
def book(request):
    from toolkit.catalogue import load
    from toolkit.rulebook import build_rulebook

    game, changes, lang, paper, booklet = request.param
    result = build_rulebook(load(game, None, changes), lang=lang, paper=paper, booklet=booklet)
    return book_pages(result.pdf, booklet), paper, booklet


def test_no_page_is_less_than_a_third_full_but_a_planned_blank(book):
    pages, paper, booklet = book
    area, columns = text_area(paper, booklet)
    for page in pages:
        if page.blank or (booklet and page.number == 1):  # a planned blank; the cover
            continue
        fills = column_fill(page, area, columns)
        assert sum(fills) / columns >= 1 / 3, (page.number, [round(f, 2) for f in fills])
    blanks = [page.number for page in pages if page.blank]
    assert all(number > max(p.number for p in pages if not p.blank) for number in blanks), blanks


def test_no_chart_is_parted_from_the_words_before_it(book):
    pages, paper, booklet = book
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
    assert charts, "every rulebook has a chart"


def test_a_booklets_back_cover_is_blank_or_planned(book):
    pages, _, booklet = book
    if not booklet:
        pytest.skip("only a booklet has an outside back cover")
    back = max(pages, key=lambda page: page.number)
    assert back.number % 4 == 0
    if back.blank:
        return
    first = max(back.chars, key=lambda ch: ch[3])
    assert first[4] >= HEADING_PT, f"the back cover (page {back.number}) continues the page before it"


def test_no_word_is_broken_after_a_short_prefix_or_when_short(book):
    pages, _, _ = book
    for page in pages:
        for before, after in line_end_hyphens(page.text):
            assert len(before) >= 3 and len(after.rstrip(".,;:!?»)")) >= 3, (page.number, before, after)
            assert len(before) + len(after.split("-")[0]) >= 7, (page.number, before, after)
