"""Exact play on a game tree of hidden information (``toolkit.rules.hidden.Tree``), in fractions.

A behaviour of the seats is one probability per action slot of every information set (``strategy``:
``strategy[info.slot + a]``); chance outcomes and named players' choices are the tree's own weights.
``edge_chances`` turns a behaviour into the chance of every edge of the tree; ``value`` is a seat's
expected payoff when everybody plays so; ``best_reply`` is a seat's best reply knowing only what the
seat knows: one action per information set of the seat, the same at every state of the set.

The best reply is found level by level (the seat's own moves before an information set: its depth).
With perfect recall, what follows an information set of depth d holds only sets of greater depth, so
once their choices are fixed, the value of every action at the sets of depth d is known: the sum, over
the set's states, of the chance that the others and chance lead there times the value after the action.
Each set takes the action of the highest such sum (the first among equals); then depth d - 1, down to 0.
All of it in exact fractions (gmpy2's ``mpq``): the payoff of the best reply is exact, and the proof of
an equilibrium's value (the two best replies meeting at it) is exact too.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gmpy2 import mpq

from toolkit.game.contract import CHANCE, TERMINAL


def to_fraction(value: Any) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def edge_chances(tree, strategy: Sequence[Any] | None) -> list:
    """The chance of the edge into every node (``mpq``): a chance outcome's, a named player's choice's,
    else ``strategy``'s for the action (None where no strategy is given: the seat's own choice)."""
    kind, first, count, weight, total, infoset, named = (tree.kind.tolist(), tree.first.tolist(), tree.count.tolist(),
                                                         tree.weight.tolist(), tree.total.tolist(),
                                                         tree.infoset.tolist(), tree.named.tolist())
    out: list = [None] * len(kind)
    out[0] = mpq(1)
    infosets = tree.infosets
    for node, who in enumerate(kind):
        if who == TERMINAL:
            continue
        start, stop = first[node], first[node] + count[node]
        if who == CHANCE or named[node]:
            whole = total[node]
            for child in range(start, stop):
                out[child] = mpq(weight[child], whole)
        elif strategy is not None:
            slot = infosets[infoset[node]].slot
            for a, child in enumerate(range(start, stop)):
                out[child] = strategy[slot + a]
    return out


def value(tree, chances: list, payoff: Sequence[Any]) -> Any:
    """The expected payoff (``payoff[end]`` at each end) with every edge taken at ``chances``."""
    kind, first, count, end = tree.kind.tolist(), tree.first.tolist(), tree.count.tolist(), tree.end.tolist()
    values: list = [None] * len(kind)
    for node in range(len(kind) - 1, -1, -1):
        if kind[node] == TERMINAL:
            values[node] = payoff[end[node]]
            continue
        start = first[node]
        total = mpq(0)
        for child in range(start, start + count[node]):
            p = chances[child]
            if p:
                total += p * values[child]
        values[node] = total
    return values[0]


def best_reply(tree, seat: int, chances: list, payoff: Sequence[Any]) -> tuple[Any, list[int]]:
    """Seat ``seat``'s best reply to the others playing ``chances`` (every edge not the seat's own): its
    expected payoff (``payoff[end]``, exact) and its choice per information set (-1: not the seat's)."""
    kind, first, count, end, infoset, parent = (tree.kind.tolist(), tree.first.tolist(), tree.count.tolist(),
                                                tree.end.tolist(), tree.infoset.tolist(), tree.parent.tolist())
    infosets = tree.infosets
    n = len(kind)
    reach: list = [None] * n  # the chance that the others and chance lead to the node
    reach[0] = mpq(1)
    for node in range(1, n):
        up = parent[node]
        reach[node] = reach[up] if kind[up] == seat else reach[up] * chances[node]
    depth = {i: info.depth for i, info in enumerate(infosets) if info.player == seat}
    choice = [-1] * len(infosets)
    top = max(depth.values(), default=-1)
    values: list = [mpq(0)] * n
    for level in range(top, -2, -1):  # the last pass (-1) evaluates the whole reply
        sums: dict[int, list] = {}
        for node in range(n - 1, -1, -1):
            who = kind[node]
            if who == TERMINAL:
                values[node] = payoff[end[node]]
                continue
            start = first[node]
            if who == seat:
                i = infoset[node]
                d = depth[i]
                if d > level:
                    values[node] = values[start + choice[i]]
                    continue
                if d == level and reach[node]:
                    row = sums.get(i)
                    if row is None:
                        row = sums[i] = [mpq(0)] * count[node]
                    r = reach[node]
                    for a in range(count[node]):
                        row[a] += r * values[start + a]
                values[node] = mpq(0)
                continue
            total = mpq(0)
            for child in range(start, start + count[node]):
                p = chances[child]
                if p:
                    total += p * values[child]
            values[node] = total
        for i, d in depth.items():
            if d == level:
                row = sums.get(i)
                choice[i] = 0 if row is None else _first_best(row)
    return values[0], choice


def _first_best(row: list) -> int:
    """The first place of the largest value."""
    best = 0
    for a in range(1, len(row)):
        if row[a] > row[best]:
            best = a
    return best


def pure(tree, seat: int, choice: list[int]) -> list:
    """A seat's choice per information set as a behaviour over the slots of every seat's sets (``mpq``
    1 or 0 on the seat's, None on the others')."""
    strategy: list = [None] * tree.slots
    for i, info in enumerate(tree.infosets):
        if info.player == seat:
            for a in range(len(info.actions)):
                strategy[info.slot + a] = mpq(int(a == choice[i]))
    return strategy


def merged(tree, *strategies: list) -> list:
    """One behaviour over every slot from several, each giving some seats' slots (None elsewhere)."""
    out: list = [None] * tree.slots
    for strategy in strategies:
        for slot, p in enumerate(strategy):
            if p is not None:
                out[slot] = p
    return out
