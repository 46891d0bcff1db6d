"""Diamoniak's rules, each on a hand-built state, plus invariants under random play: every test on the
product's state (the kernel's steps) and on the oracle engine (tests/oracles), with the same assertions."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games import CHANCE, TERMINAL
from toolkit.games.diamoniak.engine import DiamoniakGame
from toolkit.games.diamoniak.policies import parse
from toolkit.sim.runner import play

from oracles import diamoniak_engine, diamoniak_policies

CAT = load("diamoniak", require_art=False)


@pytest.fixture(autouse=True, scope="module", params=["product", "oracle"])
def engine(request):
    """Every test plays the product's engine and players, then the oracle's (module-wide, for hypothesis)."""
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "oracle":
            patch.setattr(sys.modules[__name__], "DiamoniakGame", diamoniak_engine.DiamoniakGame)
            patch.setattr(sys.modules[__name__], "parse", diamoniak_policies.parse)
        yield request.param


def game(players=2, variants=(), overrides=()):
    cat = load("diamoniak", overrides=overrides, require_art=False) if overrides else CAT
    return DiamoniakGame.from_catalogue(cat, players=players, variants=variants)


def idx(g, card_id):
    return g.names.index(card_id)


def draw(state, card_id):
    """Take the given card off the pile (the state must be at a decision to draw)."""
    state.apply_action(("draw",))
    assert state.current_player() == CHANCE
    state.apply_action(idx(state.game, card_id))


def test_the_deck_comes_from_the_catalogue_and_set():
    g = game(overrides=["witch=8"])
    assert sum(g.counts) == 55 and g.counts[idx(g, "witch")] == 8
    state = g.new_initial_state()
    state.apply_action(("draw",))
    outcomes = dict(state.chance_outcomes())
    assert outcomes[idx(g, "witch")] == 8 and outcomes[idx(g, "diamond")] == 20


def test_first_castle_card_starts_a_castle_of_its_colour():
    s = game().new_initial_state()
    draw(s, "castle-red")
    assert s.hands[0].colour == "red" and s.castle_size(0) == 1
    assert s.phase == "more" and ("draw",) in s.legal_actions() and ("stop",) in s.legal_actions()


def test_a_colour_already_built_goes_to_the_right_side():
    s = game().new_initial_state()
    draw(s, "castle-red")
    s.apply_action(("stop",))
    draw(s, "castle-red")  # player 2 cannot take red
    assert s.hands[1].colour is None and s.hands[1].side[idx(s.game, "castle-red")] == 1
    draw(s, "castle-blue")
    assert s.hands[1].colour == "blue"


def test_other_colours_go_to_the_right_side_of_a_builder():
    s = game().new_initial_state()
    draw(s, "castle-red")
    draw(s, "castle-green")
    assert s.hands[0].side[idx(s.game, "castle-green")] == 1 and s.castle_size(0) == 1


def test_diamond_and_fairy_go_to_the_right_side_and_allow_another_draw():
    s = game().new_initial_state()
    draw(s, "diamond")
    assert s.diamonds(0) == 1 and s.phase == "more"
    draw(s, "fairy")
    assert s.fairies(0) == 1 and s.phase == "more"


def test_a_witch_ends_the_turn_and_takes_three_cards_of_the_players_choice():
    s = game().new_initial_state()
    draw(s, "castle-red")
    for _ in range(3):
        draw(s, "diamond")
    draw(s, "castle-blue")
    draw(s, "witch")
    assert s.phase == "witch" and s.current_player() == 0
    actions = s.legal_actions()
    assert ("fairy",) not in actions
    assert all(sum(n for _, _, n in a[1]) == 3 for a in actions)
    d, blue, red = idx(s.game, "diamond"), idx(s.game, "castle-blue"), idx(s.game, "castle-red")
    choice = ("lose", (("castle", red, 1), ("side", d, 2)))
    assert choice in actions
    s.apply_action(choice)
    assert s.castle_size(0) == 0 and s.diamonds(0) == 1 and s.hands[0].side[blue] == 1
    assert s.discard[idx(s.game, "witch")] == 1 and s.discard[red] == 1 and s.discard[d] == 2
    assert s.player == 1 and s.phase == "turn"


def test_a_witch_takes_everything_from_a_player_holding_fewer_than_three():
    s = game().new_initial_state()
    draw(s, "diamond")
    draw(s, "witch")
    assert s.legal_actions() == [("lose", (("side", idx(s.game, "diamond"), 1),))]
    s.apply_action(s.legal_actions()[0])
    assert s.losable(0) == 0 and s.player == 1


def test_a_fairy_may_stop_the_witch_and_both_go_to_the_discard():
    s = game().new_initial_state()
    draw(s, "fairy")
    for _ in range(3):
        draw(s, "diamond")
    draw(s, "witch")
    assert ("fairy",) in s.legal_actions()
    assert any(a[0] == "lose" for a in s.legal_actions())  # using the fairy is a choice
    s.apply_action(("fairy",))
    assert s.fairies(0) == 0 and s.diamonds(0) == 3
    assert s.discard[idx(s.game, "fairy")] == 1 and s.discard[idx(s.game, "witch")] == 1


def test_a_fairy_cannot_be_one_of_the_three_cards():
    s = game().new_initial_state()
    draw(s, "fairy")
    draw(s, "witch")
    assert s.legal_actions() == [("fairy",), ("lose", ())]


def _buyer_ready(variants=()):
    """Player 1 builds red and holds 3 diamonds; player 2 holds a red castle card on the right."""
    s = game(variants=variants).new_initial_state()
    draw(s, "castle-red")
    for _ in range(3):
        draw(s, "diamond")
    s.apply_action(("stop",))
    draw(s, "castle-red")
    s.apply_action(("stop",))
    return s


def test_buy_pays_three_diamonds_to_the_seller_and_ends_the_turn_without_a_draw():
    s = _buyer_ready()
    assert s.legal_actions()[0] == ("buy", 1)
    pile_before = list(s.pile)
    s.apply_action(("buy", 1))
    assert s.castle_size(0) == 2 and s.diamonds(0) == 0 and s.diamonds(1) == 3
    assert s.hands[1].side[idx(s.game, "castle-red")] == 0
    assert s.pile == pile_before and s.player == 1 and s.counters()["purchases"] == 1


def test_buy_variant_sends_the_diamonds_to_the_discard():
    s = _buyer_ready(variants=["diamonds-to-discard"])
    s.apply_action(("buy", 1))
    assert s.diamonds(1) == 0 and s.discard[idx(s.game, "diamond")] == 3


def test_no_purchase_without_three_diamonds_or_a_seller():
    s = game().new_initial_state()
    draw(s, "castle-red")
    draw(s, "diamond")
    draw(s, "diamond")
    s.apply_action(("stop",))
    draw(s, "castle-red")
    s.apply_action(("stop",))
    assert s.sellers() == [] and s.legal_actions() == [("draw",)]


def test_six_castle_cards_win_at_once():
    s = game(players=1).new_initial_state()
    for _ in range(5):
        draw(s, "castle-red")
    assert not s.is_terminal()
    draw(s, "castle-red")
    assert s.is_terminal() and s.winner == 0 and s.current_player() == TERMINAL


def test_reshuffle_moves_the_discard_into_the_pile():
    g = game(players=1, overrides=["castle-blue=0", "castle-green=0", "castle-yellow=0", "diamond=1", "witch=1", "fairy=0"])
    s = g.new_initial_state()
    draw(s, "diamond")
    draw(s, "witch")
    s.apply_action(s.legal_actions()[0])
    for _ in range(5):
        draw(s, "castle-red")
    # 1 red castle card left, discard holds the witch and the diamond
    draw(s, "castle-red")
    assert s.winner == 0
    s = g.new_initial_state()
    draw(s, "castle-red")
    draw(s, "witch")
    s.apply_action(s.legal_actions()[0])  # loses the red card
    for _ in range(5):
        draw(s, "castle-red")
    draw(s, "diamond")
    assert sum(s.pile) == 0 and s.counters()["reshuffles"] == 0
    s.apply_action(("draw",))
    assert s.counters()["reshuffles"] == 1 and s.pile[idx(g, "castle-red")] == 1 and s.pile[idx(g, "witch")] == 1


def test_an_emptied_castle_keeps_its_colour_unless_the_variant_frees_it():
    for variants, expected in (((), "red"), (("free-colour",), None)):
        s = game(players=1, variants=variants).new_initial_state()
        draw(s, "castle-red")
        draw(s, "witch")
        s.apply_action(s.legal_actions()[0])
        assert s.castle_size(0) == 0 and s.hands[0].colour == expected


def test_a_deck_where_no_castle_can_be_completed_is_detected():
    g = game(overrides=["castle-red=5", "castle-blue=5", "castle-green=5", "castle-yellow=5"])
    s = g.new_initial_state()
    assert s.is_terminal() and s.stalled and s.winner is None


def test_a_colour_too_small_to_finish_ends_a_solo_game_as_stalled():
    g = game(players=1, overrides=["castle-red=2"])
    s = g.new_initial_state()
    assert not s.is_terminal()
    draw(s, "castle-red")  # the castle's colour is fixed for good: it can never be finished
    assert s.is_terminal() and s.stalled and s.winner is None and s.counters()["reshuffles"] == 0
    s = g.new_initial_state()
    draw(s, "castle-blue")
    assert not s.is_terminal()


def test_bad_players_and_variants_are_user_errors():
    with pytest.raises(UserError, match="Diamoniak takes 1 to 4 players"):
        game(players=5)
    with pytest.raises(UserError, match="unknown Diamoniak variant"):
        game(variants=["gold"])


def _total_cards(s):
    return [s.pile[i] + s.discard[i] + sum(h.side[i] + h.castle[i] for h in s.hands) for i in range(len(s.pile))]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2**32), st.lists(st.sampled_from(["free-colour", "diamonds-to-discard"]), unique=True))
def test_random_play_never_creates_or_loses_cards(players, seed, variants):
    g = game(players=players, variants=variants)
    s = g.new_initial_state()
    rng = random.Random(seed)
    for _ in range(400):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        assert _total_cards(s) == list(g.counts)
        assert min(s.pile) >= 0 and min(s.discard) >= 0
        assert all(min(h.side) >= 0 and min(h.castle) >= 0 for h in s.hands)
        for h in s.hands:  # a castle holds only cards of its colour
            assert all(g.colours[i] == h.colour for i, n in enumerate(h.castle) if n)


@pytest.mark.parametrize("policy", ["default", "stop-after-1", "stop-after-3", "risk-0", "risk-2", "odds-10",
                                    "stop-on-castle", "save-fairy", "keep-diamonds", "never-buy"])
@pytest.mark.parametrize("variants", [(), ("free-colour", "diamonds-to-discard")])
def test_games_end_for_every_policy_and_variant(policy, variants):
    g = game(players=3, variants=variants)
    rng = random.Random(7)
    for _ in range(15):
        s = play(g.new_initial_state(), [parse(policy)] * 3, rng, max_turns=2_000)
        assert s.winner is not None


def test_clone_is_independent():
    s = game().new_initial_state()
    draw(s, "diamond")
    t = s.clone()
    draw(t, "diamond")
    assert s.diamonds(0) == 1 and t.diamonds(0) == 2 and s.key() != t.key()


def test_stopping_rules_combine_into_one_rule_with_a_canonical_name():
    policy = parse("odds-20,never-buy,stop-on-castle,risk-1,stop-after-4")
    assert policy.draw.name == "stop-after-4,risk-1,odds-20,stop-on-castle"
    assert policy.name == "stop-after-4,risk-1,odds-20,stop-on-castle,fairy-first,never-buy"
    assert parse(policy.name) == policy and parse("risk-1,stop-after-4") == parse("stop-after-4,risk-1")
    assert parse("stop-after-2,risk-3").ignores == frozenset({"last_built"})  # what neither part reads
    assert parse("risk-3,stop-on-castle").ignores == frozenset({"drawn_this_turn"})
    assert parse("stop-after-2,stop-on-castle").ignores == frozenset()
    assert parse("risk-2").draw == parse("risk-2,default").draw  # one rule stays itself


def test_a_combined_rule_stops_as_soon_as_one_part_would():
    s = game().new_initial_state()
    draw(s, "castle-red")
    s.apply_action(("draw",))
    s.apply_action(idx(s.game, "diamond"))  # two cards drawn, two at risk
    assert parse("stop-after-3").act(s) == ("draw",) and parse("risk-2").act(s) == ("draw",)
    assert parse("stop-after-3,risk-2").act(s) == ("draw",)
    assert parse("stop-after-3,risk-1").act(s) == ("stop",)  # risk-1 says stop
    assert parse("stop-after-2,risk-2").act(s) == ("stop",)  # stop-after-2 says stop
    assert parse("risk-2,stop-on-castle").act(s) == ("draw",)  # the last card was no castle card


@pytest.mark.parametrize("text, message", [
    ("stop-after-2,stop-after-3", "two rules for the draw decision of one kind (stop-after-2, stop-after-3)"),
    ("risk-1,odds-5,risk-2", "two rules for the draw decision of one kind (risk-1, risk-2)"),
    ("stop-on-castle,stop-on-castle", "of one kind (stop-on-castle, stop-on-castle)"),
    ("until-witch,risk-2", "until-witch never stops, so it cannot be combined with other draw rules (risk-2)"),
    ("save-fairy,keep-diamonds", "two rules for the witch decision"),
])
def test_combinations_that_make_no_sense_are_refused_in_one_line(text, message):
    with pytest.raises(UserError) as caught:
        parse(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)
