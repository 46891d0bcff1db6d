"""A rules file played from a table of its positions: each position's moves learned once, the games
played over arrays by a compiled loop (``toolkit.rules.table_kernel``), with the records the Python loop
(``toolkit.sim.play.play_game``) gives, byte for byte.

* **Positions** are known by the file's ``key()``, else by the state's attributes (frozen as the guard's
  default key, a little finer: two states the guard calls equal may get two positions, never the other
  way). A position is learned once, the first time a game reaches it: whose turn it is (a seat, chance or
  the end), the legal actions, the chance outcomes (checked once; a distribution with the same content
  is kept once, so a dice battle's 7,776 rolls are one list, whichever position throws them), the winner
  at an end, each seat's score.
* **Edges** (a position and one of its actions or outcomes) are learned when a game first takes them:
  the position's first state, cloned, takes the move, and the result's key gives the next position; with
  it, whether the move ends a turn and what it adds to each count of ``events()``.
* **Players**: ``random`` draws from its seat's stream, ``first`` takes the first action, a file's own
  player (a function of the state alone) is asked once per position.
* **The check**: the first ``VERIFY`` games are played again by the Python loop (the table's outcome
  lists given for the file's, by key) and compared record by record. A file whose ``events()``,
  ``score()``, ``ends_turn()`` or players depend on more than the key fails it; it is then played as
  written, with one note.
* **The budget**: past ``BUDGET`` bytes (positions and edges) nothing more is learned; a game that needs
  more is played again from its start by the Python loop, from the same streams: the same record.
  A distribution whose weights sum past ``2 ** 63`` is not tabulated either: its games go the same way.

Every call into the file goes through the guard (``toolkit.rules.guard``), so its checks, messages and
time limits (``toolkit.rules.contain``) hold while the table learns.
"""

from __future__ import annotations

import copyreg
import dis
import gc
import sys
from bisect import bisect_right
from fractions import Fraction
from itertools import accumulate
from operator import attrgetter, itemgetter
from types import CodeType, FunctionType
from typing import Any, Hashable

import numpy as np

from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.rules.guard import RulesGame, RulesState, freeze
from toolkit.rules.policy import FirstPolicy, OwnPolicy, RandomPolicy

FIELDS = ("winner", "turns", "steps", "decisions", "stalled", "lead_changes", "winner_deficit")  # of a record
VERIFY = 200  # games played by both loops and compared, record by record
BUDGET = 1 << 30  # bytes of positions and edges the table may take
POSITION_BYTES = 1_000  # what a position costs: its key, its first state, its rows (an estimate)
EDGE_BYTES = 5  # an edge's successor and turn flag, besides 4 bytes per count of events()
LARGEST = 1 << 63  # a distribution's weights sum below this, or it stays with the Python loop
MISSES = 1 << 14  # misses the compiled loop writes before Python learns them
ROOM = 1 << 10  # positions the arrays hold at first (they double when full)

_SCALARS = frozenset({int, str, bytes, float, bool, type(None), Fraction})
_NUMERATOR, _DENOMINATOR = attrgetter("_numerator"), attrgetter("_denominator")
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_TUPLE, _PAIR, _INT, _FRACTION = {tuple}, {2}, {int}, {Fraction}


class NotTabulated(Exception):
    """The file cannot be played from the table: the reason, in words."""


def tabulable(rules: Any, seats: list) -> bool:
    """Whether these games can be played from a table: a rules file (a built-in game has its kernel), and
    every seat ``random``, ``first`` or one of the file's own players (a function of the state)."""
    if not isinstance(rules, RulesGame):
        return False
    return all(type(seat) in (RandomPolicy, FirstPolicy, OwnPolicy) and not hasattr(seat, "start_game")
               for seat in seats)


class Distributions:
    """Chance outcome lists checked once per content: the same outcomes with the same probabilities are
    one distribution (an id), whatever state gave them and however fresh the list."""

    def __init__(self) -> None:
        self.ids: dict[tuple, int] = {}
        self.weights: list[list[tuple[object, int]]] = []  # the guard's checked (outcome, whole weight) pairs
        self.totals: list[int] = []  # their sums
        self.running: list[list[int]] = []  # their running sums (made when first drawn from)
        self.readers: dict[type, tuple[str, ...] | None] = {}  # a state class: what its chance_outcomes() reads
        self.by_reads: dict[tuple, int] = {}  # a state class and the values it reads: the distribution
        self.recent: tuple[int, tuple] | None = None  # the last distribution found by content, and its content
        self.last: tuple[object, int] = (None, -1)  # the last tuple given and its distribution: a tuple given
        # again is the same outcomes (as the guard's own check takes it)

    def of(self, state: RulesState) -> int:
        """The distribution of the chance node ``state``: its id. A ``chance_outcomes()`` that reads the
        state only as ``self.name`` (``chance_reads``) is asked once for each value of the names it reads."""
        inner = state.inner
        cls = type(inner)
        if cls not in self.readers:
            self.readers[cls] = chance_reads(cls, inner)
        names = self.readers[cls]
        read = None if names is None else _read(inner, names)
        if read is not None:
            found = self.by_reads.get(read)
            if found is None:
                found = self.by_reads[read] = self._asked(state)
            return found
        return self._asked(state)

    def _asked(self, state: RulesState) -> int:
        """The distribution ``state.chance_outcomes()`` gives: its id."""
        inner = state.inner
        fn = inner.chance_outcomes
        try:
            pairs = fn()
        except BaseException as err:  # noqa: BLE001 - the user's code: one line
            raise state.rules.failure(inner, "chance_outcomes", fn, err) from None
        if type(pairs) is tuple and pairs is self.last[0]:
            return self.last[1]
        found = self._again(pairs)
        if found is not None:
            return found
        content = _content(pairs)
        if content is not None:
            found = self.ids.get(content)
        if found is None:
            weights = state._weights(inner, fn, list(pairs))  # the guard's check, once per content
            self.weights.append(weights)
            self.totals.append(sum(weight for _, weight in weights))
            found = len(self.weights) - 1
            if content is not None:
                self.ids[content] = found
        if content is not None:
            self.recent = (found, content)
        if type(pairs) is tuple:
            self.last = (pairs, found)
        return found

    def _again(self, pairs: Any) -> int | None:
        """The distribution found last, when ``pairs`` has its content (else None): ``_content`` compared
        part by part, each part in one pass, without hashing (a fresh list of the same throw, quickly)."""
        if self.recent is None or type(pairs) not in (list, tuple):
            return None
        found, (outcomes, numerators, denominators) = self.recent
        try:
            if len(pairs) != len(outcomes) or set(map(type, pairs)) != _TUPLE or set(map(len, pairs)) != _PAIR \
                    or tuple(map(_FIRST, pairs)) != outcomes:
                return None
            chances = tuple(map(_SECOND, pairs))
            if denominators is None:
                return found if set(map(type, chances)) == _INT and chances == numerators else None
            if set(map(type, chances)) == _FRACTION and tuple(map(_NUMERATOR, chances)) == numerators \
                    and tuple(map(_DENOMINATOR, chances)) == denominators:
                return found
        except (TypeError, ValueError):  # outcomes that do not compare: the guard looks at them
            pass
        return None

    def checked(self, state: RulesState) -> list[tuple[object, int]]:
        """The checked outcomes of ``state`` (as ``RulesState.chance_outcomes``)."""
        return self.weights[self.of(state)]

    def draw(self, state: RulesState, stream) -> object:
        """The outcome of the chance node ``state`` drawn from ``stream``, as ``sample_outcome`` draws it."""
        return self.drawn(self.of(state), stream)

    def drawn(self, d: int, stream) -> object:
        """An outcome of distribution ``d`` drawn from ``stream``: where ``below(total)`` falls in the weights."""
        while len(self.running) <= d:
            self.running.append(list(accumulate(weight for _, weight in self.weights[len(self.running)])))
        return self.weights[d][bisect_right(self.running[d], stream.below(self.totals[d]))][0]


_SELF_LOADS = frozenset({"LOAD_FAST", "LOAD_DEREF", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW"})
_METHOD_FLAG = sys.version_info >= (3, 12)  # LOAD_ATTR's low bit: a method loaded to be called (3.11: LOAD_METHOD)
_UNKNOWN = frozenset({"locals", "vars", "eval", "exec", "globals", "super", "__import__"})


def chance_reads(cls: type, inner: Any) -> tuple[str, ...] | None:
    """The attributes of a state of class ``cls`` that its ``chance_outcomes(self)`` reads, when its code
    (and the code nested in it) uses ``self`` only as ``self.name`` (read, not called), each name an attribute
    of the state's own, not a property or a method of the class; else None. Its outcomes are then what the
    values of those attributes make them: asked once for each, as a position is asked once."""
    if "chance_outcomes" in getattr(inner, "__dict__", {"chance_outcomes": None}):
        return None  # a state without attributes of its own, or one with its own chance_outcomes
    fn = _in_class(cls, "chance_outcomes")
    if type(fn) is not FunctionType or fn.__closure__ or cls.__getattribute__ is not object.__getattribute__ \
            or hasattr(cls, "__getattr__"):
        return None
    code = fn.__code__
    if code.co_argcount != 1 or code.co_kwonlyargcount or code.co_flags & (0x04 | 0x08) or not code.co_varnames:
        return None
    names: set[str] = set()
    if not _reads_only(code, code.co_varnames[0], names):
        return None
    if any(hasattr(type(_in_class(cls, name)), "__get__") for name in names):
        return None  # a method, a property, a slot: more than a value of the state's own
    return tuple(sorted(names))


def _in_class(cls: type, name: str) -> Any:
    """What the class ``cls`` (or a class it derives from) holds as ``name``, or None."""
    return next((base.__dict__[name] for base in cls.__mro__ if name in base.__dict__), None)


def _reads_only(code: CodeType, me: str, names: set[str]) -> bool:
    """Whether ``code`` and the code nested in it use ``me`` only as ``me.name`` (the names added to ``names``)."""
    steps = list(dis.get_instructions(code))
    for k, step in enumerate(steps):
        if step.opname in ("LOAD_GLOBAL", "LOAD_NAME") and step.argval in _UNKNOWN:
            return False
        value = step.argval
        if value != me and not (type(value) is tuple and me in value):
            continue
        if step.opname in ("MAKE_CELL", "LOAD_CLOSURE"):  # the nested code that takes it is looked at below
            continue
        after = steps[k + 1] if k + 1 < len(steps) else None
        if step.opname not in _SELF_LOADS or value != me or after is None or after.opname != "LOAD_ATTR" \
                or _METHOD_FLAG and (after.arg or 0) & 1:  # a method loaded to be called
            return False
        names.add(after.argval)
    return all(_reads_only(inner, me, names) for inner in code.co_consts if isinstance(inner, CodeType))


def _read(inner: Any, names: tuple[str, ...]) -> tuple | None:
    """The class of ``inner`` and the values of its attributes ``names``, or None when one is not made of
    numbers, words, lists, tuples, sets and dicts alone (an object may change inside and stay equal)."""
    values = getattr(inner, "__dict__", None)
    if values is None:
        return None
    cls = type(inner)
    try:
        return (cls, *(_value(values[name] if name in values else _in_class(cls, name)) for name in names))
    except (TypeError, RecursionError):
        return None


def _value(value: Any) -> Hashable:
    """``value`` as a hashable image that is equal only for equal values of the same kinds, or TypeError."""
    kind = type(value)
    if kind in _SCALARS:
        return kind, value
    if kind is list or kind is tuple:
        return kind, tuple(map(_value, value))
    if kind is set or kind is frozenset:
        return kind, frozenset(map(_value, value))
    if kind is dict:
        return kind, tuple((_value(k), _value(v)) for k, v in value.items())
    raise TypeError(f"{kind.__name__} is not a plain value")


def _content(pairs: Any) -> tuple | None:
    """What identifies a list of (outcome, probability) pairs quickly, or None (the guard looks at it)."""
    try:
        if type(pairs) not in (list, tuple) or set(map(type, pairs)) - {tuple} or set(map(len, pairs)) - {2}:
            return None
        outcomes, chances = tuple(map(_FIRST, pairs)), tuple(map(_SECOND, pairs))
        kinds = set(map(type, chances))
        if kinds == {Fraction}:
            content = (outcomes, tuple(map(_NUMERATOR, chances)), tuple(map(_DENOMINATOR, chances)))
        elif kinds == {int}:
            content = (outcomes, chances, None)
        else:
            return None
        hash(content)
        return content
    except (TypeError, AttributeError):
        return None


def plain_clone(state: RulesState) -> RulesState:
    """``state.clone()``; for a file without ``clone()`` whose state holds plain values only (numbers,
    strings, and lists and tuples of them, no list held twice), the copy ``copy.deepcopy`` would make,
    without its bookkeeping."""
    inner = state.inner
    cls = type(inner)
    values = getattr(inner, "__dict__", None)
    if values is None or "clone" in values or not _plain(cls)[0]:
        return state.clone()
    copied = values.copy()
    seen: set[int] = set()
    for name, value in values.items():
        kind = type(value)
        if kind in _SCALARS:
            continue
        if kind is list and id(value) not in seen and _SCALARS.issuperset(map(type, value)):
            seen.add(id(value))
            copied[name] = list(value)
        elif kind is not tuple or not _SCALARS.issuperset(map(type, value)):
            return state.clone()
    twin = cls.__new__(cls)
    twin.__dict__.update(copied)
    return RulesState(state.rules, twin, state.turns, state.steps, state._who, state._legal)


def table_key(state: RulesState) -> Any:
    """The position of ``state``: the file's ``key()``, else its attributes frozen (at least as fine as the
    guard's default key)."""
    inner = state.inner
    values = getattr(inner, "__dict__", None)
    keyed = _plain(type(inner))[1]
    if values is None or keyed or "key" in values or keyed is None and hasattr(inner, "key"):
        return state.key()
    parts: list[Any] = [type(inner)]
    for name, value in values.items():
        kind = type(value)
        if kind in _SCALARS:
            parts += (name, value)
        elif (kind is list or kind is tuple) and _SCALARS.issuperset(map(type, value)):
            parts += (name, tuple(value))
        else:
            try:
                parts += (name, freeze(value, frozenset({id(inner)})))
            except (TypeError, RecursionError):
                return state.key()  # the guard says what cannot be frozen
    return tuple(parts)


_PLAIN: dict[type, tuple[bool, bool | None]] = {}


def _plain(cls: type) -> tuple[bool, bool | None]:
    """Whether ``plain_clone`` may copy the states of class ``cls`` itself (no ``clone()``, nothing that
    changes how ``copy.deepcopy`` copies), and whether the class has a ``key()`` (None: a ``__getattr__``
    may answer for it: each state is asked); looked at once per class."""
    found = _PLAIN.get(cls)
    if found is None:
        odd = hasattr(cls, "__getattr__")  # it may answer for any name
        copies = not (odd or hasattr(cls, "clone") or hasattr(cls, "__deepcopy__") or hasattr(cls, "__setstate__")
                      or cls.__reduce_ex__ is not object.__reduce_ex__ or cls.__reduce__ is not object.__reduce__
                      or cls.__getstate__ is not object.__getstate__ or cls in copyreg.dispatch_table)
        found = _PLAIN[cls] = (copies, True if hasattr(cls, "key") else None if odd else False)
    return found


def _grown(values: np.ndarray, size: int, fill: int = 0) -> np.ndarray:
    grown = np.full((size, *values.shape[1:]), fill, dtype=values.dtype)
    grown[:len(values)] = values
    return grown


class Table:
    """The positions and edges of one rules game under one set of players, learned as games need them."""

    def __init__(self, rules: RulesGame, seats: list, budget: int = BUDGET):
        from toolkit.rules import table_kernel as kernel

        self.rules, self.seats, self.budget = rules, seats, budget
        self.kernel = kernel
        self.players = rules.players
        self.policy = np.array([kernel.RANDOM if type(s) is RandomPolicy else kernel.FIRST if type(s) is FirstPolicy
                                else kernel.OWN for s in seats], dtype=np.int64)
        first = rules.new_initial_state()
        self.scored = first.scores() is not None
        self.distributions = Distributions()
        self.ids: dict[Any, int] = {}
        self.states: list[RulesState | None] = []  # a position's first state, kept to learn its edges
        self.moves: list[Any] = []  # a position's legal actions, or its distribution's id
        self.counted: list[dict[str, int]] = []  # a position's events()
        self.ended: list[tuple[int, ...]] = []  # at an end: the names its events() gives, in order (as ids)
        self.names: list[str] = []  # every count of events() met, in the order met
        self.name_ids: dict[str, int] = {}
        self.winners: list[int] = []
        self.kind = np.zeros(ROOM, dtype=np.int64)
        self.dist = np.zeros(ROOM, dtype=np.int64)
        self.nedge = np.zeros(ROOM, dtype=np.int64)
        self.estart = np.zeros(ROOM, dtype=np.int64)
        self.choice = np.full(ROOM, -1, dtype=np.int64)
        self.scores = np.zeros((ROOM, self.players), dtype=np.int64)
        self.edges = 0
        self.succ = np.full(4 * ROOM, -1, dtype=np.int32)
        self.tinc = np.zeros(4 * ROOM, dtype=np.int8)
        self.evd = np.zeros((4 * ROOM, 0), dtype=np.int32)
        self.cum = np.zeros(0, dtype=np.int64)
        self.dstart = np.zeros(0, dtype=np.int64)
        self.full = False  # the budget is spent: nothing more is learned
        self.start = self.position(first)
        if self.start < 0:
            raise NotTabulated("its first position is past the table's budget")
        self.start_events = dict(self.counted[self.start])

    # --- learning ---------------------------------------------------------------------------------------

    @property
    def used(self) -> int:
        """The bytes the table takes, as the budget counts them."""
        return len(self.states) * POSITION_BYTES + self.edges * (EDGE_BYTES + 4 * len(self.names))

    def position(self, state: RulesState) -> int:
        """The position of ``state``, learned if new; -1 when the budget has no room for it."""
        key = table_key(state)
        found = self.ids.get(key)
        if found is not None:
            return found
        who = state.current_player()
        kernel = self.kernel
        edges = 0
        moves: Any = None
        kind = who
        if who == TERMINAL:
            kind = kernel.TERMINAL
        elif who == CHANCE:
            kind = kernel.CHANCE
            moves = self.distributions.of(state)
            if self.distributions.totals[moves] >= LARGEST:
                kind = kernel.OUTSIDE
            else:
                edges = len(self.distributions.weights[moves])
        else:
            moves = state.legal_actions()
            edges = len(moves)
        if self.used + POSITION_BYTES + edges * (EDGE_BYTES + 4 * len(self.names)) > self.budget:
            self.full = True
            return -1
        scores = state.scores() if self.scored else None
        if scores is not None and not all(type(s) is int and -LARGEST <= s < LARGEST for s in scores):
            raise NotTabulated("its score() gives numbers that are not whole")
        counted = state.events()
        for name in counted:
            self._name(name)
        p = len(self.states)
        if p == len(self.kind):
            self._grow_positions()
        if kind == kernel.CHANCE:
            self.dist[p] = self._distribution(moves)
        self.kind[p], self.nedge[p], self.estart[p] = kind, edges, self.edges
        if scores is not None:
            self.scores[p] = scores
        self._reserve(edges)
        self.edges += edges
        self.ids[key] = p
        self.states.append(state if edges else None)
        self.moves.append(moves)
        self.counted.append(counted)
        self.ended.append(tuple(self.name_ids[name] for name in counted) if who == TERMINAL else ())
        winner = state.winner if who == TERMINAL else None
        self.winners.append(-1 if winner is None else winner)
        return p

    def learn_edge(self, p: int, j: int) -> bool:
        """Learn the edge ``j`` of position ``p``: False when the budget has no room for its successor."""
        parent = self.states[p]
        assert parent is not None
        child = plain_clone(parent)
        kind = int(self.kind[p])
        if kind == self.kernel.CHANCE:
            action = self.distributions.weights[self.moves[p]][j][0]
        else:
            action = self.moves[p][j]
        child.apply_action(action, kind >= 0)
        known = len(self.states)
        c = self.position(child)
        if c < 0:
            return False
        e = int(self.estart[p]) + j
        self.succ[e] = c
        self.tinc[e] = child.turns - parent.turns
        before, after = self.counted[p], self.counted[c] if c == known else child.events()
        if not (before or after):
            return True
        for name in after:
            self._name(name)
        for name in set(before) | set(after):
            delta = after.get(name, 0) - before.get(name, 0)
            if not -(1 << 31) <= delta < 1 << 31:
                raise NotTabulated("its events() count by steps too large to keep")
            self.evd[e, self.name_ids[name]] = delta
        return True

    def learn_choice(self, p: int) -> None:
        """Ask the file's own player at position ``p`` its choice, once."""
        state = self.states[p]
        assert state is not None
        action = self.seats[int(self.kind[p])].act(state)
        self.choice[p] = self.moves[p].index(action)

    def _name(self, name: str) -> int:
        found = self.name_ids.get(name)
        if found is None:
            found = self.name_ids[name] = len(self.names)
            self.names.append(name)
            self.evd = np.concatenate((self.evd, np.zeros((len(self.evd), 1), dtype=np.int32)), axis=1)
        return found

    def _distribution(self, d: int) -> int:
        """The row of distribution ``d`` in the kernel's cumulative weights (added at its first use)."""
        while len(self.dstart) <= d:
            weights = self.distributions.weights[len(self.dstart)]
            self.dstart = np.append(self.dstart, len(self.cum))
            self.cum = np.concatenate((self.cum, np.cumsum([w for _, w in weights], dtype=np.int64)))
        return d

    def _grow_positions(self) -> None:
        size = 2 * len(self.kind)
        self.kind, self.dist, self.nedge = _grown(self.kind, size), _grown(self.dist, size), _grown(self.nedge, size)
        self.estart, self.scores = _grown(self.estart, size), _grown(self.scores, size)
        self.choice = _grown(self.choice, size, -1)

    def _reserve(self, edges: int) -> None:
        if self.edges + edges > len(self.succ):
            size = max(2 * len(self.succ), self.edges + edges)
            self.succ, self.tinc, self.evd = _grown(self.succ, size, -1), _grown(self.tinc, size), \
                _grown(self.evd, size)

    # --- playing --------------------------------------------------------------------------------------

    def play(self, run_seed: int, start: int, count: int, replay) -> list[dict[str, int]]:
        """The records of games ``start .. start+count-1``, in order: those the table plays, and those it
        does not (they leave the table, or go on past the file's limit of steps) played by ``replay(index)``
        (the Python loop)."""
        from toolkit.sim.card_order import game_seed, rule_seed
        from toolkit.sim.runner import SEAT_STREAM

        kernel, players = self.kernel, self.players
        pos = np.full(count, self.start, dtype=np.int64)
        pending = np.full(count, -1, dtype=np.int64)
        counts = np.zeros((count, 5), dtype=np.int64)
        counts[:, kernel.C_LEADER] = -1
        worst = np.zeros((count, players), dtype=np.int64)
        streams = np.zeros((count, 1 + players), dtype=np.uint64)
        for g in range(count):
            seed = game_seed(run_seed, start + g)
            streams[g, 0] = seed
            for seat in range(players):
                streams[g, 1 + seat] = rule_seed(seed, 0, seat, SEAT_STREAM)
        status = np.zeros(count, dtype=np.int8)
        misses = np.zeros((MISSES, 3), dtype=np.int64)
        events = np.zeros((count, len(self.names)), dtype=np.int64)
        for name, value in self.start_events.items():
            events[:, self.name_ids[name]] = value
        collecting = gc.isenabled()
        gc.disable()  # the table's many objects would make each collection long; learning makes no cycles
        try:
            events = self._run(pos, pending, counts, worst, events, streams, status, misses)
        finally:
            if collecting:
                gc.enable()
        return self._records(start, pos, counts, worst, events, status, replay)

    def _run(self, pos, pending, counts, worst, events, streams, status, misses) -> np.ndarray:
        """Play the games until each is over or out of the table: their events (more names may have come)."""
        kernel, count = self.kernel, len(pos)
        while True:
            found = kernel.play(self.kind, self.dist, self.nedge, self.estart, self.choice, self.scores, self.succ,
                                self.tinc, self.evd, self.cum, self.dstart, self.policy, self.scored,
                                self.rules.max_steps, pos, pending, counts, worst, events, streams, status, misses)
            if not found:
                break
            names = len(self.names)
            self._learn(misses[:found], pos, pending, status)
            if len(self.names) > names:
                events = np.concatenate((events, np.zeros((count, len(self.names) - names), dtype=np.int64)), axis=1)
        return events

    def _learn(self, misses: np.ndarray, pos: np.ndarray, pending: np.ndarray, status: np.ndarray) -> None:
        kernel = self.kernel
        refused: set[tuple[int, int]] = set()
        for what, p, j in misses.tolist():
            if what == kernel.CHOICE:
                if self.choice[p] < 0:
                    self.learn_choice(p)
            elif self.succ[self.estart[p] + j] < 0 and (p, j) not in refused and \
                    (self.full or not self.learn_edge(p, j)):
                refused.add((p, j))
        if refused:  # the games waiting for what the budget refuses leave the table
            waiting = (status == kernel.RUNNING) & (pending >= 0)
            for g in np.flatnonzero(waiting).tolist():
                if (int(pos[g]), int(pending[g])) in refused:
                    status[g] = kernel.LEFT

    def _records(self, start, pos, counts, worst, events, status, replay) -> list[dict[str, int]]:
        """Each game's record, as ``play_game`` gives it (the same fields in the same order)."""
        done = self.kernel.DONE
        records = []
        names = self.names
        rows = zip(pos.tolist(), counts.tolist(), worst.tolist(), events.tolist(), status.tolist())
        for g, (p, (steps, turns, decisions, _, changes), deficits, counted, state) in enumerate(rows):
            if state != done:
                records.append(replay(start + g))
                continue
            winner = self.winners[p]
            record = {"winner": winner, "turns": turns, "steps": steps, "decisions": decisions,
                      "stalled": int(winner < 0), "lead_changes": changes if self.scored else 0,
                      "winner_deficit": deficits[winner] if self.scored and winner >= 0 else 0}
            for n in self.ended[p]:
                record[names[n]] = counted[n]
            records.append(record)
        return records

    def draw(self, state: RulesState, stream) -> object:
        """The outcome of the chance node ``state`` drawn from ``stream``, from its position's checked
        outcomes when the table knows the position (by key), else from the file's."""
        p = self.ids.get(table_key(state))
        if p is not None and self.kind[p] == self.kernel.CHANCE:
            return self.distributions.drawn(self.moves[p], stream)
        return self.distributions.draw(state, stream)


def _differs(python: dict[str, int], tabled: dict[str, int], fields: tuple[str, ...]) -> str:
    """Which of the file's methods the two records of one game say depends on more than the key."""
    if [(n, v) for n, v in python.items() if n not in fields] != [(n, v) for n, v in tabled.items() if n not in fields]:
        return "events()"
    if python["turns"] != tabled["turns"]:
        return "ends_turn()"
    if (python["lead_changes"], python["winner_deficit"]) != (tabled["lead_changes"], tabled["winner_deficit"]):
        return "score()"
    return "play (its players, legal_actions(), apply_action() or returns())"


class Tabulated:
    """The games of one rules file under one set of players, played from a table (``Table``) as long as it
    holds: the first ``verify`` games are checked against the Python loop (``play(rules, seats, game_seed,
    draw)``: ``toolkit.sim.play.play_game``), and a file that fails the check, or that the table
    cannot keep, is played by the Python loop from then on (one note says why)."""

    def __init__(self, rules: RulesGame, seats: list, play, budget: int = BUDGET, verify: int = VERIFY):
        self.rules, self.seats, self.play, self.verify = rules, seats, play, verify
        self.checked = 0
        self.keyed = hasattr(rules.new_initial_state().inner, "key")
        self.why: str | None = None
        self.distributions = Distributions()
        self.table: Table | None = None
        try:
            self.table = Table(rules, seats, budget)
        except NotTabulated as err:
            self._give_up(str(err))

    @property
    def positions(self) -> int:
        return 0 if self.table is None else len(self.table.states)

    def records(self, run_seed: int, start: int, count: int) -> list[dict[str, int]]:
        """The records of games ``start .. start+count-1``."""
        from toolkit.sim.card_order import game_seed

        rules, seats, table, play_game = self.rules, self.seats, self.table, self.play
        if table is not None:
            def replay(index: int) -> dict[str, int]:
                return play_game(rules, seats, game_seed(run_seed, index), table.draw)

            try:
                records = table.play(run_seed, start, count, replay)
            except NotTabulated as err:
                self._give_up(str(err))
            else:
                for k in range(min(count, self.verify - self.checked)):
                    python = replay(start + k)
                    if list(python.items()) != list(records[k].items()):
                        known = "its key()" if self.keyed else "its attributes"
                        self._give_up(f"its {_differs(python, records[k], FIELDS)} depends on more than {known} "
                                      f"(game {start + k + 1} came out otherwise from the table)")
                        break
                    self.checked += 1
                else:
                    return records
        draw = self.distributions.draw
        return [play_game(rules, seats, game_seed(run_seed, index), draw) for index in range(start, start + count)]

    def _give_up(self, why: str) -> None:
        from toolkit.fast.notice import say

        self.table = None
        self.why = why
        say(f"{self.rules.name}: {why}: its games are played by the file itself, not from a table of its positions")
