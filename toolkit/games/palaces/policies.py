"""How a Palaces player decides: what to do on a turn, which cards to give away.

A player's policy is two rules, one per decision, each chosen by name; ``parse("aggressive,give-random")``
replaces the named parts of the default (``builder,give-worst``).

* the turn (``play``): ``builder`` (the default: see ``Builder``), ``no-attack`` (never floods or
  lays ruins), ``aggressive`` (attacks any opponent's palace of 2 or more cards before building),
  ``random`` or ``random-S`` (a uniformly random legal action drawn from a stream seeded by S,
  default 0; its give rule is ``give-random`` with the same seed unless one is named);
* the cards given away in an exchange or a general exchange (``give``): ``give-worst`` (the cards
  least useful to the giver) or ``give-random`` / ``give-random-S``.

The rules here are names and numbers; the decisions themselves are the kernel's steps
(``toolkit.games.palaces.kernel``: ``builder`` with ``card_values``, ``play_random``, ``give_choice``
and ``choose_cards``), which the simulation, the exact walks and ``act`` all play: a policy becomes one
row of integers (``row``), and ``act`` asks the state to play the kernel's decision on it
(``PalacesState.choose``). The readable players these were written from are
``tests/oracles/palaces_policies.py``.

A seeded rule draws from a stream of its own per seat (``toolkit.sim.card_order``'s numbers), restarted
at every game by ``PalacesPolicy.start_game(game_seed, seat)`` (the turn rule from ``rule_seed(game_seed,
S, seat, 1)``, the give rule from ``rule_seed(game_seed, S, seat, 2)``): a game then depends on its seed
alone, not on the games played before it, and the compiled kernel draws the same numbers. Before any
``start_game`` a seat's stream is the one of game seed 0.

This module is also the kernel's door for the simulation (``Game.kernel()``): ``supports`` says
which seats the kernel plays, ``batch`` plays games there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from toolkit.errors import UserError
from toolkit.games.palaces.engine import KINDS, PalacesGame, _encode_game
from toolkit.sim.card_order import MASK, rule_seed
from toolkit.sim.policy import other_game

# a seat's row of the policy table (``kernel.P_PLAY`` ..): play (0 builder, 1 random), attacks, eager,
# give (0 worst, 1 random)
COLUMNS = 4


# --- what to give away ------------------------------------------------------------------------------

@dataclass(frozen=True)
class GiveWorst:
    """Give away the cards least useful to oneself; take (face up) the most useful."""

    name = "give-worst"


@dataclass
class _Seeded:
    """A rule that draws its choices from a stream of its own per seat; named ``base`` or ``base-seed``.

    ``which`` tells the two decisions of one seat apart (1: the turn, 2: the cards given), so a random
    player's two rules never share numbers. ``streams``: per seat, the stream's state (a 64-bit number).
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
        self.streams[seat] = rule_seed(game_seed, self.seed, seat, self.which)

    def stream(self, seat: int) -> int:
        if seat not in self.streams:
            self.start_game(0, seat)
        return self.streams[seat]


@dataclass
class GiveRandom(_Seeded):
    """Give away (and take, face up) uniformly random cards: the first places of a Fisher-Yates shuffle
    of the held cards laid out by type."""

    base = "give-random"
    which = 2


# --- the turn ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Builder:
    """Finish a palace whenever possible; then attack the leader's biggest palace when it hurts them
    (``attacks``; ``eager``: any opponent's palace of 2 or more cards, before building); extend the
    palace closest to completion, start new ones; use an exchange when nothing can be built; flood a
    ruined palace when ruins block oneself; otherwise play a general exchange if the cards it passes
    on can all be dead ones, or else discard the dead cards and spare copies of special cards (or, if
    none, the worst card). The kernel's ``builder``."""

    name: str = "builder"
    attacks: bool = True
    eager: bool = False


@dataclass
class RandomPlay(_Seeded):
    """A uniformly random legal action, in the order of ``state.legal_actions()`` (the kernel's ``play_random``)."""

    base = "random"
    which = 1


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

    def row(self) -> tuple | None:
        """This player as one row of the kernel's policy table, or None when some rule is not one the kernel plays."""
        play, give = self.play, self.give
        if type(play) not in (Builder, RandomPlay) or type(give) not in (GiveWorst, GiveRandom):
            return None
        if type(play) is RandomPlay:
            return (1, 0, 0, int(type(give) is GiveRandom))
        return (0, int(play.attacks), int(play.eager), int(type(give) is GiveRandom))

    def start_game(self, game_seed: int, seat: int) -> None:
        """A new game: restart the streams of the seeded rules for this seat."""
        for rule in (self.play, self.give):
            if isinstance(rule, _Seeded):
                rule.start_game(game_seed, seat)

    def act(self, state, rng=None) -> tuple:
        """The action this player takes at ``state`` (a ``PalacesState`` at a decision): the kernel's decision
        on the state, drawing from this seat's streams (not from ``rng``, the contract's generator)."""
        row = self.row()
        if row is None:
            raise ValueError(f"no Palaces player plays the rules {self.name}")
        if state.phase not in ("turn", "give"):
            raise ValueError(f"no decision to take in phase {state.phase}")
        seat = state.player if state.phase == "turn" else state.giver
        seeded = [rule if isinstance(rule, _Seeded) else None for rule in (self.play, self.give)]
        streams = [0 if rule is None else rule.stream(seat) for rule in seeded]
        action = state.choose(row, streams)
        for rule, number in zip(seeded, streams):
            if rule is not None:
                rule.streams[seat] = number
        return action

    def distribution(self, state) -> list[tuple[tuple, int]]:
        """What this player does at ``state``, as the contract's players say it: one action (a seeded rule's
        choice comes from its own streams, which the walk treats as the player's, as the simulation does)."""
        return [(self.act(state), 1)]


# --- the seats as the kernel plays them -------------------------------------------------------------

def supports(game, policies) -> bool:
    """True for any Palaces game whose seats all play rules the kernel plays."""
    if type(game) is not PalacesGame or len(policies) != game.players:
        return False
    if any(type(policy) is not PalacesPolicy or policy.row() is None for policy in policies):
        return False
    return all(kind in KINDS for kind in game.kinds)


def _encode_policies(policies):
    """(the policy table, one row per seat; the seats' seeds: the turn rule's, the give rule's)."""
    import numpy as np

    pol = np.array([policy.row() for policy in policies], dtype=np.int64).reshape(len(policies), COLUMNS)
    seeds = np.zeros((len(policies), 2), dtype=np.uint64)
    for p, policy in enumerate(policies):
        for k, rule in enumerate((policy.play, policy.give)):
            if isinstance(rule, _Seeded):
                seeds[p, k] = rule.seed & MASK
    return pol, seeds


def batch(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000):
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``, played by the compiled kernel: one
    int64 array per record field, as ``toolkit.sim.play.engine_batch`` gives them."""
    from toolkit.games.palaces import kernel

    if not supports(game, policies):
        raise ValueError("the Palaces kernel does not play this game or these policies")
    return kernel.batch(_encode_game(game), *_encode_policies(policies), run_seed, start, count, max_turns)


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
