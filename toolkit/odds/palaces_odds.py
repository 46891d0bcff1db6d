"""Palaces questions: what an opening hand holds (exact), how long a first palace takes alone."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from toolkit.catalogue.model import Catalogue


@dataclass(frozen=True)
class OpeningOdds:
    hand_size: int
    hands: int  # distinct hands as multisets of card types
    p_foundation: Fraction  # at least one foundation
    p_palace_kinds: Fraction  # a foundation, a floor and a roof of one colour
    p_palace_kinds_with_tower: Fraction  # the same, a tower standing in for the floor
    p_tower: Fraction  # at least one tower


def opening_odds(catalogue: Catalogue) -> OpeningOdds:
    """Every hand of ``hand_size`` cards, as counts per card type, weighted by its number of deals."""
    size = catalogue.rules["hand_size"]
    cards = [card for card in catalogue.cards if card.count]
    total = sum(card.count for card in cards)
    all_hands = comb(total, size)
    tally = {"foundation": 0, "palace": 0, "palace_tower": 0, "tower": 0}
    hands = 0
    for combo in combinations_with_replacement(range(len(cards)), size):
        held: dict[int, int] = {}
        for i in combo:
            held[i] = held.get(i, 0) + 1
        ways = 1
        for i, k in held.items():
            ways *= comb(cards[i].count, k)
        if not ways:
            continue
        hands += 1
        kinds = {(cards[i].kind, cards[i].colour) for i in held}
        has = {kind for kind, _ in kinds}
        colours = {colour for kind, colour in kinds if kind == "foundation"}
        full = any(("floor", c) in kinds and ("roof", c) in kinds for c in colours)
        with_tower = any(("roof", c) in kinds and (("floor", c) in kinds or "tower" in has) for c in colours)
        tally["foundation"] += ways * ("foundation" in has)
        tally["palace"] += ways * full
        tally["palace_tower"] += ways * with_tower
        tally["tower"] += ways * ("tower" in has)
    return OpeningOdds(
        hand_size=size,
        hands=hands,
        p_foundation=Fraction(tally["foundation"], all_hands),
        p_palace_kinds=Fraction(tally["palace"], all_hands),
        p_palace_kinds_with_tower=Fraction(tally["palace_tower"], all_hands),
        p_tower=Fraction(tally["tower"], all_hands),
    )
