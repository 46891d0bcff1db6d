"""Exact odds and optimal play of games of one's own (toolkit.odds.engine_chain, toolkit.rules.optimal, toolkit.odds.models), each figure checked
against an oracle written here independently of the toolkit's solvers: Neller and Presser's value iteration
for Pig, exact elimination in Fractions for small chains, every policy of a small MDP enumerated, and the
simulator where both apply."""

from __future__ import annotations

import itertools
import json
import random
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import small_diamoniak_text
from toolkit.errors import UserError
from toolkit.games import CHANCE
from toolkit.odds import engine_chain
from toolkit.rules import optimal
from toolkit.rules.hidden import PERFECT
from toolkit.rules.load import load_rules
from toolkit.seats import Policies, rules_players
from toolkit.sim.runner import sample_outcome

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig" / "pig.py")


# --- oracles --------------------------------------------------------------------------------------------


def pig_value_iteration(goal: int, tol: float = 1e-14) -> float:
    """Neller and Presser's equations over (my score i, their score j, turn total k), solved by plain value
    iteration: the chance that the player to move wins with optimal play on both sides."""
    win = {(i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)}
    while True:
        change = 0.0
        for (i, j, k) in win:
            roll = (1 - win[(j, i, 0)]) / 6
            for face in range(2, 7):
                roll += (1.0 if i + k + face >= goal else win[(i, j, k + face)]) / 6
            hold = 1 - win[(j, i + k, 0)]  # i + k < goal here: the goal is won by the roll itself
            best = max(roll, hold)
            change = max(change, abs(best - win[(i, j, k)]))
            win[(i, j, k)] = best
        if change < tol:
            return win[(0, 0, 0)]


def solve_fractions(unknowns: list, equations) -> dict:
    """Exact Gauss-Jordan elimination in Fractions: ``equations(x)`` gives, per unknown, (coefficients
    {unknown: c}, constant) with x = sum c * x' + constant."""
    index = {u: n for n, u in enumerate(unknowns)}
    size = len(unknowns)
    rows = []
    for u in unknowns:
        coefficients, constant = equations(u)
        row = [Fraction(0)] * (size + 1)
        row[index[u]] += 1
        for v, c in coefficients.items():
            row[index[v]] -= c
        row[size] = Fraction(constant)
        rows.append(row)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [v / rows[col][col] for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return {u: rows[index[u]][size] for u in unknowns}


# --- small games of one's own ----------------------------------------------------------------------------

RACE = '''
from fractions import Fraction

class Race:
    """One player on squares 0..{end}: a spinner of 1 to 3; square 4 slides back to 1; past the end bounces."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.square = 0
    def current_player(self):
        return -4 if self.square == {end} else -1
    def chance_outcomes(self):
        return [(1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3))]
    def legal_actions(self):
        return []
    def apply_action(self, spin):
        square = self.square + spin
        if square > {end}:
            square = 2 * {end} - square
        self.square = 1 if square == 4 else square
    def is_terminal(self):
        return self.square == {end}
    def returns(self):
        return [1]
'''

DUEL = '''
class Duel:
    """Each of two players rolls a die once; the higher wins; equal is a draw."""
    def num_players(self):
        return 2
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.rolls = []
    def current_player(self):
        return -4 if len(self.rolls) == 2 else -1
    def chance_outcomes(self):
        return [(face, 1) for face in range(1, 7)]
    def legal_actions(self):
        return []
    def apply_action(self, face):
        self.rolls.append(face)
    def is_terminal(self):
        return len(self.rolls) == 2
    def returns(self):
        a, b = self.rolls
        return [0, 0] if a == b else ([1, -1] if a > b else [-1, 1])
'''

SOMETIMES_ENDLESS = '''
class Coin:
    """Heads wins at once; tails leads to a room the game never leaves."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.place = "start"
    def current_player(self):
        return -4 if self.place == "won" else -1
    def chance_outcomes(self):
        if self.place == "start":
            return [("heads", 1), ("tails", 1)]
        return [("stay", 1)]
    def legal_actions(self):
        return []
    def apply_action(self, outcome):
        if outcome == "heads":
            self.place = "won"
        elif outcome == "tails":
            self.place = "room"
    def is_terminal(self):
        return self.place == "won"
    def returns(self):
        return [1]
'''

BLACKOUT = '''
from fractions import Fraction

class Blackout:
    """Roll a die and add it up; stop whenever you like; past 10 you lose; stopping on 7 or more wins."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()
    def action_to_string(self, player, action):
        return ("roll", "stop")[action]
    def policies(self):
        return {"stop-at-7": lambda state: 1 if state.total >= 7 else 0}

class State:
    def __init__(self):
        self.total = 0
        self.rolling = False
        self.stopped = False
    def current_player(self):
        return -4 if self.is_terminal() else (-1 if self.rolling else 0)
    def chance_outcomes(self):
        return [(face, Fraction(1, 6)) for face in range(1, 7)]
    def legal_actions(self):
        return [0] if self.total == 0 else [0, 1]
    def apply_action(self, action):
        if self.rolling:
            self.total += action
            self.rolling = False
        elif action == 0:
            self.rolling = True
        else:
            self.stopped = True
    def is_terminal(self):
        return self.stopped or self.total > 10
    def returns(self):
        return [1 if self.stopped and self.total >= 7 else 0]
'''

DASH = '''
from fractions import Fraction

class Dash:
    """One player to square {end}: step 1, or gamble (half the time 3 ahead, half the time back to 0)."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()
    def action_to_string(self, player, action):
        return ("step", "gamble")[action]

class State:
    def __init__(self):
        self.square = 0
        self.gambling = False
    def current_player(self):
        return -4 if self.square >= {end} else (-1 if self.gambling else 0)
    def chance_outcomes(self):
        return [(3, Fraction(1, 2)), (-1, Fraction(1, 2))]
    def legal_actions(self):
        return [0, 1]
    def ends_turn(self, action):
        return self.gambling or action == 0
    def apply_action(self, action):
        if self.gambling:
            self.square = 0 if action == -1 else self.square + 3
            self.gambling = False
        elif action == 0:
            self.square += 1
        else:
            self.gambling = True
    def is_terminal(self):
        return self.square >= {end}
    def returns(self):
        return [1]
'''


@pytest.fixture
def rules_file(tmp_path):
    def write(text: str, name: str = "game.py", **fill) -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).replace("{end}", str(fill.get("end", 9))))
        return str(path)
    return write


# --- the chain under named players ----------------------------------------------------------------------


def test_race_expected_length_and_distribution_match_exact_elimination(rules_file):
    game = load_rules(rules_file(RACE, end=9))
    odds = engine_chain.chain_odds(game, rules_players(game), 10_000)
    squares = [s for s in range(9) if s != 4]

    def step(square):
        after = {}
        for spin in (1, 2, 3):
            to = square + spin
            to = 18 - to if to > 9 else to
            to = 1 if to == 4 else to
            after[to] = after.get(to, 0) + Fraction(1, 3)
        return after

    expected = solve_fractions(squares, lambda s: ({t: p for t, p in step(s).items() if t != 9}, 1))
    assert odds.unit == "steps" and odds.expected_length == expected[0] and odds.p_never == 0
    assert odds.win == (1,)
    # the distribution: the probability vector pushed one spin at a time
    mass = {0: Fraction(1)}
    for t, p in enumerate(odds.distribution):
        assert p == (mass.pop(9, Fraction(0)) if t else 0)
        moved = {}
        for square, q in mass.items():
            for to, r in step(square).items():
                moved[to] = moved.get(to, 0) + q * r
        mass = moved
    assert 0 < odds.beyond <= 1 - engine_chain.DISTRIBUTION_MASS


def test_draws_are_ends_of_their_own_and_not_games_that_never_end(rules_file):
    game = load_rules(rules_file(DUEL))
    odds = engine_chain.chain_odds(game, rules_players(game), 1000)
    assert odds.win == (Fraction(15, 36), Fraction(15, 36))
    assert odds.no_winner == Fraction(6, 36) and odds.p_never == 0
    assert dict(odds.returns)[(Fraction(0), Fraction(0))] == Fraction(1, 6)
    assert odds.expected_length == 2 and odds.distribution == (0, 0, 1)


def test_a_game_that_may_never_end_has_no_finite_expected_length(rules_file):
    game = load_rules(rules_file(SOMETIMES_ENDLESS))
    odds = engine_chain.chain_odds(game, rules_players(game), 1000)
    assert odds.expected_length is None and odds.p_never == Fraction(1, 2) and odds.win == (Fraction(1, 2),)


def test_a_random_player_is_a_chance_point_of_the_chain(rules_file):
    game = load_rules(rules_file(BLACKOUT))
    # random: at every total from 1 on, stop or roll with even odds; the oracle is the same recursion by hand
    memo = {}

    def value(total):  # the chance to win from a decision at ``total`` with the random player
        if total > 10:
            return Fraction(0)
        if total not in memo:
            roll = sum(value(total + face) for face in range(1, 7)) / 6
            memo[total] = roll if total == 0 else (roll + Fraction(int(total >= 7))) / 2
        return memo[total]

    odds = engine_chain.chain_odds(game, rules_players(game, Policies.of(every="random")), 1000)
    assert odds.win == (value(0),)


def test_hold_at_20_pig_matches_the_simulator(rules_file):
    """The exact chain of Pig to 30 with both holding at 20 against 20,000 simulated games."""
    game = load_rules(PIG, {"goal": 30})
    seats = rules_players(game, Policies.of(every="hold-at-20"))
    odds = engine_chain.chain_odds(game, seats, 100_000, distribution=False)
    rng = random.Random(7)
    wins = 0
    games = 20_000
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            else:
                state.apply_action(seats[state.current_player()].act(state, rng))
        wins += state.winner == 0
    p = float(odds.win[0])
    assert abs(wins / games - p) < 4 * (p * (1 - p) / games) ** 0.5


# --- optimal play ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("goal", [8, 15])
def test_optimal_pig_matches_neller_and_pressers_value_iteration(goal):
    game = load_rules(PIG, {"goal": goal})
    [answer] = optimal.solve(game)
    oracle = pig_value_iteration(goal)
    assert answer.exact and answer.checked == answer.nodes
    assert abs(float(answer.first_wins) - oracle) < 1e-10
    assert answer.value == 2 * answer.first_wins - 1  # returns +1 / -1, no draws
    [bounded] = optimal.solve(game, exact_up_to=0)  # the same by interval iteration
    low, high = bounded.bounds
    assert not bounded.exact and low <= 2 * oracle - 1 <= high and high - low < 1e-8
    assert bounded.first_wins_bounds[0] <= oracle <= bounded.first_wins_bounds[1]


def test_one_player_stopping_game_matches_backward_induction_and_prints_its_table(rules_file):
    game = load_rules(rules_file(BLACKOUT))
    [answer] = optimal.solve(game)
    best = {}

    def value(total):
        if total > 10:
            return Fraction(0)
        if total not in best:
            roll = sum(value(total + face) for face in range(1, 7)) / 6
            best[total] = roll if total == 0 else max(roll, Fraction(int(total >= 7)))
        return best[total]

    assert answer.objective == "win" and answer.value == value(0)
    # stop where stopping is strictly better than rolling, by the oracle
    stop_from = min(t for t in range(1, 11) if Fraction(int(t >= 7)) > sum(value(t + f) for f in range(1, 7)) / 6)
    lines = optimal.policy_lines(answer)
    assert lines[0].startswith("seat 1: roll while total is below the number, then stop")
    assert "total from which to stop" in lines[0] and lines[1].strip().endswith(f": {stop_from}")
    data = json.loads(optimal.policy_json([answer]))
    assert data[0]["tables"][0]["rows"][0][1] == stop_from
    decisions = {d["state"]["total"]: d["action"] for d in data[0]["decisions"] if d["state"]["total"]}
    assert all(action == ("stop" if total >= stop_from else "roll") for total, action in decisions.items())


def test_shortest_expected_length_matches_every_policy_enumerated(rules_file):
    game = load_rules(rules_file(DASH, end=5))
    [answer] = optimal.solve(game)
    assert answer.objective == "length" and answer.unit == "turns"
    squares = list(range(5))
    best = None
    for choice in itertools.product((0, 1), repeat=5):  # step or gamble on each square
        def equations(square, choice=choice):
            if choice[square] == 0:
                return ({square + 1: 1} if square + 1 < 5 else {}), 1
            ahead = square + 3
            return ({0: Fraction(1, 2), **({ahead: Fraction(1, 2)} if ahead < 5 else {})}), 1
        length = solve_fractions(squares, equations)[0]
        best = length if best is None else min(best, length)
    assert answer.value == best


def test_best_replies_with_three_players_and_refusals(rules_file):
    three = rules_file('''
    class Three:
        """Three players each roll a die in turn or pass (a pass scores 3); the highest alone wins."""
        def num_players(self):
            return 3
        def new_initial_state(self):
            return State()
        def policies(self):
            return {"pass": lambda state: 1}

    class State:
        def __init__(self):
            self.scores = []
            self.rolling = False
        def current_player(self):
            return -4 if len(self.scores) == 3 else (-1 if self.rolling else len(self.scores))
        def chance_outcomes(self):
            return [(face, 1) for face in range(1, 7)]
        def legal_actions(self):
            return [0, 1]
        def apply_action(self, action):
            if self.rolling:
                self.scores.append(action)
                self.rolling = False
            elif action == 0:
                self.rolling = True
            else:
                self.scores.append(3)
        def is_terminal(self):
            return len(self.scores) == 3
        def returns(self):
            top = max(self.scores)
            return [1 if s == top and self.scores.count(top) == 1 else 0 for s in self.scores]
    ''', name="three.py")
    game = load_rules(three)
    answers = optimal.solve(game, policy=Policies.of(every="pass"))
    # the others pass (3 each): seat s wins only by rolling 4 or more
    assert [a.value for a in answers] == [Fraction(1, 2)] * 3 and answers[1].others == "seat 1 pass, seat 3 pass"
    with pytest.raises(UserError, match="--objective length: with more than one player"):
        optimal.solve(game, "length")
    with pytest.raises(UserError, match="two players play the zero-sum game"):
        optimal.solve(load_rules(PIG, {"goal": 8}), "win")


# --- the command line ------------------------------------------------------------------------------------


def run_toolkit(*args, check=True):
    """``toolkit ARGS`` run in this process, as the command line runs it (click's Result: its exit_code,
    stdout and stderr; no progress line on a slow machine: conftest's ``quiet_progress``)."""
    from toolkit.cli import main

    done = CliRunner().invoke(main, list(args), catch_exceptions=False)
    if check:
        assert done.exit_code == 0, done.stderr
    return done


def _odds(*args, check=True):
    return run_toolkit("odds", *args, check=check)


def test_cli_win_length_optimal_and_exports(tmp_path):
    win = json.loads(_odds("--rules", PIG, "--param", "goal=12", "--model", "win", "--json").stdout)
    assert win["exact"] and sum(Fraction(p) for p in win["win_probability"]) == 1
    chain = tmp_path / "pig.drn"
    out = _odds("--rules", PIG, "--param", "goal=12", "--model", "length", "--policy", "random",
                "--export-chain", str(chain)).stdout
    assert "expected length (turns):" in out and "exported chain" in out
    assert chain.read_text().count("\nstate ") + chain.read_text().startswith("state") > 10
    policy = tmp_path / "pig.json"
    out = _odds("--rules", PIG, "--param", "goal=12", "--model", "optimal", "--export-policy", str(policy)).stdout
    assert "exact; proven" in out and "seat 1's chance to win, both playing so:" in out
    assert json.loads(policy.read_text())["answers"][0]["decisions"]
    assert policy.read_text().splitlines()[0].startswith('{"information": "perfect information assumed')
    assert out.splitlines()[0] == "Pig, optimal play; " + PERFECT


@pytest.mark.parametrize("args, says", [
    (("--model", "optimal", "--objective", "length"), "two players play the zero-sum game"),
    (("--model", "win", "--export-policy", "x.json"), "only the optimal model finds a policy"),
    (("--model", "optimal", "--export-chain", "x.drn"), "the optimal model has no chain"),
    (("--model", "win", "--policy", "nobody"), "Pig has no player 'nobody'"),
    (("--model", "win", "--hand", "3"), "--hand: not read"),
])
def test_cli_refusals_are_one_line(args, says):
    done = _odds("--rules", PIG, "--param", "goal=8", *args, check=False)
    assert done.exit_code == 2 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1


# --- how much skill matters ------------------------------------------------------------------------------

GUESS = '''
from fractions import Fraction

class Guess:
    """Call high or low, then a die is rolled: 4 to 6 is high. Pure chance: calling well cannot help."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.call = None
        self.face = None
    def current_player(self):
        return -4 if self.face else (0 if self.call is None else -1)
    def chance_outcomes(self):
        return [(face, Fraction(1, 6)) for face in range(1, 7)]
    def legal_actions(self):
        return ["low", "high"]
    def apply_action(self, action):
        if self.call is None:
            self.call = action
        else:
            self.face = action
    def is_terminal(self):
        return self.face is not None
    def returns(self):
        return [1 if (self.face >= 4) == (self.call == "high") else 0]
'''

PICK = '''
class Pick:
    """Pick the door: door 1 wins. Pure skill: no chance at all."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.door = None
    def current_player(self):
        return -4 if self.door is not None else 0
    def chance_outcomes(self):
        return []
    def legal_actions(self):
        return [0, 1]
    def apply_action(self, action):
        self.door = action
    def is_terminal(self):
        return self.door is not None
    def returns(self):
        return [1 if self.door == 1 else 0]
'''


def test_skill_of_pure_chance_and_pure_skill(rules_file):
    from toolkit.rules import skill

    [luck] = skill.skill(load_rules(rules_file(GUESS, name="guess.py")), sequences=400)
    assert luck.beginner.value == Fraction(1, 2) and luck.optimal.value == Fraction(1, 2)
    # knowing the roll, it always calls right: exactly, from the clairvoyant's chain
    assert luck.clairvoyant.how == "exact" and luck.clairvoyant.value == 1 and luck.learning.value == 0
    assert luck.relative.value == 0
    [wit] = skill.skill(load_rules(rules_file(PICK, name="pick.py")), sequences=400)
    assert wit.beginner.value == Fraction(1, 2) and wit.optimal.value == 1 and wit.clairvoyant.value == 1
    assert wit.relative == skill.Figure.exact(Fraction(1))
    lines = skill.skill_lines([wit])
    assert lines[0] == "seat 1 against beginners (chance to win):" and lines[-1].endswith("1.0000 (exact)")


def test_clairvoyant_blackout_is_the_chance_a_partial_sum_lands_on_7_to_10(rules_file):
    from toolkit.rules import skill

    game = load_rules(rules_file(BLACKOUT))
    miss = {}

    def never_lands(total):  # the partial sums from ``total`` jump over 7..10
        if total >= 11:
            return Fraction(1)
        if total >= 7:
            return Fraction(0)
        if total not in miss:
            miss[total] = sum(never_lands(total + face) for face in range(1, 7)) / 6
        return miss[total]

    [best] = optimal.solve(game)
    assert skill.clairvoyant(best, 0) == skill.Figure.exact(1 - never_lands(0))
    sampled = skill._Plans(best.graph, 0, best.objective, best.values).sample(3000, seed=5)
    assert sampled.low <= 1 - float(never_lands(0)) <= sampled.high and sampled.high - sampled.low < 0.03


# --- a built-in game through the same interface ------------------------------------------------------------


@pytest.fixture
def small_diamoniak(tmp_path):
    """conftest's small Diamoniak deck (8 cards, a castle of 2), as a file."""
    path = tmp_path / "small.toml"
    path.write_text(small_diamoniak_text())
    return str(path)


def test_diamoniak_best_reply_on_a_small_deck_beats_the_default_player(small_diamoniak_optimal):
    # the optimal runs (--json, and the text report) are the session's, shared with test_policy_words
    small_diamoniak = small_diamoniak_optimal["catalogue"]
    multi = json.loads(_odds("--catalogue", small_diamoniak, "--model", "multi", "--players", "2", "--json").stdout)
    default_wins = Fraction(multi["win_probability"][0])
    answers = json.loads(small_diamoniak_optimal["json"])["answers"]
    assert [a["seats"] for a in answers] == [[1], [2]] and all(a["exact"] for a in answers)
    assert 1 >= Fraction(answers[0]["value"]) >= default_wins  # the best reply is at least the default's play
    assert 1 >= Fraction(answers[1]["value"]) >= Fraction(multi["win_probability"][1])
    text = small_diamoniak_optimal["text"]
    assert "exact; proven" in text and " while " in text  # the table of when to stop drawing


def test_the_rules_walk_of_a_built_in_game_agrees_with_its_own_exact_odds(small_diamoniak):
    """The chain of the rules interface (ends keyed by the returns, players wrapped) against the built-in
    multi model's chain, on the same deck: the same exact win chances and expected turns."""
    from toolkit.catalogue import load
    from toolkit.odds.models import catalogue_game

    multi = json.loads(_odds("--catalogue", small_diamoniak, "--model", "multi", "--players", "2", "--json").stdout)
    game = catalogue_game(load(None, small_diamoniak, (), require_art=False), 2)
    odds = engine_chain.chain_odds(game, [game.policy("default")] * 2, 100_000)
    assert [str(p) for p in odds.win] == multi["win_probability"]
    assert str(odds.expected_length) == multi["expected_turns"]


def test_analyse_says_how_much_skill_matters():
    done = run_toolkit("analyse", "--rules", PIG, "--param", "goal=8", "--json")
    skill = json.loads(done.stdout)["skill"]
    first = skill["seats"][0]
    assert first["objective"] == "win" and first["learning_effect"]["how"] == "exact"
    assert first["learning_effect"]["low"] > 0
    relative = first["relative_skill"]
    assert relative["how"] in ("exact", "bounds") and 0 <= relative["low"] <= relative["high"] <= 1
    big = run_toolkit("analyse", "--rules", PIG, "--precision", "0.05")
    assert "how much skill matters: out of reach" in big.stdout


def test_a_game_without_decisions_has_its_chain_as_its_optimal_play(rules_file):
    game = load_rules(rules_file(RACE, end=9))
    [answer] = optimal.solve(game)
    chain = engine_chain.chain_odds(game, rules_players(game), 10_000, distribution=False)
    assert answer.objective == "length" and answer.exact and answer.value == chain.expected_length
    assert optimal.policy_lines(answer) == []


def test_cli_says_an_infinite_length_and_lists_the_ends_of_a_game_with_draws(rules_file):
    endless = _odds("--rules", rules_file(SOMETIMES_ENDLESS, name="coin.py"), "--model", "length").stdout
    assert "expected length: infinite: the game never ends with probability 1/2" in endless
    duel = _odds("--rules", rules_file(DUEL, name="duel.py"), "--model", "win").stdout
    assert "no single winner (a draw or a shared end): 1/6" in duel
    assert "the ends (returns per seat):" in duel and "  0, 0: 1/6" in duel
    pig = _odds("--rules", PIG, "--param", "goal=8", "--model", "win").stdout
    assert "the ends" not in pig  # two ends, one per winner: the seats' lines say it all
