"""The questions asked of a whole game's chain under fixed players, as functions of the walked graph's
arrays: the chance of each end, the chance it never ends, the expected length and the distribution of the
length (``answer``; ``chain_odds`` for a game of the contract), and the chain in DRN (``chain_drn``).

The chain is the game walked with every decision played (``walk``: ``toolkit.walk.walker.build``, every
chance point a node, its outcomes with the engine's exact integer weights leading through the players'
decisions to the next chance point or the end, in an ``ArrayGraph``), solved by ``toolkit.odds.Chain``.

A game can also fail to end: the engine may stall (nobody can win any more), or play may reach
states from which no end can be reached at all (a loop). Both are absorbing here, as "never", so
the chance of each end stays exact; the expected length is then infinite, and
``ChainOdds.expected_length`` is None rather than a finite number.

This is exact for any game the engine plays, but the number of states grows fast with the deck and
the players, so the walk stops at ``max_states`` and says so (``TooManyStates``); a chain that a
few sampled games already show to be far larger is not walked at all (``estimate_states``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable

from toolkit.odds.chain import Chain
from toolkit.walk import played
from toolkit.walk.graph import DONE, LOOP, STALLED, TooManyStates
from toolkit.walk.walker import ESTIMATE_FROM, Walked, build, compiled_walker, estimate_states

DISTRIBUTION_MASS = Fraction(999, 1000)  # the length distribution is listed until this much of it is told
MAX_LENGTH = 400  # ... or this length, whichever comes first


@dataclass(frozen=True)
class ChainOdds:
    states: int  # chance points of the chain
    expected_length: Fraction | None  # None: the game may never end (then p_never > 0)
    win: tuple[Fraction, ...]  # per seat
    p_never: Fraction  # the game never ends: stalled, or caught where no end can be reached
    p_stalled: Fraction  # the game stalled: it can never end (no winner possible any more)
    p_done: Fraction  # the question's own end (``done``) was reached
    ends: Mapping  # every absorbing end reached and its chance (``LOOP`` for those from which none can be)
    distribution: tuple[Fraction, ...] = ()  # P(length == t), t = 0, 1, ... (when asked for)
    beyond: Fraction = Fraction(1)  # the chance the game is longer than the distribution lists (or never ends)
    unit: str = "turns"  # what the length counts: "turns" or "steps"
    decisions: bool = True  # a seat was to decide somewhere (False: chance alone plays the game)
    walked: Walked | None = field(default=None, compare=False, repr=False)  # the chain itself

    @property
    def returns(self) -> tuple[tuple[tuple[Fraction, ...], Fraction], ...]:
        """Each distinct returns at the end and its chance, the likeliest first (a game of one's own)."""
        found: dict = {}
        for end, p in self.ends.items():
            if end[0] == "end":
                found[end[2]] = found.get(end[2], Fraction(0)) + p
        return tuple(sorted(found.items(), key=lambda pair: (-pair[1], pair[0])))

    @property
    def no_winner(self) -> Fraction:
        """The chance the game ended without one winner (a draw, a shared win, a lost solo game)."""
        return sum((p for _, p in self.returns), Fraction(0)) - sum(self.win, Fraction(0))


def walk(start, policies, max_states: int = 200_000, done: Callable | None = None, progress=None,
         compiled: bool | None = None, outcome: Callable | None = None, edge_turns: bool = False) -> Walked:
    """``build``'s chain, a larger one only after an estimate says it may fit (``TooManyStates`` past
    ``max_states``). ``compiled``, ``outcome``, ``edge_turns``: as ``build``'s."""
    options = {"compiled": compiled, "outcome": outcome, "edge_turns": edge_turns}
    try:  # a small chain is walked at once; a larger one is estimated first
        return build(start, policies, min(max_states, ESTIMATE_FROM), done, progress, **options)
    except TooManyStates:
        if max_states <= ESTIMATE_FROM:
            raise
    if compiled is None:  # past the engine's trial walk already: the compiled walk where it applies
        walker = compiled_walker(start, done)
        options["compiled"] = walker is not None and walker.applies(start, policies, done)
    estimate, games, uncounted = estimate_states(start, policies, max_states, done, progress=progress)
    if estimate > 2 * max_states:  # far enough over the limit that the estimate's error cannot matter
        basis = f"an estimate from {games:,} sampled games, made before walking"
        if uncounted:
            basis += " (at some chance point at most one pair of them met: the chain may be far larger)"
        raise TooManyStates(max_states, estimate, basis) from None
    return build(start, policies, max_states, done, progress, **options)


def answer(walked: Walked, players: int, distribution: bool = False) -> ChainOdds:
    """Exact win chances, the chance the game never ends, the expected length (counted from the turn the
    chain starts at) and, with ``distribution``, the length's distribution (a walk with ``edge_turns``).

    The expected length is None whenever the game may never end (``p_never > 0``): a mean over the
    games that do end would not be the expected value, and the game's real expectation is infinite.
    A seat's win chance is the sum over the ends it won."""
    graph, start = walked.graph, walked.start
    chain = None
    if not len(graph):  # the game is over (or can never go on) before the first chance point
        ends = {start: Fraction(1)}
    else:
        trapped = graph.cannot_end()  # no end can be reached from these: absorbed, and counted as "never"
        if start in trapped:
            ends = {LOOP: Fraction(1)}
        else:
            chain = Chain(graph, absorbing=trapped)
            ends = chain.absorption_probabilities(start)
            for key in trapped & set(ends):
                ends[LOOP] = ends.get(LOOP, Fraction(0)) + ends.pop(key)
    win = tuple(sum((p for end, p in ends.items() if end[0] == "end" and end[1] == seat), Fraction(0))
                for seat in range(players))
    stalled = ends.get(STALLED, Fraction(0))
    never = stalled + ends.get(LOOP, Fraction(0))
    length = None
    if not never:
        length = Fraction(walked.first_turns)
        if chain is not None:
            length += chain.expected_reward(start, graph.turn_reward)
    listed, beyond = length_distribution(walked) if distribution else ((), Fraction(1))
    return ChainOdds(len(graph), length, win, never, stalled, ends.get(DONE, Fraction(0)), ends, listed, beyond,
                     walked=walked)


def length_distribution(walked: Walked) -> tuple[tuple[Fraction, ...], Fraction]:
    """P(length == t) for t = 0 .. T, T the first length by which ``DISTRIBUTION_MASS`` of the games
    have ended (at most ``MAX_LENGTH``), and the chance of a longer game (or of none ending)."""
    start = walked.start
    if not len(walked.graph):
        if start == LOOP or start[0] != "end":
            return (), Fraction(1)
        return (Fraction(0),) * walked.first_turns + (Fraction(1),), Fraction(0)
    try:
        listed, beyond = walked.graph.turn_distribution(start, walked.first_turns, MAX_LENGTH, DISTRIBUTION_MASS)
    except ValueError:  # a turn may go on for ever: no distribution by turns
        return (), Fraction(1)
    return tuple(listed), beyond


# --- the chain of a game of the contract under named players -------------------------------------------

def chain_odds(game, seats, max_states: int, progress=None, distribution: bool = True) -> ChainOdds:
    """The exact odds of ``game`` with ``seats`` (one policy per seat) playing; ``TooManyStates`` past
    ``max_states`` chance points."""
    met = played.Met()
    start = played.start_of(game, seats, met)
    walked = walk(start, played.deciders(seats, start, met), max_states, progress=progress,
                  outcome=played.returns_of, edge_turns=distribution)
    odds = answer(walked, game.num_players(), distribution)
    return replace(odds, unit=counted_unit(game), decisions=met.decisions)


def counted_unit(game) -> str:
    """What a walk or a play of ``game`` counts its length in: a state's ``turns``, which are steps in a
    game whose every step is a turn; a game that reports rounds (a built-in one for two or more seats)
    still counts the turns of all seats together here."""
    return "steps" if game.info().length_unit == "steps" else "turns"


def chain_drn(walked: Walked, game, title: str) -> tuple[bytes, int]:
    """The chain behind ``chain_odds`` in Storm's explicit DRN (``toolkit.odds.drn.engine_drn``): its
    reward model counts the game's length (turns or steps)."""
    from toolkit.odds import drn

    comments = [f"{game.name}: {title}",
                f"reward 'turns': the game's length in {counted_unit(game)}; labels: win1 .. winN and end: that "
                "seat won; draw and end: the game ended without one winner; loop and never: the players decide "
                "for ever; never: no end can be reached"]
    return drn.engine_drn(walked, comments)
