"""Many games of one configuration as records (``toolkit.sim.ordered``), by the fastest path that plays them.

``play_records`` gives the same arrays whichever path plays the games: a compiled kernel of
``toolkit.fast`` where one covers the game, its policies and variants, else the rules engine itself.
"""

from __future__ import annotations

from importlib import import_module

import numpy as np

from toolkit.sim.ordered import engine_batch

_KERNELS = {"DiamoniakGame": "toolkit.fast.diamoniak_kernel", "PalacesGame": "toolkit.fast.palaces_kernel"}


def kernel_for(game, policies):
    """The kernel module that plays this game with these policies, or None (the engine plays it)."""
    name = _KERNELS.get(type(game).__name__)
    if name is None:
        return None
    module = import_module(name)
    return module if module.supports(game, policies) else None


def play_records(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000,
                 fast: bool = True) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``: one int64 array per record field."""
    kernel = kernel_for(game, policies) if fast else None
    if kernel is None:
        return engine_batch(game, policies, run_seed, start, count, max_turns)
    return kernel.batch(game, policies, run_seed, start, count, max_turns)
