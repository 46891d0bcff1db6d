"""Diamoniak as an OpenSpiel-style state (docs/rules/diamoniak.md), for any deck the catalogue describes.

A state moves through four kinds of points:

* ``turn``: the player to move buys a castle card (``("buy", seller)``), draws (``("draw",)``),
  or, when neither is possible, passes (``("pass",)``);
* chance: a card comes off the pile; outcomes are card-type indices weighted by how many are left;
* ``more``: after a castle, diamond or fairy card: ``("draw",)`` again or ``("stop",)``;
* ``witch``: ``("fairy",)`` to spend a fairy, or ``("lose", loss)`` where ``loss`` is a tuple of
  ``(zone, card_index, n)`` with zone ``"side"`` (right side) or ``"castle"`` (own castle).

Card types are indexed in catalogue order; ``game.names[i]`` is the id of type ``i``.

The state is the kernel's (``toolkit.games.diamoniak.kernel``): its arrays (pile, discard area, castles
and right sides by card type, the seats' colours and sums) and its numbers ``s``; every rule is the
kernel's step function, played here on them as the simulation and the walks play it. By default the
steps run interpreted (plain Python, no numba); ``compiled()`` gives the same state on the compiled
steps, for large Python-driven work. The fields (``pile``, ``hands``, ``phase``...) are read back from
the arrays as plain Python values. The readable engine this was written from is
``tests/oracles/diamoniak_engine.py``; the tests hold the two to the same games and chains.
"""

from __future__ import annotations

import functools
from array import array
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement

import numpy as np

from toolkit.catalogue.model import Catalogue
from toolkit.games import CHANCE, TERMINAL, check_setup
from toolkit.games.played import PlayedGame, PlayedState
from toolkit.games.diamoniak import kernel
from toolkit.games.diamoniak.kernel import (
    BUY, DRAW, FAIRY, G_WITCH_TAKES, LOSE, LOSS_CASTLE, LOSS_SIDE, MORE, OVER, PASS,
    S_DRAWN, S_LAST_BUILT, S_PASSES, S_PHASE, S_PLAYER, S_PURCHASES, S_RESHUFFLES,
    S_SPENT, S_TURNS, S_WINNER, S_WITCHES, SPEND_FAIRY, STOP, TURN, WITCH, WITCH_PHASE,
)

VARIANTS = {
    "diamonds-to-discard": "the diamonds paid for a purchase go to the discard area, not to the seller",
    "free-colour": "a player whose castle was emptied by witches loses the colour",
}


@dataclass(frozen=True)
class DiamoniakGame(PlayedGame):
    """The fixed part of a game: the deck, the rule numbers, the variants, the number of players."""

    game_id = "diamoniak"  # the registered game this engine plays (not a field)
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    colours: tuple[str | None, ...]
    counts: tuple[int, ...]
    castle_size: int
    price: int
    witch_takes: int
    players: int = 1
    variants: frozenset[str] = frozenset()

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue, players: int = 1, variants=()) -> DiamoniakGame:
        check_setup(catalogue, "diamoniak", "Diamoniak", players, variants, VARIANTS)
        return cls(
            names=tuple(card.id for card in catalogue.cards),
            kinds=tuple(card.kind for card in catalogue.cards),
            colours=tuple(card.colour for card in catalogue.cards),
            counts=tuple(card.count for card in catalogue.cards),
            castle_size=catalogue.rules["castle_size"],
            price=catalogue.rules["price"],
            witch_takes=catalogue.rules["witch_takes"],
            players=players,
            variants=frozenset(variants),
        )

    def colour_total(self, colour: str) -> int:
        return sum(n for n, c, k in zip(self.counts, self.colours, self.kinds) if k == "castle" and c == colour)

    def completable(self, colour: str) -> bool:
        """Whether the castle cards of ``colour`` are enough to complete a castle (the kernel's ``colour_ok``)."""
        return self.colour_total(colour) >= self.castle_size

    @cached_property
    def colour_swap(self) -> tuple | None:
        """How ``DiamoniakState.key(swap=True)`` exchanges the deck's two castle colours, or None when
        that would not be exact: (the key's positions read in swapped order, the positions of the
        hands' colour numbers, the two colours' numbers).

        Swapping the colours is exact only when every rule and every decision treats the two alike.
        The rules do whenever the colours have the same number of cards, one card type each, and are
        the only castle colours with cards. The built-in players do too, save where a witch takes
        one of several equal piles of castle cards from a player's right: they take the one first
        in card order. That cannot happen here: with two colours and at most two players, without
        ``free-colour`` (a colour lost and another claimed), a player's right only ever holds
        castle cards of one colour, the one they do not build.
        """
        castles = [i for i, (kind, n) in enumerate(zip(self.kinds, self.counts)) if kind == "castle" and n]
        if len(castles) != 2 or self.players > 2 or "free-colour" in self.variants:
            return None
        a, b = castles
        if self.colours[a] == self.colours[b] or self.counts[a] != self.counts[b]:
            return None
        types = len(self.names)
        order = list(range(_HEAD + 2 * types + self.players * (1 + 2 * types)))
        marks = []
        for start in (_HEAD, _HEAD + types):  # the pile, the discard area
            order[start + a], order[start + b] = start + b, start + a
        for seat in range(self.players):
            mark = _HEAD + 2 * types + seat * (1 + 2 * types)
            marks.append(mark)
            for start in (mark + 1, mark + 1 + types):  # the castle, the right side
                order[start + a], order[start + b] = start + b, start + a
        return (tuple(order), tuple(marks), self.colours.index(self.colours[a]), self.colours.index(self.colours[b]))

    @cached_property
    def arrays(self) -> tuple:
        """The kernel's numbers of this game (``kernel._encode_game``: kinds, colours, counts, colour_ok,
        numbers), and per colour number the first card type of that colour (a key's colour)."""
        first = {}
        for i, colour in enumerate(self.colours):
            if colour is not None:
                first.setdefault(colour, i)
        return (*kernel._encode_game(self), tuple(first.values()))

    @cached_property
    def plain_arrays(self) -> tuple:
        """``arrays`` as Python rows, for the interpreted steps (a Python list reads a number several
        times faster than a numpy array)."""
        *numbers, first = self.arrays
        return (*(_Row(row.tolist()) for row in numbers), first)

    def new_initial_state(self) -> DiamoniakState:
        return DiamoniakState(self)



_PHASE_NAMES = ("turn", "chance", "more", "witch", "over")  # by the kernel's phase numbers
_HEAD = 7  # the numbers a key starts with, before the pile (``DiamoniakState.key``)
_VERBS = {DRAW: ("draw",), STOP: ("stop",), PASS: ("pass",), SPEND_FAIRY: ("fairy",)}
_ACTIONS = {"draw": DRAW, "stop": STOP, "pass": PASS, "fairy": SPEND_FAIRY}


def _packed(values: list[int]) -> bytes:
    """Small whole numbers as bytes: one byte each, or, when one passes 255, two each after ``ff ff``
    (no one-byte key starts so: its first number is a phase, at most 4)."""
    try:
        return bytes(values)
    except ValueError:
        return b"\xff\xff" + array("H", values).tobytes()


class Player:
    """What one player holds, as read from the state: a castle colour, the castle, and the right side,
    as counts per type (a copy: changing it changes no state)."""

    __slots__ = ("colour", "castle", "side")

    def __init__(self, colour: str | None, castle: list[int], side: list[int]):
        self.colour, self.castle, self.side = colour, castle, side


class _Row(list):
    """A row of numbers as the interpreted steps read it: a Python list with numpy's ``size`` and a ``copy``
    of its own kind."""

    @property
    def size(self) -> int:
        return len(self)

    def copy(self) -> _Row:
        return _Row(self)


class _Grid(dict):
    """A table of numbers by (row, column), as the interpreted steps read it (``castle[p, i]``)."""

    def copy(self) -> _Grid:
        return _Grid(self)


def _grid(rows: int, columns: int) -> _Grid:
    return _Grid({(r, c): 0 for r in range(rows) for c in range(columns)})


def _ints(values) -> list[int]:
    """A row of numbers (``_Row``, of Python ints, or numpy) as Python ints."""
    return values.tolist() if isinstance(values, np.ndarray) else list(values)


def _row_of(values, row: int, columns: int) -> list[int]:
    """Row ``row`` of a table of numbers (``_Grid``, of Python ints, or numpy) as Python ints."""
    if isinstance(values, np.ndarray):
        return values[row].tolist()
    return list(map(values.__getitem__, _cells(row, columns)))


@functools.cache
def _cells(row: int, columns: int) -> tuple:
    """The keys of row ``row`` of a ``_Grid``."""
    return tuple((row, c) for c in range(columns))


_new = object.__new__  # a state made without __init__, to be filled by a copy
_ARRAYS = ("_pile", "_discard", "_castle", "_side", "_colour", "_csum", "_ssum", "_diamonds", "_fairies", "_loss")


class DiamoniakState(PlayedState):
    """One moment of a game. Mutable: ``apply_action`` changes it in place; ``clone`` copies it.

    ``steps`` plays the rules: the kernel module, its step functions interpreted on Python rows (``_Row``,
    ``_Grid``), or ``kernel.compiled()`` on numpy arrays (``compiled``).
    """

    def __init__(self, game: DiamoniakGame):
        self.game = game
        self.steps = kernel
        self._arrays = game.plain_arrays
        kinds, _, counts, colour_ok, numbers, _ = self._arrays
        types, players = len(kinds), game.players
        self._pile = counts.copy()
        self._discard = _Row([0] * types)
        self._castle, self._side, self._loss = _grid(players, types), _grid(players, types), _grid(2, types)
        self._colour = _Row([-1] * players)
        self._csum, self._ssum, self._diamonds, self._fairies = (_Row([0] * players) for _ in range(4))
        witches = sum(n for n, kind in zip(counts, kinds) if kind == WITCH)
        # the numbers ``s``, as a list the interpreted steps change in place (``steps.tuple_setitem``)
        self._s = kernel._start(colour_ok, self._colour, numbers, list(kernel._new_numbers(sum(counts), witches, 1)))

    def compiled(self) -> DiamoniakState:
        """This state on the compiled steps (numba; loaded from its cache after the first time), for large
        Python-driven work: its arrays as numpy arrays."""
        other = _new(DiamoniakState)
        other.game, other.steps, other._s, other._arrays = self.game, kernel.compiled(), tuple(self._s), self.game.arrays
        types, players = len(self.game.names), self.game.players
        for name in _ARRAYS:
            values = getattr(self, name)
            if isinstance(values, _Row):
                values = np.array(values, dtype=np.int64)
            elif isinstance(values, _Grid):
                rows = 2 if name == "_loss" else players
                values = np.array([_row_of(values, r, types) for r in range(rows)], dtype=np.int64)
            setattr(other, name, values.copy())
        return other

    # --- the OpenSpiel-style interface ------------------------------------------------------------

    def current_player(self) -> int:
        phase = self._s[S_PHASE]
        if phase == OVER:
            return TERMINAL
        return CHANCE if phase == kernel.CHANCE else self._s[S_PLAYER]

    def is_terminal(self) -> bool:
        return self._s[S_PHASE] == OVER

    def is_chance_node(self) -> bool:
        return self._s[S_PHASE] == kernel.CHANCE

    def chance_outcomes(self) -> list[tuple[int, int]]:
        """(card index, weight): one outcome per card type left in the pile, weighted by its count."""
        return [(i, int(n)) for i, n in enumerate(self._pile) if n]

    def legal_actions(self) -> list[tuple]:
        phase = self._s[S_PHASE]
        if phase == TURN:
            actions = [("buy", seller) for seller in self.sellers()]
            if self.steps._can_draw(self._s):
                actions.append(("draw",))
            return actions or [("pass",)]
        if phase == MORE:
            return [("draw",), ("stop",)] if self.steps._can_draw(self._s) else [("stop",)]
        if phase == WITCH_PHASE:
            return self._witch_actions()
        return []

    def apply_action(self, action) -> None:
        k, s = self.steps, self._s
        kinds, colours, _, colour_ok, numbers, _ = self._arrays
        if s[S_PHASE] == kernel.CHANCE:
            if not self._pile[action]:
                raise ValueError(f"no {self.game.names[action]} left in the pile")
            self._s = k._resolve(action, kinds, colours, colour_ok, numbers, self._pile, self._discard, self._castle,
                                 self._side, self._colour, self._csum, self._ssum, self._diamonds, self._fairies, s)
            return
        verb, argument = _ACTIONS.get(action[0]), 0
        if action[0] == "buy":
            verb, argument = BUY, action[1]
            if argument not in self.sellers():
                raise ValueError(f"cannot buy from player {argument}")
        elif action[0] == "lose":
            verb = LOSE
            self._check_loss(action[1])
        elif verb is None:
            raise ValueError(f"unknown action {action!r}")
        elif verb == SPEND_FAIRY and not self._fairies[s[S_PLAYER]]:
            raise ValueError("no fairy to spend")
        self._s, _ = k._apply(verb, argument, kinds, colours, colour_ok, numbers, self._pile, self._discard,
                              self._castle, self._side, self._colour, self._csum, self._ssum, self._diamonds,
                              self._fairies, s, self._loss)

    def choose(self, row: tuple) -> tuple:
        """The action a built-in player whose policy row is ``row`` takes here (the kernel's ``_choose``)."""
        s = self._s
        if s[S_PHASE] not in (TURN, MORE, WITCH_PHASE):
            raise ValueError(f"no decision to take in phase {self.phase}")
        kinds, colours, _, _, numbers, _ = self._arrays
        table_row = row if self.steps is kernel else _row_array(row)
        verb, argument = self.steps._choose(table_row, kinds, colours, numbers, self._castle, self._side,
                                            self._colour, self._csum, self._ssum, self._diamonds, self._fairies, s,
                                            self._loss)
        if verb == BUY:
            return ("buy", int(argument))
        if verb == LOSE:
            return ("lose", self._loss_read())
        return _VERBS[verb]

    def clone(self) -> DiamoniakState:
        """A copy to play on: the same game and steps, its own arrays."""
        other = _new(DiamoniakState)
        other.game, other.steps, other._arrays = self.game, self.steps, self._arrays
        other._s = self._s.copy() if type(self._s) is list else self._s
        for name in _ARRAYS:
            setattr(other, name, getattr(self, name).copy())
        return other

    def key(self, ignore: frozenset[str] = frozenset(), swap: bool = False) -> bytes:
        """Everything that matters for the future of the game (for the exact solver), packed as bytes.

        Bytes, not nested tuples: about 60 bytes instead of about 1 KB, and hashed once (a tuple is
        hashed again at every lookup). One byte a number, or two (after a ``ff ff`` mark) when a
        number passes 255. At a chance point ``passes`` and ``last_built`` are left out: drawing
        resets both before anything reads them. ``drawn_this_turn`` and ``last_built`` only guide
        some draw policies (the rules never read them): ``ignore`` names those no player reads, to
        leave them out too. ``swap``: a state and the same state with the two castle colours
        exchanged get one key, the smaller of theirs, where the deck allows it exactly
        (``DiamoniakGame.colour_swap``; the players must treat the colours alike, as the built-in
        ones do there: ``policy.colours_alike``).
        """
        s = self._s
        phase = s[S_PHASE]
        chance = phase == kernel.CHANCE
        winner = int(s[S_WINNER])  # a won game's winner is an int64 (set by the kernel's _check_win)
        values = [phase, s[S_PLAYER], 255 if winner < 0 else winner, phase == OVER and winner < 0,
                  0 if chance else s[S_PASSES], 0 if "drawn_this_turn" in ignore else s[S_DRAWN],
                  not chance and "last_built" not in ignore and s[S_LAST_BUILT], *_ints(self._pile),
                  *_ints(self._discard)]
        first, types = self._arrays[5], len(self.game.names)
        for seat, colour in enumerate(self._colour):
            values.append(255 if colour < 0 else first[colour])
            values += _row_of(self._castle, seat, types)
            values += _row_of(self._side, seat, types)
        if swap:
            exchange = self.game.colour_swap
            if exchange is not None:
                order, marks, a, b = exchange
                swapped = [values[i] for i in order]
                for mark in marks:
                    colour = swapped[mark]
                    swapped[mark] = b if colour == a else a if colour == b else colour
                if swapped < values:
                    values = swapped
        try:
            return bytes(values)
        except ValueError:
            return _packed(values)

    def counters(self) -> dict[str, int]:
        s = self._s
        return {"witch_strikes": s[S_WITCHES], "purchases": s[S_PURCHASES], "reshuffles": s[S_RESHUFFLES],
                "fairies_spent": s[S_SPENT]}

    def scores(self) -> list[int]:
        """How far each player is in the race: the cards in their castle."""
        return _ints(self._csum)

    # --- the fields, read from the arrays ----------------------------------------------------------

    @property
    def pile(self) -> list[int]:
        return _ints(self._pile)

    @property
    def discard(self) -> list[int]:
        return _ints(self._discard)

    @property
    def hands(self) -> list[Player]:
        names = self.game.colours
        first, types = self._arrays[5], len(names)
        return [Player(None if colour < 0 else names[first[colour]], _row_of(self._castle, seat, types),
                       _row_of(self._side, seat, types)) for seat, colour in enumerate(self._colour)]

    @property
    def player(self) -> int:
        """Whose turn it is."""
        return self._s[S_PLAYER]

    @property
    def phase(self) -> str:
        """turn | chance | more | witch | over"""
        return _PHASE_NAMES[self._s[S_PHASE]]

    @property
    def turns(self) -> int:
        """Turns started so far, this one included."""
        return self._s[S_TURNS]

    @property
    def drawn_this_turn(self) -> int:
        return self._s[S_DRAWN]

    @property
    def last_built(self) -> bool:
        """The last card drawn went into the player's own castle."""
        return bool(self._s[S_LAST_BUILT])

    @property
    def passes(self) -> int:
        """Turns in a row in which nobody could act."""
        return self._s[S_PASSES]

    @property
    def winner(self) -> int | None:
        winner = self._s[S_WINNER]
        return None if winner < 0 else int(winner)

    @property
    def stalled(self) -> bool:
        """The game can no longer end: over without a winner."""
        return self._s[S_PHASE] == OVER and self._s[S_WINNER] < 0

    # --- questions about a seat ---------------------------------------------------------------------

    def castle_size(self, player: int) -> int:
        return int(self._csum[player])

    def diamonds(self, player: int) -> int:
        return int(self._diamonds[player])

    def fairies(self, player: int) -> int:
        return int(self._fairies[player])

    def losable(self, player: int) -> int:
        """Cards a witch can take from this player (everything but fairies)."""
        return int(self.steps._losable(player, self._csum, self._ssum, self._fairies))

    def sellers(self) -> list[int]:
        """Players the current player may buy a castle card of their colour from (the kernel's ``_can_buy``)."""
        s = self._s
        if s[S_PHASE] != TURN:
            return []
        kinds, colours, _, _, numbers, _ = self._arrays
        me, price, can_buy = s[S_PLAYER], numbers[kernel.G_PRICE], self.steps._can_buy
        return [p for p in range(self.game.players)
                if can_buy(me, p, colours, kinds, self._side, self._colour, self._diamonds, price)]

    # --- a witch's loss ------------------------------------------------------------------------------

    def _witch_actions(self) -> list[tuple]:
        """Spend a fairy (when one is held), or lose any ``min(witch_takes, losable)`` cards but fairies."""
        player = self._s[S_PLAYER]
        kinds = self._arrays[0]
        actions = [("fairy",)] if self._fairies[player] else []
        types = len(kinds)
        side, castle = _row_of(self._side, player, types), _row_of(self._castle, player, types)
        pool = [("side", i) for i, n in enumerate(side) for _ in range(n) if kinds[i] != FAIRY]
        pool += [("castle", i) for i, n in enumerate(castle) for _ in range(n)]
        take = min(int(self._arrays[4][G_WITCH_TAKES]), self.losable(player))
        have = Counter(pool)
        for combo in combinations_with_replacement(sorted(have), take):
            counted = Counter(combo)
            if all(counted[k] <= have[k] for k in counted):
                actions.append(("lose", tuple((zone, i, n) for (zone, i), n in sorted(counted.items()))))
        return actions

    def _check_loss(self, loss) -> None:
        """Write ``loss`` into the loss array, or ValueError when the witch cannot take those cards."""
        player = self._s[S_PLAYER]
        kinds, numbers = self._arrays[0], self._arrays[4]
        for row in (LOSS_SIDE, LOSS_CASTLE):
            for card in range(len(kinds)):
                self._loss[row, card] = 0
        total = 0
        for zone, card, n in loss:
            row, held = (LOSS_SIDE, self._side) if zone == "side" else (LOSS_CASTLE, self._castle)
            if n < 1 or held[player, card] - self._loss[row, card] < n or (zone == "side" and kinds[card] == FAIRY):
                raise ValueError(f"illegal loss {loss!r}")
            self._loss[row, card] += n
            total += n
        takes = int(numbers[G_WITCH_TAKES])
        if total != min(takes, self.losable(player)):
            raise ValueError(f"a witch takes {takes} cards, not {total}")

    def _loss_read(self) -> tuple:
        """The loss array as the loss of a ``("lose", loss)`` action: (zone, card, n), sorted."""
        types = len(self.game.names)
        castle, side = _row_of(self._loss, LOSS_CASTLE, types), _row_of(self._loss, LOSS_SIDE, types)
        return (*(("castle", i, n) for i, n in enumerate(castle) if n), *(("side", i, n) for i, n in enumerate(side) if n))


_ROWS: dict[tuple, np.ndarray] = {}


def _row_array(row: tuple) -> np.ndarray:
    """A policy row as the int64 array the kernel reads (one per distinct row)."""
    array_row = _ROWS.get(row)
    if array_row is None:
        array_row = _ROWS[row] = np.array(row, dtype=np.int64)
    return array_row
