"""The one Python play loop (``toolkit.sim.play``): the chance source a game declares, and the record it
gives a built-in game and a rules file alike."""

from __future__ import annotations

from pathlib import Path

from toolkit.catalogue import load
from toolkit.games.registry import make_game
from toolkit.rules.load import load_rules
from toolkit.seats import builtin_players, rules_players
from toolkit.sim.play import FIELDS, LOOP_ONLY, PILE, WEIGHTS, PileOrder, chance_of, engine_batch, play_batch

PIG = str(Path(__file__).resolve().parent.parent / "examples" / "pig" / "pig.py")


def test_a_built_in_game_deals_from_its_pile_and_a_rules_file_draws_from_weights():
    game = make_game(load("palaces", require_art=False), 2)
    assert game.chance_source == PILE
    assert isinstance(chance_of(game, game.new_initial_state(), 1).__self__, PileOrder)
    pig = load_rules(PIG, {})
    assert getattr(pig, "chance_source", WEIGHTS) == WEIGHTS
    assert not isinstance(getattr(chance_of(pig, pig.new_initial_state(), 1), "__self__", None), PileOrder)


def test_one_record_for_every_game():
    game = make_game(load("diamoniak", require_art=False), 2)
    seats = builtin_players("diamoniak", 2)
    full = play_batch(game, seats, 5, 0, 20, max_turns=10_000)
    assert list(full)[:len(FIELDS)] == list(FIELDS) and full["decisions"].min() > 0
    kernel_like = engine_batch(game, seats, 5, 0, 20)
    assert list(kernel_like) == [name for name in full if name not in LOOP_ONLY]
    assert all((kernel_like[name] == full[name]).all() for name in kernel_like)
    pig = load_rules(PIG, {"goal": 20})
    records = play_batch(pig, rules_players(pig), 5, 0, 20)
    assert list(records)[:len(FIELDS)] == list(FIELDS) and (records["steps"] >= records["turns"]).all()
