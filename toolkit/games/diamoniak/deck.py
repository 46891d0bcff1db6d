"""The Diamoniak decks a rulebook is refused for (``Game.check_deck``): no castle can be finished.

Both checks read the game's rules: a game of the deck stalls at its start (``kernel._start``) when no
colour can complete a castle, and a colour can when it has enough castle cards (``DiamoniakGame.completable``).
"""

from __future__ import annotations

from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.origin import deck_origin
from toolkit.games.diamoniak.engine import DiamoniakGame
from toolkit.placeholders.deck import DeckError, rule_text


def check(catalogue: Catalogue) -> None:
    game = DiamoniakGame.from_catalogue(catalogue)
    size = game.castle_size
    castles = catalogue.of_kind("castle")
    if game.new_initial_state().stalled:
        origin = deck_origin(catalogue, [card.id for card in castles])
        raise DeckError(f"{origin}: no colour has {size} castle cards, so no castle can be finished "
                        f"({rule_text(catalogue, origin, 'castle_size')})")
    for colour in dict.fromkeys(card.colour for card in castles):
        n = game.colour_total(colour)
        if n and not game.completable(colour):
            name = catalogue.colour(colour).name["en"]
            origin = deck_origin(catalogue, [card.id for card in castles if card.colour == colour])
            raise DeckError(f"{origin}: the {name} castle has only {n} card{'s' * (n != 1)} of the {size} it "
                            f"needs, so a player building it could never finish (make it 0 or at least {size}; "
                            f"{rule_text(catalogue, origin, 'castle_size')})")
