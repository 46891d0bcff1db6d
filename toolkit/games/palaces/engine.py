"""Palaces as an OpenSpiel-style state (docs/rules/palaces.md), for any deck the catalogue describes.

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

The state is the kernel's (``toolkit.games.palaces.kernel``): its fixed numbers ``g`` and its numbers
``s``; every rule is the kernel's step function, played here on them as the simulation and the walks
play it. By default the steps run interpreted (plain Python on lists, no numba); ``compiled()`` gives
the same state on the compiled steps. The fields (``pile``, ``hands``, ``palaces``...) are read back
from ``s`` as plain Python values, and a field assigned is written into ``s`` (palaces in their sorted
order). The readable engine this was written from is ``tests/oracles/palaces_engine.py``; the tests
hold the two to the same games and chains.
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass
from functools import cached_property

from toolkit.catalogue.model import Catalogue
from toolkit.games import CHANCE, TERMINAL, check_setup
from toolkit.games.played import PlayedGame, PlayedState

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
# the card kinds by the kernel's numbers (``kernel.FOUNDATION`` .. ``kernel.FLOOD``)
KINDS = {"foundation": 0, "floor": 1, "tower": 2, "roof": 3, "ruins": 4, "exchange": 5, "general-exchange": 6,
         "flood": 7}
_PHASES = ("deal", "turn", "give", "steal", "refill", "over")  # by the kernel's phase numbers


def first_palace_complete(state) -> bool:
    """The first-palace question's end: some palace is complete (``toolkit odds --model first-palace``).
    One function, so that a walk can tell the question by the function itself."""
    return state.counters()["palaces_completed"] >= 1


def completable_colours(palette, kinds, colours, counts) -> frozenset[str]:
    """The colours of ``palette`` whose palace a deck (per card type: kind, colour, count) can finish: a
    foundation, a roof, and a floor or a tower. The one rule behind the stall (the kernel's ``G_ENDABLE``
    and ``G_COMPL``, read by ``can_still_end``), the deck check of a rulebook (``deck.check``) and
    ``no_winner_reason``."""
    def total(kind, colour=None):
        return sum(n for n, k, c in zip(counts, kinds, colours) if k == kind and (colour is None or c == colour))

    towers = total("tower")
    return frozenset(c for c in palette if total("foundation", c) and total("roof", c) and total("floor", c) + towers)


@dataclass(frozen=True)
class PalacesGame(PlayedGame):
    """The fixed part of a game: the deck, the rule numbers, the variants, the number of players."""

    game_id = "palaces"  # the registered game this engine plays (not a field)
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

    def total(self, kind: str, colour: str | None = None) -> int:
        return sum(n for n, k, c in zip(self.counts, self.kinds, self.colours)
                   if k == kind and (colour is None or c == colour))

    @cached_property
    def completable(self) -> frozenset[str]:
        """Colours whose palace the deck can finish (``completable_colours``)."""
        return completable_colours(self.palette, self.kinds, self.colours, self.counts)

    @cached_property
    def start(self) -> tuple[list[int], list[int]]:
        """The kernel's ``g`` of this game and its ``s`` at the start of a game (the kernel's step ``start``),
        as Python lists: every new state copies them."""
        kernel = _kernel()
        g = _encode_game(self).tolist()
        s = [0] * g[kernel.S_SIZE]
        kernel.start(g, s)
        return g, s

    def new_initial_state(self) -> PalacesState:
        return PalacesState(self)


def _encode_game(game: PalacesGame):
    """The kernel's fixed numbers ``g`` of a game (``kernel.layout``): the rule numbers, then per card type its
    kind, colour number, whether its colour can be completed, its count."""
    palette = {c: k for k, c in enumerate(game.palette)}
    colours = [palette.get(c, len(palette)) if c is not None else -1 for c in game.colours]
    kinds = [KINDS[k] for k in game.kinds]
    completable = game.completable
    compl = [c is not None and c in completable for c in game.colours]
    variants = game.variants
    rules = (len(game.names), game.players, game.hand_size, game.max_palaces, game.to_win, game.exchange_cards,
             "exchange-face-up" in variants, "palaces-to-pile" in variants, "one-per-colour" in variants,
             "ruins-card-to-clear" in variants, game.total("ruins"), game.total("flood"),
             game.hand_size >= 1 and game.max_palaces >= 1 and bool(completable), len(palette) + 2)
    return _kernel().layout([int(x) for x in rules], kinds, colours, compl, list(game.counts))


def _kernel():
    """The kernel module (imported when a state is first made: it needs numpy, reading a game does not)."""
    from toolkit.games.palaces import kernel

    return kernel


@functools.cache
def _table(row: tuple, p: int, players: int) -> dict:
    """The policy table the interpreted steps read (``pol[seat, column]``) with ``row`` at seat ``p``, 0 elsewhere."""
    return {(seat, column): row[column] if seat == p else 0 for seat in range(players) for column in range(len(row))}


@functools.cache
def _key_size(types: int, players: int, slots: int) -> int:
    return _kernel().vector_at(types, players, slots)["key_size"]


class Decided(tuple):
    """A turn's action the state itself made (one of its ``legal_actions``, or the choice of a built-in player,
    ``PalacesState.choose``): the action's tuple, carrying the kernel's numbers of it (``numbers``), which
    ``apply_action`` writes back as they are: no decoding, no search among the legal actions."""

    numbers: tuple


_new = object.__new__  # a state made without __init__, to be filled by a copy


class PalacesState(PlayedState):
    """One moment of a game. Mutable: ``apply_action`` changes it in place; ``clone`` copies it.

    ``steps`` plays the rules: the kernel module, its step functions interpreted on Python lists ``g`` and
    ``s``, or ``kernel.compiled()`` on numpy arrays (``compiled``).
    """

    def __init__(self, game: PalacesGame):
        self.game = game
        self.steps = _kernel()
        self.g, start = game.start
        self.s = start.copy()

    def compiled(self) -> PalacesState:
        """This state on the compiled steps (numba; loaded from its cache after the first time), for large
        Python-driven work: ``g`` and ``s`` as numpy arrays."""
        import numpy as np

        other = _new(PalacesState)
        other.game, other.steps = self.game, self.steps.compiled()
        other.g, other.s = np.array(self.g, dtype=np.int64), np.array(self.s, dtype=np.int64)
        return other

    # --- reading and writing ``s`` ----------------------------------------------------------------

    def _at(self, part: int) -> int:
        return int(self.g[part])

    def _row(self, part: int, n: int, first: int = 0) -> list[int]:
        at = self._at(part) + first
        return list(map(int, self.s[at:at + n]))

    def _write(self, part: int, values, first: int = 0) -> None:
        at = self._at(part) + first
        self.s[at:at + len(values)] = values

    def _scalar(self, at: int) -> int:
        return int(self.s[at])

    @property
    def _types(self) -> int:
        return len(self.game.names)

    # --- the OpenSpiel-style interface ------------------------------------------------------------

    def current_player(self) -> int:
        k, s = self.steps, self.s
        phase = s[k.S_PHASE]
        if phase == k.TURN:
            return int(s[k.S_PLAYER])
        if phase == k.GIVE:
            return int(s[k.S_GIVER])
        return TERMINAL if phase == k.OVER else CHANCE

    def is_terminal(self) -> bool:
        return bool(self.s[self.steps.S_PHASE] == self.steps.OVER)

    def is_chance_node(self) -> bool:
        k = self.steps
        return self.s[k.S_PHASE] in (k.DEAL, k.REFILL, k.STEAL)

    def draws_from_pile(self) -> bool:
        """At a chance point: a draw from the pile, not a card taken blind from the victim's hand."""
        return bool(self.s[self.steps.S_PHASE] != self.steps.STEAL)

    def chance_outcomes(self) -> list[tuple[int, int]]:
        """(card index, weight): the pile's card types by count, or the victim's hand in a blind exchange."""
        k, s, types = self.steps, self.s, self._types
        phase = s[k.S_PHASE]
        if phase == k.STEAL:
            counts = self._row(k.O_HANDS, types, int(s[k.S_VICTIM]) * types)
        elif phase in (k.DEAL, k.REFILL):
            counts = self._row(k.O_PILE, types)
        else:
            return []
        return [(i, n) for i, n in enumerate(counts) if n]

    def legal_actions(self) -> list[tuple]:
        k, g, s = self.steps, self.g, self.s
        phase = s[k.S_PHASE]
        if phase == k.GIVE:
            p = int(s[k.S_GIVER])
            hand = g[k.O_HANDS] + p * self._types
            n = min(g[k.G_EXCH], s[g[k.O_HSUM] + p])
            actions = []
            for index in range(k.submultisets(g, s, hand, n, k.COUNT, g[k.O_GA])):
                k.submultisets(g, s, hand, n, index, g[k.O_GA])
                actions.append(("give", self._cards(k.O_GA)))
            return actions
        if phase != k.TURN:
            return []
        p = s[k.S_PLAYER]
        actions = []
        for index in range(k.legal(g, s, p, k.COUNT)):
            k.legal(g, s, p, index)
            actions.append(self._decided())
        return actions

    def apply_action(self, action) -> None:
        k, g, s = self.steps, self.g, self.s
        phase = s[k.S_PHASE]
        if phase in (k.DEAL, k.REFILL, k.STEAL):
            types = self._types
            if phase == k.STEAL:
                victim = int(s[k.S_VICTIM])
                if not _is_card(action, types) or not s[g[k.O_HANDS] + victim * types + action]:
                    raise ValueError(f"player {victim} holds no card {action!r}")
            elif not _is_card(action, types) or not s[g[k.O_PILE] + action]:
                raise ValueError(f"card {action!r} is not in the pile")
            k.outcome(g, s, action)
        elif phase == k.GIVE:
            if not isinstance(action, tuple) or len(action) != 2 or action[0] != "give":
                raise ValueError(f"expected a ('give', cards) action, got {action!r}")
            p = int(s[k.S_GIVER])
            n = min(g[k.G_EXCH], s[g[k.O_HSUM] + p])
            counts = self._counts(action[1])
            hand = self._row(k.O_HANDS, self._types, p * self._types)
            if counts is None or sum(counts) != n or any(c > h for c, h in zip(counts, hand)):
                raise ValueError(f"player {p} passes {n} of their cards, not {action[1]!r}")
            self._write(k.O_GA, counts)
            k.give(g, s)
        elif phase == k.TURN:
            if type(action) is Decided:
                self._write(k.O_A, action.numbers[:4])
                self._write(k.O_GA, action.numbers[4:4 + self._types])
                self._write(k.O_TA, action.numbers[4 + self._types:])
            elif not self._encode(action) or k.legal_index(g, s, s[k.S_PLAYER]) < 0:
                raise ValueError(f"player {int(s[k.S_PLAYER])} cannot take the action {action!r} now")
            k.act(g, s)
        else:
            raise ValueError(f"no action to take: the game is over ({action!r})")

    def choose(self, row: tuple, streams: list[int]) -> tuple:
        """The action a built-in player whose policy row is ``row`` (``kernel.P_*``) takes here: the kernel's
        ``builder``, ``play_random`` or ``give_choice``. ``streams``: the seat's two chance streams (the turn
        rule's, the give rule's), advanced in place by what the rules draw."""
        k, g, s = self.steps, self.g, self.s
        phase = s[k.S_PHASE]
        if phase == k.TURN:
            p = int(s[k.S_PLAYER])
        elif phase == k.GIVE:
            p = int(s[k.S_GIVER])
        else:
            raise ValueError(f"no decision to take in phase {self.phase}")
        players = self.game.players
        if type(s) is list:  # interpreted: plain Python containers
            pol = _table(tuple(row), p, players)
            r = [0] * (1 + 2 * players)
        else:
            import numpy as np

            pol = np.zeros((players, len(row)), dtype=np.int64)
            pol[p] = row
            r = np.zeros(1 + 2 * players, dtype=np.uint64)
        r[1 + 2 * p], r[2 + 2 * p] = streams
        if phase == k.GIVE:
            k.give_choice(g, s, r, pol)
            action = ("give", self._cards(k.O_GA))
        else:
            if row[k.P_PLAY] == 1:
                k.play_random(g, s, r, p)
            else:
                k.builder(g, s, r, pol, p)
            action = self._decided()
        streams[0], streams[1] = int(r[1 + 2 * p]), int(r[2 + 2 * p])
        return action

    def clone(self) -> PalacesState:
        """A copy to play on: the same game and steps, its own ``s``."""
        other = _new(PalacesState)
        other.game, other.steps, other.g, other.s = self.game, self.steps, self.g, self.s.copy()
        return other

    def key(self) -> bytes:
        """Everything that matters for the future of the game (for the exact solver), packed as bytes: the
        kernel's ``key_vector``, one byte a number (two after a ``ff ff`` mark when one passes 255)."""
        size = _key_size(self._types, self.game.players, int(self.g[self.steps.G_SLOTS]))
        if type(self.s) is list:
            values = [0] * size
            self.steps.key_vector(self.g, self.s, values)
        else:
            import numpy as np

            v = np.zeros(size, dtype=np.int64)
            self.steps.key_vector(self.g, self.s, v)
            values = v.tolist()
        try:
            return bytes(values)
        except ValueError:
            return b"\xff\xff" + array("H", [int(x) for x in values]).tobytes()

    def counters(self) -> dict[str, int]:
        k = self.steps
        return dict(zip(k.COUNTERS, self._row(k.O_STATS, len(k.COUNTERS))))

    def scores(self) -> list[int]:
        """How far each player is in the race: their victory points."""
        return self.tokens

    # --- actions as the kernel's numbers ----------------------------------------------------------

    def _cards(self, part: int) -> tuple[int, ...]:
        """The counts per card type at ``part`` as a sorted tuple of card indices."""
        return tuple(i for i, n in enumerate(self._row(part, self._types)) for _ in range(n))

    def _counts(self, cards) -> list[int] | None:
        """A tuple of card indices as counts per card type, or None when it is not one."""
        types = self._types
        if not isinstance(cards, (tuple, list)) or not all(_is_card(c, types) for c in cards):
            return None
        counts = [0] * types
        for c in cards:
            counts[c] += 1
        return counts

    def _decided(self) -> Decided:
        """The action at ``O_A``.. as a ``Decided``."""
        k, g, s, types = self.steps, self.g, self.s, self._types
        action = Decided(self._action())
        action.numbers = (*s[g[k.O_A]:g[k.O_A] + 4], *s[g[k.O_GA]:g[k.O_GA] + types], *s[g[k.O_TA]:g[k.O_TA] + types])
        return action

    def _action(self) -> tuple:
        """The action at ``O_A``.. as the tuple of the module's docstring."""
        k = self.steps
        verb, card, seat, slot = self._row(k.O_A, 4)
        if verb == k.A_PASS:
            return ("pass",)
        if verb == k.A_DISCARD:
            return ("discard", self._cards(k.O_GA))
        if verb == k.A_BUILD:
            return ("build", card, None if slot < 0 else slot)
        if verb == k.A_EXCHANGE:
            action = ("special", card, seat, self._cards(k.O_GA))
            return (*action, self._cards(k.O_TA)) if "exchange-face-up" in self.game.variants else action
        if verb == k.A_GENERAL:
            return ("special", card)
        if verb == k.A_FLOOD:
            return ("special", card, seat, slot)
        return ("ruins", None if card < 0 else card, seat, None if slot < 0 else slot)

    def _encode(self, action) -> bool:
        """Write ``action`` at ``O_A``.. (its cards at ``O_GA``, ``O_TA``); False when it is no action's shape."""
        k, types, players = self.steps, self._types, self.game.players
        if not isinstance(action, tuple) or not action:
            return False
        verb, size = action[0], len(action)
        none = int(k.NONE)
        cards = take = [0] * types
        if verb == "pass" and size == 1:
            numbers = (k.A_PASS, none, none, none)
        elif verb == "discard" and size == 2:
            cards = self._counts(action[1])
            numbers = (k.A_DISCARD, none, none, none)
        elif verb == "build" and size == 3 and _is_card(action[1], types) and _is_slot(action[2]):
            numbers = (k.A_BUILD, action[1], none, none if action[2] is None else action[2])
        elif verb == "special" and size >= 2 and _is_card(action[1], types):
            kind = self.game.kinds[action[1]]
            if kind == "exchange" and size == (5 if "exchange-face-up" in self.game.variants else 4) \
                    and _is_seat(action[2], players):
                cards = self._counts(action[3])
                take = self._counts(action[4]) if size == 5 else take
                numbers = (k.A_EXCHANGE, action[1], action[2], none)
            elif kind == "general-exchange" and size == 2:
                numbers = (k.A_GENERAL, action[1], none, none)
            elif kind == "flood" and size == 4 and _is_seat(action[2], players) and _is_slot(action[3]) \
                    and action[3] is not None:
                numbers = (k.A_FLOOD, action[1], action[2], action[3])
            else:
                return False
        elif verb == "ruins" and size == 4 and (action[1] is None or _is_card(action[1], types)) \
                and _is_seat(action[2], players) and _is_slot(action[3]):
            numbers = (k.A_RUINS, none if action[1] is None else action[1], action[2],
                       none if action[3] is None else action[3])
        else:
            return False
        if cards is None or take is None:
            return False
        self._write(k.O_A, numbers)
        self._write(k.O_GA, cards)
        self._write(k.O_TA, take)
        return True

    # --- the fields, read from ``s`` and written into it -------------------------------------------

    @property
    def pile(self) -> list[int]:
        return self._row(self.steps.O_PILE, self._types)

    @pile.setter
    def pile(self, counts) -> None:
        self._write(self.steps.O_PILE, counts)
        self.s[self.steps.S_DIRTY] = 1

    @property
    def discard(self) -> list[int]:
        return self._row(self.steps.O_DISC, self._types)

    @discard.setter
    def discard(self, counts) -> None:
        self._write(self.steps.O_DISC, counts)

    @property
    def hands(self) -> list[list[int]]:
        types = self._types
        return [self._row(self.steps.O_HANDS, types, p * types) for p in range(self.game.players)]

    @hands.setter
    def hands(self, hands) -> None:
        k, types = self.steps, self._types
        for p, hand in enumerate(hands):
            self._write(k.O_HANDS, hand, p * types)
            self.s[self.g[k.O_HSUM] + p] = int(sum(hand))

    @property
    def palaces(self) -> list[list[tuple]]:
        k, g, s = self.steps, self.g, self.s
        slots, floors = int(g[k.G_SLOTS]), int(g[k.G_FLOORS])
        table = []
        for p in range(self.game.players):
            pals = []
            for j in range(int(s[g[k.O_NPAL] + p])):
                i = p * slots + j
                on = self._row(k.O_PFL, int(s[g[k.O_PN] + i]), i * floors)
                pals.append((int(s[g[k.O_PF] + i]), tuple(on), int(s[g[k.O_PR] + i])))
            table.append(pals)
        return table

    @palaces.setter
    def palaces(self, table) -> None:
        """Each player's palaces, written in their sorted order (the slot numbers the rules use)."""
        k, g, s = self.steps, self.g, self.s
        slots, floors = int(g[k.G_SLOTS]), int(g[k.G_FLOORS])
        for p, pals in enumerate(table):
            pals = sorted((foundation, tuple(sorted(on)), ruins) for foundation, on, ruins in pals)
            if len(pals) > slots or any(len(on) > floors for _, on, _ in pals):
                raise ValueError(f"player {p}'s palaces do not fit this game: {pals!r}")
            for j, (foundation, on, ruins) in enumerate(pals):
                i = p * slots + j
                s[g[k.O_PF] + i], s[g[k.O_PR] + i], s[g[k.O_PN] + i] = foundation, ruins, len(on)
                self._write(k.O_PFL, on, i * floors)
            s[g[k.O_NPAL] + p] = len(pals)

    @property
    def site(self) -> list[int]:
        """The ruins card lying on each player's empty building place (``NO_RUINS``: none)."""
        return self._row(self.steps.O_SITE, self.game.players)

    @site.setter
    def site(self, cards) -> None:
        self._write(self.steps.O_SITE, cards)

    @property
    def tokens(self) -> list[int]:
        return self._row(self.steps.O_TOKENS, self.game.players)

    @tokens.setter
    def tokens(self, tokens) -> None:
        self._write(self.steps.O_TOKENS, tokens)

    @property
    def phase(self) -> str:
        """deal | turn | give | steal | refill | over"""
        return _PHASES[self.s[self.steps.S_PHASE]]

    @phase.setter
    def phase(self, name: str) -> None:
        self.s[self.steps.S_PHASE] = _PHASES.index(name)

    @property
    def giving(self) -> tuple[tuple[int, ...], ...]:
        """The sets of cards set aside so far in a general exchange, each a sorted tuple."""
        k, types = self.steps, self._types
        return tuple(tuple(i for i, n in enumerate(self._row(k.O_GIVING, types, j * types)) for _ in range(n))
                     for j in range(self._scalar(k.S_GIVEN)))

    @giving.setter
    def giving(self, sets) -> None:
        k, types = self.steps, self._types
        rows = [self._counts(cards) for cards in sets]
        if any(row is None for row in rows) or len(rows) > self.game.players:
            raise ValueError(f"not sets of cards set aside: {sets!r}")
        rows += [[0] * types] * (self.game.players - len(rows))
        for j, row in enumerate(rows):
            self._write(k.O_GIVING, row, j * types)
        self.s[k.S_GIVEN] = len(sets)

    @property
    def handing(self) -> tuple[int, ...]:
        """The cards the actor gives in a blind exchange, sorted."""
        return self._cards(self.steps.O_HANDING)

    @handing.setter
    def handing(self, cards) -> None:
        counts = self._counts(cards)
        if counts is None:
            raise ValueError(f"not cards: {cards!r}")
        self._write(self.steps.O_HANDING, counts)

    @property
    def winner(self) -> int | None:
        winner = self._scalar(self.steps.S_WINNER)
        return None if winner < 0 else winner

    @winner.setter
    def winner(self, seat: int | None) -> None:
        self.s[self.steps.S_WINNER] = -1 if seat is None else seat

    @property
    def stalled(self) -> bool:
        """The game can no longer end."""
        return bool(self.s[self.steps.S_STALLED])

    @stalled.setter
    def stalled(self, value: bool) -> None:
        self.s[self.steps.S_STALLED] = int(value)

    def can_build(self, p: int, card: int, slot: int) -> bool:
        """May player ``p`` put floor, tower or roof ``card`` on their palace ``slot`` now?"""
        return _is_slot(slot) and slot is not None and bool(self.steps.can_build(self.g, self.s, p, card, slot))


def _scalar_field(name: str, doc: str) -> property:
    """A field that is one of the kernel's scalars ``S_<NAME>``, read and written as an int."""
    index = f"S_{name.upper()}"

    def read(state) -> int:
        return int(state.s[getattr(state.steps, index)])

    def write(state, value: int) -> None:
        state.s[getattr(state.steps, index)] = int(value)

    return property(read, write, doc=doc)


for _name, _doc in (("player", "Whose turn it is."), ("turns", "Turns started so far, this one included."),
                    ("drawer", "Who the current chance draw is for (deal and refill)."),
                    ("draw_to", "The hand size the current deal or refill fills up to."),
                    ("giver", "Who chooses next in a general exchange."),
                    ("victim", "Whose hand a blind exchange takes from."),
                    ("steal_left", "Cards a blind exchange still takes."),
                    ("passes", "Turns in a row in which nobody could act.")):
    setattr(PalacesState, _name, _scalar_field(_name, _doc))


def _is_card(card, types: int) -> bool:
    return type(card) is int and 0 <= card < types


def _is_seat(seat, players: int) -> bool:
    return type(seat) is int and 0 <= seat < players


def _is_slot(slot) -> bool:
    return slot is None or (type(slot) is int and slot >= 0)
