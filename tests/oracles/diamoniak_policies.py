"""How a Diamoniak player decides: when to stop drawing, what a witch takes, whether to buy.

The test oracle: the readable players the kernel's ``_choose`` was written from (once
``toolkit/games/diamoniak/policies.py``), kept verbatim; they play ``tests/oracles/diamoniak_engine.py``.

A player's policy is three rules, one per decision, each chosen by name; ``parse("stop-after-3,never-buy")``
replaces the named parts of the default (``until-witch,fairy-first,buy-most``). The draw decision may
join stopping rules of different kinds (``stop-after-3,risk-2``): the player stops when any says stop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.errors import UserError
from toolkit.sim.policy import other_game


# --- when to stop drawing ---------------------------------------------------------------------------

@dataclass(frozen=True)
class UntilWitch:
    """Never stop by choice: draw until a witch ends the turn (the solo model's player)."""

    name = "until-witch"
    ignores = frozenset({"drawn_this_turn", "last_built"})  # state fields this rule never reads

    def wants_more(self, state) -> bool:
        return True


@dataclass(frozen=True)
class StopAfter:
    """Stop once k cards were drawn this turn."""

    k: int
    ignores = frozenset({"last_built"})

    @property
    def name(self) -> str:
        return f"stop-after-{self.k}"

    def wants_more(self, state) -> bool:
        return state.drawn_this_turn < self.k


@dataclass(frozen=True)
class StopAtRisk:
    """Stop when a witch now would take more than h cards (a held fairy means nothing is at risk)."""

    h: int
    ignores = frozenset({"drawn_this_turn", "last_built"})

    @property
    def name(self) -> str:
        return f"risk-{self.h}"

    def wants_more(self, state) -> bool:
        me = state.player
        at_risk = 0 if state.fairies(me) else min(state.game.witch_takes, state.losable(me))
        return at_risk <= self.h


@dataclass(frozen=True)
class StopAtOdds:
    """Stop when the next card is a witch with a chance of p percent or more."""

    p: int
    ignores = frozenset({"drawn_this_turn", "last_built"})

    @property
    def name(self) -> str:
        return f"odds-{self.p}"

    def wants_more(self, state) -> bool:
        witches, cards = state.witch_chance()
        return cards == 0 or 100 * witches < self.p * cards


@dataclass(frozen=True)
class StopOnCastle:
    """Stop right after a castle card of one's own colour."""

    name = "stop-on-castle"
    ignores = frozenset({"drawn_this_turn"})

    def wants_more(self, state) -> bool:
        return not state.last_built


# the kinds of stopping rule a combination may join, in the order its name lists them
_STOP_KINDS = {StopAfter: "stop-after", StopAtRisk: "risk", StopAtOdds: "odds", StopOnCastle: "stop-on-castle"}
_STOP_ORDER = tuple(_STOP_KINDS.values())


def _stop_kind(rule) -> str:
    return _STOP_KINDS.get(type(rule), "until-witch")


@dataclass(frozen=True)
class AnyStop:
    """Several stopping rules at once: stop as soon as any one of them would stop.

    ``parts`` holds at most one rule of each kind, in the order of ``_STOP_ORDER``, so the name
    (``stop-after-3,risk-2``) reads back, through ``parse``, as the same rule.
    """

    parts: tuple

    @property
    def name(self) -> str:
        return ",".join(part.name for part in self.parts)

    @property
    def ignores(self) -> frozenset[str]:
        """A field is left out only if no part reads it."""
        return frozenset.intersection(*(frozenset(getattr(part, "ignores", ())) for part in self.parts))

    def wants_more(self, state) -> bool:
        return all(part.wants_more(state) for part in self.parts)


def _combined(draws: list, option: str):
    """One draw rule from the draw rules a policy names: a single rule as it is, several as an AnyStop."""
    if len(draws) == 1:
        return draws[0]
    kinds = [_stop_kind(rule) for rule in draws]
    if "until-witch" in kinds:
        others = ", ".join(rule.name for rule in draws if _stop_kind(rule) != "until-witch")
        raise UserError(f"{option}: until-witch never stops, so it cannot be combined with other draw rules ({others})")
    for kind in _STOP_ORDER:
        same = [rule.name for rule in draws if _stop_kind(rule) == kind]
        if len(same) > 1:
            raise UserError(f"{option}: two rules for the draw decision of one kind ({', '.join(same)}): a combination "
                            f"takes at most one each of stop-after-K, risk-H, odds-P and stop-on-castle")
    return AnyStop(tuple(sorted(draws, key=lambda rule: _STOP_ORDER.index(_stop_kind(rule)))))


# --- what a witch takes -----------------------------------------------------------------------------

def _loss_by_order(state, order: tuple[str, ...]) -> tuple:
    """Take the witch's cards from the zones in ``order`` ("others", "diamonds", "castle")."""
    game, hand = state.game, state.hands[state.player]
    left = min(game.witch_takes, state.losable(state.player))
    loss = []
    for zone in order:
        if zone == "castle":
            pool = [("castle", i) for i, n in enumerate(hand.castle) if n]
            held = hand.castle
        else:
            wanted = "castle" if zone == "others" else "diamond"
            pool = [("side", i) for i, n in enumerate(hand.side) if n and game.kinds[i] == wanted]
            held = hand.side
        for where, i in sorted(pool, key=lambda p: (-held[p[1]], p[1])):
            n = min(left, held[i])
            if n:
                loss.append((where, i, n))
                left -= n
    return ("lose", tuple(sorted(loss)))


@dataclass(frozen=True)
class WitchOrder:
    """Spend a fairy first if ``fairy`` and one is held; then lose cards zone by zone in ``order``."""

    name: str
    fairy: bool
    order: tuple[str, ...]

    def choose(self, state) -> tuple:
        if self.fairy and state.fairies(state.player):
            return ("fairy",)
        return _loss_by_order(state, self.order)


FAIRY_FIRST = WitchOrder("fairy-first", True, ("others", "diamonds", "castle"))
KEEP_DIAMONDS = WitchOrder("keep-diamonds", True, ("others", "castle", "diamonds"))
SAVE_FAIRY = WitchOrder("save-fairy", False, ("others", "diamonds", "castle"))


# --- whether to buy ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuyFromRichest:
    """Buy whenever possible, from the player holding most cards of one's colour."""

    name = "buy-most"

    def choose(self, state) -> int | None:
        sellers = state.sellers()
        if not sellers:
            return None
        colour = state.hands[state.player].colour
        game = state.game

        def held(p):
            return sum(n for i, n in enumerate(state.hands[p].side) if game.colours[i] == colour)

        return max(sellers, key=lambda p: (held(p), -((p - state.player) % game.players)))


@dataclass(frozen=True)
class NeverBuy:
    """Never buy (only when nothing else is possible: a turn with no card left to draw)."""

    name = "never-buy"

    def choose(self, state) -> int | None:
        return None


# --- a whole player ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class DiamoniakPolicy:
    draw: object = UntilWitch()
    witch: object = FAIRY_FIRST
    buy: object = BuyFromRichest()

    @property
    def name(self) -> str:
        return f"{self.draw.name},{self.witch.name},{self.buy.name}"

    deterministic = True  # every rule decides from the state alone
    # every rule treats two castle colours alike, but for one tie: a witch's loss between equal piles
    # of castle cards of two colours on the player's right goes by card order (``_loss_by_order``);
    # the exact walk may then key a state and its colour-swapped twin as one where no such tie can
    # arise (``DiamoniakGame.colour_swap``)
    colours_alike = True

    @property
    def ignores(self) -> frozenset[str]:
        """The state fields this player never reads, so the exact walk may leave them out of its keys
        (``walker.unread_fields``). Only the draw rules read any (``drawn_this_turn``,
        ``last_built``); a draw rule that does not say reads everything."""
        return getattr(self.draw, "ignores", frozenset())

    def act(self, state, rng=None) -> tuple:
        if state.phase == "turn":
            seller = self.buy.choose(state)
            if seller is not None:
                return ("buy", seller)
            actions = state.legal_actions()
            return ("draw",) if ("draw",) in actions else actions[0]
        if state.phase == "more":
            if self.draw.wants_more(state) and ("draw",) in state.legal_actions():
                return ("draw",)
            return ("stop",)
        if state.phase == "witch":
            return self.witch.choose(state)
        raise ValueError(f"no decision to take in phase {state.phase}")


FIXED = {
    "until-witch": ("draw", UntilWitch()),
    "stop-on-castle": ("draw", StopOnCastle()),
    "fairy-first": ("witch", FAIRY_FIRST),
    "keep-diamonds": ("witch", KEEP_DIAMONDS),
    "save-fairy": ("witch", SAVE_FAIRY),
    "buy-most": ("buy", BuyFromRichest()),
    "never-buy": ("buy", NeverBuy()),
}
# numbered rules: decision, factory, smallest and largest number (a deck holds at most 1,000 cards)
NUMBERED = {"stop-after": ("draw", StopAfter, 1, 1000), "risk": ("draw", StopAtRisk, 0, 1000),
             "odds": ("draw", StopAtOdds, 1, 100)}
NAMES = (*FIXED, "stop-after-K", "risk-H", "odds-P")


def parse(text: str, option: str | None = None) -> DiamoniakPolicy:
    """``"default"`` or a comma-separated list of rule names, e.g. ``"stop-after-2,never-buy"``.

    Several stopping rules of different kinds (``"stop-after-3,risk-2"``) make one draw rule that
    stops as soon as any of them would (``AnyStop``).

    ``option`` is how the user wrote it, for the one-line errors (default ``--policy TEXT``).
    """
    option = option or f"--policy {text}"
    parts: dict[str, object] = {}
    draws: list = []  # several draw rules make one combined rule (AnyStop)
    names = [part.strip() for part in text.split(",")]
    if names != ["default"] and "" in names:
        raise UserError(f"{option}: a rule name is empty (write names between commas, e.g. stop-after-2,never-buy)")
    for name in names:
        if name == "default":
            continue
        if name in FIXED:
            decision, rule = FIXED[name]
        else:
            match = re.fullmatch(r"([a-z-]+)-([0-9]+)", name)
            if not match or match.group(1) not in NUMBERED:
                other = other_game("diamoniak", name)
                what = f"'{name}' is a {other} rule, not a Diamoniak one" if other else f"unknown Diamoniak policy '{name}'"
                raise UserError(f"{option}: {what} (choose from {', '.join(NAMES)})")
            decision, factory, low, high = NUMBERED[match.group(1)]
            digits = match.group(2)
            if len(digits) > len(str(high)) or not low <= int(digits) <= high:
                raise UserError(f"{option}: '{name}' needs a number from {low} to {high}")
            rule = factory(int(digits))
        if decision == "draw":
            draws.append(rule)
            continue
        if decision in parts:
            raise UserError(f"{option}: two rules for the {decision} decision")
        parts[decision] = rule
    if draws:
        parts["draw"] = _combined(draws, option)
    return DiamoniakPolicy(**parts)
