"""The models every game with rules answers (a file of one's own, or a built-in game through the contract):
``win``, ``length`` and ``optimal``, as a JSON-ready dict and readable lines.

``length`` and ``win`` come from the exact chain under the named players (``engine_chain.chain_odds``),
``optimal`` from the walked game with its decisions kept (``toolkit.rules.optimal``). Every figure is
exact or an interval said as one; a game that may never end has no finite expected length, and says so.
"""

from __future__ import annotations

import json

from toolkit.errors import UserError
from toolkit.odds.report import PROBABILITY, Ask, OddsReport, both, frac, simulated_answer
from toolkit.rules.hidden import answer_head, policy_export
from toolkit.seats import Policies, rules_players

UNITS_RU = {"turns": "ходы", "steps": "шаги"}  # a chart's length unit in Russian

MODELS = ("length", "win", "optimal")
NO_DECISIONS = "no decisions: chance alone plays the game"
SHOWN_LENGTHS = 60  # lengths listed one per line at most (the JSON has them all)


def rules_report(game, model: str | None, *, policy: Policies | None, objective: str | None, max_states: int,
                 export_chain: bool = False, export_policy: bool = False, progress=None,
                 ask: Ask | None = None) -> OddsReport:
    """The answer to ``model`` (default ``win``) for the rules game ``game`` (a ``RulesGame``); ``ask``: the
    games, seed and note of the simulation ``win`` falls back on when the chain is out of reach."""
    model = model or "win"
    if model not in MODELS:
        raise UserError(f"--model {model}: a rules game answers {', '.join(MODELS)}")
    if model == "optimal":
        if export_chain:
            raise UserError("--export-chain: the optimal model has no chain of fixed players (export the chain of "
                            "--model length or win)")
        return _optimal(game, policy, objective, max_states, export_policy, progress)
    if export_policy:
        raise UserError(f"--export-policy: the {model} model plays named players (only the optimal model finds a "
                        "policy)")
    if objective is not None:
        raise UserError(f"--objective: the {model} model does not use it (only the optimal model reads it)")
    return _chain(game, model, policy, max_states, export_chain, progress, ask or Ask())


def catalogue_game(catalogue, players: int | None):
    """A built-in game on ``catalogue`` (a deck of one's own size): its engine's game, a game of the contract
    (toolkit.games.played), for the walk and optimal play."""
    from toolkit.games.registry import get

    low, high = catalogue.players
    players = low if players is None else players
    if not low <= players <= high:
        raise UserError(f"--players {players}: {catalogue.game} is for {low} to {high} players")
    from toolkit.games.played import PlayedGame

    game = get(catalogue.game).make_game(catalogue, players, ())
    if not isinstance(game, PlayedGame):
        raise UserError(f"{catalogue.game}: its engine does not keep the game contract (the mixins of "
                        "toolkit.games.played), so it cannot be walked or solved; the other odds models answer")
    return game


def _chain(game, model: str, policy: Policies | None, max_states: int, export_chain: bool, progress,
           ask: Ask) -> OddsReport:
    from toolkit.odds import engine_chain
    from toolkit.walk.graph import TooManyStates

    seats = rules_players(game, policy)
    try:
        odds = engine_chain.chain_odds(game, seats, max_states, progress, distribution=model == "length")
    except TooManyStates as err:
        if model != "win" or export_chain:
            raise UserError(f"{game.source}: the chain has {err} (--max-states)") from None
        return _simulated(game, seats, f"the chain has {err}", err.limit, ask)
    who = ", ".join(f"seat {s + 1} {p.name}" for s, p in enumerate(seats)) if odds.decisions else NO_DECISIONS
    data = answer_head(game, model)
    data["decisions"] = odds.decisions
    if odds.decisions:  # a game of chance alone: no player ever acts, none is named
        data["policies"] = [p.name for p in seats]
    data.update({"exact": True, "states": odds.states, "unit": odds.unit,
                 "expected_length": frac(odds.expected_length) if odds.expected_length is not None else None,
                 "win_probability": [frac(p) for p in odds.win], "no_winner": frac(odds.no_winner),
                 "p_never": frac(odds.p_never),
                 "ends": [{"returns": [frac(r) for r in returns], "probability": frac(p)} for returns, p in odds.returns]})
    lines = [f"{game.name}, {who}", f"exact, {odds.states:,} chance points"]
    chart = None
    if odds.expected_length is None:
        lines.append(f"expected length: infinite: the game never ends with probability {both(odds.p_never)}")
    else:
        lines.append(f"expected length ({odds.unit}): {both(odds.expected_length)}")
    if model == "win":
        for seat, p in enumerate(odds.win, start=1):
            lines.append(f"  seat {seat} wins: {both(p)}")
        if odds.no_winner:
            lines.append(f"  no single winner (a draw or a shared end): {both(odds.no_winner)}")
        if odds.p_never:
            lines.append(f"  the game never ends: {both(odds.p_never)}")
        ends = odds.returns
        winners = [_winner(returns) for returns, _ in ends]
        if len(ends) <= 12 and (None in winners or len(set(winners)) < len(winners)):  # more than the seats say
            lines.append("the ends (returns per seat):")
            lines += [f"  {', '.join(str(r) for r in returns)}: {both(p)}" for returns, p in ends]
    else:
        data["distribution"] = [frac(p) for p in odds.distribution]
        data["longer"] = frac(odds.beyond)
        if odds.distribution:
            last = len(odds.distribution) - 1
            lines.append(f"the length ({odds.unit}), exactly, until {float(1 - odds.beyond):.1%} of the games "
                         "have ended:")
            shown = [(t, p) for t, p in enumerate(odds.distribution) if p]
            for t, p in shown[:SHOWN_LENGTHS]:
                lines.append(f"  {t}: {both(p)}")
            if len(shown) > SHOWN_LENGTHS:
                lines.append(f"  ... {len(shown) - SHOWN_LENGTHS} more lengths (--json lists them all)")
            lines.append(f"  longer than {last}{' or never' if odds.p_never else ''}: {both(odds.beyond)}")
            chart = {"xs": list(range(len(odds.distribution))), "ys": [float(p) for p in odds.distribution],
                     "title": {"en": f"{game.name}: the length of a game", "ru": f"{game.name}: длина партии"},
                     "xlabel": {"en": odds.unit, "ru": UNITS_RU.get(odds.unit, odds.unit)}, "ylabel": PROBABILITY}
        else:
            lines.append("the length has no distribution by turns here: a turn may go on for ever")
    chain = engine_chain.chain_drn(odds.walked, game, who) if export_chain else None
    return OddsReport(data, lines, chart, chain=chain,
                      no_chart=None if chart else f"the {model} model has no distribution to draw")


def _simulated(game, seats, why: str, limit: int | None, ask: Ask) -> OddsReport:
    """The win model past --max-states: simulated, with 95% intervals (``report.simulated_answer``)."""
    from toolkit.odds.engine_chain import counted_unit

    unit = counted_unit(game)  # ``simulate_turns`` counts the turns of all seats, as the chain does
    data = answer_head(game, "win")
    data["policies"] = [p.name for p in seats]
    more, lines = simulated_answer(game, str(game.source), seats, why, limit, ask, f"expected length ({unit})",
                                   "expected_length")
    data.update(more)
    who = ", ".join(f"seat {s + 1} {p.name}" for s, p in enumerate(seats))
    return OddsReport(data, [f"{game.name}, {who}", *lines], no_chart="the win model has no distribution to draw")


def _winner(returns) -> int | None:
    """The seat with the one highest return (one player: a positive return), else None."""
    if len(returns) == 1:
        return 0 if returns[0] > 0 else None
    top = max(returns)
    return returns.index(top) if returns.count(top) == 1 else None


def _optimal(game, policy: Policies | None, objective: str | None, max_states: int, export_policy: bool,
             progress) -> OddsReport:
    """Optimal play: the equilibrium of the game of hidden information when the game says what each seat
    knows (``toolkit.rules.equilibrium``), else the game with every card face up (``toolkit.rules.optimal``),
    which the first line of the answer says."""
    from toolkit.rules import hidden, optimal

    if hidden.hidden_information(game):
        from toolkit.rules import equilibrium

        return equilibrium.report(game, policy, objective, max_states, export_policy, progress)
    if objective == "returns":
        raise UserError("--objective returns: a game of perfect information plays to win (or, one player, for "
                        "length); returns are the payoff of a game of hidden information")
    answers = optimal.solve(game, objective, policy, max_states, progress=progress)
    data = {"information": hidden.PERFECT, **answer_head(game, "optimal")}
    data["answers"] = []
    lines = [f"{game.name}, optimal play; {hidden.PERFECT}"]
    for answer in answers:
        entry = {"objective": answer.objective, "seats": [s + 1 for s in answer.seats], "exact": answer.exact,
                 "states": answer.nodes}
        entry.update(optimal.value_data(answer))
        data["answers"].append(entry)
        lines += optimal.value_lines(answer)
        lines += optimal.policy_lines(answer)
    report = OddsReport(data, lines, no_chart="the optimal model has no distribution to draw")
    if export_policy:
        report.policy = policy_export(hidden.PERFECT, json.loads(optimal.policy_json(answers)))
    return report


