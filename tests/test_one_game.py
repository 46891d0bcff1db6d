"""A game is one object however it is named: ``--game palaces --players 3`` and ``--rules palaces`` (with
``--players 3`` or ``--param players=3``) give the same games, figures and words, byte for byte, in
``simulate``, ``analyse`` and ``odds``; so do Diamoniak's two players (in rounds, with its own
default players and the named ones)."""

from __future__ import annotations

import json

import pytest

COMMANDS = {
    "simulate": ("simulate", "--games", "2000", "--seed", "11"),
    "analyse": ("analyse", "--no-strategy", "--precision", "0.05", "--max-games", "1000", "--seed", "11"),
    "odds": ("odds", "--model", "multi", "--max-states", "500", "--games", "150", "--seed", "11"),
}
NAMINGS = {
    "palaces": [("--game", "palaces", "--players", "3"), ("--rules", "palaces", "--players", "3"),
                ("--rules", "palaces", "--param", "players=3")],
    "diamoniak": [("--game", "diamoniak", "--players", "2", "--policy", "2=stop-after-2"),
                  ("--rules", "diamoniak", "--param", "players=2", "--policy", "2=stop-after-2")],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("game", sorted(NAMINGS))
def test_every_naming_of_a_game_gives_the_same_bytes(run, game, command):
    outputs = []
    for naming in NAMINGS[game]:
        for form in ((), ("--json",)):
            result = run(*COMMANDS[command], *naming, *form)
            assert result.exit_code == 0, result.stderr
            outputs.append((form, result.stdout))
    texts = {stdout for form, stdout in outputs if not form}
    jsons = {stdout for form, stdout in outputs if form}
    assert len(texts) == 1 and len(jsons) == 1, f"{command} differs between namings of {game}"
    if command == "simulate":
        data = json.loads(jsons.pop())
        assert data["length_unit"] == "rounds" and data["mean_rounds"] > 0


def test_a_builtin_game_named_by_rules_takes_only_its_own_parameters(run):
    result = run("simulate", "--rules", "palaces", "--param", "goal=20", "--games", "10")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("toolkit: error: --param goal: the built-in game palaces has no such parameter "
                                     "(it takes players, variants)")
    result = run("simulate", "--rules", "palaces", "--param", "players=3", "--players", "2", "--games", "10")
    assert result.exit_code == 2 and "--param players=3: --players 2 says otherwise" in result.stderr
    result = run("simulate", "--rules", "palaces", "--game", "palaces", "--games", "10")
    assert result.exit_code == 2 and "--game: not read: --rules names the game" in result.stderr


def test_variants_by_param_are_the_variant_option(run):
    by_option = run("simulate", "--game", "palaces", "--variant", "short-two-player", "--games", "300", "--json")
    by_param = run("simulate", "--rules", "palaces", "--param", "variants=short-two-player", "--games", "300",
                   "--json")
    assert by_option.exit_code == 0 and by_option.stdout == by_param.stdout
    assert json.loads(by_param.stdout)["variants"] == ["short-two-player"]


def test_a_sweep_of_a_builtin_game_named_by_rules_is_its_sweep(run, tmp_path):
    """``sweep --rules palaces --param players=3`` is ``sweep --game palaces --players 3``: the same rows."""
    common = ("--set", "flood=2,4", "--games", "200", "--in-process")
    by_game = run("sweep", "--game", "palaces", "--players", "3", *common, "--out", str(tmp_path / "a"))
    by_rules = run("sweep", "--rules", "palaces", "--param", "players=3", *common, "--out", str(tmp_path / "b"))
    assert by_game.exit_code == 0 and by_rules.exit_code == 0, by_rules.stderr
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    result = run("sweep", "--rules", "palaces", "--grid", "goal=10,20", "--games", "10", "--in-process",
                 "--out", str(tmp_path / "c"))
    assert result.exit_code == 2 and "a built-in game's axes are --set, --players, --variants and --policy" in \
        result.stderr
