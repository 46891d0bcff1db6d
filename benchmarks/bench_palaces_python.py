"""The time of Palaces' Python-driven commands, beside other versions of the source in the same rounds, and
whether every version prints the same answers.

    python benchmarks/bench_palaces_python.py --beside TREE [--beside TREE2] [--runs 1] [--case NAME]

``TREE`` is a folder holding another ``toolkit`` package, e.g. today's main: ``git archive main toolkit
card_art | tar -x -C /tmp/old``. The cases are whole commands, each in a fresh interpreter per version (the
versions alternating, so that a busy machine slows them alike; first each version fills numba's cache
with one small run, not timed), chosen for the paths they take:

* ``first-palace``: ``toolkit odds --game palaces --model first-palace --json``, the default: the
  engine's walk up to its first limit, the compiled walk, the sampled estimate, then 20,000 simulated games;
* ``simulated``: the same with ``--max-states 1``: the simulated games alone;
* ``plain-walk``: ``--max-states 5000 --games 2``: the engine's own walk (interpreted, below the compiled
  walk's threshold) to 5,000 states, then two simulated games;
* ``rulebook``: ``toolkit rulebook --game palaces`` (its first-palace figures are simulated games).

Printed per case and version: wall-clock and CPU seconds (the median over the rounds and, in brackets, the
fastest; on a shared machine the CPU time is the steadier), each other version's ratios to this tree, and
whether its output (JSON, or the PDF's bytes) is this tree's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from bench_analyse import HERE, run

ODDS = ["odds", "--game", "palaces", "--model", "first-palace", "--json"]
CASES = {
    "first-palace": ODDS,
    "simulated": [*ODDS, "--max-states", "1"],
    "plain-walk": [*ODDS, "--max-states", "5000", "--games", "2"],
    "rulebook": ["rulebook", "--game", "palaces", "--out", "{out}"],
}
WARM = [*ODDS, "--max-states", "30000", "--games", "20"]  # both walks, the estimate and a few games: compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beside", metavar="TREE", action="append", required=True,
                        help="Another version's source folder (may be given more than once).")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--case", choices=CASES, action="append", help="Only these cases (default all).")
    args = parser.parse_args()
    versions = {"this tree": {**os.environ, "PYTHONPATH": HERE}}
    versions.update({tree: {**os.environ, "PYTHONPATH": os.path.abspath(tree)} for tree in args.beside})
    print(f"{os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} before")
    cwd = tempfile.mkdtemp(prefix="bench-palaces-")
    for env in versions.values():
        run(WARM, env, cwd)
    for case in args.case or CASES:
        wall, cpu = {v: [] for v in versions}, {v: [] for v in versions}
        outputs = {}
        for _ in range(args.runs):
            for v, env in versions.items():
                out = Path(cwd) / f"{case}.pdf"
                took, used, printed = run([part.format(out=out) for part in CASES[case]], env, cwd)
                wall[v].append(took)
                cpu[v].append(used)
                outputs[v] = out.read_bytes() if case == "rulebook" else printed
        print(f"{case}: toolkit {' '.join(CASES[case])}")
        mine, mine_cpu = statistics.median(wall["this tree"]), statistics.median(cpu["this tree"])
        for v in versions:
            line = (f"  {v:<30} wall {statistics.median(wall[v]):6.1f} s ({min(wall[v]):.1f})"
                    f"   CPU {statistics.median(cpu[v]):6.1f} s ({min(cpu[v]):.1f})")
            if v != "this tree":
                same = "the same" if outputs[v] == outputs["this tree"] else "ANOTHER"
                line += (f"   {statistics.median(wall[v]) / mine:.2f}x wall, {statistics.median(cpu[v]) / mine_cpu:.2f}x"
                         f" CPU of this tree's; {same} {'PDF' if case == 'rulebook' else 'answer'}")
            print(line)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} after")


if __name__ == "__main__":
    main()
