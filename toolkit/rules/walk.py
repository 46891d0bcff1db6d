"""The exact chain of a game of one's own, walked under named players, and the answers it gives.

A rules game (``toolkit.rules``: a ``RulesGame`` whose states follow the toolkit engine's conventions)
is walked by ``toolkit.odds.engine_chain`` as the built-in games are: every chance point a state of the
chain, the players' decisions played between them. Two things differ from a built-in game:

* a player who decides at random (``Policy.deterministic`` false: ``random``, uniform over the legal
  actions) is a chance point of the chain too, its choices weighted as ``Policy.distribution`` says;
* a finished game is an end of its own, keyed by who won and the returns (``engine_chain.build``'s
  ``outcome``), so draws and shared ends are told apart from a game that never ends.

The answers (``chain_odds``): the expected length (in the game's turns when it says what a turn is,
else in steps), the chance each seat wins, the chance of each distinct end, the chance the game never
ends (then the expected length is infinite, and said so), and the distribution of the length.

``walk_graph`` walks the same game with the decision points kept (``Graph``): what
``toolkit.rules.optimal`` solves for the best play.
"""

from __future__ import annotations

import copy
from array import array
from dataclasses import dataclass
from fractions import Fraction

from toolkit.game.contract import CHANCE, TERMINAL

DISTRIBUTION_MASS = Fraction(999, 1000)  # the length distribution is listed until this much of it is told
MAX_LENGTH = 400  # ... or this length, whichever comes first


class Played:
    """A rules state in which the seats whose players decide at random are chance points.

    ``seats[s]`` is the policy of seat ``s``: deterministic ones decide (``act``), the others' choices
    (``distribution``) are chance outcomes; ``chance_seats`` lists the seats turned into chance (for
    ``walk_graph``: every seat but those it keeps, whatever their players); ``met`` notes that a seat was
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


class _Decider:
    """A deterministic player as ``engine_chain`` asks it: ``act`` on the walk's state (the rules state, or
    the one inside ``Played``), noting in ``met`` that a seat decided."""

    deterministic = True
    decides_slowly = True  # a file's player is its own Python: the walk plays a decision point's play once

    def __init__(self, policy, played: bool, met: Met):
        self.policy = policy

        def act(state):
            met.decisions = True
            return policy.act(state.state if played else state)
        self.act = act


def _start(game, seats, met: Met, chance_seats=None):
    """The start of ``game`` with ``seats`` playing (a ``Played`` state; the rules state itself when no seat
    is a chance point, which saves a call per step)."""
    if chance_seats is None:
        chance_seats = frozenset(s for s, policy in enumerate(seats) if not getattr(policy, "deterministic", False))
    if not chance_seats:
        return game.new_initial_state()
    return Played(game.new_initial_state(), seats, frozenset(chance_seats), met)


def _deciders(seats, start, met: Met) -> list:
    played = isinstance(start, Played)
    return [_Decider(policy, played, met) for policy in seats]


def _outcome(state) -> tuple:
    return tuple(state.returns())


@dataclass(frozen=True)
class ChainOdds:
    unit: str  # "turns" or "steps"
    states: int  # chance points of the chain
    expected_length: Fraction | None  # None: the game may never end (then p_never > 0)
    win: tuple[Fraction, ...]  # per seat
    no_winner: Fraction  # the game ended without one winner (a draw, a shared win, a lost solo game)
    p_never: Fraction  # the game never ends
    ends: tuple[tuple[tuple[Fraction, ...], Fraction], ...]  # each distinct returns at the end and its chance
    distribution: tuple[Fraction, ...]  # P(length == t), t = 0, 1, ...
    beyond: Fraction  # the chance the game is longer than the distribution lists (or never ends)
    decisions: bool  # a seat was to decide somewhere (False: chance alone plays the game, the players never act)


def chain_odds(game, seats, max_states: int, progress=None, distribution: bool = True) -> ChainOdds:
    """The exact odds of ``game`` with ``seats`` (one policy per seat) playing; ``TooManyStates`` past
    ``max_states`` chance points."""
    from toolkit.odds import engine_chain

    met = Met()
    start = _start(game, seats, met)
    deciders = _deciders(seats, start, met)
    answer = engine_chain.solve(start, deciders, game.num_players(), max_states, progress=progress, outcome=_outcome)
    ends = {}
    for end, p in (answer.ends or {}).items():
        if end[0] == "end":
            ends[end[2]] = ends.get(end[2], Fraction(0)) + p
    win = answer.win_probability
    ended = sum(ends.values(), Fraction(0))
    listed, beyond = (), Fraction(1)
    if distribution:
        listed, beyond = length_distribution(start, deciders, max_states)
    return ChainOdds(game.info().length_unit, answer.states, answer.expected_turns, win, ended - sum(win, Fraction(0)),
                     answer.p_never, tuple(sorted(ends.items(), key=lambda pair: (-pair[1], pair[0]))), listed, beyond,
                     met.decisions)


def length_distribution(start, deciders, max_states: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """P(length == t) for t = 0 .. T, T the first length by which ``DISTRIBUTION_MASS`` of the games
    have ended (at most ``MAX_LENGTH``), and the chance of a longer game (or of none ending)."""
    from toolkit.odds import engine_chain

    transitions, start_key, _ = engine_chain.build(start, deciders, max_states, outcome=_outcome, edge_turns=True)
    if not transitions:
        first = engine_chain._advance(start.clone(), deciders) if start_key != engine_chain.LOOP else start
        if start_key == engine_chain.LOOP or start_key[0] != "end":
            return (), Fraction(1)
        return tuple([Fraction(0)] * first.turns + [Fraction(1)]), Fraction(0)
    first_turns = engine_chain._advance(start.clone(), deciders).turns
    try:
        listed, beyond = transitions.turn_distribution(start_key, first_turns, MAX_LENGTH, DISTRIBUTION_MASS)
    except ValueError:  # a turn may go on for ever: no distribution by turns
        return (), Fraction(1)
    return tuple(listed), beyond


def chain_drn(game, seats, max_states: int, title: str) -> tuple[bytes, int]:
    """The chain behind ``chain_odds`` in Storm's explicit DRN (``toolkit.odds.drn.engine_drn``): its
    reward model counts the game's length (turns or steps)."""
    from toolkit.odds import drn, engine_chain

    met = Met()
    start = _start(game, seats, met)
    deciders = _deciders(seats, start, met)
    transitions, start_key, turn_reward = engine_chain.build(start, deciders, max_states, outcome=_outcome)
    first = engine_chain._advance(start.clone(), deciders).turns if start_key != engine_chain.LOOP else 0
    comments = [f"{game.name}: {title}",
                f"reward 'turns': the game's length in {game.info().length_unit}; labels: win1 .. winN and end: that "
                "seat won; draw and end: the game ended without one winner; loop and never: the players decide "
                "for ever; never: no end can be reached"]
    return drn.engine_drn(transitions, start_key, turn_reward, first, comments)


# --- the game with its decision points kept ----------------------------------------------------------


_END = object()  # marks the key of an end in ``walk_graph`` (no state's key holds it)


class Fields:
    """The kept seats' decision nodes described for people: node -> (an index into ``Graph.names``, the
    values), read as a mapping, in the order the walk described them. Held as arrays and one list of the
    value tuples rather than a dict of pairs (a million decisions of Pig to 100: some 150 MB less)."""

    def __init__(self):
        self._place = array("i")  # per node: its place among the described, or -1
        self._nodes = array("q")
        self._names = array("i")
        self._values: list[tuple] = []

    def add(self, node: int, names_index: int, values: tuple) -> None:
        place = self._place
        if node >= len(place):
            place.extend(array("i", [-1]) * max(node + 1 - len(place), len(place)))
        place[node] = len(self._values)
        self._nodes.append(node)
        self._names.append(names_index)
        self._values.append(values)

    def get(self, node: int, default=None):
        place = self._place[node] if 0 <= node < len(self._place) else -1
        return default if place < 0 else (self._names[place], self._values[place])

    def __getitem__(self, node: int) -> tuple[int, tuple]:
        found = self.get(node)
        if found is None:
            raise KeyError(node)
        return found

    def __contains__(self, node: object) -> bool:
        return isinstance(node, int) and self.get(node) is not None

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self):
        return iter(self._nodes)

    def items(self):
        return zip(self._nodes, zip(self._names, self._values))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fields) and list(self.items()) == list(other.items())


class Graph:
    """A game walked with the decisions of ``kept`` seats kept (the others' players are chance points).

    Nodes are ints, 0 the start, numbered as the walk meets them; ``kind[n]`` is the seat deciding at
    ``n``, ``CHANCE`` or ``TERMINAL``. The edges of node ``n`` are ``edges(n)``, indices into
    ``targets`` (a node), ``weights`` (a chance outcome's whole weight; 1 for a decision), ``actions``
    (the decision's action; unread for chance) and ``turns`` (the turns started on the way). A terminal
    node's returns are ``returns[end[n]]`` and its winner ``winners[end[n]]``; ``fields[n]`` describes a
    kept seat's decision node for people (``describe``), with ``names[fields[n][0]]`` its field names."""

    def __init__(self):
        self.kind = array("b")
        self.row = array("q")  # node -> its row of edges (rows are in the order nodes were expanded)
        self.offsets = array("q", [0])  # row -> where its edges start
        self.targets = array("q")
        self.weights: array | list = array("q")  # a list once some weight passes 64 bits
        self.actions: array | list = array("q")  # a list once some action is not a small whole number
        self.turns = array("q")
        self.end = array("q")  # per node: an index into returns, or -1
        self.returns: list[tuple[Fraction, ...]] = []
        self.winners: list[int | None] = []
        self.fields = Fields()
        self.names: list[tuple[str, ...]] = []
        self.kept: frozenset[int] = frozenset()
        self.players = 0
        self.decisions = False  # a seat, kept or not, was ever to decide (False: chance alone plays the game)

    def __len__(self) -> int:
        return len(self.kind)

    def edges(self, node: int) -> range:
        row = self.row[node]
        return range(self.offsets[row], self.offsets[row + 1])


def walk_graph(game, seats, kept, max_states: int, describe=None, progress=None) -> Graph:
    """Walk ``game`` with the seats in ``kept`` deciding (every decision kept) and the others playing
    ``seats[s]`` as chance points. ``describe(state)`` -> (names, values) is recorded for every kept
    decision node. ``TooManyStates`` past ``max_states`` nodes."""
    from toolkit.rules.guard import RulesState

    kept = frozenset(kept)
    players = game.num_players()
    graph = Graph()
    graph.kept, graph.players = kept, players
    met = Met()
    chance_seats = frozenset(range(players)) - kept
    first = _start(game, seats, met, chance_seats)
    inner = first.state if isinstance(first, Played) else first
    if type(inner) is RulesState:
        _walk_rules(graph, inner, seats, chance_seats, met, max_states, describe, progress)
    else:
        _walk_states(graph, first, met, max_states, describe, progress)
    graph.decisions = met.decisions or any(who >= 0 for who in graph.kind)
    return graph


def _walk_states(graph: Graph, first, met: Met, max_states: int, describe, progress) -> None:
    """``walk_graph`` on any engine's states: each edge a clone, an action applied and a key."""
    from toolkit.odds.engine_chain import TooManyStates

    ids = {first.key(): 0}
    names: dict[tuple, int] = {}
    ends: dict[tuple, int] = {}
    kind, row_of, offsets, targets, turns, end = (
        graph.kind, graph.row, graph.offsets, graph.targets, graph.turns, graph.end)
    kind.append(TERMINAL)
    row_of.append(-1)
    end.append(-1)
    todo = [(0, first)]
    while todo:
        node, state = todo.pop()
        row_of[node] = len(offsets) - 1
        if progress and len(offsets) % 1000 == 0:
            progress(1)
        who = state.current_player()
        if who == TERMINAL or state.is_terminal():
            kind[node], end[node] = TERMINAL, _end_code(graph, ends, (tuple(state.returns()), state.winner))
            offsets.append(len(targets))
            continue
        kind[node] = who
        if who == CHANCE:
            moves = state.chance_outcomes()
        else:
            moves = [(action, None) for action in state.legal_actions()]
            if describe is not None:
                field_names, values = describe(state.state if isinstance(state, Played) else state)
                graph.fields.add(node, names.setdefault(field_names, len(names)), values)
        began = state.turns
        last = len(moves) - 1
        for number, (move, weight) in enumerate(moves):
            after = state if number == last else state.clone()
            after.apply_action(move)
            # a finished game is keyed by how it ended: one node per end (an engine need not key its ends)
            key = (_END, tuple(after.returns()), after.winner) if after.is_terminal() else after.key()
            target = ids.get(key)
            if target is None:
                target = ids[key] = len(kind)
                if target >= max_states:
                    raise TooManyStates(max_states)
                kind.append(TERMINAL)
                row_of.append(-1)
                end.append(-1)
                todo.append((target, after))
            targets.append(target)
            _add_move(graph, move, weight)
            turns.append(after.turns - began)
        offsets.append(len(targets))
    graph.names = list(names)


def _end_code(graph: Graph, ends: dict[tuple, int], outcome: tuple) -> int:
    """The number of an end (its returns and winner), given in the order the walk meets them."""
    code = ends.get(outcome)
    if code is None:
        code = ends[outcome] = len(graph.returns)
        graph.returns.append(outcome[0])
        graph.winners.append(outcome[1])
    return code


def _add_move(graph: Graph, move, weight) -> None:
    """An edge's weight (1 for a decision) and action (-1 for chance)."""
    try:
        graph.weights.append(1 if weight is None else weight)
    except (OverflowError, TypeError):
        graph.weights = list(graph.weights) + [weight]
    actions = graph.actions
    if weight is not None:
        actions.append(-1)
    elif type(actions) is list or type(move) is not int or not -2**63 <= move < 2**63:
        actions = graph.actions = list(actions) if type(actions) is not list else actions
        actions.append(move)
    else:
        actions.append(move)


_UNKEYED = object()  # a successor whose key() failed: keyed the guarded way, which says why


def _walk_rules(graph: Graph, first, seats, chance_seats: frozenset[int], met: Met, max_states: int, describe,
                progress) -> None:
    """``walk_graph`` on a rules file's states (``RulesState``), the same graph as ``_walk_states`` gives,
    with fewer calls per edge: the file's own state is copied, moved and keyed directly (its errors said
    as the guard says them), and only a key not met before is asked whether the game is over, who plays
    and what ends it. A key met before is the same position (a key identifies a state), an end's too."""
    from toolkit.odds.engine_chain import TooManyStates
    from toolkit.rules import contain
    from toolkit.rules.guard import RulesState, plain_copy, plain_key

    rules = first.rules
    failure = rules.failure
    names: dict[tuple, int] = {}
    ends: dict[tuple, int] = {}
    graph.turns = array("b")  # a step starts at most one turn (the end of the game ends the turn it is in)
    kind, row_of, offsets, targets, turns, end = (
        graph.kind, graph.row, graph.offsets, graph.targets, graph.turns, graph.end)
    add_target, add_turns, add_weight, add_action = targets.append, turns.append, graph.weights.append, \
        graph.actions.append
    small_actions = True  # the actions are whole numbers of 64 bits (an array, not a list)
    ids = {first.key(): 0}
    final = bytearray(1)  # per node: an end of the game
    kind.append(TERMINAL)
    row_of.append(-1)
    end.append(-1)
    todo = [(0, first)]
    while todo:
        node, state = todo.pop()
        row_of[node] = len(offsets) - 1
        if progress and len(offsets) % 1000 == 0:
            progress(1)
        who = state.current_player()
        if who == TERMINAL:
            kind[node], end[node] = TERMINAL, _end_code(graph, ends, (tuple(state.returns()), state.winner))
            offsets.append(len(targets))
            continue
        if who in chance_seats:
            met.decisions = True
            moves = [(action, weight) for action, weight in seats[who].distribution(state) if weight]
            who = CHANCE
        elif who == CHANCE:
            moves = state.chance_outcomes()
        else:
            moves = [(action, None) for action in state.legal_actions()]
            if describe is not None:
                field_names, values = describe(state)
                graph.fields.add(node, names.setdefault(field_names, len(names)), values)
        kind[node] = who
        inner = state.inner
        began, steps = state.turns, state.steps + 1
        clone = getattr(inner, "clone", None)
        ends_turn = getattr(inner, "ends_turn", None)
        keyed = hasattr(inner, "key")
        last = len(moves) - 1
        for number, (move, weight) in enumerate(moves):
            try:
                twin = inner if number == last else clone() if clone is not None else plain_copy(inner)
            except BaseException as err:  # noqa: BLE001
                raise failure(inner, "clone", clone or copy.deepcopy, err) from None
            try:
                ends_now = True if ends_turn is None else bool(ends_turn(move))
            except BaseException as err:  # noqa: BLE001
                raise failure(inner, "ends_turn", ends_turn, err, (move,)) from None
            try:
                twin.apply_action(move)
            except BaseException as err:  # noqa: BLE001
                raise failure(twin, "apply_action", twin.apply_action, err, (move,)) from None
            try:
                key = twin.key() if keyed else plain_key(twin)
                target = ids.get(key)
            except BaseException as err:  # noqa: BLE001 - keyed again below, the guarded way
                if isinstance(err, KeyboardInterrupt) and contain.real_interrupt():
                    raise
                key, target = _UNKEYED, None
            if target is None:
                after = RulesState(rules, twin, began + ends_now, steps)
                if not ends_now:
                    after._who = after._player()
                    if after._who == TERMINAL:  # the end of the game ends the turn it is in
                        after.turns += 1
                over = after.current_player() == TERMINAL
                if over:  # one node per end, keyed by how it ended
                    outcome = (_END, tuple(after.returns()), after.winner)
                    target = ids.get(outcome)
                else:
                    if key is _UNKEYED:
                        key = after.key()
                    target = ids.get(key)
                if target is None:
                    target = len(kind)
                    if target >= max_states:
                        raise TooManyStates(max_states)
                    kind.append(TERMINAL)
                    row_of.append(-1)
                    end.append(-1)
                    final.append(over)
                    todo.append((target, after))
                    if over:
                        ids[outcome] = target
                if key is not _UNKEYED:
                    ids[key] = target
                add_turns(after.turns - began)
            else:
                add_turns(1 if ends_now or final[target] else 0)
            add_target(target)
            if weight is None:
                add_weight(1)
                if not small_actions or type(move) is not int or not -2**63 <= move < 2**63:
                    if small_actions:
                        graph.actions = list(graph.actions)
                        add_action, small_actions = graph.actions.append, False
                add_action(move)
            else:
                try:
                    add_weight(weight)
                except (OverflowError, TypeError):
                    graph.weights = list(graph.weights)
                    add_weight = graph.weights.append
                    add_weight(weight)
                add_action(-1)
        offsets.append(len(targets))
    graph.names = list(names)


_PROPERTIES: dict[type, tuple[str, ...]] = {}  # a class -> the names of its public properties


def _properties(cls: type) -> tuple[str, ...]:
    names = _PROPERTIES.get(cls)
    if names is None:
        found: list[str] = []
        for owner in cls.__mro__:
            for name, member in vars(owner).items():
                if isinstance(member, property) and not name.startswith("_") and name not in found:
                    found.append(name)
        names = _PROPERTIES[cls] = tuple(found)
    return names


_SHOWN = (bool, int, str, Fraction)  # what a field may be
_LISTED = (int, str, Fraction)  # what a list or tuple of fields may hold


def fields_of(state, skip=frozenset()) -> tuple[tuple[str, ...], tuple]:
    """A state's attributes and properties for people, flattened: numbers and words as they are, a list or
    tuple of them as ``name[0]``, ``name[1]`` ...; anything else, names starting with ``_`` and the names
    in ``skip`` left out (what the policy table reads)."""
    try:
        attributes = dict(vars(state))
    except TypeError:  # a state of slots: its slots
        attributes = {name: getattr(state, name) for name in getattr(type(state), "__slots__", ())
                      if hasattr(state, name)}
    for name in _properties(type(state)):
        if name not in attributes:
            try:
                attributes[name] = getattr(state, name)
            except Exception:  # noqa: BLE001 - a property that cannot be read is left out
                continue
    names, values = [], []
    for name, value in sorted(attributes.items()):
        if name.startswith("_") or name in skip:
            continue
        kind = type(value)
        if kind is int or kind is str or kind is bool or isinstance(value, _SHOWN):
            names.append(name)
            values.append(value)
        elif (kind is list or kind is tuple or isinstance(value, (list, tuple))) and all(
                type(v) is int or isinstance(v, _LISTED) for v in value):
            for i, v in enumerate(value):
                names.append(f"{name}[{i}]")
                values.append(v)
    return tuple(names), tuple(values)
