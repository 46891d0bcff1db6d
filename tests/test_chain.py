"""Exact absorbing Markov chains: hand-derived chains, errors, and a dense-solve cross-check."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.odds import Chain, InfiniteExpectation

try:
    from gmpy2 import mpq
except ImportError:
    mpq = None

NUMBERS = [
    pytest.param(Fraction, id="Fraction"),
    pytest.param(mpq, id="mpq", marks=pytest.mark.skipif(mpq is None, reason="gmpy2 not installed")),
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
