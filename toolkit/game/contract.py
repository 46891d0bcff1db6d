"""The contract of a game: what the toolkit asks of every game it plays, measures and solves. The one
definition: a rules file (docs/rules-files.md), a built-in game and a game of another package are each
an object of these shapes once loaded.

The names and meanings are OpenSpiel's (``pyspiel``), so a game written for OpenSpiel's Python API
needs nothing new. A rules file may leave out the members marked optional below: the guard
(:mod:`toolkit.rules.guard`) gives their defaults, so that the guarded game has them all.

The game
--------
``new_initial_state()``
    A fresh state at the start of a game.
``num_players()``
    The number of seats (1 or more).
``max_game_length()`` (optional in a file)
    The most steps a game may take; a game still going after that many is a mistake of the file, said
    in one line. Default: ``DEFAULT_MAX_STEPS`` steps.
``action_to_string(player, action)`` (optional in a file)
    A name for an action, for people (reports, policy tables). Default: ``str(action)``.
``policies()`` (optional in a file)
    The game's own players: ``{name: function(state) -> action}``, each a function of the state alone
    (the same state, the same action: randomness belongs to chance nodes and the ``random`` player).
    Every game also has ``random`` (every legal action equally likely) and ``first`` (the first legal
    action). Once loaded, ``policies()`` gives each one as a :class:`Player`.
``info()`` (the toolkit's)
    What the game offers, as a :class:`toolkit.game.info.GameInfo`: its player counts, parameters,
    named players, the unit its length is counted in, ... A file does not write it: the guard reads it
    off the file.

A game class's keyword parameters, each with a default, are the game's parameters: ``sweep --grid
goal=20,50,100`` plays the game built as ``Game(goal=20)`` and so on.

The state
---------
``current_player()``
    The seat to decide (0 .. n-1), or ``CHANCE`` (-1) at a chance node, or ``TERMINAL`` (-4) once the
    game is over (``is_terminal()`` decides that first, whatever this says).
``is_chance_node()``
    Whether ``current_player() == CHANCE``.
``chance_outcomes()``
    At a chance node, the outcomes and their probabilities: ``[(outcome, probability), ...]``, each
    probability a ``fractions.Fraction`` (they must sum to 1 exactly) or every one a whole-number
    weight (``[(1, 1), (2, 1), ...]``: each outcome ``weight / total``). A float is refused: it is not
    exact. Outcomes of weight 0 are left out; an outcome given twice is a mistake. (Once guarded: every
    one a positive whole-number weight.)
``legal_actions()``
    The actions of the seat to decide (hashable values, usually whole numbers), at least one, in an
    order of their own (a list, not a set: ``first`` and the seeded random player read the order).
``apply_action(action)``
    Apply a decision or a chance outcome, changing the state in place.
``is_terminal()``
    Whether the game is over.
``returns()``
    At the end, what each seat gets: one number per seat (int, Fraction or float). The winner is the
    one seat with the highest return (no winner on a tie); in a one-player game, a positive return is
    a win.
``clone()`` (optional in a file)
    An independent copy. Default: ``copy.deepcopy`` of the state.
``key()`` (optional in a file)
    A hashable value identifying the state for the exact walk: two states with the same key must play
    on alike. Default: the state's attributes (``__dict__``) frozen recursively (lists and tuples to
    tuples, dicts to sorted tuples of pairs, sets to frozensets, objects to their own attributes);
    a value that cannot be frozen (unhashable) is a mistake said in one line. Write a key when the
    state holds what does not matter for the play ahead (a history, a counter): a smaller key is a
    smaller chain.
``ends_turn(action)`` (optional in a file)
    What a turn is, for the game's length: asked before ``action`` (a decision or a chance outcome) is
    applied, True when applying it ends the current turn. Default: every step is a turn (a step is
    one action or chance outcome applied). The end of the game ends the turn it is in.
``score(player)`` (optional in a file)
    The seat's score while the game goes on: the report counts lead changes (the leader: the one
    seat with the highest score, looked at after every turn). None (the default): the game keeps no
    score.
``events()`` (optional in a file)
    ``{name: count}`` of what happened in the game so far (whole numbers), read at its end: the report
    gives each one's mean per game and the share of games it happened in. Default: ``{}``.
``information_state_string(player)`` (optional; for games of hidden information)
    What ``player`` knows of the state, as a string: states alike to the player give the same string
    (OpenSpiel's meaning: the seat's own cards and every move it saw, in order). Asked at the states
    where ``player`` decides. With it, optimal play is the equilibrium of the game of hidden
    information and each best reply knows only what its seat knows; one string at two states with
    different legal actions, or a different seat to act, is a mistake said in one line. Without it,
    every seat is taken to see the whole state (perfect information), and every answer of optimal play
    says so in its first line.

The player
----------
``name``
    The player's name (``random``, ``first``, ``hold-at-20``...).
``distribution(state)``
    What the player may do: ``[(action, whole-number weight)]``, one pair for a deterministic player,
    so that the exact walk treats a random player as a chance point.
``act(state, rng)``
    What it does: one action, drawn from ``distribution`` with ``rng`` (a ``random.Random``) where it
    has more than one.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import random

    from toolkit.game.info import GameInfo

CHANCE = -1  # current_player() at a chance node (OpenSpiel's pyspiel.PlayerId.CHANCE)
TERMINAL = -4  # current_player() once the game is over (OpenSpiel's pyspiel.PlayerId.TERMINAL)
DEFAULT_MAX_STEPS = 100_000  # the longest game a game without max_game_length() may play

Number = int | Fraction | float  # a return or a score
Weight = int | Fraction  # a chance outcome's whole-number weight or exact probability
Action = Any  # a hashable value, usually a whole number (OpenSpiel's are ints)


@runtime_checkable
class State(Protocol):
    """A position of a game (see the module's text for each member's meaning)."""

    def current_player(self) -> int: ...

    def is_chance_node(self) -> bool: ...

    def chance_outcomes(self) -> Sequence[tuple[Action, Weight]]: ...

    def legal_actions(self) -> Sequence[Action]: ...

    def apply_action(self, action: Action) -> None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> Sequence[Number]: ...

    def clone(self) -> State: ...

    def key(self) -> Hashable: ...

    def ends_turn(self, action: Action) -> bool: ...

    def score(self, player: int) -> Number | None: ...

    def events(self) -> Mapping[str, int]: ...


@runtime_checkable
class InformationState(State, Protocol):
    """A state of a game of hidden information: what each seat knows."""

    def information_state_string(self, player: int) -> str: ...


@runtime_checkable
class Player(Protocol):
    """A player of a game (see the module's text)."""

    name: str

    def distribution(self, state: Any) -> Sequence[tuple[Action, int]]: ...

    def act(self, state: Any, rng: random.Random | None = None) -> Action: ...


@runtime_checkable
class Game(Protocol):
    """A game (see the module's text for each member's meaning)."""

    def new_initial_state(self) -> State: ...

    def num_players(self) -> int: ...

    def max_game_length(self) -> int: ...

    def action_to_string(self, player: int, action: Action) -> str: ...

    def policies(self) -> Mapping[str, Player]: ...

    def info(self) -> GameInfo: ...
