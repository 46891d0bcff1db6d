"""The Markov chain of a whole game, built by walking a rules engine with fixed policies.

Every chance point of the engine (a card to draw, a card to steal) becomes a state of the chain,
keyed by ``state.key()``; its outcomes, with the engine's exact integer weights, lead through the
policies' decisions to the next chance point or to the end. The chain then answers with
``toolkit.odds.Chain``: expected turns, and the chance that each seat wins.

This is exact for any game the engine plays, but the number of states grows fast with the deck and
the players, so the walk stops at ``max_states`` and says so (``TooManyStates``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from toolkit.games import CHANCE
from toolkit.odds.chain import Chain


class TooManyStates(Exception):
    """The chain would be larger than the limit: exact solving is out of reach for this game."""

    def __init__(self, limit: int):
        super().__init__(f"more than {limit:,} chance states")
        self.limit = limit


@dataclass(frozen=True)
class EngineAnswer:
    expected_turns: Fraction
    win_probability: tuple[Fraction, ...]  # per seat
    p_stalled: Fraction  # the game ended without a winner
    states: int


def _advance(state, policies, max_decisions: int = 10_000):
    """Apply the policies' decisions until a chance point or the end."""
    for _ in range(max_decisions):
        if state.is_terminal() or state.current_player() == CHANCE:
            return state
        state.apply_action(policies[state.current_player()].act(state))
    raise RuntimeError("the policies took too many decisions without chance or an end")


def build(start, policies, max_states: int = 200_000, done: Callable | None = None, progress=None):
    """Walk the engine from ``start``; returns (transitions, start key, turn reward per state, ends).

    ``done(state)`` may end the walk early (e.g. "a first palace is complete"); an ended state is
    absorbing, keyed ``("end", winner)`` (``winner`` None for a stalled game or an early end).
    ``progress(1)`` is called every 1,000 states.
    """
    def end_key(state):
        return ("end", state.winner)

    def finished(state):
        return state.is_terminal() or (done is not None and done(state))

    first = _advance(start.clone(), policies)
    start_key = end_key(first) if finished(first) else first.key()
    transitions: dict = {}
    turn_reward: dict = {}
    todo = [] if finished(first) else [first]
    while todo:
        state = todo.pop()
        key = state.key()
        if key in transitions:
            continue
        if len(transitions) >= max_states:
            raise TooManyStates(max_states)
        if progress and len(transitions) % 1000 == 999:
            progress(1)
        pairs, reward, total = [], 0, 0
        for outcome, weight in state.chance_outcomes():
            after = state.clone()
            after.apply_action(outcome)
            _advance(after, policies)
            reward += weight * (after.turns - state.turns)
            total += weight
            if finished(after):
                pairs.append((weight, end_key(after)))
            else:
                pairs.append((weight, after.key()))
                if after.key() not in transitions:
                    todo.append(after)
        transitions[key] = pairs
        turn_reward[key] = Fraction(reward, total)
    return transitions, start_key, turn_reward


def solve(start, policies, players: int, max_states: int = 200_000, done: Callable | None = None,
          progress=None) -> EngineAnswer:
    """Exact expected turns (counted from 1) and win chances for a game played by ``policies``."""
    transitions, start_key, turn_reward = build(start, policies, max_states, done, progress)
    first_turns = _advance(start.clone(), policies).turns
    if not transitions:
        winner = start_key[1]
        wins = tuple(Fraction(int(seat == winner)) for seat in range(players))
        return EngineAnswer(Fraction(first_turns), wins, Fraction(int(winner is None)), 0)
    chain = Chain(transitions)
    turns = first_turns + chain.expected_reward(start_key, lambda key: turn_reward[key])
    ends = chain.absorption_probabilities(start_key)
    wins = tuple(ends.get(("end", seat), Fraction(0)) for seat in range(players))
    return EngineAnswer(turns, wins, ends.get(("end", None), Fraction(0)), len(transitions))
