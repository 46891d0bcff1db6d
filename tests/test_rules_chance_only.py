"""A game in which no seat ever decides (Chutes and Ladders) names no players: ``simulate``, ``analyse`` (text,
JSON, the report's PDF, the skill figure) and ``odds`` (the chain and the optimal model) say it has no
decisions; a game with decisions (Pig) still names its players, the random beginner included."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

from pypdf import PdfReader

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PIG = str(EXAMPLES / "pig" / "pig.py")
CHUTES = str(EXAMPLES / "chutes" / "chutes.py")


def _ok(run, *args):
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_simulate_says_chance_alone_plays_a_game_without_decisions(run):
    text = _ok(run, "simulate", "--rules", CHUTES, "--param", "players=2", "--games", "300")
    assert "plays" not in text and "random" not in text
    assert "no seat had a decision to make in these games: chance alone played them" in text
    data = json.loads(_ok(run, "simulate", "--rules", CHUTES, "--games", "300", "--json"))
    assert data["decisions"] is False and "policies" not in data


def test_simulate_names_the_players_of_a_game_with_decisions(run):
    data = json.loads(_ok(run, "simulate", "--rules", PIG, "--param", "goal=20", "--policy", "2=random", "--games", "200",
                          "--json"))
    assert data["decisions"] is True and data["policies"] == ["hold-at-20", "random"]
    text = _ok(run, "simulate", "--rules", PIG, "--param", "goal=20", "--policy", "2=random", "--games", "200")
    assert "  seat 1 policy: hold-at-20\n  seat 2 policy: random" in text and "chance alone" not in text


def test_analyse_names_no_player_and_no_skill_of_a_game_without_decisions(run, tmp_path):
    report = tmp_path / "chutes.pdf"
    text = _ok(run, "analyse", "--rules", CHUTES, "--precision", "0.05", "--report", str(report))
    assert "plays" not in text and "random" not in text and "beginner" not in text
    assert "chance alone played them" in text
    assert "how much skill matters: not at all (no seat had a decision to make" in text
    page = " ".join(PdfReader(BytesIO(report.read_bytes())).pages[0].extract_text().split())
    assert "How each seat plays" not in page and "random" not in page
    assert "Chutes" in page  # the page itself is there, with its figures
    data = json.loads(_ok(run, "analyse", "--rules", CHUTES, "--precision", "0.05", "--json"))
    assert data["decisions"] is False and "policies" not in data and data["skill"] == {"no_decisions": True}
    pig = json.loads(_ok(run, "analyse", "--rules", PIG, "--param", "goal=8", "--precision", "0.05", "--json"))
    assert pig["decisions"] is True and pig["policies"] == ["hold-at-20", "hold-at-20"]
    assert "seats" in pig["skill"]


def test_odds_says_a_game_without_decisions_has_none(run, tmp_path):
    text = _ok(run, "odds", "--rules", CHUTES, "--model", "win")
    assert text.startswith("Chutes, no decisions: chance alone plays the game\n") and "random" not in text
    data = json.loads(_ok(run, "odds", "--rules", CHUTES, "--model", "length", "--json"))
    assert data["decisions"] is False and "policies" not in data
    chain = tmp_path / "chutes.drn"
    _ok(run, "odds", "--rules", CHUTES, "--model", "win", "--export-chain", str(chain))
    assert "random" not in chain.read_text() and "no decisions" in chain.read_text()
    optimal = _ok(run, "odds", "--rules", CHUTES, "--model", "optimal")
    assert "(no decisions: chance alone plays the game)" in optimal and "ends soonest" not in optimal
    assert json.loads(_ok(run, "odds", "--rules", CHUTES, "--model", "optimal", "--json"))["answers"][0][
        "decisions"] is False


def test_odds_names_the_players_of_a_game_with_decisions(run):
    # the random beginner decides as a chance point of the chain: its decisions are met there
    data = json.loads(_ok(run, "odds", "--rules", PIG, "--param", "goal=8", "--policy", "random", "--json"))
    assert data["decisions"] is True and data["policies"] == ["random", "random"]
    text = _ok(run, "odds", "--rules", PIG, "--param", "goal=8", "--model", "win")
    assert text.startswith("Pig, seat 1 hold-at-20, seat 2 hold-at-20\n")
    optimal = _ok(run, "odds", "--rules", PIG, "--param", "goal=8", "--model", "optimal")
    assert "with optimal play on both sides" in optimal and "both playing so" in optimal
