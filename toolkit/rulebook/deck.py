"""The decks a rulebook can be printed for, checked before any text is set or any odds are solved.

A rulebook tells players how a game goes and quotes its odds; for a deck with which the game cannot
be played to its end (no cards, no castle or palace that can be finished, too few cards to deal) there
is nothing true to print, so it is refused with one line that names the user's input: the ``--set``
options that made the deck so, or the catalogue file's fields (see :mod:`toolkit.catalogue.origin`).
"""

from __future__ import annotations

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.catalogue.origin import deck_origin


class DeckError(UserError):
    """The deck (not the text of the rules) is why the rulebook cannot be printed: the message
    already names the user's input."""


def check_deck(catalogue: Catalogue) -> None:
    """Raise DeckError when the game cannot be played to its end with this deck."""
    if catalogue.is_empty:
        raise DeckError(f"{deck_origin(catalogue)}: the deck has no cards (every count is 0), so there are "
                        "no rules to print for it")
    if catalogue.game == "diamoniak":
        _check_diamoniak(catalogue)
    else:
        _check_palaces(catalogue)


def _fields(catalogue: Catalogue, origin: str, *fields: tuple[str, int]) -> str:
    """``rules.castle_size = 6`` after the file's name, unless ``origin`` names the file already."""
    text = ", ".join(f"{key} = {value}" for key, value in fields)
    return text if origin.startswith(catalogue.source.name) else f"{catalogue.source.name}: {text}"


def _rule(catalogue: Catalogue, origin: str, name: str) -> str:
    return _fields(catalogue, origin, (f"rules.{name}", catalogue.rules[name]))


def _check_diamoniak(catalogue: Catalogue) -> None:
    size = catalogue.rules["castle_size"]
    castles = catalogue.of_kind("castle")
    per_colour: dict[str, int] = {}
    for card in castles:
        per_colour[card.colour] = per_colour.get(card.colour, 0) + card.count
    if not any(n >= size for n in per_colour.values()):
        origin = deck_origin(catalogue, [card.id for card in castles])
        raise DeckError(f"{origin}: no colour has {size} castle cards, so no castle can be finished "
                        f"({_rule(catalogue, origin, 'castle_size')})")
    for colour, n in per_colour.items():
        if 0 < n < size:
            name = catalogue.colour(colour).name["en"]
            origin = deck_origin(catalogue, [card.id for card in castles if card.colour == colour])
            raise DeckError(f"{origin}: the {name} castle has only {n} card{'s' * (n != 1)} of the {size} it "
                            f"needs, so a player building it could never finish (make it 0 or at least {size}; "
                            f"{_rule(catalogue, origin, 'castle_size')})")


def _check_palaces(catalogue: Catalogue) -> None:
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

    def has(kind: str, colour: str) -> bool:
        return any(card.count for card in catalogue.of_kind(kind) if card.colour == colour)

    if not any(has("foundation", c.id) and has("roof", c.id) and (has("floor", c.id) or count("tower"))
               for c in catalogue.colours):
        raise DeckError(f"{origin('foundation', 'floor', 'roof', 'tower')}: no colour has a foundation, a roof "
                        "and a floor (or a tower), so no palace can be completed")
    hand, players = catalogue.rules["hand_size"], catalogue.players[1]
    if catalogue.total < hand * players:
        where = deck_origin(catalogue)
        fields = _fields(catalogue, where, ("rules.hand_size", hand), ("game.players.max", players))
        raise DeckError(f"{where}: the deck has {catalogue.total} cards, too few to deal {players} players "
                        f"{hand} cards each ({fields})")
