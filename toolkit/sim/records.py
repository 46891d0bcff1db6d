"""Many games of one configuration as records (``toolkit.sim.play``), by the fastest path that plays them.

``play_records`` and ``record_batches`` give the same arrays whichever path plays a built-in game: a
compiled kernel of the game's package where one covers the game, its policies and variants, else the
Python loop (``toolkit.sim.play``). ``record_batches`` plays the first games with the loop while the
kernel compiles in another process, when it is not compiled on this machine yet (``toolkit.sim.ahead``).

``batches`` plays a rules file's games: from a table of the file's positions where one serves
(``toolkit.rules.table``), else by the Python loop, in batches of ``CHUNK`` games in worker processes
(each loads the rules file itself, by its spec) when a run is long enough to pay for starting them. The
batches come back in order and a game's record depends on its seed alone, so the same seed gives the
same bytes however many processes played it.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
import weakref
from contextlib import contextmanager

import numpy as np

from toolkit.fast.notice import said_if_slow, say
from toolkit.rules.guard import RulesGame
from toolkit.rules.table import Distributions, Tabulated, tabulable
from toolkit.sim.play import arrays, engine_batch, play_batch, play_game

CHUNK = 2_000  # games a batch (and a worker's task)
PARALLEL_FROM = 3 * CHUNK  # fewer games are played here: starting processes would cost more
TASK = 500  # games a worker plays at a time (the progress moves on at each)

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


def game_batches(game, seats, run_seed: int, start: int, stop: int, max_turns: int, chunk: int, fast: bool = True,
                 workers: int | None = None):
    """The records of games ``start .. stop-1`` of the run ``run_seed``, batch by batch, in order: a registered
    game's by ``play_records`` (with ``fast``, its kernel where one covers the game), ``chunk`` games a batch,
    each stopped after ``max_turns`` turns; a rules file's by ``batches`` (its games end, or fail at its
    ``max_steps``; ``workers``: see there)."""
    if not isinstance(game, RulesGame):
        for first in range(start, stop, chunk):
            yield play_records(game, seats, run_seed, first, min(chunk, stop - first), max_turns, fast)
        return
    yield from batches(game, seats, run_seed, start, stop, workers)


def rules_batch(rules, seats, run_seed: int, start: int, count: int) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run ``run_seed`` by the Python loop: one int64 array per field."""
    draw = _distributions(rules).draw if isinstance(rules, RulesGame) else None
    return play_batch(rules, seats, run_seed, start, count, draw=draw)


_DISTRIBUTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _distributions(rules):
    """The chance outcome lists of ``rules`` checked once per content, in this process."""
    if rules not in _DISTRIBUTIONS:
        _DISTRIBUTIONS[rules] = Distributions()
    return _DISTRIBUTIONS[rules]


_LOADED: dict = {}


def loaded(spec: str, params: dict):
    """The rules of ``spec`` with ``params``, loaded once per process (a worker loads them itself)."""
    key = (spec, repr(sorted(params.items())))
    if key not in _LOADED:
        from toolkit.rules.load import load_rules

        _LOADED[key] = load_rules(spec, params)
    return _LOADED[key]


def _worker_batch(task) -> dict[str, np.ndarray]:
    """A worker process's batch: it loads the rules itself (once per process) from their spec."""
    spec, params, names, run_seed, start, count = task
    rules = loaded(spec, params)
    seats = [rules.policy(name) for name in names]
    return rules_batch(rules, seats, run_seed, start, count)


TABULATE_FROM = 400  # fewer games are played by the Python loop: learning a table would cost more
STEADY = 0.5  # seconds between two batches (and two looks at the progress), about
_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def kept_table(rules, seats):
    """The tabulated play of these players kept in this process (``toolkit.rules.table.Tabulated``), or None."""
    if not isinstance(rules, RulesGame):
        return None
    return _TABLES.get(rules, {}).get(tuple(policy.name for policy in seats))


def tabulating(rules, seats, games: int) -> bool:
    """Whether a table plays these games: a rules file played by ``random``, ``first`` or its own players,
    enough games to pay for the learning (or a table kept from before), and numba to compile its loop."""
    if kept_table(rules, seats) is not None:
        return True
    if games < TABULATE_FROM or not tabulable(rules, seats):
        return False
    return importlib.util.find_spec("numba") is not None  # the compiled loop needs it (imported where it plays)


def tabulated(rules, seats):
    """The tabulated play of these players, made once per rules game and players in a process, so a run
    that asks for more games goes on with the table it learned."""
    found = kept_table(rules, seats)
    if found is None:
        found = Tabulated(rules, seats, play_game)
        _TABLES.setdefault(rules, {})[tuple(policy.name for policy in seats)] = found
    return found


def _sized(first: int):
    """Batch sizes that keep each batch near ``STEADY`` seconds: ``send(seconds)`` the last one took."""
    size = first
    while True:
        took = yield size
        if took < STEADY / 3:
            size = min(2 * size, 1 << 16)
        elif took > STEADY:
            size = max(first, size // 2)


def _paced(start: int, stop: int, first: int, play):
    """``play(first, count)`` over games ``start .. stop-1``, in batches near ``STEADY`` seconds each."""
    sizes = _sized(first)
    size = next(sizes)
    while start < stop:
        began = time.monotonic()
        count = min(size, stop - start)
        yield play(start, count)
        start += count
        size = sizes.send(time.monotonic() - began)


def _table_batch(task) -> dict[str, np.ndarray]:
    """A worker's batch from the table it keeps: the file's code runs in the worker, so a file that ends
    its process ends a worker (one line), not the command."""
    spec, params, names, run_seed, start, count, began = task
    rules = loaded(spec, params)
    seats = [rules.policy(name) for name in names]
    if kept_table(rules, seats) is None:
        learning = Learning(rules, seats, began=began)
        tabulated(rules, seats)
        learning.now()  # not later, when the compiled loop is loaded
    return arrays(tabulated(rules, seats).records(run_seed, start, count))


def batches(rules, seats, run_seed: int, start: int, stop: int, workers: int | None = None):
    """The records of games ``start .. stop-1`` of the run ``run_seed``, batch by batch, in order: from a
    table of the file's positions where one serves (``tabulating``: learned here, or in one worker process
    from ``PARALLEL_FROM`` games), else by the Python loop, in worker processes when there are many."""
    from toolkit.rules.contain import worker_pool

    names = [policy.name for policy in seats]
    began = time.monotonic()  # the worker's line of progress counts from here
    if tabulating(rules, seats, stop - start):
        if kept_table(rules, seats) is not None or workers == 1 or stop - start < PARALLEL_FROM:
            table = tabulated(rules, seats)
            yield from _paced(start, stop, 256, lambda first, count: arrays(table.records(run_seed, first, count)))
            return
        with worker_pool(1, rules.source) as pool:
            def remote(first: int, count: int) -> dict[str, np.ndarray]:
                task = (rules.spec, rules.params, names, run_seed, first, count, began)
                return pool.submit(_table_batch, task).result()

            yield from _paced(start, stop, 256, remote)
        return
    workers = min(len(range(start, stop, CHUNK)), os.cpu_count() or 1) if workers is None else workers
    if workers <= 1 or stop - start < PARALLEL_FROM:
        yield from _paced(start, stop, 16, lambda first, count: rules_batch(rules, seats, run_seed, first, count))
        return
    tasks = [(rules.spec, rules.params, names, run_seed, first, min(TASK, stop - first))
             for first in range(start, stop, TASK)]
    with worker_pool(workers, rules.source) as pool:
        yield from pool.map(_worker_batch, tasks)



class Learning:
    """One line, ``NOTE_AFTER`` seconds after the table of these players began to learn (``began``: a worker
    counts from when the run began), of the positions learned so far, said by a timer (on time while a batch
    learns), as soon as it has learned some from then on, unless every game is played."""

    NOTE_AFTER = 0.5  # seconds
    LOOK_AGAIN = 0.1  # seconds between two looks while nothing is learned or played

    def __init__(self, rules, seats, games: int | None = None, done=None, began: float | None = None):
        self.rules, self.seats, self.games, self.done = rules, seats, games, done
        self.began = time.monotonic() if began is None else began
        self.closed = False
        self.lock = threading.Lock()  # the timer's thread and ``now`` say the line once between them
        self._wait(max(0.0, self.began + self.NOTE_AFTER - time.monotonic()))

    def _wait(self, seconds: float) -> None:
        self.timer = threading.Timer(seconds, self.note)
        self.timer.daemon = True
        self.timer.start()

    def note(self) -> None:
        """Say the line, or look again a little later while nothing is learned or played."""
        from toolkit.fast.notice import say

        with self.lock:
            kept = kept_table(self.rules, self.seats)
            learned = 0 if kept is None or kept.table is None else kept.positions
            played = self.done() if self.done is not None else 0
            if self.closed or self.games is not None and played >= self.games:
                return
            if not (learned or played):
                self._wait(min(self.NOTE_AFTER, self.LOOK_AGAIN))
                return
            self.closed = True
        took = time.monotonic() - self.began
        count = f"{played:,} of {self.games:,} games played after {took:.1f} s" if self.games is not None else \
            f"learning after {took:.1f} s"
        if learned:
            count += f"; {learned:,} position{'' if learned == 1 else 's'} learned so far"
        say(f"{self.rules.name}: {count}")

    def now(self) -> None:
        """Say the line at once if it is due (a worker's table has just learned its first position)."""
        if time.monotonic() >= self.began + self.NOTE_AFTER:
            self.timer.cancel()
            self.note()

    def close(self) -> None:
        self.closed = True
        self.timer.cancel()


class Told(Learning):
    """What a run says while it plays: ``progress(games)`` after each batch, and the one line of
    ``Learning``, with the games played (a run that has played or learned nothing by then says nothing:
    it may be stuck in the file's first call, whose one line is then the error)."""

    def __init__(self, rules, seats, games: int, progress=None):
        self.progress = progress
        self.played_games = 0
        super().__init__(rules, seats, games, lambda: self.played_games)
        if progress is None:
            self.close()

    def played(self, games: int) -> None:
        self.played_games += games
        if self.progress is not None:
            self.progress(games)

