"""The games the toolkit knows, found through the entry-point group ``toolkit.games``.

Each entry point names a :class:`toolkit.games.game.Game` instance; a package that registers one
(``[project.entry-points."toolkit.games"]`` in its ``pyproject.toml``) adds a game to every command,
the built-in ones included, without a line of the toolkit changed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.games.game import Game, Players, RulesLessGame

GROUP = "toolkit.games"


@functools.cache
def games() -> dict[str, Game]:
    """Every registered game by its id, in the order of their ids."""
    from importlib.metadata import entry_points

    found: dict[str, Game] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda point: point.name):
        if point.name in found:
            continue  # the same distribution seen twice on the path (an editable install and its source)
        game = point.load()
        if not isinstance(game, Game) or game.id != point.name:
            raise UserError(f"entry point {point.name} = {point.value}: not a toolkit game named {point.name!r}")
        found[point.name] = game
    return found


def ids() -> tuple[str, ...]:
    return tuple(games())


def get(game_id: str) -> Game:
    """The registered game of this id, else the rules-less game of that id (a catalogue of a game the
    toolkit has no package for is the whole game: see ``RulesLessGame``)."""
    known = games()
    return known[game_id] if game_id in known else rules_less(game_id)


@functools.cache
def rules_less(game_id: str) -> RulesLessGame:
    return RulesLessGame(game_id)


def for_catalogue(catalogue: Catalogue) -> Game:
    """The game a loaded catalogue is for: registered, or rules-less."""
    return get(catalogue.game)


def default_id() -> str:
    """The game the commands take when none is named: the one that says it is the default (else the first)."""
    known = games()
    if not known:
        raise UserError(f"no game is installed (none is registered under the entry-point group {GROUP})")
    return next((game.id for game in known.values() if game.default), next(iter(known)))


def make_game(catalogue: Catalogue, players: int, variants: Iterable[str] = ()) -> Any:
    """The engine's game of ``players`` seats on the catalogue's game (refused, in one line, for a game
    without rules)."""
    game = for_catalogue(catalogue)
    game.require_rules(catalogue, "playing it needs")
    return game.make_game(catalogue, players, variants)


def policy_module(game_id: str) -> Players:
    """The players of a game with rules (a game without is refused in one line)."""
    players = get(game_id).policies()
    if players is None:
        raise UserError(f"{game_id}: the game has no rules, so it has no players")
    return players


def variants(game_id: str) -> dict[str, str]:
    return get(game_id).variants
