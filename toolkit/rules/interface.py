"""The interface of a rules file: what a designer writes so that the toolkit plays, measures and solves
their game. It is the contract of every game, :mod:`toolkit.game.contract`, where each method is defined
once (OpenSpiel's names and meanings, so a game written for OpenSpiel's Python API needs nothing new);
docs/rules-files.md is that page with a worked example.

A file must give ``REQUIRED_GAME`` and ``REQUIRED_STATE``; the contract's other members are optional in a
file, and the guard (:mod:`toolkit.rules.guard`: ``RulesGame``, ``RulesState``) gives their defaults, checks
every answer of the file's code and says a mistake in one line. The guarded game keeps the whole
contract: ``current_player()`` is a seat, ``CHANCE`` (-1) or ``TERMINAL`` (-4), chance outcomes come with
positive whole-number weights, ``returns()`` is a tuple of Fractions; ``.turns``, ``.steps`` and
``.winner`` count and say what the engines' states do.
"""

from __future__ import annotations

from toolkit.game.contract import CHANCE, DEFAULT_MAX_STEPS, TERMINAL

OPENSPIEL_CHANCE = CHANCE  # pyspiel.PlayerId.CHANCE
OPENSPIEL_TERMINAL = TERMINAL  # pyspiel.PlayerId.TERMINAL

REQUIRED_GAME: tuple[str, ...] = ("new_initial_state", "num_players")
REQUIRED_STATE: tuple[str, ...] = ("current_player", "chance_outcomes", "legal_actions", "apply_action",
                                   "is_terminal", "returns")

__all__ = ["DEFAULT_MAX_STEPS", "OPENSPIEL_CHANCE", "OPENSPIEL_TERMINAL", "REQUIRED_GAME", "REQUIRED_STATE"]
