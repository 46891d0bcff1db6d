"""Many games of one configuration as records (``toolkit.sim.ordered``), by the fastest path that plays them.

``play_records`` gives the same arrays whichever path plays the games: a compiled kernel of
``toolkit.fast`` where one covers the game, its policies and variants, else the rules engine itself.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from toolkit.sim.ordered import engine_batch

def kernel_for(game, policies):
    """The kernel module that plays this game with these policies, or None (the engine plays it)."""
    from toolkit.games.registry import get

    module = get(game.game_id).kernel()
    if module is None:
        return None
    if not module.supports(game, policies):
        return None
    _prepare(module, game, policies)
    return module


_READY: set[str] = set()
# seconds before a kernel still compiling is announced: on a terminal, and off one (as a whole line)
NOTE_AFTER = {True: 1.0, False: 3.0}


def _prepare(module, game, policies) -> None:
    """Compile a kernel (numba, once per machine: later runs load it from numba's cache in well under a
    second) before its first batch, saying so on stderr when that takes long."""
    if module.__name__ in _READY:
        return
    timer = threading.Timer(NOTE_AFTER[sys.stderr.isatty()], _say_compiling)
    timer.daemon = True
    timer.start()
    try:
        module.batch(game, policies, 0, 0, 1)
    finally:
        timer.cancel()
    _READY.add(module.__name__)


def _say_compiling() -> None:
    try:
        print("toolkit: note: preparing the fast simulator (compiled once on this machine; this takes up to a "
              "minute)", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def play_records(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000,
                 fast: bool = True) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``: one int64 array per record field."""
    kernel = kernel_for(game, policies) if fast else None
    if kernel is None:
        return engine_batch(game, policies, run_seed, start, count, max_turns)
    return kernel.batch(game, policies, run_seed, start, count, max_turns)
