"""What each command costs before its real work, beside a bare ``python -c pass`` measured in the
same rounds, and which heavy libraries its whole run imports.

    python benchmarks/bench_startup.py [--runs 7] [--beside TREE] [--bytecode]
    python benchmarks/bench_startup.py --first-game [--runs 1] [--beside TREE]

Every command of ``toolkit --help`` runs on a small input in a fresh interpreter, as the console
script starts it (``toolkit.entry.run``), twice a round:

* stopped where the command's own work begins (its function is called: the options are parsed, the
  interpreter has started and the command line is imported), which is the start-up a user waits
  for whatever the command then does; ``--version`` and ``--help`` have no further work, so that is
  their whole run;
* whole, as a user runs it.

The figures are wall-clock ms, the median over the rounds and (in brackets) the fastest round; the
rounds interleave every case, so a busy machine slows them alike, and the fastest round is the
figure least disturbed by other work on the machine. The libraries column lists the heavy ones the
whole run imported (from ``python -X importtime``, once): a command that needs a library only for
some of its work (matplotlib for ``--plot``) should not load it when it
does not do that work. The load average is printed before and after: compare runs made under like
loads.

``--beside TREE`` also runs every case from another copy of the source (a folder holding a
``toolkit`` package, e.g. ``git archive HEAD~3 toolkit card_art | tar -x -C /tmp/old``) in the same
rounds, so that two versions are compared under the same load.

``--first-game`` measures instead what a fresh install's first simulation costs: each command of
``FIRST_GAME`` (the first ``simulate`` of each game, with its default number of games) runs whole in a
fresh interpreter with an empty numba cache (a new ``NUMBA_CACHE_DIR`` each round), then once more with
that cache (warm: the kernel is loaded, not compiled). For the first run: the wall-clock seconds until
its first game was played (the first time the run tells its progress bar of games played: its first
batch of records exists; the bar's own delay before it is drawn does not count), the whole run's
wall-clock seconds and the CPU seconds it used, its children included (on a busy machine the wall clock
waits for other work, the CPU time much less so); for the warm run its wall-clock seconds. With
``--beside`` both versions run in the same rounds.

Python compiles a module's source at every import unless it may keep the bytecode: with
``PYTHONDONTWRITEBYTECODE`` set (as in some sandboxes) the toolkit's own modules are compiled at
every start, an installed toolkit's are not. The header says which; ``--bytecode`` keeps the
bytecode in a temporary folder (``PYTHONPYCACHEPREFIX``; the first round writes it) to time the
start as installed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

# The small inputs: {tmp} is a fresh folder for what the commands write.
COMMANDS = [
    ["--version"],
    ["--help"],
    ["catalogue"],
    ["art", "--game", "palaces", "--out-dir", "{tmp}/art"],
    ["print-cards", "--calibration", "--out", "{tmp}/calibration.pdf"],
    ["print-cards", "--no-aids", "--out", "{tmp}/cards.pdf"],
    ["export-cards", "--target", "tts", "--out", "{tmp}/tts"],
    ["preflight", "{tmp}/cards.pdf", "--target", "mpc"],
    ["rulebook", "--out", "{tmp}/rules.pdf"],
    ["simulate", "--games", "1"],
    ["odds"],
    ["odds", "--model", "draws", "--pile", "witch=1,diamond=1"],
    ["odds", "--game", "palaces"],
    ["analyse", "--players", "2", "--precision", "0.25", "--max-games", "1000"],
    ["sweep", "--set", "witch=5,6", "--players", "2", "--games", "10", "--out", "{tmp}/sweep"],
    ["studio", "--help"],  # the studio serves until Ctrl-C: its start to the page is benchmarks/bench_studio.py's
]
# The first simulation of each game (--first-game), with the default number of games.
FIRST_GAME = [
    ["simulate", "--game", "palaces", "--players", "4"],
    ["simulate"],
]
# Libraries worth naming when a run imports them (each costs tens of ms or more).
HEAVY = ("numpy", "numba", "dask", "matplotlib", "reportlab", "PIL", "pypdf", "fontTools", "gmpy2",
         "flint", "babel", "importlib.metadata")

# Runs the command line as the console script does; with "stop", ends the process (status 0) at the
# moment the command's own function would be called; with "first", writes "first game played at
# <time.time()>" on stderr when the run first tells its progress bar of games played.
DRIVER = """
import sys
if sys.argv[1] == "first":
    import os
    import time

    from toolkit.cli.options import Progress

    tell = Progress.__call__

    def first_told(self, n):
        if not getattr(Progress, "told_once", False):
            Progress.told_once = True
            os.write(2, f"first game played at {time.time()}\\n".encode())
        tell(self, n)

    Progress.__call__ = first_told
if sys.argv[1] == "stop":
    import os
    import click

    invoke = click.Command.invoke

    def stop_at_work(self, ctx):
        if isinstance(self, click.Group):
            return invoke(self, ctx)
        sys.stdout.flush()
        os._exit(0)

    click.Command.invoke = stop_at_work
sys.argv = ["toolkit", *sys.argv[2:]]
from toolkit.entry import run
run()
"""


def wall_ms(argv: list[str], cwd: str, env: dict | None = None) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env)
    took = (time.perf_counter() - started) * 1000
    if done.returncode not in (0, 1):  # preflight's failed checks end with 1; 2 is a usage error
        raise SystemExit(f"{' '.join(argv[3:])}: exit {done.returncode}: {done.stderr.strip()}")
    return took


def heavy_imports(stderr: str) -> list[str]:
    """The HEAVY libraries among the modules ``-X importtime`` says the run imported."""
    seen = {line.split("|")[-1].strip() for line in stderr.splitlines() if line.startswith("import time:")}
    return [name for name in HEAVY if name in seen]


def ms(times: list[float]) -> str:
    return f"{statistics.median(times):.0f} ({min(times):.0f})"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def first_runs(command: list[str], cwd: str, env: dict) -> tuple[float, float, float, float]:
    """Seconds until the first game was played, whole run and CPU of a first ``command`` with an empty
    numba cache; and the wall-clock seconds of a second run with the cache the first one left."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**env, "NUMBA_CACHE_DIR": cache}
        before = os.times()
        started, clock = time.perf_counter(), time.time()
        done = subprocess.run([sys.executable, "-c", DRIVER, "first", *command], capture_output=True, text=True,
                              cwd=cwd, env=env)
        took = time.perf_counter() - started
        after = os.times()
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
        first = float(done.stderr.split("first game played at ", 1)[1].split()[0]) - clock
        warm = wall_ms([sys.executable, "-c", DRIVER, "whole", *command], cwd, env) / 1000
    return first, took, (after.children_user - before.children_user) + (after.children_system - before.children_system), warm


def first_game(runs: int, versions: dict[str, dict]) -> None:
    """The ``--first-game`` table: each command of ``FIRST_GAME``, a first run with an empty numba cache
    and a second one with the cache it left, per version, the rounds interleaved."""
    print(f"{os.cpu_count()} cores; load average {load()} (1, 5, 15 min) before; an empty numba cache every round")
    figures = {(v, i): [] for v in versions for i in range(len(FIRST_GAME))}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            for i, command in enumerate(FIRST_GAME):
                for v, env in versions.items():
                    figures[v, i].append(first_runs(command, tmp, env))
    print(f"{'command':<50} {'first game played s':>20} {'whole run s':>12} {'CPU s':>12} {'warm run s':>12}")
    for i, command in enumerate(FIRST_GAME):
        for v in versions:
            shown = v + "toolkit " + " ".join(command)
            columns = list(zip(*figures[v, i]))
            print(f"{shown:<50} " + " ".join(f"{statistics.median(c):>{w - 6}.1f} ({min(c):>3.1f})"
                                            for c, w in zip(columns, (20, 12, 12, 12))))
    print(f"median (fastest) of {runs} round(s); load average {load()} after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, help="Rounds (default 7; 1 with --first-game).")
    parser.add_argument("--beside", metavar="TREE", help="Also time the toolkit package in this folder.")
    parser.add_argument("--bytecode", action="store_true", help="Keep compiled bytecode, as an installed toolkit does.")
    parser.add_argument("--first-game", action="store_true",
                        help="Time the first simulation of each game with an empty numba cache (compile included).")
    args = parser.parse_args()
    if args.first_game:
        versions = {"": dict(os.environ)}
        if args.beside:
            versions["beside: "] = {**os.environ, "PYTHONPATH": os.path.abspath(args.beside)}
        first_game(args.runs or 1, versions)
        return
    args.runs = args.runs or 7
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if args.bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "bytecode")
        # the versions timed: this interpreter's own toolkit, and the one in --beside (first on its path)
        versions = {"": env}
        if args.beside:
            versions["beside: "] = {**env, "PYTHONPATH": os.path.abspath(args.beside)}
        kept = "kept" if not env.get("PYTHONDONTWRITEBYTECODE") else "not kept (PYTHONDONTWRITEBYTECODE)"
        print(f"{os.cpu_count()} cores; load average {load()} (1, 5, 15 min) before; bytecode {kept}")
        python = sys.executable
        start = {(v, i): [] for v in versions for i in range(len(COMMANDS))}
        whole = {(v, i): [] for v in versions for i in range(len(COMMANDS))}
        libraries = {}
        commands = [[arg.format(tmp=tmp) for arg in command] for command in COMMANDS]
        bare = []
        for _ in range(args.runs):
            bare.append(wall_ms([python, "-c", "pass"], tmp, env))
            for i, command in enumerate(commands):
                for v, version_env in versions.items():
                    start[v, i].append(wall_ms([python, "-c", DRIVER, "stop", *command], tmp, version_env))
                    whole[v, i].append(wall_ms([python, "-c", DRIVER, "whole", *command], tmp, version_env))
        for v, version_env in versions.items():
            for i, command in enumerate(commands):
                libraries[v, i] = heavy_imports(subprocess.run(
                    [python, "-X", "importtime", "-c", DRIVER, "whole", *command], capture_output=True, text=True,
                    cwd=tmp, env=version_env).stderr)
    print(f"python -c pass: {ms(bare)} ms (median (fastest) of {args.runs} rounds)")
    print(f"{'command':<70} {'start + imports before work ms':>30} {'whole run ms':>13}  libraries the run imports")
    for i, command in enumerate(COMMANDS):
        for v in versions:
            shown = v + "toolkit " + " ".join(arg.replace("{tmp}/", "") for arg in command)
            print(f"{shown:<70} {ms(start[v, i]):>30} {ms(whole[v, i]):>13}  {', '.join(libraries[v, i]) or '-'}")
    print(f"load average {load()} after")


if __name__ == "__main__":
    main()
