"""Solo Diamoniak's exact solver as the deck grows: today's code against an earlier revision, side by side.

For each point (witches, or any deck option below), ``solo_odds`` of the working tree and of
``--old`` (a git revision, default HEAD: ``git show REV:toolkit/odds/diamoniak_solo.py`` and
``solo_passes.py``, loaded as modules without touching the work tree or git state) each run in a fresh subprocess, one after
the other, with the state budget lifted. Printed per point: wall-clock seconds, peak resident memory
(MB), states gone through and pile starts of each, the ratio old / new, and whether the two give the
same fractions (expected turns, the whole distribution, its tail, the reshuffle chance). Storm (if
stormpy is installed) solves the same model in floating point (benchmarks/diamoniak_solo.prism via
bench_odds.py's helpers) with --storm
(then the MB column is not the solver's: a child's peak includes the parent it was forked from,
which then holds Storm).

    python benchmarks/bench_solo_scale.py [--witches 7 9 10 11 12] [--old-up-to 11] [--storm]
        [--diamonds N] [--fairies N] [--castles N] [--size N] [--takes N] [--old REV]

Old runs above --old-up-to witches are skipped (today's HEAD needs 453 s at witch=12).

    python benchmarks/bench_solo_scale.py --reach witch=20,diamond=53 witch=20 ...

solves each deck with the solver's own state budget instead (no old code, no Storm): exact, or
refused with the estimate the solver made, and how long either took.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import dataclasses, hashlib, json, resource, subprocess, sys, time, types
sys.set_int_max_str_digits(0)
from toolkit.catalogue import load
spec = json.loads(sys.argv[1])
if spec["old"]:
    # the revision's solver modules stand in for today's under their own names (dataclasses and the
    # solver's lazy imports look them up there); a module the revision does not have is today's
    for name in ("solo_passes", "diamoniak_solo"):
        shown = subprocess.run(["git", "-C", spec["root"], "show", f"{spec['old']}:toolkit/odds/{name}.py"],
                               capture_output=True, text=True)
        if shown.returncode:
            continue
        module = types.ModuleType(f"toolkit.odds.{name}")
        sys.modules[module.__name__] = module
        exec(compile(shown.stdout, f"old_{name}.py", "exec"), module.__dict__)
    solo = sys.modules["toolkit.games.diamoniak.solo"]
else:  # solo_passes (and numpy with it) loaded before the clock starts, as the old revision's are
    from toolkit.games.diamoniak import solo
    from toolkit.games.diamoniak import solo_passes
catalogue = load("diamoniak", overrides=spec["overrides"], require_art=False)
deck = dataclasses.replace(solo.SoloDeck.from_catalogue(catalogue), **spec["rules"])
began = time.perf_counter()
try:
    if spec.get("max_states") == "own":  # the solver's own limit for this deck
        odds = solo.solo_odds(deck)
    else:
        odds = solo.solo_odds(deck, max_states=spec.get("max_states") or 10**12)
except Exception as refused:  # TooManyStates: within the budget given, the deck is out of reach
    print(json.dumps({"seconds": time.perf_counter() - began, "refused": str(refused)}))
    raise SystemExit(0)
elapsed = time.perf_counter() - began
digest = hashlib.sha256(repr((odds.expected_turns, odds.p, odds.tail, odds.never, odds.p_reshuffle)).encode()).hexdigest()
print(json.dumps({"seconds": elapsed, "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "states": odds.states, "piles": odds.piles, "turns": len(odds.p), "digest": digest,
                  "bits": odds.expected_turns.denominator.bit_length() if odds.expected_turns else None,
                  "expected": float(odds.expected_turns) if odds.expected_turns else None}))
"""


def run(old: str | None, overrides: list[str], rules: dict, max_states: int | None = None) -> dict:
    spec = json.dumps({"old": old, "root": str(ROOT), "overrides": overrides, "rules": rules, "max_states": max_states})
    done = subprocess.run([sys.executable, "-c", CHILD, spec], capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout)


def storm_float(overrides: list[str], rules: dict) -> float | None:
    """Seconds Storm takes to build and check the PRISM model in floating point (None: no stormpy)."""
    sys.path.insert(0, str(Path(__file__).parent))
    import bench_odds

    if bench_odds.stormpy is None:
        return None
    import dataclasses

    from toolkit.catalogue import load
    from toolkit.games.diamoniak.solo import SoloDeck

    deck = dataclasses.replace(SoloDeck.from_catalogue(load("diamoniak", overrides=overrides, require_art=False)),
                               **rules)
    program = bench_odds.prism_program(bench_odds.prism_constants(deck))
    _, seconds = bench_odds.best_of(1, lambda: bench_odds.storm_check(program, float))
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--witches", type=int, nargs="+", default=[7, 9, 10, 11, 12])
    parser.add_argument("--old", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument("--old-up-to", type=int, default=11, help="skip the old code above this many witches")
    parser.add_argument("--storm", action="store_true", help="also time Storm in floating point")
    parser.add_argument("--diamonds", type=int)
    parser.add_argument("--fairies", type=int)
    parser.add_argument("--castles", type=int, help="castle cards of each colour")
    parser.add_argument("--size", type=int)
    parser.add_argument("--takes", type=int)
    parser.add_argument("--reach", nargs="+", metavar="SETS",
                        help="instead: decks given as --set lists (witch=20,diamond=53), each solved with the "
                             "solver's own budget: exact, or refused with its estimate, and how long either took")
    args = parser.parse_args()
    if args.reach:
        print("deck | cards | answer | seconds | states | pile starts | MB")
        for sets in args.reach:
            overrides = sets.split(",")
            done = run(None, overrides, {}, "own")
            from toolkit.catalogue import load

            cards = load("diamoniak", overrides=overrides, require_art=False).total
            if "refused" in done:
                print(f"{sets} | {cards} | refused: {done['refused']} | {done['seconds']:.1f} | - | - | -", flush=True)
            else:
                print(f"{sets} | {cards} | exact, {done['expected']:.6f} turns | {done['seconds']:.1f} | "
                      f"{done['states']:,} | {done['piles']} | {done['mb']:,.0f}", flush=True)
        return
    base = [f"{card}={n}" for card, n in (("diamond", args.diamonds), ("fairy", args.fairies)) if n is not None]
    if args.castles is not None:
        base += [f"castle-{colour}={args.castles}" for colour in ("red", "blue", "green", "yellow")]
    rules = {key: n for key, n in (("size", args.size), ("takes", args.takes)) if n is not None}
    print("witch | states | pile starts | denominator bits | new s | new MB | old s | old MB | old/new | same "
          "fractions | Storm float s")
    for witches in args.witches:
        overrides = base + [f"witch={witches}"]
        new = run(None, overrides, rules)
        old = run(args.old, overrides, rules) if witches <= args.old_up_to else None
        storm = storm_float(overrides, rules) if args.storm else None
        cells = [witches, f"{new['states']:,}", new["piles"], new["bits"], f"{new['seconds']:.2f}", f"{new['mb']:.0f}"]
        if old:
            cells += [f"{old['seconds']:.2f}", f"{old['mb']:.0f}", f"{old['seconds'] / new['seconds']:.1f}x",
                      "yes" if old["digest"] == new["digest"] else "NO"]
        else:
            cells += ["-", "-", "-", "-"]
        cells.append("-" if storm is None else f"{storm:.2f} ({storm / new['seconds']:.2f}x ours)")
        print(" | ".join(str(cell) for cell in cells), flush=True)


if __name__ == "__main__":
    main()
