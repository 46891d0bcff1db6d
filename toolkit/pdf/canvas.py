"""reportlab plumbing shared by the sheets, the exports, the rulebook and the analysis report: a canvas
that gives the same bytes for the same inputs, and each distinct card side defined once as a form XObject.

Every PDF the toolkit writes has the same metadata (``new_canvas`` here; the rulebook's document
template and the odds and sweep charts take ``metadata``): Title and Subject say what it is, in its
language; Author is who made the deck's edition (the catalogue's ``game.author``; empty when it names
none); Creator and Producer name the toolkit and its version (metadata only, never on a page); and
CreationDate and ModDate are one date, ``document_date``: SOURCE_DATE_EPOCH when it is set (the
reproducible-builds convention), else the time the newest of the deck's files was last changed (the
catalogue, its sheet, layout, art, backs, icons, fonts and texts), so that the same files give the
same bytes and a changed deck a later date; with no file to date it by, 1 January 2000."""

from __future__ import annotations

import io
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from toolkit.cards.render import CardFace, draw_card
from toolkit.typeset.fonts import register_fonts
from toolkit.typeset.units import PT_PER_MM


@contextmanager
def binary_streams() -> Iterator[None]:
    """Streams compressed but not ASCII85-encoded (a quarter smaller) while a PDF is built."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


FALLBACK_DATE = 946684800  # 2000-01-01 00:00 UTC (reportlab's own invariant date): no file to date by


def document_date(files: Iterable[Path | str | None] = ()) -> int:
    """The PDF's CreationDate and ModDate, in seconds since 1970 (UTC): SOURCE_DATE_EPOCH when set,
    else the newest modification time among ``files`` (whole seconds; those missing are passed over),
    else FALLBACK_DATE."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given.isdigit():
        return int(given)
    times = []
    for file in files:
        if file is None:
            continue
        try:
            times.append(int(Path(file).stat().st_mtime))
        except OSError:
            continue
    return max(times, default=FALLBACK_DATE)


def deck_files(catalogue) -> list[Path]:
    """The files a deck is made from, to date its PDFs by: the catalogue, its sheet and layout, the art
    and backs, the icons, fonts and texts it names."""
    files = [catalogue.source, catalogue.sheet, catalogue.layout_file, catalogue.back_art_path]
    files += [card.art_path for card in catalogue.cards] + [card.back_art_path for card in catalogue.cards]
    for named in (catalogue.icons, catalogue.fonts, catalogue.rulebook_texts, catalogue.aid_texts):
        files += list(named.values())
    return [Path(file) for file in files if file is not None]


def pdf_date(seconds: int) -> str:
    """A PDF date string (``D:YYYYMMDDHHmmSS+00'00'``) of ``seconds`` since 1970, in UTC."""
    return "D:%04d%02d%02d%02d%02d%02d+00'00'" % time.gmtime(seconds)[:6]


def software() -> str:
    """Creator and Producer: the toolkit and its version."""
    import toolkit

    return f"toolkit {toolkit.__version__}"


def author_of(catalogue, lang: str | None) -> str:
    """The deck's ``game.author`` in ``lang`` (its first language's where ``lang`` has none), or ""."""
    if catalogue is None:
        return ""
    words = catalogue.author
    return (words.get(lang) if lang else None) or next((words[code] for code in catalogue.langs if words.get(code)), "")


def chart_metadata(title: str, date: int | None = None) -> dict:
    """The metadata of a matplotlib PDF chart (``savefig(metadata=...)``), as on every PDF the toolkit
    writes: its title, the toolkit as Creator and Producer, one date (``document_date`` when not given)."""
    from datetime import datetime, timezone

    when = datetime.fromtimestamp(document_date() if date is None else date, tz=timezone.utc)
    return {"Title": title, "Creator": software(), "Producer": software(), "CreationDate": when, "ModDate": when}


def set_metadata(canvas: Canvas, title: str, subject: str, author: str = "", date: int | None = None) -> None:
    """The document's metadata (see the module's doc) on a reportlab canvas."""
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor(author)
    canvas.setCreator(software())
    canvas.setProducer(software())
    stamp = pdf_date(document_date() if date is None else date)
    canvas._doc.setDateFormatter(lambda *_: stamp)


def new_canvas(buffer: io.BytesIO, page_mm: tuple[float, float], title: str, subject: str,
               lang: str | None = None, game: str = "", colour=None, catalogue=None,
               files: Iterable[Path | str | None] = ()) -> Canvas:
    """A canvas with fixed ids and the toolkit's metadata (see the module's doc): the same drawing
    from the same files gives the same bytes. Author and the dates come from the ``catalogue``
    (and any other ``files`` the document is made from); the catalog declares the document's
    ``lang``. ``colour``, when given, converts every colour set on the canvas (reportlab's
    ``enforceColorSpace``: a CMYK-only file). ``game`` is kept for callers that name it."""
    fonts = register_fonts()
    # The initial font is one of ours, so that no page refers to a font that is not embedded.
    canvas = Canvas(buffer, pagesize=(page_mm[0] * PT_PER_MM, page_mm[1] * PT_PER_MM), invariant=1,
                    pageCompression=1, initialFontName=fonts["label"], initialFontSize=8, lang=lang,
                    enforceColorSpace=colour)
    dated = [*(deck_files(catalogue) if catalogue is not None else []), *files]
    set_metadata(canvas, title, subject, author_of(catalogue, lang), document_date(dated))
    return canvas


def form_name(face: CardFace) -> str:
    """"card-<id>" for a face, "back" for the deck's back, "back-<id>" for a card's own back."""
    kind, _, rest = face.key.partition(":")
    return f"{kind}-{rest}" if rest else kind


def define_forms(canvas: Canvas, faces: Iterable[CardFace]) -> dict[str, str]:
    """Each face as a form XObject (its art image embedded once however often it is drawn);
    returns face key -> form name."""
    names = {}
    for face in faces:
        name = form_name(face)
        b = face.bleed_mm * PT_PER_MM
        canvas.beginForm(name, -b, -b, face.width * PT_PER_MM + b, face.height * PT_PER_MM + b)
        draw_card(canvas, face, 0, 0)
        canvas.endForm()
        names[face.key] = name
    return names


def place_form(canvas: Canvas, name: str, x_mm: float, y_mm: float, w_mm: float, h_mm: float,
               turned: bool = False) -> None:
    """Draw a card form with its trim's bottom-left corner at (x, y) mm; ``turned`` upside down."""
    canvas.saveState()
    if turned:
        canvas.translate((x_mm + w_mm) * PT_PER_MM, (y_mm + h_mm) * PT_PER_MM)
        canvas.rotate(180)
    else:
        canvas.translate(x_mm * PT_PER_MM, y_mm * PT_PER_MM)
    canvas.doForm(name)
    canvas.restoreState()
