"""Compiled loops of ``toolkit.rules.optimal``: the strongly connected components of a walked game, the
check that every play ends, and interval iteration (bounds from below and above) component by component.

The graph is given per node: ``first[n] .. stop[n] - 1`` its edges (``target``, ``prob`` for a chance
node, ``cost`` collected on the edge), ``sense[n]`` what the node does with its edges' values: ``0``
averages them by ``prob`` (chance, or a fixed choice: probability 1 on one edge), ``1`` takes the largest,
``-1`` the smallest, ``2`` is an end (its value ``payoff[n]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def components(first, stop, target):
    """(component of each node, the nodes grouped by component, where each group starts): components
    numbered successors first (Tarjan's algorithm with explicit stacks)."""
    n = first.shape[0]
    index = np.full(n, -1, np.int64)
    low = np.zeros(n, np.int64)
    on_stack = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    top = 0
    work_node = np.empty(n, np.int64)
    work_edge = np.empty(n, np.int64)
    comp = np.full(n, -1, np.int64)
    members = np.empty(n, np.int64)
    starts = np.empty(n + 1, np.int64)
    filled = 0
    count = 0
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        depth = 0
        work_node[0] = root
        work_edge[0] = first[root]
        index[root] = counter
        low[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        on_stack[root] = True
        while depth >= 0:
            node = work_node[depth]
            edge = work_edge[depth]
            if edge < stop[node]:
                work_edge[depth] = edge + 1
                succ = target[edge]
                if index[succ] < 0:
                    index[succ] = counter
                    low[succ] = counter
                    counter += 1
                    stack[top] = succ
                    top += 1
                    on_stack[succ] = True
                    depth += 1
                    work_node[depth] = succ
                    work_edge[depth] = first[succ]
                elif on_stack[succ] and index[succ] < low[node]:
                    low[node] = index[succ]
                continue
            depth -= 1
            if depth >= 0 and low[node] < low[work_node[depth]]:
                low[work_node[depth]] = low[node]
            if low[node] == index[node]:
                starts[count] = filled
                while True:
                    top -= 1
                    member = stack[top]
                    on_stack[member] = False
                    comp[member] = count
                    members[filled] = member
                    filled += 1
                    if member == node:
                        break
                count += 1
    starts[count] = filled
    return comp, members, starts[:count + 1]


@njit(cache=True)
def endless(first, stop, target, sense):
    """The nodes where the players can keep the game going for ever (the largest set in which every
    chance node has all its successors, and every deciding node one of them): empty for a game that
    ends whatever the players do."""
    n = first.shape[0]
    inside = np.ones(n, np.bool_)
    for node in range(n):
        if sense[node] == 2:
            inside[node] = False
    changed = True
    while changed:
        changed = False
        for node in range(n):
            if not inside[node]:
                continue
            if sense[node] == 0:
                keep = True
                for edge in range(first[node], stop[node]):
                    if not inside[target[edge]]:
                        keep = False
                        break
            else:
                keep = False
                for edge in range(first[node], stop[node]):
                    if inside[target[edge]]:
                        keep = True
                        break
            if not keep:
                inside[node] = False
                changed = True
    return np.nonzero(inside)[0]


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
        single = end - begin == 1
        if single:
            node = members[begin]
            for edge in range(first[node], stop[node]):
                if target[edge] == node:
                    single = False
        if single:
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
