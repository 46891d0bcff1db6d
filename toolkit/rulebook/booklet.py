"""Saddle-stitch imposition: booklet pages two-up on sheets, so that the printed stack folds into a
booklet.

With ``n`` pages (padded with blank pages to a multiple of 4) and sheets counted from 0, sheet ``i``
carries pages ``[n - 2i, 1 + 2i]`` (left, right) on its front and ``[2 + 2i, n - 1 - 2i]`` on its
back (pages counted from 1). Eight pages: front 8|1, back 2|7; front 6|3, back 4|5. Print double-sided
flipping on the short edge, stack the sheets in order, fold them in the middle and staple the fold.
"""

from __future__ import annotations

import io

from toolkit.typeset.units import PT_PER_MM


def sheet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page numbers of each printed side, front and back of each sheet in turn;
    None for a blank padding page."""
    n = -(-pages // 4) * 4
    sides = []
    for i in range(n // 4):
        sides.append((n - 2 * i, 1 + 2 * i))
        sides.append((2 + 2 * i, n - 1 - 2 * i))
    return [tuple(p if p <= pages else None for p in side) for side in sides]


def impose(pdf: bytes, sheet_mm: tuple[float, float], title: str) -> tuple[bytes, int]:
    """Booklet pages (each half of ``sheet_mm`` in landscape) placed 1:1 two-up; returns the PDF and
    its number of printed sides."""
    from pypdf import PdfReader, PdfWriter, Transformation
    from pypdf.generic import NameObject, TextStringObject

    reader = PdfReader(io.BytesIO(pdf))
    width, height = max(sheet_mm) * PT_PER_MM, min(sheet_mm) * PT_PER_MM
    writer = PdfWriter()
    for left, right in sheet_order(len(reader.pages)):
        side = writer.add_blank_page(width, height)
        for number, x in ((left, 0.0), (right, width / 2)):
            if number is not None:
                side.merge_transformed_page(reader.pages[number - 1], Transformation().translate(x, 0))
    # The book's own metadata (Title, Subject, Author, Creator, Producer, fixed dates) and language.
    writer.add_metadata({**{key: value for key, value in (reader.metadata or {}).items()}, "/Title": title})
    lang = reader.trailer["/Root"].get("/Lang")
    if lang is not None:
        writer._root_object[NameObject("/Lang")] = TextStringObject(str(lang))
    writer.compress_identical_objects()
    for page in writer.pages:
        page.compress_content_streams()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)
