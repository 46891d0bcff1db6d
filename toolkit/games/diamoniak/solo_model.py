"""The solo Diamoniak model (shared/rules/diamoniak.md, "The solo model"): the deck's numbers, the
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
1 + the number of witches drawn before the castle is complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from toolkit.catalogue.model import Catalogue

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
        return (O - c) + (J - h) + deck.witches + (deck.fairies - fh), deck.witches
    return o + j + w + f, w


def moves(deck: SoloDeck, state) -> list[tuple[int, object, bool]]:
    """The draws from ``state``: ``(weight, next state, is a witch)``; weights are card counts."""
    takes = deck.takes
    if state[0] == "pre":
        _, j, w, f, h, fh = state
        out = []
        if j:
            out.append((j, ("pre", j - 1, w, f, h + 1, fh), False))
        if f:
            out.append((f, ("pre", j, w, f - 1, h, fh + 1), False))
        if w:
            after = ("pre", j, w - 1, f, h, fh - 1) if fh else ("pre", j, w - 1, f, h - min(h, takes), fh)
            out.append((w, after, True))
        junk_castles = deck.castle_total
        for _, n in deck.castles:
            if n < deck.size:
                out.append((n, DOOMED, False))
            elif deck.size <= 1:
                out.append((n, WON, False))
            else:
                own_total, junk_total = n, deck.diamonds + junk_castles - n
                out.append((n, (own_total, junk_total, n - 1, j + junk_castles - n, w, f, 1, h, fh), False))
        return out
    O, J, o, j, w, f, c, h, fh = state
    if o + j + w + f == 0:  # reshuffle: the discard becomes the pile
        o, j, w, f = O - c, J - h, deck.witches, deck.fairies - fh
    out = []
    if o:
        out.append((o, WON if c + 1 >= deck.size else (O, J, o - 1, j, w, f, c + 1, h, fh), False))
    if j:
        out.append((j, (O, J, o, j - 1, w, f, c, h + 1, fh), False))
    if f:
        out.append((f, (O, J, o, j, w, f - 1, c, h, fh + 1), False))
    if w:
        if fh:
            after = (O, J, o, j, w - 1, f, c, h, fh - 1)
        else:
            lost_junk = min(h, takes)
            lost_own = min(c, takes - lost_junk)
            after = (O, J, o, j, w - 1, f, c - lost_own, h - lost_junk, fh)
        out.append((w, after, True))
    return out



@dataclass(frozen=True)
class Epoch:
    """What happens from some start states until their pile runs out (or the game ends)."""

    wins: dict[int, Fraction]  # witches drawn in this pile before the castle is complete -> probability
    doomed: Fraction  # the colour fixed in this pile is too small: the game cannot end
    exits: dict[tuple, Fraction]  # a state whose pile is empty (a reshuffle comes next) -> probability
    states: int  # states gone through
