"""`toolkit odds` under degenerate decks and bad options: never a wrong exact answer, never a finite
expected length for a game that may not end, one line for bad input, and no silent long work."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

import pytest

import solo_reference
from conftest import builtin_doc, write_catalogue
from toolkit.catalogue import load
from toolkit.errors import UserError
from toolkit.games import CHANCE, TERMINAL
from toolkit.odds import engine_chain
from toolkit.walk import walker
from toolkit.games.diamoniak import solo as diamoniak_solo
from toolkit.odds import report as odds_report
from toolkit.games.palaces.opening import opening_odds
from toolkit.odds.report import answer
from toolkit.seats import Policies

SIGMAS = 4.5
PALACE_COLOURS = ("red", "blue", "green", "yellow")



def zero(*kinds: str) -> list[str]:
    """--set options that remove every Palaces card of these kinds, in every colour."""
    return [f"{kind}-{colour}=0" for kind in kinds for colour in PALACE_COLOURS]


NO_CASTLES = [f"castle-{colour}=0" for colour in PALACE_COLOURS]


def one_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), result.stderr
    return lines[0]


def odds_json(run, *args):
    result = run("odds", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def sets(overrides):
    return [arg for item in overrides for arg in ("--set", item)]


def catalogue_of(tmp_path, game: str, counts: dict[str, int], **rules):
    """A user catalogue of ``game`` with exactly these counts (every other card 0) and rule numbers."""
    doc = builtin_doc(game)
    doc["rules"].update(rules)
    for card in doc["cards"]:
        card["count"] = counts.get(card["id"], 0)
    return load(path=write_catalogue(tmp_path, doc))


# --- games that cannot end: no finite expected number, every model --------------------------------

@pytest.mark.parametrize("overrides", [
    zero("foundation"),
    zero("roof"),
    zero("floor") + ["tower=0"],
    zero("foundation", "floor", "roof") + ["tower=0", "ruins=0", "exchange=0", "general-exchange=0", "flood=12"],
])
@pytest.mark.parametrize("model", ["first-palace", "multi"])
def test_a_palaces_deck_that_cannot_finish_a_palace_has_no_finite_expectation(run, overrides, model):
    data = odds_json(run, "--game", "palaces", "--model", model, *sets(overrides))
    assert data["exact"] is True
    assert data["expected_turns"] is None and data["expected_turns_float"] is None
    assert "can never be" in data["reason"] and "no colour has a foundation, a roof" in data["reason"]
    assert Fraction(data["p_never"]) == 1
    assert all(Fraction(p) == 0 for p in data.get("win_probability", []))
    text = run("odds", "--game", "palaces", "--model", model, *sets(overrides)).stdout
    assert "infinite" in text and " 1 turns" not in text and "expected turns (all seats together): 1" not in text


def test_diamoniak_without_a_finishable_colour_never_ends_in_every_model(run):
    multi = odds_json(run, "--model", "multi", *sets(NO_CASTLES))
    assert multi["expected_turns"] is None and "6 castle cards" in multi["reason"]
    assert multi["win_probability"] == ["0/1", "0/1"] and Fraction(multi["p_never"]) == 1
    solo = odds_json(run, *sets(NO_CASTLES))
    assert solo["expected_turns"] is None and "no castle cards" in solo["reason"]
    assert solo["turns_distribution"] == [] and Fraction(solo["p_reshuffle"]) == 1
    small = odds_json(run, *sets(f"castle-{colour}=5" for colour in PALACE_COLOURS))
    assert small["expected_turns"] is None and "no colour has the 6 castle cards" in small["reason"]


def test_a_chance_of_a_stall_makes_the_exact_expectation_infinite_and_matches_the_simulator(tmp_path):
    """Two players may both take a colour too small to finish: then nobody can win, for ever."""
    cat = catalogue_of(tmp_path, "diamoniak", {"castle-red": 3, "castle-blue": 2, "castle-green": 2, "diamond": 2,
                                               "witch": 1}, castle_size=3)
    exact = answer(cat, "multi", players=2)
    data = exact.data
    never = Fraction(data["p_never"])
    assert data["exact"] and 0 < never < 1 and data["expected_turns"] is None
    assert Fraction(data["p_stalled"]) == never  # every such game is stalled by the engine itself
    assert sum(Fraction(p) for p in data["win_probability"]) + never == 1
    assert "expected turns: infinite: with probability 1/6" in "\n".join(exact.lines)
    simulated = answer(cat, "multi", players=2, max_states=10, games=3000)
    summary = simulated.data["simulated"]
    assert simulated.data["exact"] is False and summary["games"] == 3000
    share = summary["stalled"] / 3000
    assert abs(share - float(never)) < SIGMAS * math.sqrt(float(never) * (1 - float(never)) / 3000)
    text = "\n".join(simulated.lines)
    assert "nobody can win any more: such a game never ends, so the expected length is infinite" in text
    assert "(of the games that ended)" in text


def test_a_random_policy_is_simulated_and_its_stalls_leave_no_mean(tmp_path):
    """Alone with one building place, a random player may lay a foundation no roof can finish."""
    cat = catalogue_of(tmp_path, "palaces", {"foundation-red": 3, "floor-red": 3, "roof-red": 3, "foundation-blue": 3},
                       max_palaces=1)
    exact = answer(cat, "first-palace").data  # the builder never lays the blue foundation
    assert exact["exact"] and Fraction(exact["p_never"]) == 0 and exact["expected_turns"] is not None
    report = answer(cat, "first-palace", policy=Policies.of(every="random"), games=300)
    data, text = report.data, "\n".join(report.lines)
    assert data["exact"] is False and "decides at random" in text
    assert data["stalled_games"] > 0 and data["mean_turns"] is None and data["expected_turns_float"] is None
    assert data["mean_turns_finished"] > 1 and "expected number of turns is infinite" in text
    assert "(of those that finished one)" in text


def test_a_solo_deck_out_of_reach_with_a_colour_too_small_says_infinite_exactly(run, monkeypatch):
    result = run("odds", "--set", "castle-red=5", "--set", "diamond=500", "--set", "witch=40", "--games", "500",
                 "--json")
    data = json.loads(result.stdout)
    assert data["exact"] is False and data["state_estimate"] > data["states_explored_over"] == diamoniak_solo.REACH
    assert data["expected_turns"] is None and data["expected_turns_float"] is None
    assert Fraction(data["p_never"]) == Fraction(5, 23) and "5/23" in data["reason"]
    assert data["stalled_games"] > 0 and data["mean_turns_finished"] is not None
    assert result.stderr.startswith("toolkit: note: exact solo odds are out of reach") and result.stderr.count("\n") == 1


class _Coin:
    """A toy engine: a coin decides between a win and a loop of chance points that no move leaves."""

    def __init__(self, where="start", turns=1):
        self.where, self.turns, self.winner = where, turns, None

    def is_terminal(self):
        return self.where == "won"

    def current_player(self):
        return TERMINAL if self.is_terminal() else CHANCE

    def chance_outcomes(self):
        return {"start": [("won", 1), ("left", 1)], "left": [("right", 1)], "right": [("left", 1)]}[self.where]

    def apply_action(self, outcome):
        self.where, self.turns = outcome, self.turns + 1
        if outcome == "won":
            self.winner = 0

    def clone(self):
        return _Coin(self.where, self.turns)

    def key(self):
        return self.where


def test_an_engine_chain_that_may_loop_for_ever_has_no_expected_turns():
    answer_ = engine_chain.answer(engine_chain.walk(_Coin(), [None]), 1)
    assert answer_.expected_length is None and answer_.win == (Fraction(1, 2),)
    assert answer_.p_never == Fraction(1, 2) and answer_.p_stalled == 0 and answer_.states == 3
    caught = engine_chain.answer(engine_chain.walk(_Coin("left"), [None]), 1)
    assert caught.expected_length is None and caught.p_never == 1 and caught.win == (0,)


# --- degenerate decks -------------------------------------------------------------------------------

def test_a_palaces_deck_smaller_than_a_hand_is_refused_in_one_line(run):
    small = zero("foundation", "floor", "roof") + ["ruins=0", "exchange=0", "general-exchange=0", "flood=0", "tower=3"]
    for model in ("opening", "first-palace", "multi"):
        line = one_line(run("odds", "--game", "palaces", "--model", model, *sets(small)))
        assert "--set tower=3" in line and "the deck has only 3" in line, line  # the --set that made it small
    assert "2 opening hands need 10 cards" in one_line(run("simulate", "--game", "palaces", *sets(small[:-1]),
                                                           "--set", "tower=8"))


@pytest.mark.parametrize("game, model", [("diamoniak", "solo"), ("diamoniak", "draws"), ("diamoniak", "multi"),
                                         ("palaces", "opening"), ("palaces", "first-palace"), ("palaces", "draws"),
                                         ("palaces", "multi")])
def test_a_deck_of_no_cards_is_refused_in_one_line_by_every_model(run, game, model):
    cards = [card["id"] for card in builtin_doc(game)["cards"]]
    line = one_line(run("odds", "--game", game, "--model", model, *sets(f"{card}=0" for card in cards)))
    assert "the deck has no cards" in line


def _old_opening(catalogue):
    """The enumeration of every hand that the dynamic programme replaced (slow on large hands)."""
    size = catalogue.rules["hand_size"]
    cards = [card for card in catalogue.cards if card.count]
    tally, hands = [0, 0, 0, 0], 0
    for combo in combinations_with_replacement(range(len(cards)), size):
        held = {i: combo.count(i) for i in set(combo)}
        ways = math.prod(comb(cards[i].count, k) for i, k in held.items())
        if not ways:
            continue
        hands += 1
        kinds = {(cards[i].kind, cards[i].colour) for i in held}
        has = {kind for kind, _ in kinds}
        colours = {colour for kind, colour in kinds if kind == "foundation"}
        tally[0] += ways * ("foundation" in has)
        tally[1] += ways * any(("floor", c) in kinds and ("roof", c) in kinds for c in colours)
        tally[2] += ways * any(("roof", c) in kinds and (("floor", c) in kinds or "tower" in has) for c in colours)
        tally[3] += ways * ("tower" in has)
    total = comb(sum(card.count for card in cards), size)
    return hands, [Fraction(t, total) for t in tally]


@pytest.mark.parametrize("hand, counts, others", [
    (5, {}, None),
    (3, {"foundation-red": 1, "floor-red": 1, "roof-red": 1, "tower": 0}, None),
    (6, {"foundation-blue": 0, "roof-green": 0, "floor-yellow": 0, "tower": 1}, None),
    (4, {f"{kind}-{c}": 2 for kind in ("foundation", "floor", "roof") for c in ("red", "blue")}, 0),
    (5, {"foundation-red": 2, "roof-red": 1, "floor-blue": 3, "tower": 2, "flood": 1}, 0),
    (1, {}, None),
])
def test_the_opening_odds_equal_the_old_enumeration(tmp_path, hand, counts, others):
    doc = builtin_doc("palaces")
    doc["rules"].update(hand_size=hand, exchange_cards=min(hand, doc["rules"]["exchange_cards"]))
    for card in doc["cards"]:
        card["count"] = counts.get(card["id"], card["count"] if others is None else others)
    cat = load(path=write_catalogue(tmp_path, doc))
    odds = opening_odds(cat)
    hands, figures = _old_opening(cat)
    assert odds.hands == hands
    assert [odds.p_foundation, odds.p_palace_kinds, odds.p_palace_kinds_with_tower, odds.p_tower] == figures


def test_large_opening_hands_are_exact_and_fast(tmp_path, monkeypatch):
    from toolkit.games.palaces import opening

    doc = builtin_doc("palaces")
    doc["rules"]["hand_size"] = 15
    cat = load(path=write_catalogue(tmp_path, doc))
    deals = []  # each step of the count weighs a choice of cards by its number of deals, comb(count, taken)
    monkeypatch.setattr(opening, "comb", lambda n, k: deals.append(1) or comb(n, k))
    odds = opening_odds(cat)
    # enumerating the hands (162 million for 15 cards) took minutes: the count takes a few thousand steps
    assert len(deals) * 1_000 < odds.hands
    assert odds.p_foundation == 1 - Fraction(comb(58, 15), comb(70, 15))
    assert odds.p_tower == 1 - Fraction(comb(62, 15), comb(70, 15))
    assert 0 < odds.p_palace_kinds < odds.p_palace_kinds_with_tower < 1


def test_the_solo_reshuffle_chance_counts_games_that_never_end(tmp_path):
    """A game whose colour is too small goes on for ever, so its first pile surely runs out."""
    cat = catalogue_of(tmp_path, "diamoniak", {"castle-red": 3, "castle-blue": 2, "diamond": 2, "witch": 2,
                                               "fairy": 1}, castle_size=3)
    deck = diamoniak_solo.SoloDeck.from_catalogue(cat)
    forward = answer(cat, "solo").data
    backward, general = solo_reference.solve(deck), solo_reference.solve_general(deck)
    assert Fraction(forward["p_never"]) == backward.p_never == general.p_never == Fraction(2, 5)
    assert Fraction(forward["p_reshuffle"]) == backward.p_reshuffle == general.p_reshuffle
    assert forward["expected_turns"] is None


def test_the_kernel_takes_a_witch_greedier_than_the_deck():
    from dataclasses import replace

    from toolkit.games.diamoniak.engine import DiamoniakGame
    from toolkit.sim.records import play_records
    from toolkit.seats import builtin_players

    game = DiamoniakGame.from_catalogue(load("diamoniak", require_art=False), players=1)
    seats = builtin_players("diamoniak", 1)
    greedy = play_records(replace(game, witch_takes=40_000), seats, 1, 0, 300)
    everything = play_records(replace(game, witch_takes=sum(game.counts)), seats, 1, 0, 300)
    assert (greedy["turns"] == everything["turns"]).all() and (greedy["winner"] == 0).any()


# --- work that would be long: estimated first, bounded, announced -----------------------------------

@pytest.mark.parametrize("overrides", [["diamond=500", "witch=100"], ["diamond=500", "witch=470"]])  # 627, 997 cards
def test_the_solo_solver_refuses_a_big_deck_before_any_work_and_says_by_how_much(overrides, monkeypatch):
    cat = load("diamoniak", overrides=overrides, require_art=False)
    deck = diamoniak_solo.SoloDeck.from_catalogue(cat)
    ticks = []

    def solving(*args):
        raise AssertionError("the solver started")

    monkeypatch.setattr(diamoniak_solo, "_solo_odds", solving)  # refused before any work: never solving
    with pytest.raises(walker.TooManyStates) as err:
        diamoniak_solo.solo_odds(deck, progress=ticks.append)
    assert ticks == []
    assert err.value.limit == diamoniak_solo.REACH
    assert err.value.estimate == diamoniak_solo.first_pile_bound(deck) > diamoniak_solo.REACH
    assert f"in its first pile alone, by a bound from the deck's counts, made before solving, over the limit of " \
           f"{diamoniak_solo.REACH:,} states for a deck of more than 100 cards: up to about " in str(err.value)
    assert str(err.value).endswith(" of work for this deck")


@pytest.mark.parametrize("counts", [dict(), dict(witch=2), dict(fairy=0), dict(castle_size=3, witch=4),
                                    dict(takes=1), dict(diamond=3, fairy=5)])
def test_the_first_pile_bound_is_a_bound(counts):
    colours = (("red", 6), ("blue", 6), ("green", 4), ("yellow", 7))
    deck = diamoniak_solo.SoloDeck(colours, counts.get("diamond", 6), counts.get("witch", 3), counts.get("fairy", 2),
                                   counts.get("castle_size", 6), counts.get("takes", 3))
    first = solo_reference.epoch_pass(deck, {deck.start(): Fraction(1)})
    assert first.states <= diamoniak_solo.first_pile_bound(deck) <= 3 * first.states


def test_running_out_of_states_later_reports_the_limit_not_what_was_left(monkeypatch):
    deck = diamoniak_solo.SoloDeck.from_catalogue(load("diamoniak", overrides=["witch=12"], require_art=False))
    assert diamoniak_solo.first_pile_bound(deck) < 1_600_000  # so the solver starts, then runs out
    # an estimate from the sampled pile starts that falls short (here: told there is no other pile start)
    monkeypatch.setattr(diamoniak_solo, "pile_starts_bound", lambda deck: 0)
    with pytest.raises(walker.TooManyStates) as err:
        diamoniak_solo.solo_odds(deck, max_states=1_600_000)
    assert err.value.limit == 1_600_000 and err.value.estimate is None
    assert str(err.value) == "more than 1,600,000 states, the limit"


SMALL_DIAMONIAK = ["castle-blue=0", "castle-green=0", "castle-yellow=0", "diamond=3", "witch=2", "fairy=1"]


def test_the_win_model_simulates_past_max_states_as_multi_does(run):
    """The win model answers a chain out of reach by simulating, with multi's games and figures."""
    asked = ("--players", "2", *sets(SMALL_DIAMONIAK), "--games", "3000")
    exact = odds_json(run, "--model", "win", *asked)
    assert exact["exact"] is True and exact["win_probability"] == ["11/14", "3/14"]
    turns = odds_json(run, "--model", "multi", *asked)["expected_turns"]  # all seats' turns, as the walk counts
    assert exact["expected_length"] == turns and exact["unit"] == "turns"
    win = odds_json(run, "--model", "win", *asked, "--max-states", "5")
    multi = odds_json(run, "--model", "multi", *asked, "--max-states", "5")
    assert win["exact"] is False and win["states_explored_over"] == 5
    assert win["simulated"]["win_rate"] == multi["simulated"]["win_rate"]
    assert win["simulated"]["mean_turns"] == multi["simulated"]["mean_turns"]
    result = run("odds", "--model", "win", *asked, "--max-states", "5")
    assert result.exit_code == 0, result.stderr
    assert "exact odds are out of reach (the chain has more than 5 states, the limit)" in result.stderr
    assert "exact solving is out of reach" in result.stdout and "95% interval" in result.stdout
    chain = run("odds", "--model", "win", *asked, "--max-states", "5", "--export-chain", "x.drn")
    assert chain.exit_code == 2 and "more than 5 states" in chain.stderr
    length = run("odds", "--model", "length", *asked)
    assert length.exit_code == 2 and "--games: not read: only the win model simulates" in length.stderr


def test_a_simulation_instead_of_the_exact_walk_is_announced_and_bounded(run, monkeypatch, tmp_path):
    monkeypatch.setattr(odds_report, "MAX_WORK", 2_000)
    result = run("odds", "--model", "multi", "--set", "witch=40", "--max-states", "50", "--games", "5000")
    assert result.exit_code == 0, result.stderr
    note = result.stderr.splitlines()
    assert len(note) == 1 and note[0].startswith("toolkit: note: exact odds are out of reach (the chain has more "
                                                 "than 50 states, the limit); simulating up to 5,000 games")
    assert "of the 5,000 games asked for, as a simulation stops once its games have played 2,000 turns" \
        in result.stdout


# --- options: used by the model or refused before any work -----------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--model", "solo", "--players", "3"], "--players: the solo model does not use it (only the multi model reads it)"),
    (["--model", "solo", "--pile", "witch=1"], "--pile: the solo model does not use it"),
    (["--model", "solo", "--policy", "bogus"], "--policy: the solo model does not use it"),
    (["--model", "solo", "--max-states", "10"], "--max-states: the solo model does not use it"),
    (["--model", "draws", "--games", "50"], "--games: the draws model does not use it"),
    (["--game", "palaces", "--seed", "3"], "--seed: the opening model does not use it"),
    (["--model", "multi", "--plot", "x.png"], "--plot: the multi model has no distribution to draw"),
    (["--plot", ""], "--plot: the path is empty"),
    (["--max-states", "1000001"], "--max-states 1,000,001: the built-in models solve chains of at most 1,000,000"),
    (["--max-states", "5000001"], "Invalid value for '--max-states'"),
    (["--seed", "-5"], "Invalid value for '--seed'"),
    (["--seed", str(2**63)], "Invalid value for '--seed'"),
    (["--model", "multi", "--games", "100000001"], "Invalid value for '--games'"),
    (["--model", "draws", "--pile", "witch=²"], "--pile witch=²: the count of 'witch' must be a whole number"),
    (["--model", "draws", "--pile", "witch=٣"], "--pile witch=٣: the count of 'witch' must be a whole number"),
    (["--model", "draws", "--pile", "witch=1,witch=2"], "'witch' is given twice"),
    (["--model", "draws", "--pile", "witch=501"], "the count of 'witch' is at most 500"),
    (["--model", "draws", "--pile", "witch=9" + "9" * 5000], "the count of 'witch' is at most 500"),
    (["--model", "draws", "--pile", "witch=500,diamond=500,fairy=1"], "the pile has 1001 cards"),
    (["--model", "multi", "--policy", "odds-101"], "'odds-101' needs a number from 1 to 100"),
    (["--model", "multi", "--policy", "until-witch,,never-buy"], "a rule name is empty"),
    (["--game", "palaces", "--model", "multi", "--policy", "until-witch"], "is a Diamoniak rule, not a Palaces one"),
])
def test_odds_option_errors_are_one_line_before_any_work(run, monkeypatch, tmp_path, args, message):
    from toolkit.games.diamoniak import odds as diamoniak_odds
    from toolkit.games.palaces import odds as palaces_odds

    for module, model in ((diamoniak_odds, "solo"), (odds_report, "multi"), (palaces_odds, "first_palace"),
                          (palaces_odds, "opening"), (odds_report, "draws")):  # a refusal comes before any of them
        if "--policy" not in args and "--pile" not in args:
            monkeypatch.setattr(module, model, lambda *a, **k: pytest.fail("worked before refusing"))
    line = one_line(run("odds", *args))
    assert message in line, line
    assert not (tmp_path / "x.png").exists()


def test_the_seed_range_is_whole(run):
    assert run("odds", "--model", "multi", "--seed", str(2**63 - 1), "--max-states", "10", "--games", "20",
               "--json").exit_code == 0
    with pytest.raises(UserError, match="--seed -5"):
        answer(load("diamoniak", require_art=False), "solo", seed=-5)
