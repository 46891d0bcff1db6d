"""What the games' policy modules share: a rule name that is not this game's may be another's, and
the one-line error says so."""

from __future__ import annotations

import re


def known_in(module, name: str) -> bool:
    """Is ``name`` one of the rule names of this policy module: its ``FIXED`` names, or one of its
    ``NUMBERED`` kinds with a number (``stop-after-3``)? A module without them names no rule here."""
    match = re.fullmatch(r"([a-z-]+)-[0-9]+", name)
    return name in getattr(module, "FIXED", {}) or bool(match and match.group(1) in getattr(module, "NUMBERED", {}))


def other_game(game_id: str, name: str) -> str | None:
    """The name (capitalised id) of another game whose players have a rule called ``name``, else None."""
    from toolkit.games import registry

    for game in registry.games().values():
        if game.id != game_id and game.policies() is not None and known_in(game.policies(), name):
            return game.id.capitalize()
    return None
