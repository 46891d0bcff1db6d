"""The equilibrium of a two-player zero-sum game of hidden information by its sequence form (D. Koller,
N. Megiddo and B. von Stengel, "Efficient computation of equilibria for extensive two-person games",
Games and Economic Behavior 14, 1996), solved in floats, then made exact and proven.

A seat's play is given by its realisation plan: for each sequence of its own moves (the empty one, and
each (information set, action)), the chance that the seat makes those moves when the others let it.
A plan x of seat 1 keeps ``E x = e`` (the empty sequence has chance 1; at each information set the
actions' chances sum to the chance of the seat's move before it), y of seat 2 ``F y = f``, and the
payoff is ``x' A y``, ``A`` summing chance times payoff over the ends by the two seats' sequences.
Seat 1's equilibrium plan is the linear program

    maximise q_0  over x >= 0 and q  subject to  E x = e,  F' q <= A' x

(``q`` prices seat 2's information sets: the dual of seat 2's best reply to x), and seat 2's is the
same program for the game seen from seat 2 (payoff -A'). Both are solved by HiGHS
(``scipy.optimize.linprog``) in floats.

Floats prove nothing, so the answer is then made exact (``toolkit.rules.equilibrium`` does it, with
the best replies of ``toolkit.solve.extensive``): each seat's play, as chances per action, is read as
fractions (``rounded``: the nearest fractions of small denominator, or the solution of the linear
system the float solution's support gives, ``support_solution``), and the two exact best replies to
them bound the value from both sides. Where they meet, the value is exact and proven.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from gmpy2 import mpq

from toolkit.game.contract import CHANCE, TERMINAL


@dataclass
class SequenceForm:
    """The sequence form of a two-player tree: per seat its sequences (0 the empty one, then one per
    action slot of its information sets, in slot order: ``index[s][slot]``), its constraint rows and the
    payoff matrix of seat 1, in floats (``A``, sparse triples) and exact (``exact``: {(i, j): mpq})."""

    sizes: tuple[int, int]
    index: tuple[dict[int, int], dict[int, int]]
    rows: tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]  # per seat: [(sequence, +1/-1)] per row
    payoff: dict[tuple[int, int], Any]  # exact, by (seat 1's sequence, seat 2's)


def build(tree, payoff: Sequence[Any]) -> SequenceForm:
    """The sequence form of ``tree`` (two seats, no named player) with seat 1's ``payoff[end]`` (exact)."""
    index: tuple[dict[int, int], dict[int, int]] = ({}, {})
    rows: tuple[list, list] = ([[(0, 1)]], [[(0, 1)]])
    for info in tree.infosets:
        seat = info.player
        own = index[seat]
        for a in range(len(info.actions)):
            own[info.slot + a] = len(own) + 1
        before = 0 if info.parent < 0 else own[info.parent]
        rows[seat].append([(before, -1)] + [(own[info.slot + a], 1) for a in range(len(info.actions))])
    kind, first, count, end = tree.kind.tolist(), tree.first.tolist(), tree.count.tolist(), tree.end.tolist()
    weight, total = tree.weight.tolist(), tree.total.tolist()
    reach: list = [None] * len(kind)
    reach[0] = mpq(1)
    matrix: dict[tuple[int, int], Any] = {}
    sequences = tree.sequences
    for node, who in enumerate(kind):
        if who == TERMINAL:
            p = reach[node]
            if p:
                s1, s2 = (int(s) for s in sequences[node])
                key = (0 if s1 < 0 else index[0][s1], 0 if s2 < 0 else index[1][s2])
                matrix[key] = matrix.get(key, mpq(0)) + p * payoff[end[node]]
            continue
        start = first[node]
        for child in range(start, start + count[node]):
            reach[child] = reach[node] * mpq(weight[child], total[node]) if who == CHANCE else reach[node]
    return SequenceForm((len(index[0]) + 1, len(index[1]) + 1), index, rows, matrix)


def _constraints(rows: list[list[tuple[int, int]]], size: int):
    from scipy.sparse import coo_matrix

    r, c, v = [], [], []
    for i, row in enumerate(rows):
        for j, sign in row:
            r.append(i)
            c.append(j)
            v.append(sign)
    return coo_matrix((v, (r, c)), shape=(len(rows), size)).tocsr()


@dataclass
class FloatSolution:
    value: float  # seat 1's, from its program
    plans: tuple[np.ndarray, np.ndarray]  # each seat's realisation plan
    values: tuple[float, float]  # the two programs' optimal values (seat 1's and minus seat 2's)
    slacks: tuple[np.ndarray, np.ndarray]  # each program's slack at the other seat's sequences


def solve_floats(form: SequenceForm) -> FloatSolution:
    """Both seats' equilibrium plans by HiGHS, in floats."""
    from scipy.sparse import coo_matrix

    n1, n2 = form.sizes
    keys = list(form.payoff)
    a = coo_matrix(([float(form.payoff[k]) for k in keys], ([k[0] for k in keys], [k[1] for k in keys])),
                   shape=(n1, n2)).tocsr()
    e, f = _constraints(form.rows[0], n1), _constraints(form.rows[1], n2)
    x, v1, sx = _maximin(a, e, f)
    y, v2, sy = _maximin(-a.T.tocsr(), f, e)
    return FloatSolution(v1, (x, y), (v1, -v2), (sx, sy))


def _maximin(a, e, f) -> tuple[np.ndarray, float, np.ndarray]:
    """max over plans x (``e x = e_0``) of min over plans y (``f y = f_0``) of x' a y: the plan, the value
    and the slack of each inequality (a vertex of the program: the dual simplex method)."""
    from scipy.optimize import linprog
    from scipy.sparse import bmat, csr_matrix

    n1, n2 = a.shape
    m1, m2 = e.shape[0], f.shape[0]
    # variables: x (n1), q (m2); minimise -q_0
    cost = np.zeros(n1 + m2)
    cost[n1] = -1.0
    upper = bmat([[-a.T, f.T]]).tocsr()  # F' q - A' x <= 0
    equal = bmat([[e, csr_matrix((m1, m2))]]).tocsr()
    rhs = np.zeros(m1)
    rhs[0] = 1.0
    bounds = [(0, None)] * n1 + [(None, None)] * m2
    found = linprog(cost, A_ub=upper, b_ub=np.zeros(n2), A_eq=equal, b_eq=rhs, bounds=bounds, method="highs-ds",
                    options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if found.status != 0:
        raise ArithmeticError(f"the sequence-form program was not solved: {found.message}")
    return np.clip(found.x[:n1], 0.0, None), float(-found.fun), np.asarray(found.ineqlin.residual)


def behaviour(tree, seat: int, plan: np.ndarray, index: dict[int, int]) -> list:
    """A realisation plan as float chances per action of the seat's information sets (uniform where the
    seat's own play never reaches the set); None on the other seats' slots."""
    out: list = [None] * tree.slots
    for info in tree.infosets:
        if info.player != seat:
            continue
        k = len(info.actions)
        before = 1.0 if info.parent < 0 else plan[index[info.parent]]
        chances = [plan[index[info.slot + a]] for a in range(k)]
        whole = sum(chances)
        if before <= 1e-12 or whole <= 0:
            chances, whole = [1.0] * k, float(k)
        for a in range(k):
            out[info.slot + a] = chances[a] / whole
    return out


def rounded(tree, seat: int, floats: list, limit: int) -> list:
    """Float chances per action read as the nearest fractions with denominators up to ``limit``, brought
    to sum exactly 1 at each information set (the largest takes what is left, never below 0)."""
    out: list = [None] * tree.slots
    for info in tree.infosets:
        if info.player != seat:
            continue
        k = len(info.actions)
        near = [Fraction(floats[info.slot + a]).limit_denominator(limit) for a in range(k)]
        big = max(range(k), key=lambda a: near[a])
        rest = sum(near[a] for a in range(k) if a != big)
        if rest > 1:
            near = [Fraction(int(a == big)) for a in range(k)]
        else:
            near[big] = Fraction(1) - rest
        for a in range(k):
            out[info.slot + a] = mpq(near[a].numerator, near[a].denominator)
    return out


def support_solution(tree, form: SequenceForm, seat: int, solution: FloatSolution, budget: int = 20_000_000,
                     tolerance: float = 1e-9) -> list | None:
    """Seat ``seat``'s plan solved exactly at the vertex its program's float solution stands on: the plan
    x and the prices q of the other seat's information sets with every constraint the float solution
    meets with equality, met exactly: ``E x = e``, ``x_j = 0`` where the float plan is 0, and ``(F' q)_j
    = (A' x)_j`` at each of the other seat's sequences whose slack is 0. At a vertex these fix x and q;
    the system is solved by exact elimination (at most ``budget`` updates). None where it has no solution,
    costs more, or gives a negative chance. The plan is returned as chances per action (mpq)."""
    other = 1 - seat
    own_plan, slack = solution.plans[seat], solution.slacks[seat]
    size = form.sizes[seat]
    support = [j for j in range(size) if own_plan[j] > tolerance]
    tight = [j for j in range(form.sizes[other]) if slack[j] <= tolerance]
    column = {j: c for c, j in enumerate(support)}  # x unknowns first, then the prices
    prices = len(form.rows[other])
    equations: list[dict[int, Any]] = []
    rhs: list[Any] = []
    for r, row in enumerate(form.rows[seat]):
        eq = {column[j]: mpq(sign) for j, sign in row if j in column}
        equations.append(eq)
        rhs.append(mpq(int(r == 0)))
    # the payoff of the other seat's sequence j against x: sum over own sequences i of A[i, j] x_i (seat 2's
    # own payoff is minus seat 1's)
    by_other: dict[int, dict[int, Any]] = {}
    for (i, j), p in form.payoff.items():
        own, theirs_j = (i, j) if seat == 0 else (j, i)
        if own in column:
            by_other.setdefault(theirs_j, {})[column[own]] = p if seat == 0 else -p
    # the prices: (F' q)_j = sum over the other seat's rows containing j of sign * q_row
    price_rows: dict[int, list[tuple[int, int]]] = {}
    for r, row in enumerate(form.rows[other]):
        for j, sign in row:
            price_rows.setdefault(j, []).append((r, sign))
    base = len(support)
    for j in tight:
        eq = {}
        for c, p in by_other.get(j, {}).items():
            eq[c] = eq.get(c, mpq(0)) - p
        for r, sign in price_rows.get(j, []):
            eq[base + r] = eq.get(base + r, mpq(0)) + sign
        equations.append({c: v for c, v in eq.items() if v})
        rhs.append(mpq(0))
    found = _eliminate(equations, rhs, base + prices, budget)
    if found is None or any(found[c] < 0 for c in range(base)):
        return None
    plan = [mpq(0)] * size
    for j, c in column.items():
        plan[j] = found[c]
    return _exact_behaviour(tree, seat, plan, form.index[seat])


def _exact_behaviour(tree, seat: int, plan: list, index: dict[int, int]) -> list:
    out: list = [None] * tree.slots
    for info in tree.infosets:
        if info.player != seat:
            continue
        k = len(info.actions)
        before = mpq(1) if info.parent < 0 else plan[index[info.parent]]
        chances = [plan[index[info.slot + a]] for a in range(k)]
        if before <= 0:
            chances, before = [mpq(1)] * k, mpq(k)
        for a in range(k):
            out[info.slot + a] = chances[a] / before
    return out


def _eliminate(equations: list[dict[int, Any]], rhs: list[Any], unknowns: int, budget: int) -> list | None:
    """A solution of the (possibly rectangular, possibly singular) exact system, the free unknowns set to
    0: Gauss-Jordan elimination on sparse rows, the pivot row the shortest. None where the system has no
    solution or the work passes ``budget``."""
    rows = [(dict(eq), r) for eq, r in zip(equations, rhs)]
    by_column: dict[int, set[int]] = {}
    for k, (eq, _) in enumerate(rows):
        for c in eq:
            by_column.setdefault(c, set()).add(k)
    pivots: dict[int, int] = {}  # column -> its row
    alive = set(range(len(rows)))
    work = 0
    while alive:
        k = min(alive, key=lambda k: len(rows[k][0]))
        alive.discard(k)
        eq, r = rows[k]
        if not eq:
            if r != 0:
                return None  # 0 = r: no solution
            continue
        c = min(eq, key=lambda c: len(by_column.get(c, ())))
        p = eq[c]
        eq = {j: v / p for j, v in eq.items()}
        r = r / p
        rows[k] = (eq, r)
        pivots[c] = k
        for other in list(by_column.get(c, ())):
            if other == k:
                continue
            oeq, orhs = rows[other]
            factor = oeq.get(c)
            if not factor:
                continue
            for j, v in eq.items():
                new = oeq.get(j, 0) - factor * v
                work += 1
                if new:
                    if j not in oeq:
                        by_column.setdefault(j, set()).add(other)
                    oeq[j] = new
                else:
                    oeq.pop(j, None)
                    by_column.get(j, set()).discard(other)
            rows[other] = (oeq, orhs - factor * r)
        if work > budget:
            return None
    solution = [mpq(0)] * unknowns
    for c, k in pivots.items():  # every other pivot's column is gone from this row: free ones are 0
        eq, r = rows[k]
        solution[c] = r - sum((v * solution[j] for j, v in eq.items() if j != c and j not in pivots), mpq(0))
    return solution
