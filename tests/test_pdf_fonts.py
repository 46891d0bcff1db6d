"""Every embedded font subset of a PDF has a tag of its own (the six capitals before "+" in its
BaseFont name: issue 37, an editor's finding: reportlab began every font's subsets at "AAAAAA"),
read back with pypdf from every page's fonts, those of the card forms included; and the tags are
the same on every run."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from toolkit.catalogue import load
from toolkit.typeset.subsets import tag_of
from toolkit.print import print_cards

TAGGED = re.compile(r"^/([A-Z]{6})\+(.+)$")


def subset_names(pdf: bytes) -> dict[tuple[int, int], str]:
    """Each font object of the file (by its object number) -> its BaseFont, from the resources of
    every page and of the forms they draw, however deep."""
    reader = PdfReader(io.BytesIO(pdf))
    found: dict[tuple[int, int], str] = {}
    seen: set[tuple[int, int]] = set()

    def visit(resources) -> None:
        resources = resources.get_object() if resources is not None else None
        if not resources:
            return
        for ref in (resources.get("/Font") or {}).values():
            if isinstance(ref, IndirectObject):
                found[(ref.idnum, ref.generation)] = str(ref.get_object()["/BaseFont"])
        for ref in (resources.get("/XObject") or {}).values():
            key = (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else None
            if key in seen:
                continue
            seen.add(key)
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Form":
                visit(xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


def assert_tags_unique(pdf: bytes) -> list[str]:
    names = subset_names(pdf)
    assert names, "no fonts found"
    tags = []
    for base in names.values():
        match = TAGGED.match(base)
        assert match, base  # every font is an embedded subset
        tags.append(match.group(1))
    assert len(set(tags)) == len(tags), sorted(names.values())
    return sorted(names.values())


@pytest.mark.parametrize("game, lang", [("diamoniak", "en"), ("palaces", "ru")])
def test_print_sheet_subsets_have_tags_of_their_own(game, lang):
    catalogue = load(game)
    first = print_cards(catalogue, lang=lang, aids=True).pdf
    names = assert_tags_unique(first)
    assert len(names) >= 2 and not any(name.startswith("/AAAAAA+") for name in names)
    assert assert_tags_unique(print_cards(catalogue, lang=lang, aids=True).pdf) == names  # the same every run


@pytest.mark.parametrize("lang", ["en", "ru+en"])
@pytest.mark.parametrize("booklet", [False, True])
def test_rulebook_subsets_have_tags_of_their_own(rulebook, lang, booklet):
    assert len(assert_tags_unique(rulebook("diamoniak", lang, booklet=booklet).pdf)) >= 4


def test_report_subsets_have_tags_of_their_own(run, tmp_path):
    path = tmp_path / "report.pdf"
    assert run("analyse", "--players", "2", "--precision", "0.2", "--no-strategy", "--lang", "ru",
               "--report", str(path)).exit_code == 0
    assert len(assert_tags_unique(path.read_bytes())) >= 2


def test_a_tag_is_never_given_twice_in_a_file():
    used: set[bytes] = set()
    first = tag_of(b"same", used)
    second = tag_of(b"same", used)  # the same contents again in one file: another tag
    assert first != second and re.fullmatch(rb"[A-Z]{6}", second)
    assert tag_of(b"same", set()) == first  # a new file: the same tag as before
