"""The optimal play's policy table of a built-in game reads as people read the game: its fields and actions
named by the game's own package (``Game.state_fields``, ``Game.action_name``), the cards by their catalogue
ids and the seats from 1, in the text and in the exported JSON; never the engine's ``pile[5]`` or
``('draw',)``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from toolkit.catalogue import load
from toolkit.games.registry import get

ROOT = Path(__file__).resolve().parent.parent


def test_diamoniak_policy_table_names_cards_and_seats(small_diamoniak_optimal):
    # conftest's run of the small deck (8 cards, a castle of 2), shared with test_rules_exact
    deck = small_diamoniak_optimal["catalogue"]
    text = small_diamoniak_optimal["text"]
    assert "[" not in text and "('" not in text and "witches" not in text  # no engine field, tuple or counter
    assert re.search(r"seat 1: stop while seat 1 castle is below the number, then draw \(.*pile castle-red", text)
    assert "spend a fairy" in text or "lose " in text  # the witch's decisions, in words
    data = json.loads(small_diamoniak_optimal["policy"])
    assert small_diamoniak_optimal["policy"].startswith('{"information": "perfect information assumed')
    ids = {card.id for card in load(None, str(deck), (), require_art=False).cards}
    for answer in data["answers"]:
        for decision in answer["decisions"]:
            state, action = decision["state"], decision["action"]
            assert {"pile castle-red", "seat 1 colour", "seat 2 castle", "drawn this turn"} <= set(state)
            assert state["seat 1 colour"] in ("red", "blue", "none")
            for name in state:
                words = name.split()
                assert words[0] in ("pile", "discard", "seat", "drawn", "last", "passes")
                assert words[-1] in ids or words[0] != "pile"
            assert re.fullmatch(r"draw|stop|pass|spend a fairy|buy from seat [12]|lose nothing|"
                                r"lose \d (castle|diamond)\S* from the (right|castle)(, \d \S+ from the (right|castle))*",
                                action), action
        for table in answer["tables"]:  # when to stop drawing, read from named fields
            assert table["field"] in state and set(table["keys"]) <= set(state)
            assert {table["before"], table["after"]} == {"draw", "stop"}


def test_palaces_names_its_fields_and_every_action_of_its_games():
    """Palaces' view over whole random games of the shipped deck: one fixed tuple of field names, the cards
    by id, and every legal action in words (nothing of the engine's tuples). On the compiled steps (the
    same rules, ``PalacesState.compiled``): random games of three run to thousands of moves, each with
    some thirty legal actions, which the interpreted steps list one call each."""
    game_info = get("palaces")
    catalogue = load("palaces", require_art=False)
    ids = {card.id for card in catalogue.cards}
    for players in (2, 3):
        game = game_info.make_game(catalogue, players, ())
        rng = random.Random(players)
        names = None
        words = set()
        for _ in range(2):  # thousands of moves each: every kind of action comes up
            state = game.new_initial_state().compiled()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
                    continue
                fields, values = game_info.state_fields(state)
                assert len(fields) == len(values) and fields == (names or fields)
                names = fields
                actions = state.legal_actions()
                words |= {game_info.action_name(game, action) for action in actions}
                state.apply_action(rng.choice(actions))
        assert f"seat {players} hand tower" in names and f"seat {players} palaces" in names and "pile ruins" in names
        for word in words:
            assert "(" not in word and "None" not in word, word
            assert word == "pass" or any(card in word for card in ids), word
        assert any(word.startswith("build foundation-") for word in words)
