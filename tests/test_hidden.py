"""Games of hidden information: what each seat knows (``information_state_string``), the equilibrium of
the two-player zero-sum game exact and proven, best replies that know only what their seat knows, and
the assumption of perfect information said in the first line of every optimal-play answer."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolkit.errors import UserError
from toolkit.rules.hidden import PERFECT, walk_tree
from toolkit.rules.load import load_rules

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig" / "pig.py")


def odds(*args, check=True):
    from toolkit.cli import main

    done = CliRunner().invoke(main, ["odds", *args], catch_exceptions=False)
    if check:
        assert done.exit_code == 0, done.stderr
    return done


def test_perfect_information_is_said_first_everywhere(tmp_path):
    text = odds("--rules", PIG, "--param", "goal=8", "--model", "optimal").stdout
    assert text.splitlines()[0] == f"Pig, optimal play; {PERFECT}"
    data = odds("--rules", PIG, "--param", "goal=8", "--model", "optimal", "--json").stdout
    assert data.splitlines()[0] == '{"information": ' + json.dumps(PERFECT) + ","
    assert json.loads(data)["answers"]
    policy = tmp_path / "p.json"
    odds("--rules", PIG, "--param", "goal=8", "--model", "optimal", "--export-policy", str(policy))
    assert policy.read_text().splitlines()[0] == '{"information": ' + json.dumps(PERFECT) + ","


GAME = '''
class Game:
    def num_players(self):
        return 2

    def new_initial_state(self):
        return State()


class State:
    def __init__(self):
        self.card = None
        self.moves = []

    def current_player(self):
        if self.is_terminal():
            return -4
        return -1 if self.card is None else len(self.moves) % 2

    def chance_outcomes(self):
        return [(0, 1), (1, 1)]

    def legal_actions(self):
        {legal}

    def apply_action(self, action):
        if self.card is None:
            self.card = action
        else:
            self.moves.append(action)

    def is_terminal(self):
        return len(self.moves) == 2

    def returns(self):
        return [1, -1] if self.card == self.moves[-1] else [-1, 1]

    def information_state_string(self, player):
        {info}

    def __repr__(self):
        return f"card {{self.card}}, moves {{self.moves}}"
'''


def _game(tmp_path, legal: str, info: str):
    path = tmp_path / "game.py"
    path.write_text(textwrap.dedent(GAME.format(legal=legal, info=info)))
    return load_rules(str(path))


@pytest.mark.parametrize("legal, info, says", [
    ("return [0, 1] if self.card == 0 else [0, 1, 2]", "return str(self.moves)",
     "information_state_string(0) gives '[]' on state card 0, moves [] and on state card 1, moves [], but the legal "
     "actions differ ([0, 1] and [0, 1, 2])"),
    ("return [0, 1]", "return 'the same'",
     "gives 'the same' on state card 0, moves [] and on state card 0, moves [0], but seat 1 acts at the one and "
     "seat 2 at the other"),
])
def test_inconsistent_information_is_one_line_naming_two_states(tmp_path, legal, info, says):
    game = _game(tmp_path, legal, info)
    with pytest.raises(UserError) as err:
        walk_tree(game)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{game.source}:") and says in message, message
    done = odds("--rules", game.source, "--model", "optimal", check=False)
    assert done.exit_code == 2 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_game_that_forgets_is_refused(tmp_path):
    # seat 1 moves twice; its second information state forgets its first move
    path = tmp_path / "forget.py"
    path.write_text(textwrap.dedent('''
        class Game:
            def num_players(self):
                return 2

            def new_initial_state(self):
                return State()


        class State:
            def __init__(self):
                self.moves = []

            def current_player(self):
                return -4 if len(self.moves) == 3 else [0, 1, 0][len(self.moves)]

            def chance_outcomes(self):
                return []

            def legal_actions(self):
                return [0, 1]

            def apply_action(self, action):
                self.moves.append(action)

            def is_terminal(self):
                return len(self.moves) == 3

            def returns(self):
                return [1, -1] if sum(self.moves) % 2 else [-1, 1]

            def information_state_string(self, player):
                return f"seat {player}, turn {len(self.moves)}"
    '''))
    with pytest.raises(UserError, match="the game forgets"):
        walk_tree(load_rules(str(path)))


def test_a_wrong_information_state_is_one_line(tmp_path):
    game = _game(tmp_path, "return [0, 1]", "return 7")
    with pytest.raises(UserError, match=r"State.information_state_string\(\) on state card 0, moves \[\]: gave 7 "
                                        "for player 0: an information state is a string"):
        walk_tree(game)
