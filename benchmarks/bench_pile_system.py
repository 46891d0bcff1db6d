"""Solo Diamoniak's pile-start system: ``pile_system.expected_from_start`` against
``pile_system.solve_by_components`` (python-flint's solve per cyclic component), side by side.

A system is either a pickle of the passes (``{state: solo_passes.WholePass}``, with the deck's
witch count: ``own`` is rebuilt the way ``solo_odds`` builds it) or a deck solved here first
(``solo_odds`` with ``pile_system.expected_from_start`` wrapped to catch its arguments; that solve is
not timed).
Both solvers then run in this one process, one after the other, ``--repeat`` times; the answers
must be the same Fraction. Printed per system: its size, the seconds of each (best of the
repeats), the ratio flint / lifting, and the bits of the answer's denominator. The compiled
loops are loaded (from numba's cache) on a tiny system before the clock starts; the load itself
is printed once.

    python benchmarks/bench_pile_system.py --pickle /tmp/s18/p14.pkl:14 /tmp/s18/p16.pkl:16
    python benchmarks/bench_pile_system.py --deck witch=9 witch=10 witch=12 [--repeat 3]
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from fractions import Fraction


def _from_pickle(spec: str):
    path, witches = spec.rsplit(":", 1)
    with open(path, "rb") as handle:
        passes = pickle.load(handle)
    witches = int(witches)
    own = {state: sum(k * n for k, n in whole.wins.items()) + witches * sum(whole.exits.values())
           for state, whole in passes.items()}
    exits = {state: whole.exits for state, whole in passes.items()}
    denominators = {state: whole.denominator for state, whole in passes.items()}
    starts = set(exits) - {a for out in exits.values() for a in out}
    start = next(iter(starts)) if len(starts) == 1 else None
    if start is None:
        raise SystemExit(f"{path}: no single state without predecessors to start from")
    return exits, denominators, own, start


def _from_deck(spec: str):
    from toolkit.catalogue import load
    from toolkit.games.diamoniak import pile_system
    from toolkit.games.diamoniak import solo as diamoniak_solo

    deck = diamoniak_solo.SoloDeck.from_catalogue(load("diamoniak", overrides=spec.split(","), require_art=False))
    caught = []
    original = pile_system.expected_from_start

    def catch(*args):
        caught.append(args)
        return original(*args)

    pile_system.expected_from_start = catch
    try:
        diamoniak_solo.solo_odds(deck, max_states=10**12)
    finally:
        pile_system.expected_from_start = original
    if not caught:
        raise SystemExit(f"{spec}: this deck's solve has no pile-start system (no reshuffle, or a doomed game)")
    return caught[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pickle", nargs="*", default=[], metavar="PATH:WITCHES")
    parser.add_argument("--deck", nargs="*", default=[], metavar="OPTION=VALUE[,...]")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    sys.set_int_max_str_digits(0)
    from toolkit.games.diamoniak import pile_system

    started = time.perf_counter()
    tiny = ({0: {0: 1, 1: 1}, 1: {0: 1}}, {0: 3, 1: 2}, {0: 1, 1: 1}, 0)
    saved = pile_system.LIFT_FROM
    pile_system.LIFT_FROM = 2
    pile_system.expected_from_start(*tiny)
    pile_system.LIFT_FROM = saved
    print(f"compiled loops loaded in {time.perf_counter() - started:.2f} s")
    systems = [(spec, _from_pickle(spec)) for spec in args.pickle] + [(spec, _from_deck(spec)) for spec in args.deck]
    print(f"{'system':<28} {'states':>6} {'block':>6} {'flint s':>8} {'lift s':>8} {'ratio':>6} {'den bits':>9}")
    for name, system in systems:
        blocks = pile_system.reachable_blocks(system[0], system[3])
        flint_times, lift_times = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            ordered = pile_system.reachable_blocks(system[0], system[3])  # timed as the lifting's own is
            value = pile_system.solve_by_components(ordered, *system[:3])[system[3]]
            reference = Fraction(int(value.p), int(value.q))
            flint_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            mine = pile_system.expected_from_start(*system)
            lift_times.append(time.perf_counter() - t)
            assert mine == reference, f"{name}: the two answers differ"
        flint_s, lift_s = min(flint_times), min(lift_times)
        print(f"{name:<28} {len(system[0]):>6} {max(len(b) for b in blocks):>6} {flint_s:>8.2f} {lift_s:>8.2f} "
              f"{flint_s / lift_s:>6.1f} {reference.denominator.bit_length():>9}")


if __name__ == "__main__":
    main()
