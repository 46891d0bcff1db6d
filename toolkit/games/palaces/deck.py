"""The Palaces decks a rulebook is refused for (``Game.check_deck``): no palace can be started or
completed, or too few cards to deal."""

from __future__ import annotations

from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.origin import deck_origin
from toolkit.games.palaces.engine import completable_colours
from toolkit.placeholders.deck import DeckError, fields_text


def check(catalogue: Catalogue) -> None:
    count = catalogue.count_of_kind

    def origin(*kinds: str) -> str:
        return deck_origin(catalogue, [card.id for card in catalogue.cards if card.kind in kinds])

    if not count("foundation"):
        raise DeckError(f"{origin('foundation')}: the deck has no foundation, so no palace can be started")
    if not count("roof"):
        raise DeckError(f"{origin('roof')}: the deck has no roof, so no palace can be completed")
    if not count("floor") + count("tower"):
        raise DeckError(f"{origin('floor', 'tower')}: the deck has no floor and no tower, so no palace can be "
                        "completed")

    cards = catalogue.cards
    if not completable_colours([c.id for c in catalogue.colours], [card.kind for card in cards],
                               [card.colour for card in cards], [card.count for card in cards]):
        raise DeckError(f"{origin('foundation', 'floor', 'roof', 'tower')}: no colour has a foundation, a roof "
                        "and a floor (or a tower), so no palace can be completed")
    hand, players = catalogue.rules["hand_size"], catalogue.players[1]
    if catalogue.total < hand * players:
        where = deck_origin(catalogue)
        fields = fields_text(catalogue, where, ("rules.hand_size", hand), ("game.players.max", players))
        raise DeckError(f"{where}: the deck has {catalogue.total} cards, too few to deal {players} players "
                        f"{hand} cards each ({fields})")
