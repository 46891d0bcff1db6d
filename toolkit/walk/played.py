"""The seats of a game as a walk plays them: a seat whose player decides at random is a chance point
(``Played``), one whose player decides by the state alone decides during the walk (``Decider``).

A player who decides at random (``Policy.deterministic`` false: ``random``, uniform over the legal
actions) is a chance point of the chain, its choices weighted as ``Policy.distribution`` says; a
finished game is an end of its own, keyed by its returns (``returns_of``), so draws and shared ends
are told apart from a game that never ends.
"""

from __future__ import annotations

from toolkit.game.contract import CHANCE


class Played:
    """A rules state in which the seats whose players decide at random are chance points.

    ``seats[s]`` is the policy of seat ``s``: deterministic ones decide (``act``), the others' choices
    (``distribution``) are chance outcomes; ``chance_seats`` lists the seats turned into chance (for
    the walk with decisions kept: every seat but those it keeps, whatever their players); ``met`` notes that a seat was
    to decide."""

    __slots__ = ("state", "seats", "chance_seats", "met")

    def __init__(self, state, seats, chance_seats: frozenset[int], met: Met):
        self.state, self.seats, self.chance_seats, self.met = state, seats, chance_seats, met

    def current_player(self) -> int:
        who = self.state.current_player()
        return CHANCE if who in self.chance_seats else who

    def chance_outcomes(self):
        who = self.state.current_player()
        if who >= 0:
            self.met.decisions = True
            return [(action, weight) for action, weight in self.seats[who].distribution(self.state) if weight]
        return self.state.chance_outcomes()

    def legal_actions(self):
        return self.state.legal_actions()

    def apply_action(self, action) -> None:
        self.state.apply_action(action)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self):
        return self.state.returns()

    def clone(self) -> Played:
        return Played(self.state.clone(), self.seats, self.chance_seats, self.met)

    def key(self, *ignored):
        return self.state.key()

    @property
    def turns(self) -> int:
        return self.state.turns

    @property
    def winner(self):
        return self.state.winner


class Met:
    """What a walk met: ``decisions``, whether a seat was ever to decide (a game of chance alone has none)."""

    def __init__(self):
        self.decisions = False


class Decider:
    """A deterministic player as the walk asks it: ``act`` on the walk's state (the rules state, or
    the one inside ``Played``), noting in ``met`` that a seat decided."""

    deterministic = True
    decides_slowly = True  # a file's player is its own Python: the walk plays a decision point's play once

    def __init__(self, policy, played: bool, met: Met):
        self.policy = policy

        def act(state):
            met.decisions = True
            return policy.act(state.state if played else state)
        self.act = act


def start_of(game, seats, met: Met, chance_seats=None):
    """The start of ``game`` with ``seats`` playing (a ``Played`` state; the rules state itself when no seat
    is a chance point, which saves a call per step)."""
    if chance_seats is None:
        chance_seats = frozenset(s for s, policy in enumerate(seats) if not getattr(policy, "deterministic", False))
    if not chance_seats:
        return game.new_initial_state()
    return Played(game.new_initial_state(), seats, frozenset(chance_seats), met)


def deciders(seats, start, met: Met) -> list:
    played = isinstance(start, Played)
    return [Decider(policy, played, met) for policy in seats]


def returns_of(state) -> tuple:
    return tuple(state.returns())
