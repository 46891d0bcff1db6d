"""A small module of step functions for ``test_steps``: a tuple changed in place, an inlined step, a loop
without reference counting, unsigned arithmetic."""

from __future__ import annotations

from toolkit.fast.steps import step, tuple_setitem, uint64

COUNT, TOTAL = range(2)


@step(cache=True, inline="always")
def _add(s, card):
    s = tuple_setitem(s, COUNT, s[COUNT] + 1)
    return tuple_setitem(s, TOTAL, s[TOTAL] + card)


@step(cache=True, _nrt=False)
def play(cards, out):
    """Counts and sums ``cards`` into ``out``, and returns a hash of them."""
    s = (0, 0)
    h = uint64(7)
    for i in range(cards.size):
        s = _add(s, cards[i])
        h = (h ^ uint64(cards[i])) * uint64(0x9E3779B97F4A7C15)
    out[0] = s[COUNT]
    out[1] = s[TOTAL]
    return h
