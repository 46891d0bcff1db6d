"""The deck's icons (PNG or SVG files a layout or a catalogue names), as pictures of any size.

An SVG is rasterised by resvg (the ``resvg-py`` wheel: no system library; svglib would draw vectors
into the PDF but needs cairo to make the raster Pillow draws). Both renderers then draw the same
pixels, at ``ICON_DPI``: crisp at the sizes an icon is printed (a line's height, a corner badge).
System fonts are never read, so an SVG's text comes out the same on every machine.
"""

from __future__ import annotations

import functools
import io
import warnings
from pathlib import Path

from PIL import Image

from toolkit.cards.picture import as_viewed
from toolkit.cards.render import FONT_FILES, Picture
from toolkit.errors import UserError

ICON_DPI = 600
MAX_ICON_PX = 4000


@functools.lru_cache(maxsize=64)
def _svg(path: Path, stamp: tuple[int, int], width_px: int, height_px: int) -> Image.Image:
    import resvg_py

    fonts = [str(FONT_FILES[key]) for key in ("sans", "sans-bold", "serif", "serif-bold")]
    try:
        data = resvg_py.svg_to_bytes(svg_path=str(path), width=width_px, height=height_px, skip_system_fonts=True,
                                     font_files=fonts, font_family="PT Sans")
    except (ValueError, OSError, RuntimeError) as err:
        raise UserError(f"{path}: not an SVG picture resvg can draw: {err}") from None
    with Image.open(io.BytesIO(bytes(data))) as image:
        return image.convert("RGBA")


@functools.lru_cache(maxsize=64)
def _raster(path: Path, stamp: tuple[int, int]) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(path) as image:
                if image.width * image.height > MAX_ICON_PX ** 2:
                    raise UserError(f"{path}: an icon of {image.width} x {image.height} px is too large "
                                    f"(at most {MAX_ICON_PX ** 2:,} pixels)")
                image.load()
                transparent = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
                viewed = as_viewed(image)
                return image.convert("RGBA") if transparent else viewed.convert("RGBA")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as err:
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
            size = (max(1, round(width_mm / 25.4 * ICON_DPI)), max(1, round(height_mm / 25.4 * ICON_DPI)))
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

    try:
        data = resvg_py.svg_to_bytes(svg_path=str(path), skip_system_fonts=True)
    except (ValueError, OSError, RuntimeError) as err:
        raise UserError(f"{path}: not an SVG picture resvg can draw: {err}") from None
    with Image.open(io.BytesIO(bytes(data))) as natural:
        return natural.width / natural.height
