"""Tabletop Simulator: deck sheets, the back, and a saved object (``export-cards --target tts``).

TTS shows a card to its edge, so these images are cut at the trim, without bleed.
"""

from __future__ import annotations

import json
import math
from hashlib import sha256
from pathlib import Path

from PIL import Image

from toolkit.cards.art import png_bytes
from toolkit.cards.render import CARD_SIZES, card_image
from toolkit.catalogue.model import Catalogue
from toolkit.files import write_atomic
from toolkit.print.aids import FILE_ID as AID_ID, aid_image, aid_text
from toolkit.print.faces import BACK_FILE, ExportResult
from toolkit.print.targets import TTS_MAX_COLS, TTS_MAX_PX, TTS_MAX_ROWS

TTS_CARD_MM = CARD_SIZES["poker"]  # the shape of a TTS card at scale 1


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


def export_tts(catalogue: Catalogue, faces, out: Path, tmp: Path, lang: str, card_mm) -> ExportResult:
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
