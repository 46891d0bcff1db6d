"""The first games played while the kernel compiles in a child process (``toolkit.sim.ahead``): the same
records and the same output as a run all in the kernel or all in the engine, and the child ends with the
command. The kernels are compiled (conftest): a kernel "not compiled yet" is one ``_loads`` says is not."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from toolkit.catalogue import load
from toolkit.games.registry import make_game
from toolkit.sim import ahead, records
from toolkit.sim.play import engine_batch
from toolkit.sim.records import play_records, record_batches
from toolkit.seats import builtin_players


def not_compiled_at_first(monkeypatch) -> None:
    """The kernel is not in numba's cache when the run starts (later looks find it: the child put it there)."""
    looks = []
    real = records._loads

    def loads(module, game, policies):
        looks.append(module)
        return len(looks) > 1 and real(module, game, policies)

    monkeypatch.setattr(records, "_loads", loads)


class Child:
    """A child compiling for ``looks`` looks at it, then done (``status`` 0) or failed."""

    made: list[Child] = []

    def __init__(self, looks: int, status: int):
        self.looks, self.status, self.child, self.ended = looks, status, self, None
        Child.made.append(self)

    def running(self) -> bool:
        self.looks -= 1
        return self.looks >= 0

    def succeeded(self) -> bool:
        return self.status == 0

    def wait(self, seconds: float) -> None:
        pass

    def stop(self) -> None:
        self.ended = "stopped"

    def finish_at_exit(self) -> None:
        self.ended = "finished"


def joined(batches) -> tuple[dict[str, np.ndarray], list[int]]:
    parts = list(batches)
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}, [len(p["turns"]) for p in parts]


@pytest.mark.parametrize("game_id, players, status", [("palaces", 3, 0), ("diamoniak", 2, 0), ("diamoniak", 2, 1)])
def test_a_run_that_switches_part_way_plays_the_same_games(game_id, players, status, monkeypatch):
    """Three batches by the engine while the child compiles, then the kernel (or, the child failed, the
    kernel compiled here): records equal game by game to a run all in the kernel and one all in the engine."""
    game = make_game(load(game_id, require_art=False), players)
    policies = builtin_players(game_id, players)
    not_compiled_at_first(monkeypatch)
    Child.made = []
    monkeypatch.setattr(ahead, "Compile", lambda kernel, game, policies: Child(3, status))
    with record_batches(game, policies, 5, 100, 30) as batches:
        switched, sizes = joined(batches)
    assert sizes == [records.STEP] * 3 + [30, 22] and Child.made[0].ended == "finished"
    kernel = play_records(game, policies, 5, 0, 100)
    engine = engine_batch(game, policies, 5, 0, 100)
    for name in kernel:
        assert np.array_equal(switched[name], kernel[name]) and np.array_equal(switched[name], engine[name]), name


def test_an_interrupted_run_stops_the_child(monkeypatch):
    """Ctrl-C in the middle of the engine's games ends the child (a real one) before the run gives up."""
    from toolkit.sim.simulate import simulate

    not_compiled_at_first(monkeypatch)
    made = []
    real = ahead.Compile
    monkeypatch.setattr(ahead, "Compile", lambda *args: made.append(real(*args)) or made[-1])

    def interrupt(n):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(load("diamoniak", require_art=False), players=2, games=5000, seed=1, progress=interrupt)
    assert made[0].child.returncode not in (None, 0)


def test_the_cli_output_is_the_same_whichever_plays_the_games(run, monkeypatch):
    """A real child (it finds the kernel in numba's cache and ends within seconds, long before the engine
    would have played every game) and the engine playing meanwhile: the same JSON as all in the kernel
    (``test_simulate`` holds the kernel to the engine); and no child when the kernel is compiled."""
    made = []
    real = ahead.Compile
    monkeypatch.setattr(ahead, "Compile", lambda *args: made.append(real(*args)) or made[-1])
    args = ("simulate", "--game", "palaces", "--players", "2", "--games", "20000", "--seed", "4", "--json")
    kernel = run(*args)
    assert kernel.exit_code == 0 and made == [] and "preparing" not in kernel.stderr
    not_compiled_at_first(monkeypatch)
    switched = run(*args)
    assert switched.exit_code == 0 and made[0].child.returncode == 0
    assert "the first games are played meanwhile" in switched.stderr
    assert switched.stdout == kernel.stdout and json.loads(kernel.stdout)["games"] == 20000


def alive(pid: int) -> bool:
    """The process runs (it is not gone, nor a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_ctrl_c_or_sigterm_ends_the_command_and_its_compiling_child(signum, status, tmp_path):
    """A fresh machine (an empty numba cache): the child compiles; Ctrl-C or SIGTERM to the command ends
    both (the command as ``toolkit.entry`` says), and leaves no half-written file in the cache."""
    cache = tmp_path / "numba"
    command = subprocess.Popen([sys.executable, "-m", "toolkit", "simulate", "--game", "palaces", "--players", "4"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
                               env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    try:
        deadline = time.monotonic() + 60
        while not children(command.pid) and command.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        child = children(command.pid)
        assert child, command.stderr.read().decode()
        time.sleep(0.5)  # the child is importing and compiling, the command playing
        command.send_signal(signum)
        assert command.wait(30) == status
        deadline = time.monotonic() + 10
        while alive(child[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child[0])
    finally:
        command.kill()
        command.wait()
    assert not [path for path in cache.rglob("*") if ".tmp." in path.name]
