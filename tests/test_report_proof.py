"""The designer's report (`analyse --report`) never prints text over text (issue 22 item 3) nor text under 7 pt: read
back from the PDF, no two glyphs overlap and no table cell's text runs into its neighbour's, for both
games in both languages with every player count and the strategy pages."""

from __future__ import annotations

import io

import pytest

from proof import overprints

CELL_GAP = 2.0  # points: a cell's text starts 1 mm (2.8 pt) into its column, so text that ends
# closer than this to the next cell's has crossed into it


@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_report_prints_no_text_over_text(run, tmp_path, game, lang):
    path = tmp_path / "report.pdf"
    result = run("analyse", "--game", game, "--precision", "0.2", "--lang", lang, "--report", str(path))
    assert result.exit_code == 0, result.stderr
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


def test_a_label_longer_than_its_column_wraps_in_the_cell():
    """A figure's label wider than the first column (a long box time, a long event name) wraps inside
    its cell; the measure itself finds two strings drawn into each other."""
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.analysis.report_pdf import PAGE, _Page, _wrapped_table
    from toolkit.cards.render import PT_PER_MM, register_fonts

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
