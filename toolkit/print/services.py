"""PNG sets for the print services and Tabletopia (``export-cards --target tgc|mpc|tabletopia``).

Each service takes one image per card face and one for the back, and checks the pixels: The Game
Crafter a poker card at exactly 825 x 1125 px, MakePlayingCards at 822 x 1122 px, Tabletopia any
size so long as every image of a deck has the same one (``targets.py`` holds every size). So every
image here is drawn at the target's size directly (the card renderer's ``size_px`` of the spec's
trim and bleed gives exactly ``spec.image_px``; an image is never resized afterwards), RGB without
alpha, 300 DPI in its pHYs chunk, with the text, its panel and the art's badges inside the safe zone.

Beside the images, in one flat folder:

* ``back.png`` and, with ``--aids``, ``player_aid-<lang>.png`` (a face of the deck's size);
* ``<token id>.png`` for each kind of counter in the catalogue (Palaces' victory tokens), 25 mm
  across like the printed sheet's, with 1 mm of colour past the cut circle; they are not cards and
  need not be the cards' size;
* ``manifest.csv``: one row per image, in upload order: ``file``, ``side`` (face, back, token),
  ``card_id``, ``name`` (in the export's language) and ``quantity``: how many of that image the deck
  holds, the figure each uploader asks for per face (The Game Crafter's and MakePlayingCards'
  "quantity", Tabletopia's copies in the deck). The back's quantity is every card that carries it.
"""

from __future__ import annotations

import csv
import io

from PIL import Image

from toolkit.cards.art import png_bytes
from toolkit.cards.render import card_image
from toolkit.catalogue.model import Catalogue
from toolkit.files import write_atomic
from toolkit.print.aids import FILE_ID as AID_ID, aid_image, aid_text
from toolkit.print.faces import BACK_FILE, BACK_NAME, ExportResult, Faces, token_files
from toolkit.print.sheets import TOKEN_DIAMETER
from toolkit.print.targets import DPI, CardSpec, Target
from toolkit.print.token_image import token_image

MANIFEST = "manifest.csv"
MANIFEST_COLUMNS = ("file", "side", "card_id", "name", "quantity")


def _exact(image: Image.Image, spec: CardSpec, name: str) -> Image.Image:
    """The service checks the pixels: an image off by one would be refused or rescaled by it."""
    if image.size != spec.image_px or image.mode != "RGB":
        raise RuntimeError(f"{name}: drawn at {image.size} {image.mode}, the target takes {spec.image_px} RGB")
    return image


def export_png_set(catalogue: Catalogue, faces: Faces, out, tmp, lang: str, target: Target,
                   spec: CardSpec) -> ExportResult:
    """The images and manifest.csv, written into ``tmp``; the result names them in ``out``."""
    rows: list[tuple[str, str, str, str, int]] = []

    def write(name: str, image: Image.Image, side: str, card_id: str, title: str, quantity: int) -> None:
        write_atomic(tmp / name, png_bytes(image))
        rows.append((name, side, card_id, title, quantity))

    tokens = token_files(catalogue)
    for card in faces.cards:
        name = f"{card.id}.png"
        write(name, _exact(card_image(faces.face(card)), spec, name), "face", card.id, card.name[lang], card.count)
    if faces.aids:
        name = f"{AID_ID}-{lang}.png"
        title = aid_text(catalogue, lang).title.replace("\u00a0", " ")
        write(name, _exact(aid_image(faces.aid()), spec, name), "face", AID_ID, title, faces.aids)
    write(BACK_FILE, _exact(card_image(faces.back()), spec, BACK_FILE), "back", "back", BACK_NAME[lang],
          catalogue.total + faces.aids)
    for index, name in tokens:
        token = catalogue.tokens[index]
        write(name, token_image(catalogue, token, lang, TOKEN_DIAMETER, DPI), "token", token.id,
              token.name[lang], token.count)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    writer.writerows(rows)
    write_atomic(tmp / MANIFEST, buffer.getvalue().encode("utf-8"))
    names = [row[0] for row in rows] + [MANIFEST]

    w, h = spec.image_px
    bleed = f"{spec.bleed_px:g} px bleed" if spec.bleed_px else "cut at the trim"
    aid = f", the player aid ({faces.aids} copies)" if faces.aids else ""
    counters = sum(catalogue.tokens[i].count for i, _ in tokens)
    kinds = f"{len(tokens)} kind{'s' if len(tokens) != 1 else ''}"
    token_note = f", {kinds} of token ({counters} in all)" if tokens else ""
    summary = (f"{target.service}: {len(faces.cards)} faces and 1 back of {w} x {h} px ({spec.size}, {bleed}, "
               f"safe zone {spec.safe_px:g} px from the edge, {DPI} DPI) for {catalogue.total} cards{aid}"
               f"{token_note}, and {MANIFEST}")
    return ExportResult(target.name, out, tuple(out / name for name in names), summary)
