"""The compiled walk (toolkit.games.diamoniak.walk) builds the engine walk's chain, array for array.

Each comparison walks one deck three times, by the oracle engine and players (``tests/oracles``, the
readable rules) and by the product's state (the kernel's steps, interpreted) through
``walker.build(compiled=False)``, and by the compiled walk (``compiled=True``), and asks for the
same ``ArrayGraph``: the state of
each row, the outcomes of each state with their weights and successors (state numbers and
absorbing ends), the turns started per row, the ends in the order first met. The engine walk numbers
states as it meets them, so equal arrays mean the same states, the same keys' lumping (colour swap,
fields no player reads) and the same rules and decisions everywhere. Decks: 1 to 4 players, 0 to 3
witches, small castles, fairies or none, both variants, every draw rule alone and combined, every
witch order, both buy rules, mixed seats; the state budget must stop both walks alike.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from toolkit.catalogue import load
from toolkit.games.diamoniak.engine import DiamoniakGame, DiamoniakState
from toolkit.odds import drn, engine_chain
from toolkit.walk import walker
from toolkit.games.diamoniak import walk as compiled_walk
from toolkit.games.diamoniak import policies as diamoniak_policies

from oracles import oracle_game, oracle_policies

DRAW_RULES = ("until-witch", "stop-after-1", "stop-after-2", "stop-on-castle", "risk-0", "risk-1", "odds-30",
              "stop-after-2,risk-1", "stop-after-3,stop-on-castle", "risk-2,odds-20")
OTHER_RULES = ("fairy-first,buy-most", "keep-diamonds,buy-most", "save-fairy,buy-most", "fairy-first,never-buy",
               "keep-diamonds,never-buy", "save-fairy,never-buy")
VARIANTS = ((), ("diamonds-to-discard",), ("free-colour",), ("diamonds-to-discard", "free-colour"))
LIMIT = 1_500  # states: both walks stop there alike (kept small, so that the engine walk stays fast)


def diamoniak_game(colours, diamonds, witches, fairies, size, takes, price, players=2, variants=()):
    counts = [f"castle-{c}={n}" for c, n in zip(("red", "blue", "green", "yellow"), colours)]
    counts += [f"diamond={diamonds}", f"witch={witches}", f"fairy={fairies}"]
    game = DiamoniakGame.from_catalogue(load("diamoniak", overrides=counts, require_art=False), players, variants)
    return replace(game, castle_size=size, witch_takes=takes, price=price)


def arrays(transitions):
    """Every field of a walked chain, as plain lists."""
    return (list(transitions.row), list(transitions.state_of_row), list(transitions.offsets),
            list(transitions.targets), list(transitions.weights), list(transitions.rewards),
            list(transitions.totals), list(transitions.ends), dict(transitions.end_codes))


def both_walks(game, seats, limit=LIMIT):
    """(the oracle engine walk's chain, the product state's, the compiled walk's), or the TooManyStates each
    raised."""
    result = []
    for start_state, players, compiled in ((oracle_game(game).new_initial_state(), oracle_policies(seats), False),
                                           (game.new_initial_state(), seats, False),
                                           (game.new_initial_state(), seats, True)):
        try:
            transitions, start, first = walker.build(start_state, players, limit, compiled=compiled)
        except walker.TooManyStates as err:
            result.append(("too many", str(err)))
        else:
            result.append((start, arrays(transitions), first))
    return result


@settings(max_examples=100, deadline=None)
@given(colours=st.tuples(st.integers(2, 3), st.integers(0, 2), st.integers(0, 1), st.integers(0, 1)),
       diamonds=st.integers(0, 2), witches=st.integers(0, 3), fairies=st.integers(0, 1), size=st.integers(2, 3),
       takes=st.integers(1, 3), price=st.integers(1, 2), players=st.integers(1, 3),
       variants=st.sampled_from(VARIANTS), draws=st.lists(st.sampled_from(DRAW_RULES), min_size=1, max_size=3),
       others=st.lists(st.sampled_from(OTHER_RULES), min_size=1, max_size=3))
def test_the_compiled_walk_is_the_engine_walk_array_for_array(colours, diamonds, witches, fairies, size, takes, price,
                                                             players, variants, draws, others):
    """Seats may differ: seat k plays draw rule k and witch/buy rules k (cycled). The first colour can
    complete a castle (most decks where none can are over before the first draw)."""
    game = diamoniak_game(colours, diamonds, witches, fairies, min(size, colours[0]), takes, price, players, variants)
    seats = [diamoniak_policies.parse(f"{draws[k % len(draws)]},{others[k % len(others)]}") for k in range(players)]
    assert compiled_walk.applies(game.new_initial_state(), seats)
    oracle, engine, compiled = both_walks(game, seats)
    event("over the budget" if engine[0] == "too many" else "walked" if engine[1][0] else "over before any draw")
    assert compiled == engine == oracle


SEEDED = [  # (colours, diamonds, witches, fairies, size, takes, price, players, variants, policy)
    ((3, 3, 0, 0), 3, 1, 1, 3, 3, 3, 2, (), "default"),  # the colour swap halves this chain
    ((3, 3, 0, 0), 2, 1, 1, 3, 2, 2, 2, ("diamonds-to-discard",), "stop-after-2,keep-diamonds"),
    ((2, 2, 2, 0), 1, 1, 1, 2, 1, 1, 2, (), "stop-on-castle,save-fairy"),  # three colours: no swap
    ((3, 2, 0, 0), 1, 2, 0, 3, 2, 1, 2, ("free-colour",), "risk-1,never-buy"),
    ((2, 1, 1, 0), 1, 1, 0, 2, 1, 1, 3, (), "default"),
    ((2, 1, 0, 0), 0, 1, 0, 2, 1, 1, 4, ("diamonds-to-discard",), "odds-30"),
    ((2, 0, 0, 0), 1, 0, 1, 3, 1, 1, 2, (), "default"),  # a castle nobody can complete: stalled at once
    ((3, 3, 0, 0), 0, 3, 0, 3, 1, 1, 2, (), "stop-after-1,never-buy"),
    ((3, 0, 0, 0), 2, 1, 1, 3, 2, 1, 1, (), "default"),  # alone
]


@pytest.mark.parametrize("case", SEEDED)
def test_chosen_decks_walk_alike_and_give_the_same_fractions(case):
    *deck, players, variants, policy = case
    game = diamoniak_game(*deck, players=players, variants=variants)
    seats = [diamoniak_policies.parse(policy)] * players
    oracle, engine, compiled = both_walks(game, seats, limit=20_000)
    assert compiled == engine == oracle
    answers = [engine_chain.answer(engine_chain.walk(game.new_initial_state(), seats, 20_000, compiled=flag), players)
               for flag in (False, True)]
    answers.append(engine_chain.answer(engine_chain.walk(oracle_game(game).new_initial_state(), oracle_policies(seats),
                                                         20_000, compiled=False), players))
    assert answers[0] == answers[1] == answers[2]


def test_the_budget_stops_both_walks_at_the_same_state():
    game = diamoniak_game((3, 3, 0, 0), 3, 1, 1, 3, 3, 3)
    seats = [diamoniak_policies.parse("default")] * 2
    states = len(walker.build(game.new_initial_state(), seats, compiled=False)[0])
    for limit in (1, states - 1):
        oracle, engine, compiled = both_walks(game, seats, limit)
        assert oracle == engine == compiled == ("too many", str(walker.TooManyStates(limit)))
    oracle, engine, compiled = both_walks(game, seats, states)
    assert oracle == engine == compiled and engine[1][0] and len(engine[1][0]) == states


def test_the_chain_grows_its_arrays_and_reports_progress_as_the_engine_walk(monkeypatch):
    """Arrays and table that start small and double many times on the way; progress every 1,000 states."""
    monkeypatch.setattr(compiled_walk, "ROOM", 8)
    game = diamoniak_game((3, 3, 0, 0), 2, 1, 1, 3, 2, 2)
    seats = [diamoniak_policies.parse("stop-after-2")] * 2
    calls = {False: [], True: []}
    chains = {flag: walker.build(game.new_initial_state(), seats, 20_000, progress=calls[flag].append,
                                       compiled=flag)[0] for flag in (False, True)}
    assert arrays(chains[True]) == arrays(chains[False])
    assert calls[True] == calls[False] == [1] * (len(chains[True]) // 1000) and len(calls[True]) >= 3


def test_the_compiled_chain_exports_the_same_drn():
    game = diamoniak_game((2, 2, 0, 0), 1, 1, 1, 2, 1, 1)
    seats = [diamoniak_policies.parse("default")] * 2
    texts = []
    for flag in (False, True):
        texts.append(drn.engine_drn(walker.build(game.new_initial_state(), seats, compiled=flag), ["a deck"]))
    assert texts[0] == texts[1]


def test_dispatch_only_where_the_compiled_walk_plays_the_same_game(monkeypatch):
    game = diamoniak_game((3, 3, 0, 0), 3, 1, 1, 3, 3, 3)
    seats = [diamoniak_policies.parse("default")] * 2
    start = game.new_initial_state()
    assert compiled_walk.applies(start, seats)
    assert not compiled_walk.applies(start, seats, done=lambda state: False)
    assert not compiled_walk.applies(start, seats[:1])  # one policy for two seats

    class Peeker(diamoniak_policies.DiamoniakPolicy):  # a player the kernel does not know
        pass

    assert not compiled_walk.applies(start, [Peeker()] * 2)
    with monkeypatch.context() as patch:  # a key that lumps otherwise: the engine walk keys by it
        patch.setattr(DiamoniakState, "key", lambda self, *args: repr(self.__dict__))
        assert not compiled_walk.applies(start, seats)
    with monkeypatch.context() as patch:
        patch.setattr(DiamoniakGame, "colour_swap", property(lambda game: None))
        assert not compiled_walk.applies(start, seats)
    with pytest.raises(ValueError, match="does not play"):
        walker.build(start, [Peeker()] * 2, compiled=True)
    # by default a small chain is walked by the engine, a larger one by the compiled walk: the same chain
    original, calls = compiled_walk.walk, []

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(compiled_walk, "walk", counted)
    assert len(walker.build(start, seats)[0]) < walker.COMPILED_FROM and not calls
    larger = diamoniak_game((3, 3, 0, 0), 3, 2, 1, 3, 3, 3)
    chain = walker.build(larger.new_initial_state(), seats)[0]
    assert calls == [1] and len(chain) > walker.COMPILED_FROM
    assert arrays(chain) == arrays(walker.build(larger.new_initial_state(), seats, compiled=False)[0])


def test_a_key_that_forgets_a_field_is_caught(monkeypatch):
    """The comparison sees a compiled key that leaves out the cards drawn this turn, which a
    stop-after player reads: states the engine keeps apart are lumped."""
    game = diamoniak_game((3, 3, 0, 0), 2, 1, 1, 3, 2, 2)
    seats = [diamoniak_policies.parse("stop-after-2")] * 2
    oracle, engine, compiled = both_walks(game, seats, 20_000)
    assert oracle == engine == compiled
    original = compiled_walk._Layout.__init__

    def forgetful(self, game, kernel, swap, with_drawn):
        original(self, game, kernel, swap, False)

    monkeypatch.setattr(compiled_walk._Layout, "__init__", forgetful)
    _, _, lumped = both_walks(game, seats, 20_000)
    assert lumped != engine and len(lumped[1][0]) < len(engine[1][0])


@pytest.mark.parametrize("limit", [1, 2, 4, 5])
def test_decisions_that_do_not_reach_a_chance_point_end_alike(monkeypatch, limit):
    """With the walk's limit of decisions in a row cut to a few, play that needs more ends as LOOP in both
    walks (and no turns are counted for it): a stop and the next seat's draw are two decisions; a stop,
    purchases and the draw after them more; five are enough on this deck."""
    monkeypatch.setattr(walker, "MAX_DECISIONS", limit)
    game = diamoniak_game((3, 3, 0, 0), 2, 1, 1, 3, 2, 1)
    seats = [diamoniak_policies.parse("stop-after-1,keep-diamonds")] * 2
    oracle, engine, compiled = both_walks(game, seats, 20_000)
    assert oracle == engine == compiled and (walker.LOOP in engine[1][7]) == (limit < 5)
