"""The command line under random input: random option values and randomly damaged catalogues.

Whatever comes in, a run ends with status 0, or with status 2 and exactly one line on stderr; never a
traceback, and never a partial output file or folder (nor a temporary one) left behind. Long work
shows a progress bar on a terminal within seconds and stops cleanly on Ctrl-C.
"""

from __future__ import annotations

import copy
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import builtin_doc, write_catalogue
from toolkit.cli import main

# Values an option may get: good ones, bad ones, and ones at and past every limit.
NUMBERS = ["0", "1", "2", "3", "-1", "-5", "4", "5", "7", "99", "500", "501", "1001", "100000", "10**6",
           str(2**31), str(2**63), "1.5", "nan", "", " ", "²", "٣", "x", "1e3"]
IDS = ["witch", "diamond", "fairy", "castle-red", "castle-blue", "foundation-red", "roof-blue", "floor-green",
       "tower", "flood", "ruins", "wizard", "", "WITCH"]
SEAT_POLICIES = ["1=until-witch", "2=stop-after-3", "1=odds-101", "1=until-witch,,never-buy", "²=risk-1",
                 "0=builder", "5=builder", "1=builder", "2=no-attack", "1=bogus", "1=", "=x", "1=risk-1,never-buy",
                 "1=random-7", "2=give-random-3"]
VARIANTS = ["diamonds-to-discard", "free-colour", "exchange-face-up", "palaces-to-pile", "one-per-colour",
            "short-two-player", "ruins-card-to-clear", "bogus", ""]


def sets():
    return st.builds(lambda i, n: f"{i}={n}", st.sampled_from(IDS), st.sampled_from(NUMBERS))


def catalogue_options():
    return st.fixed_dictionaries({}, optional={
        "--game": st.sampled_from(["diamoniak", "palaces", "chess", ""]),
        "--set": st.lists(sets(), max_size=3),
        "--lang": st.sampled_from(["ru", "en", "de"]),
    })


def command_args():
    """A command and its options, drawn from values that are cheap to run when they are valid."""
    small_games = st.sampled_from(["1", "2", "7", "40", "0", "-3", "x", "²", str(10**9)])
    common = {
        "--players": st.sampled_from(["1", "2", "3", "4", "5", "0", "x"]),
        "--seed": st.sampled_from(["0", "1", "-5", str(2**63), "x", "²"]),
    }
    commands = {
        "catalogue": {"--json": st.just(None)},
        "simulate": {"--policy": st.lists(st.sampled_from(SEAT_POLICIES), max_size=2),
                     "--variant": st.lists(st.sampled_from(VARIANTS), max_size=2), **common, "--json": st.just(None)},
        "odds": {"--model": st.sampled_from(["solo", "draws", "multi", "opening", "first-palace", "bogus"]),
                 "--max-states": st.sampled_from(["1", "50", "2000", "0", str(10**8), "x"]),
                 "--pile": st.sampled_from(["witch=3,diamond=5", "witch=²", "witch=1,witch=2", "x", "flood=2,tower=1",
                                            "witch=0", "diamond=1000000", ""]),
                 "--policy": st.sampled_from(["default", "bogus", "stop-after-2", "no-attack", "odds-101"]),
                 "--plot": st.sampled_from(["chart.png", "chart.pdf", "chart.txt", ""]), **common,
                 "--json": st.just(None)},
        "print-cards": {"--paper": st.sampled_from(["a4", "letter", "a3"]),
                        "--card": st.sampled_from(["poker", "mini", "tarot", "10x10", "300x300", "0x5", "x"]),
                        "--bleed": st.sampled_from(["0", "3", "-1", "50", "nan", "x"]),
                        "--gutter": st.sampled_from(["0", "2", "-2", "400"]),
                        "--duplex": st.sampled_from(["long", "short", "fold", "none", "both"]),
                        "--out": st.sampled_from(["cards.pdf", "sub/dir/cards.pdf", "", "x" * 300 + ".pdf"])},
        "export-cards": {"--target": st.sampled_from(["png", "tts", "pdf-single", "jpeg"]),
                         "--card": st.sampled_from(["poker", "mini", "x"]),
                         "--bleed": st.sampled_from(["0", "3", "-1", "x"]),
                         "--out": st.sampled_from(["export", "", "y" * 300])},
        "art": {"--out-dir": st.sampled_from(["art", "", "z" * 300])},
        "rulebook": {"--lang": st.sampled_from(["ru", "en", "ru+en", "de"]), "--paper": st.sampled_from(["a4", "letter"]),
                     "--booklet": st.just(None), "--out": st.sampled_from(["rules.pdf", ""])},
    }
    # The defaults play thousands of games: a run that is valid must stay short here.
    always = {"simulate": {"--games": small_games}, "odds": {"--games": small_games}}

    @st.composite
    def draw(draw_):
        name = draw_(st.sampled_from(sorted(commands)))
        options = draw_(catalogue_options()) if name != "art" else {}
        options.update(draw_(st.fixed_dictionaries(always.get(name, {}), optional=commands[name])))
        args = [name]
        for option, value in options.items():
            for item in value if isinstance(value, list) else [value]:
                args += [option] if item is None else [option, item]
        return args

    return draw()


DAMAGE = [-1, 0, 10**9, 2**63, "", "x", "../../escape.png", "/etc/passwd", "{price.__class__}", "{price[0]}",
          "{nothing}", "\u05d0\u05d1", "bell\x07", "😀", 1.5, True, [], {}, "castle", "#zzzzzz"]


def damaged(doc, rnd):
    """Replace or delete one field somewhere in the catalogue document."""
    doc = copy.deepcopy(doc)
    node = doc
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return doc
        key = rnd.choice(keys)
        child = node[key]
        if isinstance(child, (dict, list)) and child and rnd.random() < 0.7:
            node = child
            continue
        if isinstance(node, dict) and rnd.random() < 0.2:
            del node[key]
        else:
            node[key] = rnd.choice(DAMAGE)
        return doc


def check_run(args, folder: Path):
    before = set(folder.rglob("*"))
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr, (args, result.stderr)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), (args, result.stderr)
        assert set(folder.rglob("*")) == before, (args, "a failed run left files behind")
    left = [p for p in folder.rglob("*") if p.name.startswith(".toolkit-")]
    assert not left, (args, left)
    return result


# The command's books come through the session's shared books (conftest's ``shared_books``).
pytestmark = pytest.mark.usefixtures("shared_books")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(args=command_args())
def test_random_options_end_in_success_or_one_line(args, tmp_path_factory):
    check_run(args, tmp_path_factory.mktemp("run"))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(game=st.sampled_from(["diamoniak", "palaces"]), command=st.sampled_from(
    [["catalogue"], ["odds", "--games", "30"], ["simulate", "--games", "20"], ["print-cards", "--out", "c.pdf"],
     ["export-cards", "--target", "png", "--out", "png"], ["art", "--out-dir", "art"]]),
    rnd=st.randoms(use_true_random=False), times=st.integers(1, 3))
def test_damaged_catalogues_end_in_success_or_one_line(game, command, rnd, times, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cat")
    doc = builtin_doc(game)
    for _ in range(times):
        doc = damaged(doc, rnd)
    path = write_catalogue(folder, doc)
    check_run(command + ["--catalogue", str(path)], folder)
    assert not (folder.parent / "escape.png").exists()


# Environment settings, links and output paths that meet the run's own inputs: the user's files are
# never overwritten or deleted, a link stays a link, and every run still ends in status 0 or one line.
ENVIRONMENT = {"NUMBA_NUM_THREADS": ["0", "-1", "x", "", "1"], "NUMBA_DISABLE_JIT": ["1", "x", "0"]}
OUTPUTS = ["mine.toml", "to-mine.pdf", "loop", "dangling.pdf", "photos", "to-photos", "diamoniak",
           "diamoniak/witch.png", "fresh.pdf", "fresh"]
MEETING = [["print-cards", "--no-aids", "--out", "{out}"], ["rulebook", "--out", "{out}"],
           ["export-cards", "--target", "png", "--no-aids", "--out", "{out}"], ["odds", "--export-chain", "{out}"],
           ["odds", "--plot", "{out}.png", "--export-chain", "{out}.png"],
           ["sweep", "--set", "witch=1", "--players", "2", "--games", "3", "--in-process", "--out", "{out}"],
           ["simulate", "--games", "3"]]


def hostile_folder(folder: Path) -> Path:
    """A small catalogue with its art, the user's photo, and links: to the catalogue, to the photo's
    folder, to nowhere and in a loop."""
    doc = builtin_doc("diamoniak")
    for card in doc["cards"]:
        card["count"] = {"castle-red": 6, "diamond": 2, "witch": 1, "fairy": 1}.get(card["id"], 0)
    write_catalogue(folder, doc)
    (folder / "photos").mkdir()
    (folder / "photos" / "family.png").write_bytes(b"a family photo")
    (folder / "to-mine.pdf").symlink_to("mine.toml")
    (folder / "to-photos").symlink_to("photos")
    (folder / "dangling.pdf").symlink_to("nowhere/x.pdf")
    (folder / "loop").symlink_to("loop2")
    (folder / "loop2").symlink_to("loop")
    return folder


def users_files(folder: Path) -> dict[str, bytes | str]:
    """Every file the user had, by its bytes, and every link, by where it points."""
    return {str(p.relative_to(folder)): os.readlink(p) if p.is_symlink() else p.read_bytes()
            for p in folder.rglob("*") if p.is_symlink() or p.is_file()}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(command=st.sampled_from(MEETING), out=st.sampled_from(OUTPUTS),
       env=st.fixed_dictionaries({}, optional={name: st.sampled_from(values) for name, values in ENVIRONMENT.items()}))
def test_environment_links_and_outputs_meeting_inputs_lose_nothing(command, out, env, tmp_path_factory):
    folder = hostile_folder(tmp_path_factory.mktemp("hostile"))
    before = users_files(folder)
    args = [arg.format(out=out) for arg in command] + ["--catalogue", "mine.toml"]
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert result.exit_code in (0, 2), (args, env, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr, (args, env, result.stderr)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), (args, env, result.stderr)
    after = users_files(folder)
    lost = [name for name, data in before.items() if after.get(name) != data]
    assert not lost, (args, env, lost)  # new files only: a fresh name, or the one a link to nowhere names
    assert not [p for p in folder.rglob("*") if p.name.startswith(".toolkit-")], args
    assert not Path(f"{os.devnull}.csv").exists()


HANG = 600  # seconds: not a speed limit (benchmarks/bench_startup.py measures speed), only so that a run
# that never says anything cannot hold the suite for ever


def first_stderr_under_a_terminal(args) -> tuple[bytes, int, bytes]:
    """Run ``toolkit ARGS`` with stderr on a pseudo-terminal; wait for its first output, then Ctrl-C it.
    Returns the first output, the exit status and all of stderr."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "toolkit", *args], stdout=subprocess.DEVNULL,
                               stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    first, given_up = b"", time.monotonic() + HANG
    while not first and process.poll() is None and time.monotonic() < given_up:
        if select.select([leader], [], [], 0.1)[0]:
            try:
                first = os.read(leader, 4096)
            except OSError:
                break
    process.send_signal(signal.SIGINT)
    status = process.wait(timeout=60)
    seen = first
    try:
        while select.select([leader], [], [], 0.2)[0]:
            seen += os.read(leader, 4096)
    except OSError:
        pass
    os.close(leader)
    return first, status, seen


def test_long_work_shows_progress_and_stops_on_ctrl_c():
    """Each run is far longer than any machine takes to start it (a hundred million games, a chain of
    millions of states), so its first words on a terminal come while it works: the progress bar,
    which ``Progress`` draws once a second of work has passed (the test below holds that with a fake
    clock); Ctrl-C then ends it with one line."""
    for args, label in ((["simulate", "--games", "100000000"], b"simulating"),
                        (["simulate", "--game", "palaces", "--players", "4", "--games", "1000000"], b"simulating"),
                        (["odds", "--model", "multi", "--set", "witch=500", "--games", "1000000"], b"solving"),
                        (["odds", "--set", "witch=14"], b"solving"),
                        # the exact odds, the long work, are the designer's sheet's since issue 22
                        (["rulebook", "--lang", "ru+en", "--set", "witch=14", "--designer", "--out", os.devnull],
                         b"solving")):
        first, status, seen = first_stderr_under_a_terminal(args)
        assert label + b"  [" in first, (args, seen)  # the bar: its label, then its track
        assert status in (130, 0), (args, status, seen)
        assert b"Traceback" not in seen and b"toolkit: interrupted" in seen, (args, seen)


def test_the_bar_comes_once_a_second_of_work_has_passed(monkeypatch, capsys):
    from toolkit.cli import options

    now = [0.0]
    monkeypatch.setattr(options.time, "monotonic", lambda: now[0])
    progress = options.Progress(100, "simulating", enabled=True)
    now[0] = 0.9
    progress(1)
    assert capsys.readouterr().err == ""  # under a second: no bar
    now[0] = 1.1
    progress(1)
    progress.close()
    assert "simulating" in capsys.readouterr().err
