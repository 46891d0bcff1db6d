"""The odds Diamoniak's rulebook quotes besides every game's (``Game.rulebook_figures``, see
:mod:`toolkit.placeholders.figures`): the exact solo game (its length, its chart) and the tip on stopping
early."""

from __future__ import annotations

import re
from fractions import Fraction

from toolkit.catalogue.origin import deck_origin
from toolkit.placeholders.deck import DeckError
from toolkit.placeholders.figures import Chart, Figure, cached, fraction, signature

NAMES = ("first_KIND", "no_witch_K", "expected_turns", "p_reshuffle", "likely_turn", "p_likely_turn",
         "median_turn", "within_T", "last_turn", "stop_after_K_wins")
CHARTS = ("turns_chart",)
_SOLO_FIGURES = ("expected_turns", "p_reshuffle", "likely_turn", "p_likely_turn", "median_turn", "last_turn")
# The rulebook prints exact solo odds only: when the exact chain is out of reach, the solver's
# simulated answer is refused, so it plays as few games as it may.
SOLO = {"games": 2}
# The tip on stopping early: its games (each seating to plus or minus half a point) and seed are fixed,
# so the same deck gives the same words.
STOPPER = {"precision": 0.005, "seed": 1}


def figure(odds, name: str) -> Figure | None:
    match = re.fullmatch(r"stop_after_(\d+)_wins", name)
    if match:
        return _stopper(odds, int(match.group(1)))
    if name not in _SOLO_FIGURES and not re.fullmatch(r"within_\d+", name):
        return None
    data = _solo(odds)
    dist = [(t, fraction(p)) for t, p in data["turns_distribution"]]
    if name == "expected_turns":
        return Figure("decimal", fraction(data["expected_turns"]) if data["expected_turns"] else None)
    if name == "p_reshuffle":
        return Figure("percent", fraction(data["p_reshuffle"]))
    if not dist:
        raise DeckError(f"{deck_origin(odds.catalogue)}: with this deck a castle is never finished")
    if name == "likely_turn":
        return Figure("int", max(dist, key=lambda tp: (tp[1], -tp[0]))[0])
    if name == "p_likely_turn":
        return Figure("percent", max(p for _, p in dist))
    if name == "last_turn":
        return Figure("int", dist[-1][0])
    if name == "median_turn":
        total = Fraction(0)
        for t, p in dist:
            total += p
            if total >= Fraction(1, 2):
                return Figure("int", t)
        return Figure("int", None)
    limit = int(name.removeprefix("within_"))
    return Figure("percent", sum((p for t, p in dist if t <= limit), Fraction(0)))


def chart(odds, name: str) -> Chart:
    dist = _solo(odds)["turns_distribution"]
    return Chart([t for t, _ in dist], [100 * float(fraction(p)) for _, p in dist])


def _stopper(odds, k: int) -> Figure:
    """In how many games of 100 a two-player stopper after ``k`` cards beats one who always draws on:
    the 95% interval of played games in whole games (``toolkit.analysis.tip``), once per deck."""
    from toolkit.analysis.tip import stop_after_tip

    _solo(odds)  # a deck whose exact odds are out of reach is refused before any game is played
    tip = cached((signature(odds.catalogue), "stopper", k), lambda: stop_after_tip(odds.catalogue, k, **STOPPER))
    low, high = tip["low_games"], tip["high_games"]
    return Figure("int", low) if low == high else Figure("range", (low, high))


def _solo(odds) -> dict:
    """The exact solo answer, or DeckError: the rulebook prints no simulated solo figures."""
    data = odds.answer("solo", **SOLO)
    if not data["exact"]:
        limit, estimate = data.get("states_explored_over"), data.get("state_estimate")
        size = (f"about {estimate:,} states by an estimate, over the solver's limit of {limit:,}" if estimate
                else f"more than {limit:,} states")
        raise DeckError(f"{deck_origin(odds.catalogue)}: the exact odds of this deck are out of reach (its "
                        f"solo chain has {size}), and the rulebook prints exact odds only")
    return data
