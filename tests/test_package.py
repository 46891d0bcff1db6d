"""The package users install is the package we test: the wheel built from this tree holds every module
and data file of ``toolkit/`` and nothing else, and the same inputs give the same bytes in separate
processes whatever Python's string hashing (``PYTHONHASHSEED``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "weathervane" / "weathervane.toml"
CACHES = {"__pycache__", ".pytest_cache"}


def source_files() -> set[str]:
    """Every file under toolkit/ as a wheel names it, the caches Python and numba write left out."""
    found = set()
    for path in (ROOT / "toolkit").rglob("*"):
        if path.is_file() and not CACHES.intersection(path.relative_to(ROOT).parts):
            found.add(path.relative_to(ROOT).as_posix())
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel pip builds from a copy of this tree (so that the build writes nothing into it)."""
    work = tmp_path_factory.mktemp("wheel")
    tree = work / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(ROOT / "toolkit", tree / "toolkit", ignore=shutil.ignore_patterns(*CACHES))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
                           str(work / "dist"), str(tree)], capture_output=True, text=True, timeout=300)
    if done.returncode and "No matching distribution found for setuptools" in done.stderr:
        pytest.skip("pip cannot fetch setuptools to build the wheel (no package index)")
    assert done.returncode == 0, done.stderr
    (built,) = (work / "dist").glob("toolkit-*.whl")
    return built


def test_the_wheel_holds_every_module_and_data_file_of_the_source_tree_and_nothing_else(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    packaged = {name for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert packaged == source_files()
    # the check above would pass on an empty tree: it holds what the commands need
    for needed in ("toolkit/rules/load.py", "toolkit/card_art/diamoniak/back.png", "toolkit/layout/default.toml",
                   "toolkit/games/palaces/texts/rules.ru.md"):
        assert needed in packaged


def test_the_wheel_registers_the_command_and_both_games(wheel):
    with zipfile.ZipFile(wheel) as archive:
        (entry_points,) = [name for name in archive.namelist() if name.endswith(".dist-info/entry_points.txt")]
        text = archive.read(entry_points).decode()
    assert "toolkit = toolkit.entry:run" in text
    assert "diamoniak = toolkit.games.diamoniak:GAME" in text and "palaces = toolkit.games.palaces:GAME" in text


def outputs_under(seed: str, folder: Path) -> dict[str, bytes]:
    """Run a few commands whose outputs pass through sets and dicts of strings, with one hash seed, in an
    empty folder (the Tabletop Simulator file names its pictures by their absolute paths)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": seed}
    commands = (
        ["print-cards", "--catalogue", str(EXAMPLE), "--out", "sheets.pdf"],
        ["export-cards", "--catalogue", str(EXAMPLE), "--target", "tts", "--out", "tts"],
        ["rulebook", "--catalogue", str(EXAMPLE), "--lang", "en", "--out", "book.pdf"],
        ["odds", "--catalogue", str(EXAMPLE), "--model", "hand", "--hand", "5", "--at-least", "2",
         "--where", "value=10", "--json"],
    )
    out = {}
    for i, args in enumerate(commands):
        done = subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=folder, capture_output=True,
                              env=env, timeout=300)
        assert done.returncode == 0, done.stderr.decode()
        out[f"stdout {i}"] = done.stdout
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[path.relative_to(folder).as_posix()] = path.read_bytes()
    return out


def test_the_same_inputs_give_the_same_bytes_across_processes_and_hash_seeds(tmp_path):
    first = outputs_under("0", tmp_path / "out")
    second = outputs_under("2718281", tmp_path / "out")
    assert first.keys() == second.keys() and len(first) > 5
    for name in first:
        assert first[name] == second[name], name
