"""The Markov chain of a whole game, built by walking a rules engine with fixed policies.

Every chance point of the engine (a card to draw, a card to steal) becomes a state of the chain,
keyed by ``state.key()``; its outcomes, with the engine's exact integer weights, lead through the
policies' decisions to the next chance point or to the end. The chain then answers with
``toolkit.odds.Chain``: expected turns, and the chance that each seat wins.

A game can also fail to end: the engine may stall (nobody can win any more), or play may reach
states from which no end can be reached at all (a loop). Both are absorbing here, as "never", so
the chance of each end stays exact; the expected number of turns is then infinite, and
``EngineAnswer.expected_turns`` is None rather than a finite number.

This is exact for any game the engine plays, but the number of states grows fast with the deck and
the players, so the walk stops at ``max_states`` and says so (``TooManyStates``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from toolkit.games import CHANCE
from toolkit.odds.chain import Chain

STALLED = ("stalled",)  # the engine ended the game without a winner: it cannot be finished
LOOP = ("loop",)  # the policies kept deciding without a chance point or an end
DONE = ("done",)  # the question's own end (``done``) was reached without a winner


class TooManyStates(Exception):
    """The chain would be larger than the limit: exact solving is out of reach for this game.

    ``estimate``, when given, is what an estimate made before any work said the chain would need
    (the walk was then not started at all).
    """

    def __init__(self, limit: int, estimate: int | None = None):
        if estimate is None:
            text = f"more than {limit:,} states, the limit"
        else:
            text = f"up to {estimate:,} states by an estimate made before solving, over the limit of {limit:,}"
        super().__init__(text)
        self.limit = limit
        self.estimate = estimate


@dataclass(frozen=True)
class EngineAnswer:
    expected_turns: Fraction | None  # None: with probability p_never > 0 the game never ends
    win_probability: tuple[Fraction, ...]  # per seat
    p_stalled: Fraction  # the game stalled: it can never end (no winner possible any more)
    p_never: Fraction  # the game never ends: stalled, or caught where no end can be reached
    p_done: Fraction  # the question's own end (``done``) was reached
    states: int


class _Loop(Exception):
    pass


def _advance(state, policies, max_decisions: int = 10_000):
    """Apply the policies' decisions until a chance point or the end; ``_Loop`` if that never comes."""
    for _ in range(max_decisions):
        if state.is_terminal() or state.current_player() == CHANCE:
            return state
        state.apply_action(policies[state.current_player()].act(state))
    raise _Loop


def build(start, policies, max_states: int = 200_000, done: Callable | None = None, progress=None):
    """Walk the engine from ``start``; returns (transitions, start key, turn reward per state).

    Absorbing keys: ``("end", winner)`` for a won game, ``DONE`` when ``done(state)`` (e.g. "a first
    palace is complete") holds first, ``STALLED`` for a game the engine ended without a winner and
    ``LOOP`` for decisions that never reach chance or an end. ``progress(1)`` is called every 1,000
    states.
    """
    def end_key(state):
        if state.winner is not None:
            return ("end", state.winner)
        if done is not None and done(state):
            return DONE
        return STALLED

    def finished(state):
        return state.is_terminal() or (done is not None and done(state))

    def after_decisions(state):
        try:
            state = _advance(state, policies)
        except _Loop:
            return None, LOOP
        return state, (end_key(state) if finished(state) else None)

    first, start_key = after_decisions(start.clone())
    transitions: dict = {}
    turn_reward: dict = {}
    if start_key is not None:
        return transitions, start_key, turn_reward
    # Each key is kept once (``known`` maps a key to the tuple kept for it) and each state is queued
    # once: a state's successors refer to the same tuples, so memory grows by one key per state.
    start_key = first.key()
    known = {start_key: start_key}
    todo = [(start_key, first)]
    while todo:
        key, state = todo.pop()
        if len(transitions) >= max_states:
            raise TooManyStates(max_states)
        if progress and len(transitions) % 1000 == 999:
            progress(1)
        pairs, reward, total = [], 0, 0
        for outcome, weight in state.chance_outcomes():
            after = state.clone()
            after.apply_action(outcome)
            after, ended = after_decisions(after)
            total += weight
            if ended is LOOP:
                pairs.append((weight, LOOP))
                continue
            reward += weight * (after.turns - state.turns)
            if ended is not None:
                pairs.append((weight, ended))
                continue
            following = after.key()
            kept = known.get(following)
            if kept is None:
                kept = known[following] = following
                todo.append((following, after))
            pairs.append((weight, kept))
        transitions[key] = pairs
        turn_reward[key] = Fraction(reward, total)
    return transitions, start_key, turn_reward


def _cannot_end(transitions: dict) -> set:
    """The states from which no absorbing key can be reached: they are caught in a closed class of
    the chain, where play goes on for ever without the engine ever calling the game over."""
    into: dict = {}
    for key, pairs in transitions.items():
        for weight, target in pairs:
            if weight:
                into.setdefault(target, []).append(key)
    ends = {target for target in into if target not in transitions}
    reach, todo = set(ends), list(ends)
    while todo:
        for key in into.get(todo.pop(), ()):
            if key not in reach:
                reach.add(key)
                todo.append(key)
    return set(transitions) - reach


def solve(start, policies, players: int, max_states: int = 200_000, done: Callable | None = None,
          progress=None) -> EngineAnswer:
    """Exact win chances, the chance the game never ends, and expected turns (counted from 1).

    The expected turns are None whenever the game may never end (``p_never > 0``): a mean over the
    games that do end would not be the expected value, and the game's real expectation is infinite.
    """
    transitions, start_key, turn_reward = build(start, policies, max_states, done, progress)
    walked = len(transitions)
    if not transitions:  # the game is over (or can never go on) before the first chance point
        ends = {start_key: Fraction(1)}
    else:
        trapped = _cannot_end(transitions)
        for key in trapped:  # no end can be reached from here: absorbed, and counted as "never"
            del transitions[key]
        if start_key in trapped:
            ends = {LOOP: Fraction(1)}
        else:
            chain = Chain(transitions)
            ends = chain.absorption_probabilities(start_key)
            for key in trapped & set(ends):
                ends[LOOP] = ends.get(LOOP, Fraction(0)) + ends.pop(key)
    wins = tuple(ends.get(("end", seat), Fraction(0)) for seat in range(players))
    stalled = ends.get(STALLED, Fraction(0))
    never = stalled + ends.get(LOOP, Fraction(0))
    turns = None
    if not never:
        turns = Fraction(_advance(start.clone(), policies).turns)
        if transitions:
            turns += chain.expected_reward(start_key, turn_reward.__getitem__)
    return EngineAnswer(turns, wins, stalled, never, ends.get(DONE, Fraction(0)), walked)
