"""The numba kernels the tests use, compiled before the first test (``conftest.pytest_sessionstart``):
on a fresh machine they take a minute or two, which a test reading stderr or a deadline must not see;
later processes load them from numba's cache.

The kernels fall in groups of about equal compile time: a session on several workers compiles the
groups side by side, one process each (``python tests/warm.py GROUP``), instead of one after another.
"""

from __future__ import annotations

import sys


def simulators() -> None:
    """The simulator's kernels of both built-in games, the solo passes and the loop of a rules file's table."""
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game
    from toolkit.sim.records import kernel_for
    from toolkit.seats import builtin_players

    for game_id, players in (("diamoniak", 2), ("palaces", 2)):
        kernel_for(make_game(load(game_id, require_art=False), players), builtin_players(game_id, players))
    from toolkit.games.diamoniak import solo as diamoniak_solo
    from toolkit.games.diamoniak import solo_passes

    deck = diamoniak_solo.SoloDeck(castles=(("red", 3),), diamonds=1, witches=1, fairies=1, size=2, takes=1)
    solo_passes.whole_passes(deck, [{deck.start(): 1}], compiled=True)
    from pathlib import Path

    from toolkit.rules.load import load_rules
    from toolkit.sim.play import play_game
    from toolkit.rules.table import Tabulated
    from toolkit.seats import rules_players

    chutes = load_rules(str(Path(__file__).resolve().parent.parent / "examples" / "chutes" / "chutes.py"))
    Tabulated(chutes, rules_players(chutes), play_game, verify=0).records(0, 0, 1)  # the rules files' table loop


def walks() -> None:
    """The solvers' compiled loops (both liftings, the components, the value and interval iterations) and the compiled walks of both games' chains."""
    import numpy as np

    from toolkit.solve import dense, linear, scc

    linear.lift_integer([{0: 2, 1: -1}, {0: -1, 1: 2}], [1, 1])
    dense.lift_blocks([{0: 3, 1: -1}, {0: -1, 1: 3}], [1, 1], [0, 2])
    ring = np.array([0, 1], np.int64), np.array([1, 2], np.int64), np.array([1, 0], np.int64)
    scc.compiled().components(*ring)
    scc.compiled().endless(*ring, np.zeros(2, np.int64))
    from toolkit.solve import iterate

    zeros = np.zeros(2, np.float64)
    sense, members, starts = np.zeros(2, np.int64), np.array([1, 0], np.int64), np.array([0, 2], np.int64)
    iterate.value_iteration(*ring, np.full(2, 0.5), zeros, sense, zeros, members, starts, 0.0, 10)
    iterate.interval_iteration(*ring, np.full(2, 0.5), zeros, sense, zeros, members, starts, 0.0, 1.0, True, 1e-9, 10)
    iterate.choices(*ring, zeros, sense, zeros, 1e-12)
    from dataclasses import replace

    from toolkit.catalogue import load
    from toolkit.games.diamoniak.engine import DiamoniakGame
    from toolkit.games.palaces.engine import PalacesGame
    from toolkit.walk import walker
    from toolkit.seats import builtin_players

    small = DiamoniakGame.from_catalogue(load("diamoniak", overrides=["castle-green=0", "castle-yellow=0", "witch=1",
                                                                      "diamond=1", "fairy=0"], require_art=False), 2)
    walker.build(small.new_initial_state(), builtin_players("diamoniak", 2), 100_000, compiled=True)
    tiny = PalacesGame.from_catalogue(load("palaces", require_art=False), 2)
    few = {"foundation-red": 1, "floor-red": 1, "roof-red": 1, "ruins": 1, "exchange": 1, "general-exchange": 1,
           "flood": 1}
    tiny = replace(tiny, counts=tuple(few.get(name, 0) for name in tiny.names), hand_size=2, goal=3)
    walker.build(tiny.new_initial_state(), builtin_players("palaces", 2), 100_000, compiled=True)


GROUPS = (simulators, walks)


def warm_all() -> None:
    for group in GROUPS:
        group()


if __name__ == "__main__":
    GROUPS[int(sys.argv[1])]()
