"""`toolkit simulate` under large and bad input: memory flat in the number of games, figures that do
not depend on the batching, games that never end said to, one line for every bad option, and a
quiet stderr when no terminal shows a progress bar."""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pytest

from conftest import builtin_doc, write_catalogue
from toolkit.cli import options
from toolkit.catalogue import load
from toolkit.sim import simulate as simulate_module
from toolkit.sim.simulate import simulate
from toolkit.sim.stats import Tally



def one_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
    return lines[0]


def test_batches_give_the_same_summary_as_one_pass():
    rng = np.random.default_rng(5)
    rounds = np.where(rng.random(997) < 0.1, 0, rng.integers(1, 40, 997))
    winners = np.where(rounds > 0, rng.integers(0, 3, 997), -1)
    counters = {"a": rng.integers(0, 3, 997), "b": rng.integers(0, 9, 997)}
    stalled = rounds == 0
    one_pass = Tally(3)
    one_pass.add(rounds, winners, counters, stalled)
    whole = one_pass.summary(game="g", policies=["p"] * 3, variants=[], seed=1, unit="rounds")
    tally = Tally(3)
    for start in range(0, 997, 101):
        part = slice(start, start + 101)
        tally.add(rounds[part], winners[part], {k: v[part] for k, v in counters.items()}, stalled[part])
    assert tally.summary(game="g", policies=["p"] * 3, variants=[], seed=1, unit="rounds") == whole
    done = rounds[rounds > 0]
    assert whole.mean == pytest.approx(done.mean(), rel=1e-15) and whole.median == np.median(done)
    assert whole.stderr == pytest.approx(done.std(ddof=1) / np.sqrt(done.size), rel=1e-12)
    assert whole.percentiles == {str(q): int(np.percentile(done, q, method="inverted_cdf"))
                                 for q in (10, 25, 50, 75, 90, 99)}
    assert whole.stalled == whole.unfinished == int(stalled.sum())


def test_the_engine_simulator_gives_the_same_figures_whatever_the_batch(monkeypatch):
    cat = load("diamoniak", require_art=False)
    big = simulate(cat, players=2, games=450, seed=3)
    monkeypatch.setattr(simulate_module, "CHUNK", 7)
    assert simulate(cat, players=2, games=450, seed=3) == big


def test_memory_stays_flat_however_many_games():
    cat = load("diamoniak", require_art=False)

    def peak(games: int) -> int:
        tracemalloc.start()
        simulate(cat, players=1, games=games, seed=1)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    small, large = peak(10_000), peak(120_000)
    assert large < 1.5 * small, (small, large)  # one array per game grew 12-fold


def test_games_that_never_end_are_told_apart_from_long_ones(run, tmp_path):
    doc = builtin_doc("diamoniak")
    doc["rules"]["castle_size"] = 3
    counts = {"castle-red": 3, "castle-blue": 2, "castle-green": 2, "castle-yellow": 0, "diamond": 2, "witch": 1,
              "fairy": 0}
    for card in doc["cards"]:
        card["count"] = counts[card["id"]]
    path = write_catalogue(tmp_path, doc)
    result = run("simulate", "--catalogue", str(path), "--players", "2", "--games", "600", "--json")
    data = json.loads(result.stdout)
    assert 0 < data["stalled"] == data["unfinished"] < 600 and data["turn_limit"] == 10_000
    text = run("simulate", "--catalogue", str(path), "--players", "2", "--games", "600").stdout
    assert f"{data['stalled']} of 600 games reached a point where nobody can win any more" in text
    assert "expected length is infinite" in text and "games that ended (not an expected length)" in text
    cat = load("diamoniak", overrides=["witch=60"], require_art=False)
    long = simulate(cat, players=2, games=5, seed=1, max_turns=20)
    assert long.stalled == 0 and long.over_limit == 5 and long.mean is None


@pytest.mark.parametrize("args, message", [
    (["--players", "1", "--seed", "-5"], "Invalid value for '--seed'"),
    (["--players", "2", "--seed", "-5"], "Invalid value for '--seed'"),
    (["--seed", str(2**63)], "Invalid value for '--seed'"),
    (["--games", "100000001"], "Invalid value for '--games'"),
    (["--policy", "²=until-witch"], "--policy ²=until-witch: expected [SEAT=]NAME"),
    (["--policy", "1=stop-after-²"], "unknown Diamoniak policy 'stop-after-²'"),
    (["--policy", "1=stop-after-٣"], "unknown Diamoniak policy 'stop-after-٣'"),
    (["--policy", "1=until-witch", "--policy", "1=never-buy"], "seat 1 has a policy already"),
    (["--policy", "1=odds-101"], "--policy 1=odds-101: 'odds-101' needs a number from 1 to 100"),
    (["--policy", "1=stop-after-" + "9" * 5000], "needs a number from 1 to 1000"),
    (["--policy", "1=until-witch,,never-buy"], "--policy 1=until-witch,,never-buy: a rule name is empty"),
    (["--policy", "1=builder"], "'builder' is a Palaces rule, not a Diamoniak one"),
    (["--game", "palaces", "--policy", "1=until-witch"], "'until-witch' is a Diamoniak rule, not a Palaces one"),
    (["--game", "palaces", "--policy", "1=random-" + "9" * 30], "needs a seed from 0 to 2**63-1"),
    (["--policy", "9999=until-witch"], "seat 9999 does not exist"),
    (["--game", "palaces", "--players", "4", "--variant", "short-two-player"],
     "--variant short-two-player: the variant is for 2 players, not 4"),
    (["--variant", "free-colour", "--variant", "free-colour"], "--variant free-colour: given twice"),
])
def test_simulate_option_errors_are_one_line(run, args, message):
    games = [] if "--games" in args else ["--games", "5"]
    line = one_line(run("simulate", *games, *args))
    assert message in line, line


def test_the_widest_seed_and_the_short_variant_for_two_players_run(run):
    assert run("simulate", "--players", "1", "--games", "20", "--seed", str(2**63 - 1)).exit_code == 0
    result = run("simulate", "--game", "palaces", "--variant", "short-two-player", "--games", "3")
    assert result.exit_code == 0 and "variants: short-two-player" in result.stdout


def test_no_progress_label_or_blank_line_off_a_terminal(run, monkeypatch):
    monkeypatch.setattr(options.Progress, "DELAY", 0.0)  # a bar would be due at once
    for args in (["simulate", "--players", "1", "--games", "30000"], ["simulate", "--players", "2", "--games", "300"]):
        result = run(*args)
        assert result.exit_code == 0 and result.stderr == "", args
    result = run("odds", "--model", "multi", "--max-states", "20", "--games", "30")
    assert result.exit_code == 0 and result.stdout.startswith("Castles and Witches, 2 players")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: note: ") and result.stderr.endswith(")\n")
