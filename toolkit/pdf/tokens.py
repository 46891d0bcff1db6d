"""Round counters (e.g. Palaces' victory tokens): a coloured disc with its value large and its name
small, and a thin cut circle. Each kind of token is one form XObject, drawn wherever it is needed.

Where a service prints cards only (DriveThruCards, a one-card-per-page PDF), the tokens go on
token cards of the deck's size: ``token_places`` and ``token_cards`` lay them out, the same way for
every target that needs them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from toolkit.cards import art
from toolkit.cards.render import ellipsize
from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.typeset.fonts import SMALLEST_PT, register_fonts, text_width
from toolkit.typeset.units import PT_PER_MM

TOKEN_MIN_GAP = 3.0     # mm between two tokens' cut circles on a token card (each has TOKEN_BLEED past it)
TOKEN_BLEED = 1.0       # mm of colour past the cut circle, so that a slightly wide cut shows no white
CUT_LINE_PT = 0.35
RING_INSET = 2.0        # mm from the cut circle to the inner ring
LABEL_MIN = 0.5         # a token's name is shrunk to half its size at most, then cut with "…"
LABEL_SMALLEST = SMALLEST_PT / PT_PER_MM  # and never under the cards' smallest text (mm)
# Colours by rank of value: the smallest token silver, then gold, copper, ...
PALETTE = [(204, 208, 216), art.GOLD, (214, 146, 92), (150, 200, 230), (190, 160, 220)]


def _rgb(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    return tuple(c / 255 for c in colour)  # type: ignore[return-value]


def _fit(text: str, font: str, size: float, width: float, smallest: float) -> float:
    actual = text_width(text, font, size)
    return size if actual <= width else max(smallest, size * width / actual)


def _label_lines(name: str, size: float, width: float) -> tuple[list[str], float]:
    """The name on one line if it fits at 70 % of ``size``, else on two lines, shrunk to fit down
    to LABEL_MIN of ``size``; a name that still does not fit is cut with "…"."""
    one = _fit(name, "label", size, width, max(size * 0.7, LABEL_SMALLEST))
    if text_width(name, "label", one) <= width:
        return [name], one
    words = name.split()
    best = None
    for cut in range(1, len(words)):
        lines = [" ".join(words[:cut]), " ".join(words[cut:])]
        widest = max(text_width(line, "label", size) for line in lines)
        if best is None or widest < best[0]:
            best = (widest, lines)
    lines, widest = ([name], text_width(name, "label", size)) if best is None else (best[1], best[0])
    fitted = min(size, size * width / widest)
    smallest = max(size * LABEL_MIN, LABEL_SMALLEST)
    if fitted >= smallest:
        return lines, fitted
    fitted = smallest
    return [ellipsize(line, "label", fitted, width) for line in lines], fitted


@dataclass(frozen=True)
class TokenLayout:
    """Where a token's parts go, in mm from its centre with y pointing up: both renderers (reportlab
    here, Pillow in ``token_image``) draw from these numbers, so the sheet and the PNG match."""

    radius: float                 # the cut circle
    ring: float                   # the white ring's radius (its line RING_WIDTH wide)
    digits: str
    value_size: float             # font sizes in mm
    value_baseline: float
    label_size: float
    label_lines: tuple[tuple[str, float], ...]  # (text, baseline)


RING_WIDTH = 0.7  # mm


def token_layout(value: int, name: str, diameter: float) -> TokenLayout:
    """The value large and centred with the name small below it (at least 7.5 pt), the block centred
    on the token; with no name (a small picture of the token in a book), the value alone."""
    digits = str(value)
    size = _fit(digits, "name", diameter * 0.52, diameter * 0.6, 1.0)
    cap = 0.7 * size  # digits are about cap height
    lines, label_size = _label_lines(name, max(diameter * 0.085, LABEL_SMALLEST), diameter * 0.62) if name else ([], 0.0)
    block = cap + 0.6 * label_size + len(lines) * 1.1 * label_size
    baseline = block / 2 - cap
    first = baseline - 0.6 * label_size - 0.85 * label_size
    placed = tuple((line, first - k * 1.1 * label_size) for k, line in enumerate(lines))
    return TokenLayout(diameter / 2, diameter / 2 - RING_INSET, digits, size, baseline, label_size, placed)


def draw_token(canvas: Canvas, value: int, name: str, diameter: float, colour: tuple[int, int, int]) -> None:
    """One token centred on the origin (units: points)."""
    fonts = register_fonts()
    at = token_layout(value, name, diameter)
    mm = PT_PER_MM
    canvas.setFillColorRGB(*_rgb(colour))
    canvas.circle(0, 0, (at.radius + TOKEN_BLEED) * mm, stroke=0, fill=1)
    canvas.setStrokeColorRGB(*_rgb(art.WHITE))
    canvas.setLineWidth(RING_WIDTH * mm)
    canvas.circle(0, 0, at.ring * mm, stroke=1, fill=0)
    canvas.setFillColorRGB(*_rgb(art.INK))
    canvas.setFont(fonts["name"], at.value_size * mm)
    canvas.drawCentredString(0, at.value_baseline * mm, at.digits)
    canvas.setFont(fonts["label"], at.label_size * mm)
    for line, y in at.label_lines:
        canvas.drawCentredString(0, y * mm, line)
    canvas.setStrokeColorRGB(*_rgb(art.INK))
    canvas.setLineWidth(CUT_LINE_PT)
    canvas.circle(0, 0, at.radius * mm, stroke=1, fill=0)


def colours(catalogue: Catalogue) -> dict[int, tuple[int, int, int]]:
    values = sorted({token.value for token in catalogue.tokens})
    return {value: PALETTE[i % len(PALETTE)] for i, value in enumerate(values)}


def define_forms(canvas: Canvas, catalogue: Catalogue, lang: str, diameter: float) -> dict[int, str]:
    """One form per token kind; returns catalogue token index -> form name."""
    paint = colours(catalogue)
    names = {}
    reach = (diameter / 2 + TOKEN_BLEED) * PT_PER_MM
    for index, token in enumerate(catalogue.tokens):
        name = f"token-{token.id}"
        canvas.beginForm(name, -reach, -reach, reach, reach)
        draw_token(canvas, token.value, token.name[lang], diameter, paint[token.value])
        canvas.endForm()
        names[index] = name
    return names


def place(canvas: Canvas, form: str, x_mm: float, y_mm: float) -> None:
    canvas.saveState()
    canvas.translate(x_mm * PT_PER_MM, y_mm * PT_PER_MM)
    canvas.doForm(form)
    canvas.restoreState()


def token_places(page_mm: tuple[float, float], inset_mm: float, diameter: float) -> list[tuple[float, float]]:
    """Token centres on a token card, in mm from the page's bottom-left corner: as many as fit
    ``inset_mm`` inside the page's edge (a service's safe zone) with ``TOKEN_MIN_GAP`` between
    them, spread evenly. A card too small for one token is refused: a token cut across is lost."""
    w, h = page_mm
    area_w, area_h = w - 2 * inset_mm, h - 2 * inset_mm
    if min(area_w, area_h) < diameter:
        raise UserError(f"--card: a token {diameter:g} mm across does not fit inside the safe zone of a "
                        f"{w:g} x {h:g} mm page; choose a larger card")
    cols, rows = (math.floor((side + TOKEN_MIN_GAP) / (diameter + TOKEN_MIN_GAP)) for side in (area_w, area_h))
    gap_x, gap_y = (area_w - cols * diameter) / (cols + 1), (area_h - rows * diameter) / (rows + 1)
    return [(inset_mm + gap_x + c * (diameter + gap_x) + diameter / 2,
             h - inset_mm - gap_y - r * (diameter + gap_y) - diameter / 2)
            for r in range(rows) for c in range(cols)]


def token_cards(catalogue: Catalogue, places: list[tuple[float, float]]) -> list[list[tuple[int, float, float]]]:
    """The token cards holding every counter the catalogue counts: each a list of (token index in
    the catalogue, centre x, y in mm), filling ``places`` in order."""
    order = [i for i, token in enumerate(catalogue.tokens) for _ in range(token.count)]
    return [[(t, x, y) for t, (x, y) in zip(order[start:start + len(places)], places)]
            for start in range(0, len(order), len(places))]


def place_token_card(canvas: Canvas, forms: dict[int, str], card: list[tuple[int, float, float]],
                     width_mm: float, mirrored: bool) -> None:
    """One token card's tokens on the current page; ``mirrored`` for its back, so that each token's
    back lies behind it when the page is turned over its vertical axis."""
    for index, x, y in card:
        place(canvas, forms[index], width_mm - x if mirrored else x, y)
