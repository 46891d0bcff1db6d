"""What each command costs before its real work: the interpreter's start plus every import the run
makes (read from ``python -X importtime``), beside a bare ``python -c pass`` in the same run.

    python benchmarks/bench_startup.py [--runs 7]

Each command runs on a small input in a fresh interpreter; the figure is the median over the runs.
The imports counted are all of a run's imports, lazy ones included: a command that needs a library
only for some of its work (matplotlib for ``--plot``, the simulator for a fallback) should not pay
for it when it does not do that work.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    ["--version"],
    ["catalogue"],
    ["odds", "--model", "draws", "--pile", "witch=1,diamond=1"],
    ["odds"],
    ["odds", "--game", "palaces"],
    ["simulate", "--games", "1"],
    ["export-cards", "--help"],
    ["preflight", "--help"],
    ["rulebook", "--help"],
]


def imports_ms(stderr: str) -> float:
    """The sum of the top-level imports' cumulative times, in ms."""
    total = 0
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        if name.startswith(" ") and not name.startswith("  "):  # one space: imported by the run itself
            total += int(cumulative)
    return total / 1000


def wall(argv: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tempfile.gettempdir())
    return time.perf_counter() - started, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    bare = statistics.median(wall([sys.executable, "-c", "pass"])[0] for _ in range(runs)) * 1000
    print(f"python -c pass: {bare:.0f} ms (median of {runs})")
    print(f"{'command':<58} {'imports ms':>10} {'start + imports ms':>19} {'whole run ms':>13}")
    for command in COMMANDS:
        seen = [wall([sys.executable, "-X", "importtime", "-m", "toolkit", *command]) for _ in range(runs)]
        whole = [wall([sys.executable, "-m", "toolkit", *command])[0] * 1000 for _ in range(runs)]
        imports = statistics.median(imports_ms(err) for _, err in seen)
        print(f"{'toolkit ' + ' '.join(command):<58} {imports:>10.0f} {bare + imports:>19.0f} "
              f"{statistics.median(whole):>13.0f}")


if __name__ == "__main__":
    main()
