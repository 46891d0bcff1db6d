"""Shared helpers: write catalogues to a temporary folder, run the CLI, read a PDF page's drawing back."""

from __future__ import annotations

import copy
import fcntl
import hashlib
import os
import pickle
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import ContentStream

# Python's own bytecode cache for the suite, where the environment turns it off (PYTHONDONTWRITEBYTECODE,
# set in some sandboxes): the suite starts a few hundred Python processes (pytest-xdist's workers, the
# command line in subprocesses), and each would otherwise compile again every toolkit module it imports
# (and each worker rewrite every test module's asserts). Set before the toolkit is imported; the
# environment's change reaches the workers and subprocesses started after it.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)



def pytest_configure(config):
    config.addinivalue_line("markers", "real_progress: keep the time-based progress line (conftest's quiet_progress)")


def pytest_sessionstart(session):
    """Compile the numba kernels (``tests/warm.py``) before any test. pytest-xdist's controlling
    process compiles them, its groups side by side in processes of their own when there are workers
    (one core each), so that the workers load them from numba's cache; a worker, or a session in one
    process, loads or compiles them in its own process."""
    import subprocess

    import warm

    config = session.config
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        warm.warm_all()
        return
    processes = [subprocess.Popen([sys.executable, warm.__file__, str(group)], stderr=subprocess.PIPE, text=True)
                 for group in range(len(warm.GROUPS))]
    for process in processes:
        err = process.communicate()[1]
        if process.returncode:
            raise RuntimeError(f"{' '.join(process.args)} failed: {err[-3000:]}")


# The longest tests (CPU seconds of a whole run on this machine, `--durations` and the CPU per test),
# run first: pytest-xdist's workers (--dist worksteal in pyproject.toml) then share what is left and end
# together, instead of one waiting through another's last long test. A name that no longer exists
# only stops counting here.
LONGEST = (
    "test_cli_fuzz.py::test_random_options_end_in_success_or_one_line",
    "test_rules_exact.py::test_diamoniak_best_reply_on_a_small_deck_beats_the_default_player",
    # reads the solve the test above made (``small_diamoniak_optimal``): next to it, so that the same
    # worker runs both one after the other, instead of one worker waiting on the other's lock
    "test_policy_words.py::test_diamoniak_policy_table_names_cards_and_seats",
    "test_policy_words.py::test_palaces_names_its_fields_and_every_action_of_its_games",
    "test_startup.py::test_a_rulebook_asks_the_solver_each_question_once",
    "test_watch.py::test_rulebook_watch_rebuilds_on_a_changed_name_and_survives_a_bad_line",
    "test_table_picture.py::test_a_bilingual_book_draws_the_picture_once_labelled_in_both",
    "test_palaces.py::test_random_play_keeps_every_card_and_the_hand_limit",
    "test_fast_palaces.py::test_every_play_and_give_rule_plays_the_engines_games",
    "test_compiled_walk.py::test_the_compiled_walk_is_the_engine_walk_array_for_array",
    "test_cli_fuzz.py::test_environment_links_and_outputs_meeting_inputs_lose_nothing",
    "test_cli_fuzz.py::test_long_work_shows_progress_and_stops_on_ctrl_c",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(f"{item.path.name}::{getattr(item, 'originalname', item.name)}", len(rank)))


from toolkit.catalogue.loader import builtin_path
from toolkit.cli import main
from toolkit.typeset.units import PT_PER_MM

ROOT = Path(__file__).resolve().parent.parent

# A 1x1 PNG: the loader checks that art files exist, not what they hold.
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def builtin_doc(game: str) -> dict:
    return tomllib.loads(builtin_path(game).read_text(encoding="utf-8"))


def write_catalogue(folder: Path, doc: dict, name: str = "mine.toml", with_art: bool = True) -> Path:
    """Write ``doc`` as TOML into ``folder`` with placeholder art files next to it."""
    path = folder / name
    path.write_bytes(tomli_w.dumps(doc).encode("utf-8"))
    if with_art:
        game = doc.get("game") if isinstance(doc.get("game"), dict) else {}
        cards = doc.get("cards") if isinstance(doc.get("cards"), list) else []
        arts = [game.get("back_art")] + [c.get("art") for c in cards if isinstance(c, dict)]
        for art in arts:
            if isinstance(art, str) and art.strip() and not Path(art).is_absolute():
                target = folder / art
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(TINY_PNG)
    return path


@pytest.fixture
def doc():
    """A fresh, valid Diamoniak catalogue document to mutate."""
    return copy.deepcopy(builtin_doc("diamoniak"))


@pytest.fixture
def run():
    """Run the CLI in-process; returns click's Result (exit_code, stdout, stderr)."""
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture(autouse=True)
def quiet_progress(request, monkeypatch):
    """No time-based progress line off a terminal ("toolkit: note: solving: 40% done after 4 s") in any
    test run in this process: a test that counts stderr's lines must not catch one when the machine is
    slow. A test of that line itself (a fake clock) is marked ``real_progress``."""
    if request.node.get_closest_marker("real_progress") is None:
        from toolkit.cli import options

        monkeypatch.setattr(options.Progress, "QUIET_DELAY", float("inf"))


def matrix_product(m, n):
    """The PDF matrix m applied first, then n (PDF's row-vector convention): for reading pages back."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def transform(m, x, y):
    """The point (x, y) through the PDF matrix m."""
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def drawing(reader: PdfReader, index: int):
    """Stroked segments, filled polygons (lists of points) and forms drawn ((name, matrix)), in mm
    of page ``index``, with the transformation matrix applied."""
    ops = ContentStream(reader.pages[index].get_contents(), reader).operations
    ctm, stack = (1, 0, 0, 1, 0, 0), []
    segments, polygons, forms, path, here = [], [], [], [], None
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = matrix_product(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            forms.append((str(operands[0]).removeprefix("/FormXob."), ctm))
        elif op == b"m":
            here = transform(ctm, float(operands[0]), float(operands[1]))
            path.append([here])
        elif op == b"l":
            here = transform(ctm, float(operands[0]), float(operands[1]))
            path[-1].append(here)
        elif op in (b"S", b"s"):
            segments += [tuple(v / PT_PER_MM for v in (*p, *q)) for sub in path for p, q in zip(sub, sub[1:])]
            path = []
        elif op in (b"f", b"f*", b"F"):
            polygons += [[(x / PT_PER_MM, y / PT_PER_MM) for x, y in sub] for sub in path]
            path = []
        elif op in (b"n", b"B", b"b"):
            path = []
    return segments, polygons, forms


def short_texts(folder: Path, game: str, words: int = 2, text: str | None = None) -> Path:
    """A copy of a built-in game's catalogue whose card texts keep their first ``words`` words: its
    cards fit the small cards (mini, a service's bridge) that the full texts do not at 7.5 pt. The
    art is the game's own (found in its art folder). ``text``: every card's text in every language."""
    doc = builtin_doc(game)
    folder.mkdir(parents=True, exist_ok=True)
    for card in doc["cards"]:
        card["text"] = {lang: text or " ".join(words_of.split()[:words]) for lang, words_of in card["text"].items()}
    return write_catalogue(folder, doc, f"{game}-short.toml", with_art=False)


def small_diamoniak_text() -> str:
    """The shipped Diamoniak catalogue cut to 8 cards (2 red and 2 blue castle cards, 2 diamonds, a witch, a
    fairy) and a castle of 2: small enough for the exact best reply."""
    import re

    text = (ROOT / "toolkit" / "games" / "diamoniak" / "diamoniak.toml").read_text()
    text = re.sub(r"^castle_size = \d+", "castle_size = 2", text, flags=re.M)
    for card, count in (("castle-red", 2), ("castle-blue", 2), ("castle-green", 0), ("castle-yellow", 0),
                        ("diamond", 2), ("witch", 1), ("fairy", 1)):
        text = re.sub(r'(id = "%s"\n(?:[^\[]*?\n)?count = )\d+' % re.escape(card), lambda m: m.group(1) + str(count),
                      text, count=1)
    return text


@pytest.fixture(scope="session")
def small_diamoniak_optimal(shared) -> dict:
    """The command line's exact best reply against the default player on the small Diamoniak deck
    (``small_diamoniak_text``), two seats, run once per session: each run costs some 4-5 s of CPU (the walk,
    the exact solve and the tables of when to stop). {"catalogue": the deck's file, "json": stdout of ``--json``,
    "text": stdout of the text report with ``--export-policy``, "policy": the exported file's text}."""

    def make() -> dict:
        folder = shared.folder / "small-diamoniak"
        folder.mkdir(exist_ok=True)
        catalogue = folder / "small.toml"
        catalogue.write_text(small_diamoniak_text())
        args = ["odds", "--catalogue", str(catalogue), "--model", "optimal", "--players", "2", "--policy", "default"]
        runner = CliRunner()
        data = runner.invoke(main, [*args, "--json"], catch_exceptions=False)
        assert data.exit_code == 0, data.stderr
        policy = folder / "policy.json"
        text = runner.invoke(main, [*args, "--export-policy", str(policy)], catch_exceptions=False)
        assert text.exit_code == 0, text.stderr
        return {"catalogue": str(catalogue), "json": data.stdout, "text": text.stdout,
                "policy": policy.read_text(encoding="utf-8")}

    return shared.get(("small-diamoniak-optimal",), make)


class Shared:
    """Artefacts made once per test session, shared by the tests of every file and by pytest-xdist's
    workers: each is kept in this process and pickled into the session's folder, which all workers
    see (the first worker to ask makes it while the others wait on its lock, then read it). The same
    inputs give the same bytes (the toolkit promises it, tests/test_rulebook.py holds it), so a book
    built once stands for every build of it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.kept: dict[tuple, object] = {}

    def get(self, key: tuple, make):
        """``make()``'s value for ``key`` (a tuple of plain values naming what it makes)."""
        if key not in self.kept:
            path = self.folder / hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:32]
            with open(path.with_suffix(".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if path.exists():
                    value = pickle.loads(path.read_bytes())
                else:
                    value = make()
                    scratch = path.with_suffix(f".{os.getpid()}")
                    scratch.write_bytes(pickle.dumps(value))
                    scratch.replace(path)
            self.kept[key] = value
        return self.kept[key]

    def folder_of(self, key: tuple, build) -> Path:
        """A folder that ``build(folder)`` fills, made once per session for ``key``: the tests only
        read it (copy it to change it)."""

        def make() -> Path:
            folder = self.folder / f"made-{hashlib.sha256(repr(key).encode('utf-8')).hexdigest()[:32]}"
            shutil.rmtree(folder, ignore_errors=True)  # what a build that failed left
            folder.mkdir()
            build(folder)
            return folder

        return self.get(key, make)


@pytest.fixture(scope="session")
def shared(tmp_path_factory, worker_id) -> Shared:
    """The session's shared artefacts (pytest-xdist's workers share their base folder's parent)."""
    base = tmp_path_factory.getbasetemp()
    return Shared((base if worker_id == "master" else base.parent) / "shared")


def book_key(catalogue, lang: str, paper: str, booklet: bool, designer: bool) -> tuple:
    """The shared key of a catalogue's book: the catalogue as loaded (its repr holds every field, the
    counts after any --set) and the book's options. The ``rulebook`` fixture and the command line's
    runs under ``shared_books`` both use it, so a book one of them built serves the other."""
    return ("rulebook", hashlib.sha256(repr(catalogue).encode("utf-8")).hexdigest(), lang, paper, booklet, designer)


@pytest.fixture(scope="session")
def rulebook(shared):
    """``rulebook(game, lang, *overrides, paper=, booklet=, designer=)``: the built-in game's book
    (``build_rulebook``'s RulebookResult), built once per session."""
    from toolkit.catalogue import load

    catalogues = {}

    def build(game: str, lang: str, *overrides: str, paper: str = "a4", booklet: bool = False,
              designer: bool = False):
        if (game, overrides) not in catalogues:
            catalogues[game, overrides] = load(game, None, list(overrides))
        catalogue = catalogues[game, overrides]

        def make():
            from toolkit.rulebook import build_rulebook

            return build_rulebook(catalogue, lang=lang, paper=paper, booklet=booklet, designer=designer)

        return shared.get(book_key(catalogue, lang, paper, booklet, designer), make)

    return build


@pytest.fixture(scope="module")
def shared_books(shared):
    """While a module runs, the command line's books come through the session's shared books
    (``book_key``): a book that any test has built is taken as built (the same inputs give the same
    bytes: tests/test_rulebook.py's ``test_same_inputs_give_the_same_bytes`` holds it with builds of
    its own), else built here once. The command itself runs whole: its options, its checks, its
    file and its lines; a book that cannot be made raises as before, and nothing is kept of it. A
    book from the user's own texts (--text) is always built."""
    import toolkit.rulebook

    real = toolkit.rulebook.build_rulebook

    def build(catalogue, lang=None, paper="a4", booklet=False, progress=None, texts=(), designer=False):
        if texts:
            return real(catalogue, lang=lang, paper=paper, booklet=booklet, progress=progress, texts=texts,
                        designer=designer)
        return shared.get(book_key(catalogue, lang, paper, booklet, designer),
                          lambda: real(catalogue, lang=lang, paper=paper, booklet=booklet, designer=designer))

    patch = pytest.MonkeyPatch()
    patch.setattr(toolkit.rulebook, "build_rulebook", build)
    yield
    patch.undo()
