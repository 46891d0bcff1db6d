"""Play whole games with seeded randomness: chance by the engine's exact weights, decisions by policies."""

from __future__ import annotations

import random

from toolkit.game.contract import CHANCE


class GameDidNotEnd(Exception):
    """A game ran past the safety limit of turns without a winner."""


def sample_outcome(outcomes: list[tuple[object, int]], rng: random.Random):
    """Pick one outcome with probability weight / total weight."""
    total = sum(weight for _, weight in outcomes)
    r = rng.randrange(total)
    for outcome, weight in outcomes:
        r -= weight
        if r < 0:
            return outcome
    raise AssertionError("weights changed while sampling")


def play(state, policies, rng: random.Random, max_turns: int = 10_000, stop=None):
    """Play ``state`` to its end (or until ``stop(state)``) in place; ``policies[p].act(state)`` decides for seat p."""
    while not state.is_terminal() and not (stop is not None and stop(state)):
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(policies[player].act(state))
            if state.turns > max_turns:
                raise GameDidNotEnd(f"no winner after {max_turns} turns")
    return state
