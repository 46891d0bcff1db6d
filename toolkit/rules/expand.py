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
    add_target, add_turns, add_weights, add_actions = targets.append, turns.append, graph.weights.extend, \
        graph.actions.extend
    add_fields = graph.fields.add
    small_actions = small_weights = True  # the actions, the weights: whole numbers of 64 bits (arrays, not lists)
    ones: dict[int, array] = {}  # a decision's weights, 1 per action, by the number of actions
    outcomes: object = None  # the chance outcomes last met: their moves, weights and actions (-1 each)
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
        if who == CHANCE or who in chance_seats:
            if who == CHANCE:
                pairs = state.chance_outcomes()  # the same list again for the same outcomes
            else:
                met.decisions = True
                pairs = [(action, weight) for action, weight in seats[who].distribution(state) if weight]
                who = CHANCE
            if pairs is not outcomes:
                outcomes, chance_moves = pairs, [outcome for outcome, _ in pairs]
                weights: array | list = [weight for _, weight in pairs]
                try:
                    weights = array("q", weights)
                except (OverflowError, TypeError):
                    pass
                chance_actions = array("q", [-1]) * len(chance_moves)
            moves = chance_moves
            if small_weights and type(weights) is list:
                graph.weights = list(graph.weights)
                add_weights, small_weights = graph.weights.extend, False
            add_weights(weights)
            add_actions(chance_actions)
        else:
            moves = state.legal_actions()
            if describe is not None:
                field_names, values = describe(state)
                add_fields(node, names.setdefault(field_names, len(names)), values)
            if len(moves) not in ones:
                ones[len(moves)] = array("q", [1]) * len(moves)
            add_weights(ones[len(moves)])
            if small_actions and not all(type(move) is int and -2**63 <= move < 2**63 for move in moves):
                graph.actions = list(graph.actions)
                add_actions, small_actions = graph.actions.extend, False
            add_actions(moves)
        kind[node] = who
        inner = state.inner
        began, steps = state.turns, state.steps + 1
        clone = getattr(inner, "clone", None)
        ends_turn = getattr(inner, "ends_turn", None)
        keyed = hasattr(inner, "key")
        last = len(moves) - 1
        for number, move in enumerate(moves):
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
                after._who = then = after._player()
                over = then == TERMINAL
                if over:  # one node per end, keyed by how it ended
                    if not ends_now:  # the end of the game ends the turn it is in
                        after.turns += 1
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
        offsets.append(len(targets))
    ids.clear()  # the keys go now, whoever still holds this frame (the rules files' watchdog looks at stacks)
    graph.names = list(names)
    return graph
