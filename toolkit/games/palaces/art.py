"""Palaces' card art: the pictures of its foundations, floors, roofs, towers, ruins, exchanges and
floods, their corner signs, and the card back (drawn by :mod:`toolkit.cards.art` through
``Game.kind_art`` and ``Game.back_painter``)."""

from __future__ import annotations

import math
from typing import Sequence

from toolkit.cards.art import (
    AQUA, CLOUD, GLASS, GOLD, GRASS, HEIGHT, INK, LINE, ORANGE, PAPER, RGB, STONE, STONE_DARK, THIN, WATER, WHITE,
    WIDTH, WOOD, KindArt, Pen, Point, Scene, arc_points, arch, arrow, back_frame, coloured_sky, crenellated, darker,
    draw_symbol, emblem, flag, hill, lighter, rgb, rotate, star_points, sunburst, wave_points,
)
from toolkit.catalogue.model import Catalogue

BACK = ((22, 88, 98), (30, 104, 114))  # the back's ground and pattern
# Frame and sky of the cards that carry no colour (the palace cards take their colour's).
FRAMES: dict[str, RGB] = {
    "tower": (128, 112, 158),
    "ruins": (140, 112, 88),
    "exchange": (112, 86, 164),
    "general-exchange": (162, 86, 142),
    "flood": (52, 84, 116),
}


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
    pen.polygon(roof, FRAMES["tower"])
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
    accent = FRAMES["exchange"]
    sunburst(s, s.p(0.5, 0.5), (240, 234, 250), (230, 222, 246))
    mini_card(pen, *s.p(0.25, 0.52), s.n(0.3), s.n(0.42), -10, accent)
    mini_card(pen, *s.p(0.75, 0.52), s.n(0.3), s.n(0.42), 10, accent)
    top = arc_points(*s.p(0.5, 0.6), s.n(0.3), s.n(0.3), 215, 322, 20)
    bottom = arc_points(*s.p(0.5, 0.44), s.n(0.3), s.n(0.3), 35, 142, 20)
    arrow(pen, top, ORANGE, s.n(0.055))
    arrow(pen, bottom, AQUA, s.n(0.055))


def paint_general_exchange(s: Scene) -> None:
    pen = s.pen
    accent = FRAMES["general-exchange"]
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


def _icon_tower(pen: Pen, c: float, r: float, catalogue: Catalogue) -> None:
    paint = [rgb(colour.rgb) for colour in catalogue.colours] or [STONE]
    tower_body(pen, c, c - r * 0.45, c + r * 0.6, r * 0.32, paint, edge=THIN)
    pen.polygon([(c - r * 0.4, c - r * 0.45), (c, c - r * 0.85), (c + r * 0.4, c - r * 0.45)], FRAMES["tower"],
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


def paint_back(s: Scene) -> None:
    """The back: a gold star in a medallion ringed with little palaces of every colour, on a mosaic."""
    ground, pattern = BACK
    pen, cx, cy = s.pen, WIDTH / 2, HEIGHT / 2
    s.fill(ground)
    cell = 46
    for i in range(-10, 11):  # a checkered mosaic centred on the card
        for j in range(-13, 14):
            if (i + j) % 2 == 0:
                x, y = cx + i * cell, cy + j * cell
                pen.rect(x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2, pattern, outline=None)
    back_frame(s, GOLD)
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


KINDS: dict[str, KindArt] = {
    "foundation": KindArt(paint_foundation),
    "floor": KindArt(paint_floor),
    "roof": KindArt(paint_roof),
    "tower": KindArt(paint_tower, FRAMES["tower"], _icon_tower),
    "ruins": KindArt(paint_ruins, FRAMES["ruins"], _icon_ruins),
    "exchange": KindArt(paint_exchange, FRAMES["exchange"], _icon_exchange),
    "general-exchange": KindArt(paint_general_exchange, FRAMES["general-exchange"], _icon_general_exchange),
    "flood": KindArt(paint_flood, FRAMES["flood"], _icon_flood),
}
