"""Proofing a rendered rulebook from its PDF, as an editor would look at the pages: how full each page
is, where its charts stand, what its first line is, how its lines end. The measures read the PDF back
(pypdfium2 renders the ink and finds the pictures, pypdf gives the text in reading order); only the
page's text area comes from the layout (``toolkit.rulebook.layout.geometry``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pypdf import PdfReader

PT_PER_MM = 72 / 25.4
SCALE = 0.5  # pixels per point when measuring ink (36 DPI: a line of 9 pt text is 4-5 pixels high)
INK = 200  # a pixel darker than this (of 255) is ink


@dataclass
class Page:
    number: int            # the book's page number (a booklet's, before imposition)
    ink: np.ndarray | None  # True where the page has ink, rows from the top (None: a blank page)
    charts: list[tuple[float, float, float, float]]  # (left, bottom, right, top) in points, page's own
    chars: list[tuple[float, float, float, float, float]]  # (left, bottom, right, top, font size)
    text: str              # the page's text in reading order
    width: float
    height: float

    @property
    def blank(self) -> bool:
        return self.ink is None


def book_pages(pdf: bytes, booklet: bool) -> list[Page]:
    """The book's pages in order; a booklet's printed sides are cut in halves and put in page order."""
    from toolkit.rulebook.booklet import sheet_order

    document, reader = pdfium.PdfDocument(pdf), PdfReader(__import__("io").BytesIO(pdf))
    pages = []
    order = sheet_order(2 * len(document)) if booklet else None
    for index in range(len(document)):
        page = document[index]
        width, height = page.get_size()
        halves = [(number, i) for i, number in enumerate(order[index])] if booklet else [(index + 1, 0)]
        half = width / 2 if booklet else width
        texts = _half_texts(reader.pages[index], half) if booklet else [reader.pages[index].extract_text()]
        image = np.asarray(page.render(scale=SCALE, grayscale=True).to_pil().convert("L")) < INK
        charts = [_bounds(obj) for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=4)]
        chars = _chars(page)
        for number, i in halves:
            if number is None:
                continue
            x0, x1 = i * half, (i + 1) * half
            ink = image[:, round(x0 * SCALE):round(x1 * SCALE)]
            pages.append(Page(
                number, ink if ink.any() else None,
                [(l - x0, b, r - x0, t) for l, b, r, t in charts if x0 <= (l + r) / 2 < x1],
                [(l - x0, b, r - x0, t, size) for l, b, r, t, size in chars if x0 <= (l + r) / 2 < x1],
                texts[i], half, height))
    return sorted(pages, key=lambda p: p.number)


def _bounds(obj) -> tuple[float, float, float, float]:
    """A page object's box (pypdfium2 5 calls it get_bounds, 4 get_pos)."""
    return (obj.get_bounds if hasattr(obj, "get_bounds") else obj.get_pos)()


def _chars(page) -> list[tuple[float, float, float, float, float]]:
    textpage = page.get_textpage()
    out = []
    for i in range(textpage.count_chars()):
        if textpage.get_text_range(i, 1).strip():
            left, bottom, right, top = textpage.get_charbox(i)
            out.append((left, bottom, right, top, pdfium_c.FPDFText_GetFontSize(textpage.raw, i)))
    return out


def _half_texts(page, half: float) -> list[str]:
    """The text of each half of an imposed side, each in its own reading order."""
    parts: list[list[str]] = [[], []]

    def visit(text, cm, tm, font, size):
        x = cm[4] + tm[4] * cm[0]
        parts[0 if x < half else 1].append(text)

    page.extract_text(visitor_text=visit)
    return ["".join(part) for part in parts]


def column_fill(page: Page, area: tuple[float, float, float, float], columns: int) -> list[float]:
    """How far down each column of the text area (left, bottom, right, top in points, from the page's
    foot) the ink reaches, as a share of the column's height."""
    if page.ink is None:
        return [0.0] * columns
    left, bottom, right, top = area
    rows_top, rows_bottom = round((page.height - top) * SCALE), round((page.height - bottom) * SCALE)
    fills = []
    step = (right - left) / columns
    for c in range(columns):
        band = page.ink[rows_top:rows_bottom, round((left + c * step) * SCALE):round((left + (c + 1) * step) * SCALE)]
        rows = np.flatnonzero(band.any(axis=1))
        fills.append(0.0 if not len(rows) else (rows[-1] + 1) / band.shape[0])
    return fills


def early_column_ends(pages: list[Page], area: tuple[float, float, float, float], columns: int,
                      heading_pt: float, least_mm: float = 20.0) -> list[tuple[int, int, float]]:
    """(page, column, mm) for each column of a page before the last that ends ``least_mm`` or more above
    the column beside it, unless it is the page's last column and the next page starts with a heading
    (a section that starts a page, a planned break). A chart that did not fit is no excuse: the room
    it leaves is shared out between the column's blocks."""
    if columns < 2:
        return []
    left, bottom, right, top = area
    step = (right - left) / columns
    height_mm = (top - bottom) / PT_PER_MM
    by_number = {page.number: page for page in pages}
    last = max(by_number)
    found = []
    for page in pages:
        if page.number == last or page.blank:
            continue
        fills = column_fill(page, area, columns)
        for c, fill in enumerate(fills):
            short = (max(fills) - fill) * height_mm
            if short < least_mm:
                continue
            following = by_number.get(page.number + 1)
            if c == columns - 1 and following is not None and following.chars:
                head = [ch for ch in following.chars if left <= ch[0] < left + step]
                if head and max(head, key=lambda ch: ch[3])[4] >= heading_pt:
                    continue
            found.append((page.number, c + 1, round(short, 1)))
    return found


def text_area(paper: str, booklet: bool) -> tuple[tuple[float, float, float, float], int]:
    """The layout's text area in points (left, bottom, right, top) and its number of columns."""
    from toolkit.rulebook.layout import geometry

    geom = geometry(paper, booklet)
    return ((geom.left * PT_PER_MM, geom.bottom * PT_PER_MM, (geom.page[0] - geom.right) * PT_PER_MM,
             (geom.page[1] - geom.top) * PT_PER_MM), geom.columns)


def line_end_hyphens(text: str) -> list[tuple[str, str]]:
    """(the part before the hyphen, the part on the next line) of each word broken at a line's end."""
    lines = [line.rstrip() for line in text.splitlines()]
    broken = []
    for line, following in zip(lines, lines[1:]):
        if line.endswith("-") and len(line) > 1 and line[-2].isalpha():
            before = line[:-1].split()[-1].split("-")[-1]
            after = following.split()[0] if following.split() else ""
            broken.append((before, "".join(ch for ch in after if ch.isalpha() or ch == "-")))
    return broken


def overprints(pdf: bytes, gap: float = 0.8, size: float | None = None,
               font: str = "") -> list[tuple[int, str, str]]:
    """Text printed over, or run into, other text: (page, one glyph, the other) for every two glyphs
    of a page whose boxes overlap by more than a fifth of the smaller, or that stand on one line
    closer than ``gap`` points while drawn by different text objects (two cells of a table: within
    one object, the glyphs of a line are set by the font's own spacing). With ``size``, only the glyphs
    of that font size (points), and with ``font`` only those of a font whose name holds it, are looked at
    (the labels of a picture)."""
    import ctypes

    found = []
    document = pdfium.PdfDocument(pdf)
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        glyphs, owners = [], []
        for i in range(textpage.count_chars()):
            char = textpage.get_text_range(i, 1)
            if size is not None and abs(pdfium_c.FPDFText_GetFontSize(textpage.raw, i) - size) > 0.05:
                continue
            if font and font not in _font_name(textpage, i):
                continue
            if char.strip():
                glyphs.append((char, *textpage.get_charbox(i)))
                owners.append(ctypes.cast(pdfium_c.FPDFText_GetTextObject(textpage.raw, i), ctypes.c_void_p).value)
        if not glyphs:
            continue
        boxes = np.array([g[1:] for g in glyphs])  # left, bottom, right, top
        owners = np.array(owners, dtype=object)
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        height = boxes[:, 3] - boxes[:, 1]
        for i in range(len(glyphs)):
            rest = boxes[i + 1:]
            w = np.minimum(boxes[i, 2], rest[:, 2]) - np.maximum(boxes[i, 0], rest[:, 0])
            h = np.minimum(boxes[i, 3], rest[:, 3]) - np.maximum(boxes[i, 1], rest[:, 1])
            shared = np.clip(w, 0, None) * np.clip(h, 0, None)
            over = shared > 0.2 * np.maximum(np.minimum(area[i], area[i + 1:]), 1e-6)
            same_line = h > 0.5 * np.minimum(height[i], height[i + 1:])
            close = same_line & (w > -gap) & (owners[i + 1:] != owners[i])
            for j in np.flatnonzero(over | close):
                found.append((index + 1, glyphs[i][0], glyphs[i + 1 + j][0]))
    return found


def _font_name(textpage, index: int) -> str:
    import ctypes

    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, buffer, 128, ctypes.byref(flags))
    return buffer.value.decode("latin-1")


def word_spaces(pdf: bytes, size: tuple[float, float] = (8.5, 10.5)) -> dict[str, list[tuple[int, float]]]:
    """For each font of the body text (glyphs of a font size within ``size``): (page, width) of every
    space between two words, from the space's origin to the next glyph's, in ems of its font size. Set
    ragged right, every space of one font is that font's own space; a justified line widens (or
    shrinks) its spaces to fill its measure."""
    import ctypes

    document = pdfium.PdfDocument(pdf)
    found: dict[str, list[tuple[int, float]]] = {}
    x, y = ctypes.c_double(), ctypes.c_double()
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        count = textpage.count_chars()

        def origin(i: int) -> float:
            pdfium_c.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(x), ctypes.byref(y))
            return x.value, y.value

        for i in range(1, count - 1):
            if textpage.get_text_range(i, 1) not in " \u00a0":
                continue
            size_pt = pdfium_c.FPDFText_GetFontSize(textpage.raw, i)
            if not size[0] <= size_pt <= size[1]:
                continue
            before, after = textpage.get_text_range(i - 1, 1), textpage.get_text_range(i + 1, 1)
            if not before.strip() or not after.strip():
                continue
            (x0, y0), (x1, y1) = origin(i), origin(i + 1)
            if abs(y1 - y0) > 0.5 or x1 <= x0:  # the next glyph is on another line
                continue
            found.setdefault(_font_name(textpage, i), []).append((index + 1, (x1 - x0) / size_pt))
    return found


CARD_RATIO = 88.9 / 63.5  # a poker card's height to its width


def grid_pictures(page: Page) -> list[tuple[float, float, float, float]]:
    """The card pictures of a page's card grids (left, bottom, right, top in points): the cards drawn
    upright, 45 to 80 points wide (the table picture's are smaller, the cover's larger)."""
    return [box for box in page.charts
            if 45 <= box[2] - box[0] <= 80 and abs((box[3] - box[1]) / (box[2] - box[0]) - CARD_RATIO) < 0.01]


def caption_lines(page: Page, picture: tuple[float, float, float, float], size: float = 7.5) -> int:
    """How many lines of ``size`` point text stand under ``picture``, one below the other: the lines
    of its caption."""
    left, bottom, right, _ = picture
    under = sorted(((ch[1] + ch[3]) / 2 for ch in page.chars
                    if abs(ch[4] - size) < 0.05 and left - 4 <= (ch[0] + ch[2]) / 2 <= right + 4 and ch[3] <= bottom + 0.5),
                   reverse=True)
    lines, last = 0, bottom
    for y in under:
        if last - y > 14:  # past the caption: the next row's pictures, or the text after the grid
            break
        if lines == 0 or last - y > 4:  # a new line (a line's glyphs stand within 3 points of each other)
            lines += 1
            last = y
    return lines
