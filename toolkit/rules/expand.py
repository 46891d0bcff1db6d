"""A game walked with its decision points kept (``walk_graph``): what optimal play solves.

Any game of the contract is walked by ``toolkit.walk.walker`` (decisions kept); a rules file's states by
``_walk_rules`` here, which fills the same ``ArrayGraph`` with fewer calls per edge.
"""

from __future__ import annotations

import copy
from array import array

from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.rules import contain
from toolkit.walk import walker
from toolkit.walk.graph import ArrayGraph, TooManyStates
from toolkit.walk.played import Met, Played, start_of
from toolkit.walk.walker import END_KEY


def walk_graph(game, seats, kept, max_states: int, describe=None, progress=None) -> ArrayGraph:
    """Walk ``game`` with the seats in ``kept`` deciding (every decision kept) and the others playing
    ``seats[s]`` as chance points. ``describe(state)`` -> (names, values) is recorded for every kept
    decision node. ``TooManyStates`` past ``max_states`` nodes."""
    from toolkit.rules.guard import RulesState

    kept = frozenset(kept)
    players = game.num_players()
    met = Met()
    chance_seats = frozenset(range(players)) - kept
    first = start_of(game, seats, met, chance_seats)
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
    """``walk_graph`` on a rules file's states (``RulesState``), the same graph as ``walker.walk`` gives,
    with fewer calls per edge: the file's own state is copied, moved and keyed directly (its errors said
    as the guard says them), and only a key not met before is asked whether the game is over, who plays
    and what ends it. A key met before is the same position (a key identifies a state), an end's too."""
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
