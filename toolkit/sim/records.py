"""Many games of one configuration as records (``toolkit.sim.ordered``), by the fastest path that plays them.

``play_records`` and ``record_batches`` give the same arrays whichever path plays the games: a compiled
kernel of the game's package where one covers the game, its policies and variants, else the rules
engine itself. ``record_batches`` plays the first games with the engine while the kernel compiles in
another process, when it is not compiled on this machine yet (``toolkit.sim.ahead``).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np

from toolkit.fast.notice import said_if_slow, say
from toolkit.sim.ordered import engine_batch

STEP = 16  # games the engine plays between two looks at a kernel compiling beside it
# The share of its time this process plays the engine's games while the kernel compiles; the rest it
# waits, leaving the CPU to the compile: at full speed the games made the first Palaces simulate's
# whole run 10 s longer (26.4 s against 16.4 s, 2 cores, load 1-2), at 0.5 1.7 s longer (20.9 s against
# 19.2 s), at 0.1 no longer (17.0 s against 19.2 s), the first game played after 1.1 to 1.8 s each time.
SHARE = 0.1


def kernel_for(game, policies):
    """The kernel module that plays this game with these policies, compiled, or None (the engine plays it)."""
    module = _kernel(game, policies)
    if module is not None:
        _prepare(module, game, policies)
    return module


def _kernel(game, policies):
    """The kernel module that plays this game with these policies, or None; not compiled yet perhaps."""
    from toolkit.games.registry import get

    module = get(game.game_id).kernel()
    if module is None or not module.supports(game, policies):
        return None
    return module


_READY: set[str] = set()
COMPILING = "preparing the fast simulator (compiled once on this machine; this takes up to a minute)"


def _prepare(module, game, policies) -> None:
    """Compile a kernel (numba, once per machine: later runs load it from numba's cache in well under a
    second) before its first batch, saying so on stderr when that takes long."""
    if module.__name__ in _READY:
        return
    with said_if_slow(COMPILING):
        module.batch(game, policies, 0, 0, 1)
    _READY.add(module.__name__)


class _NotCached(Exception):
    """Where numba would start compiling, while ``_loads`` looks for a kernel in numba's cache."""


def _loads(module, game, policies) -> bool:
    """Whether the kernel plays these games with nothing to compile: it is ready in this process, or numba
    loads all it needs from its on-disk cache (which this does, as a first batch would). Compiles nothing."""
    if module.__name__ in _READY:
        return True
    from numba.core import event

    class Refuse(event.Listener):
        def on_start(self, event):
            raise _NotCached

        def on_end(self, event):
            pass

    try:
        with event.install_listener("numba:compile", Refuse()):
            module.batch(game, policies, 0, 0, 1)
    except _NotCached:
        return False
    _READY.add(module.__name__)
    return True


def play_records(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000,
                 fast: bool = True) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``: one int64 array per record field."""
    kernel = kernel_for(game, policies) if fast else None
    if kernel is None:
        return engine_batch(game, policies, run_seed, start, count, max_turns)
    return kernel.batch(game, policies, run_seed, start, count, max_turns)


@contextmanager
def record_batches(game, policies, run_seed: int, count: int, chunk: int, max_turns: int = 10_000,
                   fast: bool = True):
    """Games ``0 .. count-1`` of the run seeded ``run_seed`` as an iterator of batches of records (at most
    ``chunk`` games each, in order), each as ``play_records`` gives them: the same records whatever plays them.

    With ``fast``, a kernel plays them where one covers the game. When it is not compiled on this machine
    yet, a child process compiles it (``toolkit.sim.ahead``) while the engine plays the first games here,
    ``STEP`` games a batch, ``SHARE`` of the time; once the child is done, the kernel (loaded from numba's
    cache) plays the rest.
    Leaving the block by an exception (Ctrl-C) stops the child; otherwise a child still compiling finishes
    when this process exits.
    """
    kernel = _kernel(game, policies) if fast else None
    ahead = None
    if kernel is not None and not _loads(kernel, game, policies):
        from toolkit.sim.ahead import Compile

        ahead = Compile(kernel, game, policies)
        if ahead.child is None:
            ahead = None  # no child: compiled here, before the first batch, as play_records does
    try:
        yield _batches(game, policies, run_seed, count, chunk, max_turns, kernel, ahead)
    except BaseException:
        if ahead is not None:
            ahead.stop()
        raise
    if ahead is not None:
        ahead.finish_at_exit()


def _batches(game, policies, run_seed, count, chunk, max_turns, kernel, ahead):
    played = 0
    if ahead is not None:
        say(f"{COMPILING}; the first games are played meanwhile")
        while played < count and ahead.running():
            began = time.monotonic()
            step = min(STEP, count - played)
            yield engine_batch(game, policies, run_seed, played, step, max_turns)
            played += step
            ahead.wait((time.monotonic() - began) * (1 / SHARE - 1))
        if played < count and not (ahead.succeeded() and _loads(kernel, game, policies)):
            _prepare(kernel, game, policies)  # the child failed (or numba's cache keeps nothing): compile here
    while played < count:
        step = min(chunk, count - played)
        yield play_records(game, policies, run_seed, played, step, max_turns, fast=kernel is not None)
        played += step
