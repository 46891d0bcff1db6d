"""Every call into a rules file's code, guarded: ``RulesGame`` and ``RulesState`` wrap the designer's
game and state (see :mod:`toolkit.rules.interface`) and keep the whole contract of a game
(:mod:`toolkit.game.contract`: the optional methods a file leaves out get their defaults), so that the
simulator and the exact walk play a rules game as they play a built-in one.

A mistake of the file is one ``UserError`` line naming the file and line (of the user's own code where
the mistake raised an exception, else of the method that gave a wrong answer), the class and method, and
the state: ``pig.py:41: PigState.chance_outcomes() on state (0, 0, 3, 0): the probabilities sum to 5/6,
not 1``. Never a traceback of the toolkit.
"""

from __future__ import annotations

import copy
import copyreg
import math
import traceback
from collections.abc import Callable, Hashable
from fractions import Fraction
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.game.info import GameInfo, LengthUnit, Parameter
from toolkit.rules import contain
from toolkit.rules.interface import DEFAULT_MAX_STEPS, OPENSPIEL_CHANCE, OPENSPIEL_TERMINAL

if TYPE_CHECKING:
    from toolkit.rules.policy import Policy

_TOOLKIT = str(Path(__file__).resolve().parent.parent)
SHORT = 80  # the most characters of a state's description in a message


def _plain(text: str) -> str:
    """One line, at most SHORT characters."""
    text = " ".join(text.split())
    return text if len(text) <= SHORT else text[:SHORT - 3] + "..."


def freeze(value: Any, seen: frozenset[int] | None = None) -> Hashable:
    """A hashable image of ``value``: the default key of a state (see the interface). A value inside
    itself recurses without end; given ``seen`` (the values ``value`` is inside), it is a TypeError."""
    if isinstance(value, (int, str, bytes, float, Fraction, bool, type(None))):
        return value
    if seen is not None:
        if id(value) in seen:
            raise TypeError(f"a {type(value).__name__} that holds itself")
        seen = seen | {id(value)}
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item, seen) for item in value)
    if isinstance(value, dict):
        return tuple(sorted(((freeze(k, seen), freeze(v, seen)) for k, v in value.items()), key=repr))
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(item, seen) for item in value)
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return (type(value).__name__, freeze(vars(value), seen))
    hash(value)  # anything else must be hashable as it is
    return value


_ATOMS = frozenset({int, str, bytes, float, bool, type(None), Fraction})


def plain_key(inner: Any) -> Hashable:
    """``freeze(vars(inner))``, the default key, made faster where the attributes are numbers and words and
    lists or tuples of them (the same tuple: the attributes in the order of their names)."""
    items = []
    for name, value in vars(inner).items():
        kind = type(value)
        if kind in _ATOMS:
            items.append((name, value))
        elif (kind is list or kind is tuple) and all(type(item) in _ATOMS for item in value):
            items.append((name, tuple(value)))
        else:
            items.append((freeze(name), freeze(value)))
    if all(type(item[0]) is str for item in items):
        items.sort(key=itemgetter(0))
        return tuple(items)
    return tuple(sorted(items, key=repr))


class _NotPlain(Exception):
    """A value ``plain_copy`` leaves to ``copy.deepcopy``."""


_PLAIN_TYPES: dict[type, bool] = {}  # a class -> whether its instances may be copied by ``plain_copy``


#: What makes ``copy.deepcopy`` copy an instance otherwise than as its ``__dict__``.
_OWN_COPYING = frozenset({"__slots__", "__new__", "__deepcopy__", "__reduce_ex__", "__reduce__", "__getstate__",
                          "__setstate__"})


def _plain_class(cls: type) -> bool:
    """An instance copied by ``copy.deepcopy`` as its ``__dict__``: no slots and no copying or pickling
    methods of its own."""
    plain = _PLAIN_TYPES.get(cls)
    if plain is None:
        plain = _PLAIN_TYPES[cls] = (
            type(cls) is type and cls not in copyreg.dispatch_table and cls.__mro__[-1] is object
            and not any(base.__module__ == "builtins" or _OWN_COPYING & set(vars(base)) for base in cls.__mro__[:-1]))
    return plain


def _copied(value: Any, seen: set[int]) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple and all(type(item) in _ATOMS for item in value):
        return value  # deepcopy gives the tuple itself
    if kind is list or kind is dict or kind is tuple:
        if id(value) in seen:  # shared within the state: deepcopy keeps it shared
            raise _NotPlain
        seen.add(id(value))
        if kind is list:
            return [item if type(item) in _ATOMS else _copied(item, seen) for item in value]
        if kind is tuple:
            return tuple(_copied(item, seen) for item in value)
        return {(k if type(k) in _ATOMS else _copied(k, seen)): (v if type(v) in _ATOMS else _copied(v, seen))
                for k, v in value.items()}
    raise _NotPlain


def plain_copy(inner: Any) -> Any:
    """``copy.deepcopy(inner)``, made faster for a state whose attributes are numbers, words and lists,
    tuples and dicts of them (each list and dict once: none shared); anything else by ``copy.deepcopy``."""
    cls = type(inner)
    if _plain_class(cls):
        try:
            seen: set[int] = set()
            attributes = {name: (value if type(value) in _ATOMS else _copied(value, seen))
                          for name, value in vars(inner).items()}
        except _NotPlain:
            return copy.deepcopy(inner)
        twin = object.__new__(cls)
        twin.__dict__.update(attributes)
        return twin
    return copy.deepcopy(inner)


class RulesGame:
    """A loaded rules game: the designer's game object ``game`` (an instance of ``cls`` built with
    ``params``), found from ``spec``; ``source`` is the file messages name."""

    def __init__(self, game: Any, cls: type, spec: str, source: str, path: Path | None,
                 params: dict[str, Any] | None = None):
        self.game = game
        self.cls = cls
        self.spec = spec
        self.source = source
        self.path = path
        self.params = dict(params or {})
        self.name = cls.__name__
        players = self.call(None, "num_players", game.num_players)
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise self.wrong(None, "num_players", game.num_players, f"gave {players!r}, not a whole number from 1")
        self.players = players
        steps = DEFAULT_MAX_STEPS
        if hasattr(game, "max_game_length"):
            steps = self.call(None, "max_game_length", game.max_game_length)
            if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
                raise self.wrong(None, "max_game_length", game.max_game_length,
                                 f"gave {steps!r}, not a whole number from 1")
        self.max_steps: int = steps
        self._policies: dict[str, Policy] | None = None
        # the last tuple of chance outcomes and its weights
        self.last_outcomes: object = None
        self.last_weights: list[tuple[object, int]] = []
        # returns met: (the values, their kinds) -> the checked returns; a checked returns' id -> it and its winner
        self.returns_met: dict[tuple, tuple[Fraction, ...]] = {}
        self.winners: dict[int, tuple[tuple[Fraction, ...], int | None]] = {}
        self._hidden: bool | None = None

    # --- what the toolkit asks (the contract's Game) --------------------------------------------------

    def num_players(self) -> int:
        return self.players

    def max_game_length(self) -> int:
        return self.max_steps

    def new_initial_state(self) -> RulesState:
        inner = self.call(None, "new_initial_state", self.game.new_initial_state)
        return RulesState(self, inner)

    def action_to_string(self, player: int, action: Any) -> str:
        if not hasattr(self.game, "action_to_string"):
            return str(action)
        name = self.call(None, "action_to_string", self.game.action_to_string, player, action)
        return str(name)

    action_name = action_to_string  # the name the toolkit's callers use

    def policies(self) -> dict[str, Policy]:
        """Every player of the game by name: ``random``, ``first`` and the game's own."""
        if self._policies is None:
            from toolkit.rules.policy import own_policies, standard_policies

            self._policies = {**standard_policies(), **own_policies(self)}
        return dict(self._policies)

    def policy(self, name: str, option: str = "--policy") -> Policy:
        known = self.policies()
        if name not in known:
            raise UserError(f"{option}: {self.name} has no player '{name}' (choose from {', '.join(known)})")
        return known[name]

    @property
    def hidden_information(self) -> bool:
        """Whether the game says what each seat knows: its state defines ``information_state_string``
        (then optimal play is the equilibrium of the game of hidden information, never the one of open
        cards)."""
        if self._hidden is None:
            self._hidden = callable(getattr(self.new_initial_state().inner, "information_state_string", None))
        return self._hidden

    def description(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.name}({params})"

    def info(self) -> GameInfo:
        """What the game offers: its parameters are its class's keyword parameters (with the values it
        was built with), its length is in turns when its state says what ends one, else in steps."""
        players = self.players
        return GameInfo(self.description(), (players, players), self._parameters(), tuple(self.policies()),
                        self._length_unit(), "draw", hasattr(self.game, "action_to_string"))

    def _parameters(self) -> tuple[Parameter, ...]:
        import inspect

        try:
            signature = inspect.signature(self.cls)
        except (TypeError, ValueError):
            return tuple(Parameter(name, value) for name, value in self.params.items())
        out = []
        for name, p in signature.parameters.items():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                default = None if p.default is p.empty else p.default
                out.append(Parameter(name, self.params.get(name, default)))
        return tuple(out)

    def _length_unit(self) -> LengthUnit:
        return "turns" if hasattr(self.new_initial_state().inner, "ends_turn") else "steps"

    # --- the guard ---------------------------------------------------------------------------------

    def call(self, state: Any, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``, a method of the file's code; an exception in it becomes one line."""
        try:
            return fn(*args)
        except UserError:
            raise
        except BaseException as err:  # noqa: BLE001 - anything the user's code raises is said in one line
            raise self.failure(state, method, fn, err, args) from None

    def where(self, fn: Any) -> str:
        """``file:line`` of a function of the user's code (its first line)."""
        code = getattr(getattr(fn, "__func__", fn), "__code__", None)
        if code is None:
            return self.source
        return f"{self.display(code.co_filename)}:{code.co_firstlineno}"

    def display(self, filename: str) -> str:
        if self.path is not None and Path(filename).resolve() == self.path:
            return self.source
        return filename

    def _owner(self, state: Any, fn: Any) -> str:
        bound = getattr(fn, "__self__", None)
        if bound is not None:
            return type(bound).__name__
        return (type(state) if state is not None else self.cls).__name__

    def _subject(self, state: Any, method: str, fn: Any, args: tuple[Any, ...] = ()) -> str:
        where = "" if state is None else f" on state {describe(state)}"
        if " " in method:  # a description (a player of the game), not a method's name
            return f"{method}{where}"
        shown = ", ".join(_plain(repr(arg)) for arg in args)
        return f"{self._owner(state, fn)}.{method}({shown}){where}"

    def wrong(self, state: Any, method: str, fn: Any, what: str) -> UserError:
        """A wrong answer of the user's method ``fn``: one line naming its definition."""
        return UserError(f"{self.where(fn)}: {self._subject(state, method, fn)}: {what}")

    def failure(self, state: Any, method: str, fn: Any, err: BaseException, args: tuple[Any, ...] = ()) -> UserError:
        """An exception raised in the user's code: one line naming the user's line it came from. So is the
        end of the command the code tried (``sys.exit``, ``os._exit``) and a call that ran too long (see
        :mod:`toolkit.rules.contain`); the user's own Ctrl-C goes on."""
        if isinstance(err, KeyboardInterrupt) and contain.real_interrupt():
            raise err
        frames = traceback.extract_tb(err.__traceback__)
        place = None
        for frame in reversed(frames):
            if self.path is not None and Path(frame.filename).resolve() == self.path:
                place = f"{self.source}:{frame.lineno}"
                break
        if place is None:
            outside = [frame for frame in frames if not frame.filename.startswith(_TOOLKIT)]
            place = (f"{self.display(outside[-1].filename)}:{outside[-1].lineno}" if outside else self.where(fn))
        message = contain.message(err) or f"{type(err).__name__}: {_plain(str(err)) or '(no message)'}"
        return UserError(f"{place}: {self._subject(state, method, fn, args)}: {message}")


def _attribute(inner: Any, err: BaseException) -> str:
    """Which attribute of a state the default key cannot freeze, and why."""
    for name, value in vars(inner).items():
        try:
            freeze(value, frozenset({id(inner)}))
        except TypeError as problem:
            return f"its attribute '{name}' ({problem})"
        except RecursionError:
            return f"its attribute '{name}' (nested too deep)"
    return f"its attributes ({err})"


_NUMBERS = frozenset({int, Fraction, float})  # the kinds of returns remembered once checked
_REMEMBERED = 10_000  # different returns remembered at most (``RulesGame.returns_met``, ``winners``)
_OBJECT_REPR: object = object.__repr__  # a state without a repr of its own is shown by its attributes


def describe(inner: Any) -> str:
    """A short description of a user's state for a message: its own repr if it has one, else its attributes."""
    try:
        if type(inner).__repr__ is not _OBJECT_REPR:
            return _plain(repr(inner))
        return _plain(repr(vars(inner)))
    except BaseException:  # noqa: BLE001 - a description must never fail
        return f"<{type(inner).__name__}>"


class RulesState:
    """A guarded state of a rules game, with the toolkit engine's conventions (see the interface)."""

    __slots__ = ("rules", "inner", "turns", "steps", "_who", "_legal", "_returns")

    def __init__(self, rules: RulesGame, inner: Any, turns: int = 0, steps: int = 0, who: int | None = None,
                 legal: list[Any] | None = None):
        self.rules = rules
        self.inner = inner
        self.turns = turns
        self.steps = steps
        self._who = who  # current_player(), asked once per position (None: not asked yet)
        self._legal = legal  # legal_actions(), likewise
        self._returns: tuple[Fraction, ...] | None = None  # returns(), likewise

    def __repr__(self) -> str:
        return describe(self.inner)

    @property
    def players(self) -> int:
        return self.rules.players

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def current_player(self) -> int:
        """The seat to decide, CHANCE or TERMINAL: the file's answers, checked once per position (the
        state changes only through ``apply_action``, which forgets them)."""
        who = self._who
        if who is None:
            who = self._who = self._player()
        return who

    def _player(self) -> int:
        inner = self.inner
        try:
            over = inner.is_terminal()
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "is_terminal", inner.is_terminal, err) from None
        if over:
            return TERMINAL
        try:
            player = inner.current_player()
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "current_player", inner.current_player, err) from None
        if player == OPENSPIEL_CHANCE:
            return CHANCE
        if type(player) is int and 0 <= player < self.rules.players:
            return player
        if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.rules.players:
            return int(player)
        if player == OPENSPIEL_TERMINAL:
            raise self.rules.wrong(inner, "current_player", inner.current_player,
                                   "says the game is over (-4) but is_terminal() says it is not")
        raise self.rules.wrong(inner, "current_player", inner.current_player,
                               f"gave {player!r}: a seat 0 to {self.rules.players - 1}, -1 (chance) or -4 (over)")

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[object, int]]:
        """The outcomes with positive whole-number weights (Fractions brought to one denominator); the
        caller must not change the list."""
        inner = self.inner
        fn = inner.chance_outcomes
        try:
            pairs = fn()
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "chance_outcomes", fn, err) from None
        rules = self.rules
        if type(pairs) is tuple:  # a tuple given again is the same outcomes: checked once
            if pairs is rules.last_outcomes:
                return rules.last_weights
            rules.last_outcomes, rules.last_weights = pairs, self._weights(inner, fn, pairs)
            return rules.last_weights
        return self._weights(inner, fn, list(pairs))

    def _weights(self, inner: Any, fn: Any, pairs: Any) -> list[tuple[object, int]]:
        """Check the outcomes and bring them to whole weights (in whole-number arithmetic: fast)."""
        outcomes: list[Any] = []
        numerators: list[int] = []
        denominators: list[int] = []
        for item in pairs:
            if type(item) is not tuple or len(item) != 2:
                if not isinstance(item, (tuple, list)) or len(item) != 2:
                    raise self.rules.wrong(inner, "chance_outcomes", fn,
                                           f"gave {_plain(repr(item))}: expected (outcome, probability)")
            outcome, p = item
            kind = type(p)
            if kind is Fraction:
                numerators.append(p.numerator)
                denominators.append(p.denominator)
            elif kind is int:
                numerators.append(p)
                denominators.append(0)  # a whole weight
            else:
                self._refuse(inner, fn, outcome, p)
            outcomes.append(outcome)
        wrong = self.rules.wrong
        if any(n < 0 for n in numerators):
            outcome = outcomes[next(i for i, n in enumerate(numerators) if n < 0)]
            raise wrong(inner, "chance_outcomes", fn, f"the probability of {outcome!r} is negative")
        try:
            distinct = len(set(outcomes)) == len(outcomes)
        except TypeError:
            raise wrong(inner, "chance_outcomes", fn, "an outcome is not hashable") from None
        if not distinct:
            twice = next(o for i, o in enumerate(outcomes) if o in outcomes[:i])
            raise wrong(inner, "chance_outcomes", fn, f"the outcome {twice!r} is given twice")
        if any(denominators):  # probabilities (an int among them is 0 or 1): they must sum to 1
            scale = math.lcm(*(d or 1 for d in denominators))
            weights = [n * (scale // (d or 1)) for n, d in zip(numerators, denominators)]
            if sum(weights) != scale:
                raise wrong(inner, "chance_outcomes", fn, f"the probabilities sum to {Fraction(sum(weights), scale)}, "
                                                          "not 1")
        else:
            weights = numerators
        out = [(outcome, weight) for outcome, weight in zip(outcomes, weights) if weight]
        if not out:
            raise wrong(inner, "chance_outcomes", fn, "gave no outcome of positive probability")
        return out

    def _refuse(self, inner: Any, fn: Any, outcome: object, p: object) -> None:
        wrong = self.rules.wrong
        if isinstance(p, float):
            raise wrong(inner, "chance_outcomes", fn, f"the probability of {outcome!r} is the float {p!r}: not "
                                                      "exact (give a Fraction, e.g. Fraction(1, 6), or whole weights)")
        raise wrong(inner, "chance_outcomes", fn, f"the probability of {outcome!r} is {p!r}: give a Fraction "
                                                  "or a whole-number weight")

    def legal_actions(self) -> list[Any]:
        if self._legal is None:
            inner = self.inner
            fn = inner.legal_actions
            try:
                actions = list(fn())
            except BaseException as err:  # noqa: BLE001
                raise self.rules.failure(inner, "legal_actions", fn, err) from None
            if not actions:
                raise self.rules.wrong(inner, "legal_actions", fn, "gave no action, but the game is not over and "
                                                                   "current_player() names a seat")
            try:
                if len(set(actions)) != len(actions):
                    raise self.rules.wrong(inner, "legal_actions", fn, f"gives an action twice: {_plain(repr(actions))}")
            except TypeError:
                raise self.rules.wrong(inner, "legal_actions", fn, "gives an action that is not hashable") from None
            self._legal = actions
        return self._legal

    def apply_action(self, action: Any, decided: bool | None = None) -> None:
        """Apply a decision (checked against ``legal_actions()``) or a chance outcome."""
        inner = self.inner
        if decided is None:
            who = self._who
            decided = (self.current_player() if who is None else who) >= 0
        if decided and action not in (self._legal or self.legal_actions()):
            raise UserError(f"{self.rules.where(inner.apply_action)}: {type(inner).__name__}.apply_action"
                            f"({_plain(repr(action))}) on state {describe(inner)}: the action is not one of "
                            f"legal_actions() {_plain(repr(self.legal_actions()))}")
        ends = self.ends_turn(action)
        try:
            inner.apply_action(action)
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "apply_action", inner.apply_action, err, (action,)) from None
        self._legal = self._returns = None
        self.steps += 1
        if ends:
            self._who = None
            self.turns += 1
        else:
            self._who = who = self._player()
            if who == TERMINAL:  # the end of the game ends the turn it is in
                self.turns += 1

    def ends_turn(self, action: Any) -> bool:
        """Whether applying ``action`` ends the turn: the file's ``ends_turn``, else True (every step a turn)."""
        inner = self.inner
        ends_turn = getattr(inner, "ends_turn", None)
        if ends_turn is None:
            return True
        try:
            return bool(ends_turn(action))
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "ends_turn", ends_turn, err, (action,)) from None

    def returns(self) -> tuple[Fraction, ...]:
        if self._returns is None:
            self._returns = self._checked_returns()
        return self._returns

    def _checked_returns(self) -> tuple[Fraction, ...]:
        inner = self.inner
        fn = inner.returns
        try:
            values = list(fn())
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "returns", fn, err) from None
        met = self.rules.returns_met
        kinds = tuple(map(type, values))
        seen = (tuple(values), kinds) if _NUMBERS.issuperset(kinds) else None  # hashed without the file's code
        if seen is not None:  # numbers met before: checked then
            known = met.get(seen)
            if known is not None:
                return known
        if len(values) != self.rules.players:
            raise self.rules.wrong(inner, "returns", fn, f"gave {len(values)} values ({_plain(repr(values))}) for "
                                                         f"{self.rules.players} players: give one per player")
        out: list[Fraction] = []
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)) or value != value:
                raise self.rules.wrong(inner, "returns", fn, f"gave {value!r}: a return is a number")
            if isinstance(value, float) and not math.isfinite(value):
                raise self.rules.wrong(inner, "returns", fn, f"gave {value!r}: a return is a finite number")
            out.append(Fraction(value))
        if seen is not None and len(met) < _REMEMBERED:
            met[seen] = tuple(out)
            return met[seen]
        return tuple(out)

    @property
    def winner(self) -> int | None:
        """At the end, the seat with the unique highest return (one player: a positive return); else None."""
        if not self.is_terminal():
            return None
        values = self.returns()
        winners = self.rules.winners
        known = winners.get(id(values))
        if known is not None and known[0] is values:  # the same returns (``returns_met``): the same winner
            return known[1]
        if len(values) == 1:
            winner = 0 if values[0] > 0 else None
        else:
            top = max(values)
            winner = values.index(top) if values.count(top) == 1 else None
        if len(winners) < _REMEMBERED:
            winners[id(values)] = (values, winner)
        return winner

    def clone(self) -> RulesState:
        inner = self.inner
        fn = getattr(inner, "clone", None)
        try:
            twin = fn() if fn is not None else plain_copy(inner)
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "clone", fn or copy.deepcopy, err) from None
        return RulesState(self.rules, twin, self.turns, self.steps, self._who, self._legal)

    def key(self, *ignored: object) -> Hashable:
        """What identifies the state for the exact walk: the user's ``key()``, else its attributes frozen."""
        inner = self.inner
        fn = getattr(inner, "key", None)
        if fn is not None:
            try:
                found = fn()
            except BaseException as err:  # noqa: BLE001
                raise self.rules.failure(inner, "key", fn, err) from None
        else:
            fn = type(inner).__init__
            try:
                found = plain_key(inner)
            except (TypeError, RecursionError) as err:
                raise UserError(f"{self.rules.where(fn)}: {type(inner).__name__} on state {describe(inner)}: the "
                                f"default key cannot freeze {_attribute(inner, err)}: write a key() "
                                "method") from None
        try:
            hash(found)
        except TypeError:
            raise self.rules.wrong(inner, "key", fn, f"gave {_plain(repr(found))}, which is not hashable "
                                                     "(give a tuple of numbers and strings)") from None
        return found

    def information_state(self, player: int) -> str:
        """What seat ``player`` knows here: the file's ``information_state_string(player)``, a string."""
        inner = self.inner
        fn = getattr(inner, "information_state_string", None)
        if fn is None:
            raise UserError(f"{self.rules.source}: {type(inner).__name__} on state {describe(inner)}: no "
                            "information_state_string(player), though the start of the game has one")
        try:
            text = fn(player)
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "information_state_string", fn, err, (player,)) from None
        if not isinstance(text, str):
            raise self.rules.wrong(inner, "information_state_string", fn, f"gave {_plain(repr(text))} for player "
                                                                          f"{player}: an information state is a string")
        return text

    def score(self, player: int) -> int | Fraction | float | None:
        """The seat's score (the state's ``score(player)``), or None when the game defines none."""
        inner = self.inner
        if not hasattr(inner, "score"):
            return None
        try:
            value = inner.score(player)
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "score", inner.score, err, (player,)) from None
        if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
            raise self.rules.wrong(inner, "score", inner.score, f"gave {value!r} for player {player}: a score "
                                                                "is a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.rules.wrong(inner, "score", inner.score, f"gave {value!r} for player {player}: a score "
                                                                "is a finite number")
        return value

    def scores(self) -> tuple[int | Fraction | float | None, ...] | None:
        """Each seat's score (the state's ``score(player)``), or None when the game defines none."""
        if not hasattr(self.inner, "score"):
            return None
        return tuple(self.score(player) for player in range(self.rules.players))

    def events(self) -> dict[str, int]:
        """What the game counted (``events()``): name -> whole number; {} when it counts nothing."""
        inner = self.inner
        if not hasattr(inner, "events"):
            return {}
        fn = inner.events
        try:
            found = dict(fn())
        except BaseException as err:  # noqa: BLE001
            raise self.rules.failure(inner, "events", fn, err) from None
        for name, count in found.items():
            if (type(count) is not int or count < 0 or type(name) is not str) and (  # a plain count passes at once
                    not isinstance(name, str) or isinstance(count, bool) or not isinstance(count, int) or count < 0):
                raise self.rules.wrong(inner, "events", fn, f"gave {name!r}: {count!r}: expected a name and a whole "
                                                            "number from 0")
        return found


if TYPE_CHECKING:  # the type checker holds the guarded game and state to the contract (.ci/run: mypy)
    from toolkit.game import contract

    def _keeps_the_contract(game: RulesGame, state: RulesState) -> tuple[contract.Game, contract.State]:
        return game, state
