"""The start-up promise, held from outside: each command imports what its work needs and nothing more
(read from ``python -X importtime`` in a fresh interpreter, so nothing this test process imported
hides an import), and a rulebook solves its deck once. No timings: those are measured by
``benchmarks/bench_startup.py``."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from toolkit.cli import main
from toolkit.odds import report
from toolkit.games.diamoniak import solo as diamoniak_solo
from toolkit.placeholders import figures

# The libraries that cost tens of milliseconds or more to import.
HEAVY = {"numpy", "numba", "dask", "matplotlib", "reportlab", "PIL", "pypdf", "fontTools", "gmpy2",
         "flint"}
# What only reading a catalogue needs: --help and --version read none.
CATALOGUE = {"toolkit.catalogue.loader", "tomllib", "babel"}
COMMANDS = ("analyse", "art", "catalogue", "export-cards", "odds", "preflight", "print-cards", "rulebook", "simulate",
            "studio", "sweep")


def imported(tmp_path, *args: str) -> set[str]:
    """Every module a fresh ``python -m toolkit ARGS`` imported, by its full name."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "toolkit", *args], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_the_checks_and_the_start_up_benchmark_cover_every_command():
    import runpy

    from conftest import ROOT

    assert sorted(main.commands) == sorted(COMMANDS)
    benchmarked = runpy.run_path(str(ROOT / "benchmarks" / "bench_startup.py"))["COMMANDS"]
    assert {args[0] for args in benchmarked} >= set(COMMANDS) | {"--help", "--version"}


def test_help_and_version_read_no_catalogue_and_load_no_heavy_library(tmp_path):
    for args in (["--help"], ["--version"], *([command, "--help"] for command in COMMANDS)):
        modules = imported(tmp_path, *args)
        assert "toolkit.cli" in modules, args  # the check reads the right run
        assert not modules & (HEAVY | CATALOGUE), (args, sorted(modules & (HEAVY | CATALOGUE)))
        # the version is looked up (importlib.metadata) only when asked for, and the games (entry points)
        # only by a command's help, which names them
        named = args[0] in COMMANDS and any(param.name == "game" for param in main.commands[args[0]].params)
        assert ("importlib.metadata" in modules) == (args == ["--version"] or named), args


@pytest.mark.parametrize("args, needs", [
    (["catalogue"], {"PIL"}),  # the table reads the catalogue, whose art it checks
    (["odds", "--model", "draws", "--pile", "witch=1,diamond=1"], set()),  # closed formulas in fractions
    (["odds", "--game", "palaces"], set()),
    # the solo solver's passes and exact arithmetic (the default deck's pile chain has no cycle)
    (["odds"], {"numpy", "gmpy2", "flint"}),
    (["simulate", "--games", "1"], {"numpy", "numba"}),
])
def test_a_command_loads_only_the_libraries_its_work_needs(tmp_path, args, needs):
    modules = imported(tmp_path, *args)
    assert "toolkit.cli" in modules
    assert modules & HEAVY <= needs, (args, sorted(modules & HEAVY - needs))


def test_fractions_print_alike_below_and_above_the_length_str_takes():
    """A closed-formula answer prints its fractions with str() and int(), without gmpy2; past the
    length Python may refuse to convert (at the least 640 digits, sys.set_int_max_str_digits), gmpy2
    does it. Both ways give the same digits, and read back to the same fraction."""
    from fractions import Fraction

    from gmpy2 import mpz

    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        for n in (0, 7, -12, 2**1999 - 1, 2**1999, 2**2000, 2**2001 + 1, -(10**639), 10**640, 3**5000):
            assert report.int_text(n) == mpz(n).digits(), n
            q = 3**900 if n % 3 else 7
            assert report.parse_frac(f"{report.int_text(n)}/{report.int_text(q)}") == Fraction(n, q), n
        assert report.parse_frac(report.int_text(10**700)) == 10**700
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.parametrize("game", ["diamoniak", "palaces"])
def test_a_rulebook_asks_the_solver_each_question_once(monkeypatch, tmp_path, run, game):
    """Both languages in one book, then a second book of the same deck in the same process: the solo
    chain is solved once, and every model is answered once, the first time only."""
    monkeypatch.setattr(figures, "_CACHE", {})  # whatever books earlier tests built
    asked, solved = Counter(), []
    answer, solo_odds = report.answer, diamoniak_solo.solo_odds

    def counted_answer(catalogue, model, **options):
        asked[model] += 1
        return answer(catalogue, model, **options)

    def counted_solo_odds(deck, **options):
        solved.append(deck)
        return solo_odds(deck, **options)

    monkeypatch.setattr(report, "answer", counted_answer)
    monkeypatch.setattr(diamoniak_solo, "solo_odds", counted_solo_odds)
    for lang in ("ru+en", "en"):
        # the designer's sheet asks every question the players' book used to (issue 22), the book a few
        done = run("rulebook", "--game", game, "--lang", lang, "--designer", "--out", str(tmp_path / f"{lang}.pdf"))
        assert done.exit_code == 0, done.output
        done = run("rulebook", "--game", game, "--lang", lang, "--out", str(tmp_path / f"{lang}-book.pdf"))
        assert done.exit_code == 0, done.output
    expected = {"diamoniak": ("draws", "solo"), "palaces": ("draws", "opening", "first-palace")}[game]
    assert asked == Counter(expected)
    assert len(solved) == (game == "diamoniak")
