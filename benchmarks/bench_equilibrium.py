"""The equilibrium of games of hidden information, side by side with OpenSpiel's C++ CFR, in one run.

Issue 35's targets: Leduc hold'em's value to within 1e-6 in less time than OpenSpiel's C++ CFR takes for
1,000 iterations on the same machine (the goal: a tenth of it), and a game of about 100,000 information
sets to a guaranteed exploitability of 1e-3 of its payoff range within 10 minutes and 4 GB.

Each line is one job, timed alone (wall clock and CPU, the walk of the game included):

* ours, the sequence form: ``examples/leduc/leduc.py`` solved exactly and proven;
* ours, CFR+: 1,000 iterations on the same file, and the bound its average play's best replies give;
* OpenSpiel: ``pyspiel.CFRSolver`` on ``leduc_poker`` for 1,000 iterations, then ``pyspiel.exploitability``
  of its average play (OpenSpiel's value is that play's, within twice its exploitability);
* with ``--big``: ``open_spiel:liars_dice(numdice=1,dice_sides=7)`` (114,688 information sets) by CFR+ until
  the bound is 1e-3 of the payoff's range (2), with the peak memory of the process.

    python benchmarks/bench_equilibrium.py [--big] [--iterations 1000]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEDUC_VALUE = -0.085606424078


def timed(job):
    begun, cpu = time.perf_counter(), time.process_time()
    out = job()
    return out, time.perf_counter() - begun, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--big", action="store_true", help="also the game of 114,688 information sets")
    args = parser.parse_args()
    from toolkit.rules import equilibrium
    from toolkit.rules.load import load_rules

    leduc = str(ROOT / "examples" / "leduc" / "leduc.py")
    # numba's compiled loops are cached on disk: one small run first, untimed, so that no line pays the compiler
    equilibrium.solve(load_rules(str(ROOT / "examples" / "kuhn" / "kuhn.py")), method="cfr", iterations=10)
    answer, wall, cpu = timed(lambda: equilibrium.solve(load_rules(leduc)))
    print(f"ours, sequence form, Leduc: value {float(answer.value):.12f} "
          f"({'exact and proven' if answer.exact else 'bounded'}; off the published {LEDUC_VALUE} by "
          f"{abs(float(answer.value) - LEDUC_VALUE):.1e}): {wall:.2f} s ({cpu:.2f} s CPU)")
    answer, wall, cpu = timed(lambda: equilibrium.solve(load_rules(leduc), method="cfr", iterations=args.iterations))
    low, high = (float(b) for b in answer.bounds)
    print(f"ours, CFR+ {args.iterations:,} iterations, Leduc: between {low:.9f} and {high:.9f} (width {high - low:.2e}):"
          f" {wall:.2f} s ({cpu:.2f} s CPU)")
    answer, wall, cpu = timed(lambda: equilibrium.solve(load_rules(leduc), method="cfr", target=2e-6))
    low, high = (float(b) for b in answer.bounds)
    print(f"ours, CFR+ until the bound is 2e-6 wide (the value within 1e-6), Leduc: {answer.iterations:,} iterations, "
          f"between {low:.9f} and {high:.9f}: {wall:.2f} s ({cpu:.2f} s CPU)")
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed: pip install open_spiel")
    else:
        def open_spiel_cfr():
            game = pyspiel.load_game("leduc_poker")
            solver = pyspiel.CFRSolver(game)
            for _ in range(args.iterations):
                solver.evaluate_and_update_policy()
            return game, solver, solver.average_policy()  # the policy reads the solver's tables: keep both
        (game, solver, policy), wall, cpu = timed(open_spiel_cfr)
        gap, gap_wall, _ = timed(lambda: pyspiel.exploitability(game, policy))
        print(f"OpenSpiel C++ CFRSolver {args.iterations:,} iterations, Leduc: exploitability {gap:.6f} (its value "
              f"within {2 * gap:.4f}): {wall:.2f} s ({cpu:.2f} s CPU), and {gap_wall:.2f} s for the exploitability")
    if args.big:
        name = "open_spiel:liars_dice(numdice=1,dice_sides=7)"
        game = load_rules(name)
        answer, wall, cpu = timed(lambda: equilibrium.solve(game, method="cfr", max_states=5_000_000))
        low, high = (float(b) for b in answer.bounds)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"ours, CFR+, {name[11:]}: {answer.nodes:,} states, {answer.sets:,} information sets, "
              f"{answer.iterations:,} iterations, between {low:.6f} and {high:.6f} (width {high - low:.1e}, "
              f"{(high - low) / 2:.1e} of the payoff's range): {wall:.1f} s ({cpu:.1f} s CPU), peak memory "
              f"{peak:,.0f} MB")


if __name__ == "__main__":
    main()
