"""`toolkit odds`: exact odds from the rules engine's Markov chain (or simulated past its reach)."""

from __future__ import annotations

import json

import click

from toolkit.catalogue.model import MAX_DECK
from toolkit.cli.options import (LazyHelpOption, Progress, ToolkitCommand, Whole, catalogue_inputs, catalogue_options,
                                 check_numba_environment, say)
from toolkit.errors import UserError

# The options of `toolkit odds` that only some models read: parameter name -> option.
_ODDS_OPTIONS = {"players": "--players", "pile": "--pile", "policy": "--policy", "max_states": "--max-states",
                 "games": "--games", "seed": "--seed", "plot_path": "--plot", "hand": "--hand", "where": "--where",
                 "at_least": "--at-least", "at_most": "--at-most", "exactly": "--exactly"}


def _refuse_unused_options(game_id: str, model: str) -> None:
    """An option the model does not read, given on the command line, is a usage error (not ignored)."""
    from click.core import ParameterSource

    from toolkit.games.registry import get
    from toolkit.odds.report import MODEL_OPTIONS

    ctx = click.get_current_context()
    for name, option in _ODDS_OPTIONS.items():
        if name in MODEL_OPTIONS[model] or ctx.get_parameter_source(name) in (
                None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
            continue
        if name == "plot_path":
            raise click.UsageError(f"--plot: the {model} model has no distribution to draw", ctx=ctx)
        users = [m for m in get(game_id).odds_models if name in MODEL_OPTIONS[m]]
        which = f"the {users[0]} model reads it" if len(users) == 1 else f"the {' and '.join(users)} models read it"
        raise click.UsageError(f"{option}: the {model} model does not use it (only {which})", ctx=ctx)


@click.command("odds", cls=ToolkitCommand)
@catalogue_options
@click.option("--model", cls=LazyHelpOption, help_text=lambda: _models_help())
@click.option("--players", type=Whole(2, 4), help="Players for --model multi (default 2).")
@click.option("--pile", metavar="ID=N,...", help="For --model draws: the pile, e.g. witch=3,diamond=5 (default: the whole deck).")
@click.option("--hand", type=Whole(1, MAX_DECK), help="For --model hand: the cards a hand holds.")
@click.option("--where", multiple=True, metavar="FIELD=VALUE",
              help="For --model hand: the cards to count, e.g. kind=witch or a bare kind or card id; "
                   "several are joined with 'and'.")
@click.option("--at-least", type=Whole(0, MAX_DECK), help="For --model hand: the chance of at least this many (default 1).")
@click.option("--at-most", type=Whole(0, MAX_DECK), help="For --model hand: ... at most this many.")
@click.option("--exactly", type=Whole(0, MAX_DECK), help="For --model hand: ... exactly this many.")
@click.option("--policy", default="default", show_default=True, help="Every seat's policy for first-palace and multi.")
@click.option("--max-states", type=Whole(1, 1_000_000), default=100_000, show_default=True,
              help="Largest chain solved exactly (at most 1,000,000); beyond it the answer is simulated.")
@click.option("--games", type=Whole(2, 100_000_000), default=20_000, show_default=True,
              help="Games when simulating instead.")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Seed when simulating instead (0 to 2**63-1).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (fractions as \"P/Q\" strings).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the distribution as a .png or .pdf chart.")
@click.option("--export-chain", "chain_path", type=click.Path(dir_okay=False),
              help="Also write the chain behind the exact answer in Storm's explicit DRN format (solo, first-palace, multi).")
def odds_command(game, catalogue_path, overrides, model, players, pile, hand, where, at_least, at_most, exactly, policy,
                 max_states, games, seed, as_json, plot_path, chain_path):
    """Exact odds from the rules engine's Markov chain: expected turns, distributions, draws."""
    from toolkit.catalogue import load
    from toolkit.files import check_out_path, check_outputs, write_atomic
    from toolkit.odds.report import answer, model_of, progress_ceiling, progress_length

    check_numba_environment()
    check_out_path(chain_path, "--export-chain")
    if plot_path is not None:
        from toolkit.odds import plot  # matplotlib and the card fonts only for a chart

        plot.check_path(plot_path)
    catalogue = load(game, catalogue_path, overrides, require_art=False)
    model = model_of(catalogue, model)
    _refuse_unused_options(catalogue.game, model)
    check_outputs([("--plot", plot_path), ("--export-chain", chain_path)], catalogue_inputs(catalogue))
    progress = Progress(progress_length(catalogue, model, max_states, games), "solving",
                        ceiling=progress_ceiling(catalogue, model))
    try:
        report = answer(catalogue, model, players=players, pile=pile, policy=policy, max_states=max_states,
                        games=games, seed=seed, progress=progress, note=progress.note,
                        export_chain=chain_path is not None, hand=hand, where=where, at_least=at_least,
                        at_most=at_most, exactly=exactly)
    finally:
        progress.close()
    if plot_path is not None:
        if report.chart is None:
            raise UserError(f"--plot: {report.no_chart or f'the {model} model has no distribution to draw'}")
        plot.write_chart(plot_path, **report.chart)
    if chain_path is not None:
        write_atomic(chain_path, report.chain[0])
    if as_json:
        say(json.dumps(report.data, indent=2, ensure_ascii=False))
    else:
        say("\n".join(report.lines))
        if plot_path is not None:
            say(f"chart: {plot_path}")
        if chain_path is not None:
            say(f"exported chain: {chain_path} ({report.chain[1]:,} states, Storm explicit DRN)")


def _models_help() -> str:
    from toolkit.games.registry import games

    each = "; ".join(f"{game.id}: {', '.join(game.odds_models)}" for game in games().values() if game.odds_models)
    return f"The question, by game (each game's first is its default): {each}."
