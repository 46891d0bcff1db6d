"""CPU per game of the compiled Palaces kernel: this tree's against another tree's, side by side in one run.

Run: python benchmarks/bench_palaces_kernel.py --beside /tmp/old [--games N] [--rounds R]

where ``/tmp/old`` holds another version's ``toolkit`` and ``card_art`` (e.g.
``mkdir /tmp/old && git archive main toolkit card_art | tar -x -C /tmp/old``). Each version plays in its
own fresh interpreter (``PYTHONPATH`` set to its tree): first a few games of every configuration (numba's
cache loaded or filled, not timed), then ``--games`` games of each, timed as the process's CPU (numba's
threads included: the machine may be shared, so not the clock). The two versions take turns for
``--rounds`` rounds and each keeps its least CPU per configuration (the round least disturbed by other
work). The records of both versions are compared, game by game (a digest of every field of every game).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
# (players, the first seat's policy; the other seats play the default)
CONFIGS = ((2, "default"), (3, "default"), (4, "default"), (4, "aggressive,give-worst"),
           (4, "random,give-worst"), (4, "builder,give-random"))

_CHILD = """
import hashlib, json, sys, time
import numpy as np
import toolkit
from toolkit.catalogue import load
from toolkit.games.registry import make_game, policy_module
from toolkit.sim.records import play_records
configs, games = json.loads(sys.argv[1]), int(sys.argv[2])
cat = load("palaces", require_art=False)
parse = policy_module("palaces").parse
result = {"toolkit": toolkit.__file__}
for players, first in configs:
    game = make_game(cat, players)
    seats = [parse(first)] + [parse("default")] * (players - 1)
    play_records(game, seats, 1, 0, 100, 500)  # compiled or loaded from the cache, off the clock
    cpu = time.process_time()
    records = play_records(game, seats, 1, 0, games, 500)
    cpu = time.process_time() - cpu
    digest = hashlib.sha256()
    for name in sorted(records):
        digest.update(name.encode() + np.ascontiguousarray(records[name], dtype=np.int64).tobytes())
    result[f"{players} {first}"] = [1e6 * cpu / games, float(records["turns"].mean()), digest.hexdigest()[:16]]
print(json.dumps(result))
"""


def play(tree: Path, games: int, configs) -> dict:
    """One fresh interpreter on ``tree``'s toolkit: per configuration [CPU us a game, mean turns, digest]."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(configs), str(games)], env=env, cwd="/",
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    where = Path(result.pop("toolkit")).resolve().parent.parent
    if where != tree.resolve():
        raise SystemExit(f"the child on {tree} imported the toolkit of {where}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beside", type=Path, required=True, help="the other tree (its toolkit and card_art)")
    parser.add_argument("--games", type=int, default=20_000, help="games per configuration and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, help="only the configurations of this many players")
    args = parser.parse_args()
    configs = [config for config in CONFIGS if args.players in (None, config[0])]
    trees = {"this": HERE, "beside": args.beside}
    best: dict[str, dict] = {"this": {}, "beside": {}}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            for config, (cpu, turns, digest) in play(tree, args.games, configs).items():
                old = best[name].get(config)
                best[name][config] = [min(cpu, old[0]) if old else cpu, turns, digest]
    load = os.getloadavg()
    print(f"{args.games:,} games per configuration (run seed 1, at most 500 turns), least CPU of {args.rounds} "
          f"rounds; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'players, first seat':<32}{'this us/game':>14}{'beside us/game':>16}{'beside/this':>13}"
          f"{'turns':>8}  same records")
    for config in best["this"]:
        this, beside = best["this"][config], best["beside"][config]
        print(f"{config:<32}{this[0]:>14.1f}{beside[0]:>16.1f}{beside[0] / this[0]:>12.2f}x{this[1]:>8.1f}  "
              f"{'yes' if this[2] == beside[2] else 'NO'}")


if __name__ == "__main__":
    main()
