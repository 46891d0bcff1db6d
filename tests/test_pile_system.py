"""The pile-start system (``toolkit.games.diamoniak.pile_system``) solved by block lifting (``toolkit.solve.dense``)
against exact elimination.

Random systems shaped like solo Diamoniak's (a pass denominator per state, integer exits below it,
several strongly connected blocks, entries of a few bits to ~300 bits with large common factors)
are solved both ways, the lifting forced on even where it would not be chosen; solo decks give the
same answers as python-flint's exact solve block by block (what ``solo_odds`` used before); a prime that divides a
pivot is passed over; a reconstruction that lies cannot get through the exact check.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.games.diamoniak import solo as diamoniak_solo
from toolkit.games.diamoniak import pile_system
from toolkit.solve import dense, lift_kernel, linear


_FIXTURE = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]  # the monkeypatch is the same in every example


@pytest.fixture
def always_lift(monkeypatch):
    """Every system with a cyclic block goes to the lifting, however small."""
    monkeypatch.setattr(pile_system, "LIFT_FROM", 2)


def _flint(exits, denominators, own, start) -> Fraction:
    """python-flint's exact solve, block by block (``pile_system.solve_by_components``): what
    ``solo_odds`` solved the pile-start chain with before the lifting."""
    value = pile_system.solve_by_components(pile_system.reachable_blocks(exits, start), exits, denominators, own)[start]
    return Fraction(int(value.p), int(value.q))


def _eliminated(exits, denominators, own, start) -> Fraction:
    """``x[start]`` by Gauss-Jordan elimination in Fractions over every state (the reference)."""
    states = list(exits)
    index = {state: k for k, state in enumerate(states)}
    n = len(states)
    matrix = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for state in states:
        k = index[state]
        matrix[k][k] += denominators[state]
        for after, m in exits[state].items():
            matrix[k][index[after]] -= m
        matrix[k][n] = Fraction(own[state])
    for col in range(n):
        pivot = next(r for r in range(col, n) if matrix[r][col])
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        for r in range(n):
            if r != col and matrix[r][col]:
                factor = matrix[r][col] / matrix[col][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col])]
    k = index[start]
    return matrix[k][n] / matrix[k][k]


@st.composite
def pile_systems(draw, most: int = 9, signs: bool = False):
    """(exits, denominators, own, start): every row's exits add up to less than its denominator
    (the game can end from every pile start), so the system is non-singular; each row scaled by
    a shared factor as the passes' rows are. With ``signs``, ``own`` may be negative too."""
    n = draw(st.integers(1, most))
    bits = draw(st.sampled_from([4, 30, 70, 280]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    states = [("s", k) for k in range(n)]
    density = draw(st.sampled_from([0.2, 0.5, 1.0]))
    exits, denominators, own = {}, {}, {}
    for k, state in enumerate(states):
        scale = rng.choice([1, 2**40 * 3**20, rng.getrandbits(bits) | 1])
        denominator = rng.getrandbits(bits) + 2
        targets = [a for a in states if rng.random() < density]
        room = denominator - 1
        out = {}
        for after in targets:
            m = rng.randint(0, room // max(1, len(targets)))
            if m:
                out[after] = m * scale
        exits[state] = out
        denominators[state] = denominator * scale
        own[state] = rng.randint(-denominator if signs else 0, denominator) * scale
    return exits, denominators, own, states[0]


@settings(max_examples=80, deadline=None, suppress_health_check=_FIXTURE)
@given(pile_systems())
def test_lifting_gives_the_eliminated_answer(always_lift, system):
    exits, denominators, own, start = system
    expected = _eliminated(exits, denominators, own, start)
    assert pile_system.expected_from_start(exits, denominators, own, start) == expected
    assert _flint(exits, denominators, own, start) == expected
    # the lifting itself answers (no fallback), with every unknown
    blocks = pile_system.reachable_blocks(exits, start)
    order = [state for block in blocks for state in block]
    rows, rhs = pile_system.integer_rows(order, exits, denominators, own)
    found = dense.lift_blocks(rows, rhs, [0, *np.cumsum([len(block) for block in blocks]).tolist()])
    assert found is not None
    numerators, denominator = found
    for k, state in enumerate(order):
        assert Fraction(int(numerators[k]), int(denominator)) == _eliminated(exits, denominators, own, state)


@settings(max_examples=40, deadline=None, suppress_health_check=_FIXTURE)
@given(pile_systems(signs=True))
def test_answers_of_either_sign_are_exact(always_lift, system):
    # x >= 0 no longer holds: the numerators may not be read from the fewest digits, and then
    # more digits, or flint, answer; never a wrong fraction
    exits, denominators, own, start = system
    assert pile_system.expected_from_start(exits, denominators, own, start) == _eliminated(exits, denominators,
                                                                                           own, start)


@settings(max_examples=40, deadline=None)
@given(pile_systems())
def test_blocks_by_flint_give_the_eliminated_answer(system):
    exits, denominators, own, start = system
    blocks = pile_system.reachable_blocks(exits, start)
    value = pile_system.solve_by_components(blocks, exits, denominators, own)[start]
    assert Fraction(int(value.p), int(value.q)) == _eliminated(exits, denominators, own, start)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.floats(0, 0.6), st.integers(0, 2**32))
def test_reachable_blocks_are_the_reachable_components_in_solving_order(n, density, seed):
    rng = random.Random(seed)
    exits = {k: {j: 1 for j in range(n) if rng.random() < density} for k in range(n)}
    blocks = pile_system.reachable_blocks(exits, 0)
    reach = {k: _reachable(exits, k) for k in range(n)}
    assert sorted(s for block in blocks for s in block) == sorted(reach[0])
    where = {s: b for b, block in enumerate(blocks) for s in block}
    for block in blocks:
        for s in block:  # one block: the states that reach each other
            assert {t for t in reach[0] if s in reach[t] and t in reach[s]} == set(block)
            assert all(where[a] <= where[s] for a in exits[s])  # a block reaches only earlier ones


def _reachable(exits, start) -> set:
    seen, todo = set(), [start]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(exits[s])
    return seen


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**32))
def test_dense_lu_modulo_a_prime(m, seed):
    prime = dense.PRIMES[0]
    rng = np.random.default_rng(seed)
    a = rng.integers(0, prime, (m, m)).astype(np.int64)
    ok, lu, inverse = lift_kernel.dense_lu_mod(a, prime)
    assert ok  # a zero pivot has odds of about m / 2^26
    lower = [[int(lu[i, j]) if j < i else int(i == j) for j in range(m)] for i in range(m)]
    upper = [[int(lu[i, j]) if j >= i else 0 for j in range(m)] for i in range(m)]
    product = [[sum(lower[i][t] * upper[t][j] for t in range(m)) % prime for j in range(m)] for i in range(m)]
    assert product == a.tolist()
    assert all(int(inverse[k]) * upper[k][k] % prime == 1 for k in range(m))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 80), st.integers(0, 2**32), st.booleans())
def test_lehmer_reconstruction_is_wangs(steps, seed, has_answer):
    rng = random.Random(seed)
    prime = dense.PRIMES[0]
    modulus = prime ** steps
    if has_answer:  # a fraction well inside the modulus, so the reconstruction finds it
        half = max(1, (modulus.bit_length() - 8) // 2)
        numerator, denominator = rng.getrandbits(half) - rng.getrandbits(half), rng.getrandbits(half) | 1
        value = numerator * pow(denominator, -1, modulus) % modulus
    else:
        value = rng.randrange(modulus)
    assert linear.reconstruct(value, modulus) == _wang(value, modulus)


def _wang(value: int, modulus: int) -> tuple[int, int] | None:
    """Wang's rational reconstruction in its plain form (the extended Euclid algorithm on (modulus,
    value), stopped at the first remainder below sqrt(modulus / 2)): the reference."""
    import math

    bound = math.isqrt(modulus // 2)
    r0, r1 = modulus, value % modulus
    t0, t1 = 0, 1
    while r1 > bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
    if t1 == 0 or abs(t1) > bound or math.gcd(r1, abs(t1)) != 1:
        return None
    return (r1, t1) if t1 > 0 else (-r1, -t1)


def test_a_row_longer_than_one_run_of_products(always_lift):
    # a hub that exits to all 1,100 states of one cycle: its row is added up in two runs
    n = 1100
    exits = {k: {(k + 1) % n: 2} for k in range(1, n)}
    exits[0] = {k: 1 for k in range(n)}
    denominators = {k: 5 for k in range(1, n)}
    denominators[0] = n + 7
    own = {k: k % 3 for k in range(n)}
    blocks = pile_system.reachable_blocks(exits, 0)
    assert [len(block) for block in blocks] == [n]
    # by hand: x_k = a_k + b_k x_0 down the cycle (x_k = (own_k + 2 x_(k+1)) / 5), then the hub's row
    a, b = Fraction(own[n - 1], 5), Fraction(2, 5)
    total_a, total_b = a, b
    for k in range(n - 2, 0, -1):
        a, b = (own[k] + 2 * a) / 5, 2 * b / 5
        total_a, total_b = total_a + a, total_b + b
    expected = (own[0] + total_a) / (denominators[0] - 1 - total_b)
    order = blocks[0]
    found = dense.lift_blocks(*pile_system.integer_rows(order, exits, denominators, own), [0, n])
    assert found is not None  # the lifting's own answer, not flint's
    numerators, denominator = found
    assert Fraction(int(numerators[order.index(0)]), int(denominator)) == expected


def test_a_prime_that_divides_a_pivot_is_passed_over(always_lift, monkeypatch):
    p = dense.PRIMES[0]
    # a cyclic block whose first pivot is 0 modulo p, and a single state whose pivot is
    exits = {"a": {"b": 1, "c": 5}, "b": {"a": 2, "b": 1}, "c": {"c": 1}}
    denominators = {"a": 3 * p, "b": 7, "c": p + 1}
    own = {"a": 1, "b": 2, "c": 3}
    expected = _eliminated(exits, denominators, own, "a")
    tried = []
    original = dense._factor_blocks

    def spy(rows, block_start, prime):
        result = original(rows, block_start, prime)
        tried.append((prime, result is not None))
        return result

    monkeypatch.setattr(dense, "_factor_blocks", spy)
    assert pile_system.expected_from_start(exits, denominators, own, "a") == expected
    assert tried == [(p, False), (dense.PRIMES[1], True)]
    # with that prime alone, the lifting gives up and flint's solve answers
    monkeypatch.setattr(dense, "PRIMES", (p,))
    tried.clear()
    assert pile_system.expected_from_start(exits, denominators, own, "a") == expected
    assert tried == [(p, False)]


def test_a_wrong_reconstruction_cannot_pass_the_check(always_lift, monkeypatch):
    exits = {0: {0: 3, 1: 4, 2: 1}, 1: {0: 5, 2: 2}, 2: {1: 6, 0: 1}}
    denominators = {0: 11, 1: 13, 2: 17}
    own = {0: 2, 1: 1, 2: 3}
    expected = [_eliminated(exits, denominators, own, state) for state in (2, 1, 0)]
    system = (*pile_system.integer_rows([2, 1, 0], exits, denominators, own), [0, 3])
    monkeypatch.setattr(dense, "reconstruct", lambda value, modulus: (1, 3))  # a plausible lie
    found = dense.lift_blocks(*system)  # the missing factor is found again from the digits
    assert [Fraction(int(n), int(found[1])) for n in found[0]] == expected
    monkeypatch.setattr(dense, "_small_multiplier", lambda residue, modulus, bits: 2)  # and a second lie
    checked = []
    original = dense._checked_solution

    def spy(*args):
        checked.append(original(*args))
        return checked[-1]

    monkeypatch.setattr(dense, "_checked_solution", spy)
    assert dense.lift_blocks(*system) is None
    assert checked and not any(checked)  # every candidate tried, every one refused by the exact check
    assert pile_system.expected_from_start(exits, denominators, own, 0) == expected[2]  # flint's answer


def test_a_singular_system_is_refused_as_before(always_lift):
    # a state that only loops on itself with probability one: no expected value
    exits, denominators, own = {0: {0: 2, 1: 1}, 1: {1: 5}}, {0: 3, 1: 5}, {0: 1, 1: 1}
    with pytest.raises(ZeroDivisionError):
        _flint(exits, denominators, own, 0)
    with pytest.raises(ZeroDivisionError):
        pile_system.expected_from_start(exits, denominators, own, 0)


@pytest.mark.parametrize("witches", [9, 10])
def test_solo_answers_are_unchanged(always_lift, monkeypatch, witches):
    from toolkit.catalogue import load

    deck = diamoniak_solo.SoloDeck.from_catalogue(load("diamoniak", overrides=[f"witch={witches}"],
                                                       require_art=False))
    seen = []
    lifted = pile_system.expected_from_start

    def both(exits, denominators, own, start):
        """The lifting's answer, held to flint's block by block (the solve ``solo_odds`` had before)."""
        mine = lifted(exits, denominators, own, start)
        assert mine == _flint(exits, denominators, own, start)
        seen.append(mine)
        return mine

    monkeypatch.setattr(pile_system, "expected_from_start", both)  # the name solo_odds calls
    odds = diamoniak_solo.solo_odds(deck, max_states=10**8)
    assert len(seen) == 1 and odds.expected_turns == 1 + seen[0]
