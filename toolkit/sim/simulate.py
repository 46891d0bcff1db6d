"""Run many seeded games of one catalogue and summarise them."""

from __future__ import annotations

import math
import random
from typing import Callable

import numpy as np

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import make_game, policy_module
from toolkit.sim import solo_diamoniak
from toolkit.sim.runner import GameDidNotEnd, play
from toolkit.sim.stats import Summary, summarise

CHUNK = 10_000  # games between two progress reports


def seat_policies(game_id: str, players: int, choices: dict[int, str]):
    """One policy per seat: the default, replaced where ``choices`` (seat number from 1) names one."""
    for seat in choices:
        if not 1 <= seat <= players:
            raise UserError(f"--policy {seat}=...: seat {seat} does not exist with {players} player(s)")
    parse = policy_module(game_id).parse
    return [parse(choices.get(seat + 1, "default")) for seat in range(players)]


def simulate(catalogue: Catalogue, *, players: int, games: int, seed: int, policies: dict[int, str] | None = None,
             variants=(), progress: Callable[[int], None] | None = None, max_turns: int = 10_000) -> Summary:
    if games < 1:
        raise UserError(f"--games {games}: play at least one game")
    game = make_game(catalogue, players, variants)
    seats = seat_policies(catalogue.game, players, policies or {})
    names = [policy.name for policy in seats]
    if catalogue.game == "diamoniak" and solo_diamoniak.applies(game, names):
        turns, winners, counters = _solo_kernel(game, games, seed, progress, max_turns)
    else:
        turns, winners, counters = _engine_games(game, seats, games, seed, progress, max_turns)
    rounds = np.where(turns > 0, (turns + players - 1) // players, 0)
    return summarise(game=catalogue.game, players=players, policies=names, variants=sorted(variants), seed=seed,
                     rounds=rounds, winners=winners, counters=counters)


def _solo_kernel(game, games, seed, progress, max_turns):
    rng = np.random.default_rng(seed)
    parts = []
    for start in range(0, games, CHUNK):
        parts.append(solo_diamoniak.run(game, min(CHUNK, games - start), rng, max_turns))
        if progress:
            progress(min(CHUNK, games - start))
    turns = np.concatenate([p["turns"] for p in parts])
    counters = {
        "witch_strikes": np.concatenate([p["witches"] for p in parts]),
        "purchases": np.zeros(games, dtype=np.int64),
        "reshuffles": np.concatenate([p["reshuffles"] for p in parts]),
    }
    winners = np.where(turns > 0, 0, -1)
    return turns, winners, counters


def _engine_games(game, seats, games, seed, progress, max_turns):
    rng = random.Random(seed)
    turns = np.zeros(games, dtype=np.int64)
    winners = np.full(games, -1, dtype=np.int64)
    counters: dict[str, list[int]] = {}
    for i in range(games):
        state = game.new_initial_state()
        try:
            play(state, seats, rng, max_turns)
        except GameDidNotEnd:
            pass
        if state.winner is not None:
            turns[i], winners[i] = state.turns, state.winner
        for name, value in state.counters().items():
            counters.setdefault(name, []).append(value)
        if progress and (i + 1) % math.ceil(CHUNK / 10) == 0:
            progress(math.ceil(CHUNK / 10))
    if progress:
        progress(games % math.ceil(CHUNK / 10))
    return turns, winners, {name: np.array(values) for name, values in counters.items()}
