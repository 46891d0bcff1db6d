"""The built-in games through the rules interface: ``--rules diamoniak`` plays the registered game's engine
(``Game.make_game`` on the catalogue that ships with it) as a rules game, with the game's own players by
name (its policies module's ``parse``: ``default``, ``stop-after-3``, ...) beside ``random`` and ``first``.

The engines already keep the toolkit's conventions (CHANCE, TERMINAL, whole weights, ``key``, ``turns``,
``winner``); the adapter adds what a rules state has besides: ``returns()`` (1 for the winner, 0 for the
others), ``steps``, ``scores()`` and ``events()`` (the engine's counters). Anything else is the engine
state's own (``state.engine``, or read through the adapter), so a walk that knows an engine may use it.
"""

from __future__ import annotations

from fractions import Fraction

from toolkit.errors import UserError
from toolkit.rules.interface import DEFAULT_MAX_STEPS
from toolkit.rules.policy import Policy, standard_policies

PARAMETERS = ("players", "variants")


def builtin_game(game_id: str, params: dict, option: str = "--rules") -> BuiltinRules:
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
    return BuiltinRules(game, engine_game, game_id, players, variants, dict(params))


class BuiltinRules:
    """A registered game's engine as a ``RulesGame``."""

    def __init__(self, game, engine_game, spec: str, players: int, variants: tuple, params: dict):
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

    def num_players(self) -> int:
        return self.players

    def new_initial_state(self) -> BuiltinState:
        return BuiltinState(self, self.engine_game.new_initial_state())

    def action_name(self, player: int, action) -> str:
        """The action in words, as the game's package names it (``Game.action_name``)."""
        return self.registered.action_name(self.engine_game, action)

    def state_fields(self, state) -> tuple[tuple[str, ...], tuple] | None:
        """What a person reads of ``state`` (a ``BuiltinState``), as the game's package names it
        (``Game.state_fields``), or None where it names nothing."""
        return self.registered.state_fields(state.engine)

    def policies(self) -> dict:
        module = self.registered.policies()
        names = ["default", *getattr(module, "FIXED", {})]
        own = {name: self.policy(name) for name in names if name not in ("random", "first")}
        return {**standard_policies(), **own}

    def policy(self, name: str, option: str = "--policy"):
        standard = standard_policies()
        if name in standard:
            return standard[name]
        return EnginePolicy(self.registered.policies().parse(name, option))

    def description(self) -> str:
        variants = f", variants {'+'.join(self.variants)}" if self.variants else ""
        return f"{self.name} ({self.players} players{variants})"


class EnginePolicy(Policy):
    """A built-in game's player (``.act(engine_state)``), with the attributes the exact walk reads."""

    def __init__(self, rule):
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

    def act(self, state, rng=None):
        return self.rule.act(getattr(state, "engine", state))

    def distribution(self, state):
        return [(self.act(state), 1)]


class BuiltinState:
    """An engine state with a rules state's ``returns``, ``steps``, ``scores`` and ``events``."""

    __slots__ = ("rules", "engine", "steps")

    def __init__(self, rules: BuiltinRules, engine, steps: int = 0):
        self.rules = rules
        self.engine = engine
        self.steps = steps

    def __getattr__(self, name):  # what the engine state has besides (pile, compiled, ...)
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
        return self.engine.is_chance_node()

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def chance_outcomes(self):
        return [(outcome, weight) for outcome, weight in self.engine.chance_outcomes() if weight]

    def legal_actions(self):
        return self.engine.legal_actions()

    def apply_action(self, action, decided: bool | None = None) -> None:
        self.engine.apply_action(action)
        self.steps += 1

    def returns(self) -> tuple[Fraction, ...]:
        winner = self.engine.winner if self.engine.is_terminal() else None
        return tuple(Fraction(int(seat == winner)) for seat in range(self.rules.players))

    def clone(self) -> BuiltinState:
        return BuiltinState(self.rules, self.engine.clone(), self.steps)

    def key(self, *arguments):
        return self.engine.key(*arguments)

    def scores(self):
        return tuple(self.engine.scores())

    def events(self) -> dict[str, int]:
        return dict(self.engine.counters())
