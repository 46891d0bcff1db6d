"""The Diamoniak decks a rulebook is refused for (``Game.check_deck``): no castle can be finished."""

from __future__ import annotations

from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.origin import deck_origin
from toolkit.rulebook.deck import DeckError, rule_text


def check(catalogue: Catalogue) -> None:
    size = catalogue.rules["castle_size"]
    castles = catalogue.of_kind("castle")
    per_colour: dict[str, int] = {}
    for card in castles:
        per_colour[card.colour] = per_colour.get(card.colour, 0) + card.count
    if not any(n >= size for n in per_colour.values()):
        origin = deck_origin(catalogue, [card.id for card in castles])
        raise DeckError(f"{origin}: no colour has {size} castle cards, so no castle can be finished "
                        f"({rule_text(catalogue, origin, 'castle_size')})")
    for colour, n in per_colour.items():
        if 0 < n < size:
            name = catalogue.colour(colour).name["en"]
            origin = deck_origin(catalogue, [card.id for card in castles if card.colour == colour])
            raise DeckError(f"{origin}: the {name} castle has only {n} card{'s' * (n != 1)} of the {size} it "
                            f"needs, so a player building it could never finish (make it 0 or at least {size}; "
                            f"{rule_text(catalogue, origin, 'castle_size')})")
