"""The compiled loops of the two p-adic liftings (numba, cached): the sparse one of
``toolkit.solve.linear`` and the dense block one of ``toolkit.solve.dense``.

Kept apart so that importing ``linear`` or ``dense`` does not import numba: only a system large
enough to be lifted pays for it.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

_LOW = (1 << 32) - 1


@njit(cache=True)
def lift_steps(prime, order, lower_start, lower_row, lower_value, upper_start, upper_column, upper_value,
               inverse, start, column, value, incoming, carry, out, probe, sums_high,
               sums_low):  # pragma: no cover - compiled
    """``out.shape[0]`` steps of Dixon's lifting for the integer system ``(start, column, value)``.

    One step: t = carry + the right-hand side's next digit; y = A^-1 t modulo ``prime`` (the
    recorded elimination: multipliers in pivot order, then back substitution); the new carry is
    (t - A y) / prime, an exact division. Then A * sum(y_s p^s) equals the right-hand side modulo
    p^steps. Every product is of two residues below 2^31 or of a residue and a row of absolute sum
    below 2^31, so int64 never overflows. ``sums_high``/``sums_low`` get, per step, the exact sum
    of ``probe * y`` split at bit 32.
    """
    size = carry.shape[0]
    t = np.empty(size, np.int64)
    r = np.empty(size, np.int64)
    y = np.empty(size, np.int64)
    for step in range(out.shape[0]):
        for i in range(size):
            t[i] = carry[i] + incoming[step, i]
            r[i] = t[i] % prime
        for position in range(size):
            rk = r[order[position]]
            if rk != 0:
                for e in range(lower_start[position], lower_start[position + 1]):
                    i = lower_row[e]
                    r[i] = (r[i] - lower_value[e] * rk) % prime
        for position in range(size - 1, -1, -1):
            k = order[position]
            acc = r[k]
            for e in range(upper_start[position], upper_start[position + 1]):
                acc = (acc - upper_value[e] * y[upper_column[e]]) % prime
            y[k] = acc * inverse[position] % prime
        high = 0
        low = 0
        for i in range(size):
            acc = t[i]
            for e in range(start[i], start[i + 1]):
                acc -= value[e] * y[column[e]]
            carry[i] = acc // prime
            out[step, i] = y[i]
            low += probe[i] * y[i]
            if low >= (1 << 62):
                high += low >> 32
                low &= _LOW
        sums_high[step] = high + (low >> 32)
        sums_low[step] = low & _LOW


@njit(cache=True)
def chunk_limbs(digits, prime, chunk, limbs):  # pragma: no cover - compiled
    """Each unknown's digits, ``chunk`` at a time, as numbers in base 2^32: ``out[i, c]`` holds the
    little-endian 32-bit limbs of sum_j digits[c * chunk + j, i] * prime^j (``limbs`` of them,
    enough for prime^chunk). Horner's rule in unsigned 64-bit words: limb * prime + carry < 2^64."""
    steps, size = digits.shape
    chunks = (steps + chunk - 1) // chunk
    out = np.zeros((size, chunks, limbs), np.uint32)
    p = np.uint64(prime)
    mask = np.uint64(0xFFFFFFFF)
    shift = np.uint64(32)
    work = np.zeros(limbs, np.uint64)
    for i in range(size):
        for c in range(chunks):
            for m in range(limbs):
                work[m] = np.uint64(0)
            used = 1
            top = min(steps, (c + 1) * chunk) - 1
            for s in range(top, c * chunk - 1, -1):
                carry = np.uint64(digits[s, i])
                for m in range(used):
                    value = work[m] * p + carry
                    work[m] = value & mask
                    carry = value >> shift
                if carry != np.uint64(0):
                    work[used] = carry
                    used += 1
            for m in range(limbs):
                out[i, c, m] = np.uint32(work[m])
    return out


@njit(cache=True)
def _grown(array, needed):  # pragma: no cover - compiled
    """``array`` itself if it holds ``needed`` items, else a copy with at least twice the room."""
    if needed <= array.shape[0]:
        return array
    bigger = np.zeros(max(needed, 2 * array.shape[0]), array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


@njit(cache=True)
def factor_mod(prime, start, column, value):  # pragma: no cover - compiled
    """Eliminate a square sparse matrix (CSR, entries already reduced modulo ``prime``, none zero)
    modulo ``prime`` with diagonal pivots in Markowitz order (least (row entries - 1) x (column
    entries - 1), ties to the lowest index, kept in a heap with stale entries skipped).

    Returns (ok, order, lower_start, lower_row, lower_value, upper_start, upper_column,
    upper_value, inverse): for the pivot chosen at position s, the rows it updated and the
    multipliers, its row's other entries then, and the inverse of the pivot. ``ok`` is False when a
    pivot is 0 modulo ``prime``: then the rest is empty.
    """
    size = start.shape[0] - 1
    # rows: a pool of (column, value) slots, each row a run [row_begin, row_begin + row_length)
    capacity = 2 * start[size] + 2 * size + 16
    row_column = np.zeros(capacity, np.int64)
    row_value = np.zeros(capacity, np.int64)
    row_begin = np.zeros(size, np.int64)
    row_length = np.zeros(size, np.int64)
    row_room = np.zeros(size, np.int64)
    used = 0
    for r in range(size):
        length = start[r + 1] - start[r]
        row_begin[r] = used
        row_length[r] = length
        row_room[r] = 2 * length + 2
        for e in range(length):
            row_column[used + e] = column[start[r] + e]
            row_value[used + e] = value[start[r] + e]
        used += 2 * length + 2
    # columns: which rows use them (stale entries allowed: checked when read), and exact counts
    column_count = np.zeros(size, np.int64)
    for e in range(start[size]):
        column_count[column[e]] += 1
    column_begin = np.zeros(size, np.int64)
    column_length = np.zeros(size, np.int64)
    column_room = np.zeros(size, np.int64)
    column_capacity = 2 * start[size] + 2 * size + 16
    column_rows = np.zeros(column_capacity, np.int64)
    column_used = 0
    for c in range(size):
        column_begin[c] = column_used
        column_room[c] = 2 * column_count[c] + 2
        column_used += column_room[c]
    for r in range(size):
        for e in range(start[r], start[r + 1]):
            c = column[e]
            column_rows[column_begin[c] + column_length[c]] = r
            column_length[c] += 1
    done = np.zeros(size, np.bool_)
    where = np.full(size, -1, np.int64)  # scratch: a column's slot in the row being updated
    order = np.zeros(size, np.int64)
    lower_start = np.zeros(size + 1, np.int64)
    upper_start = np.zeros(size + 1, np.int64)
    lower_row = np.zeros(start[size] + 16, np.int64)
    lower_value = np.zeros(start[size] + 16, np.int64)
    upper_column = np.zeros(start[size] + 16, np.int64)
    upper_value = np.zeros(start[size] + 16, np.int64)
    inverse = np.zeros(size, np.int64)
    lower_used = 0
    upper_used = 0
    heap = [(np.int64(0), np.int64(0))]
    heap.pop()
    for j in range(size):
        heap.append(((row_length[j] - 1) * (column_count[j] - 1), np.int64(j)))
    heapq.heapify(heap)
    position = 0
    while len(heap) > 0:
        cost, k = heapq.heappop(heap)
        if done[k] or cost != (row_length[k] - 1) * (column_count[k] - 1):
            continue
        done[k] = True
        order[position] = k
        pivot = np.int64(0)
        kb = row_begin[k]
        kl = row_length[k]
        for e in range(kb, kb + kl):
            column_count[row_column[e]] -= 1
            if row_column[e] == k:
                pivot = row_value[e]
        if pivot == 0:
            return (False, order[:0], lower_start[:1], lower_row[:0], lower_value[:0], upper_start[:1],
                    upper_column[:0], upper_value[:0], inverse[:0])
        pivot_inverse = np.int64(1)  # pivot ** (prime - 2) modulo prime
        base = pivot
        exponent = prime - 2
        while exponent > 0:
            if exponent & 1:
                pivot_inverse = pivot_inverse * base % prime
            base = base * base % prime
            exponent >>= 1
        inverse[position] = pivot_inverse
        upper_column = _grown(upper_column, upper_used + kl)
        upper_value = _grown(upper_value, upper_used + kl)
        for e in range(kb, kb + kl):
            if row_column[e] != k:
                upper_column[upper_used] = row_column[e]
                upper_value[upper_used] = row_value[e]
                upper_used += 1
        upper_start[position + 1] = upper_used
        # every active row with an entry in column k loses it
        for slot in range(column_begin[k], column_begin[k] + column_length[k]):
            i = column_rows[slot]
            if done[i]:
                continue
            ib = row_begin[i]
            il = row_length[i]
            found = -1
            for e in range(ib, ib + il):
                if row_column[e] == k:
                    found = e
                    break
            if found < 0:
                continue  # stale: that entry cancelled earlier
            factor = row_value[found] * pivot_inverse % prime
            lower_row = _grown(lower_row, lower_used + 1)
            lower_value = _grown(lower_value, lower_used + 1)
            lower_row[lower_used] = i
            lower_value[lower_used] = factor
            lower_used += 1
            il -= 1  # remove column k: the last entry takes its slot
            row_column[found] = row_column[ib + il]
            row_value[found] = row_value[ib + il]
            for e in range(ib, ib + il):
                where[row_column[e]] = e
            for e in range(kb, kb + kl):
                c = row_column[e]
                if c == k:
                    continue
                change = factor * row_value[e] % prime
                slot_i = where[c]
                if slot_i >= 0:
                    updated = (row_value[slot_i] - change) % prime
                    if updated != 0:
                        row_value[slot_i] = updated
                    else:  # cancelled: the last entry takes its slot
                        il -= 1
                        last = ib + il
                        where[c] = -1
                        if slot_i != last:
                            row_column[slot_i] = row_column[last]
                            row_value[slot_i] = row_value[last]
                            where[row_column[slot_i]] = slot_i
                        column_count[c] -= 1
                else:
                    if il == row_room[i]:  # move the row to the end of the pool, with room to grow
                        room = 2 * il + 2
                        row_column = _grown(row_column, used + room)
                        row_value = _grown(row_value, used + room)
                        for m in range(il):
                            row_column[used + m] = row_column[ib + m]
                            row_value[used + m] = row_value[ib + m]
                            where[row_column[used + m]] = used + m
                        ib = used
                        row_begin[i] = ib
                        row_room[i] = room
                        used += room
                    row_column[ib + il] = c
                    row_value[ib + il] = (prime - change) % prime
                    where[c] = ib + il
                    il += 1
                    column_count[c] += 1
                    if column_length[c] == column_room[c]:
                        room = 2 * column_length[c] + 2
                        column_rows = _grown(column_rows, column_used + room)
                        for m in range(column_length[c]):
                            column_rows[column_used + m] = column_rows[column_begin[c] + m]
                        column_begin[c] = column_used
                        column_room[c] = room
                        column_used += room
                    column_rows[column_begin[c] + column_length[c]] = i
                    column_length[c] += 1
            row_length[i] = il
            for e in range(ib, ib + il):
                where[row_column[e]] = -1
        lower_start[position + 1] = lower_used
        # the costs that changed, pushed once every update of this pivot is done
        for e in range(lower_start[position], lower_used):
            i = lower_row[e]
            heapq.heappush(heap, ((row_length[i] - 1) * (column_count[i] - 1), i))
        for e in range(kb, kb + kl):
            c = row_column[e]
            if not done[c]:
                heapq.heappush(heap, ((row_length[c] - 1) * (column_count[c] - 1), c))
        position += 1
    return (True, order, lower_start, lower_row[:lower_used], lower_value[:lower_used], upper_start,
            upper_column[:upper_used], upper_value[:upper_used], inverse)


# -- the block lifting (toolkit.solve.dense): dense diagonal blocks, entries of many limbs ---------------------

#: Bits per limb of the large integers the block lifting carries (its residual, its matrix's
#: entries); the prime of that lifting is below 2^26 too, so a limb times a residue is below 2^52.
LIMB_BITS = 26

#: Products below 2^52 are summed this many at a time before a reduction: the sum stays below 2^62.
_RUN = 1024

_LIMB_MASK = (1 << LIMB_BITS) - 1


@njit(cache=True, inline="always")
def _dot_mod(x, y, up):  # pragma: no cover - compiled
    """sum x[t] * y[t] modulo ``up`` (a uint64 prime below 2^26) for two uint32 vectors of one
    length: runs of ``_RUN`` products in one unsigned word, one reduction per run (written over
    slices, which the compiler turns into vector instructions)."""
    total = np.uint64(0)
    for c in range(0, x.shape[0], _RUN):
        xs = x[c:c + _RUN]
        ys = y[c:c + _RUN]
        acc = np.uint64(0)
        for u in range(xs.shape[0]):
            acc += np.uint64(xs[u]) * np.uint64(ys[u])
        total += acc % up
    return np.int64(total % up)


@njit(cache=True)
def _power_mod(base, exponent, prime):  # pragma: no cover - compiled
    result = np.int64(1)
    base = base % prime
    while exponent > 0:
        if exponent & 1:
            result = result * base % prime
        base = base * base % prime
        exponent >>= 1
    return result


@njit(cache=True)
def _inverse_modulo_limb(prime):  # pragma: no cover - compiled
    """prime^-1 modulo 2^26 for an odd prime: Newton's iteration x <- x (2 - p x) doubles the bits
    that are right each time, from the one bit of x = 1 (every product below 2^52)."""
    x = np.int64(1)
    for _ in range(5):
        x = (x * ((2 - ((prime * x) & _LIMB_MASK)) & _LIMB_MASK)) & _LIMB_MASK
    return x


@njit(cache=True)
def dense_lu_mod(a, prime):  # pragma: no cover - compiled
    """L U = ``a`` modulo ``prime`` (a square int64 matrix of residues, prime below 2^26), L unit
    lower triangular, with the diagonal pivots in their order: the matrices here (a diagonally
    dominant block of an absorbing chain) have non-zero leading minors, and a prime that divides one
    is met by chance only. Crout's order makes every entry one dot product of stored rows, so a
    whole entry costs one reduction.

    Returns (ok, lu, inverse): ``lu`` (uint32) holds L below its diagonal and U on and above it,
    ``inverse`` the inverses of U's diagonal; ``ok`` is False when a pivot is 0 modulo ``prime``.
    """
    m = a.shape[0]
    up = np.uint64(prime)
    low = np.zeros((m, m), np.uint32)  # low[i, t] = L[i, t] for t < i
    upper_t = np.zeros((m, m), np.uint32)  # upper_t[j, t] = U[t, j] for t <= j: U's columns as rows
    inverse = np.zeros(m, np.int64)
    lu = np.zeros((m, m), np.uint32)
    for k in range(m):
        lk = low[k, :k]
        for j in range(k, m):
            s = _dot_mod(lk, upper_t[j, :k], up)
            upper_t[j, k] = np.uint32((a[k, j] - s) % prime)
        pivot = np.int64(upper_t[k, k])
        if pivot == 0:
            return False, lu, inverse
        inverse[k] = _power_mod(pivot, prime - 2, prime)
        uk = upper_t[k, :k]
        for i in range(k + 1, m):
            s = _dot_mod(low[i, :k], uk, up)
            low[i, k] = np.uint32((a[i, k] - s) % prime * inverse[k] % prime)
    for i in range(m):
        for j in range(m):
            lu[i, j] = low[i, j] if j < i else upper_t[j, i]
    return True, lu, inverse


@njit(cache=True)
def block_lift_steps(prime, block_start, lu_offset, lu_flat, inverse, outer_start, outer_column, outer_value,
                     start, split, column, limbs, row_limbs, powers, residual, probe, digits,
                     probe_sums):  # pragma: no cover - compiled
    """``digits.shape[0]`` steps of Dixon's lifting for an integer system ``A x = b`` that is block
    lower triangular (``block_start``: where each diagonal block begins; a row only names columns
    of its block and of earlier ones) with entries of many limbs.

    One step: v = residual modulo p; block by block, the columns of earlier blocks moved to the
    right (``outer_*``: those entries modulo p, CSR), then the block's LU (``lu_flat`` from
    ``lu_offset``; a block of one is its ``inverse``) gives the digit vector y = A^-1 v mod p; then
    residual = (residual - A y) / p, an exact division. ``A`` is given by magnitudes in limbs of
    ``LIMB_BITS`` bits: row i's entries ``start[i]..start[i+1]`` in CSR, the positive ones before
    ``split[i]``, limb l of entry e at ``limbs[l, e]``, ``row_limbs[i]`` limbs used by row i.
    ``residual`` holds each row's number in limbs, low first, every limb in [0, 2^26) but the top
    one, which carries the sign; ``powers[l]`` = 2^(26 l) mod p. ``digits[s]`` gets step s's y
    and ``probe_sums[s]`` the exact sum of probe * y. Returns False if a division was not exact
    (which would be a fault: then no digit can be trusted).
    """
    size = residual.shape[0]
    width = residual.shape[1]
    entries = column.shape[0]
    up = np.uint64(prime)
    v = np.zeros(size, np.int64)
    y = np.zeros(size, np.uint32)
    z = np.zeros(size, np.uint32)
    gathered = np.zeros(entries, np.uint32)
    work = np.zeros(width, np.int64)
    inverse_p = _inverse_modulo_limb(prime)
    blocks = block_start.shape[0] - 1
    for step in range(digits.shape[0]):
        for i in range(size):
            acc = np.int64(0)
            for l in range(width):
                acc += residual[i, l] * powers[l]
            v[i] = acc % prime
        for b in range(blocks):
            first = block_start[b]
            last = block_start[b + 1]
            m = last - first
            for i in range(first, last):
                total = np.uint64(0)
                e = outer_start[i]
                end = outer_start[i + 1]
                while e < end:
                    stop = min(end, e + _RUN)
                    acc = np.uint64(0)
                    for u in range(e, stop):
                        acc += np.uint64(outer_value[u]) * np.uint64(z[outer_column[u]])
                    total += acc % up
                    e = stop
                y[i] = np.uint32((v[i] - np.int64(total % up)) % prime)
            if m == 1:
                z[first] = np.uint32(np.int64(y[first]) * inverse[first] % prime)
                continue
            base = lu_offset[b]
            lu = lu_flat[base:base + m * m]
            for i in range(1, m):  # L is unit lower triangular
                s = _dot_mod(lu[i * m:i * m + i], y[first:first + i], up)
                y[first + i] = np.uint32((np.int64(y[first + i]) - s) % prime)
            for i in range(m - 1, -1, -1):
                s = _dot_mod(lu[i * m + i + 1:i * m + m], z[first + i + 1:last], up)
                z[first + i] = np.uint32((np.int64(y[first + i]) - s) % prime * inverse[first + i] % prime)
        total_probe = np.int64(0)
        for i in range(size):
            total_probe += probe[i] * np.int64(z[i])
            digits[step, i] = z[i]
        probe_sums[step] = total_probe
        for e in range(entries):
            gathered[e] = z[column[e]]
        for i in range(size):
            for l in range(width):
                work[l] = residual[i, l]
            used = row_limbs[i]
            mid = split[i]
            for t in range(start[i], start[i + 1], _RUN):  # entries before ``mid`` are subtracted, the others added
                stop = min(start[i + 1], t + _RUN)
                cut = min(max(mid, t), stop)
                z_positive = gathered[t:cut]
                z_negative = gathered[cut:stop]
                for l in range(used):
                    row_positive = limbs[l, t:cut]
                    row_negative = limbs[l, cut:stop]
                    subtract = np.uint64(0)
                    for u in range(z_positive.shape[0]):
                        subtract += np.uint64(row_positive[u]) * np.uint64(z_positive[u])
                    add = np.uint64(0)
                    for u in range(z_negative.shape[0]):
                        add += np.uint64(row_negative[u]) * np.uint64(z_negative[u])
                    work[l] += np.int64(add) - np.int64(subtract)
                if stop < start[i + 1]:  # more to come: every limb back to [0, 2^26) first
                    for l in range(width - 1):
                        carry = work[l] >> LIMB_BITS
                        work[l] -= carry << LIMB_BITS
                        work[l + 1] += carry
            # the exact division by p from the low limb up: each quotient limb is the limb (with the
            # carry) times p's inverse modulo 2^26, and what it leaves is carried on, which also
            # brings the limbs back to [0, 2^26); the last carry is (the quotient's top) * p
            carry = np.int64(0)
            for l in range(width):
                current = work[l] + carry
                q = ((current & _LIMB_MASK) * inverse_p) & _LIMB_MASK
                carry = (current - q * prime) >> LIMB_BITS
                residual[i, l] = q
            if carry % prime != 0:
                return False
            residual[i, width - 1] += (carry // prime) << LIMB_BITS
    return True
