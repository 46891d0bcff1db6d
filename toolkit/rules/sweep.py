"""``sweep --rules``: a grid over a rules game's constructor parameters (``--grid goal=20,50,100``) and its
seats' players (``--policy 1=hold-at-20|random``), played as the built-in games' sweeps are
(``toolkit.analysis.sweep_cluster``: Dask, or ``--in-process``), one row a configuration.

Every configuration is loaded and its players checked before any game is played. Its games are seeded
from the sweep's seed and the configuration itself (the game's class, its parameters and its players),
never its place in the grid or the worker that plays it; a worker loads the rules file itself, by its
spec (the file's absolute path), and plays its piece in its own process.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toolkit.analysis.sweep import (MAX_CONFIGURATIONS, RESERVED_COLUMNS, Axis, Grid, configuration_key,
                                    configuration_policies, parse_values, policy_axes)
from toolkit.catalogue.checks import quote
from toolkit.errors import UserError
from toolkit.rules.load import _FILE, load_rules, parse_value
from toolkit.seats import rules_parse, rules_players

_RANGES = re.compile(r"[0-9]{1,9}(\.\.[0-9]{1,9})?(,[0-9]{1,9}(\.\.[0-9]{1,9})?)*")


def grid_axis(text: str) -> Axis:
    """``--grid NAME=VALUES``: whole numbers as ``--set`` takes them (``20,50,100``, ``10..14``), else
    values separated by commas, each a Python literal or text."""
    option = f"--grid {quote(text, '')}"
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier() or not values.strip():
        raise UserError(f"{option}: expected NAME=VALUES, e.g. --grid goal=20,50,100")
    if _RANGES.fullmatch(values.replace(" ", "")):
        return Axis(name, option, parse_values(values, option, 0, 10**9))
    items = [item.strip() for item in values.split(",")]
    if "" in items:
        raise UserError(f"{option}: a value is empty (separate the values with commas)")
    parsed = tuple(parse_value(item) for item in items)
    if len(set(map(repr, parsed))) != len(parsed):
        raise UserError(f"{option}: a value is given twice")
    return Axis(name, option, parsed)


@dataclass(frozen=True)
class RulesJob:
    """One configuration of a rules game: what a worker needs to play it (it loads the file itself)."""

    key: str
    spec: str
    params: dict
    policies: tuple[str, ...]
    players: int
    games: int
    seed: int
    exact: bool = False

    def play(self, start: int, count: int):
        """The totals (``Accumulator``) of games ``start .. start+count-1`` of this configuration."""
        from toolkit.analysis.metrics import Accumulator
        from toolkit.sim.records import _loaded, batches

        rules = _loaded(self.spec, self.params)
        seats = [rules.policy(name) for name in self.policies]
        totals = Accumulator(self.players)
        for records in batches(rules, seats, self.seed, start, start + count, workers=1):
            records.pop("steps")
            records.pop("decisions")
            totals.add(records)
        return totals


def absolute(spec: str) -> str:
    """The spec with its file's path made absolute (a worker may run elsewhere); others as they are."""
    found = _FILE.fullmatch(spec.strip())
    if not found:
        return spec.strip()
    path = str(Path(found.group("path")).resolve())
    return path + (f":{found.group('cls')}" if found.group("cls") else "")


def configuration_seed(seed: int, name: str, params: dict, policies) -> int:
    """The run seed of one configuration: a ``SeedSequence`` of the sweep's seed and a digest of the game's
    class, parameters and players, as 63 bits."""
    what = {"game": name, "params": sorted((k, repr(v)) for k, v in params.items()), "policies": list(policies)}
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).digest()
    words = [int(w) for w in np.frombuffer(digest, dtype="<u4")]
    sequence = np.random.SeedSequence([seed & 0xFFFFFFFF, seed >> 32, *words])
    return int(sequence.generate_state(1, dtype=np.uint64)[0]) >> 1


def plan(spec: str, params: dict, grids: tuple[str, ...], policies: tuple[str, ...], games: int, seed: int):
    """The grid, its checked jobs, the first configuration's game and the events it counts."""
    base = load_rules(spec, params)
    axes = [grid_axis(text) for text in grids]
    names = [axis.name for axis in axes]
    for axis in axes:
        if names.count(axis.name) > 1:
            raise UserError(f"{axis.option}: {axis.name} is given twice (list its values in one option)")
        if axis.name in params:
            raise UserError(f"{axis.option}: {axis.name} is fixed by --param {axis.name}=...: give it once")
        if axis.name in RESERVED_COLUMNS or axis.name.startswith("policy_"):
            raise UserError(f"{axis.option}: a parameter called {quote(axis.name)} would share its column with the "
                            "sweep's own")
    seats = policy_axes(policies, rules_parse(base))
    grid = Grid(base.name, tuple(axes + seats))
    size = int(np.prod([len(axis.values) for axis in grid.axes])) if grid.axes else 1
    if size > MAX_CONFIGURATIONS:
        raise UserError(f"the grid has {size:,} configurations: a sweep plays at most {MAX_CONFIGURATIONS:,}")
    where_spec = absolute(spec)
    jobs = []
    for configuration in grid.configurations():
        these = {**params, **{name: configuration[name] for name in names}}
        where = ", ".join(f"{name}={value}" for name, value in configuration.items()) or "the game"
        try:
            rules = load_rules(spec, these)
            for axis in seats:
                if axis.name != "policy_all" and int(axis.name[7:]) > rules.players:
                    raise UserError(f"{axis.option}: seat {axis.name[7:]} does not exist ({rules.players} players)")
            chosen = tuple(policy.name for policy in rules_players(rules, configuration_policies(configuration)))
        except UserError as err:
            raise UserError(f"configuration {where}: {err}") from None
        jobs.append(RulesJob(configuration_key(configuration), where_spec, these, chosen, rules.players, games,
                             configuration_seed(seed, rules.name, these, chosen)))
    counters = list(base.new_initial_state().events())
    return base, grid, jobs, counters
