"""A first rulebook written as ordinary Markdown: headings without ids, an optional ``# Title``, no
front matter; and how such a text is kept in step with a translation."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pypdf
import pytest

from toolkit.errors import UserError
from toolkit.rulebook.markup import check_same_shape, parse

WEATHERVANE = Path(__file__).resolve().parent.parent / "examples" / "weathervane"

PLAIN = """\
# How to Play Weathervane

## Winning
The first player with no cards left **wins** the game.

## Setting up
- Shuffle the deck.
- Deal {rule:hand_size|card|cards} to each player, face down.

1. The youngest player begins.
2. Play goes on *clockwise*.

## Winning
A second section of the same heading gets an id of its own.
"""


def deck(folder: Path, rules: dict[str, str]) -> Path:
    """A copy of the Weathervane example whose catalogue names ``rules`` (language: text) as its
    rulebook texts."""
    shutil.copytree(WEATHERVANE, folder / "weathervane")
    root = folder / "weathervane"
    for lang, text in rules.items():
        (root / "texts" / f"rules.{lang}.md").write_text(text, encoding="utf-8")
    catalogue = root / "weathervane.toml"
    named = ", ".join(f'{lang} = "texts/rules.{lang}.md"' for lang in rules)
    catalogue.write_text(re.sub(r"(?m)^rulebook = .*$", f"rulebook = {{ {named} }}",
                                catalogue.read_text(encoding="utf-8")), encoding="utf-8")
    return catalogue


def pdf_text(path: Path) -> str:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages)).replace("\u00a0", " ")


def test_a_plain_markdown_rulebook_prints(run, tmp_path):
    catalogue = deck(tmp_path, {"en": PLAIN})
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--catalogue", str(catalogue), "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = pdf_text(out)
    for words in ("How to Play Weathervane", "Winning", "Setting up", "The first player with no cards left wins the game.",
                  "Deal 5 cards to each player, face down.", "Play goes on clockwise.",
                  "A second section of the same heading gets an id of its own.",
                  "2–4 players · ages 6 and up · 10–20 minutes",  # the deck's facts, no 'facts:' line
                  "Weathervane: rules of play"):                   # the footer from the toolkit's words
        assert words in text, words
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    assert reader.metadata.title == "How to Play Weathervane"


def test_without_a_title_line_the_catalogues_title_heads_the_book(run, tmp_path):
    catalogue = deck(tmp_path, {"en": PLAIN.split("\n", 2)[2]})
    out = tmp_path / "book.pdf"
    assert run("rulebook", "--catalogue", str(catalogue), "--out", str(out)).exit_code == 0
    text = pdf_text(out)
    assert "Weathervane 2–4 players" in text and "How to Play" not in text


def test_ids_come_from_the_headings_unique_and_stable():
    source = parse(PLAIN, "rules.en.md")
    assert source.ids == ("winning", "setting-up", "winning-2") and source.plain
    assert parse(PLAIN, "rules.en.md") == source
    assert source.meta["title"].text == "How to Play Weathervane" and set(source.meta) == {"title"}
    odd = parse("## Как играть\ntext\n## Ça va: 1, 2, 3\ntext\n## 2 players\ntext\n", "rules.ru.md")
    assert odd.ids == ("section-1", "ca-va-1-2-3", "s-2-players")
    strict = parse("tagline: t\n## a: A\ntext\n", "rules.en.md")
    assert strict.ids == ("a",) and not strict.plain


@pytest.mark.parametrize("text, message", [
    ("## A\ntext\n# Title\n", r"x\.en\.md:3: '# Title' stands once, before the first section"),
    ("#### Deep\n", r"x\.en\.md:1: a heading is '# Title'"),
    ("# Title\nSome words\n## A\ntext\n", r"x\.en\.md:2: before the first section"),
    ("## A\n## B\ntext\n", r"x\.en\.md:1: section 'a' has no text"),
])
def test_plain_markdown_mistakes_are_one_line(text, message):
    with pytest.raises(UserError, match=message):
        parse(text, "x.en.md")


def test_a_plain_text_is_paired_with_its_translation_section_by_section():
    strict = parse("tagline: {title}\n## start: Начало\nТекст {total|карта|карты|карт}.\n## end: Конец\nТекст.\n",
                   "rules.ru.md")
    check_same_shape(strict, parse("tagline: The {title}\n## Start\n{total|card|cards}.\n## End\nText.\n",
                                   "rules.en.md"))
    with pytest.raises(UserError, match=r"differ: 2 sections and 1"):
        check_same_shape(strict, parse("tagline: {title}\n## Start\n{total|card|cards}.\n", "rules.en.md"))
    with pytest.raises(UserError, match=r"differ in section 1 \('Начало'\): placeholders \{total\}"):
        check_same_shape(strict, parse("tagline: {title}\n## Start\nText.\n## End\nText.\n", "rules.en.md"))
    with pytest.raises(UserError, match=r"only rules\.ru\.md gives 'tagline: \.\.\.'"):
        check_same_shape(strict, parse("## Start\n{total|card|cards}.\n## End\nText.\n", "rules.en.md"))
    # two strict texts are still held to the same ids
    with pytest.raises(UserError, match=r"section 'start' is missing"):
        check_same_shape(strict, parse("tagline: {title}\n## begin: Start\n{total|card|cards}.\n## end: End\nText.\n",
                                       "rules.en.md"))


def test_a_plain_english_text_beside_the_strict_russian_one(run, tmp_path):
    """The example's Russian text (strict, five sections) with an English one in plain Markdown of the
    same five sections: the book in both languages pairs them in order."""
    russian = (WEATHERVANE / "texts" / "rules.ru.md").read_text(encoding="utf-8")
    english = (WEATHERVANE / "texts" / "rules.en.md").read_text(encoding="utf-8")
    plain = re.sub(r"(?m)^## [a-z-]+: ", "## ", english)
    catalogue = deck(tmp_path, {"en": plain, "ru": russian})
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--catalogue", str(catalogue), "--lang", "en+ru", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "The game in brief / " in pdf_text(out)
