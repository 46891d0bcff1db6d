"""Time ``toolkit rulebook`` for both games in every language, flat and as a booklet: a cold build
(the solver runs: the odds appendix's figures) in a fresh process, then warm builds (the odds
already known in this process, so only the PDF is made). Reports pages, size and times.

    .venv/bin/python benchmarks/bench_rulebook.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from toolkit.catalogue import load
from toolkit.games.registry import ids

BUILTIN_GAMES = ids()
from toolkit.rulebook import build_rulebook


def cold(game: str) -> float:
    """A whole command in a new process: imports, the solver, the PDF."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "toolkit", "rulebook", "--game", game, "--out",
                        str(Path(folder) / "rules.pdf")], check=True, capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for game in BUILTIN_GAMES:
        print(f"{game}: cold command (new process, solver included): {cold(game):.2f} s")
        catalogue = load(game)
        build_rulebook(catalogue, "en")  # the odds, once
        for lang in (*catalogue.langs, "+".join(catalogue.langs)):
            for booklet in (False, True):
                times = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    result = build_rulebook(catalogue, lang, booklet=booklet)
                    times.append(time.perf_counter() - start)
                print(f"  {lang:6s} {'booklet' if booklet else 'A4     '}  best {min(times):.2f} s, median "
                      f"{statistics.median(times):.2f} s  {result.content_pages:2d} pages, {len(result.pdf) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
