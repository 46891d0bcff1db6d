"""The tabulated play of a rules file (``toolkit.rules.table``): the same records as the Python loop, byte for
byte, for the examples and for a dice battle written the plain way (no ``key()``, a fresh list of outcomes at
every throw), with and without ``key()``; the same records when the budget stops the learning; a file whose
``events()`` depend on more than its key played as written, with one note; a line of progress on time."""

from __future__ import annotations

import inspect
import json
import textwrap
import threading
from pathlib import Path

import pytest

from toolkit.rules import table as rules_table
from toolkit.rules.load import load_rules
from toolkit.rules.table import VERIFY, Distributions, Tabulated, chance_reads
from toolkit.seats import Policies, rules_players
from toolkit.sim import records
from toolkit.sim.card_order import game_seed
from toolkit.sim.play import play_game
from toolkit.sim.simulate import simulate_rules

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"
PIG = str(EXAMPLES / "pig" / "pig.py")
CHUTES = str(EXAMPLES / "chutes" / "chutes.py")
DEALER = str(EXAMPLES / "dealer" / "dealer.py")
BATTLE = str(HERE.parent / "benchmarks" / "games" / "dice_battle.py")


def _python(rules, seats, seed: int, count: int) -> list[dict[str, int]]:
    """The Python loop's records, chance drawn through the guard as written (no table, no shared lists)."""
    return [play_game(rules, seats, game_seed(seed, index)) for index in range(count)]


def _same(tabled: list[dict[str, int]], python: list[dict[str, int]]) -> None:
    assert len(tabled) == len(python)
    for index, (a, b) in enumerate(zip(tabled, python)):
        assert list(a.items()) == list(b.items()), f"game {index}: {a} != {b}"


@pytest.mark.parametrize("spec, params, policies, games", [
    (PIG, {"goal": 40}, {1: "hold-at-20", 2: "random"}, 400),
    (PIG, {"goal": 30}, {1: "first", 2: "hold-at-25"}, 200),
    (CHUTES, {"players": 3}, {}, 400),
    (DEALER, {"up": 1}, {}, 400),
    (BATTLE, {"dice": 3}, {1: "cautious", 2: "random"}, 300),
    (BATTLE, {"dice": 3, "keyed": True}, {1: "cautious", 2: "random"}, 300),
], ids=["pig-own-random", "pig-first-own", "chutes-3", "dealer-ace", "battle-3-dice", "battle-3-dice-keyed"])
def test_the_table_gives_the_python_loops_records(spec, params, policies, games):
    rules = load_rules(spec, params)
    seats = rules_players(rules, Policies.of(policies) if policies else None)
    table = Tabulated(rules, seats, play_game, verify=0)
    _same(table.records(11, 0, games // 2), _python(rules, seats, 11, games // 2))
    tabled = table.records(11, games // 2, games - games // 2)  # the table learned goes on learning
    python = [play_game(rules, seats, game_seed(11, index)) for index in range(games // 2, games)]
    _same(tabled, python)
    assert table.why is None and table.positions > 1


def test_five_dice_thrown_from_a_fresh_list_of_7776(capsys, monkeypatch):
    rules = load_rules(BATTLE, {})
    seats = rules_players(rules)
    module = inspect.getmodule(type(rules.new_initial_state().inner))
    throws: list[int] = []
    product = module.product
    monkeypatch.setattr(module, "product", lambda *args, **kwargs: (throws.append(1), product(*args, **kwargs))[1])
    table = Tabulated(rules, seats, play_game, verify=0)
    tabled = table.records(5, 0, 24)  # about 200 positions; the Python loop below takes a tenth of a second a game or more
    assert len(table.table.distributions.weights) == 1  # every throw's 7,776 outcomes: one list, checked once
    assert len(throws) == 1  # asked once: chance_outcomes() reads self.dice alone, the same at every position
    assert table.positions > 100
    _same(tabled, _python(rules, seats, 5, 24))
    assert capsys.readouterr().err == ""


WALK = '''
from fractions import Fraction


def steps(state):
    return [(step, 1) for step in range(1, 2 + state.at % 3)]


class Box:  # changes inside, equal to itself: not a value to ask by
    __slots__ = ("at",)

    def __init__(self):
        self.at = 0


class Walk:
    def num_players(self):
        return 1

    def new_initial_state(self):
        return WalkState()


class WalkState:
    def __init__(self):
        self.at, self.rolls, self.box = 0, 0, Box()

    def current_player(self):
        return -4 if self.is_terminal() else -1

    def reach(self):
        return 2 + self.at % 3

    @property
    def far(self):
        return 2 + self.at % 3

    CHANCE

    def legal_actions(self):
        return []

    def apply_action(self, step):
        self.at += step
        self.rolls += 1
        self.box.at = self.at

    def is_terminal(self):
        return self.at >= 12

    def returns(self):
        return [1]

    def events(self):
        return {"rolls": self.rolls}
'''


@pytest.mark.parametrize("chance, reads", [
    ("return [(step, Fraction(1, 1 + self.at % 3)) for step in range(1, 2 + self.at % 3)]", ("at",)),
    ("return [(1, 1), (2, 3)]", ()),
    ("return [(step, 1) for step in range(1, self.reach())]", None),  # a method: it may read anything
    ("return [(step, 1) for step in range(1, self.far)]", None),  # a property, likewise
    ("return steps(self)", None),  # the state given away
    ("return [(step, 1) for step in range(1, 2 + vars(self)['at'] % 3)]", None),
    ("return [(step, 1) for step in range(1, 2 + self.box.at % 3)]", ("box",)),  # read, but not by value
], ids=["attribute", "constant", "method", "property", "given", "vars", "object"])
def test_outcomes_asked_once_for_the_values_they_read(tmp_path, monkeypatch, chance, reads):
    """A chance_outcomes() that reads its state as ``self.name`` alone is asked once per value of what it
    reads; any other use of the state, and it is asked at every position. The records stay the loop's."""
    path = tmp_path / "walk.py"
    path.write_text(WALK.replace("CHANCE", f"def chance_outcomes(self):\n        {chance}"))
    rules = load_rules(str(path), {})
    state = rules.new_initial_state().inner
    assert chance_reads(type(state), state) == reads
    seats = rules_players(rules)
    looks: list[type] = []
    monkeypatch.setattr(rules_table, "chance_reads", lambda cls, inner: (looks.append(cls), reads)[1])
    table = Tabulated(rules, seats, play_game, verify=0)
    python = _python(rules, seats, 3, 300)
    _same(table.records(3, 0, 300), python)
    asked = table.table.distributions.by_reads  # the values read, and their distribution
    by_value = reads is not None and "box" not in reads
    assert len(asked) == (0 if not by_value else 1 if reads == () else 12) and len(asked) < table.positions
    draw = Distributions().draw  # the Python loop's own shared lists
    _same([play_game(rules, seats, game_seed(3, index), draw) for index in range(300)], python)
    assert len(looks) == 2  # its code looked at once by each list of distributions


def test_simulate_prints_the_same_bytes_from_the_table_or_the_python_loop(monkeypatch):
    rules = load_rules(PIG, {"goal": 30})
    seats = rules_players(rules, Policies.of({2: "random"}))
    tabled = simulate_rules(rules, seats, 600, 3)
    assert records._TABLES[rules][tuple(s.name for s in seats)].checked == VERIFY
    monkeypatch.setattr(records, "TABULATE_FROM", 10 ** 9)
    other = load_rules(PIG, {"goal": 30})  # a game of its own: no table kept for it
    python = simulate_rules(other, rules_players(other, Policies.of({2: "random"})), 600, 3)
    assert records._TABLES.get(other) is None
    assert json.dumps(tabled.as_json()) == json.dumps(python.as_json())


def test_past_the_budget_the_games_go_on_in_the_python_loop():
    rules = load_rules(BATTLE, {"dice": 3})
    seats = rules_players(rules, Policies.of({2: "random"}))
    table = Tabulated(rules, seats, play_game, budget=300_000, verify=0)
    _same(table.records(2, 0, 300), _python(rules, seats, 2, 300))
    assert table.table.full and table.why is None


HISTORY = '''
from fractions import Fraction

DIE = tuple((face, Fraction(1, 6)) for face in range(1, 7))


class Streak:
    """Roll a die until the total reaches 12; counts the longest run of rolls above 3 (history, not key)."""

    def num_players(self):
        return 1

    def new_initial_state(self):
        return StreakState()


class StreakState:
    def __init__(self):
        self.total, self.run, self.longest = 0, 0, 0

    def current_player(self):
        return -4 if self.is_terminal() else -1

    def chance_outcomes(self):
        return DIE

    def legal_actions(self):
        return []

    def apply_action(self, face):
        self.total += face
        self.run = self.run + 1 if face > 3 else 0
        self.longest = max(self.longest, self.run)

    def is_terminal(self):
        return self.total >= 12

    def returns(self):
        return [1]

    def events(self):
        return {"longest_run": self.longest}

    def key(self):
        return self.total, self.run
'''


def test_events_that_depend_on_more_than_the_key_are_played_as_written(tmp_path, capsys):
    path = tmp_path / "streak.py"
    path.write_text(textwrap.dedent(HISTORY))
    rules = load_rules(str(path), {})
    seats = rules_players(rules)
    table = Tabulated(rules, seats, play_game)
    _same(table.records(7, 0, 400), _python(rules, seats, 7, 400))
    assert table.table is None and table.why.startswith("its events() depends on more than its key()")
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("toolkit: note: Streak: its events() depends on more than its key()")
    assert "played by the file itself" in said[0]
    _same(table.records(7, 400, 50), [play_game(rules, seats, game_seed(7, i)) for i in range(400, 450)])
    assert capsys.readouterr().err == ""  # one note


def test_a_line_of_progress_comes_within_the_first_second(monkeypatch):
    """The line comes from a timer at 0.5 s (a fake clock tells the time) while the first batch is still
    learning: here a batch that has learned the first position and waits until the line has come."""
    said: list[str] = []
    came = threading.Event()
    monkeypatch.setattr("toolkit.fast.notice.say", lambda text: (said.append(text), came.set()))
    times = [100.0]
    monkeypatch.setattr(records.time, "monotonic", lambda: times.pop(0) if times else 100.5)
    assert records.Told.NOTE_AFTER <= 0.5
    rules = load_rules(BATTLE, {"dice": 3})
    seats = rules_players(rules)

    def learning(*args, **kwargs):
        records.tabulated(rules, seats)  # the first position learned
        assert came.wait(10)
        yield records.rules_batch(rules, seats, 1, 0, 10)

    monkeypatch.setattr(records, "batches", learning)
    ticks: list[int] = []
    simulate_rules(rules, seats, 10, 1, progress=ticks.append)
    assert said == ["DiceBattle: 0 of 10 games played after 0.5 s; 1 position learned so far"] and ticks == [10]


def test_a_run_stuck_in_the_files_first_call_says_nothing_before_its_error(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr("toolkit.fast.notice.say", said.append)
    monkeypatch.setattr(records.Told, "NOTE_AFTER", 0.01)
    rules = load_rules(BATTLE, {"dice": 3})
    seats = rules_players(rules)

    def stuck(*args, **kwargs):
        threading.Event().wait(0.2)
        raise RuntimeError("stuck")
        yield

    monkeypatch.setattr(records, "batches", stuck)
    with pytest.raises(RuntimeError):
        simulate_rules(rules, seats, 10, 1, progress=lambda n: None)
    assert said == []
