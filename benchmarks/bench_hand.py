"""Time `toolkit odds --model hand` on a deck of 1,000 cards (the most a catalogue holds).

The deck is Diamoniak's with ``--set diamond=500 --set witch=473`` (1,000 cards); the question is the
chance of at least half a hand being witches, for hands of 5, 13, 100 and 500 cards. Two times per
hand: the exact distribution alone (``hand_odds``, best of --runs), and the whole command in a fresh
interpreter (start-up, loading the catalogue, the answer and its JSON; best of --runs).

    python benchmarks/bench_hand.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from toolkit.catalogue import load
from toolkit.odds.hand import hand_odds

HANDS = (5, 13, 100, 500)
SETS = ("diamond=500", "witch=473")


def best(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    catalogue = load("diamoniak", overrides=list(SETS), require_art=False)
    pile = {card.id: card.count for card in catalogue.cards}
    print(f"deck of {sum(pile.values())} cards, {pile['witch']} witches; cpus: {os.cpu_count()}, "
          f"load average: {os.getloadavg()[0]:.2f}")
    print(f"{'hand':>5} {'P(at least half witches)':>26} {'exact answer':>13} {'whole command':>14}")
    with tempfile.TemporaryDirectory() as cwd:  # the installed toolkit, not a source tree's
        for hand in HANDS:
            odds = hand_odds(catalogue, pile, hand, ("witch",), at_least=hand // 2)
            alone = best(runs, lambda: hand_odds(catalogue, pile, hand, ("witch",), at_least=hand // 2))
            command = [sys.executable, "-m", "toolkit", "odds", "--model", "hand", "--hand", str(hand),
                       "--where", "witch", "--at-least", str(hand // 2), "--json",
                       *(arg for value in SETS for arg in ("--set", value))]
            whole = best(runs, lambda: subprocess.run(command, cwd=cwd, check=True, capture_output=True))
            print(f"{hand:5d} {float(odds.chance):26.6g} {alone * 1000:11.1f} ms {whole:12.2f} s")


if __name__ == "__main__":
    main()
