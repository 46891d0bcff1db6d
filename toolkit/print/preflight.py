"""``toolkit preflight PATH --target NAME``: does a file or folder meet a print service's or virtual
table's rules (``toolkit.print.targets`` and their published requirements)?

Preflight judges the files as the service would, whatever tool made them: it reads pixels with
Pillow and PDF objects with pypdf, never our exports' internals. A manifest beside the images
(``manifest.csv``, Screentop's JSON, a TTS saved object) is read for one thing only, which images
are tokens rather than cards; without one, a square image is taken for a token. Each check gives
one line (PASS, WARN or FAIL, what was checked, and for a FAIL the files and what is wrong); any
FAIL fails the whole run.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import math
import os
import re
import warnings
from dataclasses import asdict, dataclass, field
from functools import reduce
from pathlib import Path
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

import numpy as np
from PIL import Image, UnidentifiedImageError

from toolkit.cards.render import CARD_SIZES, parse_card_size
from toolkit.errors import UserError
from toolkit.print.targets import (DPI, DRIVETHRU_INK_LIMIT, TTS_MAX_COLS, TTS_MAX_PX, TTS_MAX_ROWS,
                                   VIRTUAL_SAFE_IN, CardSpec, Target, service_target)
from toolkit.typeset.units import MM_PER_INCH, PT_PER_MM

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
IMAGE_FORMATS = ("PNG", "JPEG")  # opened as these only: a file named .png that is PostScript is never run
LISTED = 4  # files named in one line before "and N more"


@dataclass(frozen=True)
class Check:
    status: str  # PASS, WARN or FAIL
    name: str    # what was checked
    detail: str


@dataclass
class PreflightResult:
    target: str
    path: str
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(check.status != "FAIL" for check in self.checks)

    def add(self, status: str, name: str, detail: str) -> None:
        self.checks.append(Check(status, name, detail))

    def judge(self, name: str, failures: list[str], passed: str, failed: str, warn: bool = False) -> None:
        """One line for a check over a group of files: PASS with ``passed``, or FAIL (WARN) with
        ``failed`` and the first few ``failures``."""
        if not failures:
            self.add("PASS", name, passed)
        else:
            self.add("WARN" if warn else "FAIL", name, f"{failed}: {_listed(failures)}")


def _count(number: int, noun: str, plural: str | None = None) -> str:
    """"1 image", "5 images": English's one and other."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _listed(items: list[str]) -> str:
    more = len(items) - LISTED
    return "; ".join(items[:LISTED]) + (f"; and {more} more" if more > 0 else "")


def report_lines(result: PreflightResult) -> list[str]:
    """One line per check, then a verdict."""
    lines = [f"{check.status} {check.name}: {check.detail}" for check in result.checks]
    failed = sum(check.status == "FAIL" for check in result.checks)
    service = service_target(result.target).service
    lines.append(f"{'PASS' if result.passed else 'FAIL'} {result.path}: "
                 + (f"ready for {service}" if result.passed else f"{_count(failed, 'check')} failed for {service}"))
    return lines


def report_json(result: PreflightResult) -> str:
    return json.dumps({"target": result.target, "path": result.path, "passed": result.passed,
                       "checks": [asdict(check) for check in result.checks]}, ensure_ascii=False)


def preflight(path: str | Path, target: str, card_size: str | None = None) -> PreflightResult:
    """Check ``path`` (a file or a folder of files) against ``target``'s rules. ``card_size`` is a
    preset or WxH in mm; None infers it (a print service: the size whose pixels the images have)."""
    service = service_target(target)
    path = Path(path)
    if not path.exists():
        raise UserError(f"{path}: no such file or folder")
    if not os.access(path, os.R_OK | (os.X_OK if path.is_dir() else 0)):
        raise UserError(f"{path}: cannot be read (permission denied)")
    if not (path.is_dir() or path.is_file()):
        raise UserError(f"{path}: not a regular file or folder")
    card_mm = parse_card_size(card_size) if card_size is not None else None
    spec = None
    if card_mm is not None:
        preset = card_size.strip().lower()
        spec = service.spec(preset if preset in CARD_SIZES else None, card_mm)
    result = PreflightResult(target, str(path))
    if service.kind == "pdf":
        _check_pdfs(result, service, path, spec)
    elif service.kind == "tts":
        _check_tts(result, service, path, card_mm)
    elif service.kind == "grid":
        _check_grid(result, service, path, card_mm)
    else:
        _check_png_set(result, service, path, spec, card_mm)
    return result


# --- files -----------------------------------------------------------------------------------------

def _files(path: Path, suffixes: tuple[str, ...]) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(entry for entry in path.iterdir() if entry.is_file() and entry.suffix.lower() in suffixes)


KEPT_PX = 48_000_000  # the decoded images of one check kept up to this many pixels (about 150 MB)


@dataclass(frozen=True)
class Picture:
    """One image file as first read (decoded whole, so a damaged file is caught). Its pixels are
    kept while the check's images together stay within ``KEPT_PX`` (a deck of some forty 300 DPI
    faces); past that, ``pixels()`` reads them again for the checks that look at them, one image at
    a time, so that a deck of hundreds of faces does not hold gigabytes."""

    path: Path
    size: tuple[int, int] = (0, 0)
    mode: str = ""
    format: str = ""
    info: dict = field(default_factory=dict)
    error: str = ""  # why it could not be read ("" when it could)
    kept: Image.Image | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.path.name

    def pixels(self) -> Image.Image:
        if self.kept is not None:
            return self.kept
        with Image.open(self.path, formats=IMAGE_FORMATS) as image:
            image.load()
            return image


def _open(path: Path, room: int = 0) -> Picture:
    """The image at ``path``, its pixels kept when they are ``room`` pixels or fewer."""
    try:
        with warnings.catch_warnings(), Image.open(path, formats=IMAGE_FORMATS) as image:
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # large, not a bomb: read it
            image.load()
            kept = image if image.width * image.height <= room else None
            return Picture(path, image.size, image.mode, image.format or "", dict(image.info), kept=kept)
    except (OSError, UnidentifiedImageError, Image.DecompressionBombError, ValueError) as err:
        return Picture(path, error=f"{path.name} cannot be read as an image ({err})")


def _read_images(result: PreflightResult, path: Path, service: Target, formats: tuple[str, ...]) -> list[Picture]:
    """The images of ``path``, after one line on the files themselves (found, readable, format)."""
    pictures, room = [], KEPT_PX
    for file in _files(path, IMAGE_SUFFIXES):
        pictures.append(_open(file, room))
        room -= pictures[-1].size[0] * pictures[-1].size[1] if pictures[-1].kept is not None else 0
    if not pictures:
        result.add("FAIL", "files", f"{path}: no PNG or JPEG images to check")
        return []
    bad = [p.error for p in pictures if p.error]
    bad += [f"{p.name} is {p.format}" for p in pictures if not p.error and p.format not in formats]
    result.judge("files", bad, f"{_count(len(pictures), 'image')}, {' or '.join(formats)}",
                 f"{service.service} takes {' or '.join(formats)} images")
    return [p for p in pictures if not p.error]


# What each target takes: file formats, colour modes (alpha: a transparent pixel would print white, or
# show the table through the card), and whether it reads the DPI field.
FORMATS = {"tgc": ("PNG",), "mpc": ("PNG", "JPEG"), "tabletopia": ("PNG", "JPEG"), "screentop": ("PNG", "JPEG"),
           "tts": ("PNG", "JPEG")}
MODES = {"tgc": ("RGB",), "mpc": ("RGB",), "tabletopia": ("RGB", "RGBA"), "screentop": ("RGB", "RGBA"),
         "tts": ("RGB", "RGBA")}
WANTS_DPI = ("tgc", "mpc")


def _mode(picture: Picture) -> str:
    """The colour mode as a service sees it: a palette image counts as RGB (RGBA if it has transparency)."""
    if picture.mode == "P":
        return "RGBA" if "transparency" in picture.info else "RGB"
    return picture.mode


def _check_modes(result: PreflightResult, service: Target, pictures: list[Picture]) -> None:
    modes = MODES[service.name]
    bad = [f"{p.name} is {p.mode}" for p in pictures if _mode(p) not in modes]
    takes = " or ".join(modes) + ("" if "RGBA" in modes else ", no alpha channel")
    result.judge("colour mode", bad, f"{_count(len(pictures), 'image')} {takes}", f"{service.service} takes {takes}")


def _check_dpi(result: PreflightResult, service: Target, pictures: list[Picture]) -> None:
    """The print services size a card by its pixels at 300 DPI, and the DPI field says so: a file
    that says another DPI (72, a screen's) fails, as it would print at another size from anything
    that reads the field and means it was made for another resolution. A file that says nothing
    is a warning only: the service still reads its pixels at 300 DPI. Virtual tables ignore the field."""
    if service.name not in WANTS_DPI:
        return
    wrong, missing = [], []
    for p in pictures:
        dpi = p.info.get("dpi")
        if not dpi:
            missing.append(p.name)
        elif any(abs(float(d) - DPI) > 0.5 for d in dpi):
            wrong.append(f"{p.name} says {float(dpi[0]):.0f} DPI")
    if wrong:
        result.add("FAIL", "dpi", f"{service.service} takes {DPI} DPI: {_listed(wrong)}"
                   + (f" ({_count(len(missing), 'image says', 'images say')} no DPI)" if missing else ""))
    elif missing:
        result.add("WARN", "dpi", f"{_count(len(missing), 'image says', 'images say')} no DPI "
                                  f"({service.service} reads the pixels at {DPI} DPI; other tools may take 72): "
                                  + _listed(missing))
    else:
        result.add("PASS", "dpi", f"{_count(len(pictures), 'image says', 'images say')} {DPI} DPI")


# --- pixel sizes -----------------------------------------------------------------------------------

def _json_objects(folder: Path):
    """Every JSON object (at any depth) of the JSON files in ``folder``; an unreadable file is
    skipped (the checks that need it say so)."""
    def visit(node):
        if isinstance(node, dict):
            yield node
            for value in node.values():
                yield from visit(value)
        elif isinstance(node, list):
            for value in node:
                yield from visit(value)

    for file in _files(folder, (".json",)):
        try:
            found = list(visit(json.loads(file.read_text(encoding="utf-8-sig"))))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            continue
        yield from found


def _declared_tokens(folder: Path) -> set[str] | None:
    """The names of the images a manifest beside them calls tokens, or None when there is no
    manifest: a ``manifest.csv`` with a ``side`` or ``kind`` column (token, or face, back...), a JSON
    file whose objects give a ``file`` and a ``kind`` (Screentop's), a TTS saved object's
    Custom_Tile images. A card may be square (``--card 70x70``): its shape cannot tell."""
    tokens, found = set(), False
    manifest = folder / "manifest.csv"
    if manifest.is_file():
        try:
            rows = list(csv.DictReader(io.StringIO(manifest.read_text(encoding="utf-8-sig"))))
        except (OSError, UnicodeDecodeError, csv.Error):
            rows = []
        column = next((c for c in ("side", "kind") if rows and c in rows[0]), None)
        if column is not None:
            found = True
            tokens |= {Path(row.get("file") or "").name for row in rows if (row.get(column) or "").strip() == "token"}

    for node in _json_objects(folder):
        if isinstance(node.get("file"), str) and isinstance(node.get("kind"), str):
            found = True
            if node["kind"] == "token":
                tokens.add(Path(node["file"]).name)
        if node.get("Name") == "Custom_Tile" and isinstance(node.get("CustomImage"), dict):
            found = True
            url = str(node["CustomImage"].get("ImageURL") or "")
            tokens.add(Path(unquote(urlparse(url).path)).name)
    return tokens if found else None


# The smallest token image that prints or shows as a token: half an inch at 300 DPI (The Game
# Crafter's smallest chit is 3/4 in; ours are 1 in and 25 mm)
TOKEN_MIN_PX = 150


def _split_tokens(result: PreflightResult, path: Path, pictures: list[Picture]) -> list[Picture]:
    """The card images of ``pictures``, after a line on the tokens among them: those a manifest
    names, or with no manifest the square images (no card size a print service offers is square).
    A token image smaller than ``TOKEN_MIN_PX`` on a side fails."""
    declared = _declared_tokens(path if path.is_dir() else path.parent)
    if declared is not None:
        tokens = [p for p in pictures if p.name in declared]
        how = "named tokens by the manifest"
    else:
        tokens = [p for p in pictures if p.size[0] == p.size[1]]
        how = "square, taken as tokens (no manifest names them)"
    if tokens:
        small = [f"{p.name} {p.size[0]} x {p.size[1]}" for p in tokens if min(p.size) < TOKEN_MIN_PX]
        result.judge("tokens", small, f"{_count(len(tokens), 'image')} {how}: "
                     + _listed([f"{p.name} {p.size[0]} x {p.size[1]}" for p in tokens]),
                     f"token images too small to print or show (at least {TOKEN_MIN_PX} x {TOKEN_MIN_PX} px, "
                     "half an inch at 300 DPI)")
    return [p for p in pictures if p not in tokens]


def _service_spec(result: PreflightResult, service: Target, cards: list[Picture], spec: CardSpec | None) -> CardSpec | None:
    """The card size the images are checked against: the one asked for, or the one the most images
    have. None (after a FAIL) when no image has a size the service takes."""
    if spec is None:
        by_px = {s.image_px: s for s in service.sizes.values()}
        sizes = [p.size for p in cards]
        matching = [size for size in sizes if size in by_px]
        if not matching:
            accepted = ", ".join(f"{s.size} {s.image_px[0]} x {s.image_px[1]}" for s in service.sizes.values())
            seen = ", ".join(sorted({f"{w} x {h}" for w, h in sizes}))
            result.add("FAIL", "size", f"no image has a card size {service.service} takes ({accepted} px); "
                                       f"found {seen} px")
            return None
        spec = by_px[max(set(matching), key=matching.count)]
    w, h = spec.image_px
    bad = [f"{p.name} is {p.size[0]} x {p.size[1]}" for p in cards if p.size != spec.image_px]
    result.judge("size", bad, f"{_count(len(cards), 'card image is', 'card images are')} {w} x {h} px ({spec.size}, bleed and trim included)",
                 f"{service.service} takes {w} x {h} px for {spec.size}")
    return spec


def _virtual_spec(result: PreflightResult, service: Target, cards: list[Picture], card_mm) -> CardSpec | None:
    """A virtual table takes any size, but every card image of a deck must have the same, and the
    card's proportions if a size was asked for; the safe zone is 1/16 in inside the edge."""
    sizes = [p.size for p in cards]
    common = max(set(sizes), key=sizes.count)
    bad = [f"{p.name} is {p.size[0]} x {p.size[1]}" for p in cards if p.size != common]
    result.judge("size", bad, f"{_count(len(cards), 'card image')}, all {common[0]} x {common[1]} px",
                 f"{service.service} takes one size for every image of a deck ({common[0]} x {common[1]} px here)")
    if card_mm is not None:
        want = card_mm[0] / card_mm[1]
        wrong = [f"{p.name} is {p.size[0]} x {p.size[1]}" for p in cards
                 if abs(p.size[0] / p.size[1] - want) > 0.01 * want]
        result.judge("proportions", wrong, f"the images have the card's proportions ({card_mm[0]:g} x {card_mm[1]:g} mm)",
                     f"not the proportions of a {card_mm[0]:g} x {card_mm[1]:g} mm card")
    return _cut_at_trim(common, card_mm)


def _cut_at_trim(size: tuple[int, int], card_mm) -> CardSpec:
    """The spec of an image cut at the trim: no bleed, the safe zone 1/16 in inside the edge. The
    card's width in mm is the one asked for, else the preset whose proportions are nearest."""
    if card_mm is None:
        card_mm = min(CARD_SIZES.values(), key=lambda mm: abs(mm[0] / mm[1] - size[0] / size[1]))
    px_per_in = size[0] / (card_mm[0] / MM_PER_INCH)
    return CardSpec(f"{card_mm[0]:g}x{card_mm[1]:g}", size, 0.0, VIRTUAL_SAFE_IN * px_per_in)


# --- bleed, safe zone and guide lines --------------------------------------------------------------

WHITE = 245          # a channel at least this light counts as paper white
OPAQUE = 250         # an alpha below this counts as transparent
EDGE_STEP = 48       # a step of this much (0-255, any channel) between neighbouring pixels is an edge
RUN_MM = 0.35        # lines of fine detail this deep past the safe line are text (about 1 pt)
EXTRA_EDGES = 6      # a line needs this many more edges than the card's own edge to count as busy
ACROSS_EDGES = 2     # a line across the margin needs this many more edges than the side's median one
WINDOW_MM = 6        # edges are counted within this length along a line (a word or two)
LONG_LINE_MM = 8     # a straight line crossing the band that runs on this far past the safe line is a frame


def _largest(values: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel (the last axis), taken pairwise: numpy's ``max`` over an axis of
    three or four is several times slower, and the checks take it thousands of times an image."""
    return reduce(np.maximum, (values[..., channel] for channel in range(values.shape[-1])))


def _rgba(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGBA"))


def _sides(pixels: np.ndarray, depth: int, span: int) -> dict[str, np.ndarray]:
    """The four bands along the image's sides, ``depth`` lines deep and (along the side) between
    ``span`` pixels from either corner, each as (line, position, channel) with line 0 at the edge."""
    h, w = pixels.shape[:2]
    return {
        "top": pixels[:depth, span:w - span],
        "bottom": pixels[h - 1:h - 1 - depth:-1, span:w - span],
        "left": pixels[span:h - span, :depth].transpose(1, 0, 2),
        "right": pixels[span:h - span, w - 1:w - 1 - depth:-1].transpose(1, 0, 2),
    }


def bleed_problem(image: Image.Image, spec: CardSpec) -> str | None:
    """Why the art does not reach the image's edge, or None. A side fails when its outermost line
    is (nearly) all white or transparent while the line just inside the trim is not: a white or
    clear frame printed in the bleed, which shows as a sliver when the cutter drifts. A card that
    is white to its edges passes (its art is white there)."""
    depth = math.ceil(spec.bleed_px) + 2
    pixels = _rgba(image)
    for side, band in _sides(pixels, depth, 0).items():
        def blank(line: np.ndarray) -> float:
            return float(np.mean((line[:, 3] < OPAQUE) | (line[:, :3].min(axis=1) >= WHITE)))
        if blank(band[0]) >= 0.95 and blank(band[depth - 1]) < 0.95:
            inner = next(d for d in range(depth) if blank(band[d]) < 0.95)
            return f"a white or transparent border {inner} px wide at the {side} (the art must reach the edge)"
        if strip := _strip(band, math.ceil(spec.bleed_px)):
            return (f"a strip {strip} px wide along the {side} edge that the art next to it does not cover "
                    f"(a shape meant to bleed stops {strip} px short of the edge)")
    return None


STRIP_ALONG = 0.3  # a strip runs along at least this share of its side


def _strip(band: np.ndarray, bleed: int) -> int | None:
    """The width of a strip along the image's edge, inside the bleed, that is not the art beside it:
    the outermost lines alike, and the next line differing from them along ``STRIP_ALONG`` of the side
    or more, in one stretch of that length (a band drawn from -3 mm on a 3.175 mm bleed leaves 2 px of
    ground at the edge). Art running into the bleed changes little from one line to the next."""
    lines = band[:bleed + 1, :, :3].astype(np.int16)
    for width in range(1, bleed):
        if np.mean(_largest(np.abs(lines[width - 1] - lines[0])) <= EDGE_STEP // 4) < 0.95:
            return None  # the outer lines are not one strip
        differs = _largest(np.abs(lines[width] - lines[width - 1])) > EDGE_STEP
        if _run_mask(differs, max(2, round(STRIP_ALONG * len(differs)))).any():
            return width
    return None


def _steps(band: np.ndarray) -> np.ndarray:
    """Where a line of ``band`` steps steeply (any channel, alpha included) between neighbours."""
    steps = _largest(np.abs(np.diff(band[:, :, :3].astype(np.int16), axis=1))) > EDGE_STEP
    return steps | (np.abs(np.diff(band[:, :, 3].astype(np.int16), axis=1)) > EDGE_STEP)


def _edges_per_line(steps: np.ndarray, window: int) -> np.ndarray:
    """The most edges each line crosses within ``window`` pixels along it (a run of steep steps is
    one edge): a word crosses many close together; a plain colour, a line running along the side,
    or the rounded corners of frames far apart cross few."""
    starts = np.zeros(steps.shape, dtype=np.int32)
    starts[:, 0] = steps[:, 0]
    starts[:, 1:] = steps[:, 1:] & ~steps[:, :-1]
    total = np.concatenate([np.zeros((len(steps), 1), dtype=np.int32), np.cumsum(starts, axis=1)], axis=1)
    window = min(window, steps.shape[1])
    return (total[:, window:] - total[:, :-window]).max(axis=1)


def _without_long_lines(steps: np.ndarray) -> np.ndarray:
    """``steps`` less those of straight lines crossing the band that run on, at the same place, to
    its inner end (a frame or panel outline, which runs far past the safe line; a stroke of text
    stops within a few millimetres)."""
    wide = steps.copy()  # a line one pixel off from one row to the next is still straight
    wide[:, 1:] |= steps[:, :-1]
    wide[:, :-1] |= steps[:, 1:]
    runs_on = np.logical_and.accumulate(wide[::-1], axis=0)[::-1]
    return steps & ~runs_on


def _px_per_mm(spec: CardSpec) -> float:
    """A print service's images are at ``DPI``; an image cut at the trim for a virtual table may
    be scaled (a deck sheet within 4096 px), its safe zone 1/16 in at that scale."""
    if spec.bleed_px == 0 and spec.safe_px > 0:
        return spec.safe_px / (VIRTUAL_SAFE_IN * MM_PER_INCH)
    return DPI / MM_PER_INCH


def safe_zone_problem(image: Image.Image, spec: CardSpec) -> str | None:
    """Where text or fine art lies past the safe line, or None.

    Each side's margin (from the image's edge to the safe line, less the corner squares, which
    lie outside the safe line on two sides) is read in two directions:

    * Along the side: every line of pixels parallel to the edge is scored by the most edges it
      crosses within ``WINDOW_MM`` (steps of ``EDGE_STEP`` or more), not counting straight lines
      that cross the margin and run on ``LONG_LINE_MM`` past the safe line (frames, panel
      outlines). Art that runs into the bleed crosses about as many edges at the image's edge as
      further in; a line of text running along the side crosses many more than the outermost
      lines. ``RUN_MM`` or more of consecutive lines with ``EXTRA_EDGES`` more edges than the
      outermost ones (and a quarter more) fail.
    * Across the side (a print service's image, whose margin holds the bleed and the safe
      margin): every line from the edge to the safe line is scored by the edges it crosses. A
      side's own art (a frame, a pattern running into the bleed) is much the same all along the
      side, so the median line is the reference; ``RUN_MM`` or more of neighbouring
      lines with ``ACROSS_EDGES`` more edges than the median (and a quarter more) fail: a line of
      text running off the left or right, even off the image's edge, or a badge with a picture or
      a number in it.

    The distance reported is from the safe line to the outermost pixel of the busy lines that
    differs from the side's own art.

    Limits: text whose colour is within ``EDGE_STEP`` of its background (light grey on white) is
    not seen; nor is smooth art without edges (a plain disc), a glyph or two (fewer edges than
    the thresholds), or text along a whole side that itself runs to the image's edge (then it is
    the side's own art). On an image cut at the trim for a virtual table (a margin of 1/16 in,
    where the card's own art often reaches the edge) only the first reading is made, so a line of
    text running off its left or right is not seen. A busy pattern that covers only part of a
    side, or stops short of the edge, can be taken for text.

    Measured on every export of both games (all targets, poker, bridge, mini, tarot, 70 x 70):
    none fails; 28 px text 2.5 mm past the line at the left or running off the right, a 120 px
    badge, and text 1.3 mm past the line at the top all fail, at the distance drawn."""
    safe = int(math.floor(spec.safe_px))
    if safe < 2:
        return None
    px_per_mm = _px_per_mm(spec)
    run = max(2, round(RUN_MM * px_per_mm))
    outer = max(1, min(3, safe // 4))
    window = max(4, round(WINDOW_MM * px_per_mm))
    depth_in = min(safe + round(LONG_LINE_MM * px_per_mm), min(spec.image_px) // 2)
    found = []  # (mm past the safe line, side, how it was seen)
    for side, band in _sides(_rgba(image), depth_in, safe).items():
        counts = _edges_per_line(_without_long_lines(_steps(band)), window)[:safe]
        base = int(counts[:outer].max())
        busy = counts > base * 1.25 + EXTRA_EDGES
        busy[:outer] = False
        depth = _first_run(busy, run)
        if depth is not None:
            while depth > outer and counts[depth - 1] > base:  # the text's outermost lines cross fewer edges
                depth -= 1
            found.append(((safe - depth) / px_per_mm, side,
                          f"{int(counts[depth:].max())} edges a line along the side, {base} at the card's edge"))
        if spec.bleed_px <= 0:
            continue  # an image cut at the trim: its margin is only the rounded corners' 1/16 in
        margin = band[:safe]
        across = _steps(margin.transpose(1, 0, 2))  # (position, depth): steps going inward
        starts = across[:, 1:] & ~across[:, :-1]
        edges = starts.sum(axis=1) + across[:, 0]
        typical = float(np.median(edges))
        busy = edges > typical * 1.25 + ACROSS_EDGES
        at = _first_run(busy, run)
        if at is not None:
            lines = np.flatnonzero(_run_mask(busy, run))
            depth = int(np.argmax(across[lines].any(axis=0))) if across[lines].any() else 0
            found.append(((safe - depth) / px_per_mm, side,
                          f"{int(edges[lines].max())} edges a line across the side, {typical:.0f} typically"))
    if not found:
        return None
    past, side, how = max(found)
    return f"text or fine art {past:.1f} mm past the safe line at the {side} ({how})"


def _run_mask(busy: np.ndarray, run: int) -> np.ndarray:
    """The entries of ``busy`` that belong to a run of at least ``run`` consecutive True."""
    padded = np.concatenate(([False], busy.astype(bool), [False]))
    change = np.flatnonzero(padded[1:] != padded[:-1])
    mask = np.zeros(len(busy), dtype=bool)
    for start, stop in zip(change[::2], change[1::2]):
        if stop - start >= run:
            mask[start:stop] = True
    return mask


def _first_run(busy: np.ndarray, run: int) -> int | None:
    """Where the first run of at least ``run`` consecutive True in ``busy`` starts, or None."""
    mask = _run_mask(busy, run)
    return int(np.argmax(mask)) if mask.any() else None


GUIDE_COVER = 0.4    # a guide's straight pieces cover this much of the line between the opposite guides
GUIDE_DASH_MM = 0.5  # ... in pieces at least this long (a dash; a stroke of text is shorter)


def guide_line_problem(image: Image.Image, spec: CardSpec) -> str | None:
    """A guide as templates draw them (a thin line at the trim or safe line: across the whole
    image, a rectangle at the trim or the safe line, dashed or not), or None. A row or column
    within 2 px of those lines is a guide where it differs from the pixels 2 px either side while
    those 3 px either side are alike (a line at most 3 px wide drawn over the art, not the outline
    of a panel, which has different colours either side), in straight
    pieces at least
    ``GUIDE_DASH_MM`` long that cover ``GUIDE_COVER`` or more of its length between the opposite
    lines, or across 95 % of the whole image at 3 px either side. Not seen: a dotted guide, a line
    in a colour within ``EDGE_STEP`` of the art, a guide drawn elsewhere."""
    pixels = np.asarray(image.convert("RGB")).astype(np.int16)
    h, w = pixels.shape[:2]
    dash = max(2, round(GUIDE_DASH_MM * _px_per_mm(spec)))
    for axis, length, name in ((0, h, "row"), (1, w, "column")):
        lines = pixels if axis == 0 else pixels.transpose(1, 0, 2)
        across = w if axis == 0 else h
        for at in sorted({round(spec.bleed_px), round(spec.safe_px)}):
            lo, hi = max(0, at - 2), min(across, across - at + 2)  # between the opposite lines
            for edge in (at, length - 1 - at):
                for pos in range(edge - 2, edge + 3):
                    if not 3 <= pos < length - 3:
                        continue
                    line = lines[pos]

                    def apart(gap: int) -> np.ndarray:
                        return (_largest(np.abs(line - lines[pos - gap])) > EDGE_STEP) & \
                               (_largest(np.abs(line - lines[pos + gap])) > EDGE_STEP)

                    if apart(3).mean() >= 0.95:
                        return f"a guide line across the image at {name} {pos}"
                    # drawn over the art: alike on both sides (the edge of a panel is not)
                    over = apart(2) & (_largest(np.abs(lines[pos - 3] - lines[pos + 3])) <= EDGE_STEP)
                    cover = _run_mask(over[lo:hi], dash).mean() if hi > lo else 0.0
                    if cover >= GUIDE_COVER:
                        lines_at = "trim" if at == round(spec.bleed_px) else "safe"
                        return f"a guide line at {name} {pos} ({cover:.0%} of its length between the {lines_at} lines)"
    return None


def _check_art(result: PreflightResult, service: Target, cards: list[Picture], spec_for) -> None:
    """Bleed, safe zone and guide lines of every card image; ``spec_for(picture)`` is its spec."""
    bleed, safe, guides = [], [], []
    for p in cards:
        spec = spec_for(p)
        if spec is None:
            continue
        image = p.pixels()
        if spec.bleed_px > 0 and (problem := bleed_problem(image, spec)):
            bleed.append(f"{p.name}: {problem}")
        if problem := safe_zone_problem(image, spec):
            safe.append(f"{p.name}: {problem}")
        if service.name == "tgc" and (problem := guide_line_problem(image, spec)):
            guides.append(f"{p.name}: {problem}")
    if service.sizes is not None:
        result.judge("bleed", bleed, f"the art of {_count(len(cards), 'card image')} reaches the edge",
                     "art that stops short of the edge")
    result.judge("safe zone", safe, f"no text or fine art past the safe line in {_count(len(cards), 'card image')}",
                 f"{service.service} may cut or hide it")
    if service.name == "tgc":
        result.judge("guide lines", guides, "none", "The Game Crafter prints them")


# --- PNG sets: tgc, mpc, tabletopia -------------------------------------------------------------------

def _check_png_set(result: PreflightResult, service: Target, path: Path, spec: CardSpec | None, card_mm) -> None:
    pictures = _read_images(result, path, service, FORMATS[service.name])
    if not pictures:
        return
    _check_modes(result, service, pictures)
    _check_dpi(result, service, pictures)
    cards = _split_tokens(result, path, pictures)
    if not cards:
        result.add("FAIL", "size", "no card images (every image is a token)")
        return
    if service.sizes is None:
        common = _virtual_spec(result, service, cards, card_mm)
        _check_art(result, service, cards, lambda p: common if p.size == common.image_px else None)
        return
    spec = _service_spec(result, service, cards, spec)
    if spec is not None:
        _check_art(result, service, cards, lambda p: spec if p.size == spec.image_px else None)


# --- DriveThruCards: one PDF/X-1a file -------------------------------------------------------------

PT_PER_IN = 72
WHITE_BORDER_PT = PT_PER_MM  # art stopping 1 mm or more inside the trim: a white border by design
BOX_SLACK_PT = 0.5   # page boxes are compared to within half a point
PDFX_VERSIONS = ("PDF/X-1a:2001", "PDF/X-1a:2003")


def _check_pdfs(result: PreflightResult, service: Target, path: Path, spec: CardSpec | None) -> None:
    files = _files(path, (".pdf",))
    if not files:
        result.add("FAIL", "files", f"{path}: no PDF to check ({service.service} takes one PDF per deck)")
        return
    result.add("PASS" if len(files) == 1 else "WARN", "files",
               f"{_count(len(files), 'PDF file')}: " + _listed([f.name for f in files])
               + ("" if len(files) == 1 else f" ({service.service} takes one PDF per deck: each checked on its own)"))
    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.CRITICAL)  # a damaged file is one FAIL line, not pypdf's log on stderr
    try:
        for file in files:
            _check_pdf(result, service, file, spec)
    finally:
        pypdf_log.setLevel(level)


def _check_pdf(result: PreflightResult, service: Target, file: Path, spec: CardSpec | None) -> None:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    name = file.name
    try:
        reader = PdfReader(file)
        if reader.is_encrypted:
            result.add("FAIL", "pdf", f"{name} is encrypted (PDF/X forbids it)")
            return
        pages = list(reader.pages)
    except (PyPdfError, OSError, ValueError, KeyError) as err:
        result.add("FAIL", "pdf", f"{name} cannot be read as a PDF ({err})")
        return
    if not pages:
        result.add("FAIL", "pdf", f"{name} has no pages")
        return
    try:
        spec = _pdf_boxes(result, service, name, pages, spec)
        walk = _PdfWalk()
        for number, page in enumerate(pages, start=1):
            walk.page(page, number)
        walk.report(result, name)
        _pdf_bleed_and_safe(result, service, name, pages, walk, spec)
        _pdfx_keys(result, name, reader)
        _actions(result, name, reader)
        _page_order(result, name, pages)
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as err:
        result.add("FAIL", "pdf", f"{name}: a damaged PDF object ({type(err).__name__}: {err})")


def _box(page, key: str):
    box = page.get(key)
    return None if box is None else tuple(float(v) for v in page[key])


def _pdf_boxes(result: PreflightResult, service: Target, name: str, pages, spec: CardSpec | None) -> CardSpec | None:
    """Page size per card size (the MediaBox is the card with its bleed), TrimBox and BleedBox on
    every page, the trim inset by the bleed."""
    sizes = {}  # (width, height) in pt -> the numbers of the pages of that size
    for number, page in enumerate(pages, start=1):
        media = _box(page, "/MediaBox")
        sizes.setdefault((round(media[2] - media[0], 1), round(media[3] - media[1], 1)), []).append(number)
    if spec is None:  # the size whose page the first page has
        first = next(iter(sizes))
        spec = next((s for s in service.sizes.values()
                     if all(abs(a - px / DPI * PT_PER_IN) <= BOX_SLACK_PT for a, px in zip(first, s.image_px))), None)
        if spec is None:
            accepted = ", ".join(f"{s.size} {s.image_px[0] / DPI:g} x {s.image_px[1] / DPI:g} in"
                                 for s in service.sizes.values())
            result.add("FAIL", "page size", f"{name}: pages of {first[0] / PT_PER_IN:.3g} x {first[1] / PT_PER_IN:.3g} in; "
                                            f"{service.service} takes {accepted} (the bleed included)")
            return None
    want = tuple(px / DPI * PT_PER_IN for px in spec.image_px)
    bad = [f"{_count(len(numbers), 'page')} from page {numbers[0]} are {w / PT_PER_IN:.3g} x {h / PT_PER_IN:.3g} in"
           for (w, h), numbers in sizes.items() if any(abs(a - b) > BOX_SLACK_PT for a, b in zip((w, h), want))]
    result.judge("page size", bad, f"{name}: {_count(len(pages), 'page')} of {want[0] / PT_PER_IN:g} x {want[1] / PT_PER_IN:g} in "
                                   f"({spec.size} with {spec.bleed_px / DPI:g} in bleed)",
                 f"{name}: {service.service} takes {want[0] / PT_PER_IN:g} x {want[1] / PT_PER_IN:g} in pages")
    bleed_pt = spec.bleed_px / DPI * PT_PER_IN
    bad = []
    for number, page in enumerate(pages, start=1):
        trim, bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
        missing = [key for key, box in (("TrimBox", trim), ("BleedBox", bleed)) if box is None]
        if missing:
            bad.append(f"page {number} has no {' or '.join(missing)}")
        elif any(abs(abs(t - b) - bleed_pt) > BOX_SLACK_PT for t, b in zip(trim, bleed)):
            bad.append(f"page {number}: TrimBox {_pts(trim)} is not {bleed_pt / PT_PER_IN:g} in inside BleedBox {_pts(bleed)}")
    result.judge("page boxes", bad, f"{name}: TrimBox and BleedBox on every page, {bleed_pt / PT_PER_IN:g} in apart",
                 f"{name}: DriveThruCards cuts at the TrimBox")
    return spec


def _pdf_bleed_and_safe(result: PreflightResult, service: Target, name: str, pages, walk, spec: CardSpec | None) -> None:
    """The art (images and filled paths, within their clips) that reaches the TrimBox runs on to the
    BleedBox, or the bleed prints white where the cutter drifts; art that stops more than
    ``WHITE_BORDER_PT`` inside the trim is a card with a white border of its own (as on a page of
    tokens), which is not a fault. Every run of text lies inside
    the safe zone, the TrimBox inset by the service's safe margin for the card size. A run's box is
    approximated from the font's widths and ascent (``_TextState``); a glyph's real outline is a
    little smaller, so a run just inside the line can be reported past it by a point or so."""
    short, past, seen = [], [], {}
    margin = (spec.safe_px - spec.bleed_px) / DPI * PT_PER_IN if spec is not None else None
    for number, page in enumerate(pages, start=1):
        bleed, trim = _box(page, "/BleedBox") or _box(page, "/MediaBox"), _box(page, "/TrimBox")
        art = walk.art.get(number)
        if art is not None and trim is not None:
            gaps = {"left": art[0] - bleed[0], "bottom": art[1] - bleed[1],
                    "right": bleed[2] - art[2], "top": bleed[3] - art[3]}
            inset = {"left": trim[0] - bleed[0], "bottom": trim[1] - bleed[1],
                     "right": bleed[2] - trim[2], "top": bleed[3] - trim[3]}
            sides = [side for side, gap in gaps.items() if BOX_SLACK_PT < gap <= inset[side] + WHITE_BORDER_PT]
            if sides:
                short.append(f"page {number}: the art stops {max(gaps[side] for side in sides):.1f} pt short of "
                             f"the BleedBox at the {', '.join(sides)}")
        if trim is None or margin is None:
            continue
        safe = (trim[0] + margin, trim[1] + margin, trim[2] - margin, trim[3] - margin)
        worst = None
        for box, font, size in walk.text.get(number, []):
            over = max(safe[0] - box[0], safe[1] - box[1], box[2] - safe[2], box[3] - safe[3])
            if over > BOX_SLACK_PT and (worst is None or over > worst[0]):
                edge = min(box[0] - bleed[0], box[1] - bleed[1], bleed[2] - box[2], bleed[3] - box[3])
                worst = (over, font, size, edge)
        if worst is not None:
            over, font, size, edge = worst
            past.append(f"page {number}: text in {font} {size:.1f} pt {over:.1f} pt past the safe line "
                        f"({edge:.1f} pt from the page's edge)")
        for box, xobject in walk.pictures.get(number, []):
            if problem := _picture_safe_zone(box, xobject, bleed, trim, margin, seen):
                past.append(f"page {number}: in the picture under the card, {problem}")
    result.judge("bleed", short, f"{name}: the art reaches the BleedBox on every side of {_count(len(pages), 'page')}",
                 f"{name}: the bleed would print white")
    if margin is not None:
        texts = sum(len(runs) for runs in walk.text.values())
        result.judge("safe zone", past, f"{name}: {_count(texts, 'run')} of text, all inside the safe zone "
                                        f"({margin / PT_PER_IN:g} in inside the TrimBox)",
                     f"{name}: {service.service} may cut it")


def _picture_safe_zone(box, xobject, bleed, trim, margin: float, seen: dict) -> str | None:
    """The pixel check of a PNG card (``safe_zone_problem``) on a picture that covers the page's
    BleedBox (a card's ground: its art, with what the art itself shows past the safe line), so that a
    back or face judged on a PDF is judged as its image is at The Game Crafter; None for a picture
    that covers less (a picture in a box, an icon: those are placed by a layout inside its safe zone)."""
    if any(abs(a - b) > BOX_SLACK_PT for a, b in zip(box, bleed)):
        return None
    key = getattr(xobject, "indirect_reference", None) or id(xobject)
    if key not in seen:
        image = xobject.decode_as_image()
        per_pt = image.width / (box[2] - box[0])
        bleed_px = min(trim[0] - box[0], trim[1] - box[1], box[2] - trim[2], box[3] - trim[3]) * per_pt
        card = CardSpec("page", image.size, bleed_px, bleed_px + margin * per_pt)
        seen[key] = safe_zone_problem(image.convert("RGB"), card)
    return seen[key]


def _pts(box) -> str:
    return "[" + " ".join(f"{v:g}" for v in box) + "]"


def _colour_kind(space, resources=None, depth: int = 0) -> str:
    """rgb, cmyk, gray, spot, pattern or other (Lab, CalRGB...) for a colour space object or name."""
    from pypdf.generic import ArrayObject, NameObject

    space = space.get_object() if hasattr(space, "get_object") else space
    if isinstance(space, NameObject) or isinstance(space, str):
        name = str(space)
        device = {"/DeviceRGB": "rgb", "/RGB": "rgb", "/DeviceCMYK": "cmyk", "/CMYK": "cmyk", "/DeviceGray": "gray",
                  "/G": "gray", "/Pattern": "pattern"}
        if name in device:
            return device[name]
        named = resources.get("/ColorSpace", {}) if resources is not None else {}
        named = named.get_object() if hasattr(named, "get_object") else named
        if name in named and depth < 4:
            return _colour_kind(named[name], resources, depth + 1)
        return "other"
    if isinstance(space, ArrayObject) and space:
        family = str(space[0])
        if family == "/ICCBased":
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(int(space[1].get_object().get("/N", 0)), "other")
        if family in ("/Indexed", "/I") and depth < 4:
            return _colour_kind(space[1], resources, depth + 1)
        if family in ("/Separation", "/DeviceN"):
            return "spot"
        if family == "/CalRGB":
            return "rgb"
        if family == "/CalGray":
            return "gray"
        if family == "/Pattern":
            return "pattern"
        if len(space) == 1:
            return _colour_kind(space[0], resources, depth + 1)
    return "other"


def _named(resources, kind: str, name):
    """The resource ``name`` of ``kind`` (/XObject, /Shading...), or None."""
    holder = resources.get(kind) if resources is not None else None
    holder = holder.get_object() if holder is not None else None
    return holder.get(name) if holder is not None else None


def _multiply(m, n):
    """The matrix product m x n of PDF matrices [a b c d e f]."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) through the PDF matrix m."""
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _scale(m) -> float:
    """How much the matrix m enlarges a length (the mean of its two axes)."""
    return (math.hypot(m[0], m[1]) + math.hypot(m[2], m[3])) / 2


def _bounds(points) -> tuple[float, float, float, float] | None:
    if not points:
        return None
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _intersect(box, clip):
    """``box`` within ``clip`` (None: no clip), or None when nothing is left."""
    if box is None or clip is None:
        return box
    x0, y0, x1, y1 = max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _union(box, other):
    if box is None:
        return other
    return min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]), max(box[3], other[3])


class _TextState:
    """The text state of one content stream, enough to place each run of text: the text and line
    matrices, font and size, leading, spacing, scaling and rise. A run's box is its advance (from
    the font's widths; half an em a glyph where the font gives none) by the font's ascent and
    descent (0.8 and 0.25 em where it gives none): an approximation of the glyphs' outlines."""

    OPERATORS = {b"BT", b"Tf", b"TL", b"Tc", b"Tw", b"Tz", b"Ts", b"Td", b"TD", b"Tm", b"T*", b"Tj", b"TJ",
                 b"'", b'"'}

    def __init__(self) -> None:
        self.tm = self.tlm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.font, self.name, self.size = None, "", 0.0
        self.leading = self.char_spacing = self.word_spacing = self.rise = 0.0
        self.scaling = 1.0

    def apply(self, op: bytes, operands, resources):
        """Apply one text operator; for one that shows text, (box in user space, font, size)."""
        if op == b"BT":
            self.tm = self.tlm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        elif op == b"Tf":
            self.name, self.size = str(operands[0]), float(operands[1])
            font = _named(resources, "/Font", operands[0])
            self.font = font.get_object() if font is not None else None
        elif op in (b"TL", b"Tc", b"Tw", b"Ts"):
            setattr(self, {b"TL": "leading", b"Tc": "char_spacing", b"Tw": "word_spacing", b"Ts": "rise"}[op],
                    float(operands[0]))
        elif op == b"Tz":
            self.scaling = float(operands[0]) / 100
        elif op in (b"Td", b"TD"):
            tx, ty = float(operands[0]), float(operands[1])
            if op == b"TD":
                self.leading = -ty
            self._line(tx, ty)
        elif op == b"Tm":
            self.tm = self.tlm = tuple(float(v) for v in operands)
        elif op == b"T*":
            self._line(0, -self.leading)
        elif op in (b"Tj", b"'", b'"'):
            if op == b'"':
                self.word_spacing, self.char_spacing = float(operands[0]), float(operands[1])
            if op != b"Tj":
                self._line(0, -self.leading)
            return self._show([operands[-1]])
        elif op == b"TJ":
            return self._show(list(operands[0]))
        return None

    def _line(self, tx: float, ty: float) -> None:
        self.tlm = _multiply((1, 0, 0, 1, tx, ty), self.tlm)
        self.tm = self.tlm

    def _show(self, items):
        start = self.tm
        width = 0.0
        for item in items:
            if isinstance(item, (bytes, str)) or hasattr(item, "original_bytes"):
                width += self._advance(item)
            else:
                width -= float(item) / 1000 * self.size * self.scaling
        ascent, descent = self._metrics()
        box = (min(0.0, width), self.rise + descent * self.size, max(0.0, width), self.rise + ascent * self.size)
        self.tm = _multiply((1, 0, 0, 1, width, 0), self.tm)
        corners = [_apply(start, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
        return _bounds(corners), self.name, self.size * _scale(start)

    def _advance(self, string) -> float:
        data = string.original_bytes if hasattr(string, "original_bytes") else \
            (string.encode("latin-1", "replace") if isinstance(string, str) else bytes(string))
        font = self.font or {}
        composite = font.get("/Subtype") == "/Type0"
        codes = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)] if composite else list(data)
        widths = self._widths()
        total = 0.0
        for code in codes:
            glyph = widths(code) / 1000 * self.size + self.char_spacing
            if not composite and code == 32:
                glyph += self.word_spacing
            total += glyph * self.scaling
        return total

    def _widths(self):
        """code -> width in thousandths of an em, from the font's /Widths (simple) or /W (CID)."""
        font = self.font or {}
        if font.get("/Subtype") == "/Type0":
            cid = font["/DescendantFonts"][0].get_object()
            table, default, w = {}, float(cid.get("/DW", 1000)), list(cid.get("/W", []))
            i = 0
            while i + 1 < len(w):
                first = int(w[i])
                if isinstance(w[i + 1].get_object() if hasattr(w[i + 1], "get_object") else w[i + 1], list):
                    for k, value in enumerate(w[i + 1].get_object() if hasattr(w[i + 1], "get_object") else w[i + 1]):
                        table[first + k] = float(value)
                    i += 2
                elif i + 2 < len(w):
                    for code in range(first, int(w[i + 1]) + 1):
                        table[code] = float(w[i + 2])
                    i += 3
                else:
                    break
            return lambda code: table.get(code, default)
        widths = font.get("/Widths")
        widths = [float(v) for v in widths.get_object()] if widths is not None else []
        first = int(font.get("/FirstChar", 0))
        return lambda code: widths[code - first] if 0 <= code - first < len(widths) else 500.0

    def _metrics(self) -> tuple[float, float]:
        font = self.font or {}
        if font.get("/Subtype") == "/Type0":
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        ascent = float(descriptor.get("/Ascent", 800)) / 1000 or 0.8
        descent = float(descriptor.get("/Descent", -250)) / 1000
        return ascent, min(descent, 0.0)


@dataclass
class _PdfWalk:
    """Everything the content streams draw: colour operators, images (with the size they are drawn
    at), fonts, and transparency, gathered over every page and the forms it draws."""

    rgb: list[str] = field(default_factory=list)          # where an RGB (or Lab...) colour is set or drawn
    images: int = 0
    low_dpi: list[str] = field(default_factory=list)
    min_dpi: float = math.inf
    max_ink: float = 0.0
    inks: int = 0                                         # CMYK colours and images measured
    ink_where: str = ""
    fonts: dict[str, str] = field(default_factory=dict)  # font name -> problem ("" when fine)
    transparency: list[str] = field(default_factory=list)
    art: dict[int, tuple] = field(default_factory=dict)   # page number -> the box the images and fills cover
    text: dict[int, list] = field(default_factory=dict)   # page number -> [(box, font name, size)] per run
    pictures: dict[int, list] = field(default_factory=dict)  # page number -> [(box, image object)] drawn upright
    _seen_inks: dict = field(default_factory=dict)
    _page: int = 0

    def page(self, page, number: int) -> None:
        self._page = number
        self._content(page.get_contents(), page.get("/Resources"), (1, 0, 0, 1, 0, 0), f"page {number}", 0, page.pdf)

    def _paint(self, box, clip) -> None:
        """Art covering ``box`` (page space, within ``clip``) was drawn on the current page."""
        box = _intersect(box, clip)
        if box is not None:
            self.art[self._page] = _union(self.art.get(self._page), box)

    def _content(self, content, resources, ctm, where: str, depth: int, reader, clip=None) -> None:
        from pypdf.generic import ContentStream

        if content is None or depth > 8:
            return
        resources = resources.get_object() if resources is not None else {}
        if not isinstance(content, ContentStream):
            content = ContentStream(content, reader)
        self._fonts(resources)
        fill = stroke = "gray"
        stack = []
        path, clipping = [], False  # the current path's points in page space; a W or W* pending
        text = _TextState()
        for operands, op in content.operations:
            if op == b"q":
                stack.append((ctm, fill, stroke, clip))
            elif op == b"Q" and stack:
                ctm, fill, stroke, clip = stack.pop()
            elif op == b"cm":
                ctm = _multiply(tuple(float(v) for v in operands), ctm)
            elif op in (b"m", b"l", b"c", b"v", b"y"):
                numbers = [float(v) for v in operands]
                path += [_apply(ctm, x, y) for x, y in zip(numbers[::2], numbers[1::2])]
            elif op == b"re":
                x, y, w, h = (float(v) for v in operands)
                path += [_apply(ctm, x + dx, y + dy) for dx in (0, w) for dy in (0, h)]
            elif op in (b"W", b"W*"):
                clipping = True
            elif op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"S", b"s", b"n"):
                box = _bounds(path)
                if box is not None and op not in (b"S", b"s", b"n"):
                    self._paint(box, clip)
                if clipping:
                    clip = _intersect(box, clip) if box is not None else clip
                path, clipping = [], False
            elif op in _TextState.OPERATORS:
                shown = text.apply(op, operands, resources)
                if shown is not None:
                    box, font, size = shown
                    corners = [_apply(ctm, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
                    self.text.setdefault(self._page, []).append((_bounds(corners), font, size * _scale(ctm)))
            elif op in (b"rg", b"RG"):
                self.rgb.append(f"{where}: '{op.decode()}' sets an RGB colour")
            elif op in (b"k", b"K"):
                self._ink(sum(float(v) for v in operands) * 100, f"{where}: '{op.decode()}' colour")
            elif op in (b"cs", b"CS"):
                kind = _colour_kind(operands[0], resources)
                fill, stroke = (kind, stroke) if op == b"cs" else (fill, kind)
                if kind not in ("cmyk", "gray", "spot", "pattern"):
                    self.rgb.append(f"{where}: colour space {operands[0]} is {kind}")
            elif op in (b"sc", b"scn", b"SC", b"SCN"):
                kind = fill if op in (b"sc", b"scn") else stroke
                numbers = [float(v) for v in operands if not hasattr(v, "startswith")]
                if kind == "cmyk" and len(numbers) == 4:
                    self._ink(sum(numbers) * 100, f"{where}: '{op.decode()}' colour")
            elif op == b"sh":
                shading = _named(resources, "/Shading", operands[0])
                if shading is not None:
                    kind = _colour_kind(shading.get_object().get("/ColorSpace"), resources)
                    if kind not in ("cmyk", "gray", "spot"):
                        self.rgb.append(f"{where}: shading {operands[0]} is {kind}")
            elif op == b"gs":
                state = _named(resources, "/ExtGState", operands[0])
                state = state.get_object() if state is not None else {}
                if state.get("/SMask") not in (None, "/None") or any(
                        float(state.get(key, 1)) < 1 for key in ("/CA", "/ca")):
                    self.transparency.append(f"{where}: graphics state {operands[0]}")
            elif op == b"Do":
                xobject = _named(resources, "/XObject", operands[0])
                if xobject is not None:
                    self._xobject(xobject.get_object(), resources, ctm, where, depth, reader, str(operands[0]), clip)
            elif op == b"INLINE IMAGE":
                settings = operands.get("settings", {})
                space = settings.get("/CS", settings.get("/ColorSpace"))
                self._image(None, settings, space, resources, ctm, f"{where}: an inline image", clip)

    def _xobject(self, xobject, resources, ctm, where: str, depth: int, reader, name: str, clip=None) -> None:
        subtype = xobject.get("/Subtype")
        if subtype == "/Image":
            self._image(xobject, xobject, xobject.get("/ColorSpace"), resources, ctm, f"{where}: image {name}", clip)
        elif subtype == "/Form":
            matrix = tuple(float(v) for v in xobject.get("/Matrix", (1, 0, 0, 1, 0, 0)))
            if "/Group" in xobject and xobject["/Group"].get_object().get("/S") == "/Transparency":
                self.transparency.append(f"{where}: form {name} is a transparency group")
            inner = _multiply(matrix, ctm)
            if "/BBox" in xobject:  # a form draws nothing outside its box
                x0, y0, x1, y1 = (float(v) for v in xobject["/BBox"])
                clip = _intersect(_bounds([_apply(inner, x, y) for x in (x0, x1) for y in (y0, y1)]), clip)
            self._content(xobject, xobject.get("/Resources", resources), inner,
                          f"{where}, form {name}", depth + 1, reader, clip)

    def _image(self, xobject, settings, space, resources, ctm, where: str, clip=None) -> None:
        self._paint(_bounds([_apply(ctm, x, y) for x in (0, 1) for y in (0, 1)]), clip)
        if xobject is not None and ctm[0] > 0 and ctm[3] > 0 and abs(ctm[1]) + abs(ctm[2]) < 1e-9:
            self.pictures.setdefault(self._page, []).append((_bounds([_apply(ctm, x, y) for x in (0, 1) for y in (0, 1)]),
                                                             xobject))
        if settings.get("/ImageMask", settings.get("/IM")) is True:
            return  # a stencil: painted in the fill colour, which is checked where it is set
        self.images += 1
        kind = _colour_kind(space, resources) if space is not None else "other"
        if kind not in ("cmyk", "gray", "spot"):
            self.rgb.append(f"{where} is {kind}")
        if "/SMask" in settings:
            self.transparency.append(f"{where} has a soft mask")
        width = float(settings.get("/Width", settings.get("/W", 0)))
        height = float(settings.get("/Height", settings.get("/H", 0)))
        a, b, c, d = ctm[:4]
        drawn = (math.hypot(a, b) / PT_PER_IN, math.hypot(c, d) / PT_PER_IN)
        if all(drawn):
            dpi = min(width / drawn[0], height / drawn[1])
            self.min_dpi = min(self.min_dpi, dpi)
            if dpi < DPI - 0.5:
                self.low_dpi.append(f"{where} at {dpi:.0f} DPI")
        if kind == "cmyk" and xobject is not None:
            self._image_ink(xobject, where)

    def _image_ink(self, xobject, where: str) -> None:
        """The most ink on any pixel (C + M + Y + K, per cent), read from the decoded image; an image
        of more than about a million pixels is sampled on a grid. Decoded once per image object."""
        key = getattr(xobject, "indirect_reference", None) or id(xobject)
        if key in self._seen_inks:
            ink = self._seen_inks[key]
        else:
            image = xobject.decode_as_image()
            if image.mode != "CMYK":
                return
            step = max(1, math.isqrt(image.width * image.height // 1_000_000))
            pixels = np.asarray(image)[::step, ::step].astype(np.int32)
            ink = float(pixels.sum(axis=2).max()) / 255 * 100
            self._seen_inks[key] = ink
        self._ink(ink, where)

    def _ink(self, ink: float, where: str) -> None:
        self.inks += 1
        if ink > self.max_ink:
            self.max_ink, self.ink_where = ink, where

    def _fonts(self, resources) -> None:
        fonts = resources.get("/Font")
        if fonts is None:
            return
        for font in fonts.get_object().values():
            font = font.get_object()
            name = str(font.get("/BaseFont", font.get("/Name", "(unnamed)")))
            if name in self.fonts:
                continue
            subtype = font.get("/Subtype")
            if subtype == "/Type3":
                self.fonts[name] = f"{name} is a Type 3 font"
                continue
            if subtype == "/Type0":
                font = font["/DescendantFonts"][0].get_object()
            descriptor = font.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            self.fonts[name] = "" if embedded else f"{name} is not embedded"

    def report(self, result: PreflightResult, name: str) -> None:
        result.judge("colour", list(dict.fromkeys(self.rgb)), f"{name}: only CMYK, gray and spot colours, images included",
                     f"{name}: DriveThruCards prints CMYK (PDF/X-1a has no RGB)")
        if self.images:
            result.judge("image resolution", self.low_dpi,
                         f"{name}: {_count(self.images, 'image')}, at least {self.min_dpi:.0f} DPI as drawn",
                         f"{name}: images below {DPI} DPI as drawn")
        limit = DRIVETHRU_INK_LIMIT
        if not self.inks:
            result.add("PASS", "ink", f"{name}: no CMYK colour or image, so no ink to measure (limit {limit} %)")
        elif self.max_ink > limit + 0.5:
            result.add("FAIL", "ink", f"{name}: {self.max_ink:.0f} % of ink at most ({self.ink_where}); "
                                      f"DriveThruCards takes at most {limit} %")
        else:
            result.add("PASS", "ink", f"{name}: at most {self.max_ink:.0f} % of ink over "
                                      f"{_count(self.inks, 'CMYK colour or image', 'CMYK colours and images')} "
                                      f"(limit {limit} %)")
        bad = [problem for problem in self.fonts.values() if problem]
        result.judge("fonts", bad, f"{name}: {_count(len(self.fonts), 'font')}, all embedded, none Type 3",
                     f"{name}: every font must be embedded, none Type 3")
        result.judge("transparency", self.transparency, f"{name}: none (PDF/X-1a forbids it)",
                     f"{name}: PDF/X-1a forbids transparency")


def _pdfx_keys(result: PreflightResult, name: str, reader) -> None:
    """GTS_PDFXVersion and Trapped in the Info dictionary, an OutputIntent of subtype GTS_PDFX with
    a CMYK DestOutputProfile or a registered condition, and a PDF version of at most 1.4."""
    problems = []
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else {}
    version = str(info.get("/GTS_PDFXVersion", ""))
    if version not in PDFX_VERSIONS:
        problems.append(f"GTS_PDFXVersion is {version or 'missing'} (want {' or '.join(PDFX_VERSIONS)})")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        problems.append(f"Trapped is {info.get('/Trapped') or 'missing'} (want True or False)")
    if not str(info.get("/Title", "")).strip():
        problems.append("no Title")
    header = reader.pdf_header.lstrip("%PDF-")
    if header > "1.4":
        problems.append(f"PDF {header} (PDF/X-1a:2003 is PDF 1.4 at most)")
    intents = reader.trailer["/Root"].get_object().get("/OutputIntents")
    intents = [i.get_object() for i in intents.get_object()] if intents is not None else []
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    if not pdfx:
        problems.append("no OutputIntent of subtype GTS_PDFX")
    else:
        intent = pdfx[0]
        profile = intent.get("/DestOutputProfile")
        condition = str(intent.get("/OutputConditionIdentifier", ""))
        if profile is not None:
            if int(profile.get_object().get("/N", 0)) != 4:
                problems.append("the OutputIntent's DestOutputProfile is not a CMYK profile")
        elif not (condition and str(intent.get("/RegistryName", ""))):
            problems.append("the OutputIntent has neither a DestOutputProfile nor a registered condition "
                            "(OutputConditionIdentifier and RegistryName)")
        if not condition:
            problems.append("the OutputIntent has no OutputConditionIdentifier")
    detail = f"{name}: {version}, output intent " + (
        str(pdfx[0].get("/OutputConditionIdentifier", "")) if pdfx else "none")
    result.judge("pdf/x", problems, detail, f"{name}: not PDF/X-1a")
    condition = str(pdfx[0].get("/OutputConditionIdentifier", "")).strip() if pdfx else ""
    if pdfx and not registered_condition(condition):
        described = str(pdfx[0].get("/OutputCondition", "") or pdfx[0].get("/Info", "")).strip()
        said = f"'{condition}'" + (f" ('{described}')" if described and described != condition else "") \
            if condition else "none"
        result.add("WARN", "output condition", f"{name}: output condition {said} is not a registered printing "
                                               "condition (such as FOGRA39 or CGATS TR 006): the printer reads the "
                                               "embedded profile and may convert the colours again")


def _actions(result: PreflightResult, name: str, reader) -> None:
    """No JavaScript and no actions (on opening, on the document's or a page's events, in an
    annotation): PDF/X forbids them, since a print file must print the same everywhere."""
    root = reader.trailer["/Root"].get_object()
    found = []
    names = root.get("/Names")
    if names is not None and "/JavaScript" in names.get_object():
        found.append("JavaScript in the document's names")
    if "/OpenAction" in root:
        found.append("an action on opening")
    if "/AA" in root:
        found.append("actions on the document's events")
    for number, page in enumerate(reader.pages, start=1):
        if "/AA" in page:
            found.append(f"actions on page {number}'s events")
        annotations = page.get("/Annots")
        annotations = annotations.get_object() if annotations is not None else []
        if any("/A" in a.get_object() or "/AA" in a.get_object() for a in annotations):
            found.append(f"an action in an annotation of page {number}")
    result.judge("actions", found, f"{name}: no JavaScript or actions",
                 f"{name}: carries JavaScript or actions (PDF/X forbids them)")


# The Reference Names of the ICC Characterization Data Registry (its CMYK data sets), which PDF/X
# names in OutputConditionIdentifier: a printer knows these conditions without the embedded profile.
REGISTERED_CONDITIONS = re.compile(
    r"FOGRA(2[7-9]|3\d|4\d|5[0-5])L?|CGATS TR 00[1-6]|CGATS21-2-CRPC[1-7]|GRACoL2006_Coated1|"
    r"SWOP2006_Coated[35]|JC200103|JCN2002|JCW2003|JapanColor2011Coated|IFRA(26|30)")


def registered_condition(identifier: str) -> bool:
    """Whether ``identifier`` is a Reference Name of the ICC registry (compared as written, as
    PDF/X asks; ``Custom`` and a profile's own description are not)."""
    return REGISTERED_CONDITIONS.fullmatch(identifier.strip()) is not None


def _page_key(page) -> str:
    """What a page draws: its content stream and every XObject it names, by their bytes, so that two
    pages drawing the same back give the same key whatever their objects are called."""
    digest = hashlib.sha256(page.get_contents().get_data() if page.get_contents() is not None else b"")

    def add(resources, depth: int) -> None:
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        for key in sorted(xobjects.get_object()) if xobjects is not None else ():
            xobject = xobjects.get_object()[key].get_object()
            digest.update(key.encode() + hashlib.sha256(xobject.get_data()).digest())
            if xobject.get("/Subtype") == "/Form" and depth < 8:
                add(xobject.get("/Resources"), depth + 1)

    add(page.get("/Resources"), 0)
    return digest.hexdigest()


def _page_order(result: PreflightResult, name: str, pages) -> None:
    """Back, front, back, front...: an even page count, the common back (the page drawn most
    often) on odd pages only and never on an even one. An odd page that is not the common back is
    a card with a back of its own (DriveThruCards prints each back page as given): a warning; so is
    a file whose pages all differ (every card with a back of its own, or fronts only).
    Told from what the pages draw alone, so a deck of one card (two pages), or of faces that are all
    one picture, cannot be told from front, back, front, back."""
    count = len(pages)
    if count % 2:
        result.add("FAIL", "page order", f"{name}: {count} pages; DriveThruCards takes an even count "
                                         "(back, front for every card)")
        return
    if count == 2:
        result.add("WARN", "page order", f"{name}: one card: which page is the back cannot be told")
        return
    keys = [_page_key(page) for page in pages]
    back = max(dict.fromkeys(keys), key=keys.count)
    on_even = [str(i + 1) for i in range(1, count, 2) if keys[i] == back]
    own = [str(i + 1) for i in range(0, count, 2) if keys[i] != back]
    if keys.count(back) == 1:  # every card with a back of its own, or no backs at all: cannot be told
        result.add("WARN", "page order", f"{name}: no page is repeated, so which pages are backs cannot be told "
                                         "(each card a back of its own, or a file of fronts only); DriveThruCards "
                                         "takes back, front, back, front")
    elif on_even:
        where = "the even pages are the back (front, back...)" if len(on_even) == count // 2 else \
            f"the back is also on even pages {_listed(on_even)}"
        result.add("FAIL", "page order", f"{name}: {where}; DriveThruCards takes back, front, back, front")
    elif own:
        result.add("WARN", "page order", f"{name}: back, front for {count // 2} cards; back pages {_listed(own)} "
                                         "differ from the common back (cards with backs of their own)")
    else:
        result.add("PASS", "page order", f"{name}: back, front for each of {count // 2} cards, one back throughout")


# --- Tabletop Simulator: saved objects and their deck sheets --------------------------------------

def _objects(node) -> list[dict]:
    """Every object in a saved object or save file, contained ones included."""
    found = []
    if isinstance(node, dict):
        if "Name" in node or "CustomDeck" in node or "CardID" in node:
            found.append(node)
        for key in ("ObjectStates", "ContainedObjects", "States"):
            value = node.get(key)
            for child in (value.values() if isinstance(value, dict) else value or []):
                found += _objects(child)
    elif isinstance(node, list):
        for child in node:
            found += _objects(child)
    return found


def _local(url: str, folder: Path) -> tuple[Path | None, str]:
    """(the local copy of the image at ``url`` if there is one, what is wrong with the URL or "")."""
    parts = urlparse(url)
    if parts.scheme == "file":
        path = Path(url2pathname(unquote(parts.path)))
        return (path, "") if path.is_file() else (None, f"{url} does not exist")
    if parts.scheme in ("http", "https") and parts.netloc:
        copy = folder / Path(unquote(parts.path)).name  # the file uploaded there, if it lies here too
        return (copy if copy.is_file() else None), ""
    return None, f"{url!r} is neither a file:/// nor an http(s) URL"


def _check_tts(result: PreflightResult, service: Target, path: Path, card_mm) -> None:
    files = _files(path, (".json",))
    folder = path if path.is_dir() else path.parent
    saves = []
    for file in files:
        try:
            doc = json.loads(file.read_text(encoding="utf-8-sig"))
            if _objects(doc):
                saves.append((file, doc))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            result.add("FAIL", "saved object", f"{file.name} is not a JSON file ({err})")
        except RecursionError:
            result.add("FAIL", "saved object", f"{file.name} is nested too deeply to be a saved object")
    if not saves:
        if not any(check.name == "saved object" for check in result.checks):
            result.add("FAIL", "saved object", f"{path}: no Tabletop Simulator saved object (JSON) to check")
        return
    for file, doc in saves:
        _check_save(result, service, file, doc, folder, card_mm)


def _check_save(result: PreflightResult, service: Target, file: Path, doc, folder: Path, card_mm) -> None:
    name = file.name
    objects = _objects(doc)
    urls, url_problems, web = {}, [], 0
    for obj in objects:
        decks = obj.get("CustomDeck") if isinstance(obj.get("CustomDeck"), dict) else {}
        for key, entry in decks.items():
            entry = entry if isinstance(entry, dict) else {}
            missing = [url for url in ("FaceURL", "BackURL") if not str(entry.get(url) or "").strip()]
            problem = f"CustomDeck {key} has no {' or '.join(missing)}"
            if missing and problem not in url_problems:
                url_problems.append(problem)
        for value in _url_values(obj):
            if value not in urls:
                urls[value], problem = _local(value, folder)
                url_problems += [problem] if problem else []
                web += value.startswith(("http://", "https://"))
    result.judge("image urls", url_problems,
                 f"{name}: " + "; ".join(part for part in (
                     f"{_count(len(urls) - web, 'local image')} found" if len(urls) > web else "",
                     f"{_count(web, 'web address', 'web addresses')} not fetched (not checked)" if web else "") if part)
                 or f"{name}: no image URLs",
                 f"{name}: TTS cannot load")

    sheets = {}  # (deck key, FaceURL) -> the CustomDeck entry
    grid_bad, id_bad = [], []
    for obj in objects:
        decks = obj.get("CustomDeck") if isinstance(obj.get("CustomDeck"), dict) else {}
        for key, entry in decks.items():
            if not isinstance(entry, dict):
                grid_bad.append(f"CustomDeck {key} is not an object")
                continue
            sheets.setdefault((key, entry.get("FaceURL")), entry)
        if "CardID" in obj:
            problem = _card_id_problem(obj.get("CardID"), decks)
            if problem:
                id_bad.append(f"{obj.get('Nickname') or obj.get('GUID') or 'a card'}: {problem}")
        if isinstance(obj.get("DeckIDs"), list) and isinstance(obj.get("ContainedObjects"), list):
            contained = [child.get("CardID") for child in obj["ContainedObjects"] if isinstance(child, dict)]
            if obj["DeckIDs"] != contained:
                id_bad.append(f"deck {obj.get('Nickname') or obj.get('GUID')}: DeckIDs do not list its cards")
    cells, back_sheets = [], 0
    for (key, face_url), entry in sheets.items():
        cols, rows = entry.get("NumWidth"), entry.get("NumHeight")
        if not (isinstance(cols, int) and isinstance(rows, int) and cols >= 1 and rows >= 1):
            grid_bad.append(f"CustomDeck {key}: NumWidth {cols!r} x NumHeight {rows!r} is not a grid")
            continue
        if cols > TTS_MAX_COLS or rows > TTS_MAX_ROWS:
            grid_bad.append(f"CustomDeck {key}: a {cols} x {rows} sheet (TTS takes at most "
                            f"{TTS_MAX_COLS} x {TTS_MAX_ROWS})")
        local = urls.get(face_url)
        if local is None:
            continue
        picture = _open(local)
        if picture.error:
            grid_bad.append(picture.error)
            continue
        w, h = picture.size
        if w > TTS_MAX_PX or h > TTS_MAX_PX:
            grid_bad.append(f"{local.name} is {w} x {h} px (at most {TTS_MAX_PX} a side)")
        if w % cols or h % rows:
            grid_bad.append(f"{local.name}: {w} x {h} px does not divide into {cols} x {rows} equal cells")
        back = _open(urls[entry["BackURL"]]) if urls.get(entry.get("BackURL")) else None
        if back is not None and entry.get("UniqueBack"):  # a sheet of backs, cut like the faces'
            back_sheets += 1
            bw, bh = back.size
            if back.error:
                grid_bad.append(back.error)
            elif bw > TTS_MAX_PX or bh > TTS_MAX_PX:
                grid_bad.append(f"{back.name} is {bw} x {bh} px (at most {TTS_MAX_PX} a side)")
            elif bw % cols or bh % rows:
                grid_bad.append(f"{back.name}: {bw} x {bh} px does not divide into the faces' {cols} x {rows} cells")
            elif abs((w / cols) / (h / rows) - (bw / cols) / (bh / rows)) > 0.02 * (w / cols) / (h / rows):
                grid_bad.append(f"{back.name}: {cols} x {rows} cells of {bw / cols:.0f} x {bh / rows:.0f} px are not "
                                f"shaped like the faces' ({w / cols:.0f} x {h / rows:.0f})")
        elif back is not None and not back.error and abs((w / cols) / (h / rows) - back.size[0] / back.size[1]) > \
                0.02 * back.size[0] / back.size[1]:
            grid_bad.append(f"{local.name}: {cols} x {rows} cells of {w / cols:.0f} x {h / rows:.0f} px are not "
                            f"shaped like the back ({back.size[0]} x {back.size[1]})")
        used = sorted({obj["CardID"] % 100 for obj in objects
                       if isinstance(obj.get("CardID"), int) and str(obj["CardID"] // 100) == key
                       and entry in _deck_entries(obj)})
        cells.append((picture, cols, rows, used))
    result.judge("sheet grid", grid_bad,
                 f"{name}: {_count(len(sheets), 'sheet')}, each at most {TTS_MAX_COLS} x {TTS_MAX_ROWS} cells "
                 f"and {TTS_MAX_PX} px a side, NumWidth x NumHeight matching the image"
                 + (f"; {_count(back_sheets, 'sheet')} of unique backs cut like its faces" if back_sheets else ""),
                 f"{name}: TTS cannot cut it")
    result.judge("card ids", id_bad, f"{name}: every CardID names a cell of its sheet, none the hidden last cell",
                 f"{name}: a card would show the wrong face")
    pictures = [picture for picture, *_ in cells]
    if pictures:
        _check_modes(result, service, pictures)
        safe = []
        for picture, cols, rows, used in cells:
            cw, ch = picture.size[0] // cols, picture.size[1] // rows
            spec = _cut_at_trim((cw, ch), card_mm)
            image = picture.pixels() if used else None
            for index in used:
                x, y = index % cols * cw, index // cols * ch
                if problem := safe_zone_problem(image.crop((x, y, x + cw, y + ch)), spec):
                    safe.append(f"{picture.name} cell {index}: {problem}")
        result.judge("safe zone", safe, f"{name}: no text or fine art past the safe line in the cards' cells",
                     "TTS rounds the corners and may hide it")


def _deck_entries(obj: dict) -> list:
    decks = obj.get("CustomDeck")
    return list(decks.values()) if isinstance(decks, dict) else []


def _url_values(obj: dict) -> list[str]:
    """The image addresses an object names: FaceURL and BackURL of its decks, a tile's or token's
    ImageURL... (every non-empty string under a key ending in URL)."""
    values = []
    for holder in [obj, obj.get("CustomImage") or {}, *_deck_entries(obj)]:
        if isinstance(holder, dict):
            values += [v for k, v in holder.items() if k.endswith("URL") and isinstance(v, str) and v.strip()]
    return values


def _card_id_problem(card_id, decks: dict) -> str:
    """Why a card's CardID (deck key x 100 + cell) does not name a face of its sheet, or ""."""
    if not isinstance(card_id, int) or card_id < 100:
        return f"CardID {card_id!r} is not deck x 100 + cell"
    key, index = str(card_id // 100), card_id % 100
    entry = decks.get(key)
    if not isinstance(entry, dict):
        return f"CardID {card_id}: no CustomDeck {key}"
    cols, rows = entry.get("NumWidth"), entry.get("NumHeight")
    if not (isinstance(cols, int) and isinstance(rows, int)):
        return ""
    if index >= cols * rows:
        return f"CardID {card_id}: cell {index} is outside the {cols} x {rows} sheet"
    if index == cols * rows - 1 and entry.get("BackIsHidden") is not True:
        return (f"CardID {card_id}: cell {index} is the sheet's last, which TTS shows as the hidden card "
                "(set BackIsHidden or leave it empty)")
    return ""


# --- Screentop: grid sheets of faces and a back ----------------------------------------------------

def _check_grid(result: PreflightResult, service: Target, path: Path, card_mm) -> None:
    pictures = _read_images(result, path, service, FORMATS[service.name])
    if not pictures:
        return
    _check_modes(result, service, pictures)
    cards = _split_tokens(result, path, pictures)
    backs = [p for p in cards if "back" in p.path.stem.lower()]
    if not backs:
        result.add("FAIL", "back", f"{path}: no back image (Screentop takes a back for the cards: a file named *back*)")
        return
    back = backs[0]
    # Cards with backs of their own: every back the same size, the cells' shape.
    other = [f"{p.name} {p.size[0]} x {p.size[1]}" for p in backs if p.size != back.size]
    result.judge("back", other, f"{_listed([p.name for p in backs])}, {back.size[0]} x {back.size[1]} px"
                 + (f" ({_count(len(backs), 'back')}, one size)" if len(backs) > 1 else ""),
                 f"the backs differ in size from {back.name} ({back.size[0]} x {back.size[1]})")
    grids = _declared_grids(path if path.is_dir() else path.parent)
    cells, bad = [], []
    for p in cards:
        if p in backs or (p.size == back.size and p.name not in grids):
            cells.append((p, 1, 1))
            continue
        grid = grids.get(p.name) or _infer_grid(p.size, back.size)
        if grid is None:
            bad.append(f"{p.name}: {p.size[0]} x {p.size[1]} px cuts into no grid of cells shaped like "
                       f"the back ({back.size[0]} x {back.size[1]})")
            continue
        cols, rows = grid
        cw, ch = p.size[0] / cols, p.size[1] / rows
        if cw % 1 or ch % 1 or abs(cw / ch - back.size[0] / back.size[1]) > 0.01 * cw / ch:
            bad.append(f"{p.name}: {cols} x {rows} cells of {cw:g} x {ch:g} px are not shaped like the back")
            continue
        cells.append((p, cols, rows))
    sheets = [f"{p.name} {cols} x {rows}" for p, cols, rows in cells if (cols, rows) != (1, 1)]
    result.judge("grid", bad, f"{_count(len(sheets), 'grid sheet')} of cells shaped like the back: {_listed(sheets)}",
                 "Screentop cuts a sheet into equal cells")
    big = [f"{p.name} is {p.size[0]} x {p.size[1]}" for p, *_ in cells if max(p.size) > TTS_MAX_PX]
    result.judge("sheet size", big, f"every image at most {TTS_MAX_PX} px a side",
                 f"a browser may not load an image over {TTS_MAX_PX} px a side", warn=True)
    safe = []
    for p, cols, rows in cells:
        cw, ch = p.size[0] // cols, p.size[1] // rows
        spec = _cut_at_trim((cw, ch), card_mm)
        image = p.pixels()
        for index in range(cols * rows):
            x, y = index % cols * cw, index // cols * ch
            cell = image.crop((x, y, x + cw, y + ch))
            if cols * rows > 1 and _blank(cell):
                continue  # an empty cell at the end of a sheet
            if problem := safe_zone_problem(cell, spec):
                safe.append(f"{p.name}" + (f" cell {index + 1}" if cols * rows > 1 else "") + f": {problem}")
    result.judge("safe zone", safe, "no text or fine art past the safe line in any card",
                 "a virtual table rounds the corners and may hide it")


def _blank(image: Image.Image) -> bool:
    low, high = zip(*image.convert("RGB").getextrema())
    return max(high) - min(low) < 8


def _declared_grids(folder: Path) -> dict[str, tuple[int, int]]:
    """Grids a JSON file beside the sheets gives, as a Screentop user types them into its editor:
    any object with a file name and columns and rows."""
    grids = {}
    for node in _json_objects(folder):
        file, cols, rows = node.get("file"), node.get("columns"), node.get("rows")
        if isinstance(file, str) and isinstance(cols, int) and isinstance(rows, int) and cols > 0 and rows > 0:
            grids[Path(file).name] = (cols, rows)
    return grids


def _infer_grid(size: tuple[int, int], back: tuple[int, int]) -> tuple[int, int] | None:
    """The grid of equal cells shaped like the back that cuts ``size`` exactly: cells the back's
    size if one does, else the largest cells not larger than the back."""
    best = None
    for cols in range(1, TTS_MAX_COLS + 1):
        for rows in range(1, TTS_MAX_ROWS + 1):
            if size[0] % cols or size[1] % rows:
                continue
            cell = (size[0] // cols, size[1] // rows)
            if abs(cell[0] / cell[1] - back[0] / back[1]) > 0.01 * back[0] / back[1] or cell[0] > back[0]:
                continue
            if best is None or cell[0] > best[0][0]:
                best = (cell, (cols, rows))
    return best[1] if best else None
