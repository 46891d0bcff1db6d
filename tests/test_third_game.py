"""A game from outside the toolkit joins every command through its entry point alone.

``tests/thirdgame/`` holds a game package (``ladder``) and the metadata ``pip install`` would leave
beside it, with an entry point in the group ``toolkit.games``. A copy of it, its card pictures drawn
in, goes on ``PYTHONPATH`` of a fresh Python: the toolkit, unchanged, finds the game. Each test starts
one such process, which runs the test's commands one after another (``DRIVER``: click's runner, as
the console script would run them); the last test runs ``python -m toolkit`` itself.
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


# Runs each command of the JSON list in argv[1] in this one process, as the console script would (the
# one-line errors and exit codes are the command group's own), and prints their results as JSON.
DRIVER = """
import json, sys
from click.testing import CliRunner
from toolkit.cli import main
done = [CliRunner().invoke(main, args, catch_exceptions=False) for args in json.loads(sys.argv[1])]
print(json.dumps([[d.exit_code, d.stdout, d.stderr] for d in done]))
"""


def _env(site: Path) -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(site), os.environ.get("PYTHONPATH")))))


def toolkit(site: Path, cwd: Path, *commands: tuple[str, ...]) -> list[subprocess.CompletedProcess]:
    """The results of ``commands`` (each a command's arguments), all run by one fresh Python."""
    ran = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], capture_output=True, text=True,
                         cwd=cwd, env=_env(site), timeout=300)
    assert ran.returncode == 0, ran.stderr
    return [subprocess.CompletedProcess(args, code, out, err) for args, (code, out, err)
            in zip(commands, json.loads(ran.stdout))]


def test_the_help_texts_offer_the_third_game(site, tmp_path):
    commands = ("catalogue", "print-cards", "export-cards", "simulate", "odds", "rulebook", "analyse", "sweep", "art")
    for command, done in zip(commands, toolkit(site, tmp_path, *((command, "--help") for command in commands))):
        assert done.returncode == 0, done.stderr
        assert "ladder" in done.stdout, command


def test_the_catalogue_of_the_third_game(site, tmp_path):
    done, again = toolkit(site, tmp_path, ("catalogue", "--game", "ladder", "--json"),
                          ("catalogue", "--game", "ladder", "--set", "slip=4"))
    assert done.returncode == 0, done.stderr
    deck = json.loads(done.stdout)
    assert deck["game"] == "ladder" and deck["total"] == 40
    assert [(card["id"], card["count"]) for card in deck["cards"]] == [("step", 30), ("slip", 10)]
    assert again.returncode == 0 and "Ladder (ladder)" in again.stdout


def test_print_cards_of_the_third_game(site, tmp_path):
    out = tmp_path / "ladder.pdf"
    done, aid = toolkit(site, tmp_path, ("print-cards", "--game", "ladder", "--out", str(out)),
                        ("print-cards", "--game", "ladder", "--aids", "--out", str(tmp_path / "aid.pdf")))
    assert done.returncode == 0, done.stderr
    pages = PdfReader(out).pages
    assert len(pages) >= 2  # the faces of 40 cards, and their backs
    text = "".join(page.extract_text() for page in pages)
    assert "Climb one rung." in text and "Go down one rung." in text
    # the game has no player aid: none by default, and asking for one is one line
    assert aid.returncode == 2 and "no en player aid for ladder" in aid.stderr
    assert len(aid.stderr.strip().splitlines()) == 1 and not (tmp_path / "aid.pdf").exists()


def test_simulate_the_third_game(site, tmp_path):
    """Seeded: the same games again in another process (its own hash seed), and a wrong policy of a
    built-in game is one line beside the third game (the policy check asks every game's players whether
    the name is theirs; Ladder's name no rule)."""
    simulate = ("simulate", "--game", "ladder", "--players", "3", "--games", "300", "--json")
    done, wrong = toolkit(site, tmp_path, simulate, ("simulate", "--games", "10", "--policy", "1=builder"))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == "ladder" and summary["games"] == 300
    (again,) = toolkit(site, tmp_path, simulate)
    assert again.stdout == done.stdout
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert "'builder' is a Palaces rule, not a Diamoniak one" in wrong.stderr


def test_the_console_command_finds_the_third_game(site, tmp_path):
    """``python -m toolkit`` itself, through its entry script: a game it does not know is one line that
    lists the games the entry points gave it, Ladder among them."""
    done = subprocess.run([sys.executable, "-m", "toolkit", "catalogue", "--game", "chess"], capture_output=True,
                          text=True, cwd=tmp_path, env=_env(site), timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "ladder" in done.stderr and "diamoniak" in done.stderr
