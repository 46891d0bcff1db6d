"""The solo model's rules, each written once, and the compiled passes that play them.

The rules (docs/rules/diamoniak.md, "The solo model") are steps (``toolkit.fast.steps``): plain
functions of a state's counts in branch-free arithmetic (``lesser``, comparisons as masks), so
one function serves the three solvers of the model: the pure-Python model (``solo_model.moves``, on
Python ints), the numpy passes (``solo_passes``, on int64 arrays of many states) and, compiled by
``steps.compiled(__name__)``, the loop ``level`` below (numba scalars). Importing this module loads
no numba. A change to a rule is a change here; the tests hold the solvers to each other and to the
independent solvers of tests/solo_reference.py.

``level`` runs one pile size of many passes in one compiled loop, for the decks whose pile-start
chain is large (witch=12: 700 passes, 4 million states): a state is the int64 key of
``solo_passes._Layout``, its mass the residues of the exact whole number modulo a few primes below
2**50 (``toolkit.odds.residues``), and equal states of the next pile size meet in an open-addressing
table instead of a sort. Compiling takes a few seconds once per machine (numba's cache, which checks
only this file: the loop and every step it plays stay in it); loading it about 0.6 s, which is why
small decks do not come here.
"""

from __future__ import annotations

import functools

import numpy as np

from toolkit.fast.steps import step

# the fields of a state after the colour is fixed, in key order (most significant first): the pass it
# belongs to, its colour, then pile (own cards o, junk j, witches w, fairies f) and hand (castle c,
# junk h, fairies fh), as ``solo_model`` orders them
SRC, COLOUR, O, J, W, F, C, H, FH = range(9)
FIELDS = 9
# the kinds of card a draw takes once the colour is fixed (before, every castle card is of a colour
# and fixes it: ``first_castle``; diamonds are the junk)
OWN, JUNK, FAIRY, WITCH = range(4)
# what the first castle card drawn does: fixes its colour, completes a castle of one card, or fixes a
# colour with fewer cards than a castle needs (the game cannot end)
FIXED, COMPLETE, TOO_SMALL = range(3)


@step(cache=True, inline="always")
def drawn(kind, c, h, fh, takes):
    """The change of the pile and hand ``(o, j, w, f, c, h, fh)`` when a card of ``kind`` is drawn,
    the hand holding castle ``c``, junk ``h`` and fairies ``fh``: an own card joins the castle, junk
    and fairies the hand; a witch spends a held fairy, or else takes ``takes`` cards, junk first."""
    if kind == OWN:
        return -1, 0, 0, 0, 1, 0, 0
    if kind == JUNK:
        return 0, -1, 0, 0, 0, 1, 0
    if kind == FAIRY:
        return 0, 0, 0, -1, 0, 0, 1
    spent = lesser(fh, 1)  # 1 when a fairy is held: it saves the hand
    taken = 1 - spent  # 1 when none is: the witch takes cards
    lost_junk = lesser(h, takes)
    lost_own = lesser(c, takes - lost_junk)
    return 0, 0, -1, 0, -taken * lost_own, -taken * lost_junk, -spent


@step(cache=True, inline="always")
def lesser(a, b):
    """The smaller of ``a`` and ``b`` (elementwise), in arithmetic that Python ints, numpy arrays and
    numba scalars all take: Python ints stay Python ints (no numpy scalar reaches a fraction or the
    DRN export), at a tenth of ``np.minimum``'s cost on them."""
    return b + (a - b) * (a < b)


@step(cache=True, inline="always")
def completes(c, size):
    """Whether an own card drawn onto castle ``c`` completes a castle of ``size`` cards."""
    return c + 1 >= size


@step(cache=True, inline="always")
def first_castle(own, castles, size):
    """The first castle card drawn (every castle card is in the pile until then), of a colour with
    ``own`` of the deck's ``castles`` cards: what it does (``FIXED``, ``COMPLETE``, ``TOO_SMALL``),
    and the change of ``(o, j, c)`` when it fixes the colour: that colour's other cards become the own
    cards, the other colours' join the junk, the card starts the castle."""
    ends = TOO_SMALL if own < size else (COMPLETE if completes(0, size) else FIXED)
    return ends, own - 1, castles - own, 1


def colour_totals(own: int, castles: int, diamonds: int) -> tuple[int, int]:
    """A fixed colour's own and junk cards in the whole deck: its castle cards; the diamonds and the
    other colours' castle cards."""
    return own, diamonds + castles - own


@step(cache=True, inline="always")
def reshuffled(own_total, junk_total, c, h, fh, witches, fairies):
    """The pile ``(o, j, w, f)`` after a reshuffle: what is neither in the pile (it is empty) nor held."""
    return own_total - c, junk_total - h, witches, fairies - fh


@step(cache=True, inline="always")
def settled(w, h, fh, takes):
    """Whether no own card can be lost any more in this pile: the held fairies, or the held junk,
    cover every witch left in it (the pile then ends in one step: ``castle_in_pile``)."""
    return (fh >= w) | (h >= takes * w)


@step(cache=True, inline="always")
def castle_in_pile(o, c, size):
    """Whether a settled pile completes the castle: every own card left joins it."""
    return o >= size - c


@step(cache=True, inline="always")
def settled_exit(o, j, w, f, spent, takes):
    """The change of ``(o, j, w, f, c, h, fh)`` from a settled pile that does not complete the castle
    to its end: every card left joins the hand, every witch goes, and each of the ``w - spent`` that
    find no fairy held takes ``takes`` junk."""
    return -o, -j, -w, -f, o, j - takes * (w - spent), f - spent


def castle_orders(needed, o, w, k, choose):
    """(orders in which ``k`` of the ``w`` witches left come before the ``needed``-th of the ``o`` own
    cards left, orders of those cards): a settled pile's castle, after k more witches (a negative
    hypergeometric law). ``choose[n, k]`` is C(n, k); any argument but ``choose`` may be an array."""
    return choose[needed - 1 + k, k] * choose[o - needed + w - k, w - k], choose[o + w, w]


@functools.cache
def spent_orders(witches: int, fairies: int, held: int) -> dict[int, int]:
    """Over the orders of ``witches`` witches and ``fairies`` fairies left in a settled pile (``held``
    fairies in hand at first): how many orders spend each number of fairies (a witch spends one if
    one is held)."""
    if not witches:
        return {0: 1}
    out: dict[int, int] = {}
    for spent, ways in spent_orders(witches - 1, fairies, held - 1 if held else 0).items():  # a witch first
        spent += 1 if held else 0
        out[spent] = out.get(spent, 0) + ways
    if fairies:
        for spent, ways in spent_orders(witches, fairies - 1, held + 1).items():
            out[spent] = out.get(spent, 0) + ways
    return out


@step(cache=True, inline="always")
def moved(key, delta, unit):
    """A state's key (``solo_passes._Layout``) after ``delta``, the change of ``(o, j, w, f, c, h, fh)``."""
    do, dj, dw, df, dc, dh, dfh = delta
    return key + (do * unit[O] + dj * unit[J] + dw * unit[W] + df * unit[F] + dc * unit[C] + dh * unit[H]
                  + dfh * unit[FH])


@step(cache=True, inline="always")
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


@step(cache=True, nogil=True)
def level(keys, masses, extra_keys, extra_masses, size, shift, field_mask, witches, takes, size_to_win, castle_total, p,
          inverse_p, factorial, win_share, spent_share, spent_any, castles, won, doomed, seen):
    """Every draw from the states of pile size ``size`` (unique ``keys``, residues ``masses``).

    Returns the states of pile size ``size - 1`` (unique, ``extra_keys``/``extra_masses`` merged
    in) and the exits of the piles settled at this size (keys at pile size 0, residues over the
    pass's whole denominator, not merged). Castles completed are added to ``won[group, witches
    drawn]`` over the whole denominator, games whose colour is too small to ``doomed[group]``;
    ``seen[group]`` counts the states.

    A state whose colour is not fixed yet has the colour ``len(castles) - 1`` (one past the
    colours that can win), no own cards and no castle: its pile holds every castle card besides,
    and its diamonds, fairies and witches are drawn as a fixed colour's are. ``castles[k]`` is (own
    cards, cards of the colours of that many) for colour k; its last row is (0, the cards of the
    colours too small to win): 0 is below any castle's size.
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
        if colour == len(castles) - 1:  # the colour is not fixed yet: a castle card fixes it
            for k in range(len(castles)):
                if castles[k, 1] == 0:
                    continue
                ends, do, dj, dc = first_castle(castles[k, 0], castle_total, size_to_win)
                if ends == FIXED:
                    after = key + (k - colour) * unit[COLOUR] + do * unit[O] + dj * unit[J] + dc * unit[C]
                    filled = _add(index, out_keys, out_masses, filled, after, masses, i, castles[k, 1], mask, bits, p)
                elif ends == COMPLETE:
                    _win(won, g, witches - w, masses, i, castles[k, 1], factorial[size - 1], p, inverse_p)
                else:  # a colour too small: the game cannot end
                    for r in range(count):
                        value = _mulmod((masses[i, r] * castles[k, 1]) % p[r], factorial[size - 1, r], p[r],
                                        inverse_p[r])
                        total = doomed[g, r] + value
                        doomed[g, r] = total - p[r] if total >= p[r] else total
        elif settled(w, h, fh, takes):  # no castle card can be lost any more: the pile ends in one step
            for r in range(count):
                whole[r] = _mulmod(masses[i, r], factorial[size, r], p[r], inverse_p[r])
            if not castle_in_pile(o, c, size_to_win):  # the fairies spent decide the hand it ends with
                for spent in range(min(w, fh + f) + 1):
                    if not spent_any[w, f, fh, spent]:
                        continue  # no order of the witches and fairies left spends that many
                    exit_keys[exits] = moved(key, settled_exit(o, j, w, f, spent, takes), unit)
                    for r in range(count):
                        exit_masses[exits, r] = _mulmod(whole[r], spent_share[w, f, fh, spent, r], p[r], inverse_p[r])
                    exits += 1
            else:  # k of the w witches left come before the castle is complete
                for k in range(w + 1):
                    drawn_witches = witches - w + k
                    for r in range(count):
                        total = won[g, drawn_witches, r] + _mulmod(whole[r], win_share[size_to_win - c, o, w, k, r],
                                                                   p[r], inverse_p[r])
                        won[g, drawn_witches, r] = total - p[r] if total >= p[r] else total
            continue
        if o > 0:  # own card: the castle grows, or is complete
            if completes(c, size_to_win):
                _win(won, g, witches - w, masses, i, o, factorial[size - 1], p, inverse_p)
            else:
                filled = _add(index, out_keys, out_masses, filled, moved(key, drawn(OWN, c, h, fh, takes), unit),
                              masses, i, o, mask, bits, p)
        if j > 0:
            filled = _add(index, out_keys, out_masses, filled, moved(key, drawn(JUNK, c, h, fh, takes), unit),
                          masses, i, j, mask, bits, p)
        if f > 0:
            filled = _add(index, out_keys, out_masses, filled, moved(key, drawn(FAIRY, c, h, fh, takes), unit),
                          masses, i, f, mask, bits, p)
        if w > 0:
            filled = _add(index, out_keys, out_masses, filled, moved(key, drawn(WITCH, c, h, fh, takes), unit),
                          masses, i, w, mask, bits, p)

    result = out_masses[:filled].copy()
    for row in range(filled):
        for r in range(count):
            result[row, r] %= p[r]
    return out_keys[:filled].copy(), result, exit_keys[:exits].copy(), exit_masses[:exits].copy()


@step(cache=True, inline="always")
def _win(won, g, drawn_witches, masses, i, weight, factorial, p, inverse_p):
    """A castle completed by one of ``weight`` cards: ``masses[i] * weight`` at pile size 0 (times
    ``factorial``, the next pile size's factorial) into ``won[g, drawn_witches]``."""
    for r in range(masses.shape[1]):
        value = _mulmod((masses[i, r] * weight) % p[r], factorial[r], p[r], inverse_p[r])
        total = won[g, drawn_witches, r] + value
        won[g, drawn_witches, r] = total - p[r] if total >= p[r] else total


@step(cache=True, inline="always")
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


@step(cache=True, inline="always")
def _add(index, out_keys, out_masses, filled, key, masses, i, weight, mask, bits, p):
    """Add ``masses[i] * weight`` (a card count, below 2**12: a product below 2**62) at ``key``.

    Several parents can lose cards to a witch into one state, so a row is reduced once it passes
    2**62 (its primes are below 2**50); it stays below 2**63."""
    row, filled = _row(index, out_keys, out_masses, filled, key, mask, bits)
    for r in range(masses.shape[1]):
        total = out_masses[row, r] + masses[i, r] * weight
        out_masses[row, r] = total % p[r] if total >= (np.int64(1) << 62) else total
    return filled
