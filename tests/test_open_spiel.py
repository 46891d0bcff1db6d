"""OpenSpiel's games through ``--rules open_spiel:NAME``, and OpenSpiel as the referee of our equilibria,
best replies and exploitability (skipped where OpenSpiel is not installed)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from gmpy2 import mpq

from toolkit.errors import UserError
from toolkit.rules import equilibrium
from toolkit.rules.load import load_rules
from toolkit.seats import Policies
from toolkit.solve import extensive

pyspiel = pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parent.parent
KUHN = str(ROOT / "examples" / "kuhn" / "kuhn.py")
LEDUC = str(ROOT / "examples" / "leduc" / "leduc.py")


def _infostates(game) -> dict:
    """Every decision state of an OpenSpiel game by its information state string (one state each)."""
    found = {}

    def walk(state):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                walk(state.child(action))
            return
        found.setdefault(state.information_state_string(), state)
        for action in state.legal_actions():
            walk(state.child(action))
    walk(game.new_initial_state())
    return found


def _behaviour(tree, policy, states) -> list:
    """OpenSpiel's policy as chances per slot of our tree: each float read exactly, then made to sum to 1."""
    strategy: list = [None] * tree.slots
    for info in tree.infosets:
        probs = policy.action_probabilities(states[info.key])
        chances = [mpq(Fraction(probs.get(action, 0.0))) for action in info.actions]
        whole = sum(chances)
        for a, p in enumerate(chances):
            strategy[info.slot + a] = p / whole
    return strategy


def _our_exploitability(tree, strategy, pay) -> Fraction:
    """OpenSpiel's exploitability (the mean of the two seats' best reply values) of a play, exactly."""
    chances = extensive.edge_chances(tree, strategy)
    first, _ = extensive.best_reply(tree, 0, chances, pay)
    second, _ = extensive.best_reply(tree, 1, chances, [-p for p in pay])
    return extensive.to_fraction(first + second) / 2


def test_open_spiel_kuhn_is_our_kuhn():
    ours = equilibrium.solve(load_rules(KUHN))
    theirs = equilibrium.solve(load_rules("open_spiel:kuhn_poker"))
    assert ours.exact and theirs.exact and ours.value == theirs.value == Fraction(-1, 18)
    replies = equilibrium.best_replies(load_rules("open_spiel:kuhn_poker"), Policies.of(every="random"))
    assert [r.value for r in replies.replies] == [Fraction(1, 2), Fraction(5, 12)]


def test_open_spiel_leduc_is_our_leduc_exactly():
    ours = equilibrium.solve(load_rules(LEDUC))
    theirs = equilibrium.solve(load_rules("open_spiel:leduc_poker"))
    assert theirs.sets == 936 and ours.sets == 288  # OpenSpiel's sets tell the suits apart, ours do not
    assert ours.exact and theirs.exact and ours.value == theirs.value
    assert abs(float(theirs.value) - (-0.085606424078)) < 1e-11


@pytest.mark.parametrize("name, iterations", [
    ("kuhn_poker", 50), ("leduc_poker", 30), ("liars_dice(numdice=1,dice_sides=3)", 30),
    ("goofspiel(num_cards=3)", 20),
])
def test_exploitability_and_values_agree_with_open_spiel(name, iterations):
    game = pyspiel.load_game(name)
    if str(game.get_type().dynamics) == "Dynamics.SIMULTANEOUS":
        game = pyspiel.convert_to_turn_based(game)
    solver = pyspiel.CFRSolver(game)  # OpenSpiel's own C++ CFR
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    rules = load_rules(f"open_spiel:{name}")
    answer = equilibrium.solve(rules)
    tree = answer.tree
    pay = equilibrium._zero_sum_payoff(tree, answer.payoff)
    strategy = _behaviour(tree, policy, _infostates(game))
    ours = _our_exploitability(tree, strategy, pay)
    theirs = pyspiel.exploitability(game, policy)
    assert abs(float(ours) - theirs) < 1e-9
    # the value lies within the average play's exploitability of what that play gets
    gets = float(extensive.value(tree, extensive.edge_chances(tree, strategy), pay))
    assert answer.exact and abs(float(answer.value) - gets) <= 2 * theirs + 1e-12
    # and our exact equilibrium is not exploitable at all
    exact = extensive.merged(tree, *(play.chances for play in answer.plays))
    assert _our_exploitability(tree, exact, pay) == 0


def test_goofspiel_through_the_command_line():
    from click.testing import CliRunner

    from toolkit.cli import main

    done = CliRunner().invoke(main, ["odds", "--rules", "open_spiel:goofspiel", "--param", "num_cards=3",
                                     "--model", "optimal", "--json"], catch_exceptions=False)
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["information"].startswith("hidden information") and data["answers"][0]["label"] == "exact"
    assert data["answers"][0]["value"] == "0/1"  # the two seats are alike


def test_a_float_chance_is_read_as_its_fraction_or_refused():
    from toolkit.rules.open_spiel import exact

    assert exact(1 / 3) == Fraction(1, 3) and exact(0.1) == Fraction(1, 10) and exact(2 / 7) == Fraction(2, 7)
    assert exact(0.123456789123) is None


def test_open_spiel_refusals_are_one_line():
    with pytest.raises(UserError, match="OpenSpiel cannot load no_such_game"):
        load_rules("open_spiel:no_such_game")
    with pytest.raises(UserError, match="name an OpenSpiel game"):
        load_rules("open_spiel:")
