"""A sweep's grid: the axes a designer varies, the configurations they make, and the job of one.

The grid is the product of its axes, in the order they are given. A registered game's: one axis per
``--set ID=VALUES`` (a card count), then ``players``, then ``variants`` (each value a set of rule
variants) and one per ``--policy SEAT=NAME|NAME`` (``policy_all`` for every seat not named on its own).
A rules file's: one axis per ``--grid NAME=VALUES`` (a parameter of its game's constructor), then the
``--policy`` axes. A value list is ``5``, ``5..9``, ``5,7,9`` or a mix (``2..4,8``).

Every configuration is checked before any game is played (its catalogue loads, its game can be set
up, its policies parse), so a bad one is one error line, not a failed sweep half-way.

A configuration's games are seeded from the run's ``--seed`` and the configuration itself (numpy
``SeedSequence``): the whole deck's counts, the rules, the players, the variants and each seat's policy;
for a rules file, its game's class, parameters and players. Never from its place in the grid or the
worker that plays it: the same configuration gives the same row in any sweep that holds it, on any
number of workers, in any order. A worker loads a rules file itself, by its spec (the file's absolute
path), and plays its piece in its own process.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from dataclasses import dataclass

import numpy as np

from toolkit.catalogue.checks import quote
from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError

MAX_CONFIGURATIONS = 10_000  # the largest grid one sweep plays
MAX_GAMES = 100_000_000  # games per configuration, as for `toolkit simulate`
BATCH = 10_000  # games played and counted together: memory stays flat in the number of games
PIECE = 200_000  # games of one task on a worker (a few seconds to a minute with a compiled kernel)
FAST_FROM = 2_000  # fewer games per configuration are played by the engine (a kernel's loading costs more)
TURN_LIMIT = 10_000  # a game still going after this many turns is stopped
_NUMBER = re.compile(r"[0-9]{1,9}")
_RANGES = re.compile(r"[0-9]{1,9}(\.\.[0-9]{1,9})?(,[0-9]{1,9}(\.\.[0-9]{1,9})?)*")
_MIN_MAX = re.compile(r"([0-9]{1,9})\.\.([0-9]{1,9})")


@dataclass(frozen=True)
class Axis:
    """One thing the sweep varies: its column name, the option that gave it, its values in order."""

    name: str
    option: str
    values: tuple


def parse_values(text: str, option: str, low: int, high: int) -> tuple[int, ...]:
    """``5``, ``5..9``, ``5,7,9`` or a mix, as whole numbers from ``low`` to ``high``, each once."""
    values: list[int] = []
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or "" in items:
        raise UserError(f"{option}: expected values like 5, 5..9 or 5,7,9 (an item is empty)")
    for item in items:
        span = _MIN_MAX.fullmatch(item)
        if span:
            first, last = int(span.group(1)), int(span.group(2))
            if first > last:
                raise UserError(f"{option}: the range {item} runs backwards (write {last}..{first})")
            numbers = range(first, last + 1)
        elif _NUMBER.fullmatch(item):
            numbers = range(int(item), int(item) + 1)
        else:
            raise UserError(f"{option}: {quote(item)} is neither a whole number in digits 0-9 nor a range "
                            f"like 5..9")
        if numbers[0] < low or numbers[-1] > high:
            raise UserError(f"{option}: {item} is outside {low} to {high}")
        for n in numbers:
            if n in values:
                raise UserError(f"{option}: the value {n} is given twice")
            if len(values) >= MAX_CONFIGURATIONS:
                raise UserError(f"{option}: more than {MAX_CONFIGURATIONS:,} values")
            values.append(n)
    return tuple(values)


def set_axis(text: str, catalogue) -> Axis:
    """``--set ID=VALUES``: the counts of one card type."""
    from toolkit.catalogue.model import MAX_COUNT

    option = f"--set {quote(text, '')}"
    card_id, sep, values = text.partition("=")
    card_id = card_id.strip()
    if not sep or not card_id:
        raise UserError(f"{option}: expected ID=VALUES, e.g. --set witch=5..9")
    known = [card.id for card in catalogue.cards]
    if card_id not in known:
        ids = ", ".join(sorted(known)[:12]) + (", ..." if len(known) > 12 else "")
        raise UserError(f"{option}: no card with id {quote(card_id)} in {catalogue.source.name} (ids: {ids})")
    return Axis(card_id, option, parse_values(values, option, 0, MAX_COUNT))


def grid_axis(text: str) -> Axis:
    """``--grid NAME=VALUES``: whole numbers as ``--set`` takes them (``20,50,100``, ``10..14``), else
    values separated by commas, each a Python literal or text."""
    from toolkit.rules.load import parse_value

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


def variants_axis(texts: tuple[str, ...], game_id: str) -> Axis:
    """``--variants none|A+B`` (repeatable): each option one value, a set of variants played together."""
    from toolkit.games.registry import variants as known_variants

    known = known_variants(game_id)
    values: list[str] = []
    for text in texts:
        option = f"--variants {quote(text, '')}"
        names = [name.strip() for name in text.split("+")]
        if names == ["none"]:
            value = "none"
        else:
            if "" in names:
                raise UserError(f"{option}: a variant name is empty (join names with +, e.g. a+b, or give none)")
            for name in names:
                if name not in known:
                    raise UserError(f"{option}: unknown variant {quote(name)} (choose from {', '.join(known)}, "
                                    f"or none)")
            if len(set(names)) < len(names):
                raise UserError(f"{option}: a variant is named twice")
            value = "+".join(sorted(names))
        if value in values:
            raise UserError(f"{option}: this set of variants is given twice")
        values.append(value)
    return Axis("variants", "--variants", tuple(values))


def policy_axes(texts: tuple[str, ...], parse) -> list[Axis]:
    """``--policy [SEAT=]NAME|NAME`` (``toolkit.seats``): one axis per seat (``policy_all`` for every seat not
    named), its values the players ``parse(name, option)`` makes of the names, by their own names, each once."""
    from toolkit.seats import parse_policy, player

    axes = []
    for seat, pick in parse_policy(texts, several=True).picks.items():
        values: list[str] = []
        for name in pick.names:
            canonical = player(name, pick.option, parse, every=seat is None).name
            if canonical in values:
                raise UserError(f"{pick.option}: {quote(name)} is the same policy as one given before it")
            values.append(canonical)
        axes.append(Axis(f"policy_{'all' if seat is None else seat}", pick.option, tuple(values)))
    return sorted(axes, key=lambda axis: axis.name)


@dataclass(frozen=True)
class Grid:
    """The axes of a sweep and the game they apply to."""

    game: str
    axes: tuple[Axis, ...]

    def configurations(self) -> list[dict]:
        """Every configuration, as {axis name: value}, in grid order (the last axis varies fastest)."""
        names = [axis.name for axis in self.axes]
        return [dict(zip(names, values)) for values in itertools.product(*(axis.values for axis in self.axes))]

    def as_json(self) -> dict:
        return {"game": self.game, "axes": [[axis.name, list(axis.values)] for axis in self.axes]}


def build_grid(setup, sets: tuple[str, ...] = (), grids: tuple[str, ...] = (), players: str | None = None,
               variants: tuple[str, ...] = (), policies: tuple[str, ...] = (), params: dict | None = None) -> Grid:
    """The grid of the command line's axes, each where the game has it (``setup``: a ``toolkit.setup.Setup``):
    a deck's card counts (``--set``), player counts (the setup's, else the box's range) and variants, or a
    rules file's parameters (``--grid``, ``params`` fixed); then the seats' ``--policy`` axes. Refuses a grid
    of more than MAX_CONFIGURATIONS."""
    from toolkit.seats import rules_parse

    deck, params = setup.catalogue, params or {}
    if deck is None:
        for option, value in (("--set", sets), ("--players", players), ("--variants", variants)):
            if value:
                raise UserError(f"{option}: not read: --rules names the game; its axes are --grid and --policy")
    elif grids:
        raise UserError(f"--grid {grids[0]}: a grid of parameters is for a game written in Python; a built-in game's "
                        "axes are --set, --players, --variants and --policy")
    axes = [set_axis(text, deck) for text in sets] + [grid_axis(text) for text in grids]
    names = [axis.name for axis in axes]
    for axis in axes:
        card = axis.option.startswith("--set")
        if names.count(axis.name) > 1:
            raise UserError(f"--set {axis.name}=...: the card is given twice (list its values in one option, e.g. "
                            f"--set {axis.name}=5..9)" if card else
                            f"{axis.option}: {axis.name} is given twice (list its values in one option)")
        if axis.name in params:
            raise UserError(f"{axis.option}: {axis.name} is fixed by --param {axis.name}=...: give it once")
        if axis.name in RESERVED_COLUMNS or (not card and axis.name.startswith("policy_")):
            raise UserError(f"{axis.option}: a card called {quote(axis.name)} would share its column with the sweep's "
                            f"own {quote(axis.name)} column" if card else f"{axis.option}: a parameter called "
                            f"{quote(axis.name)} would share its column with the sweep's own")
    if deck is not None:
        from toolkit.games.registry import policy_module

        players = players or (None if setup.players is None else str(setup.players))
        counts = (parse_values(players, f"--players {players}", 1, 4) if players is not None else
                  tuple(range(deck.players[0], deck.players[1] + 1)))
        axes.append(Axis("players", "--players" if players is None else f"--players {players}", counts))
        variants = variants or (("+".join(setup.variants),) if setup.variants else ())
        axes += [variants_axis(variants, deck.game)] if variants else []
    seats = policy_axes(policies, policy_module(deck.game).parse if deck is not None else rules_parse(setup.rules))
    for axis in seats:
        if deck is not None and axis.name != "policy_all" and int(axis.name[7:]) > min(counts):
            raise UserError(f"{axis.option}: seat {axis.name[7:]} does not exist with {min(counts)} player(s)")
    axes += seats
    size = math.prod(len(axis.values) for axis in axes)
    if size > MAX_CONFIGURATIONS:
        shape = " x ".join(str(len(axis.values)) for axis in axes)
        raise UserError(f"the grid has {size:,} configurations ({shape}): a sweep plays at most "
                        f"{MAX_CONFIGURATIONS:,}")
    return Grid(deck.game if deck is not None else setup.rules.name, tuple(axes))


RESERVED_COLUMNS = ("players", "variants", "games", "exact", "note", "distance", "rank", "meets")


def configuration_policies(configuration: dict):
    """The ``Policies`` a configuration names: its ``policy_SEAT`` values, ``policy_all`` for the other seats."""
    from toolkit.seats import Policies

    seats = {int(name[7:]): value for name, value in configuration.items()
             if name.startswith("policy_") and name != "policy_all"}
    return Policies.of(seats, configuration.get("policy_all"))


def variant_names(configuration: dict) -> tuple[str, ...]:
    value = configuration.get("variants", "none")
    return () if value == "none" else tuple(value.split("+"))


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play one configuration: a registered game's reads no file; a rules
    file's names the file, which the worker loads itself."""

    key: str  # the configuration as canonical JSON (its axes' values)
    catalogue: Catalogue | None  # the catalogue with this configuration's counts (None: a rules file's game)
    players: int
    variants: tuple[str, ...]
    choices: object  # the seats' Policies (toolkit.seats)
    games: int
    seed: int  # the run seed of its games (``toolkit.sim.records.game_batches``)
    exact: bool  # the game has exact figures for this configuration (``Game.sweep_exact``)
    spec: str | None = None  # a rules file's game: its spec, the file's path absolute, and its parameters
    params: dict | None = None

    def setup(self) -> tuple:
        """The game of this configuration, its seats and its comeback threshold (None: no comeback figure)."""
        if self.spec is not None:
            from toolkit.seats import rules_players
            from toolkit.sim.records import loaded

            rules = loaded(self.spec, self.params or {})
            return rules, rules_players(rules, self.choices), None
        from toolkit.games.registry import get, make_game
        from toolkit.seats import builtin_players

        assert self.catalogue is not None, "a job has a deck or a rules file"
        game = make_game(self.catalogue, self.players, self.variants)
        return game, builtin_players(self.catalogue.game, self.players, self.choices), \
            get(self.catalogue.game).comeback_points


def configuration_key(configuration: dict) -> str:
    return json.dumps(configuration, sort_keys=True, separators=(",", ":"))


def jobs(grid: Grid, setup, games: int, seed: int, params: dict | None = None) -> list[Job]:
    """One checked job per configuration of ``grid`` (``setup``: the game without the grid's axes; ``params``:
    a rules file's fixed parameters): each configuration's game made and its seats' players named before any
    game is played."""
    out = []
    for configuration in grid.configurations():
        try:
            out.append(_job(setup, grid, configuration, games, seed, params or {}))
        except UserError as err:
            where = ", ".join(f"{name}={value}" for name, value in configuration.items()) or "the game"
            raise UserError(f"configuration {where}: {err}") from None
    return out


def _job(setup, grid: Grid, configuration: dict, games: int, seed: int, params: dict) -> Job:
    """The job of one configuration: a deck with the configuration's counts, players and variants, or a rules
    file's game with its parameters."""
    from toolkit.seats import builtin_players, rules_players

    key, choices = configuration_key(configuration), configuration_policies(configuration)
    given = {name: value for name, value in configuration.items()
             if name not in ("players", "variants") and not name.startswith("policy_")}
    if setup.catalogue is None:
        from toolkit.rules.load import absolute, load_rules

        these = {**params, **given}
        rules = load_rules(setup.rules.spec, these)
        for axis in grid.axes:  # a deck's grid names its player counts: build_grid checked its seats
            if axis.name.startswith("policy_") and axis.name != "policy_all" and int(axis.name[7:]) > rules.players:
                raise UserError(f"{axis.option}: seat {axis.name[7:]} does not exist ({rules.players} players)")
        names = [policy.name for policy in rules_players(rules, choices)]
        what = {"game": rules.name, "params": sorted((k, repr(v)) for k, v in these.items()), "policies": names}
        return Job(key, None, rules.players, (), choices, games, configuration_seed(seed, what), False,
                   absolute(setup.rules.spec), these)
    from toolkit.catalogue.loader import apply_overrides
    from toolkit.games.registry import get, make_game

    catalogue = apply_overrides(setup.catalogue, [f"{name}={value}" for name, value in given.items()])
    players, variants = configuration["players"], variant_names(configuration)
    make_game(catalogue, players, variants)  # refuses a variant or player count the game lacks
    names = [policy.name for policy in builtin_players(catalogue.game, players, choices)]
    if catalogue.is_empty:
        raise UserError("every card count is 0: there is no game to play")
    what = {"game": catalogue.game, "counts": [[card.id, card.count] for card in catalogue.cards],
            "rules": sorted(catalogue.rules.items()), "players": players, "variants": sorted(variants),
            "policies": names}
    return Job(key, catalogue, players, variants, choices, games, configuration_seed(seed, what),
               get(catalogue.game).sweep_exact(players, names, variants))


def configuration_seed(seed: int, what: dict) -> int:
    """The run seed of one configuration's games: a ``SeedSequence`` of the sweep's seed and a digest of
    what the game is (``what``: deck, rules, players, variants and each seat's policy; or a rules file's
    game, its parameters and players), as 63 bits."""
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).digest()
    words = [int(w) for w in np.frombuffer(digest, dtype="<u4")]
    sequence = np.random.SeedSequence([seed & 0xFFFFFFFF, seed >> 32, *words])
    return int(sequence.generate_state(1, dtype=np.uint64)[0]) >> 1


@dataclass(frozen=True)
class Piece:
    """Games ``start .. start+count-1`` of one job: a configuration of many games is played in pieces
    of at most ``PIECE`` games, so that a few large configurations still keep every worker busy."""

    job: Job
    start: int
    count: int


def pieces(job: Job) -> list[Piece]:
    """The pieces of a job: fixed by its number of games alone, never by the workers."""
    return [Piece(job, start, min(PIECE, job.games - start)) for start in range(0, job.games, PIECE)]


def play_piece(piece: Piece):
    """The totals (``Accumulator``) of one piece's games, and for the job's first piece the game's exact
    figures where they apply (else None)."""
    from toolkit.analysis.metrics import Accumulator
    from toolkit.games.registry import get
    from toolkit.sim.records import game_batches

    job = piece.job
    game, seats, comeback = job.setup()
    totals = Accumulator(job.players, comeback)
    for records in game_batches(game, seats, job.seed, piece.start, piece.start + piece.count, TURN_LIMIT, BATCH,
                                fast=job.games >= FAST_FROM, workers=1):
        totals.add(records)
    if not job.exact or piece.start != 0 or job.catalogue is None:
        return totals, None
    return totals, get(job.catalogue.game).exact_figures(job.catalogue, TURN_LIMIT)


def finish(job: Job, played: list) -> dict:
    """A job's row from what its pieces returned, in order: every figure of ``Accumulator.metrics``
    (exact integer totals: the same whatever the pieces), and the game's exact figures where they apply
    (``exact``: their names; ``note``: why not, if they do not). Alone at the table, balance is 1 by
    definition (there is no second seat), and ``exact`` names it too."""
    totals, exact = played[0]
    for more, _ in played[1:]:
        totals.merge(more)
    row = {"seed": job.seed, **totals.metrics(), "exact": "", "note": ""}
    row.update(exact or {})
    if job.players == 1 and row.get("balance") is not None:  # one seat: no gap between seats, by definition
        row["exact"] = " ".join([*row["exact"].split(), "balance"])
    return json.loads(json.dumps(row))  # as it reads back from a stored part: the same bytes out


def run_job(job: Job) -> dict:
    """Play one configuration, piece after piece, and return its row."""
    return finish(job, [play_piece(piece) for piece in pieces(job)])
