"""Hostile inputs of issue 23, one class per section: each ends as the README promises (status 0 with
the right result, or status 2 and one line naming the input), with nothing of the user's lost and no
stray file left."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import builtin_path


def one_error_line(result, *fragments) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# --- output paths that meet the inputs, each other, links and devices ---------------------------------


def test_an_output_onto_an_input_of_the_same_run_is_refused_before_any_work(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.toml"
    mine.write_bytes(builtin_path("diamoniak").read_bytes())
    (tmp_path / "link.pdf").symlink_to(mine)
    for args in (["rulebook", "--out", "mine.toml"], ["print-cards", "--out", "link.pdf"],
                 ["odds", "--export-chain", "mine.toml"]):
        one_error_line(run(*args, "--catalogue", "mine.toml"), f"--{args[-2].split('--')[1]} {args[-1]}: is the "
                       "catalogue this run reads")
        assert mine.read_bytes() == builtin_path("diamoniak").read_bytes()
    one_error_line(run("odds", "--plot", "x.png", "--export-chain", "x.png"), "--export-chain x.png: is also the "
                   "file of --plot")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pdf", "mine.toml"]


def test_an_output_through_a_link_replaces_the_file_it_points_to_and_keeps_the_link(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards.pdf").symlink_to("real.pdf")
    result = run("print-cards", "--set", "witch=0", "--no-aids", "--out", "cards.pdf")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "cards.pdf").is_symlink() and (tmp_path / "real.pdf").read_bytes().startswith(b"%PDF")


def test_a_loop_of_links_as_an_output_is_one_line(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("loop2", "loop1")
    os.symlink("loop1", "loop2")
    for args in (["print-cards", "--out", "loop1"], ["export-cards", "--target", "png", "--out", "loop1"],
                 ["rulebook", "--out", "loop1"], ["odds", "--export-chain", "loop1"]):
        one_error_line(run(*args), "loop1: cannot follow the link")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop1", "loop2"]


def test_sweep_checks_its_files_before_playing(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sw.csv").mkdir()
    args = ["sweep", "--set", "witch=5..6", "--players", "2", "--games", "10", "--in-process"]
    one_error_line(run(*args, "--out", "sw"), "--out sw.csv: is a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sw.csv"]  # no sw.parts/: nothing was played
    one_error_line(run(*args, "--out", os.devnull), f"--out {os.devnull}: is a device")
    assert not Path(f"{os.devnull}.csv").exists()


# --- an export replaces only what an export wrote -------------------------------------------------------


def test_an_export_never_deletes_the_users_own_files(run, tmp_path, monkeypatch, doc):
    from conftest import write_catalogue

    monkeypatch.chdir(tmp_path)
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "family.png").write_bytes(b"a family photo")
    (tmp_path / "link").symlink_to(photos)
    small = ["--set", "witch=0", "--set", "diamond=0", "--set", "fairy=0", "--no-aids"]
    for out in ("photos", "link"):
        one_error_line(run("export-cards", "--target", "png", *small, "--out", out), "holds 'family.png', which no "
                       "export writes")
    assert (photos / "family.png").read_bytes() == b"a family photo"
    mine = write_catalogue(tmp_path, doc)  # its art folder: diamoniak/*.png beside it
    art = tmp_path / "diamoniak"
    before = {p.name: p.read_bytes() for p in art.iterdir()}
    one_error_line(run("export-cards", "--target", "png", "--catalogue", str(mine), *small, "--out", str(art)),
                   "which no export writes")
    assert {p.name: p.read_bytes() for p in art.iterdir()} == before
    # an export's own folder is marked, and replaced again; a file added to it since is the user's
    assert run("export-cards", "--target", "png", *small, "--out", "cards").exit_code == 0
    assert run("export-cards", "--target", "tts", *small, "--out", "cards").exit_code == 0
    (tmp_path / "cards" / "mine.png").write_bytes(b"mine")
    one_error_line(run("export-cards", "--target", "png", *small, "--out", "cards"), "holds 'mine.png'")
    assert (tmp_path / "cards" / "mine.png").read_bytes() == b"mine"


# --- signals, workers and the local cluster's files ------------------------------------------------------


def test_sighup_while_writing_leaves_no_temporary_file(tmp_path):
    """The terminal closed just after a file is flushed, before its rename: one line, status 129, nothing left."""
    import subprocess
    import sys

    script = ("import os\n"
              "import toolkit.files as files\n"
              "real = os.fsync\n"
              "def fsync(fd):\n"
              "    real(fd)\n"
              "    os.kill(os.getpid(), 1)\n"
              "files.os.fsync = fsync\n"
              "from toolkit.entry import run\n"
              "run()\n")
    args = ["print-cards", "--calibration", "--out", str(tmp_path / "sheet.pdf")]
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (129, "toolkit: hung up\n")
    assert list(tmp_path.iterdir()) == []


def test_more_workers_than_cores_is_one_line_before_any_work(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    one_error_line(run("sweep", "--set", "witch=5..7", "--players", "2", "--games", "2000", "--workers", "256"),
                   "--workers 256: this machine has 2 cores: choose 1 to 2")
    assert list(tmp_path.iterdir()) == []


def test_a_local_cluster_keeps_its_scratch_files_in_a_folder_of_the_run(tmp_path, monkeypatch):
    import tempfile

    from toolkit import files
    from toolkit.analysis.sweep_cluster import dask_client

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with dask_client(None, "", 1) as client:
        assert client.submit(sum, [1, 2]).result() == 3
        (scratch,) = tmp_path.iterdir()
        assert scratch in files.PENDING  # removed by the signal handlers too
    assert list(tmp_path.iterdir()) == [] and scratch not in files.PENDING


# --- environment settings that break numba or Dask -------------------------------------------------------


def test_numba_settings_that_stop_the_kernels_are_one_line(run, monkeypatch):
    for name, value, fragment in (("NUMBA_NUM_THREADS", "0", "expected a number of threads from 1"),
                                  ("NUMBA_NUM_THREADS", "x", "expected a number of threads from 1"),
                                  ("NUMBA_DISABLE_JIT", "1", "the simulator and the solvers run only compiled")):
        with monkeypatch.context() as env:
            env.setenv(name, value)
            for command in (["simulate", "--games", "3000"], ["analyse"], ["odds"], ["rulebook"],
                            ["sweep", "--in-process", "--players", "2"]):
                one_error_line(run(*command), f"{name}='{value}': {fragment}")
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "0")
    assert run("simulate", "--games", "5").exit_code == 0


def test_a_broken_dask_configuration_is_one_line_naming_it(tmp_path):
    import subprocess
    import sys

    (tmp_path / "bad.yaml").write_text("distributed: [\n  bad: :\n")
    args = [sys.executable, "-m", "toolkit", "sweep", "--set", "witch=5..6", "--players", "2", "--games", "10",
            "--out", str(tmp_path / "sw")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "DASK_CONFIG": str(tmp_path)})
    assert done.returncode == 2 and done.stderr == (f"toolkit: error: DASK_CONFIG={tmp_path}: Dask cannot read its "
                                                    f"configuration: A dask config file at "
                                                    f"'{tmp_path / 'bad.yaml'}' is malformed\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml"]


# --- --resume takes only the rows the sweep stored ---------------------------------------------------------


def test_resume_refuses_a_stored_row_edited_since(tmp_path):
    import json

    import pytest

    from toolkit.analysis.sweep_store import SweepStore, part_name
    from toolkit.errors import UserError

    store = SweepStore(tmp_path / "x.parts", {"games": 10})
    store.open(False, ["a", "b"])
    store.save("a", {"games": 10, "balance": 0.5})
    store.save("b", {"games": 10, "balance": 0.25})
    part = tmp_path / "x.parts" / part_name("b")
    data = json.loads(part.read_text())
    assert SweepStore(tmp_path / "x.parts", {"games": 10}).open(True, ["a", "b"])["b"] == data["row"]
    data["row"]["balance"] = 0.99
    part.write_text(json.dumps(data))
    with pytest.raises(UserError, match=f"{part_name('b')}: changed since this sweep stored it"):
        SweepStore(tmp_path / "x.parts", {"games": 10}).open(True, ["a", "b"])


# --- preflight: what a print service refuses ----------------------------------------------------------------


def test_preflight_fails_a_pdf_x_file_that_carries_javascript(tmp_path):
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    from toolkit.catalogue import load
    from toolkit.print.export import export_cards
    from toolkit.print.preflight import preflight

    small = load("diamoniak", overrides=["witch=0", "diamond=0", "fairy=0", "castle-blue=0", "castle-green=0",
                                         "castle-yellow=0"])
    (made,) = export_cards(small, "drivethru", tmp_path / "dt").files
    assert preflight(made, "drivethru").passed
    writer = PdfWriter(clone_from=PdfReader(made))
    script = writer._add_object(DictionaryObject({NameObject("/S"): NameObject("/JavaScript"),
                                                  NameObject("/JS"): TextStringObject("app.alert('hi')")}))
    writer._root_object[NameObject("/Names")] = DictionaryObject({NameObject("/JavaScript"): DictionaryObject(
        {NameObject("/Names"): ArrayObject([TextStringObject("hi"), script])})})
    writer._root_object[NameObject("/OpenAction")] = script
    writer.write(made)
    result = preflight(made, "drivethru")
    (line,) = [check for check in result.checks if check.name == "actions"]
    assert not result.passed and line.status == "FAIL"
    assert "JavaScript in the document's names; an action on opening" in line.detail


def test_preflight_fails_token_images_too_small_with_or_without_a_manifest(tmp_path):
    from PIL import Image

    from toolkit.catalogue import load
    from toolkit.print.export import export_cards
    from toolkit.print.preflight import preflight

    one = load("palaces", overrides=[f"{c.id}=0" for c in load("palaces").cards if c.id != "tower"])
    out = tmp_path / "tgc"
    export_cards(one, "tgc", out)
    assert preflight(out, "tgc").passed
    tokens = sorted(out.glob("token-*.png"))
    Image.new("RGB", (1, 1), "white").save(tokens[0], dpi=(300, 300))
    for manifest in (True, False):
        if not manifest:
            (out / "manifest.csv").unlink()
        result = preflight(out, "tgc")
        (line,) = [check for check in result.checks if check.name == "tokens"]
        assert not result.passed and line.status == "FAIL" and f"{tokens[0].name} 1 x 1" in line.detail


# --- words that say what the figures are ---------------------------------------------------------------------


def test_games_stopped_at_the_turn_limit_are_not_called_impossible():
    from toolkit.sim.report import report
    from toolkit.sim.stats import Summary

    def summary(stalled: int) -> Summary:
        return Summary(game="diamoniak", players=2, policies=("a", "a"), variants=(), seed=1, games=2000,
                       unfinished=2000, mean=None, stderr=None, ci95=None, median=None, percentiles={},
                       win_rate=(0.0, 0.0), win_ci=((0.0, 0.0015), (0.0, 0.0015)), per_game={}, at_least_once={},
                       stalled=stalled, turn_limit=10_000, title="Diamoniak")

    slow = report(summary(0))[1].splitlines()[-1]
    assert slow == ("no game ended within 10,000 turns, so no length is given: fewer than 0.15% of games of this "
                    "composition and policy end that soon (95% confidence)")
    stuck = report(summary(2000))[1].splitlines()[-1]
    assert stuck == "no game ended: this composition or policy cannot finish a game"


def test_games_stopped_at_the_turn_limit_give_no_counts_of_the_limit():
    """Their lead changes and events are the limit's (10,000 witch strikes in each, an interval of
    width 0): left out, as their lengths are; with no game ended there are none to give."""
    import numpy as np

    from toolkit.analysis.metrics import Accumulator

    def records(winner, stalled, strikes):
        return {"winner": np.array(winner), "turns": np.array([12, 10_000, 30][:len(winner)]),
                "stalled": np.array(stalled), "lead_changes": np.array([2, 900, 4][:len(winner)]),
                "winner_deficit": np.zeros(len(winner), dtype=np.int64), "witch_strikes": np.array(strikes)}

    acc = Accumulator(2)
    acc.add(records([0, -1, -1], [0, 0, 1], [3, 10_000, 5]))  # won, stopped at the limit, stalled
    m = acc.metrics()
    assert m["witch_strikes_per_game"] == 4 and m["lead_changes"] == 3
    stopped = Accumulator(2)
    stopped.add(records([-1, -1], [0, 0], [10_000, 10_000]))
    m = stopped.metrics()
    assert m["witch_strikes_per_game"] is None and m["witch_strikes_per_game_low"] is None
    assert m["lead_changes"] is None and m["over_limit_rate"] == 1


@pytest.mark.real_progress
def test_a_walk_that_may_give_up_tells_its_time_not_a_share_done(monkeypatch):
    """The chain walk's total is the most it may take (--max-states): '1% done after 23 s, about
    2,000 s to go' just before it gives up and simulates would be a guess; after the note, the
    simulation's own share is real."""
    from toolkit.cli import options

    clock = iter([0.0, 23.0, 23.0, 30.0])
    real = options.time.monotonic

    def fake() -> float:  # the Progress's reads only: another thread (a watchdog) keeps the real clock
        import threading

        return next(clock) if threading.current_thread() is threading.main_thread() else real()

    monkeypatch.setattr(options.time, "monotonic", fake)
    lines = []
    monkeypatch.setattr(options.click, "echo", lambda text, err=False: lines.append(text))
    progress = options.Progress(100, "solving", enabled=False, ceiling=True)
    progress(1)  # 23 s
    progress.note("exact odds are out of reach; simulating", 10)
    progress(5)  # 7 s into the simulation
    assert lines == ["toolkit: note: solving: still working after 23 s",
                     "toolkit: note: exact odds are out of reach; simulating",
                     "toolkit: note: simulating: 50% done after 7 s, about 7 s to go"]
    from toolkit.catalogue import load
    from toolkit.odds.report import progress_ceiling

    diamoniak, palaces = load("diamoniak", require_art=False), load("palaces", require_art=False)
    assert progress_ceiling(diamoniak, "multi") and progress_ceiling(palaces, "first-palace")
    assert not progress_ceiling(diamoniak, "solo") and not progress_ceiling(palaces, "opening")


def test_multi_says_turns_whether_exact_or_simulated(tmp_path, doc):
    """The simulated answer counted rounds (1.7) where the exact one counts turns of all seats (2.98)."""
    from conftest import write_catalogue
    from toolkit.catalogue import load
    from toolkit.odds.report import answer

    doc["rules"]["castle_size"] = 3
    for card in doc["cards"]:
        card["count"] = {"castle-red": 3, "castle-blue": 3, "diamond": 3, "witch": 1, "fairy": 1}.get(card["id"], 0)
    cat = load(None, write_catalogue(tmp_path, doc), require_art=False)
    exact = answer(cat, "multi", players=2)
    simulated = answer(cat, "multi", players=2, max_states=50, games=4000)
    summary = simulated.data["simulated"]
    assert exact.data["exact"] and not simulated.data["exact"]
    assert abs(summary["mean_turns"] - exact.data["expected_turns_float"]) < 4 * summary["stderr_turns"]
    assert any(line.startswith("expected turns (all seats together): ") for line in exact.lines)
    assert any(line.startswith("  expected turns (all seats together): ") for line in simulated.lines)


def test_card_text_that_cannot_fit_is_refused_never_cut(run, tmp_path, monkeypatch, doc):
    """A 1,000-character text, a 100-letter name: one line naming the card, no sheet, no export (they
    were printed cut with "…")."""
    from conftest import write_catalogue

    monkeypatch.chdir(tmp_path)
    for field, value, what in (("text", "word " * 199 + "words", "text (1,000 characters)"),
                               ("name", "W" * 100, "name (100 characters)")):
        doc["cards"][0][field] = {"ru": value, "en": value}
        path = write_catalogue(tmp_path, doc, with_art=False)  # the game's own pictures
        for args in (["print-cards", "--out", "sheet.pdf"], ["export-cards", "--target", "png", "--out", "png"]):
            line = one_error_line(run(*args, "--catalogue", str(path)), f"mine.toml: card '{doc['cards'][0]['id']}'",
                                  f"its {what} does not fit a poker 63 x 88 mm card")
            assert "shorten it" in line
        assert not (tmp_path / "sheet.pdf").exists() and not (tmp_path / "png").exists()
        doc["cards"][0][field] = builtin_doc_value(field)


def builtin_doc_value(field):
    from conftest import builtin_doc

    card = builtin_doc("diamoniak")["cards"][0]
    return card[field]
