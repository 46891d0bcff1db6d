"""A registered game's engine as a game of the contract (:mod:`toolkit.game.contract`): the generic walk,
the chain under named players and optimal play (``toolkit.odds.engine_chain``, ``toolkit.rules.optimal``) take
an engine's game and states as they take a game written in Python, with no adapter between.

An engine's game class and state class take these mixins. The engines already keep the contract's
conventions (CHANCE, TERMINAL, whole weights, ``key``, ``clone``, ``turns``, ``winner``); the mixins add
what the contract has besides, from what the engine and its registered ``Game`` know: ``returns()`` (1
for the winner, 0 for the others), ``ends_turn(action)`` (the engine counts one more turn after it),
``score(player)`` and ``events()`` (the engine's scores and counters), and on the game its players by
name (``random`` and ``first`` beside the game's own), its words for actions and fields, and its
``GameInfo``.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.game.info import GameInfo, Parameter

if TYPE_CHECKING:
    from toolkit.games.game import Game

MAX_STEPS = 100_000  # the longest game the walk plays before it calls a game endless (the rules files' default)


class PlayedGame:
    """Mixin for an engine's game class (a dataclass with ``game_id``, ``players`` and ``variants``)."""

    game_id: str
    players: int
    variants: frozenset[str] = frozenset()  # a game without variants need not have the field
    max_steps = MAX_STEPS
    chance_source = "pile"  # chance deals from a shuffled pile (toolkit.sim.play.PILE)
    path = None  # no file of the designer's: nothing a run may not overwrite
    params: dict[str, Any] = {}

    @property
    def registered(self) -> Game:
        from toolkit.games.registry import get

        return get(self.game_id)

    @property
    def name(self) -> str:
        return self.game_id.capitalize()

    @property
    def spec(self) -> str:
        return self.game_id

    source = spec  # what a message names the game by

    def num_players(self) -> int:
        return self.players

    def max_game_length(self) -> int:
        return self.max_steps

    def action_to_string(self, player: int, action: Any) -> str:
        """The action in words, as the game's package names it (``Game.action_name``)."""
        return self.registered.action_name(self, action)

    def action_name(self, player: int, action: Any) -> str:  # the name the toolkit's callers use
        return self.action_to_string(player, action)

    def state_fields(self, state: Any) -> tuple[tuple[str, ...], tuple[Any, ...]] | None:
        """What a person reads of ``state``, as the game's package names it, or None where it names nothing."""
        return self.registered.state_fields(state)

    def policies(self) -> dict[str, Any]:
        """Every player by name: ``random`` and ``first``, the game's ``default`` and its fixed rules."""
        from toolkit.games.registry import policy_module
        from toolkit.rules.policy import standard_policies

        names = ["default", *getattr(policy_module(self.game_id), "FIXED", {})]
        return {**standard_policies(), **{name: self.policy(name) for name in names if name not in ("random", "first")}}

    def policy(self, name: str, option: str = "--policy") -> Any:
        from toolkit.games.registry import policy_module
        from toolkit.rules.policy import standard_policies

        standard = standard_policies()
        return standard[name] if name in standard else policy_module(self.game_id).parse(name, option)

    def description(self) -> str:
        variants = f", variants {'+'.join(sorted(self.variants))}" if self.variants else ""
        return f"{self.name} ({self.players} players{variants})"

    def info(self) -> GameInfo:
        """What the game offers, from its registered ``Game`` (toolkit.games.game)."""
        game = self.registered
        fields = self.state_fields(getattr(self, "new_initial_state")())
        parameters = (Parameter("players", self.players), Parameter("variants", "+".join(sorted(self.variants)),
                                                                    choices=tuple(game.variants)))
        rulebook = game.resource("texts").is_dir() and any(game.resource("texts").glob("rules.*.md"))
        return GameInfo(self.description(), (self.players, self.players), parameters, tuple(self.policies()),
                        "rounds" if self.players > 1 else "turns", "stalled", game.view() is not None,
                        None if fields is None else tuple(fields[0]), tuple(game.variants), True, rulebook,
                        tuple(game.odds_models))


class PlayedState:
    """Mixin for an engine's state class (``turns``, ``winner``, ``is_terminal``, ``apply_action``, and
    optionally ``clone()``, ``key()``, ``scores()`` and ``counters()``: an engine without its own ``clone``
    and ``key`` gets a deep copy and its attributes frozen, as a rules file does)."""

    turns: int
    winner: int | None
    game: Any

    def clone(self) -> Any:
        return copy.deepcopy(self)

    def is_chance_node(self) -> bool:
        from toolkit.game.contract import CHANCE

        return bool(getattr(self, "current_player")() == CHANCE)

    def key(self, *arguments: Any) -> Hashable:
        from toolkit.rules.guard import freeze

        return freeze(vars(self))

    def ends_turn(self, action: Any) -> bool:
        """Whether applying ``action`` ends a turn: the engine counts one more after it, or the game ends
        (asked of a copy: the engines count their turns themselves, nothing asks this on the way)."""
        after = self.clone()
        after.apply_action(action)
        return bool(after.turns > self.turns or after.is_terminal())

    def returns(self) -> tuple[Fraction, ...]:
        winner = self.winner if getattr(self, "is_terminal")() else None
        return tuple(Fraction(int(seat == winner)) for seat in range(self.game.players))

    def score(self, player: int) -> Any:
        found = getattr(self, "scores", None)
        return None if found is None else found()[player]

    def events(self) -> dict[str, int]:
        counters = getattr(self, "counters", None)
        return {} if counters is None else dict(counters())
