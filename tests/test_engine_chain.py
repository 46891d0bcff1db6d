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
from toolkit.games.diamoniak import DiamoniakGame, DiamoniakState
from toolkit.games.palaces import PalacesGame, PalacesState
from toolkit.odds import engine_chain
from toolkit.sim import diamoniak_policies, palaces_policies

POLICY_ONLY = frozenset({"drawn_this_turn", "last_built"})
READS = {"stop-after": "drawn_this_turn", "stop-on-castle": "last_built"}  # the draw rules that read one


def full_diamoniak_key(self, ignore=frozenset()):
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
    """A policy that says which state fields it never reads (``ignores``), playing as ``policy``."""

    deterministic = True

    def __init__(self, policy, ignores):
        self.policy, self.ignores, self.name = policy, frozenset(ignores), policy.name

    def act(self, state):
        return self.policy.act(state)


def diamoniak_game(colours, diamonds, witches, fairies, size, takes, price, players=2) -> DiamoniakGame:
    counts = [f"castle-{c}={n}" for c, n in zip(("red", "blue", "green", "yellow"), colours)]
    counts += [f"diamond={diamonds}", f"witch={witches}", f"fairy={fairies}"]
    game = DiamoniakGame.from_catalogue(load("diamoniak", overrides=counts, require_art=False), players)
    return replace(game, castle_size=size, witch_takes=takes, price=price)


def answers(game, seats, players, done=None, limit=20_000):
    result = engine_chain.solve(game.new_initial_state(), seats, players, limit, done)
    return (result.expected_turns, result.win_probability, result.p_stalled, result.p_never, result.p_done), result.states


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
    except engine_chain.TooManyStates:  # kept small, so that the test stays fast
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
    overrides = [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof") for colour in ("blue", "green", "yellow")]
    overrides += [f"floor-red={floors}", f"tower={towers}", f"ruins={ruins}", f"exchange={exchange}",
                  "general-exchange=0", f"flood={flood}", "foundation-red=2", "roof-red=2"]
    game = replace(PalacesGame.from_catalogue(load("palaces", overrides=overrides, require_art=False), 1),
                   hand_size=hand)
    seats = [palaces_policies.parse("default")]

    def done(state):
        return state.counters()["palaces_completed"] >= 1

    exact, states = answers(game, seats, 1, done)
    reference, full_states = unlumped(monkeypatch, PalacesState, full_palaces_key, game, seats, 1, done)
    assert exact == reference and states <= full_states


def test_the_walk_hands_the_solver_int_states_and_the_absorbing_keys():
    game = diamoniak_game((2, 2, 0, 0), 1, 1, 0, 2, 1, 1)
    transitions, start, rewards = engine_chain.build(game.new_initial_state(), [diamoniak_policies.parse("default")] * 2)
    assert start == 0 and sorted(transitions) == list(range(len(transitions))) and len(rewards) == len(transitions)
    targets = {target for pairs in transitions.values() for _, target in pairs}
    assert {t for t in targets if not isinstance(t, int)} <= {("end", 0), ("end", 1), engine_chain.STALLED}
    assert all(type(weight) is int and weight > 0 for pairs in transitions.values() for weight, _ in pairs)
    assert all(type(rewards[state]) is Fraction and rewards[state] >= 0 for state in transitions)


@pytest.mark.parametrize("witches, diamonds", [(1, 3), (1, 2), (2, 1)])
def test_the_estimate_is_below_the_real_size(witches, diamonds):
    game = diamoniak_game((3, 3, 0, 0), diamonds, witches, 1, 3, 3, 3)
    seats = [diamoniak_policies.parse("default")] * 2
    walked = len(engine_chain.build(game.new_initial_state(), seats)[0])
    estimate, games = engine_chain.estimate_states(game.new_initial_state(), seats, walked)
    assert 0 < estimate < walked and games >= 64  # so such a chain is walked, not refused


def test_a_chain_far_beyond_the_limit_is_estimated_not_walked(run):
    """The full two-player deck: the estimate says no before any walk, and says so in the note."""
    result = run("odds", "--model", "multi", "--players", "2", "--games", "100")
    assert result.exit_code == 0, result.stderr
    note = result.stderr.splitlines()[0]
    assert note.startswith("toolkit: note: exact odds are out of reach (the chain has at least about ")
    assert "states by an estimate from 2,048 sampled games, made before walking, over the limit of 100,000)" in note
