"""The Markov chain of a whole game, built by walking a rules engine with fixed policies.

Every chance point of the engine (a card to draw, a card to steal) becomes a state of the chain,
keyed by ``state.key()``; its outcomes, with the engine's exact integer weights, lead through the
policies' decisions to the next chance point or to the end. The chain then answers with
``toolkit.odds.Chain``: expected turns, and the chance that each seat wins.

A game can also fail to end: the engine may stall (nobody can win any more), or play may reach
states from which no end can be reached at all (a loop). Both are absorbing here, as "never", so
the chance of each end stays exact; the expected number of turns is then infinite, and
``EngineAnswer.expected_turns`` is None rather than a finite number.

This is exact for any game the engine plays, but the number of states grows fast with the deck and
the players, so the walk stops at ``max_states`` and says so (``TooManyStates``); a chain that a
few sampled games already show to be far larger is not walked at all (``estimate_states``).

The walk (``toolkit.walk.walker``) keeps little per state: each key (the engine's compact bytes) is made
once and interned to an int id, the transitions go into flat arrays (``toolkit.walk.ArrayGraph``), and the
keys are dropped once the walk is done. Fields no player reads are left out of the keys (``unread_fields``), which is exact.
It does little per state: a state's last outcome is played on the state itself, not a copy, and
where deciding is slow (Palaces' players) the play from a decision point to the next chance point
is worked out once per decision point's key (``build``), which is exact for players who decide by
the state alone.

Diamoniak's chain is walked the same way by compiled code (``toolkit.games.diamoniak.walk``, on the
simulation kernel's rules and policies) wherever that plays the same game: the same states in the
same order, the same ``ArrayGraph``, many times faster per state (``build``); so is Palaces' (with
or without "a first palace is complete" as its end: ``toolkit.games.palaces.walk``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from toolkit.odds.chain import Chain
from toolkit.walk import played
from toolkit.walk.graph import DONE, LOOP, STALLED, ArrayGraph, TooManyStates
from toolkit.walk.walker import Loop, advance, end_key
from toolkit.walk.walker import walk as walker_walk

@dataclass(frozen=True)
class EngineAnswer:
    expected_turns: Fraction | None  # None: with probability p_never > 0 the game never ends
    win_probability: tuple[Fraction, ...]  # per seat
    p_stalled: Fraction  # the game stalled: it can never end (no winner possible any more)
    p_never: Fraction  # the game never ends: stalled, or caught where no end can be reached
    p_done: Fraction  # the question's own end (``done``) was reached
    states: int
    ends: Mapping | None = None  # every absorbing key reached and its chance (``outcome``: the games' own ends)


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


def _key_function(policies) -> Callable:
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
        walker = game.compiled_walk()
        if walker is not None and walker.may_apply(start, done):
            return walker
    return None


def build(start, policies, max_states: int = 200_000, done: Callable | None = None, progress=None,
          remember_decisions: bool | None = None, compiled: bool | None = None, outcome: Callable | None = None,
          edge_turns: bool = False):
    """Walk the engine from ``start``; returns (transitions, start, turn reward per state).

    ``transitions`` is an ``ArrayGraph`` (read as a mapping; state ids, 0 the start); ``start`` is 0, or the
    absorbing key reached before any chance point (then ``transitions`` is empty). Absorbing keys:
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
    chain = ArrayGraph()
    first = start.clone()
    try:
        first = advance(first, policies)
    except Loop:
        return chain, LOOP, chain.turn_rewards
    if first.is_terminal() or (done is not None and done(first)):
        return chain, end_key(first, done, outcome), chain.turn_rewards
    if compiled is not False and outcome is None and not edge_turns:
        walker = compiled_walker(start, done)
        if walker is not None:
            if compiled is None:  # a small chain is walked here: faster than loading the compiled code
                try:
                    return build(start, policies, min(max_states, COMPILED_FROM), done,
                                 progress if max_states <= COMPILED_FROM else None, remember_decisions, compiled=False)
                except TooManyStates:
                    if max_states <= COMPILED_FROM:
                        raise
            if walker.applies(start, policies, done):
                chain = walker.walk(first, policies, max_states, progress, done=done)
                return chain, 0, chain.turn_rewards
        if compiled:
            raise ValueError("the compiled walk does not play this game or these players")
    if remember_decisions is None:
        remember_decisions = worth_remembering(policies)
    chain = walker_walk(first, max_states, deciders=policies, arguments=key_arguments(policies), done=done,
                        outcome=outcome, remember=remember_decisions and decisions_repeat(policies),
                        edge_turns=edge_turns, progress=progress)
    return chain, 0, chain.turn_rewards


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
    walker = compiled_walker(start, done)
    if walker is not None and hasattr(walker, "sampled_games") and walker.applies(start, policies, done):
        game = walker.sampled_games(start, policies, rng, done)  # the same games, compiled: the same counts
    else:
        key_of = _key_function(policies)
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


def solve(start, policies, players: int, max_states: int = 200_000, done: Callable | None = None,
          progress=None, compiled: bool | None = None, outcome: Callable | None = None) -> EngineAnswer:
    """Exact win chances, the chance the game never ends, and expected turns (counted from 1).

    The expected turns are None whenever the game may never end (``p_never > 0``): a mean over the
    games that do end would not be the expected value, and the game's real expectation is infinite.
    ``compiled``: as ``build``'s (by default the compiled walk wherever it applies); ``outcome``: as
    ``build``'s (a seat's win chance is then the sum over the ends it won).
    """
    try:  # a small chain is walked at once; a larger one is estimated first
        transitions, start_key, turn_reward = build(start, policies, min(max_states, ESTIMATE_FROM), done, progress,
                                                   compiled=compiled, outcome=outcome)
    except TooManyStates:
        if max_states <= ESTIMATE_FROM:
            raise
        if compiled is None:  # past the engine's trial walk already: the compiled walk where it applies
            walker = compiled_walker(start, done)
            compiled = walker is not None and walker.applies(start, policies, done)
        estimate, games, uncounted = estimate_states(start, policies, max_states, done, progress=progress)
        if estimate > 2 * max_states:  # far enough over the limit that the estimate's error cannot matter
            basis = f"an estimate from {games:,} sampled games, made before walking"
            if uncounted:
                basis += " (at some chance point at most one pair of them met: the chain may be far larger)"
            raise TooManyStates(max_states, estimate, basis) from None
        transitions, start_key, turn_reward = build(start, policies, max_states, done, progress, compiled=compiled,
                                                   outcome=outcome)
    walked = len(transitions)
    if not transitions:  # the game is over (or can never go on) before the first chance point
        ends = {start_key: Fraction(1)}
    else:
        trapped = transitions.cannot_end()
        # no end can be reached from these: absorbed, and counted as "never"
        transitions = transitions.without(trapped)
        if start_key in trapped:
            ends = {LOOP: Fraction(1)}
        else:
            chain = Chain(transitions)
            ends = chain.absorption_probabilities(start_key)
            for key in trapped & set(ends):
                ends[LOOP] = ends.get(LOOP, Fraction(0)) + ends.pop(key)
    if outcome is None:
        wins = tuple(ends.get(("end", seat), Fraction(0)) for seat in range(players))
    else:
        wins = tuple(sum((p for end, p in ends.items() if end[0] == "end" and end[1] == seat), Fraction(0))
                     for seat in range(players))
    stalled = ends.get(STALLED, Fraction(0))
    never = stalled + ends.get(LOOP, Fraction(0))
    turns = None
    if not never:
        turns = Fraction(advance(start.clone(), policies).turns)
        if transitions:
            turns += chain.expected_reward(start_key, turn_reward.__getitem__)
    return EngineAnswer(turns, wins, stalled, never, ends.get(DONE, Fraction(0)), walked, ends)

# --- the chain of a game of the contract under named players -------------------------------------------

DISTRIBUTION_MASS = Fraction(999, 1000)  # the length distribution is listed until this much of it is told
MAX_LENGTH = 400  # ... or this length, whichever comes first


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
    met = played.Met()
    start = played.start_of(game, seats, met)
    seated = played.deciders(seats, start, met)
    answer = solve(start, seated, game.num_players(), max_states, progress=progress, outcome=played.returns_of)
    ends = {}
    for end, p in (answer.ends or {}).items():
        if end[0] == "end":
            ends[end[2]] = ends.get(end[2], Fraction(0)) + p
    win = answer.win_probability
    ended = sum(ends.values(), Fraction(0))
    listed, beyond = (), Fraction(1)
    if distribution:
        listed, beyond = length_distribution(start, seated, max_states)
    return ChainOdds(game.info().length_unit, answer.states, answer.expected_turns, win, ended - sum(win, Fraction(0)),
                     answer.p_never, tuple(sorted(ends.items(), key=lambda pair: (-pair[1], pair[0]))), listed, beyond,
                     met.decisions)


def length_distribution(start, deciders, max_states: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """P(length == t) for t = 0 .. T, T the first length by which ``DISTRIBUTION_MASS`` of the games
    have ended (at most ``MAX_LENGTH``), and the chance of a longer game (or of none ending)."""
    transitions, start_key, _ = build(start, deciders, max_states, outcome=played.returns_of, edge_turns=True)
    if not transitions:
        first = advance(start.clone(), deciders) if start_key != LOOP else start
        if start_key == LOOP or start_key[0] != "end":
            return (), Fraction(1)
        return tuple([Fraction(0)] * first.turns + [Fraction(1)]), Fraction(0)
    first_turns = advance(start.clone(), deciders).turns
    try:
        listed, beyond = transitions.turn_distribution(start_key, first_turns, MAX_LENGTH, DISTRIBUTION_MASS)
    except ValueError:  # a turn may go on for ever: no distribution by turns
        return (), Fraction(1)
    return tuple(listed), beyond


def chain_drn(game, seats, max_states: int, title: str) -> tuple[bytes, int]:
    """The chain behind ``chain_odds`` in Storm's explicit DRN (``toolkit.odds.drn.engine_drn``): its
    reward model counts the game's length (turns or steps)."""
    from toolkit.odds import drn

    met = played.Met()
    start = played.start_of(game, seats, met)
    seated = played.deciders(seats, start, met)
    transitions, start_key, turn_reward = build(start, seated, max_states, outcome=played.returns_of)
    first = advance(start.clone(), seated).turns if start_key != LOOP else 0
    comments = [f"{game.name}: {title}",
                f"reward 'turns': the game's length in {game.info().length_unit}; labels: win1 .. winN and end: that "
                "seat won; draw and end: the game ended without one winner; loop and never: the players decide "
                "for ever; never: no end can be reached"]
    return drn.engine_drn(transitions, start_key, turn_reward, first, comments)
