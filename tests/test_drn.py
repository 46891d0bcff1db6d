"""`toolkit odds --export-chain`: the chain behind an exact answer, in Storm's explicit DRN format.

Without Storm: each exported file is read back by the small reader below, rebuilt as a ``Chain`` and
solved again; its expected reward and absorption probabilities must be exactly the fractions that
`toolkit odds --json` prints. (benchmarks/bench_odds.py hands the same files to Storm itself.)
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from conftest import builtin_doc, write_catalogue
from toolkit.odds.chain import Chain
from toolkit.odds.drn import write_drn



def ratio(text: str) -> tuple[int, int]:
    """``p/q`` or ``p`` as (p, q), checked to be in lowest terms (a Fraction per line would be slow)."""
    p, _, q = text.partition("/")
    p, q = int(p), int(q or 1)
    assert q > 0 and p >= 0 and math.gcd(p, q) == 1, text
    return p, q


def read_drn(text: str) -> dict:
    """The states of a DRN file: transitions (``(p, q, target)``: probability p/q), rewards, labels,
    the initial state; checks its shape."""
    head, body = text.split("@model\n", 1)
    header = [line for line in head.splitlines() if not line.startswith("//")]
    assert header[:5] == ["@type: DTMC", "@parameters", "", "@reward_models", "turns"], header
    size = int(header[header.index("@nr_states") + 1])
    assert int(header[header.index("@nr_choices") + 1]) == size
    transitions: dict[int, list[tuple[int, int, int]]] = {}
    rewards: dict[int, Fraction] = {}
    labels: dict[int, set[str]] = {}
    state = None
    for line in body.splitlines():
        if line.startswith("state "):
            number, reward, *names = line[len("state "):].split(" ")
            state = int(number)
            assert state == len(transitions), "states are numbered in order without gaps"
            assert reward.startswith("[") and reward.endswith("]")
            rewards[state], labels[state], transitions[state] = Fraction(reward[1:-1]), set(names), []
        elif line == "\taction 0":
            assert transitions[state] == []
        else:
            assert line.startswith("\t\t"), line
            target, probability = line[2:].split(" : ")
            transitions[state].append((*ratio(probability), int(target)))
    assert len(transitions) == size
    for state, pairs in transitions.items():
        targets = [target for _, _, target in pairs]
        assert targets == sorted(set(targets)) and all(0 <= t < size for t in targets)
        denominator = math.lcm(*(q for _, q, _ in pairs))
        assert all(p > 0 for p, _, _ in pairs), state
        assert sum(p * (denominator // q) for p, q, _ in pairs) == denominator, state  # they sum to 1
    initial = [state for state, names in labels.items() if "init" in names]
    assert len(initial) == 1
    return {"transitions": transitions, "rewards": rewards, "labels": labels, "initial": initial[0]}


def chain_of(drn: dict, stop: tuple[str, ...] = ("never",)) -> Chain:
    """The file's chain for ``Chain``: absorbing states (a self-loop of 1) and states labelled ``stop`` left out.

    Each state's probabilities become whole weights over a common denominator (``Chain`` divides by their total).
    """
    labels, transitions = drn["labels"], {}
    for state, pairs in drn["transitions"].items():
        if pairs == [(1, 1, state)] or labels[state] & set(stop):
            continue
        denominator = math.lcm(*(q for _, q, _ in pairs))
        transitions[state] = [(p * (denominator // q), target) for p, q, target in pairs]
    return Chain(transitions)


def absorbed(drn: dict, label: str, stop: tuple[str, ...] = ("never",)) -> Fraction:
    """P(the chain reaches a state labelled ``label``), from the initial state."""
    key = ("ends", stop)
    if key not in drn:  # one chain and one solve serve every label
        drn[key] = chain_of(drn, stop).absorption_probabilities(drn["initial"])
    return sum((p for state, p in drn[key].items() if label in drn["labels"][state]), Fraction(0))


def export(run, tmp_path, *args: str) -> tuple[dict, dict, bytes]:
    """Run `toolkit odds ARGS --json --export-chain`: the printed answer, the file read back, its bytes."""
    path = tmp_path / "chain.drn"
    result = run("odds", *args, "--json", "--export-chain", str(path))
    assert result.exit_code == 0, result.stderr
    data = path.read_bytes()
    return json.loads(result.stdout), read_drn(data.decode("ascii")), data


def small_diamoniak(tmp_path, size: int, counts: dict[str, int]) -> str:
    """A user catalogue with exactly these counts (every other card 0) and castle size."""
    doc = builtin_doc("diamoniak")
    doc["rules"]["castle_size"] = size
    for card in doc["cards"]:
        card["count"] = counts.get(card["id"], 0)
    return str(write_catalogue(tmp_path, doc))


def check_solo(answer: dict, drn: dict) -> None:
    assert Fraction(answer["p_reshuffle"]) == absorbed(drn, "reshuffle", stop=("never", "reshuffle")) \
        + absorbed(drn, "never", stop=("never", "reshuffle"))
    assert Fraction(answer["p_never"]) == absorbed(drn, "never")
    if answer["expected_turns"] is not None:
        turns = chain_of(drn).expected_reward(drn["initial"], drn["rewards"].__getitem__)
        assert turns == Fraction(answer["expected_turns"])
        assert absorbed(drn, "won") == 1


@pytest.mark.parametrize("overrides", [
    ["witch=2", "diamond=4", "fairy=1", "castle-green=0", "castle-yellow=0"],  # cyclic: lost cards come back
    ["witch=1", "diamond=0", "fairy=0", "castle-red=7", "castle-blue=5", "castle-green=0", "castle-yellow=0"],
    ["witch=3", "diamond=2", "fairy=2", "castle-red=6", "castle-blue=0", "castle-green=0", "castle-yellow=0"],
])
def test_a_small_solo_chain_read_back_gives_the_printed_fractions(run, tmp_path, overrides):
    sets = [arg for item in overrides for arg in ("--set", item)]
    answer, drn, data = export(run, tmp_path, *sets)
    assert answer["exact"] is True
    check_solo(answer, drn)
    again = tmp_path / "again.drn"
    assert run("odds", *sets, "--export-chain", str(again)).exit_code == 0
    assert again.read_bytes() == data  # the same inputs, the same bytes


def test_a_multi_chain_read_back_gives_the_printed_wins_and_turns(run, tmp_path):
    catalogue = small_diamoniak(tmp_path, 3, {"castle-red": 3, "castle-blue": 3, "diamond": 3, "witch": 1,
                                              "fairy": 1})
    answer, drn, _ = export(run, tmp_path, "--catalogue", catalogue, "--model", "multi")
    assert answer["exact"] is True and Fraction(answer["p_never"]) == 0
    for seat, p in enumerate(answer["win_probability"], start=1):
        assert absorbed(drn, f"win{seat}") == Fraction(p)
    turns = chain_of(drn).expected_reward(drn["initial"], drn["rewards"].__getitem__)
    assert turns == Fraction(answer["expected_turns"])


def test_a_multi_chain_that_may_stall_says_so_in_its_labels(run, tmp_path):
    catalogue = small_diamoniak(tmp_path, 3, {"castle-red": 3, "castle-blue": 2, "castle-green": 2, "diamond": 2,
                                              "witch": 1})
    answer, drn, _ = export(run, tmp_path, "--catalogue", catalogue, "--model", "multi", "--players", "2")
    assert answer["expected_turns"] is None and Fraction(answer["p_never"]) > 0
    assert absorbed(drn, "never") == Fraction(answer["p_never"])
    assert absorbed(drn, "stalled") == Fraction(answer["p_stalled"])
    for seat, p in enumerate(answer["win_probability"], start=1):
        assert absorbed(drn, f"win{seat}") == Fraction(p)


def test_a_first_palace_chain_read_back_gives_the_printed_turns(run, tmp_path):
    zero = [f"{kind}-{colour}=0" for kind in ("foundation", "floor", "roof")
            for colour in ("blue", "green", "yellow")]
    sets = [arg for item in zero + ["tower=1", "ruins=0", "exchange=0", "general-exchange=0", "flood=1"]
            for arg in ("--set", item)]
    answer, drn, _ = export(run, tmp_path, "--game", "palaces", "--model", "first-palace", *sets)
    assert answer["exact"] is True and answer["expected_turns"] is not None
    turns = chain_of(drn).expected_reward(drn["initial"], drn["rewards"].__getitem__)
    assert turns == Fraction(answer["expected_turns"])
    assert absorbed(drn, "end") == 1 and absorbed(drn, "done") > 0


@pytest.mark.parametrize("args, message", [
    (["--model", "draws"], "--export-chain: the draws model is answered by a formula, not a chain; solo and multi "
                           "have a chain to export"),
    (["--game", "palaces"], "--export-chain: the opening model is answered by a formula, not a chain; first-palace "
                            "and multi have a chain to export"),
    (["--model", "multi", "--max-states", "50"], "--export-chain: exact solving is out of reach (the chain has more "
                                                 "than 50 states"),
    (["--game", "palaces", "--model", "multi", "--policy", "random"], "--export-chain: exact solving is out of reach "
                                                                      "(the policy decides at random"),
])
def test_an_answer_without_a_chain_refuses_the_export_in_one_line(run, tmp_path, args, message):
    path = tmp_path / "chain.drn"
    result = run("odds", *args, "--export-chain", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"toolkit: error: {message}"), result.stderr
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_a_start_that_is_entered_again_gets_a_state_of_its_own_for_the_first_turn():
    """The first turn is collected once, in a state that leads to the start: Storm finds it by its label."""
    transitions = {"a": [(1, "b"), (2, "end")], "b": [(3, "a"), (1, "end")]}
    reward = {"a": Fraction(1, 3), "b": Fraction(1, 4)}
    data, states = write_drn("a", lambda s: (transitions.get(s, ()), reward.get(s, 0)),
                             lambda s: ("end",) if s == "end" else (), initial_reward=1)
    drn = read_drn(data.decode("ascii"))
    assert states == 4 and drn["initial"] == 3 and drn["transitions"][3] == [(1, 1, 0)]
    expected = 1 + Chain(transitions).expected_reward("a", reward.__getitem__)
    assert chain_of(drn).expected_reward(drn["initial"], drn["rewards"].__getitem__) == expected


def test_a_chain_too_large_to_write_is_refused_in_one_line_and_leaves_no_file(run, tmp_path, monkeypatch):
    from toolkit.odds import report

    monkeypatch.setattr(report, "EXPORT_MAX_STATES", 100)
    path = tmp_path / "chain.drn"
    result = run("odds", "--set", "witch=2", "--set", "diamond=4", "--export-chain", str(path))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("toolkit: error: --export-chain: the chain has more than 100 states, the most a file "
                             "is written for\n")
    assert list(tmp_path.iterdir()) == []
