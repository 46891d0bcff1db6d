"""Solo Diamoniak with the default policy, many games at once in numpy arrays.

The same rules as ``toolkit.games.diamoniak`` for one player who draws until a witch, spends a fairy
when one is held and otherwise loses other colours' castle cards, then diamonds, then own castle
cards. One array row is one game; every step draws one card in every game still running.

One simplification keeps the arrays small and changes no probability: once the colour is fixed, a
solo player treats every diamond and every castle card of another colour alike (junk), so junk lost
to a witch is put back into the discard as diamonds. The test suite checks this kernel against the
engine (``tests/test_simulate.py``).
"""

from __future__ import annotations

import numpy as np

from toolkit.games.diamoniak import DiamoniakGame
from toolkit.sim.diamoniak_policies import DiamoniakPolicy


def applies(game: DiamoniakGame, policy_names: list[str]) -> bool:
    return game.players == 1 and policy_names == [DiamoniakPolicy().name] and bool(game.indices("diamond"))


def run(game: DiamoniakGame, games: int, rng: np.random.Generator, max_turns: int = 10_000) -> dict[str, np.ndarray]:
    """Play ``games`` solo games; returns per-game arrays: turns (0 = did not end), witches, reshuffles,
    and stalled (True for a game that can never end: its colour has too few cards, or no card is left)."""
    kinds = np.array(game.kinds)
    colours = [c if k == "castle" else None for c, k in zip(game.colours, game.kinds)]
    castle_type = kinds == "castle"
    witch_type = kinds == "witch"
    fairy_type = kinds == "fairy"
    diamond = game.indices("diamond")[0]
    # castle types of the same colour: row i marks the types that share type i's colour
    same_colour = np.array([[castle_type[i] and castle_type[j] and colours[i] == colours[j]
                             for j in range(len(kinds))] for i in range(len(kinds))])
    colour_total = np.array([game.colour_total(c) if c else 0 for c in colours])
    witch_col = int(np.flatnonzero(witch_type)[0]) if witch_type.any() else -1
    fairy_col = int(np.flatnonzero(fairy_type)[0]) if fairy_type.any() else -1
    deck = sum(game.counts)
    # a witch never takes more than the deck holds; the narrowest integer type that holds every count
    size, takes = game.castle_size, min(game.witch_takes, deck)

    n = games
    ids = np.arange(n)  # which game each row plays; rows are dropped in batches as games end
    small = np.int16 if deck < 2**15 else np.int32 if deck < 2**31 else np.int64  # narrow rows scan faster
    pile = np.tile(np.array(game.counts, dtype=small), (n, 1))
    discard = np.zeros_like(pile)
    colour = np.full(n, -1)  # a castle type index standing for the colour; -1 before the first castle card
    castle = np.zeros(n, dtype=small)  # own castle cards held
    junk = np.zeros(n, dtype=small)  # diamonds and other colours' castle cards held
    fairies = np.zeros(n, dtype=small)
    turns = np.ones(n, dtype=np.int32)
    witches = np.zeros(n, dtype=np.int32)
    reshuffles = np.zeros(n, dtype=np.int32)
    running = np.ones(n, dtype=bool)  # rows whose game has not ended (ended rows idle until dropped)
    stalled = np.zeros(n, dtype=bool)
    out = {"turns": np.zeros(games, dtype=np.int32), "witches": np.zeros(games, dtype=np.int32),
           "reshuffles": np.zeros(games, dtype=np.int32), "stalled": np.zeros(games, dtype=bool)}
    if not (colour_total >= size).any():
        out["stalled"][:] = True
        return out  # no colour has enough cards: no game can end (turns stay 0)
    rows = np.arange(n)

    while ids.size:
        cumulative = np.cumsum(pile, axis=1)
        total = cumulative[:, -1]
        empty = total == 0
        if empty.any():
            pile[empty], discard[empty] = discard[empty], 0
            reshuffles += empty & running
            cumulative = np.cumsum(pile, axis=1)
            total = cumulative[:, -1]
        stuck = total == 0
        pick = (rng.random(ids.size) * total).astype(cumulative.dtype)
        card = (cumulative <= pick[:, None]).sum(axis=1)
        if stuck.any():
            card[stuck] = 0
            live = ~stuck
            pile[rows[live], card[live]] -= 1
        else:
            live = np.ones(ids.size, dtype=bool)
            pile[rows, card] -= 1

        is_witch = live & witch_type[card]
        is_fairy = live & fairy_type[card]
        is_castle = live & castle_type[card]
        colour = np.where(is_castle & (colour < 0), card, colour)
        own = is_castle & (colour >= 0) & same_colour[np.maximum(colour, 0), card]
        castle += own
        junk += live & ~is_witch & ~is_fairy & ~own
        fairies += is_fairy

        # a witch: she goes to the discard with a fairy if one is held, else with up to `takes` cards
        if witch_col >= 0 and is_witch.any():
            discard[:, witch_col] += is_witch
            witches += is_witch & running
            saved = is_witch & (fairies > 0)
            fairies -= saved
            if fairy_col >= 0:
                discard[:, fairy_col] += saved
            hit = is_witch & ~saved
            lose_junk = np.where(hit, np.minimum(junk, takes), 0)
            lose_own = np.where(hit, np.minimum(castle, takes - lose_junk), 0)
            junk -= lose_junk
            castle -= lose_own
            discard[:, diamond] += lose_junk
            idx = np.flatnonzero(lose_own)
            discard[idx, colour[idx]] += lose_own[idx]
            turns += is_witch

        won = running & (castle >= size)
        out["turns"][ids[won]] = turns[won]
        # hopeless: the fixed colour has too few cards in the deck; stuck: nothing left to draw
        hopeless = (colour >= 0) & (colour_total[np.maximum(colour, 0)] < size)
        stalled |= running & ~won & (hopeless | stuck)
        running &= ~(won | hopeless | stuck | (turns > max_turns))
        if running.sum() * 4 < 3 * ids.size or not running.any():
            ended = ~running
            out["witches"][ids[ended]] = witches[ended]
            out["reshuffles"][ids[ended]] = reshuffles[ended]
            out["stalled"][ids[ended]] = stalled[ended]
            keep = running
            ids, pile, discard, colour, castle, junk, fairies, turns, witches, reshuffles, running, stalled = (
                a[keep] for a in (ids, pile, discard, colour, castle, junk, fairies, turns, witches, reshuffles,
                                  running, stalled))
            rows = np.arange(ids.size)
    return out
