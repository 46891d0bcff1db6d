"""How many cards of a kind a dealt hand holds: the hypergeometric distribution, exact fractions.

A hand of ``n`` cards is dealt from a pile of ``N``. The cards that count are those matching every
``--where`` clause (a card field and a value, e.g. ``kind=witch`` or ``value=10`` with the deck's own
fields; or a bare word, a kind or a card id); with ``K`` of them in the pile, the hand holds ``k`` of them with probability
``C(K, k) C(N - K, n - k) / C(N, n)``. That is the multivariate hypergeometric count of the hands
with that split, taken over the two classes "counts" and "does not count" (the clauses are joined with
"and", so a card is in one class or the other). Whole-number binomials keep it exact and fast: a pile
of 1,000 cards takes a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from toolkit.catalogue.model import CardType, Catalogue
from toolkit.errors import UserError

FIELDS = ("id", "kind", "colour")  # the fields every card has; a deck adds its own (CardType.fields)


@dataclass(frozen=True)
class HandOdds:
    hand: int  # cards dealt
    pile: int  # cards they are dealt from
    counted: dict[str, int]  # card id -> cards of that type in the pile that count
    distribution: list[Fraction]  # distribution[k] = P(the hand holds exactly k cards that count)
    low: int  # the question: at least ``low`` ...
    high: int  # ... and at most ``high`` cards that count

    @property
    def matching(self) -> int:
        return sum(self.counted.values())

    @property
    def chance(self) -> Fraction:
        return sum(self.distribution[self.low:self.high + 1], Fraction(0))


def card_field(card: CardType, name: str) -> str:
    """A card's field as text ("" when the card has no value for it): id, kind, colour or its own."""
    value = getattr(card, name) if name in FIELDS else card.fields.get(name)
    return "" if value is None else str(value)


def matches(catalogue: Catalogue, where: tuple[str, ...]) -> set[str]:
    """The ids of the card types every clause of ``where`` holds for, or a one-line error naming the
    clause that is not a field and value of this deck."""
    if not where:
        raise UserError("--where: name the cards to count, e.g. --where kind=KIND (or a bare kind or card id)")
    chosen = {card.id for card in catalogue.cards}
    for clause in where:
        name, sep, value = (part.strip() for part in clause.partition("="))
        if not sep:  # a bare word: a kind, or else a card id
            kinds = {card.kind for card in catalogue.cards}
            ids = {card.id for card in catalogue.cards}
            if name in kinds:
                name, value = "kind", name
            elif name in ids:
                name, value = "id", name
            else:
                raise UserError(f"--where {clause}: not a kind ({', '.join(sorted(kinds))}) nor a card id of "
                                f"the deck; or write FIELD=VALUE with a field of "
                                f"{', '.join((*FIELDS, *catalogue.field_names))}")
        fields = (*FIELDS, *catalogue.field_names)
        if name not in fields:
            raise UserError(f"--where {clause}: '{name}' is not a field of the deck's cards ({', '.join(fields)})")
        values = sorted({card_field(card, name) for card in catalogue.cards} - {""})
        if value not in values:
            raise UserError(f"--where {clause}: no card of the deck has {name} '{value}' "
                            f"(it has {', '.join(values)})")
        chosen &= {card.id for card in catalogue.cards if card_field(card, name) == value}
    return chosen


def bounds(hand: int, at_least: int | None, at_most: int | None, exactly: int | None) -> tuple[int, int]:
    """The question's range of counts, from --at-least, --at-most and --exactly (at least 1 when none)."""
    if exactly is not None:
        if at_least is not None or at_most is not None:
            raise UserError(f"--exactly {exactly}: give it alone, without --at-least or --at-most")
        return exactly, exactly
    low = 1 if at_least is None and at_most is None else (at_least or 0)
    high = hand if at_most is None else at_most
    if low > high:
        raise UserError(f"--at-least {low} --at-most {high}: no count is both")
    return low, high


def hand_odds(catalogue: Catalogue, pile: dict[str, int], hand: int, where: tuple[str, ...],
              at_least: int | None = None, at_most: int | None = None, exactly: int | None = None) -> HandOdds:
    total = sum(pile.values())
    if hand > total:
        raise UserError(f"--hand {hand}: the pile has only {total} card{'s' if total != 1 else ''} to deal from")
    chosen = matches(catalogue, where)
    low, high = bounds(hand, at_least, at_most, exactly)
    counted = {card_id: n for card_id, n in pile.items() if card_id in chosen}
    good = sum(counted.values())
    hands = comb(total, hand)
    distribution = [Fraction(comb(good, k) * comb(total - good, hand - k), hands) for k in range(hand + 1)]
    return HandOdds(hand, total, counted, distribution, low, min(high, hand))
