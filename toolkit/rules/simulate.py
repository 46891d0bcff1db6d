"""Seeded, batched, parallel play of a rules game: one record a game, as the built-in games' records
(``toolkit.sim.ordered``), so the balance figures (``toolkit.analysis.metrics``) read them alike.

Game ``i`` of a run seeded ``s`` draws its chance outcomes from the splitmix64 stream of ``game_seed(s, i)``
(``toolkit.sim.runner.Stream``: the outcome where ``below(total)`` falls in the whole weights) and each
seat's random choices from a stream of that seat's own (``seat_streams``), so a change of player never
changes the dice: a game's record depends on its seed alone, never on the batching or on how many
processes played it. Batches of ``CHUNK`` games go to worker processes (each loads the rules
file itself, by its spec) when a run is long enough to pay for starting them; the batches come back
in order, so the same seed gives the same bytes.

A record: ``winner`` (seat, -1: none), ``turns`` (the game's own turns, else steps), ``steps``, ``decisions``
(the times a seat was to decide), ``stalled`` (1: the game ended without a winner), ``lead_changes`` and
``winner_deficit`` (from ``score(player)``, looked at after every turn; 0 when the game defines no score),
and every count of ``events()``. A game in which no seat ever decides (a race with dice and no choice)
is played by chance alone: its figures name no players.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import threading
import time
import weakref
from typing import Callable

import numpy as np

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE
from toolkit.rules.guard import RulesGame
from toolkit.rules.table import FIELDS, Distributions, Tabulated, tabulable
from toolkit.sim.card_order import game_seed
from toolkit.sim.ordered import Race
from toolkit.sim.runner import Stream, sample_outcome, seat_streams

CHUNK = 2_000  # games a batch (and a worker's task)
PARALLEL_FROM = 3 * CHUNK  # fewer games are played here: starting processes would cost more
TASK = 500  # games a worker plays at a time (the progress moves on at each)
NO_DECISIONS = "no seat had a decision to make in these games: chance alone played them"


def _endless(rules, state, seats) -> UserError:
    game = rules.game if hasattr(rules, "game") else None
    where = rules.source
    if game is not None:
        if hasattr(game, "max_game_length"):
            where = rules.where(game.max_game_length)
            why = "the limit its max_game_length() gives"
        else:
            try:
                where = f"{rules.source}:{inspect.getsourcelines(rules.cls)[1]}"
            except (OSError, TypeError):
                pass
            why = "the default limit; a game that may be longer says so in max_game_length()"
    else:
        why = "the default limit"
    names = ", ".join(policy.name for policy in seats)
    return UserError(f"{where}: {rules.name}: a game played by {names} did not end within {rules.max_steps:,} steps "
                     f"({why}); it was at state {state!r}")


def play_game(rules, seats, seed: int, draw=None) -> dict[str, int]:
    """One game of the seed ``seed``: its record. ``draw(state, stream)`` draws a chance outcome as
    ``sample_outcome(state.chance_outcomes(), stream)`` does (that, when not given), faster."""
    chance = Stream(seed)
    streams = seat_streams(seed, rules.players)
    for seat, policy in enumerate(seats):
        start = getattr(policy, "start_game", None)
        if start is not None:
            start(seed, seat)
    state = rules.new_initial_state()
    scores = state.scores()
    race = Race(rules.players) if scores is not None else None
    turns = state.turns
    limit = rules.max_steps
    decisions = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            outcome = sample_outcome(state.chance_outcomes(), chance) if draw is None else draw(state, chance)
            state.apply_action(outcome, False)
        else:
            decisions += 1
            state.apply_action(seats[player].act(state, streams[player]), True)
        if state.steps >= limit and not state.is_terminal():
            raise _endless(rules, state, seats)
        if race is not None and state.turns != turns:
            race.look(state.scores())
            turns = state.turns
    if race is not None and state.turns == turns:
        race.look(state.scores())
    winner = state.winner
    winner = -1 if winner is None else winner
    record = {"winner": winner, "turns": state.turns, "steps": state.steps, "decisions": decisions,
              "stalled": int(winner < 0),
              "lead_changes": race.changes if race else 0,
              "winner_deficit": race.worst[winner] if race and winner >= 0 else 0}
    record.update(state.events())
    return record


def play_batch(rules, seats, run_seed: int, start: int, count: int) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run ``run_seed``: one int64 array per record field."""
    draw = _distributions(rules).draw if isinstance(rules, RulesGame) else None
    return arrays([play_game(rules, seats, game_seed(run_seed, index), draw)
                   for index in range(start, start + count)])


def arrays(records: list[dict[str, int]]) -> dict[str, np.ndarray]:
    """Records as one int64 array per field: the fields, then each count in the order the games met it."""
    names = list(FIELDS)
    for record in records:  # a game may count an event the earlier ones never met
        names += [name for name in record if name not in names]
    return {name: np.array([record.get(name, 0) for record in records], dtype=np.int64) for name in names}


_DISTRIBUTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _distributions(rules):
    """The chance outcome lists of ``rules`` checked once per content, in this process."""

    if rules not in _DISTRIBUTIONS:
        _DISTRIBUTIONS[rules] = Distributions()
    return _DISTRIBUTIONS[rules]


_LOADED: dict = {}


def _loaded(spec: str, params: dict):
    """The rules of ``spec`` with ``params``, loaded once per process (a worker loads them itself)."""
    key = (spec, repr(sorted(params.items())))
    if key not in _LOADED:
        from toolkit.rules.load import load_rules

        _LOADED[key] = load_rules(spec, params)
    return _LOADED[key]


def _worker_batch(task) -> dict[str, np.ndarray]:
    """A worker process's batch: it loads the rules itself (once per process) from their spec."""
    spec, params, names, run_seed, start, count = task
    rules = _loaded(spec, params)
    seats = [rules.policy(name) for name in names]
    return play_batch(rules, seats, run_seed, start, count)


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
    rules = _loaded(spec, params)
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
        yield from _paced(start, stop, 16, lambda first, count: play_batch(rules, seats, run_seed, first, count))
        return
    tasks = [(rules.spec, rules.params, names, run_seed, first, min(TASK, stop - first))
             for first in range(start, stop, TASK)]
    with worker_pool(workers, rules.source) as pool:
        yield from pool.map(_worker_batch, tasks)


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Batches of records as one: an event a batch never met counts 0 there."""
    names: list[str] = []
    for part in parts:
        names += [name for name in part if name not in names]
    return {name: np.concatenate([part.get(name, np.zeros(part["winner"].size, dtype=np.int64)) for part in parts])
            for name in names}


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


def simulate(rules, seats, games: int, seed: int, progress: Callable[[int], None] | None = None) -> dict:
    """``games`` seeded games of ``rules`` played by ``seats``: the figures ``report_lines`` and ``--json`` give."""
    from toolkit.sim.stats import Tally

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
    summary = tally.summary(game=rules.name, policies=[policy.name for policy in seats], variants=(), seed=seed,
                            unit=rules.info().length_unit)
    out = {**summary.as_json(), "rules": rules.spec, "game": rules.description(), "draws": draws}
    for name in ("variants", "unfinished", "stalled", "turn_limit"):  # every game ends: no limit cuts one short
        out.pop(name)
    out["params"] = {name: value if isinstance(value, (int, float, str, bool)) else repr(value)
                     for name, value in rules.params.items()}
    out["decisions"] = decisions > 0
    if not decisions:  # the players never played: chance alone did
        out.pop("policies")
    return out


def report_lines(result: dict) -> str:
    """The simulation as text."""
    r = result
    seats = "player" if r["players"] == 1 else "players"
    lines = [f"{r['game']}: {r['players']} {seats}, {r['games']:,} games (seed {r['seed']})"]
    if r["decisions"]:
        lines += [f"  seat {seat} plays {policy}" for seat, policy in enumerate(r["policies"], start=1)]
    else:
        lines.append(f"  {NO_DECISIONS}")
    unit = r["length_unit"]
    low, high = r[f"ci95_{unit}"]
    lines.append(f"length ({unit}): mean {r[f'mean_{unit}']:.3f} ± {r[f'stderr_{unit}']:.3f} (95% interval {low:.3f} "
                 f"to {high:.3f}), median {r[f'median_{unit}']:g}")
    lines.append("percentiles: " + ", ".join(f"{q}%: {v}" for q, v in r["percentiles"].items()))
    for seat, (rate, (low, high)) in enumerate(zip(r["win_rate"], r["win_rate_ci95"]), start=1):
        lines.append(f"seat {seat} wins {100 * rate:.2f}% (95% interval {100 * low:.2f}% to {100 * high:.2f}%)")
    if r["draws"]:
        lines.append(f"no winner in {r['draws']:,} games ({100 * r['draws'] / r['games']:.2f}%)")
    for name, mean in r["per_game"].items():
        what = "lead changes" if name == "lead_changes" else name.replace("_", " ")
        lines.append(f"{what}: {mean:.3f} per game, in {100 * r['at_least_once'][name]:.1f}% of games")
    return "\n".join(lines)
