"""Games per second of `toolkit simulate`: solo Diamoniak (100,000 games) and 4-player Palaces.

Run: python benchmarks/bench_simulate.py [--palaces-games N]
Also times a plain shuffle-a-list solo Diamoniak loop, the baseline the issue names.
"""

from __future__ import annotations

import argparse
import random
import time

from toolkit.catalogue import load
from toolkit.sim.simulate import simulate


def baseline_shuffle(games: int, seed: int = 1) -> float:
    """The straightforward simulation: shuffle a list of the 54 cards, walk it, reshuffle the discard."""
    cat = load("diamoniak", require_art=False)
    deck = [card.kind + ":" + (card.colour or "") for card in cat.cards for _ in range(card.count)]
    size, takes = cat.rules["castle_size"], cat.rules["witch_takes"]
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        pile, discard = deck[:], []
        rng.shuffle(pile)
        colour, castle, junk, fairies, turns = None, 0, 0, 0, 1
        while castle < size:
            if not pile:
                pile, discard = discard, []
                rng.shuffle(pile)
            card = pile.pop()
            kind, _, c = card.partition(":")
            if kind == "castle" and (colour is None or c == colour):
                colour, castle = c, castle + 1
            elif kind == "fairy":
                fairies += 1
            elif kind == "witch":
                turns += 1
                discard.append(card)
                if fairies:
                    fairies -= 1
                    discard.append("fairy:")
                else:
                    lost_junk = min(junk, takes)
                    lost_own = min(castle, takes - lost_junk)
                    junk, castle = junk - lost_junk, castle - lost_own
                    discard += ["diamond:"] * lost_junk + ["castle:" + str(colour)] * lost_own
            else:
                junk += 1
    return games / (time.perf_counter() - start)


def rate(game: str, players: int, games: int) -> tuple[float, float]:
    cat = load(game, require_art=False)
    start = time.perf_counter()
    summary = simulate(cat, players=players, games=games, seed=1)
    return games / (time.perf_counter() - start), summary.mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--palaces-games", type=int, default=2000)
    args = parser.parse_args()
    speed, mean = rate("diamoniak", 1, 100_000)
    print(f"solo Diamoniak, 100000 games: {speed:,.0f} games/s (mean {mean:.3f} turns)")
    print(f"baseline shuffle-a-list loop, 20000 games: {baseline_shuffle(20_000):,.0f} games/s")
    speed, mean = rate("palaces", 4, args.palaces_games)
    print(f"4-player Palaces, {args.palaces_games} games: {speed:,.0f} games/s (mean {mean:.2f} rounds)")


if __name__ == "__main__":
    main()
