"""`toolkit analyse`: the balance and strategy report of a game, per player count.

The heavy modules (numpy, the engines, the kernels, reportlab) are imported inside the command, so
``toolkit --help`` stays fast.
"""

from __future__ import annotations

import re

import click

from toolkit.cli.options import (Progress, ToolkitCommand, Whole, catalogue_inputs, catalogue_options,
                                 check_numba_environment, policy_option, refuse_given,
                                 rules_options, say)
from toolkit.errors import UserError
from toolkit.seats import check_names, parse_policy

PRECISION = (0.001, 0.25)
_NUMBER = re.compile(r"[0-9]*\.?[0-9]+")


def _precision(text: str) -> float:
    if not _NUMBER.fullmatch(text.strip()):
        raise UserError(f"--precision {text}: expected a number like 0.005 (digits 0-9 and a point)")
    value = float(text)
    if not PRECISION[0] <= value <= PRECISION[1]:
        raise UserError(f"--precision {text}: choose from {PRECISION[0]} to {PRECISION[1]} "
                        "(the half-width of a win rate's 95% interval)")
    return value


@click.command("analyse", cls=ToolkitCommand)
@catalogue_options
@rules_options
@click.option("--players", "players_text", metavar="N|A..B",
              help="A player count or a range, e.g. 3 or 2..4 (default: every count of the game from 2).")
@policy_option("A seat's player, SEAT=NAME (seats count from 1), or a bare NAME for every seat not named "
               "(repeatable; the default player elsewhere), e.g. 2=stop-after-3,never-buy or hold-at-20.")
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="A named rule variant (repeatable).")
@click.option("--precision", "precision_text", default="0.005", show_default=True, metavar="P",
              help="Target half-width of every win rate's 95% interval (0.001 to 0.25): it sets the number of games.")
@click.option("--max-games", type=Whole(1_000, 100_000_000), default=2_000_000, show_default=True,
              help="The most games of one configuration, whatever the precision.")
@click.option("--seed", type=Whole(0, 2**63 - 1), default=1, show_default=True,
              help="Random seed, 0 to 2**63-1: the same seed gives the same report.")
@click.option("--strategy/--no-strategy", default=None,
              help="Search the best policy per seat (the others playing the default) and play the two-player "
                   "tournament [default: on, off when --policy is given].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), metavar="PATH.pdf",
              help="Also write a one- or two-page PDF report with charts.")
@click.option("--lang", type=click.Choice(("ru", "en")), default="en", show_default=True,
              help="Language of the PDF report.")
def analyse_command(game, catalogue_path, overrides, rules_spec, params, players_text, policies, variants,
                    precision_text, max_games, seed, strategy, as_json, report_path, lang):
    """Balance and strategy report of many simulated games: win rates, length, playing time, best policies.

    Win rates are shares of all games; balance (1 minus the largest gap of two seats) and the
    first-player advantage are both read from the shares of the won games, with completion (the
    share of games that end) beside them. With --policy the report is of that mix of policies, and
    the strategy search (which plays against the default players) is off unless asked for.
    """
    from pathlib import Path

    from toolkit.files import check_out_path

    check_numba_environment()
    precision = _precision(precision_text)
    if report_path is not None:
        check_out_path(report_path, "--report")
        if Path(report_path).suffix.lower() != ".pdf":
            raise UserError(f"--report {report_path}: the report is a PDF: name a .pdf file")
    elif lang != "en" and click.get_current_context().get_parameter_source("lang").name == "COMMANDLINE":
        raise UserError("--lang: only the PDF report has a language: give --report PATH.pdf too")
    from toolkit.setup import game_setup

    one = int(players_text) if players_text is not None and players_text.strip().isdigit() else None
    setup = game_setup(game, catalogue_path, overrides, rules_spec, params, one, variants, "analyse needs")
    if setup.rules is not None:
        if players_text is not None and one is None:
            raise UserError(f"--players {players_text}: a --rules game is analysed at one player count, e.g. 2")
        return _analyse_rules(setup.rules, policies, precision, max_games, seed, as_json, report_path, lang)
    if setup.players is not None and players_text is None:  # --rules GAME --param players=N
        players_text = str(setup.players)
    _analyse_deck(setup, players_text, policies, strategy, precision, max_games, seed, as_json, report_path, lang)


def _analyse_deck(setup, players_text, policies, strategy, precision, max_games, seed, as_json, report_path, lang):
    """``analyse`` of a registered game on its deck: per player count, with the strategy search."""
    import json
    from pathlib import Path

    from toolkit.analysis import analyse as bench
    from toolkit.analysis import strategy as search
    from toolkit.analysis.report_text import json_report, text_report
    from toolkit.files import check_outputs, write_atomic

    catalogue = setup.catalogue
    check_outputs([("--report", report_path)], catalogue_inputs(catalogue))
    counts = bench.parse_players(players_text, *catalogue.players)
    choices = parse_policy(policies)
    from toolkit.games.registry import policy_module

    check_names(choices, policy_module(catalogue.game).parse)  # every name checked first, whatever else is wrong
    if strategy is None:
        strategy = not choices
    elif choices and strategy:
        raise UserError("--policy with --strategy: the search plays against the default players, not your mix; "
                        "leave out --strategy to analyse your mix of policies")
    variants = sorted(setup.variants)

    planned = sum(4 * bench.games_for(precision) for _ in counts)
    if strategy:
        planned += search.work_estimate(catalogue.game, counts, precision)
    progress = Progress(planned, "analysing")
    ticked = [0]

    def tick(n: int) -> None:  # never past the plan: the plan is an estimate
        step = max(0, min(n, planned - 1 - ticked[0]))
        ticked[0] += step
        if step:
            progress(step)

    try:
        played = bench.Played()  # each game played once: the search and the tournament reuse the report's games
        results = bench.analyse_counts(catalogue, counts, choices, variants, seed, precision, max_games, tick, played)
        rows, table = [], None
        if strategy and any(n >= 2 for n in counts):
            rows = search.search(catalogue, counts, variants, seed, precision, max_games, tick, played)
            best_two = tuple(dict.fromkeys(row["challenger"]["policy"] for row in rows if row["players"] == 2))
            if 2 in counts:
                table = search.tournament(catalogue, variants, seed, precision, best_two, tick, played)
    finally:
        progress.close()
    options = {"seed": seed, "precision": precision, "variants": variants}
    if report_path is not None:
        from toolkit.analysis.report_pdf import report_pdf

        path = write_atomic(Path(report_path), report_pdf(catalogue, results, rows, table, options, lang))
        click.echo(f"toolkit: note: report written to {path}", err=True)
    if as_json:
        say(json.dumps(json_report(catalogue, results, rows, table, options), indent=2))
    else:
        say(text_report(catalogue.title["en"], catalogue, results, rows, table, options))


def _analyse_rules(rules, policies, precision, max_games, seed, as_json, report_path, lang):
    """``analyse --rules FILE``: the balance figures and report of a game written in Python (toolkit.rules)."""
    import json
    from pathlib import Path

    from toolkit.analysis import analyse as bench
    from toolkit.analysis.report_text import figures_json, figures_text
    from toolkit.files import check_outputs, write_atomic
    from toolkit.seats import rules_players

    refuse_given(("strategy",), "the strategy search plays the built-in games' rules; name the players with --policy")
    check_outputs([("--report", report_path)], {"--rules": rules.path} if rules.path else {})
    seats = rules_players(rules, parse_policy(policies))
    progress = Progress(4 * bench.games_for(precision), "analysing")
    try:
        result = bench.analyse_game(rules, seats, seed, precision, max_games, progress)
    finally:
        progress.close()
    options = {"seed": seed, "precision": precision}
    skill_lines, skill_data, skill_figures = bench.skill_section(rules, result, seed)
    if report_path is not None:
        from toolkit.analysis.report_pdf import figures_pdf

        path = write_atomic(Path(report_path), figures_pdf(rules, result, options, lang, skill_figures,
                                                           skill_data.get("out_of_reach")))
        click.echo(f"toolkit: note: report written to {path}", err=True)
    if as_json:
        say(json.dumps({**figures_json(rules, result, options), "skill": skill_data}, indent=2))
    else:
        say(figures_text(rules, result, options) + "\n" + "\n".join(skill_lines))
