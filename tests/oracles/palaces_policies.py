"""How a Palaces player decides: what to do on a turn, which cards to give away.

A player's policy is two rules, one per decision, each chosen by name; ``parse("aggressive,give-random")``
replaces the named parts of the default (``builder,give-worst``).

* the turn (``play``): ``builder`` (the default: see ``Builder``), ``no-attack`` (never floods or
  lays ruins), ``aggressive`` (attacks any opponent's palace of 2 or more cards before building),
  ``random`` or ``random-S`` (a uniformly random legal action drawn from a stream seeded by S,
  default 0; its give rule is ``give-random`` with the same seed unless one is named);
* the cards given away in an exchange or a general exchange (``give``): ``give-worst`` (the cards
  least useful to the giver) or ``give-random`` / ``give-random-S``.

The rules judge a card by ``card_values``: how soon it can help the holder finish a palace.

A seeded rule draws from a ``CardOrder`` stream of its own per seat, restarted at every game by
``PalacesPolicy.start_game(game_seed, seat)`` (the turn rule from ``rule_seed(game_seed, S, seat, 1)``,
the give rule from ``rule_seed(game_seed, S, seat, 2)``): a game then depends on its seed alone, not on
the games played before it, and the compiled kernel (``toolkit.games.palaces.kernel``) draws the same
numbers. Before any ``start_game`` a seat's stream is the one of game seed 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from toolkit.errors import UserError
from oracles.palaces_engine import NO_RUINS
from toolkit.sim.card_order import CardOrder, rule_seed
from toolkit.sim.policy import other_game

DEAD = 1.5  # a card valued at most this is not worth keeping
SPECIAL = ("ruins", "flood", "exchange", "general-exchange")  # one copy of each is worth keeping


# --- judging cards ----------------------------------------------------------------------------------

def card_values(state, p: int, attacks: bool = True) -> list[float]:
    """A value per card type for player ``p``: high for cards that soon help finish a palace."""
    game = state.game
    kinds, colours = game.kinds, game.colours
    hand = state.hands[p]
    pals = state.palaces[p]
    open_pals = [pal for pal in pals if pal[2] == NO_RUINS]
    building = {colours[pal[0]] for pal in open_pals}
    floored = {colours[pal[0]] for pal in open_pals if pal[1]}
    in_hand = {colours[i] for i, n in enumerate(hand) if n and kinds[i] == "foundation"}
    free = len(pals) < game.max_palaces and state.site[p] == NO_RUINS
    ruined = state.site[p] != NO_RUINS or any(pal[2] != NO_RUINS for pal in pals)
    targets = any(state.palaces[t] for t in state.opponents(p)) if attacks else False
    one_per_colour = "one-per-colour" in game.variants
    started = {colours[pal[0]] for pal in pals} if one_per_colour else ()
    backing: dict[str | None, int] = {}  # the hand's floors and roofs per colour
    for i, n in enumerate(hand):
        if n and kinds[i] in ("floor", "roof"):
            backing[colours[i]] = backing.get(colours[i], 0) + n
    others = game.players > 1
    values = []
    for i, kind in enumerate(kinds):
        colour = colours[i]
        if kind == "roof":
            v = 10 if colour in floored else 6 if colour in building else 3 if colour in in_hand else 1
        elif kind == "floor":
            v = 7 if colour in building else 3 if colour in in_hand else 1
        elif kind == "tower":
            v = 8 if open_pals else 3
        elif kind == "foundation":
            usable = free and colour in game.completable and colour not in started
            v = 5 + backing.get(colour, 0) if usable else 1
        elif kind == "ruins":
            v = 6 if ruined else 4 if attacks and others else 1
        elif kind == "flood":
            v = (5 if targets else 3) if attacks and others else 0.5
        elif kind == "exchange":
            v = 2 if others else 0.5
        else:  # general exchange
            v = 1
        values.append(v)
    return values


def _worst(hand: list[int], values: list[float], n: int) -> tuple[int, ...]:
    """The ``n`` least valuable cards of ``hand`` (ties: the lower index), as a sorted tuple."""
    cards = sorted((i for i, k in enumerate(hand) for _ in range(k)), key=lambda i: (values[i], i))
    return tuple(sorted(cards[:n]))


def _best(hand: list[int], values: list[float], n: int) -> tuple[int, ...]:
    cards = sorted((i for i, k in enumerate(hand) for _ in range(k)), key=lambda i: (-values[i], i))
    return tuple(sorted(cards[:n]))


# --- what to give away ------------------------------------------------------------------------------

class GiveWorst:
    """Give away the cards least useful to oneself; take (face up) the most useful."""

    name = "give-worst"

    def give(self, state, p: int, hand: list[int], n: int, values: list[float] | None = None) -> tuple[int, ...]:
        return _worst(hand, values or card_values(state, p), n)

    def take(self, state, p: int, hand: list[int], n: int, values: list[float] | None = None) -> tuple[int, ...]:
        return _best(hand, values or card_values(state, p), n)


@dataclass
class _Seeded:
    """A rule that draws its choices from a stream of its own per seat; named ``base`` or ``base-seed``.

    ``which`` tells the two decisions of one seat apart (1: the turn, 2: the cards given), so a random
    player's two rules never share numbers.
    """

    seed: int = 0
    streams: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    base = ""
    which = 0

    @property
    def name(self) -> str:
        return self.base if self.seed == 0 else f"{self.base}-{self.seed}"

    def start_game(self, game_seed: int, seat: int) -> None:
        """Restart seat ``seat``'s stream for the game of seed ``game_seed``."""
        self.streams[seat] = CardOrder(rule_seed(game_seed, self.seed, seat, self.which))

    def stream(self, seat: int) -> CardOrder:
        if seat not in self.streams:
            self.start_game(0, seat)
        return self.streams[seat]


@dataclass
class GiveRandom(_Seeded):
    """Give away (and take, face up) uniformly random cards."""

    base = "give-random"
    which = 2

    def give(self, state, p: int, hand: list[int], n: int, values=None) -> tuple[int, ...]:
        """``n`` cards of ``hand`` laid out by type: a Fisher-Yates shuffle of the first ``n`` places."""
        cards = [i for i, k in enumerate(hand) for _ in range(k)]
        stream = self.stream(p)
        for k in range(n):
            j = k + stream.below(len(cards) - k)
            cards[k], cards[j] = cards[j], cards[k]
        return tuple(sorted(cards[:n]))

    take = give


# --- the turn ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Builder:
    """Finish a palace whenever possible; then attack the leader's biggest palace when it hurts them
    (``attacks``; ``eager``: any opponent's palace of 2 or more cards, before building); extend the
    palace closest to completion, start new ones; use an exchange when nothing can be built; flood a
    ruined palace when ruins block oneself; otherwise play a general exchange if the cards it passes
    on can all be dead ones, or else discard the dead cards and spare copies of special cards (or, if
    none, the worst card)."""

    name: str = "builder"
    attacks: bool = True
    eager: bool = False

    def choose(self, state, give) -> tuple:
        p, game = state.player, state.game
        hand = state.hands[p]
        if not any(hand):
            return ("pass",)
        kinds, colours = game.kinds, game.colours
        pals = state.palaces[p]
        held = [i for i, n in enumerate(hand) if n]
        completion = self._completion(state, p, held)
        if completion:
            return completion[1]
        if self.attacks:
            attack = self._attack(state, p, held)
            if attack:
                return attack
        # clear ruins from one's own palaces (the biggest first) or building place
        if "ruins-card-to-clear" in game.variants:
            ruins = [i for i in held if kinds[i] == "ruins"]
            card = ruins[0] if ruins else False
        else:
            card = None  # clearing takes no card
        if card is not False:
            ruined = [(state.palace_size(pal), s) for s, pal in enumerate(pals) if pal[2] != NO_RUINS]
            if ruined:
                return ("ruins", card, p, max(ruined)[1])
            if state.site[p] != NO_RUINS and len(pals) < game.max_palaces:
                return ("ruins", card, p, None)
        # extend the palace closest to completion: one whose roof is in hand, then the tallest
        roofs = {colours[i] for i in held if kinds[i] == "roof"}
        best = None
        for s, pal in enumerate(pals):
            if pal[2] != NO_RUINS:
                continue
            colour = colours[pal[0]]
            for i in held:
                if kinds[i] == "floor" and colours[i] == colour or kinds[i] == "tower":
                    rank = (colour in roofs, len(pal[1]), kinds[i] == "floor", -i, -s)
                    if best is None or rank > best[0]:
                        best = (rank, ("build", i, s))
        if best:
            return best[1]
        values = card_values(state, p, self.attacks)
        # start a palace, in the colour best backed by the hand
        foundations = [i for i in held if kinds[i] == "foundation" and state.can_found(p, i)
                       and colours[i] in game.completable]
        if foundations:
            return ("build", max(foundations, key=lambda i: (values[i], -i)), None)
        # an exchange with the leader, giving the worst cards
        for i in held:
            if kinds[i] != "exchange":
                continue
            targets = [t for t in state.opponents(p) if state.exchange_size(p, i, t)]
            if targets:
                target = max(targets, key=lambda t: (state.tokens[t], _progress(state, t), -((t - p) % game.players)))
                n = state.exchange_size(p, i, target)
                rest = hand[:]
                rest[i] -= 1
                action = ("special", i, target, give.give(state, p, rest, n, values))
                if "exchange-face-up" in game.variants:
                    action += (give.take(state, p, state.hands[target], n, values),)
                return action
        if self.attacks:
            unblock = self._unblock(state, p, held)
            if unblock:
                return unblock
        # discard the dead cards and the spare copies of special cards
        dead = tuple(i for i in held for k in range(hand[i])
                     if values[i] <= DEAD or k and kinds[i] in SPECIAL)
        swap = self._general_exchange(state, p, held, dead)
        if swap:
            return swap
        return ("discard", dead or _worst(hand, values, 1))

    @staticmethod
    def _general_exchange(state, p, held, dead):
        """Instead of a discard: a general exchange, when the hand holds at least as many dead cards
        (besides general exchanges) as it passes on, so no card it wants need go.

        The dead cards given away come back as the previous player's cast-offs, often of a colour that
        player does not build and this one may; measured on default games this shortens them a little
        (2 players: 54.7 -> 53.8 turns, 4 players: 117.6 -> 110.9) and leaves the builder's results
        against itself and against random play as they were."""
        game = state.game
        if game.players < 2:
            return None
        kinds = game.kinds
        for i in held:
            if kinds[i] == "general-exchange":
                n = min(game.exchange_cards, sum(state.hands[p]) - 1)
                others = sum(kinds[c] != "general-exchange" for c in dead)
                if n and others >= n:
                    return ("special", i)
                return None
        return None

    @staticmethod
    def _unblock(state, p, held):
        """With ``ruins-card-to-clear``, blocked by ruins and no ruins card in hand (no foundation can be
        laid, no palace can grow): flood an opponent's ruined palace, so its ruins card comes back into play."""
        game = state.game
        kinds = game.kinds
        if "ruins-card-to-clear" not in game.variants or any(kinds[i] == "ruins" for i in held):
            return None  # the player can clear the ruins themselves
        pals = state.palaces[p]
        can_found = state.site[p] == NO_RUINS and len(pals) < game.max_palaces
        if can_found or any(pal[2] == NO_RUINS for pal in pals):
            return None
        floods = [i for i in held if kinds[i] == "flood"]
        ruined = [(state.palace_size(pal), -((t - p) % game.players), t, s)
                  for t in state.opponents(p) for s, pal in enumerate(state.palaces[t]) if pal[2] != NO_RUINS]
        if floods and ruined:
            _, _, t, s = max(ruined)
            return ("special", floods[0], t, s)
        return None

    @staticmethod
    def _completion(state, p, held):
        """(tokens, action) for the biggest palace a roof in hand completes, or None."""
        kinds = state.game.kinds
        best = None
        for i in held:
            if kinds[i] != "roof":
                continue
            for s, pal in enumerate(state.palaces[p]):
                if state.can_build(p, i, s):
                    score = state.palace_size(pal) + 1
                    if best is None or score > best[0]:
                        best = (score, ("build", i, s))
        return best

    def _attack(self, state, p, held):
        """Flood (or lay ruins on) the leader's biggest open palace when it hurts them: it is big (3 or
        more cards) or its roof would win. ``eager``: any opponent's open palace of 2 or more cards,
        the biggest first, or else ruins on the leader's empty building place."""
        game = state.game
        kinds = game.kinds
        floods = [i for i in held if kinds[i] == "flood"]
        ruins = [i for i in held if kinds[i] == "ruins"]
        if not floods and not ruins:
            return None
        opponents = state.opponents(p)

        def threat(t):  # tokens plus the biggest open palace: how close t is to winning
            return state.tokens[t] + max((state.palace_size(pal) for pal in state.palaces[t] if pal[2] == NO_RUINS),
                                         default=0)

        leader = max(opponents, key=lambda t: (threat(t), -((t - p) % game.players)), default=None)
        best = None
        for t in opponents:
            for s, pal in enumerate(state.palaces[t]):
                if pal[2] != NO_RUINS:
                    continue
                size = state.palace_size(pal)
                wins = state.tokens[t] + size + 1 >= game.to_win
                if not (wins or (size >= 2 if self.eager else t == leader and size >= 3)):
                    continue
                rank = (wins, state.tokens[t] + size, size, -((t - p) % game.players), -s)
                if best is None or rank > best[0]:
                    best = (rank, t, s)
        if best:
            _, t, s = best
            return ("special", floods[0], t, s) if floods else ("ruins", ruins[0], t, s)
        if self.eager and ruins and leader is not None and state.site[leader] == NO_RUINS \
                and len(state.palaces[leader]) < game.max_palaces:
            return ("ruins", ruins[0], leader, None)  # block the leader's next foundation
        return None


def _progress(state, t: int) -> int:
    return sum(state.palace_size(pal) for pal in state.palaces[t])


@dataclass
class RandomPlay(_Seeded):
    """A uniformly random legal action, in the order of ``state.legal_actions()``."""

    base = "random"
    which = 1

    def choose(self, state, give) -> tuple:
        actions = state.legal_actions()
        return actions[self.stream(state.player).below(len(actions))]


BUILDER = Builder()
NO_ATTACK = Builder("no-attack", attacks=False)
AGGRESSIVE = Builder("aggressive", attacks=True, eager=True)


# --- a whole player ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class PalacesPolicy:
    play: object = BUILDER
    give: object = GiveWorst()

    @property
    def name(self) -> str:
        return f"{self.play.name},{self.give.name}"

    @property
    def deterministic(self) -> bool:
        """True when the same state always gets the same decision (what an exact chain needs)."""
        return not isinstance(self.play, _Seeded) and not isinstance(self.give, _Seeded)

    # a turn's decision weighs every card (``card_values``) and every palace: many times the cost of
    # keying the state, so the exact walk plays it once per decision point (``walker.build``)
    decides_slowly = True

    def start_game(self, game_seed: int, seat: int) -> None:
        """A new game: restart the streams of the seeded rules for this seat."""
        for rule in (self.play, self.give):
            if isinstance(rule, _Seeded):
                rule.start_game(game_seed, seat)

    def act(self, state, rng=None) -> tuple:
        if state.phase == "turn":
            return self.play.choose(state, self.give)
        if state.phase == "give":
            p = state.giver
            hand = state.hands[p]
            return ("give", self.give.give(state, p, hand, min(state.game.exchange_cards, sum(hand))))
        raise ValueError(f"no decision to take in phase {state.phase}")


FIXED = {
    "builder": ("play", lambda: BUILDER),
    "no-attack": ("play", lambda: NO_ATTACK),
    "aggressive": ("play", lambda: AGGRESSIVE),
    "random": ("play", lambda: RandomPlay()),
    "give-worst": ("give", lambda: GiveWorst()),
    "give-random": ("give", lambda: GiveRandom()),
}
NUMBERED = {"random": ("play", RandomPlay), "give-random": ("give", GiveRandom)}
NAMES = (*FIXED, "random-S", "give-random-S")


MAX_SEED = 2**63 - 1


def parse(text: str, option: str | None = None) -> PalacesPolicy:
    """``"default"`` or a comma-separated list of rule names, e.g. ``"aggressive,give-random"``.

    ``option`` is how the user wrote it, for the one-line errors (default ``--policy TEXT``).
    """
    option = option or f"--policy {text}"
    parts: dict[str, object] = {}
    names = [part.strip() for part in text.split(",")]
    if names != ["default"] and "" in names:
        raise UserError(f"{option}: a rule name is empty (write names between commas, e.g. aggressive,give-random)")
    for name in names:
        if name == "default":
            continue
        if name in FIXED:
            decision, make = FIXED[name]
            rule = make()
        else:
            match = re.fullmatch(r"([a-z-]+)-([0-9]+)", name)
            if not match or match.group(1) not in NUMBERED:
                other = other_game("palaces", name)
                what = f"'{name}' is a {other} rule, not a Palaces one" if other else f"unknown Palaces policy '{name}'"
                raise UserError(f"{option}: {what} (choose from {', '.join(NAMES)})")
            decision, factory = NUMBERED[match.group(1)]
            digits = match.group(2)
            if len(digits) > len(str(MAX_SEED)) or int(digits) > MAX_SEED:
                raise UserError(f"{option}: '{name}' needs a seed from 0 to 2**63-1")
            rule = factory(int(digits))
        if decision in parts:
            raise UserError(f"{option}: two rules for the {decision} decision")
        parts[decision] = rule
    if isinstance(parts.get("play"), RandomPlay) and "give" not in parts:
        parts["give"] = GiveRandom(parts["play"].seed)  # a random player is random in every decision
    return PalacesPolicy(**parts)
