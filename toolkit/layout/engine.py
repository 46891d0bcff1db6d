"""The layout engine: a layout, a card's values, the card size, bleed and safe zone in; a
:class:`~toolkit.cards.render.CardFace` out (its ground picture and its draw operations in mm),
which ``render.draw_card`` (PDF) and ``render.card_image`` (PNG) draw alike.

Text is fitted once per (kind, element) across the deck: the largest size, at most the element's
``size``, at which every card of that kind fits the element's box; a card whose text does not fit
even at the element's ``min_size`` (7.5 pt unless the layout says otherwise) is refused in one
line naming the card, the element and the card size. Nothing is ever cut.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image

from toolkit.cards import art as art_module
from toolkit.cards.render import (CARD_SIZES, CardFace, Line, Picture, Shape, card_size_name, crop_art, load_art,
                                  place_art, size_px)
from toolkit.catalogue.checks import inside
from toolkit.catalogue.model import MAX_ART_PIXELS, CardType, Catalogue
from toolkit.errors import UserError
from toolkit.layout import model
from toolkit.layout.icons import Icons
from toolkit.layout.names import DEFAULT_LAYOUT, layout_file
from toolkit.layout.text import Setting, place, set_text, words
from toolkit.typeset.fonts import add_font, font_metrics
from toolkit.typeset.units import PT_PER_MM

REFERENCE_ART_PX = art_module.CARD_PX  # the shape "frame = art" measures: the art `toolkit art` paints
PLAIN_STDDEV, PLAIN_MEAN = 8, 200       # a plain, light area of a picture (for when = "busy")
FIT_STEPS = 12                          # halvings of the size range when fitting a text


def _bounded(size: tuple[int, int]) -> tuple[int, int]:
    """A picture's size in pixels, at most MAX_ART_PIXELS: a box far larger than a card (a layout may
    reach 500 mm) is drawn at fewer dots per inch rather than filling the memory."""
    shrink = min(1.0, (MAX_ART_PIXELS / (size[0] * size[1])) ** 0.5)
    return max(1, int(size[0] * shrink)), max(1, int(size[1] * shrink))


# --- which layout, and a card's values -------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _read(path: Path, stamp: tuple[int, int]) -> model.Layout:
    return model.read(path)


def read_layout(path: Path) -> model.Layout:
    """The layout file, read again when it changes (a watch rebuilds with the new one)."""
    try:
        stat = Path(path).stat()
    except OSError as err:
        raise UserError(f"{path}: cannot read the layout file: {err.strerror or err}") from None
    return _read(Path(path), (stat.st_mtime_ns, stat.st_size))


def deck_icons(catalogue: Catalogue, layout: model.Layout | None = None) -> Icons:
    """The icons a text of the deck may name as ``:name:``: the catalogue's (``game.icons``) and its
    layout's (``[icons]``, which win on a shared name)."""
    layout = layout or read_layout(layout_file(catalogue))
    return Icons({**catalogue.icons, **layout.icons})


def icon_words(text: str, catalogue: Catalogue, lang: str, icons: Icons | None = None) -> str:
    """``text`` for an output of text alone (a virtual table's description, a PDF's footer): each
    ``:name:`` of an icon of the deck in words, in brackets: the name in ``lang`` of the deck's colour
    of that id where there is one (``:sun:`` -> "[Sun]", «[Солнце]»), else the icon's name with its
    dashes and underscores as spaces (``:red_heart:`` -> "[red heart]"). A ``:word:`` that is no icon
    of the deck stays as written, as it prints on the cards."""
    from toolkit.layout.text import MARKUP

    icons = icons if icons is not None else deck_icons(catalogue)
    colours = {colour.id: colour.name[lang] for colour in catalogue.colours}

    def said(match) -> str:
        name = match.group(1)
        if not name or name not in icons:
            return match.group(0)
        return f"[{colours.get(name) or name.replace('_', ' ').replace('-', ' ')}]"

    return MARKUP.sub(said, text)


def deck_fields(catalogue: Catalogue) -> tuple[str, ...]:
    """The names of the deck's own fields (spreadsheet columns such as suit, value), in order of appearance."""
    return tuple(dict.fromkeys(key for card in catalogue.cards for key in card.fields))


def card_values(catalogue: Catalogue, card: CardType, lang: str) -> dict[str, str]:
    """What a layout's templates and ``when`` read of one card: id, kind, colour (its id), colour_name,
    colour_rgb, count, name and text in ``lang``, the deck's title, each of the card's fields, and
    ``field1``, ``field2``... for the deck's fields in order (empty where the card has none)."""
    colour = catalogue.colour(card.colour) if card.colour is not None else None
    fields = dict(card.fields)
    values = {
        "id": card.id, "kind": card.kind, "count": str(card.count), "name": card.name[lang],
        "text": card.text[lang], "title": catalogue.title[lang],
        "colour": card.colour or "", "colour_name": colour.name[lang] if colour else "",
        "colour_rgb": colour.rgb if colour else "",
    }
    for key, value in fields.items():
        values.setdefault(key, "" if value is None else str(value))
    for index, key in enumerate(deck_fields(catalogue), start=1):
        values[f"field{index}"] = "" if fields.get(key) is None else str(fields[key])
    return values


def _known(name: str, values: dict[str, str], known: set[str]) -> bool:
    """Whether cards may have a value ``name`` (``fieldN`` always: empty where the deck has fewer fields)."""
    return name in values or name in known or re.fullmatch(r"field[1-9][0-9]*", name) is not None


def fill(template: str, values: dict[str, str], known: set[str], where: str, key: str) -> str:
    def value(match) -> str:
        name = match.group(1)
        if not _known(name, values, known):
            model.fail(where, key, f"{{{name}}} is no value of a card (values: {', '.join(sorted(known))})")
        return values.get(name, "")

    return model.TEMPLATE.sub(value, template)


def shown(element: model.Element, values: dict[str, str], known: set[str], busy) -> bool:
    condition = element.get("when")
    if condition is None:
        return True
    negate, name, wanted = model.WHEN.fullmatch(condition).groups()
    if name == "busy" and wanted is None:
        result = busy()
    else:
        if not _known(name, values, known):
            model.fail(element.where, "when", f"{name!r} is no value of a card (values: {', '.join(sorted(known))})")
        value = values.get(name, "")
        result = value == wanted if wanted is not None else bool(value.strip())
    return result != bool(negate)


# --- geometry ----------------------------------------------------------------------------------------

BLEEDING = ("rect", "art")  # a box of these past the trim reaches the bleed's edge


def reach_bleed(box, card_mm: tuple[float, float], bleed_mm: float) -> tuple[float, float, float, float]:
    """A box that reaches past the trim reaches at least to the bleed's outer edge on that side: a band
    drawn to -3 mm covers a 3.175 mm bleed too, with no sliver of ground left at the image's edge."""
    (w, h), b = card_mm, bleed_mm
    return (min(box[0], -b) if box[0] < 0 else box[0], min(box[1], -b) if box[1] < 0 else box[1],
            max(box[2], w + b) if box[2] > w else box[2], max(box[3], h + b) if box[3] > h else box[3])


@dataclass(frozen=True)
class Frame:
    card_mm: tuple[float, float]
    bleed_mm: float
    safe_mm: float | None
    margin: float
    border: tuple[float, float] = (0.0, 0.0)  # the full-bleed art's safe_border: it moves the art's frame
    art_margin: float = 0.0  # how far inside the trim that border must lie at least (its inside_margin)

    @functools.cached_property
    def art(self):
        return place_art(REFERENCE_ART_PX, self.card_mm, self.bleed_mm, self.safe_mm, self.border, self.art_margin)

    def box(self, element: model.Element, key: str = "box", padding=None) -> tuple[float, float, float, float]:
        """The element's box (or ``clear`` box) in mm; its ``padding`` taken off, then kept inside
        the safe area when the element is ``safe``."""
        value = element.get(key)
        w, h = self.card_mm
        if element.get("frame") == "art":
            at = self.art
            aw, ah = REFERENCE_ART_PX
            x0, y0, x1, y1 = (v.value / 100 for v in value)
            out = at.box((x0 * aw, y0 * ah, x1 * aw, y1 * ah))
        else:
            out = (value[0].mm(w), value[1].mm(h), value[2].mm(w), value[3].mm(h))
        if padding is not None:
            px, py = padding[0].mm(w), padding[1].mm(h)
            out = (out[0] + px, out[1] + py, out[2] - px, out[3] - py)
        if key == "box" and element.get("safe"):
            edge = self.edge
            out = (max(out[0], edge), max(out[1], edge), min(out[2], w - edge), min(out[3], h - edge))
        elif key == "box" and element.type in BLEEDING:
            out = reach_bleed(out, self.card_mm, self.bleed_mm)
        return out

    @property
    def edge(self) -> float:
        return max(self.margin, self.safe_mm or 0.0)


def _colour(value, values: dict[str, str], ink, known, where: str, key: str):
    if value is None or not isinstance(value, str):
        return value
    text = fill(value, values, known, where, key)
    if not text:
        return ink
    if not model.HEX.fullmatch(text):
        model.fail(where, key, f"{value} gives {text!r}, not a colour \"#rrggbb\"")
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def _variants(font: str, style: str) -> str:
    """A built-in family's bold, italic and bold italic faces (a user's font file stays itself)."""
    legacy = {"name": "sans-bold", "text": "serif", "label": "sans"}
    base = legacy.get(font, font)
    if base.startswith("file:"):
        return font
    family, _, weight = base.partition("-")
    parts = set(weight.split("-")) | set(style.split("-")) - {""}
    suffix = "-".join(p for p in ("bold", "italic") if p in parts)
    return f"{family}-{suffix}" if suffix else family


OVERLAP_MM = 0.2  # a picture may touch text drawn before it by this much, no more


def _inked(picture: Picture) -> tuple[float, float, float, float] | None:
    """The part of ``picture`` (mm) that is not transparent: an icon's own shape, not its square."""
    image = picture.image
    if image.mode not in ("RGBA", "LA"):
        return picture.box
    bbox = image.getchannel("A").point(lambda a: 255 if a > 24 else 0).getbbox()
    if bbox is None:
        return None
    x0, y0, x1, y1 = picture.box
    sx, sy = (x1 - x0) / image.width, (y1 - y0) / image.height
    return x0 + bbox[0] * sx, y0 + bbox[1] * sy, x0 + bbox[2] * sx, y0 + bbox[3] * sy


def _turned(op, card_mm: tuple[float, float]):
    """``op`` turned 180 degrees about the card's centre (an element's ``rotate = 180``)."""
    w, h = card_mm
    if isinstance(op, Line):
        return replace(op, x=w - op.x, y=h - op.y, turned=not op.turned)
    x0, y0, x1, y1 = op.box
    if isinstance(op, Picture):
        return Picture((w - x1, h - y1, w - x0, h - y0), op.image.rotate(180), op.element)
    if op.kind == "line":
        return replace(op, box=(w - x0, h - y0, w - x1, h - y1))
    return replace(op, box=(w - x1, h - y1, w - x0, h - y0))


# --- the look of one deck ------------------------------------------------------------------------------

@dataclass
class _Text:
    ops: list
    bottom: float


class Look:
    """How the cards of ``catalogue`` are drawn in ``lang`` at one card size, bleed and safe zone.
    Text sizes are fitted per (kind, element) on first use, over every card of the kind."""

    def __init__(self, catalogue: Catalogue, lang: str, card_mm=CARD_SIZES["poker"], bleed_mm: float = 0.0,
                 safe_mm: float | None = None, layout: model.Layout | None = None):
        self.catalogue, self.lang = catalogue, lang
        self.card_mm, self.bleed_mm, self.safe_mm = tuple(card_mm), bleed_mm, safe_mm
        self.layout = (layout or read_layout(layout_file(catalogue))).sized(self.card_mm)
        self.frame = Frame(self.card_mm, bleed_mm, safe_mm, self.layout.margin, self._art_border(),
                           self._art_margin())
        self.icons = deck_icons(catalogue, self.layout)
        self.known = set(card_values(catalogue, catalogue.cards[0], lang)) if catalogue.cards else set()
        for card in catalogue.cards:
            self.known |= set(card.fields)
        self.known |= {f"field{i}" for i in range(1, len(deck_fields(catalogue)) + 1)}
        self.sizes: dict[tuple[str, str], float] = {}
        self._fonts: dict[str, str] = {}
        self._values: dict[str, dict[str, str]] = {}

    @property
    def source(self) -> str:
        return self.catalogue.source.name

    # fonts and values

    def font(self, element: model.Element) -> str:
        name = element.get("font", "serif")
        if name in model.FONT_FILES:
            return name
        if name not in self._fonts:  # a file the layout names, or a font the catalogue names (game.fonts)
            if name.lower().endswith((".ttf", ".otf")):
                path = Path(name)
            elif name in self.catalogue.fonts:
                path = self.catalogue.fonts[name]
            else:
                known = ", ".join(self.catalogue.fonts) or "none"
                raise UserError(f"{element.where}: font: no font {name!r} in {self.source}'s game.fonts "
                                f"(its fonts: {known})")
            self._fonts[name] = add_font(path, f"{element.where}: font")
        return self._fonts[name]

    def values(self, card: CardType) -> dict[str, str]:
        if card.id not in self._values:
            self._values[card.id] = card_values(self.catalogue, card, self.lang)
        return self._values[card.id]

    # the ground

    def _bleed_art(self) -> model.Element | None:
        return next((element for element in self.layout.elements("")
                     if element.type == "art" and element.get("box", "bleed") == "bleed"), None)

    def _art_border(self) -> tuple[float, float]:
        element = self._bleed_art()
        return (0.0, 0.0) if element is None else element.get("safe_border", (0.0, 0.0))

    def _art_margin(self, element: model.Element | None = None) -> float:
        """How far inside the trim the full-bleed art's safe border lies at least: the layout's margin
        where the art element says ``inside_margin``, else nothing beyond what ``place_art`` keeps."""
        element = element or self._bleed_art()
        return self.layout.margin if element is not None and element.get("inside_margin", False) else 0.0

    def _plain_ground(self) -> Image.Image:
        return Image.new("RGB", size_px(self.card_mm, self.bleed_mm), self.layout.background)

    def _picture(self, card: CardType, element: model.Element, where: str) -> Path | None:
        """The picture an art element shows for ``card`` (None: the card has none)."""
        key = element.get("field", "art")
        if key == "art":
            if not card.art:
                return None
            if card.art_path is None:
                load_art(None, where)  # says the art file does not exist
            return card.art_path
        value = self.values(card).get(key, "")
        if not value:
            return None
        if self.catalogue.folder is None:  # a deck from a URL without --assets: no pictures
            return None
        path = inside(self.catalogue.folder, value, where, key)
        if not path.is_file():
            raise UserError(f"{where}: {key} {value!r}: no such picture beside the catalogue")
        return path

    # laying out one card

    def face(self, card: CardType) -> CardFace:
        where = f"{self.source + ': ' if self.source else ''}card '{card.id}'"
        elements = self.layout.elements(card.kind)
        for element in elements:
            if element.type == "text":
                self._fit(card, element)
        return self._draw(card, elements, where)

    def back(self, card: CardType | None = None) -> CardFace:
        """The deck's back: its back art placed as the faces' art is, or the layout's back (the
        deck's title on a plain field) for a deck without back art. With ``card``, that card's own
        back picture (``CardType.back_art``), placed the same way, keyed "back:<card id>"."""
        catalogue = self.catalogue
        if card is not None:
            where = f"{self.source + ': ' if self.source else ''}card '{card.id}': back {card.back_art!r}"
            return CardFace(f"back:{card.id}", self.card_mm, self.bleed_mm,
                            crop_art(load_art(card.back_art_path, where), self.card_mm, self.bleed_mm,
                                     safe_mm=self.safe_mm, border=self._art_border(), margin=self._art_margin()))
        if catalogue.back_art:
            image = load_art(catalogue.back_art_path, f"{catalogue.source.name}: game.back_art")
            return CardFace("back", self.card_mm, self.bleed_mm,
                            crop_art(image, self.card_mm, self.bleed_mm, safe_mm=self.safe_mm,
                                     border=self._art_border(), margin=self._art_margin()))
        layout = self.layout if self.layout.back else read_layout(DEFAULT_LAYOUT).sized(self.card_mm)
        values = {"title": catalogue.title[self.lang]}
        elements = layout.back
        ground = Image.new("RGB", size_px(self.card_mm, self.bleed_mm), layout.back_background)
        ops: list = []
        for element in elements:
            ops += self._element(None, element, values, ground, {}, "the back")
        return CardFace("back", self.card_mm, self.bleed_mm, ground, tuple(ops))

    def _draw(self, card: CardType, elements, where: str) -> CardFace:
        values = self.values(card)
        ground = None
        ops: list = []
        bottoms: dict[str, float] = {}
        for index, element in enumerate(elements):
            if element.type == "art" and element.get("box", "bleed") == "bleed" and ground is None and not ops:
                if not shown(element, values, self.known, lambda: False):
                    continue
                path = self._picture(card, element, where)
                if path is not None:
                    ground = crop_art(load_art(path, where), self.card_mm, self.bleed_mm, safe_mm=self.safe_mm,
                                      border=element.get("safe_border", (0.0, 0.0)),
                                      margin=self._art_margin(element))
                continue
            if ground is None:
                ground = self._plain_ground()
            drawn = self._element(card, element, values, ground, bottoms, where)
            if element.type in ("icon", "art"):
                self._uncovered(ops, drawn, element, where)
            ops += drawn
        if ground is None:
            ground = self._plain_ground()
        return CardFace(f"card:{card.id}", self.card_mm, self.bleed_mm, ground, tuple(ops))

    def _uncovered(self, before: list, pictures: list, element: model.Element, where: str) -> None:
        """Refuses a picture (an icon, art in a box) laid over text drawn before it on the card: the
        picture would hide the words (Weathervane's weather icon over the card's name on a mini card).
        Text drawn after a picture, on it (a number on a badge), is the layout's intent and stays."""
        for picture in pictures:
            if not isinstance(picture, Picture):
                continue
            inked = _inked(picture)
            if inked is None:
                continue
            for line in before:
                if not isinstance(line, Line):
                    continue
                ascent, descent = font_metrics(line.font)
                top, foot = (descent, ascent) if line.turned else (ascent, descent)
                box = (line.x - line.width / 2, line.y - top * line.size, line.x + line.width / 2,
                       line.y + foot * line.size)
                if min(box[2], inked[2]) - max(box[0], inked[0]) > OVERLAP_MM and \
                        min(box[3], inked[3]) - max(box[1], inked[1]) > OVERLAP_MM:
                    raise UserError(f"{where}: its {element.name} covers its {line.element} ('{line.text}') on a "
                                    f"{card_size_name(self.card_mm)} card; move or shrink one of them (for this "
                                    f"size alone: [sizes.{model.size_key(self.card_mm)}.elements.{element.name}] in "
                                    "the layout)")

    def _busy(self, ground: Image.Image, element: model.Element):
        def busy() -> bool:
            import numpy as np

            x0, y0, x1, y1 = self.frame.box(element)
            b, (w, h) = self.bleed_mm, self.card_mm
            sx, sy = ground.width / (w + 2 * b), ground.height / (h + 2 * b)
            inset = 1.5
            box = (round((x0 + inset + b) * sx), round((y0 + inset + b) * sy),
                   round((x1 - inset + b) * sx), round((y1 - inset + b) * sy))
            if box[2] - box[0] < 4 or box[3] - box[1] < 4:
                return False
            pixels = np.asarray(ground.crop(box).convert("L"), dtype=float)
            if element.get("clear") is not None:
                c0, c1, c2, c3 = self.frame.box(element, "clear")
                ys = (np.arange(box[1], box[3]) + 0.5) / sy - b
                xs = (np.arange(box[0], box[2]) + 0.5) / sx - b
                inside = (((ys >= c1 - inset) & (ys <= c3 + inset))[:, None]
                          & ((xs >= c0 - inset) & (xs <= c2 + inset))[None, :])
                pixels = pixels[~inside]
            if pixels.size == 0:
                return False
            plain = pixels.std() < PLAIN_STDDEV and pixels.mean() > PLAIN_MEAN
            return not plain

        return busy

    def _element(self, card, element: model.Element, values, ground, bottoms, where: str) -> list:
        ops = self._upright(card, element, values, ground, bottoms, where)
        return [_turned(op, self.card_mm) for op in ops] if element.get("rotate", 0) == 180 else ops

    def _upright(self, card, element: model.Element, values, ground, bottoms, where: str) -> list:
        if not shown(element, values, self.known, self._busy(ground, element)):
            return []
        ink = self.layout.ink
        if element.type == "text":
            size = self._fit(card, element) if card is not None else self._fit_back(element, values)
            laid = self._text(element, values, size, bottoms)
            if laid is None:
                raise UserError(f"{where}: its {element.name} does not fit its box")  # fitted sizes fit
            bottoms[element.name] = laid.bottom
            return laid.ops
        box = self.frame.box(element) if element.get("box", "bleed") != "bleed" else (
            -self.bleed_mm, -self.bleed_mm, self.card_mm[0] + self.bleed_mm, self.card_mm[1] + self.bleed_mm)
        if element.type == "art":
            path = self._picture(card, element, where) if card is not None else None
            if path is None:
                return []
            return [self._art_in_box(load_art(path, where), box, element)]
        if element.type == "icon":
            name = fill(element.get("icon"), values, self.known, element.where, "icon")
            if not name:
                return []
            self.icons.check(name, element.where, "icon")
            return [self.icons.picture(name, box, element.get("align", "centre"), element.get("valign", "middle"),
                                       element.name)]
        fill_colour = _colour(element.get("fill"), values, ink, self.known, element.where, "fill")
        stroke = _colour(element.get("stroke"), values, ink, self.known, element.where, "stroke")
        if element.type == "line" and stroke is None:
            stroke = ink
        shape = Shape(element.type, box, fill_colour, stroke, element.get("width", 0.3), element.get("radius", 0.0),
                      element.name)
        if element.get("window") is None or ground is None:
            return [shape]
        return [shape, self._window(ground, self.frame.box(element, "window"), element.name)]

    def _window(self, ground: Image.Image, box, name: str) -> Picture:
        """The ground (the card's full-bleed art) in ``box`` (mm), laid again over what covers it: a rect's
        ``window``, where a corner badge of the art shows through a panel."""
        b, (w, h) = self.bleed_mm, self.card_mm
        sx, sy = ground.width / (w + 2 * b), ground.height / (h + 2 * b)
        x0, y0 = max(0, round((box[0] + b) * sx)), max(0, round((box[1] + b) * sy))
        x1, y1 = min(ground.width, round((box[2] + b) * sx)), min(ground.height, round((box[3] + b) * sy))
        inner = (x0 / sx - b, y0 / sy - b, x1 / sx - b, y1 / sy - b)  # on whole pixels of the ground
        return Picture(inner, ground.crop((x0, y0, x1, y1)), element=name)

    def _art_in_box(self, image: Image.Image, box, element: model.Element) -> Picture:
        x0, y0, x1, y1 = box
        bw, bh = x1 - x0, y1 - y0
        if element.get("fit", "cover") == "cover":
            scale = max(image.width / bw, image.height / bh)
            cw, ch = bw * scale, bh * scale
            left, top = (image.width - cw) / 2, (image.height - ch) / 2
            target = _bounded(size_px((bw, bh), 0))
            picture = image.resize(target, Image.Resampling.LANCZOS, box=(left, top, left + cw, top + ch))
            return Picture(box, picture, element=element.name)
        scale = min(bw / image.width, bh / image.height)
        w, h = image.width * scale, image.height * scale
        inner = (x0 + (bw - w) / 2, y0 + (bh - h) / 2, x0 + (bw + w) / 2, y0 + (bh + h) / 2)
        picture = image.resize(_bounded(size_px((w, h), 0)), Image.Resampling.LANCZOS)
        return Picture(inner, picture, element=element.name)

    # text

    def _size_range(self, element: model.Element) -> tuple[float, float]:
        """(smallest, largest) size of a text element, in mm."""
        def mm(length) -> float:
            return length.value * self.card_mm[1] / 100 if length.percent else length.value / PT_PER_MM

        low = mm(element.get("min_size"))
        return low, max(low, mm(element.get("size")))

    def _text(self, element: model.Element, values, size: float, bottoms) -> _Text | None:
        """The element's text at ``size`` (mm), or None when it does not fit its box."""
        text = fill(element.get("text"), values, self.known, element.where, "text")
        x0, y0, x1, y1 = self.frame.box(element, padding=element.get("padding"))
        after = element.get("after")
        if after is not None and after in bottoms:
            y0 = max(y0, bottoms[after] + element.get("gap", 0.0))
        if not text.strip():
            return _Text([], y0 - element.get("gap", 0.0) if after else y0)
        font = self.font(element)
        ws = words(text, self.lang, self.icons, element.where)
        setting = Setting(font, _variants, size, element.get("leading", 1.2), self.icons.aspects(ws))
        clear = self.frame.box(element, "clear") if element.get("clear") is not None else None
        align = element.get("align", "centre")

        def room(top: float, bottom: float) -> tuple[float, float]:
            left, right = x0, x1
            if clear is not None and bottom > clear[1] and top < clear[3] and clear[0] < x1 and clear[2] > x0:
                if clear[0] > (x0 + x1) / 2:
                    right = min(right, clear[0])
                else:
                    left = max(left, clear[2])
            return left, right

        if y1 - y0 <= 0 or x1 - x0 <= 0:
            return None
        lines = set_text(ws, setting, y0, y1, room, element.get("valign", "top"), element.get("max_lines"))
        if lines is None:
            return None
        colour = _colour(element.get("colour"), values, self.layout.ink, self.known, element.where, "colour")
        if colour is None:
            colour = self.layout.ink
        ops: list = []
        descent = font_metrics(font)[1]
        for line in lines:
            if align == "left":
                x = line.left
            elif align == "right":
                x = line.right - line.width
            else:
                x = (line.left + line.right) / 2 - line.width / 2
            ops += self._runs(line, setting, x, colour, element.name)
        return _Text(ops, lines[-1].baseline + descent * size)

    def _runs(self, line, s: Setting, x: float, colour, name: str) -> list:
        return place(line, s, x, self.icons, colour, name)

    def _fit(self, card: CardType, element: model.Element) -> float:
        """The element's one size for the cards of ``card``'s kind in the deck (count above 0, and
        ``card`` itself): the largest at which every one fits."""
        kind = card.kind
        key = (kind, element.name) if card.count > 0 else (kind, element.name, card.id)
        if key in self.sizes:
            return self.sizes[key]
        cards = [other for other in self.catalogue.cards if other.kind == kind and (other.count > 0 or other is card)]
        elements = self.layout.elements(kind)
        before = elements[:elements.index(element)]
        low, high = self._size_range(element)

        def fits(size: float) -> CardType | None:
            """None when every card fits at ``size``; else the first that does not."""
            for other in cards:
                values = self.values(other)
                if not shown(element, values, self.known, lambda: True):
                    continue
                if self._text(element, values, size, self._bottoms(other, before)) is None:
                    return other
            return None

        if fits(high) is None:
            self.sizes[key] = high
            return high
        failed = fits(low)
        if failed is not None:
            where = f"{self.source + ': ' if self.source else ''}card '{failed.id}'"
            text = fill(element.get("text"), self.values(failed), self.known, element.where, "text")
            raise UserError(f"{where}: its {element.name} ({len(text):,} characters) does not fit a "
                            f"{card_size_name(self.card_mm)} card even at "
                            f"{low * PT_PER_MM:.1f} pt (the smallest size of the layout's {element.name}); shorten "
                            "it, or print on larger cards (--card)")
        for _ in range(FIT_STEPS):
            middle = (low + high) / 2
            if fits(middle) is None:
                low = middle
            else:
                high = middle
        self.sizes[key] = low
        return low

    def _bottoms(self, card: CardType, elements) -> dict[str, float]:
        """Where each earlier text element of ``card`` ends, at its fitted size (for ``after``)."""
        values = self.values(card)
        bottoms: dict[str, float] = {}
        for element in elements:
            if element.type != "text" or not shown(element, values, self.known, lambda: False):
                continue
            laid = self._text(element, values, self._fit(card, element), bottoms)
            if laid is not None:
                bottoms[element.name] = laid.bottom
        return bottoms

    def _fit_back(self, element: model.Element, values) -> float:
        low, high = self._size_range(element)
        if self._text(element, values, high, {}) is not None:
            return high
        if self._text(element, values, low, {}) is None:
            raise UserError(f"{self.source}: the deck's title does not fit the back of a "
                            f"{card_size_name(self.card_mm)} card even at {low * PT_PER_MM:.1f} pt; shorten it")
        for _ in range(FIT_STEPS):
            middle = (low + high) / 2
            if self._text(element, values, middle, {}) is not None:
                low = middle
            else:
                high = middle
        return low
