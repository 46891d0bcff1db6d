"""Which engine and which policies play a catalogue's game."""

from __future__ import annotations

from importlib import import_module

from toolkit.catalogue.model import Catalogue

_ENGINES = {
    "diamoniak": ("toolkit.games.diamoniak", "DiamoniakGame", "toolkit.sim.diamoniak_policies"),
    "palaces": ("toolkit.games.palaces", "PalacesGame", "toolkit.sim.palaces_policies"),
}


def make_game(catalogue: Catalogue, players: int, variants=()):
    module, cls, _ = _ENGINES[catalogue.game]
    return getattr(import_module(module), cls).from_catalogue(catalogue, players=players, variants=variants)


def policy_module(game_id: str):
    return import_module(_ENGINES[game_id][2])


def variants(game_id: str) -> dict[str, str]:
    return import_module(_ENGINES[game_id][0]).VARIANTS
