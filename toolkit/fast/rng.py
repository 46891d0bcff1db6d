"""The compiled twin of ``toolkit.sim.card_order``: the same splitmix64 numbers, inside numba code.

A stream is a one-element ``uint64`` array (its state), so a kernel can pass it around and advance it
in place. The functions are steps (``toolkit.fast.steps``): compiled, the bodies below run (numba's
``uint64`` wraps as splitmix64 wants); interpreted, each runs its plain twin, ``card_order``'s own
arithmetic in Python's integers (numpy's ``uint64`` scalars would warn at every wrap), returning
numpy's types where the compiled body has numba's. ``tests/test_fast_rng.py`` holds both to the plain-integer originals.
"""

from __future__ import annotations

import numpy as np

from toolkit.fast.steps import step, uint64
from toolkit.sim import card_order

GOLDEN = np.uint64(card_order.GOLDEN)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GAMES = np.uint64(0xD1B54A32D192ED03)


# --- the plain twins (interpreted) ------------------------------------------------------------------

def _plain_mix64(z):
    return np.uint64(card_order.mix64(int(z)))


def _plain_game_seed(run_seed, index):
    return np.uint64(card_order.game_seed(int(run_seed), int(index)))


def _plain_rule_seed(game, seed, seat, which):
    return np.uint64(card_order.rule_seed(int(game), int(seed), int(seat), int(which)))


def _plain_shuffle_into(counts, order, stream):
    plain = card_order.CardOrder(int(stream[0]))
    cards = plain.shuffled(counts.tolist())
    order[:len(cards)] = cards
    stream[0] = plain.state
    return len(cards)


# --- the compiled bodies ------------------------------------------------------------------------------

@step(cache=True, inline="always", python=_plain_mix64)
def mix64(z):
    z = uint64(z)
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@step(cache=True, python=_plain_game_seed)
def game_seed(run_seed, index):
    return mix64(mix64(uint64(run_seed)) ^ (uint64(index) * _GAMES))


@step(cache=True, python=_plain_rule_seed)
def rule_seed(game, seed, seat, which):
    return mix64(uint64(game) ^ mix64(uint64(seed) * uint64(8) + uint64(seat) * uint64(2) + uint64(which)))


@step(cache=True, python=_plain_shuffle_into)
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


# --- Python's own generator, replayed -----------------------------------------------------------------
#
# A loop written for ``random.Random`` (``toolkit.sim.runner.play``, the exact walk's sampled games) draws
# each chance point by ``randrange(n)``: the top ``n.bit_length()`` bits of the generator's next 32-bit
# output, and another output while that number is not below ``n``. Handed those outputs in order, a
# compiled loop draws the very same numbers (``randrange``); ``Outputs`` takes them from the generator.

@step(cache=True, inline="always")
def randrange(words, at, n):
    """``Random.randrange(n)`` (``n`` >= 1) from the outputs ``words[at]``, ``words[at + 1]``, ...: (the number,
    the index of the first output not taken), or (-1, ``len(words)``) when they ran out."""
    bits = 0
    while n >> bits:
        bits += 1
    while at < len(words):
        x = words[at] >> (32 - bits)
        at += 1
        if x < n:
            return x, at
    return np.int64(-1), at


class Outputs:
    """The next 32-bit outputs of a ``random.Random`` for ``randrange``, as an int64 array (``words``), drawn
    ahead by blocks: ``words[at:]`` are the ones not used yet; ``used(at)`` keeps those from ``at`` on, and
    ``more()`` draws another block after them. Whatever the compiled loop took, the generator itself has
    gone further (by the block not used yet): the loop's caller owns it and draws from it no more."""

    BLOCK = 1 << 14

    def __init__(self, rng):
        self.rng = rng
        self.words = np.zeros(0, dtype=np.int64)

    def used(self, at: int) -> None:
        self.words = self.words[at:]

    def more(self) -> None:
        drawn = np.frombuffer(self.rng.randbytes(4 * self.BLOCK), dtype="<u4").astype(np.int64)
        self.words = np.concatenate((self.words, drawn))
