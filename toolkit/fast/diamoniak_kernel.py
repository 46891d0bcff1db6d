"""Diamoniak played by compiled code (numba): the same games as the rules engine, many times faster.

``batch`` gives, for games ``start .. start+count-1`` of a run, exactly the records of
``toolkit.sim.ordered.engine_batch``: the kernel is a full port of ``toolkit.games.diamoniak`` (every
rule, both variants, passes and stalls) and of the policies of ``toolkit.sim.diamoniak_policies``
(every draw, witch and buy rule, combined stopping rules, per seat), and it draws chance as
``toolkit.sim.ordered`` does: the pile's cards are shuffled into an order (``toolkit.fast.rng``) at the
first draw and again after each reshuffle of the discard area (the only times the pile holds cards the
order does not know), and each draw takes the order's top card.

The game and the policies become small integer arrays here (``_encode_game``, ``_encode_policies``);
one compiled function then plays every game of the batch and fills one preallocated array per field.
A game keeps its state in a few scratch arrays of the deck's size, reused from game to game, so memory
grows with ``count`` only through the output (nine int64 numbers a game).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from toolkit.fast.rng import game_seed, shuffle_into
from toolkit.sim.card_order import MASK
from toolkit.sim.diamoniak_policies import (
    AnyStop,
    BuyFromRichest,
    DiamoniakPolicy,
    NeverBuy,
    StopAfter,
    StopAtOdds,
    StopAtRisk,
    StopOnCastle,
    UntilWitch,
    WitchOrder,
)
from toolkit.sim.ordered import BASE_FIELDS

FIELDS = (*BASE_FIELDS, "witch_strikes", "purchases", "reshuffles", "fairies_spent")

# card kinds, as the kernel numbers them
CASTLE, DIAMOND, WITCH, FAIRY = 0, 1, 2, 3
_KINDS = {"castle": CASTLE, "diamond": DIAMOND, "witch": WITCH, "fairy": FAIRY}
# the zones a witch takes cards from (``_loss_by_order``)
OTHERS, DIAMONDS, OWN_CASTLE = 0, 1, 2
_ZONES = {"others": OTHERS, "diamonds": DIAMONDS, "castle": OWN_CASTLE}

# one row of the policy table per seat
P_STOP_AFTER, P_RISK, P_ODDS, P_ON_CASTLE, P_FAIRY, P_ZONE0, P_ZONE1, P_ZONE2, P_NEVER_BUY = range(9)
_POLICY_COLUMNS = 9

# the game's numbers
G_CASTLE_SIZE, G_PRICE, G_WITCH_TAKES, G_PLAYERS, G_TO_DISCARD, G_FREE_COLOUR, G_DECK = range(7)

# game phases, as in the engine
TURN, CHANCE, MORE, WITCH_PHASE, OVER = 0, 1, 2, 3, 4


# --- from Python objects to integer arrays ----------------------------------------------------------

def _is_game(game) -> bool:
    return type(game).__name__ == "DiamoniakGame" and hasattr(game, "castle_size")


def _draw_row(rule, row) -> bool:
    """Fill the draw columns of a seat's row from one draw rule; False for a rule the kernel does not know
    (exact classes only: a subclass may decide otherwise)."""
    parts = rule.parts if type(rule) is AnyStop else (rule,)
    kinds = [type(part) for part in parts]
    if len(set(kinds)) != len(kinds):  # one column per kind (``parse`` never makes such a combination)
        return False
    for part in parts:
        kind = type(part)
        if kind is UntilWitch:
            continue
        if kind is StopAfter:
            row[P_STOP_AFTER] = part.k
        elif kind is StopAtRisk:
            row[P_RISK] = part.h
        elif kind is StopAtOdds:
            row[P_ODDS] = part.p
        elif kind is StopOnCastle:
            row[P_ON_CASTLE] = 1
        else:
            return False
    return True


def _policy_row(policy):
    """A seat's policy as one row of integers, or None when some rule is not one the kernel plays."""
    if type(policy) is not DiamoniakPolicy:
        return None
    row = np.zeros(_POLICY_COLUMNS, dtype=np.int64)
    row[P_RISK] = -1  # no risk rule
    if not _draw_row(policy.draw, row):
        return None
    witch = policy.witch
    if type(witch) is not WitchOrder:
        return None
    if sorted(witch.order) != sorted(_ZONES) or len(witch.order) != 3:
        return None
    row[P_FAIRY] = 1 if witch.fairy else 0
    for slot, zone in enumerate(witch.order):
        row[P_ZONE0 + slot] = _ZONES[zone]
    if type(policy.buy) is BuyFromRichest:
        row[P_NEVER_BUY] = 0
    elif type(policy.buy) is NeverBuy:
        row[P_NEVER_BUY] = 1
    else:
        return None
    return row


def _encode_policies(policies):
    rows = [_policy_row(policy) for policy in policies]
    if any(row is None for row in rows):
        return None
    return np.array(rows, dtype=np.int64).reshape(len(rows), _POLICY_COLUMNS)


def _encode_game(game):
    """(kinds, colours, counts, colour_ok, numbers): the deck by card type, and the rule numbers.

    ``colours`` numbers each distinct colour name (-1: none); ``colour_ok[c]`` says whether the castle
    cards of colour ``c`` are enough to complete a castle (the engine's ``colour_total >= castle_size``).
    """
    kinds = np.array([_KINDS[kind] for kind in game.kinds], dtype=np.int64)
    names = []
    for colour in game.colours:
        if colour is not None and colour not in names:
            names.append(colour)
    colours = np.array([-1 if c is None else names.index(c) for c in game.colours], dtype=np.int64)
    colour_ok = np.array([game.colour_total(c) >= game.castle_size for c in names] or [0], dtype=np.int64)
    counts = np.array(game.counts, dtype=np.int64)
    numbers = np.array([game.castle_size, game.price, game.witch_takes, game.players,
                        int("diamonds-to-discard" in game.variants), int("free-colour" in game.variants),
                        int(sum(game.counts))], dtype=np.int64)
    return kinds, colours, counts, colour_ok, numbers


def supports(game, policies) -> bool:
    """True for every Diamoniak game with one policy per seat built from the rules of ``diamoniak_policies``."""
    if not _is_game(game) or len(policies) != game.players or game.players < 1:
        return False
    if any(kind not in _KINDS for kind in game.kinds):
        return False
    if set(game.variants) - {"diamonds-to-discard", "free-colour"}:
        return False
    return _encode_policies(policies) is not None


def batch(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``: one int64 array per record field,
    the same keys and values as ``engine_batch``."""
    if not supports(game, policies):
        raise ValueError("the Diamoniak kernel does not play this game or these policies")
    if count <= 0:
        return {name: np.zeros(0, dtype=np.int64) for name in BASE_FIELDS}
    kinds, colours, counts, colour_ok, numbers = _encode_game(game)
    table = _encode_policies(policies)
    out = np.zeros((len(FIELDS), count), dtype=np.int64)
    _play_batch(kinds, colours, counts, colour_ok, numbers, table, np.uint64(run_seed & MASK),
                np.uint64(start & MASK), count, max_turns, out)
    return {name: out[i] for i, name in enumerate(FIELDS)}


# --- the compiled game --------------------------------------------------------------------------------

@njit(cache=True)
def _anyone_can_win(colour_ok, hand_colour, players, free_colour):
    """The engine's ``_anyone_can_win``: some player can still complete a castle."""
    if free_colour:  # every colour is open to someone whose castle empties
        for c in range(colour_ok.size):
            if colour_ok[c]:
                return players > 0
        return False
    for p in range(players):
        mine = hand_colour[p]
        if mine >= 0:
            if colour_ok[mine]:
                return True
            continue
        for c in range(colour_ok.size):  # a colour nobody builds
            if colour_ok[c]:
                taken = False
                for q in range(players):
                    if hand_colour[q] == c:
                        taken = True
                if not taken:
                    return True
    return False


@njit(cache=True)
def _sellers_best(me, colours, kinds, side, hand_colour, diamonds, price, players, never_buy):
    """The seller a buy rule picks this turn, or -1. buy-most: the seller holding most cards of the
    buyer's colour, ties to the nearest seat clockwise; never-buy: the first seller by seat (the
    engine's first legal action), used only when no card can be drawn."""
    mine = hand_colour[me]
    if mine < 0 or diamonds[me] < price:
        return -1
    best, best_held, best_gap = -1, -1, 0
    for p in range(players):
        if p == me:
            continue
        sells = False
        held = 0
        for i in range(kinds.size):
            if colours[i] == mine:
                held += side[p, i]
                if kinds[i] == CASTLE and side[p, i] > 0:
                    sells = True
        if not sells:
            continue
        if never_buy:
            return p
        gap = (p - me) % players
        if held > best_held or (held == best_held and gap < best_gap):
            best, best_held, best_gap = p, held, gap
    return best


@njit(cache=True, inline="always")
def _discard_to_pile(pile, discard):
    for i in range(pile.size):
        pile[i] = discard[i]
        discard[i] = 0


@njit(cache=True)
def _play_one(kinds, colours, counts, colour_ok, numbers, table, max_turns,
              pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, worst, order, stream, result):
    """One game from the card order of ``stream``; its record goes into ``result`` (order of FIELDS)."""
    types = kinds.size
    castle_size, price, witch_takes = numbers[G_CASTLE_SIZE], numbers[G_PRICE], numbers[G_WITCH_TAKES]
    players = numbers[G_PLAYERS]
    to_discard, free_colour = numbers[G_TO_DISCARD] == 1, numbers[G_FREE_COLOUR] == 1
    pile_n = 0
    pile_w = 0
    for i in range(types):
        pile[i] = counts[i]
        discard[i] = 0
        pile_n += counts[i]
        if kinds[i] == WITCH:
            pile_w += counts[i]
        for p in range(players):
            castle[p, i] = 0
            side[p, i] = 0
    disc_n = 0
    disc_w = 0
    for p in range(players):
        hand_colour[p] = -1
        csum[p] = 0
        ssum[p] = 0
        diamonds[p] = 0
        fairies[p] = 0
        worst[p] = 0
    player = 0
    turns = 1
    drawn = 0
    last_built = False
    passes = 0
    winner = -1  # a game over without a winner is stalled
    witches = purchases = reshuffles = spent = 0
    leader = -1
    changes = 0
    order_n = 0  # cards left in the shuffled order
    order_valid = False  # the order knows the pile's cards (false before the first draw, after a reshuffle)
    phase = TURN
    if not _anyone_can_win(colour_ok, hand_colour, players, free_colour):
        phase = OVER  # stalled before the first turn
    looked_turns = turns
    while phase != OVER:
        chance_step = phase == CHANCE
        row = table[player]
        if phase == CHANCE:
            # ---- a card comes off the pile (ordered.py: the top card of the shuffled order) ----
            if not order_valid:
                order_n = shuffle_into(pile, order, stream)
                order_valid = True
            order_n -= 1
            card = order[order_n]
            pile[card] -= 1
            pile_n -= 1
            drawn += 1
            passes = 0
            last_built = False
            kind = kinds[card]
            if kind == WITCH:
                pile_w -= 1
                witches += 1
                discard[card] += 1
                disc_n += 1
                disc_w += 1
                phase = WITCH_PHASE
            else:
                claimed = False
                if kind == CASTLE:
                    colour = colours[card]
                    if hand_colour[player] == colour:
                        castle[player, card] += 1
                        csum[player] += 1
                        last_built = True
                    else:
                        free = hand_colour[player] < 0
                        if free:
                            for q in range(players):
                                if hand_colour[q] == colour:
                                    free = False
                        if free:
                            hand_colour[player] = colour
                            castle[player, card] += 1
                            csum[player] += 1
                            last_built = True
                            claimed = True
                        else:
                            side[player, card] += 1
                            ssum[player] += 1
                else:
                    side[player, card] += 1
                    ssum[player] += 1
                    if kind == DIAMOND:
                        diamonds[player] += 1
                    else:
                        fairies[player] += 1
                if csum[player] >= castle_size:
                    winner = player
                    phase = OVER
                elif claimed and not _anyone_can_win(colour_ok, hand_colour, players, free_colour):
                    phase = OVER
                else:
                    phase = MORE
        elif phase == TURN:
            # ---- buy, draw, or pass ----
            can_draw = pile_n > 0 or disc_n > 0
            seller = -1
            if row[P_NEVER_BUY] == 0:
                seller = _sellers_best(player, colours, kinds, side, hand_colour, diamonds, price, players, False)
            elif not can_draw:
                seller = _sellers_best(player, colours, kinds, side, hand_colour, diamonds, price, players, True)
            if seller >= 0:
                mine = hand_colour[player]
                bought, most = -1, 0
                for i in range(types):
                    if colours[i] == mine and side[seller, i] > most:
                        bought, most = i, side[seller, i]
                side[seller, bought] -= 1
                ssum[seller] -= 1
                if kinds[bought] == DIAMOND:
                    diamonds[seller] -= 1
                elif kinds[bought] == FAIRY:
                    fairies[seller] -= 1
                castle[player, bought] += 1
                csum[player] += 1
                to_pay = price
                for i in range(types):
                    if kinds[i] != DIAMOND:
                        continue
                    paid = min(to_pay, side[player, i])
                    side[player, i] -= paid
                    ssum[player] -= paid
                    diamonds[player] -= paid
                    to_pay -= paid
                    if to_discard:
                        discard[i] += paid
                        disc_n += paid
                    else:
                        side[seller, i] += paid
                        ssum[seller] += paid
                        diamonds[seller] += paid
                purchases += 1
                passes = 0
                if csum[player] >= castle_size:
                    winner = player
                    phase = OVER
                else:
                    player = (player + 1) % players
                    turns += 1
                    drawn = 0
                    phase = TURN
            elif can_draw:
                if pile_n == 0:  # rule 6: the discard area becomes the pile
                    _discard_to_pile(pile, discard)
                    pile_n, pile_w, disc_n, disc_w = disc_n, disc_w, 0, 0
                    reshuffles += 1
                    order_valid = False
                phase = CHANCE
            else:
                passes += 1
                if passes >= players:
                    phase = OVER
                else:
                    player = (player + 1) % players
                    turns += 1
                    drawn = 0
                    phase = TURN
        elif phase == MORE:
            # ---- draw again or stop: the seat's draw rule, every part of it ----
            more = True
            if row[P_STOP_AFTER] > 0 and drawn >= row[P_STOP_AFTER]:
                more = False
            if more and row[P_RISK] >= 0:
                at_risk = 0
                if fairies[player] == 0:
                    at_risk = min(witch_takes, csum[player] + ssum[player] - fairies[player])
                if at_risk > row[P_RISK]:
                    more = False
            if more and row[P_ODDS] > 0:
                w, n = (pile_w, pile_n) if pile_n > 0 else (disc_w, disc_n)
                if not (n == 0 or 100 * w < row[P_ODDS] * n):
                    more = False
            if more and row[P_ON_CASTLE] == 1 and last_built:
                more = False
            if more and (pile_n > 0 or disc_n > 0):
                if pile_n == 0:  # rule 6: the discard area becomes the pile
                    _discard_to_pile(pile, discard)
                    pile_n, pile_w, disc_n, disc_w = disc_n, disc_w, 0, 0
                    reshuffles += 1
                    order_valid = False
                phase = CHANCE
            else:
                player = (player + 1) % players
                turns += 1
                drawn = 0
                phase = TURN
        else:
            # ---- a witch: spend a fairy, or lose cards zone by zone ----
            if row[P_FAIRY] == 1 and fairies[player] > 0:
                for i in range(types):
                    if kinds[i] == FAIRY and side[player, i] > 0:
                        side[player, i] -= 1
                        ssum[player] -= 1
                        fairies[player] -= 1
                        discard[i] += 1
                        disc_n += 1
                        break
                spent += 1
                player = (player + 1) % players
                turns += 1
                drawn = 0
                phase = TURN
            else:
                left = min(witch_takes, csum[player] + ssum[player] - fairies[player])
                for slot in range(3):
                    zone = row[P_ZONE0 + slot]
                    while left > 0:
                        # the type held most in this zone, ties to the lowest index
                        best, most = -1, 0
                        for i in range(types):
                            if zone == OWN_CASTLE:
                                held = castle[player, i]
                            elif (zone == OTHERS and kinds[i] == CASTLE) or (zone == DIAMONDS and kinds[i] == DIAMOND):
                                held = side[player, i]
                            else:
                                held = 0
                            if held > most:
                                best, most = i, held
                        if best < 0:
                            break
                        n = min(left, most)
                        if zone == OWN_CASTLE:
                            castle[player, best] -= n
                            csum[player] -= n
                        else:
                            side[player, best] -= n
                            ssum[player] -= n
                            if zone == DIAMONDS:
                                diamonds[player] -= n
                        discard[best] += n
                        disc_n += n
                        if kinds[best] == WITCH:
                            disc_w += n
                        left -= n
                if free_colour and csum[player] == 0:
                    hand_colour[player] = -1
                if not _anyone_can_win(colour_ok, hand_colour, players, free_colour):
                    phase = OVER
                else:
                    player = (player + 1) % players
                    turns += 1
                    drawn = 0
                    phase = TURN
        # ---- the race: scores looked at after each turn and at the end (ordered.py's _Race) ----
        if turns != looked_turns or phase == OVER:
            top = csum[0]
            for p in range(1, players):
                if csum[p] > top:
                    top = csum[p]
            leaders = 0
            first = -1
            for p in range(players):
                if top - csum[p] > worst[p]:
                    worst[p] = top - csum[p]
                if csum[p] == top:
                    leaders += 1
                    if first < 0:
                        first = p
            if leaders == 1:
                if leader >= 0 and first != leader:
                    changes += 1
                leader = first
            looked_turns = turns
        if not chance_step and turns > max_turns:
            break
    result[0] = winner
    result[1] = turns
    result[2] = 1 if (phase == OVER and winner < 0) else 0
    result[3] = changes
    result[4] = worst[winner] if winner >= 0 else 0
    result[5] = witches
    result[6] = purchases
    result[7] = reshuffles
    result[8] = spent


@njit(cache=True)
def _play_batch(kinds, colours, counts, colour_ok, numbers, table, run_seed, start, count, max_turns, out):
    """Games ``start .. start+count-1``: game ``g`` writes column ``g`` of ``out`` (rows in FIELDS order)."""
    types = kinds.size
    players = numbers[G_PLAYERS]
    deck = max(numbers[G_DECK], 1)
    pile = np.zeros(types, dtype=np.int64)
    discard = np.zeros(types, dtype=np.int64)
    castle = np.zeros((players, types), dtype=np.int64)
    side = np.zeros((players, types), dtype=np.int64)
    hand_colour = np.zeros(players, dtype=np.int64)
    csum = np.zeros(players, dtype=np.int64)
    ssum = np.zeros(players, dtype=np.int64)
    diamonds = np.zeros(players, dtype=np.int64)
    fairies = np.zeros(players, dtype=np.int64)
    worst = np.zeros(players, dtype=np.int64)
    order = np.zeros(deck, dtype=np.int64)
    stream = np.zeros(1, dtype=np.uint64)
    result = np.zeros(out.shape[0], dtype=np.int64)
    for g in range(count):
        stream[0] = game_seed(run_seed, start + uint64(g))
        _play_one(kinds, colours, counts, colour_ok, numbers, table, max_turns,
                  pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, worst, order, stream, result)
        for f in range(out.shape[0]):
            out[f, g] = result[f]
