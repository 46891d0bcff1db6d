"""What a game offers, typed: ``Game.info()`` (see :mod:`toolkit.game.contract`) gives one ``GameInfo``.

Its fields are what can be said of every game the toolkit plays today, a rules file as well as a
built-in game: how many may play, its parameters, its named players, what its length is counted in,
whether it names its actions and the fields of its states, whether it has a deck of cards, a rulebook
and odds models of its own. Nothing reads it yet but the conformance test (tests/test_conformance.py);
the game's module slots (``toolkit.games.game.Game``) move here next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LengthUnit = Literal["turns", "rounds", "steps"]
NoWinner = Literal["stalled", "draw"]
LENGTH_UNITS: tuple[LengthUnit, ...] = ("turns", "rounds", "steps")


@dataclass(frozen=True)
class Parameter:
    """A parameter of a game: its name, its value in this game, and the values it may take where the
    game says (``low``..``high`` for a whole number, else ``choices``; neither: any the game accepts)."""

    name: str
    value: object = None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """What a game offers (see the module's text)."""

    name: str  # what reports call the game: "Pig(goal=50)", "Diamoniak (2 players)"
    players: tuple[int, int]  # the fewest and the most seats it may be played with (this game: num_players())
    parameters: tuple[Parameter, ...] = ()  # the parameters the game was built with
    named_players: tuple[str, ...] = ("random", "first")  # every player by name, the standard two first
    length_unit: LengthUnit = "steps"  # what a game's length is counted in
    no_winner: NoWinner = "draw"  # what a game that ends without a winner is called
    names_actions: bool = False  # the game gives its actions names of its own (action_to_string)
    fields: tuple[str, ...] | None = None  # the names of the fields a person reads of a state; None: its attributes
    variants: tuple[str, ...] = ()  # the named rule variants it offers
    deck: bool = False  # played with a deck of cards from a catalogue (print-cards, the draws odds)
    rulebook: bool = False  # has a rulebook's text (toolkit rulebook)
    odds_models: tuple[str, ...] = ()  # the toolkit odds models of its own (beside the chain of every game)

    def __post_init__(self) -> None:
        low, high = self.players
        if not 1 <= low <= high:
            raise ValueError(f"players {self.players}: from 1, the fewest first")
        if self.length_unit not in LENGTH_UNITS:
            raise ValueError(f"length_unit {self.length_unit!r}: one of {', '.join(LENGTH_UNITS)}")
