"""A game that brings none of the art and rulebook hooks of ``toolkit.games.game.Game`` (no painters,
no odds figures of its own, no table picture, no deck checks) still gets its card art, sheets,
exports and, from its texts, a rulebook: the generic defaults stand in for what it lacks."""

from __future__ import annotations

import sys
import textwrap

import pytest

from toolkit.cards import art
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games import registry
from toolkit.print import print_cards
from toolkit.print.export import export_cards
from toolkit.rulebook import build_rulebook

CATALOGUE = """
[game]
id = "third"
title = { ru = "Третья", en = "Third" }
players = { min = 2, max = 4 }
age = 6
minutes = { min = 10, max = 20 }
back_art = "third/back.png"

[rules]
goal = 3

[[colours]]
id = "red"
name = { ru = "красный", en = "red" }
rgb = "#d7263d"
symbol = "circle"

[[colours]]
id = "blue"
name = { ru = "синий", en = "blue" }
rgb = "#1f5fbf"
symbol = "square"

[[cards]]
id = "gem-red"
kind = "gem"
colour = "red"
count = 5
name = { ru = "Красный камень", en = "Red gem" }
text = { ru = "Собери {goal}.", en = "Collect {goal}." }
art = "third/gem-red.png"

[[cards]]
id = "gem-blue"
kind = "gem"
colour = "blue"
count = 5
name = { ru = "Синий камень", en = "Blue gem" }
text = { ru = "Собери {goal}.", en = "Collect {goal}." }
art = "third/gem-blue.png"

[[cards]]
id = "rock"
kind = "rock"
count = 4
name = { ru = "Булыжник", en = "Rock" }
text = { ru = "Ничего не делает.", en = "Does nothing." }
art = "third/rock.png"
"""

RULES = {
    "en": """\
        tagline: A game of gems
        facts: {players_min}–{players_max|player|players}
        footer: {title}
        modified: A changed deck.

        ## about: The game
        The deck holds {total|card|cards}, {kind:rock|rock|rocks} among them.

        {cards}
        """,
    "ru": """\
        tagline: Игра камней
        facts: {players_min}–{players_max|игрок|игрока|игроков}
        footer: {title}
        modified: Изменённая колода.

        ## about: Об игре
        В колоде {total|карта|карты|карт}, из них {kind:rock|булыжник|булыжника|булыжников}.

        {cards}
        """,
}


@pytest.fixture
def third(tmp_path, monkeypatch):
    """The game ``third`` registered from a package of its own, its art drawn into the package."""
    package = tmp_path / "third_game"
    (package / "texts").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent("""\
        from toolkit.games.game import Game


        class Third(Game):
            id = "third"
            kinds = ("gem", "rock")
            coloured_kinds = frozenset({"gem"})
            rules = {"goal": (1, 10)}
            engine_module = None
            policies_module = None


        GAME = Third()
        """))
    (package / "third.toml").write_text(CATALOGUE)
    for lang, text in RULES.items():
        (package / "texts" / f"rules.{lang}.md").write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    from third_game import GAME

    monkeypatch.setitem(registry.games(), "third", GAME)
    art.write_art(load("third", require_art=False), package / "art")
    yield GAME
    sys.modules.pop("third_game", None)


def test_a_game_without_art_of_its_own_gets_plain_faces_and_a_plain_back(third):
    catalogue = load("third")  # the art found through the game's art folder
    assert catalogue.back_art_path == third.art_folder / "third" / "back.png"
    faces = {card.id: art.draw_face(card, catalogue) for card in catalogue.cards}
    assert all(face.size == art.CARD_PX for face in faces.values())
    assert faces["gem-red"].getpixel((5, 5)) == art.rgb("#d7263d")  # a coloured card's frame is its colour
    assert faces["rock"].getpixel((5, 5)) == art.PLAIN.frame
    back = art.draw_back(catalogue)
    assert back.getpixel((art.WIDTH // 2, art.HEIGHT // 2)) == art.NIGHT
    assert back.tobytes() == back.rotate(180).tobytes()  # the same after a half turn


def test_a_game_without_hooks_gets_sheets_exports_and_a_rulebook(third, tmp_path):
    catalogue = load("third")
    assert print_cards(catalogue, aids=False).pdf.startswith(b"%PDF")
    export_cards(catalogue, "png", tmp_path / "png", aids=False)
    assert (tmp_path / "png" / "rock.png").is_file()
    book = build_rulebook(catalogue, lang="ru+en")
    assert book.pdf.startswith(b"%PDF") and book.pages >= 1


def test_what_a_game_without_hooks_cannot_have_is_refused_in_one_line(third):
    catalogue = load("third")
    refused = r"^third/texts/aid.en.md: there is no en player aid for third \(leave the player aid out with --no-aids\)"
    with pytest.raises(UserError, match=refused):
        print_cards(catalogue, aids=True)  # the player aids need the game's aid texts
    for lang in ("ru", "en"):  # a picture of the table needs the game's table scene
        path = third.text_file("rules", lang)
        path.write_text(path.read_text() + "\n{table:player=P}\n")
    with pytest.raises(UserError, match=r"^third/texts/rules.en.md:\d+: there is no table picture for third$"):
        build_rulebook(catalogue, lang="en")
