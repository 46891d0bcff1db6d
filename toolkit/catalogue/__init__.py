"""The card catalogue: one TOML file per game, loaded and checked into frozen dataclasses."""

from toolkit.catalogue.loader import BUILTIN_GAMES, apply_overrides, load
from toolkit.catalogue.model import Catalogue, CardType, Colour, Text, Token

__all__ = ["BUILTIN_GAMES", "Catalogue", "CardType", "Colour", "Text", "Token", "apply_overrides", "load"]
