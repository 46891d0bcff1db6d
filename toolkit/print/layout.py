"""Where everything goes on a printed sheet, in millimetres: pure geometry, no drawing.

Page coordinates follow PDF: origin at the paper's bottom-left corner, y pointing up. Grid slots are
numbered in reading order, row 0 at the top.

* The grid: as many cards (trim plus bleed on every side, ``gutter`` between the bleeds) as fit
  inside the margins, centred on the page (or on its half, for ``fold``).
* Duplex: a back lies exactly behind its front when the sheet is turned over. Turned over its long
  edge (a portrait page turned like a book page) x mirrors: the back of slot (r, c) is slot
  (r, cols-1-c). Turned over its short edge y mirrors: slot (rows-1-r, c). Backs are computed by
  mirroring each front's rectangle, so they line up even on a part-filled last sheet.
* Back offset: a printer that puts its second side a little off is corrected by moving every
  back by X,Y mm (right and down as seen on the back side, see ``back_shift``); crop marks belong
  to the fronts and stay put.
* Fold: fronts on one half of the sheet against the fold line, their backs mirrored about it on
  the other half.
* Crop marks extend every cut line into the free space outside the grid, never into a card or its
  bleed, and stay inside the margin (which is what printers can print).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from toolkit.errors import UserError

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DUPLEX_MODES = ("long", "short", "fold", "none")
DEFAULT_MARGIN = 5.0   # mm that most printers cannot print on
MAX_SPACING = 50.0     # largest --gutter / --margin accepted
MARK_GAP = 0.5         # mm between the outer edge of the bleed and a crop mark
MARK_LENGTH = 5.0      # longest crop mark, mm
MARK_MIN = 1.0         # shorter marks than this are left out
FOLD_GAP = 4.0         # mm between the fold line and the nearest card's bleed
TOKEN_GAP = 4.0        # mm between the cut circles of two tokens
EPS = 1e-9


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def grown(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


@dataclass(frozen=True)
class Grid:
    """``cols`` x ``rows`` cards of ``card`` mm, their trim's top-left at (x0, top) for slot (0, 0)."""

    cols: int
    rows: int
    card: tuple[float, float]
    bleed: float
    gutter: float
    x0: float
    top: float

    @property
    def pitch(self) -> tuple[float, float]:
        return self.card[0] + 2 * self.bleed + self.gutter, self.card[1] + 2 * self.bleed + self.gutter

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def slot(self, row: int, col: int) -> Rect:
        """The trim rectangle of slot (row, col)."""
        w, h = self.card
        px, py = self.pitch
        return Rect(self.x0 + col * px, self.top - row * py - h, w, h)

    def slots(self) -> list[Rect]:
        return [self.slot(r, c) for r in range(self.rows) for c in range(self.cols)]

    @property
    def extent(self) -> Rect:
        """The whole grid, bleed included."""
        first, last = self.slot(0, 0), self.slot(self.rows - 1, self.cols - 1)
        return Rect(first.x, last.y, last.x1 - first.x, first.y1 - last.y).grown(self.bleed)


def fit_grid(area: Rect, card: tuple[float, float], bleed: float, gutter: float,
             toward: str | None = None) -> Grid | None:
    """As many cards as fit in ``area``, the grid centred in it (or pushed against its "right" or
    "bottom" side); None if not one fits."""
    w, h = card
    px, py = w + 2 * bleed + gutter, h + 2 * bleed + gutter
    cols = math.floor((area.w + gutter) / px + EPS)
    rows = math.floor((area.h + gutter) / py + EPS)
    if cols < 1 or rows < 1:
        return None
    used_w, used_h = cols * px - gutter, rows * py - gutter
    spare_x = area.w - used_w if toward == "right" else (area.w - used_w) / 2
    spare_y = area.h - used_h if toward == "bottom" else (area.h - used_h) / 2
    return Grid(cols, rows, card, bleed, gutter, x0=area.x + spare_x + bleed, top=area.y1 - spare_y - bleed)


def mirror(rect: Rect, page: tuple[float, float], axis: str) -> Rect:
    """``rect`` seen through the paper: mirrored across the page's vertical centre line (axis "x",
    a long-edge flip of a portrait page) or its horizontal one (axis "y", a short-edge flip)."""
    if axis == "x":
        return Rect(page[0] - rect.x1, rect.y, rect.w, rect.h)
    return Rect(rect.x, page[1] - rect.y1, rect.w, rect.h)


def back_shift(offset: tuple[float, float]) -> tuple[float, float]:
    """A back offset X,Y (mm to the right and down, as seen looking at the back side of the sheet)
    as a move in the back page's own coordinates (y up): the back page is printed as it is seen
    from its side, whichever edge the sheet turns over, so no mirroring is involved."""
    return float(offset[0]), -float(offset[1])


@dataclass(frozen=True)
class SheetLayout:
    """The layout of every card sheet: page size, the grid of fronts, and where the backs go."""

    paper: str
    page: tuple[float, float]
    duplex: str
    grid: Grid
    margin: float
    fold: Segment | None = None   # the fold line, for duplex "fold"

    @property
    def per_sheet(self) -> int:
        return self.grid.per_sheet

    @property
    def axis(self) -> str | None:
        """The axis a back is mirrored on: "x" (long edge, vertical fold), "y", or None (no backs)."""
        if self.duplex == "long":
            return "x"
        if self.duplex == "short":
            return "y"
        if self.duplex == "fold":
            return "x" if self.fold is not None and self.fold.x0 == self.fold.x1 else "y"
        return None

    @property
    def backs_turned(self) -> bool:
        """Backs drawn upside down, so that a card turned over like a book page shows its back upright
        (needed when the sheet is turned or folded over its horizontal axis)."""
        return self.axis == "y"

    def back_of(self, front: Rect) -> Rect:
        assert self.axis is not None
        return mirror(front, self.page, self.axis)

    @property
    def orientation(self) -> str:
        return "landscape" if self.page[0] > self.page[1] else "portrait"

    def free_area(self) -> Rect:
        """Where crop marks may go: inside the margin, and on the fronts' side of a fold."""
        W, H = self.page
        m = self.margin
        area = Rect(m, m, W - 2 * m, H - 2 * m)
        if self.fold is None:
            return area
        if self.axis == "x":
            return Rect(m, m, self.fold.x0 - m - MARK_GAP, H - 2 * m)
        return Rect(m, self.fold.y0 + MARK_GAP, W - 2 * m, H - m - self.fold.y0 - MARK_GAP)


def _printable(page: tuple[float, float], margin: float) -> Rect:
    return Rect(margin, margin, page[0] - 2 * margin, page[1] - 2 * margin)


def _fold_candidates(paper: tuple[float, float], card, bleed, gutter, margin):
    """(page, fold line, fronts' area, side of the area facing the fold) for each way to fold a
    sheet, portrait first. The fronts sit against the fold (less skew when folding), which leaves the
    spare room outside for crop marks."""
    short, long_ = sorted(paper)
    for W, H in ((short, long_), (long_, short)):
        folds = ("y", "x") if W < H else ("x", "y")
        for axis in folds:
            if axis == "x":  # a vertical fold line; fronts on the left half
                fold = Segment(W / 2, margin, W / 2, H - margin)
                area = Rect(margin, margin, W / 2 - FOLD_GAP - margin, H - 2 * margin)
            else:  # a horizontal fold line; fronts on the top half
                fold = Segment(margin, H / 2, W - margin, H / 2)
                area = Rect(margin, H / 2 + FOLD_GAP, W - 2 * margin, H / 2 - FOLD_GAP - margin)
            yield (W, H), fold, area, "right" if axis == "x" else "bottom"


def check_spacing(value: float, option: str) -> float:
    if not 0 <= value <= MAX_SPACING:
        raise UserError(f"{option} {value:g}: must be from 0 to {MAX_SPACING:g} mm")
    return float(value)


def sheet_layout(paper: str = "a4", card: tuple[float, float] = (63.0, 88.0), bleed: float = 0.0,
                 gutter: float = 0.0, margin: float = DEFAULT_MARGIN, duplex: str = "long") -> SheetLayout:
    """Choose the page orientation and grid. Duplex long/short pages are portrait (printers and
    viewers agree on how portrait pages turn over); ``none`` takes the orientation that fits more
    cards; ``fold`` tries both orientations and both fold directions and keeps the one with most
    cards (portrait first when equal)."""
    if paper not in PAPERS:
        raise UserError(f"--paper {paper}: unknown paper (choose from {', '.join(PAPERS)})")
    if duplex not in DUPLEX_MODES:
        raise UserError(f"--duplex {duplex}: unknown mode (choose from {', '.join(DUPLEX_MODES)})")
    check_spacing(gutter, "--gutter")
    check_spacing(margin, "--margin")
    portrait = PAPERS[paper]
    landscape = (portrait[1], portrait[0])
    best: SheetLayout | None = None
    if duplex == "fold":
        for page, fold, area, toward in _fold_candidates(portrait, card, bleed, gutter, margin):
            grid = fit_grid(area, card, bleed, gutter, toward)
            if grid and (best is None or grid.per_sheet > best.per_sheet):
                best = SheetLayout(paper, page, duplex, grid, margin, fold)
    else:
        for page in (portrait, landscape) if duplex == "none" else (portrait,):
            grid = fit_grid(_printable(page, margin), card, bleed, gutter)
            if grid and (best is None or grid.per_sheet > best.per_sheet):
                best = SheetLayout(paper, page, duplex, grid, margin)
    if best is None:
        raise UserError(_no_fit(paper, portrait, card, bleed, margin, duplex))
    return best


def _no_fit(paper: str, page: tuple[float, float], card, bleed: float, margin: float, duplex: str) -> str:
    w, h = card
    need = f"a {w:g} x {h:g} mm card" + (f" with {bleed:g} mm bleed" if bleed else "")
    where = f"{paper.upper() if paper == 'a4' else paper.title()} paper ({page[0]:g} x {page[1]:g} mm)"
    fold = " on half a sheet (--duplex fold)" if duplex == "fold" else ""
    short, long_ = sorted(page)
    if duplex == "fold":
        long_ /= 2
    fits_paper = min(w, h) + 2 * bleed <= short and max(w, h) + 2 * bleed <= long_
    if fits_paper and margin > 0:
        return f"--margin {margin:g}: {need} does not fit{fold} on {where} inside {margin:g} mm margins"
    if bleed and min(w, h) <= short and max(w, h) <= long_:
        return f"--bleed {bleed:g}: {need} does not fit{fold} on {where}"
    return f"--card {w:g}x{h:g}: {need} does not fit{fold} on {where}"


def crop_marks(layout: SheetLayout, fronts: list[Rect]) -> list[Segment]:
    """Crop marks for the cards ``fronts``: each cut line continued outside the grid on both sides,
    from just past the bleed to at most MARK_LENGTH, within the margin (and the fold's half)."""
    if not fronts:
        return []
    extent = layout.grid.extent
    free = layout.free_area()
    xs = sorted({round(v, 6) for r in fronts for v in (r.x, r.x1)})
    ys = sorted({round(v, 6) for r in fronts for v in (r.y, r.y1)})
    marks = []
    for x in xs:
        start, end = extent.y1 + MARK_GAP, min(free.y1, extent.y1 + MARK_GAP + MARK_LENGTH)
        if end - start >= MARK_MIN:
            marks.append(Segment(x, start, x, end))
        start, end = extent.y - MARK_GAP, max(free.y, extent.y - MARK_GAP - MARK_LENGTH)
        if start - end >= MARK_MIN:
            marks.append(Segment(x, start, x, end))
    for y in ys:
        start, end = extent.x - MARK_GAP, max(free.x, extent.x - MARK_GAP - MARK_LENGTH)
        if start - end >= MARK_MIN:
            marks.append(Segment(start, y, end, y))
        start, end = extent.x1 + MARK_GAP, min(free.x1, extent.x1 + MARK_GAP + MARK_LENGTH)
        if end - start >= MARK_MIN:
            marks.append(Segment(start, y, end, y))
    return marks


NOTE_ASCENT, NOTE_DESCENT = 1.8, 0.6  # mm a note's line of small print takes above and below its baseline


def note_place(layout: SheetLayout, crop: bool, width: float) -> tuple[float, float, int] | None:
    """Where a line of small print ``width`` mm long goes on a sheet of cards: (x, y, angle), its
    baseline's start in page mm and its angle in degrees. In the free area below the grid and its crop
    marks, else above them, starting at the grid's left edge; else upright (90 degrees) beside the
    grid on its left, from its foot up; None when none of these has room (nothing is printed in the
    margin)."""
    free = layout.free_area()
    grid = layout.grid.extent
    marks = MARK_GAP + (MARK_LENGTH if crop else 0.0)
    tall = NOTE_ASCENT + NOTE_DESCENT
    x = max(free.x, grid.x) if max(free.x, grid.x) + width <= free.x1 + EPS else free.x
    if x + width <= free.x1 + EPS:
        if grid.y - marks - free.y >= tall:
            return x, free.y + NOTE_DESCENT, 0
        if free.y1 - (grid.y1 + marks) >= tall:
            return x, free.y1 - NOTE_ASCENT, 0
    y = max(free.y, grid.y) if max(free.y, grid.y) + width <= free.y1 + EPS else free.y
    if grid.x - marks - free.x >= tall and y + width <= free.y1 + EPS:
        return free.x + NOTE_ASCENT, y, 90
    return None


# --- tokens ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TokenGrid:
    cols: int
    rows: int
    diameter: float
    x0: float   # centre of slot (0, 0)
    top: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def centre(self, row: int, col: int) -> tuple[float, float]:
        pitch = self.diameter + TOKEN_GAP
        return self.x0 + col * pitch, self.top - row * pitch

    def centres(self) -> list[tuple[float, float]]:
        return [self.centre(r, c) for r in range(self.rows) for c in range(self.cols)]


def token_grid(page: tuple[float, float], margin: float, diameter: float, bleed: float = 0.0) -> TokenGrid:
    """Token slots in rows and columns, TOKEN_GAP between the cut circles: everything printed of a
    token, its colour ``bleed`` past the cut circle included, lies inside the page's ``margin``."""
    area = _printable(page, margin + bleed)
    pitch = diameter + TOKEN_GAP
    cols = math.floor((area.w + TOKEN_GAP) / pitch + EPS)
    rows = math.floor((area.h + TOKEN_GAP) / pitch + EPS)
    if cols < 1 or rows < 1:
        raise UserError(f"--margin {margin:g}: a {diameter:g} mm token does not fit inside the margins")
    used_w, used_h = cols * pitch - TOKEN_GAP, rows * pitch - TOKEN_GAP
    return TokenGrid(cols, rows, diameter, area.x + (area.w - used_w) / 2 + diameter / 2,
                     area.y1 - (area.h - used_h) / 2 - diameter / 2)
