"""A token's name stays on the token and readable: shrunk to half its size at most, then cut."""

from __future__ import annotations

import dataclasses

import pytest

from toolkit.catalogue import load
from toolkit.catalogue.model import Text
from toolkit.pdf import tokens
from toolkit.print import print_cards
from toolkit.typeset.fonts import text_width

DIAMETER = 25.0
SIZE, WIDTH = DIAMETER * 0.085, DIAMETER * 0.62  # as draw_token asks


@pytest.mark.parametrize("name", ["Victory token", "Очко победы", "", "W" * 100, "Long name " * 10,
                                  "Token a<b& " + "T" * 90])
def test_a_token_name_fits_its_token_at_a_readable_size(name):
    lines, size = tokens._label_lines(name, SIZE, WIDTH)
    assert 1 <= len(lines) <= 2
    assert size >= SIZE * tokens.LABEL_MIN
    assert all(text_width(line, "label", size) <= WIDTH + 1e-9 for line in lines)
    if text_width(name, "label", SIZE * tokens.LABEL_MIN) <= 2 * WIDTH / 1.2:
        assert " ".join(lines).split() == name.split()  # nothing cut that fitted


def test_a_sheet_of_tokens_with_long_names_prints():
    palaces = load("palaces")
    named = dataclasses.replace(palaces, tokens=tuple(dataclasses.replace(t, name=Text(ru="Ж" * 100, en="W" * 100))
                                                     for t in palaces.tokens))
    result = print_cards(named, lang="en", duplex="none")
    assert result.tokens == sum(t.count for t in palaces.tokens) and result.pdf.startswith(b"%PDF")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_tokens_name_is_printed_at_7_5_pt_or_more(lang):
    """The name under a token's value was 6 pt: it is set like the cards' smallest text, 7.5 pt."""
    import io
    import math

    from pypdf import PdfReader

    result = print_cards(load("palaces"), lang=lang)
    reader = PdfReader(io.BytesIO(result.pdf))
    sizes = []
    for index, page in enumerate(result.pages):
        if page.kind != "tokens":
            continue

        def visit(text, cm, tm, font, size):
            if text.strip():
                sizes.append(size * math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]))

        reader.pages[index].extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 7.5 - 1e-6, min(sizes)


@pytest.mark.parametrize("paper, margin", [("a4", 5.0), ("letter", 5.0), ("a4", 9.0)])
def test_every_token_with_its_colour_lies_inside_the_margin(paper, margin):
    """The editor saw the tokens' outer ring in the sheet's 5 mm margin: the grid kept the cut
    circles inside it, and the colour past the cut (TOKEN_BLEED) went out. Read back from the PDF:
    each token form's box (its bleed circle's square) where the page draws it."""
    import io

    from pypdf import PdfReader

    from conftest import drawing, transform
    from toolkit.typeset.units import PT_PER_MM
    from toolkit.print.layout import PAPERS

    result = print_cards(load("palaces"), lang="en", paper=paper, margin=margin)
    reader = PdfReader(io.BytesIO(result.pdf))
    W, H = PAPERS[paper]
    seen = 0
    for index, page in enumerate(result.pages):
        if page.kind not in ("tokens", "token-backs"):
            continue
        xobjects = reader.pages[index]["/Resources"]["/XObject"]
        for name, matrix in drawing(reader, index)[2]:
            x0, y0, x1, y1 = (float(v) for v in xobjects["/FormXob." + name]["/BBox"])
            corners = [transform(matrix, x, y) for x in (x0, x1) for y in (y0, y1)]
            xs, ys = [x / PT_PER_MM for x, _ in corners], [y / PT_PER_MM for _, y in corners]
            assert margin - 1e-6 <= min(xs) and max(xs) <= W - margin + 1e-6, (page.kind, name, xs)
            assert margin - 1e-6 <= min(ys) and max(ys) <= H - margin + 1e-6, (page.kind, name, ys)
            assert x1 - x0 >= (DIAMETER + 2 * tokens.TOKEN_BLEED) * PT_PER_MM - 1e-6  # the box is the colour's
            seen += 1
    assert seen == 2 * result.tokens
