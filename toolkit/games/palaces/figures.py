"""The odds Palaces' rulebook quotes besides every game's (``Game.rulebook_figures``, see
:mod:`toolkit.placeholders.figures`): the opening hand and the simulated first palace (its figures, its
chart)."""

from __future__ import annotations

from toolkit.catalogue.origin import deck_origin
from toolkit.placeholders.deck import DeckError
from toolkit.placeholders.figures import Chart, Figure, fraction, solved, whole_turns
from toolkit.sim.stats import Z95

NAMES = ("first_KIND", "no_flood_K", "p_foundation", "p_palace_kinds", "p_palace_kinds_with_tower",
         "p_tower", "first_palace_turns", "first_palace_mean", "first_palace_low", "first_palace_high",
         "first_palace_games")
CHARTS = ("first_palace_chart",)
_OPENING = ("p_foundation", "p_palace_kinds", "p_palace_kinds_with_tower", "p_tower")
# Palaces' first palace cannot be solved exactly on a real deck (the chain is far too large): it is
# always simulated (the text gives "about" so many whole turns and its chart, which a tiny deck solved
# exactly would not have), with a fixed seed, so the same deck gives the same figures and bytes.
FIRST_PALACE = {"max_states": 1, "games": 2000, "seed": 1}


def figure(odds, name: str) -> Figure | None:
    if name in _OPENING:
        return Figure("percent", fraction(odds.answer("opening")[name]))
    if not name.startswith("first_palace"):  # not one of its own (first_KIND is every game's)
        return None
    if name.startswith("first_palace_"):
        data = _first_palace(odds).data
        mean, half = data["mean_turns"], Z95 * data["stderr_turns"]
        value = {"first_palace_mean": mean, "first_palace_low": mean - half,
                 "first_palace_high": mean + half}.get(name)
        if name == "first_palace_games":
            return Figure("int", data.get("simulated_games", 0))
        if name == "first_palace_turns":
            return whole_turns(mean - half, mean + half)
        if value is not None:
            return Figure("decimal", value)
    raise odds.unknown(name)


def chart(odds, name: str) -> Chart:
    chart = _first_palace(odds).chart
    return Chart(list(chart["xs"]), [100 * float(y) for y in chart["ys"]])


def _first_palace(odds):
    """The simulated first palace (figures and chart), or DeckError when its games give no mean."""
    report = solved(odds.catalogue, "first-palace", odds.progress, **FIRST_PALACE)
    data = report.data
    if data.get("mean_turns") is None or report.chart is None:
        played, stalled = data.get("simulated_games", 0), data.get("stalled_games", 0)
        why = (f"in {stalled:,} of {played:,} simulated games a first palace could no longer be completed"
               if stalled else f"not every simulated game completed a first palace within "
                               f"{data.get('turn_limit', 0):,} turns")
        raise DeckError(f"{deck_origin(odds.catalogue)}: {why}, so there is no average time to a first "
                        "palace to print")
    return report
