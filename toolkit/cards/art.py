"""Draw the original card art: one flat, text-free picture per card type and one back per game.

Every picture is drawn with Pillow's ImageDraw from the catalogue alone: the card's kind picks the
drawing (the game's own painters, see ``Game.kind_art`` and ``Game.back_painter``: this module holds
the frame, the pen and the shapes they share, and a plain face and back for a game without art of
its own), the card's colour comes from the catalogue, and each colour is also told by its symbol
(circle, square, triangle, ...) in two corners and on the picture, for colour-blind players. No
words are drawn: the card renderer prints the name and the rules text, in the chosen language, on
the plain light panel that fills the lower part of every face.

Geometry (300 DPI): a 63 x 88 mm card plus 3 mm bleed on every side is 815 x 1110 px. Important
content stays 6 mm (bleed + safe margin, 71 px) inside the edges. Shapes are drawn at twice the size
and scaled down, which smooths their edges. The same catalogue always gives the same PNG bytes.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Callable, Sequence

from PIL import Image, ImageDraw

from toolkit.catalogue.checks import check_art_path
from toolkit.catalogue.model import CardType, Catalogue
from toolkit.errors import UserError
from toolkit.files import write_many
from toolkit.games.registry import get as game_of
from toolkit.typeset.units import MM_PER_INCH

# --- geometry --------------------------------------------------------------------------------------

DPI = 300
CARD_MM = (63.0, 88.0)
BLEED_MM = 3.0
SAFE_MM = 3.0
SUPERSAMPLE = 2  # draw at this multiple of the final size, then scale down (smooth edges)


def mm_to_px(mm: float, dpi: int = DPI) -> int:
    return round(mm / MM_PER_INCH * dpi)


def card_px(
    width_mm: float = CARD_MM[0], height_mm: float = CARD_MM[1], bleed_mm: float = BLEED_MM, dpi: int = DPI
) -> tuple[int, int]:
    """Pixel size of a card image including its bleed on every side."""
    return mm_to_px(width_mm + 2 * bleed_mm, dpi), mm_to_px(height_mm + 2 * bleed_mm, dpi)


CARD_PX = card_px()
WIDTH, HEIGHT = CARD_PX
MARGIN_PX = mm_to_px(BLEED_MM + SAFE_MM)  # important content stays this far inside the edges

# The face: a coloured frame, the picture window above, the plain text panel below.
FRAME_PX = mm_to_px(BLEED_MM + 1.5)
PICTURE_BOX = (FRAME_PX, FRAME_PX, WIDTH - FRAME_PX, round(HEIGHT * 0.67))
PANEL_BOX = (FRAME_PX, round(HEIGHT * 0.685), WIDTH - FRAME_PX, HEIGHT - FRAME_PX)
CORNER_RADIUS = 28
BADGE_RADIUS = 54
BADGE_CENTRE = MARGIN_PX + BADGE_RADIUS - 8  # the symbol inside stays within the safe margin

LINE = 6  # outline width of big shapes, in final pixels
THIN = 4  # outline width of details

# --- colours ---------------------------------------------------------------------------------------
# Card colours come from the catalogue. These are the neutral paints of the art style itself.

RGB = tuple[int, int, int]
Point = tuple[float, float]

INK = (42, 34, 56)
WHITE = (255, 255, 255)
PAPER = (253, 249, 238)
GOLD = (247, 197, 62)
ORANGE = (242, 140, 48)
STONE = (214, 207, 194)
STONE_DARK = (160, 151, 140)
WOOD = (150, 96, 52)
STRAW = (238, 196, 96)
GLASS = (214, 236, 250)
SKIN = (255, 221, 194)
ICE = ((222, 247, 255), (160, 222, 246), (104, 184, 234), (62, 128, 200))
WATER = ((40, 104, 168), (62, 142, 204), (112, 188, 230))
NIGHT = (40, 38, 92)
PURPLE = (124, 74, 182)
AQUA = (94, 196, 206)
WING = (200, 226, 255)
DRESS = (246, 150, 196)
HAIR = (236, 168, 70)
MOON = (250, 236, 170)
CLOUD = (132, 142, 166)
GRASS = (96, 140, 70)

def rgb(hex_colour: str) -> RGB:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved the fraction ``t`` of the way towards ``b``."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def lighter(colour: RGB, t: float) -> RGB:
    return mix(colour, WHITE, t)


def darker(colour: RGB, t: float) -> RGB:
    return mix(colour, (0, 0, 0), t)


# --- point geometry --------------------------------------------------------------------------------


def ellipse_points(cx: float, cy: float, rx: float, ry: float, angle: float = 0.0, steps: int = 48) -> list[Point]:
    """A closed ellipse as a polygon, turned by ``angle`` degrees."""
    return rotate(arc_points(cx, cy, rx, ry, 0, 360, steps, closed=False), cx, cy, angle)


def arc_points(
    cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 24, closed: bool = True
) -> list[Point]:
    """Points along an ellipse from ``start`` to ``end`` degrees (0 = right, 90 = down)."""
    count = steps + 1 if closed else steps
    return [
        (cx + rx * math.cos(math.radians(start + (end - start) * i / steps)),
         cy + ry * math.sin(math.radians(start + (end - start) * i / steps)))
        for i in range(count)
    ]


def regular_polygon(cx: float, cy: float, r: float, sides: int, angle: float = -90.0) -> list[Point]:
    return arc_points(cx, cy, r, r, angle, angle + 360, sides, closed=False)


def star_points(cx: float, cy: float, outer: float, inner: float, tips: int = 5, angle: float = -90.0) -> list[Point]:
    points = []
    for i in range(2 * tips):
        r = outer if i % 2 == 0 else inner
        a = math.radians(angle + 180 * i / tips)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def rotate(points: Sequence[Point], cx: float, cy: float, angle: float) -> list[Point]:
    """Turn points by ``angle`` degrees (clockwise on screen) about (cx, cy)."""
    if not angle:
        return list(points)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points]


def wave_points(x0: float, x1: float, y: float, amplitude: float, length: float, phase: float = 0.0) -> list[Point]:
    steps = max(8, int((x1 - x0) / length * 16))
    return [
        (x0 + (x1 - x0) * i / steps,
         y - amplitude * math.cos(2 * math.pi * ((x0 + (x1 - x0) * i / steps) / length + phase)))
        for i in range(steps + 1)
    ]


def trim_end(path: Sequence[Point], length: float) -> list[Point]:
    """The path shortened by ``length`` at its end."""
    points = list(path)
    while len(points) >= 2:
        (x0, y0), (x1, y1) = points[-2], points[-1]
        segment = math.hypot(x1 - x0, y1 - y0)
        if segment > length:
            t = (segment - length) / segment
            points[-1] = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            return points
        length -= segment
        points.pop()
    return points


# --- the pen ---------------------------------------------------------------------------------------


class Pen:
    """ImageDraw on a canvas SUPERSAMPLE times the final size; coordinates and widths are final pixels.

    Outlines are centred on a shape's edge and drawn with round joins, like a vector drawing.
    """

    def __init__(self, size: tuple[int, int], background: RGB | tuple[int, int, int, int], mode: str = "RGB"):
        self.size = size
        self.image = Image.new(mode, (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), background)
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def _xy(points: Sequence[Point]) -> list[Point]:
        return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]

    @staticmethod
    def _w(width: float) -> int:
        return max(1, round(width * SUPERSAMPLE))

    @staticmethod
    def _box(x0: float, y0: float, x1: float, y1: float) -> list[float]:
        # Pillow's boxes include their last pixel: end one short so that shapes come out symmetric.
        return [x0 * SUPERSAMPLE, y0 * SUPERSAMPLE, x1 * SUPERSAMPLE - 1, y1 * SUPERSAMPLE - 1]

    def polygon(self, points: Sequence[Point], fill: RGB | None, outline: RGB | None = INK, width: float = LINE) -> None:
        xy = self._xy(points)
        if fill is not None:
            self.draw.polygon(xy, fill=fill)
        if outline is not None and width:
            self.draw.line(xy + xy[:2], fill=outline, width=self._w(width), joint="curve")

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float | None = None,
        fill: RGB | None = None, outline: RGB | None = INK, width: float = LINE,
    ) -> None:
        ry = rx if ry is None else ry
        half = width / 2 if outline is not None else 0
        if outline is not None and fill is None:
            box = self._box(cx - rx - half, cy - ry - half, cx + rx + half, cy + ry + half)
            self.draw.ellipse(box, outline=outline, width=self._w(width))
            return
        if outline is not None:
            self.draw.ellipse(self._box(cx - rx - half, cy - ry - half, cx + rx + half, cy + ry + half), fill=outline)
        if rx > half and ry > half:
            self.draw.ellipse(self._box(cx - rx + half, cy - ry + half, cx + rx - half, cy + ry - half), fill=fill)

    def rect(
        self, x0: float, y0: float, x1: float, y1: float, fill: RGB | None,
        outline: RGB | None = INK, width: float = LINE, radius: float = 0,
    ) -> None:
        half = width / 2 if outline is not None else 0
        if outline is not None:
            outer = self._box(x0 - half, y0 - half, x1 + half, y1 + half)
            if fill is None:
                self.draw.rounded_rectangle(outer, radius=(radius + half) * SUPERSAMPLE, outline=outline,
                                            width=self._w(width))
                return
            self.draw.rounded_rectangle(outer, radius=(radius + half) * SUPERSAMPLE, fill=outline)
        inner = self._box(x0 + half, y0 + half, x1 - half, y1 - half)
        self.draw.rounded_rectangle(inner, radius=max(0.0, radius - half) * SUPERSAMPLE, fill=fill)

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        """A polyline with round joins and round ends."""
        xy = self._xy(points)
        self.draw.line(xy, fill=colour, width=self._w(width), joint="curve")
        r = width * SUPERSAMPLE / 2
        for x, y in (xy[0], xy[-1]):
            self.draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)

    def stroke(self, points: Sequence[Point], colour: RGB, width: float, outline: RGB = INK, edge: float = THIN) -> None:
        """A thick outlined line, like a stick or a ribbon."""
        self.line(points, outline, width + 2 * edge)
        self.line(points, colour, width)

    def dashed(self, points: Sequence[Point], colour: RGB, width: float, dash: float, gap: float) -> None:
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            length = math.hypot(x1 - x0, y1 - y0)
            at = 0.0
            while at < length:
                end = min(length, at + dash)
                a, b = at / length, end / length
                self.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                          colour, width)
                at = end + gap

    def paste(self, other: Pen, x: float, y: float, mask: Image.Image | None = None) -> None:
        at = (round(x * SUPERSAMPLE), round(y * SUPERSAMPLE))
        if mask is None and other.image.mode == "RGBA":
            mask = other.image
        self.image.paste(other.image, at, mask)

    def finish(self) -> Image.Image:
        """The final picture: each SUPERSAMPLE x SUPERSAMPLE block averaged into one pixel (smooth edges)."""
        image = self.image if self.image.mode == "RGB" else self.image.convert("RGB")
        return image.reduce(SUPERSAMPLE)


def rounded_mask(size: tuple[int, int], radius: float) -> Image.Image:
    mask = Image.new("L", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        [0, 0, mask.width - 1, mask.height - 1], radius=radius * SUPERSAMPLE, fill=255
    )
    return mask


# --- colour symbols --------------------------------------------------------------------------------

_SYMBOL_SHAPES: dict[str, Callable[[float, float, float], list[Point]]] = {
    "square": lambda x, y, r: [(x - 0.8 * r, y - 0.8 * r), (x + 0.8 * r, y - 0.8 * r),
                               (x + 0.8 * r, y + 0.8 * r), (x - 0.8 * r, y + 0.8 * r)],
    "triangle": lambda x, y, r: regular_polygon(x, y + 0.2 * r, 1.12 * r, 3),
    "star": lambda x, y, r: star_points(x, y + 0.08 * r, 1.1 * r, 0.47 * r),
    "diamond": lambda x, y, r: [(x, y - 1.08 * r), (x + 0.78 * r, y), (x, y + 1.08 * r), (x - 0.78 * r, y)],
    "hexagon": lambda x, y, r: regular_polygon(x, y, 0.98 * r, 6),
}


def draw_symbol(pen: Pen, symbol: str, cx: float, cy: float, r: float, fill: RGB, width: float = THIN) -> None:
    """A colour's shape (one of model.SYMBOLS), about ``2 r`` across."""
    if symbol == "circle":
        pen.ellipse(cx, cy, 0.88 * r, fill=fill, width=width)
    elif symbol in _SYMBOL_SHAPES:
        pen.polygon(_SYMBOL_SHAPES[symbol](cx, cy, r), fill, width=width)
    else:
        raise ValueError(f"no drawing for the symbol '{symbol}'")


def emblem(pen: Pen, symbol: str, cx: float, cy: float, r: float, colour: RGB) -> None:
    """The colour's symbol on a white disc, as on a shield or a flag."""
    pen.ellipse(cx, cy, r, fill=WHITE, width=THIN)
    draw_symbol(pen, symbol, cx, cy, 0.62 * r, colour, width=THIN)


# --- a picture's frame of reference ----------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """One picture: ``p(x, y)`` maps fractions of the centred square (side ``u``) to pixels."""

    pen: Pen
    width: float
    height: float
    catalogue: Catalogue
    colour: RGB | None = None
    symbol: str | None = None

    @property
    def u(self) -> float:
        return min(self.width, self.height)

    def p(self, fx: float, fy: float) -> Point:
        return ((self.width - self.u) / 2 + fx * self.u, (self.height - self.u) / 2 + fy * self.u)

    def ps(self, *coords: float) -> list[Point]:
        return [self.p(coords[i], coords[i + 1]) for i in range(0, len(coords), 2)]

    def n(self, f: float) -> float:
        return f * self.u

    def fill(self, colour: RGB) -> None:
        self.pen.rect(0, 0, self.width, self.height, colour, outline=None)


# --- shared pieces ---------------------------------------------------------------------------------


def sunburst(s: Scene, centre: Point, ground: RGB, rays: RGB, count: int = 14) -> None:
    s.fill(ground)
    reach = s.width + s.height
    cx, cy = centre
    for i in range(count):
        a0 = math.radians(360 * i / count)
        a1 = math.radians(360 * (i + 0.5) / count)
        s.pen.polygon([(cx, cy), (cx + reach * math.cos(a0), cy + reach * math.sin(a0)),
                       (cx + reach * math.cos(a1), cy + reach * math.sin(a1))], rays, outline=None)


def hill(s: Scene, top: float, colour: RGB, cx: float = 0.5, rx: float = 1.0) -> None:
    x, y = s.p(cx, top)
    s.pen.ellipse(x, y + s.n(0.5), s.n(rx), s.n(0.5), fill=colour, width=LINE)


def sparkle(pen: Pen, cx: float, cy: float, r: float, colour: RGB = WHITE, outline: RGB | None = None) -> None:
    pen.polygon(star_points(cx, cy, r, 0.28 * r, tips=4), colour, outline=outline, width=3)


def coloured_sky(s: Scene) -> None:
    """The sunny background of the coloured cards, in a pale tint of their colour."""
    assert s.colour is not None
    sunburst(s, s.p(0.5, 0.42), lighter(s.colour, 0.84), lighter(s.colour, 0.74))


def arch(x0: float, y0: float, x1: float, y1: float, steps: int = 12) -> list[Point]:
    """A window or door shape: a rectangle with a round top."""
    r = (x1 - x0) / 2
    return [(x0, y1)] + arc_points((x0 + x1) / 2, y0 + r, r, r, 180, 360, steps) + [(x1, y1)]


def crenellated(x0: float, y0: float, x1: float, y1: float, merlons: int, depth: float) -> list[Point]:
    """A block whose top is battlements: ``merlons`` teeth with gaps of the same width."""
    step = (x1 - x0) / (2 * merlons - 1)
    points = [(x0, y1)]
    for i in range(2 * merlons - 1):
        top = y0 if i % 2 == 0 else y0 + depth
        points += [(x0 + i * step, top), (x0 + (i + 1) * step, top)]
    return points + [(x1, y1)]


def flag(pen: Pen, x: float, top: float, bottom: float, size: float, cloth: RGB) -> Point:
    """A pole with a swallow-tailed flag; returns the centre of the cloth."""
    pen.stroke([(x, bottom), (x, top)], WOOD, size * 0.09)
    h = size * 0.62
    pen.polygon([(x, top), (x + size, top + h * 0.08), (x + size * 0.8, top + h * 0.5),
                 (x + size, top + h * 0.92), (x, top + h)], cloth)
    pen.ellipse(x, top - size * 0.03, size * 0.07, fill=GOLD, width=THIN)
    return x + size * 0.42, top + h * 0.5


def arrow(pen: Pen, path: Sequence[Point], colour: RGB, width: float, edge: float = THIN) -> None:
    """A thick outlined arrow along ``path`` with its head at the last point."""
    head = width * 1.9
    shaft = trim_end(path, head * 0.9)
    tip = path[-1]
    base = trim_end(path, head)[-1]
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    pen.stroke(shaft, colour, width, edge=edge)
    half = width * 1.05
    pen.polygon([tip, (base[0] + nx * half, base[1] + ny * half), (base[0] - nx * half, base[1] - ny * half)],
                colour, width=edge)


# --- the pictures, one per kind: a game's own (Game.kind_art), else a plain one ------------------


@dataclass(frozen=True)
class KindArt:
    """How the cards of one kind are drawn."""

    paint: Callable[[Scene], None]  # the picture in the window above the text panel
    frame: RGB = STONE_DARK  # frame and sky of a card that carries no colour (a coloured card takes its own)
    icon: Callable[[Pen, float, float, Catalogue], None] | None = None  # the corner sign of a card of no colour


def plain_picture(s: Scene) -> None:
    """The picture of a kind the game draws nothing for: its colour's pale sky, or plain paper."""
    s.fill(lighter(s.colour, 0.84) if s.colour is not None else PAPER)


PLAIN = KindArt(plain_picture)


# --- corner badges: the colour's symbol, or a small sign of the kind -------------------------------


def badge(card: CardType, catalogue: Catalogue, kind_art: KindArt) -> Pen:
    """The corner badge on a transparent square canvas: the colour's symbol, or the kind's icon."""
    pad = LINE
    side = 2 * (BADGE_RADIUS + pad)
    c = side / 2
    pen = Pen((side, side), (0, 0, 0, 0), mode="RGBA")
    pen.ellipse(c, c, BADGE_RADIUS, fill=PAPER, width=LINE - 1)
    if card.colour is not None:
        colour = catalogue.colour(card.colour)
        draw_symbol(pen, colour.symbol, c, c, BADGE_RADIUS * 0.68, rgb(colour.rgb), width=LINE - 1)
    elif kind_art.icon is not None:
        kind_art.icon(pen, c, BADGE_RADIUS, catalogue)
    return pen


# --- faces and backs -------------------------------------------------------------------------------


def draw_face(card: CardType, catalogue: Catalogue) -> Image.Image:
    """The art of one card type: frame, picture, empty text panel and corner badges (RGB, CARD_PX)."""
    kind_art = game_of(catalogue.game).kind_art(card.kind) or PLAIN
    colour = catalogue.colour(card.colour) if card.colour is not None else None
    paint = rgb(colour.rgb) if colour else kind_art.frame
    pen = Pen(CARD_PX, paint)

    x0, y0, x1, y1 = PICTURE_BOX
    size = (x1 - x0, y1 - y0)
    window = Pen(size, WHITE)
    kind_art.paint(Scene(window, size[0], size[1], catalogue, rgb(colour.rgb) if colour else None,
                         colour.symbol if colour else None))
    pen.paste(window, x0, y0, rounded_mask(size, CORNER_RADIUS))
    pen.rect(x0, y0, x1, y1, None, width=LINE, radius=CORNER_RADIUS)
    pen.rect(*PANEL_BOX, PAPER, width=LINE, radius=CORNER_RADIUS)

    corner = badge(card, catalogue, kind_art)
    half = corner.size[0] / 2
    pen.paste(corner, BADGE_CENTRE - half, BADGE_CENTRE - half)
    corner.image = corner.image.transpose(Image.Transpose.ROTATE_180)
    pen.paste(corner, WIDTH - BADGE_CENTRE - half, HEIGHT - BADGE_CENTRE - half)
    return pen.finish()


def back_frame(s: Scene, line: RGB) -> None:
    """The double frame of a back, inside the safe margin."""
    for inset, width in ((MARGIN_PX, LINE), (MARGIN_PX + 14, 3)):
        s.pen.rect(inset, inset, WIDTH - inset, HEIGHT - inset, None, outline=line, width=width, radius=CORNER_RADIUS)


def plain_back(s: Scene) -> None:
    """The back of a game that paints none of its own: a night-blue ground in a gold frame."""
    s.fill(NIGHT)
    back_frame(s, GOLD)


def draw_back(catalogue: Catalogue) -> Image.Image:
    """The game's card back, the same for every card and the same after a half turn (RGB, CARD_PX)."""
    pen = Pen(CARD_PX, WHITE)
    paint = game_of(catalogue.game).back_painter() or plain_back
    paint(Scene(pen, WIDTH, HEIGHT, catalogue))
    return pen.finish()


# --- files -----------------------------------------------------------------------------------------


# The PNG texts the pictures `toolkit art` draws carry: its mark, and the digest of the pixels it drew
# (``PIXELS``). A file is replaced only when it carries both and its pixels are still those: a picture
# edited in a program that keeps PNG texts has other pixels, and is the user's.
MARK = ("Software", "toolkit art")
PIXELS = "toolkit art pixels"


def pixel_digest(image: Image.Image) -> str:
    """SHA-256 of a picture's decoded pixels, with its mode and size."""
    digest = hashlib.sha256(f"{image.mode} {image.size[0]}x{image.size[1]}\n".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def png_bytes(image: Image.Image, marked: bool = False) -> bytes:
    """PNG with no timestamp or other varying metadata: the same picture gives the same bytes.
    ``marked``: it says it was drawn here (``MARK``, and the digest of its pixels), so that a later run
    of `toolkit art` may replace it as long as its pixels are the ones drawn."""
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    if marked:
        info.add_text(*MARK)
        info.add_text(PIXELS, pixel_digest(image))
    buffer = BytesIO()
    image.save(buffer, format="PNG", dpi=(DPI, DPI), pnginfo=info)
    return buffer.getvalue()


def _read_png(source) -> tuple[dict, str] | None:
    """A PNG's texts and the digest of its pixels (None when it is no PNG that can be read)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(source, formats=("PNG",)) as image:
                image.load()
                return dict(image.text), pixel_digest(image)
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None


def drawn_here(path: Path) -> bool:
    """Whether the file at ``path`` is a picture this module drew, as it drew it: a PNG that carries
    ``MARK`` and the digest of the very pixels it holds."""
    read = _read_png(path)
    return read is not None and read[0].get(MARK[0]) == MARK[1] and read[0].get(PIXELS) == read[1]


def _target(out_dir: Path, relative: str, where: str) -> Path:
    """Where ``relative`` goes inside ``out_dir``. The loader refuses art paths that leave their
    folder; this checks again (a catalogue built in code skips the loader), and also that no
    link inside ``out_dir`` leads the file out of it."""
    path = Path(out_dir) / check_art_path(relative, where)
    root = Path(out_dir).resolve()
    if not path.resolve().is_relative_to(root):
        raise UserError(f"{where}: art path '{relative}' leads out of {out_dir} (through a link)")
    return path


def write_art(catalogue: Catalogue, out_dir: Path) -> list[Path]:
    """Draw every card type and the back into ``out_dir`` at the catalogue's art paths.

    Returns the written files in catalogue order, the back last. The files are written together:
    all of them replace the earlier pictures, or none does (see ``toolkit.files.write_many``).
    Every path is checked before the first is written:
    each must stay inside ``out_dir`` and be a file of its own (ignoring case, as some file systems
    do), or one picture would overwrite another; and a file already there must be one this module
    drew (``drawn_here``): someone's own picture is never replaced.
    """
    source = catalogue.source.name
    jobs: list[tuple[Path, str, CardType | None]] = [
        (_target(out_dir, card.art, f"{source}: card '{card.id}'"), f"card '{card.id}'", card)
        for card in catalogue.cards
    ]
    jobs.append((_target(out_dir, catalogue.back_art, f"{source}: game.back_art"), "the back", None))
    drawn: dict[str, str] = {}
    for path, what, _ in jobs:
        other = drawn.setdefault(str(path).casefold(), what)
        if other != what:
            raise UserError(f"{source}: {what} and {other} would both be drawn to '{path}': give each its own art file")
    # Drawn first, then written all together: a full disk or an interruption replaces no picture.
    pictures = {path: png_bytes(draw_face(card, catalogue) if card is not None else draw_back(catalogue), marked=True)
                for path, _, card in jobs}
    for path, data in pictures.items():  # someone's own picture is never replaced (nothing written yet)
        why = _someone_elses(path, data)
        if why:
            raise UserError(f"{path}: this picture {why}, which would replace it; move it, or draw into "
                            "another --out-dir")
    return write_many(pictures)


def _someone_elses(path: Path, data: bytes) -> str | None:
    """Why a file at ``path`` may not be replaced by ``data`` (None when it may): a picture this module
    did not draw, or whose pixels changed since it drew them. A file that holds ``data`` already, or the
    very pixels of it (a picture of an earlier version of the toolkit), may be replaced."""
    try:
        if not (path.exists() or path.is_symlink()) or path.is_dir():
            return None
        if drawn_here(path) or (path.stat().st_size == len(data) and path.read_bytes() == data):
            return None
    except OSError:  # a path that cannot be looked at cannot be written either: writing says why, in one line
        return None
    found = _read_png(path)
    if found is not None and found[1] == _read_png(BytesIO(data))[1]:
        return None
    if found is not None and found[0].get(MARK[0]) == MARK[1]:
        return "was changed since 'toolkit art' drew it"
    return "was not drawn by 'toolkit art'"
