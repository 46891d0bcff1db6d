"""The simulator: determinism, the fast solo kernel against the engine, the report and the CLI."""

from __future__ import annotations

import json
import math

import pytest

from toolkit.catalogue import load
from toolkit.sim.simulate import simulate

DEFAULT = {}
ENGINE_PATH = {1: "never-buy"}  # same play solo, but not the name the fast kernel takes


def _agree(a, b, sigmas=4.5):
    """Two simulated means agree within their joint statistical error."""
    return abs(a.mean - b.mean) <= sigmas * math.hypot(a.stderr, b.stderr)


@pytest.mark.parametrize("overrides", [(), ("witch=9", "fairy=1"), ("castle-red=9", "castle-blue=7", "diamond=4")])
def test_fast_solo_kernel_matches_the_engine(overrides):
    cat = load("diamoniak", overrides=overrides, require_art=False)
    fast = simulate(cat, players=1, games=20_000, seed=3, policies=DEFAULT)
    slow = simulate(cat, players=1, games=3_000, seed=4, policies=ENGINE_PATH)
    assert fast.policies != slow.policies  # the two paths really differ
    assert _agree(fast, slow), (fast.mean, slow.mean)
    for name in ("witch_strikes", "reshuffles"):
        f, s = fast.per_game[name], slow.per_game[name]
        assert abs(f - s) <= 0.1 * max(1.0, f)
    assert abs(fast.at_least_once["reshuffles"] - slow.at_least_once["reshuffles"]) < 0.05


def test_same_seed_same_result_and_another_seed_differs():
    cat = load("diamoniak", require_art=False)
    for players, games in ((1, 5000), (2, 300)):
        a = simulate(cat, players=players, games=games, seed=11)
        b = simulate(cat, players=players, games=games, seed=11)
        c = simulate(cat, players=players, games=games, seed=12)
        assert a == b and a.as_json() != c.as_json()


def test_summary_statistics_are_consistent():
    cat = load("diamoniak", require_art=False)
    s = simulate(cat, players=2, games=800, seed=5)
    assert s.games == 800 and s.unfinished == 0
    assert abs(sum(s.win_rate) - 1) < 1e-12
    assert all(low <= rate <= high for rate, (low, high) in zip(s.win_rate, s.win_ci))
    assert s.ci95[0] < s.mean < s.ci95[1]
    assert s.percentiles["50"] <= s.percentiles["90"] <= s.percentiles["99"]
    assert s.per_game["purchases"] > 0 and s.per_game["witch_strikes"] > 0


def test_a_composition_that_cannot_finish_is_reported_not_looped():
    cat = load("diamoniak", overrides=["castle-red=5", "castle-blue=5", "castle-green=5", "castle-yellow=5"], require_art=False)
    for players in (1, 2):
        s = simulate(cat, players=players, games=50, seed=1)
        assert s.unfinished == 50 and s.mean is None


def test_simulate_json_through_the_cli(run):
    result = run("simulate", "--players", "1", "--games", "2000", "--seed", "9", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("games", "mean_turns", "stderr_turns", "percentiles", "win_rate"):
        assert key in data
    assert set(data["percentiles"]) >= {"50", "90", "99"}
    assert data["games"] == 2000 and data["win_rate"] == [1.0]
    assert 8.0 < data["mean_turns"] < 9.2


def test_simulate_text_report(run):
    result = run("simulate", "--games", "200", "--players", "2", "--policy", "2=stop-after-2", "--variant", "free-colour")
    assert result.exit_code == 0
    out = result.stdout
    assert "seat 2 policy: stop-after-2,fairy-first,buy-most" in out
    assert "variants: free-colour" in out and "game length (rounds)" in out and "witch strikes" in out


@pytest.mark.parametrize("args, message", [
    (["--policy", "3=default"], "seat 3 does not exist"),
    (["--policy", "x"], "expected SEAT=NAME"),
    (["--policy", "1=wild"], "unknown Diamoniak policy 'wild'"),
    (["--policy", "1=stop-after-2,stop-after-3"], "two rules for the draw decision"),
    (["--variant", "gold"], "unknown Diamoniak variant"),
    (["--players", "5"], "Invalid value for '--players'"),
    (["--games", "0"], "Invalid value for '--games'"),
])
def test_simulate_errors(run, args, message):
    result = run("simulate", *args)
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1
