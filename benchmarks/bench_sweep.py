"""Wall time of a `toolkit sweep` on a Dask LocalCluster of 1 and of 2 workers, and that both give the same rows.

Run: python benchmarks/bench_sweep.py [--games N] [--workers 1,2] [--quick]

The sweep (by default the README's: 100 four-player Palaces configurations, towers 4..13 x floods
0..9, 100,000 games each) runs as the console command in a fresh process per worker count, so each
time includes starting the cluster and every worker's first call of the compiled kernel. The CSV of
every run must be the same bytes; the script says so or fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRID = ("--game", "palaces", "--set", "tower=4..13", "--set", "flood=0..9", "--players", "4")
WARM = ("--game", "palaces", "--players", "4")
QUICK = ("--game", "palaces", "--set", "tower=6..7", "--set", "flood=3..4", "--players", "4")


def sweep(args: tuple[str, ...], games: int, workers: int, out: Path) -> float:
    command = [sys.executable, "-m", "toolkit", "sweep", *args, "--games", str(games), "--workers", str(workers),
               "--metric", "balance,mean_rounds,completion", "--out", str(out)]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per configuration [default 100,000; --quick: 2,000]")
    parser.add_argument("--workers", default="1,2", help="worker counts to time, comma-separated")
    parser.add_argument("--quick", action="store_true", help="4 configurations instead of 100")
    options = parser.parse_args()
    args = QUICK if options.quick else GRID
    games = options.games or (2_000 if options.quick else 100_000)
    counts = [int(n) for n in options.workers.split(",")]
    configurations = 4 if options.quick else 100
    print(f"sweep: {' '.join(args)}: {configurations} configurations x {games:,} games, on {os.cpu_count()} cores")
    times, outputs = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        # one configuration first, so that the timed runs find numba's cache filled (a fresh machine
        # compiles the kernel once: that first-call cost is this line's time)
        warm = sweep(WARM, 2_000, 1, Path(folder) / "warm")
        print(f"  warm-up (1 configuration x 2,000 games, 1 worker, kernel compiled or loaded): {warm:.1f} s")
        for workers in counts:
            out = Path(folder) / f"w{workers}"
            times[workers] = sweep(args, games, workers, out)
            outputs[workers] = out.with_suffix(".csv").read_bytes()
            rate = configurations * games / times[workers]
            print(f"  {workers} worker(s): {times[workers]:8.1f} s  ({rate:,.0f} games/s, "
                  f"{times[counts[0]] / times[workers]:.2f}x the {counts[0]}-worker time)")
    same = len(set(outputs.values())) == 1
    print(f"  rows of every run the same bytes: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
