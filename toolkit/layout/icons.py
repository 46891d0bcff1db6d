"""The deck's icons (PNG or SVG files a layout or a catalogue names), as pictures of any size.

An SVG is rasterised by resvg (the ``resvg-py`` wheel: no system library; svglib would draw vectors
into the PDF but needs cairo to make the raster Pillow draws). Both renderers then draw the same
pixels, at ``ICON_DPI``: crisp at the sizes an icon is printed (a line's height, a corner badge).
System fonts are never read, so an SVG's text comes out the same on every machine.

An icon is a deck's file like any other, so it is read with care. A PNG (or JPEG, WEBP, GIF, BMP,
TIFF) icon is opened as one of those formats only, never handed to a helper program (PostScript named
``.png`` is no picture), and of at most MAX_ICON_PX ** 2 pixels. An SVG is read by ``_read_svg``
before resvg sees it: at most MAX_SVG_BYTES; no DOCTYPE (so no entities); elements nested at most
MAX_SVG_DEPTH deep, counting what ``<use>`` and ``url(#...)`` bring in (resvg crashes the process
past about 200); a natural size of at most MAX_ICON_PX ** 2 pixels; and the pictures it shows
embedded (``data:``, PNG, JPEG, GIF or WEBP) or in its own folder, never elsewhere on the disk or the
network, and never another SVG; each of those pictures of at most MAX_ICON_PX ** 2 pixels too.
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import math
import re
import urllib.parse
import warnings
from pathlib import Path
from xml.parsers import expat

from PIL import Image

from toolkit.cards.picture import as_viewed
from toolkit.cards.render import Picture
from toolkit.catalogue.checks import ART_FORMATS, inside, quote
from toolkit.errors import UserError
from toolkit.typeset.fonts import FONT_FILES
from toolkit.typeset.units import MM_PER_INCH

ICON_DPI = 600
MAX_ICON_PX = 4000         # a side of an icon's picture as drawn; an icon file holds at most its square
MAX_SVG_BYTES = 1_000_000
MAX_SVG_DEPTH = 64
SVG_PICTURES = ("image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp")  # what an SVG may embed
SVG_PICTURE_FORMATS = ("PNG", "JPEG", "GIF", "WEBP")  # what resvg draws of them
_REF = re.compile(r"url\(\s*['\"]?#([^'\")\s]+)")  # url(#id): a paint, clip, mask or filter elsewhere in the file
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_PX = {"": 1, "px": 1, "pt": 4 / 3, "pc": 16, "mm": 96 / MM_PER_INCH, "cm": 96 / (MM_PER_INCH / 10), "in": 96, "em": 16,
       "ex": 8}
_GRADIENTS = ("linearGradient", "radialGradient")  # paint servers that draw no elements of their own


def _too_large(path: Path, width: float, height: float) -> UserError:
    return UserError(f"{path}: an icon of {width:.0f} x {height:.0f} px is too large (at most "
                     f"{MAX_ICON_PX ** 2:,} pixels)")


class _SvgCheck:
    """One SVG file looked through with expat (``_read_svg``): the elements, what each refers to
    (``href="#id"``, ``url(#id)``), the style sheet's references and the natural size."""

    def __init__(self, path: Path):
        self.path = path
        self.children: list[list[int]] = [[]]  # element 0 is the document
        self.refs: list[list[str]] = [[]]
        self.tags = ["#document"]
        self.ids: dict[str, int] = {}
        self.open = [0]
        self.sheet: list[str] = []
        self.memo: dict[int, int] = {}
        self.visiting: set[int] = set()

    def fail(self, problem: str) -> UserError:
        return UserError(f"{self.path}: {problem}")

    def run(self, data: bytes) -> None:
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.StartDoctypeDeclHandler = self.doctype
        parser.StartElementHandler = self.start
        parser.EndElementHandler = lambda name: self.open.pop()
        parser.CharacterDataHandler = self.text
        try:
            parser.Parse(data, True)
        except expat.ExpatError as err:
            raise self.fail(f"not an SVG picture: {expat.ErrorString(err.code)} (line {err.lineno})") from None
        # A style sheet's url(#id) may apply to any element: count each target it names once on the way
        # down (a gradient ends the way: it draws no elements).
        targets = {self.ids[name] for name in _REF.findall("".join(self.sheet)) if name in self.ids}
        ends = [self.height(t, 0) for t in targets if self.tags[t] in _GRADIENTS]
        depth = (self.height(0, 0) - 1 + sum(self.height(t, 0) for t in targets if self.tags[t] not in _GRADIENTS)
                 + max(ends, default=0))
        if depth > MAX_SVG_DEPTH:
            raise self.too_deep()

    def too_deep(self) -> UserError:
        return self.fail(f"elements nest more than {MAX_SVG_DEPTH} deep (counting what <use> and url(#...) bring "
                         "in): not an icon the toolkit draws")

    def doctype(self, *_) -> None:
        raise self.fail("declares a DOCTYPE: an SVG icon may not (its entities are not read)")

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if len(self.open) > MAX_SVG_DEPTH:
            raise self.too_deep()
        tag = name.rsplit(" ", 1)[-1]
        index = len(self.tags)
        self.children[self.open[-1]].append(index)
        self.children.append([])
        self.refs.append([])
        self.tags.append(tag)
        self.open.append(index)
        if index == 1:
            self.natural(attrs)
        for key, value in attrs.items():
            if key == "id":
                self.ids[value] = index
            elif key.rsplit(" ", 1)[-1] == "href":
                self.href(tag, value.strip(), index)
            self.refs[index] += _REF.findall(value)

    def text(self, data: str) -> None:
        if self.tags[self.open[-1]] == "style":
            self.sheet.append(data)

    def href(self, tag: str, value: str, index: int) -> None:
        """A reference: to an element of the file, an embedded picture, or a picture in the SVG's folder."""
        where = f"<{tag}> href"
        if value.startswith("#"):
            self.refs[index].append(value[1:])
        elif value[:5].lower() == "data:":
            head, _, payload = value[5:].partition(",")
            kind = head.split(";", 1)[0].strip().lower()
            if kind not in SVG_PICTURES:
                raise self.fail(f"{where}: embeds {quote(kind or 'data')}: an icon embeds PNG, JPEG, GIF or WEBP "
                                "pictures only")
            try:
                data = (base64.b64decode(payload) if head.lower().endswith(";base64")
                        else urllib.parse.unquote_to_bytes(payload))
            except (binascii.Error, ValueError):
                raise self.fail(f"{where}: the embedded picture is not base64") from None
            self.picture(io.BytesIO(data), where, "the embedded picture")
        elif _SCHEME.match(value):
            raise self.fail(f"{where} {quote(value)}: an icon shows no file from elsewhere (a picture in its own "
                            "folder, or embedded as data:)")
        elif value.lower().endswith((".svg", ".svgz")):
            raise self.fail(f"{where} {quote(value)}: an icon shows no other SVG (a PNG, JPEG, GIF or WEBP picture)")
        else:
            self.picture(inside(self.path.parent, value, str(self.path), where, "the SVG's folder"), where,
                         quote(value))

    def picture(self, source, where: str, shown: str) -> None:
        """A picture the SVG shows: one resvg draws, of at most MAX_ICON_PX ** 2 pixels (read from its header)."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with Image.open(source, formats=SVG_PICTURE_FORMATS) as image:
                    width, height = image.size
        except Image.DecompressionBombError:
            width = height = math.inf
        except FileNotFoundError:
            raise self.fail(f"{where}: {shown}: no such picture beside the SVG") from None
        except (OSError, ValueError, SyntaxError):
            raise self.fail(f"{where}: {shown} is not a PNG, JPEG, GIF or WEBP picture") from None
        if width * height > MAX_ICON_PX ** 2:
            raise self.fail(f"{where}: {shown} is larger than an icon may be (at most {MAX_ICON_PX ** 2:,} pixels)")

    def natural(self, attrs: dict[str, str]) -> None:
        """The root's size as resvg takes it: width and height, else the viewBox's."""
        try:
            view = [float(v) for v in re.split(r"[\s,]+", attrs.get("viewBox", "").strip()) if v]
        except ValueError:
            view = []
        sides = []
        for key, fallback in (("width", 2), ("height", 3)):
            match = re.fullmatch(r"\s*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*([a-z]*)\s*",
                                 attrs.get(key, ""))
            if match and match.group(2) in _PX:
                sides.append(abs(float(match.group(1))) * _PX[match.group(2)])
            else:
                sides.append(abs(view[fallback]) if len(view) == 4 else 100.0)
        if not (math.isfinite(sides[0] * sides[1]) and sides[0] * sides[1] <= MAX_ICON_PX ** 2):
            raise _too_large(self.path, *sides)

    def height(self, index: int, way: int) -> int:
        """How deep the element draws: 1, and the deepest of its children and what it refers to."""
        if index in self.memo:
            return self.memo[index]
        if index in self.visiting:
            raise self.fail(f"<{self.tags[index]}> refers to itself (through its elements or others): not an icon "
                            "the toolkit draws")
        if way > MAX_SVG_DEPTH:
            raise self.too_deep()
        self.visiting.add(index)
        below = [*self.children[index], *(self.ids[name] for name in self.refs[index] if name in self.ids)]
        self.memo[index] = 1 + max((self.height(other, way + 1) for other in below), default=0)
        self.visiting.discard(index)
        return self.memo[index]


def _read_svg(path: Path) -> str:
    """The SVG file's text, once checked as the module says (``_SvgCheck``); one UserError line when not."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SVG_BYTES + 1)
    except OSError as err:
        raise UserError(f"{path}: cannot read the icon: {err.strerror or err}") from None
    if len(data) > MAX_SVG_BYTES:
        raise UserError(f"{path}: larger than an SVG icon may be (at most {MAX_SVG_BYTES:,} bytes)")
    _SvgCheck(path).run(data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path}: not an SVG picture resvg can draw: it is not UTF-8 text") from None


@functools.lru_cache(maxsize=64)
def _svg(path: Path, stamp: tuple[int, int], width_px: int, height_px: int) -> Image.Image:
    import resvg_py

    text = _read_svg(path)
    fonts = [str(FONT_FILES[key]) for key in ("sans", "sans-bold", "serif", "serif-bold")]
    try:
        data = resvg_py.svg_to_bytes(svg_string=text, resources_dir=str(path.parent), width=width_px,
                                     height=height_px, skip_system_fonts=True, font_files=fonts, font_family="PT Sans")
    except (ValueError, OSError, RuntimeError) as err:
        raise UserError(f"{path}: not an SVG picture resvg can draw: {err}") from None
    with Image.open(io.BytesIO(bytes(data)), formats=("PNG",)) as image:
        return image.convert("RGBA")


@functools.lru_cache(maxsize=64)
def _raster(path: Path, stamp: tuple[int, int]) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(path, formats=ART_FORMATS) as image:
                if image.width * image.height > MAX_ICON_PX ** 2:
                    raise _too_large(path, image.width, image.height)
                image.load()
                transparent = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
                viewed = as_viewed(image)
                return image.convert("RGBA") if transparent else viewed.convert("RGBA")
    except Image.DecompressionBombError:
        raise UserError(f"{path}: an icon of more than {Image.MAX_IMAGE_PIXELS * 2:,} pixels is too large (at most "
                        f"{MAX_ICON_PX ** 2:,} pixels)") from None
    except Image.UnidentifiedImageError:
        raise UserError(f"{path}: the icon is not a picture ({', '.join(ART_FORMATS)}, or SVG)") from None
    except (OSError, ValueError, SyntaxError) as err:
        raise UserError(f"{path}: cannot read the icon: {err}") from None


def _stamp(path: Path) -> tuple[int, int]:
    try:
        stat = path.stat()
    except OSError as err:
        raise UserError(f"{path}: cannot read the icon: {err.strerror or err}") from None
    return stat.st_mtime_ns, stat.st_size


class Icons:
    """Icon name -> file; pictures made at the size they are drawn."""

    def __init__(self, paths: dict[str, Path]):
        self.paths = {name: Path(path) for name, path in paths.items()}
        self._aspects: dict[str, float] = {}

    def __contains__(self, name: str) -> bool:
        return name in self.paths

    def check(self, name: str, where: str, key: str) -> None:
        if name not in self.paths:
            known = ", ".join(sorted(self.paths)) or "none: name them in the layout's [icons]"
            raise UserError(f"{where}: {key}: no icon {name!r} (the deck's icons: {known})")

    def aspect(self, name: str) -> float:
        """Width over height."""
        if name not in self._aspects:
            path = self.paths[name]
            if path.suffix.lower() == ".svg":
                self._aspects[name] = _svg_natural(path, _stamp(path))
            else:
                image = _raster(path, _stamp(path))
                self._aspects[name] = image.width / image.height
        return self._aspects[name]

    def aspects(self, words) -> dict[str, float]:
        return {piece.icon: self.aspect(piece.icon) for word in words for piece in word if piece.icon is not None}

    def image(self, name: str, width_mm: float, height_mm: float) -> Image.Image:
        path = self.paths[name]
        if path.suffix.lower() == ".svg":
            inches = (width_mm / MM_PER_INCH, height_mm / MM_PER_INCH)
            dpi = min(ICON_DPI, MAX_ICON_PX / max(*inches, 1e-9))  # a huge box: fewer dpi
            size = (max(1, round(inches[0] * dpi)), max(1, round(inches[1] * dpi)))
            return _svg(path, _stamp(path), *size)
        return _raster(path, _stamp(path))

    def picture(self, name: str, box, align: str, valign: str, element: str) -> Picture:
        """The icon in ``box`` (mm), as large as fits with its own shape, placed by ``align`` and ``valign``."""
        x0, y0, x1, y1 = box
        aspect = self.aspect(name)
        w = min(x1 - x0, (y1 - y0) * aspect)
        h = w / aspect
        left = {"left": x0, "right": x1 - w}.get(align, (x0 + x1 - w) / 2)
        top = {"top": y0, "bottom": y1 - h}.get(valign, (y0 + y1 - h) / 2)
        return Picture((left, top, left + w, top + h), self.image(name, w, h), element=element)


@functools.lru_cache(maxsize=64)
def _svg_natural(path: Path, stamp: tuple[int, int]) -> float:
    import resvg_py

    text = _read_svg(path)
    try:
        data = resvg_py.svg_to_bytes(svg_string=text, resources_dir=str(path.parent), skip_system_fonts=True)
    except (ValueError, OSError, RuntimeError) as err:
        raise UserError(f"{path}: not an SVG picture resvg can draw: {err}") from None
    with Image.open(io.BytesIO(bytes(data)), formats=("PNG",)) as natural:
        return natural.width / natural.height
