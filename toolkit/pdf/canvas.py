"""reportlab plumbing shared by the sheets, the exports, the rulebook and the analysis report: a canvas
that gives the same bytes for the same inputs, and each distinct card side defined once as a form XObject."""

from __future__ import annotations

import io
from contextlib import contextmanager
from typing import Iterable, Iterator

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from toolkit.cards.render import PT_PER_MM, CardFace, draw_card, register_fonts


@contextmanager
def binary_streams() -> Iterator[None]:
    """Streams compressed but not ASCII85-encoded (a quarter smaller) while a PDF is built."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def new_canvas(buffer: io.BytesIO, page_mm: tuple[float, float], title: str, subject: str,
               lang: str | None = None, game: str = "", colour=None) -> Canvas:
    """A canvas with fixed dates, ids and metadata: the same drawing gives the same bytes. The
    metadata names no software: Author is left empty, Creator and Producer give the ``game``'s
    title; the catalog declares the document's ``lang``. ``colour``, when given, converts every
    colour set on the canvas (reportlab's ``enforceColorSpace``: a CMYK-only file)."""
    fonts = register_fonts()
    # The initial font is one of ours, so that no page refers to a font that is not embedded.
    canvas = Canvas(buffer, pagesize=(page_mm[0] * PT_PER_MM, page_mm[1] * PT_PER_MM), invariant=1,
                    pageCompression=1, initialFontName=fonts["label"], initialFontSize=8, lang=lang,
                    enforceColorSpace=colour)
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("")
    canvas.setCreator(game)
    canvas.setProducer(game)
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
