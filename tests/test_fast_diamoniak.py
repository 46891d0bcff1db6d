"""The compiled Diamoniak kernel plays the engine's games: the same record, field for field, per card order.

Every comparison plays the same games three ways: by ``engine_batch`` (driven by ``toolkit.sim.play``)
on the oracle engine and players (``tests/oracles``, the readable rules), by ``diamoniak_kernel.batch``,
and, its first games, by ``engine_batch`` on the product's state (the kernel's steps, interpreted); it
asks for equal arrays. Together
the tests below compare several thousand card orders: every draw rule (with several numbers, alone
and combined), every witch rule, both buy rules, both variants, 1-4 players, mixed seats, odd decks,
games cut by the turn limit and decks that stall.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.catalogue import load
from toolkit.games.diamoniak import kernel
from toolkit.games.diamoniak.engine import DiamoniakGame
from toolkit.games.diamoniak.policies import AnyStop, DiamoniakPolicy, StopAfter, parse
from toolkit.sim.play import engine_batch
from toolkit.sim.records import kernel_for, play_records

from oracles import oracle_game, oracle_policies

CAT = load("diamoniak", require_art=False)
VARIANT_SETS = [(), ("diamonds-to-discard",), ("free-colour",), ("diamonds-to-discard", "free-colour")]
DRAW_RULES = ["until-witch", "stop-after-1", "stop-after-2", "stop-after-5", "risk-0", "risk-1", "risk-3",
              "odds-5", "odds-12", "odds-30", "stop-on-castle", "stop-after-3,risk-2", "risk-1,odds-15",
              "stop-after-4,stop-on-castle", "stop-after-2,risk-2,odds-20,stop-on-castle"]
WITCH_RULES = ["fairy-first", "keep-diamonds", "save-fairy"]
BUY_RULES = ["buy-most", "never-buy"]
ALL_NAMED = DRAW_RULES + [f"{w},{b}" for w in WITCH_RULES for b in BUY_RULES] + ["default"]


def game(players=2, variants=(), overrides=()):
    cat = load("diamoniak", overrides=overrides, require_art=False) if overrides else CAT
    return DiamoniakGame.from_catalogue(cat, players=players, variants=variants)


THIN = 30  # games of each comparison the product's own state plays too (its steps interpreted)


def same_records(g, policies, run_seed, start, count, max_turns=10_000):
    """Play the games three ways and check every field: the oracle engine (``engine_batch``), the kernel,
    and, on the first THIN games, ``engine_batch`` on the product's state; return the oracle's records."""
    expected = engine_batch(oracle_game(g), oracle_policies(policies), run_seed, start, count, max_turns)
    got = kernel.batch(g, policies, run_seed, start, count, max_turns)
    thin = engine_batch(g, policies, run_seed, start, min(count, THIN), max_turns)
    assert list(got) == list(expected) == list(thin)
    for name in expected:
        assert got[name].dtype == np.int64
        mismatch = np.flatnonzero(got[name] != expected[name])
        assert mismatch.size == 0, (f"{name} differs in game {start + mismatch[0]}: engine "
                                    f"{expected[name][mismatch[0]]}, kernel {got[name][mismatch[0]]}")
        mismatch = np.flatnonzero(thin[name] != expected[name][:THIN])
        assert mismatch.size == 0, (f"{name} differs in game {start + mismatch[0]}: engine "
                                    f"{expected[name][mismatch[0]]}, product state {thin[name][mismatch[0]]}")
    return expected


def test_supports_every_named_policy_and_no_other():
    for players in (1, 2, 3, 4):
        g = game(players)
        for name in ALL_NAMED:
            assert kernel.supports(g, [parse(name)] * players), name
    g = game(2)
    assert not kernel.supports(g, [parse("default")])  # one policy for two seats

    class Peeker(DiamoniakPolicy):
        def act(self, state):
            return super().act(state)

    class Thrifty(StopAfter):
        def wants_more(self, state):
            return False

    assert not kernel.supports(g, [parse("default"), Peeker()])
    assert not kernel.supports(g, [parse("default"), DiamoniakPolicy(draw=Thrifty(2))])
    twice = AnyStop((StopAfter(2), StopAfter(3)))  # parse refuses it; the kernel leaves it to the engine
    assert not kernel.supports(g, [parse("default"), DiamoniakPolicy(draw=twice)])
    assert kernel_for(g, [parse("default"), Peeker()]) is None
    assert kernel_for(g, [parse("default")] * 2) is kernel


@pytest.mark.parametrize("draw", DRAW_RULES)
def test_every_draw_rule(draw):
    players = 2 + DRAW_RULES.index(draw) % 3  # 2, 3 and 4 players in turn
    records = same_records(game(players), [parse(draw)] * players, 11, 0, 90)
    assert (records["winner"] >= 0).all()


@pytest.mark.parametrize("variants", VARIANT_SETS)
@pytest.mark.parametrize("witch", WITCH_RULES)
@pytest.mark.parametrize("buy", BUY_RULES)
def test_every_witch_and_buy_rule_with_every_variant(witch, buy, variants):
    policy = parse(f"{witch},{buy}")
    same_records(game(3, variants), [policy] * 3, 23, 1000, 45)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_mixed_seats_for_every_player_count(players):
    seats = ["default", "stop-after-2,never-buy", "risk-1,keep-diamonds", "odds-20,stop-on-castle,save-fairy"]
    for shift in range(4):
        policies = [parse(seats[(p + shift) % 4]) for p in range(players)]
        same_records(game(players, ("free-colour",) if shift % 2 else ()), policies, 3 + shift, 500, 40)


def test_the_events_the_comparisons_cover():
    """The compared games do exercise what could differ: purchases, spent fairies, reshuffles, lead changes,
    comebacks and passes by a never-buy player who then buys because nothing is left to draw."""
    policies = [parse("stop-after-2"), parse("default"), parse("risk-2,save-fairy")]
    records = same_records(game(3, ("diamonds-to-discard",)), policies, 99, 0, 150)
    for field in ("purchases", "fairies_spent", "reshuffles", "lead_changes", "winner_deficit"):
        assert records[field].max() > 0, field
    # no witches, one card a turn: the pile runs dry, and never-buy players buy since they cannot draw,
    # from the first seller by seat (with 3-4 players not always the one buy-most would choose)
    for players in (2, 3, 4):
        g = game(players, overrides=["witch=0", "fairy=0", "diamond=9"])
        records = same_records(g, [parse("stop-after-1,never-buy")] * players, 4, 0, 60)
        assert records["purchases"].max() > 0 and records["witch_strikes"].max() == 0


def split_colours(players):
    """Each colour in two card types of equal counts: which type a purchase or a witch takes follows the
    engine's tie-breaks (the lowest index), and it shows later, in the order a reshuffle lays out."""
    types = [(f"{colour}-{part}", "castle", colour, 3) for colour in ("red", "blue", "green") for part in "ab"]
    types += [("diamond", "diamond", None, 18), ("witch", "witch", None, 6), ("fairy", "fairy", None, 1)]
    names, kinds, colours, counts = zip(*types)
    return DiamoniakGame(names, kinds, colours, counts, castle_size=5, price=2, witch_takes=2, players=players)


@pytest.mark.parametrize("players", [3, 4])
def test_split_colours_follow_the_engines_tie_breaks(players):
    policies = [parse("stop-after-2"), parse("risk-1,keep-diamonds"), parse("default"), parse("odds-20")]
    records = same_records(split_colours(players), policies[:players], 4, 0, 150)
    assert records["purchases"].max() > 0 and records["reshuffles"].max() > 0


@pytest.mark.parametrize("max_turns", [0, 1, 2, 7, 25])
def test_games_cut_by_the_turn_limit(max_turns):
    policies = [parse("stop-after-1"), parse("risk-0,save-fairy")]
    records = same_records(game(2), policies, 8, 0, 60, max_turns)
    cut = records["winner"] < 0
    assert cut.any() and (records["stalled"][cut] == 0).all()
    assert (records["turns"][cut] == max_turns + 1).all()


@pytest.mark.parametrize("players, overrides, variants", [
    (2, ["castle-red=5", "castle-blue=5", "castle-green=5", "castle-yellow=5"], ()),  # nobody can finish
    (1, ["castle-red=2", "castle-blue=3"], ()),  # alone, a small colour may be claimed first
    (2, ["castle-red=1", "castle-blue=1", "castle-green=6", "castle-yellow=0"], ()),
    (3, ["castle-red=2", "castle-blue=6", "castle-green=6", "castle-yellow=0"], ("free-colour",)),
    (2, ["witch=20", "fairy=0", "castle-green=0", "castle-yellow=0"], ()),  # witches empty castles
    (4, ["diamond=0", "fairy=0", "witch=0"], ()),  # castle cards only: passes until a stall
    (2, ["castle-red=0", "castle-blue=0", "castle-green=0", "castle-yellow=0"], ()),
])
def test_stalled_and_odd_decks(players, overrides, variants):
    g = game(players, variants, overrides)
    for draw in ("until-witch", "stop-after-2,risk-1", "stop-on-castle"):
        same_records(g, [parse(draw)] * players, 17, 0, 25, 400)


def test_a_deck_that_cannot_finish_stalls_before_the_first_turn():
    g = game(2, overrides=["castle-red=5", "castle-blue=5", "castle-green=5", "castle-yellow=5"])
    records = same_records(g, [parse("default")] * 2, 1, 0, 5)
    assert records["stalled"].tolist() == [1] * 5 and records["turns"].tolist() == [1] * 5


def test_a_run_split_into_batches_gives_the_same_games():
    g, policies = game(3), [parse("default"), parse("stop-after-3"), parse("never-buy")]
    whole = kernel.batch(g, policies, 2**64 - 5, 40, 3000)
    parts = [kernel.batch(g, policies, 2**64 - 5, 40, 1300), kernel.batch(g, policies, 2**64 - 5, 1340, 1700)]
    for name in whole:
        assert np.array_equal(whole[name], np.concatenate([part[name] for part in parts]))
    same_records(g, policies, 2**64 - 5, 1290, 30)  # across the seam, against the engine
    assert list(kernel.batch(g, policies, 1, 0, 0)) == list(engine_batch(g, policies, 1, 0, 0))


def test_the_dispatcher_gives_the_engines_records():
    g, policies = game(2, ("free-colour",)), [parse("odds-10,keep-diamonds")] * 2
    fast = play_records(g, policies, 6, 0, 80)
    slow = play_records(g, policies, 6, 0, 80, fast=False)
    assert list(fast) == list(slow) and all(np.array_equal(fast[k], slow[k]) for k in slow)


def test_the_catalogue_rule_numbers_and_a_set_deck():
    """A catalogue with other rule numbers (castle size, price, witch's take) and --set counts."""
    import dataclasses

    cat = load("diamoniak", overrides=["witch=9", "fairy=5", "diamond=12"], require_art=False)
    cat = dataclasses.replace(cat, rules={**cat.rules, "castle_size": 4, "price": 2, "witch_takes": 5})
    for players in (1, 2, 4):
        g = DiamoniakGame.from_catalogue(cat, players, ("diamonds-to-discard",))
        same_records(g, [parse("risk-2"), parse("keep-diamonds"), parse("never-buy"), parse("default")][:players],
                     31, 0, 40)


# --- odd decks, drawn by Hypothesis ----------------------------------------------------------------------

@st.composite
def odd_games(draw):
    """Any deck the engine plays: card types in any order, several types of one kind or colour, any counts
    (zeros included), any rule numbers, variants and policies per seat."""
    colours = draw(st.integers(0, 4))
    types = draw(st.lists(st.sampled_from(["castle", "diamond", "witch", "fairy"]), min_size=1, max_size=9))
    kinds, cols, counts = [], [], []
    for kind in types:
        kinds.append(kind)
        cols.append(f"c{draw(st.integers(0, colours - 1))}" if kind == "castle" and colours else None)
        if kind == "castle" and not colours:
            kinds[-1], cols[-1] = "diamond", None
        counts.append(draw(st.integers(0, {"castle": 8, "diamond": 12, "witch": 6, "fairy": 3}[kinds[-1]])))
    players = draw(st.integers(1, 4))
    g = DiamoniakGame(names=tuple(f"t{i}" for i in range(len(kinds))), kinds=tuple(kinds), colours=tuple(cols),
                      counts=tuple(counts), castle_size=draw(st.integers(1, 7)), price=draw(st.integers(1, 4)),
                      witch_takes=draw(st.integers(1, 5)), players=players,
                      variants=frozenset(draw(st.sets(st.sampled_from(["diamonds-to-discard", "free-colour"])))))
    policies = [parse(draw(st.sampled_from(ALL_NAMED))) for _ in range(players)]
    return g, policies, draw(st.integers(0, 2**64 - 1)), draw(st.sampled_from([3, 40, 300]))


@settings(max_examples=70, deadline=None)
@given(odd_games())
def test_odd_decks_play_the_same(case):
    g, policies, seed, max_turns = case
    assert kernel.supports(g, policies)
    same_records(g, policies, seed, 0, 12, max_turns)


def interpreted_batch(g, policies, run_seed, start, count, max_turns=10_000):
    """``kernel.batch`` with its loop and every step run as plain Python (the functions as written, not
    their compiled clones; only the card orders' random numbers, ``toolkit.fast.rng``, are compiled)."""
    kinds, colours, counts, colour_ok, numbers = kernel._encode_game(g)
    out = np.zeros((len(kernel.FIELDS), count), dtype=np.int64)
    with np.errstate(over="ignore"):
        kernel._play_batch(kinds, colours, counts, colour_ok, numbers, kernel._encode_policies(policies),
                           np.uint64(run_seed), np.uint64(start), count, max_turns, out,
                           *kernel._scratch(kinds.size, g.players, numbers[kernel.G_DECK]))
    return {name: out[i] for i, name in enumerate(kernel.FIELDS)}


@pytest.mark.parametrize("players, variants, names", [
    (1, (), ["default"]),
    (2, ("free-colour",), ["odds-10,keep-diamonds", "stop-on-castle,never-buy"]),
    (3, ("diamonds-to-discard",), ["save-fairy", "stop-after-2,risk-2,odds-20,stop-on-castle", "risk-0,never-buy"]),
])
def test_the_kernels_steps_run_interpreted_play_the_same_games(players, variants, names):
    """The step functions are the product's one copy of the rules: run as plain Python they play the
    compiled kernel's games and the engine's, record for record."""
    g, policies = game(players, variants), [parse(name) for name in names]
    expected = same_records(g, policies, 9, 3, 40)
    got = interpreted_batch(g, policies, 9, 3, 40)
    assert all(np.array_equal(got[name], expected[name]) for name in expected)
    assert not hasattr(kernel._choose, "py_func")  # plain functions: the compiled ones are kernel.compiled()'s
    assert hasattr(kernel.compiled()._choose, "py_func")


def test_the_state_on_compiled_steps_plays_as_on_interpreted_ones():
    """``DiamoniakState.compiled()``: the same state on the kernel's compiled steps; random play and the
    built-in players give the same actions, keys and records as the interpreted state, action for action."""
    import random

    g = game(3, ("diamonds-to-discard", "free-colour"))
    seats = [parse(name) for name in ("default", "stop-after-2,keep-diamonds", "risk-1,save-fairy,never-buy")]
    rng = random.Random(5)
    plain = g.new_initial_state()
    fast = plain.compiled()
    assert fast.steps is kernel.compiled() and plain.steps is kernel
    for step in range(600):
        if plain.is_terminal():
            break
        assert fast.key() == plain.key() and fast.legal_actions() == plain.legal_actions()
        assert fast.current_player() == plain.current_player()
        if plain.is_chance_node():
            action = rng.choice(plain.chance_outcomes())[0]
        else:
            chosen = seats[plain.player].act(plain)
            assert seats[plain.player].act(fast) == chosen
            action = chosen if step % 3 else rng.choice(plain.legal_actions())
        plain.apply_action(action)
        fast.apply_action(action)
    assert plain.is_terminal() and fast.is_terminal()
    assert (fast.counters(), fast.scores(), fast.winner, fast.turns) == (plain.counters(), plain.scores(), plain.winner,
                                                                         plain.turns)
