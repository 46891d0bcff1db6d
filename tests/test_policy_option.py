"""One ``--policy`` syntax for simulate, analyse, sweep and odds (``toolkit.seats``): ``[SEAT=]NAME``,
repeatable, on a rules file (Pig) and on a built-in game (Diamoniak, whose one player may hold commas)."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest

from conftest import ROOT, small_diamoniak_text
from toolkit.errors import UserError
from toolkit.odds import engine_chain
from toolkit.rules.load import load_rules
from toolkit.seats import Policies, parse_policy, rules_players

PIG = str(ROOT / "examples" / "pig" / "pig.py")
COMBINED = "stop-after-3,never-buy"  # one Diamoniak player: its draw and buy rules combined
COMBINED_NAME = "stop-after-3,fairy-first,never-buy"  # ... by its full name


def ok(run, *args) -> str:
    done = run(*args)
    assert done.exit_code == 0, done.stderr
    return done.stdout


def error_line(run, *args) -> str:
    done = run(*args)
    assert done.exit_code == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    return done.stderr.strip()


# --- the syntax ------------------------------------------------------------------------------------------

def test_a_seat_a_bare_name_and_all_and_commas_inside_a_name():
    policies = parse_policy([f"2={COMBINED}", "hold-at-20"])
    assert policies.seats == [2] and policies.pick(2).names == (COMBINED,) and policies.pick(2).option == f"--policy 2={COMBINED}"
    assert policies.pick(1).names == ("hold-at-20",) and policies.pick(3).names == ("hold-at-20",)
    assert parse_policy(["all=random"]).pick(1).names == ("random",)
    assert not parse_policy([]) and parse_policy([]).pick(1) is None
    axis = parse_policy(["1=a|b", "c|d"], several=True)
    assert axis.picks[1].names == ("a", "b") and axis.picks[None].names == ("c", "d")


@pytest.mark.parametrize("values, says", [
    (["x=random"], "--policy x=random: expected [SEAT=]NAME"),
    (["²=random"], "expected [SEAT=]NAME"),
    (["1="], "--policy 1=: a policy name is empty"),
    (["1=a", "1=b"], "--policy 1=b: seat 1 has a policy already (--policy 1=a)"),
    (["a", "all=b"], "--policy all=b: every seat not named has a policy already (--policy a)"),
    (["1=a|b"], "one player a seat (only sweep tries several"),
    (["1234=a"], "seat 1234 does not exist"),
])
def test_a_wrong_shape_is_one_line(values, says):
    with pytest.raises(UserError) as err:
        parse_policy(values)
    assert says in str(err.value)


def test_seats_name_their_players_and_the_default_plays_elsewhere():
    pig = load_rules(PIG, {"goal": 20})
    names = lambda policies: [p.name for p in rules_players(pig, policies)]  # noqa: E731
    assert names(None) == ["hold-at-20", "hold-at-20"]  # the game's first own player
    assert names(parse_policy(["2=random"])) == ["hold-at-20", "random"]
    assert names(parse_policy(["random", "1=hold-at-25"])) == ["hold-at-25", "random"]
    assert names(parse_policy(["default"])) == ["hold-at-20", "hold-at-20"]
    with pytest.raises(UserError, match="--policy 3=random: seat 3 does not exist with 2 player"):
        rules_players(pig, parse_policy(["3=random"]))
    with pytest.raises(UserError, match="--policy hold-at-20,random: name each seat: --policy 1=hold-at-20 "
                                        "--policy 2=random$"):
        rules_players(pig, parse_policy(["hold-at-20,random"]))
    with pytest.raises(UserError, match="Pig has no player 'hold-at-20,nobody'"):  # not a list of players
        rules_players(pig, parse_policy(["hold-at-20,nobody"]))


# --- a rules file: Pig, through the four commands ----------------------------------------------------------

@pytest.mark.parametrize("policy", ["1=hold-at-20", "hold-at-20"])
def test_pig_takes_one_syntax_in_every_command(run, tmp_path, policy):
    pig = ("--rules", PIG, "--param", "goal=20")
    simulated = json.loads(ok(run, "simulate", *pig, "--policy", policy, "--policy", "2=random", "--games", "60",
                              "--json"))
    assert simulated["policies"] == ["hold-at-20", "random"]
    analysed = json.loads(ok(run, "analyse", *pig, "--policy", policy, "--precision", "0.2", "--json"))
    assert analysed["policies"] == ["hold-at-20", "hold-at-20"]
    odds = json.loads(ok(run, "odds", *pig, "--policy", policy, "--policy", "2=random", "--json"))
    game = load_rules(PIG, {"goal": 20})
    chain = engine_chain.chain_odds(game, [game.policy("hold-at-20"), game.policy("random")], 100_000, distribution=False)
    assert odds["policies"] == ["hold-at-20", "random"]
    assert [Fraction(p) for p in odds["win_probability"]] == list(chain.win)  # the chain of those two players
    optimal = json.loads(ok(run, "odds", *pig, "--model", "optimal", "--policy", policy, "--policy", "2=random",
                            "--json"))
    replies = optimal["answers"]  # each seat's best reply to the other's named player
    assert [answer["seats"] for answer in replies] == [[1], [2]]
    assert Fraction(replies[0]["value"]) > Fraction(odds["win_probability"][0])  # beats hold-at-20 against random
    out = tmp_path / "sweep"
    axis = policy.replace("hold-at-20", "hold-at-20|random")
    ok(run, "sweep", *pig, "--policy", axis, "--games", "40", "--in-process", "--out", str(out))
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open(encoding="utf-8")))
    column = "policy_1" if policy.startswith("1=") else "policy_all"
    assert [row[column] for row in rows] == ["hold-at-20", "random"]


def test_the_old_list_of_one_player_per_seat_is_refused_naming_the_seats(run):
    says = "toolkit: error: --policy hold-at-20,random: name each seat: --policy 1=hold-at-20 --policy 2=random"
    for command in (["odds"], ["odds", "--model", "optimal"], ["simulate", "--games", "5"]):
        assert error_line(run, *command, "--rules", PIG, "--param", "goal=20", "--policy", "hold-at-20,random") == says


def test_a_seat_past_the_table_is_refused_by_every_command(run, tmp_path):
    pig = ("--rules", PIG, "--param", "goal=20", "--policy", "3=random")
    for command in (("simulate", "--games", "5"), ("analyse",), ("odds",), ("odds", "--model", "optimal")):
        assert "seat 3 does not exist" in error_line(run, *command, *pig), command
    assert "seat 3 does not exist" in error_line(run, "sweep", *pig, "--in-process", "--out", str(tmp_path / "s"))


# --- a built-in game: Diamoniak's combined player is one seat's ------------------------------------------

def test_diamoniaks_combined_player_is_one_seats_in_every_command(run, tmp_path):
    seat = ("--policy", f"2={COMBINED}")
    simulated = json.loads(ok(run, "simulate", "--players", "2", "--games", "40", *seat, "--json"))
    assert simulated["policies"] == ["until-witch,fairy-first,buy-most", COMBINED_NAME]
    analysed = json.loads(ok(run, "analyse", "--players", "2", "--precision", "0.2", *seat, "--json"))
    assert analysed["player_counts"][0]["policies"] == ["until-witch,fairy-first,buy-most", COMBINED_NAME]
    ok(run, "sweep", "--players", "2", "--policy", f"2={COMBINED}|default", "--games", "30", "--in-process",
       "--out", str(tmp_path / "sweep"))
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open(encoding="utf-8")))
    assert [row["policy_2"] for row in rows] == [COMBINED_NAME, "until-witch,fairy-first,buy-most"]

    small = tmp_path / "small.toml"
    small.write_text(small_diamoniak_text())
    multi = json.loads(ok(run, "odds", "--catalogue", str(small), "--model", "multi", *seat, "--json"))
    assert multi["exact"] and multi["policy"] is None and multi["policies"] == [
        "until-witch,fairy-first,buy-most", COMBINED_NAME]
    every = json.loads(ok(run, "odds", "--catalogue", str(small), "--model", "multi", "--policy", COMBINED, "--json"))
    assert every["policy"] == COMBINED_NAME and every["policies"] == [COMBINED_NAME] * 2  # a bare name: every seat
    both = json.loads(ok(run, "odds", "--catalogue", str(small), "--model", "multi", "--policy", "1=default", *seat,
                         "--json"))
    assert both["win_probability"] == multi["win_probability"]
    text = ok(run, "odds", "--catalogue", str(small), "--model", "optimal", "--players", "2", *seat)
    assert f"(against seat 2 {COMBINED_NAME})" in text and "(against seat 1 until-witch,fairy-first,buy-most)" in text


def test_a_policies_object_names_seats_as_the_options_do():
    assert Policies.of({2: COMBINED}, "random").picks == parse_policy([f"2={COMBINED}", "random"]).picks
