"""How a Diamoniak player decides: when to stop drawing, what a witch takes, whether to buy.

A player's policy is three rules, one per decision, each chosen by name; ``parse("stop-after-3,never-buy")``
replaces the named parts of the default (``until-witch,fairy-first,buy-most``). The draw decision may
join stopping rules of different kinds (``stop-after-3,risk-2``): the player stops when any says stop.

The rules here are names, numbers and what each reads; the decisions themselves are the kernel's step
``_choose`` (``toolkit.games.diamoniak.kernel``), which the simulation, the exact walks and ``act``
all play: a policy becomes one row of integers (``row``), and ``act`` asks ``_choose`` on the state's
arrays. The readable players these were written from are ``tests/oracles/diamoniak_policies.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from toolkit.errors import UserError
from toolkit.sim.policy import other_game

# one row of the policy table per seat (the kernel's ``_choose`` reads it)
# (P_STOPS: the seat has some stopping rule; 0 draws until a witch, and the others are not read)
P_STOP_AFTER, P_RISK, P_ODDS, P_ON_CASTLE, P_FAIRY, P_ZONE0, P_ZONE1, P_ZONE2, P_NEVER_BUY, P_STOPS = range(10)
COLUMNS = 10
# the zones a witch takes cards from, as a row numbers them
OTHERS, DIAMONDS, OWN_CASTLE = 0, 1, 2
ZONES = {"others": OTHERS, "diamonds": DIAMONDS, "castle": OWN_CASTLE}


# --- when to stop drawing ---------------------------------------------------------------------------

@dataclass(frozen=True)
class UntilWitch:
    """Never stop by choice: draw until a witch ends the turn (the solo model's player)."""

    name = "until-witch"
    ignores = frozenset({"drawn_this_turn", "last_built"})  # state fields this rule never reads


@dataclass(frozen=True)
class StopAfter:
    """Stop once k cards were drawn this turn."""

    k: int
    ignores = frozenset({"last_built"})

    @property
    def name(self) -> str:
        return f"stop-after-{self.k}"


@dataclass(frozen=True)
class StopAtRisk:
    """Stop when a witch now would take more than h cards (a held fairy means nothing is at risk)."""

    h: int
    ignores = frozenset({"drawn_this_turn", "last_built"})

    @property
    def name(self) -> str:
        return f"risk-{self.h}"


@dataclass(frozen=True)
class StopAtOdds:
    """Stop when the next card is a witch with a chance of p percent or more."""

    p: int
    ignores = frozenset({"drawn_this_turn", "last_built"})

    @property
    def name(self) -> str:
        return f"odds-{self.p}"


@dataclass(frozen=True)
class StopOnCastle:
    """Stop right after a castle card of one's own colour."""

    name = "stop-on-castle"
    ignores = frozenset({"drawn_this_turn"})


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
        return frozenset.intersection(*(part.ignores for part in self.parts))


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

@dataclass(frozen=True)
class WitchOrder:
    """Spend a fairy first if ``fairy`` and one is held; then lose cards zone by zone in ``order``
    ("others", "diamonds", "castle"), in each zone the card type held most first (ties to card order)."""

    name: str
    fairy: bool
    order: tuple[str, ...]


FAIRY_FIRST = WitchOrder("fairy-first", True, ("others", "diamonds", "castle"))
KEEP_DIAMONDS = WitchOrder("keep-diamonds", True, ("others", "castle", "diamonds"))
SAVE_FAIRY = WitchOrder("save-fairy", False, ("others", "diamonds", "castle"))


# --- whether to buy ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuyFromRichest:
    """Buy whenever possible, from the player holding most cards of one's colour (ties to the nearest
    seat clockwise)."""

    name = "buy-most"


@dataclass(frozen=True)
class NeverBuy:
    """Never buy (only when nothing else is possible: a turn with no card left to draw)."""

    name = "never-buy"


# --- a policy as the kernel's row -------------------------------------------------------------------

def _draw_row(rule, row: list) -> bool:
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
        row[P_STOPS] = 1
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


def _row(draw, witch, buy) -> tuple | None:
    """The three rules as one row of integers (COLUMNS), or None when some rule is not one the kernel plays."""
    row = [0] * COLUMNS
    row[P_RISK] = -1  # no risk rule
    if not _draw_row(draw, row):
        return None
    if type(witch) is not WitchOrder or sorted(witch.order) != sorted(ZONES) or len(witch.order) != 3:
        return None
    row[P_FAIRY] = 1 if witch.fairy else 0
    for slot, zone in enumerate(witch.order):
        row[P_ZONE0 + slot] = ZONES[zone]
    if type(buy) is BuyFromRichest:
        row[P_NEVER_BUY] = 0
    elif type(buy) is NeverBuy:
        row[P_NEVER_BUY] = 1
    else:
        return None
    return tuple(row)


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
        ``last_built``), and each says which it does not."""
        return self.draw.ignores

    @cached_property
    def _rules_row(self) -> tuple | None:
        return _row(self.draw, self.witch, self.buy)

    def row(self) -> tuple | None:
        """This player as one row of the kernel's policy table, or None where the kernel cannot play it for
        certain: a subclass may decide otherwise (the simulation and the compiled walk then play ``act``)."""
        return self._rules_row if type(self) is DiamoniakPolicy else None

    def act(self, state, rng=None) -> tuple:
        """The action this player takes at ``state`` (a ``DiamoniakState`` at a decision): the kernel's
        ``_choose`` on the state's arrays (``rng``, the contract's random generator, is not needed)."""
        row = self._rules_row
        if row is None:
            raise ValueError(f"no Diamoniak player plays the rules {self.name}")
        return state.choose(row)

    def distribution(self, state) -> list[tuple[tuple, int]]:
        """What this player does at ``state``, as the contract's players say it: one action."""
        return [(self.act(state), 1)]


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
