"""A layout file read and checked: elements with their boxes, fonts, sizes and colours, per-kind
layouts that extend the base (or another kind), and the back's elements for a deck without back art.

Every mistake is one line naming the file, the element and the key (``layout.toml: elements.name:
size: ...``). Lengths are millimetres from the trim's top-left corner, or ``"N%"`` of the card's
width (x) or height (y); in an element with ``frame = "art"``, ``"N%"`` of the full-bleed art as it
lies on the card. Font sizes are points, or ``"N%"`` of the card's height. Every number is finite and
bounded (MAX_LENGTH_MM, MAX_PERCENT; a chain of kinds at most MAX_EXTENDS deep), and every file a layout
names (icons, fonts) lies inside the layout's folder (``checks.inside``).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.cards.render import CARD_SIZES, MAX_CARD_MM
from toolkit.catalogue.checks import did_you_mean, inside
from toolkit.errors import UserError
from toolkit.typeset.fonts import FONT_FILES, SMALLEST_PT

TYPES = ("art", "text", "icon", "rect", "circle", "line")
ALIGN = ("left", "centre", "right")
VALIGN = ("top", "middle", "bottom")
FITS = ("cover", "contain")
COMMON = {"type", "box", "frame", "when", "safe", "rotate"}
KEYS = {
    "art": COMMON | {"field", "fit", "safe_border", "inside_margin"},
    "text": COMMON | {"text", "font", "size", "min_size", "colour", "align", "valign", "leading", "after", "gap",
                      "clear", "max_lines", "padding"},
    "icon": COMMON | {"icon", "align", "valign"},
    "rect": COMMON | {"fill", "stroke", "width", "radius", "clear", "window"},
    "circle": COMMON | {"fill", "stroke", "width"},
    "line": COMMON | {"stroke", "width"},
}
TABLES = ("card", "elements", "kinds", "back", "icons", "sizes")  # the tables of a layout file
SIZE_TABLES = ("card", "elements", "kinds", "back")  # what a [sizes.<size>] table may change
CARD_KEYS = ("background", "ink", "margin")  # the keys of its [card]
DEFAULT_SAFE = {"text": True, "icon": True}  # elements kept inside the safe area unless they say otherwise
HEX = re.compile(r"#[0-9a-fA-F]{6}")
TEMPLATE = re.compile(r"\{([A-Za-z0-9_]+)\}")
WHEN = re.compile(r"(!)?([A-Za-z0-9_]+)(?:=(.*))?")
MAX_FILE_BYTES = 1_000_000
MAX_LENGTH_MM = MAX_CARD_MM  # a length in mm, either way from the trim's top-left corner
MAX_PERCENT = 200            # a length in per cent of the card (or the art), either way
MAX_EXTENDS = 32             # kinds extending kinds
PLACE = "the layout's folder"


@dataclass(frozen=True)
class Length:
    """A length: ``value`` mm, or ``value`` per cent of the frame's side."""

    value: float
    percent: bool

    def mm(self, side: float) -> float:
        return self.value * side / 100 if self.percent else self.value


Box = tuple[Length, Length, Length, Length]


@dataclass(frozen=True)
class Element:
    name: str
    type: str
    where: str  # "layout.toml: elements.name", for messages
    options: dict = field(hash=False)

    def get(self, key: str, default=None):
        return self.options.get(key, default)


@dataclass(frozen=True)
class Layout:
    """A layout: ``kinds`` maps a card kind to its elements (the base's under ``""``)."""

    source: Path
    background: tuple[int, int, int]
    back_background: tuple[int, int, int]
    ink: tuple[int, int, int]
    margin: float  # mm: elements with ``safe`` keep this far inside the trim (or a service's safe zone if more)
    kinds: dict[str, tuple[Element, ...]]
    back: tuple[Element, ...]
    icons: dict[str, Path]
    sizes: dict[str, Layout] = field(default_factory=dict)  # a card size's own layout ([sizes.<size>])

    def elements(self, kind: str) -> tuple[Element, ...]:
        return self.kinds.get(kind, self.kinds[""])

    def sized(self, card_mm: tuple[float, float]) -> Layout:
        """The layout of cards of ``card_mm``: the file's ``[sizes.<size>]`` tables laid over it, for
        the preset of that size (``tarot``) or ``WxH`` in mm (``"60x90"``); itself for other sizes."""
        return self.sizes.get(size_key(card_mm), self)


PRESET_SLACK_MM = 1.0  # a card this close to a preset on each side is that preset (a service's 2.25 x 3.5 in bridge)


def size_key(card_mm: tuple[float, float]) -> str:
    """The name a ``[sizes.<size>]`` table gives a card size: its preset (or the preset within
    PRESET_SLACK_MM of it on each side, as print services' inch sizes are), else ``WxH`` in mm."""
    for name, preset in CARD_SIZES.items():
        if all(abs(a - b) <= PRESET_SLACK_MM for a, b in zip(preset, card_mm)):
            return name
    return f"{card_mm[0]:g}x{card_mm[1]:g}"


def _laid_over(base: dict, over: dict) -> dict:
    """``over``'s keys laid over ``base``: tables merged key by key, any other value replaced."""
    out = dict(base)
    for key, value in over.items():
        out[key] = _laid_over(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def fail(where: str, key: str, problem: str):
    raise UserError(f"{where}: {key}: {problem}")


def colour(value, where: str, key: str) -> tuple[int, int, int] | str:
    """A colour: "#rrggbb", or a template ("{colour_rgb}") read per card."""
    if isinstance(value, str) and HEX.fullmatch(value):
        return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
    if isinstance(value, str) and TEMPLATE.fullmatch(value):
        return value
    fail(where, key, f"{value!r} is not a colour (\"#rrggbb\", or a card value such as \"{{colour_rgb}}\")")


def length(value, where: str, key: str, percent_only: bool = False) -> Length:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        fail(where, key, f"{value!r} is not a length (millimetres, or \"N%\")")
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(-?[0-9]+(?:\.[0-9]+)?)\s*%\s*", value)
        if not match:
            fail(where, key, f"{value!r} is not a length (millimetres, or \"N%\")")
        if not abs(float(match.group(1))) <= MAX_PERCENT:
            fail(where, key, f"{value!r}: a length is at most {MAX_PERCENT}% either way")
        return Length(float(match.group(1)), True)
    if percent_only:
        fail(where, key, f"{value!r}: in the art's frame a length is \"N%\" of the art")
    if not abs(value) <= MAX_LENGTH_MM:  # also NaN
        fail(where, key, f"{value!r} is not a length of a card (millimetres from {-MAX_LENGTH_MM:g} to "
                         f"{MAX_LENGTH_MM:g}, or \"N%\")")
    return Length(float(value), False)


def box(value, where: str, key: str, percent_only: bool) -> Box:
    if not isinstance(value, list) or len(value) != 4:
        fail(where, key, "must be [left, top, right, bottom]")
    parts = tuple(length(v, where, key, percent_only) for v in value)
    return parts  # type: ignore[return-value]


def points(value, where: str, key: str) -> Length:
    """A font size: points, or "N%" of the card's height; kept as a Length (value in pt when not %)."""
    if isinstance(value, float) and not math.isfinite(value):
        fail(where, key, f"{value!r} is not a font size (points above 0, at most 200, or \"N%\")")
    size = length(value, where, key)
    if size.value <= 0 or (not size.percent and size.value > 200):
        fail(where, key, f"{value!r} is not a font size (points above 0, at most 200, or \"N%\")")
    return size


def number(value, where: str, key: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        fail(where, key, f"{value!r} must be a number from {low:g} to {high:g}")
    return float(value)


def choice(value, where: str, key: str, options: tuple[str, ...]) -> str:
    if value not in options:
        fail(where, key, f"{value!r}: choose from {', '.join(options)}")
    return value


FONT_NAME = re.compile(r"[a-z0-9_-]{1,40}")  # a font the catalogue names (its game.fonts keys)


def _font(value, where: str, base: Path) -> str:
    """A built-in face's name, a TTF/OTF file beside the layout (its path, resolved), or the name of a
    font the catalogue gives (``game.fonts``)."""
    if not isinstance(value, str):
        fail(where, "font", f"{value!r} is not a font")
    if value in FONT_FILES:
        return value
    if value.lower().endswith((".ttf", ".otf")):
        path = inside(base, value, f"{where}: font", "path", PLACE).resolve()
        if not path.is_file():
            fail(where, "font", f"no font file {value} beside the layout")
        return str(path)
    if FONT_NAME.fullmatch(value):
        return value  # a font the catalogue names (game.fonts): the deck that uses the layout resolves it
    builtin = ", ".join(k for k in FONT_FILES if not k.startswith("file:") and k not in ("name", "text", "label"))
    fail(where, "font", f"{value!r}: name a built-in face ({builtin}), a font of the catalogue's game.fonts or a "
                        ".ttf/.otf file")


def element(name: str, raw, where: str, base: Path, inherited: Element | None = None) -> Element:
    """One element checked; ``inherited``: the element of the same name it overrides (its keys kept)."""
    if not isinstance(raw, dict):
        fail(where, name, "must be a table of keys")
    options = dict(inherited.options) if inherited is not None else {}
    kind = raw.get("type", inherited.type if inherited else None)
    if kind is None:
        fail(where, "type", f"missing (choose from {', '.join(TYPES)})")
    choice(kind, where, "type", TYPES)
    if inherited is not None and kind != inherited.type:
        options = {}
    for key in raw:
        if key not in KEYS[kind] and key != "show":
            fail(where, key, f"not a key of a {kind} element{did_you_mean(key, KEYS[kind] | {'show'})} "
                             f"(keys: {', '.join(sorted(KEYS[kind]))})")
    frame = raw.get("frame", options.get("frame", "card"))
    options["frame"] = choice(frame, where, "frame", ("card", "art"))
    for key, value in raw.items():
        if key in ("type", "frame"):
            continue
        if key == "show":
            options["show"] = value if isinstance(value, bool) else fail(where, key, "must be true or false")
        elif key == "box":
            options[key] = "bleed" if value == "bleed" and kind == "art" else box(value, where, key,
                                                                                 frame == "art")
        elif key in ("clear", "window"):
            options[key] = box(value, where, key, frame == "art")
        elif key == "padding":
            if not isinstance(value, list) or len(value) != 2:
                fail(where, key, "must be [x, y]: millimetres, or \"N%\" of the card's width and height")
            options[key] = tuple(length(v, where, key) for v in value)
        elif key == "inside_margin":
            options[key] = value if isinstance(value, bool) else fail(where, key, "must be true or false")
        elif key == "safe_border":
            if not isinstance(value, list) or len(value) != 2:
                fail(where, key, "must be [x, y], each \"N%\" of the art")
            options[key] = tuple(length(v, where, key, True).value / 100 for v in value)
        elif key in ("size", "min_size"):
            options[key] = points(value, where, key)
        elif key in ("colour", "fill", "stroke"):
            options[key] = colour(value, where, key)
        elif key == "font":
            options[key] = _font(value, where, base)
        elif key == "align":
            options[key] = choice(value, where, key, ALIGN)
        elif key == "valign":
            options[key] = choice(value, where, key, VALIGN)
        elif key == "fit":
            options[key] = choice(value, where, key, FITS)
        elif key == "leading":
            options[key] = number(value, where, key, 0.8, 3)
        elif key in ("gap", "width", "radius"):
            options[key] = number(value, where, key, 0, 100)
        elif key == "max_lines":
            options[key] = int(number(value, where, key, 1, 100))
        elif key == "safe":
            options[key] = value if isinstance(value, bool) else fail(where, key, "must be true or false")
        elif key == "rotate":
            if isinstance(value, bool) or value not in (0, 180):
                fail(where, key, f"{value!r}: 0 or 180 (degrees: 180 turns the element about the card's "
                                 "centre, as a card's index is repeated at its foot)")
            options[key] = int(value)
        elif key == "when":
            if not isinstance(value, str) or not WHEN.fullmatch(value.strip()):
                fail(where, key, f"{value!r}: name a value (\"suit\"), its absence (\"!suit\"), one value "
                                 "(\"kind=castle\"), or \"busy\"")
            options[key] = value.strip()
        elif key in ("text", "icon", "field", "after"):
            if not isinstance(value, str):
                fail(where, key, f"{value!r} must be a string")
            options[key] = value
    options.setdefault("safe", DEFAULT_SAFE.get(kind, False))
    if "box" not in options and kind != "art":
        fail(where, "box", "missing ([left, top, right, bottom])")
    if kind == "text" and "text" not in options:
        fail(where, "text", "missing (what to write, e.g. \"{name}\")")
    if kind == "icon" and "icon" not in options:
        fail(where, "icon", "missing (the icon's name, or a value such as \"{suit}\")")
    if kind == "text":
        size = options.get("size", Length(10, False))
        options["size"] = size
        floor = options.get("min_size", Length(SMALLEST_PT, False))
        options["min_size"] = floor
    return Element(name, kind, where, options)


def elements(raw, where: str, base: Path, inherited: tuple[Element, ...] = ()) -> tuple[Element, ...]:
    if not isinstance(raw, dict):
        fail(where, "elements", "must be a table of elements ([elements.<name>])")
    by_name = {e.name: e for e in inherited}
    order = [e.name for e in inherited]
    for name, value in raw.items():
        by_name[name] = element(name, value, f"{where}.{name}", base, by_name.get(name))
        if name not in order:
            order.append(name)
    out = tuple(by_name[name] for name in order if by_name[name].get("show", True))
    names = {e.name for e in out}
    for e in out:
        if e.get("after") is not None and (e.get("after") not in names or e.get("after") == e.name):
            fail(e.where, "after", f"{e.get('after')!r} is no other element of this layout")
        if e.get("after") is not None and [x.name for x in out].index(e.get("after")) > [x.name for x in out].index(
                e.name):
            fail(e.where, "after", f"{e.get('after')!r} must come before {e.name!r}")
    return out


def read(path: Path) -> Layout:
    """The layout file at ``path``, checked."""
    path = Path(path)
    name = path.name
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise UserError(f"{name}: larger than {MAX_FILE_BYTES:,} bytes: not a layout file")
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # -sig: a byte-order mark is fine
    except OSError as err:
        raise UserError(f"{path}: cannot read the layout file: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UserError(f"{name}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"{name}: not valid TOML: {err}") from None
    return parse(data, path)


def _sizes(data: dict, path: Path) -> dict[str, Layout]:
    """Each ``[sizes.<size>]`` table: the layout with that table laid over the file's own tables."""
    raw = data.get("sizes", {})
    if not isinstance(raw, dict):
        fail(path.name, "sizes", "must be a table of card sizes ([sizes.tarot], [sizes.\"60x90\"])")
    out = {}
    for key, over in raw.items():
        where = f"{path.name}: sizes.{key}"
        text = key.strip().lower().replace("×", "x")
        width, sep, height = text.partition("x")
        if text in CARD_SIZES:
            canonical = text
        elif sep and all(re.fullmatch(r"[0-9]+(\.[0-9]*)?", side) for side in (width, height)):
            canonical = f"{float(width):g}x{float(height):g}"
            canonical = next((n for n, mm in CARD_SIZES.items() if f"{mm[0]:g}x{mm[1]:g}" == canonical), canonical)
        else:
            fail(f"{path.name}: sizes", key, f"not a card size (a preset: {', '.join(CARD_SIZES)}; or \"WxH\" in mm, "
                                             "e.g. \"60x90\")")
        if not isinstance(over, dict):
            fail(where, "sizes", "must be a table")
        for table in over:
            if table not in SIZE_TABLES:
                fail(where, table, f"not a table a size may change{did_you_mean(table, SIZE_TABLES)} "
                                   f"({', '.join(SIZE_TABLES)})")
        merged = _laid_over({k: v for k, v in data.items() if k != "sizes"}, over)
        out[canonical] = parse(merged, path, f"{path.name}: sizes.{key}")
    return out


def parse(data: dict, path: Path, label: str | None = None) -> Layout:
    name, base = label or path.name, path.parent
    for key in data:
        if key not in TABLES:
            fail(name, key, f"not a table of a layout{did_you_mean(key, TABLES)} ({', '.join(TABLES)})")
    card = data.get("card", {})
    if not isinstance(card, dict):
        fail(name, "card", "must be a table")
    for key in card:
        if key not in CARD_KEYS:
            fail(f"{name}: card", key, f"not a key of [card]{did_you_mean(key, CARD_KEYS)} ({', '.join(CARD_KEYS)})")
    background = colour(card.get("background", "#ffffff"), f"{name}: card", "background")
    ink = colour(card.get("ink", "#2a2238"), f"{name}: card", "ink")
    if isinstance(background, str) or isinstance(ink, str):
        fail(f"{name}: card", "background" if isinstance(background, str) else "ink", "must be \"#rrggbb\"")
    margin = number(card.get("margin", 3.0), f"{name}: card", "margin", 0, 50)
    if "elements" not in data:
        fail(name, "elements", "missing: a layout draws its cards with [elements.<name>] tables")
    base_elements = elements(data["elements"], f"{name}: elements", base)
    kinds: dict[str, tuple[Element, ...]] = {"": base_elements}
    raw_kinds = data.get("kinds", {})
    if not isinstance(raw_kinds, dict):
        fail(name, "kinds", "must be a table of kinds ([kinds.<kind>])")

    def resolve(kind: str, seen: tuple[str, ...]) -> tuple[Element, ...]:
        if kind in kinds:
            return kinds[kind]
        where = f"{name}: kinds.{kind}"
        raw = raw_kinds[kind]
        if not isinstance(raw, dict):
            fail(name, f"kinds.{kind}", "must be a table")
        for key in raw:
            if key not in ("extends", "elements"):
                fail(where, key, f"not a key of a kind{did_you_mean(key, ('extends', 'elements'))} (extends, elements)")
        parent = raw.get("extends", "base")
        if parent != "base" and parent not in raw_kinds:
            fail(where, "extends", f"{parent!r} is neither \"base\" nor a kind of this layout")
        if parent in seen:
            fail(where, "extends", f"kinds extend each other in a circle ({' -> '.join((*seen, parent))})")
        if len(seen) > MAX_EXTENDS:
            fail(where, "extends", f"kinds extend kinds more than {MAX_EXTENDS} deep ({seen[0]} -> {seen[1]} -> ...)")
        inherited = base_elements if parent == "base" else resolve(parent, (*seen, parent))
        kinds[kind] = elements(raw.get("elements", {}), f"{where}.elements", base, inherited)
        return kinds[kind]

    for kind in raw_kinds:
        resolve(kind, (kind,))
    back, back_background = (), background
    if "back" in data:
        raw_back = data["back"]
        if not isinstance(raw_back, dict) or set(raw_back) - {"elements", "background"}:
            fail(name, "back", "must hold a background and [back.elements.<name>] tables only")
        back = elements(raw_back.get("elements", {}), f"{name}: back.elements", base)
        back_background = colour(raw_back.get("background", card.get("background", "#ffffff")), f"{name}: back",
                                 "background")
        if isinstance(back_background, str):
            fail(f"{name}: back", "background", "must be \"#rrggbb\"")
    icons = data.get("icons", {})
    if not isinstance(icons, dict):
        fail(name, "icons", "must be a table of icon = \"file\"")
    icon_paths = {}
    for icon, file in icons.items():
        if not isinstance(file, str) or not file.lower().endswith((".png", ".svg")):
            fail(f"{name}: icons", icon, "must name a .png or .svg file")
        icon_paths[icon] = inside(base, file, f"{name}: icons: {icon}", "path", PLACE).resolve()
        if not icon_paths[icon].is_file():
            fail(f"{name}: icons", icon, f"no file {file} beside the layout")
    sizes = _sizes(data, path) if label is None else {}
    return Layout(path, background, back_background, ink, margin, kinds, back, icon_paths, sizes=sizes)
