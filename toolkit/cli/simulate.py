"""`toolkit simulate`: many seeded games and their figures."""

from __future__ import annotations

import json

import click

from toolkit.cli.options import (Progress, ToolkitCommand, Whole, catalogue_options, check_numba_environment,
                                 policy_option, rules_options, say)
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
    from toolkit.setup import game_setup, simulate

    check_numba_environment()
    setup = game_setup(game, catalogue_path, overrides, rules_spec, params, players, variants, "simulate needs")
    choices = parse_policy(policies)
    progress = Progress(games, "simulating")
    try:
        data, text = simulate(setup, games=games, seed=seed, policies=choices, progress=progress)
    finally:
        progress.close()
    say(json.dumps(data, indent=2) if as_json else text)
