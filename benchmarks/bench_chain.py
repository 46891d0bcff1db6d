"""Time toolkit.odds.Chain on a random, mostly acyclic chain shaped like a card game.

The states are laid out in layers (think: cards drawn so far). Each state moves
to one to three random states of the next layer, sometimes to a state of its
own layer (small cycles) or to itself, and sometimes ends the game early; the
last layer always ends it. Weights are card counts (see ``random_chain``).

    .venv/bin/python benchmarks/bench_chain.py [--states 100000] [--layers 50] [--seed 1]
        [--cycle-rate 0.1] [--random-weights]

With --walk it times instead the walk of the real engines (``toolkit.odds.engine_chain``) against
the code of earlier revisions (git's HEAD unless ``--old`` names others, e.g. ``--old fb233ac HEAD``:
their walk and their engines, read with ``git show``, git's state untouched; ``--old`` with no
revision: none), in one run, on the same decks: states, states a second, bytes a state (tracemalloc:
what the walk holds at its end, and its peak), the whole exact answer's time, and that every answer
is the same fractions. Today's code is timed twice on every deck: the engine walk ("now",
``compiled=False``) and the compiled walk ("compiled", ``toolkit.games.diamoniak.walk`` for Diamoniak,
``toolkit.games.palaces.walk`` for Palaces, first-palace and whole games), which must build
the very same chain (checked array for array). A walk's time is the best of ``--repeat``
rounds, each round walking every code in turn (the first walk of a module also pays for warming it
up, and a burst of load slows all alike). The compiled walk's first use in a fresh interpreter
(importing numba, loading the cached kernel, a first small walk) is timed too, and with
``--cold`` also with an empty numba cache (compiling it).

    .venv/bin/python benchmarks/bench_chain.py --walk [DECK ...] [--old [REV ...]] [--repeat 3]
        [--max-states 1000000] [--no-solve] [--cold]
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

from toolkit.games.palaces.engine import first_palace_complete
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


# --- the engine walk (toolkit.odds.engine_chain), today's code against earlier revisions' ---------

def revision_module(rev: str, path: str, name: str):
    """``path`` as it is in git revision ``rev``, imported as module ``name`` (git's state is only read)."""
    import importlib.util
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    text = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent.parent).stdout
    folder = Path(tempfile.mkdtemp(prefix="bench-chain-"))
    (folder / f"{name}.py").write_text(text)
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def walk_case(game_id: str, overrides: list[str], players: int, size: int | None, engine=None, policy="default"):
    """(game, policies, done) for one deck, the game made by ``engine`` (a rules module) if given; ``size``
    is Diamoniak's castle size or Palaces' hand size (None: the catalogue's)."""
    from dataclasses import replace

    from toolkit.catalogue import load
    from toolkit.games.registry import make_game, policy_module

    catalogue = load(game_id, overrides=overrides, require_art=False)
    hands = game_id == "palaces" and size is not None  # made for one seat (the catalogue's hands need not be
    # dealt to all), then given the seats and the hand size
    game = make_game(catalogue, 1 if hands else players)
    if engine is not None:
        cls = engine.DiamoniakGame if game_id == "diamoniak" else engine.PalacesGame
        game = cls.from_catalogue(catalogue, 1 if hands else players)
    if hands:
        game = replace(game, players=players, hand_size=size)
    elif size is not None:
        game = replace(game, castle_size=size)
    seats = [policy_module(game_id).parse(policy)] * players
    done = first_palace_complete if game_id == "palaces" and players == 1 else None
    return game, seats, done


def chain_arrays(transitions) -> tuple:
    """Every field of a walked chain (``walk.ArrayGraph``), to compare two walks."""
    return (bytes(transitions.row), bytes(transitions.state_of_row), bytes(transitions.offsets),
            bytes(transitions.targets), list(transitions.weights), transitions.rewards, transitions.totals,
            transitions.ends)


def time_walks(cases: list, repeat: int) -> list[tuple[int, float, tuple]]:
    """(states, the best walk time, the chain's arrays) per ``(module, game, seats, done, max_states, options)``
    case, the cases timed in turn, round after round (a burst of load on a shared machine then slows every
    case alike, not one)."""
    import gc

    best = [float("inf")] * len(cases)
    states = [0] * len(cases)
    chains = [()] * len(cases)
    for _ in range(max(1, repeat)):
        for number, (module, game, seats, done, max_states, options) in enumerate(cases):
            gc.collect()
            (transitions, _, _), took = timed(lambda: module.build(game.new_initial_state(), seats, max_states, done,
                                                                   **options))
            best[number], states[number] = min(best[number], took), len(transitions)
            chains[number] = chain_arrays(transitions)
            del transitions
    return list(zip(states, best, chains))


def measure_memory(module, game, seats, done, max_states: int, options: dict) -> tuple[float, float]:
    """(bytes a state the walk's chain holds at its end, bytes a state at the walk's peak): tracemalloc
    (numpy's arrays are traced too)."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    transitions = module.build(game.new_initial_state(), seats, max_states, done, **options)[0]
    gc.collect()  # a full collection also empties the interpreter's free lists, which are no one's
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    states = len(transitions)
    del transitions
    gc.collect()
    return held / states, peak / states


WALK_CASES = {  # name: (game, --set options, players, castle size or hand size[, the seats' policy])
    "diamoniak-2p-small": ("diamoniak", ["castle-green=0", "castle-yellow=0", "castle-red=3", "castle-blue=3",
                                         "diamond=3", "witch=1", "fairy=1"], 2, 3),
    "diamoniak-2p-medium": ("diamoniak", ["castle-green=0", "castle-yellow=0", "castle-red=3", "castle-blue=3",
                                          "diamond=3", "witch=2", "fairy=1"], 2, 3),
    "diamoniak-2p-large": ("diamoniak", ["castle-green=0", "castle-yellow=0", "castle-red=4", "castle-blue=4",
                                         "diamond=4", "witch=2", "fairy=1"], 2, 4),
    "diamoniak-2p-stop-after": ("diamoniak", ["castle-green=0", "castle-yellow=0", "castle-red=3", "castle-blue=3",
                                              "diamond=3", "witch=2", "fairy=1"], 2, 3, "stop-after-2,keep-diamonds"),
    "diamoniak-3p": ("diamoniak", ["castle-green=2", "castle-yellow=0", "castle-red=2", "castle-blue=2",
                                   "diamond=2", "witch=1", "fairy=1"], 3, 2),
    "palaces-first-palace": ("palaces", [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof")
                                         for colour in ("blue", "green", "yellow")]
                             + ["tower=2", "ruins=1", "exchange=1", "general-exchange=0", "flood=1", "floor-red=3"], 1, None),
    "palaces-first-palace-large": ("palaces", [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof")
                                               for colour in ("blue", "green", "yellow")]
                                   + ["tower=3", "ruins=1", "exchange=1", "general-exchange=1", "flood=1",
                                      "floor-red=4"], 1, None),
    "palaces-2p": ("palaces", [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof")
                               for colour in ("blue", "green", "yellow")]
                   + ["foundation-red=2", "floor-red=2", "roof-red=2", "tower=1", "ruins=0", "exchange=1",
                      "general-exchange=0", "flood=0"], 2, 2),
}


_FIRST_WALK = """
import time
began = time.perf_counter()
from dataclasses import replace
from toolkit.catalogue import load
from toolkit.games.diamoniak.engine import DiamoniakGame
from toolkit.odds import engine_chain
from toolkit.walk import walker
from toolkit.games.diamoniak import policies as diamoniak_policies
counts = ["castle-green=0", "castle-yellow=0", "castle-red=2", "castle-blue=2", "diamond=1", "witch=1", "fairy=1"]
game = DiamoniakGame.from_catalogue(load("diamoniak", overrides=counts, require_art=False), 2)
game = replace(game, castle_size=2)
seats = [diamoniak_policies.parse("default")] * 2
ready = time.perf_counter()
walker.build(game.new_initial_state(), seats, compiled=True)
print(time.perf_counter() - ready)
"""


def first_walk(cache: str | None) -> float:
    """Seconds of a fresh interpreter's first compiled walk (a tiny deck: importing numba, loading or, with an
    empty ``cache``, compiling the kernel), after the toolkit's own imports."""
    import os
    import subprocess
    import sys

    env = dict(os.environ) if cache is None else dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", _FIRST_WALK], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def whole_answer(module, game, seats, max_states: int, done, options: dict) -> tuple:
    """The exact answer by one revision's code (an earlier one's ``solve``, or today's ``walk`` and ``answer``):
    (expected turns, win chances, the chance of no end)."""
    start = game.new_initial_state()
    if hasattr(module, "solve"):
        old = module.solve(start, seats, game.players, max_states, done, **options)
        return old.expected_turns, old.win_probability, old.p_never
    new = module.answer(module.walk(start, seats, max_states, done, **options), game.players)
    return new.expected_length, new.win, new.p_never


def walk_main(names: list[str], max_states: int, revisions: list[str], repeat: int, solve: bool,
              cold: bool = False) -> None:
    """Side by side in one run: each revision's walk on its own engines, today's engine walk and today's
    compiled walk, on the same decks."""
    from toolkit.odds import engine_chain
    from toolkit.walk import walker

    codes = []  # (label, walk module, {game: engine module, or None for today's}, build's options)
    for number, rev in enumerate(revisions):
        tag = f"rev{number}"
        codes.append((rev[:9], revision_module(rev, "toolkit/odds/engine_chain.py", f"{tag}_engine_chain"),
                      {"diamoniak": revision_module(rev, "toolkit/games/diamoniak.py", f"{tag}_diamoniak"),
                       "palaces": revision_module(rev, "toolkit/games/palaces.py", f"{tag}_palaces")}, {}))
    codes.append(("now", engine_chain, {"diamoniak": None, "palaces": None}, {"compiled": False}))
    codes.append(("compiled", engine_chain, {"diamoniak": None, "palaces": None}, {"compiled": True}))
    print(f"the compiled walk's first use in a fresh interpreter: {first_walk(None):.2f} s (numba's cache as it is)")
    if cold:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="bench-chain-numba-") as cache:
            print(f"  with an empty numba cache (compiling): {first_walk(cache):.1f} s; "
                  f"then from that cache: {first_walk(cache):.2f} s")
    for warm in (walk_case("diamoniak", WALK_CASES["diamoniak-2p-small"][1], 2, 3),  # loaded here before any clock
                 walk_case("palaces", WALK_CASES["palaces-first-palace"][1], 1, None)):
        walker.build(warm[0].new_initial_state(), warm[1], done=warm[2], compiled=True)
    print(f"{'deck':24} {'code':9} {'states':>9} {'walk s':>7} {'states/s':>10} {'bytes/state':>11} "
          f"{'peak B/st':>9} {'solve s':>7}")
    for name in names:
        game_id, overrides, players, size, *policy = WALK_CASES[name]
        here = codes
        cases = [(module, *walk_case(game_id, overrides, players, size, engines[game_id], *policy), max_states,
                  options) for _, module, engines, options in here]
        results = {}
        for (label, _, _, _), case, (states, walk, chain) in zip(here, cases, time_walks(cases, repeat)):
            held, peak = measure_memory(*case)
            result = results[label] = {"states": states, "walk": walk, "held": held, "peak": peak,
                                       "solve": None, "answer": None, "chain": chain}
            if solve:
                module, game, seats, done, _, options = case
                answer, result["solve"] = timed(lambda: whole_answer(module, game, seats, max_states, done, options))
                result["answer"] = answer
            took = "-" if result["solve"] is None else f"{result['solve']:7.2f}"
            print(f"{name:24} {label:9} {states:9,} {walk:7.3f} {states / walk:10,.0f} {held:11,.0f} {peak:9,.0f} "
                  f"{took:>7}")
        new = results["now"]
        if solve:
            for label in results:
                assert results[label]["answer"] == new["answer"], f"{name}: {label}'s walk and today's disagree"
            print(f"{'':24} the same exact answer from every code")
        for label, _, _, _ in here:
            if label in ("now", "compiled"):
                continue
            old = results[label]
            whole = "" if not solve else f", whole answer {new['solve'] / old['solve']:.2f}"
            print(f"{'':24} now / {label}: walk time {new['walk'] / old['walk']:.3f}, states "
                  f"{new['states'] / old['states']:.2f}, time per state "
                  f"{new['walk'] / new['states'] / (old['walk'] / old['states']):.3f}, "
                  f"bytes per state {new['held'] / old['held']:.3f} (peak {new['peak'] / old['peak']:.3f}), "
                  f"walk's memory in all {new['held'] * new['states'] / (old['held'] * old['states']):.3f}{whole}")
        if "compiled" in results:
            fast = results["compiled"]
            assert fast["chain"] == new["chain"], f"{name}: the compiled walk's chain is not the engine walk's"
            whole = "" if not solve else f", whole answer {new['solve'] / fast['solve']:.2f}x"
            print(f"{'':24} compiled vs now: the same chain, array for array; {new['walk'] / fast['walk']:.1f}x "
                  f"faster a state, peak bytes a state {fast['peak'] / new['peak']:.2f}x{whole}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000)
    parser.add_argument("--layers", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cycle-rate", type=float, default=0.1, help="how often small cycles appear (0: none)")
    parser.add_argument("--random-weights", action="store_true",
                        help="weights 1..6 instead of card counts (much bigger exact numbers)")
    parser.add_argument("--walk", nargs="*", metavar="DECK", choices=sorted(WALK_CASES),
                        help="time the engine walk instead, earlier revisions' code against today's, on these decks "
                             "(default: all)")
    parser.add_argument("--old", nargs="*", metavar="REV", default=["HEAD"],
                        help="with --walk: the git revisions to compare with (default: HEAD; none if left empty)")
    parser.add_argument("--cold", action="store_true",
                        help="with --walk: also time the compiled walk's first use with an empty numba cache")
    parser.add_argument("--repeat", type=int, default=3, help="with --walk: walks timed per module, the best kept")
    parser.add_argument("--no-solve", action="store_true",
                        help="with --walk: time the walks only, not the whole exact answers (nor compare them)")
    parser.add_argument("--max-states", type=int, default=1_000_000, help="the walks' state limit (with --walk)")
    args = parser.parse_args()
    if args.walk is not None:
        walk_main(args.walk or sorted(WALK_CASES), args.max_states, args.old, args.repeat, not args.no_solve,
                  args.cold)
        return

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
