"""``rulebook --text``: a rulebook from the user's own text files, read back from the PDF, with every
mistake in them one line; and the placeholders about the cards' own fields."""

from __future__ import annotations

import dataclasses
import io
import re

import pypdf
import pytest

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.placeholders.facts import Facts
from toolkit.placeholders.figures import Odds
from toolkit.placeholders.text import Piece
from toolkit.rulebook.markup import text_path



def own_text(folder, lang: str, name: str = "house", change=None):
    """The game's own Diamoniak text in ``lang``, changed by ``change``, saved as ``<name>.<lang>.md``."""
    text = text_path("diamoniak", lang).read_text(encoding="utf-8")
    path = folder / f"{name}.{lang}.md"
    path.write_text(change(text) if change else text, encoding="utf-8")
    return path


def pdf_text(path) -> str:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def tagline(text: str, words: str) -> str:
    return re.sub(r"^tagline: .*$", f"tagline: {words}", text, count=1, flags=re.M)


def test_own_text_replaces_the_games(tmp_path, run):
    en = own_text(tmp_path, "en", change=lambda t: tagline(t, "Our house rules, printed our way"))
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--game", "diamoniak", "--lang", "en", "--text", str(en), "--out", str(out))
    assert result.exit_code == 0, result.output
    text = pdf_text(out)
    assert "Our house rules, printed our way" in text
    assert "Build a castle in your colour" not in text  # the game's own tagline is not used


def test_both_languages_from_own_texts(tmp_path, run):
    en = own_text(tmp_path, "en", change=lambda t: tagline(t, "An English line of ours"))
    ru = own_text(tmp_path, "ru", change=lambda t: tagline(t, "Наша русская строка"))
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--game", "diamoniak", "--lang", "ru+en", "--text", str(ru), "--text", str(en),
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    text = pdf_text(out)
    assert "An English line of ours" in text and "Наша русская строка" in text


def refused(run, tmp_path, *args: str) -> str:
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--game", "diamoniak", *args, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert not out.exists()
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_mistakes_in_own_texts_are_one_line(tmp_path, run):
    en = own_text(tmp_path, "en")
    # the language must be in the file's name
    plain = tmp_path / "rules.md"
    plain.write_text(en.read_text(encoding="utf-8"), encoding="utf-8")
    assert "<name>.<language>.md" in refused(run, tmp_path, "--lang", "en", "--text", str(plain))
    # a language asked for and not given
    assert "no ru rulebook text" in refused(run, tmp_path, "--lang", "ru+en", "--text", str(en))
    # the same language twice
    other = own_text(tmp_path, "en", name="other")
    assert "a second en text" in refused(run, tmp_path, "--text", str(en), "--text", str(other))
    # a file that is not there, not UTF-8, or holds a control character
    assert "no such file" in refused(run, tmp_path, "--text", str(tmp_path / "gone.en.md"))
    latin = tmp_path / "latin.en.md"
    latin.write_bytes("tagline: caf\u00e9\n".encode("latin-1"))
    assert "not UTF-8" in refused(run, tmp_path, "--text", str(latin))
    bell = own_text(tmp_path, "en", name="bell", change=lambda t: t.replace("## about:", "\x07\n## about:", 1))
    line = refused(run, tmp_path, "--text", str(bell))
    assert line.startswith(f"toolkit: error: {bell}:") and "U+0007" in line
    # an unknown placeholder names the file and its line
    typo = own_text(tmp_path, "en", name="typo", change=lambda t: t.replace("{total|card|cards}", "{totl}", 1))
    line = refused(run, tmp_path, "--text", str(typo))
    assert re.search(rf"{re.escape(str(typo))}:\d+: unknown placeholder \{{totl\}}", line), line
    # two languages that fell out of step
    ru = own_text(tmp_path, "ru", change=lambda t: t.replace("\n## goal:", "\n## aim:", 1))
    assert "differ" in refused(run, tmp_path, "--lang", "ru+en", "--text", str(ru), "--text", str(en))


def test_the_output_never_replaces_a_text(tmp_path, run):
    en = own_text(tmp_path, "en")
    before = en.read_bytes()
    result = run("rulebook", "--game", "diamoniak", "--text", str(en), "--out", str(en))
    assert result.exit_code == 2 and "rulebook text" in result.stderr
    assert en.read_bytes() == before


@pytest.fixture(scope="module")
def suited():
    """Diamoniak's deck with fields of a sheet's kind: a suit and a value on every card."""
    catalogue = load("diamoniak")
    cards = tuple(dataclasses.replace(card, fields={"suit": ("sun", "rain")[i % 2], "value": i + 1})
                  for i, card in enumerate(catalogue.cards))
    return dataclasses.replace(catalogue, cards=cards)


def fill(catalogue, line: str, lang: str = "en") -> str:
    return Facts(catalogue, lang, Odds(catalogue), {}).plain(Piece(line, "mine.en.md", 3))


def test_field_placeholders(suited):
    suns = sum(card.count for card in suited.cards if card.fields["suit"] == "sun")
    assert fill(suited, "{where:suit=sun|card|cards}") == f"{suns}\u00a0cards"
    assert fill(suited, "{distinct:suit}") == "2"
    assert fill(suited, "{min:value}–{max:value}") == f"1–{len(suited.cards)}"
    assert fill(suited, "{where:value=1|card|cards}") == f"{suited.cards[0].count}\u00a0card" + \
        ("s" if suited.cards[0].count != 1 else "")
    assert fill(suited, "{distinct:suit|вид|вида|видов}", "ru") == "2\u00a0вида"


@pytest.mark.parametrize("line, words", [
    ("{where:colour=red}", "no card has a field 'colour'"),
    ("{where:suit}", "write it as {where:FIELD=VALUE}"),
    ("{distinct:suit=sun}", "write it as {distinct:FIELD}"),
    ("{min:suit}", "not a whole number on every card"),
    ("{max}", "needs an argument"),
])
def test_field_placeholder_mistakes(suited, line, words):
    with pytest.raises(UserError) as caught:
        fill(suited, line)
    assert str(caught.value).startswith("mine.en.md:3: ") and words in str(caught.value)


def test_the_components_block_lists_the_box_from_the_deck(tmp_path, run):
    """{components}: the cards, by colour when the deck has colours (the rest as other cards), and the
    counters; a changed count changes the list."""
    en = own_text(tmp_path, "en", change=lambda t: t.replace("\n{cards}\n", "\n{components}\n\n{cards}\n", 1))
    out = tmp_path / "book.pdf"
    result = run("rulebook", "--game", "diamoniak", "--lang", "en", "--text", str(en), "--set", "witch=9",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    deck = load("diamoniak", overrides=["witch=9"])
    coloured = [(colour.name["en"], sum(c.count for c in deck.cards if c.colour == colour.id)) for colour in deck.colours]
    others = deck.total - sum(n for _, n in coloured)
    listed = ", ".join(f"{name} ×{n}" for name, n in coloured)
    assert f"{deck.total} cards: {listed}, other cards ×{others}" in pdf_text(out).replace("\u00a0", " ")
