"""The compiled walk of Palaces (toolkit.games.palaces.walk) builds the engine walk's chain, array for array.

Each comparison walks one deck three times, by the oracle engine and players (``tests/oracles``, the
readable rules) and by the product's state (the kernel's steps, interpreted) through
``walker.build(compiled=False)``, with the decisions remembered per decision point as the engine
walk does by default, and by the compiled walk (``compiled=True``), and asks for the same
``ArrayGraph``: the state of each row,
the outcomes of each state with their weights and successors (state numbers and absorbing ends),
the turns started per row, the ends in the order first met. The engine walk numbers states as it
meets them, so equal arrays mean the same states, the same keys and the same rules and decisions
everywhere. Decks (Hypothesis): one or two colours of palace cards, towers, every special card or
none, small hands, 1 to 3 palaces, exchanges of 0 to 2 cards, low goals, every variant, 1 to 3
players, mixed builder seats; both "a first palace is complete" as the end (``first-palace``) and
the whole game (``multi``); the state budget must stop both walks alike.
The Hypothesis test walks the product's state (interpreted: slower) only where the oracle's chain has
at most ``SMALL`` states; the chosen decks, three ways everywhere.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from toolkit.catalogue import load
from toolkit.games.palaces import engine as palaces_engine
from toolkit.games.palaces import kernel as palaces_kernel
from toolkit.games.palaces import policies as palaces_policies
from toolkit.games.palaces.engine import VARIANTS, PalacesGame, PalacesState, first_palace_complete
from toolkit.odds import drn, engine_chain
from toolkit.walk import walker
from toolkit.games.palaces import walk as compiled_palaces_walk
from toolkit.games.palaces.policies import parse

from oracles import oracle_game, oracle_policies

CATALOGUE = load("palaces", require_art=False)
BASE = PalacesGame.from_catalogue(CATALOGUE, players=2)
PLAYS = ("builder", "no-attack", "aggressive")
LIMIT = 2_500  # states: both walks stop there alike (kept small, so that the engine walk stays fast)
SMALL = 500  # states: chains the product's state walks too in the Hypothesis test


first_palace = first_palace_complete  # the first-palace question, as toolkit.odds.report asks it


def palaces_game(counts: dict, players=1, variants=(), **rules):
    """The default game with the counts of ``counts`` (card id -> count; every other card 0)."""
    unknown = set(counts) - set(BASE.names)
    assert not unknown, unknown
    return dataclasses.replace(BASE, counts=tuple(counts.get(name, 0) for name in BASE.names), players=players,
                               variants=frozenset(variants), **rules)


def arrays(transitions):
    """Every field of a walked chain, as plain lists."""
    return (list(transitions.row), list(transitions.state_of_row), list(transitions.offsets),
            list(transitions.targets), list(transitions.weights), list(transitions.rewards),
            list(transitions.totals), list(transitions.ends), dict(transitions.end_codes))


def one_walk(start_state, seats, done, limit, compiled):
    """A walk's chain as plain lists (with its start and how many rewards), or the TooManyStates it raised."""
    try:
        transitions, start, first = walker.build(start_state, seats, limit, done, compiled=compiled)
    except walker.TooManyStates as err:
        return ("too many", str(err))
    return (start, arrays(transitions), first)


def both_walks(game, seats, done, limit=LIMIT, product=True):
    """(the oracle engine walk's chain, the product state's, the compiled walk's), or the TooManyStates each
    raised; ``product`` False: the product state's plain walk is not walked (None)."""
    oracle = one_walk(oracle_game(game).new_initial_state(), oracle_policies(seats), done, limit, False)
    engine = one_walk(game.new_initial_state(), seats, done, limit, False) if product else None
    return oracle, engine, one_walk(game.new_initial_state(), seats, done, limit, True)


@st.composite
def small_games(draw):
    """A small deck: one or two colours of foundations, floors and roofs (0-2 each), a tower or none,
    up to three of the four special cards (one each), and small rule numbers, any variant; 1 to 3 players."""
    colours = draw(st.sampled_from([("red",), ("red", "blue")]))
    counts = {}
    for colour in colours:
        for kind in ("foundation", "floor", "roof"):
            counts[f"{kind}-{colour}"] = draw(st.integers(0 if colour != "red" else 1, 2))
    counts["tower"] = draw(st.integers(0, 1))
    for special in draw(st.sets(st.sampled_from(("ruins", "exchange", "general-exchange", "flood")), max_size=3)):
        counts[special] = 1
    players = draw(st.integers(1, 3))
    variants = draw(st.sets(st.sampled_from(sorted(set(VARIANTS) - {"short-two-player"}))))
    if players == 2 and draw(st.booleans()):
        variants.add("short-two-player")
    game = palaces_game(counts, players, variants, hand_size=draw(st.integers(1, 4 if players == 1 else 3)),
                        max_palaces=draw(st.integers(1, 3)), exchange_cards=draw(st.integers(0, 2)),
                        goal=draw(st.integers(2, 12)), goal_two_players=draw(st.integers(2, 6)))
    seats = [parse(f"{draw(st.sampled_from(PLAYS))},give-worst") for _ in range(players)]
    done = first_palace if draw(st.booleans()) else None
    return game, seats, done


@settings(max_examples=80, deadline=None)
@given(small_games())
def test_the_compiled_walk_is_the_engine_walk_array_for_array(case):
    game, seats, done = case
    assert compiled_palaces_walk.applies(game.new_initial_state(), seats, done)
    oracle, _, compiled = both_walks(game, seats, done, product=False)
    if oracle[0] == "too many":
        event("over the budget")
    else:
        event("walked" if oracle[1][0] else "over before any chance point")
        event(f"ends: {sorted(map(str, oracle[1][7]))}")
    assert compiled == oracle
    if oracle[0] != "too many" and len(oracle[1][0]) <= SMALL:  # the product's plain walk too (interpreted: slower)
        assert one_walk(game.new_initial_state(), seats, done, LIMIT, False) == oracle


RED = {"foundation-red": 2, "floor-red": 3, "roof-red": 2}
BENCHMARK = {"foundation-red": 3, "floor-red": 3, "roof-red": 3, "tower": 2, "ruins": 1, "exchange": 1, "flood": 1}
SEEDED = [  # (counts, players, variants, policy, done, rules)
    (BENCHMARK, 1, (), "default", True, {}),  # the benchmark's deck: 8,741 states
    ({**RED, "tower": 1, "general-exchange": 1, "exchange": 1}, 1, (), "no-attack", True, {"hand_size": 3}),
    ({**RED, "ruins": 1, "flood": 1}, 1, ("ruins-card-to-clear",), "aggressive", True, {"hand_size": 3}),
    ({"foundation-red": 1, "floor-red": 2, "roof-red": 1, "exchange": 1, "ruins": 1}, 2, (), "default", False,
     {"hand_size": 2, "goal": 3}),
    ({"foundation-red": 2, "floor-red": 2, "roof-red": 2, "exchange": 1}, 2, (), "default", False,
     {"hand_size": 2, "goal": 3}),
    ({"foundation-red": 1, "floor-red": 2, "roof-red": 1, "general-exchange": 1, "flood": 1}, 2, ("palaces-to-pile",),
     "aggressive", False, {"hand_size": 2, "goal": 3}),
    ({"foundation-red": 1, "floor-red": 2, "roof-red": 1, "exchange": 2}, 2, ("exchange-face-up", "short-two-player"),
     "default", False, {"hand_size": 2, "goal_two_players": 3}),
    ({"foundation-red": 2, "floor-red": 2, "roof-red": 2, "ruins": 2}, 2, ("ruins-card-to-clear",), "aggressive",
     False, {"hand_size": 2, "goal": 3}),  # some games stall
    ({"foundation-red": 1, "floor-red": 1, "roof-red": 1, "foundation-blue": 1, "floor-blue": 1, "roof-blue": 1,
      "tower": 1}, 3, ("one-per-colour",), "no-attack", False, {"hand_size": 2, "goal": 3}),
    ({"foundation-red": 1, "floor-red": 2, "roof-red": 1, "tower": 1, "flood": 1}, 3, (), "aggressive", False,
     {"hand_size": 2, "goal": 3}),  # no end can be reached
    ({"foundation-red": 2, "floor-red": 2}, 2, (), "default", False, {"hand_size": 2}),  # no roof: stalled at once
]


@pytest.mark.parametrize("case", SEEDED)
def test_chosen_decks_walk_alike_and_give_the_same_fractions(case):
    counts, players, variants, policy, done, rules = case
    game = palaces_game(counts, players, variants, **rules)
    seats = [parse(policy)] * players
    done = first_palace if done else None
    oracle, engine, compiled = both_walks(game, seats, done, limit=20_000)
    assert compiled == engine == oracle and engine[0] != "too many"
    answers = [engine_chain.answer(engine_chain.walk(game.new_initial_state(), seats, 20_000, done, compiled=flag),
                                   players) for flag in (False, True)]
    answers.append(engine_chain.answer(engine_chain.walk(oracle_game(game).new_initial_state(), oracle_policies(seats),
                                                         20_000, done, compiled=False), players))
    assert answers[0] == answers[1] == answers[2]


def test_the_budget_stops_both_walks_at_the_same_state():
    game = palaces_game({**RED, "tower": 2, "ruins": 1, "exchange": 1, "flood": 1})
    seats = [parse("default")]
    states = len(walker.build(game.new_initial_state(), seats, done=first_palace, compiled=False)[0])
    for limit in (1, states - 1):
        oracle, engine, compiled = both_walks(game, seats, first_palace, limit)
        assert oracle == engine == compiled == ("too many", str(walker.TooManyStates(limit)))
    oracle, engine, compiled = both_walks(game, seats, first_palace, states)
    assert oracle == engine == compiled and engine[1][0] and len(engine[1][0]) == states


def test_the_chain_grows_its_arrays_and_reports_progress_as_the_engine_walk(monkeypatch):
    """Arrays and table that start small and double many times on the way; progress every 1,000 states."""
    monkeypatch.setattr(compiled_palaces_walk, "ROOM", 8)
    game = palaces_game({**RED, "tower": 2, "ruins": 1, "exchange": 1, "flood": 1})
    seats = [parse("default")]
    calls = {False: [], True: []}
    chains = {flag: walker.build(game.new_initial_state(), seats, 20_000, first_palace,
                                       progress=calls[flag].append, compiled=flag)[0] for flag in (False, True)}
    assert arrays(chains[True]) == arrays(chains[False])
    assert calls[True] == calls[False] == [1] * (len(chains[True]) // 1000) and len(calls[True]) >= 3


def test_the_compiled_chain_exports_the_same_drn():
    game = palaces_game(SEEDED[1][0], **SEEDED[1][5])
    seats = [parse("no-attack")]
    texts = []
    for flag in (False, True):
        texts.append(drn.engine_drn(walker.build(game.new_initial_state(), seats, done=first_palace, compiled=flag),
                                    ["a deck"]))
    assert texts[0] == texts[1]


def test_only_the_first_palace_is_a_question_the_compiled_walk_knows():
    assert compiled_palaces_walk.is_first_palace(first_palace)
    # the same words written again are another question to the walk (the engine walks it, as exactly)
    assert not compiled_palaces_walk.is_first_palace(lambda state: state.counters()["palaces_completed"] >= 1)
    k = 1
    others = [lambda state: state.counters()["palaces_completed"] >= 2,
              lambda state: state.counters()["floods"] >= 1,
              lambda state: state.counters()["palaces_completed"] >= k,  # a free variable
              lambda state, k=1: state.counters()["palaces_completed"] >= k,
              lambda state: state.counters()["palaces_completed"] > 1, len, None]
    assert not any(compiled_palaces_walk.is_first_palace(done) for done in others)


def test_dispatch_only_where_the_compiled_walk_plays_the_same_game(monkeypatch):
    game = palaces_game(SEEDED[0][0])
    seats = [parse("default")]
    start = game.new_initial_state()
    assert walker.compiled_walker(start, first_palace) is compiled_palaces_walk
    assert compiled_palaces_walk.applies(start, seats, first_palace) and compiled_palaces_walk.applies(start, seats)
    assert not compiled_palaces_walk.applies(start, seats, done=lambda state: state.turns > 5)
    assert walker.compiled_walker(start, lambda state: False) is None
    assert not compiled_palaces_walk.applies(start, [parse("random-1")])  # decides at random: no exact chain
    assert not compiled_palaces_walk.applies(start, [parse("default,give-random")])
    assert not compiled_palaces_walk.applies(start, seats * 2)  # two policies for one seat
    with monkeypatch.context() as patch:  # a key that lumps otherwise: the engine walk keys by it
        patch.setattr(PalacesState, "key", lambda self: repr(self.__dict__))
        assert not compiled_palaces_walk.applies(start, seats)
    with pytest.raises(ValueError, match="does not play"):
        walker.build(start, [parse("random-1")], done=first_palace, compiled=True)
    # by default a small chain is walked by the engine, a larger one by the compiled walk: the same chain
    original, calls = compiled_palaces_walk.walk, []

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(compiled_palaces_walk, "walk", counted)
    small = palaces_game(SEEDED[1][0], **SEEDED[1][5])
    assert len(walker.build(small.new_initial_state(), [parse("no-attack")], done=first_palace)[0]) \
        < walker.COMPILED_FROM and not calls
    chain = walker.build(start, seats, done=first_palace)[0]
    assert calls == [1] and len(chain) > walker.COMPILED_FROM
    assert arrays(chain) == arrays(walker.build(start, seats, done=first_palace, compiled=False)[0])


MULTI = (SEEDED[4][0], 2, (), "default", {"hand_size": 2, "goal": 3})


def test_a_key_that_mixes_two_fields_is_caught(monkeypatch):
    """The comparison sees a compiled key that keeps the red floors of the pile and of the discard
    pile in the same bits (their bitwise or): states the engine keeps apart are lumped, and read back wrong."""
    counts, players, variants, policy, rules = MULTI
    game = palaces_game(counts, players, variants, **rules)
    seats = [parse(policy)] * players
    oracle, engine, compiled = both_walks(game, seats, None, 20_000)
    assert oracle == engine == compiled
    original = compiled_palaces_walk._Layout.__init__

    def mixing(self, game, kernel):
        original(self, game, kernel)
        floor = list(self.kept).index(game.names.index("floor-red"))
        self.layout[:, self.at["discard"] + floor] = self.layout[:, self.at["pile"] + floor]

    monkeypatch.setattr(compiled_palaces_walk._Layout, "__init__", mixing)
    with pytest.raises(RuntimeError, match="passed its bit field"):  # lumped states read back as impossible counts
        both_walks(game, seats, None, 20_000)


@pytest.mark.parametrize("mutation", ["hand size", "palaces at once", "builder's attacks"])
def test_a_rule_or_a_decision_played_otherwise_is_caught(monkeypatch, mutation):
    """The compiled steps read the game's rule numbers and the seats' policy rows: one of them changed
    (the kernel then plays another game, or another player) gives another chain, which the comparison sees."""
    counts, players, variants, policy, rules = MULTI
    game = palaces_game({**counts, "ruins": 1}, players, variants, **rules)
    seats = [parse(policy)] * players
    oracle, engine, compiled = both_walks(game, seats, None, 20_000)
    assert oracle == engine == compiled
    encode_game, encode_policies = palaces_engine._encode_game, palaces_policies._encode_policies
    if mutation == "hand size":
        def changed(game):
            g = encode_game(game)
            g[palaces_kernel.G_HAND] -= 1
            return g
        monkeypatch.setattr(palaces_engine, "_encode_game", changed)
    elif mutation == "palaces at once":  # one, not three: the deck's second foundation waits
        def changed(game):
            g = encode_game(game)
            g[palaces_kernel.G_MAXP] = 1
            return g
        monkeypatch.setattr(palaces_engine, "_encode_game", changed)
    else:
        def changed(policies):
            table, seeds = encode_policies(policies)
            table[1, palaces_kernel.P_EAGER] = 1
            return table, seeds
        monkeypatch.setattr(palaces_policies, "_encode_policies", changed)
    _, _, mutated = both_walks(game, seats, None, 20_000)
    assert mutated != oracle


@pytest.mark.parametrize("limit", [1, 2])
def test_decisions_that_do_not_reach_a_chance_point_end_alike(monkeypatch, limit):
    """With the walk's limit of decisions in a row cut to one or two, a general exchange (the card
    played, then each seat's gift) ends as LOOP in both walks, and no turns are counted for it."""
    monkeypatch.setattr(walker, "MAX_DECISIONS", limit)
    game = palaces_game({"foundation-red": 1, "floor-red": 1, "roof-red": 1, "general-exchange": 2}, 2,
                        hand_size=2, goal=3)
    seats = [parse("default")] * 2
    oracle, engine, compiled = both_walks(game, seats, None, 20_000)
    assert oracle == engine == compiled and walker.LOOP in engine[1][7]


@pytest.mark.parametrize("case", SEEDED[:6])
def test_the_walk_of_every_card_type_is_the_walk_of_the_deck_s_types(monkeypatch, case):
    """The compiled walk plays a deck without the card types it holds none of (``_present``); played with
    all 17 types, as it is when the deck holds every one, it builds the same chain."""
    counts, players, variants, policy, done, rules = case
    game = palaces_game(counts, players, variants, **rules)
    seats = [parse(policy)] * players
    done = first_palace if done else None
    kept = compiled_palaces_walk._present(game)[1]
    assert len(kept) < len(game.names)
    chains = []
    for every in (False, True):
        if every:
            monkeypatch.setattr(compiled_palaces_walk, "_present", lambda game: (game, list(range(len(game.names)))))
        chains.append(arrays(walker.build(game.new_initial_state(), seats, 20_000, done, compiled=True)[0]))
    assert chains[0] == chains[1]


KEYED = [  # (counts, players, variants, rules): small decks whose random games come back to the same points
    ({"foundation-red": 1, "floor-red": 2, "roof-red": 1, "exchange": 1, "general-exchange": 1, "ruins": 1}, 2, (),
     {"hand_size": 2, "goal": 3}),
    ({"foundation-red": 2, "floor-red": 1, "roof-red": 1, "exchange": 2, "flood": 1}, 2, ("exchange-face-up",),
     {"hand_size": 2, "goal": 3}),
    ({"foundation-red": 1, "floor-red": 1, "roof-red": 1, "tower": 1, "general-exchange": 1, "ruins": 2}, 3,
     ("ruins-card-to-clear", "palaces-to-pile"), {"hand_size": 2, "goal": 3}),
]


@pytest.mark.parametrize("case", KEYED)
def test_the_state_keys_points_as_the_oracle_does(case):
    """Random games played on the oracle engine and on the product's state side by side (the same chance
    outcomes and actions, both listing the same ones): two points share a product key exactly when they
    share an oracle key, at every kind of point (deal, turn, give, steal, refill, over)."""
    import random

    counts, players, variants, rules = case
    game = palaces_game(counts, players, variants, **rules)
    rng = random.Random(7)
    product_of, oracle_of, phases, visits = {}, {}, set(), 0
    for _ in range(40):
        product, oracle = game.new_initial_state(), oracle_game(game).new_initial_state()
        for _ in range(200):
            mine, theirs = product.key(), oracle.key()
            assert product_of.setdefault(theirs, mine) == mine and oracle_of.setdefault(mine, theirs) == theirs
            visits += 1
            phases.add(oracle.phase)
            if oracle.is_terminal():
                break
            if oracle.is_chance_node():
                options = oracle.chance_outcomes()
                assert product.chance_outcomes() == options
                action = rng.choices([card for card, _ in options], [weight for _, weight in options])[0]
            else:
                options = oracle.legal_actions()
                assert product.legal_actions() == options
                action = rng.choice(options)
            oracle.apply_action(action)
            product.apply_action(action)
    assert visits - len(product_of) >= 200, visits  # points met again, by other ways
    expected = {"deal", "turn", "refill", "over", "give" if "general-exchange" in counts else "turn",
                "turn" if "exchange-face-up" in variants or "exchange" not in counts else "steal"}
    assert phases >= expected, phases
