"""A token as a Pillow image, for the PNG sets and virtual tables: the same token the print sheets
draw with reportlab (``tokens.draw_token``), from the same layout numbers (``tokens.token_layout``)
and the same TTF files.

The image is the square round the token's bleed circle: the disc's colour runs TOKEN_BLEED past the
cut circle (a thin ink line), the corners outside the bleed circle are plain white. A service that
cuts the token itself gets it without the cut line (``cut_line=False``): its cut drifts a little,
and a printed line would show beside the edge wherever it does. Pillow draws
circles and text without antialiasing at small sizes, so the token is drawn at SUPERSAMPLE times
the size and scaled down, as the card art is.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from toolkit.cards import art
from toolkit.catalogue.model import Catalogue, Token
from toolkit.pdf.tokens import CUT_LINE_PT, RING_WIDTH, TOKEN_BLEED, colours, token_layout
from toolkit.typeset.fonts import pillow_font
from toolkit.typeset.units import MM_PER_INCH, PT_PER_MM

SUPERSAMPLE = 4


def token_image(catalogue: Catalogue, token: Token, lang: str, diameter_mm: float, dpi: int = 300,
                bleed_mm: float = TOKEN_BLEED, cut_line: bool = True) -> Image.Image:
    """One token of ``catalogue`` in ``lang``: an RGB square of side ``diameter_mm + 2 * bleed_mm``
    at ``dpi``, the token centred in it, with its cut circle drawn unless ``cut_line`` is False."""
    side = round((diameter_mm + 2 * bleed_mm) / MM_PER_INCH * dpi)
    scale = side * SUPERSAMPLE / (diameter_mm + 2 * bleed_mm)  # supersampled pixels per mm
    centre = side * SUPERSAMPLE / 2
    at = token_layout(token.value, token.name[lang], diameter_mm)
    image = Image.new("RGB", (side * SUPERSAMPLE,) * 2, art.WHITE)
    draw = ImageDraw.Draw(image)

    def circle(radius_mm: float, **style) -> None:
        r = radius_mm * scale
        draw.ellipse((centre - r, centre - r, centre + r, centre + r), **style)

    def ring(radius_mm: float, width_mm: float, colour) -> None:
        """A stroke centred on the circle, as PDF strokes are (Pillow's lies inside its box)."""
        circle(radius_mm + width_mm / 2, outline=colour, width=max(1, round(width_mm * scale)))

    circle(at.radius + bleed_mm, fill=colours(catalogue)[token.value])
    ring(at.ring, RING_WIDTH, art.WHITE)
    texts = [(at.digits, "name", at.value_size, at.value_baseline)]
    texts += [(line, "label", at.label_size, y) for line, y in at.label_lines]
    for text, font, size, baseline in texts:
        draw.text((centre, centre - baseline * scale), text, font=pillow_font(font, size * scale),
                  fill=art.INK, anchor="ms")
    if cut_line:
        ring(at.radius, CUT_LINE_PT / PT_PER_MM, art.INK)
    return image.resize((side, side), Image.Resampling.LANCZOS)
