"""Time the exact solve of cyclic chains: p-adic lifting against exact elimination, side by side.

``toolkit.odds.Chain`` solves each strongly connected component of a chain as a linear system
(``toolkit.solve.linear``): large ones by p-adic lifting, small ones and the lifting's
failures by exact elimination with Markowitz pivoting. This runs every chain twice in one
process, once as ``Chain`` does by default and once with the lifting switched off (every
component eliminated), on the same chains, and checks that both give the same fractions. With
``--rev REV`` it also runs ``Chain`` as it is in git revision REV (read with ``git show``, git's
state untouched), e.g. the commit before the lifting; a revision from before the solver moved to
``toolkit.solve`` imports modules that are gone and cannot be run this way.

The chains: layered random chains from ``bench_chain.random_chain`` with many small cycles, a
random chain made of a few large strongly connected components, and chains walked from the rules
engines (``toolkit.odds.walker.build``) of two-player Diamoniak decks with two witches (cards
come back, so the walk has components of thousands of states) and a Palaces first-palace deck. Each
is asked what ``toolkit odds`` asks: the absorption probabilities and an expected reward from the
start (walked chains: turns; the others: steps).

    python benchmarks/bench_linear.py [CHAIN ...] [--rev REV] [--repeat 1]

(``diamoniak-2p-3w``, 109,609 states with components of 20,000 and 46,000, runs only when named:
elimination alone takes minutes there.)
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_chain import WALK_CASES, random_chain  # noqa: E402

from toolkit.games.palaces.engine import first_palace_complete  # noqa: E402
from toolkit.solve import linear  # noqa: E402
from toolkit.odds.chain import Chain  # noqa: E402


def strongly_connected(states: int, blocks: int, seed: int) -> dict:
    """``blocks`` large strongly connected components in a row: each a ring with random chords and
    a little way out (to the next block, or to an end after the last); card-count weights."""
    rng = random.Random(seed)
    size = states // blocks
    transitions: dict = {"start": [(1, (0, 0))]}
    for b in range(blocks):
        for k in range(size):
            targets = [(b, (k + 1) % size), (b, rng.randrange(size)), (b, rng.randrange(size))]
            if rng.random() < 0.05:
                targets.append((b + 1, rng.randrange(size)) if b + 1 < blocks else rng.choice(["win", "lose"]))
            transitions[(b, k)] = [(rng.randint(1, 9), target) for target in targets]
    return transitions


DECKS = {  # name: (game, --set options, players, castle size or None)
    "diamoniak-2p-2w-a": WALK_CASES["diamoniak-2p-medium"],
    "diamoniak-2p-2w-b": ("diamoniak", ["castle-green=0", "castle-yellow=0", "castle-red=4", "castle-blue=4",
                                        "diamond=4", "witch=2", "fairy=1"], 2, 3),
    "diamoniak-2p-3w": ("diamoniak", ["castle-green=0", "castle-yellow=0", "castle-red=3", "castle-blue=3",
                                      "diamond=4", "witch=3", "fairy=1"], 2, 3),
    "palaces-first-palace": WALK_CASES["palaces-first-palace"],
}


def walked(name: str) -> tuple[dict, object, object]:
    """(transitions, start, reward) of a deck's walked chain, as ``engine_chain.answer`` gives them to ``Chain``."""
    from dataclasses import replace

    from toolkit.catalogue import load
    from toolkit.games.registry import make_game, policy_module
    from toolkit.walk import walker

    game_id, overrides, players, size = DECKS[name]
    game = make_game(load(game_id, overrides=overrides, require_art=False), players)
    if size is not None:
        game = replace(game, castle_size=size)
    seats = [policy_module(game_id).parse("default")] * players
    done = first_palace_complete if game_id == "palaces" else None
    graph, start, _ = walker.build(game.new_initial_state(), seats, 1_000_000, done)
    trapped, weights, targets, ends = graph.cannot_end(), graph.weights, graph.targets, graph.ends
    chain = {node: [(weights[k], targets[k] if targets[k] >= 0 else ends[-1 - targets[k]]) for k in graph.edges(node)]
             for node in graph.state_of_row if node not in trapped}
    return chain, start, graph.turn_reward


def cases(names: list[str]):
    """(name, transitions, start, reward) per chain asked for."""
    makers = {
        "random-cycles": lambda: (random_chain(20_000, 40, 1, cycle_rate=0.6), "start", lambda state: 1),
        "random-cycles-weights": lambda: (random_chain(10_000, 20, 2, cycle_rate=0.6, card_weights=False), "start",
                                          lambda state: 1),
        "large-components": lambda: (strongly_connected(900, 3, 3), "start", lambda state: 1),
        **{name: (lambda name=name: walked(name)) for name in DECKS},
    }
    for name in names:
        transitions, start, reward = makers[name]()
        yield name, transitions, start, reward


CHAINS = ["random-cycles", "random-cycles-weights", "large-components", *DECKS]
SLOW = {"diamoniak-2p-3w"}  # elimination alone takes minutes: only when named


def answer(chain_type, transitions, start, reward):
    """(the answer, build seconds, solve seconds): absorption probabilities and the expected reward."""
    gc.collect()
    began = time.perf_counter()
    chain = chain_type(transitions)
    built = time.perf_counter()
    result = (chain.absorption_probabilities(start), chain.expected_reward(start, reward))
    return result, built - began, time.perf_counter() - built, chain


def revision_chain(rev: str):
    """``Chain`` as in git revision ``rev`` (its chain.py imported from a temporary file)."""
    import importlib.util
    import subprocess
    import tempfile

    text = subprocess.run(["git", "show", f"{rev}:toolkit/odds/chain.py"], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent.parent).stdout
    folder = Path(tempfile.mkdtemp(prefix="bench-linear-"))
    path = folder / "revision_chain.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("revision_chain", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["revision_chain"] = module
    spec.loader.exec_module(module)
    return module.Chain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chains", nargs="*", metavar="CHAIN",
                        help=f"any of {', '.join(CHAINS)} (default: all but {', '.join(sorted(SLOW))})")
    parser.add_argument("--rev", help="also time Chain as in this git revision")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each way; the best is shown")
    args = parser.parse_args()
    unknown = [name for name in args.chains if name not in CHAINS]
    if unknown:
        parser.error(f"unknown chain {unknown[0]!r}: choose from {', '.join(CHAINS)}")
    default = linear.LIFT_FROM, linear.LIFT_ALWAYS_FROM
    never = float("inf"), float("inf")
    ways = [("lifting", Chain, default), ("elimination", Chain, never)]
    if args.rev:
        ways.append((args.rev, revision_chain(args.rev), default))
    # the compiled kernels load (or compile) once per process: not part of any chain's time
    linear.lift_integer([{0: 2, 1: -1}, {0: -1, 1: 2}], [1, 1])
    print(f"{'chain':24} {'states':>8} {'largest':>8} {'in cycles':>9} {'bits':>6}  "
          + "  ".join(f"{name + ' s':>12}" for name, _, _ in ways) + "  ratio")
    for name, transitions, start, reward in cases(args.chains or [name for name in CHAINS if name not in SLOW]):
        results, times = [], []
        for label, chain_type, thresholds in ways:
            linear.LIFT_FROM, linear.LIFT_ALWAYS_FROM = thresholds
            best = None
            for _ in range(args.repeat):
                result, build, solve, chain = answer(chain_type, transitions, start, reward)
                best = build + solve if best is None else min(best, build + solve)
            results.append(result)
            times.append(best)
        linear.LIFT_FROM, linear.LIFT_ALWAYS_FROM = default
        assert all(result == results[0] for result in results), f"{name}: the ways disagree"
        sizes = [len(members) for members in chain._members]  # noqa: SLF001 - a private peek, for the report only
        bits = max(p.denominator.bit_length() for p in results[0][0].values())
        print(f"{name:24} {len(chain.states):8,} {max(sizes):8,} {sum(s for s in sizes if s > 1):9,} {bits:6,}  "
              + "  ".join(f"{t:12.2f}" for t in times) + f"  {times[0] / times[1]:.2f}  same fractions")


if __name__ == "__main__":
    main()
