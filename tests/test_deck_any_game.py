"""A deck of any game in any languages: a game the toolkit has no package for (its own kinds, fields
and rule numbers, no rules engine), from a TOML catalogue or a spreadsheet, run through the CLI."""

from __future__ import annotations

import json

import pytest

from PIL import Image

from conftest import write_catalogue

SUITS = ("hearts", "bells", "acorns", "leaves")


def suits_doc(langs=("en",)) -> dict:
    """A 40-card deck of four suits of 1-10, one copy each, in the given languages."""
    def words(text: str) -> dict:
        return {lang: f"{text} {lang}" if lang != "en" else text for lang in langs}

    cards = [{"id": f"{suit}-{value}", "kind": "pip" if value < 10 else "ten", "count": 1,
              "name": words(f"{value} of {suit}"), "text": words("Play it on a higher card."),
              "art": f"art/{suit}-{value}.png", "suit": suit, "value": value}
             for suit in SUITS for value in range(1, 11)]
    return {"game": {"id": "four-suits", "title": words("Four Suits"), "players": {"min": 2, "max": 4}, "age": 8,
                     "minutes": {"min": 10, "max": 20}, "back_art": "back.png"},
            "cards": cards}


def paint_art(folder, names) -> None:
    """Real pictures (the placeholders of write_catalogue are only headers) for the print paths."""
    for i, name in enumerate(names):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (63, 88), (40 + 5 * i % 200, 90, 160)).save(folder / name)


@pytest.fixture
def suits(tmp_path):
    return write_catalogue(tmp_path, suits_doc())


def test_a_game_without_rules_loads_with_its_own_kinds_and_fields(run, suits):
    result = run("catalogue", "--catalogue", str(suits), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "four-suits" and data["total"] == 40
    assert data["cards"][9] == {"id": "hearts-10", "kind": "ten", "colour": None, "count": 1,
                                "name": {"en": "10 of hearts"}, "fields": {"suit": "hearts", "value": 10}}
    table = run("catalogue", "--catalogue", str(suits)).stdout
    assert table.splitlines()[0] == "Four Suits (four-suits)"
    assert "suit    value" in table.splitlines()[1] and "10 of hearts  hearts  10" in table


def test_two_tens_in_five_cards_by_the_decks_own_field(run, suits):
    args = ("odds", "--catalogue", str(suits), "--model", "hand", "--hand", "5", "--at-least", "2")
    result = run(*args, "--where", "value=10", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["chance"] == "97/1406"
    one = json.loads(run("odds", "--catalogue", str(suits), "--model", "hand", "--hand", "5", "--where",
                         "value=10", "--where", "suit=hearts", "--json").stdout)
    assert one["matching"] == 1 and one["chance"] == "1/8"
    wrong = run(*args, "--where", "rank=10")
    assert wrong.exit_code == 2
    assert wrong.stderr.strip() == ("toolkit: error: --where rank=10: 'rank' is not a field of the deck's cards "
                                    "(id, kind, colour, suit, value)")
    draws = run("odds", "--catalogue", str(suits), "--model", "draws")
    assert draws.exit_code == 0, draws.stderr


@pytest.mark.parametrize("args, what", [
    (["simulate"], "simulate needs"),
    (["analyse"], "analyse needs"),
    (["sweep", "--set", "hearts-1=0,1"], "sweep needs"),
    (["odds", "--model", "multi"], "the multi model needs"),
])
def test_what_needs_rules_says_so_in_one_line(run, suits, args, what):
    result = run(*args, "--catalogue", str(suits))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"toolkit: error: mine.toml: the game 'four-suits' has no rules engine: {what} a game "
                             "package with rules (see docs/architecture.md#adding-a-game)\n")


def test_a_game_without_rules_prints_and_exports_under_its_own_name(run, suits, tmp_path):
    paint_art(tmp_path, ["back.png", *(f"art/{suit}-{value}.png" for suit in SUITS for value in range(1, 11))])
    out = tmp_path / "out"
    result = run("print-cards", "--catalogue", str(suits), "--out", str(out / "sheet.pdf"))
    assert result.exit_code == 0, result.stderr
    result = run("export-cards", "--catalogue", str(suits), "--target", "tts", "--out", str(out / "tts"))
    assert result.exit_code == 0, result.stderr
    names = [p.name for p in (out / "tts").iterdir() if not p.name.startswith(".")]
    assert names and all(name.startswith("four-suits-en") for name in names), names


def test_lang_takes_the_decks_languages_only(run, tmp_path):
    path = write_catalogue(tmp_path, suits_doc(("de", "en", "fr")), "three.toml")
    table = run("catalogue", "--catalogue", str(path), "--lang", "fr")
    assert table.exit_code == 0, table.stderr
    assert "10 of hearts fr" in table.stdout
    assert run("catalogue", "--catalogue", str(path)).stdout.startswith("Four Suits (four-suits)")
    wrong = run("print-cards", "--catalogue", str(path), "--lang", "ru", "--out", str(tmp_path / "x.pdf"))
    assert wrong.exit_code == 2 and not (tmp_path / "x.pdf").exists()
    assert wrong.stderr == ("toolkit: error: --lang ru: 'three.toml' has no such language "
                            "(its languages: en, de, fr)\n")


def test_every_text_gives_every_language_of_the_deck(run, tmp_path):
    doc = suits_doc(("en", "de"))
    del doc["cards"][3]["text"]["de"]
    result = run("catalogue", "--catalogue", str(write_catalogue(tmp_path, doc)))
    assert result.stderr == "toolkit: error: mine.toml: cards[3].text.de: missing German card text\n"
    doc = suits_doc(("en", "xx"))
    result = run("catalogue", "--catalogue", str(write_catalogue(tmp_path, doc)))
    assert result.stderr == ("toolkit: error: mine.toml: game.title.xx: 'xx' is not a language the toolkit knows "
                             "(CLDR has no such code)\n")
