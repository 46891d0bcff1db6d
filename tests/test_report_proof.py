"""The designer's report (`analyse --report`) never prints text over text (issue 22 item 3) nor text under 7 pt: read
back from the PDF, no two glyphs overlap and no table cell's text runs into its neighbour's, for both
games in both languages with every player count and the strategy pages."""

from __future__ import annotations

import io

import pytest

from proof import overprints

CELL_GAP = 2.0  # points: a cell's text starts 1 mm (2.8 pt) into its column, so text that ends
# closer than this to the next cell's has crossed into it


@pytest.fixture(scope="module", params=[(game, lang) for game in ("diamoniak", "palaces") for lang in ("en", "ru")],
                ids=lambda p: "-".join(p))
def report(request, shared, tmp_path_factory):
    """The report of each game in each language (``analyse --report``), made once per session."""
    game, lang = request.param

    def make() -> bytes:
        from click.testing import CliRunner

        from toolkit.cli import main

        path = tmp_path_factory.mktemp("report") / "report.pdf"
        result = CliRunner().invoke(main, ["analyse", "--game", game, "--precision", "0.2", "--lang", lang,
                                           "--report", str(path)], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
        return path.read_bytes()

    return shared.get(("analyse report", game, lang), make)


def test_the_report_prints_no_text_over_text(report, tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(report)
    assert overprints(path.read_bytes(), CELL_GAP) == []
    # and no text smaller than 7 pt (the tables and the charts' axes were 6.5-6.8 pt)
    import math

    from pypdf import PdfReader

    sizes = []
    for page in PdfReader(path).pages:
        def visit(text, cm, tm, font, size):
            if text.strip():
                sizes.append(size * math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]))

        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 7.0 - 1e-6, min(sizes)


def test_the_two_charts_titles_and_plots_start_on_one_line(report):
    """The win chart and the length chart stand side by side: their titles' first lines on one line and
    their plots' tops on one line, whichever title takes more lines (the editor's finding 15: the
    Russian length chart's title took three lines, the win chart's two)."""
    import math

    from pypdf import PdfReader

    texts = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            texts.append((size * math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]), cm[4] + tm[4] * cm[0],
                          cm[5] + tm[5] * cm[3], text.strip()))

    PdfReader(io.BytesIO(report)).pages[0].extract_text(visitor_text=visit)
    titles = [t for t in texts if abs(t[0] - 8.0) < 0.01]  # the charts' titles are the page's only 8 pt text
    lefts = sorted({round(t[1]) for t in titles})
    assert len(lefts) == 2, titles
    firsts = [max(t[2] for t in titles if round(t[1]) == x) for x in lefts]
    assert abs(firsts[0] - firsts[1]) < 0.1, firsts
    # each plot's highest tick label (a share, "60%"), set just under its top grid line, left of its title
    tops = []
    for i, x in enumerate(lefts):
        ticks = [t for t in texts if abs(t[0] - 7.0) < 0.01 and t[3].endswith("%") and x - 40 < t[1] < x
                 and t[2] < min(t[2] for t in titles)]
        tops.append(max(t[2] for t in ticks))
    assert abs(tops[0] - tops[1]) < 0.1, tops


def test_a_shorter_chart_title_hangs_from_the_longer_ones_first_line():
    """Titles of one and of three lines side by side (as the Russian titles were): both first lines on
    one line, each title's lines in order under it."""
    import math

    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.analysis.report_pdf import PAGE, _chart_title, _Page, _title_lines
    from toolkit.typeset.fonts import register_fonts
    from toolkit.typeset.units import PT_PER_MM

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(PAGE[0] * PT_PER_MM, PAGE[1] * PT_PER_MM))
    page = _Page(canvas, register_fonts())
    short, long = (_title_lines(page, text, 80) for text in ("Win rates", "Length of a game: " * 9))
    assert (len(short), len(long)) == (1, 3)
    for x, lines in ((20, short), (110, long)):
        _chart_title(page, x, 100, lines, max(len(short), len(long)))
    canvas.showPage()
    canvas.save()
    ys = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            ys.setdefault(round(cm[4] + tm[4] * cm[0]), []).append(round(cm[5] + tm[5] * cm[3], 1))

    PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text(visitor_text=visit)
    (left, right) = (ys[k] for k in sorted(ys))
    assert len(left) == 1 and len(right) == 3 and left[0] == max(right) and right == sorted(right, reverse=True)
    assert not math.isclose(min(right), left[0])


def test_a_label_longer_than_its_column_wraps_in_the_cell():
    """A figure's label wider than the first column (a long box time, a long event name) wraps inside
    its cell; the measure itself finds two strings drawn into each other."""
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.analysis.report_pdf import PAGE, _Page, _wrapped_table
    from toolkit.typeset.fonts import register_fonts
    from toolkit.typeset.units import PT_PER_MM

    def drawn(draw) -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(PAGE[0] * PT_PER_MM, PAGE[1] * PT_PER_MM))
        draw(_Page(canvas, register_fonts()))
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    label = "playing time in minutes, the mean and the middle 80 % of the games, as the box says 15-20"
    table = drawn(lambda page: _wrapped_table(page, ["", "2 players"], [[label, "7 (3–11)"]], [58, 40], 7.5))
    assert overprints(table, CELL_GAP) == []
    clash = drawn(lambda page: (page.text(20, 200, label, 7.5), page.text(78, 200, "7 (3–11)", 7.5)))
    assert overprints(clash, CELL_GAP)
