"""Issue 34's speed and memory targets, side by side in one run: one table of figure, measured, target, pass.

Every figure is a whole command run as a child process (start-up included), timed on the clock, with
its CPU time and peak memory (resident set) from ``os.wait4``, which counts the child's own workers.
Each ``--game`` command runs once untimed first, so that numba's cache holds its kernel:

* ``toolkit simulate --rules X`` against ``--game X`` for Diamoniak and Palaces at 2, 3 and 4 players,
  ``--games`` games each (3,000 by default; ``--full`` plays the issue's 400,000): the rules side at
  most 1.3 times the built-in side's time;
* the plain dice battle (``benchmarks/games/dice_battle.py``: a fresh list of 7,776 outcomes at every
  throw, no ``key()``), ``--dice-games`` games (20,000): at most 5 s, and the first progress line
  within 1 s;
* exact optimal play of coin pig (``benchmarks/games/coin.py``, 16,802 positions,
  ``toolkit odds --model optimal``): at most 2 s;
* optimal play of Pig to 100 (``bench_optimal.py --goal 100``, about 1.9 million positions): at most
  15 s and 1 GB at peak (``--no-pig`` leaves it out; ``--quick`` too).

A command still running after ``--timeout`` seconds is stopped and fails, with how far it got; a
simulation's progress lines give the share done, from which the whole run's time is estimated. With
fewer dice-battle games than 20,000 the time for 20,000 is estimated from the rate. The machine may be
shared: the CPU time beside each clock time shows how much of it was this work.

    python benchmarks/bench_pipeline.py [--games 3000] [--full] [--dice-games 20000] [--timeout 300]
        [--quick] [--no-pig] [--only simulate|dice|coin|pig ...]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
DICE_BATTLE = BENCHMARKS / "games" / "dice_battle.py"
COIN = BENCHMARKS / "games" / "coin.py"
TOOLKIT = (sys.executable, "-m", "toolkit")
FULL_GAMES = 400_000  # the simulate --rules diamoniak --players 4 run
DICE_TARGET_GAMES = 20_000
SIMULATE_RATIO, DICE_SECONDS, FIRST_NOTE, COIN_SECONDS, PIG_SECONDS, PIG_MB = 1.3, 5.0, 1.0, 2.0, 15.0, 1024
DONE = re.compile(r"(\d+)% done")
PARTS = ("simulate", "dice", "coin", "pig")  # the groups of rows, for --only


class Run(NamedTuple):
    """A finished (or stopped) command: clock and CPU seconds, peak resident MB, its output, how it ended."""
    wall: float
    cpu: float
    peak_mb: float
    out: str
    err: str
    timed_out: bool
    code: int
    first_err: float | None  # seconds until its first line on stderr (a note or a progress line)

    def share_done(self) -> float | None:
        """The last share done a progress line gave (0 to 1), or None."""
        found = DONE.findall(self.err)
        return int(found[-1]) / 100 if found else None


def run(command: list[str], timeout: float) -> Run:
    """``command`` run to its end or stopped after ``timeout`` seconds (its whole process group)."""
    began = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    out, err, first = [], [], []

    def read(stream, into, note_first):
        for line in stream:
            if note_first and not first:
                first.append(time.perf_counter() - began)
            into.append(line)

    readers = [threading.Thread(target=read, args=(child.stdout, out, False)),
               threading.Thread(target=read, args=(child.stderr, err, True))]
    for reader in readers:
        reader.start()
    timed_out = False
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - began > timeout:
            timed_out = True
            os.killpg(child.pid, signal.SIGKILL)  # the group this run started: the command and its workers
            pid, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.02)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, "".join(out), "".join(err),
               timed_out, child.returncode, first[0] if first else None)


def said(run_: Run) -> str:
    """Seconds on the clock (CPU) and peak memory, or how a stopped or failed command ended."""
    if run_.timed_out:
        share = run_.share_done()
        done = f", {100 * share:.0f}% done" if share is not None else ", no progress line yet"
        return f"stopped at {run_.wall:.0f} s{done}"
    if run_.code != 0:
        return f"FAILED (exit {run_.code}): {run_.err.strip().splitlines()[-1] if run_.err.strip() else ''}"
    return f"{run_.wall:.1f} s ({run_.cpu:.1f} s CPU, {run_.peak_mb:,.0f} MB)"


def whole_time(run_: Run) -> float | None:
    """The run's time, or for a stopped run its time estimated from the share done (None: not known)."""
    if run_.code != 0 and not run_.timed_out:
        return None
    if not run_.timed_out:
        return run_.wall
    share = run_.share_done()
    return run_.wall / share if share else None


def simulate_rows(games: int, timeout: float) -> list[tuple[str, str, str, bool]]:
    rows = []
    for game in ("diamoniak", "palaces"):
        for players in (2, 3, 4):
            common = ["simulate", "--players", str(players), "--games", str(games), "--seed", "1", "--json"]
            run([*TOOLKIT, *common, "--game", game], timeout)  # once before: numba's cache filled, the kernel's
            built_in = run([*TOOLKIT, *common, "--game", game], timeout)  # compile (in a child) not timed
            rules = run([*TOOLKIT, *common, "--rules", game], timeout)
            figure = f"simulate --rules {game} / --game {game}, {players} players, {games:,} games"
            base, slow = whole_time(built_in), whole_time(rules)
            if base is None or slow is None or built_in.timed_out:
                rows.append((figure, f"rules {said(rules)}; game {said(built_in)}", f"<= {SIMULATE_RATIO}x", False))
                continue
            ratio = slow / base
            about = "at least " if rules.timed_out and rules.share_done() is None else ""
            estimated = " (estimated)" if rules.timed_out else ""
            cpu = "" if rules.timed_out else f", {rules.cpu / built_in.cpu:.1f}x of CPU"
            rows.append((figure, f"{about}{ratio:.1f}x{estimated}{cpu}: rules {said(rules)}, game {said(built_in)}",
                         f"<= {SIMULATE_RATIO}x", ratio <= SIMULATE_RATIO and not rules.timed_out))
    return rows


def dice_rows(games: int, timeout: float) -> list[tuple[str, str, str, bool]]:
    battle = run([*TOOLKIT, "simulate", "--rules", str(DICE_BATTLE), "--games", str(games), "--seed", "1"], timeout)
    took = whole_time(battle)
    if took is None:
        measured, ok = said(battle), False
    else:
        for_target = took * DICE_TARGET_GAMES / games
        scaled = f"; about {for_target:.0f} s for {DICE_TARGET_GAMES:,}" if games != DICE_TARGET_GAMES else ""
        estimate = f" (whole run estimated {took:.0f} s)" if battle.timed_out else ""
        measured = f"{said(battle)}{estimate}{scaled}"
        ok = for_target <= DICE_SECONDS and not battle.timed_out
    first = battle.first_err
    return [(f"dice battle (plain file), {games:,} games", measured, f"<= {DICE_SECONDS:.0f} s for "
             f"{DICE_TARGET_GAMES:,}", ok),
            ("dice battle: first progress line", "none" if first is None else f"after {first:.1f} s",
             f"<= {FIRST_NOTE:.0f} s", first is not None and first <= FIRST_NOTE)]


def coin_rows(timeout: float) -> list[tuple[str, str, str, bool]]:
    coin = run([*TOOLKIT, "odds", "--rules", str(COIN), "--model", "optimal"], timeout)
    positions = re.search(r"at all ([\d,]+) states|over ([\d,]+) states", coin.out)
    count = f", {next(g for g in positions.groups() if g)} positions" if positions else ""
    ok = not coin.timed_out and coin.code == 0 and coin.wall <= COIN_SECONDS
    return [(f"coin pig optimal (exact){count}", said(coin), f"<= {COIN_SECONDS:.0f} s", ok)]


def pig_rows(timeout: float, goal: int = 100) -> list[tuple[str, str, str, bool]]:
    pig = run([sys.executable, str(BENCHMARKS / "bench_optimal.py"), "--goal", str(goal)], timeout)
    wins = re.search(r"seat 1's chance to win[^:]*: (.*)", pig.out)
    value = f"; seat 1 wins {wins.group(1).split(' = ')[-1]}" if wins else ""
    finished = not pig.timed_out and pig.code == 0
    return [(f"Pig to {goal} optimal: time", said(pig) + value, f"<= {PIG_SECONDS:.0f} s",
             finished and pig.wall <= PIG_SECONDS),
            (f"Pig to {goal} optimal: peak memory", f"{pig.peak_mb:,.0f} MB" + ("" if finished else " (stopped)"),
             f"<= {PIG_MB:,} MB", finished and pig.peak_mb <= PIG_MB)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3_000, help="games per simulate command (rules against game)")
    parser.add_argument("--full", action="store_true", help=f"the issue's size: {FULL_GAMES:,} games per simulate")
    parser.add_argument("--dice-games", type=int, default=DICE_TARGET_GAMES, help="games of the dice battle")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before a command is stopped (a fail)")
    parser.add_argument("--quick", action="store_true",
                        help="500 games a simulate, 500 dice-battle games, 120 s timeout, no Pig to 100")
    parser.add_argument("--no-pig", action="store_true", help="leave out Pig to 100")
    parser.add_argument("--only", action="append", choices=PARTS,
                        help="run only these rows (repeatable): --only coin --only pig for optimal play")
    args = parser.parse_args()
    parts = set(args.only or PARTS)
    games = FULL_GAMES if args.full else args.games
    dice_games, timeout = args.dice_games, args.timeout
    if args.quick:
        games, dice_games, timeout = 500, 500, min(timeout, 120)
    load = os.getloadavg()[0]
    print(f"issue 34's targets; {os.cpu_count()} cores, load average {load:.1f} at the start; "
          f"each command stopped after {timeout:.0f} s")
    rows = []
    if "simulate" in parts:
        rows += simulate_rows(games, timeout)
    if "dice" in parts:
        rows += dice_rows(dice_games, timeout)
    if "coin" in parts:
        rows += coin_rows(timeout)
    if "pig" in parts and not ((args.quick or args.no_pig) and not args.only):
        rows += pig_rows(timeout)
    width, wide = max(len(row[0]) for row in rows), max(len(row[1]) for row in rows)
    print(f"{'figure':{width}}  {'measured':{wide}}  {'target':16}  pass")
    for figure, measured, target, ok in rows:
        print(f"{figure:{width}}  {measured:{wide}}  {target:16}  {'yes' if ok else 'NO'}")
    print(f"{sum(row[3] for row in rows)} of {len(rows)} met; load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
