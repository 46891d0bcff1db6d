"""Run many seeded games of one catalogue and summarise them.

Games are played and counted in batches (``CHUNK``), so memory stays flat however many games are
asked for; the figures depend only on the seed, never on the batching.
"""

from __future__ import annotations

import random
from typing import Callable

import numpy as np

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import make_game, policy_module
from toolkit.sim import solo_diamoniak
from toolkit.sim.runner import GameDidNotEnd, play
from toolkit.sim.stats import Summary, Tally

CHUNK = 10_000  # games played (and counted) together
MAX_GAMES = 100_000_000  # the most games one run may ask for


def seat_policies(game_id: str, players: int, choices: dict[int, str]):
    """One policy per seat: the default, replaced where ``choices`` (seat number from 1) names one."""
    for seat in choices:
        if not 1 <= seat <= players:
            raise UserError(f"--policy {seat}=...: seat {seat} does not exist with {players} player(s)")
    parse = policy_module(game_id).parse
    return [parse(choices[seat + 1], f"--policy {seat + 1}={choices[seat + 1]}") if seat + 1 in choices
            else parse("default") for seat in range(players)]


def simulate(catalogue: Catalogue, *, players: int, games: int, seed: int, policies: dict[int, str] | None = None,
             variants=(), progress: Callable[[int], None] | None = None, max_turns: int = 10_000,
             max_work: int | None = None) -> Summary:
    """Play ``games`` seeded games (each stopped after ``max_turns`` turns) and summarise them.

    ``progress(n)`` is told of every ``n`` games played. ``max_work`` bounds the turns of all games
    together: once they pass it, no new game starts (``Summary.games`` then says how many were played).
    """
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games {games}: play 1 to {MAX_GAMES:,} games")
    if not 0 <= seed < 2**63:
        raise UserError(f"--seed {seed}: a seed is a whole number from 0 to 2**63-1")
    game = make_game(catalogue, players, variants)
    seats = seat_policies(catalogue.game, players, policies or {})
    names = [policy.name for policy in seats]
    tally = Tally(players)
    if catalogue.game == "diamoniak" and solo_diamoniak.applies(game, names):
        _solo_kernel(game, games, seed, progress, max_turns, tally)
    else:
        _engine_games(game, seats, games, seed, progress, max_turns, max_work, tally)
    return tally.summary(game=catalogue.game, policies=names, variants=sorted(variants), seed=seed,
                         turn_limit=max_turns)


def _solo_kernel(game, games: int, seed: int, progress, max_turns: int, tally: Tally) -> None:
    rng = np.random.default_rng(seed)
    for start in range(0, games, CHUNK):
        runs = solo_diamoniak.run(game, min(CHUNK, games - start), rng, max_turns)
        turns = runs["turns"]
        counters = {"witch_strikes": runs["witches"], "purchases": np.zeros(turns.size, dtype=np.int64),
                    "reshuffles": runs["reshuffles"]}
        tally.add(turns, np.where(turns > 0, 0, -1), counters, runs["stalled"])
        if progress:
            progress(turns.size)


def progress_mark(played: int, games: int, work: int, max_work: int | None) -> int:
    """How far a run is, in games out of ``games``: the games played, or, when the turn budget
    ``max_work`` will run out first, the share of it spent."""
    if max_work is None:
        return played
    return max(played, min(games, work * games // max_work))


def _engine_games(game, seats, games: int, seed: int, progress, max_turns: int, max_work: int | None,
                  tally: Tally) -> None:
    rng = random.Random(seed)
    players = game.players
    work = played = reported = 0
    while played < games and (max_work is None or work < max_work):
        batch = min(CHUNK, games - played)
        turns = np.zeros(batch, dtype=np.int64)
        winners = np.full(batch, -1, dtype=np.int64)
        stalled = np.zeros(batch, dtype=bool)
        counters: dict[str, list[int]] = {}
        n = 0
        while n < batch and (max_work is None or work < max_work):
            state = game.new_initial_state()
            try:
                play(state, seats, rng, max_turns)
            except GameDidNotEnd:
                pass
            if state.winner is not None:
                turns[n], winners[n] = state.turns, state.winner
            stalled[n] = state.is_terminal() and state.winner is None
            for name, value in state.counters().items():
                counters.setdefault(name, []).append(value)
            work += state.turns
            n += 1
            if progress:
                mark = progress_mark(played + n, games, work, max_work)
                if mark > reported:
                    progress(mark - reported)
                    reported = mark
        rounds = np.where(turns[:n] > 0, (turns[:n] + players - 1) // players, 0)
        tally.add(rounds, winners[:n], {name: np.array(values) for name, values in counters.items()}, stalled[:n])
        played += n
