"""What the toolkit knows of a game: the one interface the registry (:mod:`toolkit.games.registry`)
returns. Everything specific to a game lives in the game's own package; the rest of the toolkit
asks it through an object of this class, which the package registers under the entry-point group
``toolkit.games`` (see ``pyproject.toml``): the built-in games exactly as a game of an outside
package would be.

A game package gives one instance of a subclass (its attributes say the catalogue schema it accepts;
its methods import the heavier parts, the engine, the players, the kernel, only when asked for), so
that finding the games costs no more than importing their small ``__init__`` modules.

Each part is a method typed by what the toolkit asks of it (the protocols below: ``Engine``,
``Players``, ``Kernel``...). The built-in games override them and import their modules themselves. A
game of another package may still name its modules by their relative names (the ``*_module``
attributes, read by the default methods), as games were written before wave 4.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from types import ModuleType

    from toolkit.catalogue.model import Catalogue


# --- what the toolkit asks of each part of a game (a module of its package, or any object) ------------

class Engine(Protocol):
    """The rules engine: its named variants (id -> what it changes)."""

    VARIANTS: Mapping[str, str]


class Players(Protocol):
    """The game's players by name: ``parse("stop-after-3,never-buy", "--policy")`` -> a player."""

    def parse(self, name: str, option: str = ...) -> Any: ...


class Kernel(Protocol):
    """The compiled simulator: whether it plays these players, and a batch of games' records."""

    def supports(self, game: Any, policies: Sequence[Any]) -> bool: ...

    def batch(self, game: Any, policies: Sequence[Any], run_seed: int, start: int, count: int,
              max_turns: int) -> Any: ...


class OddsModels(Protocol):
    """The game's own odds models: name -> ``toolkit.odds.report.Model``."""

    MODELS: Mapping[str, Any]


class StrategyPart(Protocol):
    """What the strategy search tries (a ``toolkit.analysis.strategy.Strategy``)."""

    STRATEGY: Any


class View(Protocol):
    """What a person reads of an engine state and action (the optimal play's policy table)."""

    def fields(self, state: Any) -> tuple[tuple[str, ...], tuple[Any, ...]]: ...

    def action_name(self, game: Any, action: Any) -> str: ...


class Walker(Protocol):
    """The compiled walk of the game's exact chain (``toolkit.walk.walker``)."""

    def may_apply(self, start: Any, done: Any) -> bool: ...

    def applies(self, start: Any, policies: Sequence[Any], done: Any) -> bool: ...

    def walk(self, first: Any, policies: Sequence[Any], max_states: int, progress: Any, done: Any = ...) -> Any: ...


class Art(Protocol):
    """The card painter: kind -> ``toolkit.cards.art.KindArt``, and the back."""

    KINDS: Mapping[str, Any]

    def paint_back(self, scene: Any) -> None: ...


class Figures(Protocol):
    """The rulebook's own odds figures and charts (``toolkit.placeholders.figures``)."""

    NAMES: Any
    CHARTS: Any

    def figure(self, odds: Any, name: str) -> Any: ...

    def chart(self, odds: Any, name: str) -> Any: ...


class Table(Protocol):
    """The rulebook's table picture: the labels it takes and its scene (a set-up picture is optional:
    ``SETUP_KEYS`` and ``setup_scene``)."""

    KEYS: Sequence[str]

    def scene(self, catalogue: Any, face: Any, back: Any) -> Any: ...


class DeckCheck(Protocol):
    """Refuses the decks the game cannot be played to its end with."""

    def check(self, catalogue: Any) -> None: ...


class Game:
    """A game: its catalogue schema, its files, and the modules that play it.

    Subclasses set the class attributes; ``package`` defaults to the module the subclass is written in.
    """

    id: str = ""
    default: bool = False  # the game the commands take when none is named (one game says so)
    # The catalogue schema: card kinds, the kinds that carry a colour, and the rule parameters with
    # their inclusive ranges (every one must be set in the catalogue's [rules]).
    kinds: tuple[str, ...] = ()
    coloured_kinds: frozenset[str] = frozenset()
    rules: dict[str, tuple[int, int]] = {}
    # A game of another package may name its modules by relative name (None where it has none): the
    # default methods below read these. The built-in games override the methods instead.
    engine_module: str | None = "engine"  # the rules engine: ``GAME_CLASS.from_catalogue`` and ``VARIANTS``
    engine_class: str = ""
    policies_module: str | None = "policies"  # the players: ``parse(name, option)``
    kernel_module: str | None = None  # the compiled simulator: ``supports(game, policies)``, ``batch(...)``
    odds_models: tuple[str, ...] = ("draws", "hand")  # what ``toolkit odds --model`` answers; the first is the default
    rulebook_model: str | None = None  # the odds model whose figures the rulebook prints
    # True for a game the toolkit has no package for (RulesLessGame): its catalogue names any kinds and
    # rule keys, needs no colours, and nothing plays it.
    rules_less: bool = False

    @property
    def package(self) -> str:
        return type(self).__module__

    def module(self, name: str) -> ModuleType:
        """One module of the game's package by relative name (a game of another package that names its
        parts so), imported when first asked for (then read from ``sys.modules``)."""
        full = f"{self.package}.{name}"
        return sys.modules.get(full) or import_module(full)

    def _named(self, name: str | None) -> Any:
        return None if name is None else self.module(name)

    def resource(self, *parts: str) -> Path:
        """A file of the game's package (its catalogue, its texts)."""
        return Path(str(files(self.package).joinpath(*parts)))

    @property
    def catalogue_file(self) -> Path:
        """The catalogue that ships with the game: ``<id>.toml`` in its package (messages name the file)."""
        return self.resource(f"{self.id}.toml")

    @property
    def layout_file(self) -> Path | None:
        """The layout its cards are drawn with (toolkit.layout): ``layout.toml`` in its package, if any."""
        path = self.resource("layout.toml")
        return path if path.is_file() else None

    def text_file(self, name: str, lang: str) -> Path:
        """A text of the game in one language: ``rules`` (the rulebook), ``aid`` (the player aid)."""
        return self.resource("texts", f"{name}.{lang}.md")

    def has_text(self, name: str, lang: str) -> bool:
        return self.text_file(name, lang).is_file()

    def check_rules(self, rules: dict[str, int]) -> tuple[str, str] | None:
        """Sanity between the catalogue's rule parameters that needs no deck: None, or the key and
        what is wrong with it."""
        return None

    # --- playing the game -----------------------------------------------------------------------

    @property
    def playable(self) -> bool:
        """Whether the game has rules to play: an engine of its own (a method, or a module named)."""
        return type(self).engine is not Game.engine or self.engine_module is not None

    def require_rules(self, catalogue: Catalogue, what: str) -> None:
        """Refuse, in one line naming the catalogue, to ``what`` (e.g. "simulate needs") a game without a
        rules engine: no built-in game's rules are ever played on its cards."""
        if not self.playable:
            from toolkit.catalogue.checks import printable
            from toolkit.errors import UserError

            raise UserError(f"{printable(catalogue.source.name)}: the game '{self.id}' has no rules engine: {what} "
                            f"a game package with rules (see {GAME_PACKAGE_DOCS})")

    def engine(self) -> Engine:
        """The rules engine (refused in one line for a game without rules)."""
        from toolkit.errors import UserError

        if self.engine_module is None:
            raise UserError(f"{self.id}: the game has no rules engine, so it cannot be played or solved")
        return self.module(self.engine_module)  # a module, read as the protocol

    def game_class(self) -> Any:
        """The engine's game class: ``from_catalogue(catalogue, players=, variants=)``."""
        return getattr(self.engine(), self.engine_class)

    def make_game(self, catalogue: Catalogue, players: int, variants=()):
        """The engine's game of ``players`` seats on this catalogue with these variants."""
        return self.game_class().from_catalogue(catalogue, players=players, variants=variants)

    @property
    def variants(self) -> dict[str, str]:
        """The named rule variants: id -> what it changes."""
        return dict(self.engine().VARIANTS) if self.playable else {}

    def policies(self) -> Players | None:
        """The game's players by name; None for a game without rules."""
        return self._named(self.policies_module)

    def kernel(self) -> Kernel | None:
        """The compiled simulator, or None: the engine plays every game."""
        return self._named(self.kernel_module)

    def odds(self) -> OddsModels | None:
        """The game's own odds models (beside the generic draws and hand), or None."""
        return self._named(self.odds_module)

    def strategy(self) -> StrategyPart | None:
        """What the strategy search tries, or None: the generic search alone."""
        return self._named(self.strategy_module)

    # --- what the odds, the analysis and the simulator's reports ask of a game ------------------
    # (each with a default for a game that has none of it: the generic models and words alone)

    # the module answering the game's own odds models: ``MODELS``, name -> ``toolkit.odds.report.Model``
    odds_module: str | None = None
    danger_kind: str | None = None  # the card kind the draws model counts the next draws without, if any
    # the module whose ``STRATEGY`` (a ``toolkit.analysis.strategy.Strategy``) says what the strategy search tries
    strategy_module: str | None = None
    # Words for the counters of ``state.counters()``, where not the counter's name read with spaces:
    # per language in the balance report's PDF (``counter_labels``), in the plain-text analysis (``counter_names``).
    counter_labels: dict[str, dict[str, str]] = {}
    counter_names: dict[str, str] = {}
    # Comebacks (toolkit.analysis.metrics): a won game counts as one when its winner once trailed the
    # highest score (``state.scores()``) by this many points or more. Points come in the game's own
    # lumps, so each game sets its own; None (a game without a score, or one that has not said): the
    # reports leave the comeback figure out.
    comeback_points: int | None = None
    # The word for the game's points after that number, per language, as noun forms (toolkit.plurals):
    # "6+ points"; none for a language: the number alone ("3+ behind").
    score_unit: dict[str, tuple[str, ...]] = {}

    def comeback_unit(self, lang: str) -> str:
        """The word for ``comeback_points`` of the game's points in ``lang`` ("points", «очков»); "" where
        the game gives none."""
        forms = self.score_unit.get(lang)
        if not forms or self.comeback_points is None:
            return ""
        from toolkit.plurals import plural

        return plural(self.comeback_points, forms, lang, f"{self.id}: score_unit")

    def no_winner_reason(self, game) -> str | None:
        """What in the deck of the engine's ``game`` itself makes every game end without a winner, if anything."""
        return None

    def sweep_exact(self, players: int, policy_names: list[str], variants) -> bool:
        """Whether a sweep's configuration has exact figures (``exact_figures``) beside the simulated ones."""
        return False

    def exact_figures(self, catalogue: Catalogue, turn_limit: int) -> dict:
        """The exact figures of a configuration ``sweep_exact`` accepts: a sweep row's fields, or its ``note``."""
        return {}

    # --- what a person reads of a state and an action ------------------------------------------------

    # The module naming an engine state's fields and actions for people, by the catalogue's card ids (the
    # optimal play's policy table of ``toolkit odds --model optimal``, ``--rules GAME``): ``fields(state)``
    # -> (names, values), one fixed tuple of names for every state of a game, and ``action_name(game,
    # action)`` -> str (``game`` the engine's game); None: the state's own attributes and ``str(action)``.
    view_module: str | None = None

    def view(self) -> View | None:
        """What a person reads of a state and an action, or None: its attributes and ``str(action)``."""
        return self._named(self.view_module)

    def state_fields(self, state) -> tuple[tuple[str, ...], tuple] | None:
        """The fields of an engine state a person reads, or None where the game names none."""
        view = self.view()
        return None if view is None else view.fields(state)

    def action_name(self, engine_game, action) -> str:
        """An action of the engine's game ``engine_game`` in words."""
        view = self.view()
        return str(action) if view is None else view.action_name(engine_game, action)

    # --- the compiled chain walk --------------------------------------------------------------------

    walk_module: str | None = None  # ``may_apply(start, done)``, ``applies(start, policies, done)``, ``walk(...)``

    def compiled_walk(self) -> Walker | None:
        """What walks the game's exact chain in compiled code (``toolkit.walk.walker`` asks it where
        its ``may_apply`` says the chain is its own), or None: the engine walk only."""
        return self._named(self.walk_module)

    # --- its cards' art, its rulebook and its aids (toolkit.cards.art, toolkit.rulebook) ---------
    # Modules of the game's package (relative names), None where the game has none: the generic
    # defaults below then give a plain card and back, and a rulebook without the game's own figures,
    # table picture or deck checks.
    # The card painter: ``KINDS`` (kind -> toolkit.cards.art.KindArt) and ``paint_back(scene)``.
    art_module: str | None = None
    # The rulebook's own odds figures: ``NAMES``, ``CHARTS``, ``figure(odds, name)``, ``chart(odds, name)``.
    figures_module: str | None = None
    # The rulebook's table picture: ``KEYS`` (the labels it takes) and ``scene(catalogue, face, back)``.
    table_module: str | None = None
    # ``check(catalogue)``: refuses the decks the game cannot be played to its end with.
    deck_module: str | None = None
    # The names players see for the engine's variants: variant id -> language -> name.
    variant_names: dict[str, dict[str, str]] = {}

    @property
    def art_folder(self) -> Path | None:
        """The art that ships with the game: its catalogue's art paths are looked up here last, after
        the catalogue file's own folder and ``./card_art`` (None: it ships none)."""
        return self.resource("art")

    def art(self) -> Art | None:
        """The game's card painter, or None: plain faces and backs."""
        return self._named(self.art_module)

    def kind_art(self, kind: str):
        """How the card art draws a card of ``kind`` (a toolkit.cards.art.KindArt); None: a plain face."""
        art = self.art()
        return None if art is None else art.KINDS.get(kind)

    def back_painter(self) -> Callable[[Any], None] | None:
        """What paints the card back, ``paint(scene)`` on a toolkit.cards.art.Scene of the whole card
        with its bleed, the same after a half turn; None: a plain back."""
        art = self.art()
        return None if art is None else art.paint_back

    def rulebook_figures(self) -> Figures | None:
        """The game's own ``{odds:NAME}`` figures and charts (see toolkit.placeholders.figures), or None."""
        return self._named(self.figures_module)

    def table(self) -> Table | None:
        """The rulebook's table pictures, or None: the game draws none."""
        return self._named(self.table_module)

    @property
    def table_keys(self) -> tuple[str, ...]:
        """The labels a rulebook's ``{table:...}`` block takes; () when the game has no table picture."""
        table = self.table()
        return () if table is None else tuple(table.KEYS)

    @property
    def setup_keys(self) -> tuple[str, ...]:
        """The labels a rulebook's ``{setup:...}`` block (the table as a game starts) takes; () when the
        game draws no such picture."""
        table = self.table()
        return () if table is None else tuple(getattr(table, "SETUP_KEYS", ()))

    def setup_scene(self, catalogue: Catalogue, face, back):
        """The rulebook's picture of the table as a game starts (``{setup:...}``), like ``table_scene``."""
        return getattr(self.table(), "setup_scene")(catalogue, face, back)

    def table_scene(self, catalogue: Catalogue, face, back):
        """The rulebook's table picture (a toolkit.rulebook.table_picture.Scene): ``face(card)`` gives a
        card's miniature face, ``back`` the card back. Only for a game with ``table_keys``."""
        table = self.table()
        assert table is not None, "a table picture of a game that draws none"
        return table.scene(catalogue, face, back)

    def deck_check(self) -> DeckCheck | None:
        """What refuses the decks the game cannot be played to its end with, or None."""
        return self._named(self.deck_module)

    def check_deck(self, catalogue: Catalogue) -> None:
        """Raise toolkit.placeholders.deck.DeckError when the game cannot be played to its end with this deck
        (an empty deck is refused for every game before this is asked)."""
        check = self.deck_check()
        if check is not None:
            check.check(catalogue)


class RulesLessGame(Game):
    """A game the toolkit has no package for, met in a catalogue: the catalogue is the whole game. Its
    kinds and rule numbers are the catalogue's own, and it has no engine, players, texts or art of
    its own: ``catalogue``, the print paths and the generic odds (draws, hand) work, and what needs
    rules (simulate, analyse, sweep, the games' own odds models) says so in one line."""

    rules_less = True
    engine_module = None
    policies_module = None

    def __init__(self, game_id: str):
        self.id = game_id

    @property
    def catalogue_file(self) -> Path:
        from toolkit.errors import UserError

        raise UserError(f"the game '{self.id}' has no built-in catalogue: give its file with --catalogue")

    def text_file(self, name: str, lang: str) -> Path:
        return Path(f"{self.id}/texts/{name}.{lang}.md")  # not a file: the toolkit has no text of this game

    def has_text(self, name: str, lang: str) -> bool:
        return False

    @property
    def art_folder(self) -> None:
        return None


# Where the messages of a game without rules send the user: how a game package gives the toolkit its rules.
GAME_PACKAGE_DOCS = "docs/architecture.md#adding-a-game"

# The art that ships with the toolkit's own games: toolkit/card_art/, package data like the rest. Their
# catalogues' art paths start with the game's id ("<game>/back.png").
TOOLKIT_ART = Path(__file__).resolve().parent.parent / "card_art"
