"""Exact solutions of sparse rational linear systems: p-adic lifting, and elimination as the fallback.

An absorbing chain is solved one linear system per cycle of states (a strongly connected
component): ``I - Q`` on its states, or the transpose. Exact Gaussian elimination on such a system
carries fractions of thousands of digits through every step, so its cost grows with the size of the
answer at every operation. Here the system is made
integer (each row times the common denominator of its entries), factored once modulo a prime
below 2^31, and the solution is lifted p-adically (Dixon's method): each step solves the system
modulo ``p`` with that one factorisation and divides the remainder by ``p``, all in 64-bit
integers in a compiled loop. After ``K`` steps the digits give the solution modulo ``p^K``; a
rational reconstruction turns it into fractions once ``p^K`` passes twice the size of numerator
times denominator. Nothing is trusted on a guess: the fractions found are put back into the
integer system and must satisfy it exactly, and the factorisation modulo ``p`` proves the system
non-singular, so a solution that checks is the only one.

Lifting is for large systems and for those whose elimination fills in (``LIFT_ALWAYS_FROM``,
``LIFT_WORK``); the others are eliminated exactly (``eliminate``), and so is any system the
lifting cannot take (an entry too large for 64-bit arithmetic, or every prime tried divides the
determinant), which any non-singular system with usable diagonal pivots allows. A lifted solution can be handed
over as integers over one common denominator (``solve_shared``), so that sums of it need one
division instead of a reduced fraction per unknown.

Both ways choose pivots by Markowitz's rule (the fewest other entries in the pivot's row times its
column: the least fill-in), kept in a heap so choosing costs a logarithm, not a scan of every row.

``reconstruct`` (rational reconstruction) and ``joined_digits`` serve the block lifting of
``toolkit.solve.dense`` too.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gmpy2 import from_binary as _from_binary
from gmpy2 import lcm as _lcm
from gmpy2 import mpz as _big

#: Primes just below 2^31, tried in turn: the products of two residues fit in a signed 64-bit int.
PRIMES = (2147483629, 2147483587, 2147483579, 2147483563, 2147483549, 2147483543, 2147483497, 2147483489)

#: A system this small is eliminated directly: the lifting's fixed costs would pass the gain.
LIFT_FROM = 150

#: A system this large is always lifted. Between the two, the elimination is tried first modulo a
#: prime (structure only, cheap) and the system is lifted when that costs more than ``LIFT_WORK``
#: updates: the lifting's one-off start (numba's import and its cached kernels, about 1.5 s on a
#: 2-core machine) only pays where elimination with large fractions would take longer.
LIFT_ALWAYS_FROM = 5000
LIFT_WORK = 100_000

#: The integer rows' absolute sums must stay below this for the 64-bit remainders (see ``lift_steps``).
MAX_ROW_SUM = 1 << 31


def _from_limbs(data: bytes):
    """A non-negative little-endian number as gmpy2's integer (its binary format: type, sign, bytes)."""
    return _from_binary(b"\x01\x01" + data)


#: Digits joined into one number by the compiled loop before Python's integers take over.
_CHUNK = 64

#: The bits by which p^steps must pass the probe's fraction before the whole solution is tried: a
#: residue that only looks like a small fraction by chance does so with odds of about 2^-MARGIN.
MARGIN = 40

#: The random combination of the unknowns that decides when the lifting has gone far enough.
PROBE_SEED = 20240611


def solve(rows: list[dict[int, Any]], rhs: list[Any], number: type = Fraction) -> list[Any]:
    """The exact solution of ``sum_c rows[r][c] * x[c] = rhs[r]``, as ``number`` values.

    ``rows[r]`` maps a column to a coefficient and ``rhs`` holds the right-hand sides, all of type
    ``number`` (``Fraction`` or gmpy2's ``mpq``); the system must be square and non-singular with
    every diagonal entry usable as a pivot, as ``I - Q`` (and its transpose) are for a part of an
    absorbing chain that can be left. Large systems, and those whose elimination would cost many
    updates, are lifted p-adically (see ``LIFT_ALWAYS_FROM``); the others, and any the lifting
    cannot take, are eliminated, which modifies the inputs.
    """
    values, denominator = solve_shared(rows, rhs, number)
    if denominator is None:
        return values
    return [value / denominator for value in values]


def solve_shared(rows: list[dict[int, Any]], rhs: list[Any], number: type = Fraction) -> tuple[list[Any], Any]:
    """``solve``'s answer as (values, denominator): the solution is each value divided by
    ``denominator``, or the values themselves when it is None (an eliminated system).

    A lifted solution comes as integers (of type ``number``) over one common denominator: a
    caller that only needs sums of them (the flow out of a component, its share of a reward) can
    add them up first and divide once, which saves reducing every fraction on its own."""
    if len(rows) >= LIFT_ALWAYS_FROM or (len(rows) >= LIFT_FROM and not _cheap_to_eliminate(rows)):
        solution = lift_rational(rows, rhs)
        if solution is not None:
            numerators, denominator = solution
            if number is Fraction:  # a Fraction keeps Python's own ints inside
                return [Fraction(int(n)) for n in numerators], Fraction(int(denominator))
            return [number(n) for n in numerators], number(denominator)
    return eliminate(rows, rhs), None


# -- the fallback: exact elimination ---------------------------------------------------------------

class _OverBudget(Exception):
    pass


def _cheap_to_eliminate(rows: Sequence[dict[int, Any]], budget: int | None = None) -> bool:
    """True when eliminating ``rows`` takes at most ``budget`` (default ``LIFT_WORK``) entry updates.

    Counted by eliminating, in Markowitz order, a copy with random non-zero residues modulo the
    first prime in place of the values: the same fill as the exact elimination (but for a chance
    cancellation), at the cost of small ints, and stopped as soon as the budget is passed."""
    rng = random.Random(PROBE_SEED)
    prime = PRIMES[0]
    work = [{c: rng.randrange(1, prime) for c in row} for row in rows]
    try:
        _markowitz(work, None, prime, LIFT_WORK if budget is None else budget)
    except _OverBudget:
        return False
    return True


def eliminate(rows: list[dict[int, Any]], rhs: list[Any]) -> list[Any]:
    """Solve a sparse system by exact elimination in the values' own type; modifies its inputs.

    Any diagonal entry can be the pivot (``I - Q`` of a component that can be left is a
    non-singular M-matrix: no zero pivot is ever met); the next pivot is the one with the least
    Markowitz cost, ties to the lowest index.
    """
    order, _ = _markowitz(rows, rhs, None)
    return _back_substitute(rows, rhs, order, lambda value, pivot: value / pivot)


def _markowitz(rows: list[dict[int, Any]], rhs: list[Any], prime: int | None, budget: int | None = None):
    """Eliminate below the pivots in Markowitz order, in place: returns (pivot order, multipliers).

    With ``prime`` the values are ints modulo ``prime`` and the multipliers (for each pivot, the
    rows it updated and by how much) are recorded so other right-hand sides can follow; a zero
    pivot then returns (None, None). Without it the values are exact rationals and ``rhs`` is
    updated as the rows are. With ``budget``, raises ``_OverBudget`` once more entry updates than
    that have been made.
    """
    size = len(rows)
    spent = 0
    columns: list[set[int]] = [set() for _ in range(size)]  # column -> rows (not yet pivots) using it
    for r, row in enumerate(rows):
        for c in row:
            columns[c].add(r)
    done = bytearray(size)
    heap = [((len(rows[j]) - 1) * (len(columns[j]) - 1), j) for j in range(size)]
    heapq.heapify(heap)
    order: list[int] = []
    multipliers: list[list[tuple[int, int]]] = []
    while heap:
        cost, k = heapq.heappop(heap)
        if done[k] or cost != (len(rows[k]) - 1) * (len(columns[k]) - 1):
            continue  # a stale entry: the row or column changed since it was pushed
        done[k] = 1
        order.append(k)
        pivot_row = rows[k]
        pivot = pivot_row.get(k)
        if prime is not None:
            if not pivot:
                return None, None
            inverse = pow(pivot, -1, prime)
            updates: list[tuple[int, int]] = []
            multipliers.append(updates)
        for c in pivot_row:
            columns[c].discard(k)
        touched = set(pivot_row)
        if budget is not None:
            spent += len(columns[k]) * len(pivot_row)
            if spent > budget:
                raise _OverBudget
        for i in list(columns[k]):
            row = rows[i]
            if prime is None:
                factor = row.pop(k) / pivot
            else:
                factor = row.pop(k) * inverse % prime
                updates.append((i, factor))
            columns[k].discard(i)
            touched.add(i)
            for column, value in pivot_row.items():
                if column == k:
                    continue
                if column in row:
                    updated = row[column] - factor * value
                    if prime is not None:
                        updated %= prime
                    if updated:
                        row[column] = updated
                    else:
                        del row[column]
                        columns[column].discard(i)
                else:
                    row[column] = -factor * value if prime is None else -factor * value % prime
                    columns[column].add(i)
            if prime is None:
                rhs[i] -= factor * rhs[k]
        for j in touched:
            if not done[j]:
                heapq.heappush(heap, ((len(rows[j]) - 1) * (len(columns[j]) - 1), j))
    return order, multipliers


def _back_substitute(rows, rhs, order, divide):
    """Solve the eliminated system: each pivot row now only names pivots chosen after it."""
    solution: list[Any] = [None] * len(rows)
    for k in reversed(order):
        total = rhs[k]
        for column, value in rows[k].items():
            if column != k:
                total -= value * solution[column]
        solution[k] = divide(total, rows[k][k])
    return solution


# -- p-adic lifting --------------------------------------------------------------------------------

def lift_rational(rows: Sequence[dict[int, Any]], rhs: Sequence[Any]) -> tuple[list[int], int] | None:
    """(numerators, common denominator) of the solution of a rational system, or None when the
    lifting cannot take it (``solve`` then eliminates). Each row and its right-hand side are
    multiplied by the least common denominator of the row's coefficients, and the right-hand
    side as a whole by the common denominator of its values; the solution is scaled back."""
    integer_rows: list[dict[int, int]] = []
    scaled_rhs: list[Any] = []
    for row, value in zip(rows, rhs):
        scale = 1
        for coefficient in row.values():
            d = int(coefficient.denominator)
            if d != 1:
                scale = scale * d // math.gcd(scale, d)
        integer_rows.append({c: int(v.numerator) * (scale // int(v.denominator)) for c, v in row.items()})
        scaled_rhs.append(value * scale if value else 0)  # in the value's own type: gmpy2's is fastest
    common = _big(1)
    for value in scaled_rhs:
        if value:
            common = _lcm(common, value.denominator)
    integers = [_big(value.numerator) * (common // value.denominator) if value else 0 for value in scaled_rhs]
    solution = lift_integer(integer_rows, integers)
    if solution is None:
        return None
    numerators, denominator = solution
    return numerators, denominator * common


def lift_integer(rows: Sequence[dict[int, int]], rhs: Sequence[int]) -> tuple[list[int], int] | None:
    """(numerators N, denominator d > 0) with ``rows @ N == d * rhs`` exactly, checked, for an
    integer system; None if its entries are too large for the 64-bit loop or every prime in
    ``PRIMES`` divides its determinant."""
    import numpy as np

    size = len(rows)
    if size == 0:
        return [], 1
    if any(sum(abs(v) for v in row.values()) >= MAX_ROW_SUM for row in rows):
        return None
    for prime in PRIMES:
        factored = _factor(rows, prime)
        if factored is not None:
            break
    else:
        return None
    matrix = _csr(rows)
    digits_in = _balanced_digits(rhs, prime)
    probe = np.array(random.Random(PROBE_SEED).choices(range(1, 1 << 16), k=size), dtype=np.int64)
    state = _Lifting(size, prime, factored, matrix, digits_in, probe)
    steps = 16 + len(digits_in)
    # Cramer and Hadamard: the denominator and every numerator are at most the product over rows
    # of (the row's Euclidean norm + |its right-hand side|), so past twice that size (and the
    # probe's and the margin's bits) the reconstruction cannot fail; not being done by then would
    # be a fault here, and eliminating is the safe answer to it.
    bound_bits = sum((math.isqrt(sum(v * v for v in row.values())) + 1 + abs(int(b))).bit_length()
                     for row, b in zip(rows, rhs))
    probe_bits = 16 + size.bit_length()  # the probe's numerator: a sum of ``size`` numerators times < 2^16
    most_steps = (2 * bound_bits + probe_bits + MARGIN + 2) // (prime.bit_length() - 1) + 1
    while state.steps < most_steps:
        state.run(min(steps, most_steps - state.steps + 1))
        modulus = state.modulus()
        guess = reconstruct(state.probe_value(), modulus)
        if guess is not None and abs(guess[0]).bit_length() + guess[1].bit_length() + MARGIN < modulus.bit_length():
            found = _full_solution(state, guess[1], rows, rhs)
            if found is not None:
                return found
        steps = max(8, state.steps // 10)
    return None


class _Lifting:
    """The p-adic digits of the solution so far, and the compiled loop that adds more."""

    def __init__(self, size, prime, factored, matrix, digits_in, probe):
        import numpy as np

        self.size, self.prime, self.factored, self.matrix = size, prime, factored, matrix
        self.digits_in, self.probe = digits_in, probe
        self.carry = np.zeros(size, dtype=np.int64)
        self.digits: list = []  # one int64 array of ``size`` digits in [0, prime) per step
        self.probe_sums: list[int] = []  # per step: sum of probe * digit, exact
        self.steps = 0

    def run(self, steps: int) -> None:
        import numpy as np

        from toolkit.solve.lift_kernel import lift_steps

        block = np.zeros((steps, self.size), dtype=np.int64)
        given = self.digits_in[self.steps:self.steps + steps]
        incoming = np.zeros((steps, self.size), dtype=np.int64)
        if len(given):
            incoming[:len(given)] = given
        sums_high = np.zeros(steps, dtype=np.int64)
        sums_low = np.zeros(steps, dtype=np.int64)
        order, lower_start, lower_row, lower_value, upper_start, upper_column, upper_value, inverse = self.factored
        start, column, value = self.matrix
        lift_steps(self.prime, order, lower_start, lower_row, lower_value, upper_start, upper_column, upper_value,
                   inverse, start, column, value, incoming, self.carry, block, self.probe, sums_high, sums_low)
        self.digits.append(block)
        self.probe_sums.extend((int(high) << 32) + int(low) for high, low in zip(sums_high, sums_low))
        self.steps += steps

    def modulus(self) -> int:
        return self.prime ** self.steps

    def probe_value(self) -> int:
        """sum_i probe_i * x_i modulo p^steps, from the per-step sums (Horner from the top)."""
        value = 0
        for s in reversed(self.probe_sums):
            value = value * self.prime + s
        return value % self.modulus()

    def values(self) -> list:
        """Every unknown modulo p^steps as an integer (``joined_digits``)."""
        import numpy as np

        return joined_digits(np.concatenate(self.digits), self.prime)


def joined_digits(digits, prime: int) -> list:
    """The integers whose base-``prime`` digits, least significant first, are the columns of ``digits``
    (steps x unknowns, each in [0, prime)): runs of ``_CHUNK`` digits made into numbers by the compiled
    loop, then joined by halves (large products are where GMP is fastest)."""
    import numpy as np

    from toolkit.solve.lift_kernel import chunk_limbs

    limbs = (_CHUNK * prime.bit_length() + 31) // 32 + 1
    packed = chunk_limbs(np.ascontiguousarray(digits), prime, _CHUNK, limbs)  # size x chunks x limbs, uint32
    size, chunks = packed.shape[0], packed.shape[1]
    raw = packed.astype("<u4").tobytes()
    width = 4 * limbs
    parts = [np.array([_from_limbs(raw[(i * chunks + c) * width:(i * chunks + c + 1) * width])
                       for i in range(size)], dtype=object) for c in range(chunks)]
    weight = _big(prime) ** _CHUNK
    while len(parts) > 1:
        if len(parts) % 2:
            parts.append(np.zeros(size, dtype=object))
        parts = [parts[k] + parts[k + 1] * weight for k in range(0, len(parts), 2)]
        weight *= weight
    return list(parts[0])


def _full_solution(state: _Lifting, denominator: int, rows, rhs) -> tuple[list[int], int] | None:
    """Every unknown with the probe's denominator (and any other one found on the way), checked
    exactly against the integer system; None if the digits do not yet suffice."""
    modulus = _big(state.modulus())
    half = modulus // 2
    values = state.values()
    numerators: list[int] = []
    for i, value in enumerate(values):
        n = value * denominator % modulus
        if n > half:
            n -= modulus
        if n * n * 2 >= modulus:  # not small: this unknown has a denominator the probe missed
            guess = reconstruct(value, modulus)
            if guess is None:
                return None
            extra = guess[1] // math.gcd(guess[1], denominator)
            denominator *= extra
            numerators = [v * extra for v in numerators]
            n = value * denominator % modulus
            if n > half:
                n -= modulus
        numerators.append(n)
    for row, value in zip(rows, rhs):  # the exact check: the answer is certain, not probable
        if sum(c * numerators[j] for j, c in row.items()) != denominator * value:
            return None
    divisor = denominator
    for n in numerators:
        divisor = math.gcd(divisor, n)
        if divisor == 1:
            break
    return [n // divisor for n in numerators], denominator // divisor


def reconstruct(value: int, modulus: int) -> tuple[int, int] | None:
    """(a, b) with a = b * value mod modulus, |a| and 0 < b at most sqrt(modulus / 2), or None.

    Wang's rational reconstruction: the extended Euclid algorithm on (modulus, value), stopped at the
    first remainder below the bound; the fraction, when there is one, is unique. Lehmer's speed-up
    does most of the work: while the remainders are long, the quotients are found from their leading
    62 bits in small integers (Knuth's test keeps only the quotients that are certainly right) and
    applied to the long numbers as one 2x2 matrix, a few times fewer long operations. The last steps
    near the bound are plain ones, so it stops where the plain algorithm does, with the same answer.
    """
    modulus = _big(modulus)
    bound = _big(math.isqrt(modulus // 2))
    r0, r1 = modulus, _big(value) % modulus
    t0, t1 = _big(0), _big(1)
    plain_below = bound.bit_length() + 96
    while r1.bit_length() > plain_below:
        shift = r0.bit_length() - 62
        a, b = int(r0 >> shift), int(r1 >> shift)
        m00, m01, m10, m11 = 1, 0, 0, 1
        while b + m10 and b + m11:
            q = (a + m00) // (b + m10)
            if q != (a + m01) // (b + m11):
                break
            m00, m10 = m10, m00 - q * m10
            m01, m11 = m11, m01 - q * m11
            a, b = b, a - q * b
        if m01 == 0:  # no quotient was certain: one long step
            q = r0 // r1
            r0, r1, t0, t1 = r1, r0 - q * r1, t1, t0 - q * t1
            continue
        n0, n1 = m00 * r0 + m01 * r1, m10 * r0 + m11 * r1
        if n1 <= bound:  # past the stopping point (never seen: the cushion is 96 bits): go plainly
            break
        r0, r1, t0, t1 = n0, n1, m00 * t0 + m01 * t1, m10 * t0 + m11 * t1
    while r1 > bound:
        q = r0 // r1
        r0, r1, t0, t1 = r1, r0 - q * r1, t1, t0 - q * t1
    if t1 == 0 or abs(t1) > bound or math.gcd(int(r1), int(abs(t1))) != 1:
        return None
    return (int(r1), int(t1)) if t1 > 0 else (int(-r1), int(-t1))


def _balanced_digits(values: Sequence[int], prime: int):
    """The right-hand side in balanced base ``prime`` (digits in (-p/2, p/2]): steps x size int64.
    Only the non-zero values are expanded (a component's inflow enters at a few states), all of
    them at once in arrays of integers."""
    import numpy as np

    where = np.array([k for k, v in enumerate(values) if v], dtype=np.int64)
    rest = np.array([_big(values[k]) for k in where], dtype=object)
    columns = []
    half = prime // 2
    while len(where):
        digits = rest % prime
        digits = np.where(digits > half, digits - prime, digits)
        column = np.zeros(len(values), dtype=np.int64)
        column[where] = digits.astype(np.int64)
        columns.append(column)
        rest = (rest - digits) // prime
        going = rest != 0
        where, rest = where[going], rest[going]
    return np.array(columns, dtype=np.int64).reshape(len(columns), len(values))


def _csr(rows: Sequence[dict[int, int]]):
    """(row starts, columns, values) of an integer matrix, int64 arrays."""
    import numpy as np

    start = np.zeros(len(rows) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(row) for row in rows])
    column = np.fromiter((c for row in rows for c in row), dtype=np.int64, count=int(start[-1]))
    value = np.fromiter((v for row in rows for v in row.values()), dtype=np.int64, count=int(start[-1]))
    return start, column, value


def _factor(rows: Sequence[dict[int, int]], prime: int):
    """The elimination of ``rows`` modulo ``prime`` in Markowitz order (the compiled
    ``factor_mod``), as flat int64 arrays for the lifting; None if a pivot is 0 modulo ``prime``
    (this prime divides a leading minor)."""
    import numpy as np

    from toolkit.solve.lift_kernel import factor_mod

    start, column, value = _csr(rows)
    value %= prime
    keep = value != 0
    if not keep.all():
        counts = np.add.reduceat(keep, start[:-1]) if len(value) else np.zeros(len(rows), np.int64)
        counts[start[:-1] == start[1:]] = 0
        start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        column, value = column[keep], value[keep]
    ok, *factored = factor_mod(prime, start, column, value)
    return tuple(factored) if ok else None
