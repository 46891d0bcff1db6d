"""Diamoniak's rules and built-in players, once: step functions that the simulation and the exact walk
run compiled (numba) and the OpenSpiel-style state (``toolkit.games.diamoniak.engine``) runs interpreted.

``batch`` gives, for games ``start .. start+count-1`` of a run, exactly the records of
``toolkit.sim.play.engine_batch`` on the product's state (every rule, both variants, passes and stalls;
every draw, witch and buy rule of ``toolkit.games.diamoniak.policies``, combined stopping rules, per
seat), and it draws chance as ``toolkit.sim.play`` does: the pile's cards are shuffled into an order
(``toolkit.fast.rng``) at the first draw and again after each reshuffle of the discard area (the only
times the pile holds cards the order does not know), and each draw takes the order's top card. The tests
hold it and the state to the readable engine and players of ``tests/oracles``.

The game and the policies become small integer arrays (``_encode_game``, ``_encode_policies``);
one compiled function then plays every game of the batch and fills one preallocated array per field.
A game keeps its state in a few scratch arrays of the deck's size, reused from game to game, so memory
grows with ``count`` only through the output (nine int64 numbers a game).

The rules and the policies are written once, as step functions (a card drawn, a purchase, a witch's
loss, a fairy spent, the end of a turn, the start of a draw with its reshuffle), the seat's decision
(``_choose``) apart from the rules that play it (``_apply``), and two loops call them: ``_play_one``,
which plays a game from a card order, and ``walk_chance_points``, which expands the chance points of
the exact walk (``toolkit.games.diamoniak.walk``) into every card type the pile holds. Both live in this file, so that
numba's cache, which checks each function's own file, never keeps one of them on an older step.
The steps are plain Python marked ``@step`` (``toolkit.fast.steps``): imported, they run interpreted;
``compiled()`` is this module compiled, which ``batch`` and the walk call.
"""

from __future__ import annotations

import numpy as np

from toolkit.fast import steps
from toolkit.fast.steps import step, tuple_setitem, uint32, uint64
from toolkit.sim.card_order import MASK
from toolkit.games.diamoniak.policies import (
    COLUMNS, DIAMONDS, OTHERS, OWN_CASTLE, P_FAIRY, P_NEVER_BUY, P_ODDS, P_ON_CASTLE, P_RISK, P_STOP_AFTER, P_STOPS,
    P_ZONE0,
)
from toolkit.sim.play import BASE_FIELDS

# the card orders' random numbers (``toolkit.fast.rng``, compiled by numba), which only the loops call: loaded
# with the compiled module (``compiled``), so that the steps run interpreted without numba
game_seed = shuffle_into = None

FIELDS = (*BASE_FIELDS, "witch_strikes", "purchases", "reshuffles", "fairies_spent")

# card kinds, as the kernel numbers them
CASTLE, DIAMOND, WITCH, FAIRY = 0, 1, 2, 3
_KINDS = {"castle": CASTLE, "diamond": DIAMOND, "witch": WITCH, "fairy": FAIRY}
# the game's numbers
G_CASTLE_SIZE, G_PRICE, G_WITCH_TAKES, G_PLAYERS, G_TO_DISCARD, G_FREE_COLOUR, G_DECK = range(7)

# game phases, as in the engine
TURN, CHANCE, MORE, WITCH_PHASE, OVER = 0, 1, 2, 3, 4

# a seat's decision (``_choose``), as the engine's actions: draw, stop, pass, buy, spend a fairy, lose cards
DRAW, STOP, PASS, BUY, SPEND_FAIRY, LOSE = range(6)
# the rows of a loss (``loss``): cards lost from the right side, from the castle, by card type
LOSS_SIDE, LOSS_CASTLE = 0, 1

# a game's numbers (the tuple ``s`` of the step functions): phase, seat to move, turns started, cards drawn
# this turn, whether the last card went into the seat's castle, turns in a row nobody could act, the
# winner (-1: none yet), cards and witches in the pile and in the discard area, and the record's counters
(S_PHASE, S_PLAYER, S_TURNS, S_DRAWN, S_LAST_BUILT, S_PASSES, S_WINNER, S_PILE_N, S_PILE_W, S_DISC_N, S_DISC_W,
 S_WITCHES, S_PURCHASES, S_RESHUFFLES, S_SPENT) = range(15)


# --- from Python objects to integer arrays ----------------------------------------------------------

def _is_game(game) -> bool:
    return type(game).__name__ == "DiamoniakGame" and hasattr(game, "castle_size")


def _encode_policies(policies):
    """The seats' policies as the policy table (one row each, ``policy.row()``), or None when some seat's
    is not one the kernel plays."""
    rows = []
    for policy in policies:
        row = policy.row() if callable(getattr(policy, "row", None)) else None
        if row is None:
            return None
        rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(len(rows), COLUMNS)


def _encode_game(game):
    """(kinds, colours, counts, colour_ok, numbers): the deck by card type, and the rule numbers.

    ``colours`` numbers each distinct colour name (-1: none); ``colour_ok[c]`` says whether the castle
    cards of colour ``c`` are enough to complete a castle (``game.completable``).
    """
    kinds = np.array([_KINDS[kind] for kind in game.kinds], dtype=np.int64)
    names = []
    for colour in game.colours:
        if colour is not None and colour not in names:
            names.append(colour)
    colours = np.array([-1 if c is None else names.index(c) for c in game.colours], dtype=np.int64)
    colour_ok = np.array([game.completable(c) for c in names] or [0], dtype=np.int64)
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
    compiled()._play_batch(kinds, colours, counts, colour_ok, numbers, table, np.uint64(run_seed & MASK),
                np.uint64(start & MASK), count, max_turns, out, *_scratch(kinds.size, game.players, numbers[G_DECK]))
    return {name: out[i] for i, name in enumerate(FIELDS)}


def compiled():
    """This module with its step functions and loops compiled (numba; from its cache after the first time)."""
    global game_seed, shuffle_into
    from toolkit.fast.rng import game_seed, shuffle_into
    return steps.compiled(__name__)


def _scratch(types: int, players: int, deck: int) -> tuple:
    """The arrays ``_play_batch`` plays its games in (those of ``_play_one``, from ``pile`` to ``loss``),
    made here: that loop is compiled without reference counting, so it allocates nothing."""
    by_type = [np.zeros(types, dtype=np.int64) for _ in range(2)]  # pile, discard
    by_seat_and_type = [np.zeros((players, types), dtype=np.int64) for _ in range(2)]  # castle, side
    by_seat = [np.zeros(players, dtype=np.int64) for _ in range(6)]  # hand_colour, csum, ssum, diamonds, fairies, worst
    order = np.zeros(max(deck, 1), dtype=np.uint32)  # card types, unsigned as the seat (``_seat``)
    return (*by_type, *by_seat_and_type, *by_seat, order, np.zeros(1, dtype=np.uint64),
            np.zeros(len(FIELDS), dtype=np.int64), np.zeros((2, types), dtype=np.int64))


# --- the compiled game: one step function per rule, shared by the simulation and the exact walk ------
#
# A game's state is a few arrays of the deck's size (``pile``, ``discard``, per seat ``castle`` and
# ``side``), the seats' colours (``hand_colour``, -1: none), four sums per seat kept beside them
# (``csum`` castle cards, ``ssum`` cards on the right, ``diamonds``, ``fairies``) and the numbers in
# the tuple ``s`` (indexed by the S_ names; a tuple, so that the compiled code keeps it in registers, changed
# by ``tuple_setitem``). A step changes the arrays in place and returns the new ``s``.
#
# The steps are inlined into the loops that call them (the games of ``_play_batch``, each played by the
# inlined ``_play_one``, and the exact walk's ``walk_chance_points``), which allocate nothing and are
# compiled without numba's reference counting
# (``_nrt=False``, a compiler flag numba's own tests use): otherwise every array handed to an inlined
# step costs an atomic count up and down, which took more than half of the game's time (the game
# played at a third of its speed). Their callers allocate the arrays and keep them alive.

@step(cache=True)
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


@step(cache=True, inline="always")
def _can_buy(me, seller, colours, kinds, side, hand_colour, diamonds, price):
    """The rule of a purchase (the engine's ``sellers``): ``me`` has a colour and ``price`` diamonds, and
    ``seller``, another seat, has a castle card of that colour on the right."""
    mine = hand_colour[me]
    if seller == me or mine < 0 or diamonds[me] < price:
        return False
    for i in range(kinds.size):
        if colours[i] == mine and kinds[i] == CASTLE and side[seller, i] > 0:
            return True
    return False


@step(cache=True, inline="always")
def _sellers_best(me, colours, kinds, side, hand_colour, diamonds, price, players, never_buy):
    """The seller a buy rule picks this turn, or -1. buy-most: the seller holding most cards of the
    buyer's colour, ties to the nearest seat clockwise; never-buy: the first seller by seat (the
    engine's first legal action), used only when no card can be drawn."""
    mine = hand_colour[me]
    best, best_held, best_gap = -1, -1, 0
    for p in range(players):
        if not _can_buy(me, p, colours, kinds, side, hand_colour, diamonds, price):
            continue
        if never_buy:
            return p
        held = 0
        for i in range(kinds.size):
            if colours[i] == mine:
                held += side[p, i]
        gap = (p + players - me) % players  # never negative: ``me`` is unsigned (``_seat``)
        if held > best_held or (held == best_held and gap < best_gap):
            best, best_held, best_gap = p, held, gap
    return best


@step(cache=True, inline="always")
def _discard_to_pile(pile, discard):
    for i in range(pile.size):
        pile[i] = discard[i]
        discard[i] = 0


@step(cache=True, inline="always")
def _seat(s):
    """The seat to move, as an unsigned number: numba indexes arrays by it without first checking for a
    negative index (that check, on every array a step reads per seat, was a fifth of a game's instructions)."""
    return uint32(s[S_PLAYER])


@step(cache=True, inline="always")
def _can_draw(s):
    """The engine's ``_can_draw``: a card is left in the pile or in the discard area."""
    return s[S_PILE_N] > 0 or s[S_DISC_N] > 0


@step(cache=True, inline="always")
def _check_win(player, csum, numbers, s):
    """The engine's ``_check_win``: a complete castle ends the game, won. (s, True) then."""
    if csum[player] >= numbers[G_CASTLE_SIZE]:
        s = tuple_setitem(s, S_WINNER, np.int64(player))
        return tuple_setitem(s, S_PHASE, OVER), True
    return s, False


@step(cache=True, inline="always")
def _start(colour_ok, hand_colour, numbers, s):
    """The start of a game: stalled before the first turn when nobody can ever complete a castle."""
    if not _anyone_can_win(colour_ok, hand_colour, numbers[G_PLAYERS], numbers[G_FREE_COLOUR] == 1):
        return tuple_setitem(s, S_PHASE, OVER)
    return s


@step(cache=True, inline="always")
def _end_turn(s, players):
    """The engine's ``_end_turn``: the next seat's turn begins."""
    s = tuple_setitem(s, S_PLAYER, (s[S_PLAYER] + 1) % players)
    s = tuple_setitem(s, S_TURNS, s[S_TURNS] + 1)
    s = tuple_setitem(s, S_DRAWN, 0)
    return tuple_setitem(s, S_PHASE, TURN)


@step(cache=True, inline="always")
def _start_draw(pile, discard, s):
    """The engine's ``_start_draw``: rule 6 (an empty pile takes the discard area) and then a chance
    point. (s, True) when the discard area became the pile (the simulation must shuffle it again)."""
    reshuffled = False
    if s[S_PILE_N] == 0:
        _discard_to_pile(pile, discard)
        s = tuple_setitem(s, S_PILE_N, s[S_DISC_N])
        s = tuple_setitem(s, S_PILE_W, s[S_DISC_W])
        s = tuple_setitem(s, S_DISC_N, 0)
        s = tuple_setitem(s, S_DISC_W, 0)
        s = tuple_setitem(s, S_RESHUFFLES, s[S_RESHUFFLES] + 1)
        reshuffled = True
    return tuple_setitem(s, S_PHASE, CHANCE), reshuffled


@step(cache=True, inline="always")
def _resolve(card, kinds, colours, colour_ok, numbers,
             pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s):
    """The engine's ``_resolve``: card type ``card`` comes off the pile and goes where the rules say."""
    players = numbers[G_PLAYERS]
    player = _seat(s)
    pile[card] -= 1
    s = tuple_setitem(s, S_PILE_N, s[S_PILE_N] - 1)
    s = tuple_setitem(s, S_DRAWN, s[S_DRAWN] + 1)
    s = tuple_setitem(s, S_PASSES, 0)
    s = tuple_setitem(s, S_LAST_BUILT, 0)
    kind = kinds[card]
    if kind == WITCH:
        discard[card] += 1
        s = tuple_setitem(s, S_PILE_W, s[S_PILE_W] - 1)
        s = tuple_setitem(s, S_WITCHES, s[S_WITCHES] + 1)
        s = tuple_setitem(s, S_DISC_N, s[S_DISC_N] + 1)
        s = tuple_setitem(s, S_DISC_W, s[S_DISC_W] + 1)
        return tuple_setitem(s, S_PHASE, WITCH_PHASE)
    claimed = False
    if kind == CASTLE:
        colour = colours[card]
        if hand_colour[player] == colour:
            castle[player, card] += 1
            csum[player] += 1
            s = tuple_setitem(s, S_LAST_BUILT, 1)
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
                s = tuple_setitem(s, S_LAST_BUILT, 1)
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
    s, won = _check_win(player, csum, numbers, s)
    if won:
        return s
    if claimed and not _anyone_can_win(colour_ok, hand_colour, players, numbers[G_FREE_COLOUR] == 1):
        return tuple_setitem(s, S_PHASE, OVER)
    return tuple_setitem(s, S_PHASE, MORE)


@step(cache=True, inline="always")
def _buy(seller, kinds, colours, numbers, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s):
    """The engine's ``_buy``: the seller's card of the buyer's colour held most (ties to the lowest
    type) joins the buyer's castle, paid with ``price`` diamonds (to the seller, or to the discard
    area in the variant); the turn ends unless the castle is complete."""
    types = kinds.size
    player = _seat(s)
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
    to_pay = numbers[G_PRICE]
    to_discard = numbers[G_TO_DISCARD] == 1
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
            s = tuple_setitem(s, S_DISC_N, s[S_DISC_N] + paid)
        else:
            side[seller, i] += paid
            ssum[seller] += paid
            diamonds[seller] += paid
    s = tuple_setitem(s, S_PURCHASES, s[S_PURCHASES] + 1)
    s = tuple_setitem(s, S_PASSES, 0)
    s, won = _check_win(player, csum, numbers, s)
    if won:
        return s
    return _end_turn(s, numbers[G_PLAYERS])


@step(cache=True, inline="always")
def _wants_more(row, numbers, csum, ssum, fairies, s):
    """The seat's draw rule, every part of it (``AnyStop``: stop as soon as one part says stop)."""
    if row[P_STOPS] == 0:
        return True
    player = _seat(s)
    if row[P_STOP_AFTER] > 0 and s[S_DRAWN] >= row[P_STOP_AFTER]:
        return False
    if row[P_RISK] >= 0:
        at_risk = 0
        if fairies[player] == 0:
            at_risk = min(numbers[G_WITCH_TAKES], csum[player] + ssum[player] - fairies[player])
        if at_risk > row[P_RISK]:
            return False
    if row[P_ODDS] > 0:
        if s[S_PILE_N] > 0:
            w, n = s[S_PILE_W], s[S_PILE_N]
        else:
            w, n = s[S_DISC_W], s[S_DISC_N]
        if not (n == 0 or 100 * w < row[P_ODDS] * n):
            return False
    if row[P_ON_CASTLE] == 1 and s[S_LAST_BUILT] == 1:
        return False
    return True


@step(cache=True, inline="always")
def _spend_fairy(kinds, numbers, discard, side, ssum, fairies, s):
    """The engine's ``_spend_fairy``: the first fairy type held goes to the discard area; the turn ends."""
    player = _seat(s)
    for i in range(kinds.size):
        if kinds[i] == FAIRY and side[player, i] > 0:
            side[player, i] -= 1
            ssum[player] -= 1
            fairies[player] -= 1
            discard[i] += 1
            s = tuple_setitem(s, S_DISC_N, s[S_DISC_N] + 1)
            break
    s = tuple_setitem(s, S_SPENT, s[S_SPENT] + 1)
    return _end_turn(s, numbers[G_PLAYERS])


@step(cache=True, inline="always")
def _losable(player, csum, ssum, fairies):
    """The engine's ``losable``: the cards a witch can take from a seat (every card held but fairies)."""
    return csum[player] + ssum[player] - fairies[player]


@step(cache=True, inline="always")
def _pass(s, players):
    """A turn with nothing to do: the game stalls when every seat in a row passed."""
    s = tuple_setitem(s, S_PASSES, s[S_PASSES] + 1)
    if s[S_PASSES] >= players:
        return tuple_setitem(s, S_PHASE, OVER)
    return _end_turn(s, players)


@step(cache=True, inline="always")
def _lose(loss, kinds, colour_ok, numbers, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s):
    """The engine's ``_lose``: the cards of ``loss`` (rows LOSS_SIDE and LOSS_CASTLE, by card type) go to
    the discard area; an empty castle frees its colour (free-colour); the game stalls when nobody can
    complete a castle any more, else the turn ends."""
    player = _seat(s)
    free_colour = numbers[G_FREE_COLOUR] == 1
    for i in range(kinds.size):
        lost_side, lost_castle = loss[LOSS_SIDE, i], loss[LOSS_CASTLE, i]
        if lost_side + lost_castle == 0:
            continue
        side[player, i] -= lost_side
        ssum[player] -= lost_side
        if kinds[i] == DIAMOND:
            diamonds[player] -= lost_side
        elif kinds[i] == FAIRY:
            fairies[player] -= lost_side
        castle[player, i] -= lost_castle
        csum[player] -= lost_castle
        discard[i] += lost_side + lost_castle
        s = tuple_setitem(s, S_DISC_N, s[S_DISC_N] + lost_side + lost_castle)
    if free_colour and csum[player] == 0:
        hand_colour[player] = -1
    if not _anyone_can_win(colour_ok, hand_colour, numbers[G_PLAYERS], free_colour):
        return tuple_setitem(s, S_PHASE, OVER)
    return _end_turn(s, numbers[G_PLAYERS])


@step(cache=True, inline="always")
def _loss_by_order(row, kinds, numbers, castle, side, csum, ssum, fairies, s, loss):
    """The witch rule's ``_loss_by_order``, written into ``loss``: up to ``witch_takes`` cards, zone by zone
    in the seat's order, in each zone the type held most first (ties to the lowest), counting what is
    held less what is already chosen."""
    types = kinds.size
    player = _seat(s)
    for i in range(types):
        loss[LOSS_SIDE, i] = 0
        loss[LOSS_CASTLE, i] = 0
    left = min(numbers[G_WITCH_TAKES], _losable(player, csum, ssum, fairies))
    for slot in range(3):
        zone = row[P_ZONE0 + slot]
        at = LOSS_CASTLE if zone == OWN_CASTLE else LOSS_SIDE
        while left > 0:
            best, most = -1, 0
            for i in range(types):
                if zone == OWN_CASTLE:
                    held = castle[player, i]
                elif (zone == OTHERS and kinds[i] == CASTLE) or (zone == DIAMONDS and kinds[i] == DIAMOND):
                    held = side[player, i]
                else:
                    held = 0
                held -= loss[at, i]
                if held > most:
                    best, most = i, held
            if best < 0:
                break
            n = min(left, most)
            loss[at, best] += n
            left -= n


@step(cache=True, inline="always")
def _choose(row, kinds, colours, numbers, castle, side, hand_colour, csum, ssum, diamonds, fairies, s, loss):
    """The decision of the seat to move by its policy ``row`` (the policies' ``act``), as (verb, argument):
    at the start of a turn buy (from seat ``argument``), draw or pass; after a card draw again or stop;
    after a witch spend a fairy or lose cards (those written into ``loss``)."""
    player = _seat(s)
    phase = s[S_PHASE]
    if phase == TURN:
        price = numbers[G_PRICE]
        players = numbers[G_PLAYERS]
        can_draw = _can_draw(s)
        seller = -1
        if row[P_NEVER_BUY] == 0:
            seller = _sellers_best(player, colours, kinds, side, hand_colour, diamonds, price, players, False)
        elif not can_draw:
            seller = _sellers_best(player, colours, kinds, side, hand_colour, diamonds, price, players, True)
        if seller >= 0:
            return BUY, seller
        if can_draw:
            return DRAW, 0
        return PASS, 0
    if phase == MORE:
        if _wants_more(row, numbers, csum, ssum, fairies, s) and _can_draw(s):
            return DRAW, 0
        return STOP, 0
    if row[P_FAIRY] == 1 and fairies[player] > 0:  # a witch
        return SPEND_FAIRY, 0
    _loss_by_order(row, kinds, numbers, castle, side, csum, ssum, fairies, s, loss)
    return LOSE, 0


@step(cache=True, inline="always")
def _apply(verb, argument, kinds, colours, colour_ok, numbers,
           pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s, loss):
    """A decision played by the rules (the engine's ``apply_action``). (s, True) when it reshuffled the
    discard area into the pile."""
    players = numbers[G_PLAYERS]
    if verb == DRAW:
        return _start_draw(pile, discard, s)
    if verb == BUY:
        s = _buy(argument, kinds, colours, numbers, discard, castle, side, hand_colour, csum, ssum, diamonds,
                 fairies, s)
    elif verb == STOP:
        s = _end_turn(s, players)
    elif verb == PASS:
        s = _pass(s, players)
    elif verb == SPEND_FAIRY:
        s = _spend_fairy(kinds, numbers, discard, side, ssum, fairies, s)
    else:
        s = _lose(loss, kinds, colour_ok, numbers, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies,
                  s)
    return s, False


@step(cache=True, inline="always")
def _new_numbers(pile_n, pile_w, turns):
    """The numbers ``s`` of a state at the start of a turn, nothing drawn, no winner yet."""
    s = (TURN, 0, turns, 0, 0, 0, -1, pile_n, pile_w, 0, 0, 0, 0, 0, 0)
    return s


@step(cache=True, inline="always")
def _play_one(kinds, colours, counts, colour_ok, numbers, table, max_turns,
              pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, worst, order, stream, result,
              loss):
    """One game from the card order of ``stream``; its record goes into ``result`` (order of FIELDS)."""
    types = kinds.size
    players = numbers[G_PLAYERS]
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
    for p in range(players):
        hand_colour[p] = -1
        csum[p] = 0
        ssum[p] = 0
        diamonds[p] = 0
        fairies[p] = 0
        worst[p] = 0
    s = _new_numbers(pile_n, pile_w, 1)
    leader = -1
    changes = 0
    order_n = 0  # cards left in the shuffled order
    order_valid = False  # the order knows the pile's cards (false before the first draw, after a reshuffle)
    s = _start(colour_ok, hand_colour, numbers, s)  # stalled before the first turn?
    looked_turns = s[S_TURNS]
    # one pass: a decision and, when it draws, the card drawn (the game stops at a decision past the turn
    # limit, before its card); only decisions end turns, so the race is looked at after both
    while s[S_PHASE] != OVER:
        verb, argument = _choose(table[_seat(s)], kinds, colours, numbers, castle, side, hand_colour, csum, ssum,
                                 diamonds, fairies, s, loss)
        s, reshuffled = _apply(verb, argument, kinds, colours, colour_ok, numbers,
                               pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s, loss)
        if reshuffled:
            order_valid = False
        turns = s[S_TURNS]
        if s[S_PHASE] == CHANCE and turns <= max_turns:  # ordered.py: the top card of the shuffled order
            if not order_valid:
                order_n = shuffle_into(pile, order, stream)
                order_valid = True
            order_n -= 1
            s = _resolve(order[order_n], kinds, colours, colour_ok, numbers,
                         pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s)
        # ---- the race: scores looked at after each turn and at the end (ordered.py's Race) ----
        if turns != looked_turns or s[S_PHASE] == OVER:
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
        if turns > max_turns:
            break
    winner = s[S_WINNER]
    result[0] = winner
    result[1] = s[S_TURNS]
    result[2] = 1 if (s[S_PHASE] == OVER and winner < 0) else 0
    result[3] = changes
    result[4] = worst[winner] if winner >= 0 else 0
    result[5] = s[S_WITCHES]
    result[6] = s[S_PURCHASES]
    result[7] = s[S_RESHUFFLES]
    result[8] = s[S_SPENT]


@step(cache=True, _nrt=False)  # no reference counting: see the note above the step functions
def _play_batch(kinds, colours, counts, colour_ok, numbers, table, run_seed, start, count, max_turns, out,
                pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, worst, order, stream, result,
                loss):
    """Games ``start .. start+count-1``: game ``g`` writes column ``g`` of ``out`` (rows in FIELDS order),
    played in the arrays of ``_scratch``."""
    for g in range(count):
        stream[0] = game_seed(run_seed, start + uint64(g))
        _play_one(kinds, colours, counts, colour_ok, numbers, table, max_turns,
                  pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, worst, order, stream, result,
                  loss)
        for f in range(out.shape[0]):
            out[f, g] = result[f]


# --- the exact walk's compiled part (``toolkit.games.diamoniak.walk``) ---------------------------------
#
# The walk of ``toolkit.odds.walker.build`` played by the steps above: from each chance point,
# every card type left in the pile (weighted by its count), then the seats' decisions up to the next
# chance point or the end. A chance point is a vector of small counts (``key vector``: the seat to
# move, the cards drawn this turn when a player reads them, then pile, discard area, and per seat the
# colour + 1, the castle and the right side by card type), exactly what the engine's ``key`` keeps
# at a chance point; it is packed into a few 64-bit words by a layout of bit fields (``layout``:
# word, shift, mask per position) and interned in an open-addressing table. With ``swap`` a vector
# and its colour-swapped twin (positions read through ``perm``, colours + 1 through ``colour_map``)
# are one state, kept as the smaller packing, as the engine's ``key(swap=True)`` lumps them; a
# state's ``flipped`` flag says the state first met was the twin of the kept packing, so that it
# is expanded as the engine expands it: the state first met, its outcomes in card order, its new
# states numbered and stacked in the order the engine's walk meets them. The numbering and every
# array of the chain are then the engine walk's own.

# the walk's counters (``counters``) and options (``options``)
C_STATES, C_ROWS, C_TOP, C_TARGETS, C_ENDS, C_PAUSE = range(6)
O_SWAP, O_MAX_STATES, O_MAX_DECISIONS = range(3)
# what ``walk_chance_points`` returns
WALK_DONE, WALK_PAUSE, WALK_ROOM, WALK_TOO_MANY, WALK_OVERFLOW = range(5)
# layout rows
L_WORD, L_SHIFT, L_MASK = range(3)


@step(cache=True, inline="always")
def _vector_of(pile, discard, castle, side, hand_colour, drawn, player, with_drawn, v):
    """The key vector of a chance point (see above)."""
    types = pile.size
    v[0] = player
    v[1] = drawn if with_drawn else 0
    for i in range(types):
        v[2 + i] = pile[i]
        v[2 + types + i] = discard[i]
    at = 2 + 2 * types
    for p in range(hand_colour.size):
        v[at] = hand_colour[p] + 1
        for i in range(types):
            v[at + 1 + i] = castle[p, i]
            v[at + 1 + types + i] = side[p, i]
        at += 1 + 2 * types


@step(cache=True, inline="always")
def _pack(v, layout, out):
    """``v`` into the words ``out`` by the bit fields of ``layout``; False when a number does not fit."""
    for w in range(out.size):
        out[w] = uint64(0)
    for k in range(v.size):
        mask = layout[L_MASK, k]
        if v[k] > mask or v[k] < 0:
            return False
        if mask:
            out[layout[L_WORD, k]] |= uint64(v[k]) << uint64(layout[L_SHIFT, k])
    return True


@step(cache=True, inline="always")
def _swapped(v, perm, colour_map, colour_at, out):
    """The colour-swapped twin of ``v``: positions read through ``perm``, colours + 1 through ``colour_map``."""
    for k in range(v.size):
        out[k] = v[perm[k]]
    for k in range(colour_at.size):
        out[colour_at[k]] = colour_map[out[colour_at[k]]]


@step(cache=True, inline="always")
def _hash(words, bits):
    h = uint64(0x243F6A8885A308D3)
    for w in range(words.size):
        h = (h ^ words[w]) * uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> uint64(64 - bits))


@step(cache=True, inline="always")
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


@step(cache=True)
def rehash(keys, states, index, bits):
    """Put states ``0 .. states-1`` (their packed ``keys``) into the empty table ``index`` of 2**bits slots."""
    for state in range(states):
        at, _ = _find(index, keys, keys[state], bits)
        index[at] = state


@step(cache=True, inline="always")
def _end_target(kind, end_of, end_kinds, counters):
    """The target of an absorbing end (-1 - its number), numbered as first met: ``kind`` is a winner's
    seat, ``players`` for a stalled game, ``players + 1`` for decisions that never end."""
    if end_of[kind] < 0:
        end_of[kind] = counters[C_ENDS]
        end_kinds[counters[C_ENDS]] = kind
        counters[C_ENDS] += 1
    return -1 - end_of[kind]


@step(cache=True, _nrt=False)  # no reference counting: see the note above the step functions
def walk_chance_points(kinds, colours, colour_ok, numbers, table, layout, perm, colour_map, colour_at, options,
                       with_drawn, bits, keys, flipped, index, stack, counters, row_of, state_of_row, offsets,
                       targets, weights, rewards, totals, end_of, end_kinds,
                       base_pile, base_discard, base_castle, base_side, base_colour,
                       pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, v, twin, words, other,
                       loss):
    """Expand the stacked chance points until none is left (WALK_DONE), ``counters[C_PAUSE]`` rows are
    done (WALK_PAUSE: the caller reports progress), the arrays have no room for one more state's
    outcomes (WALK_ROOM: the caller grows them and calls again), a new state would pass
    ``options[O_MAX_STATES]`` (WALK_TOO_MANY) or a count does not fit its bit field (WALK_OVERFLOW).

    The chain goes into the arrays of ``walk.ArrayGraph``: ``row_of`` (state -> row),
    ``state_of_row``, ``offsets``, ``targets`` (a state, or -1 - k for the k-th absorbing end met,
    whose kind ``end_kinds[k]`` holds), ``weights``, and per row ``rewards`` (the sum of weight x
    turns started on the way) and ``totals`` (the sum of the weights).
    """
    types = kinds.size
    players = numbers[G_PLAYERS]
    swap = options[O_SWAP] == 1
    max_states = options[O_MAX_STATES]
    max_decisions = options[O_MAX_DECISIONS]
    while counters[C_TOP] > 0:
        if counters[C_ROWS] == counters[C_PAUSE]:
            return WALK_PAUSE
        states = counters[C_STATES]
        if (states + types >= keys.shape[0] or counters[C_TARGETS] + types > targets.size
                or 2 * (states + types) > (np.int64(1) << bits)):
            return WALK_ROOM
        counters[C_TOP] -= 1
        state = stack[counters[C_TOP]]
        row = counters[C_ROWS]
        row_of[state] = row
        state_of_row[row] = state
        # the state as first met: its packing read back, and swapped back if it was the twin
        for k in range(v.size):
            mask = layout[L_MASK, k]
            word = keys[state, layout[L_WORD, k]]
            v[k] = np.int64((word >> uint64(layout[L_SHIFT, k])) & uint64(mask)) if mask else 0
        if flipped[state]:
            _swapped(v, perm, colour_map, colour_at, twin)
            for k in range(v.size):
                v[k] = twin[k]
        player, drawn = v[0], v[1]
        pile_n = pile_w = disc_n = disc_w = 0
        for i in range(types):
            base_pile[i] = v[2 + i]
            base_discard[i] = v[2 + types + i]
            pile_n += base_pile[i]
            disc_n += base_discard[i]
            if kinds[i] == WITCH:
                pile_w += base_pile[i]
                disc_w += base_discard[i]
        at = 2 + 2 * types
        for p in range(players):
            base_colour[p] = v[at] - 1
            for i in range(types):
                base_castle[p, i] = v[at + 1 + i]
                base_side[p, i] = v[at + 1 + types + i]
            at += 1 + 2 * types
        reward = 0
        total = 0
        for card in range(types):
            weight = base_pile[card]
            if weight == 0:
                continue
            for i in range(types):
                pile[i] = base_pile[i]
                discard[i] = base_discard[i]
            for p in range(players):
                hand_colour[p] = base_colour[p]
                c_n = s_n = d_n = f_n = 0
                for i in range(types):
                    castle[p, i] = base_castle[p, i]
                    side[p, i] = base_side[p, i]
                    c_n += base_castle[p, i]
                    s_n += base_side[p, i]
                    if kinds[i] == DIAMOND:
                        d_n += base_side[p, i]
                    elif kinds[i] == FAIRY:
                        f_n += base_side[p, i]
                csum[p] = c_n
                ssum[p] = s_n
                diamonds[p] = d_n
                fairies[p] = f_n
            s = _new_numbers(pile_n, pile_w, 0)
            s = tuple_setitem(s, S_PHASE, CHANCE)
            s = tuple_setitem(s, S_PLAYER, player)
            s = tuple_setitem(s, S_DRAWN, drawn)
            s = tuple_setitem(s, S_DISC_N, disc_n)
            s = tuple_setitem(s, S_DISC_W, disc_w)
            s = _resolve(card, kinds, colours, colour_ok, numbers,
                         pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s)
            decisions = 0
            looped = False
            while s[S_PHASE] != OVER and s[S_PHASE] != CHANCE:
                if decisions == max_decisions:
                    looped = True
                    break
                verb, argument = _choose(table[_seat(s)], kinds, colours, numbers, castle, side, hand_colour, csum,
                                         ssum, diamonds, fairies, s, loss)
                s, _ = _apply(verb, argument, kinds, colours, colour_ok, numbers,
                              pile, discard, castle, side, hand_colour, csum, ssum, diamonds, fairies, s, loss)
                decisions += 1
            total += weight
            if looped:
                target = _end_target(players + 1, end_of, end_kinds, counters)
            elif s[S_PHASE] == OVER:
                winner = s[S_WINNER]
                target = _end_target(winner if winner >= 0 else players, end_of, end_kinds, counters)
                reward += weight * s[S_TURNS]
            else:
                _vector_of(pile, discard, castle, side, hand_colour, s[S_DRAWN], s[S_PLAYER], with_drawn, v)
                if not _pack(v, layout, words):
                    return WALK_OVERFLOW
                turned = False
                if swap:
                    _swapped(v, perm, colour_map, colour_at, twin)
                    _pack(twin, layout, other)
                    for w in range(words.size):  # the smaller packing, first word first
                        if other[w] != words[w]:
                            turned = other[w] < words[w]
                            break
                    if turned:
                        for w in range(words.size):
                            words[w] = other[w]
                slot, target = _find(index, keys, words, bits)
                if target < 0:
                    target = counters[C_STATES]
                    if target >= max_states:
                        return WALK_TOO_MANY
                    index[slot] = target
                    for w in range(words.size):
                        keys[target, w] = words[w]
                    flipped[target] = turned
                    row_of[target] = -1
                    counters[C_STATES] += 1
                    stack[counters[C_TOP]] = target
                    counters[C_TOP] += 1
                reward += weight * s[S_TURNS]
            targets[counters[C_TARGETS]] = target
            weights[counters[C_TARGETS]] = weight
            counters[C_TARGETS] += 1
        offsets[row + 1] = counters[C_TARGETS]
        rewards[row] = reward
        totals[row] = total
        counters[C_ROWS] += 1
    return WALK_DONE


@step(cache=True)
def intern_start(layout, perm, colour_map, colour_at, swap, bits, keys, flipped, index, stack, counters, row_of, v):
    """Chance point ``v`` (a key vector) as state 0 of an empty walk, stacked to be expanded first;
    False when a count does not fit its bit field."""
    words = np.zeros(keys.shape[1], dtype=np.uint64)
    if not _pack(v, layout, words):
        return False
    turned = False
    if swap:
        twin = np.empty_like(v)
        other = np.zeros_like(words)
        _swapped(v, perm, colour_map, colour_at, twin)
        _pack(twin, layout, other)
        for w in range(words.size):
            if other[w] != words[w]:
                turned = other[w] < words[w]
                break
        if turned:
            words[:] = other
    slot, _ = _find(index, keys, words, bits)
    index[slot] = 0
    keys[0] = words
    flipped[0] = turned
    row_of[0] = -1
    counters[C_STATES] = 1
    stack[0] = 0
    counters[C_TOP] = 1
    return True
