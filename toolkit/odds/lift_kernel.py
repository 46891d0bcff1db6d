"""The compiled loop of the p-adic lifting in ``toolkit.odds.exact_linear`` (numba, cached).

Kept apart so that importing ``Chain`` or ``exact_linear`` does not import numba: only a system
large enough to be lifted pays for it.
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
