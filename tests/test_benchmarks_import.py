"""Every benchmark still runs as far as its names go: each script imports (without running: each runs
under ``if __name__ == "__main__"``), and every name it takes from the toolkit, at the top or inside
a function (``from toolkit.x import name``, ``module.name`` of a toolkit module it imported), exists.
A benchmark that calls what the toolkit no longer has fails here, not when someone next runs it.
The rules files the benchmarks play (``benchmarks/games``) import too, and each loads as a game and
plays one game to its end."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import random
from types import ModuleType

import pytest

from conftest import ROOT

GAMES = sorted((ROOT / "benchmarks" / "games").glob("*.py"))
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py")) + GAMES


def toolkit_names(tree: ast.Module) -> list[tuple[str, ...]]:
    """(toolkit module, name) for every name the script imports from a toolkit module, and (toolkit
    module, name, attribute) for every attribute it reads of such a name (``solo.solo_odds``)."""
    taken, owners = [], {}  # owners: the script's name for it -> (toolkit module, name)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("toolkit"):
            for alias in node.names:
                taken.append((node.module, alias.name))
                owners[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("toolkit.") and alias.asname:
                    owners[alias.asname] = tuple(alias.name.rsplit(".", 1))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in owners:
            taken.append((*owners[node.value.id], node.attr))
    return taken


def found(owner, name: str):
    """``owner.name``: an attribute, or a submodule of a package not imported yet."""
    if hasattr(owner, name) or not isinstance(owner, ModuleType):
        return getattr(owner, name)
    try:
        return importlib.import_module(f"{owner.__name__}.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{owner.__name__}.{name}":
            raise
        raise AttributeError(f"{owner.__name__} has no {name}") from None


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda path: str(path.relative_to(ROOT / "benchmarks")))
def test_a_benchmark_imports_and_every_toolkit_name_it_uses_exists(path, monkeypatch):
    monkeypatch.syspath_prepend(str(path.parent))  # as when run: a benchmark may import its neighbours
    spec = importlib.util.spec_from_file_location(f"benchmark_{path.stem}", path)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    for module, *names in toolkit_names(ast.parse(path.read_text(encoding="utf-8"))):
        value = importlib.import_module(module)
        for name in names:
            value = found(value, name)


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.name)
def test_a_benchmark_game_loads_as_a_rules_file_and_plays_to_its_end(path):
    from toolkit.rules.load import load_rules

    game = load_rules(str(path))
    state, rng = game.new_initial_state(), random.Random(7)
    for _ in range(game.max_game_length()):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal()
    assert len(state.returns()) == game.num_players() == 2
