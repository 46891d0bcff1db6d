"""The equilibrium of a large two-player zero-sum game of hidden information by CFR+, in compiled loops,
with the guaranteed bound of its answer.

CFR+ (O. Tammelin, N. Burch, M. Johanson and M. Bowling, "Solving heads-up limit Texas hold'em", IJCAI
2015): counterfactual regret minimisation with regret matching+ (the regrets kept at 0 and above), the
two seats updated in turn, and the average play weighted by the iteration's number. Each iteration is
two passes over the tree per seat (``_iterate``): the chance of reaching every node, then the values
from the ends up, each decision's regrets against the seat's current play.

The average play is not the equilibrium, only near it; how near is not guessed but measured. Seat 2's
best reply to seat 1's average play gives the least seat 1 can get playing it (a lower bound of the
value), seat 1's best reply to seat 2's the most (an upper bound): ``bounds``. The best replies are
computed in floats (``_best_reply``, each knowing only what its seat knows, as in
``toolkit.solve.extensive``), and each bound is moved outward by ``margin``, a bound on every rounding of
those sums (the standard error analysis of a sum of products: each node's sum of at most B terms is off
by at most B units in the last place of its magnitude, and the errors add up along the at most D steps
of a play, and over the choices of the best reply). So "between a and b" holds the value for certain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from toolkit.game.contract import CHANCE, TERMINAL

CHECK_EVERY = 100  # iterations between two measures of the bound (when a target is given)
UNIT = 2.0 ** -53


CHANCE_ = CHANCE  # the kinds of node, as the compiled loops read them (module constants)
TERMINAL_ = TERMINAL


@njit(cache=True)
def _iterate(kind, first, count, parent, infoset, end, chance, payoff, slot, done, steps, regret, average,
             strategy, reach_own, reach_other, values, gains):  # pragma: no cover - compiled
    n = len(kind)
    for step in range(steps):
        t = done + step + 1
        for seat in range(2):
            for i in range(len(slot) - 1):  # the current play, by regret matching+
                start, stop = slot[i], slot[i + 1]
                total = 0.0
                for s in range(start, stop):
                    total += regret[s]
                for s in range(start, stop):
                    strategy[s] = regret[s] / total if total > 0 else 1.0 / (stop - start)
            reach_own[0] = 1.0
            reach_other[0] = 1.0
            for c in range(1, n):
                p = parent[c]
                who = kind[p]
                if who == CHANCE_:
                    reach_own[c] = reach_own[p]
                    reach_other[c] = reach_other[p] * chance[c]
                else:
                    q = strategy[slot[infoset[p]] + c - first[p]]
                    if who == seat:
                        reach_own[c] = reach_own[p] * q
                        reach_other[c] = reach_other[p]
                    else:
                        reach_own[c] = reach_own[p]
                        reach_other[c] = reach_other[p] * q
            sign = 1.0 if seat == 0 else -1.0
            for s in range(len(gains)):
                gains[s] = 0.0
            for node in range(n - 1, -1, -1):
                who = kind[node]
                if who == TERMINAL_:
                    values[node] = sign * payoff[end[node]]
                    continue
                start = first[node]
                total = 0.0
                if who == CHANCE_:
                    for c in range(start, start + count[node]):
                        total += chance[c] * values[c]
                    values[node] = total
                    continue
                base = slot[infoset[node]]
                for a in range(count[node]):
                    total += strategy[base + a] * values[start + a]
                values[node] = total
                if who == seat:
                    r = reach_other[node]
                    w = reach_own[node] * t
                    for a in range(count[node]):
                        gains[base + a] += r * (values[start + a] - total)
                        average[base + a] += w * strategy[base + a]
            for s in range(len(gains)):
                if gains[s] != 0.0:
                    updated = regret[s] + gains[s]
                    regret[s] = updated if updated > 0 else 0.0
    return 0


@njit(cache=True)
def _best_reply(kind, first, count, parent, infoset, end, edge, payoff, slot, depth, player, seat,
                sign):  # pragma: no cover - compiled
    n = len(kind)
    reach = np.empty(n)
    reach[0] = 1.0
    for c in range(1, n):
        p = parent[c]
        reach[c] = reach[p] if kind[p] == seat else reach[p] * edge[c]
    top = -1
    for i in range(len(depth)):
        if player[i] == seat and depth[i] > top:
            top = depth[i]
    choice = np.zeros(len(depth), np.int64)
    sums = np.zeros(slot[-1])
    values = np.zeros(n)
    for level in range(top, -2, -1):  # the deepest information sets first; the last pass (-1) evaluates
        for node in range(n - 1, -1, -1):
            who = kind[node]
            if who == TERMINAL_:
                values[node] = sign * payoff[end[node]]
                continue
            start = first[node]
            if who == seat:
                i = infoset[node]
                if depth[i] > level:
                    values[node] = values[start + choice[i]]
                    continue
                if depth[i] == level:
                    r = reach[node]
                    for a in range(count[node]):
                        sums[slot[i] + a] += r * values[start + a]
                values[node] = 0.0
                continue
            total = 0.0
            for c in range(start, start + count[node]):
                total += edge[c] * values[c]
            values[node] = total
        for i in range(len(depth)):
            if player[i] == seat and depth[i] == level:
                best = 0
                for a in range(1, slot[i + 1] - slot[i]):
                    if sums[slot[i] + a] > sums[slot[i] + best]:
                        best = a
                choice[i] = best
    return values[0]


@dataclass
class Arrays:
    """A tree (``toolkit.rules.hidden.Tree``, two seats, no named player) as the compiled loops read it."""

    kind: np.ndarray
    first: np.ndarray
    count: np.ndarray
    parent: np.ndarray
    infoset: np.ndarray
    end: np.ndarray
    chance: np.ndarray  # per node: the chance of the edge into it from a chance node (else unread)
    payoff: np.ndarray  # per end: seat 1's payoff
    slot: np.ndarray  # per information set: its first slot; one more at the end: the number of slots
    depth: np.ndarray
    player: np.ndarray
    margin: float  # a bound on the rounding of one best reply's value


def arrays(tree, payoff) -> Arrays:
    kind = tree.kind.astype(np.int64)
    parent = tree.parent
    chance = np.ones(len(kind))
    up = parent[1:]
    chance[1:] = tree.weight[1:] / tree.total[up]
    slot = np.array([info.slot for info in tree.infosets] + [tree.slots], dtype=np.int64)
    depth = np.array([info.depth for info in tree.infosets], dtype=np.int64)
    player = np.array([info.player for info in tree.infosets], dtype=np.int64)
    pay = np.asarray(payoff, dtype=np.float64)
    # the rounding bound: D steps down a play, B terms a sum, S states an information set
    steps = _depth(tree)
    branching = int(tree.count.max()) if len(tree.count) else 1
    biggest = int(np.bincount(tree.infoset[tree.infoset >= 0]).max()) if len(tree.infosets) else 1
    scale = float(np.abs(pay).max()) if len(pay) else 0.0
    margin = 8 * steps * (steps * (2 * branching + 2) + biggest + 2) * UNIT * scale
    return Arrays(kind, tree.first, tree.count, parent, tree.infoset, tree.end, chance, pay, slot, depth, player,
                  margin)


def _depth(tree) -> int:
    depth = np.zeros(len(tree.kind), dtype=np.int64)
    parent = tree.parent
    for node in range(1, len(depth)):  # parents come first
        depth[node] = depth[parent[node]] + 1
    return int(depth.max()) + 1 if len(depth) else 1


@dataclass
class Solved:
    iterations: int
    lower: float  # the value is at least this (seat 2's best reply to seat 1's average play, rounded down)
    upper: float  # ... at most this
    average: np.ndarray  # per slot: the average play (normalised per information set)
    slot: np.ndarray
    players: np.ndarray

    def play(self, seat: int) -> list:
        out: list = [None] * len(self.average)
        for i in range(len(self.slot) - 1):
            if self.players[i] == seat:
                for s in range(self.slot[i], self.slot[i + 1]):
                    out[s] = float(self.average[s])
        return out


def normalised(average: np.ndarray, slot: np.ndarray) -> np.ndarray:
    out = np.empty_like(average)
    for i in range(len(slot) - 1):
        part = average[slot[i]:slot[i + 1]]
        total = part.sum()
        out[slot[i]:slot[i + 1]] = part / total if total > 0 else 1.0 / len(part)
    return out


def bounds(a: Arrays, play: np.ndarray) -> tuple[float, float]:
    """The value lies between these: seat 2's best reply to seat 1's ``play`` and seat 1's to seat 2's
    (``play`` per slot, both seats'), each moved outward by the rounding margin."""
    best_reply = _best_reply
    edge = a.chance.copy()
    decided = np.nonzero(a.kind[a.parent[1:]] >= 0)[0] + 1
    ups = a.parent[decided]
    edge[decided] = play[a.slot[a.infoset[ups]] + decided - a.first[ups]]
    seat2 = best_reply(a.kind, a.first, a.count, a.parent, a.infoset, a.end, edge, a.payoff, a.slot, a.depth,
                       a.player, 1, -1.0)
    seat1 = best_reply(a.kind, a.first, a.count, a.parent, a.infoset, a.end, edge, a.payoff, a.slot, a.depth,
                       a.player, 0, 1.0)
    return -seat2 - a.margin, seat1 + a.margin


def solve(tree, payoff, iterations: int | None = None, target: float | None = None,
          limit: int = 1_000_000) -> Solved:
    """CFR+ on ``tree`` with seat 1's ``payoff`` per end: ``iterations`` of them, or until the bound is
    narrower than ``target`` (measured every ``CHECK_EVERY`` iterations; at most ``limit``)."""
    a = arrays(tree, payoff)
    iterate = _iterate
    slots = int(a.slot[-1])
    regret = np.zeros(slots)
    average = np.zeros(slots)
    strategy = np.zeros(slots)
    n = len(a.kind)
    reach_own, reach_other, values, gains = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(slots)
    if iterations is None and target is None:
        target = 1e-6 * max(1.0, float(np.abs(a.payoff).max()) if len(a.payoff) else 1.0)
    done = 0
    low, high = -math.inf, math.inf
    while True:
        steps = iterations - done if iterations is not None else CHECK_EVERY
        if target is not None:
            steps = min(steps, CHECK_EVERY)
        steps = min(steps, limit - done)
        if steps > 0:
            iterate(a.kind, a.first, a.count, a.parent, a.infoset, a.end, a.chance, a.payoff, a.slot, done, steps,
                    regret, average, strategy, reach_own, reach_other, values, gains)
            done += steps
        if target is not None or done >= (iterations or 0) or done >= limit:
            low, high = bounds(a, normalised(average, a.slot))
            if (target is not None and high - low <= target) or done >= limit or \
                    (iterations is not None and done >= iterations):
                break
    return Solved(done, low, high, normalised(average, a.slot), a.slot, a.player)
