"""The interface of a rules file: what a designer writes so that the toolkit plays, measures and solves
their game. The names and meanings are OpenSpiel's (``pyspiel``), so a game written for OpenSpiel's
Python API needs nothing new. docs/rules-files.md is this page with a worked example.

The game class
--------------
``new_initial_state()``
    A fresh state at the start of a game.
``num_players()``
    The number of seats (1 or more).
``max_game_length()`` (optional)
    The most steps a game may take; a game still going after that many is a mistake of the file, said
    in one line. Without it, a game may take up to ``DEFAULT_MAX_STEPS`` steps.
``action_to_string(player, action)`` (optional)
    A name for an action, for people (reports, policy tables). Default: ``str(action)``.
``policies()`` (optional)
    The game's own players: ``{name: function(state) -> action}``, each a function of the state alone
    (the same state, the same action: randomness belongs to chance nodes and the ``random`` player).
    Every game also has ``random`` (every legal action equally likely) and ``first`` (the first legal
    action).

The constructor's keyword parameters, each with a default, are the game's parameters: ``sweep --grid
goal=20,50,100`` plays the game built as ``Game(goal=20)`` and so on.

The state class
---------------
``current_player()``
    The seat to decide (0 .. n-1), or OpenSpiel's ``CHANCE`` (-1) at a chance node, or ``TERMINAL``
    (-4) once the game is over (``is_terminal()`` decides that first, whatever this says).
``is_chance_node()``
    OpenSpiel's; the toolkit reads ``current_player() == -1``.
``chance_outcomes()``
    At a chance node, the outcomes and their probabilities: ``[(outcome, probability), ...]``, each
    probability a ``fractions.Fraction`` (they must sum to 1 exactly) or every one a whole-number
    weight (``[(1, 1), (2, 1), ...]``: each outcome ``weight / total``). A float is refused: it is not
    exact. Outcomes of weight 0 are left out; an outcome given twice is a mistake.
``legal_actions()``
    The actions of the seat to decide (hashable values, usually whole numbers), at least one, in an
    order of their own (a list, not a set: ``first`` and the seeded random player read the order).
``apply_action(action)``
    Apply a decision or a chance outcome, changing the state in place.
``is_terminal()``
    Whether the game is over.
``returns()``
    At the end, what each seat gets: a list with one number per seat (int, Fraction or float). The
    winner is the one seat with the highest return (no winner on a tie); in a one-player game, a
    positive return is a win.
``clone()`` (optional)
    An independent copy. Default: ``copy.deepcopy`` of the state.
``key()`` (optional)
    A hashable value identifying the state for the exact walk: two states with the same key must play
    on alike. Default: the state's attributes (``__dict__``) frozen recursively (lists and tuples to
    tuples, dicts to sorted tuples of pairs, sets to frozensets, objects to their own attributes);
    a value that cannot be frozen (unhashable) is a mistake said in one line. Write a key when the
    state holds what does not matter for the play ahead (a history, a counter): a smaller key is a
    smaller chain.
``ends_turn(action)`` (optional)
    What a turn is, for the game's length: asked before ``action`` (a decision or a chance outcome) is
    applied, True when applying it ends the current turn. Default: every step is a turn (a step is
    one action or chance outcome applied). The end of the game ends the turn it is in.
``score(player)`` (optional)
    The seat's score while the game goes on: the report counts lead changes (the leader: the one
    seat with the highest score, looked at after every turn).
``events()`` (optional)
    ``{name: count}`` of what happened in the game so far (whole numbers), read at its end: the report
    gives each one's mean per game and the share of games it happened in.

What the toolkit gives on top (``RulesGame``, ``RulesState``, ``Policy``: ``toolkit.rules.guard`` and
``toolkit.rules.policy``) follows the toolkit engine's conventions: ``current_player()`` is a seat,
``toolkit.games.CHANCE`` (-1) or ``toolkit.games.TERMINAL`` (-2); chance outcomes come with positive
whole-number weights; ``returns()`` is a tuple of Fractions; ``.turns``, ``.steps`` and ``.winner``
count and say what the engines' states do.
"""

from __future__ import annotations

OPENSPIEL_CHANCE = -1  # pyspiel.PlayerId.CHANCE
OPENSPIEL_TERMINAL = -4  # pyspiel.PlayerId.TERMINAL
DEFAULT_MAX_STEPS = 100_000  # the longest game a file without max_game_length() may play

REQUIRED_GAME = ("new_initial_state", "num_players")
REQUIRED_STATE = ("current_player", "chance_outcomes", "legal_actions", "apply_action", "is_terminal", "returns")
