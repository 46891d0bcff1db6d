"""The built-in games through the rules interface: ``--rules diamoniak`` plays the registered game's engine
(``Game.make_game`` on the catalogue that ships with it) as a rules game, with the game's own players by
name (its policies module's ``parse``: ``default``, ``stop-after-3``, ...) beside ``random`` and ``first``.

The engines already keep the toolkit's conventions (CHANCE, TERMINAL, whole weights, ``key``, ``turns``,
``winner``); the adapter adds what the contract of a game (:mod:`toolkit.game.contract`) has besides:
``returns()`` (1 for the winner, 0 for the others), ``ends_turn(action)`` (whether the engine counts a
turn more after it), ``score(player)`` and ``events()`` (the engine's scores and counters), ``steps``, and
the defaults of ``clone`` and ``key`` for an engine without them (a game of another package). Anything
else is the engine state's own (``state.engine``, or read through the adapter), so a walk that knows an
engine may use it.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE
from toolkit.game.info import GameInfo, Parameter
from toolkit.games.game import Game
from toolkit.rules.interface import DEFAULT_MAX_STEPS
from toolkit.rules.policy import Policy, standard_policies

PARAMETERS = ("players", "variants")


def builtin_game(game_id: str, params: dict[str, Any], option: str = "--rules") -> BuiltinRules:
    from toolkit.catalogue import load
    from toolkit.games.registry import get

    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise UserError(f"{option} {game_id}: the built-in game has no parameter '{unknown[0]}' "
                        f"(it takes {', '.join(PARAMETERS)})")
    game = get(game_id)
    catalogue = load(game_id, None, (), require_art=False)
    low, high = catalogue.players
    players = params.get("players", low)
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise UserError(f"{option} {game_id}: players={players!r}: the game is for {low} to {high} players")
    variants = params.get("variants", ())
    variants = tuple(variants.split("+")) if isinstance(variants, str) and variants else tuple(variants or ())
    engine_game = game.make_game(catalogue, players, variants)
    rules = BuiltinRules(game, engine_game, game_id, players, variants, dict(params))
    rules.seats = (low, high)
    return rules


class BuiltinRules:
    """A registered game's engine as a ``RulesGame``."""

    def __init__(self, game: Game, engine_game: Any, spec: str, players: int, variants: tuple[str, ...],
                 params: dict[str, Any]):
        self.registered = game
        self.engine_game = engine_game
        self.spec = spec
        self.source = spec
        self.path = None
        self.params = params
        self.name = game.id.capitalize()
        self.players = players
        self.variants = variants
        self.max_steps = DEFAULT_MAX_STEPS
        self.seats = (players, players)  # the player counts the game's catalogue allows (builtin_game sets it)

    def num_players(self) -> int:
        return self.players

    def max_game_length(self) -> int:
        return self.max_steps

    def new_initial_state(self) -> BuiltinState:
        return BuiltinState(self, self.engine_game.new_initial_state())

    def action_to_string(self, player: int, action: Any) -> str:
        """The action in words, as the game's package names it (``Game.action_name``)."""
        return self.registered.action_name(self.engine_game, action)

    action_name = action_to_string  # the name the toolkit's callers use

    def state_fields(self, state: BuiltinState) -> tuple[tuple[str, ...], tuple[Any, ...]] | None:
        """What a person reads of ``state`` (a ``BuiltinState``), as the game's package names it
        (``Game.state_fields``), or None where it names nothing."""
        return self.registered.state_fields(state.engine)

    def policies(self) -> dict[str, Policy]:
        module = self.registered.policies()
        names = ["default", *getattr(module, "FIXED", {})]
        own = {name: self.policy(name) for name in names if name not in ("random", "first")}
        return {**standard_policies(), **own}

    def info(self) -> GameInfo:
        """What the game offers, from its registered ``Game`` (toolkit.games.game)."""
        game = self.registered
        fields = self.state_fields(self.new_initial_state())
        low, high = self.seats
        parameters = (Parameter("players", self.players, low, high),
                      Parameter("variants", "+".join(self.variants), choices=tuple(game.variants)))
        rulebook = game.resource("texts").is_dir() and any(game.resource("texts").glob("rules.*.md"))
        return GameInfo(self.description(), (low, high), parameters, tuple(self.policies()), "turns", "stalled",
                        game.view() is not None, None if fields is None else tuple(fields[0]),
                        tuple(game.variants), True, rulebook, tuple(game.odds_models))

    def policy(self, name: str, option: str = "--policy") -> Policy:
        standard = standard_policies()
        if name in standard:
            return standard[name]
        from toolkit.games.registry import policy_module

        return EnginePolicy(policy_module(self.registered.id).parse(name, option))

    def description(self) -> str:
        variants = f", variants {'+'.join(self.variants)}" if self.variants else ""
        return f"{self.name} ({self.players} players{variants})"


class EnginePolicy(Policy):
    """A built-in game's player (``.act(engine_state)``), with the attributes the exact walk reads."""

    def __init__(self, rule: Any):
        super().__init__(rule.name)
        self.rule = rule
        self.deterministic = getattr(rule, "deterministic", False)
        self.ignores = frozenset(getattr(rule, "ignores", ()))
        self.colours_alike = getattr(rule, "colours_alike", False)
        self.decides_slowly = getattr(rule, "decides_slowly", False)

    def start_game(self, seed: int, seat: int) -> None:
        start = getattr(self.rule, "start_game", None)
        if start is not None:
            start(seed, seat)

    def act(self, state: Any, rng: Any = None) -> Any:
        return self.rule.act(getattr(state, "engine", state))

    def distribution(self, state: Any) -> list[tuple[object, int]]:
        return [(self.act(state), 1)]


class BuiltinState:
    """An engine state with a rules state's ``returns``, ``steps``, ``scores`` and ``events``."""

    __slots__ = ("rules", "engine", "steps")

    def __init__(self, rules: BuiltinRules, engine: Any, steps: int = 0):
        self.rules = rules
        self.engine = engine
        self.steps = steps

    def __getattr__(self, name: str) -> Any:  # what the engine state has besides (pile, compiled, ...)
        return getattr(self.engine, name)

    def __repr__(self) -> str:
        return f"{self.rules.name} state after {self.steps} steps"

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def turns(self) -> int:
        return self.engine.turns

    @property
    def winner(self) -> int | None:
        return self.engine.winner

    def current_player(self) -> int:
        return self.engine.current_player()

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def chance_outcomes(self) -> list[tuple[Any, int]]:
        return [(outcome, weight) for outcome, weight in self.engine.chance_outcomes() if weight]

    def legal_actions(self) -> Sequence[Any]:
        found: Sequence[Any] = self.engine.legal_actions()
        return found

    def apply_action(self, action: Any, decided: bool | None = None) -> None:
        self.engine.apply_action(action)
        self.steps += 1

    def ends_turn(self, action: Any) -> bool:
        """Whether applying ``action`` ends a turn: the engine counts one more after it, or the game ends
        (asked of a copy: the engines count their turns themselves, nothing asks this on the way)."""
        after = self.engine_clone()
        after.apply_action(action)
        return bool(after.turns > self.engine.turns or after.is_terminal())

    def returns(self) -> tuple[Fraction, ...]:
        winner = self.engine.winner if self.engine.is_terminal() else None
        return tuple(Fraction(int(seat == winner)) for seat in range(self.rules.players))

    def engine_clone(self) -> Any:
        """An independent copy of the engine state: its ``clone()``, else a deep copy."""
        engine = self.engine
        clone = getattr(type(engine), "clone", None)
        return engine.clone() if clone is not None else copy.deepcopy(engine)

    def clone(self) -> BuiltinState:
        return BuiltinState(self.rules, self.engine_clone(), self.steps)

    def key(self, *arguments: Any) -> Hashable:
        """The engine's ``key``, else (an engine without one) its attributes frozen, as a rules file's."""
        if hasattr(type(self.engine), "key"):
            found: Hashable = self.engine.key(*arguments)
            return found
        from toolkit.rules.guard import freeze

        return freeze(vars(self.engine))

    def score(self, player: int) -> int | Fraction | float | None:
        found = self.scores()
        return None if found is None else found[player]

    def scores(self) -> tuple[Any, ...] | None:
        scores = getattr(type(self.engine), "scores", None)
        return None if scores is None else tuple(self.engine.scores())

    def events(self) -> dict[str, int]:
        counters = getattr(type(self.engine), "counters", None)
        return {} if counters is None else dict(self.engine.counters())


if TYPE_CHECKING:  # the type checker holds the adapter to the contract (.ci/run: mypy)
    from toolkit.game import contract

    def _keeps_the_contract(game: BuiltinRules, state: BuiltinState,
                            player: EnginePolicy) -> tuple[contract.Game, contract.State, contract.Player]:
        return game, state, player
