"""Shared helpers: write catalogues to a temporary folder, run the CLI, read a PDF page's drawing back."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import ContentStream

from toolkit.cards.render import PT_PER_MM


def pytest_sessionstart(session):
    """Compile the kernels (the simulator's, the solo passes', the chain solver's, the compiled walk's) once, before any
    test: on a fresh machine that takes most of a minute, which a test reading stderr or a deadline
    must not see (later sessions load them from numba's cache)."""
    from toolkit.catalogue import load
    from toolkit.games.registry import make_game
    from toolkit.sim.records import kernel_for
    from toolkit.sim.simulate import seat_policies

    for game_id, players in (("diamoniak", 2), ("palaces", 2)):
        kernel_for(make_game(load(game_id, require_art=False), players), seat_policies(game_id, players, {}))
    from toolkit.games.diamoniak import solo as diamoniak_solo
    from toolkit.games.diamoniak import solo_passes

    deck = diamoniak_solo.SoloDeck(castles=(("red", 3),), diamonds=1, witches=1, fairies=1, size=2, takes=1)
    solo_passes.whole_passes(deck, [{deck.start(): 1}], compiled=True)
    from toolkit.odds import exact_linear  # the chain solver's lifting kernels: about 14 s

    exact_linear.lift_integer([{0: 2, 1: -1}, {0: -1, 1: 2}], [1, 1])
    from toolkit.games.diamoniak import pile_system

    pile_system.lift_blocks([{0: 3, 1: -1}, {0: -1, 1: 3}], [1, 1], [0, 2])
    from toolkit.games.diamoniak.engine import DiamoniakGame  # the compiled walk of the chain: about 14 s
    from toolkit.odds import engine_chain

    small = DiamoniakGame.from_catalogue(load("diamoniak", overrides=["castle-green=0", "castle-yellow=0", "witch=1",
                                                                      "diamond=1", "fairy=0"], require_art=False), 2)
    engine_chain.build(small.new_initial_state(), seat_policies("diamoniak", 2, {}), 100_000, compiled=True)
    from dataclasses import replace  # and Palaces' compiled walk: about 30 s

    from toolkit.games.palaces.engine import PalacesGame

    tiny = PalacesGame.from_catalogue(load("palaces", require_art=False), 2)
    few = {"foundation-red": 1, "floor-red": 1, "roof-red": 1, "ruins": 1, "exchange": 1, "general-exchange": 1,
           "flood": 1}
    tiny = replace(tiny, counts=tuple(few.get(name, 0) for name in tiny.names), hand_size=2, goal=3)
    engine_chain.build(tiny.new_initial_state(), seat_policies("palaces", 2, {}), 100_000, compiled=True)
from toolkit.catalogue.loader import builtin_path
from toolkit.cli import main

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
