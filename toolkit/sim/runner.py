"""Play whole games with seeded randomness: chance by the engine's exact weights, decisions by policies.

``Stream`` is the random source of a game that is not dealt from a pile (a rules file's): a splitmix64
stream (``toolkit.sim.card_order``) whose ``randrange(n)`` is ``below(n)``, so that ``sample_outcome`` and
the players' ``act`` draw from it as they would from a ``random.Random``. A chance outcome is then "the
outcome where ``below(total)`` falls in the listed whole weights": the first outcome whose running sum of
weights passes the number drawn. The compiled loop of ``toolkit.rules.table_kernel`` draws the same way.
"""

from __future__ import annotations

import random

from toolkit.game.contract import CHANCE
from toolkit.sim.card_order import CardOrder, rule_seed

WORD = 1 << 64
SEAT_STREAM = 1  # ``rule_seed``'s ``which`` of a seat's own stream (the stream of its random choices)


class GameDidNotEnd(Exception):
    """A game ran past the safety limit of turns without a winner."""


class Stream(CardOrder):
    """A splitmix64 stream that draws as ``random.Random.randrange`` is asked to: ``randrange(n)`` is
    ``below(n)``. A number of 64 bits or more takes as many 64-bit draws as it has 64-bit words, the first
    one highest, and their number modulo ``n``; below ``2 ** 64`` that is one draw, ``next() % n``."""

    __slots__ = ()

    def below(self, n: int) -> int:
        if n < WORD:
            return self.next() % n
        value = 0
        for _ in range((n.bit_length() + 63) // 64):
            value = (value << 64) | self.next()
        return value % n

    randrange = below


def seat_streams(game_seed: int, players: int) -> list[Stream]:
    """Each seat's stream in the game seeded ``game_seed``: what a random player of that seat draws, apart
    from chance's stream and from the other seats', so that a change of player never changes the dice."""
    return [Stream(rule_seed(game_seed, 0, seat, SEAT_STREAM)) for seat in range(players)]


def sample_outcome(outcomes: list[tuple[object, int]], rng: random.Random | Stream):
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
