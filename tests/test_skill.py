"""How much skill matters (toolkit.rules.skill): the clairvoyant's exact expectation checked against brute
force written here (every roll of two dice, every order of a small shuffled pile, every sequence of coins),
its guaranteed bounds and its sampled interval holding the exact value, and the report's page read back."""

from __future__ import annotations

import itertools
import json
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

import test_rules_exact

from toolkit.rules import optimal, skill
from toolkit.rules.load import load_rules

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig" / "pig.py")
CHUTES = str(ROOT / "examples" / "chutes" / "chutes.py")

ONE_OR_TWO = '''
class OneOrTwo:
    """Choose one die (a 6 wins) or two dice (a sum of 9 or more wins), then roll."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.dice = None
        self.faces = []
    def current_player(self):
        return -4 if self.is_terminal() else (0 if self.dice is None else -1)
    def chance_outcomes(self):
        return [(face, 1) for face in range(1, 7)]
    def legal_actions(self):
        return [1, 2]
    def apply_action(self, action):
        if self.dice is None:
            self.dice = action
        else:
            self.faces.append(action)
    def is_terminal(self):
        return self.dice is not None and len(self.faces) == self.dice
    def returns(self):
        won = self.faces == [6] if self.dice == 1 else sum(self.faces) >= 9
        return [int(won)]
'''

EXACTLY_FOUR = '''
class ExactlyFour:
    """A pile of four cards, 1, 1, 2 and 3, shuffled: draw as long as you like, and stop on a total of
    exactly 4 to win (past 4 loses at once)."""
    def num_players(self):
        return 1
    def new_initial_state(self):
        return State()

class State:
    def __init__(self):
        self.left = [2, 1, 1]  # cards of 1, 2 and 3 in the pile
        self.total = 0
        self.drawing = False
        self.stopped = False
    def current_player(self):
        return -4 if self.is_terminal() else (-1 if self.drawing else 0)
    def chance_outcomes(self):
        return [(value, count) for value, count in zip((1, 2, 3), self.left) if count]
    def legal_actions(self):
        return [0, 1] if sum(self.left) else [1]
    def apply_action(self, action):
        if self.drawing:
            self.left[action - 1] -= 1
            self.total += action
            self.drawing = False
        elif action == 0:
            self.drawing = True
        else:
            self.stopped = True
    def is_terminal(self):
        return self.stopped or self.total > 4
    def returns(self):
        return [int(self.stopped and self.total == 4)]
'''

DASH = test_rules_exact.DASH.replace("{end}", "5")  # one player to square 5: step, or gamble


@pytest.fixture
def rules_file(tmp_path):
    def write(text: str, name: str) -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text))
        return str(path)
    return write


def test_one_die_or_two_by_hand(rules_file):
    """Knowing both rolls, the player wins whenever one die shows 6 or two dice make 9 or more: 12 of the
    36 pairs of rolls (the second die unread when one die is chosen)."""
    wins = sum(a == 6 or a + b >= 9 for a, b in itertools.product(range(1, 7), repeat=2))
    [figure] = skill.skill(load_rules(rules_file(ONE_OR_TWO, "dice.py")))
    assert figure.clairvoyant == skill.Figure.exact(Fraction(wins, 36)) == skill.Figure.exact(Fraction(1, 3))
    assert figure.beginner.value == (Fraction(1, 6) + Fraction(10, 36)) / 2 and figure.optimal.value == Fraction(10, 36)
    assert figure.learning.value == figure.chance.value == Fraction(2, 36)
    assert figure.relative == skill.Figure.exact(Fraction(1, 2))


def test_a_shuffled_pile_is_known_in_its_order(rules_file):
    """For a game drawing from one pile the sequence of chance is the pile's order: the clairvoyant wins on
    every order with a running total of exactly 4, over the 24 orders of the four cards."""
    orders = list(itertools.permutations([1, 1, 2, 3]))
    wins = sum(4 in itertools.accumulate(order) for order in orders)
    [figure] = skill.skill(load_rules(rules_file(EXACTLY_FOUR, "four.py")))
    assert figure.clairvoyant == skill.Figure.exact(Fraction(wins, len(orders)))
    assert figure.clairvoyant.value >= figure.optimal.value > figure.beginner.value


def _dash_by_hand() -> Fraction:
    """The least number of turns to square 5 knowing the coins, averaged over every sequence of 5 coins
    (no play of more than 5 turns is best: stepping takes 5; each gamble reads the next coin)."""
    def least(square: int, read: int, coins) -> int:
        if square >= 5:
            return 0
        best = 1 + least(square + 1, read, coins)
        if read < len(coins):
            best = min(best, 1 + least(square + 3 if coins[read] else 0, read + 1, coins))
        return best

    sequences = list(itertools.product((True, False), repeat=5))
    return Fraction(sum(least(0, 0, coins) for coins in sequences), len(sequences))


def test_the_shortest_length_knowing_the_coins_and_its_bounds_and_sample(rules_file):
    game = load_rules(rules_file(DASH, "dash.py"))
    [best] = optimal.solve(game)
    exact = _dash_by_hand()
    assert best.objective == "length" and skill.clairvoyant(best, 0) == skill.Figure.exact(exact)
    plans = skill._Plans(best.graph, 0, best.objective, best.values)
    low, high = plans.solve(budget=3)  # the chain cut after three sets: guaranteed bounds
    assert low <= exact <= high and low < high
    sampled = plans.sample(4000, seed=3)
    assert sampled.how == "sampled" and sampled.low <= exact <= sampled.high


def test_pig_exact_bounds_and_sample_agree():
    game = load_rules(PIG, {"goal": 5})
    for seat in (0, 1):
        best = optimal.best_reply(game, seat, [game.policies()["random"]] * 2)
        exact = skill.clairvoyant(best, seat)
        assert exact.how == "exact" and 1 >= exact.value > best.value
        plans = skill._Plans(best.graph, seat, best.objective, best.values)
        low, high = plans.solve(budget=200)
        assert best.value <= low <= exact.value <= high <= 1 and low < high
        sampled = plans.sample(3000, seed=11)
        assert sampled.low <= exact.value <= sampled.high


def test_a_race_without_decisions_has_no_chance_effect():
    """Chutes and Ladders: nothing to decide, so knowing the spins cannot shorten the game: the
    clairvoyant's length is the chain's own, Althoen, King and Schilling's fraction."""
    [figure] = skill.skill(load_rules(CHUTES))
    published = Fraction(225837582538403273407117496273279920181931269186581786048583,
                         5757472998140039232950575874628786131130999406013041613400)
    assert figure.clairvoyant == figure.optimal == figure.beginner == skill.Figure.exact(published)
    assert figure.chance.value == 0 and figure.relative is None


def _percent(value: float, lang: str, way: str = "near") -> str:
    from toolkit.analysis.report_pdf import _num

    return _num(100 * value, 2, lang, way)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_report_has_the_skill_figures_of_the_json(tmp_path, lang):
    from pypdf import PdfReader

    report = tmp_path / f"pig-{lang}.pdf"
    done = test_rules_exact.run_toolkit("analyse", "--rules", PIG, "--param", "goal=5", "--precision", "0.05", "--json",
                                        "--report", str(report), "--lang", lang)
    seats = json.loads(done.stdout)["skill"]["seats"]
    text = PdfReader(str(report)).pages[1].extract_text()
    lines = [line.replace("\u00a0", " ").strip() for line in text.splitlines()]
    heading, exact = ("How much skill matters", "exact") if lang == "en" else ("Сколько значит умение", "точно")
    assert lines[0] == heading
    for seat in seats:
        start = lines.index(("Seat {} against beginners" if lang == "en" else "Место {} против новичков")
                            .format(seat["seat"]))
        table = lines[start:]
        for name in ("beginner", "optimal", "clairvoyant"):
            assert seat[name]["how"] == "exact"
            assert _percent(seat[name]["value"], lang) + "%" in table[:22]
        for name in ("learning_effect", "chance_effect"):
            assert any(line.startswith(_percent(seat[name]["value"], lang) + (" п. п." if lang == "ru" else " pts"))
                       for line in table[:22])
        relative = f"{seat['relative_skill']['value']:.3f}"
        assert (relative if lang == "en" else relative.replace(".", ",")) in table[:22]
        assert table[:22].count(exact) == 6


def test_a_game_out_of_reach_says_so_on_the_report_and_has_no_skill_page(tmp_path):
    from pypdf import PdfReader

    report = tmp_path / "pig-100.pdf"
    done = test_rules_exact.run_toolkit("analyse", "--rules", PIG, "--precision", "0.05", "--max-games", "1000",
                                    "--report", str(report))
    assert "how much skill matters: out of reach (the game has more than 20,000 states" in done.stdout
    pages = PdfReader(str(report)).pages
    text = " ".join(pages[0].extract_text().split())
    assert len(pages) == 1 and "How much skill matters is not measured for this game" in text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_dice_game_is_told_of_in_words_of_chance_not_cards(tmp_path, lang):
    """An editor's finding (issue 37): Pig's skill page spoke of cards, and the console of draws, in a
    game of dice; both speak of chance, which fits any game."""
    import re

    from pypdf import PdfReader

    report = tmp_path / f"pig-{lang}.pdf"
    done = test_rules_exact.run_toolkit("analyse", "--rules", PIG, "--param", "goal=5", "--precision", "0.05",
                                        "--report", str(report), "--lang", lang)
    text = " ".join(page.extract_text() for page in PdfReader(str(report)).pages)
    card_words = r"card|deck|shuffl|draw|pile" if lang == "en" else r"карт|колод|тасов|взят"
    assert not re.search(card_words, text, re.I), re.search(card_words, text, re.I)
    assert ("every outcome of chance" if lang == "en" else "всё, что решит случай") in " ".join(text.split())
    assert not re.search(r"card|deck|shuffl|draw|pile", done.stdout, re.I)
    assert "knowing every outcome of chance to come" in done.stdout
