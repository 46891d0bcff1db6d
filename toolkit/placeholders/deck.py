"""The decks a rulebook can be printed for, checked before any text is set or any odds are solved
(and the error a placeholder's figure raises when the deck cannot give it).

A rulebook tells players how a game goes and quotes its odds; for a deck with which the game cannot
be played to its end (no cards, or what the game itself refuses through ``Game.check_deck``, such as
nothing that can be finished or too few cards to deal) there is nothing true to print, so it is
refused with one line that names the user's input: the ``--set`` options that made the deck so, or
the catalogue file's fields (see :mod:`toolkit.catalogue.origin`).
"""

from __future__ import annotations

from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.origin import deck_origin
from toolkit.errors import UserError
from toolkit.games.registry import get as game_of


class DeckError(UserError):
    """The deck (not the text of the rules) is why the rulebook cannot be printed: the message
    already names the user's input."""


def check_deck(catalogue: Catalogue) -> None:
    """Raise DeckError when the game cannot be played to its end with this deck."""
    if catalogue.is_empty:
        raise DeckError(f"{deck_origin(catalogue)}: the deck has no cards (every count is 0), so there are "
                        "no rules to print for it")
    game_of(catalogue.game).check_deck(catalogue)


def fields_text(catalogue: Catalogue, origin: str, *fields: tuple[str, int]) -> str:
    """``rules.NAME = N, ...`` after the file's name, unless ``origin`` names the file already."""
    text = ", ".join(f"{key} = {value}" for key, value in fields)
    return text if origin.startswith(catalogue.source.name) else f"{catalogue.source.name}: {text}"


def rule_text(catalogue: Catalogue, origin: str, name: str) -> str:
    """``rules.NAME = N`` after the file's name, unless ``origin`` names the file already."""
    return fields_text(catalogue, origin, (f"rules.{name}", catalogue.rules[name]))
