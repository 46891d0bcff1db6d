"""The solo passes' draws compiled with numba: one pile size of many passes per call.

``solo_passes.whole_passes`` pushes every pass of a sweep through the pile sizes in numpy arrays,
a dozen array operations and a sort per pile size. On the decks whose pile-start chain is large
(witch=12: 700 passes, 4 million states) that is most of the solve, so there the same draws run
here, state by state in one compiled loop: a state is the same int64 key (``solo_passes._Layout``),
its mass the residues of the exact whole number modulo a few primes below 2**50
(``toolkit.odds.residues``), and equal states of the next pile size meet in an open-addressing
table instead of a sort. The draws are ``solo_model.moves`` and the one-step end of a pile whose
witches can take no castle card any more is ``solo_passes._settle``; the tests hold this module to
both passes, fraction for fraction. Compiling takes a few seconds once per machine (numba's cache);
loading it about 0.6 s, which is why small decks do not come here.
"""

from __future__ import annotations

import numba
import numpy as np

# the fields of a key, as ``solo_passes._FIELDS``: where each starts and how wide it is
SRC, COLOUR, O, J, W, F, C, H, FH = range(9)


@numba.njit(cache=True, inline="always")
def _mulmod(a, b, p, inverse_p):
    """``a * b % p`` for residues below ``p < 2**50``: a float64 quotient (``inverse_p = 1 / p``), off by
    one at most, and the exact remainder from wrapping 64-bit arithmetic."""
    q = np.int64(np.float64(a) * np.float64(b) * inverse_p)
    r = np.int64(np.uint64(a) * np.uint64(b) - np.uint64(q) * np.uint64(p))
    if r < 0:
        r += p
    elif r >= p:
        r -= p
    return r


@numba.njit(cache=True, nogil=True)
def level(keys, masses, extra_keys, extra_masses, size, shift, field_mask, witches, takes, size_to_win, p, inverse_p,
          factorial, win_share, spent_share, spent_any, castles, won, doomed, seen):
    """Every draw from the states of pile size ``size`` (unique ``keys``, residues ``masses``).

    Returns the states of pile size ``size - 1`` (unique, ``extra_keys``/``extra_masses`` merged
    in) and the exits of the piles settled at this size (keys at pile size 0, residues over the
    pass's whole denominator, not merged). Castles completed are added to ``won[group, witches
    drawn]`` over the whole denominator, games whose colour is too small to ``doomed[group]``;
    ``seen[group]`` counts the states.

    A state whose colour is not fixed yet has the colour ``len(castles) - 1`` (one past the
    colours that can win), no own cards and no castle: its pile holds every castle card besides,
    and its diamonds, fairies and witches are drawn as a fixed colour's are. ``castles[k]`` is (own cards, cards of that many in the deck, castle cards of the other colours)
    for colour k; its last row is (0, the cards of the colours too small to win, 0).
    """
    n, count = masses.shape
    unit = np.empty(9, dtype=np.int64)
    for k in range(9):
        unit[k] = np.int64(1) << shift[k]
    # successors a state can have: own card, junk, fairy, witch; before the colour is fixed, a castle
    # card of each colour that can win instead of the own card
    room = max(4, 3 + len(castles) - 1) * n + len(extra_keys)
    bits = 1
    while (1 << bits) < 2 * room + 2:
        bits += 1
    mask = (1 << bits) - 1
    index = np.full(1 << bits, -1, dtype=np.int64)  # slot -> row of out_keys / out_masses
    out_keys = np.empty(room, dtype=np.int64)
    out_masses = np.empty((room, count), dtype=np.int64)
    filled = 0
    exit_keys = np.empty(n * (witches + 2), dtype=np.int64)  # a settled state exits at most once per fairies spent
    exit_masses = np.empty((n * (witches + 2), count), dtype=np.int64)
    exits = 0
    whole = np.empty(count, dtype=np.int64)

    for i in range(len(extra_keys)):
        row, filled = _row(index, out_keys, out_masses, filled, extra_keys[i], mask, bits)
        for r in range(count):
            out_masses[row, r] += extra_masses[i, r]

    for i in range(n):
        key = keys[i]
        g = (key >> shift[SRC]) & field_mask[SRC]
        o = (key >> shift[O]) & field_mask[O]
        j = (key >> shift[J]) & field_mask[J]
        w = (key >> shift[W]) & field_mask[W]
        f = (key >> shift[F]) & field_mask[F]
        c = (key >> shift[C]) & field_mask[C]
        h = (key >> shift[H]) & field_mask[H]
        fh = (key >> shift[FH]) & field_mask[FH]
        seen[g] += 1
        colour = (key >> shift[COLOUR]) & field_mask[COLOUR]
        if colour == len(castles) - 1:  # the colour is not fixed yet: solo_model.moves of ("pre", ...)
            for k in range(len(castles) - 1):  # a castle card fixes the colour (or wins a castle of one)
                if size_to_win <= 1:
                    _win(won, g, witches - w, masses, i, castles[k, 1], factorial[size - 1], p, inverse_p)
                else:
                    after = (key + (k - colour) * unit[COLOUR] + (castles[k, 0] - 1) * unit[O]
                             + castles[k, 2] * unit[J] + unit[C])
                    filled = _add(index, out_keys, out_masses, filled, after, masses, i, castles[k, 1], mask, bits, p)
            if castles[colour, 1] > 0:  # a colour too small: the game cannot end
                for r in range(count):
                    value = _mulmod((masses[i, r] * castles[colour, 1]) % p[r], factorial[size - 1, r], p[r],
                                    inverse_p[r])
                    total = doomed[g, r] + value
                    doomed[g, r] = total - p[r] if total >= p[r] else total
        elif fh >= w or h >= takes * w:  # settled: no castle card can be lost any more (solo_passes._settle)
            for r in range(count):
                whole[r] = _mulmod(masses[i, r], factorial[size, r], p[r], inverse_p[r])
            needed = size_to_win - c
            if o < needed:  # every card joins the hand, every witch goes: the fairies spent decide the rest
                base = (key + (unit[C] - unit[O]) * o + (unit[H] - unit[J]) * j + (unit[FH] - unit[F]) * f
                        - unit[W] * w - takes * unit[H] * w)
                for spent in range(min(w, fh + f) + 1):
                    if not spent_any[w, f, fh, spent]:
                        continue  # no order of the witches and fairies left spends that many
                    exit_keys[exits] = base + spent * (takes * unit[H] - unit[FH])
                    for r in range(count):
                        exit_masses[exits, r] = _mulmod(whole[r], spent_share[w, f, fh, spent, r], p[r], inverse_p[r])
                    exits += 1
            else:  # k of the w witches left come before the needed-th own card
                for k in range(w + 1):
                    drawn = witches - w + k
                    for r in range(count):
                        total = won[g, drawn, r] + _mulmod(whole[r], win_share[needed, o, w, k, r], p[r], inverse_p[r])
                        won[g, drawn, r] = total - p[r] if total >= p[r] else total
            continue
        if o > 0:  # own card: the castle grows, or is complete
            if c + 1 >= size_to_win:
                _win(won, g, witches - w, masses, i, o, factorial[size - 1], p, inverse_p)
            else:
                filled = _add(index, out_keys, out_masses, filled, key - unit[O] + unit[C], masses, i, o, mask, bits, p)
        if j > 0:  # junk into the hand
            filled = _add(index, out_keys, out_masses, filled, key - unit[J] + unit[H], masses, i, j, mask, bits, p)
        if f > 0:  # fairy into the hand
            filled = _add(index, out_keys, out_masses, filled, key - unit[F] + unit[FH], masses, i, f, mask, bits, p)
        if w > 0:  # witch: a held fairy is spent, or cards go, junk first
            if fh > 0:
                after = key - unit[W] - unit[FH]
            else:
                lost_junk = min(h, takes)
                lost_own = min(c, takes - lost_junk)
                after = key - unit[W] - lost_junk * unit[H] - lost_own * unit[C]
            filled = _add(index, out_keys, out_masses, filled, after, masses, i, w, mask, bits, p)

    result = out_masses[:filled].copy()
    for row in range(filled):
        for r in range(count):
            result[row, r] %= p[r]
    return out_keys[:filled].copy(), result, exit_keys[:exits].copy(), exit_masses[:exits].copy()


@numba.njit(cache=True, inline="always")
def _win(won, g, drawn, masses, i, weight, factorial, p, inverse_p):
    """A castle completed by one of ``weight`` cards: ``masses[i] * weight`` at pile size 0 (times
    ``factorial``, the next pile size's factorial) into ``won[g, drawn]``."""
    for r in range(masses.shape[1]):
        value = _mulmod((masses[i, r] * weight) % p[r], factorial[r], p[r], inverse_p[r])
        total = won[g, drawn, r] + value
        won[g, drawn, r] = total - p[r] if total >= p[r] else total


@numba.njit(cache=True, inline="always")
def _row(index, out_keys, out_masses, filled, key, mask, bits):
    """The row of ``key`` among the next pile size's states, a new zero row if it is not there yet.

    An open-addressing table of ``2**bits`` slots keeps the rows; Fibonacci hashing (the top bits of
    the key times 2**64 / golden ratio) spreads the keys' packed fields over it."""
    at = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
    while index[at] != -1:
        if out_keys[index[at]] == key:
            return index[at], filled
        at = (at + 1) & mask
    index[at] = filled
    out_keys[filled] = key
    for r in range(out_masses.shape[1]):
        out_masses[filled, r] = 0
    return filled, filled + 1


@numba.njit(cache=True, inline="always")
def _add(index, out_keys, out_masses, filled, key, masses, i, weight, mask, bits, p):
    """Add ``masses[i] * weight`` (a card count, below 2**12: a product below 2**62) at ``key``.

    Several parents can lose cards to a witch into one state, so a row is reduced once it passes
    2**62 (its primes are below 2**50); it stays below 2**63."""
    row, filled = _row(index, out_keys, out_masses, filled, key, mask, bits)
    for r in range(masses.shape[1]):
        total = out_masses[row, r] + masses[i, r] * weight
        out_masses[row, r] = total % p[r] if total >= (np.int64(1) << 62) else total
    return filled
