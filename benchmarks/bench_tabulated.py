"""Rules files played from a table (``toolkit.rules.table``) against the Python loop, side by side: the plain
dice battle (``benchmarks/games/dice_battle.py``, five dice: a fresh list of 7,776 outcomes at every throw, no ``key()``),
Pig and Chutes and Ladders, each ``simulate --rules`` as a whole command.

``--before PATH`` names a checkout of the toolkit without the table (e.g. a ``git worktree`` of main): its
rows run that code (``PYTHONPATH=PATH``). The Python loop plays the dice battle at about 30 ms a game, so
``--before-games`` plays fewer of its games and scales the time to ``--games`` (the row says so).

Each row gives the wall time, the CPU time of the command and its children, and when its first line on
stderr came (the progress line). The machine may be shared: the load average is printed with the rows.

    python benchmarks/bench_tabulated.py [--games 20000] [--before ../main] [--before-games 200]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATTLE = ROOT / "benchmarks" / "games" / "dice_battle.py"
PIG = ROOT / "examples" / "pig" / "pig.py"
CHUTES = ROOT / "examples" / "chutes" / "chutes.py"


def run(args: list[str], code: Path | None) -> tuple[float, float, float | None, int]:
    """(wall seconds, CPU seconds, seconds to the first stderr line or None, exit status) of one command."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "toolkit", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=env, cwd=code or ROOT)
    first: list[float] = []

    def watch() -> None:
        for _ in child.stderr:
            if not first:
                first.append(time.monotonic() - began)

    reader = threading.Thread(target=watch, daemon=True)
    reader.start()
    child.wait()
    reader.join()
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, first[0] if first else None, child.returncode


def row(name: str, args: list[str], code: Path | None, games: int, scale_to: int) -> str:
    wall, cpu, first, status = run([*args, "--games", str(games)], code)
    if status:
        return f"{name}: FAILED (exit {status})"
    factor = scale_to / games
    scaled = f" ({games:,} games played, times x{factor:g})" if factor != 1 else ""
    line = "none" if first is None else f"{first:.1f} s"
    return f"{name}: {wall * factor:.1f} s wall, {cpu * factor:.1f} s CPU{scaled}; first stderr line: {line}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--before", type=Path, help="a checkout of the toolkit without the table")
    parser.add_argument("--before-games", type=int, default=200, help="dice-battle games the Python loop plays")
    args = parser.parse_args()
    games = args.games
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores; {games:,} games a row, seed 1")
    run(["simulate", "--rules", str(CHUTES), "--games", "500"], None)  # numba's cache loaded once, unmeasured
    cases = [("dice battle (plain, 5 dice)", ["simulate", "--rules", str(BATTLE), "--seed", "1"], args.before_games),
             ("Pig, hold-at-20 both", ["simulate", "--rules", str(PIG), "--seed", "1"], games),
             ("Chutes and Ladders, 1 player", ["simulate", "--rules", str(CHUTES), "--seed", "1"], games)]
    for name, command, before_games in cases:
        if args.before is not None:
            print("before, " + row(name, command, args.before.resolve(), min(before_games, games), games), flush=True)
        print("after,  " + row(name, command, None, games, games), flush=True)


if __name__ == "__main__":
    main()
