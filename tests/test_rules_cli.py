"""``--rules`` on the command line: the examples' published figures reproduced by ``simulate`` within its
95% intervals, the same seed giving the same bytes (in one process or several), and every kind of
mistake of a rules file one line on stderr, exit status 2, no traceback."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PIG = str(EXAMPLES / "pig" / "pig.py")
CHUTES = str(EXAMPLES / "chutes" / "chutes.py")
DEALER = str(EXAMPLES / "dealer" / "dealer.py")



def _json(run, *args):
    result = run("simulate", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_pig_hold_at_20_first_player_wins_as_published(run):
    # Neller's "hold at 20 or goal" first-player figure: about 0.5347
    out = _json(run, "--rules", PIG, "--policy", "1=hold-at-20", "--policy", "2=hold-at-20", "--games", "4000")
    low, high = out["win_rate_ci95"][0]
    assert low <= 0.5347 <= high
    assert out["game"] == "Pig()" and out["policies"] == ["hold-at-20", "hold-at-20"] and out["length_unit"] == "turns"
    assert set(out["per_game"]) == {"lead_changes", "rolls", "pigs"}


def test_chutes_and_ladders_expected_turns_as_published(run):
    # Althoen, King and Schilling (1993): 39.2251... turns for one player
    out = _json(run, "--rules", CHUTES, "--games", "4000", "--seed", "7")
    assert out["length_unit"] == "steps"  # the file does not say what a turn is: one roll, one step
    low, high = out["ci95_steps"]
    assert low <= 39.2251 <= high and out["win_rate"] == [1.0]


@pytest.mark.parametrize("up, bust", [(6, 0.420823), (2, 0.352973), (1, 0.11654)])
def test_dealer_bust_chance_as_published(run, up, bust):
    # Wizard of Odds, one deck, dealer stands on soft 17
    out = _json(run, "--rules", DEALER, "--param", f"up={up}", "--games", "4000", "--seed", "3")
    low, high = out["win_rate_ci95"][0]
    assert low <= bust <= high
    assert out["params"] == {"up": up} and out["draws"] == 4000 - round(out["win_rate"][0] * 4000)


def test_same_seed_same_bytes_whatever_plays_the_batches(run):
    import numpy as np

    from toolkit.rules.load import load_rules
    from toolkit.sim.records import PARALLEL_FROM, batches
    from toolkit.seats import Policies, rules_players

    def merge(parts):  # batches of records as one: an event a batch never met counts 0 there
        names = list(dict.fromkeys(name for part in parts for name in part))
        return {name: np.concatenate([part.get(name, np.zeros(part["winner"].size, dtype=np.int64)) for part in parts])
                for name in names}

    rules = load_rules(PIG, {"goal": 10})
    seats = rules_players(rules, Policies.of({1: "random"}))
    here = merge(list(batches(rules, seats, 5, 0, PARALLEL_FROM, workers=1)))
    spread = merge(list(batches(rules, seats, 5, 0, PARALLEL_FROM, workers=2)))
    assert list(here) == list(spread) and all((here[name] == spread[name]).all() for name in here)
    first = run("simulate", "--rules", PIG, "--param", "goal=10", "--games", "500", "--seed", "9")
    again = run("simulate", "--rules", PIG, "--param", "goal=10", "--games", "500", "--seed", "9")
    assert first.stdout == again.stdout and first.exit_code == 0
    other = run("simulate", "--rules", PIG, "--param", "goal=10", "--games", "500", "--seed", "10")
    assert other.stdout != first.stdout


def test_a_builtin_game_answers_through_the_same_door(run):
    out = _json(run, "--rules", "diamoniak", "--players", "2", "--games", "60", "--policy", "2=stop-after-2")
    assert out["players"] == 2 and out["policies"][1].startswith("stop-after-2,") and out["games"] == 60
    assert out["length_unit"] == "rounds" and sum(out["win_rate"]) + out["stalled"] / 60 == pytest.approx(1)


GOOD = """
from fractions import Fraction

class Walk:
    def num_players(self):
        return 1
    def new_initial_state(self):
        return WalkState()
    def policies(self):
        return {"always-1": lambda state: 1}

class WalkState:
    def __init__(self):
        self.at = 0
    def current_player(self):
        return -4 if self.at >= 3 else (-1 if self.at % 2 else 0)
    def chance_outcomes(self):
        return [(1, Fraction(1, 2)), (2, Fraction(1, 2))]
    def legal_actions(self):
        return [1, 2]
    def apply_action(self, action):
        self.at += action
    def is_terminal(self):
        return self.at >= 3
    def returns(self):
        return [1]
"""


def _write(tmp_path, body, name="walk.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def _line(body, text):
    return 1 + next(number for number, line in enumerate(textwrap.dedent(body).splitlines()) if text in line)


MISTAKES = [
    # (what, replace this, by this, line of, the message's end)
    ("probability sum", "(2, Fraction(1, 2))]", "(2, Fraction(1, 3))]", "def chance_outcomes",
     r"WalkState\.chance_outcomes\(\) on state \{'at': 1\}: the probabilities sum to 5/6, not 1"),
    ("float probability", "(1, Fraction(1, 2)), (2, Fraction(1, 2))", "(1, 0.5), (2, 0.5)", "def chance_outcomes",
     r"WalkState\.chance_outcomes\(\) on state \{'at': 1\}: the probability of 1 is the float 0\.5: not exact"),
    ("illegal action", '"always-1": lambda state: 1', '"always-1": lambda state: 7', '"always-1"',
     r"policy 'always-1' on state \{'at': 0\}: chose 7, which is not one of legal_actions\(\) \[1, 2\]"),
    ("endless game", "self.at += action", "self.at += 0 * action", "class Walk:",
     r"Walk: a game played by always-1 did not end within 100,000 steps \(the default limit; a game that may be "
     r"longer says so in max_game_length\(\)\); it was at state \{'at': 0\}"),
    ("exception", "self.at += action", "self.at += action / 0", "action / 0",
     r"WalkState\.apply_action\(1\) on state \{'at': 0\}: ZeroDivisionError: division by zero"),
    ("returns length", "return [1]", "return [1, 0]", "def returns",
     r"WalkState\.returns\(\) on state \{'at': 3\}: gave 2 values \(\[1, 0\]\) for 1 players: give one per player"),
]


@pytest.mark.parametrize("what, old, new, at, end", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_each_mistake_of_a_rules_file_is_one_line(run, tmp_path, what, old, new, at, end):
    assert old in GOOD
    body = GOOD.replace(old, new)
    path = _write(tmp_path, body)
    result = run("simulate", "--rules", str(path), "--games", "3")
    assert result.exit_code == 2, result.stdout
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.match(rf"toolkit: error: {re.escape(str(path))}:{_line(body, at)}: {end}", lines[0]), lines[0]


@pytest.mark.parametrize("spec, message", [
    ("missing.py", "--rules missing.py: no such file"),
    ("{none}", "--rules {none}: no game class in the file (a class with new_initial_state() and num_players())"),
    ("{two}", "--rules {two}: 2 game classes (Walk, Other): name one, e.g. --rules {two}:Walk"),
    ("{good}:Nope", "--rules {good}:Nope: {good} has no class Nope"),
    ("no_such_module:Game", "--rules no_such_module:Game: no module named 'no_such_module' to import"),
    ("nothing-at-all", "--rules nothing-at-all: not a file PATH.py, a module:Class or a game"),
])
def test_a_spec_that_finds_no_game_is_one_line(run, tmp_path, spec, message):
    files = {"none": _write(tmp_path, "X = 1\n", "none.py"), "good": _write(tmp_path, GOOD, "good.py"),
             "two": _write(tmp_path, GOOD + "\nclass Other(Walk):\n    pass\n", "two.py")}
    spec, message = (text.format(**files) for text in (spec, message))
    result = run("simulate", "--rules", spec, "--games", "3")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"toolkit: error: {message}"), result.stderr


def test_a_parameter_the_game_does_not_take_is_one_line(run):
    result = run("simulate", "--rules", PIG, "--param", "goals=20", "--games", "3")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"toolkit: error: {PIG}: Pig() has no parameter 'goals' (it takes goal)"
    result = run("simulate", "--rules", PIG, "--param", "goal=1", "--games", "3")
    assert result.exit_code == 2 and "Pig.__init__(goal=1): ValueError: goal 1: a whole number of points from 2" \
        in result.stderr
    result = run("simulate", "--rules", PIG, "--game", "palaces")
    assert result.exit_code == 2 and "--game: not read: --rules names the game" in result.stderr


def test_analyse_report_of_a_rules_game(run, tmp_path):
    from pypdf import PdfReader

    pdf = tmp_path / "pig.pdf"
    result = run("analyse", "--rules", PIG, "--param", "goal=30", "--precision", "0.04", "--report", str(pdf),
                 "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    figures = out["figures"]
    assert out["game"] == "Pig(goal=30)" and figures["games"] >= 600
    assert {"win_rate_1", "balance", "lead_changes", "rolls_per_game", "pigs_per_game", "no_winner_rate"} <= set(figures)
    assert "win_rate_3" not in figures and "comeback_rate" not in figures and "stall_rate" not in figures
    text = PdfReader(str(pdf)).pages[0].extract_text()
    assert "Pig (goal 30): balance" in text and "seat 1 wins" in text and "lead changes per game" in text
    assert "rolls" in text and "pigs" in text and "comebacks" not in text
    first = pdf.read_bytes()
    again = run("analyse", "--rules", PIG, "--param", "goal=30", "--precision", "0.04", "--report", str(pdf))
    assert again.exit_code == 0 and pdf.read_bytes() == first  # same seed, same bytes


def test_analyse_of_a_game_without_score_says_no_lead_changes(run):
    result = run("analyse", "--rules", DEALER, "--precision", "0.05", "--json")
    figures = json.loads(result.stdout)["figures"]
    assert "lead_changes" not in figures and abs(figures["win_rate_1"] - 0.420823) < 0.08
    refused = run("analyse", "--rules", DEALER, "--strategy")
    assert refused.exit_code == 2 and "--strategy: not read" in refused.stderr


def test_sweep_over_a_rules_games_parameters_same_rows_in_process_and_on_dask(run, tmp_path):
    args = ["sweep", "--rules", PIG, "--grid", "goal=10,20", "--policy", "1=hold-at-20|random", "--games", "300",
            "--metric", "win_rate_1,mean_turns,rolls_per_game"]
    here = run(*args, "--in-process", "--out", str(tmp_path / "here"))
    assert here.exit_code == 0, here.stderr
    spread = run(*args, "--workers", "2", "--out", str(tmp_path / "spread"))
    assert spread.exit_code == 0, spread.stderr
    rows = (tmp_path / "here.csv").read_text().splitlines()
    assert rows == (tmp_path / "spread.csv").read_text().splitlines()
    assert rows[0].startswith("goal,policy_1,games,win_rate_1,") and len(rows) == 5
    assert [row.split(",")[:2] for row in rows[1:]] == [["10", "hold-at-20"], ["10", "random"], ["20", "hold-at-20"],
                                                       ["20", "random"]]
    head = json.loads((tmp_path / "here.json").read_text())
    assert head["game"] == "pig" and head["rules"] == PIG


@pytest.mark.parametrize("args, message", [
    (["--grid", "goals=10,20"], "configuration goals=10: {pig}: Pig() has no parameter 'goals' (it takes goal)"),
    (["--grid", "goal=1,20"], "configuration goal=1: {pig}:"),
    (["--policy", "1=hold|random"], "--policy 1=hold|random: Pig has no player 'hold'"),
    (["--set", "witch=3"], "--set: not read: --rules names the game; its axes are --grid and --policy"),
    (["--metric", "win_rate_1,comeback_rate"], "--metric win_rate_1,comeback_rate: comeback_rate: Pig is a --rules "
                                               "game, whose reports count no comebacks"),
])
def test_a_rules_sweep_checks_every_configuration_first(run, tmp_path, args, message):
    result = run("sweep", "--rules", PIG, *args, "--games", "10", "--in-process", "--out", str(tmp_path / "s"))
    assert result.exit_code == 2 and result.stderr.startswith(f"toolkit: error: {message.format(pig=PIG)}"), \
        result.stderr
    assert not list(tmp_path.iterdir())
