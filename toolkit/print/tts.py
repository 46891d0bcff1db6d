"""Tabletop Simulator: deck sheets, the back, victory-token bags and a saved object
(``export-cards --target tts``).

TTS shows a card to its edge, so these images are cut at the trim, without bleed, at the target's
size (the trim at 300 DPI), scaled down only as far as a sheet needs to stay within 4096 px a side.
A sheet holds at most 10 x 7 cells, and TTS shows the *last* cell of a sheet as the "hidden" card,
what the other players see of a card in someone's hand (TTS's Knowledge Base, "Custom Deck"). So a
sheet takes at most 69 faces and its last cell is always the back; "BackIsHidden" says the same to
TTS, so a hidden card shows the back whichever rule a TTS version follows. A deck of more faces
spans several sheets, one CustomDeck entry each, in one deck. A sheet whose cards do not all show
the deck's back (a card with a back picture of its own) has "UniqueBack": its BackURL is a sheet
of backs cut like the faces', each card's back in the cell of its face (``<game>-<lang>-backs-1.png``).

Every image is named ``<game>-<lang>-...`` (``palaces-en-deck-1.png``, ``palaces-en-back.png``,
``palaces-en-token-1.png``), and every GUID depends on the game and language: TTS caches images by
address, so exports hosted side by side under one ``--base-url`` must never share a name, and two
saved objects loaded at one table must not share GUIDs.

The saved object's image addresses are ``file:///`` URIs of the files where they will stand, which
only the computer that wrote them can open; with ``--base-url`` they are that address plus each
file's name, for images the user uploads there, so that every player at a multiplayer table sees
them. Beside the JSON lies a 256 x 256 PNG of the same name: the thumbnail TTS's Saved Objects
browser shows (what tools that write into that folder, e.g. tts-deckconverter, put there).
"""

from __future__ import annotations

import json
import math
import os
import sys
from hashlib import sha256
from pathlib import Path
from typing import Iterable
from urllib.parse import quote, urlsplit

from PIL import Image

from toolkit.cards.art import png_bytes
from toolkit.cards.render import CARD_SIZES, card_image
from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.files import write_atomic
from toolkit.print.aids import FILE_ID as AID_ID, aid_image, aid_text
from toolkit.print.faces import BACK_FILE, DECK_BACK, ExportResult, Faces, counted, token_file
from toolkit.print.sheets import TOKEN_DIAMETER
from toolkit.print.targets import TTS_MAX_COLS, TTS_MAX_PX, TTS_MAX_ROWS, CardSpec

TTS_CARD_MM = CARD_SIZES["poker"]  # the shape of a TTS card at scale 1
FACES_PER_SHEET = TTS_MAX_COLS * TTS_MAX_ROWS - 1  # the last cell is the hidden card
THUMBNAIL_PX = 256
THUMBNAIL_MARGIN = 11  # px above and below the card in the thumbnail
SAVED_OBJECTS_ENV = "TTS_SAVED_OBJECTS"
SAVED_OBJECTS = ("Tabletop Simulator", "Saves", "Saved Objects")
TILE_CIRCLE = 2  # CustomTile.Type: 0 box, 1 hex, 2 circle, 3 rounded
# A Custom_Tile at scale 1 is taken to be as wide as a card at scale 1 (TTS documents neither in
# millimetres), so a token keeps its printed size beside the cards.
TOKEN_SCALE = round(TOKEN_DIAMETER / TTS_CARD_MM[0], 3)


def tts_grid(count: int, card_px: tuple[int, int], smallest: int = 2) -> tuple[int, int, tuple[int, int]]:
    """(columns, rows, cell size in px) of one sheet of ``count`` cells (at most 70): at least
    ``smallest`` x ``smallest`` (TTS's minimum is 2 x 2), the largest cells within 4096 px (the
    card's full size wherever some grid allows it: an empty cell costs only white pixels, a
    smaller cell costs every card its sharpness), then the fewest empty cells, then the squarest
    sheet."""
    best = None
    for cols in range(smallest, TTS_MAX_COLS + 1):
        rows = max(smallest, math.ceil(count / cols))
        if rows > TTS_MAX_ROWS:
            continue
        scale = min(1.0, TTS_MAX_PX / (cols * card_px[0]), TTS_MAX_PX / (rows * card_px[1]))
        cell = (math.floor(card_px[0] * scale), math.floor(card_px[1] * scale))
        key = (-cell[0] * cell[1], cols * rows - count, abs(cols * cell[0] - rows * cell[1]))
        if best is None or key < best[0]:
            best = (key, cols, rows, cell)
    assert best is not None
    return best[1], best[2], best[3]


def hosted_base(base_url: str | None, option: str = "--base-url") -> str | None:
    """``--base-url`` checked and ending in "/", or None without it. Only an absolute http(s)
    address with a host can be opened by every player's TTS; a query or fragment would end up
    before the file name, so those are refused too."""
    if base_url is None:
        return None
    shown = base_url if base_url.isprintable() else repr(base_url)
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError:
        parts = None
    if (parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname
            or parts.query or parts.fragment or base_url.endswith(("?", "#"))
            or any(c.isspace() or not c.isprintable() for c in base_url)):
        raise UserError(f"{option} {shown}: must be an absolute http:// or https:// address with a host "
                        "and no query or fragment, e.g. https://example.com/cards/")
    return base_url if base_url.endswith("/") else base_url + "/"


def saved_objects_folder() -> Path:
    """TTS's Saved Objects folder on this computer, or the one ``TTS_SAVED_OBJECTS`` names (for
    an unusual install, or a Documents folder moved elsewhere); refused when it is not there."""
    override = os.environ.get(SAVED_OBJECTS_ENV)
    if override:
        folder = Path(override).expanduser()
    else:
        try:
            home = Path.home()
        except RuntimeError:
            raise UserError(f"--saved-objects: cannot tell this computer's home folder; set "
                            f"{SAVED_OBJECTS_ENV} to Tabletop Simulator's Saved Objects folder") from None
        if sys.platform == "win32":
            folder = home / "Documents" / "My Games"
        elif sys.platform == "darwin":
            folder = home / "Library"
        else:
            folder = home / ".local" / "share"
        folder = folder.joinpath(*SAVED_OBJECTS)
    if not folder.is_dir():
        how = (f"set {SAVED_OBJECTS_ENV} to the folder to use" if override else
               f"start Tabletop Simulator once to make it, or set {SAVED_OBJECTS_ENV} to the folder to use")
        raise UserError(f"--saved-objects: no Saved Objects folder at {folder} ({how})")
    return folder


def check_token_names(catalogue: Catalogue, taken: set[str], what: str) -> None:
    """A token's image is named after its id beside the sheets': refuse an id that would take a sheet's name."""
    for index, token in enumerate(catalogue.tokens):
        if token.count > 0 and token_file(token) in taken:
            raise UserError(f"{catalogue.source.name}: tokens[{index}].id '{token.id}' would name the same "
                            f"image as a {what}; give the token another id")


def _guid(*parts: object) -> str:
    return sha256("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(scale_z: float = 1.0, x: float = 0.0, y: float = 1.0, face_down: bool = True,
               scale: float = 1.0) -> dict:
    return {"posX": x, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale * scale_z}


def _fit(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image if image.size == size else image.resize(size, Image.Resampling.LANCZOS)


def _sheet(images: Iterable[Image.Image], count: int, card_px: tuple[int, int],
           back: Image.Image) -> tuple[Image.Image, int, int, tuple[int, int]]:
    """One sheet of ``count`` faces (drawn one at a time from ``images``), the back in its last cell."""
    cols, rows, cell = tts_grid(count + 1, card_px)
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), (255, 255, 255))
    for i, image in enumerate(images):
        sheet.paste(_fit(image, cell), ((i % cols) * cell[0], (i // cols) * cell[1]))
    sheet.paste(_fit(back, cell), ((cols - 1) * cell[0], (rows - 1) * cell[1]))
    return sheet, cols, rows, cell


def _thumbnail(back: Image.Image) -> Image.Image:
    """The deck as it lies on the table, face down, centred on a transparent 256 x 256 square."""
    height = THUMBNAIL_PX - 2 * THUMBNAIL_MARGIN
    width = max(1, round(back.width * height / back.height))
    if width > height:  # a wide card: fit its width instead
        width, height = height, max(1, round(back.height * height / back.width))
    thumb = Image.new("RGBA", (THUMBNAIL_PX, THUMBNAIL_PX), (0, 0, 0, 0))
    thumb.paste(back.resize((width, height), Image.Resampling.LANCZOS).convert("RGBA"),
                ((THUMBNAIL_PX - width) // 2, (THUMBNAIL_PX - height) // 2))
    return thumb


def _token_bags(catalogue: Catalogue, lang: str, url, write, prefix: str) -> list[dict]:
    """A bag per kind of token holding as many round tiles as the catalogue counts: the supply
    is finite, as in the box (an infinite bag would hand out tokens the game does not have)."""
    from toolkit.print.token_image import token_image

    bags = []
    for number, token in enumerate(t for t in catalogue.tokens if t.count > 0):
        name = prefix + token_file(token)
        # Cut at the cut circle: a circular tile shows the image's inscribed circle, the token itself.
        write(name, token_image(catalogue, token, lang, TOKEN_DIAMETER, bleed_mm=0.0))
        image = {"ImageURL": url(name), "ImageSecondaryURL": url(name), "ImageScalar": 1.0, "WidthScale": 0.0,
                 "CustomTile": {"Type": TILE_CIRCLE, "Thickness": 0.1, "Stackable": True, "Stretch": True}}
        tiles = [{"GUID": _guid(catalogue.game, lang, "token", token.id, copy), "Name": "Custom_Tile",
                  "Transform": _transform(face_down=False, scale=TOKEN_SCALE), "Nickname": token.name[lang],
                  "Description": catalogue.title[lang], "CustomImage": image}
                 for copy in range(token.count)]
        bags.append({"GUID": _guid(catalogue.game, lang, "token", token.id, "bag"), "Name": "Bag",
                     "Transform": _transform(x=-3.0 - 2.5 * number, face_down=False),
                     "Nickname": token.name[lang], "Description": catalogue.title[lang],
                     "ContainedObjects": tiles})
    return bags


def export_tts(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, card_mm,
               spec: CardSpec, base_url: str | None) -> ExportResult:
    """The deck sheets, back, aids, token images, saved object and its thumbnail, written into
    ``tmp``; the JSON's addresses and the result name the files in ``out``, where they will stand."""
    base = hosted_base(base_url)
    cards, card_px = faces.cards, spec.image_px
    # The folder itself is replaced when the export ends, so only the path above it is resolved.
    final = out.absolute().parent.resolve() / out.name
    written: list[Path] = []

    def url(name: str) -> str:
        return base + quote(name) if base else (final / name).as_uri()

    def write(name: str, image: Image.Image) -> None:
        write_atomic(tmp / name, png_bytes(image))
        written.append(out / name)

    stem = f"{catalogue.game}-{lang}"
    prefix = f"{stem}-"  # no two exports hosted side by side share an image's name
    back_file = prefix + BACK_FILE
    sheet_files = {f"{what}-{n}.png" for n in range(1, len(cards) // FACES_PER_SHEET + 2) for what in ("deck", "backs")}
    check_token_names(catalogue, sheet_files, "deck sheet")
    backs = faces.backs()
    # The deck's back (the first card's own when no card shows the deck's): the hidden card.
    back = _fit(card_image(faces.back(backs[0])), card_px)
    sheets = []  # (deck number, cards on it, cols, rows, cell, its back sheet's file or None)
    for number, start in enumerate(range(0, len(cards), FACES_PER_SHEET), start=1):
        batch = cards[start:start + FACES_PER_SHEET]
        sheet, cols, rows, cell = _sheet((card_image(faces.face(card)) for card in batch), len(batch), card_px, back)
        write(f"{prefix}deck-{number}.png", sheet)
        keys = [faces.back_key(card) for card in batch]
        back_sheet = None
        if any(key != DECK_BACK for key in keys):  # backs that differ: TTS's UniqueBack, a sheet of backs
            drawn: dict[str, Image.Image] = {}     # cut like the faces', each card's back in its face's cell

            def drawn_back(key: str) -> Image.Image:
                if key not in drawn:
                    drawn[key] = card_image(faces.back(key))
                return drawn[key]

            back_sheet = f"{prefix}backs-{number}.png"
            write(back_sheet, _sheet(map(drawn_back, keys), len(batch), card_px, back)[0])
        sheets.append((number, batch, cols, rows, cell, back_sheet))
    if DECK_BACK in backs:
        write(back_file, back)
    aid_name, aid_back_name = f"{prefix}{AID_ID}.png", f"{prefix}{AID_ID}_back.png"
    if faces.aids:  # the aid on a sheet of its own with a back of its own, so that it is never shuffled into the deck
        aid_back = _fit(aid_image(faces.aid_back()), card_px)
        sheet, aid_cols, aid_rows, _ = _sheet([aid_image(faces.aid())], 1, card_px, aid_back)
        write(aid_name, sheet)
        write(aid_back_name, aid_back)

    # Cards stretch to TTS's standard card shape; a scale on Z keeps other sizes' proportions.
    scale_z = round((card_mm[1] / card_mm[0]) / (TTS_CARD_MM[1] / TTS_CARD_MM[0]), 3)

    def entry(face_file: str, cols: int, rows: int, back_sheet: str | None = None, back_name: str = back_file) -> dict:
        return {"FaceURL": url(face_file), "BackURL": url(back_sheet or back_name), "NumWidth": cols,
                "NumHeight": rows, "BackIsHidden": True, "UniqueBack": back_sheet is not None, "Type": 0}

    def card(guid: str, nickname: str, description: str, card_id: int, deck: dict) -> dict:
        return {"GUID": guid, "Name": "Card", "Transform": _transform(scale_z), "Nickname": nickname,
                "Description": description, "CardID": card_id, "CustomDeck": deck, "Hands": True,
                "SidewaysCard": False}

    from toolkit.layout.engine import deck_icons, icon_words

    icons = deck_icons(catalogue)  # a description is text alone: an icon's :name: is said in words
    custom, contained, ids = {}, [], []
    for number, batch, cols, rows, _, back_sheet in sheets:
        custom[str(number)] = entry(f"{prefix}deck-{number}.png", cols, rows, back_sheet)
        for index, card_type in enumerate(batch):
            for copy in range(card_type.count):
                ids.append(number * 100 + index)
                contained.append(card(_guid(catalogue.game, lang, card_type.id, copy), card_type.name[lang],
                                      icon_words(card_type.text[lang], catalogue, lang, icons), number * 100 + index,
                                      {str(number): custom[str(number)]}))
    title = catalogue.title[lang]
    objects = [{
        "GUID": _guid(catalogue.game, lang, "deck"), "Name": "DeckCustom", "Transform": _transform(scale_z),
        "Nickname": title, "Description": f"{len(ids)} cards", "Hands": False, "SidewaysCard": False,
        "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained,
    }]
    if faces.aids:
        number = len(sheets) + 1
        aid_entry = {str(number): entry(aid_name, aid_cols, aid_rows, back_name=aid_back_name)}
        aid_title = aid_text(catalogue, lang).title.replace("\u00a0", " ")
        objects.append({
            "GUID": _guid(catalogue.game, lang, AID_ID, "deck"), "Name": "DeckCustom",
            "Transform": {**_transform(scale_z), "posX": 3.0}, "Nickname": aid_title,
            "Description": f"{faces.aids} cards", "Hands": False, "SidewaysCard": False,
            "DeckIDs": [number * 100] * faces.aids, "CustomDeck": aid_entry,
            "ContainedObjects": [card(_guid(catalogue.game, lang, AID_ID, copy), aid_title, title, number * 100,
                                      aid_entry) for copy in range(faces.aids)]})
    bags = _token_bags(catalogue, lang, url, write, prefix)
    objects += bags
    saved = {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
             "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
             "VersionNumber": ""}
    write_atomic(tmp / f"{stem}.json", (json.dumps(saved, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    written.append(out / f"{stem}.json")
    write(f"{stem}.png", _thumbnail(back))

    shape = ", ".join(f"{cols} x {rows}" for _, _, cols, rows, _, _ in sheets)
    cells = ", ".join(dict.fromkeys(f"{cell[0]} x {cell[1]}" for *_, cell, _ in sheets))
    unique = sum(1 for *_, back_sheet in sheets if back_sheet)
    unique = f", {counted(unique, 'sheet', 'sheets')} of the cards' own backs cut the same way" if unique else ""
    aid = f", a deck of {counted(faces.aids, 'player aid', 'player aids')} beside it" if faces.aids else ""
    tiles = sum(len(bag["ContainedObjects"]) for bag in bags)
    tokens = f", {counted(tiles, 'token', 'tokens')} in {counted(len(bags), 'bag', 'bags')}" if bags else ""
    where = f"upload the images to {base}, then " if base else ""
    return ExportResult("tts", out, tuple(written),
                        f"{counted(len(ids), 'card', 'cards')} ({counted(len(cards), 'face', 'faces')}) on "
                        f"{counted(len(sheets), 'deck sheet', 'deck sheets')} of {shape} cells "
                        f"({cells} px each, the last cell the hidden card){unique}{aid}{tokens}; {where}load {stem}.json "
                        "from TTS's Saved Objects")
