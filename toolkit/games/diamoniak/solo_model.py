"""The solo Diamoniak model (docs/rules/diamoniak.md, "The solo model"): the deck's numbers, the
states and the draws, which both exact solvers of the solo game read (``solo.solo_odds``, pile by pile,
and its numpy and compiled passes, ``solo_passes``).

One player alone draws until a witch ends each turn. The first castle card fixes the colour; from
then on every diamond and every castle card of another colour is junk, so a state needs only counts:

* before the colour is fixed: ``("pre", j, w, f, h, fh)`` -- diamonds, witches and fairies in the
  pile, diamonds and fairies held (every castle card is still in the pile);
* after: ``(O, J, o, j, w, f, c, h, fh)`` -- the deck's own-colour and junk totals, then own cards,
  junk, witches and fairies in the pile, and own cards (the castle), junk and fairies held.

The discard is what is neither in the pile nor held. A state whose pile is empty reshuffles the
discard into a new pile when it draws. The chain's steps are single draws; the number of turns is
1 + the number of witches drawn before the castle is complete. The rules of a draw are
``solo_kernel``'s steps, which every solver of the model plays.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from toolkit.catalogue.model import Catalogue
from toolkit.games.diamoniak.solo_kernel import (COMPLETE, FAIRY, JUNK, OWN, TOO_SMALL, WITCH, colour_totals, completes,
                                                 drawn, first_castle, reshuffled)

WON = "won"
DOOMED = "doomed"  # the fixed colour has fewer cards than a castle needs: the game cannot end


@dataclass(frozen=True)
class SoloDeck:
    """The numbers of the solo model, read from the catalogue (with any --set applied)."""

    castles: tuple[tuple[str, int], ...]  # (colour id, castle cards of that colour)
    diamonds: int
    witches: int
    fairies: int
    size: int  # castle cards that win
    takes: int  # cards a witch takes

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> SoloDeck:
        per_colour: dict[str, int] = {}
        for card in catalogue.of_kind("castle"):
            per_colour[card.colour] = per_colour.get(card.colour, 0) + card.count
        return cls(
            castles=tuple((colour, n) for colour, n in per_colour.items() if n),
            diamonds=catalogue.count_of_kind("diamond"),
            witches=catalogue.count_of_kind("witch"),
            fairies=catalogue.count_of_kind("fairy"),
            size=catalogue.rules["castle_size"],
            takes=catalogue.rules["witch_takes"],
        )

    @property
    def castle_total(self) -> int:
        return sum(n for _, n in self.castles)

    @property
    def total(self) -> int:
        return self.castle_total + self.diamonds + self.witches + self.fairies

    @functools.cached_property
    def first_castles(self) -> tuple[tuple[int, int, tuple[int, int], tuple[int, int, int]], ...]:
        """Each colour's castle card drawn before the colour is fixed (``solo_kernel.first_castle``), the
        same from any state: (its cards, what it does, the colour's totals, the change of (o, j, c))."""
        draws = []
        for _, n in self.castles:
            ends, *change = first_castle(n, self.castle_total, self.size)
            draws.append((n, ends, colour_totals(n, self.castle_total, self.diamonds), tuple(change)))
        return tuple(draws)

    def start(self) -> tuple:
        return ("pre", self.diamonds, self.witches, self.fairies, 0, 0)

    def doomed_colours(self) -> list[tuple[str, int]]:
        return [(colour, n) for colour, n in self.castles if n < self.size]


def pile_size(deck: SoloDeck, state) -> int:
    if state[0] == "pre":
        _, j, w, f, _, _ = state
        return deck.castle_total + j + w + f
    _, _, o, j, w, f, _, _, _ = state
    return o + j + w + f


def drawn_from(deck: SoloDeck, state) -> tuple[int, int]:
    """(cards, witches) in the pile the next card is drawn from, after a reshuffle if it is empty."""
    if state[0] == "pre":
        _, j, w, f, _, _ = state
        return deck.castle_total + j + w + f, w
    O, J, o, j, w, f, c, h, fh = state
    if o + j + w + f == 0:
        o, j, w, f = reshuffled(O, J, c, h, fh, deck.witches, deck.fairies)
    return o + j + w + f, w


def moves(deck: SoloDeck, state) -> list[tuple[int, object, bool]]:
    """The draws from ``state``: ``(weight, next state, is a witch)``; weights are card counts."""
    takes = deck.takes
    out = []
    if state[0] == "pre":
        _, j, w, f, h, fh = state
        for kind, weight in ((JUNK, j), (FAIRY, f), (WITCH, w)):
            if weight:
                _, dj, dw, df, _, dh, dfh = drawn(kind, 0, h, fh, takes)
                out.append((weight, ("pre", j + dj, w + dw, f + df, h + dh, fh + dfh), kind == WITCH))
        for n, ends, totals, (do, dj, dc) in deck.first_castles:
            if ends == TOO_SMALL:
                out.append((n, DOOMED, False))
            elif ends == COMPLETE:
                out.append((n, WON, False))
            else:
                out.append((n, (*totals, do, j + dj, w, f, dc, h, fh), False))
        return out
    O, J, o, j, w, f, c, h, fh = state
    if o + j + w + f == 0:  # reshuffle: the discard becomes the pile
        o, j, w, f = reshuffled(O, J, c, h, fh, deck.witches, deck.fairies)
    for kind, weight in ((OWN, o), (JUNK, j), (FAIRY, f), (WITCH, w)):
        if not weight:
            continue
        if kind == OWN and completes(c, deck.size):
            out.append((weight, WON, False))
        else:
            do, dj, dw, df, dc, dh, dfh = drawn(kind, c, h, fh, takes)
            out.append((weight, (O, J, o + do, j + dj, w + dw, f + df, c + dc, h + dh, fh + dfh), kind == WITCH))
    return out


@dataclass(frozen=True)
class Epoch:
    """What happens from some start states until their pile runs out (or the game ends)."""

    wins: dict[int, Fraction]  # witches drawn in this pile before the castle is complete -> probability
    doomed: Fraction  # the colour fixed in this pile is too small: the game cannot end
    exits: dict[tuple, Fraction]  # a state whose pile is empty (a reshuffle comes next) -> probability
    states: int  # states gone through
