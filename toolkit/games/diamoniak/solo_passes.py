"""Many solo piles at once, vectorised: the forward passes of ``solo.solo_odds`` over numpy arrays.

The reference pass (tests/solo_reference.py, ``epoch_pass``) pushes one pile's exact masses draw by
draw in a Python dict loop.
The pile-start chain needs one pass per state that starts a pile (about 700 at witch=12, 14
million states in all), so here every pass of a round runs in one sweep over the pile sizes: a
state after the colour is fixed is one int64 (its pass, its colour's totals and the seven counts),
a level's states are arrays, the four draws are array operations and equal states are merged by a
sort. A state whose held fairies or junk cover every witch left in its pile loses no own card any
more, so its pile is finished in one step (``_settle``). Masses stay exact
Python integers (numpy object arrays: a pass's masses are whole numbers
over ``n!/(n-k)!``, a few hundred bits, and objects cost less than enough 31-bit primes to hold
them). The draws themselves are the rules of ``solo_kernel`` (``drawn``, ``settled``...), on arrays:
states before the colour is fixed (only the first pile has them, a few thousand) go through
``solo_model.moves``, and the tests hold this module to ``epoch_pass`` and to the backward walk
``solve``.
"""

from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toolkit.fast.notice import said_if_slow
from toolkit.games.diamoniak import solo_kernel
from toolkit.games.diamoniak.solo_kernel import (C, COLOUR, F, FH, FIELDS, FAIRY, H, J, JUNK, O, OWN, SRC, W, WITCH,
                                                 castle_in_pile, castle_orders, colour_totals, completes, drawn,
                                                 moved, reshuffled, settled, settled_exit, spent_orders)
from toolkit.games.diamoniak.solo_model import DOOMED, WON, Epoch, drawn_from, moves
from toolkit.walk.graph import TooManyStates


class _Layout:
    """How the fields of a fixed-colour state (``solo_kernel.FIELDS``, in key order) pack into one int64 key."""

    def __init__(self, deck, colours: list[tuple[int, int]], sources: int):
        most_own = max((own for own, _ in colours), default=0)
        most_junk = max(max((junk for _, junk in colours), default=0), deck.diamonds)  # before a colour: diamonds
        top = {SRC: sources, COLOUR: len(colours), O: most_own, J: most_junk, W: deck.witches, F: deck.fairies,
               C: deck.size, H: most_junk, FH: deck.fairies}
        width = [max(int(top[k]).bit_length(), 1) for k in range(FIELDS)]
        self.shift = [sum(width[k + 1:]) for k in range(FIELDS)]  # Python ints: a field of a Python int key stays one
        if sum(width) > 63:
            raise OverflowError("a solo state does not fit in 64 bits")
        self.mask = [(1 << n) - 1 for n in width]
        self.unit = np.array([1 << n for n in self.shift], dtype=np.int64)  # a field's 1 in a key

    def field(self, keys, k: int):
        """Field ``k`` of ``keys`` (an array, or one Python int)."""
        return (keys >> self.shift[k]) & self.mask[k]

    def pack(self, *values: int) -> int:
        """The key of a state given as its fields in ``FIELDS`` order."""
        key = 0
        for value, shift in zip(values, self.shift):
            key |= value << shift
        return key


@dataclass
class WholePass:
    """``solo_model.Epoch`` in whole numbers: every figure is a numerator over ``denominator``."""

    denominator: int
    wins: dict[int, int]  # witches drawn in this pile before the castle is complete -> numerator
    doomed: int
    exits: dict[tuple, int]  # a state whose pile is empty -> numerator
    states: int


def whole_passes(deck, groups: list[dict], progress=None, limit: int | None = None,
                 compiled: bool = False) -> list[WholePass]:
    """One pass per group of start states (``{state: mass}``), as ``epoch_pass`` gives for each.

    A group's states are pushed together (their masses add up); different groups never mix. Past
    ``limit`` states (summed over the groups, counted as ``epoch_pass`` counts them) it raises
    ``TooManyStates``. With ``compiled`` the states whose colour is fixed go through
    ``solo_kernel`` (the same draws, compiled, masses as residues) instead of numpy arrays.
    """
    witches, fairies = deck.witches, deck.fairies
    colours = sorted({colour_totals(n, deck.castle_total, deck.diamonds) for _, n in deck.castles if n >= deck.size})
    colour_of = {pair: i for i, pair in enumerate(colours)}
    layout = _Layout(deck, colours, len(groups))

    # start masses as integers: group g's mass at pile size n is its probability * den[g] * top! / n!
    top = max((drawn_from(deck, s)[0] for group in groups for s in group), default=0)
    dens = [math.lcm(*(Fraction(m).denominator for m in group.values())) for group in groups]
    # every figure of group g is a whole number over den[g] * arranged[g] (``arrangements``), a divisor
    # of den[g] * top!: the compiled passes need primes for that bound only (a third of top!'s bits)
    arranged = [math.lcm(*(arrangements(deck, state) for state in group)) for group in groups]
    pre: dict[int, dict] = {}  # pile size -> {(group, pre state): mass}
    fixed: dict[int, dict[int, int]] = {}  # pile size -> {key: mass}
    for g, group in enumerate(groups):
        for state, mass in group.items():
            size = drawn_from(deck, state)[0]
            numerator = int(Fraction(mass) * dens[g]) * math.perm(top, top - size)
            if state[0] == "pre":
                if compiled:  # the kernel's own key for it: the colour one past those that can win
                    _, j, w, f, h, fh = state
                    key = layout.pack(g, len(colours), 0, j, w, f, 0, h, fh)
                    level = fixed.setdefault(size, {})
                    level[key] = level.get(key, 0) + numerator
                else:
                    pre.setdefault(size, {})[g, state] = numerator
                continue
            O, J, o, j, w, f, c, h, fh = state
            if o + j + w + f == 0:
                o, j, w, f = reshuffled(O, J, c, h, fh, witches, fairies)
            key = layout.pack(g, colour_of[O, J], o, j, w, f, c, h, fh)
            level = fixed.setdefault(size, {})
            level[key] = level.get(key, 0) + numerator

    wins: dict[tuple[int, int, int], int] = {}  # (group, witches drawn, pile size after) -> numerator
    doomed: dict[tuple[int, int], int] = {}
    seen = [0] * len(groups)

    def before_colour(size: int) -> None:
        """The draws of the states at pile size ``size`` whose colour is not fixed yet: the rules' moves."""
        below_pre: dict = pre.setdefault(size - 1, {})
        for (g, state), mass in pre.pop(size, {}).items():
            seen[g] += 1
            witches_drawn = witches - state[2]
            for weight, after, _ in moves(deck, state):
                if after is WON:
                    wins[g, witches_drawn, size - 1] = wins.get((g, witches_drawn, size - 1), 0) + mass * weight
                elif after is DOOMED:
                    doomed[g, size - 1] = doomed.get((g, size - 1), 0) + mass * weight
                elif after[0] == "pre":
                    below_pre[g, after] = below_pre.get((g, after), 0) + mass * weight
                else:
                    O, J, o, j, w, f, c, h, fh = after
                    key = layout.pack(g, colour_of[O, J], o, j, w, f, c, h, fh)
                    level = fixed.setdefault(size - 1, {})
                    level[key] = level.get(key, 0) + mass * weight

    # the numbers over den[g] * top! are ``over_top[g]`` times those over den[g] * arranged[g]
    over_top = [math.factorial(top) // n for n in arranged]
    if compiled:  # its figures come over den[g] * arranged[g] already
        won, lost, keys, masses = _compiled_levels(deck, colours, layout, fixed, top, arranged,
                                                   max(den * n for den, n in zip(dens, arranged)), seen, progress,
                                                   limit)
        for g, numerator in enumerate(lost):
            if numerator:
                doomed[g, 0] = numerator
    else:
        won, keys, masses = _array_levels(deck, layout, fixed, top, seen, wins, before_colour, progress, limit)

    def whole(g: int, numerator: int) -> int:  # over den[g] * top!: to den[g] * arranged[g]
        quotient, rest = divmod(numerator, over_top[g])
        if rest:  # cannot happen (``arrangements``); the compiled passes, which cannot check it, rely on it
            raise ArithmeticError("a figure of a pass is not a whole number over its start pile's orders")
        return quotient

    results = [WholePass(dens[g] * arranged[g], {}, 0, {}, seen[g]) for g in range(len(groups))]
    for (g, witches_drawn, size), numerator in wins.items():  # over den * top! / size!
        by_witches = results[g].wins
        by_witches[witches_drawn] = by_witches.get(witches_drawn, 0) + whole(g, numerator * math.factorial(size))
    for (g, witches_drawn), numerator in won.items():  # over den * arranged (compiled) or den * top!
        by_witches = results[g].wins
        by_witches[witches_drawn] = by_witches.get(witches_drawn, 0) + (numerator if compiled else whole(g, numerator))
    for (g, size), numerator in doomed.items():  # over den * top! / size! (or den * arranged, compiled)
        results[g].doomed += numerator if compiled else whole(g, numerator * math.factorial(size))
    for (g, state), numerator in pre.pop(0, {}).items():
        results[g].exits[state] = whole(g, numerator)
    for key, numerator in zip(keys.tolist(), masses):
        g, colour, _, j, w, f, c, h, fh = (layout.field(key, k) for k in range(FIELDS))
        numerator = numerator if compiled else whole(g, numerator)
        if colour == len(colours):  # the kernel's key of a state before the colour is fixed (no castle cards)
            results[g].exits["pre", j, w, f, h, fh] = numerator
        else:
            results[g].exits[(*colours[colour], 0, 0, 0, 0, c, h, fh)] = numerator
    return results


def arrangements(deck, state) -> int:
    """The distinct orders of the pile ``state`` draws from, its cards told apart as the draws tell them:
    each castle colour before the colour is fixed, then own cards and junk; diamonds, witches, fairies.

    The chance of any sequence of draws from that pile is a whole number over this (the orders that
    begin with it), and so is every figure of a pass from ``state``."""
    if state[0] == "pre":
        _, j, w, f, _, _ = state
        counts = [n for _, n in deck.castles] + [j, w, f]
    else:
        O, J, o, j, w, f, c, h, fh = state
        if o + j + w + f == 0:  # it starts a pile: the pile is what is not held
            o, j, w, f = reshuffled(O, J, c, h, fh, deck.witches, deck.fairies)
        counts = [o, j, w, f]
    ways = math.factorial(sum(counts))
    for n in counts:
        ways //= math.factorial(n)
    return ways


def _array_levels(deck, layout: _Layout, fixed: dict, top: int, seen: list, wins: dict, before_colour, progress,
                  limit) -> tuple[dict, np.ndarray, list]:
    """The pile sizes from ``top`` down in numpy arrays, masses Python integers. Castles completed go into
    ``wins`` by pile size; returns the settled piles' wins (over the whole denominator) and the exits."""
    witches, takes, size_to_win = deck.witches, deck.takes, deck.size
    field = layout.field
    exits: tuple[list, list] = ([], [])  # settled states' exits (keys, masses at pile size 0)
    keys = np.zeros(0, dtype=np.int64)
    masses = np.zeros(0, dtype=object)
    for size in range(top, 0, -1):
        if progress:
            progress(1)
        from_pre: dict[int, int] = fixed.pop(size, {})
        before_colour(size)
        if from_pre:
            keys, masses = _merge([keys, np.fromiter(from_pre, dtype=np.int64, count=len(from_pre))],
                                  [masses, np.array(list(from_pre.values()), dtype=object)])
        if not len(keys):
            continue
        src = field(keys, SRC)
        counted = np.bincount(src, minlength=len(seen))
        for g in np.flatnonzero(counted):
            seen[g] += int(counted[g])
        if limit is not None and sum(seen) > limit:
            raise TooManyStates(limit)
        o, j, w, f, c, h, fh = (field(keys, k) for k in (O, J, W, F, C, H, FH))
        settles = settled(w, h, fh, takes)
        if settles.any():  # the rest of this pile is known in one step: no card can be lost any more
            _settle(layout, keys[settles], masses[settles], size, c[settles], size_to_win, witches, takes, wins, exits)
            keep = ~settles
            keys, masses, src = keys[keep], masses[keep], src[keep]
            o, j, w, f, c, h, fh = (array[keep] for array in (o, j, w, f, c, h, fh))
        out_keys, out_masses = [], []
        has = o > 0
        done = has & completes(c, size_to_win)  # own card: the castle is complete
        if done.any():
            drawn_witches = witches - w[done]
            tally = src[done] * (witches + 1) + drawn_witches
            for t, total in _sums(tally, masses[done] * o[done].astype(object)):
                g, d = divmod(int(t), witches + 1)
                wins[g, d, size - 1] = wins.get((g, d, size - 1), 0) + total
        for kind, weight, can in ((OWN, o, has & ~done), (JUNK, j, j > 0), (FAIRY, f, f > 0), (WITCH, w, w > 0)):
            out_keys.append(moved(keys, drawn(kind, c, h, fh, takes), layout.unit)[can])
            out_masses.append(masses[can] * weight[can].astype(object))
        keys, masses = _merge(out_keys, out_masses)
    last = fixed.pop(0, {})  # a first castle card drawn as the pile's last card
    keys, masses = _merge([keys, np.fromiter(last, dtype=np.int64, count=len(last)), *exits[0]],
                          [masses, np.array(list(last.values()), dtype=object), *exits[1]])
    return {}, keys, masses.tolist()


def _compiled_levels(deck, colours: list[tuple[int, int]], layout: _Layout, fixed: dict, top: int, arranged: list,
                     most: int, seen: list, progress, limit) -> tuple[dict, list, np.ndarray, list]:
    """``_array_levels`` through ``solo_kernel.level``, the states before the colour is fixed too:
    masses as residues of enough primes for ``most`` (every figure of a pass is at most its whole
    denominator, den * ``arranged[g]``). Returns the castles completed by (group, witches drawn), the
    games whose colour is too small by group, and the exits, over den * arranged[g].

    The kernel's masses are over den * top! (a draw multiplies by a card count only), a number too
    large for ``most``'s primes; but a figure over den * arranged[g] is that one times
    arranged[g] / top!, which the primes (all above top) can divide by, and which they hold whole."""
    from toolkit.odds.residues import Residues

    witches, fairies = deck.witches, deck.fairies
    mod = Residues(most.bit_length())
    shift = np.array(layout.shift, dtype=np.int64)
    field_mask = np.array(layout.mask, dtype=np.int64)
    tables = _kernel_tables(mod.moduli, top, deck.size, max((n for _, n in deck.castles), default=0), witches, fairies)
    castles = np.array([(own, sum(n for _, n in deck.castles if n == own)) for own, _ in colours]
                       + [(0, sum(n for _, n in deck.castles if n < deck.size))], dtype=np.int64)
    inverse_p = 1 / mod.p.astype(np.float64)  # the kernel's float quotients multiply by it
    won = np.zeros((len(seen), witches + 1, mod.count), dtype=np.int64)
    doomed = np.zeros((len(seen), mod.count), dtype=np.int64)
    counted = np.zeros(len(seen), dtype=np.int64)
    start = fixed.pop(top, {})
    keys, masses = np.fromiter(start, dtype=np.int64, count=len(start)), mod.of(start.values())
    exits: tuple[list, list] = ([], [])
    kernel = _compiled_kernel()
    for size in range(top, 0, -1):
        if progress:
            progress(1)
        extra = fixed.pop(size - 1, {})
        keys, masses, exit_keys, exit_masses = _level(
            kernel, keys, masses, np.fromiter(extra, dtype=np.int64, count=len(extra)), mod.of(extra.values()), size,
            shift, field_mask, witches, deck.takes, deck.size, deck.castle_total, mod.p, inverse_p, *tables, castles,
            won, doomed, counted)
        exits[0].append(exit_keys)
        exits[1].append(exit_masses)
        if limit is not None and int(counted.sum()) > limit:
            raise TooManyStates(limit)
    for g, n in enumerate(counted.tolist()):
        seen[g] += n
    keys, masses = mod.sum_by(np.concatenate([keys, *exits[0]]), np.concatenate([masses, *exits[1]]))
    # from over den * top! to over den * arranged[g]
    down = np.array([[n * pow(math.factorial(top), -1, p) % p for p in mod.moduli] for n in arranged], dtype=np.int64)
    masses = mod.mulmod(masses, down[layout.field(keys, SRC)])
    won = mod.mulmod(won, down[:, None, :])
    doomed = mod.mulmod(doomed, down)
    tally = {}
    for (g, witches_drawn), numerator in zip(np.ndindex(won.shape[:2]), mod.integers(won.reshape(-1, mod.count))):
        if numerator:
            tally[g, witches_drawn] = numerator
    return tally, mod.integers(doomed), keys, mod.integers(masses)


_LOADING = threading.Lock()


COMPILING = "preparing the fast solver (compiled once on this machine; this takes up to a minute)"
_level_ran = False  # whether ``level`` has run in this process (compiled, or loaded from numba's cache)


def _level(kernel, *args):
    """``kernel.level(*args)``; its first call in a process compiles it (once per machine), which is said
    on stderr when it takes long."""
    global _level_ran
    if _level_ran:
        return kernel.level(*args)
    with said_if_slow(COMPILING):
        out = kernel.level(*args)
    _level_ran = True
    return out


def _compiled_kernel():
    """``solo_kernel`` compiled (numba: loaded once, and the sweeps of one solve may ask from threads at once)."""
    from toolkit.fast import steps

    with _LOADING:
        return steps.compiled(solo_kernel.__name__)


# the most entries the compiled passes' tables (``_kernel_tables``) may have: they are built in Python,
# a few microseconds an entry and prime (a castle of 30 from a colour of 30 with 20 witches: 424,000)
KERNEL_TABLES = 300_000


def kernel_fits(deck) -> bool:
    """Whether ``whole_passes(compiled=True)`` can take the deck: its card counts below 2**12 (the kernel
    multiplies residues below 2**50 by them) and its look-up tables small enough to build."""
    most_own = max((n for _, n in deck.castles), default=0)
    entries = ((deck.size + 1) * (most_own + 1) * (deck.witches + 1) ** 2
               + (deck.witches + 1) * (deck.fairies + 1) ** 2 * (min(deck.witches, deck.fairies) + 1))
    return deck.total < 4096 and entries <= KERNEL_TABLES


@functools.lru_cache(maxsize=4)
def _kernel_tables(moduli: tuple[int, ...], top: int, size: int, most_own: int, witches: int, fairies: int) -> tuple:
    """What ``solo_kernel.level`` looks up, modulo each prime: ``n!`` for n up to ``top``; for a castle
    short of ``needed`` cards with ``o`` own cards and ``w`` witches left in a settled pile, the share of
    the orders with ``k`` witches before the castle (``solo_kernel.castle_orders``); and for
    w witches and f fairies left with fh fairies held, the share of their orders that spend s fairies
    (and whether any does). A share's denominator is a count of orders, far below the primes."""
    def residues(value) -> list[int]:
        return [int(value.numerator) * pow(int(value.denominator), -1, p) % p for p in moduli]

    factorial = np.array([residues(Fraction(math.factorial(n))) for n in range(top + 1)], dtype=np.int64)
    win = np.zeros((size + 1, most_own + 1, witches + 1, witches + 1, len(moduli)), dtype=np.int64)
    choose = _binomials(most_own + witches)
    for needed in range(1, size + 1):
        for o in range(needed, most_own + 1):
            for w in range(witches + 1):
                for k in range(w + 1):
                    win[needed, o, w, k] = residues(Fraction(*castle_orders(needed, o, w, k, choose)))
    share = np.zeros((witches + 1, fairies + 1, fairies + 1, min(witches, fairies) + 1, len(moduli)), dtype=np.int64)
    any_ = np.zeros(share.shape[:4], dtype=np.bool_)
    for w in range(witches + 1):
        for f in range(fairies + 1):
            for fh in range(fairies + 1 - f):
                for spent, ways in spent_orders(w, f, fh).items():
                    share[w, f, fh, spent] = residues(Fraction(ways, math.comb(w + f, w)))
                    any_[w, f, fh, spent] = True
    return factorial, win, share, any_


def pile_passes(deck, groups: list[dict], progress=None, limit: int | None = None, compiled: bool = False) -> list:
    """``whole_passes`` as ``solo_model.Epoch``s, the reference pass's own fractions."""
    def share(numerator: int, whole: WholePass) -> Fraction:
        return Fraction(numerator, whole.denominator)

    return [Epoch(wins={k: share(n, r) for k, n in sorted(r.wins.items())}, doomed=share(r.doomed, r),
                  exits={state: share(n, r) for state, n in r.exits.items()}, states=r.states)
            for r in whole_passes(deck, groups, progress, limit, compiled)]


def _settle(layout: _Layout, keys: np.ndarray, masses: np.ndarray, size: int, c: np.ndarray, size_to_win: int,
            witches: int, takes: int, wins: dict, exits: tuple[list, list]) -> None:
    """Finish the pile of states that can lose no own card any more (``solo_kernel.settled``), in one step.

    Every own, junk and fairy card left joins the hand, so the castle is complete in this pile if the
    own cards left suffice (``castle_in_pile``), and then the witches drawn before it are those of the
    ``w`` left that come before the castle's last card (``castle_orders``). Else the pile ends with the
    hand ``settled_exit`` gives for ``s`` fairies spent, counted over the orders of the witches and
    fairies left (``spent_orders``). Masses at pile size ``size`` are over ``top!/size!``, so an
    outcome's mass at size 0 is the mass times ``size!`` times its chance.
    """
    o, j, w, f, fh = (layout.field(keys, k) for k in (O, J, W, F, FH))
    whole = masses * math.factorial(size)
    short = ~castle_in_pile(o, c, size_to_win)
    if short.any():
        w_short, f_short, fh_short = w[short], f[short], fh[short]
        most_f, most_fh = int(f_short.max()) + 1, int(fh_short.max()) + 1
        kind = (w_short * most_f + f_short) * most_fh + fh_short  # the states of one (w, f, fh) end alike
        order = np.argsort(kind, kind="stable")
        kind, whole_short = kind[order], whole[short][order]
        # the key each state ends with when no fairy is spent (``settled_exit`` is linear: the fairies
        # spent add their own part, the same for every state)
        ended = moved(keys[short][order], settled_exit(*(array[short][order] for array in (o, j, w, f)), 0, takes),
                      layout.unit)
        kinds, first = np.unique(kind, return_index=True)
        for t, at, end in zip(kinds.tolist(), first.tolist(), [*first[1:].tolist(), len(kind)]):
            rest, held = divmod(t, most_fh)
            left, fairies = divmod(rest, most_f)
            orders = math.comb(left + fairies, left)
            for spent, ways in spent_orders(left, fairies, held).items():
                exits[0].append(ended[at:end] + moved(0, settled_exit(0, 0, 0, 0, spent, takes), layout.unit))
                exits[1].append(whole_short[at:end] * ways // orders)
    win = ~short
    if not win.any():
        return
    # k of the w witches left come before the castle: for each k at once over the states (exact integers)
    src, o, w, needed, whole = layout.field(keys[win], SRC), o[win], w[win], size_to_win - c[win], whole[win]
    choose = _binomials(int((o + w).max()))
    for k in range(int(w.max()) + 1):
        can = w >= k
        ways, orders = castle_orders(needed[can], o[can], w[can], k, choose)
        for t, total in _sums(src[can] * (witches + 1) + witches - w[can] + k, whole[can] * ways // orders):
            if total:
                key = (*divmod(t, witches + 1), 0)
                wins[key] = wins.get(key, 0) + total


@functools.lru_cache(maxsize=4)
def _binomials(most: int) -> np.ndarray:
    """``C(n, k)`` for ``0 <= n, k <= most`` as Python integers (0 where ``k > n``)."""
    return np.array([[math.comb(n, k) for k in range(most + 1)] for n in range(most + 1)], dtype=object)


def _merge(keys: list[np.ndarray], masses: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The states of several arrays with equal keys merged (masses added), sorted by key."""
    keys, masses = np.concatenate(keys), np.concatenate(masses)
    if not len(keys):
        return keys, masses
    order = np.argsort(keys, kind="stable")
    keys, masses = keys[order], masses[order]
    first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[first], np.add.reduceat(masses, first)


def _sums(keys: np.ndarray, values: np.ndarray):
    """(key, sum of its values) for each distinct key."""
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return zip(keys[first].tolist(), np.add.reduceat(values, first).tolist())
