"""Games of hidden information: what each seat knows (``information_state_string``), the equilibrium of
the two-player zero-sum game exact and proven, best replies that know only what their seat knows, and
the assumption of perfect information said in the first line of every optimal-play answer."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolkit.errors import UserError
from toolkit.rules import equilibrium
from toolkit.rules.hidden import HIDDEN, PERFECT, walk_tree
from toolkit.rules.load import load_rules
from toolkit.seats import Policies

ROOT = Path(__file__).resolve().parent.parent
KUHN = str(ROOT / "examples" / "kuhn" / "kuhn.py")
PIG = str(ROOT / "examples" / "pig" / "pig.py")


def odds(*args, check=True):
    from toolkit.cli import main

    done = CliRunner().invoke(main, ["odds", *args], catch_exceptions=False)
    if check:
        assert done.exit_code == 0, done.stderr
    return done


def test_kuhn_value_is_minus_one_eighteenth_exact_and_proven():
    answer = equilibrium.solve(load_rules(KUHN))
    assert answer.exact and answer.value == Fraction(-1, 18) and answer.bounds == (Fraction(-1, 18),) * 2
    # the plays found are an equilibrium: each gets the value against the other's best reply
    seat1, seat2 = (dict(zip(range(answer.tree.slots), play.chances)) for play in answer.plays)
    assert all(p is None or 0 <= p <= 1 for p in seat1.values())
    out = odds("--rules", KUHN, "--model", "optimal").stdout
    lines = out.splitlines()
    assert lines[0] == f"Kuhn, optimal play; {HIDDEN}"
    assert "the value of the game to seat 1 with optimal play on both sides: -1/18" in out
    assert "exact; proven" in out and "each seat's return (the default" in out
    assert "  K, after bet: bet" in out  # seat 2 calls with the king


def test_kuhn_best_replies_to_the_uniform_player():
    replies = equilibrium.best_replies(load_rules(KUHN), Policies.of(every="random"))
    assert [r.value for r in replies.replies] == [Fraction(1, 2), Fraction(5, 12)]
    assert replies.exploitability == Fraction(11, 24)  # OpenSpiel's exploitability of the uniform policy
    data = json.loads(odds("--rules", KUHN, "--model", "optimal", "--policy", "random", "--json").stdout)
    assert [a["value"] for a in data["answers"]] == ["1/2", "5/12"] and data["exploitability"] == "11/24"


def test_a_best_reply_knows_only_what_its_seat_knows():
    """Against a player who always bets, seat 2 seeing seat 1's card would call exactly when ahead; knowing
    only its own card, it must choose once per card, and gets less."""
    game = load_rules(KUHN)
    replies = equilibrium.best_replies(game, Policies.of({1: "always-bet"}))
    reply = replies.replies[1]
    # seat 2 with J folds (loses 1), with Q calls (wins 2 against J, loses 2 against K), with K calls (wins 2)
    assert reply.value == (Fraction(-1) + 0 + 2) / 3
    clairvoyant = Fraction(1, 6) * (-1 + 2 - 1 + 2 - 1 + 2)  # sees the card: folds when behind, calls when ahead
    assert reply.value < clairvoyant


def test_perfect_information_is_said_first_everywhere(tmp_path):
    text = odds("--rules", PIG, "--param", "goal=8", "--model", "optimal").stdout
    assert text.splitlines()[0] == f"Pig, optimal play; {PERFECT}"
    data = odds("--rules", PIG, "--param", "goal=8", "--model", "optimal", "--json").stdout
    assert data.splitlines()[0] == '{"information": ' + json.dumps(PERFECT) + ","
    assert json.loads(data)["answers"]
    policy = tmp_path / "p.json"
    odds("--rules", PIG, "--param", "goal=8", "--model", "optimal", "--export-policy", str(policy))
    assert policy.read_text().splitlines()[0] == '{"information": ' + json.dumps(PERFECT) + ","
    kuhn = odds("--rules", KUHN, "--model", "optimal", "--json").stdout
    assert kuhn.splitlines()[0] == '{"information": ' + json.dumps(HIDDEN) + ","
    odds("--rules", KUHN, "--model", "optimal", "--export-policy", str(policy))
    exported = json.loads(policy.read_text())
    assert exported["information"] == HIDDEN and exported["answers"][0]["value"] == "-1/18"
    rows = {(row["seat"], row["information_state"]): row for row in exported["answers"][0]["play"]}
    assert [a["chance"] for a in rows[(2, "J, after pass")]["actions"]] == ["2/3", "1/3"]


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


LEDUC = str(ROOT / "examples" / "leduc" / "leduc.py")
LEDUC_VALUE = -0.085606424078  # OpenSpiel's sequence-form test (Lanctot et al.)


def test_leduc_value_exact_by_the_sequence_form():
    answer = equilibrium.solve(load_rules(LEDUC))
    assert answer.nodes == 9457  # OpenSpiel's leduc_poker has 9,457 histories
    assert answer.exact and abs(float(answer.value) - LEDUC_VALUE) < 1e-11
    lines = equilibrium.equilibrium_lines(load_rules(LEDUC), answer)
    assert lines[0].startswith("the value of the game to seat 1 with optimal play on both sides: ") and \
        "exact; proven" in lines[1]


def test_cfr_plus_bounds_hold_the_value():
    kuhn = equilibrium.solve(load_rules(KUHN), method="cfr", iterations=2000)
    low, high = kuhn.bounds
    assert low <= Fraction(-1, 18) <= high and high - low < 2e-3 and not kuhn.exact
    leduc = equilibrium.solve(load_rules(LEDUC), method="cfr", target=1e-3)
    low, high = leduc.bounds
    assert low <= LEDUC_VALUE <= high and high - low <= 1e-3
    lines = equilibrium.equilibrium_lines(load_rules(LEDUC), leduc)
    assert " between " in lines[0] and "bounded" in lines[1] and "CFR+" in lines[2]
    rows = equilibrium.play_rows(load_rules(LEDUC), leduc.tree, leduc.plays[0])
    assert all(abs(sum(a["chance"] for a in row["actions"]) - 1) < 1e-9 for row in rows)


def test_leduc_best_replies_to_the_uniform_player_are_exact():
    replies = equilibrium.best_replies(load_rules(LEDUC), Policies.of(every="random"))
    values = [r.value for r in replies.replies]
    assert all(isinstance(v, Fraction) for v in values)
    # OpenSpiel's exploitability of the uniform policy in Leduc, 2.373611..., and its players' improvements
    assert replies.exploitability == Fraction(1709, 720)
    gains = [float(r.value - r.own) for r in replies.replies]
    assert abs(gains[0] - 2.165625) < 1e-12 and abs(gains[1] - 2.58159722) < 1e-8


TRICKS = str(ROOT / "examples" / "tricks" / "tricks.py")


def test_two_tricks_our_own_game():
    answer = equilibrium.solve(load_rules(TRICKS))
    assert answer.exact and answer.value == Fraction(-1, 9) and answer.nodes == 1546 and answer.sets == 180
    replies = equilibrium.best_replies(load_rules(TRICKS), Policies.of(every="honest"))
    assert [r.value for r in replies.replies] == [Fraction(-1, 18), Fraction(7, 45)]
    assert replies.exploitability == Fraction(1, 20)


def test_the_skill_figure_best_play_knows_only_what_its_seat_knows():
    from toolkit.rules import skill

    figures = skill.skill(load_rules(KUHN))
    assert [f.optimal.value for f in figures] == [Fraction(3, 4), Fraction(5, 8)]
    assert [f.beginner.value for f in figures] == [Fraction(9, 16), Fraction(7, 16)]
    assert all(f.clairvoyant.value >= f.optimal.value for f in figures)  # it sees every card


@pytest.mark.parametrize("spec, params, said, page", [
    (KUHN, (), "hidden information: the best play knows only what its seat knows", "each seat sees only what"),
    (PIG, ("--param", "goal=8"), PERFECT, "perfect information"),
])
def test_analyse_says_what_the_best_play_knows(tmp_path, spec, params, said, page):
    """The skill figure of ``analyse`` is an optimal-play answer too: its text, JSON and report say what the
    seats are taken to know before any figure."""
    import pypdf

    from toolkit.cli import main

    report = tmp_path / "report.pdf"
    args = ["analyse", "--rules", spec, *params, "--precision", "0.1", "--max-games", "1000"]
    text = CliRunner().invoke(main, [*args, "--report", str(report)], catch_exceptions=False).stdout
    head, _, rest = text.partition("how much skill matters")
    assert rest.splitlines()[1].strip().startswith(said) and "seat 1 against beginners" in rest
    data = json.loads(CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False).stdout)
    assert data["skill"]["information"] in ("hidden", "perfect (assumed)")
    pages = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(report).pages)
    assert page in pages


def test_a_named_player_who_reads_hidden_cards_is_noted():
    from toolkit.rules.policy import Policy

    class Peek(Policy):
        """Bets when its card beats the other's: it sees what its seat does not."""

        def distribution(self, state):
            cards = state.inner.cards
            return [(1 if cards[0] > cards[1] else 0, 1)]

    game = load_rules(KUHN)
    tree = walk_tree(game, [Peek("peek"), game.policies()["random"]])
    assert tree.reads_hidden == {0: "peek"}
    lines = equilibrium.replies_lines(game, equilibrium.Replies(
        "Kuhn", "returns", "each seat's return", len(tree), len(tree.infosets), [], Fraction(0), tree.reads_hidden,
        tree))
    assert "note: seat 1's player peek plays differently at states the seat cannot tell apart" in "\n".join(lines)
