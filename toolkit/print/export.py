"""Files for card printers and virtual tables (``toolkit export-cards``): the dispatcher.

Print services, at their own pixel sizes, bleed and safe zone (``targets.py``), refusing a card
size they do not offer:

* ``tgc``, ``mpc``: one RGB PNG per distinct face, the back, the player aid and the tokens, with the
  manifest their uploads need (``services.py``);
* ``drivethru``: one CMYK PDF/X-1a file, pages back, front, back, front... (``drivethru.py``).

Virtual tables, cut at the trim at 300 DPI, any card size: ``tabletopia`` (one image per face and
one back, all the same size: ``services.py``), ``screentop`` (a grid of faces: ``screentop.py``),
``tts`` (Tabletop Simulator deck sheets and a saved object: ``tts.py``).

And at the catalogue's own size, with ``--bleed``:

* ``png``: one PNG per distinct card face and one per back (``back.png``, the deck's; ``back_<id>.png``,
  a back picture of the cards' own, ``<id>`` the first card showing it), at 300 DPI with bleed (poker + 3 mm:
  815 x 1110 px), one per kind of token (25 mm with the same bleed, no cut line), and
  ``manifest.csv`` (file, card id, count, name, side: face, back or token; back: the image for the
  other side, the card's own back, a token's own);
* ``pdf-single``: one card per page, the page being the card plus its bleed, TrimBox and BleedBox
  set; every card of the deck in order, each face page followed by its own back; then token cards like
  DriveThruCards' (``tokens.token_places``), each followed by the same tokens mirrored.

With ``aids``, the player aid goes with them, with a back of its own (``aids.aid_back``):
``player_aid-<lang>.png``, ``player_aid_back-<lang>.png`` and their rows in the manifest; aid pages
(each followed by the aid's back) after the deck in ``pdf-single``; a deck of its own beside
the cards in ``tts``, so that the aids are never shuffled in. ("_" is never in a card id, so the
aid's file cannot be a card's.)

Every target writes into a temporary folder that replaces ``out`` whole at the end
(``files.atomic_folder``), marked (``MARK``) with the files it holds: a later export replaces an empty
folder or a marked one whose files are all still the ones its mark names, nothing else.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
from pathlib import Path

from toolkit.cards.art import png_bytes
from toolkit.cards.render import CARD_SIZES, card_image, card_size_name, check_bleed
from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.words import words
from toolkit.errors import UserError
from toolkit.files import atomic_folder, write_atomic
from toolkit.print.aids import BACK_KEY as AID_BACK_KEY, FILE_ID as AID_ID, KEY as AID_KEY, aid_copies, \
    aid_image, aid_text
from toolkit.print.faces import BACK_FILE, ExportResult, Faces, _check_file_names, _faces, back_file, counted
from toolkit.pdf.canvas import binary_streams, define_forms, new_canvas, place_form
from toolkit.print.sheets import TOKEN_DIAMETER, deck_order, sheet_metadata
from toolkit.print.targets import TARGETS as SERVICES, service_target
from toolkit.pdf.tokens import define_forms as define_token_forms, place_token_card, token_cards, token_places
from toolkit.print.tts import export_tts
from toolkit.typeset.units import MM_PER_INCH, PT_PER_MM

SERVICE_TARGETS = tuple(SERVICES)  # tgc, mpc, drivethru, tabletopia, screentop, tts
TARGETS = (*SERVICE_TARGETS, "png", "pdf-single")


def export_png(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, card_mm,
               bleed: float) -> ExportResult:
    """The PNGs and manifest.csv, written into ``tmp``; the result names them in ``out``. Tokens
    (Palaces' victory tokens) come at the printed sheet's size, with the export's bleed and no cut
    line (whoever prints these cuts them), each image its own back."""
    from toolkit.print.services import token_note, token_rows

    rows: list[tuple[str, str, int, str, str, str]] = []

    def write(name: str, image, side: str, card_id: str, title: str, count: int, back: str = BACK_FILE) -> None:
        write_atomic(tmp / name, png_bytes(image))
        rows.append((name, card_id, count, title, side, back))

    for card in faces.cards:
        write(f"{card.id}.png", card_image(faces.face(card)), "face", card.id, card.name[lang], card.count,
              back_file(faces.back_key(card)))
    for key in faces.backs():  # the deck's back, then the cards' own: each with the cards that show it
        name = back_file(key)
        back_image = card_image(faces.back(key))
        write(name, back_image, "back", name.removesuffix(".png"), words(catalogue, lang)["card_back"], faces.back_count(key), "")
    if faces.aids:  # the aid and its own back (never the deck's: it must not shuffle into the pile)
        title, back = aid_text(catalogue, lang).title.replace("\u00a0", " "), f"{AID_ID}_back-{lang}.png"
        write(f"{AID_ID}-{lang}.png", aid_image(faces.aid()), "face", AID_ID, title, faces.aids, back)
        write(back, aid_image(faces.aid_back()), "back", f"{AID_ID}_back", title, faces.aids, "")
    tokens = token_rows(catalogue, lang, write, TOKEN_DIAMETER, bleed, cut_line=False)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("file", "card_id", "count", "name", "side", "back"))
    writer.writerows(rows)
    write_atomic(tmp / "manifest.csv", buffer.getvalue().encode("utf-8"))
    names = [row[0] for row in rows] + ["manifest.csv"]
    size = back_image.size
    px = round((TOKEN_DIAMETER + 2 * bleed) / MM_PER_INCH * 300)  # as token_image sizes it
    aid = f", the player aid ({counted(faces.aids, 'copy', 'copies')})" if faces.aids else ""
    token_size = f"{px} x {px} px, {TOKEN_DIAMETER:g} mm + {bleed:g} mm bleed, no cut line"
    return ExportResult("png", out, tuple(out / name for name in names),
                        f"{counted(len(faces.cards), 'face', 'faces')} and "
                        f"{counted(len(faces.backs()), 'back', 'backs')} of {size[0]} x {size[1]} px "
                        f"({card_size_name(card_mm)}, {bleed:g} mm bleed, 300 DPI) for "
                        f"{counted(catalogue.total, 'card', 'cards')}{aid}{token_note(catalogue, tokens, token_size)}"
                        ", and manifest.csv")


TOKEN_CARD_SAFE = 3.0  # mm inside the trim that a token card keeps its tokens from (as a card keeps its text)


def _pdf_single_token_cards(catalogue: Catalogue, card_mm, bleed: float) -> list[list[tuple[int, float, float]]]:
    """Token cards of the deck's size (``tokens.token_places``, as DriveThruCards' are)."""
    if not any(token.count for token in catalogue.tokens):
        return []
    page = (card_mm[0] + 2 * bleed, card_mm[1] + 2 * bleed)
    return token_cards(catalogue, token_places(page, bleed + TOKEN_CARD_SAFE, TOKEN_DIAMETER))


def pdf_single_bytes(catalogue: Catalogue, lang: str, card_mm, bleed: float, faces: Faces | None = None) -> bytes:
    """Every card of the deck, each face page followed by its back, then the aids the same way,
    then the token cards, each followed by the same tokens mirrored (a token cut out shows its
    value on both sides)."""
    faces = faces or _faces(catalogue, lang, card_mm, bleed)
    w, h = card_mm
    page = (w + 2 * bleed, h + 2 * bleed)
    cards = _pdf_single_token_cards(catalogue, card_mm, bleed)
    buffer = io.BytesIO()
    with binary_streams():
        title = catalogue.title[lang]
        held = catalogue.total + faces.aids + len(cards)  # every card the file holds, as its Subject says
        canvas = new_canvas(buffer, page, *sheet_metadata(catalogue, lang, held, card_mm), lang=lang, game=title,
                            catalogue=catalogue)
        aids = [faces.aid(), faces.aid_back()] if faces.aids else []
        forms = define_forms(canvas, itertools.chain(faces.every(), aids, map(faces.back, faces.backs())))
        token_forms = define_token_forms(canvas, catalogue, lang, TOKEN_DIAMETER) if cards else {}
        canvas.setTrimBox((bleed * PT_PER_MM, bleed * PT_PER_MM, (bleed + w) * PT_PER_MM, (bleed + h) * PT_PER_MM))
        canvas.setBleedBox((0, 0, page[0] * PT_PER_MM, page[1] * PT_PER_MM))
        pairs = [(f"card:{card.id}", faces.back_key(card)) for card in deck_order(catalogue)]
        for pair in pairs + [(AID_KEY, AID_BACK_KEY)] * faces.aids:  # each face, then its own back
            for key in pair:
                place_form(canvas, forms[key], bleed, bleed, w, h)
                canvas.showPage()
        for card in cards:
            for mirrored in (False, True):  # the tokens, then their backs: the same tokens mirrored behind them
                place_token_card(canvas, token_forms, card, page[0], mirrored)
                canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def export_pdf_single(catalogue: Catalogue, faces: Faces, out: Path, tmp: Path, lang: str, card_mm,
                      bleed: float) -> ExportResult:
    data = pdf_single_bytes(catalogue, lang, card_mm, bleed, faces)
    name = f"{catalogue.game}-cards-{lang}.pdf"
    write_atomic(tmp / name, data)
    tokens = len(_pdf_single_token_cards(catalogue, card_mm, bleed))
    total = catalogue.total + faces.aids + tokens
    extra = [counted(faces.aids, "player aid", "player aids")] if faces.aids else []
    if tokens:
        extra.append(f"{counted(tokens, 'token card', 'token cards')} (tokens to cut out, the same tokens "
                     "mirrored on the back)")
    return ExportResult("pdf-single", out, (out / name,),
                        counted(catalogue.total, "card", "cards") + "".join(f", {e}" for e in extra)
                        + f", each face followed by its back, {counted(2 * total, 'page', 'pages')} of "
                        f"{card_mm[0] + 2 * bleed:g} x {card_mm[1] + 2 * bleed:g} mm ({card_size_name(card_mm)} "
                        f"+ {bleed:g} mm bleed)")


# The mark of a folder an export made: the names of the files it wrote, one a line, each with the
# SHA-256 digest of what it wrote (after a tab; a mark of an earlier version has names alone). An export
# replaces an empty folder, or one holding nothing but files its mark names, as it wrote them; never a
# file of the user's, nor one the user changed since.
MARK = ".made-by-toolkit"
_MARK_HEAD = "# written by toolkit export-cards: a later export may replace the files named here, and only these\n"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _mark(folder: Path) -> None:
    """Name every file of the finished export in its mark, with its digest."""
    names = "".join(f"{entry.name}\t{_digest(entry)}\n" for entry in sorted(folder.iterdir()))
    write_atomic(folder / MARK, (_MARK_HEAD + names).encode("utf-8"))


def _not_an_export(folder: Path) -> str | None:
    """Why ``folder`` may not be replaced by an export (None when it is empty or an earlier export's)."""
    try:
        lines = (folder / MARK).read_text(encoding="utf-8-sig").splitlines()[1:]
    except (OSError, UnicodeDecodeError):
        lines = []
    written = dict(line.partition("\t")[::2] for line in lines)
    for entry in sorted(folder.iterdir()):
        if entry.name == MARK and written:
            continue
        if entry.is_symlink() or not entry.is_file() or entry.name not in written:
            return (f"holds '{entry.name}', which no export writes ({MARK} does not name it): name a new or "
                    "empty folder, or an earlier export's (it is replaced whole)")
        try:
            changed = bool(written[entry.name]) and _digest(entry) != written[entry.name]
        except OSError as err:
            return f"cannot read '{entry.name}': {err.strerror or err}"
        if changed:
            return (f"holds '{entry.name}', changed since the export wrote it: move it, or name another folder "
                    "(an earlier export's folder is replaced whole)")
    return None


def export_folder(catalogue: Catalogue, target: str, lang: str, out: str | None, saved_objects: bool) -> Path:
    """The folder an export goes to: ``--out``, TTS's Saved Objects folder with ``--saved-objects``,
    or ``output/<game>-<target>-<lang>``."""
    if saved_objects:
        if target != "tts":
            raise UserError(f"--saved-objects: only for --target tts (not {target})")
        if out:
            raise UserError("--saved-objects and --out: give one of them (--saved-objects writes into "
                            "Tabletop Simulator's Saved Objects folder)")
        from toolkit.print.tts import saved_objects_folder

        return saved_objects_folder() / f"{catalogue.game}-{lang}"
    return Path(out) if out else Path("output") / f"{catalogue.game}-{target}-{lang}"


def _service_only(option: str, value, targets: tuple[str, ...], target: str) -> None:
    if value is not None and target not in targets:
        raise UserError(f"{option}: only for --target {' or '.join(targets)} (not {target})")


def export_cards(catalogue: Catalogue, target: str, out: str | Path, lang: str = "en",
                 card_mm: tuple[float, float] = CARD_SIZES["poker"], bleed: float | None = None,
                 aids: bool = False, card_size: str | None = None, base_url: str | None = None,
                 cmyk_profile: str | Path | None = None) -> ExportResult:
    """Write the ``target`` files into the folder ``out``, whole: the folder is built beside ``out``
    and renamed into place at the end, replacing an earlier export whole (none of its files stay
    behind), so an interrupted or failed run leaves ``out`` as it was.

    ``card_size`` is what ``--card`` said (a preset's name, or WxH); a print service's target takes
    its own size for that preset, and refuses a size it does not offer."""
    if target not in TARGETS:
        raise UserError(f"--target {target}: unknown target (choose from {', '.join(TARGETS)})")
    if lang not in catalogue.langs:
        raise UserError(f"--lang {lang}: the deck has no such language (its languages: {', '.join(catalogue.langs)})")
    _service_only("--base-url", base_url, ("tts", "screentop"), target)
    _service_only("--cmyk-profile", cmyk_profile, ("drivethru",), target)
    if base_url is not None:
        from toolkit.print.tts import hosted_base

        hosted_base(base_url)  # a bad address is refused before any work
    if target in SERVICE_TARGETS:
        if bleed is not None:
            service = service_target(target)
            raise UserError(f"--bleed: {service.service} sets its own bleed"
                            + (" (its images are cut at the trim)" if service.sizes is None else "")
                            + "; leave --bleed out")
        preset = (card_size or card_size_name(card_mm).split()[0]).strip().lower()
        spec = service_target(target).spec(preset if preset in CARD_SIZES else None, card_mm)
        card_mm, bleed = spec.card_mm, spec.bleed_mm
    else:
        spec = None
        bleed = check_bleed(3.0 if bleed is None else bleed)
    out = Path(out)
    faces = _faces(catalogue, lang, card_mm, bleed, aid_copies(catalogue) if aids else 0,
                   safe_mm=spec.safe_mm if spec else None)
    if target in ("png", "tgc", "mpc", "tabletopia"):
        _check_file_names(catalogue, faces.cards)
    with atomic_folder(out, _not_an_export) as tmp:
        result = _export_into(catalogue, target, faces, out, tmp, lang, card_mm, bleed, spec, base_url, cmyk_profile)
        _mark(tmp)
    return result


def _export_into(catalogue: Catalogue, target: str, faces: Faces, out: Path, tmp: Path, lang: str, card_mm,
                 bleed: float, spec, base_url: str | None, cmyk_profile: str | Path | None) -> ExportResult:
    if target == "png":
        return export_png(catalogue, faces, out, tmp, lang, card_mm, bleed)
    if target == "pdf-single":
        return export_pdf_single(catalogue, faces, out, tmp, lang, card_mm, bleed)
    if target == "tts":
        return export_tts(catalogue, faces, out, tmp, lang, card_mm, spec, base_url)
    if target == "drivethru":
        from toolkit.print.drivethru import export_drivethru

        return export_drivethru(catalogue, faces, out, tmp, lang, spec, cmyk_profile)
    if target == "screentop":
        from toolkit.print.screentop import export_screentop

        return export_screentop(catalogue, faces, out, tmp, lang, spec, base_url)
    from toolkit.print.services import export_png_set

    return export_png_set(catalogue, faces, out, tmp, lang, service_target(target), spec)
