"""Exact solutions of integer systems made of dense diagonal blocks, with entries of many bits.

The system ``A x = b`` must be block lower triangular (the blocks given by where each begins: a row
names only columns of its own block and of earlier ones), as a chain's states ordered by strongly
connected components, successors first, make it; its diagonal blocks must have non-zero leading
minors, as the blocks of an absorbing chain's ``I - Q`` have. Such a system can have rows of a
hundred entries and more, of hundreds of bits each, and answers of tens of thousands of bits; the
time of a dense exact solver (FLINT's p-adic lifting) goes into the thousand or more lifting steps such
an answer needs, each a product with the dense matrix of long entries. Here:

- each diagonal block is factored once modulo a prime below 2^26 (dense LU, compiled), and Dixon's
  lifting runs in the compiled loop ``lift_kernel.block_lift_steps``: residues of 26 bits, the matrix
  and the residual in limbs of 26 bits, so that every product is below 2^52 and a thousand of them
  add up in one 64-bit word;
- the lifting stops as early as the answer allows: when a random combination of the unknowns has a
  rational reconstruction well inside the modulus (so the answer's real size decides, not a bound);
  the numerators over that denominator are then read off and put back into the integer system, which
  they must satisfy exactly. Only an answer that passes that check is returned: it is then the
  solution (the factorisation modulo p shows the system non-singular).

``lift_blocks`` returns None where this way cannot answer (every prime tried divides a leading minor
of a block, entries too long for the compiled loop, digits beyond Hadamard's bound without a checked
answer); the caller then solves the system another way.
"""

from __future__ import annotations

import math
import random

from gmpy2 import mpz as _big

from toolkit.solve.linear import MARGIN, PROBE_SEED, joined_digits, reconstruct

#: Primes just below 2^26 (the lifting's residues and limbs), tried in turn.
PRIMES = (67108859, 67108837, 67108819, 67108777, 67108763, 67108757, 67108753, 67108747)

#: The bits by which a numerator may pass the probe's numerator and still be read from the
#: fewest digits (``_checked_solution``): what the denominator may gain when the probe missed a factor.
_SLACK = 64

#: The first reconstruction is tried after this many steps, the next ones each 5/4 further.
_FIRST_CHECK = 64


def lift_blocks(rows: list[dict[int, int]], rhs: list[int], block_start: list[int]):
    """(numerators N, denominator d > 0) with ``rows @ N == d * rhs`` exactly (checked), for an
    integer system that is block lower triangular along ``block_start`` and has non-zero leading
    minors in its diagonal blocks; None when the lifting cannot take it (see the module)."""
    import numpy as np

    from toolkit.solve.lift_kernel import block_lift_steps

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
    probe = np.array(random.Random(PROBE_SEED).choices(range(1, 1 << 16), k=size), dtype=np.int64)
    bits_per_step = prime.bit_length() - 1
    # Cramer and Hadamard: the denominator and every numerator are at most the product over rows
    # of (the row's Euclidean norm + |its right-hand side|); past twice that (and the probe's and
    # the margin's bits) the reconstruction cannot fail, so not being done by then is a fault.
    # (a row's norm is at most its largest entry times the square root of its length)
    bound_bits = sum(max(map(abs, row.values())).bit_length() + (len(row).bit_length() + 1) // 2 + 1
                     + (abs(b).bit_length() if b else 0) for row, b in zip(rows, rhs))
    # (and room to read the numerators with ``_SLACK`` bits to spare, see ``_checked_solution``)
    most_steps = (2 * bound_bits + 16 + size.bit_length() + 2 * MARGIN + _SLACK + 2) // bits_per_step + 2
    blocks, probe_exact, modulus, p = [], _big(0), _big(1), _big(prime)
    done, check_at = 0, _FIRST_CHECK
    while done < most_steps:
        steps = min(check_at, most_steps) - done
        digits = np.zeros((steps, size), np.uint32)  # residues below 2^26
        sums = np.zeros(steps, np.int64)
        if not block_lift_steps(prime, *factored, *arrays, probe, digits, sums):
            return None
        blocks.append(digits)
        part = _big(0)
        for s in reversed(sums.tolist()):
            part = part * p + s
        probe_exact += part * modulus  # the exact sum: reduced only in the copy below
        modulus *= p ** steps
        done += steps
        check_at = done + done // 4
        guess = reconstruct(probe_exact % modulus, modulus)
        if guess is not None and abs(guess[0]).bit_length() + guess[1].bit_length() + MARGIN < modulus.bit_length():
            found = _checked_solution(np.concatenate(blocks), prime, _big(guess[1]), abs(guess[0]).bit_length(),
                                      rows, rhs)
            if found is not None:
                return found
    return None


def _factor_blocks(rows, block_start, prime):
    """(lu offsets, lu of every block of more than one state flattened, inverses of the pivots)
    of the diagonal blocks modulo ``prime``, as the compiled loop takes them; None if a pivot is 0."""
    import numpy as np

    from toolkit.solve.lift_kernel import dense_lu_mod

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

    from toolkit.solve.lift_kernel import LIMB_BITS

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

    from toolkit.solve.lift_kernel import LIMB_BITS

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
    steps = digits.shape[0]
    bits_per_step = prime.bit_length() - 1
    full_modulus = _big(prime) ** steps
    needed_bits = probe_bits + _SLACK
    read = 0
    while True:
        used = min(steps, (needed_bits + MARGIN + 2) // bits_per_step + 1)
        if used > read:
            read, values = used, joined_digits(digits[:used], prime)
            modulus = _big(prime) ** used
            half = modulus // 2
        numerators: list = []
        restart = False
        for i, value in enumerate(values):
            n = value * denominator % modulus
            if n > half:
                n -= modulus
            if abs(n).bit_length() + MARGIN >= modulus.bit_length():
                # not small: this unknown's denominator has a factor the probe's missed (the probe's
                # numerator shared it); a small one is found from these digits, a large one from all
                extra = _small_multiplier(n, modulus, needed_bits)
                guess = None
                if extra is None:
                    guess = reconstruct(joined_digits(digits[:, i:i + 1], prime)[0], full_modulus)
                    if guess is None:
                        return None
                    extra = guess[1] // math.gcd(guess[1], int(denominator))
                denominator *= extra
                numerators = [v * extra for v in numerators]
                n = value * denominator % modulus
                if n > half:
                    n -= modulus
                if abs(n).bit_length() + MARGIN >= modulus.bit_length():  # a numerator too large to read here
                    if used == steps:
                        return None  # not an answer yet: more digits will tell
                    if guess is None:
                        guess = reconstruct(joined_digits(digits[:, i:i + 1], prime)[0], full_modulus)
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
    most = modulus >> (numerator_bits + MARGIN)
    r0, r1 = modulus, residue % modulus
    t0, t1 = 0, 1
    while r1 >= bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
        if abs(t1) > most:
            return None
    return abs(t1) if t1 else None
