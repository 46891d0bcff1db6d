"""Independent oracles: the readable engines and players the product's rules were written from, kept
to hold the product to the same answers (games card order by card order, chains state for state).

``diamoniak_engine`` and ``diamoniak_policies``, ``palaces_engine`` and ``palaces_policies`` are the games'
readable engines and players as they were in the product; ``oracle_game`` and ``oracle_policies`` give the
oracle's twin of a product game and seats.
"""

from __future__ import annotations

from dataclasses import fields

from oracles import diamoniak_engine, diamoniak_policies, palaces_engine, palaces_policies

POLICIES = {"diamoniak": diamoniak_policies, "palaces": palaces_policies}
GAMES = {"diamoniak": diamoniak_engine.DiamoniakGame, "palaces": palaces_engine.PalacesGame}


def oracle_game(game):
    """The oracle's game with the same fields as the product's ``game``."""
    return GAMES[game.game_id](**{field.name: getattr(game, field.name) for field in fields(game)})


def oracle_policies(policies):
    """The oracle's players of the same names as the product's ``policies``."""
    return [POLICIES[type(policy).__module__.split(".")[2]].parse(policy.name) for policy in policies]
