"""Palaces' rules and built-in players as step functions: the product's one copy of each, run compiled
(numba) by the simulation and the exact walk, interpreted by the state of ``toolkit.games.palaces.engine``.

``batch`` gives, for games ``start .. start+count-1`` of a run, exactly the records of
``toolkit.sim.play.engine_batch`` (every action, the give phase, every variant, passes, stalls,
reshuffles). The decisions of the players of ``toolkit.games.palaces.policies`` are steps too, per seat:

* ``builder``: the builder with every step and tie-break (``attacks`` and ``eager`` give the
  builder, no-attack and aggressive rules), ``card_values`` in half points (every value is a
  multiple of one half, so the comparisons are exact), ``worst`` (the least or the most valuable cards);
* ``legal``: the legal actions in the state's order (``legal_actions``), to count them or to write the
  one at an index (``legal_index``: where an action stands, -1 for an illegal one); ``play_random``
  draws one of them (the random rule);
* ``give_random``: a partial Fisher-Yates over the held cards laid out by type; ``give_choice``: the
  cards a giver sets aside in a general exchange.

The readable engine and players these were held to are ``tests/oracles/palaces_engine.py`` and
``tests/oracles/palaces_policies.py``.

Chance is drawn as ``toolkit.sim.play`` draws it: the pile's cards are shuffled into an order at
the first draw and again at any draw after the pile gained cards the order does not know (a
reshuffle, a palace put into the pile by ``palaces-to-pile``); a draw takes the order's top card; a
blind exchange's steal is a ``pick`` over the victim's hand. A seeded rule has its stream per seat
and game, ``rule_seed(game_seed, S, seat, 1 or 2)``.

The games of a batch are split into slices, one per thread (as many as numba's ``NUMBA_NUM_THREADS``,
the cores), each played by the compiled ``play_rows`` without Python's lock; a game's record depends
on its seed alone, so the records do not depend on the split. Each slice reuses one state
array (and one of chance streams), so memory grows with ``count`` only through the output
(seventeen int64 numbers a game).

The state: everything a game holds lives in one ``int64`` array ``s`` and its fixed part in another, ``g``; ``g``
also holds where each part of ``s`` starts (``O_*``, filled by ``layout``). One array each, not a tuple
of many: numba counts references to every array a compiled function is handed, and with a dozen
arrays per call that bookkeeping cost more than the game itself. Every function is compiled without
that reference counting (``_nrt=False``, as the Diamoniak kernel): none allocates, the callers (``batch``,
the walk) allocate the arrays and keep them alive. The chance streams (splitmix64, as
``toolkit.fast.rng``) are the ``uint64`` array ``r``: the game's own, then per seat the turn rule's
and the give rule's.

``s`` holds the scalars (``S_*``: phase, player, turns, drawer, the hand size drawn to, giver, sets
given, victim, steals left, passes, winner, stalled, whether the pile's order is stale, the order's
top), the pile, the discard pile, the hands and their sizes, the palaces (foundation, ruins, floors:
kept in the engine's sorted order, so slot numbers agree), the building places' ruins, the tokens,
the cards set aside in a general exchange and in a blind exchange, the twelve counters (the engine's
order), the pile's shuffled order, each seat's worst deficit and the race's leader, then scratch
space for the policies (an action, card values in half points, buffers).

The rules and the policies are step functions: a chance point's outcome (``outcome``: a deal or
refill draw, a blind exchange's steal) and a seat's decision (``decide``: the builder, the random
rule, a give rule, then ``act`` or ``give``). Two loops call them: ``play_one``, which draws each
chance point as ``toolkit.sim.play`` does (a game of the simulation), and ``walk_chance_points``,
which plays every outcome of every chance point (the exact walk of
``toolkit.games.palaces.walk``, the chain ``walker.build`` walks from the engine).

One module on purpose: numba's cache checks only the file of the function it compiled, so rules
kept in another file could change under a stale cached kernel.

The steps are plain Python marked ``@step`` (``toolkit.fast.steps``): imported, they run interpreted
(no numba loaded; ``below`` and the streams of ``toolkit.fast.rng`` then run their plain twins);
``compiled()`` is this module compiled, which ``batch`` and the walk call.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from toolkit.fast import steps
from toolkit.fast.rng import GOLDEN, game_seed, mix64, randrange, rule_seed
from toolkit.fast.steps import step, uint64
from toolkit.sim.card_order import MASK, CardOrder
from toolkit.sim.play import BASE_FIELDS


# --- the state and the rules ----------------------------------------------------------------------

# card kinds (``engine.KINDS`` gives the catalogue's kind names these numbers)
FOUNDATION, FLOOR, TOWER, ROOF, RUINS, EXCHANGE, GENERAL, FLOOD = range(8)
KINDS = 8

# the fixed part, ``g``: rule numbers, sizes, then where each part starts (in g or in s)
(G_TYPES, G_PLAYERS, G_HAND, G_MAXP, G_WIN, G_EXCH, G_FACE_UP, G_TO_PILE, G_ONE_PER_COLOUR, G_CARD_TO_CLEAR,
 G_RUINS_TOTAL, G_FLOOD_TOTAL, G_ENDABLE, G_FLAGS, G_SLOTS, G_FLOORS, G_CARDS,
 O_KIND, O_COLOUR, O_COMPL, O_COUNTS, O_BY_KIND,
 O_PILE, O_DISC, O_HANDS, O_HSUM, O_PF, O_PR, O_PN, O_PFL, O_NPAL, O_SITE, O_TOKENS, O_GIVING, O_HANDING,
 O_STATS, O_ORDER, O_WORST, O_A, O_GA, O_TA, O_VALS, O_HELD, O_KBUF, O_CARDS, O_TMP, O_FLAG, O_SAVE,
 S_SIZE) = range(49)
G_HEAD = 49

# the scalars at the start of ``s``
(S_PHASE, S_PLAYER, S_TURNS, S_DRAWER, S_DRAW_TO, S_GIVER, S_GIVEN, S_VICTIM, S_STEAL_LEFT, S_PASSES,
 S_WINNER, S_STALLED, S_DIRTY, S_TOP, S_LEADER, S_CHANGES) = range(16)
SC_SIZE = 16

# phases
DEAL, TURN, GIVE, STEAL, REFILL, OVER = range(6)

COUNTERS = ("palaces_completed", "tokens_scored", "foundations_laid", "floods", "exchanges",
            "general_exchanges", "ruins_laid", "ruins_removed", "discards", "cards_discarded",
            "passes", "reshuffles")
(C_COMPLETED, C_TOKENS, C_FOUNDATIONS, C_FLOODS, C_EXCHANGES, C_GENERAL, C_RUINS_LAID, C_RUINS_REMOVED,
 C_DISCARDS, C_CARDS_DISCARDED, C_PASSES, C_RESHUFFLES) = range(12)

# an action: s[O_A ..] = (verb, card, seat, slot); its cards counted per type at O_GA (given or
# discarded) and O_TA (taken face up)
A_PASS, A_DISCARD, A_BUILD, A_EXCHANGE, A_GENERAL, A_FLOOD, A_RUINS = (np.int64(verb) for verb in range(7))
NONE = np.int64(-1)  # no card, no slot (a foundation's build, ruins on a building place)

# Fixed arguments of compiled functions, and the first values of variables handed to them, are typed
# numbers (numpy's): numba compiles a function once for each Python literal it is called with (a
# variable that starts as a literal is one too, while its type is being inferred), and once more for
# a variable; with typed numbers every function is compiled once.
COUNT = np.int64(-1)  # ``legal``, ``submultisets``: count them, write none
ANY_SIZE = np.int64(-1)  # ``submultisets``: of every size
LEAST, MOST = np.int64(1), np.int64(-1)  # ``worst``: the least or the most valuable cards
ATTACKING = np.bool_(True)  # ``card_values``: judged as an attacking player
GAME = np.int64(0)  # ``below``: the game's own chance stream


def layout(rules, kinds, colours, compl, counts):
    """``g`` for a game: ``rules`` its numbers up to ``G_FLAGS``, then per type kind, colour, completable, count,
    then the types by kind (``O_BY_KIND``)."""
    types, players = len(kinds), rules[G_PLAYERS]
    cards = max(1, sum(counts))
    slots = max(1, min(rules[G_MAXP], cards))  # a player's palaces, a palace's floors: never more than the deck
    g = np.zeros(G_HEAD + 5 * types + KINDS + 1, dtype=np.int64)
    g[:len(rules)] = rules
    g[G_SLOTS], g[G_FLOORS], g[G_CARDS] = slots, cards, cards
    g[O_KIND], g[O_COLOUR], g[O_COMPL], g[O_COUNTS], g[O_BY_KIND] = (G_HEAD + k * types for k in range(5))
    g[G_HEAD:G_HEAD + types] = kinds
    g[G_HEAD + types:G_HEAD + 2 * types] = colours
    g[G_HEAD + 2 * types:G_HEAD + 3 * types] = compl
    g[G_HEAD + 3 * types:G_HEAD + 4 * types] = counts
    # the types sorted by kind (ascending within a kind), then where each kind's types start (``of_kind``)
    at, ok = G_HEAD + 4 * types, G_HEAD + 5 * types
    for kind in range(KINDS):
        g[ok + kind] = at
        for i in range(types):
            if kinds[i] == kind:
                g[at] = i
                at += 1
    g[ok + KINDS] = at
    sizes = ((O_PILE, types), (O_DISC, types), (O_HANDS, players * types), (O_HSUM, players),
             (O_PF, players * slots), (O_PR, players * slots), (O_PN, players * slots),
             (O_PFL, players * slots * cards), (O_NPAL, players), (O_SITE, players), (O_TOKENS, players),
             (O_GIVING, players * types), (O_HANDING, types), (O_STATS, 12), (O_ORDER, cards), (O_WORST, players),
             (O_A, 4), (O_GA, types), (O_TA, types), (O_VALS, types), (O_HELD, types), (O_KBUF, types),
             (O_CARDS, cards), (O_TMP, types), (O_FLAG, 6 * rules[G_FLAGS]), (O_SAVE, 4 + 2 * types))
    at = SC_SIZE
    for where, size in sizes:
        g[where] = at
        at += size
    g[S_SIZE] = at
    return g


# --- chance streams -------------------------------------------------------------------------------

def _plain_below(r, k, n):
    """``below`` interpreted: ``CardOrder``'s arithmetic in Python's integers (numpy's ``uint64``
    scalars would warn at every wrap)."""
    stream = CardOrder(int(r[k]))
    value = stream.below(int(n))
    r[k] = stream.state
    return np.int64(value)


@step(cache=True, error_model="numpy", _nrt=False, python=_plain_below)
def below(r, k, n):
    """``CardOrder.below`` on stream ``k`` of ``r``."""
    r[k] = r[k] + GOLDEN
    return np.int64(mix64(r[k]) % np.uint64(n))


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def of_kind(g, kind):
    """The types of ``kind`` are ``g[x]`` for x in range(first, stop), ascending: a rule looking for one kind
    loops over those alone (four roofs, not every type of the deck, each test a branch the CPU may miss)."""
    bounds = g[O_BY_KIND] + g[G_TYPES]
    return g[bounds + kind], g[bounds + kind + 1]


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def first_held(g, s, hand, kind):
    """The lowest type of ``kind`` with cards in the counts at ``hand``, or NONE."""
    first, stop = of_kind(g, kind)
    for x in range(first, stop):
        if s[hand + g[x]]:
            return g[x]
    return NONE


# --- palaces, kept sorted -------------------------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False)
def palace_less(g, s, p, a, b):
    """Is palace ``a`` of player ``p`` before palace ``b`` (the engine's tuple order)?"""
    ms, fl = g[G_SLOTS], g[G_FLOORS]
    ia, ib = p * ms + a, p * ms + b
    fa, fb = s[g[O_PF] + ia], s[g[O_PF] + ib]
    if fa != fb:
        return fa < fb
    na, nb = s[g[O_PN] + ia], s[g[O_PN] + ib]
    la, lb = g[O_PFL] + ia * fl, g[O_PFL] + ib * fl
    for j in range(min(na, nb)):
        if s[la + j] != s[lb + j]:
            return s[la + j] < s[lb + j]
    if na != nb:
        return na < nb
    return s[g[O_PR] + ia] < s[g[O_PR] + ib]


@step(cache=True, error_model="numpy", _nrt=False)
def swap_palaces(g, s, p, a, b):
    ms, fl = g[G_SLOTS], g[G_FLOORS]
    ia, ib = p * ms + a, p * ms + b
    for o in (g[O_PF], g[O_PR]):
        s[o + ia], s[o + ib] = s[o + ib], s[o + ia]
    on = g[O_PN]
    la, lb = g[O_PFL] + ia * fl, g[O_PFL] + ib * fl
    for j in range(max(s[on + ia], s[on + ib])):
        s[la + j], s[lb + j] = s[lb + j], s[la + j]
    s[on + ia], s[on + ib] = s[on + ib], s[on + ia]


@step(cache=True, error_model="numpy", _nrt=False)
def settle(g, s, p, k):
    """Palace ``k`` of player ``p`` changed (or was appended): move it to its sorted place."""
    n = s[g[O_NPAL] + p]
    while k > 0 and palace_less(g, s, p, k, k - 1):
        swap_palaces(g, s, p, k, k - 1)
        k -= 1
    while k < n - 1 and palace_less(g, s, p, k + 1, k):
        swap_palaces(g, s, p, k, k + 1)
        k += 1


@step(cache=True, error_model="numpy", _nrt=False)
def remove_palace(g, s, p, k):
    """Take palace ``k`` off player ``p``'s table (the others keep their order)."""
    n = s[g[O_NPAL] + p]
    for j in range(k, n - 1):
        swap_palaces(g, s, p, j, j + 1)
    s[g[O_NPAL] + p] = n - 1


@step(cache=True, error_model="numpy", _nrt=False)
def to_bin(g, s, card):
    """One card of a completed or flooded palace: to the discard pile, or (variant) into the pile."""
    if g[G_TO_PILE]:
        s[g[O_PILE] + card] += 1
        s[S_DIRTY] = 1  # the pile holds a card its order does not know
    else:
        s[g[O_DISC] + card] += 1


@step(cache=True, error_model="numpy", _nrt=False)
def palace_to_bin(g, s, p, k):
    """A palace leaves the table: foundation, floors and its ruins (if any)."""
    i = p * g[G_SLOTS] + k
    to_bin(g, s, s[g[O_PF] + i])
    fl0 = g[O_PFL] + i * g[G_FLOORS]
    for j in range(s[g[O_PN] + i]):
        to_bin(g, s, s[fl0 + j])
    if s[g[O_PR] + i] != NONE:
        to_bin(g, s, s[g[O_PR] + i])


# --- questions ------------------------------------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def can_found(g, s, p, card):
    types = g[G_TYPES]
    if s[g[O_HANDS] + p * types + card] == 0 or g[g[O_KIND] + card] != FOUNDATION:
        return False
    n = s[g[O_NPAL] + p]
    if n >= g[G_MAXP] or s[g[O_SITE] + p] != NONE:
        return False
    if g[G_ONE_PER_COLOUR]:
        oc, pf = g[O_COLOUR], g[O_PF] + p * g[G_SLOTS]
        for k in range(n):
            if g[oc + s[pf + k]] == g[oc + card]:
                return False
    return True


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def can_build(g, s, p, card, k):
    types = g[G_TYPES]
    if s[g[O_HANDS] + p * types + card] == 0 or k < 0 or k >= s[g[O_NPAL] + p]:
        return False
    i = p * g[G_SLOTS] + k
    if s[g[O_PR] + i] != NONE:
        return False
    kind = g[g[O_KIND] + card]
    if kind == TOWER:
        return True
    oc = g[O_COLOUR]
    if kind == FLOOR:
        return g[oc + card] == g[oc + s[g[O_PF] + i]]
    if kind == ROOF:
        return g[oc + card] == g[oc + s[g[O_PF] + i]] and s[g[O_PN] + i] > 0
    return False


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def exchange_size(g, s, p, target):
    if target == p or target < 0 or target >= g[G_PLAYERS]:
        return 0
    return min(g[G_EXCH], s[g[O_HSUM] + p] - 1, s[g[O_HSUM] + target])


@step(cache=True, error_model="numpy", _nrt=False)
def can_still_end(g, s):
    """The engine's ``_can_still_end``: can some sequence of actions still complete a palace?"""
    if not g[G_ENDABLE]:
        return False
    players, ms = g[G_PLAYERS], g[G_SLOTS]
    opf, opr, onp, osite, ocm = g[O_PF], g[O_PR], g[O_NPAL], g[O_SITE], g[O_COMPL]
    floodable = players >= 2 and g[G_FLOOD_TOTAL] >= 1
    locked = 0
    for p in range(players):
        if s[osite + p] != NONE:
            locked += 1
    if not floodable:
        for p in range(players):
            for k in range(s[onp + p]):
                if s[opr + p * ms + k] != NONE:
                    locked += 1
    clearable = (not g[G_CARD_TO_CLEAR]) or g[G_RUINS_TOTAL] - locked >= 1
    for p in range(players):
        for k in range(s[onp + p]):
            if g[ocm + s[opf + p * ms + k]] and (s[opr + p * ms + k] == NONE or clearable):
                return True
        if (s[osite + p] == NONE or clearable) and (s[onp + p] < g[G_MAXP] or floodable):
            return True
    return False


# --- the flow of a game ---------------------------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False)
def available(g, s):
    """Can a card be drawn? An empty pile is replaced by the discard pile (a reshuffle)."""
    types, op, od = g[G_TYPES], g[O_PILE], g[O_DISC]
    for i in range(types):
        if s[op + i]:
            return True
    anything = False
    for i in range(types):
        if s[od + i]:
            anything = True
            break
    if not anything:
        return False
    for i in range(types):
        s[op + i] = s[od + i]
        s[od + i] = 0
    s[g[O_STATS] + C_RESHUFFLES] += 1
    s[S_DIRTY] = 1
    return True


@step(cache=True, error_model="numpy", _nrt=False)
def deal(g, s):
    while s[S_DRAWER] < g[G_PLAYERS]:
        if s[g[O_HSUM] + s[S_DRAWER]] < s[S_DRAW_TO] and available(g, s):
            s[S_PHASE] = DEAL
            return
        s[S_DRAWER] += 1
    s[S_DRAWER] = 0
    s[S_PLAYER] = 0
    s[S_PHASE] = TURN


@step(cache=True, error_model="numpy", _nrt=False)
def refill(g, s):
    """End the turn: the owner draws back to ``S_DRAW_TO`` cards (the hand size, more after a discard), then
    the next seat."""
    s[S_DRAWER] = s[S_PLAYER]
    if s[g[O_HSUM] + s[S_PLAYER]] < s[S_DRAW_TO] and available(g, s):
        s[S_PHASE] = REFILL
        return
    s[S_PLAYER] = (s[S_PLAYER] + 1) % g[G_PLAYERS]
    s[S_TURNS] += 1
    s[S_DRAW_TO] = g[G_HAND]
    s[S_PHASE] = TURN


@step(cache=True, error_model="numpy", _nrt=False)
def start(g, s):
    """A new game in ``s``: every card in the pile, no palace, no ruins, turn 1; stalled at once when no
    palace can ever be completed, else the deal begins."""
    for k in range(g[S_SIZE]):
        s[k] = 0
    for i in range(g[G_TYPES]):
        s[g[O_PILE] + i] = g[g[O_COUNTS] + i]
    for p in range(g[G_PLAYERS]):
        s[g[O_SITE] + p] = NONE
    s[S_TURNS] = 1
    s[S_DRAW_TO] = g[G_HAND]
    s[S_WINNER] = -1
    s[S_LEADER] = -1
    s[S_DIRTY] = 1
    if not can_still_end(g, s):
        stall(s)
    else:
        deal(g, s)


@step(cache=True, error_model="numpy", _nrt=False)
def first_palace(g, s):
    """The first-palace question's end: some palace is complete (``engine.first_palace_complete``)."""
    return s[g[O_STATS] + C_COMPLETED] >= 1


@step(cache=True, error_model="numpy", _nrt=False)
def stall(s):
    s[S_PHASE] = OVER
    s[S_STALLED] = 1


@step(cache=True, error_model="numpy", _nrt=False)
def draw(g, s, card):
    d = s[S_DRAWER]
    s[g[O_PILE] + card] -= 1
    s[g[O_HANDS] + d * g[G_TYPES] + card] += 1
    s[g[O_HSUM] + d] += 1
    if s[S_PHASE] == DEAL:
        deal(g, s)
    else:
        s[S_PASSES] = 0
        refill(g, s)


@step(cache=True, error_model="numpy", _nrt=False)
def steal(g, s, card):
    types, oh, osum, ohd = g[G_TYPES], g[O_HANDS], g[O_HSUM], g[O_HANDING]
    v, p = s[S_VICTIM], s[S_PLAYER]
    s[oh + v * types + card] -= 1
    s[osum + v] -= 1
    s[oh + p * types + card] += 1
    s[osum + p] += 1
    s[S_STEAL_LEFT] -= 1
    if s[S_STEAL_LEFT]:
        return
    for i in range(types):
        s[oh + v * types + i] += s[ohd + i]
        s[osum + v] += s[ohd + i]
        s[ohd + i] = 0
    refill(g, s)


@step(cache=True, error_model="numpy", _nrt=False)
def next_giver(g, s):
    """Skip players with nothing to give; once everyone has chosen, pass the sets clockwise."""
    seats, types, oh, osum, ogv = g[G_PLAYERS], g[G_TYPES], g[O_HANDS], g[O_HSUM], g[O_GIVING]
    while s[S_GIVEN] < seats:
        if s[osum + s[S_GIVER]]:
            return
        s[S_GIVEN] += 1  # an empty set
        s[S_GIVER] = (s[S_GIVER] + 1) % seats
    for k in range(seats):  # set k was set aside by seat (player + k); it goes to the next seat
        receiver = (s[S_PLAYER] + k + 1) % seats
        for i in range(types):
            n = s[ogv + k * types + i]
            s[oh + receiver * types + i] += n
            s[osum + receiver] += n
            s[ogv + k * types + i] = 0
    s[S_GIVEN] = 0
    refill(g, s)


@step(cache=True, error_model="numpy", _nrt=False)
def give(g, s):
    """The giver sets aside the cards counted at ``O_GA``."""
    types, oh, osum, ogv, oga = g[G_TYPES], g[O_HANDS], g[O_HSUM], g[O_GIVING], g[O_GA]
    p, k = s[S_GIVER], s[S_GIVEN]
    for i in range(types):
        n = s[oga + i]
        if n:
            s[oh + p * types + i] -= n
            s[osum + p] -= n
            s[ogv + k * types + i] += n
    s[S_GIVEN] += 1
    s[S_GIVER] = (p + 1) % g[G_PLAYERS]
    next_giver(g, s)


@step(cache=True, error_model="numpy", _nrt=False)
def act(g, s):
    """The player to move takes the action at ``O_A`` (cards at ``O_GA``, ``O_TA``), as ``apply_action``."""
    types, ms = g[G_TYPES], g[G_SLOTS]
    oh, osum, oga, ota, ost = g[O_HANDS], g[O_HSUM], g[O_GA], g[O_TA], g[O_STATS]
    p = s[S_PLAYER]
    oa = g[O_A]
    verb, card, seat, slot = s[oa], s[oa + 1], s[oa + 2], s[oa + 3]
    hand = oh + p * types
    if verb == A_PASS:
        s[S_PASSES] += 1
        s[ost + C_PASSES] += 1
        if s[S_PASSES] >= g[G_PLAYERS]:
            stall(s)
            return
        refill(g, s)
        return
    s[S_PASSES] = 0
    if verb == A_DISCARD:
        before = s[osum + p]
        n = 0
        for i in range(types):
            c = s[oga + i]
            if c:
                s[hand + i] -= c
                s[g[O_DISC] + i] += c
                n += c
        s[osum + p] -= n
        s[ost + C_DISCARDS] += 1
        s[ost + C_CARDS_DISCARDED] += n
        s[S_DRAW_TO] = max(g[G_HAND], before)
        refill(g, s)
    elif verb == A_BUILD:
        s[hand + card] -= 1
        s[osum + p] -= 1
        kind = g[g[O_KIND] + card]
        if kind == FOUNDATION:
            k = s[g[O_NPAL] + p]
            i = p * ms + k
            s[g[O_PF] + i], s[g[O_PR] + i], s[g[O_PN] + i] = card, NONE, 0
            s[g[O_NPAL] + p] = k + 1
            settle(g, s, p, k)
            s[ost + C_FOUNDATIONS] += 1
            if not can_still_end(g, s):
                stall(s)
                return
            refill(g, s)
            return
        i = p * ms + slot
        if kind == ROOF:
            score = s[g[O_PN] + i] + 2
            palace_to_bin(g, s, p, slot)
            to_bin(g, s, card)  # the roof
            remove_palace(g, s, p, slot)
            s[g[O_TOKENS] + p] += score
            s[ost + C_COMPLETED] += 1
            s[ost + C_TOKENS] += score
            if s[g[O_TOKENS] + p] >= g[G_WIN]:
                s[S_WINNER] = p
                s[S_PHASE] = OVER
                return
            if not can_still_end(g, s):
                stall(s)
                return
        else:  # a floor or tower, in its sorted place among the floors
            n = s[g[O_PN] + i]
            fl0 = g[O_PFL] + i * g[G_FLOORS]
            j = n
            while j > 0 and s[fl0 + j - 1] > card:
                s[fl0 + j] = s[fl0 + j - 1]
                j -= 1
            s[fl0 + j] = card
            s[g[O_PN] + i] = n + 1
            settle(g, s, p, slot)
        refill(g, s)
    elif verb == A_EXCHANGE:
        n = exchange_size(g, s, p, seat)
        s[hand + card] -= 1
        s[osum + p] -= 1 + n
        for i in range(types):
            s[hand + i] -= s[oga + i]
        s[g[O_DISC] + card] += 1
        s[ost + C_EXCHANGES] += 1
        if g[G_FACE_UP]:
            other = oh + seat * types
            for i in range(types):
                s[other + i] += s[oga + i] - s[ota + i]
                s[hand + i] += s[ota + i]
            s[osum + p] += n
            refill(g, s)
        else:
            s[S_VICTIM] = seat
            s[S_STEAL_LEFT] = n
            for i in range(types):
                s[g[O_HANDING] + i] = s[oga + i]
            s[S_PHASE] = STEAL
    elif verb == A_GENERAL:
        s[hand + card] -= 1
        s[osum + p] -= 1
        s[g[O_DISC] + card] += 1
        s[ost + C_GENERAL] += 1
        s[S_GIVEN] = 0
        s[S_GIVER] = p
        s[S_PHASE] = GIVE
        next_giver(g, s)
    elif verb == A_FLOOD:
        s[hand + card] -= 1
        s[osum + p] -= 1
        s[g[O_DISC] + card] += 1
        palace_to_bin(g, s, seat, slot)
        remove_palace(g, s, seat, slot)
        s[ost + C_FLOODS] += 1
        if not can_still_end(g, s):
            stall(s)
            return
        refill(g, s)
    else:  # ruins
        osite, opr = g[O_SITE], g[O_PR]
        if seat != p:  # laid on an opponent
            if slot == NONE:
                s[osite + seat] = card
            else:
                s[opr + seat * ms + slot] = card
                settle(g, s, seat, slot)
            s[hand + card] -= 1
            s[osum + p] -= 1
            s[ost + C_RUINS_LAID] += 1
            if not can_still_end(g, s):
                stall(s)
                return
        else:  # cleared from one's own palace or building place
            if slot == NONE:
                removed = s[osite + p]
                s[osite + p] = NONE
            else:
                removed = s[opr + p * ms + slot]
                s[opr + p * ms + slot] = NONE
                settle(g, s, p, slot)
            if card != NONE:
                s[hand + card] -= 1
                s[osum + p] -= 1
                s[g[O_DISC] + card] += 1
            s[g[O_DISC] + removed] += 1
            s[ost + C_RUINS_REMOVED] += 1
        refill(g, s)


# --- the policies ----------------------------------------------------------------------

FIELDS = (*BASE_FIELDS, *COUNTERS)
DEAD = 3  # toolkit.games.palaces.policies.DEAD (1.5), in half points
# a seat's row of the policy table: play (0 builder, 1 random), attacks, eager, give (0 worst, 1 random)
P_PLAY, P_ATTACKS, P_EAGER, P_GIVE = range(4)


# --- judging cards ----------------------------------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False)
def card_values(g, s, p, attacks):
    """``card_values(state, p, attacks)`` in half points at ``O_VALS``. Colour sets are rows of flags
    indexed by colour + 1: building, floored, foundations in hand, started, floors and roofs in hand."""
    types, players, ms, width = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS], g[G_FLAGS]
    okind, ocol, ocm = g[O_KIND], g[O_COLOUR], g[O_COMPL]
    of, ov, hand = g[O_FLAG], g[O_VALS], g[O_HANDS] + p * types
    for j in range(5 * width):
        s[of + j] = 0
    open_pals = False
    ruined = s[g[O_SITE] + p] != NONE
    for k in range(s[g[O_NPAL] + p]):
        i = p * ms + k
        c = g[ocol + s[g[O_PF] + i]] + 1
        s[of + 3 * width + c] = 1
        if s[g[O_PR] + i] == NONE:
            open_pals = True
            s[of + c] = 1
            if s[g[O_PN] + i]:
                s[of + width + c] = 1
        else:
            ruined = True
    first, stop = of_kind(g, FOUNDATION)
    for x in range(first, stop):
        if s[hand + g[x]]:
            s[of + 2 * width + g[ocol + g[x]] + 1] = 1
    first, _ = of_kind(g, FLOOR)
    _, stop = of_kind(g, ROOF)
    for x in range(first, stop):  # the floors, towers and roofs (kinds in a row): floors and roofs counted
        if g[okind + g[x]] != TOWER:
            s[of + 4 * width + g[ocol + g[x]] + 1] += s[hand + g[x]]
    free = s[g[O_NPAL] + p] < g[G_MAXP] and s[g[O_SITE] + p] == NONE
    targets = False
    if attacks:
        for k in range(1, players):
            if s[g[O_NPAL] + (p + k - players if p + k >= players else p + k)]:
                targets = True
    one_per_colour = g[G_ONE_PER_COLOUR] != 0
    others = players > 1
    # kind by kind (each type's kind a branch the CPU may miss): the coloured kinds by their colour's
    # flags, the others one value for all their types
    first, stop = of_kind(g, ROOF)
    for x in range(first, stop):
        c = g[ocol + g[x]] + 1
        s[ov + g[x]] = 20 if s[of + width + c] else 12 if s[of + c] else 6 if s[of + 2 * width + c] else 2
    first, stop = of_kind(g, FLOOR)
    for x in range(first, stop):
        c = g[ocol + g[x]] + 1
        s[ov + g[x]] = 14 if s[of + c] else 6 if s[of + 2 * width + c] else 2
    first, stop = of_kind(g, FOUNDATION)
    for x in range(first, stop):
        i = g[x]
        c = g[ocol + i] + 1
        usable = free and g[ocm + i] != 0 and not (one_per_colour and s[of + 3 * width + c] != 0)
        s[ov + i] = 10 + 2 * s[of + 4 * width + c] if usable else 2
    same_value(g, s, TOWER, 16 if open_pals else 6)
    same_value(g, s, RUINS, 12 if ruined else 8 if attacks and others else 2)
    same_value(g, s, FLOOD, (10 if targets else 6) if attacks and others else 1)
    same_value(g, s, EXCHANGE, 4 if others else 1)
    same_value(g, s, GENERAL, 2)


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def same_value(g, s, kind, v):
    """Every type of ``kind`` worth ``v`` (at ``O_VALS``)."""
    first, stop = of_kind(g, kind)
    for x in range(first, stop):
        s[g[O_VALS] + g[x]] = v


@step(cache=True, error_model="numpy", _nrt=False)
def worst(g, s, hand, n, out, sign):
    """The ``n`` least valuable cards (``sign`` ``LEAST``; ``MOST``: the most valuable) of the counts at ``hand``,
    ties to the lower index, counted per type at ``out``."""
    types, ov = g[G_TYPES], g[O_VALS]
    for i in range(types):
        s[out + i] = 0
    left = n
    while left > 0:
        pick = -1
        for i in range(types):
            if s[hand + i] - s[out + i] > 0 and (pick < 0 or sign * s[ov + i] < sign * s[ov + pick]):
                pick = i
        take = min(left, s[hand + pick] - s[out + pick])
        s[out + pick] += take
        left -= take


@step(cache=True, error_model="numpy", _nrt=False)
def give_random(g, s, r, k, hand, n, out):
    """``GiveRandom.give`` from stream ``k``: the first ``n`` places of a partial Fisher-Yates."""
    types, oc = g[G_TYPES], g[O_CARDS]
    m = 0
    for i in range(types):
        for _ in range(s[hand + i]):
            s[oc + m] = i
            m += 1
    for j in range(n):
        x = j + below(r, k, m - j)
        s[oc + j], s[oc + x] = s[oc + x], s[oc + j]
    for i in range(types):
        s[out + i] = 0
    for j in range(n):
        s[out + s[oc + j]] += 1


@step(cache=True, error_model="numpy", _nrt=False)
def choose_cards(g, s, r, pol, p, hand, n, out, sign):
    """Seat ``p``'s give rule: ``n`` cards of the counts at ``hand`` (``sign`` ``MOST``: the face-up take)."""
    if pol[p, P_GIVE] == 1:
        give_random(g, s, r, 2 + 2 * p, hand, n, out)
    else:
        worst(g, s, hand, n, out, sign)


# --- the builder ------------------------------------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def set_action(g, s, verb, card, seat, slot):
    oa = g[O_A]
    s[oa], s[oa + 1], s[oa + 2], s[oa + 3] = verb, card, seat, slot


@step(cache=True, error_model="numpy", _nrt=False)
def attack(g, s, p, eager):
    """``Builder._attack``: flood or lay ruins on the palace that hurts most; True if it acts."""
    types, players, ms = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS]
    hand, ot, opr, opn, onp = g[O_HANDS] + p * types, g[O_TOKENS], g[O_PR], g[O_PN], g[O_NPAL]
    flood, ruins = first_held(g, s, hand, FLOOD), first_held(g, s, hand, RUINS)
    if flood < 0 and ruins < 0:
        return False
    leader = NONE
    lead_key = (0, 0)
    for k in range(1, players):
        t = p + k - players if p + k >= players else p + k  # (p + k) % players
        biggest = 0
        for j in range(s[onp + t]):
            if s[opr + t * ms + j] == NONE:
                biggest = max(biggest, 1 + s[opn + t * ms + j])
        key = (s[ot + t] + biggest, -k)
        if leader < 0 or key > lead_key:
            leader, lead_key = t, key
    found = False
    best = (0, 0, 0, 0, 0)
    bt, bs = NONE, NONE
    for k in range(1, players):
        t = p + k - players if p + k >= players else p + k  # (p + k) % players
        for j in range(s[onp + t]):
            if s[opr + t * ms + j] != NONE:
                continue
            size = 1 + s[opn + t * ms + j]
            wins = s[ot + t] + size + 1 >= g[G_WIN]
            if eager:
                ok = wins or size >= 2
            else:
                ok = wins or (t == leader and size >= 3)
            if not ok:
                continue
            rank = (1 if wins else 0, s[ot + t] + size, size, -k, -j)
            if not found or rank > best:
                found, best, bt, bs = True, rank, t, j
    if found:
        if flood >= 0:
            set_action(g, s, A_FLOOD, flood, bt, bs)
        else:
            set_action(g, s, A_RUINS, ruins, bt, bs)
        return True
    if eager and ruins >= 0 and leader >= 0 and s[g[O_SITE] + leader] == NONE and s[onp + leader] < g[G_MAXP]:
        set_action(g, s, A_RUINS, ruins, leader, NONE)
        return True
    return False


@step(cache=True, error_model="numpy", _nrt=False)
def unblock(g, s, p):
    """``Builder._unblock``: with ruins-card-to-clear, blocked everywhere and no ruins card in hand,
    flood an opponent's ruined palace; True if it acts."""
    types, players, ms = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS]
    hand, opr, opn, onp = g[O_HANDS] + p * types, g[O_PR], g[O_PN], g[O_NPAL]
    if not g[G_CARD_TO_CLEAR] or first_held(g, s, hand, RUINS) >= 0:
        return False
    flood = first_held(g, s, hand, FLOOD)
    if s[g[O_SITE] + p] == NONE and s[onp + p] < g[G_MAXP]:
        return False
    for j in range(s[onp + p]):
        if s[opr + p * ms + j] == NONE:
            return False
    if flood < 0:
        return False
    found = False
    best = (NONE, NONE, NONE, NONE)
    for k in range(1, players):
        t = p + k - players if p + k >= players else p + k  # (p + k) % players
        for j in range(s[onp + t]):
            if s[opr + t * ms + j] != NONE:
                rank = (1 + s[opn + t * ms + j], -k, t, j)
                if not found or rank > best:
                    found, best = True, rank
    if not found:
        return False
    set_action(g, s, A_FLOOD, flood, best[2], best[3])
    return True


@step(cache=True, error_model="numpy", _nrt=False)
def builder(g, s, r, pol, p):
    """``Builder.choose`` for seat ``p`` (its ``attacks`` and ``eager`` from ``pol``) into ``O_A``.."""
    types, players, ms = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS]
    okind, ocol, ocm = g[O_KIND], g[O_COLOUR], g[O_COMPL]
    hand, opf, opr, opn, onp = g[O_HANDS] + p * types, g[O_PF], g[O_PR], g[O_PN], g[O_NPAL]
    roofs, roofs_stop = of_kind(g, ROOF)
    oga, ov, otmp = g[O_GA], g[O_VALS], g[O_TMP]
    attacks, eager = pol[p, P_ATTACKS] != 0, pol[p, P_EAGER] != 0
    npal = s[onp + p]
    if s[g[O_HSUM] + p] == 0:
        set_action(g, s, A_PASS, NONE, NONE, NONE)
        return
    # finish the biggest palace a roof in hand completes
    score = -1
    for x in range(roofs, roofs_stop):
        i = g[x]
        if s[hand + i]:
            for j in range(npal):
                if can_build(g, s, p, i, j) and 2 + s[opn + p * ms + j] > score:
                    score = 2 + s[opn + p * ms + j]
                    set_action(g, s, A_BUILD, i, NONE, j)
    if score >= 0:
        return
    if attacks and attack(g, s, p, eager):
        return
    # clear ruins from one's own palaces (the biggest first) or building place
    card = NONE
    can_clear = True
    if g[G_CARD_TO_CLEAR]:
        card = first_held(g, s, hand, RUINS)
        can_clear = card >= 0
    if can_clear:
        slot, size = NONE, -1
        for j in range(npal):
            if s[opr + p * ms + j] != NONE and 1 + s[opn + p * ms + j] >= size:
                slot, size = j, 1 + s[opn + p * ms + j]
        if slot >= 0:
            set_action(g, s, A_RUINS, card, p, slot)
            return
        if s[g[O_SITE] + p] != NONE and npal < g[G_MAXP]:
            set_action(g, s, A_RUINS, card, p, NONE)
            return
    # extend the palace closest to completion: one whose roof is in hand, then the tallest
    found = False
    best = (0, 0, 0, 0, 0)
    floors, _ = of_kind(g, FLOOR)
    _, towers_stop = of_kind(g, TOWER)  # the floors, then the towers (the next kind)
    for j in range(npal):
        if s[opr + p * ms + j] != NONE:
            continue
        c = g[ocol + s[opf + p * ms + j]]
        roof = 0
        for x in range(roofs, roofs_stop):
            if s[hand + g[x]] and g[ocol + g[x]] == c:
                roof = 1
        for x in range(floors, towers_stop):  # every rank differs (-i, -j): the order of the loop does not matter
            i = g[x]
            kind = g[okind + i]
            if s[hand + i] and (kind == FLOOR and g[ocol + i] == c or kind == TOWER):
                rank = (roof, s[opn + p * ms + j], 1 if kind == FLOOR else 0, -i, -j)
                if not found or rank > best:
                    found, best = True, rank
                    set_action(g, s, A_BUILD, i, NONE, j)
    if found:
        return
    card_values(g, s, p, attacks)
    # start a palace, in the colour best backed by the hand
    pick = NONE
    first, stop = of_kind(g, FOUNDATION)
    for x in range(first, stop):
        i = g[x]
        if s[hand + i] and can_found(g, s, p, i) and g[ocm + i]:
            if pick < 0 or s[ov + i] > s[ov + pick]:
                pick = i
    if pick >= 0:
        set_action(g, s, A_BUILD, pick, NONE, NONE)
        return
    # an exchange with the leader, giving the worst cards
    first, stop = of_kind(g, EXCHANGE)
    for x in range(first, stop):
        i = g[x]
        if not s[hand + i]:
            continue
        target = NONE
        key_best = (0, 0, 0)
        for k in range(1, players):
            t = p + k - players if p + k >= players else p + k  # (p + k) % players
            if exchange_size(g, s, p, t):
                progress = 0
                for j in range(s[onp + t]):
                    progress += 1 + s[opn + t * ms + j]
                key = (s[g[O_TOKENS] + t], progress, -k)
                if target < 0 or key > key_best:
                    target, key_best = t, key
        if target >= 0:
            n = exchange_size(g, s, p, target)
            for j in range(types):
                s[otmp + j] = s[hand + j]
            s[otmp + i] -= 1
            choose_cards(g, s, r, pol, p, otmp, n, oga, LEAST)
            if g[G_FACE_UP]:
                choose_cards(g, s, r, pol, p, g[O_HANDS] + target * types, n, g[O_TA], MOST)
            set_action(g, s, A_EXCHANGE, i, target, NONE)
            return
    if attacks and unblock(g, s, p):
        return
    # the dead cards and the spare copies of special cards
    dead = 0
    others = 0
    for i in range(types):
        n = s[hand + i]
        kind = g[okind + i]
        c = 0
        if n:
            if s[ov + i] <= DEAD:
                c = n
            elif kind == RUINS or kind == FLOOD or kind == EXCHANGE or kind == GENERAL:
                c = n - 1
        s[oga + i] = c
        dead += c
        if kind != GENERAL:
            others += c
    # instead of that discard, a general exchange when the cards it passes on can all be dead ones
    if players >= 2:
        i = first_held(g, s, hand, GENERAL)
        if i >= 0:
            n = min(g[G_EXCH], s[g[O_HSUM] + p] - 1)
            if n and others >= n:
                set_action(g, s, A_GENERAL, i, NONE, NONE)
                return
    if dead == 0:
        worst(g, s, hand, np.int64(1), oga, LEAST)
    set_action(g, s, A_DISCARD, NONE, NONE, NONE)


# --- the legal actions, in the engine's order -------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False)
def submultisets(g, s, counts, size, index, out):
    """The sub-multisets of the counts at ``counts`` in ``_submultisets`` order: all non-empty ones
    (``size`` -1) or those of ``size`` cards. ``index`` -1: how many; else write that one at ``out``."""
    types, held, kb = g[G_TYPES], g[O_HELD], g[O_KBUF]
    if index == COUNT and size < 0:  # all non-empty ones: 0 to c copies of each type, not all none
        product = 1
        for i in range(types):
            product *= s[counts + i] + 1
        return product - 1
    if index == COUNT and size < types:  # of ``size`` cards: x**size's coefficient in the product over
        for k in range(size + 1):  # the types of 1 + x + ... + x**c, its coefficients up to size at O_KBUF
            s[kb + k] = 1 if k == 0 else 0
        for i in range(types):
            c = s[counts + i]
            for k in range(size, 0, -1):  # times (1 + x + ... + x**c), from the top: s[kb + k - j] still the old
                for j in range(1, min(c, k) + 1):
                    s[kb + k] += s[kb + k - j]
        return s[kb + size]
    m = 0
    for i in range(types):
        if s[counts + i] > 0:
            s[held + m] = i
            s[kb + m] = 0
            m += 1
    c = 0
    total = 0
    while True:
        if (size < 0 and total > 0) or total == size:
            if c == index:
                for i in range(types):
                    s[out + i] = 0
                for j in range(m):
                    s[out + s[held + j]] = s[kb + j]
                return c
            c += 1
        j = m - 1
        while j >= 0:
            if s[kb + j] < s[counts + s[held + j]]:
                s[kb + j] += 1
                total += 1
                break
            total -= s[kb + j]
            s[kb + j] = 0
            j -= 1
        if j < 0:
            return c


@step(cache=True, error_model="numpy", _nrt=False)
def ruined_slot(g, s, p, k):
    """The ``k``-th of player ``p``'s ruined places: the building place (-1) first, then palace slots."""
    if s[g[O_SITE] + p] != NONE:
        if k == 0:
            return NONE
        k -= 1
    for j in range(s[g[O_NPAL] + p]):
        if s[g[O_PR] + p * g[G_SLOTS] + j] != NONE:
            if k == 0:
                return j
            k -= 1
    return NONE


@step(cache=True, error_model="numpy", _nrt=False)
def legal(g, s, p, index):
    """``legal_actions()`` of the player ``p`` to move: how many (``index`` -1), or write the one at
    ``index`` into ``O_A``.. (and return ``index``)."""
    types, players, ms = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS]
    okind, oh, hand, opr, onp, osite = g[O_KIND], g[O_HANDS], g[O_HANDS] + p * types, g[O_PR], g[O_NPAL], g[O_SITE]
    oga, ota, otmp = g[O_GA], g[O_TA], g[O_TMP]
    if s[g[O_HSUM] + p] == 0:
        set_action(g, s, A_PASS, NONE, NONE, NONE)
        return 0 if index >= 0 else 1
    c = 0
    for i in range(types):  # palace elements
        if not s[hand + i]:
            continue
        kind = g[okind + i]
        if kind == FOUNDATION:
            if can_found(g, s, p, i):
                if c == index:
                    set_action(g, s, A_BUILD, i, NONE, NONE)
                    return c
                c += 1
        elif kind == FLOOR or kind == TOWER or kind == ROOF:
            for j in range(s[onp + p]):
                if can_build(g, s, p, i, j):
                    if c == index:
                        set_action(g, s, A_BUILD, i, NONE, j)
                        return c
                    c += 1
    for i in range(types):  # special cards
        if not s[hand + i]:
            continue
        kind = g[okind + i]
        if kind == EXCHANGE:
            for k in range(1, players):
                t = p + k - players if p + k >= players else p + k  # (p + k) % players
                n = exchange_size(g, s, p, t)
                if not n:
                    continue
                for j in range(types):
                    s[otmp + j] = s[hand + j]
                s[otmp + i] -= 1
                gives = submultisets(g, s, otmp, n, COUNT, oga)
                takes = submultisets(g, s, oh + t * types, n, COUNT, ota) if g[G_FACE_UP] else 1
                block = gives * takes
                if 0 <= index - c < block:
                    x = index - c
                    submultisets(g, s, otmp, n, x // takes, oga)
                    if g[G_FACE_UP]:
                        submultisets(g, s, oh + t * types, n, x % takes, ota)
                    set_action(g, s, A_EXCHANGE, i, t, NONE)
                    return index
                c += block
        elif kind == GENERAL:
            if players > 1:
                if c == index:
                    set_action(g, s, A_GENERAL, i, NONE, NONE)
                    return c
                c += 1
        elif kind == FLOOD:
            for k in range(1, players):
                t = p + k - players if p + k >= players else p + k  # (p + k) % players
                if 0 <= index - c < s[onp + t]:
                    set_action(g, s, A_FLOOD, i, t, index - c)
                    return index
                c += s[onp + t]
    ruined = 1 if s[osite + p] != NONE else 0
    for j in range(s[onp + p]):
        if s[opr + p * ms + j] != NONE:
            ruined += 1
    if not g[G_CARD_TO_CLEAR]:  # clearing one's own ruins is an action of its own
        if 0 <= index - c < ruined:
            set_action(g, s, A_RUINS, NONE, p, ruined_slot(g, s, p, index - c))
            return index
        c += ruined
    for i in range(types):  # ruins from hand
        if not s[hand + i] or g[okind + i] != RUINS:
            continue
        for k in range(1, players):
            t = p + k - players if p + k >= players else p + k  # (p + k) % players
            if s[osite + t] == NONE and s[onp + t] < g[G_MAXP]:
                if c == index:
                    set_action(g, s, A_RUINS, i, t, NONE)
                    return c
                c += 1
            for j in range(s[onp + t]):
                if s[opr + t * ms + j] == NONE:
                    if c == index:
                        set_action(g, s, A_RUINS, i, t, j)
                        return c
                    c += 1
        if g[G_CARD_TO_CLEAR]:
            if 0 <= index - c < ruined:
                set_action(g, s, A_RUINS, i, p, ruined_slot(g, s, p, index - c))
                return index
            c += ruined
    discards = submultisets(g, s, hand, ANY_SIZE, COUNT, oga)
    if 0 <= index - c < discards:
        submultisets(g, s, hand, ANY_SIZE, index - c, oga)
        set_action(g, s, A_DISCARD, NONE, NONE, NONE)
        return index
    return c + discards


@step(cache=True, error_model="numpy", _nrt=False)
def legal_index(g, s, p):
    """Where the action at ``O_A``.. (its cards at ``O_GA``, ``O_TA``) stands in ``legal``'s enumeration for
    the player ``p`` to move, or -1 when it is not a legal action there. The action is left as it was."""
    types, oa, oga, ota, sv = g[G_TYPES], g[O_A], g[O_GA], g[O_TA], g[O_SAVE]
    for k in range(4):
        s[sv + k] = s[oa + k]
    for i in range(types):
        s[sv + 4 + i] = s[oga + i]
        s[sv + 4 + types + i] = s[ota + i]
    verb = s[sv]
    found = -1
    for index in range(legal(g, s, p, COUNT)):
        legal(g, s, p, index)
        same = s[oa] == verb and s[oa + 1] == s[sv + 1] and s[oa + 2] == s[sv + 2] and s[oa + 3] == s[sv + 3]
        if same and (verb == A_DISCARD or verb == A_EXCHANGE):
            for i in range(types):
                if s[oga + i] != s[sv + 4 + i] or (verb == A_EXCHANGE and g[G_FACE_UP]
                                                   and s[ota + i] != s[sv + 4 + types + i]):
                    same = False
        if same:
            found = index
            break
    for k in range(4):
        s[oa + k] = s[sv + k]
    for i in range(types):
        s[oga + i] = s[sv + 4 + i]
        s[ota + i] = s[sv + 4 + types + i]
    return found


# --- the steps both loops take: a chance outcome, a seat's decision ---------------------------------
#
# Two loops play the game by these steps: ``play_one`` (a game from a card order, for the simulation)
# and ``walk_chance_points`` (every outcome of every chance point, for the exact walk of
# ``toolkit.games.palaces.walk``). They live in this file, as every step they call, so that
# numba's cache, which checks each function's own file, never keeps one of them on an older rule.

@step(cache=True, error_model="numpy", _nrt=False)
def outcome(g, s, card):
    """A chance point's outcome ``card``, as the engine's ``apply_action`` at a chance point: the card
    type drawn (a deal or a refill) or taken from the victim's hand (a blind exchange)."""
    if s[S_PHASE] == STEAL:
        steal(g, s, card)
    else:
        draw(g, s, card)


@step(cache=True, error_model="numpy", _nrt=False)
def play_random(g, s, r, p):
    """``RandomPlay``: seat ``p``'s turn action into ``O_A``.., the legal action at ``below(how many)`` of its
    turn stream."""
    legal(g, s, p, below(r, 1 + 2 * p, legal(g, s, p, COUNT)))


@step(cache=True, error_model="numpy", _nrt=False)
def give_choice(g, s, r, pol):
    """The giver's cards in a general exchange, ``min(exchange_cards, hand)`` of them, counted at ``O_GA``: by
    its give rule, judged as an attacking player when it gives the worst."""
    p = s[S_GIVER]
    hand = g[O_HANDS] + p * g[G_TYPES]
    n = min(g[G_EXCH], s[g[O_HSUM] + p])
    if pol[p, P_GIVE] == 1:
        give_random(g, s, r, 2 + 2 * p, hand, n, g[O_GA])
    else:
        card_values(g, s, p, ATTACKING)
        worst(g, s, hand, n, g[O_GA], LEAST)


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide(g, s, r, pol, random_play):
    """The seat to move decides, by its policy (``pol``'s row; seeded rules draw from ``r``), and the
    decision is played: a turn's action (``TURN``: the builder or the random rule, then ``act``) or the
    cards a giver sets aside (``GIVE``: ``give_choice``, then ``give``). ``random_play``, a constant where
    this is inlined: may a seat play at random? (False: that rule, the legal actions, is not compiled in.)"""
    if s[S_PHASE] == TURN:
        p = s[S_PLAYER]
        if random_play and pol[p, P_PLAY] == 1:
            play_random(g, s, r, p)
        else:
            builder(g, s, r, pol, p)
        act(g, s)
    else:
        give_choice(g, s, r, pol)
        give(g, s)


# --- one game, a batch ------------------------------------------------------------------------------

@step(cache=True, error_model="numpy", _nrt=False)
def look(g, s):
    """``Race.look`` at the scores (tokens): the leader, the lead changes, each seat's worst deficit."""
    players, ot, ow = g[G_PLAYERS], g[O_TOKENS], g[O_WORST]
    top = s[ot]
    for p in range(1, players):
        top = max(top, s[ot + p])
    leader, leaders = -1, 0
    for p in range(players):
        if s[ot + p] == top:
            leader = p
            leaders += 1
        s[ow + p] = max(s[ow + p], top - s[ot + p])
    if leaders == 1:
        if s[S_LEADER] >= 0 and leader != s[S_LEADER]:
            s[S_CHANGES] += 1
        s[S_LEADER] = leader


@step(cache=True, error_model="numpy", _nrt=False)
def shuffle_pile(g, s, r):
    """``CardOrder.shuffled(pile)`` into ``O_ORDER`` (as ``toolkit.fast.rng.shuffle_into``); the top is last."""
    types, op, oo = g[G_TYPES], g[O_PILE], g[O_ORDER]
    n = 0
    for i in range(types):
        for _ in range(s[op + i]):
            s[oo + n] = i
            n += 1
    for i in range(n - 1, 0, -1):
        j = below(r, GAME, i + 1)
        s[oo + i], s[oo + j] = s[oo + j], s[oo + i]
    s[S_TOP] = n
    s[S_DIRTY] = 0


@step(cache=True, error_model="numpy", _nrt=False)
def pick_from_hand(g, s, r, v):
    """``CardOrder.pick`` over player ``v``'s hand."""
    types, hand = g[G_TYPES], g[O_HANDS] + v * g[G_TYPES]
    x = below(r, GAME, s[g[O_HSUM] + v])
    for i in range(types):
        x -= s[hand + i]
        if x < 0:
            return i
    return -1


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def play_one(g, s, r, pol, seeds, seed, max_turns, out, row, random_play):
    """One game from the card order of ``seed``, as ``play_ordered``; its record into ``out[row]``."""
    players = g[G_PLAYERS]
    start(g, s)
    r[0] = uint64(seed)
    for p in range(players):
        for k in range(2):  # the turn rule's stream (1), the give rule's (2)
            r[1 + 2 * p + k] = rule_seed(seed, seeds[p, k], p, k + 1)
    turns = s[S_TURNS]
    while s[S_PHASE] != OVER:
        phase = s[S_PHASE]
        chance = phase == DEAL or phase == REFILL or phase == STEAL
        if phase == STEAL:
            outcome(g, s, pick_from_hand(g, s, r, s[S_VICTIM]))
        elif chance:
            if s[S_DIRTY]:
                shuffle_pile(g, s, r)
            s[S_TOP] -= 1
            outcome(g, s, s[g[O_ORDER] + s[S_TOP]])
        else:
            decide(g, s, r, pol, random_play)
        if s[S_TURNS] != turns or s[S_PHASE] == OVER:
            look(g, s)
            turns = s[S_TURNS]
        if not chance and s[S_TURNS] > max_turns:
            break
    winner = s[S_WINNER]
    out[row, 0] = winner
    out[row, 1] = s[S_TURNS]
    out[row, 2] = 1 if s[S_PHASE] == OVER and winner < 0 else 0
    out[row, 3] = s[S_CHANGES]
    out[row, 4] = s[g[O_WORST] + winner] if winner >= 0 else 0
    for k in range(12):
        out[row, 5 + k] = s[g[O_STATS] + k]


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def play_rows(g, pol, seeds, run_seed, start, first, stop, max_turns, out, s, r, random_play):
    """Rows ``first .. stop-1`` of ``out``: games ``start + row`` of the run seeded ``run_seed``, in one
    state array ``s`` and chance streams ``r``."""
    for row in range(first, stop):
        play_one(g, s, r, pol, seeds, game_seed(run_seed, uint64(start + row)), max_turns, out, row, random_play)


# The compiled entry points (no lock held: the slices of a batch play on threads of their own), one
# with the random rule and one without, each compiled when first used.

@step(cache=True, nogil=True, error_model="numpy", _nrt=False)
def play_rows_builders(g, pol, seeds, run_seed, start, first, stop, max_turns, out, s, r):
    """``play_rows`` where no seat plays at random."""
    play_rows(g, pol, seeds, run_seed, start, first, stop, max_turns, out, s, r, False)


@step(cache=True, nogil=True, error_model="numpy", _nrt=False)
def play_rows_any(g, pol, seeds, run_seed, start, first, stop, max_turns, out, s, r):
    """``play_rows`` for any seats."""
    play_rows(g, pol, seeds, run_seed, start, first, stop, max_turns, out, s, r, True)


def batch(g, pol, seeds, run_seed: int, start: int, count: int, max_turns: int = 10_000) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``, one int64 array per record field: the
    game ``g`` (``engine._encode_game``), the seats' policy rows ``pol`` and seeds (``policies._encode_policies``)."""
    if count <= 0:  # as engine_batch: no records, only the base fields
        return {name: np.zeros(0, dtype=np.int64) for name in BASE_FIELDS}
    from numba import config

    out = np.zeros((count, len(FIELDS)), np.int64)
    slices = max(1, min(config.NUMBA_NUM_THREADS, count // 64))
    bounds = [count * k // slices for k in range(slices + 1)]
    kernel = compiled()
    rows = kernel.play_rows_any if (pol[:, P_PLAY] == 1).any() else kernel.play_rows_builders

    def play(k: int) -> None:
        s, r = np.zeros(g[S_SIZE], np.int64), np.zeros(1 + 2 * g[G_PLAYERS], np.uint64)
        rows(g, pol, seeds, np.uint64(run_seed & MASK), np.int64(start), np.int64(bounds[k]),
             np.int64(bounds[k + 1]), np.int64(max_turns), out, s, r)

    if slices == 1:
        play(0)
    else:
        with ThreadPoolExecutor(slices) as pool:
            list(pool.map(play, range(slices)))
    return {name: out[:, k].copy() for k, name in enumerate(FIELDS)}


# --- games sampled by Python's generator (``toolkit.fast.rng.randrange``) --------------------------
#
# The Python loops that play a state with ``random.Random`` (``toolkit.sim.runner.play``, the sampled
# games of ``toolkit.odds.walker.estimate_states``), as compiled loops: a chance point's outcome
# is ``randrange`` of the total weight of the engine's ``chance_outcomes`` (the pile's card types, or
# the victim's hand in a blind exchange, by count), walked in card order; the seats decide by
# ``decide``. Each returns what it reached (``SAMPLED``: the end or the question's end; ``TOO_LONG``;
# ``LOOPED``: decisions without end; ``NO_WORDS``: the generator's outputs ran out, ``NO_ROOM``: the keys'
# room did, and the caller plays the game again with more) and the index of the first output not used.

SAMPLED, TOO_LONG, LOOPED, NO_WORDS, NO_ROOM = range(5)


@step(cache=True, error_model="numpy", _nrt=False)
def sampled_outcome(g, s, words, at):
    """(the chance point's outcome drawn from ``words[at]`` on, -1 when they ran out; the next index)."""
    types = g[G_TYPES]
    base = g[O_HANDS] + s[S_VICTIM] * types if s[S_PHASE] == STEAL else g[O_PILE]
    total = 0
    for i in range(types):
        total += s[base + i]
    x, at = randrange(words, at, total)
    if x >= 0:
        for i in range(types):
            x -= s[base + i]
            if x < 0:
                return i, at
    return NONE, at


@step(cache=True, error_model="numpy", _nrt=False)
def sample_game(g, s, r, pol, words, at, until_first, max_turns):
    """A game from the start, as ``runner.play(state, seats, rng, max_turns, stop)``: ``until_first``, it stops
    once a palace is complete (``first_palace``, asked before every step); ``TOO_LONG`` once a decision
    passed ``max_turns`` turns. The seeded rules draw from ``r``, kept from game to game as a policy keeps
    its streams. Returns (what it reached, the next index of ``words``)."""
    start(g, s)
    while s[S_PHASE] != OVER and not (until_first and first_palace(g, s)):
        phase = s[S_PHASE]
        if phase == DEAL or phase == REFILL or phase == STEAL:
            card, at = sampled_outcome(g, s, words, at)
            if card < 0:
                return NO_WORDS, at
            outcome(g, s, card)
        else:
            decide(g, s, r, pol, True)
            if s[S_TURNS] > max_turns:
                return TOO_LONG, at
    return SAMPLED, at


@step(cache=True, error_model="numpy", _nrt=False)
def sample_keys(g, first, s, r, pol, words, at, until_first, max_decisions, v, keys, before):
    """A game from the state ``first``, as ``walker.sampled_game``: the seats' decisions up to a chance
    point (``LOOPED`` after ``max_decisions`` of them in a row), then, unless the game is over or
    ``until_first`` and a palace is complete, the point's ``key_vector`` into the next row of ``keys``
    and the index of ``words`` its draw starts from into ``before``, and its outcome. Returns (what it
    reached, the keys written, the next index of ``words``)."""
    for k in range(g[S_SIZE]):
        s[k] = first[k]
    n = 0
    while True:
        decisions = 0
        while s[S_PHASE] == TURN or s[S_PHASE] == GIVE:
            if decisions == max_decisions:
                return LOOPED, n, at
            decide(g, s, r, pol, True)
            decisions += 1
        if s[S_PHASE] == OVER or (until_first and first_palace(g, s)):
            return SAMPLED, n, at
        if n == len(before):
            return NO_ROOM, n, at
        key_vector(g, s, v)
        for k in range(len(v)):
            keys[n, k] = v[k]
        before[n] = at
        n += 1
        card, at = sampled_outcome(g, s, words, at)
        if card < 0:
            return NO_WORDS, n, at
        outcome(g, s, card)


def compiled():
    """This module with its step functions and loops compiled (numba; from its cache after the first time)."""
    return steps.compiled(__name__)


# --- the exact walk's compiled part (``toolkit.games.palaces.walk``) -------------------------
#
# The walk of ``toolkit.odds.walker.build`` played by the steps above: from each chance point,
# every outcome the engine's ``chance_outcomes`` lists (a card type of the pile, or of the victim's
# hand in a blind exchange, weighted by its count), then the seats' decisions (``decide``) up to the
# next chance point or the end. A chance point is a vector of small numbers (the key vector), exactly
# what the engine's ``PalacesState.key`` keeps there: the phase, the seat to move, the drawer and the
# hand size drawn to (a deal or a refill) or the victim, the steals left and the cards handed over (a
# blind exchange), then the pile, the discard pile and the hands by card type, per seat its palaces in
# their sorted order (foundation + 1, 0 for no palace; ruins + 1; the floors and towers on it by card
# type: the engine's sorted tuple), the building places' ruins + 1 and the tokens. It is packed into a
# few 64-bit words by a layout of bit fields (word, shift, mask per position) and interned in an
# open-addressing table; the states are expanded in the engine walk's order (its outcomes in card
# order, new states numbered and stacked as met), so the numbering and every array of the chain are
# the engine walk's own.

# the walk's counters (``counters``) and options (``options``)
W_STATES, W_ROWS, W_TOP, W_TARGETS, W_ENDS, W_PAUSE = range(6)
WO_MAX_STATES, WO_MAX_DECISIONS, WO_DONE = range(3)
# what ``walk_chance_points`` returns
WALK_DONE, WALK_PAUSE, WALK_ROOM, WALK_TOO_MANY, WALK_OVERFLOW = range(5)
# layout rows
L_WORD, L_SHIFT, L_MASK = range(3)
# the key vector: its scalars, then the parts that follow them (``vector_at``)
V_PHASE, V_PLAYER, V_DRAWER, V_DRAW_TO, V_VICTIM, V_STEAL_LEFT = range(6)
V_HEAD = 6
# the key vector of any point (``key_vector``) goes on after the chance point's: these numbers, then the cards
# set aside so far in a general exchange, per set by card type
K_PASSES, K_WINNER, K_STALLED, K_GIVER, K_GIVEN = range(5)
K_HEAD = 5


def vector_at(types: int, players: int, slots: int) -> dict[str, int]:
    """Where each part of the key vector starts, and its size (``size``): the one layout of the vector
    for the kernel (``vector_of``, ``load``) and the Python side (the bit widths, a state's vector)."""
    at = {"handing": V_HEAD}
    at["pile"] = at["handing"] + types
    at["discard"] = at["pile"] + types
    at["hands"] = at["discard"] + types
    at["palaces"] = at["hands"] + players * types
    at["site"] = at["palaces"] + players * slots * (2 + types)
    at["tokens"] = at["site"] + players
    at["size"] = at["tokens"] + players
    at["giving"] = at["size"] + K_HEAD  # the whole key (``key_vector``): these numbers follow the chance point's
    at["key_size"] = at["giving"] + players * types
    return at


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def _vector_parts(g):
    types, players, slots = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS]
    pile = V_HEAD + types
    hands = pile + 2 * types
    palaces = hands + players * types
    site = palaces + players * slots * (2 + types)
    return pile, hands, palaces, site


@step(cache=True, error_model="numpy", _nrt=False)
def vector_of(g, s, v):
    """The key vector of the chance point in ``s`` (see above)."""
    types, players, ms, fl = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS], g[G_FLOORS]
    pile, hands, palaces, site = _vector_parts(g)
    phase = s[S_PHASE]
    v[V_PHASE] = phase
    v[V_PLAYER] = s[S_PLAYER]
    drawing = phase == DEAL or phase == REFILL
    v[V_DRAWER] = s[S_DRAWER] if drawing else 0
    v[V_DRAW_TO] = s[S_DRAW_TO] if drawing else 0
    v[V_VICTIM] = s[S_VICTIM] if phase == STEAL else 0
    v[V_STEAL_LEFT] = s[S_STEAL_LEFT] if phase == STEAL else 0
    for i in range(types):
        v[V_HEAD + i] = s[g[O_HANDING] + i] if phase == STEAL else 0
        v[pile + i] = s[g[O_PILE] + i]
        v[pile + types + i] = s[g[O_DISC] + i]
    for p in range(players):
        for i in range(types):
            v[hands + p * types + i] = s[g[O_HANDS] + p * types + i]
        for k in range(ms):
            at = palaces + (p * ms + k) * (2 + types)
            for j in range(2 + types):
                v[at + j] = 0
            if k < s[g[O_NPAL] + p]:
                i = p * ms + k
                v[at] = s[g[O_PF] + i] + 1
                v[at + 1] = s[g[O_PR] + i] + 1
                fl0 = g[O_PFL] + i * fl
                for j in range(s[g[O_PN] + i]):
                    v[at + 2 + s[fl0 + j]] += 1
        v[site + p] = s[g[O_SITE] + p] + 1
        v[site + players + p] = s[g[O_TOKENS] + p]


@step(cache=True, error_model="numpy", _nrt=False)
def key_vector(g, s, v):
    """The key vector of any point of a game: ``vector_of``'s numbers, then (``K_*``) the turns in a row
    nobody could act (0 at a chance point: a draw resets them, a deal has none, a blind exchange is played
    by a player who did not pass), the winner + 1, whether the game stalled, and in a general exchange
    the giver, the sets given and their cards (0 elsewhere). Two points get the same vector exactly
    when everything that matters for the rest of the game is the same: not the turns counted, nor the
    counters."""
    types, players = g[G_TYPES], g[G_PLAYERS]
    vector_of(g, s, v)
    _, _, _, site = _vector_parts(g)
    at = site + 2 * players
    phase = s[S_PHASE]
    chance = phase == DEAL or phase == REFILL or phase == STEAL
    giving = phase == GIVE
    v[at + K_PASSES] = 0 if chance else s[S_PASSES]
    v[at + K_WINNER] = s[S_WINNER] + 1
    v[at + K_STALLED] = s[S_STALLED]
    v[at + K_GIVER] = s[S_GIVER] if giving else 0
    v[at + K_GIVEN] = s[S_GIVEN] if giving else 0
    for k in range(players * types):
        v[at + K_HEAD + k] = s[g[O_GIVING] + k] if giving else 0


@step(cache=True, error_model="numpy", _nrt=False)
def load(g, v, s):
    """The chance point of key vector ``v`` into ``s`` (its game part, up to the pile's order): what
    the engine's state holds there, with no turns counted yet and every counter 0."""
    types, players, ms, fl = g[G_TYPES], g[G_PLAYERS], g[G_SLOTS], g[G_FLOORS]
    pile, hands, palaces, site = _vector_parts(g)
    for k in range(g[O_ORDER]):
        s[k] = 0
    phase = v[V_PHASE]
    s[S_PHASE] = phase
    s[S_PLAYER] = v[V_PLAYER]
    if phase == STEAL:  # a blind exchange is played in a turn: the owner will draw back to the hand size
        s[S_DRAWER] = v[V_PLAYER]
        s[S_DRAW_TO] = g[G_HAND]
    else:
        s[S_DRAWER] = v[V_DRAWER]
        s[S_DRAW_TO] = v[V_DRAW_TO]
    s[S_VICTIM] = v[V_VICTIM]
    s[S_STEAL_LEFT] = v[V_STEAL_LEFT]
    s[S_WINNER] = -1
    s[S_LEADER] = -1
    for i in range(types):
        s[g[O_HANDING] + i] = v[V_HEAD + i]
        s[g[O_PILE] + i] = v[pile + i]
        s[g[O_DISC] + i] = v[pile + types + i]
    for p in range(players):
        total = 0
        for i in range(types):
            n = v[hands + p * types + i]
            s[g[O_HANDS] + p * types + i] = n
            total += n
        s[g[O_HSUM] + p] = total
        npal = 0
        for k in range(ms):
            at = palaces + (p * ms + k) * (2 + types)
            if v[at] == 0:
                break
            i = p * ms + k
            s[g[O_PF] + i] = v[at] - 1
            s[g[O_PR] + i] = v[at + 1] - 1
            fl0 = g[O_PFL] + i * fl
            n = 0
            for c in range(types):  # the floors in ascending order: the engine's sorted tuple
                for _ in range(v[at + 2 + c]):
                    s[fl0 + n] = c
                    n += 1
            s[g[O_PN] + i] = n
            npal += 1
        s[g[O_NPAL] + p] = npal
        s[g[O_SITE] + p] = v[site + p] - 1
        s[g[O_TOKENS] + p] = v[site + players + p]


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def _pack(v, layout, out):
    """``v`` into the words ``out`` by the bit fields of ``layout``; False when a number does not fit
    (a position with no bits must hold 0)."""
    for w in range(out.size):
        out[w] = uint64(0)
    for k in range(v.size):
        mask = layout[L_MASK, k]
        if v[k] > mask or v[k] < 0:
            return False
        if mask:
            out[layout[L_WORD, k]] |= uint64(v[k]) << uint64(layout[L_SHIFT, k])
    return True


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def _unpack(keys, state, layout, v):
    """The key vector packed as state ``state`` of ``keys``, into ``v``."""
    for k in range(v.size):
        mask = layout[L_MASK, k]
        v[k] = np.int64((keys[state, layout[L_WORD, k]] >> uint64(layout[L_SHIFT, k])) & uint64(mask)) if mask else 0


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def _hash(words, bits):
    h = uint64(0x243F6A8885A308D3)
    for w in range(words.size):
        h = (h ^ words[w]) * uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> uint64(64 - bits))


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def _find(index, keys, words, bits):
    """(the slot of ``words`` in the table ``index``, the state there or -1 for an empty slot)."""
    mask = (np.int64(1) << bits) - 1
    at = _hash(words, bits)
    while True:
        state = index[at]
        if state < 0:
            return at, -1
        same = True
        for w in range(words.size):
            if keys[state, w] != words[w]:
                same = False
                break
        if same:
            return at, state
        at = (at + 1) & mask


@step(cache=True, error_model="numpy", _nrt=False)
def rehash(keys, states, index, bits):
    """Put states ``0 .. states-1`` (their packed ``keys``) into the empty table ``index`` of 2**bits slots."""
    for state in range(states):
        at, _ = _find(index, keys, keys[state], bits)
        index[at] = state


@step(cache=True, error_model="numpy", _nrt=False)
def intern_start(layout, bits, keys, index, stack, counters, row_of, v, words):
    """Chance point ``v`` (a key vector) as state 0 of an empty walk, stacked to be expanded first
    (packed in ``words``); False when a number does not fit its bit field."""
    if not _pack(v, layout, words):
        return False
    slot, _ = _find(index, keys, words, bits)
    index[slot] = 0
    for w in range(words.size):
        keys[0, w] = words[w]
    row_of[0] = -1
    counters[W_STATES] = 1
    stack[0] = 0
    counters[W_TOP] = 1
    return True


@step(cache=True, error_model="numpy", _nrt=False, inline="always")
def _end_target(kind, end_of, end_kinds, counters):
    """The target of an absorbing end (-1 - its number), numbered as first met: ``kind`` is a winner's
    seat, ``players`` a stalled game, ``players + 1`` decisions that never end, ``players + 2`` the
    question's own end (a first palace complete)."""
    if end_of[kind] < 0:
        end_of[kind] = counters[W_ENDS]
        end_kinds[counters[W_ENDS]] = kind
        counters[W_ENDS] += 1
    return -1 - end_of[kind]


@step(cache=True, error_model="numpy", _nrt=False)
def walk_chance_points(g, pol, r, layout, options, bits, keys, index, stack, counters, row_of, state_of_row,
                       offsets, targets, weights, rewards, totals, end_of, end_kinds, base, s, v, words):
    """Expand the stacked chance points until none is left (WALK_DONE), ``counters[W_PAUSE]`` rows are
    done (WALK_PAUSE: the caller reports progress), the arrays have no room for one more state's
    outcomes (WALK_ROOM: the caller grows them and calls again), a new state would pass
    ``options[WO_MAX_STATES]`` (WALK_TOO_MANY) or a number does not fit its bit field (WALK_OVERFLOW).

    The chain goes into the arrays of ``walk.ArrayGraph``: ``row_of`` (state -> row),
    ``state_of_row``, ``offsets``, ``targets`` (a state, or -1 - k for the k-th absorbing end met,
    whose kind ``end_kinds[k]`` holds), ``weights``, and per row ``rewards`` (the sum of weight x
    turns started on the way) and ``totals`` (the sum of the weights). With ``options[WO_DONE]`` the
    question's own end is a first palace complete (the engine's ``palaces_completed`` counter).
    """
    types, players = g[G_TYPES], g[G_PLAYERS]
    copied = g[O_ORDER]
    max_states = options[WO_MAX_STATES]
    max_decisions = options[WO_MAX_DECISIONS]
    done = options[WO_DONE] == 1
    while counters[W_TOP] > 0:
        if counters[W_ROWS] == counters[W_PAUSE]:
            return WALK_PAUSE
        states = counters[W_STATES]
        if (states + types >= keys.shape[0] or counters[W_TARGETS] + types > targets.size
                or 2 * (states + types) > (np.int64(1) << bits)):
            return WALK_ROOM
        counters[W_TOP] -= 1
        state = stack[counters[W_TOP]]
        row = counters[W_ROWS]
        row_of[state] = row
        state_of_row[row] = state
        _unpack(keys, state, layout, v)
        load(g, v, base)
        source = g[O_HANDS] + base[S_VICTIM] * types if base[S_PHASE] == STEAL else g[O_PILE]
        reward = 0
        total = 0
        for card in range(types):
            weight = base[source + card]
            if weight == 0:
                continue
            for k in range(copied):
                s[k] = base[k]
            outcome(g, s, card)
            decisions = 0
            looped = False
            while s[S_PHASE] == TURN or s[S_PHASE] == GIVE:
                if decisions == max_decisions:
                    looped = True
                    break
                decide(g, s, r, pol, False)  # the walk's players are builders
                decisions += 1
            total += weight
            if looped:
                target = _end_target(players + 1, end_of, end_kinds, counters)
            elif s[S_PHASE] == OVER:
                winner = s[S_WINNER]
                kind = winner if winner >= 0 else players + 2 if done and first_palace(g, s) else players
                target = _end_target(kind, end_of, end_kinds, counters)
                reward += weight * s[S_TURNS]
            elif done and first_palace(g, s):
                target = _end_target(players + 2, end_of, end_kinds, counters)
                reward += weight * s[S_TURNS]
            else:
                vector_of(g, s, v)
                if not _pack(v, layout, words):
                    return WALK_OVERFLOW
                slot, target = _find(index, keys, words, bits)
                if target < 0:
                    target = counters[W_STATES]
                    if target >= max_states:
                        return WALK_TOO_MANY
                    index[slot] = target
                    for w in range(words.size):
                        keys[target, w] = words[w]
                    row_of[target] = -1
                    counters[W_STATES] += 1
                    stack[counters[W_TOP]] = target
                    counters[W_TOP] += 1
                reward += weight * s[S_TURNS]
            targets[counters[W_TARGETS]] = target
            weights[counters[W_TARGETS]] = weight
            counters[W_TARGETS] += 1
        offsets[row + 1] = counters[W_TARGETS]
        rewards[row] = reward
        totals[row] = total
        counters[W_ROWS] += 1
    return WALK_DONE
