"""`toolkit odds`: every exact figure against the simulator (and closed forms), and the engine."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

import solo_reference
from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import load
from toolkit.games.diamoniak.engine import DiamoniakGame
from toolkit.odds import engine_chain
from toolkit.walk import walker
from toolkit.games.diamoniak import solo as diamoniak_solo
from toolkit.odds.report import answer
from toolkit.sim.records import play_records
from toolkit.seats import builtin_players
from toolkit.games.diamoniak.policies import parse
from toolkit.sim.runner import play
from toolkit.sim.simulate import simulate

SIGMAS = 4.5  # agreement within this many standard errors



def tiny_diamoniak(tmp_path, size=3, **counts):
    """A small Diamoniak deck (a user catalogue) whose chains are small enough to solve every way."""
    doc = builtin_doc("diamoniak")
    doc["rules"]["castle_size"] = size
    for card in doc["cards"]:
        card["count"] = counts.get(card["id"].replace("-", "_"), card["count"])
    return load(path=write_catalogue(tmp_path, doc))


def solo_exact(catalogue):
    return answer(catalogue, "solo").data


@pytest.fixture(scope="module")
def default_solo():
    return solo_exact(load("diamoniak", require_art=False))


def test_default_solo_figures_match_the_simulator(default_solo):
    cat = load("diamoniak", require_art=False)
    game = DiamoniakGame.from_catalogue(cat)
    runs = play_records(game, builtin_players("diamoniak", 1), 42, 0, 100_000)
    assert (runs["winner"] == 0).all()
    turns = runs["turns"]
    expected = Fraction(default_solo["expected_turns"])
    assert default_solo["expected_turns_float"] == float(expected)
    assert abs(turns.mean() - float(expected)) < SIGMAS * turns.std() / math.sqrt(turns.size)
    p = float(Fraction(default_solo["p_reshuffle"]))
    share = (runs["reshuffles"] > 0).mean()
    assert abs(share - p) < SIGMAS * math.sqrt(p * (1 - p) / turns.size)
    counts = np.bincount(turns, minlength=40)
    for t, value in default_solo["turns_distribution"]:
        q = float(Fraction(value))
        assert abs(counts[t] / turns.size - q) < SIGMAS * math.sqrt(q * (1 - q) / turns.size) + 1e-9, t
    assert sum(Fraction(v) for _, v in default_solo["turns_distribution"]) == 1


def test_the_json_holds_the_exact_fraction_in_lowest_terms(default_solo):
    p, q = map(int, default_solo["expected_turns"].split("/"))
    assert math.gcd(p, q) == 1 and 8.5 < p / q < 8.7
    assert all(len(pair) == 2 and "/" in pair[1] for pair in default_solo["turns_distribution"])


@pytest.mark.parametrize("overrides", [("witch=8",), ("fairy=0",), ("castle-red=8", "diamond=12")])
def test_set_changes_flow_into_the_solver_and_match_the_simulator(overrides):
    cat = load("diamoniak", overrides=overrides, require_art=False)
    exact = Fraction(solo_exact(cat)["expected_turns"])
    sim = simulate(cat, players=1, games=30_000, seed=8)
    assert abs(sim.mean - float(exact)) < SIGMAS * sim.stderr
    assert exact != Fraction(solo_exact(load("diamoniak", require_art=False))["expected_turns"])


def test_forward_pass_backward_walk_and_general_solver_agree_exactly(tmp_path):
    cat = tiny_diamoniak(tmp_path, size=3, castle_red=3, castle_blue=4, castle_green=0, castle_yellow=0,
                         diamond=2, witch=2, fairy=1)
    deck = diamoniak_solo.SoloDeck.from_catalogue(cat)
    backward = solo_reference.solve(deck)
    general = solo_reference.solve_general(deck)
    assert backward.expected_turns == general.expected_turns
    assert backward.p_reshuffle == general.p_reshuffle
    forward = answer(cat, "solo").data
    assert Fraction(forward["expected_turns"]) == backward.expected_turns
    assert Fraction(forward["p_reshuffle"]) == backward.p_reshuffle


@pytest.mark.parametrize("counts", [
    dict(castle_red=3, castle_blue=3, castle_green=0, castle_yellow=0, diamond=3, witch=2, fairy=1),
    dict(castle_red=4, castle_blue=3, castle_green=0, castle_yellow=0, diamond=2, witch=1, fairy=0),
])
def test_the_solo_chain_is_the_engines_chain(tmp_path, counts):
    """The counts-only model equals the chain walked through the real engine and policy, exactly."""
    cat = tiny_diamoniak(tmp_path, size=3, **counts)
    lumped = Fraction(solo_exact(cat)["expected_turns"])
    game = DiamoniakGame.from_catalogue(cat, players=1)
    walked = engine_chain.answer(engine_chain.walk(game.new_initial_state(), [parse("default")]), 1)
    assert walked.expected_length == lumped and walked.win == (1,)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(solo_reference.decks(most=9))
def test_the_solo_chain_is_the_engines_chain_on_small_decks(deck):
    """The same on small random decks (colours too small among them): the solo solver's figures are
    those of the chain walked through the engine and the default player."""
    assume(any(n >= deck.size for _, n in deck.castles))  # else the engine stalls at once
    odds = diamoniak_solo.solo_odds(deck)
    walked = engine_chain.answer(engine_chain.walk(solo_reference.engine_game(deck).new_initial_state(),
                                                   [parse("default")]), 1)
    assert walked.expected_length == odds.expected_turns and walked.win == (1 - odds.never,)


def test_a_colour_too_small_makes_the_expectation_infinite(run):
    result = run("odds", "--set", "castle-red=5", "--json")
    data = json.loads(result.stdout)
    assert data["expected_turns"] is None and Fraction(data["p_never"]) == Fraction(5, 23)
    text = run("odds", "--set", "castle-red=5").stdout
    assert "expected turns: infinite" in text and "red (5)" in text


def test_first_draw_odds_are_hypergeometric_and_match_sampling():
    cat = load("diamoniak", require_art=False)
    data = answer(cat, "draws").data
    assert Fraction(data["next_kind"]["witch"]) == Fraction(7, 54)
    for k, value in data["survival"]:
        assert Fraction(value) == Fraction(comb(47, k), comb(54, k))
    rng = random.Random(3)
    deck = ["witch"] * 7 + ["other"] * 47
    hits = sum("witch" not in rng.sample(deck, 5) for _ in range(40_000)) / 40_000
    p = float(Fraction(dict(data["survival"])[5]))
    assert abs(hits - p) < SIGMAS * math.sqrt(p * (1 - p) / 40_000)


def test_a_given_pile(run):
    data = json.loads(run("odds", "--model", "draws", "--pile", "witch=3,diamond=5", "--json").stdout)
    assert data["next_kind"]["witch"] == "3/8"
    assert dict(data["survival"])[2] == "5/14" and dict(data["survival"])[6] == "0/1"


def test_palaces_opening_hand_matches_closed_form_and_the_engines_deal():
    cat = load("palaces", require_art=False)
    data = answer(cat, "opening").data
    assert Fraction(data["p_foundation"]) == 1 - Fraction(comb(58, 5), comb(70, 5))
    assert Fraction(data["p_tower"]) == 1 - Fraction(comb(62, 5), comb(70, 5))
    from toolkit.games.palaces.engine import PalacesGame
    game = PalacesGame.from_catalogue(cat, players=1)
    rng = random.Random(5)
    n = 6000
    seen = {"p_foundation": 0, "p_palace_kinds": 0, "p_palace_kinds_with_tower": 0, "p_tower": 0}
    for _ in range(n):
        state = game.new_initial_state()
        while state.is_chance_node():  # the engine deals the opening hand
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
        hand = {(game.kinds[i], game.colours[i]) for i, k in enumerate(state.hands[0]) if k}
        kinds = {kind for kind, _ in hand}
        colours = [c for kind, c in hand if kind == "foundation"]
        seen["p_foundation"] += "foundation" in kinds
        seen["p_tower"] += "tower" in kinds
        seen["p_palace_kinds"] += any(("floor", c) in hand and ("roof", c) in hand for c in colours)
        seen["p_palace_kinds_with_tower"] += any(
            ("roof", c) in hand and (("floor", c) in hand or "tower" in kinds) for c in colours)
    for key, count in seen.items():
        p = float(Fraction(data[key]))
        assert abs(count / n - p) < SIGMAS * math.sqrt(p * (1 - p) / n), key


def test_first_palace_exact_on_a_small_deck_matches_simulation():
    overrides = [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof") for colour in ("blue", "green", "yellow")]
    overrides += ["tower=2", "ruins=1", "exchange=1", "general-exchange=0", "flood=1", "floor-red=3"]
    cat = load("palaces", overrides=overrides, require_art=False)
    exact = answer(cat, "first-palace").data
    assert exact["exact"] and exact["states"] > 100
    simulated = answer(cat, "first-palace", max_states=10, games=6000).data
    assert not simulated["exact"]
    assert abs(simulated["mean_turns"] - exact["expected_turns_float"]) < SIGMAS * simulated["stderr_turns"]


def test_multi_player_exact_on_a_small_deck_matches_simulation(tmp_path):
    cat = tiny_diamoniak(tmp_path, size=3, castle_red=3, castle_blue=3, castle_green=0, castle_yellow=0,
                         diamond=3, witch=1, fairy=1)
    exact = answer(cat, "multi", players=2).data
    assert exact["exact"] and exact["states"] > 1000
    wins = [Fraction(p) for p in exact["win_probability"]]
    assert sum(wins) + Fraction(exact["p_stalled"]) == 1
    sim = simulate(cat, players=2, games=8000, seed=2)
    for rate, p in zip(sim.win_rate, wins):
        assert abs(rate - float(p)) < SIGMAS * math.sqrt(float(p) * (1 - float(p)) / 8000)
    game = DiamoniakGame.from_catalogue(cat, players=2)
    rng = random.Random(4)
    turns = np.array([play(game.new_initial_state(), [parse("default")] * 2, rng).turns for _ in range(4000)])
    stderr = turns.std(ddof=1) / math.sqrt(turns.size)
    assert abs(turns.mean() - exact["expected_turns_float"]) < SIGMAS * stderr
    out_of_reach = answer(cat, "multi", players=2, max_states=50, games=500).data
    assert out_of_reach["exact"] is False and out_of_reach["simulated"]["games"] == 500


def test_odds_cli_text_and_plot(run, tmp_path):
    chart = tmp_path / "turns.png"
    result = run("odds", "--plot", str(chart))
    assert result.exit_code == 0 and chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "expected turns to finish the castle: " in result.stdout and " = 8.606836" in result.stdout
    assert "turn   P(finish on this turn)" in result.stdout and f"chart: {chart}" in result.stdout
    pdf = tmp_path / "draws.pdf"
    assert run("odds", "--model", "draws", "--plot", str(pdf)).exit_code == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_charts_are_the_same_bytes_every_time():
    from toolkit.odds.plot import bar_chart

    chart = dict(xs=[1, 2, 3], ys=[0.2, 0.5, 0.3], title="t", xlabel="x", ylabel="y")
    for fmt in ("png", "pdf"):
        assert bar_chart(fmt=fmt, **chart) == bar_chart(fmt=fmt, **chart)


@pytest.mark.parametrize("args, message", [
    (["--model", "opening"], "--model opening: diamoniak answers solo, draws, hand, multi"),
    (["--model", "draws", "--pile", "goblin=2"], "--pile goblin=2: 'goblin=2' is not ID=N"),
    (["--model", "draws", "--pile", "witch=0"], "--pile witch=0: the pile is empty"),
    (["--plot", "chart.svg"], "--plot chart.svg: the chart is written as PNG or PDF"),
    (["--game", "palaces", "--plot", "x.png"], "--plot: the opening model has no distribution to draw"),
])
def test_odds_errors(run, tmp_path, args, message):
    result = run("odds", *args)
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


def test_eleven_witches_are_exact_in_seconds_and_match_the_simulator(run):
    """witch=11 went to simulation (6 million states, 76 s lifted); the vectorised passes solve it."""
    data = json.loads(run("odds", "--set", "witch=11", "--json").stdout)
    assert data["exact"] is True and data["pile_starts"] == 624
    expected = Fraction(data["expected_turns"])
    assert data["expected_turns_float"] == float(expected) and expected.denominator.bit_length() == 11_533
    distribution = [Fraction(p) for _, p in data["turns_distribution"]]
    assert sum(distribution) + Fraction(data["distribution_tail"]) == 1
    sim = simulate(load("diamoniak", overrides=["witch=11"], require_art=False), players=1, games=20_000, seed=11)
    assert abs(sim.mean - float(expected)) < SIGMAS * sim.stderr


def test_pile_chain_with_cycles_equals_the_backward_walk(tmp_path):
    """A deck where lost cards come back after a reshuffle: the pile-start chain has cycles."""
    cat = tiny_diamoniak(tmp_path, size=3, castle_red=3, castle_blue=0, castle_green=0, castle_yellow=0,
                         diamond=1, witch=2, fairy=0)
    deck = diamoniak_solo.SoloDeck.from_catalogue(cat)
    odds = diamoniak_solo.solo_odds(deck)
    assert odds.piles > 0 and odds.tail > 0  # an unbounded number of turns
    backward = solo_reference.solve(deck)
    assert backward.method == "general solver"
    assert odds.expected_turns == backward.expected_turns and odds.p_reshuffle == backward.p_reshuffle
    assert abs(sum(t * p for t, p in enumerate(odds.p)) - odds.expected_turns) < Fraction(1, 10**6)


def test_a_deck_out_of_the_exact_solvers_reach_is_simulated_and_the_rulebook_says_so(monkeypatch, tmp_path):
    import functools

    cat = load("diamoniak", require_art=False)
    deck = diamoniak_solo.SoloDeck.from_catalogue(cat)
    with pytest.raises(walker.TooManyStates):
        diamoniak_solo.solo_odds(deck, max_states=1000)
    monkeypatch.setattr(diamoniak_solo, "solo_odds", functools.partial(diamoniak_solo.solo_odds, max_states=1000))
    report = answer(cat, "solo", games=4000, seed=2)
    data = report.data
    assert data["exact"] is False and data["expected_turns"] is None and data["states_explored_over"] == 1000
    assert abs(data["expected_turns_float"] - 8.606836) < SIGMAS * data["stderr_turns"]
    assert "exact solving is out of reach" in "\n".join(report.lines)
    from toolkit.errors import UserError
    from toolkit.placeholders.figures import Odds
    with pytest.raises(UserError, match="out of reach"):
        Odds(load("diamoniak", overrides=["witch=6"], require_art=False)).figure("expected_turns")


def test_writing_to_a_device_keeps_the_device(tmp_path):
    import os
    import stat

    from toolkit.files import write_atomic

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    write_atomic(fifo, b"abc")
    assert os.read(reader, 10) == b"abc" and stat.S_ISFIFO(os.stat(fifo).st_mode)
    os.close(reader)


def test_exact_answers_of_thousands_of_digits_are_written_and_read_back():
    """witch=12's expected turns have about 5,400 digits: past Python's own int/str limit (4,300)."""
    from toolkit.odds.report import both, frac, parse_frac

    value = Fraction(7**7000 + 1, 3**9000)
    text = frac(value)
    assert len(text) > 9000 and parse_frac(text) == value
    assert parse_frac(frac(Fraction(5))) == 5 and both(Fraction(10**5000)).startswith("1000")
