"""Print-and-play sheets: the whole deck on A4 or Letter, fronts and backs, crop marks, tokens."""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, replace

from reportlab.pdfgen.canvas import Canvas

from toolkit.cards.render import CARD_SIZES, card_size_name, check_bleed, draft as draft_face
from toolkit.catalogue.model import Catalogue, CardType
from toolkit.catalogue.words import counted, decimal, words
from toolkit.errors import UserError
from toolkit.layout.engine import Look
from toolkit.pdf import tokens as token_art
from toolkit.pdf.tokens import TOKEN_BLEED
from toolkit.print.aids import (BACK_KEY as AID_BACK_KEY, KEY as AID_KEY, aid_back, aid_card_size, aid_copies, aid_face,
                                two_sided)
from toolkit.print.layout import (
    DEFAULT_MARGIN,
    Rect,
    Segment,
    SheetLayout,
    back_shift,
    crop_marks,
    note_place,
    sheet_layout,
    token_grid,
)
from toolkit.catalogue.origin import deck_origin
from toolkit.print.faces import DECK_BACK, back_face, back_keys, is_back
from toolkit.pdf.canvas import binary_streams, define_forms, new_canvas, place_form
from toolkit.typeset.fonts import register_fonts, text_width
from toolkit.typeset.units import PT_PER_MM

MARK_WIDTH_PT = 0.3
FOLD_DASH_PT = (4, 3)
FOLD_GREY = 0.45
TOKEN_DIAMETER = 25.0  # mm
def sheet_metadata(catalogue: Catalogue, lang: str, cards: int, card_mm: tuple[float, float]) -> tuple[str, str]:
    """The PDF's Title and Subject in the sheet's language: «Диамониак: карты для печати»,
    «54 карты, 63 × 88 мм»; "Diamoniak: print-and-play cards", "54 cards, 63 × 88 mm"."""
    said = words(catalogue, lang)
    noun = counted(catalogue, lang, "cards", cards)
    w, h = (decimal(v, lang) for v in card_mm)
    return said["sheet_title"].replace("{title}", catalogue.title[lang]), f"{cards} {noun}, {w} × {h} {said['mm']}"


@dataclass(frozen=True)
class Placed:
    """One card on a page: its face key ("card:<id>", the aid's, "back" or a card's own "back:<id>"),
    trim rectangle, and whether upside down."""

    key: str
    rect: Rect
    turned: bool = False


@dataclass(frozen=True)
class PagePlan:
    kind: str  # "fronts", "backs", "fold", "tokens" or "token-backs"
    size: tuple[float, float]
    cards: tuple[Placed, ...] = ()
    marks: tuple[Segment, ...] = ()
    fold: Segment | None = None
    note: tuple[float, float, int] | None = None  # where the sheet's line of small print starts, its angle
    tokens: tuple[tuple[int, float, float], ...] = ()  # (token index in the catalogue, centre x, y)


@dataclass(frozen=True)
class PrintResult:
    pdf: bytes
    layout: SheetLayout
    pages: tuple[PagePlan, ...]
    cards: int
    tokens: int
    card_sheets: int
    token_sheets: int
    card_mm: tuple[float, float]
    aids: int = 0  # player aids printed after the cards, on the same sheets
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm every back is shifted (right, down as seen on it)
    bleed: float = 0.0
    draft: bool = False
    note: str = ""  # the line of small print on each sheet of fronts
    aid_mm: tuple[float, float] | None = None  # the aids' card size, where it is not the cards' (poker beside mini)

    @property
    def sheets(self) -> int:
        return self.card_sheets + self.token_sheets

    def summary(self) -> str:
        grid = self.layout.grid
        duplex = {"long": "duplex, long-edge flip", "short": "duplex, short-edge flip",
                  "fold": "fronts and backs folded together", "none": "fronts only"}[self.layout.duplex]
        paper = "A4" if self.layout.paper == "a4" else self.layout.paper.title()
        def n(count: int, what: str) -> str:
            return f"{count} {what}{'' if count == 1 else 's'}"

        aids = f" and {n(self.aids, 'player aid')}" if self.aids else ""
        if self.aids and self.aid_mm is not None:
            aids += f" ({card_size_name(self.aid_mm)}, on sheets of their own: the aid does not fit a smaller card)"
        where = f"{n(self.cards, 'card')}{aids} on {n(self.card_sheets, 'sheet')}"
        if self.tokens:
            where += f" + {n(self.tokens, 'token')} on {n(self.token_sheets, 'sheet')} ({self.sheets} in all)"
        shifted = ""
        if any(self.back_offset):
            shifted = f", backs shifted {self.back_offset[0]:g} mm right and {self.back_offset[1]:g} mm down"
        bleed = f"bleed {self.bleed:g} mm" if self.bleed else "no bleed"
        return (f"{where}, {n(len(self.pages), 'page')}: {grid.cols} x {grid.rows} "
                f"{card_size_name(self.card_mm)} cards per {paper} {self.layout.orientation} sheet, {duplex}"
                f"{shifted}, {bleed}{', low-ink draft' if self.draft else ''}")


NOTE_PT = 6.5      # the sheet's line of small print
NOTE_GREY = 0.35


def sheet_note(catalogue: Catalogue, lang: str, bleed: float, card_mm: tuple[float, float]) -> str:
    """The line for whoever prints the sheet, in the deck's words: "bleed 3 mm · cards 63 × 88 mm",
    «вылет 3 мм · карты 63 × 88 мм»; "no bleed · cards 63 × 88 mm" without."""
    said = words(catalogue, lang)
    size = " × ".join(decimal(v, lang) for v in card_mm) + f" {said['mm']}"
    line = said["sheet_bleed"] if bleed else said["no_bleed"]
    return line.replace("{bleed}", f"{decimal(bleed, lang)} {said['mm']}").replace("{size}", size)


def deck_order(catalogue: Catalogue) -> list[CardType]:
    """Every card of the deck, as many times as the catalogue counts it, in catalogue order."""
    return [card for card in catalogue.cards for _ in range(card.count)]


def plan_pages(catalogue: Catalogue, layout: SheetLayout, crop: bool = True, aids: int = 0,
               back_offset: tuple[float, float] = (0.0, 0.0), aid_sides: int = 1,
               note: tuple[float, float, int] | None = None) -> list[PagePlan]:
    """Every page of the PDF, as geometry: card sheets (each followed by its backs for duplex
    long/short), the ``aids`` player aids going on after the last card, each with its own back
    (the aid's second side where its text has ``aid_sides`` 2: printed as a card of its own
    after each aid where the sheets have no backs), then the token sheets.
    Everything on a back page (card backs, token backs) is moved by ``back_offset``, X mm to the
    right and Y mm down as seen looking at the back side, to make up for a printer that puts its
    second side off by -X,-Y; the fronts and their crop marks stay where they are."""
    dx, dy = back_shift(back_offset)
    backs_of = back_keys(catalogue)
    # (front, back) of every card, then of every aid, which has a back of its own (the second side of its
    # text, or the deck's back marked "player aid"); where the sheets have no backs, an aid's second side
    # is printed as a card of its own after it.
    aid = [(AID_KEY, AID_BACK_KEY)]
    if layout.axis is None and aid_sides == 2:
        aid.append((AID_BACK_KEY, AID_BACK_KEY))
    keys = [(f"card:{card.id}", backs_of[card.id]) for card in deck_order(catalogue)] + aid * aids
    slots = layout.grid.slots()
    pages: list[PagePlan] = []
    for start in range(0, len(keys), len(slots)):
        batch = keys[start:start + len(slots)]
        fronts = [Placed(key, rect) for (key, _), rect in zip(batch, slots)]
        marks = tuple(crop_marks(layout, [p.rect for p in fronts])) if crop else ()
        backs = []
        if layout.axis is not None:
            # Each back behind its own front: the mirrored slot, for a long- or short-edge flip or a fold.
            backs = [Placed(back, layout.back_of(p.rect), layout.backs_turned) for p, (_, back) in zip(fronts, batch)]
            if layout.duplex != "fold":
                backs = [Placed(b.key, b.rect.shifted(dx, dy), b.turned) for b in backs]
        if layout.duplex == "fold":
            pages.append(PagePlan("fold", layout.page, tuple(fronts + backs), marks, layout.fold, note))
        else:
            pages.append(PagePlan("fronts", layout.page, tuple(fronts), marks, note=note))
            if backs:
                pages.append(PagePlan("backs", layout.page, tuple(backs)))
    tokens = [i for i, token in enumerate(catalogue.tokens) for _ in range(token.count)]
    if tokens:
        page = layout.page if layout.page[0] < layout.page[1] else (layout.page[1], layout.page[0])
        grid = token_grid(page, layout.margin, TOKEN_DIAMETER, bleed=TOKEN_BLEED)  # the colour inside the margin too
        centres = grid.centres()
        for start in range(0, len(tokens), len(centres)):
            placed = tuple((t, x, y) for t, (x, y) in zip(tokens[start:start + len(centres)], centres))
            pages.append(PagePlan("tokens", page, tokens=placed))
            if layout.duplex in ("long", "short"):  # double-sided counters: the same tokens behind
                axis_w = layout.duplex == "long"
                mirrored = tuple((t, page[0] - x + dx, y + dy) if axis_w else (t, x + dx, page[1] - y + dy)
                                 for t, x, y in placed)
                pages.append(PagePlan("token-backs", page, tokens=mirrored))
    return pages


def _aid_files(catalogue: Catalogue, lang: str, aids: bool) -> list:
    """The game's own player aid text, when the sheets print it: it dates the PDF with the deck's files."""
    from toolkit.print.aids import text_file

    return [text_file(catalogue.game, lang)] if aids else []


def check_back_offset(pages: list[PagePlan], layout: SheetLayout, back_offset: tuple[float, float]) -> None:
    """Refuse a back offset where there are no back pages, or one that pushes a back (its bleed
    included) past the paper's edge; into the unprinted margin is fine: the printer's own offset
    is what brings it back."""
    x, y = back_offset
    if (x, y) == (0, 0):
        return
    given = f"--back-offset {x:g},{y:g}"
    if layout.duplex not in ("long", "short"):
        raise UserError(f"{given}: --duplex {layout.duplex} prints no back pages to shift "
                        "(use --duplex long or short)")
    dx, dy = back_shift(back_offset)
    bleed = layout.grid.bleed
    boxes = [p.rect.grown(bleed) for page in pages if page.kind == "backs" for p in page.cards]
    radius = TOKEN_DIAMETER / 2 + TOKEN_BLEED
    boxes += [Rect(cx - radius, cy - radius, 2 * radius, 2 * radius)
              for page in pages if page.kind == "token-backs" for _, cx, cy in page.tokens]
    W, H = layout.page  # token pages are portrait too, for long and short duplex
    # The room each back had before the shift, as ranges of X (right) and Y (down).
    x0, x1 = min(b.x for b in boxes) - dx, max(b.x1 for b in boxes) - dx
    y0, y1 = min(b.y for b in boxes) - dy, max(b.y1 for b in boxes) - dy
    lo_x, hi_x, lo_y, hi_y = -x0, W - x1, -(H - y1), y0
    eps = 1e-6
    if not (lo_x - eps <= x <= hi_x + eps and lo_y - eps <= y <= hi_y + eps):
        raise UserError(f"{given}: moves the backs past the paper's edge; with this layout X can be "
                        f"from {lo_x:.1f} to {hi_x:.1f} mm and Y from {lo_y:.1f} to {hi_y:.1f} mm")


def _draw_marks(canvas: Canvas, marks: tuple[Segment, ...]) -> None:
    if not marks:
        return
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(MARK_WIDTH_PT)
    canvas.setLineCap(0)
    canvas.lines([(s.x0 * PT_PER_MM, s.y0 * PT_PER_MM, s.x1 * PT_PER_MM, s.y1 * PT_PER_MM) for s in marks])
    canvas.restoreState()


def _draw_fold(canvas: Canvas, fold: Segment) -> None:
    canvas.saveState()
    canvas.setStrokeGray(FOLD_GREY)
    canvas.setLineWidth(0.5)
    canvas.setDash(*FOLD_DASH_PT)
    canvas.line(fold.x0 * PT_PER_MM, fold.y0 * PT_PER_MM, fold.x1 * PT_PER_MM, fold.y1 * PT_PER_MM)
    canvas.restoreState()


def _draw_note(canvas: Canvas, text: str, at: tuple[float, float, int]) -> None:
    canvas.saveState()
    canvas.setFillGray(NOTE_GREY)
    canvas.setFont(register_fonts()["sans"], NOTE_PT)
    canvas.translate(at[0] * PT_PER_MM, at[1] * PT_PER_MM)
    canvas.rotate(at[2])
    canvas.drawString(0, 0, text)
    canvas.restoreState()


def print_cards(catalogue: Catalogue, lang: str = "en", paper: str = "a4",
                card_mm: tuple[float, float] = CARD_SIZES["poker"], bleed: float = 0.0, gutter: float = 0.0,
                margin: float = DEFAULT_MARGIN, duplex: str = "long", crop: bool = True,
                aids: bool = False, back_offset: tuple[float, float] = (0.0, 0.0), draft: bool = False) -> PrintResult:
    """The print-and-play PDF of the whole deck (and the catalogue's tokens), as bytes; with
    ``aids``, a player aid for each player after the cards, with a back of its own behind it.
    ``back_offset`` (X, Y) moves every back X mm to the right and Y mm down AS SEEN ON THE BACK
    SIDE of the sheet: the two numbers a calibration sheet printed on the same printer reads
    (see ``toolkit.print.calibration``). Each sheet of fronts says its bleed and card size in a line of
    small print outside the cards (``sheet_note``), where there is room. ``draft``: every face and back
    lightened for a low-ink print (``render.draft``)."""
    if lang not in catalogue.langs:
        raise UserError(f"--lang {lang}: the deck has no such language (its languages: {', '.join(catalogue.langs)})")
    check_bleed(bleed)
    layout = sheet_layout(paper, card_mm, bleed, gutter, margin, duplex)
    deck = deck_order(catalogue)
    if not deck:
        raise UserError(f"{deck_origin(catalogue)}: the deck has no cards to print (every count is 0)")
    copies = aid_copies(catalogue) if aids else 0
    aid_mm = aid_card_size(catalogue, lang, card_mm) if copies else tuple(card_mm)
    sides = 2 if copies and two_sided(catalogue, lang, aid_mm) else 1
    note = sheet_note(catalogue, lang, bleed, card_mm)
    place = note_place(layout, crop, text_width(note, "sans", NOTE_PT / PT_PER_MM))
    notes = {}  # a sheet of aids of their own size says that size
    if aid_mm == tuple(card_mm):
        pages = plan_pages(catalogue, layout, crop, copies, back_offset, sides, place)
    else:  # the cards, then the aids on sheets of their own card size, then the tokens
        aid_layout = sheet_layout(paper, aid_mm, bleed, gutter, margin, duplex)
        aid_note = sheet_note(catalogue, lang, bleed, aid_mm)
        aid_place = note_place(aid_layout, crop, text_width(aid_note, "sans", NOTE_PT / PT_PER_MM))
        pages = plan_pages(replace(catalogue, tokens=()), layout, crop, 0, back_offset, 1, place)
        aid_pages = plan_pages(replace(catalogue, cards=(), tokens=()), aid_layout, crop, copies, back_offset, sides,
                               aid_place)
        check_back_offset(aid_pages, aid_layout, back_offset)
        notes = {len(pages) + i: aid_note for i in range(len(aid_pages))}
        pages += aid_pages + plan_pages(replace(catalogue, cards=()), layout, crop, 0, back_offset, 1, place)
    check_back_offset([page for i, page in enumerate(pages) if i not in notes], layout, back_offset)
    distinct = list(dict.fromkeys(card.id for card in deck))
    # Each face is drawn into the PDF once and let go: holding every card type's 300 DPI art at once
    # would take gigabytes for a deck of hundreds of types.
    look = Look(catalogue, lang, card_mm, bleed)
    faces = (look.face(catalogue.card(card_id)) for card_id in distinct)
    if copies:
        faces = itertools.chain(faces, [aid_face(catalogue, lang, aid_mm, bleed)])
        if layout.axis is not None or sides == 2:
            faces = itertools.chain(faces, [aid_back(catalogue, lang, aid_mm, bleed)])
    if layout.axis is not None:  # every back a page shows: the deck's first, then the cards' own
        backs = sorted(dict.fromkeys(p.key for page in pages for p in page.cards if is_back(p.key)),
                       key=lambda key: key != DECK_BACK)
        faces = itertools.chain(faces, (back_face(look, key) for key in backs))
    if draft:
        faces = (draft_face(face) for face in faces)
    w, h = card_mm

    buffer = io.BytesIO()
    with binary_streams():
        title = catalogue.title[lang]
        canvas = new_canvas(buffer, layout.page, *sheet_metadata(catalogue, lang, len(deck), card_mm), lang=lang,
                            game=title, catalogue=catalogue, files=_aid_files(catalogue, lang, aids))
        forms = define_forms(canvas, faces)
        token_forms = token_art.define_forms(canvas, catalogue, lang, TOKEN_DIAMETER) if catalogue.tokens else {}
        for number, page in enumerate(pages):
            canvas.setPageSize((page.size[0] * PT_PER_MM, page.size[1] * PT_PER_MM))
            for placed in page.cards:
                size = aid_mm if placed.key in (AID_KEY, AID_BACK_KEY) else (w, h)
                place_form(canvas, forms[placed.key], placed.rect.x, placed.rect.y, *size, placed.turned)
            _draw_marks(canvas, page.marks)
            if page.fold is not None:
                _draw_fold(canvas, page.fold)
            if page.note is not None:
                _draw_note(canvas, notes.get(number, note), page.note)
            for index, x, y in page.tokens:
                token_art.place(canvas, token_forms[index], x, y)
            canvas.showPage()
        canvas.save()
    card_pages = [p for p in pages if p.kind in ("fronts", "fold")]
    token_pages = [p for p in pages if p.kind == "tokens"]
    return PrintResult(
        pdf=buffer.getvalue(), layout=layout, pages=tuple(pages), cards=len(deck),
        tokens=sum(len(p.tokens) for p in token_pages), card_sheets=len(card_pages),
        token_sheets=len(token_pages), card_mm=tuple(card_mm), aids=copies, back_offset=tuple(back_offset),
        bleed=bleed, draft=draft, note=note, aid_mm=aid_mm if aid_mm != tuple(card_mm) else None,
    )
