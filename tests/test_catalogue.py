"""The catalogue loader: both built-in games, every validation error, --set and --catalogue."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import write_catalogue
from toolkit.catalogue import load
from toolkit.catalogue.loader import apply_overrides
from toolkit.errors import UserError


def test_diamoniak_has_54_cards_in_the_documented_composition():
    cat = load("diamoniak")
    assert cat.total == 54
    counts = {card.id: card.count for card in cat.cards}
    assert counts == {
        "castle-red": 6, "castle-blue": 6, "castle-green": 6, "castle-yellow": 6,
        "diamond": 20, "witch": 7, "fairy": 3,
    }
    assert {c.colour for c in cat.of_kind("castle")} == {c.id for c in cat.colours}
    assert cat.rules == {"castle_size": 6, "price": 3, "witch_takes": 3}
    assert cat.players == (2, 4) and cat.age == 5


def test_palaces_has_the_default_70_card_composition():
    cat = load("palaces")
    assert cat.total == 70
    assert cat.count_of_kind("foundation") == 12
    assert cat.count_of_kind("floor") == 24
    assert cat.count_of_kind("roof") == 12
    assert [cat.count_of_kind(k) for k in ("tower", "ruins", "exchange", "general-exchange", "flood")] == [8, 4, 4, 2, 4]
    assert "no card counts" in cat.note.en
    assert {t.value for t in cat.tokens} == {1, 5}


def test_every_card_has_both_languages_and_existing_art():
    for game in ("diamoniak", "palaces"):
        cat = load(game)
        for card in cat.cards:
            assert card.name.ru and card.name.en and card.text.ru and card.text.en
            assert card.art_path is not None and card.art_path.is_file()
        assert cat.back_art_path.is_file()


def test_rule_placeholders_are_filled_with_plural_forms():
    cat = load("diamoniak")
    assert "3 diamonds" in cat.card("diamond").text.en
    assert "3 бриллианта" in cat.card("diamond").text.ru
    assert "3 свои карты" in cat.card("witch").text.ru


def test_russian_plural_follows_the_rule_value(doc, tmp_path):
    doc["rules"]["price"] = 5
    cat = load(path=write_catalogue(tmp_path, doc))
    assert "5 бриллиантов" in cat.card("diamond").text.ru
    assert "5 diamonds" in cat.card("diamond").text.en


def test_set_overrides_a_count_for_one_load():
    cat = load("diamoniak", overrides=["witch=8", "fairy=0"])
    assert cat.card("witch").count == 8 and cat.card("fairy").count == 0
    assert cat.total == 54 + 1 - 3
    assert load("diamoniak").card("witch").count == 7


@pytest.mark.parametrize(
    "override, message",
    [
        ("wizard=3", "--set wizard=3: no card with id 'wizard' in diamoniak.toml"),
        ("witch=-1", "--set witch=-1: the count must be a whole number from 0 to 500 in digits 0-9, got '-1'"),
        ("witch=2.5", "--set witch=2.5: the count must be a whole number from 0 to 500 in digits 0-9, got '2.5'"),
        ("witch", "--set witch: expected ID=N"),
        ("=4", "--set =4: expected ID=N"),
    ],
)
def test_bad_set_is_a_clear_error(override, message):
    with pytest.raises(UserError) as err:
        load("diamoniak", overrides=[override])
    assert str(err.value).startswith(message)


def test_user_catalogue_loads_from_its_own_folder(doc, tmp_path):
    doc["game"]["title"] = {"ru": "Мой замок", "en": "My castle"}
    doc["cards"][5]["count"] = 9
    cat = load(path=write_catalogue(tmp_path, doc))
    assert cat.title.en == "My castle"
    assert cat.card("witch").count == 9
    assert cat.card("witch").art_path == tmp_path / "diamoniak" / "witch.png"


def _set(doc, path, value):
    *parents, last = path
    target = doc
    for key in parents:
        target = target[key]
    if value is _DELETE:
        del target[last]
    else:
        target[last] = value


_DELETE = object()

# (mutation path, new value, expected message after "mine.toml: ")
INVALID = [
    (("cards", 0, "Colr"), "red", "cards[0].Colr: unknown key, and not a field name"),
    (("cards", 0, "cost"), 2.5, "cards[0].cost: a field is text or a whole number, got the number 2.5"),
    (("cards", 0, "cost"), True, "cards[0].cost: a field is text or a whole number, got 'true'"),
    (("cards", 0, "cost"), 10**12, "cards[0].cost: expected a whole number from -1000000000 to 1000000000"),
    (("game", "players", "most"), 9, "game.players.most: unknown key"),
    (("shape",), 1, "shape: unknown key"),
    (("cards", 5, "name", "ru"), _DELETE, "cards[5].name.ru: missing Russian name"),
    (("cards", 5, "name", "en"), _DELETE, "cards[5].name.en: missing English name"),
    (("cards", 5, "text", "en"), _DELETE, "cards[5].text.en: missing English card text"),
    (("cards", 5, "name", "de"), "Hexe", "cards[5].name.de: unknown language (the deck's languages: en, ru)"),
    (("cards", 5, "name", "ru"), "  ", "cards[5].name.ru: expected non-empty text, got empty text"),
    (("cards", 5, "count"), -1, "cards[5].count: expected a whole number from 0 to 500, got -1"),
    (("cards", 5, "count"), 2.5, "cards[5].count: expected a whole number from 0 to 500, got the number 2.5"),
    (("cards", 5, "count"), "7", "cards[5].count: expected a whole number from 0 to 500, got '7'"),
    (("cards", 5, "count"), True, "cards[5].count: expected a whole number from 0 to 500, got 'true'"),
    (("cards", 5, "count"), _DELETE, "cards[5].count: missing"),
    (("cards", 5, "art"), "diamoniak/nowhere.png", "cards[5].art: art file 'diamoniak/nowhere.png' does not exist"),
    (("cards", 5, "id"), "diamond", "cards[5].id: duplicate card id 'diamond'"),
    (("cards", 5, "id"), "Witch!", "cards[5].id: 'Witch!' is not an id"),
    (("cards", 0, "colour"), "purple", "cards[0].colour: unknown colour 'purple' (colours: red, blue, green, yellow)"),
    (("cards", 0, "colour"), _DELETE, "cards[0].colour: missing: a castle card needs a colour"),
    (("cards", 5, "colour"), "red", "cards[5].colour: a witch card has no colour"),
    (("cards", 5, "kind"), "goblin", "cards[5].kind: unknown kind 'goblin' for diamoniak"),
    (("colours", 1, "id"), "red", "colours[1].id: duplicate colour id 'red'"),
    (("colours", 1, "rgb"), "blue", "colours[1].rgb: 'blue' is not a colour like"),
    (("colours", 1, "symbol"), "moon", "colours[1].symbol: unknown symbol 'moon'"),
    (("colours", 1, "symbol"), "circle", "colours[1].symbol: symbol 'circle' is already used by another colour"),
    (("game", "players", "max"), 1, "game.players: max (1) is less than min (2)"),
    (("game", "back_art"), "nope.png", "game.back_art: art file 'nope.png' does not exist"),
    (("rules", "price"), 0, "rules.price: expected a whole number from 1 to 50, got 0"),
    (("rules", "price"), _DELETE, "rules.price: missing"),
    (("cards", 4, "text", "en"), "Pay {cost} diamonds", "cards[4].text.en: unknown placeholder {cost}"),
    (("cards", 4, "text", "ru"), "{price:a|b}", "cards[4].text.ru: bad placeholder: 'a|b' needs 3 forms"),
    (("cards",), [], "cards: the deck has no card types"),
    (("cards",), {"id": "x"}, "cards: expected an array of tables ([[cards]]), got a table"),
    (("game", "title"), "Castle", "game.title: expected a table of the title in each language, e.g. { en = \"...\" }, got 'Castle'"),
]


@pytest.mark.parametrize("path, value, message", INVALID, ids=[m.split(":")[0] + "-" + str(i) for i, (_, _, m) in enumerate(INVALID)])
def test_each_validation_error_names_file_field_and_problem(doc, tmp_path, path, value, message):
    _set(doc, path, value)
    catalogue_file = write_catalogue(tmp_path, doc)
    if path[-1] == "art" or path[-1] == "back_art":
        (tmp_path / value).unlink(missing_ok=True)
    with pytest.raises(UserError) as err:
        load(path=catalogue_file)
    assert str(err.value).startswith(f"mine.toml: {message}"), str(err.value)
    assert "\n" not in str(err.value)


def test_not_toml_and_missing_file_are_clear_errors(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text("[game\nid = 1", encoding="utf-8")
    with pytest.raises(UserError, match=r"^broken.toml: not valid TOML: "):
        load(path=bad)
    with pytest.raises(UserError, match=r"nothere.toml: cannot read the catalogue"):
        load(path=tmp_path / "nothere.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UserError, match=r"^binary.toml: the file is not UTF-8 text$"):
        load(path=binary)


def test_apply_overrides_keeps_the_catalogue_frozen():
    cat = load("diamoniak")
    changed = apply_overrides(cat, ["diamond=1"])
    assert changed.card("diamond").count == 1 and cat.card("diamond").count == 20
    with pytest.raises(dataclasses.FrozenInstanceError):
        cat.cards[0].count = 3
