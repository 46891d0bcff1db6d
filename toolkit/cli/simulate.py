"""`toolkit simulate`: many seeded games and their figures."""

from __future__ import annotations

import json

import click

from toolkit.cli.options import (Progress, ToolkitCommand, Whole, catalogue_options, check_numba_environment,
                                 not_with_rules, policy_option, rules_options, say)
from toolkit.errors import UserError
from toolkit.seats import parse_policy

@click.command("simulate", cls=ToolkitCommand)
@catalogue_options
@rules_options
@click.option("--players", type=Whole(1, 4), help="Players at the table (default: the game's minimum).")
@click.option("--games", type=Whole(1, 100_000_000), default=10_000, show_default=True,
              help="Games to play (at most 100,000,000).")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Random seed, 0 to 2**63-1: the same seed gives the same result.")
@policy_option()
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="A named rule variant (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(game, catalogue_path, overrides, rules_spec, params, players, games, seed, policies, variants,
                     as_json):
    """Play many seeded games and report their length, win rates and events."""
    if rules_spec is not None:
        return _simulate_rules(rules_spec, params, players, games, seed, policies, as_json)
    from toolkit.catalogue import load
    from toolkit.sim.report import text_report
    from toolkit.sim.simulate import simulate

    check_numba_environment()
    catalogue = load(game, catalogue_path, overrides, require_art=False)
    from toolkit.games.registry import for_catalogue

    for_catalogue(catalogue).require_rules(catalogue, "simulate needs")
    players = players or catalogue.players[0]
    choices = parse_policy(policies)
    twice = sorted({variant for variant in variants if variants.count(variant) > 1})
    if twice:
        raise UserError(f"--variant {twice[0]}: given twice")
    progress = Progress(games, "simulating")
    try:
        summary = simulate(catalogue, players=players, games=games, seed=seed, policies=choices,
                           variants=variants, progress=progress)
    finally:
        progress.close()
    if as_json:
        say(json.dumps(summary.as_json(), indent=2))
    else:
        say(text_report(summary, catalogue.title["en"]))


def _simulate_rules(spec, params, players, games, seed, policies, as_json):
    """``simulate --rules``: a game written in Python (toolkit.rules)."""
    from toolkit.rules.load import load_rules
    from toolkit.rules.simulate import report_lines, simulate
    from toolkit.seats import rules_players

    not_with_rules()
    if players is not None:
        params = {**params, "players": players}
    rules = load_rules(spec, params)
    seats = rules_players(rules, parse_policy(policies))
    progress = Progress(games, "simulating")
    try:
        result = simulate(rules, seats, games, seed, progress)
    finally:
        progress.close()
    say(json.dumps(result, indent=2) if as_json else report_lines(result))
