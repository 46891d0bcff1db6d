"""A tip for the rulebook from the figures: how often a careful player beats one who always draws on.

For a game whose strategy names the two (``Strategy.tip``): two players, one stopping after ``k``
cards each turn, the other drawing on; each sits in each seat for half of the games (the same card
orders both ways). The rulebook's question on when to stop prints the 95% interval as whole games
out of 100 (``toolkit.placeholders.figures``: ``{odds:stop_after_K_wins}``).
"""

from __future__ import annotations

import math

import numpy as np

from toolkit.analysis.analyse import CHUNK, MAX_TURNS, run_seed
from toolkit.analysis.strategy import seating_games, strategy_of
from toolkit.sim.records import play_records
from toolkit.sim.stats import wilson


def stop_after_tip(catalogue, k: int = 3, precision: float = 0.01, seed: int = 1) -> dict:
    """The stopper's share of wins against the always-drawing player, its 95% interval, and that interval
    in whole games of 100 (``low_games`` rounded down, ``high_games`` up)."""
    from toolkit.games.registry import make_game, policy_module

    names = strategy_of(catalogue.game).tip(k)
    if names is None:
        raise ValueError(f"{catalogue.game} has no stopping tip")
    game = make_game(catalogue, 2, ())
    parse = policy_module(catalogue.game).parse
    stopper, drawer = parse(names[0]), parse(names[1])
    per_seating = seating_games(precision)
    wins = 0
    for seat, policies in ((0, [stopper, drawer]), (1, [drawer, stopper])):
        for first in range(0, per_seating, CHUNK):
            count = min(CHUNK, per_seating - first)
            winners = play_records(game, policies, run_seed(seed, 2), first, count, MAX_TURNS)["winner"]
            wins += int(np.count_nonzero(winners == seat))
    games = 2 * per_seating
    low, high = wilson(wins, games)
    lo, hi = math.floor(100 * low), math.ceil(100 * high)
    return {"k": k, "games": games, "wins": wins, "share": wins / games, "low": low, "high": high,
            "low_games": lo, "high_games": hi}
