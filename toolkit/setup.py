"""One command's game, however it was named: the one place that reads ``--game``, ``--catalogue``,
``--set``, ``--variant``, ``--rules`` and ``--param`` together.

A registered game is played on a deck: ``--game ID`` (its own catalogue), ``--catalogue FILE`` (a deck
of one's own) with ``--set`` overrides. ``--rules SPEC`` names a game written in Python (a file, or
``module:Class``); when SPEC is a registered game's id it is that game on the deck it ships with, the
very setup ``--game ID`` gives (``--param players=N`` and ``--param variants=A+B`` say what
``--players`` and ``--variant`` say). So the same game and seed give the same games, figures and
words however the game was named: a command builds its ``Setup`` here and asks it, and nothing after
this asks where the game came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolkit.errors import UserError

if TYPE_CHECKING:
    from toolkit.catalogue.model import Catalogue

BUILTIN_PARAMETERS = ("players", "variants")  # what --param sets of a registered game named by --rules


@dataclass(frozen=True)
class Setup:
    """A game to play or solve: a registered game on ``catalogue``, or the rules game ``rules``."""

    catalogue: Catalogue | None = None
    rules: Any = None  # a toolkit.rules.guard.RulesGame
    players: int | None = None  # the seats asked for; None: the game's default (or, analyse, every count)
    variants: tuple[str, ...] = ()  # the named rule variants, each once, in the order given


def game_setup(game: str | None, catalogue_path: str | None, overrides: tuple[str, ...], rules_spec: str | None,
               params: dict[str, Any], players: int | None = None, variants: tuple[str, ...] = (),
               what: str | None = "playing it needs") -> Setup:
    """The setup the options name; one line for a wrong or contradictory option. ``what`` says how the
    refusal of a game without rules goes on (e.g. "simulate needs"); None: a deck alone will do."""
    twice = sorted({variant for variant in variants if variants.count(variant) > 1})
    if twice:
        raise UserError(f"--variant {twice[0]}: given twice")
    if rules_spec is not None:
        from toolkit.games.registry import games

        given = [option for option, value in (("--game", game), ("--catalogue", catalogue_path),
                                              ("--set", overrides)) if value]
        if given:
            raise UserError(f"{given[0]}: not read: --rules names the game")
        if rules_spec.strip() not in games():
            return _rules_setup(rules_spec, params, players, variants)
        game, players, variants = _builtin_params(rules_spec.strip(), params, players, variants)
    from toolkit.catalogue import load
    from toolkit.games.registry import for_catalogue

    catalogue = load(game, catalogue_path, overrides, require_art=False)
    if what is not None:
        for_catalogue(catalogue).require_rules(catalogue, what)
    return Setup(catalogue=catalogue, players=players, variants=tuple(variants))


def _builtin_params(game_id: str, params: dict[str, Any], players: int | None,
                    variants: tuple[str, ...]) -> tuple[str, int | None, tuple[str, ...]]:
    """``--rules ID`` with ``--param``: the registered game ``ID``, its players and variants."""
    unknown = sorted(set(params) - set(BUILTIN_PARAMETERS))
    if unknown:
        raise UserError(f"--param {unknown[0]}: the built-in game {game_id} has no such parameter "
                        f"(it takes {', '.join(BUILTIN_PARAMETERS)})")
    if "players" in params:
        value = params["players"]
        if isinstance(value, bool) or not isinstance(value, int):
            raise UserError(f"--param players={value!r}: a number of players, e.g. players=3")
        if players is not None and players != value:
            raise UserError(f"--param players={value}: --players {players} says otherwise; give one of them")
        players = value
    if "variants" in params:
        if variants:
            raise UserError("--param variants: --variant names them too; give one of them")
        value = params["variants"]
        named = value.split("+") if isinstance(value, str) else value if isinstance(value, (list, tuple)) else None
        if named is None or not all(isinstance(name, str) and name for name in named):
            raise UserError(f"--param variants={value!r}: variant names joined by '+', e.g. variants=free-colour")
        variants = tuple(named)
    return game_id, players, variants


def _rules_setup(spec: str, params: dict[str, Any], players: int | None, variants: tuple[str, ...]) -> Setup:
    """A game written in Python: ``--players N`` is its ``players`` parameter."""
    from toolkit.rules.load import load_rules

    if variants:
        raise UserError(f"--variant {variants[0]}: not read: a game written in Python has no named variants "
                        "(give its parameters with --param)")
    if players is not None:
        if "players" in params and params["players"] != players:
            raise UserError(f"--param players={params['players']}: --players {players} says otherwise; give one "
                            "of them")
        params = {**params, "players": players}
    rules = load_rules(spec, params)
    return Setup(rules=rules, players=rules.players)


def simulate(setup: Setup, *, games: int, seed: int, policies, progress=None) -> tuple[dict, str]:
    """``games`` seeded games of the setup: the JSON-ready figures and the text report."""
    from toolkit.sim.report import report

    if setup.rules is not None:
        from toolkit.seats import rules_players
        from toolkit.sim.simulate import simulate_rules

        return report(simulate_rules(setup.rules, rules_players(setup.rules, policies), games, seed, progress))
    from toolkit.sim.simulate import simulate as play

    catalogue = setup.catalogue
    assert catalogue is not None, "a setup has a deck or rules"
    return report(play(catalogue, players=setup.players or catalogue.players[0], games=games, seed=seed,
                       policies=policies, variants=setup.variants, progress=progress))


@dataclass(frozen=True)
class SweepPlan:
    """A sweep's grid and its checked jobs, and what its files and messages say of the game."""

    grid: Any  # toolkit.analysis.sweep.Grid
    jobs: list
    counters: list[str]  # the events every configuration counts
    game_id: str
    title: str
    deck_files: list  # the files a resumed sweep must find unchanged
    given: dict[str, str]  # what the JSON's head says the game was given as
    described: Any = None  # the registered game, for its own words of the figures
    no_comeback: str | None = None  # why comeback_rate is not a figure of this game, if it is not


def sweep_plan(setup: Setup, sets: tuple[str, ...], grids: tuple[str, ...], players: str | None,
               variants: tuple[str, ...], policies: tuple[str, ...], games: int, seed: int,
               params: dict[str, Any]) -> SweepPlan:
    """The sweep of the setup: its grid (``toolkit.analysis.sweep.build_grid``: a deck's --set, --players and
    --variants, or a rules file's --grid; the seats' --policy), its checked jobs, and what the files say."""
    from toolkit.analysis import sweep
    from toolkit.games.registry import for_catalogue

    grid = sweep.build_grid(setup, sets, grids, players, variants, policies, params)
    jobs = sweep.jobs(grid, setup, games, seed, params)
    counters = list(jobs[0].setup()[0].new_initial_state().events())
    base, rules = setup.catalogue, setup.rules
    if base is None:
        return SweepPlan(grid, jobs, counters, rules.name.lower(), rules.name, [rules.path], {"rules": rules.spec},
                         None, f"{rules.name} is a --rules game, whose reports count no comebacks")
    described = for_catalogue(base)
    no_comeback = (None if described.comeback_points is not None else
                   f"the game '{base.game}' sets no comeback threshold (its comeback_points)")
    return SweepPlan(grid, jobs, counters, base.game, base.title["en"], [base.source, base.sheet],
                     {"catalogue": base.source.name}, described, no_comeback)
