"""How many states the exact walk would meet on a deck too large to walk: a birthday count.

Plays ``--games`` seeded games of the deck with the built-in players, keying each chance point as
the exact walk keys it (``walker.key_function``). At each depth (the n-th chance point of a
game), pairs of games / pairs that met the same state estimates the number of states there (it is
``1 / sum(p^2)`` for the states' chances ``p`` at that depth, never more than their number, by
Cauchy-Schwarz). Printed: the largest such estimate (a lower estimate of the whole chain), the sum
over the depths where games met (an estimate of the whole, short of the depths where none met), and
how many depths had no meeting at all (more states than the sample can tell).

    python benchmarks/chain_size.py [--game diamoniak] [--model multi|first-palace] [--games 100000]

Memory grows with games x depths (100,000 two-player Diamoniak games: about 2 GB).
"""

from __future__ import annotations

import argparse
import random
import time

from toolkit.catalogue import load
from toolkit.games.registry import make_game
from toolkit.walk import walker
from toolkit.seats import builtin_players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="diamoniak", choices=("diamoniak", "palaces"))
    parser.add_argument("--model", default="multi", choices=("multi", "first-palace"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    players = 1 if args.model == "first-palace" else args.players
    game = make_game(load(args.game, require_art=False), players)
    policies = builtin_players(args.game, players)

    def done(state) -> bool:  # the first-palace question ends at a first palace
        return args.model == "first-palace" and state.counters()["palaces_completed"] >= 1

    key_of = walker.key_function(policies)
    rng = random.Random(args.seed)
    seen: list[dict] = []  # per depth: key -> games that met it there
    began = time.perf_counter()
    start = game.new_initial_state()
    for _ in range(args.games):
        for depth, key in enumerate(walker.sampled_game(start, policies, rng, key_of, done)):
            if depth == len(seen):
                seen.append({})
            seen[depth][key] = seen[depth].get(key, 0) + 1
    largest = total = unmet = 0
    for counts in seen:
        met = sum(counts.values())
        meetings = sum(n * (n - 1) // 2 for n in counts.values())
        if not meetings:
            unmet += 1
            continue
        estimate = met * (met - 1) // 2 // meetings
        largest, total = max(largest, estimate), total + estimate
    print(f"{args.game} {args.model}, {players} player(s), {args.games:,} games in {time.perf_counter() - began:.0f} s: "
          f"{len(seen)} depths, {unmet} with no meeting; largest depth {largest:.2e} states, "
          f"sum over the others {total:.2e}")


if __name__ == "__main__":
    main()
