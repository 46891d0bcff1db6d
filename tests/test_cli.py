"""The command line through click's runner and as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import builtin_doc, write_catalogue


def test_version_and_help(run):
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("toolkit, version ")
    result = run("--help")
    assert result.exit_code == 0
    assert "catalogue" in result.stdout and "art" in result.stdout
    assert "not implemented" not in result.stdout.lower()


def test_catalogue_table_in_both_languages(run):
    en = run("catalogue")
    assert en.exit_code == 0
    assert "Witch" in en.stdout and "total: 54" in en.stdout
    ru = run("catalogue", "--lang", "ru", "--game", "palaces")
    assert ru.exit_code == 0
    assert "Наводнение" in ru.stdout and "всего: 70" in ru.stdout


def test_catalogue_json_shape(run):
    result = run("catalogue", "--json", "--set", "witch=8")
    data = json.loads(result.stdout)
    assert data["game"] == "diamoniak" and data["total"] == 55
    witch = next(card for card in data["cards"] if card["id"] == "witch")
    assert witch == {"id": "witch", "kind": "witch", "colour": None, "count": 8,
                     "name": {"ru": "Ведьма", "en": "Witch"}}
    assert set(data["cards"][0]) == {"id", "kind", "colour", "count", "name"}


def test_user_catalogue_through_the_cli(run, tmp_path):
    doc = builtin_doc("palaces")
    doc["cards"][-1]["count"] = 1
    path = write_catalogue(tmp_path, doc)
    data = json.loads(run("catalogue", "--catalogue", str(path), "--json").stdout)
    assert data["game"] == "palaces" and data["total"] == 67


def test_user_errors_are_one_line_and_exit_2(run, tmp_path):
    doc = builtin_doc("diamoniak")
    doc["cards"][2]["count"] = -4
    path = write_catalogue(tmp_path, doc)
    cases = [
        (["catalogue", "--catalogue", str(path)], "mine.toml: cards[2].count: expected a whole number from 0 to 500, got -4"),
        (["catalogue", "--set", "goblin=2"], "--set goblin=2: no card with id 'goblin'"),
        (["catalogue", "--set", "witch=many"], "--set witch=many: the count must be a whole number"),
        (["catalogue", "--game", "chess"], "Invalid value for '--game'"),
        (["catalogue", "--lang", "de"], "--lang de: 'diamoniak.toml' has no such language (its languages: en, ru)"),
        (["catalogue", "--catalogue", str(tmp_path / "none.toml")], "none.toml: cannot read the catalogue"),
        (["no-such-command"], "No such command"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
        assert message in lines[0]


def test_the_installed_console_script_runs_without_a_traceback():
    result = subprocess.run([sys.executable, "-m", "toolkit", "catalogue", "--set", "x=1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def one_error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
    return lines[0]


def test_no_command_prints_the_help_and_succeeds(run):
    result = run()
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("Usage: ") and "print-cards" in result.stdout


def test_click_errors_are_one_line_naming_the_command_once(run):
    line = one_error_line(run("export-cards"))
    assert line == "toolkit: error: export-cards: Missing option '--target'. Choose from: tgc, mpc, drivethru, tabletopia, screentop, tts, png, pdf-single"
    line = one_error_line(run("simulate", "--games", "0"))
    assert line.startswith("toolkit: error: simulate: Invalid value for '--games'")


def test_options_that_would_be_ignored_or_mean_the_default_are_refused(run, tmp_path):
    path = write_catalogue(tmp_path, builtin_doc("palaces"))
    line = one_error_line(run("catalogue", "--game", "diamoniak", "--catalogue", str(path)))
    assert "--game and --catalogue" in line
    assert run("catalogue", "--catalogue", str(path)).exit_code == 0
    for args in (["print-cards", "--out", ""], ["rulebook", "--out", " "], ["export-cards", "--target", "png", "--out", ""],
                 ["art", "--out-dir", ""], ["catalogue", "--catalogue", ""]):
        assert "the path is empty" in one_error_line(run(*args)), args


def test_a_full_device_on_stdout_or_as_the_output_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "toolkit", "catalogue"], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "toolkit: error: cannot write to standard output: No space left on device\n"
    done = subprocess.run([sys.executable, "-m", "toolkit", "print-cards", "--out", "/dev/full"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "toolkit: error: /dev/full: cannot write here: No space left on device\n"


def test_a_full_disk_ends_print_cards_with_one_line_and_no_file(tmp_path):
    from test_files import full_filesystem

    with full_filesystem(tmp_path / "disk") as disk:
        done = subprocess.run([sys.executable, "-m", "toolkit", "print-cards", "--out", str(disk / "cards.pdf")],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.endswith("cards.pdf: cannot write here: No space left on device\n")
        assert done.stderr.count("\n") == 1
        assert list(disk.iterdir()) == []


def _handlers_installed(pid: int) -> bool:
    """Whether the process catches SIGTERM, which Python leaves alone and toolkit.entry catches first
    thing: before that, Ctrl-C lands in Python's own start-up, out of the toolkit's hands."""
    import signal

    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)))
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the signal mask from /proc")
def test_ctrl_c_while_starting_or_working_is_one_line_and_status_130():
    import signal
    import time

    for delay in (0.0, 0.3):  # while the command's modules load, and while it works
        process = subprocess.Popen([sys.executable, "-m", "toolkit", "odds", "--set", "witch=9"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not _handlers_installed(process.pid) and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 130, (delay, err)
        assert err == "toolkit: interrupted\n" and out == ""


def test_an_option_given_twice_is_refused_not_overridden(run):
    cases = [
        (["odds", "--model", "multi", "--policy", "stop-after-2", "--policy", "never-buy"],
         "--policy never-buy: every seat not named has a policy already (--policy stop-after-2)"),
        (["odds", "--model", "draws", "--pile", "witch=3", "--pile", "diamond=2"], "--pile and --pile"),
        (["print-cards", "--paper", "a4", "--paper=letter"], "--paper and --paper"),
        (["catalogue", "--set", "witch=3", "--set", "witch=4"], "the count of 'witch' is set twice"),
    ]
    for args, message in cases:
        assert message in one_error_line(run(*args)), args
    assert run("catalogue", "--set", "witch=3", "--set", "fairy=4").exit_code == 0  # repeatable options stay so


def test_numbers_are_ascii_digits_only(run):
    for args in (["simulate", "--games", "١٠"], ["simulate", "--players", "٢"], ["simulate", "--seed", "٥"],
                 ["odds", "--model", "multi", "--max-states", "١٠٠"], ["print-cards", "--bleed", "٣"],
                 ["print-cards", "--gutter", "nan"], ["print-cards", "--card", "٦٣x٨٨"], ["print-cards", "--card", "nanx5"]):
        line = one_error_line(run(*args))
        assert "digits" in line or "millimetres" in line, (args, line)
    assert run("simulate", "--games", "3", "--seed", "+3").exit_code == 0


def test_help_or_version_to_a_full_device_and_a_closed_stdout_are_one_line():
    for args in (["--help"], [], ["--version"], ["catalogue", "--help"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "toolkit", *args], stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr == "toolkit: error: cannot write to standard output: No space left on device\n", args
    done = subprocess.run(f"{sys.executable} -m toolkit catalogue >&-", shell=True, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "standard output is closed" in done.stderr


def test_first_palace_takes_no_plot_whatever_the_deck(run, tmp_path):
    line = one_error_line(run("odds", "--game", "palaces", "--model", "first-palace", "--plot", str(tmp_path / "x.png")))
    assert "--plot" in line and list(tmp_path.iterdir()) == []


@pytest.mark.real_progress
def test_long_work_off_a_terminal_says_how_far_it_has_come_in_one_line(monkeypatch):
    from toolkit.cli import options

    clock = iter([0.0, 1.0, 4.0, 5.0, 9.0])
    monkeypatch.setattr(options.time, "monotonic", lambda: next(clock))
    lines = []
    monkeypatch.setattr(options.click, "echo", lambda text, err=False: lines.append((text, err)))
    progress = options.Progress(100, "simulating", enabled=False)
    progress(10)  # 1 s: nothing yet
    progress(15)  # 4 s: one line
    progress(25)  # 5 s: nothing more
    assert lines == [("toolkit: note: simulating: 25% done after 4 s, about 12 s to go", True)]
