"""The card renderer: card sizes, art placement, and the two renderers of a card side (the fonts and
units they set type in are ``toolkit.typeset``'s).

A side is built once as a :class:`CardFace` (its ground, the full-bleed art or a plain ground, at
300 DPI, and draw operations in millimetres: text runs, shapes, pictures, made by the layout
engine, ``toolkit.layout``) and then drawn by one of two renderers that share those numbers:

* :func:`draw_card` draws it onto a reportlab canvas (print sheets, print-service PDFs);
* :func:`card_image` paints it into a Pillow image (PNG and Tabletop Simulator exports), with the
  same TTF files through Pillow's ImageFont.

Geometry. Any art, of any size or aspect, is scaled to cover the card plus ``max(bleed, 3 mm)`` on
every side and cropped about its centre (``place_art``); what shows is the card plus the requested
bleed. Coordinates are millimetres from the card's trim corner at the top left, y pointing down.
"""

from __future__ import annotations

import io
import math
import re
import threading
import warnings
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw

from toolkit.cards import art
from toolkit.cards.picture import as_viewed
from toolkit.catalogue.checks import open_art
from toolkit.errors import UserError
from toolkit.typeset.breaks import breakable
from toolkit.typeset.fonts import pillow_font, register_fonts, text_width
from toolkit.typeset.units import PT_PER_MM

DPI = art.DPI

# --- card sizes ------------------------------------------------------------------------------------

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),   # standard playing cards, 2.5 x 3.5 in
    "bridge": (57.0, 89.0),  # 2.25 x 3.5 in (57.15 x 88.9 mm)
    "mini": (44.0, 63.0),    # print services' "mini" cards, 1.75 x 2.5 in
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),  # the European square game card (The Game Crafter's "Euro Square", 2.75 in)
}
MIN_CARD_MM = 20.0
MAX_CARD_MM = 500.0
MAX_BLEED_MM = 10.0


def parse_card_size(value: str, option: str = "--card") -> tuple[float, float]:
    """``poker`` / ``bridge`` / ``mini`` / ``tarot`` / ``square`` or ``WxH`` in millimetres, e.g. ``60x90``."""
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


def check_bleed(bleed_mm: float) -> float:
    if not 0 <= bleed_mm <= MAX_BLEED_MM:
        raise UserError(f"--bleed {bleed_mm:g}: must be from 0 to {MAX_BLEED_MM:g} mm")
    return float(bleed_mm)


def size_px(card_mm: tuple[float, float], bleed_mm: float, dpi: int = DPI) -> tuple[int, int]:
    """Pixel size of a card image with its bleed on every side (poker + 3 mm: 815 x 1110)."""
    return art.card_px(card_mm[0], card_mm[1], bleed_mm, dpi)


INK = art.INK
ART_BLEED_MM = art.BLEED_MM


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


def _reference_inset(art_px: tuple[int, int], border: tuple[float, float]) -> tuple[float, float]:
    """How far inside the trim (mm, x and y, at least 0) the art's important content lies on the card
    the art is drawn for: a poker card covered with ART_BLEED_MM of bleed (``toolkit art`` paints
    815 x 1110 px for it; ``frame = "art"`` measures the same art)."""
    (aw, ah), (w, h) = art_px, art.CARD_MM
    scale = max((w + 2 * ART_BLEED_MM) / aw, (h + 2 * ART_BLEED_MM) / ah)
    return (max(0.0, w / 2 - (aw / 2 - border[0] * aw) * scale),
            max(0.0, h / 2 - (ah / 2 - border[1] * ah) * scale))


def place_art(art_px: tuple[int, int], card_mm: tuple[float, float], bleed_mm: float,
              safe_mm: float | None = None, border: tuple[float, float] = (0.0, 0.0),
              margin: float = 0.0) -> Placement:
    """Scale the art to cover the card plus max(bleed, 3 mm) all round, centred; never larger than
    keeps its important content inside the card.

    ``border`` (fractions of the art's width and height) is where that content begins (a frame's
    outlines, corner badges: a layout's ``safe_border``). It stays at least as far inside the trim
    as on the card the art is drawn for (``_reference_inset``), and inside ``safe_mm`` (a print
    service's safe zone) when that is more. On a card of another shape than the art (tarot, bridge,
    square with art painted for poker) the art is fitted by that content, not enlarged to cover: it
    no longer covers the card on one axis, and ``crop_art`` lays it on its edge colour (the plain
    frame). The card the art is drawn for gets exactly the covering scale. ``margin``: that content
    lies at least this far inside the trim too (a layout's ``inside_margin``: corner symbols that must
    stay inside its safe margin on a small card)."""
    (aw, ah), (w, h) = art_px, card_mm
    cover = max(bleed_mm, ART_BLEED_MM)
    scale = max((w + 2 * cover) / aw, (h + 2 * cover) / ah)
    least = max(safe_mm or 0.0, margin)
    if any(border):
        for side, art_side, inset, reference in zip((w, h), (aw, ah), border, _reference_inset(art_px, border)):
            content = art_side * (1 - 2 * inset)
            if content > 0:
                fitted = (side - 2 * max(reference, least)) / content
                if fitted < scale * (1 - 1e-9):  # the art's own card keeps its covering scale, bit for bit
                    scale = max(fitted, 1e-6)
    return Placement(scale, w / 2 - aw * scale / 2, h / 2 - ah * scale / 2)


# --- what a face is drawn with: draw operations in mm, trim coordinates (y down) -----------------

RGBColour = tuple[int, int, int]


@dataclass(frozen=True)
class Line:
    """One run of text: centred on ``x``, its baseline at ``y`` (mm, trim coordinates)."""

    text: str
    font: str   # a FONT_FILES key
    size: float  # font size in mm
    x: float
    y: float
    colour: RGBColour = INK
    element: str = ""  # the layout element it belongs to
    turned: bool = False  # drawn upside down about (x, y): a card's index repeated at its foot

    @property
    def width(self) -> float:
        return text_width(self.text, self.font, self.size)


@dataclass(frozen=True)
class Shape:
    """A rectangle (``box``, corner ``radius``), an ellipse in ``box``, or a line from (x0, y0) to
    (x1, y1) of ``box``; ``fill`` and ``stroke`` None where not painted; ``width`` the stroke's, mm."""

    kind: str  # "rect", "circle" or "line"
    box: tuple[float, float, float, float]
    fill: RGBColour | None = None
    stroke: RGBColour | None = None
    width: float = 0.3
    radius: float = 0.0
    element: str = ""


@dataclass(frozen=True, eq=False)
class Picture:
    """A picture filling ``box`` (mm): an RGB or RGBA raster (art in a box, an icon)."""

    box: tuple[float, float, float, float]
    image: Image.Image
    element: str = ""


Op = Line | Shape | Picture


def ellipsize(text: str, font: str, size: float, available: float) -> str:
    """``text`` if it fits ``available`` (mm, or whatever unit ``size`` is in), else as many of its
    words as fit, then "…" (labels in books and on tokens; a card's own text is never cut)."""
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


def crop_art(image: Image.Image, card_mm: tuple[float, float], bleed_mm: float, safe_mm: float | None = None,
             border: tuple[float, float] = (0.0, 0.0), margin: float = 0.0) -> Image.Image:
    """The part of ``image`` that shows on the card plus its bleed (placed by ``place_art``).

    It keeps the art's own pixels (cut on whole pixels, which moves it by at most half a pixel), unless
    the art is finer than 600 DPI (twice what print needs), when it is scaled down to 300 DPI: flat art
    is not blurred by resampling, which keeps it crisp and compressing well.
    """
    (w, h), b = card_mm, bleed_mm
    at = place_art(image.size, card_mm, bleed_mm, safe_mm, border, margin)
    box = ((-b - at.left) / at.scale, (-b - at.top) / at.scale,
           (w + b - at.left) / at.scale, (h + b - at.top) / at.scale)
    image, box = _extend_edges(image, box)
    size = (max(1, round(box[2] - box[0])), max(1, round(box[3] - box[1])))
    target = size_px(card_mm, bleed_mm)
    if size[0] > 2 * target[0]:
        return image.resize(target, Image.Resampling.LANCZOS, box=box, reducing_gap=3.0)
    x0 = min(max(0, round(box[0])), image.width - size[0])
    y0 = min(max(0, round(box[1])), image.height - size[1])
    return image.crop((x0, y0, x0 + size[0], y0 + size[1]))


@dataclass(frozen=True, eq=False)
class CardFace:
    """One side of one card, ready to draw: its ground (the full-bleed art, or the plain ground a
    layout lays) at 300 DPI, and what is drawn on it, in order, in mm."""

    key: str                        # "card:<id>" for a face, "back" for the back
    card_mm: tuple[float, float]
    bleed_mm: float
    art: Image.Image                # RGB, card plus bleed, at most 300 DPI (see crop_art)
    ops: tuple[Op, ...] = ()
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def width(self) -> float:
        return self.card_mm[0]

    @property
    def height(self) -> float:
        return self.card_mm[1]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(op for op in self.ops if isinstance(op, Line))

    def pdf_image(self):
        """The art as a reportlab ImageReader: lossless (Flate) unless JPEG is less than half its size
        (photographs), so the flat project art stays crisp and small."""
        if "reader" not in self._cache:
            self._cache["reader"] = image_reader(self.art)
        return self._cache["reader"]


def image_reader(image: Image.Image):
    """``image`` for reportlab: lossless (Flate) unless JPEG is less than half its size (photographs)."""
    from reportlab.lib.utils import ImageReader

    if image.mode == "RGBA":
        return ImageReader(image)
    # Decide on a quarter-size sample (fast); the ratio is about the same.
    sample = image.reduce(2) if min(image.size) >= 64 else image
    probe = io.BytesIO()
    sample.save(probe, format="JPEG", quality=92, subsampling=0)
    if probe.tell() < len(zlib.compress(sample.tobytes(), 6)) / 2:
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=92, subsampling=0)
        buffer.seek(0)
        return ImageReader(buffer)
    return ImageReader(image)


# --- the two renderers -----------------------------------------------------------------------------


def _pdf_colour(colour: RGBColour) -> tuple[float, float, float]:
    return tuple(c / 255 for c in colour)


def draw_card(canvas, face: CardFace, x: float, y: float, image=None) -> None:
    """Draw ``face`` on a reportlab canvas: its trim's bottom-left corner at (x, y) in points, the
    bleed around it. ``image`` replaces the ground's picture (a reportlab ImageReader of the same area: e.g. the art separated into CMYK;
    see ``pictures_in_ground`` for a face with pictures of its own)."""
    fonts = register_fonts()
    w, h, b = face.width * PT_PER_MM, face.height * PT_PER_MM, face.bleed_mm * PT_PER_MM
    canvas.saveState()
    canvas.translate(x, y)
    canvas.drawImage(image or face.pdf_image(), -b, -b, w + 2 * b, h + 2 * b)
    for op in face.ops:
        if isinstance(op, Line):
            canvas.setFillColorRGB(*_pdf_colour(op.colour))
            canvas.setFont(fonts[op.font], op.size * PT_PER_MM)
            if op.turned:
                canvas.saveState()
                canvas.translate(op.x * PT_PER_MM, h - op.y * PT_PER_MM)
                canvas.rotate(180)
                canvas.drawCentredString(0, 0, op.text)
                canvas.restoreState()
            else:
                canvas.drawCentredString(op.x * PT_PER_MM, h - op.y * PT_PER_MM, op.text)
            continue
        x0, y0, x1, y1 = (v * PT_PER_MM for v in op.box)
        if isinstance(op, Picture):
            canvas.drawImage(_cached_reader(face, op), x0, h - y1, x1 - x0, y1 - y0, mask="auto")
            continue
        canvas.setLineWidth(op.width * PT_PER_MM)
        if op.fill is not None:
            canvas.setFillColorRGB(*_pdf_colour(op.fill))
        if op.stroke is not None:
            canvas.setStrokeColorRGB(*_pdf_colour(op.stroke))
        paint = {"stroke": int(op.stroke is not None), "fill": int(op.fill is not None)}
        if op.kind == "line":
            if op.stroke is not None:
                canvas.setLineCap(1)
                canvas.line(x0, h - y0, x1, h - y1)
        elif op.kind == "circle":
            canvas.ellipse(x0, h - y1, x1, h - y0, **paint)
        elif op.radius > 0:
            canvas.roundRect(x0, h - y1, x1 - x0, y1 - y0, op.radius * PT_PER_MM, **paint)
        else:
            canvas.rect(x0, h - y1, x1 - x0, y1 - y0, **paint)
    canvas.restoreState()


def _cached_reader(face: CardFace, op: Picture):
    key = ("picture", id(op))
    if key not in face._cache:
        face._cache[key] = image_reader(op.image)
    return face._cache[key]


# The same icon or art lands at the same size on many faces: each picture is scaled once per size.
# Keyed by the picture's identity, the picture itself held in the entry so that its id is not reused.
_SCALED: OrderedDict[tuple[int, int, int], tuple[Image.Image, Image.Image]] = OrderedDict()
_SCALED_KEPT = 64
_SCALED_LOCK = threading.Lock()


def _scaled(picture: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``picture`` in RGBA scaled to ``size`` (Lanczos), from a small cache of the latest ones."""
    key = (id(picture), *size)
    with _SCALED_LOCK:  # the studio draws in its watching thread and its server's
        if key in _SCALED:
            _SCALED.move_to_end(key)
            return _SCALED[key][1]
    scaled = picture.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    with _SCALED_LOCK:
        _SCALED[key] = (picture, scaled)
        if len(_SCALED) > _SCALED_KEPT:
            _SCALED.popitem(last=False)
    return scaled


def _paste(image: Image.Image, picture: Image.Image, box: tuple[float, float, float, float]) -> None:
    """``picture`` scaled into ``box`` (pixels of ``image``), over what is there (its transparency kept)."""
    box = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
    picture = _scaled(picture, (max(1, box[2] - box[0]), max(1, box[3] - box[1])))
    image.paste(picture, box[:2], picture)


def pictures_in_ground(face: CardFace) -> CardFace:
    """``face`` with its pictures (art in a box, icons) laid into its ground, the shapes and text
    still drawn over it: a print file whose every image is separated into CMYK separates them too."""
    if not any(isinstance(op, Picture) for op in face.ops):
        return face
    ground = face.art.copy()
    sx = ground.width / (face.width + 2 * face.bleed_mm)
    sy = ground.height / (face.height + 2 * face.bleed_mm)
    b = face.bleed_mm
    for op in face.ops:
        if isinstance(op, Picture):
            x0, y0, x1, y1 = op.box
            _paste(ground, op.image, ((x0 + b) * sx, (y0 + b) * sy, (x1 + b) * sx, (y1 + b) * sy))
    return CardFace(face.key, face.card_mm, face.bleed_mm, ground,
                    tuple(op for op in face.ops if not isinstance(op, Picture)))


DRAFT_GROUND = 0.8    # a draft's ground (full-bleed art, plain backgrounds) is moved this far towards white
DRAFT_DETAIL = 0.55   # ... and its fills, pictures and icons this far: lighter, still told apart
BLACK: RGBColour = (0, 0, 0)


def _towards_white(colour: RGBColour | None, share: float) -> RGBColour | None:
    return None if colour is None else tuple(round(c + (255 - c) * share) for c in colour)


def _lighter(image: Image.Image, share: float) -> Image.Image:
    """``image`` moved ``share`` of the way towards white (its transparency kept)."""
    if image.mode in ("RGBA", "LA"):
        rgba = image.convert("RGBA")
        light = Image.blend(rgba.convert("RGB"), Image.new("RGB", rgba.size, (255, 255, 255)), share)
        light.putalpha(rgba.getchannel("A"))
        return light
    return Image.blend(image.convert("RGB"), Image.new("RGB", image.size, (255, 255, 255)), share)


def draft(face: CardFace) -> CardFace:
    """``face`` for a low-ink draft (``print-cards --draft``): its ground (full-bleed art or plain
    background) lightened by DRAFT_GROUND, so that no full-bleed fill is printed; shapes' fills,
    pictures and icons lightened by DRAFT_DETAIL, strokes kept; every text black."""
    ops: list[Op] = []
    for op in face.ops:
        if isinstance(op, Line):
            ops.append(Line(op.text, op.font, op.size, op.x, op.y, BLACK, op.element, op.turned))
        elif isinstance(op, Picture):
            ops.append(Picture(op.box, _lighter(op.image, DRAFT_DETAIL), op.element))
        else:
            ops.append(Shape(op.kind, op.box, _towards_white(op.fill, DRAFT_DETAIL), op.stroke, op.width, op.radius,
                             op.element))
    return CardFace(face.key, face.card_mm, face.bleed_mm, _lighter(face.art, DRAFT_GROUND), tuple(ops))


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
    for op in face.ops:
        if isinstance(op, Line):
            font = pillow_font(op.font, round(op.size * sy * 4) / 4)
            if op.turned:  # drawn upright on a layer of its own, turned about its point and laid on
                layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
                x, y = at(op.x, op.y)
                ImageDraw.Draw(layer).text((image.width - x, image.height - y), op.text, font=font,
                                           fill=op.colour, anchor="ms")
                image.paste(layer.rotate(180), (0, 0), layer.rotate(180))
                continue
            draw.text(at(op.x, op.y), op.text, font=font, fill=op.colour, anchor="ms")
            continue
        (x0, y0), (x1, y1) = at(*op.box[:2]), at(*op.box[2:])
        if isinstance(op, Picture):
            _paste(image, op.image, (x0, y0, x1, y1))
            continue
        width = max(1, round(op.width * sx)) if op.stroke is not None else 0
        if op.kind == "line":
            if op.stroke is not None:
                draw.line([(x0, y0), (x1, y1)], fill=op.stroke, width=width)
            continue
        # Pillow's boxes hold their last pixel and put the outline inside: the PDF centres it on the edge.
        half = width / 2
        box = [x0 - half, y0 - half, x1 + half - 1, y1 + half - 1]
        if op.kind == "circle":
            draw.ellipse(box, fill=op.fill, outline=op.stroke, width=width)
        else:
            draw.rounded_rectangle(box, radius=op.radius * sx + half, fill=op.fill, outline=op.stroke, width=width)
    return image
