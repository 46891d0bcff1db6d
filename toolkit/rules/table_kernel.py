"""The compiled loop of a rules file's tabulated play (``toolkit.rules.table``): games played over the
arrays the table learned, with the streams and the record of the Python loop (``toolkit.sim.play``).

Every function the loop calls lives in this file, so that numba's cache, which checks each function's
own file, never keeps the loop on an older helper (``toolkit.fast.steps``). The splitmix64 arithmetic is
that of ``toolkit.sim.card_order``; the tests hold the records to the Python loop's, game by game.

A game is a row of the game arrays: its position, its counts (``C_*``), each seat's worst deficit, its
events, its streams (chance first, then one per seat) and a pending edge (drawn, not yet learned). The
loop plays each running game until it ends, leaves the table or meets what the table does not know yet:
an edge not learned, or a file's own player's choice not asked yet. It writes that miss in ``misses``
and goes on with the next game; Python learns the misses and calls the loop again, which takes each
game up where it stopped. It runs no code of the file.
"""

from __future__ import annotations

import numpy as np

# position kinds (a seat is its number, from 0)
CHANCE, TERMINAL, OUTSIDE = -1, -2, -3  # OUTSIDE: a position the table does not play (its game leaves)
# a game's status
RUNNING, DONE, LEFT, ENDLESS = 0, 1, 2, 3
# a seat's player
RANDOM, FIRST, OWN = 0, 1, 2
# a miss: an edge to learn, a player's choice to ask
EDGE, CHOICE = 0, 1
# a game's counts
C_STEPS, C_TURNS, C_DECISIONS, C_LEADER, C_CHANGES = range(5)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _below(streams, g, k, n):
    """``below(n)`` of stream ``k`` of game ``g`` (``card_order.CardOrder.below``)."""
    z = streams[g, k] + _GOLDEN
    streams[g, k] = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


def _look(scores, c, worst, counts, g, players):
    """``toolkit.sim.play.Race.look`` at the scores of position ``c``."""
    top = scores[c, 0]
    for p in range(1, players):
        if scores[c, p] > top:
            top = scores[c, p]
    leaders = 0
    leader = -1
    for p in range(players):
        s = scores[c, p]
        if top - s > worst[g, p]:
            worst[g, p] = top - s
        if s == top:
            leaders += 1
            leader = p
    if leaders == 1:
        if counts[g, C_LEADER] >= 0 and leader != counts[g, C_LEADER]:
            counts[g, C_CHANGES] += 1
        counts[g, C_LEADER] = leader


def play(*arrays) -> int:
    """``_play`` compiled: numba is imported, and the loop loaded from its cache, at the first call (so a
    table has learned its first position before, and can say so)."""
    if not _LOOP:
        import numba

        names = globals()  # _play calls the compiled helpers by these names
        names["_below"] = numba.njit(cache=True, inline="always")(_below)
        names["_look"] = numba.njit(cache=True, inline="always")(_look)
        _LOOP.append(numba.njit(cache=True)(_play))
    return _LOOP[0](*arrays)


_LOOP: list = []


def _play(kind, dist, nedge, estart, choice, scores, succ, tinc, evd, cum, dstart, policy, scored, max_steps,
         pos, pending, counts, worst, events, streams, status, misses):
    """Play every running game as far as the table goes; returns how many misses it wrote in ``misses``
    (at most its length; a game whose miss found no room waits for the next call)."""
    players = policy.size
    names = events.shape[1]
    found = 0
    for g in range(pos.size):
        if status[g] != RUNNING:
            continue
        while True:
            p = pos[g]
            k = kind[p]
            if k == TERMINAL:
                if scored:
                    _look(scores, p, worst, counts, g, players)
                status[g] = DONE
                break
            if k == OUTSIDE:
                status[g] = LEFT
                break
            j = pending[g]
            if j < 0:
                if k == CHANCE:
                    first = dstart[dist[p]]
                    r = _below(streams, g, 0, cum[first + nedge[p] - 1])
                    low, high = 0, nedge[p] - 1  # the first outcome whose running sum passes r
                    while low < high:
                        middle = (low + high) // 2
                        if cum[first + middle] > r:
                            high = middle
                        else:
                            low = middle + 1
                    j = low
                elif policy[k] == RANDOM:
                    j = _below(streams, g, 1 + k, nedge[p]) if nedge[p] > 1 else 0
                elif policy[k] == FIRST:
                    j = 0
                else:
                    j = choice[p]
                    if j < 0:
                        if found < misses.shape[0]:
                            misses[found, 0], misses[found, 1], misses[found, 2] = CHOICE, p, 0
                            found += 1
                        break
                pending[g] = j
            e = estart[p] + j
            c = succ[e]
            if c < 0:
                if found < misses.shape[0]:
                    misses[found, 0], misses[found, 1], misses[found, 2] = EDGE, p, j
                    found += 1
                break
            pending[g] = -1
            counts[g, C_STEPS] += 1
            if k >= 0:
                counts[g, C_DECISIONS] += 1
            counts[g, C_TURNS] += tinc[e]
            for n in range(names):
                events[g, n] += evd[e, n]
            pos[g] = c
            if kind[c] != TERMINAL and counts[g, C_STEPS] >= max_steps:
                status[g] = ENDLESS
                break
            if scored and tinc[e]:
                _look(scores, c, worst, counts, g, players)
    return found
