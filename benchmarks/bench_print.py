"""Time ``toolkit print-cards`` (and the exports) for both games, the way the command runs them: load
the catalogue, build the PDF, write it. Reports the best and the median of a few runs, the PDF size
and its page count.

    python benchmarks/bench_print.py [--repeat 5] [--lang en] [--exports]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from toolkit.cards.render import CARD_SIZES
from toolkit.catalogue import load
from toolkit.games.registry import ids

BUILTIN_GAMES = ids()
from toolkit.files import write_atomic
from toolkit.print import print_cards
from toolkit.print.export import TARGETS, export_cards

CASES = [
    ("default (A4, duplex long)", {}),
    ("letter, 3 mm bleed, 2 mm gutter", {"paper": "letter", "bleed": 3.0, "gutter": 2.0}),
    ("fold", {"duplex": "fold"}),
    ("mini cards, fronts only", {"card_mm": CARD_SIZES["mini"], "duplex": "none"}),
]


def timed(func, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lang", default="en", choices=("en", "ru"))
    parser.add_argument("--exports", action="store_true", help="also time export-cards (every target)")
    args = parser.parse_args()
    print_cards(load("diamoniak"))  # warm up: imports, font registration
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        print(f"{'game':<10} {'case':<34} {'best':>7} {'median':>7} {'size':>9} {'pages':>5}")
        for game in BUILTIN_GAMES:
            for label, options in CASES:
                def run():
                    result = print_cards(load(game), lang=args.lang, **options)
                    write_atomic(out / f"{game}.pdf", result.pdf)
                    return result
                best, median, result = timed(run, args.repeat)
                print(f"{game:<10} {label:<34} {best:6.2f}s {median:6.2f}s {len(result.pdf) / 1024:7.0f}KB "
                      f"{len(result.pages):5d}")
        if args.exports:
            for game in BUILTIN_GAMES:
                for target in TARGETS:
                    best, median, _ = timed(
                        lambda: export_cards(load(game), target, out / f"{game}-{target}", lang=args.lang),
                        args.repeat)
                    print(f"{game:<10} {'export ' + target:<34} {best:6.2f}s {median:6.2f}s")


if __name__ == "__main__":
    main()
