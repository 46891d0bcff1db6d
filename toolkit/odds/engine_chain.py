"""The questions asked of a whole game's chain under fixed players: the chance of each end, the chance it
never ends, the expected length and the distribution of the length (``solve``, ``chain_odds``,
``length_distribution``), and the chain in DRN (``chain_drn``).

The chain is the game walked with every decision played (``toolkit.walk.walker.build``: every chance point
a state, keyed by ``state.key()``, its outcomes with the engine's exact integer weights leading through the
players' decisions to the next chance point or the end, in an ``ArrayGraph``), solved by
``toolkit.odds.Chain``.

A game can also fail to end: the engine may stall (nobody can win any more), or play may reach
states from which no end can be reached at all (a loop). Both are absorbing here, as "never", so
the chance of each end stays exact; the expected number of turns is then infinite, and
``EngineAnswer.expected_turns`` is None rather than a finite number.

This is exact for any game the engine plays, but the number of states grows fast with the deck and
the players, so the walk stops at ``max_states`` and says so (``TooManyStates``); a chain that a
few sampled games already show to be far larger is not walked at all (``estimate_states``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from toolkit.odds.chain import Chain
from toolkit.walk import played
from toolkit.walk.graph import DONE, LOOP, STALLED, TooManyStates
from toolkit.walk.walker import ESTIMATE_FROM, advance, build, compiled_walker, estimate_states

@dataclass(frozen=True)
class EngineAnswer:
    expected_turns: Fraction | None  # None: with probability p_never > 0 the game never ends
    win_probability: tuple[Fraction, ...]  # per seat
    p_stalled: Fraction  # the game stalled: it can never end (no winner possible any more)
    p_never: Fraction  # the game never ends: stalled, or caught where no end can be reached
    p_done: Fraction  # the question's own end (``done``) was reached
    states: int
    ends: Mapping | None = None  # every absorbing key reached and its chance (``outcome``: the games' own ends)


def solve(start, policies, players: int, max_states: int = 200_000, done: Callable | None = None,
          progress=None, compiled: bool | None = None, outcome: Callable | None = None) -> EngineAnswer:
    """Exact win chances, the chance the game never ends, and expected turns (counted from 1).

    The expected turns are None whenever the game may never end (``p_never > 0``): a mean over the
    games that do end would not be the expected value, and the game's real expectation is infinite.
    ``compiled``: as ``build``'s (by default the compiled walk wherever it applies); ``outcome``: as
    ``build``'s (a seat's win chance is then the sum over the ends it won).
    """
    try:  # a small chain is walked at once; a larger one is estimated first
        transitions, start_key, turn_reward = build(start, policies, min(max_states, ESTIMATE_FROM), done, progress,
                                                   compiled=compiled, outcome=outcome)
    except TooManyStates:
        if max_states <= ESTIMATE_FROM:
            raise
        if compiled is None:  # past the engine's trial walk already: the compiled walk where it applies
            walker = compiled_walker(start, done)
            compiled = walker is not None and walker.applies(start, policies, done)
        estimate, games, uncounted = estimate_states(start, policies, max_states, done, progress=progress)
        if estimate > 2 * max_states:  # far enough over the limit that the estimate's error cannot matter
            basis = f"an estimate from {games:,} sampled games, made before walking"
            if uncounted:
                basis += " (at some chance point at most one pair of them met: the chain may be far larger)"
            raise TooManyStates(max_states, estimate, basis) from None
        transitions, start_key, turn_reward = build(start, policies, max_states, done, progress, compiled=compiled,
                                                   outcome=outcome)
    walked = len(transitions)
    if not transitions:  # the game is over (or can never go on) before the first chance point
        ends = {start_key: Fraction(1)}
    else:
        trapped = transitions.cannot_end()
        # no end can be reached from these: absorbed, and counted as "never"
        transitions = transitions.without(trapped)
        if start_key in trapped:
            ends = {LOOP: Fraction(1)}
        else:
            chain = Chain(transitions)
            ends = chain.absorption_probabilities(start_key)
            for key in trapped & set(ends):
                ends[LOOP] = ends.get(LOOP, Fraction(0)) + ends.pop(key)
    if outcome is None:
        wins = tuple(ends.get(("end", seat), Fraction(0)) for seat in range(players))
    else:
        wins = tuple(sum((p for end, p in ends.items() if end[0] == "end" and end[1] == seat), Fraction(0))
                     for seat in range(players))
    stalled = ends.get(STALLED, Fraction(0))
    never = stalled + ends.get(LOOP, Fraction(0))
    turns = None
    if not never:
        turns = Fraction(advance(start.clone(), policies).turns)
        if transitions:
            turns += chain.expected_reward(start_key, turn_reward.__getitem__)
    return EngineAnswer(turns, wins, stalled, never, ends.get(DONE, Fraction(0)), walked, ends)

# --- the chain of a game of the contract under named players -------------------------------------------

DISTRIBUTION_MASS = Fraction(999, 1000)  # the length distribution is listed until this much of it is told
MAX_LENGTH = 400  # ... or this length, whichever comes first


@dataclass(frozen=True)
class ChainOdds:
    unit: str  # "turns" or "steps"
    states: int  # chance points of the chain
    expected_length: Fraction | None  # None: the game may never end (then p_never > 0)
    win: tuple[Fraction, ...]  # per seat
    no_winner: Fraction  # the game ended without one winner (a draw, a shared win, a lost solo game)
    p_never: Fraction  # the game never ends
    ends: tuple[tuple[tuple[Fraction, ...], Fraction], ...]  # each distinct returns at the end and its chance
    distribution: tuple[Fraction, ...]  # P(length == t), t = 0, 1, ...
    beyond: Fraction  # the chance the game is longer than the distribution lists (or never ends)
    decisions: bool  # a seat was to decide somewhere (False: chance alone plays the game, the players never act)


def chain_odds(game, seats, max_states: int, progress=None, distribution: bool = True) -> ChainOdds:
    """The exact odds of ``game`` with ``seats`` (one policy per seat) playing; ``TooManyStates`` past
    ``max_states`` chance points."""
    met = played.Met()
    start = played.start_of(game, seats, met)
    seated = played.deciders(seats, start, met)
    answer = solve(start, seated, game.num_players(), max_states, progress=progress, outcome=played.returns_of)
    ends = {}
    for end, p in (answer.ends or {}).items():
        if end[0] == "end":
            ends[end[2]] = ends.get(end[2], Fraction(0)) + p
    win = answer.win_probability
    ended = sum(ends.values(), Fraction(0))
    listed, beyond = (), Fraction(1)
    if distribution:
        listed, beyond = length_distribution(start, seated, max_states)
    return ChainOdds(game.info().length_unit, answer.states, answer.expected_turns, win, ended - sum(win, Fraction(0)),
                     answer.p_never, tuple(sorted(ends.items(), key=lambda pair: (-pair[1], pair[0]))), listed, beyond,
                     met.decisions)


def length_distribution(start, deciders, max_states: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """P(length == t) for t = 0 .. T, T the first length by which ``DISTRIBUTION_MASS`` of the games
    have ended (at most ``MAX_LENGTH``), and the chance of a longer game (or of none ending)."""
    transitions, start_key, _ = build(start, deciders, max_states, outcome=played.returns_of, edge_turns=True)
    if not transitions:
        first = advance(start.clone(), deciders) if start_key != LOOP else start
        if start_key == LOOP or start_key[0] != "end":
            return (), Fraction(1)
        return tuple([Fraction(0)] * first.turns + [Fraction(1)]), Fraction(0)
    first_turns = advance(start.clone(), deciders).turns
    try:
        listed, beyond = transitions.turn_distribution(start_key, first_turns, MAX_LENGTH, DISTRIBUTION_MASS)
    except ValueError:  # a turn may go on for ever: no distribution by turns
        return (), Fraction(1)
    return tuple(listed), beyond


def chain_drn(game, seats, max_states: int, title: str) -> tuple[bytes, int]:
    """The chain behind ``chain_odds`` in Storm's explicit DRN (``toolkit.odds.drn.engine_drn``): its
    reward model counts the game's length (turns or steps)."""
    from toolkit.odds import drn

    met = played.Met()
    start = played.start_of(game, seats, met)
    seated = played.deciders(seats, start, met)
    transitions, start_key, turn_reward = build(start, seated, max_states, outcome=played.returns_of)
    first = advance(start.clone(), seated).turns if start_key != LOOP else 0
    comments = [f"{game.name}: {title}",
                f"reward 'turns': the game's length in {game.info().length_unit}; labels: win1 .. winN and end: that "
                "seat won; draw and end: the game ended without one winner; loop and never: the players decide "
                "for ever; never: no end can be reached"]
    return drn.engine_drn(transitions, start_key, turn_reward, first, comments)
