"""Exact whole numbers as residues modulo a few primes, in numpy int64 arrays.

The solo passes multiply and add masses that are whole numbers of a few hundred bits. The
compiled passes (``solo_kernel``) hold each as its residues modulo K primes just below 2**50 (a row
of an ``(n, K)`` int64 array), so that every operation is on machine integers; this module picks
the primes, turns whole numbers into residues, adds residues by key, and gives the whole numbers
back by the Chinese remainder theorem, exactly as long as the true values are below the primes'
product (the caller picks K from a bound on its values). The primes are just below 2**50 so that a
residue times a card count (below 2**12) stays below 2**62, and a product of two residues can be
reduced with a float64 quotient (``mulmod``): 2**100 / 2**53 leaves an error below one step of the
quotient."""

from __future__ import annotations

import functools
import math

import numpy as np

TOP = 1 << 50  # every prime is below this


@functools.lru_cache(maxsize=None)
def primes(count: int, top: int = TOP) -> tuple[int, ...]:
    """The ``count`` largest primes below ``top``, largest first."""
    import gmpy2

    found, at = [], top
    while len(found) < count:
        at = int(gmpy2.prev_prime(at))
        found.append(at)
    return tuple(found)


class Residues:
    """Arithmetic modulo the primes ``moduli``; an exact integer of up to ``bits`` bits is recoverable."""

    def __init__(self, bits: int, top: int = TOP):
        count = 1
        while math.prod(primes(count, top)) >> bits == 0:
            count += 1
        self.moduli = primes(count, top)
        self.p = np.array(self.moduli, dtype=np.int64)
        self._float_p = self.p.astype(np.float64)
        whole = math.prod(self.moduli)
        self.whole = whole
        # x = sum of r_i * basis_i (mod whole): basis_i is 1 modulo p_i and 0 modulo the others
        self._basis = np.array([(whole // p) * pow(whole // p, -1, p) for p in self.moduli], dtype=object)

    @property
    def count(self) -> int:
        return len(self.moduli)

    def of(self, values) -> np.ndarray:
        """The residues of whole numbers (Python ints, any size, at least 0): shape (n, K)."""
        values = list(values)
        out = np.empty((len(values), self.count), dtype=np.int64)
        for k, p in enumerate(self.moduli):
            out[:, k] = [value % p for value in values]
        return out

    def mulmod(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """``a * b`` modulo the primes, for residues ``a`` and ``b`` (broadcast against (n, K))."""
        a, b = np.broadcast_arrays(a, b)
        quotient = np.floor(a.astype(np.float64) * b.astype(np.float64) / self._float_p).astype(np.int64)
        rest = a * b - quotient * self.p  # wraps modulo 2**64; the true rest lies in [-p, 2p)
        rest = np.where(rest < 0, rest + self.p, rest)
        return np.where(rest >= self.p, rest - self.p, rest)

    def sum_by(self, keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The distinct keys, sorted, with the sum of their residues (values reduced, any count)."""
        if not len(keys):
            return keys, values.reshape(0, self.count)
        order = np.argsort(keys, kind="stable")
        keys, values = keys[order], values[order]
        first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        # in 25-bit halves: sums of up to 2**38 halves fit in an int64
        low = np.add.reduceat(values & ((1 << 25) - 1), first, axis=0) % self.p
        high = np.add.reduceat(values >> 25, first, axis=0) % self.p
        return keys[first], (self.mulmod(high, np.int64(1 << 25)) + low) % self.p

    def integers(self, residues: np.ndarray) -> list[int]:
        """The whole numbers in [0, product of the primes) with these residues (rows of (n, K))."""
        if not len(residues):
            return []
        return [value % self.whole for value in residues.astype(object).dot(self._basis).tolist()]
