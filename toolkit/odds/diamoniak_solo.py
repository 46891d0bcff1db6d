"""Solo Diamoniak as an exact Markov chain (shared/rules/diamoniak.md, "The solo model").

One player alone draws until a witch ends each turn. The first castle card fixes the colour; from
then on every diamond and every castle card of another colour is junk, so a state needs only counts:

* before the colour is fixed: ``("pre", j, w, f, h, fh)`` -- diamonds, witches and fairies in the
  pile, diamonds and fairies held (every castle card is still in the pile);
* after: ``(O, J, o, j, w, f, c, h, fh)`` -- the deck's own-colour and junk totals, then own cards,
  junk, witches and fairies in the pile, and own cards (the castle), junk and fairies held.

The discard is what is neither in the pile nor held. A state whose pile is empty reshuffles the
discard into a new pile when it draws. The chain's steps are single draws; the number of turns is
1 + the number of witches drawn before the castle is complete.

The draw-by-draw chain is acyclic for the built-in deck (the pile only shrinks between reshuffles),
so the solver walks it once, depth first, with exact rationals (gmpy2's mpq). Should a deck give a
cycle, the same chain is handed to the general solver, ``toolkit.odds.Chain``.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction

from toolkit.catalogue.model import Catalogue
from toolkit.odds.chain import DEFAULT_NUMBER, Chain

WON = "won"
DOOMED = "doomed"  # the fixed colour has fewer cards than a castle needs: the game cannot end


@dataclass(frozen=True)
class SoloDeck:
    """The numbers of the solo model, read from the catalogue (with any --set applied)."""

    castles: tuple[tuple[str, int], ...]  # (colour id, castle cards of that colour)
    diamonds: int
    witches: int
    fairies: int
    size: int  # castle cards that win
    takes: int  # cards a witch takes

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> SoloDeck:
        per_colour: dict[str, int] = {}
        for card in catalogue.of_kind("castle"):
            per_colour[card.colour] = per_colour.get(card.colour, 0) + card.count
        return cls(
            castles=tuple((colour, n) for colour, n in per_colour.items() if n),
            diamonds=catalogue.count_of_kind("diamond"),
            witches=catalogue.count_of_kind("witch"),
            fairies=catalogue.count_of_kind("fairy"),
            size=catalogue.rules["castle_size"],
            takes=catalogue.rules["witch_takes"],
        )

    @property
    def castle_total(self) -> int:
        return sum(n for _, n in self.castles)

    @property
    def total(self) -> int:
        return self.castle_total + self.diamonds + self.witches + self.fairies

    def start(self) -> tuple:
        return ("pre", self.diamonds, self.witches, self.fairies, 0, 0)

    def doomed_colours(self) -> list[tuple[str, int]]:
        return [(colour, n) for colour, n in self.castles if n < self.size]


def pile_size(deck: SoloDeck, state) -> int:
    if state[0] == "pre":
        _, j, w, f, _, _ = state
        return deck.castle_total + j + w + f
    _, _, o, j, w, f, _, _, _ = state
    return o + j + w + f


def drawn_from(deck: SoloDeck, state) -> tuple[int, int]:
    """(cards, witches) in the pile the next card is drawn from, after a reshuffle if it is empty."""
    if state[0] == "pre":
        _, j, w, f, _, _ = state
        return deck.castle_total + j + w + f, w
    O, J, o, j, w, f, c, h, fh = state
    if o + j + w + f == 0:
        return (O - c) + (J - h) + deck.witches + (deck.fairies - fh), deck.witches
    return o + j + w + f, w


def moves(deck: SoloDeck, state) -> list[tuple[int, object, bool]]:
    """The draws from ``state``: ``(weight, next state, is a witch)``; weights are card counts."""
    takes = deck.takes
    if state[0] == "pre":
        _, j, w, f, h, fh = state
        out = []
        if j:
            out.append((j, ("pre", j - 1, w, f, h + 1, fh), False))
        if f:
            out.append((f, ("pre", j, w, f - 1, h, fh + 1), False))
        if w:
            after = ("pre", j, w - 1, f, h, fh - 1) if fh else ("pre", j, w - 1, f, h - min(h, takes), fh)
            out.append((w, after, True))
        junk_castles = deck.castle_total
        for _, n in deck.castles:
            if n < deck.size:
                out.append((n, DOOMED, False))
            elif deck.size <= 1:
                out.append((n, WON, False))
            else:
                own_total, junk_total = n, deck.diamonds + junk_castles - n
                out.append((n, (own_total, junk_total, n - 1, j + junk_castles - n, w, f, 1, h, fh), False))
        return out
    O, J, o, j, w, f, c, h, fh = state
    if o + j + w + f == 0:  # reshuffle: the discard becomes the pile
        o, j, w, f = O - c, J - h, deck.witches, deck.fairies - fh
    out = []
    if o:
        out.append((o, WON if c + 1 >= deck.size else (O, J, o - 1, j, w, f, c + 1, h, fh), False))
    if j:
        out.append((j, (O, J, o, j - 1, w, f, c, h + 1, fh), False))
    if f:
        out.append((f, (O, J, o, j, w, f - 1, c, h, fh + 1), False))
    if w:
        if fh:
            after = (O, J, o, j, w - 1, f, c, h, fh - 1)
        else:
            lost_junk = min(h, takes)
            lost_own = min(c, takes - lost_junk)
            after = (O, J, o, j, w - 1, f, c - lost_own, h - lost_junk, fh)
        out.append((w, after, True))
    return out


@dataclass(frozen=True)
class SoloAnswer:
    """Exact figures for one solo deck; ``expected_turns`` is None when a game may never end."""

    expected_turns: Fraction | None
    p_reshuffle: Fraction
    p_never: Fraction  # probability the castle can never be completed (a too-small colour)
    states: int
    method: str  # "acyclic walk" or "general solver"


class _Cycle(Exception):
    pass


def solve(deck: SoloDeck, number=DEFAULT_NUMBER) -> SoloAnswer:
    """Expected turns, probability of a reshuffle and of a game that cannot end, all exact."""
    if deck.castle_total == 0:
        return SoloAnswer(None, Fraction(0), Fraction(1), 0, "no castle cards")
    try:
        return _solve_acyclic(deck, number)
    except _Cycle:
        return _solve_general(deck)


def _solve_acyclic(deck: SoloDeck, number) -> SoloAnswer:
    zero, one = number(0), number(1)
    # per state: (expected witches, P(reshuffle), P(doomed)); None while the state is being solved
    memo: dict = {WON: (zero, zero, zero), DOOMED: (zero, one, one)}

    def value(state):
        known = memo.get(state, False)
        if known is not False:
            if known is None:
                raise _Cycle
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


def _solve_general(deck: SoloDeck) -> SoloAnswer:
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


@dataclass(frozen=True)
class TurnsDistribution:
    """``p[t]`` = P(the castle is complete on turn t), exact, for t = 0 .. max_turns (p[0] = 0)."""

    p: list[Fraction]
    tail: Fraction  # P(more turns than the list covers)
    never: Fraction  # P(the castle can never be completed)
    p_reshuffle: Fraction = Fraction(0)  # P(the first pile runs out before the castle is complete)
    states: int = 0  # states the forward pass went through


def turns_distribution(deck: SoloDeck, max_turns: int | None = None, max_epochs: int = 64,
                       progress=None) -> TurnsDistribution:
    """Push the exact probability forward draw by draw, one pile (epoch) at a time.

    Every draw takes one card off the pile, so within an epoch all states one draw apart sit one
    level apart. Masses are whole numbers over a denominator shared by a level, ``D * n_max! / n!``
    for pile size ``n``, so the loop multiplies and adds integers and never reduces a fraction.
    Within a pile the witches drawn so far are known from the witches left in it (every new pile
    holds all the witches), so turn = 1 + witches * epoch + (witches - witches left).
    With ``max_turns`` None it runs until every game has ended (or ``max_epochs`` piles).
    ``progress(n)`` is told of every ``n`` levels done.
    """
    witches = deck.witches
    if deck.castle_total == 0:
        return TurnsDistribution([Fraction(0)], Fraction(0), Fraction(1))
    if not any(n >= deck.size for _, n in deck.castles):
        return TurnsDistribution([Fraction(0)], Fraction(0), Fraction(1))
    wins: dict[int, Fraction] = {}
    never = Fraction(0)
    n_max = deck.total
    frontier = {deck.start(): Fraction(1)}  # the states that start the next pile, with their probability
    epoch = 0
    p_reshuffle = Fraction(0)
    seen = 0
    while frontier and epoch < max_epochs and (max_turns is None or 1 + witches * epoch <= max_turns):
        denominator = _common_denominator(frontier.values())
        levels: dict[int, dict] = {}
        for state, mass in frontier.items():
            size = drawn_from(deck, state)[0]
            levels.setdefault(size, {})[state] = int(mass * denominator) * _falling(n_max, size)
        frontier = {}
        level_wins: dict[tuple[int, int], int] = {}  # (turn, pile size after the draw) -> numerator
        doomed: dict[int, int] = {}
        for size in range(max(levels), 0, -1):
            below = levels.setdefault(size - 1, {})
            if progress:
                progress(1)
            current = levels.pop(size)
            seen += len(current)
            for state, mass in current.items():
                witches_left = drawn_from(deck, state)[1]
                turn = 1 + witches * epoch + (witches - witches_left)
                for weight, after, _ in moves(deck, state):
                    gain = mass * weight
                    if after == WON:
                        key = (turn, size - 1)
                        level_wins[key] = level_wins.get(key, 0) + gain
                    elif after == DOOMED:
                        doomed[size - 1] = doomed.get(size - 1, 0) + gain
                    else:
                        below[after] = below.get(after, 0) + gain
        for state, mass in levels.pop(0, {}).items():
            frontier[state] = Fraction(mass, denominator * _falling(n_max, 0))
        if epoch == 0:
            p_reshuffle = sum(frontier.values(), Fraction(0))
        for (turn, size), numerator in level_wins.items():
            wins[turn] = wins.get(turn, Fraction(0)) + Fraction(numerator, denominator * _falling(n_max, size))
        for size, numerator in doomed.items():
            never += Fraction(numerator, denominator * _falling(n_max, size))
        epoch += 1
    last = max_turns if max_turns is not None else max(wins, default=0)
    p = [wins.get(t, Fraction(0)) for t in range(last + 1)]
    return TurnsDistribution(p, 1 - sum(p, Fraction(0)) - never, never, p_reshuffle, seen)


def _falling(n_max: int, n: int) -> int:
    """n_max! / n!"""
    return math.perm(n_max, n_max - n)


def _common_denominator(values) -> int:
    return math.lcm(*(value.denominator for value in values))
