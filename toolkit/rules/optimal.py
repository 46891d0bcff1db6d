"""Optimal play of a game of one's own, on its walked graph with the decision points kept.

What is solved (``solve``), by the number of seats:

* one player: the play that maximises the chance to win, or that minimises the expected length (a
  Markov decision process);
* two players: the zero-sum game with optimal play on both sides (a turn-based stochastic game): seat 1
  maximises and seat 2 minimises seat 1's payoff, which is seat 1's return when the returns add up to 0
  at every end, else +1 for a win of seat 1, -1 for a win of seat 2 and 0 for an end without one
  winner; the answer is its value and the chance seat 1 wins under the optimal play found;
* more, or two with the others' players named (``policy``): each seat's best reply to the others' named
  players (the others are chance points: an MDP), maximising its chance to win.

A game that never ends pays nothing (0) to every objective but the length (which it makes infinite).

Exact (up to ``EXACT_UP_TO`` nodes): a first guess of the optimal values by value iteration in floats
(``toolkit.solve.iterate.value_iteration``, to its fixed point), the choices it points to evaluated once in
exact fractions (gmpy2's ``mpq``: a linear system per strongly connected component, ``toolkit.solve.linear``)
and checked (``check``, on arrays of fractions). Where a choice is beaten by an exactly better action,
strategy iteration goes on from the guess: every such choice is switched (the minimiser's first, to its
best reply, then the maximiser's: Hoffman and Karp's order), until none is. The answer is then proven:
the exact values satisfy the equations of optimal play (Bellman's for one decider, Shapley's for two) at
every node with the chosen actions attaining them, and each side's chosen play makes the game end
whatever the other does. Where the guessed play may go on for ever, the guess comes from interval
iteration pushed to 1e-13 instead (the route before), and where no proof can be had the answer is the
interval below.

Larger: interval iteration (Haddad and Monmege 2018; Baier et al. 2017; Storm's ``--sound`` mode gives the
same guarantee, by interval iteration or Quatmann and Katoen's sound value iteration, 2018): the value
iteration is run from a lower and an upper bound at once (the least and the greatest payoff), component
by component (successors first, Gauss-Seidel sweeps), until the two are within ``EPSILON``. Both stay on
their side of the value because the value satisfies the equations and they are monotone; where the
players could keep the game going for ever the two may stop short of meeting (``MAX_SWEEPS``), and the
interval reached is what is said. The figures are floats, rounded outward by ``MARGIN`` for the
rounding of the sums. The answer is "between a and b". The expected length has no a priori upper
bound, so it is solved exactly only.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter

import numpy as np

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.rules.expand import walk_graph
from toolkit.seats import Policies, rules_players
from toolkit.walk.graph import ArrayGraph

EXACT_UP_TO = 60_000  # nodes: up to this many the answer is exact, beyond it an interval
EPSILON = 1e-9  # interval iteration stops once the bounds are this close
MARGIN = 1e-12  # added outside the float bounds: the sums' rounding, many times over
MAX_SWEEPS = 100_000  # sweeps of one component at most (the bounds are then said as reached)
SHOWN_LINES = 300  # lines of the policy printed at most (--export-policy writes all)


@dataclass
class Optimum:
    game: str
    objective: str  # "win", "length" or "zero-sum"
    seats: tuple[int, ...]  # the seats that decide optimally
    unit: str
    nodes: int  # states of the walked game (decision, chance and end nodes)
    exact: bool
    value: Fraction | None = None  # exact: the optimal value at the start
    bounds: tuple[float, float] | None = None  # else: between these
    first_wins: Fraction | None = None  # zero-sum: seat 1's chance to win under the optimal play found
    first_wins_bounds: tuple[float, float] | None = None
    checked: int = 0  # nodes at which the equations were checked exactly
    graph: ArrayGraph | None = None
    chosen: np.ndarray | None = None  # per node: the edge its decision takes (-1: no decision)
    action_names: dict = field(default_factory=dict)
    others: str = ""  # the other seats' players (a best reply)
    values: list | None = None  # exact: every node's value (``mpq``) under the optimal play


COUNTERS = frozenset({"turns", "steps"})  # counted, not played on: left out of the policy's tables


_SKIPS: dict = {}  # the names of the events a game counts -> the names left out of its fields


def _describe(state):
    """The user's state behind a rules state (a built-in game's: its engine state), for people: its
    attributes and properties (``fields_of``) but what the game counts (``events()``, turns)."""
    events = tuple(state.events()) if hasattr(state, "events") else ()
    skip = _SKIPS.get(events)
    if skip is None:
        skip = _SKIPS[events] = COUNTERS | frozenset(events)
    for name in ("inner", "engine"):
        behind = getattr(state, name, None)
        if behind is not None:
            return fields_of(behind, skip)
    return fields_of(state, skip)


class _Arrays:
    """A walked graph as the compiled loops take it, for one objective."""

    def __init__(self, graph: ArrayGraph, objective: str, seat: int):
        self.graph = graph
        offsets = np.frombuffer(graph.offsets, dtype=np.int64)
        self.first, self.stop = graph.first, graph.stop
        self.target = np.frombuffer(graph.targets, dtype=np.int64)
        kind = np.frombuffer(graph.kind, dtype=np.int8)
        self.kind = kind
        sense = np.zeros(len(graph), np.int64)
        sense[kind == TERMINAL] = 2
        if objective == "zero-sum":
            sense[kind == 0] = 1
            sense[kind == 1] = -1
        else:
            sense[kind >= 0] = -1 if objective == "length" else 1
        self.sense = sense
        # chance probabilities: each weight over its node's total (a decision's edges: 1 / its actions, unread)
        prob = np.array(graph.weights, dtype=np.float64)
        if len(prob):  # a row's total as the difference of two running sums (the first figures' arithmetic)
            running = np.cumsum(prob)
            before = np.zeros(len(offsets), np.float64)
            before[1:][offsets[1:] > 0] = running[offsets[1:][offsets[1:] > 0] - 1]
            before[0] = running[offsets[0] - 1] if offsets[0] > 0 else 0.0
            del running
            prob /= np.repeat(before[1:] - before[:-1], np.diff(offsets))
        self.prob = prob
        self._exact_prob: list | None = None
        turns = np.asarray(graph.turns, dtype=np.int64) if objective == "length" else None
        self.cost = turns.astype(np.float64) if turns is not None else np.zeros(len(prob), np.float64)
        self.exact_cost = [int(t) for t in turns] if turns is not None else None
        zero_sum = all(len(r) == 2 and r[0] + r[1] == 0 for r in graph.returns)
        self.end_values = [_payoff(objective, seat, graph.returns[k], graph.winners[k], zero_sum)
                           for k in range(len(graph.returns))]
        ends = np.frombuffer(graph.end, dtype=np.int64)
        self.end = ends
        self.payoff = np.zeros(len(graph), np.float64)
        terminal = np.nonzero(kind == TERMINAL)[0]
        self.payoff[terminal] = [float(self.end_values[ends[n]]) for n in terminal]
        self.lowest = float(min(self.end_values, default=0)) if objective != "length" else 0.0
        self.highest = float(max(self.end_values, default=0)) if objective != "length" else 0.0

    @property
    def exact_prob(self) -> list:
        """The chance probabilities as exact ``mpq`` (made when first asked for: the exact answers only)."""
        if self._exact_prob is None:
            from gmpy2 import mpq

            weights = self.graph.weights
            exact: list = [None] * len(weights)
            for node in np.nonzero(self.kind == CHANCE)[0]:
                edges = range(self.first[node], self.stop[node])
                total = sum(weights[e] for e in edges)
                for e in edges:
                    exact[e] = mpq(weights[e], total)
            self._exact_prob = exact
        return self._exact_prob


def _payoff(objective: str, seat: int, returns, winner, zero_sum: bool) -> Fraction:
    if objective == "length":
        return Fraction(0)
    if objective == "win":
        return Fraction(int(winner == seat))
    if zero_sum:
        return Fraction(returns[0])
    return Fraction({0: 1, 1: -1}.get(winner, 0))


def solve(game, objective: str | None = None, policy: Policies | None = None, max_states: int = 2_000_000,
          exact_up_to: int = EXACT_UP_TO, progress=None) -> list[Optimum]:
    """Optimal play of ``game`` (a ``RulesGame``): one ``Optimum`` (one player; two players when no
    ``policy`` is named: the zero-sum game), or one per seat (its best reply to the others' players,
    ``policy`` as ``--policy`` names them, the game's default player on a seat it does not name; more than two
    players without one: the game's default players)."""
    players = game.num_players()
    if objective not in (None, "win", "length"):
        raise UserError(f"--objective {objective}: choose win or length")
    if players == 2 and objective is not None and not policy:
        raise UserError(f"--objective {objective}: two players play the zero-sum game (their value and the "
                        "first player's chance to win)")
    if players == 1:
        graph = _walk(game, [None], {0}, max_states, progress)
        if objective is None:  # a game won whatever the player does is played for speed
            objective = "length" if all(w == 0 for w in graph.winners) else "win"
        return [_solve_graph(game, graph, objective, 0, exact_up_to)]
    if players == 2 and not policy:
        graph = _walk(game, [None, None], {0, 1}, max_states, progress)
        return [_solve_graph(game, graph, "zero-sum", 0, exact_up_to)]
    if objective == "length":
        raise UserError("--objective length: with more than one player each seat plays to win")
    seats = rules_players(game, policy)
    return [best_reply(game, seat, seats, max_states, exact_up_to, progress) for seat in range(players)]


def best_reply(game, seat: int, seats, max_states: int = 2_000_000, exact_up_to: int = EXACT_UP_TO,
               progress=None) -> Optimum:
    """Seat ``seat``'s best reply, maximising its chance to win, to the others playing ``seats``."""
    graph = _walk(game, seats, {seat}, max_states, progress)
    answer = _solve_graph(game, graph, "win", seat, exact_up_to)
    answer.others = ", ".join(f"seat {s + 1} {p.name}" for s, p in enumerate(seats) if s != seat)
    return answer


def _walk(game, seats, kept, max_states, progress) -> ArrayGraph:
    from toolkit.walk.graph import TooManyStates

    own = getattr(game, "state_fields", None)  # a built-in game names its fields itself

    def describe(state):
        return own(state) or _describe(state)
    try:
        return walk_graph(game, seats, kept, max_states, describe=_describe if own is None else describe,
                          progress=progress)
    except TooManyStates as err:
        raise UserError(f"{game.source}: optimal play: the game has {err} (--max-states)") from None


def _solve_graph(game, graph: ArrayGraph, objective: str, seat: int, exact_up_to: int) -> Optimum:
    from toolkit.solve import scc

    arrays = _Arrays(graph, objective, seat)
    _, members, starts = scc.compiled().components(arrays.first, arrays.stop, arrays.target)
    exact = len(graph) <= exact_up_to
    if objective == "length" and not exact:
        raise UserError(f"{game.source}: optimal play: the shortest expected length is solved exactly only, up to "
                        f"{exact_up_to:,} states; the game has {len(graph):,}")
    answer = Optimum(game.name, objective, tuple(sorted(graph.kept)), game.info().length_unit, len(graph), exact,
                     graph=graph)
    answer.action_names = {(s, a): game.action_name(s, a) for s, a in _decisions(graph)}
    if exact and _proven(answer, arrays, members, starts):
        return answer
    _bounded(answer, arrays, members, starts, game.source)
    return answer


def _proven(answer: Optimum, arrays: _Arrays, members, starts) -> bool:
    """The exact answer from a guess of the optimal play: value iteration in floats to its fixed point,
    the play its values point to evaluated once in fractions and checked (``check``); where the check
    finds a decision an exactly better action beats, strategy iteration from there. False when the play
    found may go on for ever (then ``_bounded`` answers as before, from its own guess)."""
    from toolkit.solve import iterate

    guess, _ = iterate.value_iteration(arrays.first, arrays.stop, arrays.target, arrays.prob, arrays.cost,
                                       arrays.sense, arrays.payoff, members, starts, arrays.lowest, MAX_SWEEPS)
    chosen = iterate.choices(arrays.first, arrays.stop, arrays.target, arrays.cost, arrays.sense, guess, 1e-12)
    try:
        if not _ends(arrays, chosen, (1, -1)):
            return False
        values = evaluate(arrays, members, starts, chosen)
        beaten = _beaten(arrays, values, chosen)
        if len(beaten):  # some guessed decision is not optimal: improve from the guess
            values = _strategy_iteration(arrays, members, starts, chosen)
        answer.checked = check(arrays, values, chosen)
    except _Endless:
        return False
    answer.chosen, answer.values, answer.value = chosen, values, _fraction(values[0])
    if answer.objective == "zero-sum":
        answer.first_wins = _first_wins(arrays, members, starts, chosen, values)
    return True


def _first_wins(arrays: _Arrays, members, starts, chosen, values) -> Fraction:
    """Seat 1's exact chance to win under ``chosen`` (a play that ends): from the value itself where every
    end's payoff is ``a * (seat 1 won) + b``, else by an evaluation of its own."""
    graph = arrays.graph
    wins = [Fraction(int(w == 0)) for w in graph.winners]
    won = {arrays.end_values[k] for k, w in enumerate(wins) if w}
    lost = {arrays.end_values[k] for k, w in enumerate(wins) if not w}
    if len(won) == 1 and len(lost) == 1 and won != lost:
        (a_win,), (b,) = won, lost
        return (_fraction(values[0]) - b) / (a_win - b)
    if not won or not lost:  # every end a win of seat 1, or none
        return Fraction(int(bool(won)))
    return _fraction(evaluate(arrays, members, starts, chosen, wins, with_cost=False)[0])


def _bounded(answer: Optimum, arrays: _Arrays, members, starts, source: str) -> None:
    """The answer by interval iteration: bounds on the value, and the play the lower bounds point to.
    Within ``EXACT_UP_TO`` states (the exact guess's play may go on for ever) the bounds are pushed to
    1e-13 and strategy iteration tried from their play; the answer is exact where it succeeds."""
    from toolkit.solve import iterate

    exact, objective, graph = answer.exact, answer.objective, arrays.graph
    upper = objective != "length"
    low, high, _ = iterate.interval_iteration(arrays.first, arrays.stop, arrays.target, arrays.prob, arrays.cost,
                                              arrays.sense, arrays.payoff, members, starts, arrays.lowest,
                                              arrays.highest, upper, EPSILON if not exact else 1e-13, MAX_SWEEPS)
    chosen = answer.chosen = iterate.choices(arrays.first, arrays.stop, arrays.target, arrays.cost, arrays.sense,
                                             low, 1e-12)
    if exact:
        try:
            values = _strategy_iteration(arrays, members, starts, chosen)
            answer.checked = check(arrays, values, chosen)
        except _Endless as err:
            if objective == "length":
                raise UserError(f"{source}: optimal play: {err}: the shortest expected length is not "
                                "solved") from None
            answer.exact = False  # said by the bounds, which stay sound
        else:
            answer.value = _fraction(values[0])
            answer.values = values
            if objective == "zero-sum":
                wins = [Fraction(int(w == 0)) for w in graph.winners]
                answer.first_wins = _fraction(evaluate(arrays, members, starts, chosen, wins, with_cost=False)[0])
    if not answer.exact:
        answer.bounds = (float(low[0]) - MARGIN, float(high[0]) + MARGIN)
        if objective == "zero-sum" and _ends(arrays, chosen, (1, -1)):
            answer.first_wins_bounds = _fixed_bounds(arrays, members, starts, chosen,
                                                     np.array([float(w == 0) for w in graph.winners]))


class _Endless(Exception):
    """The play found does not make the game end: the exact answer is not proven."""


def _ends(arrays: _Arrays, chosen, fixed: tuple[int, ...]) -> bool:
    """Does every play end when the deciders of ``fixed`` senses take the ``chosen`` edges, whatever the
    others do (no set of states where the others and chance could keep the game going for ever)?"""
    from toolkit.solve import scc

    first, stop, sense = arrays.first.copy(), arrays.stop.copy(), arrays.sense.copy()
    nodes = np.nonzero(np.isin(sense, fixed))[0]
    first[nodes] = chosen[nodes]
    stop[nodes] = chosen[nodes] + 1
    sense[nodes] = 0
    return len(scc.compiled().endless(first, stop, arrays.target, sense)) == 0


def _decisions(graph: ArrayGraph):
    """Every (seat, action) some decision of the walk offers."""
    rows = np.frombuffer(graph.kind, dtype=np.int8)[np.argsort(np.frombuffer(graph.row, dtype=np.int64))]
    seats = np.repeat(rows, np.diff(np.frombuffer(graph.offsets, dtype=np.int64)))
    if isinstance(graph.actions, array):  # whole numbers: the distinct pairs found by numpy
        actions = np.frombuffer(graph.actions, dtype=np.int64)
        deciding = seats >= 0
        if not deciding.any():
            return []
        seen = {(seat, action) for seat in np.unique(seats[deciding]).tolist()
                for action in np.unique(actions[seats == seat]).tolist()}
    else:
        seen = {(seat, action) for seat, action in zip(seats.tolist(), graph.actions) if seat >= 0}
    return sorted(seen, key=repr)


def _node_text(graph: ArrayGraph, node: int) -> str:
    if node in graph.fields:
        names_index, values = graph.fields[node]
        return "the state " + ", ".join(f"{n}={v}" for n, v in zip(graph.names[names_index], values))
    return f"state {node} of the walk"


def _fraction(value) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def _fixed_bounds(arrays: _Arrays, members, starts, chosen, end_payoff) -> tuple[float, float]:
    """Bounds on a payoff (per end) under fixed choices: every decision a chance point of one edge."""
    from toolkit.solve import iterate

    prob = arrays.prob.copy()
    decided = np.nonzero(chosen >= 0)[0]
    if len(decided):
        prob[_grouped(arrays, decided)[0]] = 0.0
        prob[chosen[decided]] = 1.0
    sense = arrays.sense.copy()
    sense[decided] = 0
    payoff = np.zeros(len(arrays.kind), np.float64)
    terminal = np.nonzero(arrays.kind == TERMINAL)[0]
    payoff[terminal] = end_payoff[arrays.end[terminal]]
    cost = arrays.cost if not np.any(arrays.cost) else np.zeros_like(prob)
    low, high, _ = iterate.interval_iteration(arrays.first, arrays.stop, arrays.target, prob, cost,
                                              sense, payoff, members, starts, 0.0, 1.0, True, EPSILON, MAX_SWEEPS)
    return float(low[0]) - MARGIN, float(high[0]) + MARGIN


# --- exact: strategy iteration, and the check of the equations ---------------------------------------


def evaluate(arrays: _Arrays, members, starts, chosen, end_values=None, with_cost: bool = True) -> list:
    """Every node's exact value (``mpq``) when the decisions take the ``chosen`` edges, component by component
    (``members``, ``starts``: successors first). ``arrays`` is read for ``kind``, ``first``, ``stop``,
    ``target``, ``exact_prob``, ``exact_cost`` and ``end`` (a chain nobody decides, such as the
    clairvoyant's of ``toolkit.rules.skill``, gives just those)."""
    from gmpy2 import mpq

    from toolkit.solve import linear

    end_values = arrays.end_values if end_values is None else end_values
    cost = arrays.exact_cost if with_cost else None
    first, stop, target, kind, prob = arrays.first, arrays.stop, arrays.target, arrays.kind, arrays.exact_prob
    values: list = [None] * len(kind)
    zero = mpq(0)
    for c in range(len(starts) - 1):
        nodes = [int(n) for n in members[starts[c]:starts[c + 1]]]
        local = {n: i for i, n in enumerate(nodes)}
        rows, rhs = [], []
        for n in nodes:
            row, right = {local[n]: mpq(1)}, zero
            if kind[n] == TERMINAL:
                right = mpq(end_values[arrays.end[n]].numerator, end_values[arrays.end[n]].denominator)
            else:
                edges = [int(chosen[n])] if kind[n] >= 0 else range(first[n], stop[n])
                for e in edges:
                    p = mpq(1) if kind[n] >= 0 else prob[e]
                    if cost is not None and cost[e]:
                        right += p * cost[e]
                    t = int(target[e])
                    if t in local:
                        row[local[t]] = row.get(local[t], zero) - p
                    else:
                        right += p * values[t]
            rows.append(row)
            rhs.append(right)
        if len(nodes) == 1 and len(rows[0]) == 1:
            values[nodes[0]] = rhs[0] / rows[0][0]
            continue
        for n, v in zip(nodes, linear.solve(rows, rhs, mpq)):
            values[n] = v
    return values


def _action_value(arrays: _Arrays, values, e):
    cost = arrays.exact_cost[e] if arrays.exact_cost is not None else 0
    return values[int(arrays.target[e])] + cost


def _improve(arrays: _Arrays, values, chosen, sense: int) -> int:
    """Switch every decision of ``sense`` (1: maximiser, -1: minimiser) that an exactly better edge beats;
    the number switched."""
    switched = 0
    for n in np.nonzero(arrays.sense == sense)[0]:
        best_edge, best = int(chosen[n]), _action_value(arrays, values, int(chosen[n]))
        for e in range(arrays.first[n], arrays.stop[n]):
            value = _action_value(arrays, values, e)
            if value * sense > best * sense:
                best_edge, best = e, value
        if best_edge != chosen[n]:
            chosen[n] = best_edge
            switched += 1
    return switched


def _strategy_iteration(arrays: _Arrays, members, starts, chosen) -> list:
    """Exact values of the optimal play, improving ``chosen`` in place (Hoffman-Karp: the minimiser's best
    reply by policy iteration, then the maximiser's switches, until neither has one)."""
    senses = sorted(set(int(s) for s in arrays.sense) & {1, -1})
    if not senses:  # nobody decides (a race game): the values of the chain itself
        if not _ends(arrays, chosen, ()):
            raise _Endless("the game can go on for ever")
        return evaluate(arrays, members, starts, chosen)
    outer, inner = senses[-1], (senses[0] if len(senses) == 2 else None)
    while True:
        while True:
            if not _ends(arrays, chosen, (1, -1)):
                raise _Endless("the play found can go on for ever")
            values = evaluate(arrays, members, starts, chosen)
            if inner is None or not _improve(arrays, values, chosen, inner):
                break
        if not _improve(arrays, values, chosen, outer):
            return values


def check(arrays: _Arrays, values, chosen) -> int:
    """Prove ``values`` are the values of optimal play and ``chosen`` an optimal play: the number of
    nodes checked; AssertionError where an equation fails, ``_Endless`` where the proof does not apply.

    The exact values must satisfy the equations of optimal play at every node (a chance node: the
    weighted mean of its successors; a decision: the best of its actions for the one deciding, attained
    by the chosen action; an end: its payoff), and each side's chosen play must make the game end
    whatever the other side does. Then (a martingale argument) the maximiser's play guarantees at least
    the value against any reply and the minimiser's at most it, so it is the value; for the expected
    length, a play that may not end is infinitely long, and one that ends costs at least the value."""
    for side in sorted(set(int(s) for s in arrays.sense) & {1, -1}):
        if not _ends(arrays, chosen, (side,)):
            raise _Endless("the optimal play found does not make the game end whatever the other side does")
    wrong = _unequal(arrays, values)
    beaten = _beaten(arrays, values, chosen)
    if len(wrong) or len(beaten):
        raise AssertionError(f"the equation of optimal play fails at node {min(list(wrong) + list(beaten))}")
    return len(arrays.kind)


def _edge_values(arrays: _Arrays, values) -> np.ndarray:
    """Per edge, the exact value of taking it: its target's value and its cost (an array of ``mpq``)."""
    node_values = np.empty(len(values), dtype=object)
    node_values[:] = values
    edge_values = node_values[arrays.target]
    if arrays.exact_cost is not None:
        costly = np.nonzero(arrays.cost)[0]
        cost = np.empty(len(costly), dtype=object)
        cost[:] = [arrays.exact_cost[e] for e in costly.tolist()]
        edge_values[costly] = edge_values[costly] + cost
    return edge_values


def _grouped(arrays: _Arrays, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The edges of ``nodes`` (each with at least one), laid one node after another, and where each
    node's start in that list."""
    lengths = arrays.stop[nodes] - arrays.first[nodes]
    places = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    edges = np.repeat(arrays.first[nodes] - places, lengths) + np.arange(int(lengths.sum()), dtype=np.int64)
    return edges, places


def _unequal(arrays: _Arrays, values) -> np.ndarray:
    """The ends and the averaging nodes (chance, or nobody deciding) where ``values`` break their equation:
    an end's value is its payoff, a chance node's the weighted mean of its edges' values."""
    from gmpy2 import mpq

    kind, sense = arrays.kind, arrays.sense
    node_values = np.empty(len(values), dtype=object)
    node_values[:] = values
    ends = np.nonzero(kind == TERMINAL)[0]
    payoffs = np.empty(len(ends), dtype=object)
    payoffs[:] = [mpq(arrays.end_values[k].numerator, arrays.end_values[k].denominator) for k in arrays.end[ends]]
    wrong = [ends[node_values[ends] != payoffs]]
    mean = np.nonzero((kind != TERMINAL) & ((kind == CHANCE) | (sense == 0)))[0]
    if len(mean):
        edges, places = _grouped(arrays, mean)
        exact_prob = arrays.exact_prob
        prob = np.empty(len(edges), dtype=object)
        prob[:] = [exact_prob[e] for e in edges.tolist()]
        sums = np.add.reduceat(prob * _edge_values(arrays, values)[edges], places)
        wrong.append(mean[node_values[mean] != sums])
    return np.concatenate(wrong)


def _beaten(arrays: _Arrays, values, chosen) -> np.ndarray:
    """The decisions whose ``chosen`` action does not attain the best of their actions under ``values``
    (the largest for the maximiser, the smallest for the minimiser), or whose value is not that best."""
    node_values = np.empty(len(values), dtype=object)
    node_values[:] = values
    edge_values = _edge_values(arrays, values)
    out = []
    for side, best_of in ((1, np.maximum), (-1, np.minimum)):
        nodes = np.nonzero(arrays.sense == side)[0]
        if not len(nodes):
            continue
        edges, places = _grouped(arrays, nodes)
        best = best_of.reduceat(edge_values[edges], places)
        out.append(nodes[(node_values[nodes] != best) | (edge_values[chosen[nodes]] != best)])
    return np.concatenate(out) if out else np.zeros(0, np.int64)


# --- the policy, for people and as JSON ----------------------------------------------------------------


def policy_rows(answer: Optimum, seat: int) -> list[tuple[tuple[str, ...], tuple, str, tuple[str, ...]]]:
    """The decisions of ``seat`` under the optimal play: (field names, values, action name, the legal
    actions' names)."""
    graph = answer.graph
    rows = []
    names_of = answer.action_names
    for node, (names_index, values) in graph.fields.items():
        if graph.kind[node] != seat:
            continue
        action = graph.actions[int(answer.chosen[node])]
        legal = tuple(names_of[(seat, graph.actions[e])] for e in graph.edges(node))
        rows.append((graph.names[names_index], values, names_of[(seat, action)], legal))
    rows.sort(key=lambda row: (row[0], [str(type(v)) for v in row[1]], row[1]))
    return rows


def moving_fields(answer: Optimum, seat: int, sample: int = 20_000) -> dict[str, int]:
    """How often each field is the only one that changes from a decision of ``seat`` through one chance
    event to its next decision (Pig's turn total, a pile drawn from): the fields a stopping rule counts.
    Read from up to ``sample`` decisions."""
    graph = answer.graph
    kind, fields, names = graph.kind, graph.fields, graph.names
    counts: dict[str, int] = {}
    seen = 0
    for node, (names_index, values) in fields.items():
        if kind[node] != seat:
            continue
        seen += 1
        if seen > sample:
            break
        for e in graph.edges(node):
            middle = graph.targets[e]
            if kind[middle] != CHANCE:
                continue
            for f in graph.edges(middle):
                after = fields.get(graph.targets[f])
                if after is None or after[0] != names_index or kind[graph.targets[f]] != seat:
                    continue
                changed = [i for i, (a, b) in enumerate(zip(values, after[1])) if a != b]
                if len(changed) == 1:
                    name = names[names_index][changed[0]]
                    counts[name] = counts.get(name, 0) + 1
    return counts


def stopping_table(rows, moving: dict[str, int] | None = None) -> dict | None:
    """A table of when to stop, where the decisions have that shape: one numeric field (the threshold
    field) such that, for every setting of the other fields that vary, one action is taken below a value
    of it and another from that value on. None when no field does.

    Returns {"field", "before", "after", "keys" (the other varying fields), "rows": [(their values,
    threshold or None)], "choice": the two actions}: the table of the decisions between the two actions
    most often offered together (the others are listed beside it)."""
    pairs: dict[tuple, int] = {}
    for row in rows:
        if len(row[3]) == 2:
            pairs[tuple(sorted(row[3]))] = pairs.get(tuple(sorted(row[3])), 0) + 1
    if not pairs:
        return None
    choice = max(pairs, key=lambda pair: (pairs[pair], pair))
    rows = [row for row in rows if tuple(sorted(row[3])) == choice]
    if len({row[0] for row in rows}) != 1:
        return None
    names = rows[0][0]
    varying = [i for i in range(len(names)) if len({row[1][i] for row in rows}) > 1]
    if len({row[2] for row in rows}) == 1:
        return {"field": None, "before": rows[0][2], "after": None, "keys": [], "rows": [], "choice": choice}
    moving = moving or {}
    decisions = _Decisions(rows)
    counted = [i for i in varying if moving.get(names[i], 0) > 0 and all(
        isinstance(row[1][i], int) and not isinstance(row[1][i], bool) for row in rows)]
    if counted:  # the field the play counts most: the table reads as a stopping rule, exceptions beside it
        f = max(counted, key=lambda i: moving[names[i]])
        orders = []
        for before, after in (choice, choice[::-1]):
            keys = [i for i in varying if i != f]
            table = _threshold_table(decisions, f, keys, after, exceptions=True)
            for i in sorted(keys, key=lambda i: -decisions.distinct[i]):
                trial = [k for k in keys if k != i]
                smaller = _threshold_table(decisions, f, trial, after, exceptions=True)
                if _same_play(smaller, rows, f, trial, after):
                    keys, table = trial, smaller
            misses = sum(len(item[2]) for item in table)
            orders.append((misses, len(table), {"field": names[f], "before": before, "after": after,
                                                "keys": [names[i] for i in keys], "rows": table, "choice": choice}))
        return min(orders, key=lambda order: order[:2])[2]
    best = None
    for f in varying:
        if not all(isinstance(row[1][f], int) and not isinstance(row[1][f], bool) for row in rows):
            continue
        for before, after in (choice, choice[::-1]):
            keys = [i for i in varying if i != f]
            table = _threshold_table(decisions, f, keys, after)
            if table is None:
                continue
            # leave out every field the decision does not depend on (the fewest, most distinct first)
            for i in sorted(keys, key=lambda i: -decisions.distinct[i]):
                trial = [k for k in keys if k != i]
                smaller = _threshold_table(decisions, f, trial, after)
                if smaller is not None:
                    keys, table = trial, smaller
            if best is None or len(table) < len(best["rows"]):
                best = {"field": names[f], "before": before, "after": after, "keys": [names[i] for i in keys],
                        "rows": table, "choice": choice}
    return best


def _setting(keys: list[int]):
    """The function giving a row's values of the ``keys`` fields as a tuple."""
    if len(keys) > 1:
        return itemgetter(*keys)
    return lambda values: tuple(values[i] for i in keys)


class _Decisions:
    """The rows of one choice as whole-number columns, for the tables of when to stop, which try many sets
    of key fields on the same rows: each field's values numbered once (equal values, one number), and the
    threshold field's ranked in increasing order (``ranked``), so that a trial table groups and compares
    numbers with numpy."""

    def __init__(self, rows):
        self.rows = rows
        width = len(rows[0][1])
        self.codes = np.empty((len(rows), width), dtype=np.int64)
        self.distinct = []  # per field: how many different values it takes
        for i in range(width):
            numbers: dict = {}
            self.codes[:, i] = [numbers.setdefault(row[1][i], len(numbers)) for row in rows]
            self.distinct.append(len(numbers))
        self.actions = np.array([row[2] for row in rows])
        self._ranked: dict[int, tuple[list, np.ndarray]] = {}

    def ranked(self, f: int) -> tuple[list, np.ndarray]:
        """The numeric field ``f``'s values in increasing order, and each row's place among them."""
        if f not in self._ranked:
            values = sorted({row[1][f] for row in self.rows})
            place = {v: i for i, v in enumerate(values)}
            self._ranked[f] = values, np.array([place[row[1][f]] for row in self.rows], dtype=np.int64)
        return self._ranked[f]

    def groups(self, keys: list[int]) -> tuple[list[int], np.ndarray]:
        """Rows with the same values of the ``keys`` fields: each group's first row, each row's group."""
        combined, size = np.zeros(len(self.rows), dtype=np.int64), 1
        for k in keys:  # one number per setting: the fields' numbers in mixed radix, renumbered densely
            if size * self.distinct[k] >= 2**62:  # before it could overflow
                _, combined = np.unique(combined, return_inverse=True)
                size = int(combined.max()) + 1
            combined = combined * self.distinct[k] + self.codes[:, k]
            size *= self.distinct[k]
        _, first, group = np.unique(combined, return_index=True, return_inverse=True)
        return first.tolist(), group


def _same_play(table, rows, f: int, keys: list[int], after: str) -> bool:
    """Does the table (with its exceptions) give every decision of ``rows`` as it is?"""
    if table is None:
        return False
    by_key = {item[0]: item for item in table}
    setting = _setting(keys)
    for row in rows:
        _, switch, below = by_key[setting(row[1])]
        takes_after = (switch is not None and row[1][f] >= switch) or row[1][f] in below
        if takes_after != (row[2] == after):
            return False
    return True


def _threshold_table(decisions: _Decisions, f: int, keys: list[int], after: str,
                     exceptions: bool = False) -> list | None:
    """Per setting of the ``keys`` fields, the value of field ``f`` from which the play always takes
    ``after`` (None: never): (setting, value) pairs, or None when some setting does not have that shape.
    With ``exceptions``, a setting may also take ``after`` below its value: (setting, value, those values,
    in increasing order, once per decision)."""
    values, place = decisions.ranked(f)
    takes = decisions.actions == after
    first, group = decisions.groups(keys)
    never = len(values)  # a place past the last value: no switch
    lowest_after = np.full(len(first), never, dtype=np.int64)
    np.minimum.at(lowest_after, group[takes], place[takes])
    highest_other = np.full(len(first), -1, dtype=np.int64)
    np.maximum.at(highest_other, group[~takes], place[~takes])
    if not exceptions and np.any(highest_other >= lowest_after):  # not "``after`` from a value on" only
        return None
    setting = _setting(keys)
    keyed = [setting(decisions.rows[i][1]) for i in first]
    if not exceptions:
        table = [(key, None if s == never else values[s]) for key, s in zip(keyed, lowest_after.tolist())]
        return sorted(table, key=lambda item: item[0])
    # the switch: the lowest value from which every decision takes ``after`` (above every other action);
    # below it, the exceptions
    tail = takes & (place > highest_other[group])
    switch = np.full(len(first), never, dtype=np.int64)
    np.minimum.at(switch, group[tail], place[tail])
    below = np.nonzero(takes & (place < switch[group]))[0]
    below = below[np.lexsort((place[below], group[below]))]
    cuts = np.searchsorted(group[below], np.arange(len(first) + 1)).tolist()
    ranks = place[below].tolist()
    table = [(key, None if s == never else values[s], tuple(values[r] for r in ranks[cuts[g]:cuts[g + 1]]))
             for g, (key, s) in enumerate(zip(keyed, switch.tolist()))]
    return sorted(table, key=lambda item: item[0])


def policy_lines(answer: Optimum, limit: int = SHOWN_LINES) -> list[str]:
    """The optimal play for people: per deciding seat, a table of when to stop where the play has that
    shape (runs of the last field with the same threshold joined), else each decision."""
    lines = []
    for seat in answer.seats:
        rows = policy_rows(answer, seat)
        table = stopping_table(rows, moving_fields(answer, seat))
        if table is not None and table["field"] is None:
            lines.append(f"seat {seat + 1}: always {table['before']}, given the choice of "
                         f"{' or '.join(table['choice'])}")
        elif table is not None:
            lines.append(f"seat {seat + 1}: {table['before']} while {table['field']} is below the number, then "
                         f"{table['after']} ({', '.join(table['keys']) or 'every state'}: {table['field']} from "
                         f"which to {table['after']}; never: always {table['before']}):")
            lines += [f"  {text}" for text in _runs(table)]
        rows = [row for row in rows if len(row[3]) > 1 and (table is None or tuple(sorted(row[3])) != table["choice"])]
        if rows:
            lines.append(f"seat {seat + 1}, each {'other ' if table is not None else ''}state where there is a choice:")
            shown = [i for i in range(len(rows[0][0]) if rows else 0)
                     if len({row[1][i] for row in rows if len(row[1]) > i}) > 1]
            for names, values, action, legal in rows:
                lines.append("  " + ", ".join(f"{names[i]} {values[i]}" for i in shown if i < len(names))
                             + f": {action}")
    if len(lines) > limit:
        hidden = len(lines) - limit
        lines = lines[:limit] + [f"  ... {hidden:,} more lines (--export-policy writes the whole policy)"]
    return lines


def _runs(table: dict) -> list[str]:
    """The table's rows, consecutive values of the last key field with the same threshold joined."""
    keys = table["keys"]
    out = []
    run_start = run_end = None
    current = None

    def flush():
        if current is None:
            return
        head, threshold = current
        last = f"{run_start}" if run_start == run_end else f"{run_start}..{run_end}"
        names = [f"{n} {v}" for n, v in zip(keys[:-1], head)] + ([f"{keys[-1]} {last}"] if keys else [])
        if isinstance(threshold, tuple):  # from a value on, and also at a few below it
            switch, below = threshold
            text = f"{'never' if switch is None else switch} (also at {_spans(below)})"
        else:
            text = "never" if threshold is None else str(threshold)
        out.append(", ".join(names) + f": {text}")

    for item in table["rows"]:
        key, threshold = item[0], (item[1] if len(item) == 2 or not item[2] else (item[1], item[2]))
        head, tail = (key[:-1], key[-1]) if keys else ((), None)
        if current is not None and current == (head, threshold) and isinstance(tail, int) and tail == run_end + 1:
            run_end = tail
            continue
        flush()
        current, run_start, run_end = (head, threshold), tail, tail
    flush()
    return out


def _spans(values) -> str:
    """Whole numbers in order, runs of consecutive ones joined: 3, 5..9, 12."""
    parts, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            parts.append(str(start) if start == v else f"{start}..{v}")
            start = None
    return ", ".join(parts)


def policy_json(answers: list[Optimum]) -> bytes:
    """The optimal play as JSON: per answer its value and every decision (the state's fields, the action)."""
    data = []
    for answer in answers:
        entry = {"game": answer.game, "objective": answer.objective, "seats": [s + 1 for s in answer.seats],
                 "exact": answer.exact, "states": answer.nodes}
        entry.update(value_data(answer))
        entry["decisions"] = []
        for seat in answer.seats:
            rows = policy_rows(answer, seat)
            table = stopping_table(rows, moving_fields(answer, seat))
            if table is not None:
                entry.setdefault("tables", []).append(
                    {"seat": seat + 1, "field": table["field"], "before": table["before"], "after": table["after"],
                     "keys": table["keys"],
                     "rows": [[list(map(_plain, item[0])), *item[1:2], *[list(v) for v in item[2:]]]
                              for item in table["rows"]]})
            entry["decisions"] += [{"seat": seat + 1, "state": {n: _plain(v) for n, v in zip(names, values)},
                                    "action": action} for names, values, action, legal in rows]
        data.append(entry)
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _plain(value):
    return str(value) if isinstance(value, Fraction) else value


def value_data(answer: Optimum) -> dict:
    from toolkit.odds.report import frac

    if answer.exact:
        data = {"value": frac(answer.value), "value_float": float(answer.value), "checked_states": answer.checked}
        if answer.first_wins is not None:
            data.update({"first_wins": frac(answer.first_wins), "first_wins_float": float(answer.first_wins)})
    else:
        data = {"value_between": list(answer.bounds)}
        if answer.first_wins_bounds is not None:
            data["first_wins_between"] = list(answer.first_wins_bounds)
    if answer.graph is not None:
        data["decisions"] = answer.graph.decisions
    if answer.others and data.get("decisions", True):
        data["others"] = answer.others
    return data


def _between(bounds: tuple[float, float]) -> str:
    low, high = bounds
    return f"between {np.floor(low * 1e9) / 1e9:.9f} and {np.ceil(high * 1e9) / 1e9:.9f}"


def value_lines(answer: Optimum) -> list[str]:
    """The value of the optimal play, said as exact or as an interval."""
    from toolkit.odds.report import both

    if answer.graph is not None and not answer.graph.decisions:  # no play to speak of: chance alone
        what = {"win": f"seat {answer.seats[0] + 1}'s chance to win", "length": f"the expected length ({answer.unit})",
                "zero-sum": "the value of the game to seat 1"}[answer.objective]
        what += " (no decisions: chance alone plays the game)"
    else:
        what = {"win": f"seat {answer.seats[0] + 1}'s chance to win with the best play",
                "length": f"the expected length ({answer.unit}) with the play that ends soonest",
                "zero-sum": "the value of the game to seat 1 with optimal play on both sides"}[answer.objective]
        if answer.others:
            what += f" (against {answer.others})"
    if answer.exact:
        lines = [f"{what}: {both(answer.value)}",
                 f"  exact; proven: the equations of optimal play hold exactly at all {answer.checked:,} states"]
        if answer.first_wins is not None:
            lines.append(f"seat 1's chance to win{_so(answer)}: {both(answer.first_wins)}")
    else:
        lines = [f"{what}: {_between(answer.bounds)}",
                 f"  bounds from below and above by interval iteration over {answer.nodes:,} states"]
        if answer.first_wins_bounds is not None:
            lines.append(f"seat 1's chance to win{_so(answer)}: {_between(answer.first_wins_bounds)}")
    return lines


def _so(answer: Optimum) -> str:
    return ", both playing so" if answer.graph is None or answer.graph.decisions else ""


_PROPERTIES: dict[type, tuple[str, ...]] = {}  # a class -> the names of its public properties


def _properties(cls: type) -> tuple[str, ...]:
    names = _PROPERTIES.get(cls)
    if names is None:
        found: list[str] = []
        for owner in cls.__mro__:
            for name, member in vars(owner).items():
                if isinstance(member, property) and not name.startswith("_") and name not in found:
                    found.append(name)
        names = _PROPERTIES[cls] = tuple(found)
    return names


_SHOWN = (bool, int, str, Fraction)  # what a field may be
_LISTED = (int, str, Fraction)  # what a list or tuple of fields may hold


_PLANS: dict = {}  # (a class, the names skipped) -> (its attributes' names, the fields to read in order)


def fields_of(state, skip=frozenset()) -> tuple[tuple[str, ...], tuple]:
    """A state's attributes and properties for people, flattened: numbers and words as they are, a list or
    tuple of them as ``name[0]``, ``name[1]`` ...; anything else, names starting with ``_`` and the names
    in ``skip`` left out (what the policy table reads). Which names to read is worked out once per class
    and set of attribute names."""
    try:
        attributes = vars(state)
    except TypeError:  # a state of slots: its slots
        attributes = {name: getattr(state, name) for name in getattr(type(state), "__slots__", ())
                      if hasattr(state, name)}
    cls = type(state)
    known = _PLANS.get((cls, skip))
    if known is None or attributes.keys() != known[0]:
        every = set(attributes) | set(_properties(cls))
        plan = tuple((name, name not in attributes) for name in sorted(every)
                     if not name.startswith("_") and name not in skip)
        known = _PLANS[(cls, skip)] = (frozenset(attributes), plan)
    names, values = [], []
    for name, read in known[1]:
        if read:  # a property
            try:
                value = getattr(state, name)
            except Exception:  # noqa: BLE001 - a property that cannot be read is left out
                continue
        else:
            value = attributes[name]
        kind = type(value)
        if kind is int or kind is str or kind is bool or isinstance(value, _SHOWN):
            names.append(name)
            values.append(value)
        elif (kind is list or kind is tuple or isinstance(value, (list, tuple))) and all(
                type(v) is int or isinstance(v, _LISTED) for v in value):
            for i, v in enumerate(value):
                names.append(f"{name}[{i}]")
                values.append(v)
    return tuple(names), tuple(values)
