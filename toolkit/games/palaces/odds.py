"""Palaces' own odds models: the opening hand (``opening``, closed formulas) and the turns until a
first palace is complete, alone (``first-palace``, on the engine's chain or simulated).

``toolkit.odds.report`` reaches them through ``MODELS`` (``Game.odds()``).
"""

from __future__ import annotations

import functools

from toolkit.catalogue.model import Catalogue
from toolkit.games.palaces.engine import first_palace_complete as done
from toolkit.games.palaces.opening import opening_odds
from toolkit.games.registry import make_game
from toolkit.odds import report
from toolkit.odds.report import (Model, Note, OddsReport, both, engine_chain_export, exact_or_why, frac, head,
                                 never_reason, no_chain, simulate_until, simulated_lines, state_ticks, tell)
from toolkit.seats import Policies, builtin_players

MODELS = {
    "opening": Model((), lambda catalogue, ask: opening(catalogue)),
    # no chart: an exact first-palace answer has no distribution, and which answer comes is known late
    "first-palace": Model(("policy", "max_states", "games", "seed"),
                          lambda catalogue, ask: first_palace(catalogue, ask.policy, ask.max_states, ask.games,
                                                              ask.seed, ask.progress, ask.note, ask.export_chain),
                          chain=True, ticks=state_ticks),
}


def opening(catalogue: Catalogue) -> OddsReport:
    odds = opening_odds(catalogue)
    data = head(catalogue, "opening")
    figures = {
        "p_foundation": (odds.p_foundation, "at least one foundation"),
        "p_palace_kinds": (odds.p_palace_kinds, "a foundation, a floor and a roof of one colour"),
        "p_palace_kinds_with_tower": (odds.p_palace_kinds_with_tower,
                                      "the same, or a tower in place of the floor"),
        "p_tower": (odds.p_tower, "at least one tower"),
    }
    data.update({key: frac(value) for key, (value, _) in figures.items()})
    data.update({key + "_float": float(value) for key, (value, _) in figures.items()})
    data["hands"] = odds.hands
    lines = [f"{catalogue.title['en']}: an opening hand of {odds.hand_size} from {catalogue.total} cards "
             f"({odds.hands:,} kinds of hand)"]
    lines += [f"  {label}: {both(value)}" for value, label in figures.values()]
    return OddsReport(data, lines, no_chart="the opening model has no distribution to draw")


def first_palace(catalogue: Catalogue, policy: Policies | None, max_states: int, games: int, seed: int,
                 progress=None, note: Note | None = None, export_chain: bool = False) -> OddsReport:
    seats = builtin_players(catalogue.game, 1, policy)
    game = make_game(catalogue, 1)

    data = head(catalogue, "first-palace")
    data["policy"] = seats[0].name
    lines = [f"{catalogue.title['en']}, alone: turns until a first palace is complete ({seats[0].name})"]
    exact, why, limit = exact_or_why(game, seats, 1, max_states, done, progress)
    if exact is None and export_chain:
        raise no_chain(why)
    if exact is None:
        tell(note, f"exact odds are out of reach ({why}); simulating up to {games:,} games instead "
                   f"(at most {report.MAX_WORK:,} turns in all)", games)
        return _first_palace_simulated(game, seats, done, games, seed, progress, data, lines, why, limit)
    data.update({"exact": True, "states": exact.states, "p_never": frac(exact.p_never)})
    turns = exact.expected_length
    if turns is None:
        data["reason"] = never_reason(game, exact.p_never, "a first palace can never be completed",
                                      "no palace can be completed any more")
        data.update({"expected_turns": None, "expected_turns_float": None})
        lines.append(f"exact, {exact.states:,} chance states: expected turns infinite: {data['reason']}")
    else:
        data.update({"expected_turns": frac(turns), "expected_turns_float": float(turns)})
        lines.append(f"exact, {exact.states:,} chance states: {both(turns)} turns")
    chain = engine_chain_export(catalogue, exact.walked, True, "alone, until a first palace is complete "
                                f"({seats[0].name}), one chance point of the rules engine a step",
                                "a first palace is complete") if export_chain else None
    return OddsReport(data, lines, no_chart="the exact first-palace answer has no distribution to draw "
                                            "(only a simulated one has)", chain=chain)


def _first_palace_simulated(game, seats, done, games: int, seed: int, progress, data: dict, lines: list[str],
                            why: str, limit: int | None) -> OddsReport:
    from toolkit.games.palaces import sampled

    player = None
    if sampled.applies(game, seats, done):  # the same games, played whole by the compiled kernel
        player = functools.partial(sampled.game_player, game, seats, done, max_turns=report.TURN_LIMIT)
    summary = simulate_until(data["game"], game, seats, done, games, seed, progress, player)
    complete = not summary.unfinished
    data.update({"exact": False, "states_explored_over": limit, "simulated_games": summary.games, "seed": seed,
                 "mean_turns": summary.mean if complete else None,
                 "stderr_turns": summary.stderr if complete else None,
                 "mean_turns_finished": summary.mean, "stderr_turns_finished": summary.stderr,
                 "stalled_games": summary.stalled, "unfinished_games": summary.unfinished, "turn_limit": report.TURN_LIMIT,
                 "expected_turns": None, "expected_turns_float": summary.mean if complete else None})
    lines.append(f"exact solving is out of reach: {why}")
    lines += simulated_lines(summary, games, seed, ("no palace can be completed any more", "had no palace",
                                                    "number of turns"),
                             "turns to a first palace", " (of those that finished one)")
    if summary.mean is None:
        return OddsReport(data, lines, no_chart="no simulated game completed a palace: there is no distribution to draw")
    finished = sum(summary.lengths)
    xs = [t for t in range(1, len(summary.lengths)) if summary.lengths[t]]
    chart = {"xs": xs, "ys": [summary.lengths[t] / finished for t in xs], "title": {"en": "turns to a first palace (simulated)", "ru": "ходы до первого дворца (симуляция)"},
             "xlabel": report.TURN, "ylabel": report.SHARE_OF_GAMES}
    return OddsReport(data, lines, chart)
