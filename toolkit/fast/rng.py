"""The compiled twin of ``toolkit.sim.card_order``: the same splitmix64 numbers, inside numba code.

A stream is a one-element ``uint64`` array (its state), so a kernel can pass it around and advance it
in place. ``tests/test_fast_rng.py`` holds every function here to its plain-integer original.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)
_GAMES = uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def mix64(z):
    z = uint64(z)
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@njit(cache=True)
def game_seed(run_seed, index):
    return mix64(mix64(uint64(run_seed)) ^ (uint64(index) * _GAMES))


@njit(cache=True)
def rule_seed(game, seed, seat, which):
    return mix64(uint64(game) ^ mix64(uint64(seed) * uint64(8) + uint64(seat) * uint64(2) + uint64(which)))


@njit(cache=True, inline="always")
def next64(stream):
    stream[0] = stream[0] + GOLDEN
    return mix64(stream[0])


@njit(cache=True, inline="always")
def below(stream, n):
    return np.int64(next64(stream) % uint64(n))


@njit(cache=True)
def new_stream(seed):
    stream = np.empty(1, dtype=np.uint64)
    stream[0] = uint64(seed)
    return stream


@njit(cache=True)
def shuffle_into(counts, order, stream):
    """Lay the cards of ``counts`` out by type into ``order`` and shuffle them (Fisher-Yates, as
    ``CardOrder.shuffled``); returns how many cards there are (the top card is ``order[n-1]``)."""
    n = 0
    for i in range(counts.size):
        for _ in range(counts[i]):
            order[n] = i
            n += 1
    state = stream[0]  # kept in a register: the stream's array would be read and written at every card
    for i in range(n - 1, 0, -1):
        state += GOLDEN
        j = mix64(state) % uint64(i + 1)  # ``below``
        order[i], order[j] = order[j], order[i]
    stream[0] = state
    return n


@njit(cache=True)
def pick(counts, stream):
    """One card type of ``counts``, each card equally likely (as ``CardOrder.pick``)."""
    total = 0
    for i in range(counts.size):
        total += counts[i]
    r = below(stream, total)
    for i in range(counts.size):
        r -= counts[i]
        if r < 0:
            return i
    return -1
