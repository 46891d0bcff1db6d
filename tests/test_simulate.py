"""The simulator: determinism, the kernels against the engine, the report and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.catalogue import load
from toolkit.seats import Policies
from toolkit.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game, players, overrides, policies", [
    ("diamoniak", 1, (), {}),
    ("diamoniak", 2, ("witch=9", "fairy=1"), {2: "stop-after-3,never-buy"}),
    ("palaces", 3, (), {1: "aggressive"}),
])
def test_the_kernel_and_the_engine_give_the_same_summary(game, players, overrides, policies, monkeypatch):
    """``simulate`` plays big runs by a compiled kernel and small ones by the engine: the same games."""
    from toolkit.sim import simulate as module

    policies = Policies.of(policies)
    cat = load(game, overrides=overrides, require_art=False)
    games = module.FAST_FROM  # the fewest games the kernel plays
    fast = simulate(cat, players=players, games=games, seed=3, policies=policies)
    monkeypatch.setattr(module, "FAST_FROM", games + 1)  # now the engine plays them
    slow = simulate(cat, players=players, games=games, seed=3, policies=policies)
    assert fast == slow and fast.games == games


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
    for key in ("games", "mean_turns", "stderr_turns", "percentiles", "win_rate"):  # one player: turns
        assert key in data
    assert data["length_unit"] == "turns" and "mean_rounds" not in data
    assert set(data["percentiles"]) >= {"50", "90", "99"}
    assert data["games"] == 2000 and data["win_rate"] == [1.0]
    assert 8.0 < data["mean_turns"] < 9.2


def test_every_length_key_names_the_unit_the_text_says(run):
    """Two players: lengths are in rounds, in the JSON's keys and in the text alike."""
    data = json.loads(run("simulate", "--players", "2", "--games", "300", "--seed", "3", "--json").stdout)
    assert data["length_unit"] == "rounds"
    assert {"mean_rounds", "stderr_rounds", "ci95_rounds", "median_rounds"} <= set(data)
    assert not [key for key in data if key.endswith("_turns")]
    text = run("simulate", "--players", "2", "--games", "300", "--seed", "3").stdout
    assert f"game length (rounds): mean {data['mean_rounds']:.3f}" in text


def test_simulate_text_report(run):
    result = run("simulate", "--games", "200", "--players", "2", "--policy", "2=stop-after-2", "--variant", "free-colour")
    assert result.exit_code == 0
    out = result.stdout
    assert "seat 2 policy: stop-after-2,fairy-first,buy-most" in out
    assert "variants: free-colour" in out and "game length (rounds)" in out and "witch strikes" in out


def test_one_report_says_what_each_game_adds():
    """One report for every game: a deck game's JSON has its variants and turn limit, a rules file's (every game
    ends) its spec, draws and parameters instead, and the text is read from the same figures."""
    from toolkit.rules.load import load_rules
    from toolkit.seats import rules_players
    from toolkit.sim.report import report
    from toolkit.sim.simulate import simulate_rules

    deck, deck_text = report(simulate(load("diamoniak", require_art=False), players=2, games=50, seed=2))
    assert {"variants", "unfinished", "stalled", "turn_limit"} <= set(deck) and "draws" not in deck
    pig = load_rules(str(ROOT / "examples" / "pig" / "pig.py"), {"goal": 20})
    rules, rules_text = report(simulate_rules(pig, rules_players(pig), 50, 2))
    assert not {"variants", "unfinished", "stalled", "turn_limit"} & set(rules)
    assert list(rules)[-4:] == ["rules", "draws", "params", "decisions"] and rules["params"] == {"goal": 20}
    assert deck_text.startswith("Castles and Witches: 2 players, 50 games (seed 2)\n  seat 1 policy: ")
    assert rules_text.startswith("Pig(goal=20): 2 players, 50 games (seed 2)\n  seat 1 policy: hold-at-20\n")


@pytest.mark.parametrize("args, message", [
    (["--policy", "3=default"], "seat 3 does not exist"),
    (["--policy", "x"], "--policy x: unknown Diamoniak policy 'x'"),
    (["--policy", "a=x"], "expected [SEAT=]NAME"),
    (["--policy", "1=wild"], "unknown Diamoniak policy 'wild'"),
    (["--policy", "1=stop-after-2,stop-after-3"], "two rules for the draw decision"),
    (["--variant", "gold"], "unknown Diamoniak variant"),
    (["--players", "5"], "Invalid value for '--players'"),
    (["--games", "0"], "Invalid value for '--games'"),
])
def test_simulate_errors(run, args, message):
    result = run("simulate", *args)
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1
