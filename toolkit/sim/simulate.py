"""Run many seeded games of one catalogue and summarise them.

Games are played and counted in batches (``CHUNK``), so memory stays flat however many games are
asked for; the figures depend only on the seed, never on the batching.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import make_game
from toolkit.seats import Policies, builtin_players
from toolkit.sim.play import BASE_FIELDS
from toolkit.sim.records import record_batches
from toolkit.sim.stats import Summary, Tally

CHUNK = 10_000  # games played (and counted) together
WORK_CHUNK = 1_000  # the same, when a turn budget may stop the run within a batch
MAX_GAMES = 100_000_000  # the most games one run may ask for
FAST_FROM = 2_000  # fewer games are played by the engine: loading a compiled kernel would cost more


def simulate(catalogue: Catalogue, *, players: int, games: int, seed: int, policies: Policies | None = None,
             variants=(), progress: Callable[[int], None] | None = None, max_turns: int = 10_000,
             max_work: int | None = None) -> Summary:
    """Play ``games`` seeded games (each stopped after ``max_turns`` turns) and summarise them.

    Game ``i`` is the game of card order ``game_seed(seed, i)`` (``toolkit.sim.card_order``), played
    by a compiled kernel or by the engine (``toolkit.sim.records``): the same games either way; while a
    kernel not yet compiled on this machine compiles in another process, the engine plays the first games.
    ``progress(n)`` is told of every ``n`` games played. ``max_work`` bounds the turns of all games
    together: once they pass it, no new game starts (``Summary.games`` then says how many were played).
    """
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games {games}: play 1 to {MAX_GAMES:,} games")
    if not 0 <= seed < 2**63:
        raise UserError(f"--seed {seed}: a seed is a whole number from 0 to 2**63-1")
    game = make_game(catalogue, players, variants)
    seats = builtin_players(catalogue.game, players, policies)
    tally = Tally(players)
    chunk = CHUNK if max_work is None else WORK_CHUNK
    played = work = reported = 0
    with record_batches(game, seats, seed, games, chunk, max_turns, fast=games >= FAST_FROM) as batches:
        for records in batches:
            turns = records["turns"]
            if max_work is not None:  # no game starts once the games before it have played max_work turns
                before = work + np.cumsum(turns) - turns
                keep = int(np.count_nonzero(before < max_work))
                records = {name: values[:keep] for name, values in records.items()}
                turns = records["turns"]
            won = records["winner"] >= 0
            rounds = np.where(won, (turns + players - 1) // players, 0)
            counters = {name: values for name, values in records.items() if name not in BASE_FIELDS}
            tally.add(rounds, records["winner"], counters, records["stalled"] > 0)
            played += int(turns.size)
            work += int(turns.sum())
            del records, turns, won, rounds, counters  # one batch in memory at a time
            if progress:
                mark = progress_mark(played, games, work, max_work)
                if mark > reported:
                    progress(mark - reported)
                    reported = mark
            if max_work is not None and work >= max_work:
                break
    return tally.summary(game=catalogue.game, policies=[policy.name for policy in seats], variants=sorted(variants),
                         seed=seed, unit=length_unit(players), turn_limit=max_turns, title=catalogue.title["en"])


def length_unit(players: int) -> str:
    """What a built-in game's length is counted in: rounds (every seat's turn once), turns when one plays."""
    return "turns" if players == 1 else "rounds"


def progress_mark(played: int, games: int, work: int, max_work: int | None) -> int:
    """How far a run is, in games out of ``games``: the games played, or, when the turn budget
    ``max_work`` will run out first, the share of it spent."""
    if max_work is None:
        return played
    return max(played, min(games, work * games // max_work))


def simulate_rules(rules, seats, games: int, seed: int, progress: Callable[[int], None] | None = None) -> Summary:
    """``games`` seeded games of the rules file ``rules`` played by ``seats`` (``toolkit.sim.records.batches``),
    summarised: every game ends (no turn limit), one without a winner is a draw."""
    from toolkit.sim.play import FIELDS
    from toolkit.sim.records import Told, batches

    scored = rules.players > 1 and rules.new_initial_state().scores() is not None
    tally = Tally(rules.players)
    draws = decisions = 0
    told = Told(rules, seats, games, progress)
    try:
        for records in batches(rules, seats, seed, 0, games):
            decisions += int(records["decisions"].sum())
            counters = {name: values for name, values in records.items()
                        if name not in FIELDS or (scored and name == "lead_changes")}
            tally.add(records["turns"], records["winner"], counters)
            draws += int(records["stalled"].sum())
            told.played(int(records["winner"].size))
    finally:
        told.close()
    params = {name: value if isinstance(value, (int, float, str, bool)) else repr(value)
              for name, value in rules.params.items()}
    return tally.summary(game=rules.description(), policies=[policy.name for policy in seats], variants=None,
                         seed=seed, unit=rules.info().length_unit,
                         about={"rules": rules.spec, "draws": draws, "params": params, "decisions": decisions > 0})
