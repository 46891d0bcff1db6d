"""A rules file is contained (issue 33): whatever its code does to the process running it (printing, ending
the process, hanging, dying in a worker, giving infinity, a value inside itself), the command ends as
every mistake of a rules file ends: one line naming the file, status 2, its own stdout whole, and no
process left behind. What involves the process itself runs ``python -m toolkit`` in a subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from test_rules_cli import GOOD

from toolkit.sim.records import PARALLEL_FROM

BASE = GOOD.lstrip("\n")  # the walk game of test_rules_cli, the one each test here breaks
LEGAL = "        return [1, 2]\n"
PARALLEL = str(PARALLEL_FROM)  # games enough for worker processes


def _file(tmp_path, old: str, new: str, name: str = "walk.py") -> Path:
    assert old in BASE
    path = tmp_path / name
    path.write_text(BASE.replace(old, textwrap.indent(textwrap.dedent(new), " " * (len(old) - len(old.lstrip())))))
    return path


def _line(path: Path, text: str) -> int:
    return 1 + next(n for n, line in enumerate(path.read_text().splitlines()) if text in line)


def _toolkit(tmp_path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=tmp_path)


def _one_line(status: int, stdout: str, stderr: str, *fragments: str) -> str:
    assert status == 2, (status, stdout, stderr)
    assert stdout == "" and "Traceback" not in stderr, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# --- 1. what the file prints goes to stderr, never into the command's output --------------------------------


@pytest.mark.parametrize("games", ["3", PARALLEL], ids=["in-process", "workers"])
def test_what_a_rules_file_prints_goes_to_stderr_and_json_stays_whole(tmp_path, games):
    path = _file(tmp_path, LEGAL, 'print("rolling", flush=True)\nsys.stdout.write("written\\n")\nreturn [1, 2]\n')
    path.write_text("import sys\nprint('loading')\n" + path.read_text())
    done = _toolkit(tmp_path, "simulate", "--rules", str(path), "--games", games, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == int(games)
    assert "loading" in done.stderr and "rolling" in done.stderr and "written" in done.stderr


def test_what_a_rules_file_prints_in_process_goes_to_stderr(run, tmp_path):
    path = _file(tmp_path, LEGAL, 'print("rolling")\nreturn [1, 2]\n')
    result = run("odds", "--rules", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    json.loads(result.stdout)
    assert "rolling" in result.stderr


# --- 2. ending the command from the file's code is a mistake of the file -------------------------------------


@pytest.mark.parametrize("code, said", [
    ("import sys; sys.exit(0)", "called sys.exit(0): a rules file must not end the command"),
    ("import os; os._exit(0)", "called os._exit(0): a rules file must not end the command"),
    ("raise KeyboardInterrupt", "raised KeyboardInterrupt: a rules file must not"),
], ids=["sys.exit", "os._exit", "KeyboardInterrupt"])
@pytest.mark.parametrize("games", ["3", PARALLEL], ids=["in-process", "workers"])
def test_ending_the_command_from_the_file_is_one_line(tmp_path, code, said, games):
    path = _file(tmp_path, LEGAL, code + "\n")
    done = _toolkit(tmp_path, "simulate", "--rules", str(path), "--games", games, "--json")
    _one_line(done.returncode, done.stdout, done.stderr,
              f"{path}:{_line(path, code)}: WalkState.legal_actions() on state {{'at': 0}}: {said}")


def test_ending_the_command_while_the_file_loads_is_one_line(tmp_path):
    path = tmp_path / "walk.py"
    path.write_text("import sys\nsys.exit(3)\n" + BASE)
    done = _toolkit(tmp_path, "simulate", "--rules", str(path), "--games", "3")
    _one_line(done.returncode, done.stdout, done.stderr, f"{path}:2: loading --rules {path}: called sys.exit(3)")


# --- 3. a worker that dies ----------------------------------------------------------------------------------


def test_a_worker_that_dies_is_one_line_with_its_signal(tmp_path):
    path = _file(tmp_path, LEGAL, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)\n")
    done = _toolkit(tmp_path, "simulate", "--rules", str(path), "--games", PARALLEL)
    _one_line(done.returncode, done.stdout, done.stderr,
              f"{path}: a worker process playing the rules file died (killed by signal SIGKILL)")


def test_a_worker_that_ends_itself_below_python_is_one_line_with_its_exit_code(tmp_path):
    path = _file(tmp_path, LEGAL, "import ctypes; ctypes.CDLL(None)._exit(7)\n")
    done = _toolkit(tmp_path, "simulate", "--rules", str(path), "--games", PARALLEL)
    _one_line(done.returncode, done.stdout, done.stderr,
              f"{path}: a worker process playing the rules file died (exit code 7)")


# --- 4. a call that never returns ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["import time; time.sleep(10**6)", "while True: pass",
                                  "while True:\n    try:\n        pass\n    except Exception:\n        pass"],
                         ids=["sleep", "loop", "loop-catching-exceptions"])
@pytest.mark.parametrize("games", ["3", PARALLEL], ids=["in-process", "workers"])
def test_a_call_that_hangs_is_stopped_after_the_timeout(tmp_path, code, games):
    path = _file(tmp_path, LEGAL, code + "\n")
    start = time.monotonic()
    done = _toolkit(tmp_path, "simulate", "--rules", str(path), "--games", games, "--rules-timeout", "1", timeout=60)
    assert time.monotonic() - start < 30
    line = _one_line(done.returncode, done.stdout, done.stderr,
                     ": WalkState.legal_actions() on state {'at': 0}: still running after 1 s (the limit of a call; "
                     "--rules-timeout SECONDS sets it)")
    first = _line(path, code.splitlines()[0])  # where the file's code was when it was stopped: in the loop
    assert any(line.startswith(f"toolkit: error: {path}:{first + n}: ") for n in range(len(code.splitlines()))), line


def test_a_file_that_hangs_while_loading_is_stopped(run, tmp_path):
    path = tmp_path / "walk.py"
    path.write_text("while True: pass\n" + BASE)
    result = run("odds", "--rules", str(path), "--rules-timeout", "0.5")
    assert result.exit_code == 2 and result.stderr.startswith(f"toolkit: error: {path}:1: loading --rules {path}: "
                                                              "still running after 0.5 s"), result.stderr


@pytest.mark.parametrize("args, said", [
    (["--rules-timeout", "1"], "--rules-timeout 1: the limit is for a --rules game: give --rules too"),
    (["--rules", "{path}", "--rules-timeout", "soon"], "--rules-timeout soon: expected a number of seconds"),
    (["--rules", "{path}", "--rules-timeout", "-1"], "--rules-timeout -1: expected a number of seconds"),
])
def test_the_timeout_option_is_checked(run, tmp_path, args, said):
    path = _file(tmp_path, LEGAL, LEGAL)
    result = run("simulate", "--games", "3", *(arg.format(path=path) for arg in args))
    assert result.exit_code == 2 and result.stderr.startswith(f"toolkit: error: {said}"), result.stderr
    assert len(result.stderr.splitlines()) == 1


# --- 5. no process outlives the command ---------------------------------------------------------------------


@pytest.mark.parametrize("stop, status, said", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
                         ids=["SIGTERM", "SIGINT"])
def test_stopping_the_command_stops_its_workers_stuck_in_the_file(tmp_path, stop, status, said):
    marks = tmp_path / "marks"
    marks.mkdir()
    path = _file(tmp_path, LEGAL, f"import os, time\nopen(os.path.join({str(marks)!r}, str(os.getpid())), 'w').close()\n"
                                  "time.sleep(10**6)\n")
    command = subprocess.Popen([sys.executable, "-m", "toolkit", "simulate", "--rules", str(path), "--games", PARALLEL],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    children = []
    try:
        deadline = time.monotonic() + 60
        while not list(marks.iterdir()) and time.monotonic() < deadline:  # a worker asleep in the file (a table: one)
            time.sleep(0.1)
        children = psutil.Process(command.pid).children(recursive=True)
        assert {int(mark.name) for mark in marks.iterdir()} <= {child.pid for child in children}
        command.send_signal(stop)
        out, err = command.communicate(timeout=30)
        assert command.returncode == status and out == "" and err == f"toolkit: {said}\n", err
        deadline = time.monotonic() + 10
        alive = children
        while alive and time.monotonic() < deadline:
            alive = [child for child in alive if _running(child)]
            time.sleep(0.1)
        assert not alive, [child.cmdline() for child in alive]
    finally:
        command.kill()
        for child in children:
            if _running(child):
                child.kill()


def _running(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE  # an orphan's zombie waits for its new parent to reap it
    except psutil.NoSuchProcess:
        return False


# --- 6. infinity ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["simulate", "odds"])
@pytest.mark.parametrize("value", ["float('inf')", "-float('inf')"])
def test_an_infinite_return_is_one_line(run, tmp_path, command, value):
    path = _file(tmp_path, "        return [1]\n", f"return [{value}]\n")
    result = run(command, "--rules", str(path), *(["--games", "3"] if command == "simulate" else []))
    _one_line(result.exit_code, result.stdout, result.stderr,
              f"{path}:{_line(path, 'def returns')}: WalkState.returns() on state {{'at': 3}}: gave "
              f"{float(eval(value))!r}: a return is a finite number")


@pytest.mark.parametrize("value", ["float('inf')", "float('nan')"])
def test_an_infinite_score_is_one_line(run, tmp_path, value):
    pig = Path(__file__).resolve().parent.parent / "examples" / "pig" / "pig.py"
    path = tmp_path / "pig.py"
    method = "    def score(self, player):\n"
    path.write_text(pig.read_text().replace(method, f"{method}        return {value} if player else 0\n"))
    result = run("simulate", "--rules", str(path), "--games", "3")
    _one_line(result.exit_code, result.stdout, result.stderr,
              f"{path}:{_line(path, 'def score')}: PigState.score() on state ",
              f": gave {float(eval(value))!r} for player 1: a score is a finite number")


# --- 7. the default key of a state holding a value inside itself --------------------------------------------


@pytest.mark.parametrize("setup, said", [
    ("self.seen = []; self.seen.append(self.seen)", "its attribute 'seen' (a list that holds itself)"),
    ("self.seen = {}; self.seen['me'] = self.seen", "its attribute 'seen' (a dict that holds itself)"),
], ids=["list", "dict"])
def test_a_default_key_over_a_value_inside_itself_is_one_line(run, tmp_path, setup, said):
    path = _file(tmp_path, "        self.at = 0\n", "self.at = 0\n" + setup + "\n")
    result = run("odds", "--rules", str(path))
    _one_line(result.exit_code, result.stdout, result.stderr,
              f"{path}:{_line(path, 'def __init__')}: WalkState on state ",
              f": the default key cannot freeze {said}: write a key() method")
