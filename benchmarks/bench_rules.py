"""Rules files beside the built-in engine, one run side by side, in this process on one core.

The exact walk (``--walk``, the default): the chain ``toolkit odds --rules FILE --model win|length`` walks
(``toolkit.odds.walker.build`` on the guarded rules state, ``toolkit.walk.played``), in chance points
(states of the chain) a second, over Python rules files: Pig (``examples/pig/pig.py``, hold-at-20 both
seats, the default players, at ``--goal``) and Chutes and Ladders (``examples/chutes/chutes.py``,
``--chutes-players`` seats, no decisions); beside today's engine walk of the built-in games, the same
function on Diamoniak's engine (``build(..., compiled=False)``, default players, two- and three-player decks of
``bench_chain.py``), and, for reference, the compiled walk that ``toolkit odds --game diamoniak`` takes
past ``COMPILED_FROM`` states on the same decks. Each walk is timed ``--repeat`` times, the walks in
turn within a round (a burst of load on a shared machine slows all alike), the best kept; both the wall
clock and the process's CPU time are given (on a loaded machine the CPU time is the steadier figure).

Simulated games a second (``--simulate``): Pig through the guard (``toolkit.sim.records``) beside
the built-in engine's own Python play of two-player Diamoniak (default players,
``toolkit.sim.play.engine_batch``: the reference every compiled path is held to).

    python benchmarks/bench_rules.py [--walk] [--simulate] [--goal 150] [--chutes-players 2] [--repeat 3]
        [--games 3000] [--simulate-goal 100]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

DECKS = ("diamoniak-2p-medium", "diamoniak-2p-large", "diamoniak-3p")  # bench_chain's decks the walks are timed on


# --- the exact walk --------------------------------------------------------------------------------------


def rules_walk(path: str, params: dict):
    """A walk of a rules file as ``odds --rules`` makes it (default players): a function walking it once."""
    from toolkit.walk import walker
    from toolkit.rules.load import load_rules
    from toolkit.seats import rules_players
    from toolkit.walk import played

    game = load_rules(str(ROOT / "examples" / path), params)
    seats = rules_players(game)

    def run():
        met = played.Met()
        start = played.start_of(game, seats, met)
        return walker.build(start, played.deciders(seats, start, met), 10_000_000, outcome=played.returns_of)[0]
    return run


def engine_walk(deck: str, compiled: bool):
    """Diamoniak's walk on one of bench_chain's decks: the engine's (interpreted) or the compiled one."""
    from bench_chain import WALK_CASES, walk_case

    from toolkit.walk import walker

    game_id, overrides, players, size, *policy = WALK_CASES[deck]
    game, seats, done = walk_case(game_id, overrides, players, size, None, *policy)
    return lambda: walker.build(game.new_initial_state(), seats, 10_000_000, done, compiled=compiled)[0]


def walk_main(goal: int, chutes_players: int, repeat: int) -> None:
    cases = [(f"rules file: Pig to {goal} (hold-at-20 both)", rules_walk("pig/pig.py", {"goal": goal})),
             (f"rules file: Chutes and Ladders, {chutes_players} players",
              rules_walk("chutes/chutes.py", {"players": chutes_players}))]
    cases += [(f"engine walk: {deck}", engine_walk(deck, False)) for deck in DECKS]
    cases += [(f"compiled walk: {deck}", engine_walk(deck, True)) for deck in DECKS]
    cases[-1][1]()  # the compiled walk's code loaded before any clock
    wall = [float("inf")] * len(cases)
    cpu = [float("inf")] * len(cases)
    states = [0] * len(cases)
    for _ in range(max(1, repeat)):
        for number, (_, run) in enumerate(cases):
            gc.collect()
            began, began_cpu = time.perf_counter(), time.process_time()
            chain = run()
            wall[number] = min(wall[number], time.perf_counter() - began)
            cpu[number] = min(cpu[number], time.process_time() - began_cpu)
            states[number] = len(chain)
            del chain
    print(f"{'walk':55} {'states':>9} {'wall s':>7} {'states/s':>9} {'CPU s':>7} {'states/CPU s':>12}")
    for (name, _), n, w, c in zip(cases, states, wall, cpu):
        print(f"{name:55} {n:9,} {w:7.2f} {n / w:9,.0f} {c:7.2f} {n / max(c, 1e-9):12,.0f}")
    rules = min(n / c for n, c in zip(states[:2], cpu[:2]))
    engine = max(n / c for n, c in zip(states[2:2 + len(DECKS)], cpu[2:2 + len(DECKS)]))
    print(f"slowest rules file / fastest engine walk, states per CPU second: {rules / engine:.2f}")


# --- simulated games ---------------------------------------------------------------------------------------


def pig_games(games: int, goal: int) -> tuple[float, int]:
    from toolkit.rules.load import load_rules
    from toolkit.sim.records import rules_batch as play_batch
    from toolkit.seats import rules_players

    rules = load_rules(str(ROOT / "examples" / "pig" / "pig.py"), {"goal": goal})
    seats = rules_players(rules)
    began = time.perf_counter()
    records = play_batch(rules, seats, 1, 0, games)
    return time.perf_counter() - began, int(records["steps"].sum())


def engine_games(games: int) -> tuple[float, int]:
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game
    from toolkit.sim.play import engine_batch
    from toolkit.seats import builtin_players

    game = make_game(load("diamoniak", require_art=False), 2)
    policies = builtin_players("diamoniak", 2)
    began = time.perf_counter()
    records = engine_batch(game, policies, 1, 0, games)
    return time.perf_counter() - began, int(records["turns"].sum())


def simulate_main(games: int, goal: int) -> None:
    took, steps = pig_games(games, goal)
    print(f"rules file, Pig to {goal} (hold-at-20 both): {games:,} games in {took:.2f} s: "
          f"{games / took:,.0f} games/s, {steps / took:,.0f} steps/s ({steps / games:.1f} steps a game)")
    took, turns = engine_games(games)
    print(f"built-in engine, Diamoniak 2 players (default players): {games:,} games in {took:.2f} s: "
          f"{games / took:,.0f} games/s ({turns / games:.1f} turns a game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walk", action="store_true", help="time the exact walks (the default)")
    parser.add_argument("--simulate", action="store_true", help="time the simulated games")
    parser.add_argument("--goal", type=int, default=150, help="Pig's goal (the walk: 150 gives about 200,000 states)")
    parser.add_argument("--chutes-players", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="walks timed per case, the best kept")
    parser.add_argument("--games", type=int, default=3000, help="games simulated per side")
    parser.add_argument("--simulate-goal", type=int, default=100, help="Pig's goal (the simulated games)")
    args = parser.parse_args()
    if args.walk or not args.simulate:
        walk_main(args.goal, args.chutes_players, args.repeat)
    if args.simulate:
        simulate_main(args.games, args.simulate_goal)


if __name__ == "__main__":
    main()
