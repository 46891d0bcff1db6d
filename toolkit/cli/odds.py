"""`toolkit odds`: exact odds from the rules engine's Markov chain (or simulated past its reach)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from toolkit.catalogue.model import MAX_DECK
from toolkit.cli.options import (LazyHelpOption, Progress, ToolkitCommand, Whole, catalogue_inputs, catalogue_options,
                                 check_numba_environment, policy_option, refuse_given, rules_options,
                                 say, setup_inputs)
from toolkit.errors import UserError
from toolkit.seats import parse_policy

# The options of `toolkit odds` that only some models read: parameter name -> option.
_ODDS_OPTIONS = {"players": "--players", "pile": "--pile", "policy": "--policy", "max_states": "--max-states",
                 "games": "--games", "seed": "--seed", "plot_path": "--plot", "hand": "--hand", "where": "--where",
                 "at_least": "--at-least", "at_most": "--at-most", "exactly": "--exactly"}


# What a game of one's own (--rules) and the models on a game's walk read; the other options are the built-in models'.
_RULES_READS = ("rules_spec", "params", "model", "policy", "objective", "max_states", "as_json", "plot_path",
                "chain_path", "policy_path", "players", "games", "seed")
RULES_MODELS = ("win", "length", "optimal")  # the models on a game's walk: every game with rules answers them
MAX_ENGINE_STATES = 1_000_000  # the built-in models' chains; a rules game's walk may be larger (--max-states)


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
@rules_options
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
@policy_option("The players, SEAT=NAME (seats count from 1) or a bare NAME for every seat not named (repeatable; "
               "default: a built-in game's default player, a --rules game's first own player, else random): who "
               "plays the chain of multi, first-palace (one seat) and a --rules game; for --model optimal, the "
               "players each seat's best reply is against (a bare NAME: every other seat); two players and no "
               "--policy: the zero-sum game.", name="policy")
@click.option("--max-states", type=Whole(1, 5_000_000), default=100_000, show_default=True,
              help="Largest chain solved exactly (at most 1,000,000 for the built-in models, beyond it the answer is "
                   "simulated; a --rules game or --model optimal walks up to 5,000,000, and --model win simulates "
                   "beyond it).")
@click.option("--objective", type=click.Choice(["win", "length", "returns"]),
              help="For --model optimal with one player: maximise the chance to win, or minimise the expected "
                   "length (default: win, or length when every end is a win). A game of hidden information: "
                   "returns (the default where they sum to zero at every end) or win (the chance to win).")
@click.option("--export-policy", "policy_path", type=click.Path(dir_okay=False),
              help="For --model optimal: also write the optimal play (every decision, and the table of when to "
                   "stop) as JSON.")
@click.option("--games", type=Whole(2, 100_000_000), default=20_000, show_default=True,
              help="Games when simulating instead (multi, win).")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Seed when simulating instead (0 to 2**63-1).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (fractions as \"P/Q\" strings).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the distribution as a .png or .pdf chart.")
@click.option("--lang", type=click.Choice(("ru", "en")), default="en", show_default=True,
              help="Language of the --plot chart's title and labels (and its numbers' decimal sign).")
@click.option("--export-chain", "chain_path", type=click.Path(dir_okay=False),
              help="Also write the chain behind the exact answer in Storm's explicit DRN format (solo, first-palace, multi).")
def odds_command(game, catalogue_path, overrides, model, players, pile, hand, where, at_least, at_most, exactly,
                 policy, max_states, games, seed, as_json, plot_path, lang, chain_path, rules_spec, params, objective,
                 policy_path):
    """Exact odds from the rules engine's Markov chain: expected turns, distributions, draws; for a game of
    one's own (--rules) or with --model optimal, the best play."""
    from toolkit.files import DRN, check_out_path, check_outputs
    from toolkit.odds.report import answer, model_of, progress_ceiling, progress_length

    check_numba_environment()
    check_out_path(chain_path, "--export-chain")
    check_out_path(policy_path, "--export-policy")
    if plot_path is not None:
        from toolkit.odds import plot  # matplotlib and the card fonts only for a chart

        plot.check_path(plot_path)
    from toolkit.setup import game_setup

    policy = parse_policy(policy) or None
    setup = game_setup(game, catalogue_path, overrides, rules_spec, params, players, what=None)  # draws: no rules
    if setup.rules is not None or model in RULES_MODELS:
        _rules_odds(setup, model, policy, objective, max_states, as_json, plot_path, chain_path, policy_path, lang,
                    games, seed)
        return
    refuse_given(("objective", "policy_path"), "only --model optimal reads it")
    if max_states > MAX_ENGINE_STATES:
        raise click.UsageError(f"--max-states {max_states:,}: the built-in models solve chains of at most "
                               f"{MAX_ENGINE_STATES:,} states")
    catalogue = setup.catalogue
    players = setup.players
    model = model_of(catalogue, model)
    _refuse_unused_options(catalogue.game, model)
    check_outputs([("--plot", plot_path), ("--export-chain", chain_path, DRN)], catalogue_inputs(catalogue))
    progress = Progress(progress_length(catalogue, model, max_states, games), "solving",
                        ceiling=progress_ceiling(catalogue, model))
    try:
        report = answer(catalogue, model, players=players, pile=pile, policy=policy, max_states=max_states,
                        games=games, seed=seed, progress=progress, note=progress.note,
                        export_chain=chain_path is not None, hand=hand, where=where, at_least=at_least,
                        at_most=at_most, exactly=exactly)
    finally:
        progress.close()
    date = None
    if plot_path is not None:  # the chart is dated as the deck (reportlab only for a chart)
        from toolkit.pdf.canvas import deck_files, document_date

        date = document_date(deck_files(catalogue))
    _give(report, as_json, plot_path, chain_path, no_chart=report.no_chart or f"the {model} model has no distribution to draw",
          lang=lang, date=date)


def _rules_odds(setup, model, policy, objective, max_states, as_json, plot_path, chain_path, policy_path,
                lang: str = "en", games: int = 20_000, seed: int = 1) -> None:
    """A game written in Python, or a built-in game's chain under named players (win, length) and optimal play,
    answered on the game's walk (toolkit.rules)."""
    from toolkit.files import DRN, JSON, check_outputs
    from toolkit.odds.models import catalogue_game, rules_report
    from toolkit.odds.report import Ask

    reads = _RULES_READS + (() if setup.rules is not None else ("game", "catalogue_path", "overrides", "players"))
    refuse_given(tuple(name for name in _ODDS_OPTIONS if name not in reads), "a --rules game and the optimal model "
                 "do not use it")
    if model not in (None, "win"):
        refuse_given(("games", "seed"), "only the win model simulates (past --max-states)")
    rules = setup.rules if setup.rules is not None else catalogue_game(setup.catalogue, setup.players)
    inputs = setup_inputs(setup)
    check_outputs([("--plot", plot_path), ("--export-chain", chain_path, DRN), ("--export-policy", policy_path, JSON)],
                  inputs)
    progress = Progress(max(1, max_states // 1000), "walking", ceiling=True)
    try:
        report = rules_report(rules, model, policy=policy, objective=objective, max_states=max_states,
                              export_chain=chain_path is not None, export_policy=policy_path is not None,
                              progress=progress, ask=Ask(games=games, seed=seed, progress=progress,
                                                         note=progress.note))
    finally:
        progress.close()
    date = None
    if plot_path is not None:
        from toolkit.pdf.canvas import document_date

        date = document_date(path for path in inputs.values() if isinstance(path, (str, Path)))
    _give(report, as_json, plot_path, chain_path, policy_path, no_chart=report.no_chart, lang=lang, date=date)


def _give(report, as_json: bool, plot_path, chain_path, policy_path=None, no_chart: str | None = None,
          lang: str = "en", date: int | None = None) -> None:
    """Write what an answer was asked for (its chart, its chain, its policy), then print it."""
    from toolkit.files import write_atomic

    if plot_path is not None:
        if report.chart is None:
            raise UserError(f"--plot: {no_chart}")
        from toolkit.odds import plot

        plot.write_chart(plot_path, lang, date=date, **report.chart)  # its words in --lang, dated as the deck
    if chain_path is not None:
        write_atomic(chain_path, report.chain[0])
    if policy_path is not None:
        write_atomic(policy_path, report.policy)
    if as_json:
        if "information" in report.data:  # optimal play: what the seats know, on the first line
            from toolkit.rules.hidden import first_line_json

            say(first_line_json(report.data, 2))
            return
        say(json.dumps(report.data, indent=2, ensure_ascii=False))
        return
    say("\n".join(report.lines))
    if plot_path is not None:
        say(f"chart: {plot_path}")
    if chain_path is not None:
        say(f"exported chain: {chain_path} ({report.chain[1]:,} states, Storm explicit DRN)")
    if policy_path is not None:
        say(f"exported policy: {policy_path}")


def _models_help() -> str:
    from toolkit.games.registry import games

    each = "; ".join(f"{game.id}: {', '.join(game.odds_models)}" for game in games().values() if game.odds_models)
    return (f"The question, by game (each game's first is its default): {each}; every game with rules also win "
            "(the chance of each end under the players, simulated past --max-states), length and optimal (the best "
            "play); a game written in "
            "Python: win (default), length, optimal.")
