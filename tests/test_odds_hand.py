"""`toolkit odds --model hand`: the chance a dealt hand holds so many cards that count, exact, held to a
count of every hand."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.odds.hand import hand_odds

CATALOGUE = load("diamoniak", require_art=False)
IDS = [card.id for card in CATALOGUE.cards]
CLAUSES = ["witch", "diamond", "castle", "fairy", "castle-red", "kind=castle", "colour=blue", "id=witch"]



def counted_by_hand(pile: dict[str, int], hand: int, where: list[str]) -> list[Fraction]:
    """P(the hand holds k cards that count) for every k, by dealing every hand of the pile's cards."""
    cards = {card.id: card for card in CATALOGUE.cards}

    def counts(card_id: str) -> bool:
        card = cards[card_id]
        for clause in where:
            name, _, value = clause.partition("=")
            if not value:
                name, value = ("kind", name) if name in {c.kind for c in CATALOGUE.cards} else ("id", name)
            if str(getattr(card, name)) != value:
                return False
        return True

    deck = [card_id for card_id, n in pile.items() for _ in range(n)]
    tally = Counter(sum(counts(deck[i]) for i in chosen) for chosen in combinations(range(len(deck)), hand))
    hands = sum(tally.values())
    return [Fraction(tally[k], hands) for k in range(hand + 1)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=len(IDS), max_size=len(IDS)).filter(lambda c: 1 <= sum(c) <= 11),
       st.data())
def test_every_hand_counted_agrees(counts, data):
    pile = dict(zip(IDS, counts))
    total = sum(counts)
    hand = data.draw(st.integers(1, total))
    where = data.draw(st.lists(st.sampled_from(CLAUSES), min_size=1, max_size=2, unique=True))
    low = data.draw(st.integers(0, hand))
    odds = hand_odds(CATALOGUE, pile, hand, tuple(where), at_least=low)
    expected = counted_by_hand(pile, hand, where)
    assert odds.distribution == expected
    assert odds.chance == sum(expected[low:], Fraction(0))


def test_two_tens_in_five_cards(run):
    """Four tens among forty cards (the witches of a pile of 40 here): two or more in a five-card hand,
    97/1406, as counted by hand."""
    result = run("odds", "--model", "hand", "--pile", "witch=4,diamond=36", "--hand", "5", "--where", "witch",
                 "--at-least", "2", "--json")
    data = json.loads(result.stdout)
    assert data["chance"] == "97/1406" and data["matching"] == 4 and data["dealt_from"] == 40
    assert sum(Fraction(p) for _, p in data["distribution"]) == 1
    text = run("odds", "--model", "hand", "--pile", "witch=4,diamond=36", "--hand", "5", "--where", "witch",
               "--at-least", "2").stdout
    assert "at least 2 that count in the hand: 97/1406 = 0.068990" in text


def test_clauses_are_joined_with_and_and_the_bounds_combine():
    both = hand_odds(CATALOGUE, {c.id: c.count for c in CATALOGUE.cards}, 5, ("kind=castle", "colour=red"),
                     at_least=1, at_most=2)
    red = hand_odds(CATALOGUE, {c.id: c.count for c in CATALOGUE.cards}, 5, ("castle-red",), exactly=1)
    assert both.counted == {"castle-red": 6} and both.chance == sum(red.distribution[1:3], Fraction(0))
    assert red.chance == red.distribution[1]


def test_a_thousand_card_deck(run):
    result = run("odds", "--model", "hand", "--set", "diamond=500", "--set", "witch=473", "--hand", "100",
                 "--where", "witch", "--at-least", "50", "--json")
    data = json.loads(result.stdout)
    assert data["dealt_from"] == 1000 and len(data["distribution"]) == 101
    assert sum(Fraction(p) for _, p in data["distribution"]) == 1


def test_the_chart(run, tmp_path):
    chart = tmp_path / "hand.png"
    result = run("odds", "--model", "hand", "--hand", "5", "--where", "witch", "--plot", str(chart))
    assert result.exit_code == 0 and chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["--hand", "5"], "--where: name the cards to count"),
    (["--where", "witch"], "--hand: say how many cards a hand holds"),
    (["--hand", "60", "--where", "witch"], "--hand 60: the pile has only 54 cards to deal from"),
    (["--hand", "5", "--where", "goblin"], "--where goblin: not a kind (castle, diamond, fairy, witch) nor a card id"),
    (["--hand", "5", "--where", "suit=red"], "--where suit=red: 'suit' is not a field of the deck's cards"),
    (["--hand", "5", "--where", "colour=pink"], "--where colour=pink: no card of the deck has colour 'pink'"),
    (["--hand", "5", "--where", "witch", "--exactly", "1", "--at-least", "1"], "--exactly 1: give it alone"),
    (["--hand", "5", "--where", "witch", "--at-least", "3", "--at-most", "1"], "--at-least 3 --at-most 1: no count"),
    (["--hand", "5", "--where", "witch", "--pile", "diamond=3"], "--hand 5: the pile has only 3 cards"),
])
def test_hand_errors(run, args, message):
    result = run("odds", "--model", "hand", *args)
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1


def test_other_models_refuse_the_hand_options(run):
    result = run("odds", "--model", "draws", "--where", "witch")
    assert result.exit_code == 2 and "--where: the draws model does not use it" in result.stderr


def test_hand_odds_refuses_a_hand_larger_than_the_pile():
    with pytest.raises(UserError, match="--hand 3: the pile has only 2 cards"):
        hand_odds(CATALOGUE, {"witch": 2}, 3, ("witch",))
