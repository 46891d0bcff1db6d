"""Checks of single values a catalogue carries: paths of a deck's files, art images, and printable text.

Each check returns the reason a value cannot be used (or raises one ``UserError`` line), so that
the loader can name the TOML key it came from and the card renderer can apply the same rules.
"""

from __future__ import annotations

import unicodedata
import warnings
from functools import cache
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING

from toolkit.catalogue.model import MAX_ART_PIXELS
from toolkit.errors import UserError
from toolkit.typeset.fonts import FONT_FOLDERS

if TYPE_CHECKING:
    from PIL import Image

# Raster formats Pillow reads by itself (no Ghostscript or other helper programs).
ART_FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "BMP", "TIFF")
MAX_ART_PATH = 255


def art_path_problem(relative: str, place: str = "the art folder") -> str | None:
    """Why ``relative`` cannot name a file inside a folder (``place``: an art folder by default; None
    when it can): it must be relative, stay inside (no ``..``), use ``/`` between folders and be
    printable."""
    if "\\" in relative:
        return "must use / between folders, not \\"
    bad = next((c for c in relative if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
    if bad is not None:
        return f"holds the control character U+{ord(bad):04X}"
    path = PurePosixPath(relative)
    if path.is_absolute() or PureWindowsPath(relative).anchor:
        return f"must be relative to {place} (no leading / or drive)"
    if ".." in path.parts:
        return f"must stay inside {place} (no '..')"
    if not path.parts or relative.rstrip().endswith("/"):
        return "is not a file name"
    if len(relative) > MAX_ART_PATH or any(len(part.encode("utf-8")) > 255 for part in path.parts):
        return f"is too long (at most {MAX_ART_PATH} characters)"
    return None


def check_art_path(relative: str, where: str) -> PurePosixPath:
    """``relative`` as a path inside an art folder, or a UserError ``<where>: art path ...``."""
    problem = art_path_problem(relative)
    if problem:
        raise UserError(f"{where}: art path {quote(relative)} {problem}")
    return PurePosixPath(relative)


def inside(folder: Path, relative: str, where: str, what: str = "path", place: str = "the deck's folder") -> Path:
    """The file ``relative`` names in ``folder``: every file a deck reads (art, icons, fonts, texts,
    layouts, pictures an SVG shows) is found through here. The path must be relative, without
    ``..``, and lie inside ``folder`` once every link on the way is followed; else one UserError
    ``<where>: <what> '<relative>' must stay inside <place> ...``."""
    problem = art_path_problem(relative, place)
    if problem is None:
        path = Path(folder) / relative
        try:
            root, real = Path(folder).resolve(), path.resolve()
        except (OSError, RuntimeError):  # a loop of links
            problem = "is a loop of links"
        else:
            if root == real or root in real.parents:
                return path
            problem = f"leaves {place} through a link"
    raise UserError(f"{where}: {what} {quote(relative)} {problem}")


def open_art(path: Path, where: str, shown: str | None = None) -> Image.Image:
    """Open an art image lazily (only its header is read) after checking it is a picture of at most
    MAX_ART_PIXELS; the caller closes it. Pillow's own warnings and limits never reach the user:
    anything wrong is one UserError ``<where>: the art file <shown> ...``."""
    from PIL import Image  # here: the commands that never look at art do not pay for Pillow

    shown = quote(shown if shown is not None else str(path))
    limit = f"at most {MAX_ART_PIXELS // 1_000_000} megapixels"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            image = Image.open(path, formats=ART_FORMATS)
    except Image.DecompressionBombError:
        raise UserError(f"{where}: the art file {shown} is far too large ({limit})") from None
    except Image.UnidentifiedImageError:
        raise UserError(
            f"{where}: the art file {shown} is not an image ({', '.join(ART_FORMATS)})"
        ) from None
    except (OSError, ValueError) as err:
        raise UserError(f"{where}: cannot read the art file {shown}: {printable(str(err.strerror or err))}") from None
    width, height = image.size
    if width * height > MAX_ART_PIXELS:
        image.close()
        raise UserError(
            f"{where}: the art file {shown} is {width} x {height} pixels "
            f"({width * height / 1e6:.0f} megapixels; {limit})"
        )
    return image


@cache
def font_coverage() -> dict[str, frozenset[int]]:
    """Code points each PT family draws in every one of its styles, from the fonts' cmap tables (the fonts
    that set catalogue text: card names and labels in PT Sans, card texts in PT Serif, and the rulebook in
    every style of both).

    fontTools reads them; it is imported only when a text has a character outside SURELY_DRAWN, so
    the built-in catalogues never pay for it.
    """
    from fontTools.ttLib import TTFont

    coverage = {}
    for family, folder in FONT_FOLDERS.items():
        fonts = sorted(folder.glob("*.ttf"))
        tables = []
        for font_file in fonts:
            with TTFont(font_file, lazy=True) as font:
                tables.append(frozenset(font.getBestCmap()))
        coverage[family] = frozenset.intersection(*tables)
    return coverage


# Characters every style of PT Sans and PT Serif draws (ParaType made them for Russian): text made of
# these alone needs no look into the fonts. A test holds this set to the fonts' own tables.
SURELY_DRAWN = frozenset(
    [*range(0x20, 0x7F), 0xA0, 0xAB, 0xBB, 0xA9, 0xB0, 0xB7, 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D,
     0x201E, 0x2026, 0x2116, *(c for c in range(0x0401, 0x0460) if c not in (0x040D, 0x0450, 0x045D))]
)


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be printed as one line of a card or rulebook (None when it can):
    control and format characters, and characters the PT fonts have no glyph for (they would print
    as empty boxes)."""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cc" or category in ("Zl", "Zp"):
            return f"the control character U+{ord(char):04X} is not allowed (one line of plain text)"
        if category == "Cf":
            return f"the invisible format character U+{ord(char):04X} is not allowed"
    if SURELY_DRAWN.issuperset(map(ord, text)):
        return None
    coverage = font_coverage()
    missing = sorted({c for c in text if any(ord(c) not in drawn for drawn in coverage.values())})
    if not missing:
        return None
    families = [family for family, drawn in coverage.items() if any(ord(c) not in drawn for c in missing)]
    listed = ", ".join(f"'{printable(c)}' (U+{ord(c):04X})" for c in missing[:5]) + (", ..." if len(missing) > 5 else "")
    return f"{' and '.join(families)} cannot draw {listed}"


def printable(text: str) -> str:
    """``text`` with line breaks, tabs and other invisible characters written as escapes, so that a
    message stays one readable line whatever a file or option holds."""
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


def quote(text: str, mark: str = "'", limit: int = 40) -> str:
    """``text`` quoted for a message: one line, and cut after ``limit`` characters."""
    short = text if len(text) <= limit else text[:limit] + "…"
    return f"{mark}{printable(short)}{mark}"


def one_edit(name: str, other: str) -> bool:
    """Whether ``name`` becomes ``other`` by one edit, case aside: a letter added, dropped or changed, or
    two neighbours swapped (``Atr`` and ``art``, ``colur`` and ``colour``); or by case alone."""
    if name == other:
        return False
    a, b = name.casefold(), other.casefold()
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) != len(b):
        short, long = sorted((a, b), key=len)
        return any(long[:i] + long[i + 1:] == short for i in range(len(long)))
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                and a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]])


def meant(name: str, known) -> str | None:
    """The one name of ``known`` that ``name`` is one edit from (``one_edit``), or None."""
    close = sorted({other for other in known if one_edit(name, other)})
    return close[0] if len(close) == 1 else None


def did_you_mean(name: str, known) -> str:
    """``: did you mean 'art'?`` when ``name`` is one edit from a name of ``known``, else nothing."""
    other = meant(name, known)
    return f": did you mean '{other}'?" if other is not None else ""
