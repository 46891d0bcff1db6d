"""Screentop (``export-cards --target screentop``): a grid PNG of the faces, the back, the player
aid, the tokens, and a manifest that says which cell is which card.

Screentop builds a deck in its own editor from a picture of the faces in a grid, cut into
``columns`` x ``rows`` equal cells, and a back for every card (Screentop publishes no file format
for a deck, so the export gives it what that editor asks for). So the grid is gapless, each cell
is one card cut at its trim (no bleed: on a screen it would be a border), the cells are the
target's size (the trim at 300 DPI), scaled down only as far as a sheet needs to stay within
4096 px a side, the largest texture every browser takes. A sheet has at most 10 columns and 7 rows
(the cells stay as large as a Tabletop Simulator sheet's); a larger deck gets more sheets.

Every image is named ``<game>-<lang>-...`` (``palaces-en-faces-1.png``, ``palaces-en-back.png``,
``palaces-en-token-1.png``), so that exports of several games and languages can be hosted in one
place without one image taking another's address.

``manifest.csv`` has one row per card type (its sheet, column and row counted from 1, its count,
name and back: ``<game>-<lang>-back.png``, or ``...-back_<id>.png`` for a card with a back picture of
its own, ``<id>`` the first card showing it), then each back, the player aid and the tokens, each an
image of its own; its ``side`` column says what each image is (face, back, token: a token's image is
its own back); ``screentop.json`` holds the same with every sheet's grid and cell size, the numbers
to type into the editor, and, with ``--base-url``, the address each image will have once uploaded
there; its ``back`` is the deck's back (the first card's own when no card shows the deck's).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import quote

from PIL import Image, ImageDraw

from toolkit.cards.art import png_bytes
from toolkit.cards.render import card_image
from toolkit.catalogue.model import Catalogue
from toolkit.files import write_atomic
from toolkit.print.aids import FILE_ID as AID_ID, aid_image, aid_text
from toolkit.catalogue.words import words
from toolkit.print.faces import ExportResult, Faces, back_file, counted, token_file
from toolkit.print.sheets import TOKEN_DIAMETER
from toolkit.print.targets import TTS_MAX_COLS, TTS_MAX_ROWS, CardSpec
from toolkit.print.tts import check_token_names, hosted_base, tts_grid

FACES_PER_SHEET = TTS_MAX_COLS * TTS_MAX_ROWS
MASK_SUPERSAMPLE = 4


def screentop_grid(count: int, card_px: tuple[int, int]) -> tuple[int, int, tuple[int, int]]:
    """(columns, rows, cell size in px) for ``count`` faces (at most 70): TTS's rule without its
    2 x 2 minimum (the largest cells within ``TTS_MAX_PX`` a side, the fewest empty cells, the squarest)."""
    return tts_grid(count, card_px, smallest=1)


def _round(image: Image.Image) -> Image.Image:
    """A token cut at its circle: RGBA, transparent outside it, so it lies round on the table."""
    side = image.width * MASK_SUPERSAMPLE
    mask = Image.new("L", (side, side), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, side - 1, side - 1), fill=255)
    rgba = image.convert("RGBA")
    rgba.putalpha(mask.resize(image.size, Image.Resampling.LANCZOS))
    return rgba


def export_screentop(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, spec: CardSpec,
                     base_url: str | None) -> ExportResult:
    """The sheets, back, aid, tokens and manifests, written into ``tmp``; the result names them in ``out``."""
    from toolkit.print.token_image import token_image

    base = hosted_base(base_url)
    card_px, cards = spec.image_px, faces.cards
    check_token_names(catalogue, {f"faces-{n}.png" for n in range(1, len(cards) // FACES_PER_SHEET + 2)},
                      "grid sheet")
    prefix = f"{catalogue.game}-{lang}-"  # no two exports hosted side by side share an image's name
    written: list[Path] = []

    def write(name: str, data: bytes) -> None:
        write_atomic(tmp / name, data)
        written.append(out / name)

    def located(entry: dict) -> dict:
        return {**entry, "url": base + quote(entry["file"])} if base else entry

    from toolkit.layout.engine import deck_icons, icon_words

    icons = deck_icons(catalogue)  # the text is text alone: an icon's :name: is said in words
    sheets, card_rows = [], []
    for number, start in enumerate(range(0, len(cards), FACES_PER_SHEET), start=1):
        batch = cards[start:start + FACES_PER_SHEET]
        cols, rows, cell = screentop_grid(len(batch), card_px)
        sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), (255, 255, 255))
        name = f"{prefix}faces-{number}.png"
        for index, card in enumerate(batch):
            image = card_image(faces.face(card))
            sheet.paste(image if image.size == cell else image.resize(cell, Image.Resampling.LANCZOS),
                        ((index % cols) * cell[0], (index // cols) * cell[1]))
            card_rows.append({"id": card.id, "name": card.name[lang], "text": icon_words(card.text[lang], catalogue, lang, icons),
                              "count": card.count,
                              "file": name, "index": index, "column": index % cols + 1, "row": index // cols + 1,
                              "side": "face", "back": prefix + back_file(faces.back_key(card))})
        write(name, png_bytes(sheet))
        sheets.append(located({"file": name, "columns": cols, "rows": rows, "cards": len(batch),
                               "cell_px": list(cell), "size_px": list(sheet.size)}))
    back_rows = []  # the deck's back, then the cards' own: each with the cards that show it
    for key in faces.backs():
        name = prefix + back_file(key)
        back = card_image(faces.back(key))
        write(name, png_bytes(back if back.size == card_px else back.resize(card_px, Image.Resampling.LANCZOS)))
        back_rows.append({"file": name, "id": back_file(key).removesuffix(".png"), "count": faces.back_count(key),
                          "name": words(catalogue, lang)["card_back"], "back": "", "side": "back"})
    extras = []  # the aid and the tokens: images of their own
    if faces.aids:
        aid_name = f"{prefix}{AID_ID}.png"
        image = aid_image(faces.aid())
        write(aid_name, png_bytes(image if image.size == card_px else image.resize(card_px, Image.Resampling.LANCZOS)))
        title = aid_text(catalogue, lang).title.replace("\u00a0", " ")
        # Its own back, never the deck's, so that it cannot shuffle into the pile ("reverse": Screentop's
        # back for the cards is the one image named *back*).
        aid_back = f"{prefix}{AID_ID}_reverse.png"
        image = aid_image(faces.aid_back())
        write(aid_back, png_bytes(image if image.size == card_px else image.resize(card_px, Image.Resampling.LANCZOS)))
        extras.append({"kind": "aid", "side": "face", "id": AID_ID, "name": title, "count": faces.aids, "file": aid_name,
                       "back": aid_back})
        extras.append({"kind": "aid", "side": "back", "id": f"{AID_ID}_back", "name": title, "count": faces.aids,
                       "file": aid_back, "back": ""})
    for token in catalogue.tokens:
        if token.count > 0:
            image = _round(token_image(catalogue, token, lang, TOKEN_DIAMETER, bleed_mm=0.0))
            name = prefix + token_file(token)
            write(name, png_bytes(image))
            extras.append({"kind": "token", "side": "token", "id": token.id, "name": token.name[lang],
                           "count": token.count, "file": name, "back": name, "value": token.value,
                           "diameter_mm": TOKEN_DIAMETER})

    buffer = io.StringIO()
    table = csv.writer(buffer, lineterminator="\n")
    table.writerow(("file", "column", "row", "id", "count", "name", "back", "side"))
    table.writerows((r["file"], r["column"], r["row"], r["id"], r["count"], r["name"], r["back"], r["side"])
                    for r in card_rows)
    table.writerows((e["file"], "", "", e["id"], e["count"], e["name"], e["back"], e["side"])
                    for e in [*back_rows, *extras])
    write("manifest.csv", buffer.getvalue().encode("utf-8"))
    manifest = {
        "game": catalogue.game, "title": catalogue.title[lang], "lang": lang, "card_px": list(card_px),
        "card_mm": list(spec.card_mm), "back": located({"file": back_rows[0]["file"]}), "sheets": sheets,
        "cards": [located(r) for r in card_rows], "extras": [located(e) for e in extras],
    }
    write("screentop.json", (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))

    shape = ", ".join(f"{s['columns']} x {s['rows']}" for s in sheets)
    cells = ", ".join(dict.fromkeys(f"{s['cell_px'][0]} x {s['cell_px'][1]}" for s in sheets))
    aid = f", the player aid ({counted(faces.aids, 'copy', 'copies')})" if faces.aids else ""
    tokens = sum(1 for e in extras if e["kind"] == "token")
    token_note = f", {counted(tokens, 'token image', 'token images')} (each its own back)" if tokens else ""
    where = f"; upload the images to {base}" if base else ""
    return ExportResult("screentop", out, tuple(written),
                        f"{counted(catalogue.total, 'card', 'cards')} ({counted(len(cards), 'face', 'faces')}) on "
                        f"{counted(len(sheets), 'grid sheet', 'grid sheets')} of {shape} "
                        f"cells ({cells} px each), {counted(len(back_rows), 'back', 'backs')}{aid}{token_note}, manifest.csv and screentop.json{where}")
