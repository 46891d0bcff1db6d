"""A sweep's grid: the axes a designer varies, the configurations they make, and the job of one.

The grid is the product of its axes, in the order they are given: one axis per ``--set ID=VALUES``
(a card count), then ``players``, then ``variants`` (each value a set of rule variants) and one per
``--policy SEAT=NAME|NAME`` (``policy_all`` for every seat not named on its own). A value list is
``5``, ``5..9``, ``5,7,9`` or a mix (``2..4,8``).

Every configuration is checked before any game is played (its catalogue loads, its game can be set
up, its policies parse), so a bad one is one error line, not a failed sweep half-way.

A configuration's games are seeded from the run's ``--seed`` and the configuration itself: the whole
deck's counts, the rules, the players, the variants and each seat's policy (numpy ``SeedSequence``),
never from its place in the grid or the worker that plays it. The same configuration therefore gives
the same row in any sweep that holds it, on any number of workers, in any order.
"""

from __future__ import annotations

import hashlib
import itertools
import json
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


def build_grid(catalogue, sets: tuple[str, ...], players: str | None, variants: tuple[str, ...],
               policies: tuple[str, ...]) -> Grid:
    """The grid of the command line's axes; refuses one of more than MAX_CONFIGURATIONS."""
    axes = [set_axis(text, catalogue) for text in sets]
    names = [axis.name for axis in axes]
    for axis in axes:
        if names.count(axis.name) > 1:
            raise UserError(f"--set {axis.name}=...: the card is given twice (list its values in one option, "
                            f"e.g. --set {axis.name}=5..9)")
    if players is None:
        low, high = catalogue.players
        axes.append(Axis("players", "--players", tuple(range(low, high + 1))))
    else:
        axes.append(Axis("players", f"--players {players}", parse_values(players, f"--players {players}", 1, 4)))
    if variants:
        axes.append(variants_axis(variants, catalogue.game))
    from toolkit.games.registry import policy_module

    seats = policy_axes(policies, policy_module(catalogue.game).parse)
    for axis in seats:
        if axis.name != "policy_all" and int(axis.name[7:]) > min(axes[len(sets)].values):
            raise UserError(f"{axis.option}: seat {axis.name[7:]} does not exist with {min(axes[len(sets)].values)} "
                            f"player(s)")
    axes += seats
    for axis in axes[:len(sets)]:
        if axis.name in RESERVED_COLUMNS:
            raise UserError(f"{axis.option}: a card called {quote(axis.name)} would share its column with the "
                            f"sweep's own {quote(axis.name)} column")
    size = 1
    for axis in axes:
        size *= len(axis.values)
    if size > MAX_CONFIGURATIONS:
        shape = " x ".join(str(len(axis.values)) for axis in axes)
        raise UserError(f"the grid has {size:,} configurations ({shape}): a sweep plays at most "
                        f"{MAX_CONFIGURATIONS:,}")
    return Grid(catalogue.game, tuple(axes))


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
    """Everything a worker needs to play one configuration: it reads no file."""

    key: str  # the configuration as canonical JSON (its axes' values)
    catalogue: Catalogue  # the catalogue with this configuration's counts
    players: int
    variants: tuple[str, ...]
    choices: object  # the seats' Policies (toolkit.seats)
    games: int
    seed: int  # the run seed of its games (``toolkit.sim.records.play_records``)
    exact: bool  # the game has exact figures for this configuration (``Game.sweep_exact``)


def configuration_key(configuration: dict) -> str:
    return json.dumps(configuration, sort_keys=True, separators=(",", ":"))


def jobs(grid: Grid, base, sets: list[str], games: int, seed: int) -> list[Job]:
    """One checked job per configuration of ``grid`` (``base``: the catalogue without --set; ``sets``: the
    names of its --set axes)."""
    from toolkit.catalogue.loader import apply_overrides
    from toolkit.games.registry import get, make_game
    from toolkit.seats import builtin_players

    out = []
    for configuration in grid.configurations():
        overrides = [f"{name}={configuration[name]}" for name in sets]
        players, variants = configuration["players"], variant_names(configuration)
        choices = configuration_policies(configuration)
        where = ", ".join(f"{name}={value}" for name, value in configuration.items())
        try:
            catalogue = apply_overrides(base, overrides)
            make_game(catalogue, players, variants)  # refuses a variant or player count the game lacks
            policies = builtin_players(catalogue.game, players, choices)
        except UserError as err:
            raise UserError(f"configuration {where}: {err}") from None
        if catalogue.is_empty:
            raise UserError(f"configuration {where}: every card count is 0: there is no game to play")
        names = [policy.name for policy in policies]
        exact = get(catalogue.game).sweep_exact(players, names, variants)
        out.append(Job(configuration_key(configuration), catalogue, players, variants, choices, games,
                       configuration_seed(seed, catalogue, players, variants, names), exact))
    return out


def configuration_seed(seed: int, catalogue, players: int, variants, policy_names: list[str]) -> int:
    """The run seed of one configuration's games: a ``SeedSequence`` of the sweep's seed and a digest
    of what the game is (deck, rules, players, variants, each seat's policy), as 63 bits."""
    what = {"game": catalogue.game, "counts": [[card.id, card.count] for card in catalogue.cards],
            "rules": sorted(catalogue.rules.items()), "players": players, "variants": sorted(variants),
            "policies": policy_names}
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
    from toolkit.games.registry import get, make_game
    from toolkit.sim.records import play_records
    from toolkit.seats import builtin_players

    job = piece.job
    play = getattr(job, "play", None)  # a job that plays its own games (a rules game's: toolkit.rules.sweep)
    if play is not None:
        return play(piece.start, piece.count), None
    game = make_game(job.catalogue, job.players, job.variants)
    policies = builtin_players(job.catalogue.game, job.players, job.choices)
    totals = Accumulator(job.players, get(job.catalogue.game).comeback_points)
    end = piece.start + piece.count
    for start in range(piece.start, end, BATCH):
        totals.add(play_records(game, policies, job.seed, start, min(BATCH, end - start), TURN_LIMIT,
                                fast=job.games >= FAST_FROM))
    exact = get(job.catalogue.game).exact_figures(job.catalogue, TURN_LIMIT) if job.exact and piece.start == 0 else None
    return totals, exact


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
