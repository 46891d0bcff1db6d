"""The rules-file loader and guard (toolkit.rules): Pig loads and plays; every kind of mistake of a file is one
line naming the file and line, the method and the state (the CLI's exit status: tests/test_rules_cli.py)."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest

from toolkit.errors import UserError
from toolkit.games import CHANCE, TERMINAL
from toolkit.rules.load import load_rules
from toolkit.sim.runner import sample_outcome

PIG = str(Path(__file__).resolve().parent.parent / "examples" / "pig" / "pig.py")


def _play(state, policy, rng):
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply_action(policy.act(state, rng))
    return state


def test_pig_loads_with_its_parameter_and_plays_to_a_winner():
    game = load_rules(PIG, {"goal": 12})
    assert (game.name, game.players, game.params) == ("Pig", 2, {"goal": 12})
    assert list(game.policies()) == ["random", "first", "hold-at-20", "hold-at-25"]
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    state.apply_action(0)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(face, 1) for face in range(1, 7)]  # Fractions of 1/6: one denominator
    end = _play(state, game.policy("first"), random.Random(3))
    assert end.current_player() == TERMINAL and end.winner in (0, 1)
    assert sorted(end.returns()) == [-1, 1] and end.turns >= 1 and end.steps >= 2


def test_a_clone_plays_on_alone_and_keys_are_the_papers_states():
    game = load_rules(PIG)
    state = game.new_initial_state()
    state.apply_action(0)
    twin = state.clone()
    twin.apply_action(4)
    assert state.key() == (0, 0, 0, 0, True) and twin.key() == (0, 0, 4, 0, False)
    assert (state.steps, twin.steps) == (1, 2)


def _write(tmp_path, body: str, name: str = "game.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


COIN = """
from fractions import Fraction

class Coin:
    def num_players(self):
        return 1
    def new_initial_state(self):
        return CoinState()

class CoinState:
    def __init__(self):
        self.flips = 0
        self.done = False
    def current_player(self):
        return -4 if self.done else -1
    def chance_outcomes(self):
        return [(0, Fraction(1, 2)), (1, Fraction(1, 2))]
    def legal_actions(self):
        return []
    def apply_action(self, action):
        self.flips += 1
        self.done = action == 1
    def is_terminal(self):
        return self.done
    def returns(self):
        return [1]
"""


def test_a_state_without_key_or_clone_gets_the_defaults(tmp_path):
    game = load_rules(_write(tmp_path, COIN))
    state = game.new_initial_state()
    assert state.key() == (("done", False), ("flips", 0))
    twin = state.clone()
    twin.apply_action(0)
    assert state.key() != twin.key() and state.inner.flips == 0


@pytest.mark.parametrize("old, new, where, what, at", [
    ("Fraction(1, 2)), (1, Fraction(1, 2))]", "Fraction(1, 2)), (1, Fraction(1, 3))]", "CoinState.chance_outcomes()",
     "the probabilities sum to 5/6, not 1", "def chance_outcomes"),
    ("Fraction(1, 2)), (1, Fraction(1, 2))]", "0.5), (1, 0.5)]", "CoinState.chance_outcomes()",
     "the probability of 0 is the float 0.5: not exact", "def chance_outcomes"),
    ("return [1]", "return [1, 0]", "CoinState.returns()", "gave 2 values ([1, 0]) for 1 players", "def returns"),
    ("self.flips += 1", "self.flips += 1 / 0", "CoinState.apply_action(0)", "ZeroDivisionError: division by zero",
     "1 / 0"),
])
def test_each_mistake_is_one_line_naming_file_line_method_and_state(tmp_path, old, new, where, what, at):
    body = COIN.replace(old, new)
    path = _write(tmp_path, body)
    game = load_rules(path)
    with pytest.raises(UserError) as caught:
        state = game.new_initial_state()
        for _ in range(50):
            if state.is_terminal():
                state.returns()
                break
            state.apply_action(state.chance_outcomes()[0][0])
            state.apply_action(1)
    message = str(caught.value)
    line = 1 + next(number for number, text in enumerate(body.splitlines()) if at in text)
    state = r"\{'flips': [0-9]+, 'done': (True|False)\}"
    assert re.match(rf"{re.escape(f'{path}:{line}: {where}')} on state {state}: ", message), message
    assert what in message and "\n" not in message


def test_module_class_spec_and_an_unhashable_key(tmp_path, monkeypatch):
    (tmp_path / "coin_rules.py").write_text(textwrap.dedent(COIN))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = load_rules("coin_rules:Coin")
    assert game.name == "Coin" and game.source == str(tmp_path / "coin_rules.py")
    assert game.new_initial_state().winner is None
    body = COIN.replace("self.flips = 0", "self.flips = 0\n        self.seen = [{1: {2}}]")
    body = body.replace("    def returns(self):", "    def key(self):\n        return [self.flips]\n    def returns(self):")
    with pytest.raises(UserError, match=r"CoinState\.key\(\) on state .*: gave \[0\], which is not hashable"):
        load_rules(_write(tmp_path, body, "keyed.py")).new_initial_state().key()


def test_a_builtin_game_is_a_game_of_the_contract_with_its_own_players():
    """The engine's game is the contract's game itself (no adapter): its players by name, returns, keys."""
    from toolkit.catalogue import load
    from toolkit.game.contract import Game, State
    from toolkit.games.registry import get

    game = get("palaces").make_game(load("palaces", require_art=False), 3)
    assert isinstance(game, Game) and game.num_players() == 3
    assert {"random", "first", "default"} <= set(game.policies())
    state = game.new_initial_state()
    assert isinstance(state, State) and state.returns() == (0, 0, 0) and state.clone().key() == state.key()
    assert game.info().length_unit == "rounds" and game.info().no_winner == "stalled"
    with pytest.raises(UserError, match=r"--rules palaces: not a file PATH.py, a module:Class or a game"):
        load_rules("palaces")  # an id is the setup's to resolve (toolkit.setup), never a rules file's
