"""Simulated games a second of a rules file (Pig, ``examples/pig/pig.py``, in Python through the guard,
``toolkit.rules.simulate``) beside the built-in engine's own Python play (Diamoniak, 2 players, default
players, ``toolkit.sim.ordered.engine_batch``: the reference every compiled path is held to), one run
side by side, in this process on one core.

    python benchmarks/bench_rules.py [--games 3000] [--goal 100]

Printed per side: games, seconds, games a second, and steps a second (a step: one action or chance
outcome applied; for the engine, its turns are given instead, as it counts no steps). Pig's games are
longer than its turns: its steps are the fairer unit beside the engine's work per game.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pig(games: int, goal: int) -> tuple[float, int]:
    from toolkit.rules.load import load_rules
    from toolkit.rules.simulate import play_batch, seats_of

    rules = load_rules(str(ROOT / "examples" / "pig" / "pig.py"), {"goal": goal})
    seats = seats_of(rules, 2, {})
    began = time.perf_counter()
    records = play_batch(rules, seats, 1, 0, games)
    return time.perf_counter() - began, int(records["steps"].sum())


def engine(games: int) -> tuple[float, int]:
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game
    from toolkit.sim.ordered import engine_batch
    from toolkit.sim.simulate import seat_policies

    game = make_game(load("diamoniak", require_art=False), 2)
    policies = seat_policies("diamoniak", 2, {})
    began = time.perf_counter()
    records = engine_batch(game, policies, 1, 0, games)
    return time.perf_counter() - began, int(records["turns"].sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--goal", type=int, default=100)
    args = parser.parse_args()
    took, steps = pig(args.games, args.goal)
    print(f"rules file, Pig to {args.goal} (hold-at-20 both): {args.games:,} games in {took:.2f} s: "
          f"{args.games / took:,.0f} games/s, {steps / took:,.0f} steps/s ({steps / args.games:.1f} steps a game)")
    took, turns = engine(args.games)
    print(f"built-in engine, Diamoniak 2 players (default players): {args.games:,} games in {took:.2f} s: "
          f"{args.games / took:,.0f} games/s ({turns / args.games:.1f} turns a game)")


if __name__ == "__main__":
    main()
