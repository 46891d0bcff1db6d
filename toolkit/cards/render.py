"""The card renderer: one card face or back, art plus name and rules text, at any card size.

A card is built once as a :class:`CardFace` (the art cropped to the card and its bleed at 300 DPI,
and the text laid out in millimetres) and then drawn by one of two renderers that share those
numbers:

* :func:`draw_card` draws it onto a reportlab canvas (print sheets, print-service PDFs);
* :func:`card_image` paints it into a Pillow image (PNG and Tabletop Simulator exports), with the
  same TTF files through Pillow's ImageFont.

Geometry. The art files are 63 x 88 mm plus 3 mm of art bleed (815 x 1110 px, see ``art.py``). Any
art, of any size or aspect, is scaled to cover the card plus ``max(bleed, 3 mm)`` on every side and
cropped about its centre; what shows is the card plus the requested bleed. The name and rules text
go into the art's plain lower panel (``art.PANEL_BOX``, mapped through that same placement), keep
clear of the corner badge at its bottom right, and shrink and wrap until they fit. A picture whose
panel area is not plain (user art) gets a light panel drawn behind the text.

Coordinates here are millimetres from the card's trim corner at the top left, y pointing down.
"""

from __future__ import annotations

import io
import math
import re
import warnings
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import fontpkg_pt_sans
import fontpkg_pt_serif
from PIL import Image, ImageDraw, ImageFont, ImageStat

from toolkit.cards import art
from toolkit.cards.picture import as_viewed
from toolkit.catalogue.checks import open_art
from toolkit.catalogue.model import Catalogue, CardType
from toolkit.errors import UserError
from toolkit.typography import bind, breakable

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH
DPI = art.DPI

# --- card sizes ------------------------------------------------------------------------------------

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),   # standard playing cards, 2.5 x 3.5 in
    "bridge": (57.0, 89.0),  # 2.25 x 3.5 in (57.15 x 88.9 mm)
    "mini": (44.0, 63.0),    # print services' "mini" cards, 1.75 x 2.5 in
    "tarot": (70.0, 120.0),
}
MIN_CARD_MM = 20.0
MAX_CARD_MM = 500.0
MAX_BLEED_MM = 10.0


def parse_card_size(value: str, option: str = "--card") -> tuple[float, float]:
    """``poker`` / ``bridge`` / ``mini`` / ``tarot`` or ``WxH`` in millimetres, e.g. ``60x90``."""
    text = value.strip().lower()
    if text in CARD_SIZES:
        return CARD_SIZES[text]
    width, sep, height = text.replace("×", "x").partition("x")
    try:
        if not sep or not all(re.fullmatch(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", side.strip()) for side in (width, height)):
            raise ValueError  # ASCII digits only: float() would also read 'nan' or '٦٣'

        size = (float(width), float(height))
    except ValueError:
        raise UserError(
            f"{option} {value}: expected {', '.join(CARD_SIZES)} or WxH in millimetres, e.g. 60x90"
        ) from None
    if not all(MIN_CARD_MM <= side <= MAX_CARD_MM for side in size):
        raise UserError(f"{option} {value}: each side must be {MIN_CARD_MM:g} to {MAX_CARD_MM:g} mm")
    return size


def card_size_name(size: tuple[float, float]) -> str:
    """``poker 63 x 88 mm`` for a preset, ``60 x 90 mm`` otherwise."""
    for name, preset in CARD_SIZES.items():
        if preset == tuple(size):
            return f"{name} {size[0]:g} x {size[1]:g} mm"
    return f"{size[0]:g} x {size[1]:g} mm"


def check_bleed(bleed_mm: float, option: str = "--bleed") -> float:
    if not 0 <= bleed_mm <= MAX_BLEED_MM:
        raise UserError(f"{option} {bleed_mm:g}: must be from 0 to {MAX_BLEED_MM:g} mm")
    return float(bleed_mm)


def px(mm: float, dpi: int = DPI) -> float:
    return mm / MM_PER_INCH * dpi


def size_px(card_mm: tuple[float, float], bleed_mm: float, dpi: int = DPI) -> tuple[int, int]:
    """Pixel size of a card image with its bleed on every side (poker + 3 mm: 815 x 1110)."""
    return art.card_px(card_mm[0], card_mm[1], bleed_mm, dpi)


# --- fonts -----------------------------------------------------------------------------------------

FONT_FILES: dict[str, Path] = {
    "name": Path(fontpkg_pt_sans.ROOT) / "files/PT_Sans-Web-Bold.ttf",
    "text": Path(fontpkg_pt_serif.ROOT) / "files/PT_Serif-Web-Regular.ttf",
    "label": Path(fontpkg_pt_sans.ROOT) / "files/PT_Sans-Web-Regular.ttf",
}
PDF_FONTS = {"name": "PTSans-Bold", "text": "PTSerif-Regular", "label": "PTSans-Regular"}


@cache
def register_fonts() -> dict[str, str]:
    """Register the PT fonts with reportlab (embedded as subsets); returns key -> PDF font name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for key, name in PDF_FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_FILES[key])))
    return PDF_FONTS


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
    return ImageFont.truetype(str(FONT_FILES[font]), size_px, layout_engine=ImageFont.Layout.BASIC)


# --- the layout numbers both renderers share -------------------------------------------------------

INK = art.INK
PAPER = art.PAPER
ART_BLEED_MM = art.BLEED_MM
REFERENCE_ART_PX = art.CARD_PX
PANEL_PX = art.PANEL_BOX
BADGE_PX = 128            # the corner badge's square at the panel's bottom right (with a little air)
PANEL_PAD_X = 2.2         # mm inside the panel's sides (at poker size; scaled with the panel)
PANEL_PAD_Y = 1.7         # mm inside its top and bottom
NAME_MAX = 0.175          # largest name size, as a fraction of the panel height
TEXT_MAX = 0.118          # largest rules-text size, the same way
TEXT_MIN_MM = 1.25        # 3.5 pt: the text never gets smaller; what does not fit then is refused
SHRINK = 0.96             # each try is this much smaller
LEADING = 1.2             # baseline to baseline, in font sizes
NAME_GAP = 0.45           # space between name and rules text, in rules-text sizes
PANEL_RADIUS_MM = 2.4     # corner radius of the panel drawn behind text on user art
PANEL_LINE_MM = 0.5
PANEL_EDGE_MM = 1.5       # the panel (so the text) stays this far inside the trim
PANEL_MIN = 0.2           # a panel lower than this fraction of the card is replaced by ...
PANEL_FALLBACK = 0.3      # ... one over this lower fraction of the card
# The art's important content keeps this far from its edges (reference pixels): the outlines of the
# picture and the text panel, and the corner badges inside them (see art.draw_face). With a service's
# safe zone the art is placed so that this lands inside it.
ART_SAFE_PX = art.FRAME_PX - art.LINE / 2
ART_SAFE_REACH = 0.15


@dataclass(frozen=True)
class Placement:
    """Where an art image lands on the card: mm per art pixel and the art's top-left corner."""

    scale: float
    left: float
    top: float

    def box(self, box_px: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = box_px
        return (self.left + x0 * self.scale, self.top + y0 * self.scale,
                self.left + x1 * self.scale, self.top + y1 * self.scale)


def place_art(art_px: tuple[int, int], card_mm: tuple[float, float], bleed_mm: float,
              safe_mm: float | None = None) -> Placement:
    """Scale the art to cover the card plus max(bleed, 3 mm) all round, centred.

    With ``safe_mm``, the art is made smaller where that would leave its important content (the
    ART_SAFE_PX border: the frame's outlines and the corner badges) outside the safe zone, on each
    side where that content, covering, would fall less than ART_SAFE_REACH of the card's side
    outside the trim (art drawn for a card of about this shape: on a card far wider or taller than
    the art, shrinking it that much would leave a mostly empty card; its panel is then the fallback
    one). The art then no longer covers the bleed, and ``crop_art`` lays it on its edge colour (the
    plain frame). Covering, a poker card at The Game Crafter would have the frame's outlines 1.1 mm
    inside the trim, in the 3.2 mm safe zone; a mini's would fall on the trim, and a tarot card's
    badges would be cut by it."""
    (aw, ah), (w, h) = art_px, card_mm
    cover = max(bleed_mm, ART_BLEED_MM)
    scale = max((w + 2 * cover) / aw, (h + 2 * cover) / ah)
    if safe_mm is not None:
        covering = scale
        for side, art_side, inset in ((w, aw, ART_SAFE_PX / REFERENCE_ART_PX[0] * aw),
                                      (h, ah, ART_SAFE_PX / REFERENCE_ART_PX[1] * ah)):
            if side / 2 - art_side * covering / 2 + inset * covering > -ART_SAFE_REACH * side:
                scale = min(scale, (side / 2 - safe_mm) / (art_side / 2 - inset))
    return Placement(scale, w / 2 - aw * scale / 2, h / 2 - ah * scale / 2)


def panel_box(card_mm: tuple[float, float], bleed_mm: float,
              safe_mm: float | None = None) -> tuple[float, float, float, float]:
    """The text panel (mm, trim coordinates) where the standard art has it at this card size, kept
    PANEL_EDGE_MM (or ``safe_mm``, if more) inside the card's edges (on narrow cards the art's sides
    are cropped away). On a card so wide that the art's panel is cropped away too, the lower
    PANEL_FALLBACK of the card."""
    x0, y0, x1, y1 = place_art(REFERENCE_ART_PX, card_mm, bleed_mm, safe_mm).box(PANEL_PX)
    w, h = card_mm
    edge = max(PANEL_EDGE_MM, safe_mm or 0.0)
    box = max(x0, edge), y0, min(x1, w - edge), min(y1, h - edge)
    if box[3] - box[1] < PANEL_MIN * h:
        return edge, h * (1 - PANEL_FALLBACK), w - edge, h - edge
    return box


def badge_corner(card_mm: tuple[float, float], bleed_mm: float,
                 safe_mm: float | None = None) -> tuple[float, float]:
    """Top-left corner (mm) of the badge's square: text stays out of the area right of and below it
    (nowhere, when the panel is the fallback one drawn over the art)."""
    x1, y1 = PANEL_PX[2], PANEL_PX[3]
    at = place_art(REFERENCE_ART_PX, card_mm, bleed_mm, safe_mm)
    x, y, _, _ = at.box((x1 - BADGE_PX, y1 - BADGE_PX, x1, y1))
    panel = panel_box(card_mm, bleed_mm, safe_mm)
    if y >= panel[3] or x >= panel[2]:
        return panel[2], panel[3]
    return x, y


@dataclass(frozen=True)
class Line:
    """One line of text: centred on ``x``, its baseline at ``y`` (mm, trim coordinates)."""

    text: str
    font: str   # a FONT_FILES key
    size: float  # font size in mm
    x: float
    y: float

    @property
    def width(self) -> float:
        return text_width(self.text, self.font, self.size)


def _wrap(words: list[str], font: str, size: float, first_baseline: float, leading: float,
          width_at, bottom: float) -> list[tuple[str, float, float]] | None:
    """Greedy wrap: (text, baseline, available width) per line, or None if it runs past ``bottom``."""
    ascent, descent = font_metrics(font)
    lines, i, baseline = [], 0, first_baseline
    while i < len(words):
        if baseline + descent * size > bottom + 1e-9:
            return None
        available = width_at(baseline - ascent * size, baseline + descent * size)
        j = i + 1
        if text_width(words[i], font, size) > available:
            return None
        while j < len(words) and text_width(" ".join(words[i:j + 1]), font, size) <= available:
            j += 1
        lines.append((" ".join(words[i:j]), baseline, available))
        i, baseline = j, baseline + leading
    return lines


def ellipsize(text: str, font: str, size: float, available: float) -> str:
    """``text`` if it fits ``available`` (mm, or whatever unit ``size`` is in), else as many of its
    words as fit, then "…"."""
    if text_width(text, font, size) <= available:
        return text
    words = breakable(text)
    while words:
        candidate = " ".join(words).rstrip(".,;:") + "…"
        if text_width(candidate, font, size) <= available:
            return candidate
        if len(words) == 1:
            word = words[0]
            while word and text_width(word + "…", font, size) > available:
                word = word[:-1]
            return word + "…" if word else ""
        words.pop()
    return ""


def layout_text(name: str, text: str, panel: tuple[float, float, float, float],
                badge: tuple[float, float], lang: str = "en") -> tuple[Line, ...]:
    """The name (PT Sans Bold, one line, two if it must) and the rules text (PT Serif), as large as
    fits the panel: lines that reach down beside the badge are narrowed on both sides, so that the
    text stays centred and clear of it. Never overflows, never cuts: what does not fit at the smallest
    size (``TEXT_MIN_MM``) raises ``TextTooLong``.
    Lines end only at ordinary spaces, never where ``typography.bind`` put a no-break space for
    ``lang`` (``справа от себя`` keeps ``от себя`` together)."""
    name, text = bind(name, lang), bind(text, lang)
    x0, y0, x1, y1 = panel
    height = y1 - y0
    unit = height / 25.0  # the panel is about 25 mm high on a poker card
    # On a very tall, narrow card the padding would swallow the panel: it keeps to a tenth of it.
    pad_x, pad_y = min(PANEL_PAD_X * unit, 0.1 * (x1 - x0)), min(PANEL_PAD_Y * unit, 0.1 * height)
    left, right = x0 + pad_x, x1 - pad_x
    top, bottom = y0 + pad_y, y1 - pad_y
    full = right - left
    centre = (left + right) / 2
    narrow = full - 2 * max(0.0, right - badge[0])

    def width_at(line_top: float, line_bottom: float) -> float:
        return narrow if line_bottom > badge[1] else full

    name_words, text_words = breakable(name), breakable(text)
    name_asc, name_desc = font_metrics("name")
    text_asc, _ = font_metrics("text")
    scale = 1.0
    while True:
        text_size = max(TEXT_MIN_MM, TEXT_MAX * height * scale)
        # The name keeps its size until the rules text has shrunk to 3/4 of its own.
        name_size = max(text_size * 1.1, NAME_MAX * height * min(1.0, scale / 0.75))
        single = text_width(name, "name", name_size)
        if single > full:  # shrink the name alone to one line, down to 80 % of its size
            name_size = max(name_size * 0.8, name_size * full / single, TEXT_MIN_MM)
        name_lines = _wrap(name_words, "name", name_size, top + name_asc * name_size, LEADING * name_size,
                           width_at, bottom)
        lines: list[Line] = []
        if name_lines is not None:
            lines = [Line(t, "name", name_size, centre, b) for t, b, _ in name_lines]
            first = top + text_asc * text_size  # a card without a name: its text from the top
            if name_lines:
                first = name_lines[-1][1] + name_desc * name_size + NAME_GAP * text_size + text_asc * text_size
            body = _wrap(text_words, "text", text_size, first, LEADING * text_size, width_at, bottom)
            if body == []:  # no rules text
                return tuple(lines)
            if body is not None:
                # Centre the rules text in the room left below the name, if it still fits there.
                _, descent = font_metrics("text")
                spare = bottom - (body[-1][1] + descent * text_size)
                above_badge = badge[1] - (body[-1][1] + descent * text_size)
                for shift in (spare / 2, min(spare / 2, above_badge), spare / 3, spare / 5):
                    if shift <= 0:
                        continue
                    moved = _wrap(text_words, "text", text_size, first + shift, LEADING * text_size,
                                  width_at, bottom)
                    if moved is not None and len(moved) == len(body):
                        body = moved
                        break
                return tuple(lines + [Line(t, "text", text_size, centre, b) for t, b, _ in body])
        if text_size <= TEXT_MIN_MM:
            raise TextTooLong("name" if name_lines is None else "text")
        scale *= SHRINK


class TextTooLong(Exception):
    """A card's name (``args[0] == "name"``) or rules text does not fit its panel even at the smallest
    size: it is refused, never cut."""


# --- the art ---------------------------------------------------------------------------------------


def load_art(path: Path | None, where: str) -> Image.Image:
    """The art file as an RGB image, as a viewer shows it (``toolkit.cards.picture``). It is opened through the
    loader's ``open_art``, which refuses what is not a picture or is over the pixel limit, and
    Pillow's warnings are kept from the user's terminal."""
    if path is None:
        raise UserError(f"{where}: the art file does not exist (run 'toolkit art' to draw it)")
    with open_art(path, where) as image:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                image.load()
                return as_viewed(image)
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as err:
            raise UserError(f"{where}: cannot read the art file {path}: {err}") from None


def _extend_edges(image: Image.Image, box: tuple[float, float, float, float]):
    """``image`` on a ground of its edge colour (the median of its outermost pixels: the plain
    frame of a face, the ground of a back) as far as ``box`` reaches past it, and the box moved to
    match: art placed inside a safe zone does not cover the bleed by itself. A plain colour rather
    than repeated edge pixels, which would streak a patterned back."""
    pad = math.ceil(max(0.0, -box[0], -box[1], box[2] - image.width, box[3] - image.height) - 1e-6)
    if not pad:
        return image, box
    import numpy as np  # only for art inside a safe zone: the other cards start without it

    pixels = np.asarray(image)
    edge = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    ground = Image.new("RGB", (image.width + 2 * pad, image.height + 2 * pad),
                       tuple(int(v) for v in np.median(edge, axis=0)))
    ground.paste(image, (pad, pad))
    return ground, tuple(v + pad for v in box)


def crop_art(image: Image.Image, card_mm: tuple[float, float], bleed_mm: float,
             out_px: tuple[int, int] | None = None, safe_mm: float | None = None) -> Image.Image:
    """The part of ``image`` that shows on the card plus its bleed (placed by ``place_art``).

    With ``out_px`` it is resampled to exactly that size. Without, it keeps the art's own pixels
    (cut on whole pixels, which moves it by at most half a pixel), unless the art is finer than
    600 DPI (twice what print needs), when it is scaled down to 300 DPI: flat art is not blurred by
    resampling, which keeps it crisp and compressing well.
    """
    (w, h), b = card_mm, bleed_mm
    at = place_art(image.size, card_mm, bleed_mm, safe_mm)
    box = ((-b - at.left) / at.scale, (-b - at.top) / at.scale,
           (w + b - at.left) / at.scale, (h + b - at.top) / at.scale)
    image, box = _extend_edges(image, box)
    size = (max(1, round(box[2] - box[0])), max(1, round(box[3] - box[1])))
    target = out_px or size_px(card_mm, bleed_mm)
    if out_px is None and size[0] > 2 * target[0]:
        out_px = target
    if out_px is None or tuple(out_px) == size:
        x0 = min(max(0, round(box[0])), image.width - size[0])
        y0 = min(max(0, round(box[1])), image.height - size[1])
        return image.crop((x0, y0, x0 + size[0], y0 + size[1]))
    return image.resize(out_px, Image.Resampling.LANCZOS, box=box, reducing_gap=3.0)


def has_plain_panel(image: Image.Image, card_mm: tuple[float, float], bleed_mm: float,
                    safe_mm: float | None = None) -> bool:
    """True when the cropped art is plain and light where the text goes (the project's own art)."""
    x0, y0, x1, y1 = panel_box(card_mm, bleed_mm, safe_mm)
    bx, _ = badge_corner(card_mm, bleed_mm, safe_mm)
    inset = 1.5
    scale_x = image.width / (card_mm[0] + 2 * bleed_mm)
    scale_y = image.height / (card_mm[1] + 2 * bleed_mm)
    box = (round((x0 + inset + bleed_mm) * scale_x), round((y0 + inset + bleed_mm) * scale_y),
           round((bx - inset + bleed_mm) * scale_x), round((y1 - inset + bleed_mm) * scale_y))
    if box[2] - box[0] < 4 or box[3] - box[1] < 4:
        return False
    stat = ImageStat.Stat(image.crop(box).convert("L"))
    return stat.stddev[0] < 8 and stat.mean[0] > 200


@dataclass(frozen=True, eq=False)
class CardFace:
    """One side of one card, ready to draw: the cropped art at 300 DPI and the text in mm."""

    key: str                        # "card:<id>" for a face, "back" for the back
    card_mm: tuple[float, float]
    bleed_mm: float
    art: Image.Image                # RGB, card plus bleed, at most 300 DPI (see crop_art)
    lines: tuple[Line, ...] = ()
    panel: tuple[float, float, float, float] | None = None  # drawn behind the text (user art only)
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def width(self) -> float:
        return self.card_mm[0]

    @property
    def height(self) -> float:
        return self.card_mm[1]

    def pdf_image(self):
        """The art as a reportlab ImageReader: lossless (Flate) unless JPEG is less than half its size
        (photographs), so the flat project art stays crisp and small."""
        if "reader" not in self._cache:
            from reportlab.lib.utils import ImageReader

            # Decide on a quarter-size sample (fast); the ratio is about the same.
            sample = self.art.reduce(2) if min(self.art.size) >= 64 else self.art
            probe = io.BytesIO()
            sample.save(probe, format="JPEG", quality=92, subsampling=0)
            if probe.tell() < len(zlib.compress(sample.tobytes(), 6)) / 2:
                buffer = io.BytesIO()
                self.art.save(buffer, format="JPEG", quality=92, subsampling=0)
                buffer.seek(0)
                self._cache["reader"] = ImageReader(buffer)
            else:
                self._cache["reader"] = ImageReader(self.art)
        return self._cache["reader"]


def card_face(card: CardType, lang: str, card_mm: tuple[float, float] = CARD_SIZES["poker"],
              bleed_mm: float = 0.0, source: str = "", safe_mm: float | None = None) -> CardFace:
    """A card's face in ``lang``: its art, name and rules text. With ``safe_mm`` (a print service's
    safe zone, in mm inside the trim) the text, its panel and the art's corner badges keep inside it."""
    where = f"{source + ': ' if source else ''}card '{card.id}'"
    image = crop_art(load_art(card.art_path, where), card_mm, bleed_mm, safe_mm=safe_mm)
    panel = panel_box(card_mm, bleed_mm, safe_mm)
    plain = has_plain_panel(image, card_mm, bleed_mm, safe_mm)
    # On a panel of our own the art's corner badge is covered, so the text may use the whole panel.
    badge = badge_corner(card_mm, bleed_mm, safe_mm) if plain else (panel[2], panel[3])
    try:
        lines = layout_text(card.name[lang], card.text[lang], panel, badge, lang)
    except TextTooLong as err:
        what = err.args[0]
        words = card.name[lang] if what == "name" else card.text[lang]
        raise UserError(f"{where}: its {what} ({len(words):,} characters) does not fit a {card_size_name(card_mm)} "
                        f"card even at {TEXT_MIN_MM * PT_PER_MM:.1f} pt; shorten it, or print on larger cards "
                        "(--card)") from None
    return CardFace(f"card:{card.id}", tuple(card_mm), bleed_mm, image, lines, None if plain else panel)


def card_back(catalogue: Catalogue, card_mm: tuple[float, float] = CARD_SIZES["poker"],
              bleed_mm: float = 0.0, safe_mm: float | None = None) -> CardFace:
    """The game's card back: its art alone, placed as the faces are (its frame matches theirs)."""
    image = load_art(catalogue.back_art_path, f"{catalogue.source.name}: game.back_art")
    return CardFace("back", tuple(card_mm), bleed_mm, crop_art(image, card_mm, bleed_mm, safe_mm=safe_mm))


# --- the two renderers -----------------------------------------------------------------------------


def draw_card(canvas, face: CardFace, x: float, y: float, turned: bool = False, image=None) -> None:
    """Draw ``face`` on a reportlab canvas: its trim's bottom-left corner at (x, y) in points, the
    bleed around it; ``turned`` draws it upside down in the same place. ``image`` replaces the
    art's picture (a reportlab ImageReader of the same area: e.g. the art separated into CMYK)."""
    fonts = register_fonts()
    w, h, b = face.width * PT_PER_MM, face.height * PT_PER_MM, face.bleed_mm * PT_PER_MM
    canvas.saveState()
    canvas.translate(x, y)
    if turned:
        canvas.translate(w, h)
        canvas.rotate(180)
    canvas.drawImage(image or face.pdf_image(), -b, -b, w + 2 * b, h + 2 * b)
    if face.panel is not None:
        x0, y0, x1, y1 = face.panel
        canvas.setFillColorRGB(*(c / 255 for c in PAPER))
        canvas.setStrokeColorRGB(*(c / 255 for c in INK))
        canvas.setLineWidth(PANEL_LINE_MM * PT_PER_MM)
        canvas.roundRect(x0 * PT_PER_MM, h - y1 * PT_PER_MM, (x1 - x0) * PT_PER_MM, (y1 - y0) * PT_PER_MM,
                         PANEL_RADIUS_MM * PT_PER_MM, stroke=1, fill=1)
    canvas.setFillColorRGB(*(c / 255 for c in INK))
    for line in face.lines:
        canvas.setFont(fonts[line.font], line.size * PT_PER_MM)
        canvas.drawCentredString(line.x * PT_PER_MM, h - line.y * PT_PER_MM, line.text)
    canvas.restoreState()


def card_image(face: CardFace, dpi: int = DPI) -> Image.Image:
    """``face`` as an RGB Pillow image with its bleed, at ``dpi`` (300: poker + 3 mm is 815 x 1110)."""
    size = size_px(face.card_mm, face.bleed_mm, dpi)
    image = face.art.copy() if face.art.size == size else face.art.resize(size, Image.Resampling.LANCZOS)
    sx = size[0] / (face.width + 2 * face.bleed_mm)
    sy = size[1] / (face.height + 2 * face.bleed_mm)
    b = face.bleed_mm

    def at(x: float, y: float) -> tuple[float, float]:
        return (x + b) * sx, (y + b) * sy

    draw = ImageDraw.Draw(image)
    if face.panel is not None:
        x0, y0, x1, y1 = face.panel
        line = max(1, round(PANEL_LINE_MM * sx))
        draw.rounded_rectangle([*at(x0, y0), *at(x1, y1)], radius=PANEL_RADIUS_MM * sx, fill=PAPER,
                               outline=INK, width=line)
    for line in face.lines:
        font = pillow_font(line.font, round(line.size * sy * 4) / 4)
        draw.text(at(line.x, line.y), line.text, font=font, fill=INK, anchor="ms")
    return image
