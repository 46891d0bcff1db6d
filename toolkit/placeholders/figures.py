"""The odds the rulebook and the player aid quote, from the solver (``toolkit.odds.report.answer``) at build time.

Every figure is named (``{odds:NAME}`` in the text sources) and typed, so the text formats it for
its language: ``percent`` and ``decimal`` figures are exact fractions where the solver is exact,
``int`` figures are whole numbers. The solver runs only for the figures a rulebook uses, once per
deck composition in a process. A game's own figures are in its package (``Game.rulebook_figures``:
``NAMES`` and ``CHARTS`` it knows, ``figure(odds, name)``, None for a name not its own, and
``chart(odds, name)``); the ones every game has are here.

A figure the deck cannot give (its exact chain is out of reach, fewer cards than the draws asked
about) raises ``DeckError``, whose message names the user's input, not the text's placeholder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.origin import deck_origin
from toolkit.errors import UserError
from toolkit.games.registry import get as game_of
from toolkit.placeholders.deck import DeckError

_CACHE: dict[tuple, object] = {}


@dataclass(frozen=True)
class Figure:
    kind: str                        # "percent" | "decimal" | "int" | "range"
    value: Fraction | float | int | tuple[int, int] | None   # None: infinite (a goal that may never
    # be reached); a range is (low, high), two different whole numbers


@dataclass(frozen=True)
class Chart:
    xs: list[int]
    ys: list[float]   # percent


def signature(catalogue: Catalogue) -> tuple:
    return (catalogue.game, tuple((c.id, c.kind, c.colour, c.count) for c in catalogue.cards),
            tuple(sorted(catalogue.rules.items())))


def solved(catalogue: Catalogue, model: str, progress=None, **options):
    """The solver's answer (``toolkit.odds.report.answer`` with ``options``, the same for every call of
    one model), computed once per deck and model (``progress(n)`` ticks while it works)."""
    from toolkit.odds.report import answer

    key = (signature(catalogue), model)
    if key not in _CACHE:
        _CACHE[key] = answer(catalogue, model, progress=progress, **options)
    return _CACHE[key]


def cached(key: tuple, compute):
    """``compute()``, once per ``key`` in a process (the key starts with the deck's ``signature``)."""
    if key not in _CACHE:
        _CACHE[key] = compute()
    return _CACHE[key]


def fraction(text: str) -> Fraction:
    from toolkit.odds.report import parse_frac  # thousands of digits: past int()'s limit

    return parse_frac(text)


def whole_turns(low: float, high: float) -> Figure:
    """A simulated number of turns with no digit in doubt: its 95% interval rounded to whole turns,
    one number when both ends round alike ("about 8"), otherwise the range they span ("8–9")."""
    ends = [max(1, int(Decimal(repr(x)).quantize(Decimal(1), ROUND_HALF_UP))) for x in (low, high)]
    return Figure("int", ends[0]) if ends[0] == ends[1] else Figure("range", (ends[0], ends[1]))


class Odds:
    """The figures of one catalogue: the game's own (``Game.rulebook_figures``), and for every game
    ``first_KIND`` (the chance that the first card drawn is of that kind) and ``no_DANGER_K`` (no card
    of the kind the draws model watches for in the next K draws)."""

    def __init__(self, catalogue: Catalogue, progress=None):
        self.catalogue = catalogue
        self.game = catalogue.game
        self.progress = progress  # ticks while the solver works (the command line's progress bar)
        self.own = game_of(self.game).rulebook_figures()  # the game's own figures, or None
        self.names = self.own.NAMES if self.own else ("first_KIND", "no_DANGER_K")
        self.charts = self.own.CHARTS if self.own else ()

    def answer(self, model: str, **options) -> dict:
        """The solver's answer for this deck (see ``solved``)."""
        return solved(self.catalogue, model, self.progress, **options).data

    def unknown(self, name: str) -> UserError:
        return UserError(f"unknown odds figure '{name}' for {self.game} (known: {', '.join(self.names)})")

    def figure(self, name: str) -> Figure:
        figure = self.own.figure(self, name) if self.own else None
        if figure is not None:
            return figure
        match = re.fullmatch(r"first_([a-z_]+)", name)
        if match:
            kind = match.group(1).replace("_", "-")
            kinds = self.answer("draws")["next_kind"]
            if kind not in kinds and kind in game_of(self.game).kinds:
                return Figure("percent", Fraction(0))  # none of them in this deck
            if kind not in kinds:
                raise UserError(f"odds figure '{name}': no cards of kind '{kind}' in the deck "
                                f"(kinds: {', '.join(k.replace('-', '_') for k in kinds)})")
            return Figure("percent", fraction(kinds[kind]))
        match = re.fullmatch(r"no_([a-z_]+)_(\d+)", name)
        if match:
            draws = self.answer("draws")
            if match.group(1) == draws["danger"].replace("-", "_"):
                k = int(match.group(2))
                survival = dict(draws["survival"])
                if k not in survival:
                    raise DeckError(f"{deck_origin(self.catalogue)}: the deck has {self.catalogue.total} "
                                    f"card{'s' * (self.catalogue.total != 1)}, too few for the odds of {k} draws "
                                    "in a row that the rulebook quotes")
                return Figure("percent", fraction(survival[k]))
        raise self.unknown(name)

    def chart(self, name: str) -> Chart:
        if name not in self.charts:
            raise UserError(f"unknown figure '{name}' for {self.game} (known: {', '.join(self.charts)})")
        return self.own.chart(self, name)
