"""The seam, held by a test: no module of the toolkit outside a game's own folder names a game.

A game is reached only through the ``Game`` the registry returns; a module that names a game (a string
constant outside a docstring, a name, an attribute or an import matching a registered game's id, in any
case) would fail to reach a third game the same way. Read from the code as ``shared/hooks/seam_check.py``
reads it.
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import ROOT
from toolkit.errors import UserError
from toolkit.games import registry


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def names_of_games(source: str, games: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, text) of every place in ``source`` that names one of ``games``."""
    pattern = re.compile("|".join(re.escape(game) for game in games), re.I)
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            texts = [node.value]
        elif isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            texts = [alias.name for alias in node.names]
            texts += [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
        else:
            continue
        found += [(node.lineno, text) for text in texts if pattern.search(text)]
    return found


def checked_modules(games: tuple[str, ...]) -> list[Path]:
    """Every module of toolkit/ outside a game's folder (toolkit/games/<id>/)."""
    out = []
    for path in sorted((ROOT / "toolkit").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if any(relative.startswith(f"toolkit/games/{game}/") for game in games):
            continue
        out.append(path)
    return out


def test_no_module_outside_a_games_folder_names_a_game():
    games = registry.ids()
    assert games, "no game is registered"
    modules = checked_modules(games)
    found = {path.relative_to(ROOT).as_posix() for path in modules}  # the walk found every layer
    assert {"toolkit/odds/report.py", "toolkit/cli/options.py", "toolkit/rulebook/layout.py", "toolkit/print/sheets.py",
            "toolkit/cards/render.py", "toolkit/odds/engine_chain.py"} <= found
    named = {path.relative_to(ROOT).as_posix(): hits for path in modules
             if (hits := names_of_games(path.read_text(encoding="utf-8"), games))}
    assert not named, "modules outside a game's folder name a game (reach it through its Game instead): " + "; ".join(
        f"{module}: " + ", ".join(f"line {line} {text!r}" for line, text in hits) for module, hits in named.items())


def test_the_check_finds_a_game_named_in_every_way_it_looks_for_and_not_in_a_docstring():
    games = ("mygame",)
    source = '''"""About MyGame: a docstring may name it."""
import toolkit.games.mygame
from toolkit.games.mygame import engine
from toolkit.games import mygame as chosen
x = "MYGAME"
y = mygame_rules
z = game.mygame
def f():
    """Nor does a function's docstring count: mygame."""
    return "other"
'''
    assert [line for line, _ in names_of_games(source, games)] == [2, 3, 4, 5, 6, 7]


# --- a game that gives none of the optional hooks gets the generic answers -------------------------

def _bare_game(monkeypatch):
    """A third game registered beside the others: Diamoniak's engine and players, none of its own odds
    models, danger kind, strategy or counter words. Returns a catalogue of it."""
    import dataclasses

    from toolkit.catalogue import load
    from toolkit.games.game import Game

    diamoniak = registry.get("diamoniak")

    class Bare(type(diamoniak)):
        id = "bare"
        default = False
        odds_models = ("draws", "multi")
        odds = Game.odds
        danger_kind = Game.danger_kind
        strategy = Game.strategy
        counter_labels = Game.counter_labels
        counter_names = Game.counter_names
        no_winner_reason = Game.no_winner_reason
        sweep_exact = Game.sweep_exact

        @property
        def package(self):
            return diamoniak.package

    games = {**registry.games(), "bare": Bare()}
    monkeypatch.setattr(registry, "games", lambda: games)
    return dataclasses.replace(load("diamoniak", require_art=False), game="bare")


def test_a_game_without_a_danger_kind_gets_the_next_card_odds_alone(monkeypatch):
    from toolkit.odds.report import answer

    catalogue = _bare_game(monkeypatch)
    report = answer(catalogue, None)
    assert report.data["model"] == "draws" and report.data["danger"] is None and report.data["survival"] == []
    assert sum(Fraction(*map(int, p.split("/"))) for p in report.data["next_kind"].values()) == 1
    assert report.chart is None and "no card to draw without" in report.no_chart
    assert not any("next k draws" in line for line in report.lines)
    with pytest.raises(UserError, match="--model solo: bare answers draws, multi"):
        answer(catalogue, "solo")


def test_a_game_without_a_strategy_has_nothing_to_search_and_no_tournament(monkeypatch):
    from toolkit.analysis import strategy
    from toolkit.analysis.report_texts import describe_policy

    catalogue = _bare_game(monkeypatch)
    assert strategy.work_estimate("bare", [2, 3], 0.05) == 0
    assert strategy.search(catalogue, [2, 3], (), 1, 0.05, 1_000) == []
    assert strategy.tournament(catalogue, (), 1, 0.05) is None
    assert describe_policy("stop-after-3,risk-2", "en", "bare") == "stop-after-3, risk-2"  # no words: the names
