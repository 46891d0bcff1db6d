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

``walk_graph`` walks the same game with the decision points kept (a ``toolkit.walk.ArrayGraph``): what
``toolkit.rules.optimal`` solves for the best play.
"""

from __future__ import annotations

import copy
from array import array
from dataclasses import dataclass
from fractions import Fraction

from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.walk.graph import ArrayGraph, TooManyStates
from toolkit.walk.walker import END_KEY

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
        first = engine_chain.advance(start.clone(), deciders) if start_key != engine_chain.LOOP else start
        if start_key == engine_chain.LOOP or start_key[0] != "end":
            return (), Fraction(1)
        return tuple([Fraction(0)] * first.turns + [Fraction(1)]), Fraction(0)
    first_turns = engine_chain.advance(start.clone(), deciders).turns
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
    first = engine_chain.advance(start.clone(), deciders).turns if start_key != engine_chain.LOOP else 0
    comments = [f"{game.name}: {title}",
                f"reward 'turns': the game's length in {game.info().length_unit}; labels: win1 .. winN and end: that "
                "seat won; draw and end: the game ended without one winner; loop and never: the players decide "
                "for ever; never: no end can be reached"]
    return drn.engine_drn(transitions, start_key, turn_reward, first, comments)


# --- the game with its decision points kept ----------------------------------------------------------


def walk_graph(game, seats, kept, max_states: int, describe=None, progress=None) -> ArrayGraph:
    """Walk ``game`` with the seats in ``kept`` deciding (every decision kept) and the others playing
    ``seats[s]`` as chance points. ``describe(state)`` -> (names, values) is recorded for every kept
    decision node. ``TooManyStates`` past ``max_states`` nodes."""
    from toolkit.rules.guard import RulesState
    from toolkit.walk import walker

    kept = frozenset(kept)
    players = game.num_players()
    met = Met()
    chance_seats = frozenset(range(players)) - kept
    first = _start(game, seats, met, chance_seats)
    inner = first.state if isinstance(first, Played) else first
    if type(inner) is RulesState:
        graph = _walk_rules(inner, seats, chance_seats, kept, met, max_states, describe, progress)
    else:
        own = describe
        if describe is not None and isinstance(first, Played):
            def describe(state):
                return own(state.state)
        graph = walker.walk(first, max_states, kept=kept, describe=describe, progress=progress)
    graph.players = players
    graph.decisions = met.decisions or any(who >= 0 for who in graph.kind)
    return graph


_UNKEYED = object()  # a successor whose key() failed: keyed the guarded way, which says why


def _walk_rules(first, seats, chance_seats: frozenset[int], kept: frozenset[int], met: Met, max_states: int,
                describe, progress) -> ArrayGraph:
    """``walk_graph`` on a rules file's states (``RulesState``), the same graph as ``toolkit.walk.walker`` gives,
    with fewer calls per edge: the file's own state is copied, moved and keyed directly (its errors said
    as the guard says them), and only a key not met before is asked whether the game is over, who plays
    and what ends it. A key met before is the same position (a key identifies a state), an end's too."""
    from toolkit.rules import contain
    from toolkit.rules.guard import RulesState, plain_copy, plain_key

    rules = first.rules
    failure = rules.failure
    names: dict[tuple, int] = {}
    graph = ArrayGraph()
    graph.kept = kept
    graph.turns = array("b")  # a step starts at most one turn (the end of the game ends the turn it is in)
    kind, row_of, offsets, targets, turns, end = (
        graph.kind, graph.row, graph.offsets, graph.targets, graph.turns, graph.end)
    state_of_row = graph.state_of_row
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
        state_of_row.append(node)
        if progress and len(offsets) % 1000 == 0:
            progress(1)
        who = state.current_player()
        if who == TERMINAL:
            kind[node], end[node] = TERMINAL, graph.end_node(tuple(state.returns()), state.winner)
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
                    outcome = (END_KEY, tuple(after.returns()), after.winner)
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
    return graph


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
