"""Time our exact solo-Diamoniak solver against the probabilistic model checker Storm on the same chain.

benchmarks/diamoniak_solo.prism is the solo model as a PRISM DTMC (one draw per step, like
toolkit/odds/diamoniak_solo.py). Storm (stormpy) builds it and checks R{"witches"}=? [F "won"] in
floating point and in exact rational arithmetic; the expected number of turns is 1 + that. Each time
is the best wall clock of --runs runs: for Storm, building the model plus checking the property; for
us, ``solo_odds(deck)`` (what `toolkit odds` runs: the expected value, the whole distribution of
turns and the chance of a reshuffle) and, as a second exact method, the backward walk ``solve(deck)``
(--backward: the tests' reference solver, tests/solo_reference.py). The deck options change both sides.

With --drn it checks instead the chains `toolkit odds --export-chain` writes (Storm's explicit DRN):
solo on the built-in deck and with --set witch=10, and multi on a small two-colour deck. Storm loads
each file (``stormpy.build_model_from_drn``) and checks ``R{"turns"}=? [F "end"]`` (and the reshuffle
chance or each seat's win chance) in floating point, and in exact rational arithmetic for files up to
--exact-states states; the exact values must be the very fractions `toolkit odds --json` prints, the
floating-point ones must agree within 1e-9. A file past --exact-states (Storm exact did not finish
witch=10's in 20 minutes, nor its rational search in 15) is checked instead by Storm's sound value
iteration, whose value is guaranteed within 1e-12 of the true one: ours must lie within that bound
(a certified agreement, not a float's). Times, side by side: our answer, the extra time
--export-chain takes, Storm's load and its check.

    .venv/bin/python benchmarks/bench_odds.py [--runs 3] [--witches 7] [--diamonds 20] [--fairies 3]
        [--castles 6] [--size 6] [--takes 3]
    .venv/bin/python benchmarks/bench_odds.py --drn [--exact-states 600000]

Storm is a benchmark-only extra: pip install stormpy (or: pip install -e '.[bench]').
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from toolkit.catalogue import load
from toolkit.games.diamoniak.solo import SoloDeck, solo_odds
from toolkit.odds.report import answer

try:
    import stormpy
except ImportError:
    stormpy = None

MODEL = Path(__file__).with_name("diamoniak_solo.prism")
PROPERTY = 'R{"witches"}=? [F "won"]'


def best_of(runs: int, action):
    """The result and wall-clock time of the fastest of ``runs`` runs of ``action()``."""
    best, best_result = float("inf"), None
    for _ in range(runs):
        began = time.perf_counter()
        result = action()
        elapsed = time.perf_counter() - began
        if elapsed < best:
            best, best_result = elapsed, result
    return best_result, best


def load_deck(args) -> SoloDeck:
    catalogue = load("diamoniak", require_art=False)
    overrides = [f"{card.id}={args.castles}" for card in catalogue.of_kind("castle") if args.castles is not None]
    overrides += [f"{card_id}={n}" for card_id, n in
                  (("diamond", args.diamonds), ("witch", args.witches), ("fairy", args.fairies)) if n is not None]
    deck = SoloDeck.from_catalogue(load("diamoniak", overrides=overrides, require_art=False))
    rules = {"size": args.size, "takes": args.takes}
    return dataclasses.replace(deck, **{key: n for key, n in rules.items() if n is not None})


def prism_constants(deck: SoloDeck) -> dict[str, int]:
    per_colour = {n for _, n in deck.castles}
    if len(per_colour) != 1:
        raise SystemExit(f"the PRISM model needs colours of one size, got {deck.castles}")
    return {"COLOURS": len(deck.castles), "PER_COLOUR": per_colour.pop(), "DIAMONDS": deck.diamonds,
            "WITCHES": deck.witches, "FAIRIES": deck.fairies, "SIZE": deck.size, "TAKES": deck.takes}


def prism_program(constants: dict[str, int]):
    """The PRISM model with its ``const int NAME = default;`` lines set to ``constants``.

    Storm refuses to redefine a constant that the file defines, so the text is rewritten instead.
    """
    text = MODEL.read_text()
    for name, value in constants.items():
        text, found = re.subn(rf"^const int {name} = \d+;", f"const int {name} = {value};", text, flags=re.M)
        assert found == 1, name
    with tempfile.NamedTemporaryFile("w", suffix=".prism") as file:
        file.write(text)
        file.flush()
        return stormpy.parse_prism_program(file.name)


def storm_check(program, value_type):
    """Build the model with Storm and check the property: (model, expected witches, build s, check s)."""
    prop = stormpy.parse_properties(PROPERTY, program)[0]
    began = time.perf_counter()
    model = stormpy.build_model[value_type](program, [prop])
    built = time.perf_counter()
    result = stormpy.model_checking(model, prop, only_initial_states=True)
    witches = result.get_value(model.initial_states[0])
    return model, witches, built - began, time.perf_counter() - built


# --- the exported chains (--drn) ------------------------------------------------------------------

def small_multi_catalogue():
    """The README's small deck: two colours of three castle cards, a castle of 3, three diamonds, a witch, a fairy."""
    counts = {"castle-red": 3, "castle-blue": 3, "castle-green": 0, "castle-yellow": 0, "diamond": 3, "witch": 1,
              "fairy": 1}
    catalogue = load("diamoniak", overrides=[f"{card}={n}" for card, n in counts.items()], require_art=False)
    return dataclasses.replace(catalogue, rules={**catalogue.rules, "castle_size": 3})


SOUND = 1e-12  # the absolute precision Storm's float solvers are set to (its sound one guarantees it)


def storm_environment(value_type, sound: bool = False):
    """Storm's solver settings: in floating point, its native solver down to SOUND (absolute), so that
    an agreement within 1e-9 is Storm's to give (its default stops at a relative 1e-6); ``sound``: its
    sound value iteration, whose answer is guaranteed within SOUND; exact: exact methods."""
    from stormpy import environments

    if value_type is not float:
        return environments.exact()
    environment = stormpy.Environment()
    environment.solver().set_linear_equation_solver_type(environments.EquationSolverType.NATIVE)
    environment.solver().native().precision = stormpy.Rational("1/1000000000000")
    environment.solver().native().relative_termination_criterion = False
    if sound:
        environment.solver().native().method = environments.NativeLinearEquationSolverMethod.SOUND_VALUE_ITERATION
        environment.solver().force_soundness = True
    return environment


def storm_values(path: Path, value_type, properties: dict[str, str], sound: bool = False):
    """Load a DRN file into Storm and check each property at the initial state: (values, load s, check s)."""
    environment = storm_environment(value_type, sound)
    began = time.perf_counter()
    model = stormpy.build_model_from_drn[value_type](str(path))
    loaded = time.perf_counter()
    labels = model.labeling.get_labels()
    values = {}
    for name, text in properties.items():
        if any(label not in labels for label in re.findall(r'"(\w+)"', text[text.index("["):])):
            values[name] = 0  # a label no state has: Storm refuses the property, the chance is 0
            continue
        prop = stormpy.parse_properties(text)[0]
        result = stormpy.model_checking(model, prop, only_initial_states=True, environment=environment)
        values[name] = result.get_value(model.initial_states[0])
    return values, model.nr_states, loaded - began, time.perf_counter() - loaded


def check_drn(args) -> None:
    """Export the chains, check them with Storm, print the times side by side."""
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        cases = [
            ("solo, built-in deck", load("diamoniak", require_art=False), "solo", {}),
            ("solo, --set witch=10", load("diamoniak", overrides=["witch=10"], require_art=False), "solo", {}),
            ("multi, 2 players, small deck", small_multi_catalogue(), "multi", {"players": 2}),
        ]
        print(f"best of {args.runs} runs; Storm exact only for files of at most {args.exact_states:,} states")
        for title, catalogue, model, options in cases:
            plain, ours_time = best_of(args.runs, lambda: answer(catalogue, model, **options))
            exported, with_export = best_of(args.runs, lambda: answer(catalogue, model, export_chain=True, **options))
            data, states = exported.chain
            path = folder / "chain.drn"
            path.write_bytes(data)
            ours = {"turns": Fraction(plain.data["expected_turns"])}
            properties = {"turns": 'R{"turns"}=? [F "end"]'}
            if model == "solo":
                ours["reshuffle"] = Fraction(plain.data["p_reshuffle"])
                properties["reshuffle"] = 'P=? [F "reshuffle" | "never"]' if Fraction(plain.data["p_never"]) \
                    else 'P=? [F "reshuffle"]'
            else:
                for seat, p in enumerate(plain.data["win_probability"], start=1):
                    ours[f"win{seat}"] = Fraction(p)
                    properties[f"win{seat}"] = f'P=? [F "win{seat}"]'
            print(f"\n{title}: {states:,} states, {len(data) / 1e6:.1f} MB")
            print(f"  ours: answer {ours_time:.3f}s, --export-chain adds {with_export - ours_time:.3f}s")
            small = states <= args.exact_states
            kinds = [("float", float, False), ("exact", stormpy.Rational, False) if small else
                     ("sound", float, True)]
            for label, value_type, sound in kinds:
                (values, nr_states, load_time, check_time), _ = best_of(
                    args.runs, lambda: storm_values(path, value_type, properties, sound))
                assert nr_states == states, (nr_states, states)
                if value_type is float:
                    worst = max(abs(values[name] - float(ours[name])) for name in ours)
                    bound = SOUND if sound else 1e-9  # the float's own rounding is far below either
                    verdict = (f"agrees within {worst:.2g}" + (f" (<= {bound:g}: YES)" if worst <= bound else
                                                               f" (> {bound:g}: NO)")
                               + (", Storm's bound guaranteed" if sound else ""))
                else:
                    same = all(Fraction(str(values[name])) == ours[name] for name in ours)
                    verdict = "the same fractions: " + ("YES" if same else "NO")
                print(f"  Storm {label}: load {load_time:.3f}s, check {check_time:.3f}s "
                      f"({', '.join(properties)}): {verdict}")
            if not small:
                print(f"  Storm exact: skipped (more than {args.exact_states:,} states; --exact-states to raise)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs (default 3)")
    parser.add_argument("--witches", type=int)
    parser.add_argument("--diamonds", type=int)
    parser.add_argument("--fairies", type=int)
    parser.add_argument("--castles", type=int, help="castle cards of each colour")
    parser.add_argument("--size", type=int, help="castle cards that win")
    parser.add_argument("--takes", type=int, help="cards a witch takes")
    parser.add_argument("--backward", action="store_true", help="also time the backward walk (slow on cyclic decks)")
    parser.add_argument("--drn", action="store_true", help="check the chains --export-chain writes with Storm instead")
    parser.add_argument("--exact-states", type=int, default=600_000,
                        help="with --drn: Storm exact only for files of at most this many states (default 600,000)")
    args = parser.parse_args()
    if args.drn:
        if stormpy is None:
            raise SystemExit("--drn needs Storm: pip install stormpy (or: pip install -e '.[bench]')")
        check_drn(args)
        return

    deck = load_deck(args)
    constants = prism_constants(deck)
    if constants["PER_COLOUR"] < deck.size:
        raise SystemExit("no castle can be completed with this deck: the expected number of turns is infinite")
    print("deck:", ", ".join(f"{name}={value}" for name, value in constants.items()), f"(best of {args.runs} runs)")

    ours, ours_time = best_of(args.runs, lambda: solo_odds(deck))
    print(f"ours        {ours_time:8.3f}s  solo_odds: {ours.states:,} states gone through, {ours.piles} pile starts chained")
    print(f"  expected turns {ours.expected_turns}\n               = {float(ours.expected_turns)!r}")
    if args.backward:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from solo_reference import solve

        walk, walk_time = best_of(args.runs, lambda: solve(deck))
        print(f"ours, backward walk {walk_time:8.3f}s  {walk.states:,} states ({walk.method}): "
              f"{'the same fraction' if walk.expected_turns == ours.expected_turns else 'DIFFERENT'}")

    if stormpy is None:
        print("Storm skipped: stormpy is not installed (pip install stormpy, or pip install -e '.[bench]')")
        return
    program = prism_program(constants)
    times = {}
    for label, value_type in (("float", float), ("exact", stormpy.Rational)):
        (model, witches, build, check), total = best_of(args.runs, lambda: storm_check(program, value_type))
        times[label] = total
        won = model.labeling.get_states("won").get_number_of_set_bits()
        print(f"Storm {label}  {total:8.3f}s  (build {build:.3f}s + check {check:.3f}s)  {model.nr_states:,} states "
              f"({model.nr_states - won:,} not won + {won:,} won), {model.nr_transitions:,} transitions")
        if value_type is float:
            print(f"  expected turns {1 + witches!r}  (ours - Storm: {float(ours.expected_turns) - (1 + witches):.3g})")
        else:
            turns = 1 + Fraction(str(witches))
            print(f"  expected turns {turns}\n  exactly ours: {'YES' if turns == ours.expected_turns else 'NO'}")
    print(f"speed: Storm exact / ours = {times['exact'] / ours_time:.2f}, Storm float / ours = {times['float'] / ours_time:.2f}")


if __name__ == "__main__":
    main()
