"""Strongly connected components of a graph held in arrays, and the nodes from which play can go on for ever.

A graph is given per node: ``first[n] .. stop[n] - 1`` are the positions in ``target`` of node ``n``'s
edges. Both functions are steps (``toolkit.fast.steps``): the same code runs in Python, with no numba
loaded, or compiled (``compiled()``). ``strong_components`` builds the arrays from lists and picks the
way: Python for a small graph, where loading numba would cost more than the search itself.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from itertools import chain

import numpy as np

from toolkit.fast.steps import step

#: From this many edges on, ``strong_components`` runs the compiled search even if numba is not loaded
#: yet: numba's import and the cached search take about half a second, and the search in Python takes
#: about as long for 200,000 edges.
COMPILED_FROM = 100_000


@step(cache=True)
def components(first, stop, target):
    """(the component of each node, the nodes grouped by component, where each group starts): Tarjan's
    algorithm with explicit stacks, the roots taken in node order and the edges in their order. The
    components are numbered as the search completes them, so a component only reaches itself and
    components with smaller numbers; within a group the nodes stand in the order the search finished
    them, so that an edge inside a component mostly goes to a node before it (successors first: a sweep
    of value iteration in that order carries a value around a loop once, not a step at a time)."""
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
    finished = np.empty(n, np.int64)
    done = 0
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
            finished[done] = node  # the nodes finished and not yet in a component: a component's on top
            done += 1
            if depth >= 0 and low[node] < low[work_node[depth]]:
                low[work_node[depth]] = low[node]
            if low[node] == index[node]:
                starts[count] = filled
                size = 0
                while True:
                    top -= 1
                    member = stack[top]
                    on_stack[member] = False
                    comp[member] = count
                    size += 1
                    if member == node:
                        break
                for k in range(done - size, done):
                    members[filled] = finished[k]
                    filled += 1
                done -= size
                count += 1
    starts[count] = filled
    return comp, members, starts[:count + 1]


@step(cache=True)
def endless(first, stop, target, sense):
    """The nodes where the players can keep the game going for ever: the largest set in which every
    chance node (``sense`` 0) has all its successors and every deciding node one of them (an end has
    ``sense`` 2). Empty for a game that ends whatever the players do."""
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


def compiled():
    """This module with ``components`` and ``endless`` compiled (numba, cached on disk)."""
    from toolkit.fast import steps

    return steps.compiled(__name__)


def strong_components(successors: Sequence[Sequence[int]]):
    """``components`` of the graph with an edge from ``n`` to each node of ``successors[n]``, in that
    order; compiled when numba is loaded already or the graph has ``COMPILED_FROM`` edges or more."""
    lengths = np.fromiter(map(len, successors), np.int64, count=len(successors))
    stop = np.cumsum(lengths)
    first = stop - lengths
    edges = int(stop[-1]) if len(stop) else 0
    target = np.fromiter(chain.from_iterable(successors), np.int64, count=edges)
    find = compiled().components if edges >= COMPILED_FROM or "numba" in sys.modules else components
    return find(first, stop, target)
