"""The random numbers behind a game's chance, fixed in advance by one 64-bit seed.

Every shuffle, every reshuffle and every blind pick of a simulated game comes from one stream of
64-bit numbers (splitmix64), so a game is fixed by its seed: the rules engine driven by
``toolkit.sim.play`` and the compiled kernels of ``toolkit.fast`` read the same numbers in the
same order and so deal the same cards. The stream is defined here once, in plain integers;
``toolkit.fast.rng`` is its compiled twin, and a test holds the two to the same numbers.

* a game's stream: ``CardOrder(game_seed(run_seed, index))``, so game ``index`` of a run is the same
  game however the run is split into batches or spread over workers;
* a shuffle of ``n`` cards: Fisher-Yates from the top, ``j = below(i + 1)`` for ``i = n-1 .. 1``,
  over the cards laid out by type index (all copies of type 0, then type 1, ...); the top of the
  pile is the last card;
* a blind pick from a hand: the card at ``below(cards held)`` in the hand laid out the same way;
* a seeded policy rule (``random-S``): a stream of its own, ``rule_seed(game_seed, S, seat, which)``.

``below(n)`` is ``next() % n``: for ``n`` up to a few thousand its bias is below 10^-15.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15  # splitmix64's increment
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_GAMES = 0xD1B54A32D192ED03  # spreads game indices (an odd constant)


def mix64(z: int) -> int:
    """splitmix64's finaliser: a bijection of 64-bit numbers that scatters nearby inputs."""
    z &= MASK
    z = ((z ^ (z >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return z ^ (z >> 31)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` (from 0) of a run seeded with ``run_seed``."""
    return mix64(mix64(run_seed) ^ ((index * _GAMES) & MASK))


def rule_seed(game: int, seed: int, seat: int, which: int) -> int:
    """The seed of a seeded policy rule's stream in one game: ``seed`` is the rule's own (``random-S``),
    ``which`` tells the rules of one seat apart (1: the turn, 2: the cards given)."""
    return mix64(game ^ mix64((seed * 8 + seat * 2 + which) & MASK))


class CardOrder:
    """A splitmix64 stream: ``next()`` the next 64-bit number, ``below(n)`` one in ``range(n)``."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return mix64(self.state)

    def below(self, n: int) -> int:
        return self.next() % n

    def shuffled(self, counts) -> list[int]:
        """The cards of ``counts`` (copies per type index) in shuffled order; the top card is last."""
        cards = [i for i, n in enumerate(counts) for _ in range(n)]
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def pick(self, counts) -> int:
        """One card type, each card of ``counts`` equally likely (the blind pick from a hand)."""
        r = self.below(sum(counts))
        for i, n in enumerate(counts):
            r -= n
            if r < 0:
                return i
        raise ValueError("nothing to pick from")
