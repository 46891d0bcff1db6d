"""Files for card printers and for Tabletop Simulator (``toolkit export-cards``).

* ``png``: one PNG per distinct card face and one for the back, at 300 DPI with bleed (poker + 3 mm:
  815 x 1110 px), and ``manifest.csv`` (file, card id, count, name): what print services take.
* ``pdf-single``: one card per page, the page being the card plus its bleed, TrimBox and BleedBox
  set; every card of the deck in order, each face page followed by its back (the order
  print-on-demand services such as DriveThruCards ask for).
* ``tts``: Tabletop Simulator deck sheets (at most 10 x 7 cards, no side over 4096 px), the back,
  and a saved-object JSON whose CustomDeck points at those images by ``file:///`` URIs. TTS shows
  a card to its edge, so these images are cut at the trim, without bleed.

With ``aids``, the player aid goes with them: ``player_aid-<lang>.png`` and its row in the manifest;
aid pages (each followed by the back) after the deck in ``pdf-single``; a deck of its own beside
the cards in ``tts``, so that the aids are never shuffled in. ("_" is never in a card id, so the
aid's file cannot be a card's.)
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import Iterator

from PIL import Image

from toolkit.cards.art import png_bytes
from toolkit.cards.render import (
    CARD_SIZES,
    PT_PER_MM,
    CardFace,
    card_back,
    card_face,
    card_image,
    card_size_name,
    check_bleed,
)
from toolkit.catalogue.model import LANGS, CardType, Catalogue
from toolkit.errors import UserError
from toolkit.files import atomic_folder, write_atomic
from toolkit.catalogue.origin import deck_origin
from toolkit.print.aids import FILE_ID as AID_ID, KEY as AID_KEY, aid_copies, aid_face, aid_image, aid_text
from toolkit.print.pdf import binary_streams, define_forms, new_canvas, place_form
from toolkit.print.sheets import deck_order, sheet_metadata

TARGETS = ("png", "tts", "pdf-single")
TTS_MAX_COLS, TTS_MAX_ROWS, TTS_MAX_PX = 10, 7, 4096
TTS_CARD_MM = CARD_SIZES["poker"]  # the shape of a TTS card at scale 1
MAX_FILE_NAME = 255  # bytes in one file name on common file systems
BACK_NAME = {"en": "Card back", "ru": "Рубашка"}


@dataclass(frozen=True)
class ExportResult:
    target: str
    folder: Path
    files: tuple[Path, ...]
    summary: str


@dataclass(frozen=True)
class Faces:
    """The card types of the deck (count > 0) and how to draw them. Each face is drawn when it is
    written and then let go: a deck of hundreds of card types, all held at 300 DPI, would take
    gigabytes."""

    catalogue: Catalogue
    cards: list[CardType]
    lang: str
    card_mm: tuple[float, float]
    bleed: float
    aids: int = 0  # copies of the player aid to export with the deck

    def face(self, card: CardType) -> CardFace:
        return card_face(card, self.lang, self.card_mm, self.bleed, self.catalogue.source.name)

    def every(self) -> Iterator[CardFace]:
        return (self.face(card) for card in self.cards)

    def back(self) -> CardFace:
        return card_back(self.catalogue, self.card_mm, self.bleed)

    def aid(self) -> CardFace:
        return aid_face(self.catalogue, self.lang, self.card_mm, self.bleed)


def _faces(catalogue: Catalogue, lang: str, card_mm, bleed: float, aids: int = 0) -> Faces:
    """The deck's card types, once each; refuses an empty deck before anything is drawn or written."""
    cards = [card for card in catalogue.cards if card.count > 0]
    if not cards:
        raise UserError(f"{deck_origin(catalogue)}: the deck has no cards to export (every count is 0)")
    return Faces(catalogue, cards, lang, tuple(card_mm), bleed, aids)


BACK_FILE = "back.png"  # no card can take this name: the loader reserves the id "back"


def _check_file_names(catalogue: Catalogue, cards: list[CardType]) -> None:
    for card in cards:
        if len(f"{card.id}.png".encode()) > MAX_FILE_NAME:
            raise UserError(f"{catalogue.source.name}: card '{card.id[:40]}...': the id is too long to name "
                            f"its PNG file (at most {MAX_FILE_NAME - 4} characters)")


def export_png(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, card_mm,
               bleed: float) -> ExportResult:
    """The PNGs and manifest.csv, written into ``tmp``; the result names them in ``out``."""
    cards = faces.cards
    names, rows = [], []
    for card in cards:
        name = f"{card.id}.png"
        write_atomic(tmp / name, png_bytes(card_image(faces.face(card))))
        names.append(name)
        rows.append((name, card.id, card.count, card.name[lang]))
    back_name = BACK_FILE
    back_image = card_image(faces.back())
    write_atomic(tmp / back_name, png_bytes(back_image))
    names.append(back_name)
    rows.append((back_name, "back", catalogue.total + faces.aids, BACK_NAME[lang]))
    if faces.aids:
        aid_name = f"{AID_ID}-{lang}.png"
        write_atomic(tmp / aid_name, png_bytes(aid_image(faces.aid())))
        names.append(aid_name)
        rows.append((aid_name, AID_ID, faces.aids, aid_text(catalogue, lang).title.replace("\u00a0", " ")))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("file", "card_id", "count", "name"))
    writer.writerows(rows)
    write_atomic(tmp / "manifest.csv", buffer.getvalue().encode("utf-8"))
    names.append("manifest.csv")
    size = back_image.size
    aid = f", the player aid ({faces.aids} copies)" if faces.aids else ""
    return ExportResult("png", out, tuple(out / name for name in names),
                        f"{len(cards)} faces and 1 back of {size[0]} x {size[1]} px ({card_size_name(card_mm)}, "
                        f"{bleed:g} mm bleed, 300 DPI) for {catalogue.total} cards{aid}, and manifest.csv")


def pdf_single_bytes(catalogue: Catalogue, lang: str, card_mm, bleed: float, faces: Faces | None = None) -> bytes:
    faces = faces or _faces(catalogue, lang, card_mm, bleed)
    w, h = card_mm
    page = (w + 2 * bleed, h + 2 * bleed)
    buffer = io.BytesIO()
    with binary_streams():
        title = catalogue.title[lang]
        canvas = new_canvas(buffer, page, *sheet_metadata(title, lang, catalogue.total, card_mm), lang=lang,
                            game=title)
        aids = [faces.aid()] if faces.aids else []
        forms = define_forms(canvas, itertools.chain(faces.every(), aids, [faces.back()]))
        canvas.setTrimBox((bleed * PT_PER_MM, bleed * PT_PER_MM, (bleed + w) * PT_PER_MM, (bleed + h) * PT_PER_MM))
        canvas.setBleedBox((0, 0, page[0] * PT_PER_MM, page[1] * PT_PER_MM))
        for front in [f"card:{card.id}" for card in deck_order(catalogue)] + [AID_KEY] * faces.aids:
            for key in (front, "back"):
                place_form(canvas, forms[key], bleed, bleed, w, h)
                canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def export_pdf_single(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, card_mm,
                      bleed: float) -> ExportResult:
    data = pdf_single_bytes(catalogue, lang, card_mm, bleed, faces)
    name = f"{catalogue.game}-cards-{lang}.pdf"
    write_atomic(tmp / name, data)
    total = catalogue.total + faces.aids
    aid = f" and {faces.aids} player aids" if faces.aids else ""
    return ExportResult("pdf-single", out, (out / name,),
                        f"{catalogue.total} cards{aid}, each face followed by its back, {2 * total} pages of "
                        f"{card_mm[0] + 2 * bleed:g} x {card_mm[1] + 2 * bleed:g} mm ({card_size_name(card_mm)} "
                        f"+ {bleed:g} mm bleed)")


# --- Tabletop Simulator ----------------------------------------------------------------------------


def tts_grid(count: int, card_px: tuple[int, int]) -> tuple[int, int, tuple[int, int]]:
    """(columns, rows, cell size in px) of one deck sheet for ``count`` faces (at most 70): at least
    2 x 2 (TTS's minimum), the fewest empty cells, then the largest cells within 4096 px."""
    best = None
    for cols in range(2, TTS_MAX_COLS + 1):
        rows = max(2, math.ceil(count / cols))
        if rows > TTS_MAX_ROWS:
            continue
        scale = min(1.0, TTS_MAX_PX / (cols * card_px[0]), TTS_MAX_PX / (rows * card_px[1]))
        cell = (math.floor(card_px[0] * scale), math.floor(card_px[1] * scale))
        key = (cols * rows - count, -cell[0] * cell[1], abs(cols * cell[0] - rows * cell[1]))
        if best is None or key < best[0]:
            best = (key, cols, rows, cell)
    assert best is not None
    return best[1], best[2], best[3]


def _guid(*parts: object) -> str:
    return sha256("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(scale_z: float, y: float = 1.0) -> dict:
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": scale_z}


def export_tts(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, card_mm) -> ExportResult:
    """The deck sheets, back and saved object, written into ``tmp``; the JSON's file:/// URIs and the
    result name the files in ``out``, where they will stand."""
    cards, back = faces.cards, card_image(faces.back())
    card_px = back.size
    # The folder itself is replaced when the export ends, so only the path above it is resolved.
    final = out.absolute().parent.resolve() / out.name
    written = []
    sheets = []  # (deck number, cards on it, cols, rows, face URI)
    per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS
    cell = None
    for number, start in enumerate(range(0, len(cards), per_sheet), start=1):
        batch = cards[start:start + per_sheet]
        cols, rows, cell = tts_grid(len(batch), card_px)
        sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), (255, 255, 255))
        for i, card in enumerate(batch):
            image = card_image(faces.face(card))
            if image.size != cell:
                image = image.resize(cell, Image.Resampling.LANCZOS)
            sheet.paste(image, ((i % cols) * cell[0], (i // cols) * cell[1]))
        name = f"deck-{number}.png"
        write_atomic(tmp / name, png_bytes(sheet))
        written.append(out / name)
        sheets.append((number, batch, cols, rows, (final / name).as_uri()))
    back_image = back
    if cell is not None and back_image.size != cell:
        back_image = back_image.resize(cell, Image.Resampling.LANCZOS)
    back_name = BACK_FILE
    write_atomic(tmp / back_name, png_bytes(back_image))
    written.append(out / back_name)
    back_uri = (final / back_name).as_uri()
    aid_uri = None
    if faces.aids:  # the aid on a sheet of its own (TTS takes at least 2 x 2 cells)
        aid_cols, aid_rows, aid_cell = tts_grid(1, card_px)
        aid_cell = cell or aid_cell
        sheet = Image.new("RGB", (aid_cols * aid_cell[0], aid_rows * aid_cell[1]), (255, 255, 255))
        image = aid_image(faces.aid())
        sheet.paste(image if image.size == aid_cell else image.resize(aid_cell, Image.Resampling.LANCZOS), (0, 0))
        aid_name = f"{AID_ID}-{lang}.png"
        write_atomic(tmp / aid_name, png_bytes(sheet))
        written.append(out / aid_name)
        aid_uri = (final / aid_name).as_uri()

    # Cards stretch to TTS's standard card shape; a scale on Z keeps other sizes' proportions.
    scale_z = round((card_mm[1] / card_mm[0]) / (TTS_CARD_MM[1] / TTS_CARD_MM[0]), 4)
    custom, contained, ids = {}, [], []
    for number, batch, cols, rows, face_uri in sheets:
        entry = {"FaceURL": face_uri, "BackURL": back_uri, "NumWidth": cols, "NumHeight": rows,
                 "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        custom[str(number)] = entry
        for index, card in enumerate(batch):
            card_id = number * 100 + index
            for copy in range(card.count):
                ids.append(card_id)
                contained.append({
                    "GUID": _guid(catalogue.game, card.id, copy), "Name": "Card", "Transform": _transform(scale_z),
                    "Nickname": card.name[lang], "Description": card.text[lang], "CardID": card_id,
                    "CustomDeck": {str(number): entry}, "Hands": True, "SidewaysCard": False,
                })
    title = catalogue.title[lang]
    deck = {
        "GUID": _guid(catalogue.game, "deck"), "Name": "DeckCustom", "Transform": _transform(scale_z),
        "Nickname": title, "Description": f"{len(ids)} cards", "Hands": False, "SidewaysCard": False,
        "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained,
    }
    objects = [deck]
    if aid_uri:
        number = len(sheets) + 1
        entry = {"FaceURL": aid_uri, "BackURL": back_uri, "NumWidth": aid_cols, "NumHeight": aid_rows,
                 "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        aid_title = aid_text(catalogue, lang).title.replace("\u00a0", " ")
        aids = [{"GUID": _guid(catalogue.game, AID_ID, copy), "Name": "Card", "Transform": _transform(scale_z),
                 "Nickname": aid_title, "Description": title, "CardID": number * 100,
                 "CustomDeck": {str(number): entry}, "Hands": True, "SidewaysCard": False}
                for copy in range(faces.aids)]
        aid_deck = {"GUID": _guid(catalogue.game, AID_ID, "deck"), "Name": "DeckCustom",
                    "Transform": {**_transform(scale_z), "posX": 3.0}, "Nickname": aid_title,
                    "Description": f"{faces.aids} cards", "Hands": False, "SidewaysCard": False,
                    "DeckIDs": [number * 100] * faces.aids, "CustomDeck": {str(number): entry},
                    "ContainedObjects": aids}
        objects.append(aid_deck)
    saved = {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
             "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
             "VersionNumber": ""}
    json_name = f"{catalogue.game}-{lang}.json"
    write_atomic(tmp / json_name, (json.dumps(saved, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    written.append(out / json_name)
    shape = ", ".join(f"{cols} x {rows}" for _, _, cols, rows, _ in sheets)
    aid = f" and a deck of {faces.aids} player aids beside it" if faces.aids else ""
    return ExportResult("tts", out, tuple(written),
                        f"{len(ids)} cards ({len(cards)} faces) on {len(sheets)} deck sheet(s) of {shape} cards{aid}, "
                        f"{cell[0]} x {cell[1]} px each; load {json_name} from TTS's Saved Objects")


# What an export writes: a folder holding anything else is not an earlier export, and is never replaced.
EXPORT_SUFFIXES = (".png", ".csv", ".json", ".pdf")


def _not_an_export(folder: Path) -> str | None:
    """Why ``folder`` is not an earlier export that may be replaced whole (None when it is one)."""
    for entry in sorted(folder.iterdir()):
        if entry.is_symlink() or not entry.is_file() or entry.suffix.lower() not in EXPORT_SUFFIXES:
            return (f"holds '{entry.name}', which no export writes: name a new or empty folder, or an "
                    "earlier export's (it is replaced whole)")
    return None


def export_cards(catalogue: Catalogue, target: str, out: str | Path, lang: str = "en",
                 card_mm: tuple[float, float] = CARD_SIZES["poker"], bleed: float = 3.0,
                 aids: bool = False) -> ExportResult:
    """Write the ``target`` files into the folder ``out``, whole: the folder is built beside ``out``
    and renamed into place at the end, replacing an earlier export whole (none of its files stay
    behind), so an interrupted or failed run leaves ``out`` as it was."""
    if target not in TARGETS:
        raise UserError(f"--target {target}: unknown target (choose from {', '.join(TARGETS)})")
    if lang not in LANGS:
        raise UserError(f"--lang {lang}: unknown language (choose from {', '.join(LANGS)})")
    check_bleed(bleed)
    out = Path(out)
    faces = _faces(catalogue, lang, card_mm, 0.0 if target == "tts" else bleed,  # TTS cuts at the trim
                   aid_copies(catalogue) if aids else 0)
    if target == "png":
        _check_file_names(catalogue, faces.cards)
    with atomic_folder(out, _not_an_export) as tmp:
        if target == "png":
            return export_png(catalogue, faces, out, tmp, lang, card_mm, bleed)
        if target == "pdf-single":
            return export_pdf_single(catalogue, faces, out, tmp, lang, card_mm, bleed)
        return export_tts(catalogue, faces, out, tmp, lang, card_mm)
