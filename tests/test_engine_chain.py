"""The engine walk (toolkit.odds.engine_chain): its compact keys and lumpings lose nothing, and a chain
far beyond the limit is estimated, not walked.

Every lumping is checked the same way: the exact answer with the engines' keys equals, fraction for
fraction, the answer with a key of every field of the state (the keys of earlier versions), on many
small decks, while the chain gets smaller.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games import CHANCE
from toolkit.games.diamoniak.engine import DiamoniakGame, DiamoniakState
from toolkit.games.palaces.engine import PalacesGame, PalacesState
from toolkit.odds import engine_chain
from toolkit.walk import walker
from toolkit.games.diamoniak import policies as diamoniak_policies
from toolkit.games.palaces import policies as palaces_policies

from oracles import oracle_game, oracle_policies

POLICY_ONLY = frozenset({"drawn_this_turn", "last_built"})
READS = {"stop-after": "drawn_this_turn", "stop-on-castle": "last_built"}  # the draw rules that read one



def full_diamoniak_key(self, ignore=frozenset(), swap=False):
    """Every field of a Diamoniak state that is not a counter: nothing lumped."""
    return (self.phase, self.player, tuple(self.pile), tuple(self.discard),
            tuple((hand.colour, tuple(hand.castle), tuple(hand.side)) for hand in self.hands),
            self.winner, self.stalled, self.passes, self.drawn_this_turn, self.last_built)


def full_palaces_key(self):
    return (self.phase, self.player, self.drawer, self.draw_to, self.giver, self.giving, self.victim,
            self.steal_left, self.handing, tuple(self.pile), tuple(self.discard),
            tuple(tuple(hand) for hand in self.hands), tuple(tuple(pals) for pals in self.palaces),
            tuple(self.site), tuple(self.tokens), self.passes, self.winner, self.stalled)


class Declared:
    """A policy that says which state fields it never reads (``ignores``), playing as ``policy``, and
    that treats the colours alike if ``policy`` says so (unless ``colours_alike`` says otherwise)."""

    deterministic = True

    def __init__(self, policy, ignores, colours_alike=None):
        self.policy, self.ignores, self.name = policy, frozenset(ignores), policy.name
        self.colours_alike = getattr(policy, "colours_alike", False) if colours_alike is None else colours_alike

    def act(self, state):
        return self.policy.act(state)


def diamoniak_game(colours, diamonds, witches, fairies, size, takes, price, players=2) -> DiamoniakGame:
    counts = [f"castle-{c}={n}" for c, n in zip(("red", "blue", "green", "yellow"), colours)]
    counts += [f"diamond={diamonds}", f"witch={witches}", f"fairy={fairies}"]
    game = DiamoniakGame.from_catalogue(load("diamoniak", overrides=counts, require_art=False), players)
    return replace(game, castle_size=size, witch_takes=takes, price=price)


def palaces_game(floors, towers, ruins, exchange, flood, general, hand, players) -> PalacesGame:
    """A red-only Palaces deck (two red foundations and roofs) with these counts, ``hand`` cards a hand."""
    overrides = [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof")
                 for colour in ("blue", "green", "yellow")]
    overrides += [f"floor-red={floors}", f"tower={towers}", f"ruins={ruins}", f"exchange={exchange}",
                  f"general-exchange={general}", f"flood={flood}", "foundation-red=2", "roof-red=2"]
    return replace(PalacesGame.from_catalogue(load("palaces", overrides=overrides, require_art=False), players),
                   hand_size=hand)


def answers(game, seats, players, done=None, limit=20_000):
    result = engine_chain.answer(engine_chain.walk(game.new_initial_state(), seats, limit, done), players)
    return (result.expected_length, result.win, result.p_stalled, result.p_never, result.p_done), result.states


def unlumped(monkeypatch, state_class, key, game, seats, players, done=None):
    with monkeypatch.context() as patch:
        patch.setattr(state_class, "key", key)
        return answers(game, seats, players, done)


DRAW_RULES = ("until-witch", "stop-after-1", "stop-after-2", "stop-on-castle", "risk-1", "odds-30")
OTHER_RULES = ("fairy-first,buy-most", "keep-diamonds,buy-most", "save-fairy,never-buy")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(colours=st.tuples(st.integers(2, 3), st.integers(0, 2), st.integers(0, 1), st.just(0)),
       diamonds=st.integers(0, 2), witches=st.integers(1, 2), fairies=st.integers(0, 1), size=st.integers(2, 3),
       takes=st.integers(1, 2), price=st.integers(1, 2), draw=st.sampled_from(DRAW_RULES),
       rest=st.sampled_from(OTHER_RULES))
def test_the_diamoniak_keys_lump_only_states_with_the_same_future(monkeypatch, colours, diamonds, witches, fairies,
                                                                 size, takes, price, draw, rest):
    game = diamoniak_game(colours, diamonds, witches, fairies, size, takes, price)
    policy = diamoniak_policies.parse(f"{draw},{rest}")
    try:
        exact, states = answers(game, [policy] * 2, 2, limit=1_500)
    except walker.TooManyStates:  # kept small, so that the test stays fast
        assume(False)
    reference, full_states = unlumped(monkeypatch, DiamoniakState, full_diamoniak_key, game, [policy] * 2, 2)
    assert exact == reference and states <= full_states
    unread = POLICY_ONLY - {field for rule, field in READS.items() if draw.startswith(rule)}
    declared = Declared(policy, unread)
    lumped, fewer = answers(game, [declared] * 2, 2)
    assert lumped == reference and fewer <= states


def test_the_lumpings_shrink_a_two_player_chain_and_keep_its_fractions(monkeypatch):
    """The default player: passes and last_built at chance points, and drawn_this_turn, which its
    draw rule says it never reads (``ignores``): declaring it again lumps nothing more."""
    game = diamoniak_game((3, 3, 0, 0), 3, 1, 1, 3, 3, 3)
    policy = diamoniak_policies.parse("default")
    reference, full_states = unlumped(monkeypatch, DiamoniakState, full_diamoniak_key, game, [policy] * 2, 2)
    exact, states = answers(game, [policy] * 2, 2)
    lumped, fewer = answers(game, [Declared(policy, POLICY_ONLY)] * 2, 2)
    assert exact == lumped == reference
    assert full_states == 6_740 and states == fewer < 0.65 * full_states
    reads = diamoniak_policies.parse("stop-after-2")  # a field the player does read cannot be left out
    assert answers(game, [Declared(reads, POLICY_ONLY)] * 2, 2)[0] != answers(game, [reads] * 2, 2)[0]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(floors=st.integers(1, 3), towers=st.integers(0, 2), ruins=st.integers(0, 1), exchange=st.integers(0, 1),
       flood=st.integers(0, 1), hand=st.integers(2, 3))
def test_the_palaces_keys_lump_only_states_with_the_same_future(monkeypatch, floors, towers, ruins, exchange, flood,
                                                               hand):
    game = palaces_game(floors, towers, ruins, exchange, flood, 0, hand, 1)
    seats = [palaces_policies.parse("default")]

    def done(state):
        return state.counters()["palaces_completed"] >= 1

    exact, states = answers(game, seats, 1, done)
    reference, full_states = unlumped(monkeypatch, PalacesState, full_palaces_key, game, seats, 1, done)
    assert exact == reference and states <= full_states


def test_the_walk_hands_the_solver_int_states_and_the_absorbing_keys():
    game = diamoniak_game((2, 2, 0, 0), 1, 1, 0, 2, 1, 1)
    graph, start, _ = walker.build(game.new_initial_state(), [diamoniak_policies.parse("default")] * 2)
    transitions, rewards = pairs_of(graph)
    assert start == 0 and sorted(transitions) == list(range(len(graph))) and len(rewards) == len(graph)
    targets = {target for pairs in transitions.values() for _, target in pairs}
    assert {t for t in targets if not isinstance(t, int)} <= {("end", 0), ("end", 1), walker.STALLED}
    assert all(type(weight) is int and weight > 0 for pairs in transitions.values() for weight, _ in pairs)
    assert all(type(rewards[state]) is Fraction and rewards[state] >= 0 for state in transitions)


@pytest.mark.parametrize("witches, diamonds", [(1, 3), (1, 2), (2, 1)])
def test_the_estimate_is_below_the_real_size(witches, diamonds):
    game = diamoniak_game((3, 3, 0, 0), diamonds, witches, 1, 3, 3, 3)
    seats = [diamoniak_policies.parse("default")] * 2
    walked = len(walker.build(game.new_initial_state(), seats)[0])
    estimate, games, _ = walker.estimate_states(game.new_initial_state(), seats, walked)
    assert 0 < estimate < walked and games >= 64  # so such a chain is walked, not refused


def test_a_chain_far_beyond_the_limit_is_estimated_not_walked(run):
    """The full two-player deck: the estimate says no before any walk, and says so in the note."""
    result = run("odds", "--model", "multi", "--players", "2", "--games", "100")
    assert result.exit_code == 0, result.stderr
    # the note that says why (a loaded machine may print a progress line before it)
    note = next(line for line in result.stderr.splitlines() if "exact odds" in line)
    assert note.startswith("toolkit: note: exact odds are out of reach (the chain has at least about ")
    assert ("states by an estimate from 2,048 sampled games, made before walking (at some chance point at most "
            "one pair of them met: the chain may be far larger), over the limit of 100,000)") in note


# --- the walk's own shortcuts: one copy fewer per state, decisions played once per key ---------------

def plain_walk(game, seats, done=None, limit=20_000):
    """The walk without shortcuts, written out here: every outcome on a fresh copy, every decision
    played again, states numbered as the walk meets them. (``{id: pairs}``, {id: (reward, total)})."""
    key_of = walker.key_function(seats)

    def target(state):
        if state.is_terminal() or (done is not None and done(state)):
            if state.winner is not None:
                return ("end", state.winner)
            return walker.DONE if done is not None and done(state) else walker.STALLED
        key = key_of(state)
        if key not in ids:
            ids[key] = len(ids)
            todo.append((ids[key], state))
        return ids[key]

    ids, todo = {}, []
    first = target(walker.advance(game.new_initial_state(), seats))
    pairs, rewards = {}, {}
    while todo:
        state_id, state = todo.pop()
        pairs[state_id], reward, total = [], 0, 0
        for outcome, weight in state.chance_outcomes():
            after = state.clone()
            after.apply_action(outcome)
            try:
                after = walker.advance(after, seats)
            except walker.Loop:
                pairs[state_id].append((weight, walker.LOOP))
            else:
                reward += weight * (after.turns - state.turns)
                pairs[state_id].append((weight, target(after)))
            total += weight
        rewards[state_id] = Fraction(reward, total)
        assert len(ids) <= limit
    return first, pairs, rewards


def walked(game, seats, done=None, remember=True, compiled=False):
    graph, start, _ = walker.build(game.new_initial_state(), seats, 20_000, done, remember_decisions=remember,
                                   compiled=compiled)
    return (start, *pairs_of(graph))


def pairs_of(graph):
    """A walked chain as {node: [(weight, the next node or end)]}, and {node: its turn reward}."""
    weights, targets, ends = graph.weights, graph.targets, graph.ends
    pairs = {node: [(weights[k], targets[k] if targets[k] >= 0 else ends[-1 - targets[k]]) for k in graph.edges(node)]
             for node in graph.state_of_row}
    return pairs, {node: graph.turn_reward(node) for node in pairs}


@settings(max_examples=25, deadline=None)
@given(colours=st.tuples(st.integers(1, 3), st.integers(0, 2), st.integers(0, 1), st.just(0)),
       diamonds=st.integers(0, 2), witches=st.integers(1, 2), fairies=st.integers(0, 1), size=st.integers(2, 3),
       takes=st.integers(1, 2), price=st.integers(1, 2), draw=st.sampled_from(DRAW_RULES),
       rest=st.sampled_from(OTHER_RULES), players=st.integers(1, 2))
def test_the_diamoniak_walk_is_the_plain_walk_transition_for_transition(colours, diamonds, witches, fairies, size,
                                                                       takes, price, draw, rest, players):
    game = diamoniak_game(colours, diamonds, witches, fairies, size, takes, price, players)
    seats = [diamoniak_policies.parse(f"{draw},{rest}")] * players
    try:
        plain = plain_walk(game, seats, limit=1_500)
    except AssertionError:  # kept small, so that the test stays fast
        assume(False)
    assert walked(game, seats) == walked(game, seats, remember=False) == walked(game, seats, compiled=True) == plain
    assert walked(oracle_game(game), oracle_policies(seats)) == plain  # the readable engine and players (tests/oracles)


@settings(max_examples=12, deadline=None)
@given(floors=st.integers(1, 3), towers=st.integers(0, 2), ruins=st.integers(0, 1), exchange=st.integers(0, 1),
       flood=st.integers(0, 1), general=st.integers(0, 1), hand=st.integers(2, 3), players=st.integers(1, 2),
       play=st.sampled_from(("builder", "no-attack", "aggressive")))
def test_the_palaces_walk_is_the_plain_walk_transition_for_transition(floors, towers, ruins, exchange, flood, general,
                                                                     hand, players, play):
    try:
        game = palaces_game(floors, towers, ruins, exchange, flood, general, hand, players)
    except UserError:  # too few cards for the opening hands
        assume(False)
    seats = [palaces_policies.parse(play)] * players

    def done(state):
        return state.counters()["palaces_completed"] >= 1

    first_palace = done if players == 1 else None
    try:
        plain = plain_walk(game, seats, first_palace, limit=1_500)
    except AssertionError:
        assume(False)
    assert walked(game, seats, first_palace) == walked(game, seats, first_palace, remember=False) == plain
    # the readable engine and players (tests/oracles)
    assert walked(oracle_game(game), oracle_policies(seats), first_palace) == plain


def test_decisions_are_remembered_only_for_players_who_decide_by_the_state_alone():
    assert walker.decisions_repeat([diamoniak_policies.parse("default")] * 2)
    assert walker.decisions_repeat([palaces_policies.parse("aggressive,give-worst")])
    assert not walker.decisions_repeat([palaces_policies.parse("builder"), palaces_policies.parse("random-3")])
    assert not walker.decisions_repeat([None])  # a policy that does not say is played every time
    # by default only where deciding costs more than a key: Palaces' players, not Diamoniak's
    assert walker.worth_remembering([palaces_policies.parse("default")])
    assert not walker.worth_remembering([palaces_policies.parse("random")])
    assert not walker.worth_remembering([diamoniak_policies.parse("default")] * 2)


def test_the_walk_leaves_its_start_as_it_was():
    game = diamoniak_game((2, 2, 0, 0), 1, 1, 1, 2, 1, 1)
    start = game.new_initial_state()
    before = full_diamoniak_key(start), start.turns, start.counters()
    walker.build(start, [diamoniak_policies.parse("default")] * 2)
    assert (full_diamoniak_key(start), start.turns, start.counters()) == before


@pytest.mark.parametrize("seed", range(6))
def test_a_copy_shares_nothing_it_could_change(seed):
    """Play one copy on while the other stays put: the original's every field is as it was."""
    import random

    rng = random.Random(seed)
    for game, full in ((diamoniak_game((3, 3, 2, 0), 3, 2, 1, 3, 2, 1, 3), full_diamoniak_key),
                       (palaces_game(3, 2, 1, 1, 1, 1, 4, 2), full_palaces_key)):
        state = game.new_initial_state()
        for _ in range(150):
            if state.is_terminal():
                break
            before = full(state), state.turns, state.counters()
            copy = state.clone()
            for _ in range(4):
                if copy.is_terminal():
                    break
                options = copy.chance_outcomes() if copy.current_player() == CHANCE else \
                    [(action, 1) for action in copy.legal_actions()]
                copy.apply_action(rng.choice(options)[0])
            assert (full(state), state.turns, state.counters()) == before
            options = state.chance_outcomes() if state.current_player() == CHANCE else \
                [(action, 1) for action in state.legal_actions()]
            state.apply_action(rng.choice(options)[0])


# --- two castle colours swapped: one state of the chain for a state and its twin --------------------

def no_swap(monkeypatch):
    monkeypatch.setattr(DiamoniakGame, "colour_swap", property(lambda game: None))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(colour=st.integers(1, 3), diamonds=st.integers(0, 2), witches=st.integers(1, 2), fairies=st.integers(0, 1),
       size=st.integers(2, 3), takes=st.integers(1, 2), price=st.integers(1, 2), draw=st.sampled_from(DRAW_RULES),
       rest=st.sampled_from(OTHER_RULES), players=st.integers(1, 2), pair=st.sampled_from(((0, 1), (0, 2), (1, 3))),
       to_discard=st.booleans())
def test_swapping_two_castle_colours_keeps_every_fraction(monkeypatch, colour, diamonds, witches, fairies, size, takes,
                                                          price, draw, rest, players, pair, to_discard):
    colours = [0, 0, 0, 0]
    colours[pair[0]] = colours[pair[1]] = colour
    game = diamoniak_game(colours, diamonds, witches, fairies, size, takes, price, players)
    if to_discard:
        game = replace(game, variants=frozenset({"diamonds-to-discard"}))
    assert game.colour_swap is not None
    seats = [diamoniak_policies.parse(f"{draw},{rest}")] * players
    try:
        swapped, states = answers(game, seats, players, limit=1_500)
    except walker.TooManyStates:
        assume(False)
    with monkeypatch.context() as patch:
        no_swap(patch)
        unswapped, more = answers(game, seats, players)
    assert swapped == unswapped and states <= more
    reference, _ = unlumped(monkeypatch, DiamoniakState, full_diamoniak_key, game, seats, players)
    assert swapped == reference


def test_colours_are_swapped_only_where_that_is_exact(monkeypatch):
    game = diamoniak_game((3, 3, 0, 0), 3, 1, 1, 3, 3, 3)
    seats = [diamoniak_policies.parse("default")] * 2
    swapped, states = answers(game, seats, 2)
    with monkeypatch.context() as patch:
        no_swap(patch)
        unswapped, more = answers(game, seats, 2)
    assert swapped == unswapped and states < 0.55 * more  # the chain of the two-colour deck is halved
    silent = Declared(seats[0], POLICY_ONLY, colours_alike=False)  # a player who does not say
    assert answers(game, [silent] * 2, 2)[1] == more
    for other in (diamoniak_game((3, 3, 1, 0), 3, 1, 1, 3, 3, 3), diamoniak_game((3, 2, 0, 0), 3, 1, 1, 3, 3, 3),
                  diamoniak_game((3, 3, 0, 0), 3, 1, 1, 3, 3, 3, players=3),
                  replace(game, variants=frozenset({"free-colour"}))):
        assert other.colour_swap is None
    # why a third colour forbids it: a player holding a red and a blue card on their right loses the red one
    # to a witch (card order) whichever colour the opponent builds, so the swapped twin plays differently
    three = diamoniak_game((2, 2, 2, 0), 0, 1, 0, 2, 1, 1)
    exact, _ = answers(three, seats, 2)
    forced = DiamoniakGame.colour_swap.func(diamoniak_game((2, 2, 0, 0), 0, 1, 0, 2, 1, 1))
    with monkeypatch.context() as patch:
        patch.setattr(DiamoniakGame, "colour_swap", property(lambda game: forced))
        wrong, _ = answers(three, seats, 2)
    assert exact[0] == Fraction(50, 21) and wrong[0] != exact[0]
