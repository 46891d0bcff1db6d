"""Palaces questions: what an opening hand holds (exact), how long a first palace takes alone."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from toolkit.catalogue.model import Catalogue
from toolkit.games import check_deal

# What a hand holds, as bits: the figures need no more than this.
_FOUNDATION, _FULL, _FOUNDATION_ROOF, _TOWER = 1, 2, 4, 8  # over the whole hand
_HAS = {"foundation": 16, "floor": 32, "roof": 64}  # within the colour being added


@dataclass(frozen=True)
class OpeningOdds:
    hand_size: int
    hands: int  # distinct hands as multisets of card types
    p_foundation: Fraction  # at least one foundation
    p_palace_kinds: Fraction  # a foundation, a floor and a roof of one colour
    p_palace_kinds_with_tower: Fraction  # the same, a tower standing in for the floor
    p_tower: Fraction  # at least one tower


def opening_odds(catalogue: Catalogue) -> OpeningOdds:
    """The opening hand's figures, exact: deals counted by a dynamic programme over the card types.

    Card types are added one colour at a time; a hand so far is only how many cards it has and a few
    bits (a foundation, a tower, a colour with foundation, floor and roof, a colour with foundation
    and roof), each weighted by its number of deals, the product of ``comb(count, taken)``. So the
    work grows with the types and the hand size, not with the number of possible hands (the old
    enumeration of every multiset took 81 s for 11 cards).
    """
    size = catalogue.rules["hand_size"]
    check_deal(catalogue, size, 1)
    cards = [card for card in catalogue.cards if card.count]
    by_colour: dict[tuple | None, list] = {}  # ("colour", id) for palace elements, None for the rest
    for card in cards:
        key = ("colour", card.colour) if card.kind in _HAS else None
        by_colour.setdefault(key, []).append(card)
    ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (cards taken, bits) -> deals
    for colour, group in by_colour.items():
        for card in group:
            bit = _HAS[card.kind] if colour is not None else _TOWER if card.kind == "tower" else 0
            following: dict[tuple[int, int], int] = {}
            for (taken, bits), n in ways.items():
                for k in range(min(card.count, size - taken) + 1):
                    key = (taken + k, bits | bit if k else bits)
                    following[key] = following.get(key, 0) + n * comb(card.count, k)
            ways = following
        if colour is not None:  # the colour is complete: keep what the figures need of it
            ways = _close_colour(ways)
    tally = {_FOUNDATION: 0, _FULL: 0, _FOUNDATION_ROOF | _TOWER: 0, _TOWER: 0}
    with_tower = 0
    for (taken, bits), n in ways.items():
        if taken != size:
            continue
        for flag in (_FOUNDATION, _FULL, _TOWER):
            tally[flag] += n * bool(bits & flag)
        with_tower += n * bool(bits & _FULL or (bits & _FOUNDATION_ROOF and bits & _TOWER))
    all_hands = comb(sum(card.count for card in cards), size)
    return OpeningOdds(
        hand_size=size,
        hands=_multisets(cards, size),
        p_foundation=Fraction(tally[_FOUNDATION], all_hands),
        p_palace_kinds=Fraction(tally[_FULL], all_hands),
        p_palace_kinds_with_tower=Fraction(with_tower, all_hands),
        p_tower=Fraction(tally[_TOWER], all_hands),
    )


def _close_colour(ways: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """Fold the bits of the colour just added into the whole-hand bits, and clear them."""
    closed: dict[tuple[int, int], int] = {}
    for (taken, bits), n in ways.items():
        if bits & _HAS["foundation"]:
            bits |= _FOUNDATION
            if bits & _HAS["roof"]:
                bits |= _FULL if bits & _HAS["floor"] else _FOUNDATION_ROOF
        key = (taken, bits & 15)
        closed[key] = closed.get(key, 0) + n
    return closed


def _multisets(cards, size: int) -> int:
    """How many distinct hands (multisets of card types, at most ``count`` of each) have ``size`` cards."""
    counts = [1] + [0] * size
    for card in cards:
        counts = [sum(counts[t - k] for k in range(min(card.count, t) + 1)) for t in range(size + 1)]
    return counts[size]
