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

import inspect
import os
from typing import Callable

import numpy as np

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE
from toolkit.sim.card_order import game_seed
from toolkit.sim.ordered import Race
from toolkit.sim.runner import Stream, sample_outcome, seat_streams

CHUNK = 2_000  # games a batch (and a worker's task)
PARALLEL_FROM = 3 * CHUNK  # fewer games are played here: starting processes would cost more
FIELDS = ("winner", "turns", "steps", "decisions", "stalled", "lead_changes", "winner_deficit")
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


def play_game(rules, seats, seed: int) -> dict[str, int]:
    """One game of the seed ``seed``: its record."""
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
            state.apply_action(sample_outcome(state.chance_outcomes(), chance), False)
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
    records = [play_game(rules, seats, game_seed(run_seed, index)) for index in range(start, start + count)]
    names = list(FIELDS)
    for record in records:  # a game may count an event the earlier ones never met
        names += [name for name in record if name not in names]
    return {name: np.array([record.get(name, 0) for record in records], dtype=np.int64) for name in names}


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


def batches(rules, seats, run_seed: int, start: int, stop: int, workers: int | None = None):
    """The records of games ``start .. stop-1`` of the run ``run_seed``, batch by batch, in order;
    played by worker processes when there are many."""
    starts = list(range(start, stop, CHUNK))
    workers = min(len(starts), os.cpu_count() or 1) if workers is None else workers
    if workers <= 1 or stop - start < PARALLEL_FROM:
        for first in starts:
            yield play_batch(rules, seats, run_seed, first, min(CHUNK, stop - first))
        return
    from toolkit.rules.contain import worker_pool

    names = [policy.name for policy in seats]
    tasks = [(rules.spec, rules.params, names, run_seed, first, min(CHUNK, stop - first)) for first in starts]
    with worker_pool(workers, rules.source) as pool:
        yield from pool.map(_worker_batch, tasks)


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Batches of records as one: an event a batch never met counts 0 there."""
    names: list[str] = []
    for part in parts:
        names += [name for name in part if name not in names]
    return {name: np.concatenate([part.get(name, np.zeros(part["winner"].size, dtype=np.int64)) for part in parts])
            for name in names}


def simulate(rules, seats, games: int, seed: int, progress: Callable[[int], None] | None = None) -> dict:
    """``games`` seeded games of ``rules`` played by ``seats``: the figures ``report_lines`` and ``--json`` give."""
    from toolkit.sim.stats import Tally

    scored = rules.players > 1 and rules.new_initial_state().scores() is not None
    tally = Tally(rules.players)
    draws = decisions = 0
    for records in batches(rules, seats, seed, 0, games):
        decisions += int(records["decisions"].sum())
        counters = {name: values for name, values in records.items()
                    if name not in FIELDS or (scored and name == "lead_changes")}
        tally.add(records["turns"], records["winner"], counters)
        draws += int(records["stalled"].sum())
        if progress:
            progress(int(records["winner"].size))
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
