"""Diamoniak's rules engine (docs/rules/diamoniak.md), for any deck the catalogue describes.

The test oracle: the readable engine the product's kernel steps were written from (once
``toolkit/games/diamoniak/engine.py``), kept verbatim to hold the product to the same games and chains.

A state moves through four kinds of points:

* ``turn``: the player to move buys a castle card (``("buy", seller)``), draws (``("draw",)``),
  or, when neither is possible, passes (``("pass",)``);
* chance: a card comes off the pile; outcomes are card-type indices weighted by how many are left;
* ``more``: after a castle, diamond or fairy card: ``("draw",)`` again or ``("stop",)``;
* ``witch``: ``("fairy",)`` to spend a fairy, or ``("lose", loss)`` where ``loss`` is a tuple of
  ``(zone, card_index, n)`` with zone ``"side"`` (right side) or ``"castle"`` (own castle).

Card types are indexed in catalogue order; ``game.names[i]`` is the id of type ``i``.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement
from collections import Counter

from toolkit.catalogue.model import Catalogue
from toolkit.games import CHANCE, TERMINAL, check_setup

VARIANTS = {
    "diamonds-to-discard": "the diamonds paid for a purchase go to the discard area, not to the seller",
    "free-colour": "a player whose castle was emptied by witches loses the colour",
}


@dataclass(frozen=True)
class DiamoniakGame:
    """The fixed part of a game: the deck, the rule numbers, the variants, the number of players."""

    game_id = "diamoniak"  # the registered game this engine plays (not a field)
    chance_source = "pile"  # chance deals from a shuffled pile (toolkit.sim.play.PILE)
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

    def indices(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, k in enumerate(self.kinds) if k == kind)

    def colour_total(self, colour: str) -> int:
        return sum(n for n, c, k in zip(self.counts, self.colours, self.kinds) if k == "castle" and c == colour)

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

    def new_initial_state(self) -> DiamoniakState:
        return DiamoniakState(self)


_PHASES = {"turn": 0, "chance": 1, "more": 2, "witch": 3, "over": 4}
_HEAD = 7  # the numbers a key starts with, before the pile (``DiamoniakState.key``)


def _packed(values: list[int]) -> bytes:
    """Small whole numbers as bytes: one byte each, or, when one passes 255, two each after ``ff ff``
    (no one-byte key starts so: its first number is a phase, at most 4)."""
    try:
        return bytes(values)
    except ValueError:
        return b"\xff\xff" + array("H", values).tobytes()


_new = object.__new__  # a state or a hand made without __init__, to be filled by a copy


class Player:
    """What one player holds: a castle colour, the castle, and the right side, as counts per type."""

    __slots__ = ("colour", "castle", "side")

    def __init__(self, types: int):
        self.colour: str | None = None
        self.castle = [0] * types
        self.side = [0] * types

    def copy(self) -> Player:
        other = _new(Player)
        other.colour, other.castle, other.side = self.colour, self.castle[:], self.side[:]
        return other

    def key(self) -> tuple:
        return (self.colour, tuple(self.castle), tuple(self.side))


class DiamoniakState:
    """One moment of a game. Mutable: ``apply_action`` changes it in place; ``clone`` copies it."""

    def __init__(self, game: DiamoniakGame):
        self.game = game
        types = len(game.names)
        self.pile = list(game.counts)
        self.discard = [0] * types
        self.hands = [Player(types) for _ in range(game.players)]
        self.player = 0  # whose turn it is
        self.phase = "turn"  # turn | chance | more | witch | over
        self.turns = 1  # turns started so far, this one included
        self.drawn_this_turn = 0
        self.last_built = False  # the last card drawn went into the player's own castle
        self.passes = 0  # turns in a row in which nobody could act
        self.winner: int | None = None
        self.stalled = False  # the game can no longer end
        self.witches = self.purchases = self.reshuffles = self.fairies_spent = 0
        self._witch = game.indices("witch")
        self._fairy = game.indices("fairy")
        self._diamond = game.indices("diamond")
        if not self._anyone_can_win():
            self.phase, self.stalled = "over", True

    # --- the OpenSpiel-style interface ------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase == "chance" else self.player

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase == "chance"

    def chance_outcomes(self) -> list[tuple[int, int]]:
        """(card index, weight): one outcome per card type left in the pile, weighted by its count."""
        return [(i, n) for i, n in enumerate(self.pile) if n]

    def legal_actions(self) -> list[tuple]:
        if self.phase == "turn":
            actions = [("buy", seller) for seller in self.sellers()]
            if self._can_draw():
                actions.append(("draw",))
            return actions or [("pass",)]
        if self.phase == "more":
            return [("draw",), ("stop",)] if self._can_draw() else [("stop",)]
        if self.phase == "witch":
            return self._witch_actions()
        return []

    def apply_action(self, action) -> None:
        if self.phase == "chance":
            self._resolve(action)
        elif action[0] == "draw":
            self._start_draw()
        elif action[0] == "stop" or action[0] == "pass":
            if action[0] == "pass":
                self.passes += 1
                if self.passes >= self.game.players:
                    self.phase, self.stalled = "over", True
                    return
            self._end_turn()
        elif action[0] == "buy":
            self._buy(action[1])
        elif action[0] == "fairy":
            self._spend_fairy()
        elif action[0] == "lose":
            self._lose(action[1])
        else:
            raise ValueError(f"unknown action {action!r}")

    def clone(self) -> DiamoniakState:
        """A copy to play on: one copy of the attributes, then of the mutable parts (the exact walk
        makes one per chance outcome, so this is written out rather than through ``Player.copy``)."""
        other = _new(DiamoniakState)
        other.__dict__ = fields = self.__dict__.copy()
        fields["pile"], fields["discard"] = self.pile[:], self.discard[:]
        fields["hands"] = hands = []
        for hand in self.hands:
            copied = _new(Player)
            copied.colour, copied.castle, copied.side = hand.colour, hand.castle[:], hand.side[:]
            hands.append(copied)
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
        phase = self.phase
        chance = phase == "chance"
        winner = self.winner
        values = [_PHASES[phase], self.player, 255 if winner is None else winner, self.stalled,
                  0 if chance else self.passes, 0 if "drawn_this_turn" in ignore else self.drawn_this_turn,
                  not chance and "last_built" not in ignore and self.last_built, *self.pile, *self.discard]
        colours = self.game.colours
        for hand in self.hands:
            colour = hand.colour
            values.append(255 if colour is None else colours.index(colour))
            values += hand.castle
            values += hand.side
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

    def events(self) -> dict[str, int]:  # the contract's name of the counters
        return self.counters()

    def counters(self) -> dict[str, int]:
        return {"witch_strikes": self.witches, "purchases": self.purchases, "reshuffles": self.reshuffles,
                "fairies_spent": self.fairies_spent}

    def scores(self) -> list[int]:
        """How far each player is in the race: the cards in their castle."""
        return [sum(hand.castle) for hand in self.hands]

    # --- questions policies ask ------------------------------------------------------------------

    def castle_size(self, player: int) -> int:
        return sum(self.hands[player].castle)

    def diamonds(self, player: int) -> int:
        side = self.hands[player].side
        return sum(side[i] for i in self._diamond)

    def fairies(self, player: int) -> int:
        side = self.hands[player].side
        return sum(side[i] for i in self._fairy)

    def losable(self, player: int) -> int:
        """Cards a witch can take from this player (everything but fairies)."""
        hand = self.hands[player]
        return sum(hand.castle) + sum(hand.side) - self.fairies(player)

    def witch_chance(self) -> tuple[int, int]:
        """(witches, cards) in the pile the next draw comes from (after a reshuffle if it is empty)."""
        pile = self.pile if any(self.pile) else self.discard
        return sum(pile[i] for i in self._witch), sum(pile)

    def sellers(self) -> list[int]:
        """Players the current player may buy a castle card of their colour from."""
        game, me = self.game, self.hands[self.player]
        if self.phase != "turn" or me.colour is None or self.diamonds(self.player) < game.price:
            return []
        mine = [i for i, c in enumerate(game.colours) if c == me.colour and game.kinds[i] == "castle"]
        return [p for p, hand in enumerate(self.hands) if p != self.player and any(hand.side[i] for i in mine)]

    # --- the rules --------------------------------------------------------------------------------

    def _can_draw(self) -> bool:
        return any(self.pile) or any(self.discard)

    def _start_draw(self) -> None:
        if not any(self.pile):
            # Rule 6: the discard area is shuffled into a new pile when a card must be drawn.
            self.pile, self.discard = self.discard, [0] * len(self.discard)
            self.reshuffles += 1
        self.phase = "chance"

    def _resolve(self, card: int) -> None:
        game, hand = self.game, self.hands[self.player]
        if not self.pile[card]:
            raise ValueError(f"no {game.names[card]} left in the pile")
        self.pile[card] -= 1
        self.drawn_this_turn += 1
        self.passes = 0
        self.last_built = False
        kind = game.kinds[card]
        if kind == "witch":
            self.witches += 1
            self.discard[card] += 1
            self.phase = "witch"
            return
        claimed = False
        if kind == "castle":
            colour = game.colours[card]
            if hand.colour == colour:
                hand.castle[card] += 1
                self.last_built = True
            elif hand.colour is None and all(other.colour != colour for other in self.hands):
                hand.colour = colour
                hand.castle[card] += 1
                self.last_built = claimed = True
            else:
                hand.side[card] += 1
        else:  # diamond or fairy
            hand.side[card] += 1
        if self._check_win():
            return
        if claimed and not self._anyone_can_win():  # e.g. alone, with a colour too small to finish
            self.phase, self.stalled = "over", True
            return
        self.phase = "more"

    def _witch_actions(self) -> list[tuple]:
        hand = self.hands[self.player]
        actions = [("fairy",)] if self.fairies(self.player) else []
        pool = [("side", i) for i, n in enumerate(hand.side) for _ in range(n) if self.game.kinds[i] != "fairy"]
        pool += [("castle", i) for i, n in enumerate(hand.castle) for _ in range(n)]
        take = min(self.game.witch_takes, len(pool))
        kinds = sorted(set(pool))
        have = Counter(pool)
        seen = set()
        for combo in combinations_with_replacement(kinds, take):
            counted = Counter(combo)
            if all(counted[k] <= have[k] for k in counted) and combo not in seen:
                seen.add(combo)
                actions.append(("lose", tuple((zone, i, n) for (zone, i), n in sorted(counted.items()))))
        return actions

    def _spend_fairy(self) -> None:
        hand = self.hands[self.player]
        fairy = next(i for i in self._fairy if hand.side[i])
        hand.side[fairy] -= 1
        self.discard[fairy] += 1
        self.fairies_spent += 1
        self._end_turn()

    def _lose(self, loss) -> None:
        hand = self.hands[self.player]
        total = 0
        for zone, card, n in loss:
            held = hand.side if zone == "side" else hand.castle
            if n < 1 or held[card] < n or (zone == "side" and self.game.kinds[card] == "fairy"):
                raise ValueError(f"illegal loss {loss!r}")
            held[card] -= n
            self.discard[card] += n
            total += n
        if total != min(self.game.witch_takes, total + self.losable(self.player)):
            raise ValueError(f"a witch takes {self.game.witch_takes} cards, not {total}")
        if "free-colour" in self.game.variants and not any(hand.castle):
            hand.colour = None
        if not self._anyone_can_win():
            self.phase, self.stalled = "over", True
            return
        self._end_turn()

    def _buy(self, seller: int) -> None:
        game, me, other = self.game, self.hands[self.player], self.hands[seller]
        if seller not in self.sellers():
            raise ValueError(f"cannot buy from player {seller}")
        card = max((i for i, c in enumerate(game.colours) if c == me.colour and other.side[i]),
                   key=lambda i: other.side[i])
        other.side[card] -= 1
        me.castle[card] += 1
        to_pay = game.price
        for i in self._diamond:
            paid = min(to_pay, me.side[i])
            me.side[i] -= paid
            to_pay -= paid
            if "diamonds-to-discard" in game.variants:
                self.discard[i] += paid
            else:
                other.side[i] += paid
        self.purchases += 1
        self.passes = 0
        if not self._check_win():
            self._end_turn()

    def _check_win(self) -> bool:
        if sum(self.hands[self.player].castle) >= self.game.castle_size:
            self.winner, self.phase = self.player, "over"
            return True
        return False

    def _end_turn(self) -> None:
        self.player = (self.player + 1) % self.game.players
        self.turns += 1
        self.drawn_this_turn = 0
        self.phase = "turn"

    def _anyone_can_win(self) -> bool:
        """False once no player can ever complete a castle (too few cards of every reachable colour)."""
        game = self.game
        size = game.castle_size
        colours = {c for c, k in zip(game.colours, game.kinds) if k == "castle"}
        claimed = {hand.colour for hand in self.hands if hand.colour is not None}
        freeable = "free-colour" in game.variants
        for hand in self.hands:
            if hand.colour is not None:
                if game.colour_total(hand.colour) >= size:
                    return True
                if not freeable:
                    continue
            open_colours = colours if freeable else colours - claimed
            if any(game.colour_total(c) >= size for c in open_colours):
                return True
        return False
