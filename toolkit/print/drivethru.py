"""DriveThruCards: the whole deck as one PDF/X-1a:2003 file in CMYK (``export-cards --target drivethru``).

Pages go back, front, back, front...: for every card of the deck in order its back (the card's own
back picture when it has one, so cards with different backs go in the one file), then its face;
then the player aids the same way; then, for games with tokens, token cards. DriveThruCards prints
cards only, so the tokens come as cards of the deck's size with as many tokens as fit inside the
safe zone, each card's back page carrying the same tokens mirrored, so that a token cut out of it
shows its value on both sides. Each page is the card with its bleed (2.75 x 3.75 in for poker), the
art a 300 DPI image, TrimBox 1/8 in inside the page, BleedBox = MediaBox.

PDF/X-1a wants CMYK and nothing else. The art is converted by littleCMS (``cmyk.Separation``) and
embedded as Flate-compressed /DeviceCMYK images; the text stays vector text in the embedded PT
fonts (a subset each, FontFile2), which prints sharper than text in a 300 DPI picture; every colour
the drawing code sets in RGB goes through the same transform on its way into the page (reportlab's
``enforceColorSpace`` hook), so no RGB operator is ever written. No transparency, no annotations.
reportlab writes the file (fixed dates and ID: the same bytes for the same inputs) and pypdf then
adds what reportlab does not know of: /GTS_PDFXVersion in Info, and the /GTS_PDFX output intent
with the CMYK profile embedded as DestOutputProfile.
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, StreamObject, TextStringObject
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from toolkit.cards.render import CardFace, draw_card, pictures_in_ground
from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.pdf import tokens as token_art
from toolkit.print.aids import BACK_KEY as AID_BACK_KEY, KEY as AID_KEY
from toolkit.print.cmyk import Separation, separation
from toolkit.print.faces import ExportResult, Faces
from toolkit.pdf.canvas import binary_streams, form_name, new_canvas
from toolkit.print.sheets import TOKEN_DIAMETER, deck_order, sheet_metadata
from toolkit.print.targets import DPI, DRIVETHRU_INK_LIMIT, CardSpec
from toolkit.files import write_atomic
from toolkit.typeset.units import MM_PER_INCH, PT_PER_MM

PDFX_VERSION = "PDF/X-1a:2003"
PDF_HEADER = "%PDF-1.4"     # PDF/X-1a:2003 is PDF 1.3 or 1.4
RICH_BLACK_K = 0.9          # a vector colour with this much black or more is printed in black alone


def _cmyk_canvas(buffer: io.BytesIO, page_pt: tuple[float, float], sep: Separation, title: str, subject: str,
                 lang: str, game: str, catalogue=None) -> Canvas:
    """A canvas that writes CMYK only: a colour set in RGB is converted through ``sep``. A colour
    that comes out nearly black (the ink of text and outlines) is printed in black ink alone: small
    text in four inks blurs wherever the press's plates are a hair out of register."""

    def to_cmyk(colour):
        parsed = toColor(colour)
        if isinstance(parsed, CMYKColor):
            return parsed
        if isinstance(parsed, Color):
            c, m, y, k = sep.colour((parsed.red, parsed.green, parsed.blue))
            return CMYKColor(0, 0, 0, k) if k >= RICH_BLACK_K else CMYKColor(c, m, y, k)
        raise ValueError(f"not a colour: {colour!r}")

    return new_canvas(buffer, (page_pt[0] / PT_PER_MM, page_pt[1] / PT_PER_MM), title, subject, lang=lang,
                      game=game, colour=to_cmyk, catalogue=catalogue)


def _define_face(canvas: Canvas, face: CardFace, sep: Separation, image_px: tuple[int, int]) -> str:
    """One card side as a form XObject the size of the page, drawn by ``render.draw_card`` with
    the art (and any picture the layout puts in a box) separated into CMYK at ``image_px`` (300 DPI
    over the page)."""
    name = form_name(face)
    face = pictures_in_ground(face)
    art = face.art if face.art.size == image_px else face.art.resize(image_px, Image.Resampling.LANCZOS)
    w_pt, h_pt = (p / DPI * 72 for p in image_px)
    b = face.bleed_mm * PT_PER_MM
    canvas.beginForm(name, 0, 0, w_pt, h_pt)
    draw_card(canvas, face, b, b, image=ImageReader(sep.image(art)))
    canvas.endForm()
    return name


def token_cards(catalogue: Catalogue, spec: CardSpec) -> list[list[tuple[int, float, float]]]:
    """The token cards: each a list of (token index in the catalogue, centre x, y in mm from the
    page's corner), the tokens inside the safe zone (``tokens.token_places``)."""
    page_mm = tuple(p / DPI * MM_PER_INCH for p in spec.image_px)
    places = token_art.token_places(page_mm, spec.safe_px / DPI * MM_PER_INCH, TOKEN_DIAMETER)
    return token_art.token_cards(catalogue, places)


def _add_pdfx(data: bytes, sep: Separation) -> bytes:
    """The PDF/X-1a:2003 keys reportlab does not write: /GTS_PDFXVersion in Info and the
    /GTS_PDFX output intent with the profile embedded. The ID, dates and Trapped (False) are
    reportlab's, kept as they are."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.pdf_header = PDF_HEADER
    profile = StreamObject()
    profile.set_data(sep.icc)
    profile[NameObject("/N")] = NumberObject(4)
    profile = profile.flate_encode()
    condition = TextStringObject(sep.name)
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        # A profile that names no registered printing condition is "Custom" (and embedded).
        NameObject("/OutputConditionIdentifier"): TextStringObject("Custom" if sep.generic else sep.name),
        NameObject("/OutputCondition"): condition,
        NameObject("/Info"): condition,
        NameObject("/DestOutputProfile"): writer._add_object(profile),
    })
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    writer.add_metadata({"/GTS_PDFXVersion": PDFX_VERSION})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def drivethru_bytes(catalogue: Catalogue, faces: Faces, lang: str, spec: CardSpec,
                    sep: Separation) -> tuple[bytes, int]:
    """The PDF's bytes and its number of token cards."""
    page_pt = tuple(p / DPI * 72 for p in spec.image_px)
    bleed_pt = spec.bleed_px / DPI * 72
    title = catalogue.title[lang]
    token_pages = token_cards(catalogue, spec) if catalogue.tokens else []
    held = catalogue.total + faces.aids + len(token_pages)  # every card the file holds, as its Subject says
    buffer = io.BytesIO()
    with binary_streams():
        canvas = _cmyk_canvas(buffer, page_pt, sep, *sheet_metadata(catalogue, lang, held, faces.card_mm),
                              lang=lang, game=title, catalogue=catalogue)
        forms = {}  # each side drawn once, then let go: only one is held at 300 DPI at a time
        aids = [faces.aid, faces.aid_back] if faces.aids else []
        backs = (faces.back(key) for key in faces.backs())
        for face in itertools.chain(backs, faces.every(), (aid() for aid in aids)):
            forms[face.key] = _define_face(canvas, face, sep, spec.image_px)
        token_forms = token_art.define_forms(canvas, catalogue, lang, TOKEN_DIAMETER) if token_pages else {}
        canvas.setTrimBox((bleed_pt, bleed_pt, page_pt[0] - bleed_pt, page_pt[1] - bleed_pt))
        canvas.setBleedBox((0, 0, *page_pt))
        pairs = [(faces.back_key(card), f"card:{card.id}") for card in deck_order(catalogue)]
        for pair in pairs + [(AID_BACK_KEY, AID_KEY)] * faces.aids:  # each card's own back, then its face
            for key in pair:  # (an aid has a back of its own)
                canvas.doForm(forms[key])
                canvas.showPage()
        width_mm = page_pt[0] / PT_PER_MM
        for page in token_pages:
            for mirrored in (True, False):  # the back first: the same tokens, mirrored to lie behind them
                token_art.place_token_card(canvas, token_forms, page, width_mm, mirrored)
                canvas.showPage()
        canvas.save()
    return _add_pdfx(buffer.getvalue(), sep), len(token_pages)


def export_drivethru(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, spec: CardSpec,
                     cmyk_profile: str | Path | None) -> ExportResult:
    """The deck's PDF for DriveThruCards, written into ``tmp``; the result names it in ``out``."""
    sep = separation(cmyk_profile, DRIVETHRU_INK_LIMIT)
    if sep.icc[8] >= 4:  # the major version: PDF 1.4 knows ICC profiles up to version 2 (v4 came with PDF 1.5)
        raise UserError(f"--cmyk-profile {cmyk_profile}: an ICC version {sep.icc[8]} profile, which "
                        f"{PDFX_VERSION} (PDF 1.4) cannot carry: use the version 2 edition of this profile")
    data, token_cards = drivethru_bytes(catalogue, faces, lang, spec, sep)
    name = f"{catalogue.game}-drivethru-{lang}.pdf"
    write_atomic(tmp / name, data)
    cards = catalogue.total + faces.aids + token_cards
    extra = [f"{faces.aids} player aids"] if faces.aids else []
    if token_cards:
        extra.append(f"{token_cards} token cards (tokens to cut out, printed on both sides)")
    deck = f"{catalogue.total} cards" + (f", {', '.join(extra)}: {cards} cards" if extra else "")
    w_in, h_in = (p / DPI for p in spec.image_px)
    profile = (f"the generic profile '{sep.name}' (not a standard printing condition: give "
               "--cmyk-profile for your printer's)" if sep.generic else f"'{sep.name}'")
    return ExportResult("drivethru", out, (out / name,),
                        f"{deck}, {2 * cards} pages (back, front) of {w_in:g} x {h_in:g} in ({spec.size}, "
                        f"{spec.bleed_px / DPI:g} in bleed), {PDFX_VERSION}, CMYK through {profile}, ink at "
                        f"most {sep.limit} %")
