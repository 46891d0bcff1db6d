"""Reference solvers of the solo Diamoniak model that only the tests use: two other exact methods the
tests hold ``toolkit.games.diamoniak.solo.solo_odds`` and its passes (``solo_passes``) to.

* ``epoch_pass`` pushes one pile's exact masses forward draw by draw in a plain dict loop: the same
  pass as ``solo_passes.whole_passes``, the reference it is held to;
* ``solve`` walks the draw-by-draw chain backwards, depth first, with gmpy2's mpq (``DEFAULT_NUMBER``),
  and hands the whole chain to ``Chain`` when it meets a cycle (``solve_general``; slow on large
  cyclic decks: a cross-check). benchmarks/bench_odds.py --backward times it.

Besides, ``decks`` draws small random solo decks, and ``engine_game`` is a solo deck as the game's own
engine plays it (the tests hold the model's draws and answers to the game's).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from toolkit.games.diamoniak.solo_model import DOOMED, WON, Epoch, SoloDeck, drawn_from, moves, pile_size
from toolkit.odds.chain import DEFAULT_NUMBER, Chain
from toolkit.walk.graph import TooManyStates


@dataclass(frozen=True)
class SoloAnswer:
    """Exact figures for one solo deck; ``expected_turns`` is None when a game may never end."""

    expected_turns: Fraction | None
    p_reshuffle: Fraction
    p_never: Fraction  # probability the castle can never be completed (a too-small colour)
    states: int
    method: str  # "acyclic walk" or "general solver"


class Cycle(Exception):
    pass


def solve(deck: SoloDeck, number=DEFAULT_NUMBER) -> SoloAnswer:
    """Expected turns, probability of a reshuffle and of a game that cannot end, all exact."""
    if deck.castle_total == 0:  # the game never ends: its first pile surely runs out
        return SoloAnswer(None, Fraction(int(deck.total > 0)), Fraction(1), 0, "no castle cards")
    try:
        return solve_acyclic(deck, number)
    except Cycle:
        return solve_general(deck)


def solve_acyclic(deck: SoloDeck, number) -> SoloAnswer:
    zero, one = number(0), number(1)
    # per state: (expected witches, P(reshuffle), P(doomed)); None while the state is being solved
    memo: dict = {WON: (zero, zero, zero), DOOMED: (zero, one, one)}

    def value(state):
        known = memo.get(state, False)
        if known is not False:
            if known is None:
                raise Cycle
            return known
        memo[state] = None
        witches = reshuffle = doomed = zero
        total = 0
        for weight, after, is_witch in moves(deck, state):
            e, r, d = value(after)
            total += weight
            witches += weight * (e + 1 if is_witch else e)
            reshuffle += weight * r
            doomed += weight * d
        if pile_size(deck, state) == 0:
            reshuffle = number(total)
        result = (witches / total, reshuffle / total, doomed / total)
        memo[state] = result
        return result

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        witches, reshuffle, doomed = value(deck.start())
    finally:
        sys.setrecursionlimit(limit)
    expected = None if doomed else Fraction(1) + Fraction(witches)
    return SoloAnswer(expected, Fraction(reshuffle), Fraction(doomed), len(memo) - 2, "acyclic walk")


def explore(deck: SoloDeck) -> dict:
    """Every state reachable from the start with its moves (for the general solver and for tests)."""
    graph, todo = {}, [deck.start()]
    while todo:
        state = todo.pop()
        if state in graph or state in (WON, DOOMED):
            continue
        graph[state] = moves(deck, state)
        todo.extend(after for _, after, _ in graph[state] if after not in graph)
    return graph


def solve_general(deck: SoloDeck) -> SoloAnswer:
    graph = explore(deck)
    transitions = {s: [(w, a) for w, a, _ in out] for s, out in graph.items()}
    transitions[DOOMED] = [(1, DOOMED)]  # a game that cannot end goes on forever
    start = deck.start()
    # reshuffles: a state with an empty pile is where one happens; stop the chain there
    until_reshuffle = {s: ([] if pile_size(deck, s) == 0 else t) for s, t in transitions.items() if s != DOOMED}
    until_reshuffle = {s: t for s, t in until_reshuffle.items() if t}
    p_reshuffle_or_doom = Chain({**until_reshuffle, DOOMED: [(1, "reshuffle")]})
    reshuffle = p_reshuffle_or_doom.absorption_probabilities(start)
    p_reshuffle = sum((p for s, p in reshuffle.items() if s != WON), Fraction(0))
    no_doom = {s: t for s, t in transitions.items() if s != DOOMED}
    ends = Chain(no_doom).absorption_probabilities(start)  # DOOMED is absorbing here
    p_never = ends.get(DOOMED, Fraction(0))
    expected = None
    if not p_never:
        witch_share = {s: Fraction(sum(w for w, _, is_witch in out if is_witch), sum(w for w, _, _ in out))
                       for s, out in graph.items()}
        expected = 1 + Chain(no_doom).expected_reward(start, lambda s: witch_share[s])
    return SoloAnswer(expected, p_reshuffle, p_never, len(graph), "general solver")


def epoch_pass(deck: SoloDeck, starts: dict, progress=None, limit: int | None = None) -> Epoch:
    """Push the exact probability of ``starts`` forward, draw by draw, until the pile is empty.

    Every draw takes one card off the pile, so states one draw apart sit one level apart. Masses
    are whole numbers over a denominator shared by a level (``D * n_max! / n!`` for pile size
    ``n``), so the loop only multiplies and adds integers. Every pile starts with all the witches,
    so the witches drawn so far in it are its witches minus those left. Past ``limit`` states it
    raises ``TooManyStates``.
    """
    n_max = deck.total
    denominator = _common_denominator(starts.values())
    levels: dict[int, dict] = {}
    for state, mass in starts.items():
        size = drawn_from(deck, state)[0]
        levels.setdefault(size, {})[state] = int(mass * denominator) * _falling(n_max, size)
    wins: dict[tuple[int, int], int] = {}  # (witches drawn, pile size after the draw) -> numerator
    doomed: dict[int, int] = {}
    seen = 0
    witches, fairies, takes, size_to_win = deck.witches, deck.fairies, deck.takes, deck.size
    for size in range(max(levels), 0, -1):
        below = levels.setdefault(size - 1, {})
        if progress:
            progress(1)
        current = levels.pop(size, {})
        seen += len(current)
        if limit is not None and seen > limit:
            raise TooManyStates(limit)
        known = below.get
        for state, mass in current.items():
            if state[0] == "pre":
                drawn = witches - state[2]
                for weight, after, _ in moves(deck, state):
                    if after is WON:
                        wins[drawn, size - 1] = wins.get((drawn, size - 1), 0) + mass * weight
                    elif after is DOOMED:
                        doomed[size - 1] = doomed.get(size - 1, 0) + mass * weight
                    else:
                        below[after] = known(after, 0) + mass * weight
                continue
            # The colour is fixed: the draws of ``moves``, written out here because this loop is the
            # hot path (a third faster). tests/test_odds.py holds both to the same exact answers.
            O, J, o, j, w, f, c, h, fh = state
            if o + j + w + f == 0:
                o, j, w, f = O - c, J - h, witches, fairies - fh
            drawn = witches - w
            if o:
                if c + 1 >= size_to_win:
                    wins[drawn, size - 1] = wins.get((drawn, size - 1), 0) + mass * o
                else:
                    after = (O, J, o - 1, j, w, f, c + 1, h, fh)
                    below[after] = known(after, 0) + mass * o
            if j:
                after = (O, J, o, j - 1, w, f, c, h + 1, fh)
                below[after] = known(after, 0) + mass * j
            if f:
                after = (O, J, o, j, w, f - 1, c, h, fh + 1)
                below[after] = known(after, 0) + mass * f
            if w:
                if fh:
                    after = (O, J, o, j, w - 1, f, c, h, fh - 1)
                else:
                    lost_junk = h if h < takes else takes
                    lost_own = c if c < takes - lost_junk else takes - lost_junk
                    after = (O, J, o, j, w - 1, f, c - lost_own, h - lost_junk, fh)
                below[after] = known(after, 0) + mass * w

    def share(numerator: int, size: int) -> Fraction:
        return Fraction(numerator, denominator * _falling(n_max, size))

    by_witches: dict[int, Fraction] = {}
    for (drawn, size), numerator in wins.items():
        by_witches[drawn] = by_witches.get(drawn, Fraction(0)) + share(numerator, size)
    return Epoch(
        wins=by_witches,
        doomed=sum((share(n, size) for size, n in doomed.items()), Fraction(0)),
        exits={state: share(mass, 0) for state, mass in levels.pop(0, {}).items()},
        states=seen,
    )


def _falling(n_max: int, n: int) -> int:
    """n_max! / n!"""
    return math.perm(n_max, n_max - n)


def _common_denominator(values) -> int:
    return math.lcm(*(value.denominator for value in values))


@st.composite
def decks(draw, most: int = 11):
    size = draw(st.integers(1, 3))
    counts = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    deck = SoloDeck(castles=tuple((f"c{i}", n) for i, n in enumerate(counts) if n),
                    diamonds=draw(st.integers(0, 3)), witches=draw(st.integers(0, 3)),
                    fairies=draw(st.integers(0, 2)), size=size, takes=draw(st.integers(1, 3)))
    if deck.total > most:
        deck = SoloDeck(deck.castles, min(deck.diamonds, 1), min(deck.witches, 2), min(deck.fairies, 1),
                        size, deck.takes)
    return deck


def engine_game(deck: SoloDeck):
    """The solo deck as the game's own engine plays it: one seat, a castle card type per colour."""
    from toolkit.games.diamoniak.engine import DiamoniakGame

    cards = [(colour, "castle", colour, n) for colour, n in deck.castles]
    cards += [("diamond", "diamond", None, deck.diamonds), ("witch", "witch", None, deck.witches),
              ("fairy", "fairy", None, deck.fairies)]
    names, kinds, colours, counts = zip(*cards)
    return DiamoniakGame(names, kinds, colours, counts, castle_size=deck.size, price=2, witch_takes=deck.takes)
