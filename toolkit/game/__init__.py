"""The base of the toolkit's games: the contract every game keeps (:mod:`toolkit.game.contract`: the
Protocols ``Game``, ``State`` and ``Player`` in OpenSpiel's names, ``CHANCE`` and ``TERMINAL``) and what
a game offers (:mod:`toolkit.game.info`: ``GameInfo``).

It sits below everything that plays a game and imports nothing of the toolkit above it, nor numpy,
numba or gmpy2 (a command's start-up pays for it).
"""

from toolkit.game.contract import (
    CHANCE,
    DEFAULT_MAX_STEPS,
    TERMINAL,
    Game,
    InformationState,
    Player,
    State,
)
from toolkit.game.info import GameInfo, Parameter

__all__ = ["CHANCE", "DEFAULT_MAX_STEPS", "TERMINAL", "Game", "GameInfo", "InformationState", "Parameter", "Player",
           "State"]
