"""A game of one's own, end to end through the CLI: the example in examples/weathervane (a CSV sheet, a
layout, SVG icons, a back and a rulebook text in two languages) and a bare CSV deck with nothing else
(no layout, no pictures, no back), through catalogue, print-cards, all eight export-cards targets
(each passing preflight), rulebook and odds --model hand, read back from what they write."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil

import pypdf
import pytest

from conftest import ROOT
from toolkit.cli.export_cards import EXPORT_TARGETS
from toolkit.cli.preflight import PREFLIGHT_TARGETS

EXAMPLE = ROOT / "examples" / "weathervane"


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """A copy of the example game (so that nothing is written into the repository)."""
    folder = tmp_path_factory.mktemp("example") / "weathervane"
    shutil.copytree(EXAMPLE, folder)
    return folder / "weathervane.toml"


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """A CSV deck alone: names, copies and a field, in one language."""
    folder = tmp_path_factory.mktemp("bare")
    path = folder / "Harbour Lights.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["name", "copies", "text", "cost"])
        out.writerow(["Lighthouse", 2, "Look at the top card of the pile.", 3])
        out.writerow(["Fishing boat", 6, "", 1])
        out.writerow(["Storm", 3, "Every player discards a boat.", ""])
    return path


def pdf_text(path) -> str:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def test_catalogue_shows_the_decks_own_cards_and_fields(run, example, bare):
    shown = json.loads(run("catalogue", "--catalogue", str(example), "--json").stdout)
    assert shown["game"] == "weathervane" and shown["total"] == 40
    assert {card["fields"]["value"] for card in shown["cards"]} == set(range(1, 11))
    text = run("catalogue", "--catalogue", str(bare)).stdout
    assert text.startswith("Harbour Lights (harbour-lights)") and "Fishing boat" in text and "cost" in text


def test_hand_odds_of_the_example(run, example):
    result = run("odds", "--catalogue", str(example), "--model", "hand", "--hand", "5", "--at-least", "2",
                 "--where", "value=10")
    assert result.exit_code == 0, result.output
    assert "97/1406" in result.stdout


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_print_cards_of_the_example(run, example, tmp_path, lang):
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--catalogue", str(example), "--lang", lang, "--out", str(out))
    assert result.exit_code == 0, result.output
    text = pdf_text(out)
    # every card's name and the tens' text, drawn by the example's layout (the icon stands inline)
    for name in (("Sun 7", "Snow 10", "Lay one more card") if lang == "en" else ("Солнце 7", "Снег 10", "Положи")):
        assert name in text
    # the player aid the catalogue names (game.aid), one per player, after the cards
    assert "40 cards and 4 player aids on 5 sheets" in result.stdout
    assert ("Your turn" if lang == "en" else "Твой ход") in text


def test_an_aid_the_catalogue_names_is_checked(run, example, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(example.parent, folder)
    toml = folder / "weathervane.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('aid = { en = "texts/aid.en.md"',
                                                             'aid = { de = "texts/aid.en.md"'), encoding="utf-8")
    result = run("print-cards", "--catalogue", str(toml), "--out", str(tmp_path / "cards.pdf"))
    assert result.exit_code == 2
    assert result.stderr.strip() == ("toolkit: error: weathervane.toml: game.aid.de: unknown language (the deck's "
                                     "languages: en, ru)")
    toml.write_text(toml.read_text(encoding="utf-8").replace('aid = { de = "texts/aid.en.md"',
                                                             'aid = { en = "texts/aid.en.md"'), encoding="utf-8")
    (folder / "texts" / "aid.en.md").write_text("title: Your turn\n- **Lay a card\n", encoding="utf-8")
    result = run("print-cards", "--catalogue", str(toml), "--out", str(tmp_path / "cards.pdf"))
    assert result.exit_code == 2 and "aid.en.md:2: an unmatched **" in result.stderr
    assert not (tmp_path / "cards.pdf").exists()


@pytest.mark.parametrize("target", EXPORT_TARGETS)
@pytest.mark.parametrize("which", ["example", "bare"])
def test_every_export_passes_preflight(run, example, bare, tmp_path, target, which):
    deck = example if which == "example" else bare
    out = tmp_path / target
    result = run("export-cards", "--catalogue", str(deck), "--target", target, "--out", str(out))
    assert result.exit_code == 0, result.output
    written = [path.name for path in out.rglob("*") if path.is_file()]
    game = "weathervane" if which == "example" else "harbour-lights"
    assert not any(name.startswith(("diamoniak", "palaces")) for name in written), written
    if target in ("tts", "pdf-single", "drivethru"):
        assert any(name.startswith(game) for name in written), written
    if target in PREFLIGHT_TARGETS:
        checked = run("preflight", str(out), "--target", target)
        assert checked.exit_code == 0, checked.output
        assert "FAIL" not in checked.stdout
    elif target == "png":  # a picture per card type (and the example's player aid) and the back
        faces = sorted(path.name for path in out.glob("*.png") if path.name != "back.png")
        assert len(faces) == (42 if which == "example" else 3) and (out / "back.png").is_file()
        assert ("player_aid-en.png" in faces) == ("player_aid_back-en.png" in faces) == (which == "example")
    else:  # pdf-single: a page for each card (and each player's aid), each face followed by its back
        assert len(pypdf.PdfReader(next(out.glob("*.pdf"))).pages) == 2 * (40 + 4 if which == "example" else 11)


def test_the_examples_rulebook_in_both_languages(run, example, tmp_path):
    out = tmp_path / "rules.pdf"
    result = run("rulebook", "--catalogue", str(example), "--lang", "en+ru", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = pdf_text(out)
    # counts and the components from the deck, in both languages
    assert "40 cards: Sun ×10, Rain ×10, Wind ×10, Snow ×10" in text
    assert "40 карт: Солнце ×10, Дождь ×10, Ветер ×10, Снег ×10" in text
    assert "from 1 to 10" in text and "deal 5 cards to each player" in text
    assert "Weathervane" in text and "Флюгер" in text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_card_name_never_breaks_before_its_number(run, example, tmp_path, lang):
    """"the Sun 10" is one thing: no line of the book ends in "Sun" with "10" on the next."""
    out = tmp_path / "rules.pdf"
    assert run("rulebook", "--catalogue", str(example), "--lang", lang, "--booklet", "--out", str(out)).exit_code == 0
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    lines = [line.strip() for page in reader.pages for line in page.extract_text().splitlines()]
    words = ("Sun", "Rain", "Wind", "Snow", "Солнце", "Дождь", "Ветер", "Снег")
    broken = [(a, b) for a, b in zip(lines, lines[1:]) if a.endswith(words) and re.match(r"\d", b)]
    assert broken == []


def test_the_examples_booklet_leaves_no_page_blank(run, example, tmp_path):
    """The whole book (card pictures, an example of play, questions, credits: issue 37) folds into a
    booklet with no blank page (the editor found its back cover blank and three inner pages half
    empty): its inner pages each at least a third full, the quick start on the outside back cover as in
    the built-in games, under a cover that fans out the deck's own cards (it showed the back alone)."""
    from proof import book_pages, column_fill, text_area

    out = tmp_path / "booklet.pdf"
    for lang, first, quick in (("ru", "Коротко об игре", "Быстрый старт"), ("en", "The game in brief", "Quick start")):
        result = run("rulebook", "--catalogue", str(example), "--lang", lang, "--booklet", "--out", str(out))
        assert result.exit_code == 0, result.output
        assert "blank" not in result.stdout
        pages = book_pages(out.read_bytes(), True)
        assert len(pages) % 4 == 0 and not any(page.blank for page in pages)
        area, columns = text_area("a4", True)
        inner = [column_fill(page, area, columns)[0] for page in pages[1:-1]]
        assert min(inner) >= 1 / 3, inner
        assert len(pages[0].charts) >= 5  # the pictures of the back and of four cards (it had the back alone)
        assert first in pages[1].text and quick in pages[-1].text


def test_a_deck_with_no_rulebook_text_says_how_to_give_one(run, bare, tmp_path):
    result = run("rulebook", "--catalogue", str(bare), "--out", str(tmp_path / "rules.pdf"))
    assert result.exit_code == 2
    assert "has no rulebook text" in result.stderr and "--text" in result.stderr
    assert not (tmp_path / "rules.pdf").exists()


def test_a_bare_deck_prints_with_the_default_layout(run, bare, tmp_path):
    out = tmp_path / "cards.pdf"
    result = run("print-cards", "--catalogue", str(bare), "--out", str(out))
    assert result.exit_code == 0, result.output
    text = pdf_text(out)
    assert "Lighthouse" in text and "Look at the top card of the pile." in text
    assert "Harbour Lights" in text  # the default back: the deck's title on a plain ground
