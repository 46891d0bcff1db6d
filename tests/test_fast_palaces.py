"""The compiled Palaces kernel plays the oracle engine's games: record for record, field for field.

Every test plays the same card orders three ways: by ``toolkit.sim.play.engine_batch`` on the oracle
engine and players (``tests/oracles``, the readable rules), by the kernel's ``batch``
(``toolkit.games.palaces.policies.batch``: the compiled steps), and, its first games, by ``engine_batch``
on the product's state (the kernel's steps, interpreted); it asks for equal arrays: every play rule with
every give rule, 1-4 players, each variant alone and in combinations, mixed seats, odd decks
(Hypothesis), a small turn limit: some 2,100 card orders in all.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.catalogue.loader import load
from toolkit.games.palaces import kernel as palaces_kernel
from toolkit.games.palaces import policies as palaces_policies
from toolkit.games.palaces.engine import VARIANTS, PalacesGame, _encode_game
from toolkit.sim.play import engine_batch
from toolkit.games.palaces.policies import Builder, GiveWorst, PalacesPolicy, _encode_policies, parse
from toolkit.sim.records import kernel_for, play_records

from oracles import oracle_game, oracle_policies

CATALOGUE = load("palaces", require_art=False)
PLAYS = ("builder", "no-attack", "aggressive", "random-3")
GIVES = ("give-worst", "give-random-4")
# the other seats of a mixed table (a random seat among builders, so games end)
OTHERS = ("default", "aggressive,give-random-2", "no-attack", "random-9,give-worst")
THIN = 2  # the games of each comparison that the product's state plays too (interpreted: slower)


def game(players=2, variants=()):
    return PalacesGame.from_catalogue(CATALOGUE, players=players, variants=variants)


def assert_same(g, names, count, run_seed=7, start=0, max_turns=2_000):
    policies = [parse(name) for name in names]
    assert palaces_policies.supports(g, policies)
    engine = engine_batch(oracle_game(g), oracle_policies(policies), run_seed, start, count, max_turns)
    kernel = palaces_policies.batch(g, policies, run_seed, start, count, max_turns)
    thin = engine_batch(g, policies, run_seed, start, min(count, THIN), max_turns)
    assert list(kernel) == list(engine) == list(thin)
    for field in engine:
        differ = np.nonzero(engine[field] != kernel[field])[0]
        assert differ.size == 0, (f"{field} differs in game {start + differ[0]} of run {run_seed} "
                                  f"({names}, {sorted(g.variants)}): engine {engine[field][differ[0]]}, "
                                  f"kernel {kernel[field][differ[0]]}")
        assert np.array_equal(thin[field], engine[field][:THIN]), (field, names, sorted(g.variants))
    return engine


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("play", PLAYS)
@pytest.mark.parametrize("gift", GIVES)
def test_every_play_and_give_rule_plays_the_engines_games(players, play, gift):
    records = assert_same(game(players), [f"{play},{gift}", *OTHERS[:players - 1]], 30, run_seed=players)
    if players > 1 and not play.startswith("random"):
        assert records["winner"].min() >= 0  # real games: every one is won


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_variant_alone(variant):
    for players in (2,) if variant == "short-two-player" else (2, 3, 4):
        for play in PLAYS:
            assert_same(game(players, [variant]), [f"{play},give-random-1", *OTHERS[:players - 1]], 12,
                        run_seed=players * 10)


@pytest.mark.parametrize("variants", [
    ("exchange-face-up", "palaces-to-pile"),
    ("one-per-colour", "ruins-card-to-clear"),
    ("exchange-face-up", "one-per-colour", "palaces-to-pile", "ruins-card-to-clear", "short-two-player"),
])
def test_variants_together(variants):
    players = 2 if "short-two-player" in variants else 3
    assert_same(game(players, variants), ["random-5", *OTHERS[:players - 1]], 40)
    assert_same(game(players, variants), ["aggressive,give-random-6", *OTHERS[1:players]], 40)


def test_random_tables_and_the_turn_limit():
    """All seats random: games hit the turn limit (stopped, no winner, not stalled) as in the engine."""
    records = assert_same(game(3, ["exchange-face-up"]), ["random-1", "random-2,give-worst", "random"], 30,
                          max_turns=150)
    assert (records["turns"] > 150).any() and (records["stalled"] == 0).any()
    assert_same(game(4), ["random-7"] * 4, 20, max_turns=60)


@st.composite
def odd_games(draw):
    """Any counts (none of some kinds, so stalls), small hands, few palaces, any exchange size."""
    base = game()
    counts = tuple(draw(st.integers(0, 4)) for _ in base.counts)
    players = draw(st.integers(1, 4))
    variants = draw(st.sets(st.sampled_from(sorted(set(VARIANTS) - {"short-two-player"}))))
    if players == 2 and draw(st.booleans()):
        variants.add("short-two-player")
    g = dataclasses.replace(base, counts=counts, players=players, variants=frozenset(variants),
                            hand_size=draw(st.integers(0, 6)), max_palaces=draw(st.integers(0, 3)),
                            exchange_cards=draw(st.integers(0, 3)), goal=draw(st.integers(1, 12)),
                            goal_two_players=draw(st.integers(1, 8)))
    names = [draw(st.sampled_from([*PLAYS, "random-2,give-worst", "aggressive,give-random-8"])) for _ in range(players)]
    return g, names


@settings(max_examples=60, deadline=None, derandomize=True)
@given(odd_games(), st.integers(0, 2**63 - 1))
def test_odd_decks_and_rules(case, run_seed):
    g, names = case
    assert_same(g, names, 6, run_seed=run_seed, max_turns=300)


def test_a_deck_that_cannot_end_stalls_before_the_deal():
    g = dataclasses.replace(game(), counts=tuple(0 if kind == "roof" else n for n, kind in zip(game().counts,
                                                                                               game().kinds)))
    records = assert_same(g, ["default", "random-1"], 5)
    assert (records["stalled"] == 1).all() and (records["turns"] == 1).all()


def test_batches_are_independent_of_their_split_and_of_the_games_before():
    g = game(4, ["palaces-to-pile"])
    policies = [parse(name) for name in ("random-4", "default,give-random", "aggressive", "no-attack,give-random-3")]
    whole = palaces_policies.batch(g, policies, 99, 0, 300)
    parts = [palaces_policies.batch(g, policies, 99, start, 100) for start in (0, 100, 200)]
    for field, values in whole.items():
        assert np.array_equal(values, np.concatenate([part[field] for part in parts]))
    late = palaces_policies.batch(g, policies, 99, 250, 1)
    assert all(late[field][0] == whole[field][250] for field in whole)
    none, engine_none = palaces_policies.batch(g, policies, 99, 5, 0), engine_batch(g, policies, 99, 5, 0)
    assert list(none) == list(engine_none) and all(v.size == 0 for v in none.values())
    assert whole["winner"].std() > 0 and len(set(whole["turns"])) > 20  # different games, not one repeated


def test_the_dispatcher_takes_the_kernel_and_gives_the_engines_records():
    g = game(2)
    policies = [parse("default"), parse("random-1")]
    assert kernel_for(g, policies) is palaces_policies
    fast, slow = play_records(g, policies, 3, 10, 25), play_records(g, policies, 3, 10, 25, fast=False)
    assert all(np.array_equal(fast[field], slow[field]) for field in slow)


def test_unknown_rules_are_left_to_the_engine():
    class Custom(Builder):
        pass

    g = game(2)
    assert not palaces_policies.supports(g, [PalacesPolicy(Custom(), GiveWorst()), parse("default")])
    assert not palaces_policies.supports(g, [parse("default")])  # one policy for two seats
    assert not palaces_policies.supports(object(), [parse("default")] * 2)


def interpreted_batch(g, policies, run_seed, start, count, max_turns=10_000):
    """``kernel.batch`` with its loop and every step run as plain Python (the functions as written, not
    their compiled clones; the random numbers by their plain twins)."""
    k = palaces_kernel
    numbers = _encode_game(g)
    pol, seeds = _encode_policies(policies)
    out = np.zeros((count, len(k.FIELDS)), np.int64)
    s, r = np.zeros(numbers[k.S_SIZE], np.int64), np.zeros(1 + 2 * g.players, np.uint64)
    k.play_rows(numbers, pol, seeds, np.uint64(run_seed), np.int64(start), np.int64(0), np.int64(count),
                np.int64(max_turns), out, s, r, True)
    return {name: out[:, i] for i, name in enumerate(k.FIELDS)}


@pytest.mark.parametrize("players, variants, names", [
    (1, (), ["default"]),
    (2, ("exchange-face-up", "ruins-card-to-clear"), ["aggressive,give-random-3", "random-2"]),
    (3, ("palaces-to-pile", "one-per-colour"), ["no-attack", "random-5,give-worst", "default,give-random"]),
])
def test_the_kernels_steps_run_interpreted_play_the_same_games(players, variants, names):
    """The step functions run as plain Python play the compiled kernel's games and the engine's, record
    for record."""
    g, policies = game(players, variants), [parse(name) for name in names]
    expected = assert_same(g, names, 8, run_seed=5, start=2, max_turns=400)
    got = interpreted_batch(g, policies, 5, 2, 8, max_turns=400)
    assert all(np.array_equal(got[name], expected[name]) for name in expected)
    assert not hasattr(palaces_kernel.decide, "py_func")  # plain: the compiled ones are kernel.compiled()'s
    assert hasattr(palaces_kernel.compiled().decide, "py_func")


def test_the_state_on_compiled_steps_plays_as_on_interpreted_ones():
    """``PalacesState.compiled()``: the same state on the kernel's compiled steps; random play and the
    built-in players give the same actions, keys and records as the interpreted state, action for action."""
    import random

    g = game(3, ("exchange-face-up", "ruins-card-to-clear"))
    seats = [parse(name) for name in ("default", "aggressive,give-random-3", "random-2")]
    for seat, policy in enumerate(seats):
        policy.start_game(11, seat)
    twins = [parse(policy.name) for policy in seats]  # the same players for the compiled state, streams apart
    for seat, policy in enumerate(twins):
        policy.start_game(11, seat)
    rng = random.Random(5)
    plain = g.new_initial_state()
    fast = plain.compiled()
    assert fast.steps is palaces_kernel.compiled() and plain.steps is palaces_kernel
    for step in range(600):
        if plain.is_terminal():
            break
        assert fast.key() == plain.key() and fast.legal_actions() == plain.legal_actions()
        assert fast.current_player() == plain.current_player()
        if plain.is_chance_node():
            action = rng.choice(plain.chance_outcomes())[0]
        else:
            seat = plain.current_player()
            chosen = seats[seat].act(plain)
            assert twins[seat].act(fast) == chosen
            action = chosen if step % 3 else rng.choice(plain.legal_actions())
        plain.apply_action(action)
        fast.apply_action(action)
    assert plain.is_terminal() and fast.is_terminal()
    assert (fast.counters(), fast.scores(), fast.winner, fast.turns) == (plain.counters(), plain.scores(), plain.winner,
                                                                         plain.turns)
