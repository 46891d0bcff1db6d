"""Optimal play of two-player Pig to 100 (examples/pig): the states walked, the time and the peak memory.

The issue asks for a two-player dice game of about half a million states solved with optimal play on
both sides within two minutes on this machine, at under 2 GB. Pig to 100 walked as the rules file
states it (decision and chance points of both seats, and the ends) has several times that many; the
figure to match is Neller and Presser's (2004): the first player wins about 0.5306 with optimal play.

    python benchmarks/bench_optimal.py [--goal 100] [--floor]

``--floor`` times, after the solve, the least any walk of the file as written must do: a breadth-first
pass over its positions that only calls the file's own methods (``clone``, ``apply_action``, ``key``,
``chance_outcomes``, ``legal_actions``, ``is_terminal``) once per edge (a copy for every move but a
position's last, which moves the position itself, as the walk does), with no toolkit code in between.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--floor", action="store_true", help="also time a bare walk of the file's own methods")
    args = parser.parse_args()
    from toolkit.rules import optimal
    from toolkit.rules.load import load_rules

    game = load_rules(str(ROOT / "examples" / "pig" / "pig.py"), {"goal": args.goal})
    begun, cpu = time.perf_counter(), time.process_time()
    [answer] = optimal.solve(game, max_states=10_000_000)
    took, cpu = time.perf_counter() - begun, time.process_time() - cpu
    graph = answer.graph
    deciding = sum(1 for kind in graph.kind if kind >= 0)
    chance = sum(1 for kind in graph.kind if kind == -1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Pig to {args.goal}: {len(graph):,} states walked ({deciding:,} decision points, {chance:,} chance "
          f"points, {len(graph) - deciding - chance:,} ends)")
    print("\n".join(optimal.value_lines(answer)))
    print(f"time {took:.1f} s (walk and solve; {cpu:.1f} s of CPU: on a shared machine the difference is "
          f"other work), peak memory {peak:,.0f} MB")
    if args.floor:  # after the solve, so that the peak above is the solve's alone
        floor(args.goal)


def floor(goal: int) -> None:
    """A breadth-first pass over Pig's positions calling only the file's methods: the CPU it takes."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pig_floor", ROOT / "examples" / "pig" / "pig.py")
    assert spec is not None and spec.loader is not None
    pig = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pig)
    cpu = time.process_time()
    start = pig.Pig(goal).new_initial_state()
    seen, states, edges = {start.key()}, [start], 0
    for state in states:  # the list grows while it is read: breadth first
        if state.is_terminal():
            continue
        moves = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        last = len(moves) - 1
        for number, action in enumerate(moves):
            after = state if number == last else state.clone()  # the last move needs no copy, as in the walk
            after.apply_action(action)
            key = after.key()
            edges += 1
            if key not in seen:
                seen.add(key)
                states.append(after)
    cpu = time.process_time() - cpu
    print(f"the file's own methods alone: {len(states):,} positions, {edges:,} edges, {cpu:.1f} s of CPU")


if __name__ == "__main__":
    main()
