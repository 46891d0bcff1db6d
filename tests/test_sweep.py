"""`toolkit sweep`: the grid, its seeds, Dask's results against the local run, resuming, the outputs.

Sweeps here play a few hundred games per configuration (the engine plays them: no kernel to load),
so every test takes seconds.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from toolkit.analysis import sweep, sweep_cluster, sweep_target
from toolkit.analysis.metrics import Accumulator
from toolkit.analysis.sweep_store import SweepStore, part_name
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games.registry import get, make_game
from toolkit.seats import Policies, builtin_players
from toolkit.setup import Setup
from toolkit.sim.records import play_records

ROOT = Path(__file__).resolve().parent.parent
GRID = ("--set", "witch=5..6", "--set", "fairy=1,3", "--players", "2..3", "--games", "120")



def sweep_run(run, tmp_path, *args, name="s"):
    result = run("sweep", *args, "--out", str(tmp_path / name))
    return result, tmp_path / f"{name}.csv", tmp_path / f"{name}.json"


def one_error_line(result, *fragments):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# --- the grid ------------------------------------------------------------------------------------------

def test_values_ranges_lists_and_mixes():
    assert sweep.parse_values("5..9", "--set", 0, 500) == (5, 6, 7, 8, 9)
    assert sweep.parse_values("2,4", "--players", 1, 4) == (2, 4)
    assert sweep.parse_values(" 1..2 , 8 ", "--set", 0, 500) == (1, 2, 8)


@pytest.mark.parametrize("text, fragment", [
    ("9..5", "runs backwards (write 5..9)"), ("5..7,6", "the value 6 is given twice"), ("", "an item is empty"),
    ("5,,6", "an item is empty"), ("٣", "digits 0-9"), ("5...9", "range like 5..9"), ("0..501", "outside 0 to 500"),
])
def test_bad_values_are_one_error(text, fragment):
    with pytest.raises(UserError, match=fragment.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        sweep.parse_values(text, "--set witch=" + text, 0, 500)


def test_grid_is_the_product_of_its_axes_in_order():
    base = load("diamoniak", require_art=False)
    grid = sweep.build_grid(Setup(catalogue=base), ("witch=5..6", "fairy=0,3"), (), "2..3", ("none", "free-colour"),
                            ("2=default|stop-after-3",))
    assert [axis.name for axis in grid.axes] == ["witch", "fairy", "players", "variants", "policy_2"]
    configurations = grid.configurations()
    assert len(configurations) == 2 * 2 * 2 * 2 * 2
    assert configurations[0] == {"witch": 5, "fairy": 0, "players": 2, "variants": "none",
                                 "policy_2": "until-witch,fairy-first,buy-most"}
    assert configurations[1]["policy_2"].startswith("stop-after-3")  # the last axis varies fastest


@pytest.mark.parametrize("args, fragments", [
    (("--set", "witch=9..5"), ("--set witch=9..5", "runs backwards")),
    (("--set", "dragon=1..2"), ("no card with id 'dragon'",)),
    (("--set", "witch=5", "--set", "witch=6"), ("given twice",)),
    (("--set", "witch=0..200", "--set", "fairy=0..100"), ("60,903 configurations (201 x 101 x 3)", "at most 10,000")),
    (("--players", "0..2"), ("--players 0..2", "outside 1 to 4")),
    (("--players", "2..4", "--policy", "4=default"), ("seat 4 does not exist with 2 player(s)",)),
    (("--policy", "1=no-such-rule"), ("--policy 1=no-such-rule",)),
    (("--policy", "1=default|default"), ("the same policy",)),
    (("--variants", "nope"), ("unknown variant 'nope'",)),
    (("--metric", "balance,nope"), ("unknown figure 'nope'",)),
    (("--target", "balance>>0.9"), ("not a goal",)),
    (("--target", "balance>=0.9,balance<=1"), ("balance has two goals",)),
    (("--heatmap", "map.txt"), ("PNG or PDF",)),
    (("--heatmap-axes", "witch,players"), ("--heatmap-axes: not read without --heatmap",)),
    (("--scheduler", "nowhere"), ("tcp://HOST:8786",)),
    (("--in-process", "--workers", "2"), ("--workers", "not read"),),
    (("--set", "witch=500", "--set", "castle-red=500", "--players", "2"), ("the deck would have",)),
])
def test_bad_options_are_one_line_exit_2(run, tmp_path, args, fragments):
    result, csv_path, _ = sweep_run(run, tmp_path, *args)
    one_error_line(result, *fragments)
    assert not csv_path.exists()


def test_variant_for_other_player_counts_names_the_configuration(run, tmp_path):
    result, _, _ = sweep_run(run, tmp_path, "--game", "palaces", "--players", "2..3", "--variants", "short-two-player",
                             "--in-process")
    one_error_line(result, "configuration players=3, variants=short-two-player", "for 2 players")


# --- the seeds and the job -----------------------------------------------------------------------------

def test_a_configuration_row_does_not_depend_on_its_grid(run, tmp_path):
    wide, wide_csv, _ = sweep_run(run, tmp_path, "--set", "witch=5..7", "--players", "2", "--games", "150",
                                  "--in-process", name="wide")
    alone, alone_csv, _ = sweep_run(run, tmp_path, "--set", "witch=6", "--players", "2", "--games", "150",
                                    "--in-process", name="alone")
    assert wide.exit_code == alone.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(wide_csv.read_text())))
    assert [row["witch"] for row in rows] == ["5", "6", "7"]
    assert list(csv.DictReader(io.StringIO(alone_csv.read_text())))[0] == rows[1]
    assert len({row["seed"] for row in rows}) == 3


def first_job(sets=(), players="2", policies=(), games=10, seed=5) -> sweep.Job:
    """The first job of a Diamoniak sweep of these axes."""
    deck = Setup(catalogue=load("diamoniak", require_art=False))
    return sweep.jobs(sweep.build_grid(deck, sets, (), players, (), policies), deck, games, seed)[0]


def test_seed_depends_on_the_game_not_on_how_it_was_written():
    written, plain = first_job(("witch=7",)), first_job(policies=("1=default",))
    assert written.seed == plain.seed  # 7 witches is the deck's own count, default the default policy
    assert first_job(seed=6).seed != plain.seed


def test_a_job_is_the_accumulated_records_of_its_games():
    job = first_job(("fairy=2",), "3", ("2=stop-after-2",), 90, 3)
    row = sweep.run_job(job)
    game = make_game(job.catalogue, 3, ())
    totals = Accumulator(3, comeback=get("diamoniak").comeback_points)
    totals.add(play_records(game, builtin_players("diamoniak", 3, Policies.of({2: "stop-after-2"})), job.seed, 0, 90, 10_000,
                            fast=False))
    expected = json.loads(json.dumps(totals.metrics()))
    assert {name: row[name] for name in expected} == expected
    assert row["games"] == 90 and row["exact"] == ""


def test_the_comeback_figure_is_described_in_the_game_own_points(run, tmp_path, monkeypatch):
    """A sweep's comeback share counts from its game's threshold, and its JSON says which; a game that
    sets none (as a --rules game) has no comeback figure to ask for."""
    args = ("--game", "palaces", "--players", "2", "--games", "60", "--in-process", "--metric", "comeback_rate")
    result, csv_path, json_path = sweep_run(run, tmp_path, *args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(json_path.read_text())
    assert data["figures"]["comeback_rate"] == ("share of the won games whose winner once trailed the leader by 6 "
                                               "or more points")
    row = data["rows"][0]
    records = play_records(make_game(load("palaces", require_art=False), 2), builtin_players("palaces", 2),
                           row["seed"], 0, 60, sweep.TURN_LIMIT, fast=False)
    won = records["winner"] >= 0
    assert row["comeback_rate"] == pytest.approx(np.mean(records["winner_deficit"][won] >= 6))
    monkeypatch.setattr(get("palaces"), "comeback_points", None)
    one_error_line(sweep_run(run, tmp_path, *args, name="none")[0],
                   "--metric comeback_rate: comeback_rate: the game 'palaces' sets no comeback threshold")


def test_solo_rows_carry_the_exact_expected_length(run, tmp_path):
    from toolkit.games.diamoniak.solo import SoloDeck, solo_odds

    result, _, json_path = sweep_run(run, tmp_path, "--set", "witch=6..7", "--players", "1", "--games", "60",
                                     "--in-process", "--metric", "mean_rounds,completion")
    assert result.exit_code == 0, result.output
    rows = json.loads(json_path.read_text())["rows"]
    for row in rows:
        exact = solo_odds(SoloDeck.from_catalogue(load("diamoniak", overrides=[f"witch={row['witch']}"],
                                                       require_art=False))).expected_turns
        assert Fraction(row["mean_turns_exact"]) == exact
        assert row["mean_rounds"] == row["mean_rounds_low"] == row["mean_rounds_high"] == float(exact)
        assert row["exact"] == "mean_turns mean_rounds completion win_rate_1 stall_rate over_limit_rate balance"
        assert row["completion"] == row["completion_low"] == row["completion_high"] == 1.0
    assert "mean_rounds 7.264 (exact)" in result.stdout and "completion 1 (exact)" in result.stdout


# --- Dask: the same rows on any number of workers ------------------------------------------------------

def _rows(jobs, **where):
    rows = {}
    sweep_cluster.run_all(jobs, lambda job, row: rows.setdefault(job.key, row), **where)
    return [rows[job.key] for job in jobs]


def test_pieces_of_a_configuration_add_up_to_its_row(monkeypatch):
    job = first_job(games=70, seed=4)
    whole = sweep.run_job(job)
    monkeypatch.setattr(sweep, "PIECE", 30)
    assert [(piece.start, piece.count) for piece in sweep.pieces(job)] == [(0, 30), (30, 30), (60, 10)]
    assert sweep.run_job(job) == whole


def test_local_cluster_rows_equal_the_local_run(monkeypatch):
    from dask.distributed import LocalCluster

    deck = Setup(catalogue=load("diamoniak", require_art=False))
    grid = sweep.build_grid(deck, ("witch=5..6",), (), "2..3", (), ("1=default|stop-after-3",))
    jobs = sweep.jobs(grid, deck, 60, 11)
    here = _rows(jobs, in_process=True)
    monkeypatch.setattr(sweep, "PIECE", 25)  # three pieces a configuration, spread over the workers
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                          dashboard_address="127.0.0.1:0", scheduler_kwargs={"dashboard": False}) as cluster:
            there = _rows(list(reversed(jobs)) if workers == 2 else jobs, in_process=False,
                          address=cluster.scheduler_address, source="--scheduler")
        if workers == 2:
            there = list(reversed(there))
        assert there == here


def test_cli_on_worker_processes_writes_the_same_bytes_as_in_process(run, tmp_path):
    local, local_csv, local_json = sweep_run(run, tmp_path, *GRID, "--in-process", name="local")
    dask, dask_csv, dask_json = sweep_run(run, tmp_path, *GRID, "--workers", "2", name="dask")
    assert local.exit_code == dask.exit_code == 0, dask.output
    assert local_csv.read_bytes() == dask_csv.read_bytes()
    assert local_json.read_bytes() == dask_json.read_bytes()
    assert "on a local cluster" in dask.stdout
    assert not (tmp_path / "dask.parts").exists()  # the stored rows go once the files are written


def test_unreachable_scheduler_is_one_line_and_blocks_no_rerun(run, tmp_path, monkeypatch):
    monkeypatch.setattr(sweep_cluster, "CONNECT_TIMEOUT", "1s")
    args = ("--set", "witch=5..6", "--players", "2", "--games", "5")
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:9")
    result, _, _ = sweep_run(run, tmp_path, *args)
    one_error_line(result, "DASK_SCHEDULER_ADDRESS tcp://127.0.0.1:9: cannot reach the Dask scheduler")
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
    failed, _, _ = sweep_run(run, tmp_path, *args, "--scheduler", "tcp://127.0.0.1:1")
    one_error_line(failed, "--scheduler tcp://127.0.0.1:1: cannot reach the Dask scheduler")
    assert not (tmp_path / "s.parts").exists()  # no row stored: nothing left behind
    for again in ((), ("--resume",)):  # the same sweep again, with or without --resume
        rerun, csv_path, _ = sweep_run(run, tmp_path, *args, "--in-process", *again)
        assert rerun.exit_code == 0, rerun.output
        assert "resuming" not in rerun.stderr and len(csv_path.read_text().splitlines()) == 3
        assert not (tmp_path / "s.parts").exists()


def test_a_parts_folder_without_a_row_blocks_no_run(run, tmp_path):
    """A folder holding only a manifest (a crash between its two first writes, or an earlier version
    of the toolkit) is no earlier work: a plain run and a --resume both play the whole sweep."""
    args = ("--set", "witch=5..6", "--players", "2", "--games", "20", "--in-process")
    whole, whole_csv, _ = sweep_run(run, tmp_path, *args, name="whole")
    assert whole.exit_code == 0, whole.output
    for again in ((), ("--resume",)):
        parts = tmp_path / "s.parts"
        parts.mkdir()
        (parts / "manifest.json").write_text(json.dumps({"version": 1, "games": 999}))  # even another sweep's
        (parts / ".toolkit-half.tmp").write_text("{")  # and a write cut short
        result, csv_path, _ = sweep_run(run, tmp_path, *args, *again)
        assert result.exit_code == 0, result.output
        assert csv_path.read_bytes() == whole_csv.read_bytes() and not parts.exists()


def test_the_parts_folder_is_made_by_the_first_stored_row(tmp_path):
    store = SweepStore(tmp_path / "deep" / "x.parts", {"games": 3})
    assert store.open(False, ["a"]) == {} and not (tmp_path / "deep").exists()
    store.save("a", {"games": 3})
    assert sorted(p.name for p in (tmp_path / "deep" / "x.parts").iterdir()) == sorted(["manifest.json",
                                                                                          part_name("a")])
    assert json.loads((tmp_path / "deep" / "x.parts" / "manifest.json").read_text()) == {"games": 3}
    with pytest.raises(UserError, match="holds the stored rows of an unfinished sweep"):
        SweepStore(tmp_path / "deep" / "x.parts", {"games": 3}).open(False, ["a"])
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="cannot write here"):
        SweepStore(tmp_path / "file" / "x.parts", {"games": 3}).open(False, ["a"])


# --- resuming --------------------------------------------------------------------------------------------

def test_interrupted_sweep_resumes_without_losing_or_repeating_a_row(run, tmp_path, monkeypatch):
    whole, whole_csv, whole_json = sweep_run(run, tmp_path, *GRID, "--in-process", name="whole")
    assert whole.exit_code == 0
    real = sweep.run_job
    played = []

    def stop_at_third(job):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(job.key)
        return real(job)

    monkeypatch.setattr(sweep, "run_job", stop_at_third)
    stopped, csv_path, json_path = sweep_run(run, tmp_path, *GRID, "--in-process")
    assert stopped.exit_code == 130 and stopped.stderr.strip() == "toolkit: interrupted"
    parts = tmp_path / "s.parts"
    assert sorted(p.name for p in parts.iterdir()) == sorted(["manifest.json", *map(part_name, played)])
    assert not csv_path.exists()

    again, _, _ = sweep_run(run, tmp_path, *GRID, "--in-process")
    one_error_line(again, "s.parts: holds the stored rows of an unfinished sweep: give --resume")
    other, _, _ = sweep_run(run, tmp_path, *GRID[:-1], "121", "--in-process", "--resume")
    one_error_line(other, "--resume: the sweep stored in", "another games (120, now 121)")

    resumed_keys = []
    monkeypatch.setattr(sweep, "run_job", lambda job: resumed_keys.append(job.key) or real(job))
    resumed, _, _ = sweep_run(run, tmp_path, *GRID, "--in-process", "--resume", "--metric", "balance")
    assert resumed.exit_code == 0, resumed.output
    assert "resuming: 2 of 8 configurations stored, 6 to play" in resumed.stderr
    assert not set(resumed_keys) & set(played) and len(resumed_keys) == 6
    resumed, _, _ = sweep_run(run, tmp_path, *GRID, "--in-process")  # finished: nothing stored is left
    assert resumed.exit_code == 0
    assert csv_path.read_bytes() == whole_csv.read_bytes() and json_path.read_bytes() == whole_json.read_bytes()


def test_a_foreign_part_is_refused(tmp_path):
    store = SweepStore(tmp_path / "x.parts", {"games": 1})
    store.open(False, ["a"])
    store.save("a", {"games": 1})
    (tmp_path / "x.parts" / part_name("b")).write_text(json.dumps({"key": "b", "row": {}}))
    with pytest.raises(UserError, match="a row of a configuration this sweep does not have"):
        store.open(True, ["a"])
    (tmp_path / "x.parts" / part_name("b")).unlink()
    assert store.open(True, ["a"]) == {"a": {"games": 1}}


def test_ctrl_c_of_the_console_command_keeps_the_stored_rows(tmp_path):
    out = tmp_path / "c"
    args = [sys.executable, "-m", "toolkit", "sweep", "--set", "witch=5..9", "--players", "2..3", "--games", "400",
            "--in-process", "--out", str(out)]
    process = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 60
    parts = Path(f"{out}.parts")
    while time.monotonic() < deadline and len(list(parts.glob("*.json"))) < 2:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err.decode().strip().splitlines()[-1] == "toolkit: interrupted" and err.decode().count("\n") <= 2
    kept = {p.name for p in parts.glob("*.json")} - {"manifest.json"}
    assert kept and not list(parts.glob(".toolkit-*"))
    for name in kept:
        assert json.loads((parts / name).read_text())["row"]["games"] == 400


# --- ranking and heatmaps ------------------------------------------------------------------------------

def test_ranking_by_distance_to_goals():
    goals = sweep_target.parse_target("mean_rounds=8,balance>=0.95", ["mean_rounds", "balance"])
    rows = [{"mean_rounds": 8.0, "balance": 0.90, "balance_low": 0.85, "balance_high": 0.96,
             "mean_rounds_low": 7.9, "mean_rounds_high": 8.1},
            {"mean_rounds": 10.0, "balance": 0.99, "balance_low": 0.98, "balance_high": 1.0,
             "mean_rounds_low": 9.9, "mean_rounds_high": 10.1},
            {"mean_rounds": 8.0, "balance": 0.97, "balance_low": 0.96, "balance_high": 0.98,
             "mean_rounds_low": 7.8, "mean_rounds_high": 8.2},
            {"mean_rounds": None, "balance": 1.0}]
    sweep_target.rank(rows, goals)
    assert rows[0]["distance"] == pytest.approx(0.05 / 0.95)
    assert rows[1]["distance"] == pytest.approx(0.25)
    assert [row["rank"] for row in rows] == [2, 3, 1, 4]
    assert [row["meets"] for row in rows] == ["maybe", "no", "yes", ""]


@pytest.mark.parametrize("goal, figure, low, high, exact, meets", [
    ("balance>=0.9", 0.904, 0.868, 0.940, False, "maybe"),  # the audit's case: the interval crosses the goal
    ("balance>=0.9", 0.95, 0.91, 0.99, False, "yes"),
    ("balance>=0.9", 0.85, 0.80, 0.89, False, "no"),
    ("balance>=0.9", 0.88, 0.86, 0.90, False, "maybe"),  # touches it: the goal's value may be the truth
    ("balance>=0.9", 0.9, None, None, True, "yes"),  # an exact figure is its own interval
    ("balance>=0.9", 0.95, None, None, False, "maybe"),  # no interval yet: the games cannot tell
    ("mean_rounds<=8", 7.7, 7.5, 7.9, False, "yes"),
    ("mean_rounds<=8", 7.9, 7.7, 8.1, False, "maybe"),
    ("mean_rounds<=8", 8.3, 8.1, 8.5, False, "no"),
    ("mean_rounds=8", 8.05, 7.9, 8.2, False, "yes"),  # for =: the goal lies within the interval
    ("mean_rounds=8", 8.2, 8.1, 8.3, False, "no"),
    ("mean_rounds=8", 8.0, None, None, True, "yes"),
    ("mean_rounds=8", 7.99, None, None, True, "no"),
])
def test_meets_is_read_from_the_whole_interval(goal, figure, low, high, exact, meets):
    name = goal.split("=")[0].rstrip("<>")
    row = {name: figure, f"{name}_low": low, f"{name}_high": high, "exact": name if exact else ""}
    sweep_target.rank([row], sweep_target.parse_target(goal, [name]))
    assert row["meets"] == meets


def test_meets_over_goals_is_the_weakest_goal():
    goals = sweep_target.parse_target("mean_rounds=8,balance>=0.9", ["mean_rounds", "balance"])
    base = {"mean_rounds": 8.0, "mean_rounds_low": 7.9, "mean_rounds_high": 8.1}
    rows = [{**base, "balance": 0.95, "balance_low": 0.92, "balance_high": 0.98},
            {**base, "balance": 0.904, "balance_low": 0.868, "balance_high": 0.940},
            {**base, "mean_rounds_high": 7.95, "balance": 0.904, "balance_low": 0.868, "balance_high": 0.940}]
    sweep_target.rank(rows, goals)
    assert [row["meets"] for row in rows] == ["yes", "maybe", "no"]


def test_target_ranks_the_written_rows(run, tmp_path):
    result, csv_path, json_path = sweep_run(run, tmp_path, *GRID, "--in-process", "--metric", "completion",
                                            "--target", "mean_rounds=6,balance>=0.9")
    assert result.exit_code == 0, result.output
    data = json.loads(json_path.read_text())
    assert data["target"]["goals"] == ["mean_rounds=6", "balance>=0.9"]
    assert sorted(row["rank"] for row in data["rows"]) == list(range(1, 9))
    best = min(data["rows"], key=lambda row: row["rank"])
    assert all(best["distance"] <= row["distance"] for row in data["rows"])
    assert {"mean_rounds", "balance_low", "distance", "meets", "rank"} <= set(data["columns"])
    assert "  1. distance" in result.stdout
    assert "yes = the whole interval meets every goal" in result.stdout
    assert "the whole interval meets the goal" in data["target"]["definition"]
    for row in data["rows"]:  # each verdict agrees with the row's own interval of balance
        low, high = row["balance_low"], row["balance_high"]
        assert row["meets"] != "yes" or low >= 0.9
        assert row["meets"] != "no" or high < 0.9 or not row["mean_rounds_low"] <= 6 <= row["mean_rounds_high"]


def test_heatmap_panels_and_same_bytes(run, tmp_path):
    from PIL import Image

    small = (*GRID[:-1], "30")
    args = (*small, "--in-process", "--heatmap", str(tmp_path / "map.png"), "--heatmap-metric", "balance",
            "--metric", "balance,mean_rounds")
    first, _, _ = sweep_run(run, tmp_path, *args)
    png = (tmp_path / "map.png").read_bytes()
    second, _, _ = sweep_run(run, tmp_path, *args)
    assert first.exit_code == second.exit_code == 0
    assert (tmp_path / "map.png").read_bytes() == png
    assert Image.open(tmp_path / "map.png").size[0] > 600  # two panels (players 2 and 3) side by side
    pdf, _, _ = sweep_run(run, tmp_path, *small, "--in-process", "--heatmap", str(tmp_path / "map.pdf"),
                          "--heatmap-axes", "players,witch")
    assert pdf.exit_code == 0
    assert b"Matplotlib" not in (tmp_path / "map.pdf").read_bytes()


def test_heatmap_refuses_too_many_panels(run, tmp_path):
    result, _, _ = sweep_run(run, tmp_path, "--set", "witch=1..4", "--set", "fairy=0..3", "--set", "diamond=1..13",
                             "--players", "2", "--heatmap", str(tmp_path / "m.png"), "--in-process")
    one_error_line(result, "--heatmap: diamond vary too: 13 panels, at most 12")


def test_csv_and_json_hold_the_same_rows(run, tmp_path):
    result, csv_path, json_path = sweep_run(run, tmp_path, *GRID, "--in-process")
    assert result.exit_code == 0
    data = json.loads(json_path.read_text())
    table = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert list(table[0]) == data["columns"][: len(table[0])]
    for line, row in zip(table, data["rows"]):
        for name, value in row.items():
            text = "" if value is None else (repr(value) if isinstance(value, float) else str(value))
            assert line[name] == text
            if isinstance(value, float):
                assert float(line[name]) == value  # the floats read back exactly
    assert data["axes"] == {"witch": [5, 6], "fairy": [1, 3], "players": [2, 3]}


def stop_at_the_second_configuration(monkeypatch) -> list:
    """A Ctrl-C as the sweep starts its second configuration; the list holds the key of the first."""
    real, played = sweep.run_job, []

    def stop_at_second(job):
        if played:
            raise KeyboardInterrupt
        played.append(job.key)
        return real(job)

    monkeypatch.setattr(sweep, "run_job", stop_at_second)
    return played


def test_a_user_catalogue_and_a_changed_file_is_not_resumed(run, tmp_path, doc, monkeypatch):
    from conftest import write_catalogue

    path = write_catalogue(tmp_path, doc)
    args = ("--catalogue", str(path), "--set", "witch=5..6", "--players", "2", "--games", "40", "--in-process")
    played = stop_at_the_second_configuration(monkeypatch)
    stopped, _, _ = sweep_run(run, tmp_path, *args)
    assert stopped.exit_code == 130 and (tmp_path / "s.parts" / part_name(played[0])).exists()
    doc["rules"]["price"] = doc["rules"]["price"] + 1
    write_catalogue(tmp_path, doc)
    changed, _, _ = sweep_run(run, tmp_path, *args, "--resume")
    one_error_line(changed, "--resume: the sweep stored in", "has another catalogue")
    both, _, _ = sweep_run(run, tmp_path, "--game", "palaces", *args)
    one_error_line(both, "--game and --catalogue: give one of them")


def test_heatmap_panel_titles_wrap_to_their_panel():
    from toolkit.analysis.heatmap import _panel_title

    title = _panel_title(["variants", "policy_all"], ("free-colour", "until-witch,fairy-first,buy-most"), 1.2)
    lines = title.split("\n")
    assert lines[0] == "variants=free-colour" and len(lines) > 2 and all(len(line) <= 20 for line in lines)
    assert "".join(lines[1:]) == "policy_all=until-witch,fairy-first,buy-most"  # nothing lost in the wrapping


def test_heatmap_cells_say_exact_or_show_their_interval():
    from toolkit.analysis.heatmap import _label

    class Axes:
        def __init__(self):
            self.texts = []

        def text(self, x, y, text, **style):
            self.texts.append(text)

    ax = Axes()
    _label(ax, {"mean_rounds": 7.264, "mean_rounds_low": 7.264, "mean_rounds_high": 7.264,
                "exact": "mean_turns mean_rounds"}, "mean_rounds", 0, 0, 0.2)
    _label(ax, {"balance": 0.904, "balance_low": 0.868, "balance_high": 0.94, "exact": ""}, "balance", 0, 0, 0.9)
    _label(ax, {"balance": 0.5, "balance_low": None, "balance_high": None}, "balance", 0, 0, 0.9)
    _label(ax, {"balance": None}, "balance", 0, 0, 0.9)
    assert ax.texts == ["7.26\nexact", "0.904\n0.868–0.94", "0.5\nno interval", "n/a"]


def test_a_sweep_of_a_deck_whose_sheet_changed_is_not_resumed(run, tmp_path, doc, monkeypatch):
    """The stored rows are of the deck as it was: its catalogue file and the sheet that file names."""
    import csv

    from conftest import write_catalogue

    columns = ["id", "kind", "colour", "count", "name_en", "name_ru", "text_en", "text_ru", "art"]

    def write_sheet(cards):
        with open(tmp_path / "cards.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(columns)
            for card in cards:
                writer.writerow([card["id"], card["kind"], card.get("colour", ""), card["count"], card["name"]["en"],
                                 card["name"]["ru"], card["text"]["en"], card["text"]["ru"], card["art"]])

    cards = doc.pop("cards")
    write_sheet(cards)
    doc["sheet"] = "cards.csv"
    path = write_catalogue(tmp_path, doc)
    args = ("--catalogue", str(path), "--set", "witch=5..6", "--players", "2", "--games", "40", "--in-process")
    stop_at_the_second_configuration(monkeypatch)
    stopped, _, _ = sweep_run(run, tmp_path, *args)
    assert stopped.exit_code == 130, stopped.stderr
    next(card for card in cards if card["id"] == "fairy")["count"] += 1
    write_sheet(cards)
    changed, _, _ = sweep_run(run, tmp_path, *args, "--resume")
    one_error_line(changed, "--resume: the sweep stored in", "has another catalogue")
