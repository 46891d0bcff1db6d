"""Games per second of the compiled kernels against the rules engine, side by side in one run.

Run: python benchmarks/bench_simulate.py [--engine-games N] [--kernel-games N] [--c-games N] [--quick] [--c-only]

For each configuration (default policies): the engine plays ``--engine-games`` games through
``toolkit.sim.play`` and the kernel plays ``--kernel-games`` games through ``toolkit.fast``; the
kernel's first games are checked to be the engine's games, record for record. The kernel's first-call
cost is measured twice in fresh processes: cold (an empty numba cache: compiling) and warm (the cache
that the cold run left), each the whole time of importing and playing one game.
Also: a plain shuffle-a-list solo Diamoniak loop (the baseline of the first wave), and the C program
``benchmarks/c/diamoniak.c`` (the kernel's steps, state layout and card order written in C, compiled here
with ``cc -O3 -march=native``) against the kernel on the same ``--c-games`` two-player default games
(4,000,000 unless ``--quick``): both must give the same records (wins per seat, and the sum of every
other field); the ratio is kernel/C, of CPU time (the machine may be shared) and of the clock. Issue 34
asks for at most 1.5x.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from toolkit.catalogue import load
from toolkit.games.diamoniak.kernel import FIELDS
from toolkit.games.registry import make_game
from toolkit.sim.play import engine_batch
from toolkit.sim.records import kernel_for
from toolkit.seats import builtin_players

C_SOURCE = Path(__file__).parent / "c" / "diamoniak.c"
C_KINDS = {"castle": 0, "diamond": 1, "witch": 2, "fairy": 3}  # as the C program numbers them
KERNEL_CHUNK = 200_000  # games per kernel batch in the C comparison (memory stays flat)
CONFIGS = (("diamoniak", 1), ("diamoniak", 2), ("diamoniak", 4), ("palaces", 2), ("palaces", 4))

_FIRST_CALL = """
import time
start = time.perf_counter()
from toolkit.catalogue import load
from toolkit.games.registry import make_game
from toolkit.sim.records import kernel_for
from toolkit.seats import builtin_players
cat = load({game!r}, require_art=False)
game = make_game(cat, {players})
seats = builtin_players({game!r}, {players})
kernel_for(game, seats).batch(game, seats, 1, 0, 1)
print(time.perf_counter() - start)
"""


def first_call(game: str, players: int, cache: str) -> float:
    """Seconds from a fresh interpreter to one game played by the kernel, with numba's cache in ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL.format(game=game, players=players)], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


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


def c_arguments(game, games: int, run_seed: int, max_turns: int) -> list[str]:
    """The command line of the C program for ``game`` (the catalogue's deck and rule numbers)."""
    colours = list(dict.fromkeys(c for c in game.colours if c is not None))
    args = [games, run_seed, 0, game.players, game.castle_size, game.price, game.witch_takes, max_turns]
    for kind, colour, count in zip(game.kinds, game.colours, game.counts):
        args += [C_KINDS[kind], -1 if colour is None else colours.index(colour), count]
    return [str(arg) for arg in args]


C_FLAGS = ("-O3", "-march=native")  # the C program as fast as this machine's compiler makes it


def c_program(folder: str) -> str | None:
    """``benchmarks/c/diamoniak.c`` compiled into ``folder`` (its path), or None without a C compiler."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    program = os.path.join(folder, "diamoniak")
    subprocess.run([compiler, *C_FLAGS, "-o", program, str(C_SOURCE)], check=True)
    return program


def c_counts(line: str) -> tuple[list[int], float, float]:
    """The C program's line read: (wins per seat, games nobody won, each other field's sum in FIELDS
    order), its clock seconds and its CPU seconds."""
    words = line.split()
    at = words.index("nobody")
    named = dict(zip(words[at::2], words[at + 1::2]))
    counts = [int(n) for n in words[1:at]] + [int(named["nobody"])]
    counts += [int(named[name]) for name in FIELDS[1:]]
    return counts, float(named["seconds"]), float(named["cpu"])


def against_c(games: int, run_seed: int = 1, max_turns: int = 10_000) -> str:
    """The kernel and the C program on the same two-player default games: one line, or why not. The
    two must give the same records: the same wins per seat and the same sum of every other field."""
    cat = load("diamoniak", require_art=False)
    game = make_game(cat, 2)
    seats = builtin_players("diamoniak", 2)
    kernel = kernel_for(game, seats)
    kernel.batch(game, seats, run_seed, 0, 10)  # compiled (or loaded from the cache) before the clock starts
    with tempfile.TemporaryDirectory() as folder:
        program = c_program(folder)
        if program is None:
            return "plain C: skipped (no C compiler: cc not found)"
        out = subprocess.run([program, *c_arguments(game, games, run_seed, max_turns)], capture_output=True,
                             text=True, check=True).stdout
    c_count, c_clock, c_cpu = c_counts(out)
    wins, nobody = np.zeros(2, dtype=np.int64), 0
    sums = np.zeros(len(FIELDS) - 1, dtype=np.int64)
    clock, cpu = time.perf_counter(), time.process_time()
    for start in range(0, games, KERNEL_CHUNK):
        records = kernel.batch(game, seats, run_seed, start, min(KERNEL_CHUNK, games - start), max_turns)
        wins += np.bincount(records["winner"][records["winner"] >= 0], minlength=2)
        nobody += int((records["winner"] < 0).sum())
        sums += [int(records[name].sum()) for name in FIELDS[1:]]
    cpu, clock = time.process_time() - cpu, time.perf_counter() - clock
    k_count = [*map(int, wins), nobody, *map(int, sums)]
    same = "same records" if k_count == c_count else f"DIFFERENT records: kernel {k_count}, C {c_count}"
    return (f"diamoniak, 2 players, {games:,} default games: kernel {cpu:.2f} s CPU ({clock:.2f} s clock), "
            f"C (cc {' '.join(C_FLAGS)}) {c_cpu:.2f} s CPU ({c_clock:.2f} s clock); kernel/C {cpu / c_cpu:.2f}x "
            f"CPU, {clock / c_clock:.2f}x clock (target at most 1.5x); {same} (wins {k_count[0]:,} / "
            f"{k_count[1]:,}, {k_count[3]:,} turns)")


def side_by_side(game_id: str, players: int, engine_games: int, kernel_games: int) -> dict:
    cat = load(game_id, require_art=False)
    game = make_game(cat, players)
    seats = builtin_players(game_id, players)
    kernel = kernel_for(game, seats)
    kernel.batch(game, seats, 1, 0, 10)  # compiled (or loaded from the cache) before the clock starts
    start = time.perf_counter()
    engine = engine_batch(game, seats, 1, 0, engine_games)
    engine_rate = engine_games / (time.perf_counter() - start)
    start = time.perf_counter()
    fast = kernel.batch(game, seats, 1, 0, kernel_games)
    kernel_rate = kernel_games / (time.perf_counter() - start)
    same = all(np.array_equal(engine[name], fast[name][:engine_games]) for name in engine)
    return {"engine": engine_rate, "kernel": kernel_rate, "same": same,
            "mean_turns": float(fast["turns"].mean())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-games", type=int, default=2_000)
    parser.add_argument("--kernel-games", type=int, default=200_000)
    parser.add_argument("--c-games", type=int, default=4_000_000, help="games of the kernel against plain C")
    parser.add_argument("--quick", action="store_true", help="fewer games, no first-call measurement")
    parser.add_argument("--c-only", action="store_true", help="only the kernel against C (--c-games games)")
    args = parser.parse_args()
    if args.c_only:
        print(against_c(args.c_games))
        return
    engine_games, kernel_games = (300, 20_000) if args.quick else (args.engine_games, args.kernel_games)
    c_games = 200_000 if args.quick else args.c_games
    print(f"{'configuration':<24}{'engine games/s':>16}{'kernel games/s':>16}{'ratio':>8}  same games")
    for game_id, players in CONFIGS:
        row = side_by_side(game_id, players, engine_games, kernel_games)
        print(f"{game_id + f', {players} player(s)':<24}{row['engine']:>16,.0f}{row['kernel']:>16,.0f}"
              f"{row['kernel'] / row['engine']:>7.0f}x  {'yes' if row['same'] else 'NO'}")
    print(f"baseline shuffle-a-list solo loop, 20,000 games: {baseline_shuffle(20_000):,.0f} games/s")
    print(against_c(c_games))
    if args.quick:
        return
    for game_id, players in (("diamoniak", 2), ("palaces", 4)):
        with tempfile.TemporaryDirectory() as cache:
            cold = first_call(game_id, players, cache)
            warm = first_call(game_id, players, cache)
        print(f"first call, {game_id} {players} players: {cold:.1f} s cold (compiling), {warm:.1f} s warm (cached)")


if __name__ == "__main__":
    main()
