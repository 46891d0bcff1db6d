"""The one walk of a game's states in Python: every reachable position, once, into an ``ArrayGraph``.

The walk takes a game's states as the contract gives them (``current_player``, ``chance_outcomes``,
``legal_actions``, ``apply_action``, ``clone``, ``key``, ``is_terminal``, ``returns``, ``winner``,
``turns``) and goes depth first from the start: a node is numbered when first met (its key interned to
an int, the key dropped with the walk), pushed with the state itself, and expanded when popped; the
last move of a node is played on the node's state (it is not needed any more), the others on copies.
This order is what numbers the states of every chain and graph the toolkit writes (DRN, policies).

Two ways to walk, by what becomes of a seat's decisions:

* kept (``kept`` seats; the others' players are chance points, as ``Played`` states make them): a
  kept seat's decision is a node with an edge per legal action, a finished game a ``TERMINAL`` node
  keyed by how it ended;
* played (``kept`` None: a chain under fixed players): ``deciders[seat].act`` decides during the
  walk, from each outcome to the next chance point or end, so every node is a chance point and every
  end is absorbing (``ArrayGraph``'s ``ends``). The play from a decision point may be remembered
  per its key (``remember``: exact for players who decide by the state alone), since many outcomes
  meet the same decision point.
"""

from __future__ import annotations

from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.walk.graph import DONE, LOOP, STALLED, ArrayGraph, TooManyStates

MAX_DECISIONS = 10_000  # decisions in a row without a chance point or an end: the policies loop
_TURNS = 1 << 20  # a remembered decision: target * _TURNS + the turns it starts (fewer: at most
# MAX_DECISIONS decisions are made)
_LOOPS = 1 << 80  # a remembered decision that never reaches a chance point (no target is this large)
END_KEY = object()  # marks the key of an end with decisions kept (no state's key holds it)


class Loop(Exception):
    """The players kept deciding without a chance point or an end."""


def advance(state, policies, max_decisions: int = MAX_DECISIONS):
    """Apply the policies' decisions until a chance point or the end; ``Loop`` if that never comes."""
    for _ in range(max_decisions):
        if state.is_terminal() or state.current_player() == CHANCE:
            return state
        state.apply_action(policies[state.current_player()].act(state))
    raise Loop


def end_key(state, done=None, outcome=None):
    """The absorbing end a played walk gives ``state`` (a finished game, or one where ``done`` holds)."""
    if outcome is not None and state.is_terminal():
        return ("end", state.winner, outcome(state))
    if state.winner is not None:
        return ("end", state.winner)
    if done is not None and done(state):
        return DONE
    return STALLED


def walk(first, max_states: int, *, kept: frozenset[int] | None = None, deciders=None, arguments: tuple = (),
         done=None, outcome=None, remember: bool = False, edge_turns: bool = False, describe=None,
         progress=None) -> ArrayGraph:
    """The graph from ``first`` (node 0), ``TooManyStates`` past ``max_states`` nodes; ``progress(1)`` every
    1,000 rows.

    Decisions kept (``kept`` a set of seats): ``describe(state)`` -> (names, values) is recorded for every
    decision node (``ArrayGraph.fields``). Played (``kept`` None): ``first`` is a chance point the
    ``deciders`` have been played up to; ``arguments`` go to ``state.key``; the ends are ``("end",
    winner)`` (``("end", winner, outcome(state))`` for every finished game when ``outcome`` is given: then
    never STALLED), ``DONE`` where ``done(state)`` holds first, ``STALLED`` for a game ended without a
    winner and ``LOOP`` for decisions that never reach chance or an end; ``edge_turns`` keeps the turns of
    each edge (with decisions kept they are always kept)."""
    played = kept is None
    graph = ArrayGraph(edge_turns or not played)
    if not played:
        graph.kept = frozenset(kept)
    kind, row_of, state_of_row, offsets = graph.kind, graph.row, graph.state_of_row, graph.offsets
    targets, increments, end, fields = graph.targets, graph.turns, graph.end, graph.fields
    rewards, totals, end_code, add_weight = graph.rewards, graph.totals, graph.end_code, graph.add_weight
    ids = {first.key(*arguments): 0}
    names: dict[tuple, int] = {}
    decided: dict | None = {} if played and remember else None  # decision key -> target and turns
    todo = [(0, first)]
    kind.append(CHANCE)
    row_of.append(-1)
    if not played:
        end.append(-1)

    def intern(key, state) -> int:
        target = ids.get(key)
        if target is None:
            target = ids[key] = len(row_of)
            if target >= max_states:
                raise TooManyStates(max_states)
            kind.append(CHANCE)
            row_of.append(-1)
            if not played:
                end.append(-1)
            todo.append((target, state))
        return target

    def play_on(after, who: int) -> tuple[int | None, object]:
        """Play the decisions from ``after`` (``who`` to move, as ``advance`` does, in place) to the next
        chance point or the end: (its target, the state there), or (None, ...) if they never end (LOOP)."""
        decisions = 0
        while who >= 0:  # a seat decides (CHANCE and TERMINAL are negative)
            if decisions == MAX_DECISIONS:
                return None, after
            after.apply_action(deciders[who].act(after))
            decisions += 1
            who = after.current_player()
        if who == TERMINAL or (done is not None and done(after)):
            return end_code(end_key(after, done, outcome)), after
        return intern(after.key(*arguments), after), after

    while todo:
        node, state = todo.pop()
        row_of[node] = len(offsets) - 1
        state_of_row.append(node)
        if progress and len(offsets) % 1000 == 0:
            progress(1)
        turns = state.turns
        if played:
            moves = state.chance_outcomes()
        else:
            who = state.current_player()
            if who == TERMINAL or state.is_terminal():
                kind[node], end[node] = TERMINAL, graph.end_node(tuple(state.returns()), state.winner)
                offsets.append(len(targets))
                continue
            kind[node] = who
            if who == CHANCE:
                moves = state.chance_outcomes()
            else:
                moves = [(action, None) for action in state.legal_actions()]
                if describe is not None:
                    field_names, values = describe(state)
                    fields.add(node, names.setdefault(field_names, len(names)), values)
        reward = total = 0
        last = len(moves) - 1
        for number, (move, weight) in enumerate(moves):
            after = state if number == last else state.clone()
            after.apply_action(move)
            if not played:
                if after.is_terminal():  # one node per end, keyed by how it ended
                    target = intern((END_KEY, tuple(after.returns()), after.winner), after)
                else:
                    target = intern(after.key(), after)
                targets.append(target)
                if weight is None:
                    add_weight(1)
                    graph.add_action(move)
                else:
                    add_weight(weight)
                    graph.add_action(-1)
                increments.append(after.turns - turns)
                continue
            total += weight
            who = after.current_player()
            if who >= 0 and decided is not None:  # a decision point: played once per key
                key = after.key(*arguments)
                known = decided.get(key)  # one int: the target, and the turns started on the way
                began = after.turns
                if known is None:
                    target, after = play_on(after, who)
                    known = decided[key] = _LOOPS if target is None else target * _TURNS + after.turns - began
                if known == _LOOPS:  # the decisions never end: LOOP, and no turns counted
                    target, started = end_code(LOOP), 0
                else:
                    target, more = divmod(known, _TURNS)
                    started = began - turns + more
            else:
                target, after = play_on(after, who)
                if target is None:
                    target, started = end_code(LOOP), 0
                else:
                    started = after.turns - turns
            reward += weight * started
            if increments is not None:
                increments.append(started)
            targets.append(target)
            add_weight(weight)
        offsets.append(len(targets))
        if played:
            rewards.append(reward)
            totals.append(total)
    graph.names = list(names)
    return graph
