"""The bundled fonts: PT Sans and PT Serif, each upright and italic, regular and bold.

``FONT_FILES`` holds the TrueType file of each face a layout may name (``sans``, ``serif-bold``...),
with the three older names the rest of the toolkit uses (``name``: the cards' titles, ``text``: their
body, ``label``: small print); ``PDF_FONTS`` the name reportlab and a PDF know the same face by
(``SANS_BOLD`` = ``PTSans-Bold``...). :func:`register_fonts` registers every face with reportlab once,
embedded as subsets with tags of their own (``toolkit.typeset.subsets``), and the two families, so that a
paragraph's ``<b>`` and ``<i>`` pick the right faces; :func:`add_font` adds a user's font file.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import fontpkg_pt_sans
import fontpkg_pt_serif

from toolkit.errors import UserError

if TYPE_CHECKING:
    from PIL import ImageFont

SANS, SANS_BOLD, SANS_ITALIC, SANS_BOLD_ITALIC = "PTSans-Regular", "PTSans-Bold", "PTSans-Italic", "PTSans-BoldItalic"
SERIF, SERIF_BOLD, SERIF_ITALIC, SERIF_BOLD_ITALIC = ("PTSerif-Regular", "PTSerif-Bold", "PTSerif-Italic",
                                                      "PTSerif-BoldItalic")

# The two families' folders of TrueType files (the catalogue's check of a text reads every style's glyphs).
FONT_FOLDERS = {"PT Sans": Path(fontpkg_pt_sans.ROOT) / "files", "PT Serif": Path(fontpkg_pt_serif.ROOT) / "files"}
_SANS, _SERIF = FONT_FOLDERS["PT Sans"], FONT_FOLDERS["PT Serif"]
# The built-in faces a layout may name, and the three older names the rest of the toolkit uses.
FONT_FILES: dict[str, Path] = {
    "sans": _SANS / "PT_Sans-Web-Regular.ttf",
    "sans-bold": _SANS / "PT_Sans-Web-Bold.ttf",
    "sans-italic": _SANS / "PT_Sans-Web-Italic.ttf",
    "sans-bold-italic": _SANS / "PT_Sans-Web-BoldItalic.ttf",
    "serif": _SERIF / "PT_Serif-Web-Regular.ttf",
    "serif-bold": _SERIF / "PT_Serif-Web-Bold.ttf",
    "serif-italic": _SERIF / "PT_Serif-Web-Italic.ttf",
    "serif-bold-italic": _SERIF / "PT_Serif-Web-BoldItalic.ttf",
}
FONT_FILES.update(name=FONT_FILES["sans-bold"], text=FONT_FILES["serif"], label=FONT_FILES["sans"])
PDF_FONTS = {
    "sans": SANS, "sans-bold": SANS_BOLD, "sans-italic": SANS_ITALIC, "sans-bold-italic": SANS_BOLD_ITALIC,
    "serif": SERIF, "serif-bold": SERIF_BOLD, "serif-italic": SERIF_ITALIC, "serif-bold-italic": SERIF_BOLD_ITALIC,
}
PDF_FONTS.update(name=PDF_FONTS["sans-bold"], text=PDF_FONTS["serif"], label=PDF_FONTS["sans"])
# The smallest type anything printed is set in: a card's words (a layout's min_size unless it says
# otherwise), a player aid's, a token's label, a rulebook's captions and its table picture's labels.
SMALLEST_PT = 7.5
_FONT_BYTES: dict[str, bytes] = {}  # a user's font (add_font): its file's bytes, as read once


@cache
def register_fonts() -> dict[str, str]:
    """Register the PT fonts with reportlab (embedded as subsets) and their two families (``PTSans``,
    ``PTSerif``); returns key -> PDF font name."""
    from reportlab.pdfbase import pdfmetrics

    from toolkit.typeset.subsets import SubsetFont  # each subset's tag unique in a file

    for key, name in PDF_FONTS.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(SubsetFont(name, str(FONT_FILES[key])))
    pdfmetrics.registerFontFamily("PTSerif", normal=SERIF, bold=SERIF_BOLD, italic=SERIF_ITALIC,
                                  boldItalic=SERIF_BOLD_ITALIC)
    pdfmetrics.registerFontFamily("PTSans", normal=SANS, bold=SANS_BOLD, italic=SANS_ITALIC,
                                  boldItalic=SANS_BOLD_ITALIC)
    return PDF_FONTS


def add_font(path: Path, where: str) -> str:
    """A user's TrueType font file (.ttf, or .otf with TrueType outlines) as a font key the renderers
    take (its PDF name is made from the file's bytes: the same file, the same name and bytes)."""
    import hashlib

    from PIL import ImageFont
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError

    from toolkit.typeset.subsets import SubsetFont

    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise UserError(f"{where}: cannot read the font file {path}: {err.strerror or err}") from None
    name = "F" + hashlib.sha1(data).hexdigest()[:12]
    key = f"file:{name}"
    if key not in FONT_FILES:
        try:
            pdfmetrics.registerFont(SubsetFont(name, io.BytesIO(data)))
            ImageFont.truetype(io.BytesIO(data), 10)
        except (TTFError, OSError, ValueError, KeyError, IndexError, AssertionError) as err:
            raise UserError(f"{where}: {path} is not a font the cards can use (a TrueType .ttf, or an .otf "
                            f"with TrueType outlines): {err}") from None
        FONT_FILES[key], PDF_FONTS[key] = Path(path), name
        _FONT_BYTES[key] = data
    return key


def text_width(text: str, font: str, size_mm: float) -> float:
    """Advance width in mm of ``text`` set in ``font`` (a FONT_FILES key) at ``size_mm``."""
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    return pdfmetrics.stringWidth(text, PDF_FONTS[font], size_mm)


@cache
def font_metrics(font: str) -> tuple[float, float]:
    """(ascent, descent) as fractions of the font size, descent positive."""
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    face = pdfmetrics.getFont(PDF_FONTS[font]).face
    return face.ascent / 1000, -face.descent / 1000


@cache
def pillow_font(font: str, size_px: float) -> ImageFont.FreeTypeFont:
    """``font`` (a FONT_FILES key) at ``size_px`` for Pillow, from the same TTF file as the PDF's."""
    from PIL import ImageFont

    source = io.BytesIO(_FONT_BYTES[font]) if font in _FONT_BYTES else str(FONT_FILES[font])
    return ImageFont.truetype(source, size_px, layout_engine=ImageFont.Layout.BASIC)
