"""Time toolkit.odds.Chain on a random, mostly acyclic chain shaped like a card game.

The states are laid out in layers (think: cards drawn so far). Each state moves
to one to three random states of the next layer, sometimes to a state of its
own layer (small cycles) or to itself, and sometimes ends the game early; the
last layer always ends it. Weights are card counts (see ``random_chain``).

    .venv/bin/python benchmarks/bench_chain.py [--states 100000] [--layers 50] [--seed 1]
        [--cycle-rate 0.1] [--random-weights]
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

from toolkit.odds import Chain

try:
    from gmpy2 import mpq
except ImportError:
    mpq = None

ENDINGS = ["win", "lose", "reshuffle"]


def random_chain(states: int, layers: int, seed: int, cycle_rate: float = 0.1, card_weights: bool = True) -> dict:
    """A layered random chain with about ``states`` transient states, plus a ``"start"`` state.

    With ``card_weights`` the weights of a state in layer ``n`` are a random split
    of the ``deck - n`` cards left in a deck, as when drawing cards; otherwise
    each weight is a random int from 1 to 6 (the totals vary, so the exact
    answers grow bigger denominators). ``cycle_rate`` sets how often small cycles
    appear inside a layer (see ``cycles``).
    """
    rng = random.Random(seed)
    width = max(6, states // layers)
    deck = layers + 10
    transitions: dict = {"start": [(1, (0, k)) for k in range(width)]}
    for layer in range(layers):
        in_layer = cycles(width, cycle_rate, rng)
        for k in range(width):
            if layer == layers - 1:
                targets = list(ENDINGS)
            else:
                targets = [(layer + 1, rng.randrange(width)) for _ in range(rng.randint(1, 3))]
                if rng.random() < 0.05:
                    targets.append(rng.choice(ENDINGS))
                if rng.random() < 0.05:
                    targets.append((layer, k))
                targets += [(layer, other) for other in in_layer.get(k, ())]
            if card_weights:
                weights = split(deck - layer, len(targets), rng)
            else:
                weights = [rng.randint(1, 6) for _ in targets]
            transitions[(layer, k)] = list(zip(weights, targets))
    return transitions


def cycles(width: int, rate: float, rng: random.Random) -> dict[int, list[int]]:
    """Small cycles inside a layer: a ``rate`` of neighbour pairs swap back and forth, ``rate / 5`` of groups of 6 form a ring."""
    links: dict[int, list[int]] = {}
    for k in range(0, width - 1, 2):
        if rng.random() < rate:
            links.setdefault(k, []).append(k + 1)
            links.setdefault(k + 1, []).append(k)
    for first in range(0, width - 5, 6):
        if rng.random() < rate / 5:
            for k in range(first, first + 6):
                links.setdefault(k, []).append(first + (k - first + 1) % 6)
    return links


def split(cards: int, parts: int, rng: random.Random) -> list[int]:
    """``cards`` split at random into ``parts`` positive counts."""
    cuts = sorted(rng.sample(range(1, cards), parts - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [cards])]


def timed(action):
    began = time.perf_counter()
    result = action()
    return result, time.perf_counter() - began


def bench(transitions: dict, number: type, max_steps: int) -> Fraction:
    name = number.__name__
    chain, build = timed(lambda: Chain(transitions, number=number))
    steps, solve = timed(lambda: chain.expected_steps("start"))
    _, again = timed(lambda: chain.expected_steps((0, 0)))
    _, absorb = timed(lambda: chain.absorption_probabilities("start"))
    _, distribution = timed(lambda: chain.step_distribution("start", max_steps))
    print(f"{name:>8}: build {build:6.2f}s  expected_steps {solve:6.2f}s  (cached query {again * 1000:.2f} ms)  "
          f"absorption_probabilities {absorb:6.2f}s  step_distribution({max_steps}) {distribution:6.2f}s")
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000)
    parser.add_argument("--layers", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cycle-rate", type=float, default=0.1, help="how often small cycles appear (0: none)")
    parser.add_argument("--random-weights", action="store_true",
                        help="weights 1..6 instead of card counts (much bigger exact numbers)")
    args = parser.parse_args()

    transitions = random_chain(args.states, args.layers, args.seed, args.cycle_rate, card_weights=not args.random_weights)
    chain = Chain(transitions, number=Fraction)
    sizes = [len(members) for members in chain._members]  # noqa: SLF001 - a private peek, for the report only
    print(f"states: {len(chain.states)} ({len(chain.absorbing)} absorbing), components: {len(sizes)} "
          f"({sum(size > 1 for size in sizes)} cycles, largest {max(sizes)} states)")

    results = [bench(transitions, Fraction, args.layers)]
    if mpq is not None:
        results.append(bench(transitions, mpq, args.layers))
    else:
        print("gmpy2 not installed: mpq skipped")
    assert len(set(results)) == 1, "Fraction and mpq disagree"
    print(f"expected steps from start: {float(results[0]):.6f} ({results[0].denominator.bit_length()}-bit denominator)")


if __name__ == "__main__":
    main()
