"""The expected reward of the chain between pile starts of solo Diamoniak, solved exactly and fast.

A pile start is a state where the draw pile was just made again. From one pile start the game
reaches the next ones with exact probabilities ``exits[s][a] / denominators[s]`` and draws
``own[s] / denominators[s]`` witches on the way, so the expected witches from ``s`` solve
``x[s] * denominators[s] = own[s] + sum_a exits[s][a] * x[a]``. Once a count moves the chain
turns cyclic: one strongly connected block of most of the states, each row with a hundred or more
entries of ~280 bits, answers of 30,000 to 40,000+ bits. python-flint's ``fmpz_mat.solve``
(FLINT's dense p-adic lifting) took 7 s on it at witch=14 and 16 s at witch=16, where the same
matrix with an answer of all ones takes 0.9 s: the time goes into the thousand or more lifting
steps a long answer needs, each of them a product with the dense matrix of long entries.

Here the system is solved in one piece, exactly:

- only the states ``start`` reaches, ordered by strongly connected blocks, sinks first, so that
  the matrix is block lower triangular; every row divided by the gcd of its integers (that drops
  the ~280-bit entries to ~50 bits on average: the passes' denominators share large factors);
- each diagonal block factored once modulo a prime below 2^26 (dense LU, compiled), and Dixon's
  lifting run in the compiled loop ``lift_kernel.block_lift_steps``: residues of 26 bits, the
  matrix and the residual in limbs of 26 bits, so that every product is below 2^52 and a thousand
  of them add up in one 64-bit word;
- stopped as early as the answer allows: the lifting stops when a random combination of the
  unknowns has a rational reconstruction well inside the modulus (so the answer's real size
  decides, not a bound); the numerators over that denominator are then read off and put back
  into the integer system, which they must satisfy exactly. Only an answer that passes that check
  is returned: it is then the solution (the factorisation modulo p shows the system non-singular).

Anything this way cannot take (every prime tried divides a leading minor of a block, digits
beyond Hadamard's bound without a checked answer, a block too small for the lifting to pay)
goes to ``solve_by_components``: the same system block by block with python-flint's exact solver,
which is how the solo solver solved it before.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

#: Primes just below 2^26 (the lifting's residues and limbs), tried in turn.
PRIMES = (67108859, 67108837, 67108819, 67108777, 67108763, 67108757, 67108753, 67108747)

#: The lifting is used when the largest cyclic block has at least this many states; smaller
#: systems go to flint block by block. Measured on the solo decks (benchmarks/bench_pile_system.py):
#: at witch=10 (a block of 188) both take 0.06-0.1 s, and the lifting's first compiled call in a
#: process costs about 0.3 s more (numba's start) when nothing compiled ran before; at witch=11
#: (332) the lifting takes 0.16-0.24 s to flint's 0.36-0.65 s, at witch=12 (476) 0.35 s to 1.7 s.
LIFT_FROM = 250

#: The bits by which p^steps must pass the probe's fraction before the whole solution is tried.
_MARGIN = 40

#: The bits by which a numerator may pass the probe's numerator and still be read from the
#: fewest digits (``_checked_solution``): what the denominator may gain when the probe missed a factor.
_SLACK = 64

#: The first reconstruction is tried after this many steps, the next ones each 5/4 further.
_FIRST_CHECK = 64

_PROBE_SEED = 20240611


def expected_from_start(exits: dict, denominators: dict, own: dict, start) -> Fraction:
    """``x[start]`` where ``x[s] = (own[s] + sum of exits[s][a] * x[a]) / denominators[s]``, exactly.

    ``exits[s]`` maps each pile start ``a`` that ``s`` can reach to an integer (the numerator of
    the probability over ``denominators[s]``); every ``a`` named must be a key of ``exits``. The
    system must be non-singular, as it is for a chain that ends with probability one (a
    singular one raises ZeroDivisionError, from flint's solve in ``solve_by_components``).
    """
    blocks = reachable_blocks(exits, start)
    order = [state for block in blocks for state in block]
    if max((len(block) for block in blocks), default=0) >= LIFT_FROM:
        rows, rhs = integer_rows(order, exits, denominators, own)
        block_start = [0]
        for block in blocks:
            block_start.append(block_start[-1] + len(block))
        found = lift_blocks(rows, rhs, block_start)
        if found is not None:
            numerators, denominator = found
            return Fraction(int(numerators[order.index(start)]), int(denominator))
    value = solve_by_components(blocks, exits, denominators, own)[start]
    return Fraction(int(value.p), int(value.q))


def reachable_blocks(exits: dict, start) -> list[list]:
    """The strongly connected blocks of the states ``start`` reaches (an edge from ``s`` to each key
    of ``exits[s]``), found by ``toolkit.solve.scc`` from ``start``: each block's states in the order
    the search met them, the blocks in the order it completed them, so a block only reaches itself
    and earlier blocks."""
    from toolkit.solve.scc import strong_components

    states = [start, *(state for state in exits if state != start)]
    number = {state: k for k, state in enumerate(states)}
    component_of, members, starts = strong_components([[number[after] for after in exits[state]]
                                                       for state in states])
    # the search from the start completes every block it reaches, the start's own last, before any other root
    grouped, bounds = members.tolist(), starts.tolist()
    return [[states[k] for k in reversed(grouped[bounds[c]:bounds[c + 1]])] for c in range(int(component_of[0]) + 1)]


def integer_rows(order: list, exits: dict, denominators: dict, own: dict) -> tuple[list[dict[int, int]], list[int]]:
    """The system ``A x = b`` over ``order`` (rows: column -> integer), every row and its
    right-hand side divided by the gcd of its integers."""
    position = {state: k for k, state in enumerate(order)}
    rows, rhs = [], []
    for k, state in enumerate(order):
        out = exits[state]
        divisor = math.gcd(denominators[state], own[state], *out.values())
        row = {k: denominators[state] // divisor}
        for after, n in out.items():
            j = position[after]
            row[j] = row.get(j, 0) - n // divisor
        rows.append({j: value for j, value in row.items() if value})
        rhs.append(own[state] // divisor)
    return rows, rhs


def solve_by_components(blocks: list[list], exits: dict, denominators: dict, own: dict) -> dict:
    """Every state's value, block by block (earlier blocks known), as python-flint's rationals: a
    single state without a loop by substitution, a cyclic block as one integer system solved by
    ``fmpz_mat.solve``. Raises ZeroDivisionError for a singular system."""
    import flint

    value: dict = {}
    for block in blocks:
        if len(block) == 1 and block[0] not in exits[block[0]]:
            state = block[0]
            total = flint.fmpq(own[state]) + sum((n * value[a] for a, n in exits[state].items()), flint.fmpq(0))
            value[state] = total / denominators[state]
            continue
        inside = {state: k for k, state in enumerate(block)}
        matrix = flint.fmpz_mat(len(block), len(block))
        rhs = flint.fmpz_mat(len(block), 1)
        for k, state in enumerate(block):
            known = flint.fmpq(own[state]) + sum((n * value[a] for a, n in exits[state].items() if a not in inside),
                                                 flint.fmpq(0))
            scale = known.q
            matrix[k, k] = scale * denominators[state]
            for a, n in exits[state].items():
                if a in inside:
                    matrix[k, inside[a]] -= scale * n
            rhs[k, 0] = known.p
        solution = matrix.solve(rhs)
        value.update((state, solution[k, 0]) for k, state in enumerate(block))
    return value


# -- the lifting ------------------------------------------------------------------------------------

def lift_blocks(rows: list[dict[int, int]], rhs: list[int], block_start: list[int]):
    """(numerators N, denominator d > 0) with ``rows @ N == d * rhs`` exactly (checked), for an
    integer system that is block lower triangular along ``block_start`` and has non-zero leading
    minors in its diagonal blocks; None when the lifting cannot take it (see the module)."""
    import numpy as np

    from toolkit.odds.lift_kernel import block_lift_steps

    size = len(rows)
    if size == 0:
        return [], 1
    if size >= 1 << 20 or not all(rows):  # the probe's per-step sum must stay below 2^62; a zero row is singular
        return None
    for prime in PRIMES:
        factored = _factor_blocks(rows, block_start, prime)
        if factored is not None:
            break
    else:
        return None
    arrays = _lifting_arrays(rows, rhs, block_start, prime)
    if arrays[-1].shape[1] > 1000:  # entries of more than ~26,000 bits: the residual's sum modulo p would overflow
        return None
    probe = np.array(random.Random(_PROBE_SEED).choices(range(1, 1 << 16), k=size), dtype=np.int64)
    bits_per_step = prime.bit_length() - 1
    # Cramer and Hadamard: the denominator and every numerator are at most the product over rows
    # of (the row's Euclidean norm + |its right-hand side|); past twice that (and the probe's and
    # the margin's bits) the reconstruction cannot fail, so not being done by then is a fault.
    # (a row's norm is at most its largest entry times the square root of its length)
    bound_bits = sum(max(map(abs, row.values())).bit_length() + (len(row).bit_length() + 1) // 2 + 1
                     + (abs(b).bit_length() if b else 0) for row, b in zip(rows, rhs))
    # (and room to read the numerators with ``_SLACK`` bits to spare, see ``_checked_solution``)
    most_steps = (2 * bound_bits + 16 + size.bit_length() + 2 * _MARGIN + _SLACK + 2) // bits_per_step + 2
    big, _ = _integers()
    blocks, probe_exact, modulus, p = [], big(0), big(1), big(prime)
    done, check_at = 0, _FIRST_CHECK
    while done < most_steps:
        steps = min(check_at, most_steps) - done
        digits = np.zeros((steps, size), np.uint32)  # residues below 2^26
        sums = np.zeros(steps, np.int64)
        if not block_lift_steps(prime, *factored, *arrays, probe, digits, sums):
            return None
        blocks.append(digits)
        part = big(0)
        for s in reversed(sums.tolist()):
            part = part * p + s
        probe_exact += part * modulus  # the exact sum: reduced only in the copy below
        modulus *= p ** steps
        done += steps
        check_at = done + done // 4
        guess = _reconstruct(probe_exact % modulus, modulus)
        if guess is not None and abs(guess[0]).bit_length() + guess[1].bit_length() + _MARGIN < modulus.bit_length():
            found = _checked_solution(np.concatenate(blocks), prime, big(guess[1]), abs(guess[0]).bit_length(),
                                      rows, rhs)
            if found is not None:
                return found
    return None


def _integers():
    """(integer type, from little-endian bytes): gmpy2's."""
    from toolkit.odds.exact_linear import _big, _from_limbs

    return _big, _from_limbs


def _factor_blocks(rows, block_start, prime):
    """(lu offsets, lu of every block of more than one state flattened, inverses of the pivots)
    of the diagonal blocks modulo ``prime``, as the compiled loop takes them; None if a pivot is 0."""
    import numpy as np

    from toolkit.odds.lift_kernel import dense_lu_mod

    count = len(block_start) - 1
    offsets = np.zeros(count, np.int64)
    inverse = np.zeros(len(rows), np.int64)
    parts, used = [], 0
    for b in range(count):
        first, last = block_start[b], block_start[b + 1]
        m = last - first
        offsets[b] = used
        if m == 1:
            pivot = rows[first].get(first, 0) % prime
            if pivot == 0:
                return None
            inverse[first] = pow(pivot, -1, prime)
            continue
        block = np.zeros((m, m), np.int64)
        for i in range(first, last):
            for j, value in rows[i].items():
                if j >= first:  # a row names its own block and earlier ones only
                    block[i - first, j - first] = value % prime
        ok, lu, pivots = dense_lu_mod(block, prime)
        if not ok:
            return None
        inverse[first:last] = pivots
        parts.append(lu.ravel())
        used += m * m
    flat = np.concatenate(parts) if parts else np.zeros(1, np.uint32)
    return np.array(block_start, np.int64), offsets, flat, inverse


def _lifting_arrays(rows, rhs, block_start, prime):
    """The rest of the compiled loop's inputs: the entries outside the diagonal blocks modulo p,
    the whole matrix in limbs (positive entries first in each row), the right-hand side as the
    first residual in limbs, and 2^(26 l) modulo p."""
    import numpy as np

    from toolkit.odds.lift_kernel import LIMB_BITS

    size = len(rows)
    block_of = np.repeat(np.arange(len(block_start) - 1), np.diff(block_start))
    outer_start = np.zeros(size + 1, np.int64)
    start = np.zeros(size + 1, np.int64)
    split = np.zeros(size, np.int64)
    row_bits = np.zeros(size, np.int64)
    outer_column, outer_value, column, magnitude = [], [], [], []
    largest = max(abs(b) for b in rhs)
    for i, row in enumerate(rows):
        own_block = block_of[i]
        first = block_start[own_block]
        positive, negative = [], []
        for j, v in row.items():
            if j < first:  # an earlier block: moved to the right-hand side modulo p
                outer_column.append(j)
                outer_value.append(v % prime)
            (positive if v > 0 else negative).append(j)
        outer_start[i + 1] = len(outer_column)
        column += positive
        column += negative
        magnitude += [row[j] for j in positive]
        magnitude += [-row[j] for j in negative]
        split[i] = start[i] + len(positive)
        start[i + 1] = len(column)
        top = max(map(abs, row.values()))
        row_bits[i] = top.bit_length()
        largest = max(largest, top * len(row))  # above the row's absolute sum
    row_limbs = -(-row_bits // LIMB_BITS)
    limbs = _in_limbs(magnitude, max(int(row_limbs.max()), 1))
    # |residual| stays below max(row sum, |b|) * p / (p - 1): room for that, for the step's
    # A y before the division (26 bits more) and for the sign, in the top limb
    width = (largest.bit_length() + 2 * LIMB_BITS + 4) // LIMB_BITS + 1
    residual = np.ascontiguousarray(_in_limbs([abs(b) for b in rhs], width).T.astype(np.int64))
    for i in [k for k, b in enumerate(rhs) if b < 0]:  # -|b|: every limb negated, then carried
        residual[i] = -residual[i]
        for l in range(width - 1):
            carry = residual[i, l] >> LIMB_BITS
            residual[i, l] -= carry << LIMB_BITS
            residual[i, l + 1] += carry
    powers = np.array([pow(2, LIMB_BITS * l, prime) for l in range(width)], np.int64)
    return (outer_start, np.array(outer_column, np.int64), np.array(outer_value, np.uint32),
            start, split, np.array(column, np.int64), limbs, row_limbs, powers, residual)


def _in_limbs(values: list, count: int):
    """Non-negative integers as ``count`` limbs of ``LIMB_BITS`` bits each, low first: a uint32
    array ``count x len(values)`` (from each number's bytes, the bits cut out by numpy)."""
    import numpy as np

    from toolkit.odds.lift_kernel import LIMB_BITS

    words = -(-(count * LIMB_BITS + 64) // 64)  # 64-bit words per number, one to spare for the last cut
    raw = b"".join(int(v).to_bytes(8 * words, "little") for v in values)
    data = np.frombuffer(raw, dtype="<u8").reshape(len(values), words)
    out = np.zeros((count, len(values)), np.uint32)
    mask = np.uint64((1 << LIMB_BITS) - 1)
    for l in range(count):
        bit = l * LIMB_BITS
        word, shift = divmod(bit, 64)
        piece = data[:, word] >> np.uint64(shift)
        if shift + LIMB_BITS > 64:
            piece |= data[:, word + 1] << np.uint64(64 - shift)
        out[l] = (piece & mask).astype(np.uint32)
    return out


def _values(digits, prime):
    """Every unknown modulo prime^steps from its digits (steps x unknowns, each in [0, prime))."""
    from toolkit.odds.exact_linear import joined_digits

    return joined_digits(digits, prime)


def _checked_solution(digits, prime, denominator, probe_bits, rows, rhs):
    """Every numerator over the probe's ``denominator`` (extended by any unknown that needs more),
    checked exactly against the integer system; None if the digits do not yet give the answer.

    A numerator is read from as few digits as can hold it, which saves most of the work: with
    ``x >= 0`` (a chain's expected reward) and probe weights >= 1, none passes the probe's
    numerator (``probe_bits``) by more than the bits the denominator gains on the way. An unknown
    whose residue is not small is reconstructed from all the digits, which extends the
    denominator or the digits read; a wrong numerator can only fail the exact check, never make
    a wrong answer.
    """
    big, _ = _integers()
    steps = digits.shape[0]
    bits_per_step = prime.bit_length() - 1
    full_modulus = big(prime) ** steps
    needed_bits = probe_bits + _SLACK
    read = 0
    while True:
        used = min(steps, (needed_bits + _MARGIN + 2) // bits_per_step + 1)
        if used > read:
            read, values = used, _values(digits[:used], prime)
            modulus = big(prime) ** used
            half = modulus // 2
        numerators: list = []
        restart = False
        for i, value in enumerate(values):
            n = value * denominator % modulus
            if n > half:
                n -= modulus
            if abs(n).bit_length() + _MARGIN >= modulus.bit_length():
                # not small: this unknown's denominator has a factor the probe's missed (the probe's
                # numerator shared it); a small one is found from these digits, a large one from all
                extra = _small_multiplier(n, modulus, needed_bits)
                guess = None
                if extra is None:
                    guess = _reconstruct(_values(digits[:, i:i + 1], prime)[0], full_modulus)
                    if guess is None:
                        return None
                    extra = guess[1] // math.gcd(guess[1], int(denominator))
                denominator *= extra
                numerators = [v * extra for v in numerators]
                n = value * denominator % modulus
                if n > half:
                    n -= modulus
                if abs(n).bit_length() + _MARGIN >= modulus.bit_length():  # a numerator too large to read here
                    if used == steps:
                        return None  # not an answer yet: more digits will tell
                    if guess is None:
                        guess = _reconstruct(_values(digits[:, i:i + 1], prime)[0], full_modulus)
                        if guess is None:
                            return None
                    wanted = abs(guess[0]).bit_length() + (int(denominator) // guess[1]).bit_length()
                    needed_bits = max(needed_bits, wanted) + _SLACK
                    restart = True
                    break
            numerators.append(n)
        if not restart:
            break
    for row, value in zip(rows, rhs):  # the exact check: the answer is certain, not probable
        if sum(c * numerators[j] for j, c in row.items()) != denominator * value:
            return None
    divisor = int(denominator)
    for n in numerators:
        divisor = math.gcd(divisor, int(n))
        if divisor == 1:
            break
    return [n // divisor for n in numerators], denominator // divisor


def _small_multiplier(residue, modulus, numerator_bits):
    """The least t > 0 (up to modulus / 2^(numerator_bits + margin)) with t * residue congruent
    to a number below 2^numerator_bits modulo ``modulus``, or None: Euclid's algorithm on
    (modulus, residue) stopped at the first remainder below that bound, which for a small t takes a
    few steps, where a whole reconstruction takes thousands."""
    bound = 1 << numerator_bits
    most = modulus >> (numerator_bits + _MARGIN)
    r0, r1 = modulus, residue % modulus
    t0, t1 = 0, 1
    while r1 >= bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
        if abs(t1) > most:
            return None
    return abs(t1) if t1 else None


def _reconstruct(value, modulus):
    """(a, b) with a = b * value mod modulus, |a| and 0 < b at most sqrt(modulus / 2), or None:
    Wang's rational reconstruction, as ``exact_linear._reconstruct`` (the same answer), with
    Lehmer's speed-up for its extended Euclid: while the remainders are long, the quotients are
    found from their leading 62 bits in small integers (Knuth's test keeps only those that are
    certainly right) and applied to the long numbers as one 2x2 matrix, a few times fewer long
    operations; the last steps near the bound are plain ones, so it stops where Wang's does."""
    big, _ = _integers()
    modulus = big(modulus)
    bound = big(math.isqrt(modulus // 2))
    r0, r1 = modulus, big(value) % modulus
    t0, t1 = big(0), big(1)
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
