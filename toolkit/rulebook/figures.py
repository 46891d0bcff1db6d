"""The odds the rulebook quotes, from the solver (``toolkit.odds.report.answer``) at build time.

Every figure is named (``{odds:NAME}`` in the text sources) and typed, so the text formats it for
its language: ``percent`` and ``decimal`` figures are exact fractions where the solver is exact,
``int`` figures are whole numbers. The solver runs only for the figures a rulebook uses, once per
deck composition in a process.

A figure the deck cannot give (its exact chain is out of reach, fewer cards than the draws asked
about) raises ``DeckError``, whose message names the user's input, not the text's placeholder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from toolkit.catalogue.model import Catalogue
from toolkit.games.registry import get as game_of
from toolkit.errors import UserError
from toolkit.catalogue.origin import deck_origin
from toolkit.rulebook.deck import DeckError
from toolkit.sim.stats import Z95

# Palaces' first palace cannot be solved exactly on a real deck (the chain is far too large): it is
# always simulated (the text gives "about" so many whole turns and its chart, which a tiny deck solved
# exactly would not have), with a fixed seed, so the same deck gives the same figures and bytes.
FIRST_PALACE = {"max_states": 1, "games": 2000, "seed": 1}
# The rulebook prints exact solo odds only: when the exact chain is out of reach, the solver's
# simulated answer is refused, so it plays as few games as it may.
SOLO = {"games": 2}
# The tip on stopping early: its games (each seating to plus or minus half a point) and seed are fixed,
# so the same deck gives the same words.
STOPPER = {"precision": 0.005, "seed": 1}

_CACHE: dict[tuple, object] = {}


@dataclass(frozen=True)
class Figure:
    kind: str                        # "percent" | "decimal" | "int" | "range"
    value: Fraction | float | int | tuple[int, int] | None   # None: infinite (a castle that may never
    # be finished); a range is (low, high), two different whole numbers


@dataclass(frozen=True)
class Chart:
    xs: list[int]
    ys: list[float]   # percent


def _signature(catalogue: Catalogue) -> tuple:
    return (catalogue.game, tuple((c.id, c.kind, c.colour, c.count) for c in catalogue.cards),
            tuple(sorted(catalogue.rules.items())))


def _report(catalogue: Catalogue, model: str, progress=None):
    """The solver's answer, computed once per deck and model (``progress(n)`` ticks while it works)."""
    from toolkit.odds.report import answer

    key = (_signature(catalogue), model)
    if key not in _CACHE:
        options = {"first-palace": FIRST_PALACE, "solo": SOLO}.get(model, {})
        _CACHE[key] = answer(catalogue, model, progress=progress, **options)
    return _CACHE[key]


def _answer(catalogue: Catalogue, model: str, progress=None) -> dict:
    return _report(catalogue, model, progress).data


def _f(text: str) -> Fraction:
    from toolkit.odds.report import parse_frac  # thousands of digits at witch=12: past int()'s limit

    return parse_frac(text)


NAMES = {
    "diamoniak": ("first_KIND", "no_witch_K", "expected_turns", "p_reshuffle", "likely_turn", "p_likely_turn",
                  "median_turn", "within_T", "last_turn", "stop_after_K_wins"),
    "palaces": ("first_KIND", "no_flood_K", "p_foundation", "p_palace_kinds", "p_palace_kinds_with_tower",
                "p_tower", "first_palace_turns", "first_palace_mean", "first_palace_low", "first_palace_high", "first_palace_games"),
}
CHARTS = {"diamoniak": ("turns_chart",), "palaces": ("first_palace_chart",)}


def whole_turns(low: float, high: float) -> Figure:
    """A simulated number of turns with no digit in doubt: its 95% interval rounded to whole turns,
    one number when both ends round alike ("about 8"), otherwise the range they span ("8–9")."""
    ends = [max(1, int(Decimal(repr(x)).quantize(Decimal(1), ROUND_HALF_UP))) for x in (low, high)]
    return Figure("int", ends[0]) if ends[0] == ends[1] else Figure("range", (ends[0], ends[1]))


class Odds:
    """The figures of one catalogue."""

    def __init__(self, catalogue: Catalogue, progress=None):
        self.catalogue = catalogue
        self.game = catalogue.game
        self.progress = progress  # ticks while the solver works (the command line's progress bar)

    def _unknown(self, name: str) -> UserError:
        return UserError(f"unknown odds figure '{name}' for {self.game} (known: {', '.join(NAMES[self.game])})")

    def figure(self, name: str) -> Figure:
        danger = "witch" if self.game == "diamoniak" else "flood"
        match = re.fullmatch(r"first_([a-z_]+)", name)
        if match and not name.startswith("first_palace"):
            kind = match.group(1).replace("_", "-")
            kinds = _answer(self.catalogue, "draws", self.progress)["next_kind"]
            if kind not in kinds and kind in game_of(self.game).kinds:
                return Figure("percent", Fraction(0))  # none of them in this deck
            if kind not in kinds:
                raise UserError(f"odds figure '{name}': no cards of kind '{kind}' in the deck "
                                f"(kinds: {', '.join(k.replace('-', '_') for k in kinds)})")
            return Figure("percent", _f(kinds[kind]))
        match = re.fullmatch(rf"no_{danger}_(\d+)", name)
        if match:
            k = int(match.group(1))
            survival = dict(_answer(self.catalogue, "draws", self.progress)["survival"])
            if k not in survival:
                raise DeckError(f"{deck_origin(self.catalogue)}: the deck has {self.catalogue.total} "
                                f"card{'s' * (self.catalogue.total != 1)}, too few for the odds of {k} draws in "
                                "a row that the rulebook quotes")
            return Figure("percent", _f(survival[k]))
        if self.game == "diamoniak":
            return self._diamoniak(name)
        return self._palaces(name)

    def _diamoniak(self, name: str) -> Figure:
        match = re.fullmatch(r"stop_after_(\d+)_wins", name)
        if match:
            return self._stopper(int(match.group(1)))
        if name not in NAMES["diamoniak"] and not re.fullmatch(r"within_\d+", name):
            raise self._unknown(name)
        data = self._solo()
        dist = [(t, _f(p)) for t, p in data["turns_distribution"]]
        if name == "expected_turns":
            return Figure("decimal", _f(data["expected_turns"]) if data["expected_turns"] else None)
        if name == "p_reshuffle":
            return Figure("percent", _f(data["p_reshuffle"]))
        if not dist:
            raise DeckError(f"{deck_origin(self.catalogue)}: with this deck a castle is never finished")
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
        match = re.fullmatch(r"within_(\d+)", name)
        if match:
            limit = int(match.group(1))
            return Figure("percent", sum((p for t, p in dist if t <= limit), Fraction(0)))
        raise self._unknown(name)

    def _stopper(self, k: int) -> Figure:
        """In how many games of 100 a two-player stopper after ``k`` cards beats one who always draws on:
        the 95% interval of played games in whole games (``toolkit.analysis.tip``), once per deck."""
        from toolkit.analysis.tip import stop_after_tip

        self._solo()  # a deck whose exact odds are out of reach is refused before any game is played
        key = (_signature(self.catalogue), "stopper", k)
        if key not in _CACHE:
            _CACHE[key] = stop_after_tip(self.catalogue, k, **STOPPER)
        tip = _CACHE[key]
        low, high = tip["low_games"], tip["high_games"]
        return Figure("int", low) if low == high else Figure("range", (low, high))

    def _solo(self) -> dict:
        """The exact solo answer, or DeckError: the rulebook prints no simulated solo figures."""
        data = _answer(self.catalogue, "solo", self.progress)
        if not data["exact"]:
            limit, estimate = data.get("states_explored_over"), data.get("state_estimate")
            size = (f"about {estimate:,} states by an estimate, over the solver's limit of {limit:,}" if estimate
                    else f"more than {limit:,} states")
            raise DeckError(f"{deck_origin(self.catalogue)}: the exact odds of this deck are out of reach (its "
                            f"solo chain has {size}), and the rulebook prints exact odds only")
        return data

    def _first_palace(self):
        """The simulated first palace (figures and chart), or DeckError when its games give no mean."""
        report = _report(self.catalogue, "first-palace", self.progress)
        data = report.data
        if data.get("mean_turns") is None or report.chart is None:
            played, stalled = data.get("simulated_games", 0), data.get("stalled_games", 0)
            why = (f"in {stalled:,} of {played:,} simulated games a first palace could no longer be completed"
                   if stalled else f"not every simulated game completed a first palace within "
                                   f"{data.get('turn_limit', 0):,} turns")
            raise DeckError(f"{deck_origin(self.catalogue)}: {why}, so there is no average time to a first "
                            "palace to print")
        return report

    def _palaces(self, name: str) -> Figure:
        if name in ("p_foundation", "p_palace_kinds", "p_palace_kinds_with_tower", "p_tower"):
            return Figure("percent", _f(_answer(self.catalogue, "opening", self.progress)[name]))
        if name.startswith("first_palace_"):
            data = self._first_palace().data
            mean, half = data["mean_turns"], Z95 * data["stderr_turns"]
            value = {"first_palace_mean": mean, "first_palace_low": mean - half,
                     "first_palace_high": mean + half}.get(name)
            if name == "first_palace_games":
                return Figure("int", data.get("simulated_games", 0))
            if name == "first_palace_turns":
                return whole_turns(mean - half, mean + half)
            if value is None:
                raise self._unknown(name)
            return Figure("decimal", value)
        raise self._unknown(name)

    def chart(self, name: str) -> Chart:
        if name not in CHARTS[self.game]:
            raise UserError(f"unknown figure '{name}' for {self.game} (known: {', '.join(CHARTS[self.game])})")
        if name == "turns_chart":
            dist = self._solo()["turns_distribution"]
            return Chart([t for t, _ in dist], [100 * float(_f(p)) for _, p in dist])
        chart = self._first_palace().chart
        return Chart(list(chart["xs"]), [100 * float(y) for y in chart["ys"]])
