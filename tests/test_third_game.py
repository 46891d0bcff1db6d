"""A game from outside the toolkit joins every command through its entry point alone.

``tests/thirdgame/`` holds a game package (``ladder``) and the metadata ``pip install`` would leave
beside it, with an entry point in the group ``toolkit.games``. A copy of it, its card pictures drawn
in, goes on ``PYTHONPATH`` of a fresh ``python -m toolkit``: the toolkit, unchanged, finds the game.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

HERE = Path(__file__).parent / "thirdgame"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(HERE, root, dirs_exist_ok=True)
    for name, colour in (("back", "#334455"), ("step", "#2e9e44"), ("slip", "#d7263d")):
        Image.new("RGB", (815, 1110), colour).save(root / "ladder" / f"{name}.png")
    return root


def toolkit(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(site), os.environ.get("PYTHONPATH")))))
    return subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def test_the_help_texts_offer_the_third_game(site, tmp_path):
    for command in ("catalogue", "print-cards", "export-cards", "simulate", "odds", "rulebook", "analyse", "sweep"):
        done = toolkit(site, tmp_path, command, "--help")
        assert done.returncode == 0, done.stderr
        assert "ladder" in done.stdout, command
    assert "ladder" in toolkit(site, tmp_path, "art", "--help").stdout


def test_the_catalogue_of_the_third_game(site, tmp_path):
    done = toolkit(site, tmp_path, "catalogue", "--game", "ladder", "--json")
    assert done.returncode == 0, done.stderr
    deck = json.loads(done.stdout)
    assert deck["game"] == "ladder" and deck["total"] == 40
    assert [(card["id"], card["count"]) for card in deck["cards"]] == [("step", 30), ("slip", 10)]
    done = toolkit(site, tmp_path, "catalogue", "--game", "ladder", "--set", "slip=4")
    assert done.returncode == 0 and "Ladder (ladder)" in done.stdout


def test_print_cards_of_the_third_game(site, tmp_path):
    out = tmp_path / "ladder.pdf"
    done = toolkit(site, tmp_path, "print-cards", "--game", "ladder", "--out", str(out))
    assert done.returncode == 0, done.stderr
    pages = PdfReader(out).pages
    assert len(pages) >= 2  # the faces of 40 cards, and their backs
    text = "".join(page.extract_text() for page in pages)
    assert "Climb one rung." in text and "Go down one rung." in text
    # the game has no player aid: none by default, and asking for one is one line
    done = toolkit(site, tmp_path, "print-cards", "--game", "ladder", "--aids", "--out", str(tmp_path / "aid.pdf"))
    assert done.returncode == 2 and "no en player aid for ladder" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "aid.pdf").exists()


def test_simulate_the_third_game(site, tmp_path):
    done = toolkit(site, tmp_path, "simulate", "--game", "ladder", "--players", "3", "--games", "300", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == "ladder" and summary["games"] == 300
    again = toolkit(site, tmp_path, "simulate", "--game", "ladder", "--players", "3", "--games", "300", "--json")
    assert again.stdout == done.stdout  # seeded: the same games again


def test_a_wrong_policy_of_a_built_in_game_is_one_line_beside_the_third_game(site, tmp_path):
    """The policy check asks every game's players whether the name is theirs; Ladder's name no rule."""
    done = toolkit(site, tmp_path, "simulate", "--games", "10", "--policy", "1=builder")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "'builder' is a Palaces rule, not a Diamoniak one" in done.stderr


def test_a_game_unknown_to_the_toolkit_is_one_line(site, tmp_path):
    done = toolkit(site, tmp_path, "catalogue", "--game", "chess")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "ladder" in done.stderr and "diamoniak" in done.stderr
