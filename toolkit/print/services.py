"""PNG sets for the print services and Tabletopia (``export-cards --target tgc|mpc|tabletopia``).

Each service takes one image per card face and one for the back, and checks the pixels: The Game
Crafter a poker card at exactly 825 x 1125 px, MakePlayingCards at 822 x 1122 px, Tabletopia any
size so long as every image of a deck has the same one (``targets.py`` holds every size). So every
image here is drawn at the target's size directly (the card renderer's ``size_px`` of the spec's
trim and bleed gives exactly ``spec.image_px``; an image is never resized afterwards), RGB without
alpha, 300 DPI in its pHYs chunk, with the text, its panel and the art's badges inside the safe zone.

Beside the images, in one flat folder:

* ``back.png`` (the deck's back, when a card shows it), ``back_<id>.png`` for each back picture
  of the cards' own (a sheet's ``back`` column), and, with ``--aids``, ``player_aid-<lang>.png`` and its
  own back ``player_aid_back-<lang>.png`` (of the deck's size);
* ``<token id>.png`` for each kind of counter in the catalogue (Palaces' victory tokens). For The
  Game Crafter and MakePlayingCards a size they sell: a 1 in circle with 1/8 in bleed (The Game
  Crafter's medium circle chit, 375 x 375 px), without a cut line, since the service cuts it and a
  printed line would show wherever its cut drifts; for Tabletopia the printed sheet's 25 mm token
  with 1 mm of colour past its cut circle. Both sides of a token show its value: its back is the
  same image;
* ``manifest.csv``: one row per image, in upload order: ``file``, ``side`` (face, back, token),
  ``card_id``, ``name`` (in the export's language), ``quantity``: how many of that image the deck
  holds, the figure each uploader asks for per face (The Game Crafter's and MakePlayingCards'
  "quantity", Tabletopia's copies in the deck; the back's is every card that carries it), and
  ``back``: the image to upload for the other side (``back.png`` for cards, ``back_<id>.png`` for
  cards with a back picture of their own, ``<id>`` the first card showing it; a token's own image
  for a token, nothing for a back itself).
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
from toolkit.catalogue.words import words
from toolkit.print.faces import BACK_FILE, ExportResult, Faces, back_file, counted, token_files
from toolkit.print.sheets import TOKEN_DIAMETER
from toolkit.print.targets import DPI, CardSpec, Target
from toolkit.print.token_image import token_image
from toolkit.pdf.tokens import TOKEN_BLEED
from toolkit.typeset.units import MM_PER_INCH

MANIFEST = "manifest.csv"
MANIFEST_COLUMNS = ("file", "side", "card_id", "name", "quantity", "back")
# The Game Crafter's medium circle chit: 1 in across with 1/8 in bleed, 375 x 375 px at 300 DPI
# (used for MakePlayingCards too; its own token sizes are not in targets.py).
CHIT_DIAMETER_MM, CHIT_BLEED_MM = 1.0 * MM_PER_INCH, 0.125 * MM_PER_INCH
CUT_BY_SERVICE = ("tgc", "mpc")  # services that cut the tokens themselves: no printed cut line


def token_rows(catalogue: Catalogue, lang: str, write, diameter_mm: float, bleed_mm: float,
               cut_line: bool) -> list[tuple[str, int]]:
    """Each kind of token with counters, written by ``write(name, image, side, id, title, quantity,
    back)`` as one image that is its own back (both sides show the value); returns (file, count)."""
    written = []
    for index, name in token_files(catalogue):
        token = catalogue.tokens[index]
        image = token_image(catalogue, token, lang, diameter_mm, DPI, bleed_mm=bleed_mm, cut_line=cut_line)
        write(name, image, "token", token.id, token.name[lang], token.count, name)
        written.append((name, token.count))
    return written


def token_note(catalogue: Catalogue, written: list[tuple[str, int]], size: str) -> str:
    """", 2 kinds of token (43 in all, 375 x 375 px, 1 in + 1/8 in bleed, the same image on both sides)"."""
    if not written:
        return ""
    return (f", {counted(len(written), 'kind', 'kinds')} of token ({sum(n for _, n in written)} in all, {size}, "
            "each image its own back)")


def _exact(image: Image.Image, spec: CardSpec, name: str) -> Image.Image:
    """The service checks the pixels: an image off by one would be refused or rescaled by it."""
    if image.size != spec.image_px or image.mode != "RGB":
        raise RuntimeError(f"{name}: drawn at {image.size} {image.mode}, the target takes {spec.image_px} RGB")
    return image


def export_png_set(catalogue: Catalogue, faces: Faces, out, tmp, lang: str, target: Target,
                   spec: CardSpec) -> ExportResult:
    """The images and manifest.csv, written into ``tmp``; the result names them in ``out``."""
    rows: list[tuple[str, str, str, str, int, str]] = []

    def write(name: str, image: Image.Image, side: str, card_id: str, title: str, quantity: int,
              back: str = BACK_FILE) -> None:
        write_atomic(tmp / name, png_bytes(image))
        rows.append((name, side, card_id, title, quantity, back))

    for card in faces.cards:
        name = f"{card.id}.png"
        write(name, _exact(card_image(faces.face(card)), spec, name), "face", card.id, card.name[lang], card.count,
              back_file(faces.back_key(card)))
    if faces.aids:  # the aid and its own back (never the deck's: it must not shuffle into the pile)
        name, back = f"{AID_ID}-{lang}.png", f"{AID_ID}_back-{lang}.png"
        title = aid_text(catalogue, lang).title.replace("\u00a0", " ")
        write(name, _exact(aid_image(faces.aid()), spec, name), "face", AID_ID, title, faces.aids, back)
        write(back, _exact(aid_image(faces.aid_back()), spec, back), "back", f"{AID_ID}_back", title, faces.aids, "")
    for key in faces.backs():  # the deck's back, then the cards' own: each with the cards that show it
        name = back_file(key)
        write(name, _exact(card_image(faces.back(key)), spec, name), "back", name.removesuffix(".png"),
              words(catalogue, lang)["card_back"], faces.back_count(key), "")
    if target.name in CUT_BY_SERVICE:
        diameter, bleed_mm, cut_line = CHIT_DIAMETER_MM, CHIT_BLEED_MM, False
        token_size = "1 in circle chits + 1/8 in bleed, no cut line"
    else:
        diameter, bleed_mm, cut_line = TOKEN_DIAMETER, TOKEN_BLEED, True
        token_size = f"{TOKEN_DIAMETER:g} mm + {TOKEN_BLEED:g} mm bleed"
    tokens = token_rows(catalogue, lang, write, diameter, bleed_mm, cut_line)
    px = round((diameter + 2 * bleed_mm) / MM_PER_INCH * DPI)  # as token_image sizes it
    token_size = f"{px} x {px} px, {token_size}"
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    writer.writerows(rows)
    write_atomic(tmp / MANIFEST, buffer.getvalue().encode("utf-8"))
    names = [row[0] for row in rows] + [MANIFEST]

    w, h = spec.image_px
    bleed = f"{spec.bleed_px:g} px bleed" if spec.bleed_px else "cut at the trim"
    aid = f", the player aid ({counted(faces.aids, 'copy', 'copies')})" if faces.aids else ""
    summary = (f"{target.service}: {counted(len(faces.cards), 'face', 'faces')} and "
               f"{counted(len(faces.backs()), 'back', 'backs')} of {w} x {h} px "
               f"({spec.size}, {bleed}, safe zone {spec.safe_px:g} px from the edge, {DPI} DPI) for "
               f"{counted(catalogue.total, 'card', 'cards')}{aid}{token_note(catalogue, tokens, token_size)}, "
               f"and {MANIFEST}")
    return ExportResult(target.name, out, tuple(out / name for name in names), summary)
