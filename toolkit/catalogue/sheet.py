"""Read a spreadsheet deck's cells: CSV by the csv module, XLSX and ODS by python-calamine.

A sheet is a grid of cells, the first row its column names; the loader (``toolkit.catalogue.loader``)
turns each further row into a card type. Here the file becomes that grid, or one UserError line
naming the file and what is wrong: too large, not a spreadsheet, merged cells.

CSV is UTF-8 (a byte-order mark is fine), its delimiter a comma, a semicolon or a tab, whichever the
first line (the column names) holds most of (as spreadsheet programs write it in locales with a decimal
comma): counted, not guessed by ``csv.Sniffer``, whose patterns take minutes over some long lines. Every CSV cell is
text. XLSX and ODS cells keep their type: numbers are floats (python-calamine reads no ints), a
formula is the value the spreadsheet program last computed and saved with it (a formula saved without
one, as programs that compute none write it, is refused in one line naming its cell), and dates,
times and booleans come as such, for the loader to refuse. The first sheet of a workbook is the deck.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from xml.etree import ElementTree
from pathlib import Path

from toolkit.catalogue.checks import printable, quote
from toolkit.errors import UserError

SHEET_SUFFIXES = (".csv", ".xlsx", ".ods")
MAX_SHEET_BYTES = 5_000_000      # a sheet file
MAX_UNPACKED_BYTES = 50_000_000  # what an .xlsx or .ods (zip archives) holds unpacked
MAX_SHEET_ROWS = 10_000          # the last row that may hold a value (calamine reads the rectangle up to it)
MAX_SHEET_COLUMNS = 200          # the last column that may (one value at XFD1048576: 17 billion cells)
_DELIMITERS = ",;\t"


def is_sheet(path: Path) -> bool:
    return path.suffix.lower() in SHEET_SUFFIXES


def column_letter(index: int) -> str:
    """``0`` -> ``A``, ``26`` -> ``AA``: how spreadsheet programs name a column."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def read_cells(path: Path, raw: bytes) -> list[list[object]]:
    """The cells of the sheet whose bytes are ``raw``, row by row (rows may differ in length)."""
    name = printable(path.name)
    if len(raw) > MAX_SHEET_BYTES:
        raise UserError(f"{name}: the file is larger than a sheet may be (at most {MAX_SHEET_BYTES // 1_000_000} MB)")
    if path.suffix.lower() == ".csv":
        return _csv_cells(name, raw)
    return _workbook_cells(name, raw)


def _csv_cells(name: str, raw: bytes) -> list[list[object]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UserError(f"{name}: the file is not UTF-8 text (byte {err.start + 1}): save the sheet as "
                        "CSV UTF-8") from None
    if "\0" in text:
        raise UserError(f"{name}: the file holds a NUL character: it is not a CSV text file")
    first = text.split("\n", 1)[0]
    delimiter = max(_DELIMITERS, key=first.count)  # the first of them on a tie: a comma
    try:
        return [list(row) for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)]
    except csv.Error as err:
        raise UserError(f"{name}: not a valid CSV file: {printable(str(err))}") from None


_CELL_REF = re.compile(rb'<(?:\w+:)?c [^>]*?r="([A-Z]{1,3})([0-9]{1,7})"')
_ODS = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODS_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}value-type"


def _extent(archive: zipfile.ZipFile) -> tuple[int, int]:
    """The last row and column (from 1) that hold anything, in any sheet of an .xlsx or in the first
    table of an .ods, read from the archive's XML before python-calamine makes the rectangle."""
    names = archive.namelist()
    if "content.xml" in names:  # ODS: rows and cells may repeat ("number-rows-repeated")
        rows = columns = row = 0
        for _, element in ElementTree.iterparse(archive.open("content.xml")):
            if element.tag == f"{_ODS}table-row":
                repeat = int(element.get(f"{_ODS}number-rows-repeated", "1"))
                width = column = 0
                for cell in element:
                    column += int(cell.get(f"{_ODS}number-columns-repeated", "1"))
                    if cell.get(_ODS_OFFICE) is not None or len(cell):
                        width = column
                row += repeat
                if width:
                    rows, columns = row, max(columns, width)
                element.clear()
            elif element.tag == f"{_ODS}table":
                break  # the first table is the deck
        return rows, columns
    rows = columns = 0
    for sheet in (n for n in names if n.startswith("xl/worksheets/") and n.endswith(".xml")):
        for letters, digits in _CELL_REF.findall(archive.read(sheet)):
            column = 0
            for letter in letters:
                column = column * 26 + letter - 64
            rows, columns = max(rows, int(digits)), max(columns, column)
    return rows, columns


_RELS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_ODS_FORMULA = f"{_ODS}formula"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _first_sheet_xml(archive: zipfile.ZipFile) -> str | None:
    """The archive's name of an .xlsx's first sheet (the deck), from the workbook and its relations."""
    workbook = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    first = next((e for e in workbook.iter() if _local(e.tag) == "sheet"), None)
    if first is None or "xl/_rels/workbook.xml.rels" not in archive.namelist():
        return None
    rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    target = next((e.get("Target") for e in rels.iter() if e.get("Id") == first.get(_RELS)), None)
    if target is None:
        return None
    return target.lstrip("/") if target.startswith("/") else f"xl/{target}"


def unsaved_formula(archive: zipfile.ZipFile) -> str | None:
    """The first cell of the deck's sheet (``B2``) holding a formula saved without its value, or None.

    A spreadsheet program saves each formula's last value with it, which is what python-calamine reads;
    a file written by a program that computes no formulas (openpyxl, some exporters) holds the formula
    alone, and calamine reads the cell as empty. An .xlsx cell then has an ``<f>`` and no ``<v>`` (or an
    empty one that is no text result), an .ods cell a ``table:formula`` and no value type."""
    names = archive.namelist()
    if "content.xml" in names:
        row = 0
        for _, element in ElementTree.iterparse(archive.open("content.xml")):
            if element.tag == f"{_ODS}table-row":
                column = 0
                for cell in element:
                    if cell.get(_ODS_FORMULA) is not None and cell.get(_ODS_OFFICE) is None:
                        return f"{column_letter(column)}{row + 1}"
                    column += int(cell.get(f"{_ODS}number-columns-repeated", "1"))
                row += int(element.get(f"{_ODS}number-rows-repeated", "1"))
                element.clear()
            elif element.tag == f"{_ODS}table":
                break
        return None
    sheet = _first_sheet_xml(archive) if "xl/workbook.xml" in names else None
    if sheet is None or sheet not in names:
        return None
    for _, element in ElementTree.iterparse(archive.open(sheet)):
        if _local(element.tag) != "c":
            continue
        parts = {_local(child.tag): child for child in element}
        if "f" in parts:
            value = parts.get("v")
            if value is None or (not (value.text or "") and element.get("t") not in ("str", "inlineStr")):
                return element.get("r") or "?"
        element.clear()
    return None


def _workbook_cells(name: str, raw: bytes) -> list[list[object]]:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_UNPACKED_BYTES:
                raise UserError(f"{name}: the sheet unpacks to {unpacked / 1e6:.0f} MB, more than a deck may "
                                f"(at most {MAX_UNPACKED_BYTES // 1_000_000} MB)")
            rows, columns = _extent(archive)
            unsaved = unsaved_formula(archive)
    except (zipfile.BadZipFile, ValueError, OSError, ElementTree.ParseError):
        raise UserError(f"{name}: not a spreadsheet file (an .xlsx or .ods file is a zip archive)") from None
    if rows > MAX_SHEET_ROWS or columns > MAX_SHEET_COLUMNS:
        raise UserError(f"{name}: the sheet holds a value in row {rows:,}, column {column_letter(columns - 1)}: a deck's "
                        f"sheet reaches at most row {MAX_SHEET_ROWS:,} and column {column_letter(MAX_SHEET_COLUMNS - 1)} "
                        "(delete what lies beyond the cards)")
    from python_calamine import CalamineWorkbook  # here: TOML decks and the other commands never load it

    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(raw))
        if not workbook.sheet_names:
            raise UserError(f"{name}: the workbook has no sheet")
        sheet = workbook.get_sheet_by_index(0)
        merged = sheet.merged_cell_ranges or []
        cells = sheet.to_python(skip_empty_area=False)
    except UserError:
        raise
    except Exception as err:  # calamine raises its own error types for every malformed part of a file
        raise UserError(f"{name}: cannot read the spreadsheet: {printable(str(err))[:200]}") from None
    if unsaved is not None:
        raise UserError(f"{name}: sheet {quote(workbook.sheet_names[0])}, cell {unsaved}: a formula with no saved "
                        "value (the program that wrote the file computes none): open the file in your spreadsheet "
                        "program and save it, so that the values are saved with the formulas")
    if merged:
        (top, left), (bottom, right) = merged[0]
        raise UserError(f"{name}: cells {column_letter(left)}{top + 1}:{column_letter(right)}{bottom + 1} are "
                        "merged: a deck's sheet has one value per cell (unmerge them)")
    return cells
