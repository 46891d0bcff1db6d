"""Diamoniak's card art: the pictures of its castles, diamonds, witches and fairies, their corner
signs, and the card back (drawn by :mod:`toolkit.cards.art` through ``Game.kind_art`` and
``Game.back_painter``)."""

from __future__ import annotations

import math

from toolkit.cards.art import (
    DRESS, GOLD, HAIR, HEIGHT, ICE, INK, LINE, MOON, NIGHT, ORANGE, PURPLE, SKIN, STRAW, THIN, WHITE, WIDTH,
    WING, WOOD, KindArt, Pen, Point, Scene, arc_points, arch, back_frame, coloured_sky, crenellated, darker,
    draw_symbol, ellipse_points, emblem, flag, hill, lighter, regular_polygon, rgb, rotate, sparkle, star_points,
    sunburst,
)
from toolkit.catalogue.model import Catalogue

BACK = ((72, 42, 122), (92, 62, 148))  # the back's ground and pattern


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


def paint_back(s: Scene) -> None:
    """The back: a brilliant in a medallion ringed with the colours' gems, on a diagonal lattice."""
    ground, pattern = BACK
    pen, cx, cy = s.pen, WIDTH / 2, HEIGHT / 2
    s.fill(ground)
    step = 90
    reach = HEIGHT
    for k in range(-12, 13):  # a lattice of diagonal lines through the centre
        for sign in (1, -1):
            x = cx + k * step
            pen.line([(x - reach, cy - sign * reach), (x + reach, cy + sign * reach)], pattern, 5)
    back_frame(s, GOLD)
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


# Frame and sky of the cards that carry no colour (a castle takes its colour's).
KINDS: dict[str, KindArt] = {
    "castle": KindArt(paint_castle),
    "diamond": KindArt(paint_diamond, (58, 150, 172), _icon_diamond),
    "witch": KindArt(paint_witch, (76, 46, 112), _icon_witch),
    "fairy": KindArt(paint_fairy, (226, 124, 182), _icon_fairy),
}
