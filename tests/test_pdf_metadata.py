"""Every PDF the toolkit writes carries the same metadata (issue 37, an editor's findings: no author,
no producer, a creation date of 1 January 2000): Title and Subject in its language, the deck's own
author (``game.author``), the toolkit as Creator and Producer, and one CreationDate and ModDate:
SOURCE_DATE_EPOCH when set, else the time the newest of the deck's files was last changed. Read
back with pypdf from a sheet, a rulebook and a report; and two runs give the same bytes."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import load
from toolkit.pdf.canvas import FALLBACK_DATE, deck_files, document_date, pdf_date
from toolkit.print import print_cards
from toolkit.rulebook import build_rulebook

SOFTWARE = re.compile(r"toolkit \S+")
ART = Path(__file__).resolve().parent.parent / "toolkit" / "card_art"


def metadata(pdf: bytes) -> dict:
    return dict(PdfReader(io.BytesIO(pdf)).metadata)


def assert_toolkit_metadata(meta: dict, date: int, author: str = "") -> None:
    assert meta["/Title"] and meta["/Subject"], meta
    assert meta.get("/Author", "") == author, meta
    assert SOFTWARE.fullmatch(meta["/Creator"]) and SOFTWARE.fullmatch(meta["/Producer"]), meta
    assert meta["/CreationDate"] == meta["/ModDate"] == pdf_date(date), (meta, pdf_date(date))


@pytest.fixture
def authored(tmp_path, monkeypatch):
    """A copy of Diamoniak's catalogue that names its edition's author, its files dated 2024-05-01."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    doc = builtin_doc("diamoniak")
    doc["game"]["author"] = {"ru": "Мастерская «Флюгер»", "en": "Weathervane Workshop"}
    shutil.copytree(ART / "diamoniak", tmp_path / "diamoniak")  # the real pictures, beside the copy
    path = write_catalogue(tmp_path, doc, with_art=False)
    catalogue = load(None, str(path))
    when = 1714521600  # 2024-05-01 00:00 UTC
    for file in deck_files(catalogue):
        if tmp_path in file.parents:
            os.utime(file, (when, when))
    return catalogue, when


def test_a_sheet_a_book_and_a_report_carry_the_toolkits_metadata(authored, run, tmp_path):
    catalogue, when = authored
    assert document_date(deck_files(catalogue)) == when
    for lang, author in (("en", "Weathervane Workshop"), ("ru", "Мастерская «Флюгер»")):
        sheet = print_cards(catalogue, lang=lang, aids=False).pdf
        assert_toolkit_metadata(metadata(sheet), when, author)
        assert print_cards(catalogue, lang=lang, aids=False).pdf == sheet  # the same files, the same bytes
    book = build_rulebook(catalogue, lang="en").pdf
    from toolkit.rulebook.markup import text_path

    text = text_path("diamoniak", "en")  # the book's text is one of its files: dated by it too
    assert_toolkit_metadata(metadata(book), max(when, int(text.stat().st_mtime)), "Weathervane Workshop")
    report = tmp_path / "report.pdf"
    args = ("analyse", "--catalogue", str(catalogue.source), "--players", "2", "--precision", "0.2",
            "--no-strategy", "--lang", "ru", "--report", str(report))
    assert run(*args).exit_code == 0
    meta = metadata(report.read_bytes())
    assert_toolkit_metadata(meta, when, "Мастерская «Флюгер»")
    assert meta["/Subject"].startswith("Цифры получены из")  # what the figures are read from
    first = report.read_bytes()
    assert run(*args).exit_code == 0 and report.read_bytes() == first


def test_source_date_epoch_dates_every_pdf(authored, monkeypatch, run, tmp_path):
    catalogue, _ = authored
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert_toolkit_metadata(metadata(print_cards(catalogue, lang="en", aids=False).pdf), 1700000000,
                            "Weathervane Workshop")
    chart = tmp_path / "odds.pdf"
    assert run("odds", "--catalogue", str(catalogue.source), "--plot", str(chart)).exit_code == 0
    meta = metadata(chart.read_bytes())
    assert SOFTWARE.fullmatch(meta["/Producer"]) and meta["/CreationDate"].startswith("D:20231114")


def test_a_changed_file_changes_the_date_and_nothing_else(authored, tmp_path):
    catalogue, when = authored
    before = print_cards(catalogue, lang="en", aids=False).pdf
    os.utime(catalogue.source, (when + 86400, when + 86400))  # a day later
    after = print_cards(catalogue, lang="en", aids=False).pdf
    assert metadata(after)["/CreationDate"] == pdf_date(when + 86400)
    same = after.replace(pdf_date(when + 86400).encode(), pdf_date(when).encode())
    no_id = re.compile(rb"/ID\s*\[[^\]]*\]")  # the file's ID is a digest of its bytes, the dates included
    assert no_id.sub(b"", same) == no_id.sub(b"", before) and after != before


def test_a_deck_without_an_author_and_a_built_in_deck(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    catalogue = load("palaces")
    meta = metadata(print_cards(catalogue, lang="ru").pdf)
    files = deck_files(catalogue)
    assert catalogue.source in files and all(file.is_file() for file in files)
    assert meta.get("/Author", "") == "" and SOFTWARE.fullmatch(meta["/Producer"])
    assert meta["/CreationDate"] > pdf_date(FALLBACK_DATE)  # dated by the files, not 2000-01-01


def test_the_date_without_files_and_with_a_bad_epoch(monkeypatch, tmp_path):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert document_date([]) == FALLBACK_DATE and document_date([tmp_path / "missing"]) == FALLBACK_DATE
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert document_date([]) == FALLBACK_DATE
