"""Odds of the next draws from a known pile: closed forms (hypergeometric), exact fractions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from toolkit.catalogue.model import MAX_COUNT, MAX_DECK, Catalogue
from toolkit.errors import UserError


@dataclass(frozen=True)
class DrawOdds:
    pile: dict[str, int]  # card id -> cards in the pile
    next_card: dict[str, Fraction]  # card id -> P(the next card is one of these)
    next_kind: dict[str, Fraction]  # card kind -> P(the next card is of this kind)
    danger: str | None  # the kind whose absence "survival" measures (the game's ``danger_kind``), if any
    survival: list[Fraction]  # survival[k] = P(no card of the danger kind in the next k draws); [] without one


def parse_pile(catalogue: Catalogue, text: str | None) -> dict[str, int]:
    """``"witch=3,diamond=5"`` -> those counts (every other card 0); None -> the whole deck.

    Counts are ASCII digits within the catalogue's limits (per card type and for the whole pile),
    and a card id may be named once.
    """
    if text is None:
        return {card.id: card.count for card in catalogue.cards}
    pile = {card.id: 0 for card in catalogue.cards}
    named: set[str] = set()
    for part in text.split(","):
        card_id, sep, value = part.strip().partition("=")
        card_id, value = card_id.strip(), value.strip()
        if not sep or card_id not in pile:
            known = ", ".join(pile)
            raise UserError(f"--pile {text}: '{part.strip()}' is not ID=N with a card id of the deck ({known})")
        if card_id in named:
            raise UserError(f"--pile {text}: '{card_id}' is given twice")
        named.add(card_id)
        if not re.fullmatch(r"[0-9]+", value):
            raise UserError(f"--pile {text}: the count of '{card_id}' must be a whole number >= 0 in digits 0-9")
        if len(value) > len(str(MAX_COUNT)) or int(value) > MAX_COUNT:
            raise UserError(f"--pile {text}: the count of '{card_id}' is at most {MAX_COUNT}")
        pile[card_id] = int(value)
    if not sum(pile.values()):
        raise UserError(f"--pile {text}: the pile is empty")
    if sum(pile.values()) > MAX_DECK:
        raise UserError(f"--pile {text}: the pile has {sum(pile.values())} cards, more than a deck's {MAX_DECK}")
    return pile


def draw_odds(catalogue: Catalogue, pile: dict[str, int], danger: str | None) -> DrawOdds:
    total = sum(pile.values())
    kinds: dict[str, int] = {}
    for card in catalogue.cards:
        kinds[card.kind] = kinds.get(card.kind, 0) + pile[card.id]
    bad = kinds.get(danger, 0)
    safe = total - bad
    # P(no danger card in k draws) = C(safe, k) / C(total, k), for k = 0 .. safe + 1 (then it stays 0)
    survival = [] if danger is None else [Fraction(comb(safe, k), comb(total, k))
                                          for k in range(0, min(safe + 1, total) + 1)]
    return DrawOdds(
        pile=dict(pile),
        next_card={card_id: Fraction(n, total) for card_id, n in pile.items()},
        next_kind={kind: Fraction(n, total) for kind, n in kinds.items()},
        danger=danger,
        survival=survival,
    )
