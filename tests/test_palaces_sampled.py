"""Palaces' sampled games played whole by the compiled kernel (toolkit.games.palaces.sampled) are the Python
loops' own games: ``simulate_until`` and ``walker.estimate_states`` count the same for the same seed
with and without them, the seeded players' streams included, across the turn limit, and when the
generator's outputs drawn ahead or the room for a game's keys run out mid-game."""

from __future__ import annotations

import functools

import pytest

from toolkit.catalogue import load
from toolkit.fast.rng import Outputs
from toolkit.games.palaces import sampled
from toolkit.games.palaces import walk as palaces_walk
from toolkit.games.palaces.engine import PalacesGame, first_palace_complete
from toolkit.games.palaces.policies import parse
from toolkit.odds import report
from toolkit.walk import walker

GAME = PalacesGame.from_catalogue(load("palaces", require_art=False), players=1)


def both(policy: str, games: int, seed: int, turn_limit: int = report.TURN_LIMIT):
    """``simulate_until``'s summary by the Python loop and by the kernel, and each one's seats afterwards."""
    python_seats, kernel_seats = [parse(policy)], [parse(policy)]
    python = report.simulate_until("palaces", GAME, python_seats, first_palace_complete, games, seed)
    player = functools.partial(sampled.game_player, GAME, kernel_seats, first_palace_complete, max_turns=turn_limit)
    compiled = report.simulate_until("palaces", GAME, kernel_seats, first_palace_complete, games, seed, None, player)
    return python.as_json(), compiled.as_json(), python_seats, kernel_seats


@pytest.mark.parametrize("policy, games, seed", [("default", 150, 1), ("no-attack", 150, 7),
                                                 ("aggressive,give-random-2", 150, 3), ("random-3", 12, 5)])
def test_simulate_until_counts_the_same_games(policy, games, seed):
    python, compiled, python_seats, kernel_seats = both(policy, games, seed)
    assert python == compiled and python["games"] == games
    for rule in ("play", "give"):  # a seeded rule's stream goes on as the Python loop left it
        assert getattr(python_seats[0], rule) == getattr(kernel_seats[0], rule)
        assert getattr(getattr(python_seats[0], rule), "streams", None) == getattr(getattr(kernel_seats[0], rule),
                                                                                    "streams", None)


def test_games_past_the_turn_limit_count_as_unfinished(monkeypatch):
    monkeypatch.setattr(report, "TURN_LIMIT", 6)
    python, compiled, _, _ = both("random-4", 40, 2, turn_limit=6)
    assert python == compiled and python["unfinished"] > 0


def test_outputs_running_out_mid_game_are_drawn_again(monkeypatch):
    python, _, _, _ = both("default", 60, 11)
    monkeypatch.setattr(Outputs, "BLOCK", 5)  # a few draws a block: most games need more, and are played again
    _, compiled, _, _ = both("default", 60, 11)
    assert python == compiled


def estimates(start, seats, limit, done):
    """``estimate_states`` with the kernel's sampled games, then with the Python loop's."""
    compiled = walker.estimate_states(start, seats, limit, done, seed=4)
    real = palaces_walk.sampled_games
    try:
        del palaces_walk.sampled_games
        python = walker.estimate_states(start, seats, limit, done, seed=4)
    finally:
        palaces_walk.sampled_games = real
    return compiled, python


@pytest.mark.parametrize("players, done", [(1, first_palace_complete), (2, None)])
def test_the_estimate_samples_the_same_games(monkeypatch, players, done):
    game = PalacesGame.from_catalogue(load("palaces", require_art=False), players=players)
    start, seats = game.new_initial_state(), [parse("default")] * players
    compiled, python = estimates(start, seats, 600, done)
    assert compiled == python and compiled[1] >= 64
    monkeypatch.setattr(sampled, "ROWS", 2)  # no room for a game's keys: played again with more
    monkeypatch.setattr(Outputs, "BLOCK", 7)
    assert estimates(start, seats, 600, done) == (python, python)


def test_an_estimate_past_its_budget_stops_its_games_alike(monkeypatch):
    """Past its budget of chance points the estimate leaves each game at the point it reached, the kernel's
    game as the Python one."""
    monkeypatch.setattr(walker, "SAMPLE_WORK", 2_000)
    start, seats = GAME.new_initial_state(), [parse("default")]
    compiled, python = estimates(start, seats, 100_000, first_palace_complete)
    assert compiled == python
