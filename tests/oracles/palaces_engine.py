"""Palaces' rules engine (docs/rules/palaces.md), for any deck the catalogue describes.

A state moves through these points (``state.phase``):

* ``deal`` (chance): the opening hands, ``hand_size`` cards per seat, one draw at a time;
* ``turn``: the player to move takes exactly one action:

  - ``("discard", cards)``: discard a multiset of hand cards (``cards`` a sorted tuple of card-type
    indices, at least one) and draw as many;
  - ``("build", card, slot)``: play a palace element; ``slot`` is ``None`` for a foundation (a new
    palace) and the index of one of the player's palaces for a floor, tower or roof;
  - ``("special", card, ...)``: ``("special", exchange, target, give)`` (blind: the cards taken are
    chance draws) or, with the ``exchange-face-up`` variant, ``("special", exchange, target, give,
    take)``; ``("special", general_exchange)``; ``("special", flood, target, slot)``;
  - ``("ruins", card, seat, slot)``: lay the ruins card ``card`` on an opponent's palace ``slot``
    or, with ``slot`` ``None``, on their empty building place; with ``seat`` the player's own,
    clear the ruins lying on that palace or building place into the discard pile: the action is
    the whole cost and ``card`` is None (with ``ruins-card-to-clear``, a ruins card from hand is
    spent too and discarded);
  - ``("pass",)``: only with an empty hand;
* ``give``: during a general exchange every player with cards, from the one who played it
  clockwise, sets aside ``("give", cards)`` (``min(exchange_cards, hand)`` cards); then each set
  passes to the next player clockwise;
* ``steal`` (chance): a blind exchange takes the victim's cards one at a time; outcomes are the
  card types in the victim's hand weighted by how many they hold;
* ``refill`` (chance): the turn's owner draws back to ``hand_size`` (a discard of ``k`` cards draws
  at least ``k``); outcomes are card-type indices weighted by how many are left in the pile. When
  the pile is empty the discard pile becomes the pile; when both are empty nobody draws.

Card types are indexed in catalogue order; ``game.names[i]`` is the id of type ``i``. A player's
palaces are kept sorted, so ``slot`` numbers and ``key()`` are canonical; a palace is a tuple
``(foundation, floors, ruins)``: the foundation's type index, a sorted tuple of the floor and tower
indices on it, and the index of the ruins card lying on it (``-1`` for none). ``site[p]`` is the
ruins card lying on player ``p``'s empty building place (``-1`` for none).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cached_property

from toolkit.catalogue.model import Catalogue
from toolkit.games import CHANCE, TERMINAL, check_setup

VARIANTS = {
    "exchange-face-up": "an exchange takes cards chosen face up from the other player's hand, not blind",
    "palaces-to-pile": "completed and flooded palaces are shuffled into the draw pile at once, not discarded",
    "one-per-colour": "a player may have only one palace of each colour under construction",
    "short-two-player": "two players play to the shorter goal (goal_two_players tokens)",
    "ruins-card-to-clear": "clearing ruins from one's own palace or building place takes a ruins card from hand too",
}

# the player counts a variant is meant for (the others are for any number of players)
VARIANT_SEATS = {"short-two-player": (2,)}

NO_RUINS = -1
_new = object.__new__  # a state made without __init__, to be filled by a copy
_PHASES = {"deal": 0, "turn": 1, "give": 2, "steal": 3, "refill": 4, "over": 5}  # for key()


def first_palace_complete(state) -> bool:
    """The first-palace question's end: some palace is complete (``toolkit odds --model first-palace``).
    One function, so that a walk can tell the question by the function itself."""
    return state.counters()["palaces_completed"] >= 1


def completable_colours(palette, kinds, colours, counts) -> frozenset[str]:
    """The colours of ``palette`` whose palace a deck (per card type: kind, colour, count) can finish: a
    foundation, a roof, and a floor or a tower. The one rule behind the stall (``_can_still_end``, the
    kernel's ``G_ENDABLE``), the deck check of a rulebook (``deck.check``) and ``no_winner_reason``."""
    def total(kind, colour=None):
        return sum(n for n, k, c in zip(counts, kinds, colours) if k == kind and (colour is None or c == colour))

    towers = total("tower")
    return frozenset(c for c in palette if total("foundation", c) and total("roof", c) and total("floor", c) + towers)


@dataclass(frozen=True)
class PalacesGame:
    """The fixed part of a game: the deck, the rule numbers, the variants, the number of players."""

    game_id = "palaces"  # the registered game this engine plays (not a field)
    chance_source = "pile"  # chance deals from a shuffled pile (toolkit.sim.play.PILE)
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    colours: tuple[str | None, ...]
    counts: tuple[int, ...]
    palette: tuple[str, ...]  # the catalogue's colour ids, in catalogue order
    hand_size: int
    max_palaces: int
    goal: int
    goal_two_players: int
    exchange_cards: int
    players: int = 2
    variants: frozenset[str] = frozenset()

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue, players: int = 2, variants=()) -> PalacesGame:
        check_setup(catalogue, "palaces", "Palaces", players, variants, VARIANTS, seats=VARIANT_SEATS,
                    hand_size=catalogue.rules.get("hand_size"))
        rules = catalogue.rules
        return cls(
            names=tuple(card.id for card in catalogue.cards),
            kinds=tuple(card.kind for card in catalogue.cards),
            colours=tuple(card.colour for card in catalogue.cards),
            counts=tuple(card.count for card in catalogue.cards),
            palette=tuple(colour.id for colour in catalogue.colours),
            hand_size=rules["hand_size"],
            max_palaces=rules["max_palaces"],
            goal=rules["goal"],
            goal_two_players=rules["goal_two_players"],
            exchange_cards=rules["exchange_cards"],
            players=players,
            variants=frozenset(variants),
        )

    @property
    def to_win(self) -> int:
        """The tokens that win this game (the shorter goal only with the variant and two players)."""
        if "short-two-player" in self.variants and self.players == 2:
            return self.goal_two_players
        return self.goal

    def indices(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, k in enumerate(self.kinds) if k == kind)

    def total(self, kind: str, colour: str | None = None) -> int:
        return sum(n for n, k, c in zip(self.counts, self.kinds, self.colours)
                   if k == kind and (colour is None or c == colour))

    @cached_property
    def completable(self) -> frozenset[str]:
        """Colours whose palace the deck can finish (``completable_colours``)."""
        return completable_colours(self.palette, self.kinds, self.colours, self.counts)

    def new_initial_state(self) -> PalacesState:
        return PalacesState(self)


def _submultisets(counts: list[int], size: int | None = None) -> list[tuple[int, ...]]:
    """Sorted tuples of card indices drawn from ``counts``: all non-empty ones, or those of ``size``."""
    held = [(i, n) for i, n in enumerate(counts) if n]
    out: list[tuple[int, ...]] = []

    def walk(pos: int, chosen: tuple[int, ...], left: int | None) -> None:
        if pos == len(held):
            if (left == 0) if size is not None else chosen:
                out.append(chosen)
            return
        i, n = held[pos]
        top = n if left is None else min(n, left)
        for k in range(top + 1):
            walk(pos + 1, chosen + (i,) * k, None if left is None else left - k)

    walk(0, (), size)
    return out


class PalacesState:
    """One moment of a game. Mutable: ``apply_action`` changes it in place; ``clone`` copies it."""

    def __init__(self, game: PalacesGame):
        self.game = game
        types = len(game.names)
        seats = game.players
        self.pile = list(game.counts)
        self.discard = [0] * types
        self.hands = [[0] * types for _ in range(seats)]
        self.palaces: list[list[tuple]] = [[] for _ in range(seats)]
        self.site = [NO_RUINS] * seats  # ruins lying on a player's empty building place
        self.tokens = [0] * seats
        self.player = 0  # whose turn it is
        self.phase = "deal"  # deal | turn | give | steal | refill | over
        self.turns = 1  # turns started so far, this one included
        self.drawer = 0  # who the current chance draw is for (deal and refill)
        self.draw_to = game.hand_size  # the hand size the current deal or refill fills up to
        self.giver = 0  # who chooses next in a general exchange
        self.giving: tuple[tuple[int, ...], ...] = ()  # cards set aside so far in a general exchange
        self.victim = 0  # whose hand a blind exchange takes from
        self.steal_left = 0
        self.handing: tuple[int, ...] = ()  # the cards the actor gives in a blind exchange
        self.passes = 0  # turns in a row in which nobody could act
        self.winner: int | None = None
        self.stalled = False  # the game can no longer end
        self._stats = dict.fromkeys(
            ("palaces_completed", "tokens_scored", "foundations_laid", "floods", "exchanges",
             "general_exchanges", "ruins_laid", "ruins_removed", "discards", "cards_discarded",
             "passes", "reshuffles"), 0)
        self._ruins_total = game.total("ruins")
        self._flood_total = game.total("flood")
        self._colour_of = game.colours
        self._kinds = game.kinds
        if not self._can_still_end():
            self.phase, self.stalled = "over", True
        else:
            self._deal()

    # --- the OpenSpiel-style interface ------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == "turn":
            return self.player
        if phase == "give":
            return self.giver
        return TERMINAL if phase == "over" else CHANCE

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in ("deal", "refill", "steal")

    def draws_from_pile(self) -> bool:
        """At a chance point: a draw from the pile, not a card taken blind from the victim's hand."""
        return self.phase != "steal"

    def chance_outcomes(self) -> list[tuple[int, int]]:
        """(card index, weight): the pile's card types by count, or the victim's hand in a blind exchange."""
        if self.phase == "steal":
            return [(i, n) for i, n in enumerate(self.hands[self.victim]) if n]
        if self.phase in ("deal", "refill"):
            return [(i, n) for i, n in enumerate(self.pile) if n]
        return []

    def legal_actions(self) -> list[tuple]:
        if self.phase == "give":
            hand = self.hands[self.giver]
            return [("give", cards) for cards in _submultisets(hand, min(self.game.exchange_cards, sum(hand)))]
        if self.phase != "turn":
            return []
        p, game, kinds = self.player, self.game, self._kinds
        hand = self.hands[p]
        if not any(hand):
            return [("pass",)]
        actions: list[tuple] = []
        held = [i for i, n in enumerate(hand) if n]
        for i in held:  # palace elements
            if kinds[i] == "foundation":
                if self.can_found(p, i):
                    actions.append(("build", i, None))
            elif kinds[i] in ("floor", "tower", "roof"):
                actions.extend(("build", i, s) for s in range(len(self.palaces[p])) if self.can_build(p, i, s))
        opponents = self.opponents(p)
        for i in held:  # special cards
            kind = kinds[i]
            if kind == "exchange":
                for target in opponents:
                    n = self.exchange_size(p, i, target)
                    if not n:
                        continue
                    rest = hand[:]
                    rest[i] -= 1
                    for give in _submultisets(rest, n):
                        if "exchange-face-up" in game.variants:
                            actions.extend(("special", i, target, give, take)
                                           for take in _submultisets(self.hands[target], n))
                        else:
                            actions.append(("special", i, target, give))
            elif kind == "general-exchange":
                if game.players > 1:
                    actions.append(("special", i))
            elif kind == "flood":
                actions.extend(("special", i, t, s) for t in opponents for s in range(len(self.palaces[t])))
        ruined = ([None] if self.site[p] != NO_RUINS else []) + \
            [s for s, pal in enumerate(self.palaces[p]) if pal[2] != NO_RUINS]
        if "ruins-card-to-clear" not in game.variants:  # clearing one's own ruins is an action of its own
            actions.extend(("ruins", None, p, slot) for slot in ruined)
        for i in held:  # ruins from hand: lay on an opponent (or, with the variant, clear one's own)
            if kinds[i] != "ruins":
                continue
            for t in opponents:
                if self.site[t] == NO_RUINS and len(self.palaces[t]) < game.max_palaces:
                    actions.append(("ruins", i, t, None))
                actions.extend(("ruins", i, t, s) for s, pal in enumerate(self.palaces[t]) if pal[2] == NO_RUINS)
            if "ruins-card-to-clear" in game.variants:
                actions.extend(("ruins", i, p, slot) for slot in ruined)
        actions.extend(("discard", cards) for cards in _submultisets(hand))
        return actions

    def apply_action(self, action) -> None:
        phase = self.phase
        if phase in ("deal", "refill"):
            self._draw(action)
        elif phase == "steal":
            self._steal(action)
        elif phase == "give":
            if action[0] != "give":
                raise ValueError(f"expected a ('give', cards) action, got {action!r}")
            self._give(action[1])
        elif phase == "turn":
            verb = action[0]
            if verb == "pass":
                self._pass()
                return
            self.passes = 0
            if verb == "discard":
                self._discard(action[1])
            elif verb == "build":
                self._build(action[1], action[2])
            elif verb == "special":
                self._special(action)
            elif verb == "ruins":
                self._ruins(action[1], action[2], action[3])
            else:
                raise ValueError(f"unknown action {action!r}")
        else:
            raise ValueError(f"no action to take: the game is over ({action!r})")

    def clone(self) -> PalacesState:
        """A copy to play on: one copy of the attributes, then of the mutable parts (a palace is a
        tuple: shared, never changed)."""
        other = _new(PalacesState)
        other.__dict__ = fields = self.__dict__.copy()
        fields["pile"], fields["discard"] = self.pile[:], self.discard[:]
        fields["hands"] = [hand[:] for hand in self.hands]
        fields["palaces"] = [pals[:] for pals in self.palaces]
        fields["site"], fields["tokens"], fields["_stats"] = self.site[:], self.tokens[:], self._stats.copy()
        return other

    def key(self) -> bytes:
        """Everything that matters for the future of the game (for the exact solver), packed as bytes.

        Bytes, not nested tuples: a fraction of the memory, and hashed once (a tuple is hashed again
        at every lookup). Each number is one byte (two after a ``ff ff`` mark when one passes 255),
        shifted by one where it may be -1 (no ruins); every run of varying length (palaces, the
        floors on one, cards set aside) is preceded by its length, so two states never share a key.
        At a chance point ``passes`` is left out: it is 0 at a deal, a draw resets it, and a blind
        exchange is only played by a player who did not pass.
        """
        phase = self.phase
        winner = self.winner
        if phase == "refill" or phase == "deal":
            values = [_PHASES[phase], self.player, 255 if winner is None else winner, self.stalled, 0,
                      self.drawer, self.draw_to]
        else:
            values = [_PHASES[phase], self.player, 255 if winner is None else winner, self.stalled,
                      0 if phase == "steal" else self.passes]
        if phase == "give":
            values += (self.giver, len(self.giving))
            for cards in self.giving:
                values.append(len(cards))
                values += cards
        elif phase == "steal":
            values += (self.victim, self.steal_left, len(self.handing))
            values += self.handing
        values += self.pile
        values += self.discard
        for hand in self.hands:
            values += hand
        for pals in self.palaces:
            values.append(len(pals))
            for foundation, floors, ruins in pals:
                values += (foundation, ruins + 1, len(floors), *floors)
        for ruins in self.site:
            values.append(ruins + 1)
        values += self.tokens
        try:
            return bytes(values)
        except ValueError:
            return b"\xff\xff" + array("H", values).tobytes()

    def events(self) -> dict[str, int]:  # the contract's name of the counters
        return self.counters()

    def counters(self) -> dict[str, int]:
        return dict(self._stats)

    def scores(self) -> list[int]:
        """How far each player is in the race: their victory points."""
        return list(self.tokens)

    # --- questions policies ask ------------------------------------------------------------------

    def opponents(self, p: int) -> list[int]:
        """The other seats, clockwise from ``p``."""
        n = self.game.players
        return [(p + k) % n for k in range(1, n)]

    @staticmethod
    def palace_size(palace: tuple) -> int:
        """Cards in a palace (foundation and floors, not the ruins lying on it)."""
        return 1 + len(palace[1])

    def can_found(self, p: int, card: int) -> bool:
        """May player ``p`` start a palace with foundation ``card`` now?"""
        if not self.hands[p][card] or self._kinds[card] != "foundation":
            return False
        pals = self.palaces[p]
        if len(pals) >= self.game.max_palaces or self.site[p] != NO_RUINS:
            return False
        if "one-per-colour" in self.game.variants:
            colour = self._colour_of[card]
            return all(self._colour_of[pal[0]] != colour for pal in pals)
        return True

    def can_build(self, p: int, card: int, slot: int) -> bool:
        """May player ``p`` put floor, tower or roof ``card`` on their palace ``slot`` now?"""
        pals = self.palaces[p]
        if not self.hands[p][card] or not isinstance(slot, int) or not 0 <= slot < len(pals):
            return False
        foundation, floors, ruins = pals[slot]
        if ruins != NO_RUINS:
            return False
        kind = self._kinds[card]
        if kind == "tower":
            return True
        if kind == "floor":
            return self._colour_of[card] == self._colour_of[foundation]
        if kind == "roof":
            return self._colour_of[card] == self._colour_of[foundation] and bool(floors)
        return False

    def exchange_size(self, p: int, card: int, target: int) -> int:
        """Cards an exchange played by ``p`` (with ``card``) swaps with ``target``; 0 if it cannot."""
        if target == p or not 0 <= target < self.game.players:
            return 0
        return min(self.game.exchange_cards, sum(self.hands[p]) - 1, sum(self.hands[target]))

    # --- the rules --------------------------------------------------------------------------------

    def _take(self, p: int, cards) -> None:
        """Remove the multiset ``cards`` from player ``p``'s hand, or raise and change nothing."""
        hand = self.hands[p]
        for i in set(cards):
            if not isinstance(i, int) or not 0 <= i < len(hand) or hand[i] < cards.count(i):
                raise ValueError(f"player {p} does not hold the cards {cards!r}")
        for i in cards:
            hand[i] -= 1

    def _available(self) -> bool:
        """Can a card be drawn? Rule 5: an empty pile is replaced by the shuffled discard pile."""
        if any(self.pile):
            return True
        if any(self.discard):
            self.pile, self.discard = self.discard, [0] * len(self.discard)
            self._stats["reshuffles"] += 1
            return True
        return False

    def _deal(self) -> None:
        seats = self.game.players
        while self.drawer < seats:
            if sum(self.hands[self.drawer]) < self.draw_to and self._available():
                self.phase = "deal"
                return
            self.drawer += 1
        self.drawer = self.player = 0
        self.phase = "turn"

    def _refill(self, draw_to: int | None = None) -> None:
        """End the turn: the owner draws back to ``hand_size`` (or ``draw_to``), then the next seat moves."""
        self.drawer = self.player
        if draw_to is not None:
            self.draw_to = draw_to
        if sum(self.hands[self.player]) < self.draw_to and self._available():
            self.phase = "refill"
            return
        self.player = (self.player + 1) % self.game.players
        self.turns += 1
        self.draw_to = self.game.hand_size
        self.phase = "turn"

    def _draw(self, card: int) -> None:
        if not 0 <= card < len(self.pile) or not self.pile[card]:
            raise ValueError(f"card {card!r} is not in the pile")
        self.pile[card] -= 1
        self.hands[self.drawer][card] += 1
        if self.phase == "deal":
            self._deal()
        else:
            self.passes = 0
            self._refill()

    def _pass(self) -> None:
        if any(self.hands[self.player]):
            raise ValueError("a player with cards cannot pass: discarding is always possible")
        self.passes += 1
        self._stats["passes"] += 1
        if self.passes >= self.game.players:
            self.phase, self.stalled = "over", True
            return
        self._refill()

    def _discard(self, cards) -> None:
        cards = tuple(cards)
        if not cards:
            raise ValueError("discard at least one card")
        before = sum(self.hands[self.player])
        self._take(self.player, cards)
        for i in cards:
            self.discard[i] += 1
        self._stats["discards"] += 1
        self._stats["cards_discarded"] += len(cards)
        self._refill(max(self.game.hand_size, before))

    def _to_bin(self, cards) -> None:
        """Completed and flooded palaces: to the discard pile, or (variant) straight into the pile."""
        target = self.pile if "palaces-to-pile" in self.game.variants else self.discard
        for i in cards:
            target[i] += 1

    @staticmethod
    def _palace_cards(palace: tuple) -> list[int]:
        foundation, floors, ruins = palace
        return [foundation, *floors] + ([ruins] if ruins != NO_RUINS else [])

    def _build(self, card: int, slot) -> None:
        p, kind = self.player, self._kinds[card]
        pals = self.palaces[p]
        if kind == "foundation":
            if slot is not None or not self.can_found(p, card):
                raise ValueError(f"player {p} cannot lay {self.game.names[card]} now")
            self.hands[p][card] -= 1
            pals.append((card, (), NO_RUINS))
            pals.sort()
            self._stats["foundations_laid"] += 1
            if not self._can_still_end():
                self.phase, self.stalled = "over", True
                return
            self._refill()
            return
        if not self.can_build(p, card, slot):
            raise ValueError(f"player {p} cannot put {self.game.names[card]} on palace {slot!r}")
        self.hands[p][card] -= 1
        foundation, floors, ruins = pals[slot]
        if kind == "roof":
            del pals[slot]
            self._to_bin((foundation, *floors, card))
            score = len(floors) + 2
            self.tokens[p] += score
            self._stats["palaces_completed"] += 1
            self._stats["tokens_scored"] += score
            if self.tokens[p] >= self.game.to_win:
                self.winner, self.phase = p, "over"
                return
            if not self._can_still_end():
                self.phase, self.stalled = "over", True
                return
        else:
            pals[slot] = (foundation, tuple(sorted(floors + (card,))), ruins)
            pals.sort()
        self._refill()

    def _special(self, action) -> None:
        p, game = self.player, self.game
        card = action[1]
        kind = self._kinds[card] if isinstance(card, int) and 0 <= card < len(self._kinds) else None
        if kind is None or not self.hands[p][card]:
            raise ValueError(f"player {p} cannot play {action!r}")
        if kind == "exchange":
            face_up = "exchange-face-up" in game.variants
            if len(action) != (5 if face_up else 4):
                shape = "give, take" if face_up else "give"
                raise ValueError(f"an exchange is ('special', card, target, {shape}): {action!r}")
            target, give = action[2], tuple(action[3])
            n = self.exchange_size(p, card, target)
            if not n or len(give) != n:
                raise ValueError(f"an exchange with player {target} swaps {n} cards: {action!r}")
            take = tuple(action[4]) if face_up else ()
            if face_up and len(take) != n:
                raise ValueError(f"an exchange with player {target} takes {n} cards: {action!r}")
            self._take(p, (card, *give))
            if face_up:
                try:
                    self._take(target, take)
                except ValueError:
                    for i in (card, *give):
                        self.hands[p][i] += 1
                    raise
            self.discard[card] += 1
            self._stats["exchanges"] += 1
            if face_up:
                for i in take:
                    self.hands[p][i] += 1
                for i in give:
                    self.hands[target][i] += 1
                self._refill()
            else:
                self.victim, self.steal_left, self.handing = target, n, tuple(sorted(give))
                self.phase = "steal"
        elif kind == "general-exchange":
            if len(action) != 2 or game.players < 2:
                raise ValueError(f"a general exchange is ('special', card) with 2 or more players: {action!r}")
            self.hands[p][card] -= 1
            self.discard[card] += 1
            self._stats["general_exchanges"] += 1
            self.giving = ()
            self.giver = p
            self.phase = "give"
            self._next_giver()
        elif kind == "flood":
            target, slot = action[2], action[3]
            if target == p or not 0 <= target < game.players or not isinstance(slot, int) \
                    or not 0 <= slot < len(self.palaces[target]):
                raise ValueError(f"no opponent's palace to flood: {action!r}")
            self.hands[p][card] -= 1
            self.discard[card] += 1
            self._to_bin(self._palace_cards(self.palaces[target].pop(slot)))
            self._stats["floods"] += 1
            if not self._can_still_end():
                self.phase, self.stalled = "over", True
                return
            self._refill()
        else:
            raise ValueError(f"{game.names[card]} is not a special card: {action!r}")

    def _next_giver(self) -> None:
        """Skip players with nothing to give; once everyone has chosen, pass the cards clockwise."""
        seats = self.game.players
        while len(self.giving) < seats:
            if any(self.hands[self.giver]):
                return
            self.giving += ((),)
            self.giver = (self.giver + 1) % seats
        # giving[k] was set aside by seat (player + k); it goes to the next seat
        for k, cards in enumerate(self.giving):
            receiver = (self.player + k + 1) % seats
            for i in cards:
                self.hands[receiver][i] += 1
        self.giving = ()
        self._refill()

    def _give(self, cards) -> None:
        cards = tuple(cards)
        n = min(self.game.exchange_cards, sum(self.hands[self.giver]))
        if len(cards) != n:
            raise ValueError(f"player {self.giver} passes {n} cards, not {cards!r}")
        self._take(self.giver, cards)
        self.giving += (tuple(sorted(cards)),)
        self.giver = (self.giver + 1) % self.game.players
        self._next_giver()

    def _steal(self, card: int) -> None:
        victim = self.hands[self.victim]
        if not 0 <= card < len(victim) or not victim[card]:
            raise ValueError(f"player {self.victim} holds no card {card!r}")
        victim[card] -= 1
        self.hands[self.player][card] += 1
        self.steal_left -= 1
        if self.steal_left:
            return
        for i in self.handing:
            victim[i] += 1
        self.handing = ()
        self._refill()

    def _ruins(self, card, seat: int, slot) -> None:
        p, game = self.player, self.game
        with_card = seat != p or "ruins-card-to-clear" in game.variants
        if with_card and (not isinstance(card, int) or not 0 <= card < len(self._kinds)
                          or self._kinds[card] != "ruins" or not self.hands[p][card]):
            raise ValueError(f"player {p} cannot play ruins {card!r}")
        if not with_card and card is not None:
            raise ValueError("clearing one's own ruins takes no card (the variant ruins-card-to-clear is off)")
        if not 0 <= seat < game.players:
            raise ValueError(f"there is no player {seat}")
        if slot is not None and (not isinstance(slot, int) or not 0 <= slot < len(self.palaces[seat])):
            raise ValueError(f"player {seat} has no palace {slot!r}")
        if seat != p:  # lay ruins on an opponent
            if slot is None:
                if self.site[seat] != NO_RUINS or len(self.palaces[seat]) >= game.max_palaces:
                    raise ValueError(f"player {seat} has no empty building place free of ruins")
                self.site[seat] = card
            else:
                foundation, floors, ruins = self.palaces[seat][slot]
                if ruins != NO_RUINS:
                    raise ValueError(f"ruins already lie on player {seat}'s palace {slot}")
                self.palaces[seat][slot] = (foundation, floors, card)
                self.palaces[seat].sort()
            self.hands[p][card] -= 1
            self._stats["ruins_laid"] += 1
            if not self._can_still_end():
                self.phase, self.stalled = "over", True
                return
        else:  # clear one's own: the ruins (and, with the variant, the card spent) go to the discard pile
            if slot is None:
                removed = self.site[p]
                if removed == NO_RUINS:
                    raise ValueError("no ruins lie on your building place")
                self.site[p] = NO_RUINS
            else:
                foundation, floors, removed = self.palaces[p][slot]
                if removed == NO_RUINS:
                    raise ValueError(f"no ruins lie on your palace {slot}")
                self.palaces[p][slot] = (foundation, floors, NO_RUINS)
                self.palaces[p].sort()
            if card is not None:
                self.hands[p][card] -= 1
                self.discard[card] += 1
            self.discard[removed] += 1
            self._stats["ruins_removed"] += 1
        self._refill()

    def _can_still_end(self) -> bool:
        """False once no sequence of actions can complete a palace any more.

        Statically: some colour needs a foundation, a roof and a floor or tower in the deck, and
        hands and palace places must exist. On the table: some player has a palace of such a colour
        whose ruins (if any) can be cleared, or can start one (a free place, or an opponent's flood
        to free one, and no ruins on the building place that cannot be cleared). A player can always
        clear their own ruins; with ``ruins-card-to-clear`` only while some ruins card can still reach
        a hand: one not lying on a building place, nor on a palace when no flood can wash it away.
        """
        game = self.game
        if game.hand_size < 1 or game.max_palaces < 1 or not game.completable:
            return False
        floodable = game.players >= 2 and self._flood_total >= 1
        # ruins cards that can still reach a hand: not on a building place (only a ruins card clears
        # those), nor on a palace nobody can flood
        locked = sum(r != NO_RUINS for r in self.site)
        if not floodable:
            locked += sum(pal[2] != NO_RUINS for pals in self.palaces for pal in pals)
        clearable = "ruins-card-to-clear" not in game.variants or self._ruins_total - locked >= 1
        for p in range(game.players):
            pals = self.palaces[p]
            for foundation, _, ruins in pals:
                if self._colour_of[foundation] in game.completable and (ruins == NO_RUINS or clearable):
                    return True
            if (self.site[p] == NO_RUINS or clearable) and (len(pals) < game.max_palaces or floodable):
                return True
        return False
