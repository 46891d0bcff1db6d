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

A chain under fixed players is built by ``build``, which picks the walk: the game's compiled walk
(``toolkit.games.diamoniak.walk``, ``toolkit.games.palaces.walk``: the same states in the same order, the
same ``ArrayGraph``, many times faster per state) wherever it plays the same game and the chain is not
small, else this one. Fields no player reads are left out of the keys (``unread_fields``), which is
exact. A chain that a few sampled games already show to be far larger than the limit is not walked at
all (``estimate_states``).
"""

from __future__ import annotations

import functools
import random
from typing import Callable, NamedTuple

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


# --- the chain under fixed players: which walk, and whether it may fit -----------------------------------


def unread_fields(policies) -> frozenset[str]:
    """The state fields no player's policy reads (``policy.ignores``; a policy that does not say
    reads everything): an engine may leave them out of its keys, and states that differ only there
    are then one state of the chain. Exact: neither the rules nor any player looks at them."""
    ignored = [frozenset(getattr(policy, "ignores", ())) for policy in policies]
    return frozenset.intersection(*ignored) if ignored else frozenset()


def colours_alike(policies) -> bool:
    """Do all players treat the castle colours alike (``policy.colours_alike``)? Then an engine may
    key a state and its colour-swapped twin as one where that is exact (``key(ignore, swap)``:
    Diamoniak's ``DiamoniakGame.colour_swap``)."""
    return bool(policies) and all(getattr(policy, "colours_alike", False) is True for policy in policies)


def key_arguments(policies) -> tuple:
    """What the walk hands ``state.key``: the fields no player reads, and whether colours may be swapped
    (nothing at all when neither applies: an engine's ``key()`` need not take them)."""
    ignore = unread_fields(policies)
    if colours_alike(policies):
        return (ignore, True)
    return (ignore,) if ignore else ()


def key_function(policies) -> Callable:
    arguments = key_arguments(policies)
    return lambda state: state.key(*arguments)


def decisions_repeat(policies) -> bool:
    """Do the players decide by the state alone (``policy.deterministic``, as every built-in rule but the
    seeded random ones does)? Then the play from a decision point to the next chance point is the
    same wherever that decision point is met, and the walk may play it once (``build``)."""
    return bool(policies) and all(getattr(policy, "deterministic", False) is True for policy in policies)


def worth_remembering(policies) -> bool:
    """Remember the decisions (``build``) when they repeat and some player says deciding costs it much
    more than keying a state (``policy.decides_slowly``: Palaces' players weigh every card). Diamoniak's
    decide in about the time a key takes, so remembering would only cost memory (a key per decision
    point, about 160 bytes a state at the walk's peak) and save no time."""
    return decisions_repeat(policies) and any(getattr(policy, "decides_slowly", False) for policy in policies)


COMPILED_FROM = 5_000  # a chain up to this size is walked by the engine (Diamoniak's in about 0.1 s; Palaces' alone
# in 1.2-2.8 s on a loaded machine, while loading its compiled walk took 1.3-2.6 s), a larger one by the compiled
# walk (``build``)


def compiled_walker(start, done: Callable | None = None):
    """The compiled walk that may build ``start``'s chain (its ``may_apply``, which loads no compiled
    code): the ``compiled_walk`` of the game whose walk takes ``start``; None for none."""
    from toolkit.games import registry

    for game in registry.games().values():
        compiled_walk = game.compiled_walk()
        if compiled_walk is not None and compiled_walk.may_apply(start, done):
            return compiled_walk
    return None


class Walked(NamedTuple):
    """A chain under fixed players, as ``build`` walks it."""

    graph: ArrayGraph
    start: int | tuple  # node 0, or the end reached before any chance point
    first_turns: int  # the turns started when the chain starts (0 if the players decide for ever)


def build(start, policies, max_states: int = 200_000, done: Callable | None = None, progress=None,
          remember_decisions: bool | None = None, compiled: bool | None = None, outcome: Callable | None = None,
          edge_turns: bool = False) -> Walked:
    """Walk the engine from ``start``: its chain (``Walked``).

    ``graph`` is an ``ArrayGraph`` (node ids, 0 the start); ``start`` is 0, or the absorbing key reached
    before any chance point (then ``graph`` is empty). Absorbing keys:
    ``("end", winner)`` for a won game, ``DONE`` when ``done(state)`` (e.g. "a first palace is
    complete") holds first, ``STALLED`` for a game the engine ended without a winner and ``LOOP`` for
    decisions that never reach chance or an end. ``progress(1)`` is called every 1,000 states.

    ``outcome`` (a game of one's own, whose ends may be draws or shared): every finished game is an
    end of its own, ``("end", state.winner, outcome(state))`` (e.g. the returns), a draw's winner None,
    and never STALLED. ``edge_turns``: the chain also keeps the turns each transition starts
    (``ArrayGraph.turn_distribution``); neither is taken by a compiled walk.

    The engine is walked by ``toolkit.walk.walker.walk`` (played: every decision made on the way). The
    decisions are remembered (``remember_decisions``; by default where that pays:
    ``worth_remembering``; never unless the players decide by the state alone: ``decisions_repeat``).
    An outcome that leaves the engine at a decision point is keyed there, and the play from that key
    to the next chance point (its successor or end, and the turns it starts) is worked out the first
    time only: many outcomes of different states meet the same decision point (two cards drawn in
    either order). Exact as the walk's own keys are: a key holds everything the rules and the players
    read. ``done`` must then be decided by the play from the decision point on, as "a first palace
    is complete" is (none is at any decision point the walk meets).

    Where a compiled walk plays the game and the players (``compiled_walker``, its ``applies``:
    Diamoniak with the built-in players and no ``done``; Palaces with the builder's players, no
    ``done`` or the first palace's) it builds the chain instead, the same arrays, many
    times faster, once the chain has more than ``COMPILED_FROM`` states (below that the engine's
    walk ends before the compiled code is loaded, about 0.4 s). ``compiled=False``: the engine
    walk always; ``True``: the compiled walk always (a ValueError where it does not apply).
    """
    first = start.clone()
    try:
        first = advance(first, policies)
    except Loop:
        return Walked(ArrayGraph(), LOOP, 0)
    if first.is_terminal() or (done is not None and done(first)):
        return Walked(ArrayGraph(), end_key(first, done, outcome), first.turns)
    turns = first.turns  # before a walk plays on from ``first``
    if compiled is not False and outcome is None and not edge_turns:
        compiled_walk = compiled_walker(start, done)
        if compiled_walk is not None:
            if compiled is None:  # a small chain is walked here: faster than loading the compiled code
                try:
                    return build(start, policies, min(max_states, COMPILED_FROM), done,
                                 progress if max_states <= COMPILED_FROM else None, remember_decisions, compiled=False)
                except TooManyStates:
                    if max_states <= COMPILED_FROM:
                        raise
            if compiled_walk.applies(start, policies, done):
                return Walked(compiled_walk.walk(first, policies, max_states, progress, done=done), 0, turns)
        if compiled:
            raise ValueError("the compiled walk does not play this game or these players")
    if remember_decisions is None:
        remember_decisions = worth_remembering(policies)
    return Walked(walk(first, max_states, deciders=policies, arguments=key_arguments(policies), done=done,
                       outcome=outcome, remember=remember_decisions and decisions_repeat(policies),
                       edge_turns=edge_turns, progress=progress), 0, turns)


ESTIMATE_FROM = 20_000  # a chain this small is walked at once (faster than estimating it); a larger one,
# only after an estimate says it may fit


SAMPLE_WORK = 200_000  # chance points the sampled games may play in all (a few seconds): long games stop it early


def sampled_game(start, policies, rng: random.Random, key_of: Callable, done: Callable | None = None):
    """One game from ``start`` with chance drawn by ``rng`` at the engine's own weights: the key of
    each chance point it meets, in order, until it ends (or ``done``)."""
    state = advance(start.clone(), policies)
    while not state.is_terminal() and not (done is not None and done(state)):
        yield key_of(state)
        outcomes = state.chance_outcomes()
        pick = rng.randrange(sum(weight for _, weight in outcomes))
        for outcome, weight in outcomes:
            pick -= weight
            if pick < 0:
                break
        state.apply_action(outcome)
        state = advance(state, policies)


def estimate_states(start, policies, limit: int, done: Callable | None = None, seed: int = 0,
                    progress=None) -> tuple[int, int, bool]:
    """(a lower estimate of the chain's states, games sampled, whether the estimate comes from a
    chance point where at most one pair of games met, i.e. all the sample can count): a few random
    games decide whether a walk up to ``limit`` states is worth starting.

    The estimator counts collisions (birthday style): of ``m`` games played with the engine's own
    chance weights, ``c`` pairs meet the same state at their ``d``-th chance point. ``pairs / c``
    estimates ``1 / sum(p^2)`` of the states at that depth, which is never more than their number
    (Cauchy-Schwarz), so the largest over all depths is a lower estimate of the whole chain. Games
    are played until the collisions show the depths are small (every depth met again at least 20
    times: the walk goes on) or ``pairs`` reach ``20 * limit`` (if some depth then has at most one
    collision, its states pass ``limit`` unless a chance of about 1 in 10^7 failed), or the games
    have played ``SAMPLE_WORK`` chance points in all (long games: the estimate so far, still a lower
    one). Seeded: the same inputs give the same estimate. Where the game's compiled walk applies and
    offers ``sampled_games`` (the same games played by compiled code, drawing the same numbers), it
    plays them.
    """
    rng = random.Random(seed)
    compiled_walk = compiled_walker(start, done)
    if compiled_walk is not None and hasattr(compiled_walk, "sampled_games") and compiled_walk.applies(start, policies, done):
        game = compiled_walk.sampled_games(start, policies, rng, done)  # the same games, compiled: the same counts
    else:
        key_of = key_function(policies)
        game = functools.partial(sampled_game, start, policies, rng, key_of, done)
    seen: list[dict] = []  # per depth: key -> how many games met it there
    pairs_needed = 20 * limit
    games = work = 0
    while True:
        for _ in range(64):
            if progress:
                progress(0)  # no steps of the walk yet: lets a progress bar appear (a game may be long)
            games += 1
            keys = game()
            try:
                for depth, key in enumerate(keys):
                    if depth == len(seen):
                        seen.append({})
                    seen[depth][key] = seen[depth].get(key, 0) + 1
                    work += 1
                    if depth >= 100_000 or work > SAMPLE_WORK:
                        break
            except Loop:
                pass
            finally:
                keys.close()  # a game stopped here has drawn only up to here
        peak, settled, uncounted = 0, True, False
        for counts in seen:
            met = sum(counts.values())
            pairs = met * (met - 1) // 2
            collisions = sum(n * (n - 1) // 2 for n in counts.values())
            if pairs // max(collisions, 1) > peak:
                peak, uncounted = pairs // max(collisions, 1), collisions <= 1
            if collisions < 20 and pairs:
                settled = False
            if collisions <= 1 and pairs >= pairs_needed:
                return peak, games, uncounted
        if settled or games * (games - 1) // 2 >= pairs_needed or work > SAMPLE_WORK:
            return peak, games, uncounted
