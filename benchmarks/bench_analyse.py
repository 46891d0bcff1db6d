"""The time of the default ``toolkit analyse --game palaces`` report, beside another version of the
source in the same rounds, and whether both print the same report.

    python benchmarks/bench_analyse.py --beside TREE [--runs 1] [-- ANALYSE OPTIONS]

``TREE`` is a folder holding another ``toolkit`` package, e.g. today's main:
``git archive main toolkit card_art | tar -x -C /tmp/old``. Every round runs the report once per
version, each in a fresh interpreter (``--json``, default options unless more are given after
``--``), the versions alternating so that a busy machine slows them alike; first each version plays a
small report once, so that numba's cache holds its kernels (the compile is not timed here:
``bench_startup.py --first-game`` times it). Printed: wall-clock and CPU seconds per version (the
median over the rounds and, in brackets, the fastest), the ratio of the medians, and whether the
two JSON reports are equal.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ANALYSE = ["analyse", "--game", "palaces", "--json"]
WARM = ["analyse", "--game", "palaces", "--players", "2", "--precision", "0.25", "--max-games", "1000"]


HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this tree: the folder holding toolkit/


def run(args: list[str], env: dict, cwd: str) -> tuple[float, float, str]:
    """(wall-clock s, CPU s, stdout) of one ``toolkit ARGS`` in a fresh interpreter started in ``cwd``
    (not in a source tree: ``python -m`` puts its folder first on the path, before PYTHONPATH)."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, check=False)
    took = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"toolkit {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()[-2000:]}")
    return took, (after.children_user - before.children_user) + (after.children_system - before.children_system), \
        done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beside", metavar="TREE", required=True, help="The other version's source folder.")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("options", nargs="*", help="More options of toolkit analyse (after --).")
    args = parser.parse_args()
    versions = {"this tree": {**os.environ, "PYTHONPATH": HERE},
                f"beside ({args.beside})": {**os.environ, "PYTHONPATH": os.path.abspath(args.beside)}}
    print(f"{os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} before")
    cwd = tempfile.mkdtemp(prefix="bench-analyse-")
    for env in versions.values():
        run(WARM, env, cwd)
    command = [*ANALYSE, *args.options]
    wall = {v: [] for v in versions}
    cpu = {v: [] for v in versions}
    reports = {}
    for _ in range(args.runs):
        for v, env in versions.items():
            took, used, out = run(command, env, cwd)
            wall[v].append(took)
            cpu[v].append(used)
            reports[v] = json.loads(out)
    print(f"toolkit {' '.join(command)}")
    for v in versions:
        print(f"  {v:<40} wall {statistics.median(wall[v]):7.1f} s ({min(wall[v]):.1f})"
              f"   CPU {statistics.median(cpu[v]):7.1f} s ({min(cpu[v]):.1f})")
    mine, other = (statistics.median(wall[v]) for v in versions)
    mine_cpu, other_cpu = (statistics.median(cpu[v]) for v in versions)
    print(f"  beside / this tree: {other / mine:.2f}x wall, {other_cpu / mine_cpu:.2f}x CPU")
    same = len({json.dumps(report, sort_keys=True) for report in reports.values()}) == 1
    print(f"  the same report: {'yes' if same else 'NO'}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} after")


if __name__ == "__main__":
    main()
