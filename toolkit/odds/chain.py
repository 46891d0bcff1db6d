"""Exact answers for absorbing Markov chains: expected steps, absorption odds, timing.

A chain is a walked game's ``ArrayGraph`` (``toolkit.walk.graph``), read from its arrays, or a mapping
``{state: [(weight, next_state), ...]}`` made into one. States without an entry are absorbing. Everything is computed with exact rational arithmetic:
``gmpy2.mpq`` by default (faster), ``fractions.Fraction`` when asked for
(``number``); results are always returned as ``Fraction``.

How it works: the states are numbered once, and the transition graph is split
into strongly connected components (SCCs, ``toolkit.solve.scc``). A chain built from a
game is mostly acyclic, so most components are single states, solved by direct
substitution; the larger components (cycles) are solved as linear systems on
just their own states (``toolkit.solve.linear``): p-adic lifting from one
factorisation modulo a prime for large ones, checked exactly, and exact
elimination for small ones.

* Expected values are solved *backwards* (successors first) and cached per state,
  so a second query from another start only solves what is new.
* Absorption probabilities and rewards come from the expected number of visits to
  each state, solved *forwards* from one start (predecessors first). One solve
  serves every absorbing state and every reward function, however many there are.
"""

from __future__ import annotations

import numbers
from array import array
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from math import lcm
from typing import Any

from gmpy2 import mpq

from toolkit.solve import linear
from toolkit.walk.graph import ArrayGraph

#: The rational type used internally when none is given (``Fraction`` does the same algebra, slower).
DEFAULT_NUMBER = mpq

Weight = int | Fraction
Reward = Callable[[Hashable], Weight]


class InfiniteExpectation(ValueError):
    """A start state may never be absorbed: it can reach a closed class of transient states."""


class Chain:
    """An absorbing Markov chain, solved exactly.

    ``transitions`` is an ``ArrayGraph`` (its nodes the transient states, but those named ``absorbing``), or maps each
    non-absorbing state to an iterable of
    ``(weight, next_state)`` pairs. Weights are ``int`` or ``Fraction`` (any
    rational), at least 0, and are divided by the state's total weight; zero
    weights are ignored, repeated next states add up and self-loops are allowed.
    A state without an entry, or that only appears as a target, is absorbing.

    ``number`` picks the rational type used for the algebra (``Fraction`` or
    ``gmpy2.mpq``); the default is :data:`DEFAULT_NUMBER`. Results are always
    ``Fraction``.

    Raises ``ValueError`` for a negative weight, or for a state whose entry is
    empty or whose weights sum to 0; ``TypeError`` for a weight that is not a
    rational number (floats are refused: they would make the answers inexact).
    """

    def __init__(self, transitions: ArrayGraph | Mapping[Hashable, Iterable[tuple[Weight, Hashable]]], *,
                 number: type | None = None, absorbing: Iterable[int] = ()):
        self._number = number or DEFAULT_NUMBER
        self._zero = self._number(0)
        self._one = self._number(1)
        if isinstance(transitions, ArrayGraph):
            self._names: list[Hashable] | None = None
        else:
            transitions, self._names = _graph_of(transitions)
        self._build(transitions, frozenset(absorbing))
        self._build_components()
        # Cache of expected steps per state (None = not solved yet) and of
        # components that cannot be left with certainty, mapped to the closed
        # class they can reach.
        self._steps: list[Any] = [None] * self._transient_count + [self._zero] * (len(self._states) - self._transient_count)
        self._doomed: dict[int, int] = {}
        self._last_visits: tuple[int, dict[int, Any], dict[int, Any]] | None = None
        self._last_shared: list[tuple[list[int], Any]] = []

    # -- construction ---------------------------------------------------------

    def _build(self, graph: ArrayGraph, removed: frozenset[int]) -> None:
        """Number the states (transient first) and store normalised transition probabilities, read from
        the graph's arrays: its nodes not ``removed`` are the transient states, in the order they were
        expanded; its ends and removed nodes the absorbing ones, in the order first met as targets."""
        row_of, offsets, targets, weights = graph.row, graph.offsets, graph.targets, graph.weights
        nodes = [node for node in graph.state_of_row if node not in removed]
        names = self._names
        self._states: list[Hashable] = list(nodes) if names is None else [names[node] for node in nodes]
        self._transient_count = len(nodes)
        place: dict[int, int] = {node: i for i, node in enumerate(nodes)}  # a node, or an end's code -> index
        ends = graph.ends
        # Per transient state i: the probability of staying put (``_loop[i]``), and its other transitions
        # in flat rows, ``_to[_first[i]:_first[i + 1]]`` (a transient state below ``_transient_count``, else an
        # absorbing one) with their probabilities ``_p``.
        loop: list[Any] = []
        first, to, probabilities = [0], [], []
        number, zero, states, totals = self._number, self._zero, self._states, graph.totals
        for i, node in enumerate(nodes):
            row = row_of[node]
            a, b = offsets[row], offsets[row + 1]
            if names is None:  # a walk's row: repeated targets and zero weights are possible
                combined: dict[int, int] = {}
                for target, weight in zip(targets[a:b], weights[a:b]):
                    if weight:
                        combined[target] = combined.get(target, 0) + weight
                pairs = combined.items()
            else:  # made by ``_graph_of``: combined already
                pairs = zip(targets[a:b], weights[a:b])
            total, stay = totals[row], zero
            for target, weight in pairs:
                j = place.get(target)
                if j is None:
                    j = place[target] = len(states)
                    states.append(ends[-1 - target] if target < 0 else target if names is None else names[target])
                if j == i:
                    stay = number(weight, total)
                else:
                    to.append(j)
                    probabilities.append(number(weight, total))
            loop.append(stay)
            first.append(len(to))
        self._loop, self._first, self._to, self._p = loop, first, to, probabilities
        self._index: dict[Hashable, int] = {state: i for i, state in enumerate(states)}

    def _build_components(self) -> None:
        """Split the transient states into SCCs and record the DAG between them."""
        from toolkit.solve.scc import strong_components

        first, to, transient = self._first, self._to, self._transient_count
        component_of, members, starts = strong_components(
            [[j for j in to[first[i]:first[i + 1]] if j < transient] for i in range(transient)])
        grouped, bounds = members.tolist(), starts.tolist()
        self._members: list[list[int]] = [sorted(grouped[a:b]) for a, b in zip(bounds, bounds[1:])]
        self._component_of: list[int] = component_of.tolist()
        self._successors: list[list[int]] = []
        self._closed: set[int] = set()  # nothing leaves them: no move to another component, no absorbing state
        component_of = self._component_of
        for c, members in enumerate(self._members):
            targets = [j for i in members for j in to[first[i]:first[i + 1]]]
            reached = {component_of[j] for j in targets if j < transient}
            reached.discard(c)
            self._successors.append(list(reached))
            if not reached and all(j < transient for j in targets):
                self._closed.add(c)

    def _transitions(self, i: int):
        """State ``i``'s transitions but its loop: (next state, probability) pairs."""
        a, b = self._first[i], self._first[i + 1]
        return zip(self._to[a:b], self._p[a:b])

    # -- public API -------------------------------------------------------------

    @property
    def states(self) -> tuple[Hashable, ...]:
        """Every state: those with an entry first, in the given order, then the absorbing ones as first met."""
        return tuple(self._states)

    @property
    def absorbing(self) -> tuple[Hashable, ...]:
        """The absorbing states, in the order they were first met as targets."""
        return tuple(self._states[self._transient_count:])

    def expected_steps(self, start: Hashable) -> Fraction:
        """Expected number of steps from ``start`` until absorption (0 if ``start`` is absorbing).

        Raises :class:`InfiniteExpectation` if absorption from ``start`` is not certain.
        """
        i = self._state_index(start)
        if i >= self._transient_count:
            return Fraction(0)
        self._solve_steps_from(self._component_of[i])
        self._raise_if_doomed(i)
        return _fraction(self._steps[i])

    def expected_steps_all(self) -> dict[Hashable, Fraction]:
        """Expected steps to absorption from every state (absorbing states give 0).

        Raises :class:`InfiniteExpectation` if any state may never be absorbed.
        """
        for component in range(len(self._members)):
            self._solve_steps_from(component)
        for i in range(self._transient_count):
            self._raise_if_doomed(i)
        return {state: _fraction(steps) for state, steps in zip(self._states, self._steps)}

    def absorption_probabilities(self, start: Hashable) -> dict[Hashable, Fraction]:
        """Probability of ending in each absorbing state, starting from ``start``.

        Only absorbing states with a non-zero probability are listed; an
        absorbing ``start`` gives ``{start: 1}``. Raises
        :class:`InfiniteExpectation` if absorption from ``start`` is not certain
        (the probabilities would not sum to 1).
        """
        i = self._state_index(start)
        if i >= self._transient_count:
            return {start: Fraction(1)}
        _, absorbed = self._visits(i)
        return {self._states[a]: _fraction(p) for a, p in absorbed.items() if p}

    def expected_reward(self, start: Hashable, reward: Reward) -> Fraction:
        """Expected total of ``reward(state)``, collected on leaving each transient state, until absorption.

        ``reward`` returns an int or Fraction; ``reward=lambda s: 1`` gives
        :meth:`expected_steps`, an indicator gives the expected number of visits
        to a set of states. It is called once per transient state reachable from
        ``start``. Raises :class:`InfiniteExpectation` if absorption from
        ``start`` is not certain.
        """
        i = self._state_index(start)
        if i >= self._transient_count:
            return Fraction(0)
        visits, _ = self._visits(i)
        number, states = self._number, self._states
        sums = {}  # per common denominator (None: the visits are fractions already): sum of visits x reward
        denominator_of = {j: k for k, (members, _) in enumerate(self._last_shared) for j in members}
        for j, count in visits.items():
            value = _checked_rational(reward(states[j]), "reward")
            if value:
                k = denominator_of.get(j)
                term = count * (number(value) if type(value) is int else number(value.numerator, value.denominator))
                sums[k] = sums.get(k, self._zero) + term
        total = sums.pop(None, self._zero)
        for k, value in sums.items():
            total += value / self._last_shared[k][1]
        return _fraction(total)

    def step_distribution(self, start: Hashable, max_steps: int) -> list[Fraction]:
        """``P(absorbed at exactly step k)`` for ``k = 0 .. max_steps``.

        Computed by pushing the exact probability vector forward one step at a
        time. The list sums to ``1 - P(not absorbed after max_steps steps)``.
        Unlike the other queries this never raises for a chain that may not be
        absorbed: the missing mass is simply never collected.
        """
        if max_steps < 0:
            raise ValueError(f"max_steps must be at least 0, got {max_steps}")
        i = self._state_index(start)
        if i >= self._transient_count:
            return [Fraction(1)] + [Fraction(0)] * max_steps
        result = [Fraction(0)]
        current = {i: self._one}
        for _ in range(max_steps):
            current, absorbed = self._step(current)
            result.append(_fraction(absorbed))
        return result

    # -- expected steps: backward solve, cached ----------------------------------

    def _solve_steps_from(self, root: int) -> None:
        """Solve expected steps for every component reachable from ``root`` that is not solved yet."""
        for component in self._postorder(root, skip=self._steps_known):
            doomed = self._doomed_successor(component)
            if doomed is not None:
                self._doomed[component] = doomed
                continue
            members = self._members[component]
            if len(members) == 1:
                self._solve_single_steps(members[0])
            else:
                self._solve_component_steps(component, members)

    def _steps_known(self, component: int) -> bool:
        """True once a component is solved or known to be doomed (then so is everything it reaches)."""
        return component in self._doomed or self._steps[self._members[component][0]] is not None

    def _doomed_successor(self, component: int) -> int | None:
        """The closed component this one can reach (itself if closed), or None; successors must be done."""
        if component in self._closed:
            return component
        for successor in self._successors[component]:
            if successor in self._doomed:
                return self._doomed[successor]
        return None

    def _solve_single_steps(self, i: int) -> None:
        """E[i] = (1 + sum_t p(i,t) E[t]) / (1 - p(i,i)) for a state that is its own component."""
        steps, transient = self._steps, self._transient_count
        total = self._one
        for j, probability in self._transitions(i):
            if j < transient:
                total += probability * steps[j]
        loop = self._loop[i]
        steps[i] = total / (self._one - loop) if loop else total

    def _solve_component_steps(self, component: int, members: list[int]) -> None:
        """Solve (I - Q) E = 1 + (steps leaving the component) on one component's states."""
        local = {i: k for k, i in enumerate(members)}
        rows: list[dict[int, Any]] = []
        rhs: list[Any] = []
        for i in members:
            row = {local[i]: self._one - self._loop[i]}
            total = self._one
            for j, probability in self._transitions(i):
                if j in local:
                    row[local[j]] = row.get(local[j], self._zero) - probability
                elif j < self._transient_count:
                    total += probability * self._steps[j]
            rows.append(row)
            rhs.append(total)
        for i, value in zip(members, linear.solve(rows, rhs, self._number)):
            self._steps[i] = value

    # -- visits: forward solve from one start --------------------------------------

    def _visits(self, start: int) -> tuple[dict[int, Any], dict[int, Any]]:
        """Expected visits to each transient state, and absorption probabilities, from ``start``.

        Components are solved in topological order while probability flows
        forwards; the flow that reaches an absorbing state is its absorption
        probability. The last start's result is cached.

        A lifted component's visits stay integers over one common denominator
        (``self._last_shared``: (members, denominator) per such component):
        the flow out of it and its share of a reward are summed in that form
        and divided once, instead of reducing a fraction of thousands of digits
        per state.
        """
        if self._last_visits is not None and self._last_visits[0] == start:
            return self._last_visits[1], self._last_visits[2]
        order = self._postorder(self._component_of[start])
        for component in order:
            if component in self._closed:
                raise self._infinite(start, component)
        inflow = {start: self._one}
        visits: dict[int, Any] = {}
        absorbed: dict[int, Any] = {}
        shared: list[tuple[list[int], Any]] = []
        for component in reversed(order):
            members = self._members[component]
            denominator = None
            if len(members) == 1:
                i = members[0]
                loop = self._loop[i]
                visits[i] = inflow.pop(i) / (self._one - loop) if loop else inflow.pop(i)
            else:
                denominator = self._solve_component_visits(members, inflow, visits)
                if denominator is not None:
                    shared.append((members, denominator))
            self._push_flow(component, members, visits, inflow, absorbed, denominator)
        self._last_visits = (start, visits, absorbed)
        self._last_shared = shared
        return visits, absorbed

    def _solve_component_visits(self, members: list[int], inflow: dict[int, Any], visits: dict[int, Any]):
        """Solve (I - Q)^T v = inflow on one component's states into ``visits``.

        Returns None when the values put there are the visits, or the common
        denominator they all still have to be divided by (a lifted system)."""
        local = {i: k for k, i in enumerate(members)}
        rows: list[dict[int, Any]] = [{k: self._one - self._loop[i]} for k, i in enumerate(members)]
        for i in members:
            for j, probability in self._transitions(i):
                if j in local:
                    row = rows[local[j]]
                    row[local[i]] = row.get(local[i], self._zero) - probability
        rhs = [inflow.pop(i, self._zero) for i in members]
        values, denominator = linear.solve_shared(rows, rhs, self._number)
        visits.update(zip(members, values))
        return denominator

    def _push_flow(self, component: int, members: list[int], visits: dict[int, Any],
                   inflow: dict[int, Any], absorbed: dict[int, Any], denominator: Any = None) -> None:
        """Send the flow leaving a solved component on to later components and absorbing states
        (``denominator``: the visits still have to be divided by it; the sums are, once each)."""
        component_of, transient = self._component_of, self._transient_count
        if denominator is None:
            into, ends = inflow, absorbed
        else:
            into, ends = {}, {}
        for i in members:
            count = visits[i]
            for j, probability in self._transitions(i):
                if j >= transient:
                    ends[j] = ends.get(j, self._zero) + count * probability
                elif component_of[j] != component:
                    into[j] = into.get(j, self._zero) + count * probability
        if denominator is not None:
            for j, total in into.items():
                inflow[j] = inflow.get(j, self._zero) + total / denominator
            for a, total in ends.items():
                absorbed[a] = absorbed.get(a, self._zero) + total / denominator

    # -- step distribution ---------------------------------------------------------

    def _step(self, current: dict[int, Any]) -> tuple[dict[int, Any], Any]:
        """Advance a sparse distribution over transient states by one step; return it and the mass absorbed."""
        following: dict[int, Any] = {}
        absorbed, transient = self._zero, self._transient_count
        for i, mass in current.items():
            loop = self._loop[i]
            if loop:
                following[i] = following.get(i, self._zero) + mass * loop
            for j, probability in self._transitions(i):
                if j < transient:
                    following[j] = following.get(j, self._zero) + mass * probability
                else:
                    absorbed += mass * probability
        return following, absorbed

    # -- helpers ---------------------------------------------------------------------

    def _postorder(self, root: int, skip: Callable[[int], bool] = lambda component: False) -> list[int]:
        """Components reachable from ``root``, successors before predecessors; ``skip`` prunes the search."""
        if skip(root):
            return []
        order: list[int] = []
        seen = {root}
        stack = [(root, iter(self._successors[root]))]
        while stack:
            component, successors = stack[-1]
            for successor in successors:
                if successor not in seen and not skip(successor):
                    seen.add(successor)
                    stack.append((successor, iter(self._successors[successor])))
                    break
            else:
                stack.pop()
                order.append(component)
        return order

    def _state_index(self, state: Hashable) -> int:
        try:
            return self._index[state]
        except KeyError:
            raise KeyError(f"unknown state {state!r}: it has no transitions and no state leads to it") from None

    def _raise_if_doomed(self, i: int) -> None:
        closed = self._doomed.get(self._component_of[i])
        if closed is not None:
            raise self._infinite(i, closed)

    def _infinite(self, start: int, closed: int) -> InfiniteExpectation:
        """The error for a start that can reach the closed component ``closed``."""
        members = self._members[closed]
        shown = ", ".join(repr(self._states[i]) for i in members[:3])
        if len(members) == 1:
            what = f"state {shown}, which only leads back to itself"
        else:
            more = f" and {len(members) - 3} more" if len(members) > 3 else ""
            what = f"the closed cycle of {len(members)} states {shown}{more}, which no move leaves"
        return InfiniteExpectation(
            f"state {self._states[start]!r} may never be absorbed: it can reach {what}"
        )


def _graph_of(transitions: Mapping[Hashable, Iterable[tuple[Weight, Hashable]]]) -> tuple[ArrayGraph, list[Hashable]]:
    """A ``{state: [(weight, next_state)]}`` mapping as an ``ArrayGraph`` and the name of each node: its
    states with an entry are nodes 0, 1, ... in the given order, the others absorbing ends; each state's
    weights are made whole over their common denominator (the same probabilities)."""
    names = list(transitions)
    node = {state: i for i, state in enumerate(names)}
    graph = ArrayGraph()
    targets, weights, offsets, end_code = [], [], graph.offsets, graph.end_code
    for state, pairs in transitions.items():
        combined = _combined_weights(state, pairs)
        scale = 1
        for weight in combined.values():
            if type(weight) is not int:
                scale = lcm(scale, weight.denominator)
        for target, weight in combined.items():
            place = node.get(target)
            targets.append(end_code(target) if place is None else place)
            weights.append(weight if type(weight) is int and scale == 1 else int(weight * scale))
        offsets.append(len(targets))
        graph.totals.append(int(sum(combined.values()) * scale))
    graph.targets = array("q", targets)
    try:
        graph.weights = array("q", weights)
    except OverflowError:
        graph.weights = weights
    graph.row = graph.state_of_row = array("q", range(len(names)))
    return graph, names


def _combined_weights(state: Hashable, pairs: Iterable[tuple[Weight, Hashable]]) -> dict[Hashable, Weight]:
    """Check one state's ``(weight, next_state)`` pairs and add up weights per next state."""
    combined: dict[Hashable, Weight] = {}
    for pair in pairs:
        try:
            weight, target = pair
        except (TypeError, ValueError):
            raise ValueError(f"state {state!r}: expected (weight, next_state) pairs, got {pair!r}") from None
        if type(weight) is not int:
            weight = _checked_rational(weight, f"state {state!r}: weight")
        if weight < 0:
            raise ValueError(f"state {state!r}: weight {weight} for next state {target!r} is negative")
        if weight:
            combined[target] = combined.get(target, 0) + weight
    if not combined:
        raise ValueError(
            f"state {state!r} has no transitions with positive weight; "
            "leave absorbing states out of the mapping instead"
        )
    return combined


def _checked_rational(value: Any, what: str) -> Weight:
    """``value`` as an int or Fraction, refusing floats and other inexact numbers."""
    if type(value) is int or type(value) is Fraction:
        return value
    if not isinstance(value, numbers.Rational):
        raise TypeError(f"{what} must be an int or Fraction, got {value!r}")
    return Fraction(int(value.numerator), int(value.denominator))


def _fraction(value: Any) -> Fraction:
    """The public result type: convert an internal rational (Fraction or mpq) to Fraction."""
    if isinstance(value, Fraction):
        return value
    return Fraction(int(value.numerator), int(value.denominator))
