"""Duplex alignment, checked from the PDFs: the calibration sheet read as a person would (pointers on
the back, mapped through the paper with a simulated printer offset, onto the front's labelled
scales), the value read passed back to print-cards cancelling that offset, --back-offset moving
every back and nothing else, and the refusals."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from toolkit.catalogue import load
from toolkit.print import print_cards
from toolkit.print.calibration import calibration_sheet
from toolkit.typeset.units import PT_PER_MM
from conftest import drawing, transform as _apply

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
# A printer's own error on the back side: mm right and down as seen on the back.
PRINTER_ERRORS = [(0.0, 0.0), (1.5, -1.0), (-2.5, 0.5), (0.7, -3.2), (-4.0, 4.5)]


# --- reading a page's drawing ------------------------------------------------------------------------


def labels(data: bytes, index: int) -> list[tuple[float, tuple[float, float]]]:
    """Every number printed on page ``index``: (value, centre of its box in mm)."""
    doc = pdfium.PdfDocument(data)
    try:
        text = doc[index].get_textpage()
        found = []
        for i in range(text.count_rects()):
            box = text.get_rect(i)
            word = text.get_text_bounded(*box).strip().replace("−", "-").replace(",", ".")
            if re.fullmatch(r"-?\d+(\.\d+)?", word):
                found.append((float(word), ((box[0] + box[2]) / 2 / PT_PER_MM, (box[1] + box[3]) / 2 / PT_PER_MM)))
        return found
    finally:
        doc.close()


def through_the_paper(point, page, duplex, error=(0.0, 0.0)):
    """Where a point the back page draws at ``point`` lands, seen from the front, when the printer
    puts the back side ``error`` mm off (right and down as seen on the back)."""
    x, y = point[0] + error[0], point[1] - error[1]
    return (page[0] - x, y) if duplex == "long" else (x, page[1] - y)


# --- reading the calibration sheet ---------------------------------------------------------------------


def front_scales(data: bytes):
    """The front's scales as (axis, base line (fixed coordinate), span (lo, hi), [(tick position,
    value)] for the labelled ticks): X scales are vertical ticks on a horizontal base line."""
    reader = PdfReader(io.BytesIO(data))
    segments, _, _ = drawing(reader, 0)
    numbers = labels(data, 0)
    bases = [s for s in segments if abs(s[1] - s[3]) < 1e-6 and abs(s[0] - s[2]) > 10]
    bases += [s for s in segments if abs(s[0] - s[2]) < 1e-6 and abs(s[1] - s[3]) > 10]
    scales = []
    for s in bases:
        axis = "x" if abs(s[1] - s[3]) < 1e-6 else "y"
        fixed, lo, hi = (s[1], min(s[0], s[2]), max(s[0], s[2])) if axis == "x" else (s[0], min(s[1], s[3]), max(s[1], s[3]))
        if axis == "x":  # vertical ticks standing on this base line
            ticks = sorted({round(t[0], 4) for t in segments if abs(t[0] - t[2]) < 1e-6
                            and abs(min(t[1], t[3]) - fixed) < 1e-6 and lo - 1e-6 <= t[0] <= hi + 1e-6})
        else:
            ticks = sorted({round(t[1], 4) for t in segments if abs(t[1] - t[3]) < 1e-6
                            and abs(min(t[0], t[2]) - fixed) < 1e-6 and lo - 1e-6 <= t[1] <= hi + 1e-6})
        assert len(ticks) == 25 and all(abs(b - a - 0.5) < 1e-3 for a, b in zip(ticks, ticks[1:]))
        marked = []
        for value, (cx, cy) in numbers:
            along, across = (cx, cy - fixed) if axis == "x" else (cy, cx - fixed)
            if lo - 1 <= along <= hi + 1 and 0 < across < 8:
                tick = min(ticks, key=lambda t: abs(t - along))
                assert abs(tick - along) < 0.25, (value, along, tick)  # each number stands at its tick
                marked.append((tick, value))
        assert len(marked) >= 6
        scales.append((axis, fixed, (lo, hi), marked))
    return scales


def read(scale, at: float) -> float:
    """The value of ``scale`` at position ``at``, between (or past) its labelled ticks."""
    (t0, v0), (t1, v1) = scale[3][0], scale[3][-1]
    slope = (v1 - v0) / (t1 - t0)
    for t, v in scale[3]:  # the numbers are evenly spaced: one straight line through all of them
        assert abs(v0 + slope * (t - t0) - v) < 1e-6
    assert abs(abs(slope) - 1) < 1e-6  # one millimetre of paper per millimetre of value
    return v0 + slope * (at - t0)


def tip_of(triangle):
    """A pointer's tip: the corner opposite its shortest side."""
    sides = [(abs(complex(*triangle[(i + 1) % 3]) - complex(*triangle[(i + 2) % 3])), i) for i in range(3)]
    return triangle[min(sides)[1]]


def pointer_readings(data: bytes, page, duplex, error):
    """Each back pointer's reading on the nearest front scale, for a printer with ``error``."""
    reader = PdfReader(io.BytesIO(data))
    _, triangles, _ = drawing(reader, 1)
    scales = front_scales(data)
    readings = []
    assert len(triangles) == 10
    for triangle in triangles:
        points = [through_the_paper(p, page, duplex, error) for p in triangle[:3]]
        tip = tip_of(points)
        others = [p for p in points if p != tip]
        axis = "x" if abs(others[0][1] - others[1][1]) < 1e-6 else "y"
        candidates = [s for s in scales if s[0] == axis]

        def distance(s):
            along, across = (tip[0], tip[1]) if axis == "x" else (tip[1], tip[0])
            middle = (s[2][0] + s[2][1]) / 2
            return abs(along - middle) + abs(across - s[1])

        scale = min(candidates, key=distance)
        readings.append((axis, scale[1], read(scale, tip[0] if axis == "x" else tip[1])))
    return readings


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("printed_with", [(0.0, 0.0), (1.0, -0.5), (-3.5, 2.0)])
def test_pointers_read_the_offset_that_cancels_the_printers(duplex, printed_with):
    """Whatever offset the sheet is printed with, each of the ten pointers reads -error: the back
    offset that cancels the printer's error."""
    sheet = calibration_sheet("a4", duplex, printed_with, "en")
    for error in PRINTER_ERRORS:
        readings = pointer_readings(sheet.pdf, A4, duplex, error)
        assert sorted(axis for axis, _, _ in readings) == ["x"] * 5 + ["y"] * 5
        for axis, _, value in readings:
            expected = -error[0] if axis == "x" else -error[1]
            assert abs(value - expected) < 1e-3, (duplex, printed_with, error, axis, value)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_printed_again_with_the_reading_every_pointer_reads_it_at_the_thick_tick(duplex):
    error = (1.5, -1.0)
    reading = (-1.5, 1.0)
    sheet = calibration_sheet("letter", duplex, reading, "ru")
    thick = thick_ticks(sheet.pdf)
    assert len(thick) == 10
    for axis, base, value in pointer_readings(sheet.pdf, LETTER, duplex, error):
        assert abs(value - (reading[0] if axis == "x" else reading[1])) < 1e-3
    # On the printer it was made for, every tip touches a thick tick's foot; on a perfect printer
    # (no error to cancel) none does, and the pointers read 0.
    for err, on_thick in ((error, True), ((0.0, 0.0), False)):
        for tip in pointer_tips(sheet.pdf, LETTER, duplex, err):
            assert any(abs(tip[0] - t[0]) < 0.35 and abs(tip[1] - t[1]) < 0.35 for t in thick) == on_thick
    for axis, _, value in pointer_readings(sheet.pdf, LETTER, duplex, (0.0, 0.0)):
        assert abs(value) < 1e-3


def thick_ticks(data: bytes):
    """The feet (on the base line) of the front's thick ticks."""
    reader = PdfReader(io.BytesIO(data))
    ops = ContentStream(reader.pages[0].get_contents(), reader).operations
    width, feet = 0.0, []
    for operands, op in ops:  # the scales are drawn without transforms: page points
        if op == b"w":
            width = float(operands[0]) / PT_PER_MM
        elif op == b"m" and width > 0.3:
            feet.append((float(operands[0]) / PT_PER_MM, float(operands[1]) / PT_PER_MM))
    return feet


def pointer_tips(data: bytes, page, duplex, error):
    reader = PdfReader(io.BytesIO(data))
    _, triangles, _ = drawing(reader, 1)
    return [tip_of([through_the_paper(p, page, duplex, error) for p in t[:3]]) for t in triangles]


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_value_read_passed_to_print_cards_puts_every_back_behind_its_front(duplex):
    """End to end on one simulated printer: read the sheet, print the cards with that offset, and
    the backs the printer puts off land exactly behind their fronts (and without it, they do not)."""
    error = (0.7, -1.5)
    readings = pointer_readings(calibration_sheet("a4", duplex, (0.0, 0.0), "en").pdf, A4, duplex, error)
    offset = (next(v for a, _, v in readings if a == "x"), next(v for a, _, v in readings if a == "y"))
    catalogue = load("diamoniak", overrides=["fairy=1"])
    for passed, aligned in ((offset, True), ((0.0, 0.0), False)):
        result = print_cards(catalogue, duplex=duplex, back_offset=passed, aids=False)
        reader = PdfReader(io.BytesIO(result.pdf))
        for sheet in range(0, len(reader.pages), 2):
            fronts = sorted(card_boxes(reader, sheet))
            backs = sorted(_box([through_the_paper(p, A4, duplex, error) for p in corners])
                           for corners in back_corners(reader, sheet + 1))
            assert len(fronts) == len(backs) > 0
            assert all(max(abs(a - b) for a, b in zip(f, k)) < 1e-3 for f, k in zip(fronts, backs)) == aligned


def _box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (round(min(xs), 4), round(min(ys), 4), round(max(xs), 4), round(max(ys), 4))


def back_corners(reader, index, card=(63.0, 88.0)):
    _, _, forms = drawing(reader, index)
    w, h = (v * PT_PER_MM for v in card)
    return [[tuple(v / PT_PER_MM for v in _apply(m, x, y)) for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
            for name, m in forms if name == "back"]


def card_boxes(reader, index, card=(63.0, 88.0), back=False):
    _, _, forms = drawing(reader, index)
    w, h = (v * PT_PER_MM for v in card)
    return [_box([tuple(v / PT_PER_MM for v in _apply(m, x, y)) for x, y in ((0, 0), (w, 0), (0, h), (w, h))])
            for name, m in forms if (name == "back") == back and (back or name.startswith("card-"))]


# --- print-cards --back-offset ---------------------------------------------------------------------------


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_offset_moves_every_back_and_nothing_else(duplex):
    """X right and Y down as seen on the back page, for cards and token backs alike; the fronts,
    their crop marks and the token fronts do not move."""
    catalogue = load("palaces")
    plain = PdfReader(io.BytesIO(print_cards(catalogue, duplex=duplex, bleed=1.0).pdf))
    moved_pdf = print_cards(catalogue, duplex=duplex, bleed=1.0, back_offset=(2.5, -1.5)).pdf
    moved = PdfReader(io.BytesIO(moved_pdf))
    assert len(plain.pages) == len(moved.pages) == 18
    for index in range(len(plain.pages)):
        before, after = drawing(plain, index), drawing(moved, index)
        kinds = {name.split("-")[0] for name, _ in before[2]}
        is_back = index % 2 == 1
        if is_back:
            assert kinds == ({"back"} if index < 16 else {"token"})
        else:  # fronts, crop marks, token fronts: the very same drawing
            assert before == after
            continue
        assert after[0] == before[0] == []  # no marks on the backs
        assert len(before[2]) == len(after[2]) > 0
        for (name, m), (name2, n) in zip(before[2], after[2]):
            assert name == name2 and m[:4] == n[:4]
            assert abs(n[4] - m[4] - 2.5 * PT_PER_MM) < 1e-3 and abs(n[5] - m[5] - 1.5 * PT_PER_MM) < 1e-3


# --- the command -----------------------------------------------------------------------------------------


def test_cli_writes_the_sheet_with_its_summary(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("print-cards", "--calibration", "--duplex", "short", "--back-offset", "1.5,-0.5")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == "output/calibration-a4-en.pdf"
    assert lines[1] == ("a duplex alignment sheet: A4, 2 pages (front and back), short-edge flip, "
                        "back offset 1.5,-0.5 mm")
    data = (tmp_path / lines[0]).read_bytes()
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2
    assert all(abs(float(p.mediabox.width) - 210 * PT_PER_MM) < 0.01 for p in reader.pages)
    assert data == calibration_sheet("a4", "short", (1.5, -0.5), "en").pdf  # same inputs, same bytes


@pytest.mark.parametrize("lang, words", [
    ("en", ["Duplex alignment sheet", "short-edge flip", "If the corners disagree", "100 %"]),
    ("ru", ["Лист для совмещения сторон", "переворот по короткому краю", "Если углы показывают разное",
            "сдвиг оборота X 1,5 мм, Y −0,5 мм"]),
])
def test_instructions_in_the_sheets_language_clear_of_the_scales(lang, words):
    for paper, page in (("a4", A4), ("letter", LETTER)):
        sheet = calibration_sheet(paper, "short", (1.5, -0.5), lang)
        doc = pdfium.PdfDocument(sheet.pdf)
        try:
            text = doc[0].get_textpage()
            plain = " ".join(text.get_text_range().split())
            boxes = [tuple(v / PT_PER_MM for v in text.get_rect(i)) for i in range(text.count_rects())]
            back = " ".join(doc[1].get_textpage().get_text_range().split())
        finally:
            doc.close()
        for word in words:
            assert word in plain.replace("\u00a0", " "), word
        assert not re.search(r"toolkit|--|python|software|program", plain + back, re.I)
        scales = front_scales(sheet.pdf)
        assert len(scales) == 10
        numbers = {round(c[0], 2) for _, c in labels(sheet.pdf, 0)}
        for box in boxes:  # every line of the instructions keeps 2 mm away from every scale
            if round((box[0] + box[2]) / 2, 2) in numbers or (box[2] - box[0]) < 2.5:
                continue  # a scale's own number or its X / Y
            for axis, fixed, (lo, hi), _ in scales:
                zone = (lo - 5, fixed - 5, hi + 5, fixed + 10) if axis == "x" else (fixed - 5, lo - 5, fixed + 10, hi + 5)
                assert box[2] < zone[0] or box[0] > zone[2] or box[3] < zone[1] or box[1] > zone[3], (box, zone)
            assert 10 < box[0] and box[2] < page[0] - 10 and 10 < box[1] and box[3] < page[1] - 10


@pytest.mark.parametrize("args, start", [
    (("--calibration", "--duplex", "fold"), "toolkit: error: --duplex fold: the calibration sheet is printed "
                                            "on both sides of one sheet (use --duplex long or short)"),
    (("--calibration", "--duplex", "none"), "toolkit: error: --duplex none: the calibration sheet"),
    (("--back-offset", "1,0", "--duplex", "fold"), "toolkit: error: --back-offset 1,0: --duplex fold prints no "
                                                   "back pages to shift (use --duplex long or short)"),
    (("--back-offset", "0,-0.5", "--duplex", "none"), "toolkit: error: --back-offset 0,-0.5: --duplex none"),
    (("--back-offset", "11,0"), "toolkit: error: --back-offset 11,0: moves the backs past the paper's edge; "
                                "with this layout X can be from -10.5 to 10.5 mm and Y from -16.5 to 16.5 mm"),
    (("--back-offset", "0,-17", "--duplex", "short"), "toolkit: error: --back-offset 0,-17: moves the backs"),
])
def test_refusals_are_one_line_and_write_nothing(run, tmp_path, monkeypatch, args, start):
    monkeypatch.chdir(tmp_path)
    result = run("print-cards", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith(start) and result.stderr.count("\n") == 1, result.stderr
    assert not (tmp_path / "output").exists()


def test_an_offset_into_the_margin_is_fine_up_to_the_paper_edge(run, tmp_path):
    """A4, 3 x 3 poker cards: 10.5 mm from the side edges to the grid, 16.5 mm from top and bottom."""
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--set", "diamond=1", "--back-offset", "-10.5,16.5", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    boxes = card_boxes(reader, 1, back=True)
    assert min(b[0] for b in boxes) == pytest.approx(0, abs=1e-3)
    assert min(b[1] for b in boxes) == pytest.approx(0, abs=1e-3)


@pytest.mark.parametrize("option", [["--game", "palaces"], ["--set", "witch=2"], ["--card", "mini"],
                                    ["--bleed", "3"], ["--no-aids"], ["--no-crop-marks"]])
def test_calibration_refuses_the_options_of_cards_it_does_not_print(run, tmp_path, option):
    result = run("print-cards", "--calibration", *option, "--out", str(tmp_path / "c.pdf"))
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "--calibration" in lines[0], result.output
    assert option[0] in lines[0] or (option[0].startswith("--no-") and option[0][5:] in lines[0])
    assert not (tmp_path / "c.pdf").exists()


def test_the_summary_says_the_backs_are_shifted(run, tmp_path):
    shifted = run("print-cards", "--back-offset", "1.5,-0.5", "--out", str(tmp_path / "a.pdf"))
    plain = run("print-cards", "--out", str(tmp_path / "b.pdf"))
    assert shifted.exit_code == plain.exit_code == 0
    assert "backs shifted 1.5 mm right and -0.5 mm down" in shifted.output
    assert "shifted" not in plain.output


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_number_on_the_sheet_is_large_enough_to_read(paper, lang):
    """The numbers read to half a millimetre were 5.1 pt: every text on the sheet is 7 pt or more."""
    import math

    sizes = []
    for page in PdfReader(io.BytesIO(calibration_sheet(paper, lang=lang).pdf)).pages:
        def visit(text, cm, tm, font, size):
            if text.strip():
                sizes.append(size * math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]))

        page.extract_text(visitor_text=visit)
    assert sizes and min(sizes) >= 7.0, min(sizes)
