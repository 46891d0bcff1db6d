"""Time our exact solo-Diamoniak solver against the probabilistic model checker Storm on the same chain.

benchmarks/diamoniak_solo.prism is the solo model as a PRISM DTMC (one draw per step, like
toolkit/odds/diamoniak_solo.py). Storm (stormpy) builds it and checks R{"witches"}=? [F "won"] in
floating point and in exact rational arithmetic; the expected number of turns is 1 + that. Each time
is the best wall clock of --runs runs: for Storm, building the model plus checking the property; for
us, ``solo_odds(deck)`` (what `toolkit odds` runs: the expected value, the whole distribution of
turns and the chance of a reshuffle) and, as a second exact method, the backward walk ``solve(deck)``
(--backward). The deck options change both sides.

    .venv/bin/python benchmarks/bench_odds.py [--runs 3] [--witches 7] [--diamonds 20] [--fairies 3]
        [--castles 6] [--size 6] [--takes 3]

Storm is a benchmark-only extra: pip install stormpy (or: pip install -e '.[bench]').
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from toolkit.catalogue import load
from toolkit.odds.diamoniak_solo import SoloDeck, solo_odds, solve

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
    args = parser.parse_args()

    deck = load_deck(args)
    constants = prism_constants(deck)
    if constants["PER_COLOUR"] < deck.size:
        raise SystemExit("no castle can be completed with this deck: the expected number of turns is infinite")
    print("deck:", ", ".join(f"{name}={value}" for name, value in constants.items()), f"(best of {args.runs} runs)")

    ours, ours_time = best_of(args.runs, lambda: solo_odds(deck))
    print(f"ours        {ours_time:8.3f}s  solo_odds: {ours.states:,} states gone through, {ours.piles} pile starts chained")
    print(f"  expected turns {ours.expected_turns}\n               = {float(ours.expected_turns)!r}")
    if args.backward:
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
