"""The card catalogue: one TOML file per game, loaded and checked into frozen dataclasses.

The names below are looked up in their modules when first asked for: reading a catalogue (TOML,
Babel's plural rules, the font checks) costs time at start, and ``toolkit --help`` or
``--version`` reads none.
"""

from importlib import import_module

_HOMES = {"Catalogue": "model", "CardType": "model", "Colour": "model", "Text": "model",
          "Token": "model", "apply_overrides": "loader", "load": "loader"}

__all__ = ["Catalogue", "CardType", "Colour", "Text", "Token", "apply_overrides", "load"]


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
