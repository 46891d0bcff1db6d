"""Interval iteration on a walked game, component by component, and the choices its values point to
(numba, compiled on first use and cached).

The graph is given per node: ``first[n] .. stop[n] - 1`` its edges (``target``, ``prob`` for a chance
node, ``cost`` collected on the edge), ``sense[n]`` what the node does with its edges' values: ``0``
averages them by ``prob`` (chance, or a fixed choice: probability 1 on one edge), ``1`` takes the largest,
``-1`` the smallest, ``2`` is an end (its value ``payoff[n]``). The components come from
``toolkit.solve.scc.components``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Sweeps without a smaller largest change after which ``value_iteration`` takes its values as settled.
STALL = 64


@njit(cache=True)
def _backup(node, first, stop, target, prob, cost, sense, values):
    s = sense[node]
    if s == 0:
        total = 0.0
        for edge in range(first[node], stop[node]):
            total += prob[edge] * (cost[edge] + values[target[edge]])
        return total
    best = cost[first[node]] + values[target[first[node]]]
    for edge in range(first[node] + 1, stop[node]):
        value = cost[edge] + values[target[edge]]
        if (s == 1 and value > best) or (s == -1 and value < best):
            best = value
    return best


@njit(cache=True)
def _loops(node, first, stop, target):
    """Whether ``node`` has an edge to itself (a component of one node is then solved by sweeps too)."""
    for edge in range(first[node], stop[node]):
        if target[edge] == node:
            return True
    return False


@njit(cache=True)
def interval_iteration(first, stop, target, prob, cost, sense, payoff, members, starts, lowest, highest, upper,
                       eps, max_sweeps):
    """(lower bounds, upper bounds, sweeps done) of every node's value, component by component in the
    order given (successors first): the lower bounds start at ``lowest``, the upper at ``highest`` (when
    ``upper``; else they are the lower ones), and Gauss-Seidel sweeps over the component's nodes
    improve both until they are within ``eps`` of each other (or ``max_sweeps`` sweeps; without
    ``upper``: until a sweep changes no value by more than ``eps``)."""
    n = first.shape[0]
    low = np.empty(n, np.float64)
    high = np.empty(n, np.float64)
    sweeps = 0
    for c in range(starts.shape[0] - 1):
        begin, end = starts[c], starts[c + 1]
        if end - begin == 1 and not _loops(members[begin], first, stop, target):
            node = members[begin]
            if sense[node] == 2:
                low[node] = payoff[node]
                high[node] = payoff[node]
            else:
                low[node] = _backup(node, first, stop, target, prob, cost, sense, low)
                high[node] = _backup(node, first, stop, target, prob, cost, sense, high) if upper else low[node]
            continue
        for k in range(begin, end):
            low[members[k]] = lowest
            high[members[k]] = highest
        for _ in range(max_sweeps):
            sweeps += 1
            gap = 0.0
            for k in range(begin, end):
                node = members[k]
                value = _backup(node, first, stop, target, prob, cost, sense, low)
                if not upper and abs(value - low[node]) > gap:
                    gap = abs(value - low[node])
                low[node] = value
                if upper:
                    high[node] = _backup(node, first, stop, target, prob, cost, sense, high)
            if upper:
                for k in range(begin, end):
                    if high[members[k]] - low[members[k]] > gap:
                        gap = high[members[k]] - low[members[k]]
            if gap <= eps:
                break
        if not upper:
            for k in range(begin, end):
                high[members[k]] = low[members[k]]
    return low, high, sweeps


@njit(cache=True)
def value_iteration(first, stop, target, prob, cost, sense, payoff, members, starts, start, max_sweeps):
    """(every node's value, sweeps done) by value iteration from ``start``, component by component in the
    order given (successors first), Gauss-Seidel sweeps over a component's nodes until the float values
    stop moving: a sweep changes none by more than a few units in their last place, or the largest change
    has not shrunk for ``STALL`` sweeps (the rounding's noise), or ``max_sweeps`` sweeps. A guess of the
    optimal values, to be proven in exact arithmetic, not a bound."""
    n = first.shape[0]
    values = np.empty(n, np.float64)
    sweeps = 0
    for c in range(starts.shape[0] - 1):
        begin, end = starts[c], starts[c + 1]
        if end - begin == 1 and not _loops(members[begin], first, stop, target):
            node = members[begin]
            if sense[node] == 2:
                values[node] = payoff[node]
            else:
                values[node] = _backup(node, first, stop, target, prob, cost, sense, values)
            continue
        for k in range(begin, end):
            node = members[k]
            values[node] = payoff[node] if sense[node] == 2 else start
        smallest = np.inf
        stalled = 0
        for _ in range(max_sweeps):
            sweeps += 1
            gap = 0.0
            scale = 1.0
            for k in range(begin, end):
                node = members[k]
                value = _backup(node, first, stop, target, prob, cost, sense, values) if sense[node] != 2 \
                    else payoff[node]
                if abs(value - values[node]) > gap:
                    gap = abs(value - values[node])
                if abs(value) > scale:
                    scale = abs(value)
                values[node] = value
            if gap <= 4e-16 * scale:
                break
            if gap < smallest:
                smallest = gap
                stalled = 0
            else:
                stalled += 1
                if stalled >= STALL:
                    break
    return values, sweeps


@njit(cache=True)
def choices(first, stop, target, cost, sense, values, slack):
    """Per node, the edge a decision takes under ``values`` (the first within ``slack`` of the best), -1 at
    chance nodes and ends."""
    n = first.shape[0]
    chosen = np.full(n, -1, np.int64)
    for node in range(n):
        s = sense[node]
        if s != 1 and s != -1:
            continue
        best = cost[first[node]] + values[target[first[node]]]
        for edge in range(first[node] + 1, stop[node]):
            value = cost[edge] + values[target[edge]]
            if (s == 1 and value > best) or (s == -1 and value < best):
                best = value
        for edge in range(first[node], stop[node]):
            value = cost[edge] + values[target[edge]]
            if abs(value - best) <= slack:
                chosen[node] = edge
                break
    return chosen
