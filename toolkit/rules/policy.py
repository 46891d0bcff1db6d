"""The players of a rules game: ``random`` (every legal action equally likely), ``first`` (the first
legal action) and the game's own (``policies()``: functions of a state, one action each).

A ``Policy`` gives its choice as a distribution, ``[(action, whole-number weight)]``, one pair for a
deterministic player, so that the exact walk treats a random player as a chance point; ``act`` samples
it with the game's random generator. The attributes ``toolkit.walk.walker`` reads
(``deterministic``, ``ignores``, ``colours_alike``, ``decides_slowly``) say what the walk may assume.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod


class Policy(ABC):
    """A player: ``distribution(state)`` is what it may do, ``act(state, rng)`` what it does."""

    deterministic = True  # the same state, the same action
    ignores: frozenset[str] = frozenset()
    colours_alike = False
    decides_slowly = False

    def __init__(self, name: str):
        self.name = name

    @abstractmethod
    def distribution(self, state) -> list[tuple[object, int]]:
        """What the player may do in ``state``: ``[(action, whole-number weight)]``."""

    def act(self, state, rng: random.Random | None = None):
        choices = self.distribution(state)
        if len(choices) == 1:
            return choices[0][0]
        if rng is None:
            raise ValueError(f"the player {self.name} draws at random: give it a random generator")
        from toolkit.sim.runner import sample_outcome

        return sample_outcome(choices, rng)


class RandomPolicy(Policy):
    """Every legal action equally likely: a beginner."""

    deterministic = False

    def __init__(self):
        super().__init__("random")

    def distribution(self, state):
        return [(action, 1) for action in state.legal_actions()]

    def act(self, state, rng=None):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if rng is None:
            raise ValueError("the random player draws at random: give it a random generator")
        return actions[rng.randrange(len(actions))]


class FirstPolicy(Policy):
    """The first legal action, always."""

    def __init__(self):
        super().__init__("first")

    def distribution(self, state):
        return [(state.legal_actions()[0], 1)]

    def act(self, state, rng=None):
        return state.legal_actions()[0]


class OwnPolicy(Policy):
    """One of the game's own players: ``function(state) -> action`` on the user's state."""

    def __init__(self, rules, name: str, function):
        super().__init__(name)
        self.rules = rules
        self.function = function

    def act(self, state, rng=None):
        inner = state.inner
        try:
            action = self.function(inner)
        except BaseException as err:  # noqa: BLE001 - the user's code: one line (see toolkit.rules.contain)
            raise self.rules.failure(inner, f"policy '{self.name}'", self.function, err) from None
        legal = state.legal_actions()
        if action not in legal:
            raise self.rules.wrong(inner, f"policy '{self.name}'", self.function,
                                   f"chose {action!r}, which is not one of legal_actions() {legal!r}")
        return action

    def distribution(self, state):
        return [(self.act(state), 1)]


def standard_policies() -> dict[str, Policy]:
    return {"random": RandomPolicy(), "first": FirstPolicy()}


def own_policies(rules) -> dict[str, Policy]:
    """The game's ``policies()``: name -> function of a state."""
    game = rules.game
    if not hasattr(game, "policies"):
        return {}
    found = rules.call(None, "policies", game.policies)
    if not isinstance(found, dict):
        raise rules.wrong(None, "policies", game.policies, f"gave {type(found).__name__}: expected a dict of name -> "
                                                           "function(state)")
    out = {}
    for name, function in found.items():
        if not isinstance(name, str) or not name or not callable(function):
            raise rules.wrong(None, "policies", game.policies, f"gave {name!r}: expected a name and a function(state)")
        if name in ("random", "first"):
            raise rules.wrong(None, "policies", game.policies, f"names a player '{name}': the toolkit's own has that "
                                                               "name; call it something else")
        out[name] = OwnPolicy(rules, name, function)
    return out
