"""The questions `toolkit odds` answers, as a JSON-ready dict, readable lines and an optional chart."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import make_game, policy_module
from toolkit.odds import diamoniak_solo, engine_chain
from toolkit.odds.draws import draw_odds, parse_pile
from toolkit.odds.palaces_odds import opening_odds
from toolkit.sim import solo_diamoniak
from toolkit.sim.runner import play
from toolkit.sim.simulate import simulate
from toolkit.sim.stats import Z95

MODELS = {
    "diamoniak": ("solo", "draws", "multi"),
    "palaces": ("opening", "first-palace", "draws", "multi"),
}


@dataclass
class OddsReport:
    data: dict
    lines: list[str]
    chart: dict | None = None  # keyword arguments of plot.bar_chart
    notes: list[str] = field(default_factory=list)


def frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def both(value: Fraction, digits: int = 6) -> str:
    """A figure as its exact fraction and a decimal."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{frac(value)} = {float(value):.{digits}f}"


def answer(catalogue: Catalogue, model: str | None, *, players: int | None = None, pile: str | None = None,
           policy: str = "default", max_states: int = 100_000, games: int = 20_000, seed: int = 1,
           progress: Callable[[int], None] | None = None) -> OddsReport:
    models = MODELS[catalogue.game]
    model = model or models[0]
    if model not in models:
        raise UserError(f"--model {model}: {catalogue.game} answers {', '.join(models)}")
    if model == "solo":
        return solo(catalogue, games, seed, progress)
    if model == "draws":
        return draws(catalogue, pile)
    if model == "opening":
        return opening(catalogue)
    if model == "first-palace":
        return first_palace(catalogue, policy, max_states, games, seed, progress)
    return multi(catalogue, players or 2, policy, max_states, games, seed, progress)


def progress_length(catalogue: Catalogue, model: str | None, max_states: int, games: int) -> int:
    """How many progress ticks ``answer`` gives at most: levels of two piles, or thousands of states and games."""
    if (model or MODELS[catalogue.game][0]) == "solo":
        return 2 * catalogue.total  # the levels of the first two piles
    return max_states // 1000 + games // 1000


def _head(catalogue: Catalogue, model: str) -> dict:
    return {"game": catalogue.game, "model": model, "deck": {c.id: c.count for c in catalogue.cards},
            "total": catalogue.total}


# --- Diamoniak alone --------------------------------------------------------------------------------

def solo(catalogue: Catalogue, games: int = 20_000, seed: int = 1, progress=None) -> OddsReport:
    deck = diamoniak_solo.SoloDeck.from_catalogue(catalogue)
    try:
        odds = diamoniak_solo.solo_odds(deck, progress=progress)
    except engine_chain.TooManyStates as err:
        return _solo_simulated(catalogue, err, games, seed)
    expected = odds.expected_turns
    method = ("forward passes pile by pile" if not odds.piles else
              f"forward passes pile by pile, {odds.piles} pile starts chained by the general solver")
    data = _head(catalogue, "solo")
    data.update({
        "expected_turns": frac(expected) if expected is not None else None,
        "expected_turns_float": float(expected) if expected is not None else None,
        "turns_distribution": [[t, frac(p)] for t, p in enumerate(odds.p) if t and p],
        "distribution_tail": frac(odds.tail),
        "pile_starts": odds.piles,
        "p_reshuffle": frac(odds.p_reshuffle),
        "p_reshuffle_float": float(odds.p_reshuffle),
        "p_never": frac(odds.never),
        "states": odds.states,
        "method": method,
        "exact": True,
    })
    lines = [f"{catalogue.title['en']}, solo: one player draws until a witch ends each turn",
             f"deck: {_deck_line(catalogue)}; a castle of {deck.size}",
             f"chain: {odds.states:,} states ({method})"]
    if expected is None:
        small = ", ".join(f"{colour} ({n})" for colour, n in deck.doomed_colours()) or "every colour"
        lines.append(f"expected turns: infinite: with probability {both(odds.never)} the first castle card is "
                     f"a colour with fewer than {deck.size} cards: {small}")
    else:
        lines.append(f"expected turns to finish the castle: {both(expected)}")
    lines.append(f"probability of a reshuffle: {both(odds.p_reshuffle)}")
    if odds.never:
        lines.append(f"probability the castle can never be completed: {both(odds.never)}")
    lines.append("")
    lines.append(" turn   P(finish on this turn)   cumulative   exact")
    cumulative, shown = Fraction(0), 0
    for t, p in enumerate(odds.p):
        if not t or not p:
            continue
        cumulative += p
        shown = t
        lines.append(f"{t:5d}   {float(p):22.6f}   {float(cumulative):10.6f}   {frac(p)}")
        if 1 - cumulative - odds.never < Fraction(1, 10**6):
            break  # the rest is in the JSON; the table stops at 1 in a million
    rest = 1 - cumulative - odds.never
    if rest:
        lines.append(f"later than turn {shown}: {float(rest):.3g} (exactly {frac(rest)})")
    xs = [t for t in range(1, shown + 1)]
    chart = {"xs": xs, "ys": [float(odds.p[t]) for t in xs], "title": f"{catalogue.title['en']} alone: turns to build the castle",
             "xlabel": "turn", "ylabel": "probability"}
    return OddsReport(data, lines, chart)


def _solo_simulated(catalogue: Catalogue, err: engine_chain.TooManyStates, games: int, seed: int) -> OddsReport:
    """The solo figures from the simulator, when the exact chain is out of reach."""
    limit = 1_000  # turns a simulated game may last here
    runs = solo_diamoniak.run(make_game(catalogue, 1), games, np.random.default_rng(seed), max_turns=limit)
    turns = runs["turns"][runs["turns"] > 0]
    counts = np.bincount(turns) if turns.size else np.zeros(1, dtype=int)
    mean = float(turns.mean()) if turns.size else None
    stderr = float(turns.std(ddof=1) / np.sqrt(turns.size)) if turns.size > 1 else 0.0
    reshuffled = int((runs["reshuffles"] > 0).sum())
    data = _head(catalogue, "solo")
    data.update({
        "exact": False,
        "states_explored_over": err.limit,
        "simulated_games": games,
        "seed": seed,
        "expected_turns": None,
        "expected_turns_float": mean,
        "stderr_turns": stderr,
        "turns_distribution": [[t, frac(Fraction(int(n), games))] for t, n in enumerate(counts) if t and n],
        "p_reshuffle": frac(Fraction(reshuffled, games)),
        "p_reshuffle_float": reshuffled / games,
        "unfinished_games": games - int(turns.size),
        "turn_limit": limit,
    })
    lines = [f"{catalogue.title['en']}, solo: one player draws until a witch ends each turn",
             f"deck: {_deck_line(catalogue)}",
             f"exact solving is out of reach: the chain has {err}",
             f"simulated ({games} games, seed {seed}):"]
    if games > turns.size:
        lines.append(f"  {games - turns.size} games did not finish a castle within {limit:,} turns")
    if mean is not None:
        among = " (of those that did)" if games > turns.size else ""
        lines.append(f"  turns to finish the castle{among}: {mean:.3f} ± {stderr:.3f} "
                     f"(95% interval {mean - Z95 * stderr:.3f} to {mean + Z95 * stderr:.3f})")
    lines.append(f"  a reshuffle in {100 * reshuffled / games:.2f}% of games")
    xs = [t for t in range(1, counts.size) if counts[t]]
    chart = {"xs": xs, "ys": [counts[t] / games for t in xs], "title": "turns to build the castle (simulated)",
             "xlabel": "turn", "ylabel": "share of games"}
    return OddsReport(data, lines, chart)


def _deck_line(catalogue: Catalogue) -> str:
    kinds: dict[str, int] = {}
    for card in catalogue.cards:
        kinds[card.kind] = kinds.get(card.kind, 0) + card.count
    return f"{catalogue.total} cards (" + ", ".join(f"{n} {kind}" for kind, n in kinds.items()) + ")"


# --- the next draws ---------------------------------------------------------------------------------

def draws(catalogue: Catalogue, pile_text: str | None) -> OddsReport:
    danger = "witch" if catalogue.game == "diamoniak" else "flood"
    odds = draw_odds(catalogue, parse_pile(catalogue, pile_text), danger)
    data = _head(catalogue, "draws")
    data.update({
        "pile": odds.pile,
        "next_card": {k: frac(v) for k, v in odds.next_card.items()},
        "next_kind": {k: frac(v) for k, v in odds.next_kind.items()},
        "danger": danger,
        "survival": [[k, frac(p)] for k, p in enumerate(odds.survival) if k],
    })
    lines = [f"{catalogue.title['en']}: the next card from a pile of {sum(odds.pile.values())}"
             + ("" if pile_text is None else f" ({pile_text})")]
    for kind, p in odds.next_kind.items():
        lines.append(f"  {kind:18s} {both(p)}")
    lines.append(f"no {danger} in the next k draws:")
    for k, p in enumerate(odds.survival):
        if k:
            lines.append(f"  k = {k:2d}: {both(p)}")
    ks = [k for k in range(1, len(odds.survival))]
    chart = {"xs": ks, "ys": [float(odds.survival[k]) for k in ks], "title": f"no {danger} in the next k draws",
             "xlabel": "k", "ylabel": "probability"}
    return OddsReport(data, lines, chart)


# --- Palaces: the opening hand and the first palace -------------------------------------------------

def opening(catalogue: Catalogue) -> OddsReport:
    odds = opening_odds(catalogue)
    data = _head(catalogue, "opening")
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
    return OddsReport(data, lines)


def first_palace(catalogue: Catalogue, policy: str, max_states: int, games: int, seed: int,
                 progress=None) -> OddsReport:
    seats = [policy_module(catalogue.game).parse(policy)]
    game = make_game(catalogue, 1)

    def done(state):
        return state.counters()["palaces_completed"] >= 1

    data = _head(catalogue, "first-palace")
    data["policy"] = seats[0].name
    lines = [f"{catalogue.title['en']}, alone: turns until a first palace is complete ({seats[0].name})"]
    try:
        exact = engine_chain.solve(game.new_initial_state(), seats, 1, max_states, done, progress)
    except engine_chain.TooManyStates as err:
        turns = _simulate_until(game, seats, done, games, seed, progress)
        mean, stderr = float(turns.mean()), float(turns.std(ddof=1) / np.sqrt(turns.size))
        data.update({"exact": False, "states_explored_over": err.limit, "simulated_games": games, "seed": seed,
                     "mean_turns": mean, "stderr_turns": stderr})
        lines.append(f"exact solving is out of reach: the chain has {err}")
        lines.append(f"simulated ({games} games, seed {seed}): {mean:.3f} ± {stderr:.3f} turns "
                     f"(95% interval {mean - Z95 * stderr:.3f} to {mean + Z95 * stderr:.3f})")
        counts = np.bincount(turns)
        xs = [t for t in range(1, counts.size) if counts[t]]
        chart = {"xs": xs, "ys": [counts[t] / turns.size for t in xs], "title": "turns to a first palace (simulated)",
                 "xlabel": "turn", "ylabel": "share of games"}
        return OddsReport(data, lines, chart)
    data.update({"exact": True, "states": exact.states, "expected_turns": frac(exact.expected_turns),
                 "expected_turns_float": float(exact.expected_turns)})
    lines.append(f"exact, {exact.states:,} chance states: {both(exact.expected_turns)} turns")
    return OddsReport(data, lines)


def _simulate_until(game, seats, done, games: int, seed: int, progress=None) -> np.ndarray:
    rng = random.Random(seed)
    turns = np.zeros(games, dtype=np.int64)
    for i in range(games):
        state = play(game.new_initial_state(), seats, rng, stop=done)
        turns[i] = state.turns
        if progress and i % 1000 == 999:
            progress(1)
    return turns


# --- two or more players ----------------------------------------------------------------------------

def multi(catalogue: Catalogue, players: int, policy: str, max_states: int, games: int, seed: int,
          progress=None) -> OddsReport:
    if not 2 <= players <= 4:
        raise UserError(f"--players {players}: the multi-player model takes 2 to 4 players")
    game = make_game(catalogue, players)
    seats = [policy_module(catalogue.game).parse(policy)] * players
    data = _head(catalogue, "multi")
    data.update({"players": players, "policy": seats[0].name})
    lines = [f"{catalogue.title['en']}, {players} players, every seat {seats[0].name}"]
    try:
        exact = engine_chain.solve(game.new_initial_state(), seats, players, max_states, progress=progress)
    except engine_chain.TooManyStates as err:
        summary = simulate(catalogue, players=players, games=games, seed=seed,
                           policies={s + 1: policy for s in range(players)},
                           progress=(lambda n: progress(n // 1000)) if progress else None)
        data.update({"exact": False, "states_explored_over": err.limit, "simulated": summary.as_json()})
        lines.append(f"exact solving is out of reach: the chain has {err}")
        lines.append(f"simulated ({games} games, seed {seed}): game length {summary.mean:.3f} ± {summary.stderr:.3f} rounds")
        for seat, (rate, (low, high)) in enumerate(zip(summary.win_rate, summary.win_ci), start=1):
            lines.append(f"  seat {seat} wins {100 * rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
        return OddsReport(data, lines)
    data.update({"exact": True, "states": exact.states, "expected_turns": frac(exact.expected_turns),
                 "expected_turns_float": float(exact.expected_turns),
                 "win_probability": [frac(p) for p in exact.win_probability], "p_stalled": frac(exact.p_stalled)})
    lines.append(f"exact, {exact.states:,} chance states")
    lines.append(f"expected turns (all seats together): {both(exact.expected_turns)}")
    for seat, p in enumerate(exact.win_probability, start=1):
        lines.append(f"  seat {seat} wins: {both(p)}")
    if exact.p_stalled:
        lines.append(f"  no winner: {both(exact.p_stalled)}")
    return OddsReport(data, lines)
