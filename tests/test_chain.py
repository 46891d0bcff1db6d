"""Exact absorbing Markov chains: hand-derived chains, errors, and a dense-solve cross-check."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.odds import Chain, InfiniteExpectation

from gmpy2 import mpq

NUMBERS = [
    pytest.param(Fraction, id="Fraction"),
    pytest.param(mpq, id="mpq"),
]


@pytest.fixture(params=NUMBERS)
def number(request):
    """Run each test with both internal number types."""
    return request.param


def geometric(p: Fraction) -> dict:
    """One state that stays with probability ``p`` and otherwise ends."""
    return {"s": [(p, "s"), (1 - p, "end")]}


def gamblers_ruin(goal: int, up: int, down: int) -> dict:
    """Bet 1 until 0 or ``goal``; win with weight ``up``, lose with weight ``down``."""
    return {i: [(up, i + 1), (down, i - 1)] for i in range(1, goal)}


TWO_HEADS = {"none": [(1, "H"), (1, "none")], "H": [(1, "HH"), (1, "none")]}

# a -> b -> c -> a, with a way out at a and at c.
CYCLE = {
    "a": [(1, "b"), (1, "out at a")],
    "b": [(1, "c")],
    "c": [(1, "a"), (2, "out at c")],
}


# -- hand-derived chains ------------------------------------------------------------


@pytest.mark.parametrize("p", [Fraction(0), Fraction(1, 2), Fraction(5, 6), Fraction(99, 100)])
def test_geometric_expected_steps(number, p):
    chain = Chain(geometric(p), number=number)
    assert chain.expected_steps("s") == 1 / (1 - p)
    assert chain.absorption_probabilities("s") == {"end": 1}


def test_geometric_step_distribution_is_the_geometric_law(number):
    p = Fraction(2, 3)
    distribution = Chain(geometric(p), number=number).step_distribution("s", 10)
    assert distribution == [0] + [p ** (k - 1) * (1 - p) for k in range(1, 11)]
    assert sum(distribution) == 1 - p**10
    assert all(type(x) is Fraction for x in distribution)


@pytest.mark.parametrize("start", range(0, 7))
def test_fair_gamblers_ruin(number, start):
    chain = Chain(gamblers_ruin(6, 1, 1), number=number)
    assert chain.expected_steps(start) == start * (6 - start)
    expected = {6: Fraction(start, 6), 0: Fraction(6 - start, 6)}
    assert chain.absorption_probabilities(start) == {k: v for k, v in expected.items() if v}


@pytest.mark.parametrize("start", range(1, 5))
def test_unfair_gamblers_ruin(number, start):
    goal, p, q = 5, Fraction(2, 3), Fraction(1, 3)
    chain = Chain(gamblers_ruin(goal, 2, 1), number=number)
    ratio = q / p
    win = (1 - ratio**start) / (1 - ratio**goal)
    assert chain.absorption_probabilities(start) == {goal: win, 0: 1 - win}
    assert chain.expected_steps(start) == start / (q - p) - goal / (q - p) * win


def test_three_state_cycle(number):
    chain = Chain(CYCLE, number=number)
    assert chain.expected_steps("a") == Fraction(12, 5)
    assert chain.expected_steps("b") == Fraction(14, 5)
    assert chain.expected_steps("c") == Fraction(9, 5)
    assert chain.absorption_probabilities("a") == {"out at a": Fraction(3, 5), "out at c": Fraction(2, 5)}


def test_two_heads_in_a_row(number):
    chain = Chain(TWO_HEADS, number=number)
    assert chain.expected_steps("none") == 6
    assert chain.expected_steps("H") == 4
    # P(first HH on toss k) = Fibonacci(k - 1) / 2**k.
    distribution = chain.step_distribution("none", 7)
    assert distribution == [0, 0, Fraction(1, 4), Fraction(1, 8), Fraction(2, 16), Fraction(3, 32),
                            Fraction(5, 64), Fraction(8, 128)]


def test_expected_steps_all_matches_single_queries(number):
    chain = Chain(CYCLE, number=number)
    every = chain.expected_steps_all()
    assert every == {state: chain.expected_steps(state) for state in chain.states}
    assert every["out at a"] == 0


def test_second_start_reuses_and_extends_the_cache(number):
    transitions = {"x": [(1, "a")], **CYCLE, "y": [(1, "x"), (1, "end")]}
    chain = Chain(transitions, number=number)
    assert chain.expected_steps("b") == Fraction(14, 5)
    assert chain.expected_steps("y") == 1 + (1 + Fraction(12, 5)) / 2


# -- weights --------------------------------------------------------------------------


def test_repeated_next_states_add_up(number):
    chain = Chain({"s": [(1, "x"), (1, "y"), (1, "x")]}, number=number)
    assert chain.absorption_probabilities("s") == {"x": Fraction(2, 3), "y": Fraction(1, 3)}


def test_weights_are_normalised_per_state(number):
    ints = Chain({"s": [(2, "s"), (6, "end")]}, number=number)
    fractions = Chain({"s": [(Fraction(1, 4), "s"), (Fraction(3, 4), "end")]}, number=number)
    assert ints.expected_steps("s") == fractions.expected_steps("s") == Fraction(4, 3)


def test_zero_weights_are_ignored(number):
    chain = Chain({"s": [(0, "never"), (3, "end"), (0, "s")]}, number=number)
    assert chain.absorption_probabilities("s") == {"end": 1}
    assert chain.expected_steps("s") == 1
    assert "never" not in chain.states


def test_self_loop_inside_a_larger_cycle(number):
    # a stays with 1/2, else goes to b; b returns to a or ends, evenly.
    chain = Chain({"a": [(1, "a"), (1, "b")], "b": [(1, "a"), (1, "end")]}, number=number)
    # E_a = 2 + E_b, E_b = 1 + E_a / 2  =>  E_a = 6, E_b = 4.
    assert chain.expected_steps("a") == 6
    assert chain.expected_steps("b") == 4


def test_absorbing_start(number):
    chain = Chain(TWO_HEADS, number=number)
    assert chain.expected_steps("HH") == 0
    assert chain.absorption_probabilities("HH") == {"HH": 1}
    assert chain.step_distribution("HH", 2) == [1, 0, 0]
    assert chain.expected_reward("HH", lambda state: 1) == 0


def test_states_and_absorbing():
    chain = Chain(CYCLE)
    assert chain.states == ("a", "b", "c", "out at a", "out at c")
    assert chain.absorbing == ("out at a", "out at c")


def test_results_are_fractions(number):
    chain = Chain(CYCLE, number=number)
    assert type(chain.expected_steps("a")) is Fraction
    assert all(type(p) is Fraction for p in chain.absorption_probabilities("a").values())
    assert type(chain.expected_reward("a", lambda state: 1)) is Fraction


# -- rewards --------------------------------------------------------------------------


def test_expected_reward_counts_visits(number):
    chain = Chain(CYCLE, number=number)
    assert chain.expected_reward("a", lambda state: 1) == chain.expected_steps("a")
    # Visits: V_a = 1 / (1 - 1/2 * 1/3) = 6/5, V_b = V_c = V_a / 2.
    assert chain.expected_reward("a", lambda state: state == "a") == Fraction(6, 5)
    assert chain.expected_reward("a", lambda state: Fraction(1, 2) if state == "b" else 0) == Fraction(3, 10)


def test_expected_reward_can_give_an_exit_probability(number):
    # Collect, on leaving each state, its chance of ending "out at c" next.
    chain = Chain(CYCLE, number=number)
    chance = {"a": 0, "b": 0, "c": Fraction(2, 3)}
    assert chain.expected_reward("a", chance.__getitem__) == chain.absorption_probabilities("a")["out at c"]


def test_reward_must_be_exact():
    with pytest.raises(TypeError, match="reward"):
        Chain(CYCLE).expected_reward("a", lambda state: 0.5)


# -- chains that may never end, and bad input --------------------------------------------


def test_closed_cycle_without_absorption(number):
    chain = Chain({"start": [(1, "a"), (1, "end")], "a": [(1, "b")], "b": [(1, "a")], "fine": [(1, "end")]},
                  number=number)
    with pytest.raises(InfiniteExpectation, match=r"'start' may never be absorbed.*closed cycle of 2 states"):
        chain.expected_steps("start")
    with pytest.raises(InfiniteExpectation):
        chain.absorption_probabilities("start")
    with pytest.raises(InfiniteExpectation):
        chain.expected_reward("a", lambda state: 1)
    with pytest.raises(InfiniteExpectation):
        chain.expected_steps_all()
    assert chain.expected_steps("fine") == 1
    # The step distribution simply never collects the trapped half.
    assert chain.step_distribution("start", 3) == [0, Fraction(1, 2), 0, 0]


def test_self_loop_only(number):
    chain = Chain({"start": [(1, "stuck"), (1, "end")], "stuck": [(3, "stuck")]}, number=number)
    with pytest.raises(InfiniteExpectation, match="'stuck', which only leads back to itself"):
        chain.expected_steps("start")
    with pytest.raises(InfiniteExpectation):
        chain.expected_steps("stuck")
    assert issubclass(InfiniteExpectation, ValueError)


def test_negative_weight():
    with pytest.raises(ValueError, match="negative"):
        Chain({"s": [(2, "x"), (-1, "y")]})


@pytest.mark.parametrize("pairs", [[], [(0, "x"), (0, "y")]])
def test_state_without_positive_weight(pairs):
    with pytest.raises(ValueError, match="'s' has no transitions with positive weight"):
        Chain({"s": pairs})


def test_float_weight():
    with pytest.raises(TypeError, match="int or Fraction"):
        Chain({"s": [(0.5, "x")]})


def test_malformed_pair():
    with pytest.raises(ValueError, match=r"\(weight, next_state\) pairs"):
        Chain({"s": [(1, "x", "y")]})


def test_unknown_state():
    with pytest.raises(KeyError, match="unknown state 'nowhere'"):
        Chain(CYCLE).expected_steps("nowhere")


def test_negative_max_steps():
    with pytest.raises(ValueError, match="max_steps"):
        Chain(CYCLE).step_distribution("a", -1)


# -- property: agree with a dense exact solve ----------------------------------------------

ABSORBING = ["win", "lose"]


@st.composite
def small_chains(draw):
    """Up to 8 transient states 0..n-1 with random int weights, each certain to be absorbed.

    State i always has a positive-weight move to an absorbing state or to a
    lower-numbered state, so by induction every state can reach absorption;
    the other moves are arbitrary, so cycles and self-loops are common.
    """
    n = draw(st.integers(1, 8))
    targets = st.sampled_from(list(range(n)) + ABSORBING)
    transitions = {}
    for i in range(n):
        way_out = draw(st.sampled_from(list(range(i)) + ABSORBING))
        pairs = [(draw(st.integers(1, 5)), way_out)]
        pairs += draw(st.lists(st.tuples(st.integers(0, 5), targets), max_size=4))
        transitions[i] = pairs
    return transitions


def dense_matrices(transitions):
    """Transient-to-transient Q and transient-to-absorbing R as lists of Fraction rows."""
    n = len(transitions)
    q = [[Fraction(0)] * n for _ in range(n)]
    r = [[Fraction(0)] * len(ABSORBING) for _ in range(n)]
    for i, pairs in transitions.items():
        total = sum(weight for weight, _ in pairs)
        for weight, target in pairs:
            if target in ABSORBING:
                r[i][ABSORBING.index(target)] += Fraction(weight, total)
            else:
                q[i][target] += Fraction(weight, total)
    return q, r


def gauss_jordan(matrix, columns):
    """Solve matrix @ X = columns exactly (columns: one row of right-hand sides per equation)."""
    n = len(matrix)
    rows = [list(matrix[i]) + list(columns[i]) for i in range(n)]
    for k in range(n):
        pivot = next(i for i in range(k, n) if rows[i][k] != 0)
        rows[k], rows[pivot] = rows[pivot], rows[k]
        rows[k] = [value / rows[k][k] for value in rows[k]]
        for i in range(n):
            if i != k and rows[i][k] != 0:
                factor = rows[i][k]
                rows[i] = [a - factor * b for a, b in zip(rows[i], rows[k])]
    return [row[n:] for row in rows]


@settings(max_examples=150, deadline=None)
@given(transitions=small_chains(), use_mpq=st.booleans())
def test_agrees_with_dense_solve(transitions, use_mpq):
    number = mpq if use_mpq and mpq is not None else Fraction
    chain = Chain(transitions, number=number)
    n = len(transitions)
    q, r = dense_matrices(transitions)
    i_minus_q = [[(1 if i == j else 0) - q[i][j] for j in range(n)] for i in range(n)]
    solution = gauss_jordan(i_minus_q, [[1] + r[i] for i in range(n)])

    for start in range(n):
        steps, *absorption = solution[start]
        assert chain.expected_steps(start) == steps
        assert chain.expected_reward(start, lambda state: 1) == steps
        expected = {name: p for name, p in zip(ABSORBING, absorption) if p}
        assert chain.absorption_probabilities(start) == expected
    assert chain.expected_steps_all() == {**{i: solution[i][0] for i in range(n)},
                                          **{state: 0 for state in chain.absorbing}}


@settings(max_examples=50, deadline=None)
@given(transitions=small_chains())
def test_step_distribution_agrees_with_matrix_powers(transitions):
    chain = Chain(transitions)
    n = len(transitions)
    q, r = dense_matrices(transitions)
    row = [Fraction(int(i == 0)) for i in range(n)]  # distribution over transient states, from state 0
    expected = [Fraction(0)]
    for _ in range(6):
        expected.append(sum(row[i] * sum(r[i]) for i in range(n)))
        row = [sum(row[i] * q[i][j] for i in range(n)) for j in range(n)]
    assert chain.step_distribution(0, 6) == expected


# -- the strongly connected components: one search, run in Python or compiled --------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30), st.floats(0, 0.3), st.integers(0, 2**32))
def test_the_components_in_python_are_the_compiled_ones(n, density, seed):
    import random

    import numpy as np

    from toolkit.solve import scc

    rng = random.Random(seed)
    successors = [[j for j in range(n) if rng.random() < density] for _ in range(n)]
    lengths = np.array([len(s) for s in successors], np.int64)
    stop = np.cumsum(lengths)
    target = np.array([j for s in successors for j in s], np.int64)
    plain = scc.components(stop - lengths, stop, target)
    compiled = scc.compiled().components(stop - lengths, stop, target)
    assert all(np.array_equal(a, b) for a, b in zip(plain, compiled))
    component_of, members, starts = plain
    for c in range(len(starts) - 1):  # a component reaches only itself and those numbered before it
        for i in members[starts[c]:starts[c + 1]]:
            assert component_of[i] == c and all(component_of[j] <= c for j in successors[i])


# -- the exact linear solver: p-adic lifting against elimination ---------------------------------

import contextlib  # noqa: E402
import random  # noqa: E402

from toolkit.solve import linear  # noqa: E402

P = linear.PRIMES[0]


@contextlib.contextmanager
def lifting_from(size):
    """Lift every component of at least ``size`` states (``None``: none, all eliminated)."""
    saved = linear.LIFT_FROM, linear.LIFT_ALWAYS_FROM
    linear.LIFT_FROM = linear.LIFT_ALWAYS_FROM = float("inf") if size is None else size
    try:
        yield
    finally:
        linear.LIFT_FROM, linear.LIFT_ALWAYS_FROM = saved


def every_answer(transitions, number=None):
    """Every exact figure of a chain whose states are all certain to be absorbed, from every state."""
    chain = Chain(transitions, number=number)
    starts = list(transitions)
    return (chain.expected_steps_all(),
            [chain.absorption_probabilities(start) for start in starts],
            [chain.expected_reward(start, lambda state: hash(state) % 3) for start in starts])


def lifted_and_eliminated(transitions, number=None):
    with lifting_from(1):
        lifted = every_answer(transitions, number)
    with lifting_from(None):
        eliminated = every_answer(transitions, number)
    return lifted, eliminated


@st.composite
def awkward_chains(draw):
    """Up to 12 transient states, each certain to be absorbed (as in ``small_chains``), with weights
    from 1 to a million: a state may stay put or cycle with odds of a million to one against
    leaving (nearly singular systems, large fractions); some weights are Fractions."""
    n = draw(st.integers(1, 12))
    targets = st.sampled_from(list(range(n)) + ABSORBING)
    weights = st.one_of(st.integers(1, 5), st.integers(1, 10**6),
                        st.builds(Fraction, st.integers(1, 50), st.integers(1, 50)))
    transitions = {}
    for i in range(n):
        way_out = draw(st.sampled_from(list(range(i)) + ABSORBING))
        pairs = [(draw(st.sampled_from([1, 2, 10**6])), way_out)]
        pairs += draw(st.lists(st.tuples(weights, targets), min_size=1, max_size=4))
        transitions[i] = pairs
    return transitions


@settings(max_examples=120, deadline=None)
@given(transitions=small_chains())
def test_lifting_gives_the_fractions_of_elimination(transitions):
    lifted, eliminated = lifted_and_eliminated(transitions)
    assert lifted == eliminated


@settings(max_examples=120, deadline=None)
@given(transitions=awkward_chains(), use_mpq=st.booleans())
def test_lifting_agrees_on_awkward_chains(transitions, use_mpq):
    number = mpq if use_mpq and mpq is not None else Fraction
    lifted, eliminated = lifted_and_eliminated(transitions, number)
    assert lifted == eliminated


def test_lifting_agrees_on_a_layered_chain_with_many_cycles():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from bench_chain import random_chain

    for seed in range(3):
        transitions = random_chain(600, 12, seed, cycle_rate=0.8, card_weights=seed != 1)
        with lifting_from(1):
            chain = Chain(transitions)
            lifted = (chain.expected_steps("start"), chain.absorption_probabilities("start"))
        with lifting_from(None):
            chain = Chain(transitions)
            eliminated = (chain.expected_steps("start"), chain.absorption_probabilities("start"))
        assert lifted == eliminated
        assert any(len(members) > 2 for members in chain._members)  # rings of six: real cycles


def ring(size: int, seed: int) -> dict:
    """One strongly connected component of ``size`` states (a ring with near chords, so elimination
    stays sparse) with a rare way out: large enough to be lifted by default."""
    rng = random.Random(seed)
    transitions = {}
    for k in range(size):
        pairs = [(rng.randint(1, 9), (k + 1) % size), (rng.randint(1, 9), (k + rng.randint(2, 4)) % size),
                 (rng.randint(1, 9), (k - 1) % size)]
        if rng.random() < 0.03:
            pairs.append((1, rng.choice(ABSORBING)))
        transitions[k] = pairs
    transitions[0].append((1, "win"))
    return transitions


def lifted_sizes(transitions, monkeypatch):
    """The sizes of the systems ``Chain`` lifts while answering, and the answers."""
    calls = []
    original = linear.lift_integer

    def spy(rows, rhs):
        calls.append(len(rows))
        return original(rows, rhs)

    monkeypatch.setattr(linear, "lift_integer", spy)
    chain = Chain(transitions)
    answers = (chain.expected_steps(0), chain.absorption_probabilities(5), chain.expected_steps_all())
    monkeypatch.setattr(linear, "lift_integer", original)
    return calls, answers


def test_a_component_is_lifted_when_its_elimination_would_cost_more(monkeypatch):
    transitions = ring(300, 7)
    assert linear.LIFT_FROM <= 300 < linear.LIFT_ALWAYS_FROM
    calls, answers = lifted_sizes(transitions, monkeypatch)
    assert calls == []  # a ring with near chords: little fill, cheap to eliminate
    monkeypatch.setattr(linear, "LIFT_WORK", 1_000)
    calls, lifted = lifted_sizes(transitions, monkeypatch)
    assert calls == [300, 300]  # the steps' system and the visits' system
    assert lifted == answers
    monkeypatch.setattr(linear, "LIFT_WORK", 10**9)
    monkeypatch.setattr(linear, "LIFT_ALWAYS_FROM", 300)
    calls, lifted = lifted_sizes(transitions, monkeypatch)
    assert calls == [300, 300] and lifted == answers


def test_the_cost_of_eliminating_is_counted():
    rows = [{k: 2, (k + 1) % 400: -1} for k in range(400)]  # one long cycle: each pivot adds one entry
    assert linear._cheap_to_eliminate(rows, 10_000)
    assert not linear._cheap_to_eliminate(rows, 100)


def determinant_p_chain():
    """Two states in a cycle whose integer system has determinant exactly ``P``, the first prime.

    a: 1 to b, (P - 1) / 2 out; b: 1 to a, 1 out. Rows (T - loop, -w): [(P + 1) / 2, -1], [-1, 2].
    """
    return {"a": [(1, "b"), ((P - 1) // 2, "out a")], "b": [(1, "a"), (1, "out b")]}


def test_a_prime_that_divides_the_determinant_is_passed_over():
    rows = [{0: (P + 1) // 2, 1: -1}, {0: -1, 1: 2}]
    assert linear._factor(rows, P) is None
    assert factor_python(rows, P) is None
    assert linear._factor(rows, linear.PRIMES[1]) is not None
    numerators, denominator = linear.lift_integer(rows, [3, -5])
    x = [Fraction(n, denominator) for n in numerators]
    assert [sum(c * x[j] for j, c in row.items()) for row in rows] == [3, -5]
    assert denominator == P  # the determinant itself, the fraction in lowest terms
    lifted, eliminated = lifted_and_eliminated(determinant_p_chain())
    assert lifted == eliminated
    # by hand: T E_a - E_b = T and 2 E_b - E_a = 2 with T = (P + 1) / 2, so E_a = (2 T + 2) / (2 T - 1)
    assert lifted[0]["a"] == Fraction(P + 3, P)


def test_when_every_prime_divides_the_determinant_elimination_answers(monkeypatch):
    rows = [{0: (P + 1) // 2, 1: -1}, {0: -1, 1: 2}]
    monkeypatch.setattr(linear, "PRIMES", (P,))
    assert linear.lift_integer(rows, [1, 1]) is None
    with lifting_from(1):
        lifted = every_answer(determinant_p_chain())
    with lifting_from(None):
        assert lifted == every_answer(determinant_p_chain())


def test_rows_too_large_for_64_bits_are_eliminated():
    big = linear.MAX_ROW_SUM
    rows = [{0: big, 1: -1}, {0: -1, 1: 2}]
    assert linear.lift_integer(rows, [1, 1]) is None
    transitions = {"a": [(1, "b"), (big, "out")], "b": [(1, "a"), (1, "out")]}
    lifted, eliminated = lifted_and_eliminated(transitions)
    assert lifted == eliminated


@st.composite
def integer_systems(draw):
    """A diagonally dominant integer system (non-singular) of up to 25 unknowns, rhs of any size and sign."""
    n = draw(st.integers(1, 25))
    rows = []
    for i in range(n):
        row = {}
        for j, w in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(-9, 9)), max_size=5)):
            if j != i and w:
                row[j] = w
        row[i] = sum(abs(v) for v in row.values()) + draw(st.integers(1, 4))
        rows.append(row)
    rhs = draw(st.lists(st.one_of(st.integers(-5, 5), st.integers(-10**80, 10**80)), min_size=n, max_size=n))
    return rows, rhs


@settings(max_examples=80, deadline=None)
@given(system=integer_systems())
def test_lift_integer_solves_exactly(system):
    rows, rhs = system
    numerators, denominator = linear.lift_integer(rows, rhs)
    assert denominator > 0
    expected = linear.eliminate([{c: Fraction(v) for c, v in row.items()} for row in rows],
                                      [Fraction(v) for v in rhs])
    assert [Fraction(n, denominator) for n in numerators] == expected


def factor_python(rows, prime):
    """The elimination of ``linear._factor`` in plain Python (``linear._markowitz``), as the same arrays."""
    import numpy as np

    def packed(rows):  # rows of (index, value) pairs: where each row starts, the indices, the values
        start = np.zeros(len(rows) + 1, dtype=np.int64)
        start[1:] = np.cumsum([len(row) for row in rows])
        return (start, np.array([i for row in rows for i, _ in row], dtype=np.int64),
                np.array([v for row in rows for _, v in row], dtype=np.int64))

    work = [{c: v % prime for c, v in row.items() if v % prime} for row in rows]
    order, multipliers = linear._markowitz(work, None, prime)
    if order is None:
        return None
    upper = packed([[(c, v) for c, v in work[k].items() if c != k] for k in order])
    inverse = np.array([pow(work[k][k], -1, prime) for k in order], dtype=np.int64)
    return (np.array(order, dtype=np.int64), *packed(multipliers), *upper, inverse)


@settings(max_examples=40, deadline=None)
@given(system=integer_systems(), prime=st.sampled_from([P, 7, 101]))
def test_compiled_factorisation_is_the_python_one(system, prime):
    rows, _ = system
    compiled, plain = linear._factor(rows, prime), factor_python(rows, prime)
    assert (compiled is None) == (plain is None)
    if compiled is None:
        return
    import numpy as np

    assert np.array_equal(compiled[0], plain[0])  # the same pivots, in the same order
    for part in (1, 4):  # multipliers per pivot and upper entries per pivot: the same counts...
        assert np.array_equal(compiled[part], plain[part])
    for entries in ((2, 3), (5, 6)):  # ... and the same entries, in whatever order within a pivot
        starts = compiled[1] if entries == (2, 3) else compiled[4]
        for k in range(len(compiled[0])):
            segment = slice(starts[k], starts[k + 1])
            assert sorted(zip(compiled[entries[0]][segment], compiled[entries[1]][segment])) == \
                sorted(zip(plain[entries[0]][segment], plain[entries[1]][segment]))
    assert np.array_equal(compiled[7], plain[7])


def test_closed_cycles_still_raise_when_lifting():
    with lifting_from(1):
        test_closed_cycle_without_absorption(None)
        test_self_loop_only(None)
        chain = Chain({**ring(300, 3), "start": [(1, 0), (1, "trap")], "trap": [(1, "trap 2")],
                       "trap 2": [(1, "trap")]})
        assert chain.expected_steps(0) > 0
        with pytest.raises(InfiniteExpectation, match="closed cycle of 2 states"):
            chain.absorption_probabilities("start")


def test_lifted_answers_are_plain_fractions():
    with lifting_from(1):
        chain = Chain(ring(40, 5), number=Fraction)
        values = [chain.expected_steps(3), chain.expected_reward(3, lambda state: Fraction(1, 1 + state % 4)),
                  *chain.absorption_probabilities(3).values()]
    assert all(type(v) is Fraction and type(v.numerator) is int and type(v.denominator) is int for v in values)
