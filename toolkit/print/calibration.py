"""A duplex alignment sheet: two pages, the front and back of one sheet, that show how far a
printer puts its second side off, in the very numbers ``print-cards --back-offset X,Y`` takes.

The front carries five stations (the centre and near each corner), each an X scale (horizontal)
and a Y scale (vertical) with a tick every 0.5 mm. The back carries a pointer behind the reference
point of every scale. Printed duplex and held against the light, each pointer shows through at the
printer's offset, and the scale is labelled so that the value under it is the back offset that
cancels that offset:

* A printer that puts the back side d = (dx, dy) mm off (right and down, as seen on the back, the
  convention of ``layout.back_shift``) moves a pointer, seen from the front, by -dx across a
  long-edge flip (the sheet mirrors in x) and by +dx across a short-edge flip; in y by -dy and +dy.
* The sheet is printed with the back offset o applied to its back page, like the card backs, so
  a pointer lands at front position ref + s (-(o + d)), s = +1 for a long-edge flip, -1 for short.
* The value v is drawn at ref + s (v - o); the pointer therefore falls on v = -d, the offset to
  pass, whatever o the sheet was printed with: printing it again with the value read checks the
  correction (every pointer then points at the thick tick, value o, at the reference point).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from toolkit.catalogue.model import LANGS
from toolkit.errors import UserError
from toolkit.print.layout import PAPERS, back_shift
from toolkit.pdf.canvas import binary_streams, new_canvas
from toolkit.typeset.breaks import bind
from toolkit.typeset.fonts import font_metrics, PDF_FONTS
from toolkit.typeset.units import PT_PER_MM

TICK = 0.5            # mm between ticks: the sheet reads to half a millimetre
REACH = 6.0           # mm of scale either side of the value the sheet was printed with
LABEL_EVERY = 2       # a number every 2 mm (whole numbers only: no decimal sign to misread)
TICK_LENGTHS = (1.2, 2.0, 3.0)  # mm: half millimetres, whole ones, labelled ones
LINE = 0.15           # mm, the scales' lines
REF_LINE = 0.4        # mm, the thick tick at the value the sheet was printed with
LABEL_SIZE = 2.5      # mm of font size (7.1 pt: the numbers are read to half a millimetre)
STAGGER = 2.0         # mm: every other number on a scale stands this much further from it
POINTER = (3.0, 0.8)  # mm: the pointer triangle's length and half width
POINTER_GAP = 0.3     # mm between the triangle's tip and the scale's base line
EDGE = 15.0           # mm from the paper's edges to the nearest part of a corner station
# A station's parts, relative to the X scale's reference point: the Y scale's reference point, and
# the station's extent (left, bottom, right, top) with labels and pointers.
Y_REF = (12.0, 13.0)
EXTENT = (-9.5, -4.0, 21.5, 23.0)

_WORDS = {
    "en": {
        "title": "Duplex alignment sheet",
        "long": "long-edge flip", "short": "short-edge flip",
        "printed": "This sheet: {paper}, both sides, {flip}, back offset X {x} mm, Y {y} mm.",
        "steps": [
            "Print this sheet on both sides of one sheet of paper ({flip}), at 100 % "
            "(“actual size”, not “fit to page”).",
            "Hold it against a window or a lamp, this side towards you: the triangles printed on the "
            "back show through.",
            "At each of the five marks, read the number the triangle points at: X on the "
            "horizontal scale, Y on the vertical one. The numbers are millimetres; each small tick "
            "is half a millimetre (one tick past 2, away from 0, reads 2.5; one tick past −2 reads −2.5).",
            "If the five marks agree, X and Y are your printer’s back offset: print the cards with "
            "this back offset. Then print this sheet again with it: every triangle should point at "
            "the thick tick.",
        ],
        "corners": "If the corners disagree",
        "advice": [
            "The left corners give a different X from the right ones, or the top corners a different Y "
            "from the bottom ones: the printer scales one side. Turn off “fit to page” and “shrink”, print at 100 % and read again.",
            "The left corners give different Y from the right ones, or the top corners different X "
            "from the bottom ones: the paper turns as it feeds. Set the paper guides snug against "
            "the stack and print again.",
            "If they still differ by half a millimetre or so, use the centre reading: it splits the "
            "difference over the sheet.",
            "A triangle past the end of its scale: use the end value, print again and read again.",
        ],
        "back": "Back of the alignment sheet: read the scales on the other side, held against the light.",
    },
    "ru": {
        "title": "Лист для совмещения сторон",
        "long": "переворот по длинному краю", "short": "переворот по короткому краю",
        "printed": "Этот лист: {paper}, две стороны, {flip}, сдвиг оборота X {x} мм, Y {y} мм.",
        "steps": [
            "Напечатайте этот лист с двух сторон одного листа бумаги ({flip}) в масштабе 100 % "
            "(«фактический размер», не «по размеру страницы»).",
            "Посмотрите лист на просвет (у окна или лампы), этой стороной к себе: треугольники "
            "с обратной стороны видны сквозь бумагу.",
            "У каждой из пяти меток прочтите число, на которое указывает треугольник: X на "
            "горизонтальной шкале, Y на вертикальной. Числа — миллиметры, мелкое деление — "
            "полмиллиметра (на деление дальше 2 от нуля — это 2,5, на деление дальше −2 — это −2,5).",
            "Если все пять меток показывают одно и то же, X и Y — сдвиг оборота для вашего принтера: печатайте "
            "карты с этим сдвигом оборота. Затем напечатайте этот лист ещё раз с ним: все "
            "треугольники должны указать на жирное деление.",
        ],
        "corners": "Если углы показывают разное",
        "advice": [
            "Левые углы показывают другой X, чем правые, или верхние — другой Y, чем нижние: принтер "
            "меняет масштаб одной стороны. Отключите «по размеру страницы» и «уменьшить», печатайте в масштабе "
            "100 % и прочтите снова.",
            "Левые углы показывают другой Y, чем правые, или верхние — другой X, чем нижние: "
            "лист поворачивается при подаче. Придвиньте направляющие вплотную к пачке бумаги "
            "и напечатайте снова.",
            "Если разница осталась в полмиллиметра или около того, берите показание центра: "
            "оно делит разницу по листу.",
            "Треугольник за концом шкалы: возьмите крайнее значение, напечатайте и прочтите снова.",
        ],
        "back": "Оборот листа для совмещения: шкалы читайте на другой стороне, на просвет.",
    },
}


@dataclass(frozen=True)
class Scale:
    """One scale on the front: along ``axis`` ("x": horizontal, read by a vertical pointer; "y":
    vertical), its reference point ``ref`` (front page mm, y up) where the value is ``offset`` (the
    back offset the sheet is printed with, along the axis), values growing with ``sign`` +1 to the
    right (up) or -1 to the left (down)."""

    axis: str
    ref: tuple[float, float]
    sign: int
    offset: float

    def position(self, value: float) -> float:
        """Where ``value`` is drawn, along the axis (front page mm)."""
        return self.ref[0 if self.axis == "x" else 1] + self.sign * (value - self.offset)

    def values(self) -> list[float]:
        """Every tick's value: multiples of TICK within REACH of the nearest one to ``offset``."""
        centre = round(self.offset / TICK)
        steps = round(REACH / TICK)
        return [(centre + k) * TICK for k in range(-steps, steps + 1)]


@dataclass(frozen=True)
class CalibrationResult:
    pdf: bytes
    summary: str
    page: tuple[float, float]
    scales: tuple[Scale, ...]


def stations(page: tuple[float, float]) -> list[tuple[float, float]]:
    """The X scales' reference points: the centre of the sheet and near each corner, each station
    EDGE mm from the paper's edges, so that every printer reaches it."""
    W, H = page
    left, bottom, right, top = EXTENT
    xs = (EDGE - left, W - EDGE - right)
    ys = (EDGE - bottom, H - EDGE - top)
    centre = (W / 2 - (left + right) / 2, H / 2 - (bottom + top) / 2)
    return [centre] + [(x, y) for y in reversed(ys) for x in xs]


def _scales(page: tuple[float, float], duplex: str, back_offset: tuple[float, float]) -> list[Scale]:
    sign = 1 if duplex == "long" else -1
    scales = []
    for x, y in stations(page):
        scales.append(Scale("x", (x, y), sign, back_offset[0]))
        scales.append(Scale("y", (x + Y_REF[0], y + Y_REF[1]), sign, back_offset[1]))
    return scales


def _number(value: float, lang: str) -> str:
    text = f"{value:g}".replace("-", "−")
    return text.replace(".", ",") if lang == "ru" else text


def _draw_scale(canvas: Canvas, scale: Scale, lang: str) -> None:
    mm = PT_PER_MM
    font = PDF_FONTS["label"]
    ascent = font_metrics("label")[0] * 0.7 * LABEL_SIZE  # about the digits' height
    values = scale.values()
    along = [scale.position(v) for v in values]
    x0, y0 = scale.ref
    canvas.setLineWidth(LINE * mm)
    canvas.setLineCap(0)
    lines = []
    if scale.axis == "x":
        lines.append((min(along) * mm, y0 * mm, max(along) * mm, y0 * mm))
    else:
        lines.append((x0 * mm, min(along) * mm, x0 * mm, max(along) * mm))
    canvas.setFont(font, LABEL_SIZE * mm)
    for value, at in zip(values, along):
        labelled = value % LABEL_EVERY == 0
        length = TICK_LENGTHS[2 if labelled else 1 if value % 1 == 0 else 0]
        if scale.axis == "x":
            if value % (2 * LABEL_EVERY) == LABEL_EVERY:  # every other number a row higher: "−4" "−2" touch
                length += STAGGER
            lines.append((at * mm, y0 * mm, at * mm, (y0 + length) * mm))
            if labelled:
                canvas.drawCentredString(at * mm, (y0 + length + 0.6) * mm, _number(value, lang))
        else:
            if value % (2 * LABEL_EVERY) == LABEL_EVERY:  # every other number further out: a number is
                length += STAGGER  # taller than the 2 mm between two
            lines.append((x0 * mm, at * mm, (x0 + length) * mm, at * mm))
            if labelled:
                canvas.drawString((x0 + length + 0.6) * mm, (at - ascent / 2) * mm, _number(value, lang))
    canvas.lines(lines)
    # The thick tick: where the value is the offset this sheet was printed with.
    canvas.setLineWidth(REF_LINE * mm)
    end = TICK_LENGTHS[2]
    if scale.axis == "x":
        canvas.line(x0 * mm, y0 * mm, x0 * mm, (y0 + end) * mm)
    else:
        canvas.line(x0 * mm, y0 * mm, (x0 + end) * mm, y0 * mm)
    canvas.setFont(PDF_FONTS["name"], 2.7 * mm)
    if scale.axis == "x":
        canvas.drawRightString((min(along) - 1.2) * mm, (y0 + 0.4) * mm, "X")
    else:
        canvas.drawCentredString(x0 * mm, (max(along) + 1.2) * mm, "Y")


def _draw_pointer(canvas: Canvas, scale: Scale) -> None:
    """The pointer behind ``scale``'s reference point, drawn in front coordinates (the caller maps
    them through the paper): a triangle whose tip touches the base line from the side away from
    the ticks, and a thin line on across the ticks."""
    mm = PT_PER_MM
    x, y = scale.ref
    length, half = POINTER
    tip = POINTER_GAP
    if scale.axis == "x":
        points = [(x, y - tip), (x - half, y - tip - length), (x + half, y - tip - length)]
        line = (x, y - tip, x, y + TICK_LENGTHS[2])
    else:
        points = [(x - tip, y), (x - tip - length, y - half), (x - tip - length, y + half)]
        line = (x - tip, y, x + TICK_LENGTHS[2], y)
    path = canvas.beginPath()
    path.moveTo(points[0][0] * mm, points[0][1] * mm)
    for px, py in points[1:]:
        path.lineTo(px * mm, py * mm)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.setLineWidth(0.1 * mm)
    canvas.line(*(v * mm for v in line))


def _paragraphs(canvas: Canvas, texts: list[tuple[str, str]], lang: str, x: float, top: float,
                width: float) -> float:
    """Draw (style, text) paragraphs from ``top`` down, ``width`` wide; returns the bottom (mm).
    reportlab's Paragraph wraps at ordinary spaces only, so ``bind``'s no-break spaces hold."""
    styles = {
        "title": ParagraphStyle("title", fontName=PDF_FONTS["name"], fontSize=14, leading=17, spaceAfter=4),
        "head": ParagraphStyle("head", fontName=PDF_FONTS["name"], fontSize=10, leading=13, spaceAfter=2),
        "note": ParagraphStyle("note", fontName=PDF_FONTS["label"], fontSize=9, leading=11.5, spaceAfter=6),
        "step": ParagraphStyle("step", fontName=PDF_FONTS["label"], fontSize=9.5, leading=12.5, spaceAfter=3,
                               leftIndent=12, bulletIndent=0, bulletFontName=PDF_FONTS["name"]),
    }
    y = top * PT_PER_MM
    for style, text in texts:
        bullet = None
        if style.startswith("step"):
            style, bullet = "step", style.removeprefix("step")
        para = Paragraph(bind(text, lang), styles[style], bulletText=bullet or None)
        _, h = para.wrap(width * PT_PER_MM, 1e6)
        y -= h
        para.drawOn(canvas, x * PT_PER_MM, y)
        y -= styles[style].spaceAfter
    return y / PT_PER_MM


def calibration_sheet(paper: str = "a4", duplex: str = "long", back_offset: tuple[float, float] = (0.0, 0.0),
                      lang: str = "en") -> CalibrationResult:
    """The alignment sheet for ``duplex`` "long" or "short" on ``paper``, its back page moved by
    ``back_offset`` (X right, Y down as seen on the back) as the card backs would be."""
    paper = paper.lower()
    back_offset = (back_offset[0] + 0.0, back_offset[1] + 0.0)  # -0 reads as 0
    if lang not in LANGS:
        raise UserError(f"--lang {lang}: unknown language (choose from {', '.join(LANGS)})")
    if paper not in PAPERS:
        raise UserError(f"--paper {paper}: unknown paper (choose from {', '.join(PAPERS)})")
    if duplex not in ("long", "short"):
        raise UserError(f"--duplex {duplex}: the calibration sheet is printed on both sides of one sheet "
                        "(use --duplex long or short)")
    words = _WORDS[lang]
    page = W, H = PAPERS[paper]
    scales = _scales(page, duplex, back_offset)
    paper_name = "A4" if paper == "a4" else "Letter"
    flip = words[duplex]
    x_text, y_text = (_number(v, lang) for v in back_offset)

    buffer = io.BytesIO()
    with binary_streams():
        subject = words["printed"].format(paper=paper_name, flip=flip, x=x_text, y=y_text)
        # no deck: dated by the code that draws it (or SOURCE_DATE_EPOCH)
        canvas = new_canvas(buffer, page, words["title"], subject, lang=lang, game=words["title"], files=[__file__])
        # The front: the scales and what to do with them.
        canvas.setFillGray(0)
        canvas.setStrokeGray(0)
        for scale in scales:
            _draw_scale(canvas, scale, lang)
        left = EDGE + 5
        width = W - 2 * left
        centre_top = stations(page)[0][1] + EXTENT[3]
        centre_bottom = stations(page)[0][1] + EXTENT[1]
        top = H - EDGE - EXTENT[3] + EXTENT[1] - 6
        texts = [("title", words["title"]), ("note", subject)]
        texts += [(f"step{i}.", step.format(flip=flip)) for i, step in enumerate(words["steps"], 1)]
        bottom = _paragraphs(canvas, texts, lang, left, top, width)
        assert bottom >= centre_top + 3, "the instructions run into the centre marks"  # layout, not input
        advice = [("head", words["corners"])] + [("step•", text) for text in words["advice"]]
        _paragraphs(canvas, advice, lang, left, centre_bottom - 8, width)
        canvas.showPage()
        # The back: the pointers, drawn as the front seen through the paper, then moved by the offset.
        dx, dy = back_shift(back_offset)
        canvas.saveState()
        if duplex == "long":   # turned over its long edge: x mirrors
            canvas.translate((W + dx) * PT_PER_MM, dy * PT_PER_MM)
            canvas.scale(-1, 1)
        else:                  # turned over its short edge: y mirrors
            canvas.translate(dx * PT_PER_MM, (H + dy) * PT_PER_MM)
            canvas.scale(1, -1)
        canvas.setFillGray(0)
        canvas.setStrokeGray(0)
        for scale in scales:
            _draw_pointer(canvas, scale)
        canvas.restoreState()
        canvas.setFont(PDF_FONTS["label"], 9)
        canvas.drawCentredString(W / 2 * PT_PER_MM, (centre_bottom - 30) * PT_PER_MM, words["back"])
        canvas.showPage()
        canvas.save()
    summary = (f"a duplex alignment sheet: {paper_name}, 2 pages (front and back), {_WORDS['en'][duplex]}, "
               f"back offset {back_offset[0]:g},{back_offset[1]:g} mm")
    return CalibrationResult(buffer.getvalue(), summary, page, tuple(scales))
