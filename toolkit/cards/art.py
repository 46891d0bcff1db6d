"""Draw the original card art: one flat, text-free picture per card type and one back per game.

Every picture is drawn with Pillow's ImageDraw from the catalogue alone: the card's kind picks the
drawing, the card's colour comes from the catalogue, and each colour is also told by its symbol
(circle, square, triangle, ...) in two corners and on the picture, for colour-blind players. No
words are drawn: the card renderer prints the name and the rules text, in the chosen language, on
the plain light panel that fills the lower part of every face.

Geometry (300 DPI): a 63 x 88 mm card plus 3 mm bleed on every side is 815 x 1110 px. Important
content stays 6 mm (bleed + safe margin, 71 px) inside the edges. Shapes are drawn at twice the size
and scaled down, which smooths their edges. The same catalogue always gives the same PNG bytes.
"""

from __future__ import annotations

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

# --- geometry --------------------------------------------------------------------------------------

MM_PER_INCH = 25.4
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

# Frame and sky of the cards that carry no colour; coloured cards use their own colour.
KIND_FRAME: dict[str, RGB] = {
    "diamond": (58, 150, 172),
    "witch": (76, 46, 112),
    "fairy": (226, 124, 182),
    "tower": (128, 112, 158),
    "ruins": (140, 112, 88),
    "exchange": (112, 86, 164),
    "general-exchange": (162, 86, 142),
    "flood": (52, 84, 116),
}
BACK_PAINT: dict[str, tuple[RGB, RGB]] = {  # game -> (ground, pattern)
    "diamoniak": ((72, 42, 122), (92, 62, 148)),
    "palaces": ((22, 88, 98), (30, 104, 114)),
}


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


def gem(pen: Pen, cx: float, cy: float, size: float, edge: float = LINE) -> None:
    """A brilliant-cut diamond seen from the side, ``size`` wide, centred on (cx, cy)."""
    top, girdle, culet = cy - 0.36 * size, cy - 0.14 * size, cy + 0.5 * size
    t = [cx + f * size for f in (-0.24, 0.0, 0.24)]
    g = [cx + f * size for f in (-0.5, -0.26, 0.0, 0.26, 0.5)]
    light, mid, deep, dark = ICE
    crown = [
        ([(g[0], girdle), (t[0], top), (g[1], girdle)], mid),
        ([(t[0], top), (t[1], top), (g[2], girdle), (g[1], girdle)], light),
        ([(t[1], top), (t[2], top), (g[3], girdle), (g[2], girdle)], WHITE),
        ([(t[2], top), (g[4], girdle), (g[3], girdle)], mid),
    ]
    pavilion = [
        ([(g[0], girdle), (g[1], girdle), (cx, culet)], deep),
        ([(g[1], girdle), (g[2], girdle), (cx, culet)], mid),
        ([(g[2], girdle), (g[3], girdle), (cx, culet)], light),
        ([(g[3], girdle), (g[4], girdle), (cx, culet)], dark),
    ]
    for points, colour in crown + pavilion:
        pen.polygon(points, colour, width=edge * 0.5)
    outline = [(g[0], girdle), (t[0], top), (t[2], top), (g[4], girdle), (cx, culet)]
    pen.polygon(outline, None, width=edge)


def witch_hat(pen: Pen, cx: float, cy: float, size: float, edge: float = LINE) -> None:
    """A pointed witch's hat with a bent tip, ``size`` wide at the brim; (cx, cy) is the brim's centre."""
    def at(fx: float, fy: float) -> Point:
        return cx + fx * size, cy + fy * size

    pen.ellipse(cx, cy, size * 0.5, size * 0.11, fill=darker(PURPLE, 0.25), width=edge)
    cone = [at(-0.3, 0.02), at(-0.14, -0.5), at(-0.04, -0.78), at(0.1, -0.95), at(0.3, -1.0),
            at(0.16, -0.86), at(0.1, -0.72), at(0.1, -0.5), at(0.3, 0.02)]
    pen.polygon(cone, PURPLE, width=edge)
    pen.polygon([at(-0.1, -0.5), at(-0.02, -0.74), at(0.02, -0.5), at(-0.03, -0.1)], lighter(PURPLE, 0.25),
                outline=None)
    band = [at(-0.27, -0.06), at(-0.22, -0.22), at(0.22, -0.22), at(0.27, -0.06)]
    pen.polygon(band, ORANGE, width=edge * 0.8)
    pen.rect(*at(-0.07, -0.2), *at(0.07, -0.08), GOLD, width=edge * 0.7)
    pen.rect(*at(-0.03, -0.17), *at(0.03, -0.11), ORANGE, outline=None)


def tower_body(pen: Pen, cx: float, top: float, bottom: float, radius: float, bands: Sequence[RGB],
               edge: float = LINE) -> list[tuple[float, float]]:
    """A round tower in horizontal bands; returns each band's (top, bottom)."""
    depth = radius * 0.28
    step = (bottom - top) / len(bands)
    rows = []
    for i, colour in enumerate(bands):
        y0, y1 = top + i * step, top + (i + 1) * step
        outline = arc_points(cx, y0, radius, depth, 180, 0, 16) + arc_points(cx, y1, radius, depth, 0, 180, 16)
        pen.polygon(outline, colour, width=edge * 0.6)
        shine = arc_points(cx, y0, radius, depth, 180, 212, 6) + arc_points(cx, y1, radius, depth, 212, 180, 6)
        pen.polygon(shine, lighter(colour, 0.35), outline=None)
        rows.append((y0, y1))
    pen.polygon(arc_points(cx, top, radius, depth, 180, 0, 16) + arc_points(cx, bottom, radius, depth, 0, 180, 16),
                None, width=edge)
    return rows


# --- the pictures, one per kind --------------------------------------------------------------------


def paint_castle(s: Scene) -> None:
    colour, pen = s.colour, s.pen
    assert colour is not None and s.symbol is not None
    shade, light = darker(colour, 0.22), lighter(colour, 0.3)
    coloured_sky(s)
    hill(s, 0.82, lighter(colour, 0.5))
    for x0 in (0.12, 0.68):  # the side towers
        pen.polygon(crenellated(*s.p(x0, 0.36), *s.p(x0 + 0.2, 0.9), 3, s.n(0.05)), shade)
        pen.polygon(arch(*s.p(x0 + 0.07, 0.5), *s.p(x0 + 0.13, 0.62)), INK, width=THIN)
    pen.polygon(crenellated(*s.p(0.3, 0.26), *s.p(0.7, 0.9), 5, s.n(0.06)), colour)
    for x, y in ((0.36, 0.44), (0.58, 0.56), (0.4, 0.66), (0.6, 0.38), (0.34, 0.78)):  # stones
        pen.rect(*s.p(x, y), *s.p(x + 0.07, y + 0.035), light, outline=None, radius=6)
    pen.polygon(arch(*s.p(0.41, 0.66), *s.p(0.59, 0.9)), darker(WOOD, 0.2))
    for fx in (0.455, 0.5, 0.545):
        pen.line([s.p(fx, 0.7), s.p(fx, 0.9)], INK, THIN)
    pen.line([s.p(0.41, 0.79), s.p(0.59, 0.79)], INK, THIN)
    emblem(pen, s.symbol, *s.p(0.5, 0.5), s.n(0.085), colour)
    cloth = flag(pen, s.p(0.5, 0.0)[0], s.p(0.5, 0.05)[1], s.p(0.5, 0.26)[1], s.n(0.2), WHITE)
    draw_symbol(pen, s.symbol, cloth[0], cloth[1], s.n(0.036), colour)


def paint_diamond(s: Scene) -> None:
    sunburst(s, s.p(0.5, 0.5), NIGHT, lighter(NIGHT, 0.08), count=18)
    s.pen.ellipse(*s.p(0.5, 0.5), s.n(0.4), fill=lighter(NIGHT, 0.14), outline=None)
    gem(s.pen, *s.p(0.5, 0.52), s.n(0.72))
    for fx, fy, r in ((0.27, 0.3, 0.05), (0.78, 0.24, 0.07), (0.82, 0.62, 0.035), (0.18, 0.7, 0.04),
                      (0.62, 0.29, 0.03)):
        sparkle(s.pen, *s.p(fx, fy), s.n(r), WHITE)


def paint_witch(s: Scene) -> None:
    pen = s.pen
    s.fill(NIGHT)
    moon = s.p(0.76, 0.2)
    pen.ellipse(*moon, s.n(0.13), fill=MOON, outline=None)
    pen.ellipse(moon[0] - s.n(0.06), moon[1] - s.n(0.03), s.n(0.12), fill=NIGHT, outline=None)
    for fx, fy, r in ((0.2, 0.12, 0.025), (0.4, 0.22, 0.018), (0.12, 0.4, 0.02), (0.9, 0.44, 0.02),
                      (0.56, 0.08, 0.015)):
        pen.polygon(star_points(*s.p(fx, fy), s.n(r), s.n(r * 0.45)), GOLD, outline=None)
    hill(s, 0.86, darker(NIGHT, 0.35), rx=0.9)
    pen.stroke([s.p(0.12, 0.3), s.p(0.7, 0.74)], WOOD, s.n(0.03))  # the broom behind the hat
    bristles = [s.p(0.66, 0.7), s.p(0.73, 0.68), s.p(0.93, 0.86), s.p(0.86, 0.91), s.p(0.63, 0.78)]
    pen.polygon(bristles, STRAW)
    for a, b in (((0.7, 0.74), (0.86, 0.87)), ((0.67, 0.77), (0.8, 0.87)), ((0.73, 0.71), (0.9, 0.85))):
        pen.line([s.p(*a), s.p(*b)], darker(STRAW, 0.3), 3)
    pen.polygon(rotate(s.ps(0.62, 0.69, 0.69, 0.69, 0.69, 0.75, 0.62, 0.75), *s.p(0.655, 0.72), 37),
                (200, 60, 60), width=THIN)
    witch_hat(pen, *s.p(0.46, 0.74), s.n(0.66))


def paint_fairy(s: Scene) -> None:
    pen = s.pen
    mint = (214, 242, 232)
    sunburst(s, s.p(0.5, 0.45), mint, lighter(mint, 0.45), count=16)
    for side in (-1, 1):  # wings behind the body
        x = 0.5 + side * 0.17
        pen.polygon(ellipse_points(*s.p(x, 0.36), s.n(0.17), s.n(0.1), angle=side * -35), WING, width=THIN)
        pen.polygon(ellipse_points(*s.p(0.5 + side * 0.13, 0.54), s.n(0.11), s.n(0.065), angle=side * 30),
                    WING, width=THIN)
        pen.polygon(ellipse_points(*s.p(0.5 + side * 0.19, 0.34), s.n(0.07), s.n(0.035), angle=side * -35),
                    WHITE, outline=None)
    for fx in (0.46, 0.54):  # legs
        pen.stroke([s.p(fx, 0.7), s.p(fx, 0.82)], SKIN, s.n(0.025))
        pen.ellipse(*s.p(fx, 0.835), s.n(0.025), s.n(0.016), fill=(246, 120, 170), width=THIN)
    pen.rect(*s.p(0.482, 0.36), *s.p(0.518, 0.44), SKIN, width=THIN)  # neck
    pen.stroke([s.p(0.45, 0.46), s.p(0.34, 0.58)], SKIN, s.n(0.025))  # the free arm
    hem = [s.p(0.34 + 0.04 * i, 0.72 + (0.025 if i % 2 else 0.0)) for i in range(9)]
    dress = s.ps(0.45, 0.42, 0.55, 0.42) + hem[::-1]
    pen.polygon(dress, DRESS)
    pen.stroke([s.p(0.55, 0.46), s.p(0.68, 0.38)], SKIN, s.n(0.025))  # the wand arm
    pen.stroke([s.p(0.68, 0.4), s.p(0.78, 0.2)], WOOD, s.n(0.014))
    pen.polygon(star_points(*s.p(0.8, 0.15), s.n(0.085), s.n(0.04), angle=-80), GOLD)
    for fx, fy, r in ((0.92, 0.1, 0.03), (0.88, 0.28, 0.022), (0.68, 0.08, 0.025), (0.2, 0.2, 0.03),
                      (0.16, 0.62, 0.025), (0.84, 0.66, 0.03)):
        sparkle(pen, *s.p(fx, fy), s.n(r), GOLD)
    head = s.p(0.5, 0.32)
    pen.ellipse(head[0], head[1] - s.n(0.01), s.n(0.095), fill=HAIR, width=THIN)  # hair
    pen.ellipse(head[0], head[1] - s.n(0.1), s.n(0.04), fill=HAIR, width=THIN)  # bun
    pen.ellipse(*head, s.n(0.072), s.n(0.076), fill=SKIN, width=THIN)
    pen.polygon(arc_points(head[0], head[1] - s.n(0.04), s.n(0.078), s.n(0.045), 180, 360, 12), HAIR,
                outline=None)
    for side in (-1, 1):
        pen.ellipse(head[0] + side * s.n(0.028), head[1] + s.n(0.005), s.n(0.011), fill=INK, outline=None)
        pen.ellipse(head[0] + side * s.n(0.045), head[1] + s.n(0.03), s.n(0.014), fill=(250, 170, 170), outline=None)
    pen.line(arc_points(head[0], head[1] + s.n(0.025), s.n(0.025), s.n(0.018), 20, 160, 8), INK, 3)


def paint_foundation(s: Scene) -> None:
    colour, pen = s.colour, s.pen
    assert colour is not None and s.symbol is not None
    coloured_sky(s)
    ghost = lighter(colour, 0.45)  # the palace still to be built, dashed
    pen.dashed(s.ps(0.2, 0.55, 0.2, 0.3, 0.5, 0.08, 0.8, 0.3, 0.8, 0.55), ghost, 7, s.n(0.035), s.n(0.03))
    pen.dashed(s.ps(0.2, 0.3, 0.8, 0.3), ghost, 7, s.n(0.035), s.n(0.03))
    hill(s, 0.86, lighter(colour, 0.5))
    rows = ((0.56, 0.66, 0.1, 0.9, 4), (0.66, 0.76, 0.06, 0.94, 5), (0.76, 0.86, 0.02, 0.98, 6))
    shades = (colour, darker(colour, 0.18), lighter(colour, 0.22))
    for r, (y0, y1, x0, x1, count) in enumerate(rows):
        step = (x1 - x0) / count
        for i in range(count):
            pen.rect(*s.p(x0 + i * step, y0), *s.p(x0 + (i + 1) * step, y1), shades[(i + r) % 3], radius=6)
    pen.rect(*s.p(0.38, 0.5), *s.p(0.62, 0.7), PAPER, radius=10)
    draw_symbol(pen, s.symbol, *s.p(0.5, 0.6), s.n(0.07), colour)


def paint_floor(s: Scene) -> None:
    colour, pen = s.colour, s.pen
    assert colour is not None and s.symbol is not None
    coloured_sky(s)
    light, shade = lighter(colour, 0.35), darker(colour, 0.2)
    pen.rect(*s.p(0.1, 0.26), *s.p(0.9, 0.8), colour)
    pen.rect(*s.p(0.05, 0.18), *s.p(0.95, 0.27), light, radius=6)  # cornice
    pen.rect(*s.p(0.07, 0.8), *s.p(0.93, 0.88), shade, radius=6)  # ledge
    for fx in (0.2, 0.5, 0.8):
        pen.polygon(arch(*s.p(fx - 0.08, 0.44), *s.p(fx + 0.08, 0.74)), GLASS)
        pen.line([s.p(fx, 0.46), s.p(fx, 0.74)], INK, THIN)
        pen.line([s.p(fx - 0.08, 0.58), s.p(fx + 0.08, 0.58)], INK, THIN)
        pen.rect(*s.p(fx - 0.1, 0.74), *s.p(fx + 0.1, 0.77), light, width=THIN)
    for fx in (0.35, 0.65):
        pen.rect(*s.p(fx - 0.025, 0.3), *s.p(fx + 0.025, 0.78), light, width=THIN)
    emblem(pen, s.symbol, *s.p(0.5, 0.345), s.n(0.07), colour)
    pen.dashed(s.ps(0.12, 0.1, 0.88, 0.1), lighter(colour, 0.45), 7, s.n(0.035), s.n(0.03))
    pen.dashed(s.ps(0.12, 0.96, 0.88, 0.96), lighter(colour, 0.45), 7, s.n(0.035), s.n(0.03))


def paint_roof(s: Scene) -> None:
    colour, pen = s.colour, s.pen
    assert colour is not None and s.symbol is not None
    coloured_sky(s)
    light, shade = lighter(colour, 0.3), darker(colour, 0.22)
    pen.dashed(s.ps(0.16, 1.02, 0.16, 0.8, 0.84, 0.8, 0.84, 1.02), lighter(colour, 0.45), 7, s.n(0.035), s.n(0.03))
    apex, left, right = s.p(0.5, 0.2), s.p(0.06, 0.78), s.p(0.94, 0.78)
    pen.polygon([apex, right, left], colour)
    scale = s.n(0.034)
    for i in range(1, 6):  # rows of round tiles
        t = i / 6
        y = apex[1] + (left[1] - apex[1]) * t
        xl, xr = apex[0] + (left[0] - apex[0]) * t, apex[0] + (right[0] - apex[0]) * t
        pen.line([(xl + 8, y), (xr - 8, y)], shade, 4)
        count = int((xr - xl - 16) / (2 * scale))
        start = (xl + xr) / 2 - count * scale + scale
        for k in range(count):
            pen.line(arc_points(start + 2 * k * scale, y, scale, scale, 0, 180, 8), shade, 4)
    pen.rect(*s.p(0.04, 0.76), *s.p(0.96, 0.82), shade, radius=8)  # eaves
    emblem(pen, s.symbol, *s.p(0.5, 0.56), s.n(0.095), colour)
    pen.polygon([apex, (apex[0] + s.n(0.1), apex[1] + s.n(0.132)), (apex[0] - s.n(0.1), apex[1] + s.n(0.132))],
                light, outline=None)
    flag(pen, apex[0], s.p(0, 0.03)[1], apex[1], s.n(0.17), colour)


def paint_tower(s: Scene) -> None:
    pen = s.pen
    paint = [rgb(c.rgb) for c in s.catalogue.colours] or [STONE]
    bands = paint * max(1, round(6 / len(paint)))
    sunburst(s, s.p(0.5, 0.42), (236, 232, 246), (226, 220, 240))
    hill(s, 0.88, (196, 186, 214))
    rows = tower_body(pen, *s.p(0.5, 0.36), s.p(0, 0.9)[1], s.n(0.16), bands)
    for i, (y0, y1) in enumerate(rows):
        symbol = s.catalogue.colours[i % len(paint)].symbol if s.catalogue.colours else None
        if symbol and 0 < i < len(rows) - 1:
            x = s.p(0.5 + (0.06 if i % 2 else -0.06), 0)[0]
            draw_symbol(pen, symbol, x, (y0 + y1) / 2 + s.n(0.02), s.n(0.022), WHITE, width=3)
    top = s.p(0.5, 0.34)
    pen.polygon(crenellated(top[0] - s.n(0.2), top[1] - s.n(0.06), top[0] + s.n(0.2), top[1] + s.n(0.03), 5,
                            s.n(0.04)), STONE)
    roof = [(top[0] - s.n(0.2), top[1] - s.n(0.07)), s.p(0.5, 0.13), (top[0] + s.n(0.2), top[1] - s.n(0.07))]
    flag(pen, s.p(0.5, 0)[0], s.p(0, 0.04)[1], s.p(0, 0.14)[1], s.n(0.14), GOLD)
    pen.polygon(roof, KIND_FRAME["tower"])
    pen.polygon(arch(*s.p(0.45, 0.79), *s.p(0.55, 0.94)), darker(WOOD, 0.2))


def paint_ruins(s: Scene) -> None:
    pen = s.pen
    dusk = (250, 226, 206)
    sunburst(s, s.p(0.5, 0.5), dusk, (244, 214, 190))
    hill(s, 0.8, (206, 182, 148))
    for x0, x1, top, jag in ((0.14, 0.32, 0.26, (0.05, -0.02, 0.07)), (0.62, 0.8, 0.5, (-0.03, 0.04, 0.0))):
        xs = [x0 + (x1 - x0) * f for f in (0, 0.3, 0.55, 0.8, 1)]
        points = [s.p(x0, 0.84), s.p(x0, top + jag[0]), s.p(xs[1], top), s.p(xs[2], top + 0.05 + jag[1]),
                  s.p(xs[3], top + jag[2]), s.p(x1, top + 0.03), s.p(x1, 0.84)]
        pen.polygon(points, STONE)
        for f in (0.28, 0.5, 0.72):
            x = x0 + (x1 - x0) * f
            pen.line([s.p(x, top + 0.1), s.p(x, 0.82)], STONE_DARK, 5)
        pen.rect(*s.p(x0 - 0.03, 0.82), *s.p(x1 + 0.03, 0.88), STONE, radius=6)
    pen.rect(*s.p(0.34, 0.71), *s.p(0.6, 0.83), STONE, radius=8)  # a fallen drum
    pen.ellipse(*s.p(0.6, 0.77), s.n(0.035), s.n(0.06), fill=lighter(STONE, 0.4), width=LINE)
    for fy in (0.74, 0.8):
        pen.line(s.ps(0.37, fy, 0.56, fy), STONE_DARK, 4)
    for points in ((0.08, 0.9, 0.12, 0.86, 0.17, 0.88, 0.16, 0.93, 0.1, 0.94),
                   (0.44, 0.9, 0.5, 0.86, 0.56, 0.9, 0.52, 0.95, 0.45, 0.94),
                   (0.84, 0.9, 0.88, 0.87, 0.93, 0.9, 0.9, 0.94),
                   (0.32, 0.58, 0.37, 0.55, 0.42, 0.58, 0.4, 0.62, 0.34, 0.62)):
        pen.polygon(s.ps(*points), STONE_DARK)
    for fx in (0.04, 0.36, 0.7):
        pen.line(s.ps(fx, 0.92, fx + 0.02, 0.86), GRASS, 5)
        pen.line(s.ps(fx + 0.03, 0.92, fx + 0.05, 0.85), GRASS, 5)


def mini_card(pen: Pen, cx: float, cy: float, w: float, h: float, angle: float, accent: RGB) -> None:
    """A little playing card seen from the front, turned by ``angle``."""
    corners = [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]
    pen.polygon(rotate(corners, cx, cy, angle), WHITE)
    inner = [(cx - w * 0.36, cy - h * 0.4), (cx + w * 0.36, cy - h * 0.4), (cx + w * 0.36, cy + h * 0.4),
             (cx - w * 0.36, cy + h * 0.4)]
    pen.polygon(rotate(inner, cx, cy, angle), lighter(accent, 0.55), outline=None)
    roof = [(cx - w * 0.26, cy - h * 0.02), (cx, cy - h * 0.26), (cx + w * 0.26, cy - h * 0.02)]
    block = [(cx - w * 0.2, cy - h * 0.02), (cx + w * 0.2, cy - h * 0.02), (cx + w * 0.2, cy + h * 0.24),
             (cx - w * 0.2, cy + h * 0.24)]
    pen.polygon(rotate(block, cx, cy, angle), WHITE, width=THIN)
    pen.polygon(rotate(roof, cx, cy, angle), accent, width=THIN)


def paint_exchange(s: Scene) -> None:
    pen = s.pen
    accent = KIND_FRAME["exchange"]
    sunburst(s, s.p(0.5, 0.5), (240, 234, 250), (230, 222, 246))
    mini_card(pen, *s.p(0.25, 0.52), s.n(0.3), s.n(0.42), -10, accent)
    mini_card(pen, *s.p(0.75, 0.52), s.n(0.3), s.n(0.42), 10, accent)
    top = arc_points(*s.p(0.5, 0.6), s.n(0.3), s.n(0.3), 215, 322, 20)
    bottom = arc_points(*s.p(0.5, 0.44), s.n(0.3), s.n(0.3), 35, 142, 20)
    arrow(pen, top, ORANGE, s.n(0.055))
    arrow(pen, bottom, AQUA, s.n(0.055))


def paint_general_exchange(s: Scene) -> None:
    pen = s.pen
    accent = KIND_FRAME["general-exchange"]
    sunburst(s, s.p(0.5, 0.5), (250, 236, 244), (244, 224, 236))
    players = max(2, s.catalogue.players[1])
    centre, ring = s.p(0.5, 0.5), s.n(0.33)
    gap = 180 / players * 0.55
    for i in range(players):
        a = -90 + 360 * i / players
        path = arc_points(*centre, ring, ring, a + gap, a + 360 / players - gap, 16)
        arrow(pen, path, ORANGE if i % 2 == 0 else AQUA, s.n(0.045))
    for i in range(players):
        a = math.radians(-90 + 360 * i / players)
        x, y = centre[0] + ring * math.cos(a), centre[1] + ring * math.sin(a)
        mini_card(pen, x, y, s.n(0.17), s.n(0.24), 0, accent)
    pen.polygon(star_points(*centre, s.n(0.1), s.n(0.045)), GOLD)


def choppy_wave(x0: float, x1: float, top: float, depth: float, length: float, phase: float) -> tuple[list[Point], list[float]]:
    """A wave line with pointed crests at ``top`` and round troughs ``depth`` lower; also the crests' x."""
    x = x0 - (x0 - phase * length) % length
    points, crests = [], []
    while x < x1 + length:
        crests.append(x)
        points += [(x + length * i / 16, top + depth * math.sin(math.pi * i / 16)) for i in range(16)]
        x += length
    return points + [(x, top)], crests


def paint_flood(s: Scene) -> None:
    pen = s.pen
    s.fill((206, 220, 234))
    puffs = ((0.36, 0.17, 0.1), (0.5, 0.11, 0.12), (0.66, 0.15, 0.1), (0.79, 0.19, 0.07))
    for paint, grow in ((INK, LINE / 2), (CLOUD, -LINE / 2)):  # outline first: no seams inside
        for fx, fy, r in puffs:
            pen.ellipse(*s.p(fx, fy), s.n(r) + grow, fill=paint, outline=None)
        (x0, y0), (x1, y1) = s.p(0.3, 0.16), s.p(0.84, 0.26)
        pen.rect(x0 - grow, y0 - grow, x1 + grow, y1 + grow, paint, outline=None, radius=s.n(0.05) + grow)
    for i in range(7):  # rain
        x = 0.3 + 0.08 * i
        pen.line([s.p(x, 0.32 + 0.04 * (i % 2)), s.p(x - 0.03, 0.4 + 0.04 * (i % 2))], WATER[1], 6)

    pivot = s.p(0.5, 0.7)

    def tilted(points: list[Point]) -> list[Point]:  # the palace is keeling over
        return rotate(points, *pivot, -9)

    pen.polygon(tilted(s.ps(0.33, 0.5, 0.67, 0.5, 0.67, 0.95, 0.33, 0.95)), STONE)
    for fx in (0.42, 0.58):
        pen.polygon(tilted(arch(*s.p(fx - 0.045, 0.56), *s.p(fx + 0.045, 0.72))), GLASS, width=THIN)
    pen.polygon(tilted(s.ps(0.28, 0.51, 0.5, 0.32, 0.72, 0.51)), STONE_DARK)
    top = tilted([s.p(0.5, 0.3)])[0]
    pen.ellipse(*top, s.n(0.025), fill=GOLD, width=THIN)

    depth, length, foam = s.n(0.07), s.n(0.22), s.n(0.03)
    cap = math.asin(foam / depth) / math.pi
    for i, (fy, colour) in enumerate(zip((0.62, 0.72, 0.83), WATER)):
        crest, crests = choppy_wave(-s.n(0.1), s.width + s.n(0.1), s.p(0, fy)[1], depth, length, 0.45 * i)
        pen.polygon(crest + [(crest[-1][0], s.height + 50), (crest[0][0], s.height + 50)], colour, outline=None)
        for x in crests:  # white foam on every crest
            pen.polygon([(x + length * t, crest[0][1] + depth * abs(math.sin(math.pi * t)))
                         for t in (cap * (k / 4 - 1) for k in range(9))], WHITE, outline=None)
        pen.line(crest, INK, LINE)


PAINTERS: dict[str, Callable[[Scene], None]] = {
    "castle": paint_castle,
    "diamond": paint_diamond,
    "witch": paint_witch,
    "fairy": paint_fairy,
    "foundation": paint_foundation,
    "floor": paint_floor,
    "roof": paint_roof,
    "tower": paint_tower,
    "ruins": paint_ruins,
    "exchange": paint_exchange,
    "general-exchange": paint_general_exchange,
    "flood": paint_flood,
}


# --- corner badges: the colour's symbol, or a small sign of the kind -------------------------------


def _icon_diamond(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    gem(pen, c, c, r * 1.3, edge=THIN)


def _icon_witch(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    witch_hat(pen, c, c + r * 0.45, r * 1.2, edge=THIN)


def _icon_fairy(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    for side in (-1, 1):  # a pair of wings, not a star: a star is a colour's symbol
        pen.polygon(ellipse_points(c + side * r * 0.3, c - r * 0.2, r * 0.32, r * 0.2, angle=side * -35),
                    WING, width=3)
        pen.polygon(ellipse_points(c + side * r * 0.24, c + r * 0.28, r * 0.22, r * 0.14, angle=side * 30),
                    WING, width=3)
    pen.ellipse(c, c + r * 0.02, r * 0.08, r * 0.42, fill=DRESS, width=3)


def _icon_tower(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    paint = [rgb(colour.rgb) for colour in catalogue.colours] or [STONE]
    tower_body(pen, c, c - r * 0.45, c + r * 0.6, r * 0.32, paint, edge=THIN)
    pen.polygon([(c - r * 0.4, c - r * 0.45), (c, c - r * 0.85), (c + r * 0.4, c - r * 0.45)], KIND_FRAME["tower"],
                width=THIN)


def _icon_ruins(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    pen.polygon([(c - r * 0.25, c + r * 0.45), (c - r * 0.25, c - r * 0.35), (c - r * 0.08, c - r * 0.55),
                 (c + r * 0.02, c - r * 0.3), (c + r * 0.14, c - r * 0.48), (c + r * 0.25, c - r * 0.2),
                 (c + r * 0.25, c + r * 0.45)], STONE, width=3)
    for dx in (-0.08, 0.08):
        pen.line([(c + r * dx, c - r * 0.15), (c + r * dx, c + r * 0.4)], STONE_DARK, 3)
    pen.rect(c - r * 0.42, c + r * 0.42, c + r * 0.42, c + r * 0.6, STONE, width=3, radius=3)


def _icon_exchange(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    arrow(pen, [(c - r * 0.55, c - r * 0.25), (c + r * 0.6, c - r * 0.25)], ORANGE, r * 0.18, edge=3)
    arrow(pen, [(c + r * 0.55, c + r * 0.3), (c - r * 0.6, c + r * 0.3)], AQUA, r * 0.18, edge=3)


def _icon_general_exchange(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    arrow(pen, arc_points(c, c, r * 0.5, r * 0.5, -60, 220, 24), ORANGE, r * 0.16, edge=3)


def _icon_flood(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    for i, dy in enumerate((-0.25, 0.2)):
        pen.stroke(wave_points(c - r * 0.6, c + r * 0.6, c + r * dy, r * 0.12, r * 0.6), WATER[1 + i], r * 0.14,
                   edge=3)


KIND_ICONS: dict[str, Callable[[Pen, float, float, Catalogue], None]] = {
    "diamond": _icon_diamond,
    "witch": _icon_witch,
    "fairy": _icon_fairy,
    "tower": _icon_tower,
    "ruins": _icon_ruins,
    "exchange": _icon_exchange,
    "general-exchange": _icon_general_exchange,
    "flood": _icon_flood,
}


def badge(card: CardType, catalogue: Catalogue) -> Pen:
    """The corner badge on a transparent square canvas: the colour's symbol, or the kind's icon."""
    pad = LINE
    side = 2 * (BADGE_RADIUS + pad)
    c = side / 2
    pen = Pen((side, side), (0, 0, 0, 0), mode="RGBA")
    pen.ellipse(c, c, BADGE_RADIUS, fill=PAPER, width=LINE - 1)
    if card.colour is not None:
        colour = catalogue.colour(card.colour)
        draw_symbol(pen, colour.symbol, c, c, BADGE_RADIUS * 0.68, rgb(colour.rgb), width=LINE - 1)
    elif card.kind in KIND_ICONS:
        KIND_ICONS[card.kind](pen, c, BADGE_RADIUS, catalogue)
    return pen


# --- faces and backs -------------------------------------------------------------------------------


def draw_face(card: CardType, catalogue: Catalogue) -> Image.Image:
    """The art of one card type: frame, picture, empty text panel and corner badges (RGB, CARD_PX)."""
    painter = PAINTERS.get(card.kind)
    if painter is None:
        raise ValueError(f"no drawing for the card kind '{card.kind}'")
    colour = catalogue.colour(card.colour) if card.colour is not None else None
    paint = rgb(colour.rgb) if colour else KIND_FRAME[card.kind]
    pen = Pen(CARD_PX, paint)

    x0, y0, x1, y1 = PICTURE_BOX
    size = (x1 - x0, y1 - y0)
    window = Pen(size, WHITE)
    painter(Scene(window, size[0], size[1], catalogue, rgb(colour.rgb) if colour else None,
                  colour.symbol if colour else None))
    pen.paste(window, x0, y0, rounded_mask(size, CORNER_RADIUS))
    pen.rect(x0, y0, x1, y1, None, width=LINE, radius=CORNER_RADIUS)
    pen.rect(*PANEL_BOX, PAPER, width=LINE, radius=CORNER_RADIUS)

    corner = badge(card, catalogue)
    half = corner.size[0] / 2
    pen.paste(corner, BADGE_CENTRE - half, BADGE_CENTRE - half)
    corner.image = corner.image.transpose(Image.Transpose.ROTATE_180)
    pen.paste(corner, WIDTH - BADGE_CENTRE - half, HEIGHT - BADGE_CENTRE - half)
    return pen.finish()


def _back_frame(s: Scene, line: RGB) -> None:
    for inset, width in ((MARGIN_PX, LINE), (MARGIN_PX + 14, 3)):
        s.pen.rect(inset, inset, WIDTH - inset, HEIGHT - inset, None, outline=line, width=width, radius=CORNER_RADIUS)


def _back_diamoniak(s: Scene) -> None:
    ground, pattern = BACK_PAINT["diamoniak"]
    pen, cx, cy = s.pen, WIDTH / 2, HEIGHT / 2
    s.fill(ground)
    step = 90
    reach = HEIGHT
    for k in range(-12, 13):  # a lattice of diagonal lines through the centre
        for sign in (1, -1):
            x = cx + k * step
            pen.line([(x - reach, cy - sign * reach), (x + reach, cy + sign * reach)], pattern, 5)
    _back_frame(s, GOLD)
    radius = WIDTH * 0.3
    pen.ellipse(cx, cy, radius + 26, fill=darker(ground, 0.25), outline=GOLD, width=8)
    colours = [rgb(c.rgb) for c in s.catalogue.colours] or [GOLD]
    count = 2 * len(colours)
    for k in range(count):  # coloured gems around the medallion, the same after a half turn
        a = -90 + 360 * k / count
        x = cx + (radius + 26) * math.cos(math.radians(a))
        y = cy + (radius + 26) * math.sin(math.radians(a))
        shape = [(x, y - 30), (x + 19, y), (x, y + 30), (x - 19, y)]
        pen.polygon(rotate(shape, x, y, a + 90), colours[k % len(colours)], width=THIN)
    outer = regular_polygon(cx, cy, radius * 0.78, 8, angle=-112.5)
    inner = regular_polygon(cx, cy, radius * 0.42, 8, angle=-112.5)
    light, mid, deep, dark = ICE
    for k in range(8):  # a brilliant seen from above
        quad = [inner[k], outer[k], outer[(k + 1) % 8], inner[(k + 1) % 8]]
        pen.polygon(quad, (light, deep)[k % 2], width=THIN)
        pen.line([inner[k], ((outer[k][0] + outer[(k + 1) % 8][0]) / 2, (outer[k][1] + outer[(k + 1) % 8][1]) / 2),
                  inner[(k + 1) % 8]], INK, 3)
    pen.polygon(inner, mid, width=THIN)
    pen.polygon(outer, None, width=LINE)
    for dy in (-1, 1):
        sparkle(pen, cx, cy + dy * HEIGHT * 0.36, 34, GOLD, outline=INK)
        for dx in (-1, 1):
            sparkle(pen, cx + dx * WIDTH * 0.3, cy + dy * HEIGHT * 0.36, 18, GOLD)


def _back_palaces(s: Scene) -> None:
    ground, pattern = BACK_PAINT["palaces"]
    pen, cx, cy = s.pen, WIDTH / 2, HEIGHT / 2
    s.fill(ground)
    cell = 46
    for i in range(-10, 11):  # a checkered mosaic centred on the card
        for j in range(-13, 14):
            if (i + j) % 2 == 0:
                x, y = cx + i * cell, cy + j * cell
                pen.rect(x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2, pattern, outline=None)
    _back_frame(s, GOLD)
    radius = WIDTH * 0.34
    pen.ellipse(cx, cy, radius, fill=darker(ground, 0.3), outline=GOLD, width=8)
    pen.polygon(star_points(cx, cy, radius * 0.5, radius * 0.36, tips=8, angle=-90 + 22.5), GOLD, width=THIN)
    colours = [rgb(c.rgb) for c in s.catalogue.colours] or [GOLD]
    count = 2 * len(colours)
    for k in range(count):  # little palaces all round, each pointing outwards
        a = 360 * k / count
        x, y = cx, cy - radius * 0.74
        block = [(x - 26, y + 34), (x - 26, y), (x + 26, y), (x + 26, y + 34)]
        roof = [(x - 34, y + 2), (x, y - 34), (x + 34, y + 2)]
        pen.polygon(rotate(block, cx, cy, a), WHITE, width=THIN)
        pen.polygon(rotate(roof, cx, cy, a), colours[k % len(colours)], width=THIN)
    pen.ellipse(cx, cy, radius * 0.22, fill=PAPER, width=THIN)
    pen.ellipse(cx, cy, radius * 0.1, fill=GOLD, width=THIN)
    for dy in (-1, 1):
        pen.polygon(star_points(cx, cy + dy * HEIGHT * 0.36, 36, 16, tips=8, angle=-90 + 22.5), GOLD, width=THIN)


BACKS: dict[str, Callable[[Scene], None]] = {
    "diamoniak": _back_diamoniak,
    "palaces": _back_palaces,
}


def draw_back(catalogue: Catalogue) -> Image.Image:
    """The game's card back, the same for every card and the same after a half turn (RGB, CARD_PX)."""
    painter = BACKS.get(catalogue.game)
    if painter is None:
        raise ValueError(f"no card back for the game '{catalogue.game}'")
    pen = Pen(CARD_PX, WHITE)
    painter(Scene(pen, WIDTH, HEIGHT, catalogue))
    return pen.finish()


# --- files -----------------------------------------------------------------------------------------


def png_bytes(image: Image.Image) -> bytes:
    """PNG with no timestamp or other varying metadata: the same picture gives the same bytes."""
    buffer = BytesIO()
    image.save(buffer, format="PNG", dpi=(DPI, DPI))
    return buffer.getvalue()


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
    do), or one picture would overwrite another.
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
    pictures = {path: png_bytes(draw_face(card, catalogue) if card is not None else draw_back(catalogue))
                for path, _, card in jobs}
    return write_many(pictures)
