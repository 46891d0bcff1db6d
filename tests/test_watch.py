"""``--watch`` from outside: the command runs in a process of its own on a catalogue copied to a
temporary folder, the test edits its inputs as a designer would and reads the one line each build
says on stderr (waiting for it with a timeout, never a fixed sleep), then ends it with Ctrl-C."""

from __future__ import annotations

import queue
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from toolkit.games.registry import get

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify, as CI runs it")

LINE_WAIT = 120  # seconds: a build under a loaded machine (the rulebook's first solves the odds)


class Watch:
    """A ``toolkit ... --watch`` process and the lines it says on stderr."""

    def __init__(self, folder: Path, *args: str):
        self.process = subprocess.Popen([sys.executable, "-m", "toolkit", *args, "--watch"], cwd=folder,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue = queue.Queue()
        self.said: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def line(self) -> str:
        try:
            line = self.lines.get(timeout=LINE_WAIT)
        except queue.Empty:
            self.process.kill()
            raise AssertionError(f"no line in {LINE_WAIT} s; said so far: {self.said}") from None
        assert line is not None, f"the watch ended early (status {self.process.wait()}): {self.said}"
        self.said.append(line)
        return line

    def end(self) -> tuple[int, str]:
        """Ctrl-C: the status and what was said on stdout and after the last line read."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=60)
        out = self.process.stdout.read()
        rest = []
        while (line := self.lines.get(timeout=10)) is not None:
            rest.append(line)
        return self.process.returncode, out, rest

    def __del__(self):
        if self.process.poll() is None:
            self.process.kill()


def _catalogue(folder: Path, game: str = "diamoniak") -> Path:
    path = folder / "cards.toml"
    shutil.copy(get(game).resource(f"{game}.toml"), path)
    return path


def _set_count(path: Path, old: str, new: str) -> None:
    """Change the first ``count = old`` of the file, writing it as an editor does (new file, renamed)."""
    text = path.read_text(encoding="utf-8")
    assert f"count = {old}\n" in text
    scratch = path.with_suffix(".swp")
    scratch.write_text(text.replace(f"count = {old}\n", f"count = {new}\n", 1), encoding="utf-8")
    scratch.replace(path)


def _pages(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(pdf).pages)


def test_print_cards_watch_rebuilds_reports_a_mistake_keeps_the_last_good_sheet_and_ends_on_ctrl_c(tmp_path):
    catalogue = _catalogue(tmp_path)
    out = tmp_path / "sheet.pdf"  # next to the inputs: writing it must not start another build
    watch = Watch(tmp_path, "print-cards", "--catalogue", "cards.toml", "--out", "sheet.pdf", "--no-aids")
    assert watch.line() == f"toolkit: watch: wrote {out.name} in " + watch.said[-1].rsplit(" in ", 1)[1]
    before = _pages(out)

    _set_count(catalogue, "6", "60")  # 54 more castles: more sheets
    line = watch.line()
    assert line.startswith("toolkit: watch: cards.toml changed: wrote sheet.pdf in ") and line.endswith(" s")
    grown = _pages(out)
    assert grown > before
    good = out.read_bytes()

    _set_count(catalogue, "60", "sixty")
    line = watch.line()
    assert line.startswith("toolkit: watch: cards.toml changed: error: cards.toml: "), line
    assert "line" in line and "nothing written" in line
    assert out.read_bytes() == good  # the last good sheet stays

    _set_count(catalogue, "sixty", "6")
    assert watch.line().startswith("toolkit: watch: cards.toml changed: wrote sheet.pdf in ")
    assert _pages(out) == before

    status, stdout, rest = watch.end()
    assert status == 0 and stdout == "" and rest == ["toolkit: watch ended"], (status, rest)
    # one line per build and no more: the sheet written next to the catalogue started none
    assert len(watch.said) == 4


def test_export_cards_watch_sees_art_added_to_an_earlier_art_folder_and_ignores_other_files(tmp_path):
    catalogue = _catalogue(tmp_path)
    watch = Watch(tmp_path, "export-cards", "--catalogue", "cards.toml", "--target", "png", "--out", "pngs")
    assert watch.line().startswith("toolkit: watch: wrote pngs/ in ")
    red = (tmp_path / "pngs" / "castle-red.png").read_bytes()

    (tmp_path / "notes.txt").write_text("not an input\n")  # no build: the next line is the art's
    # the catalogue's own folder is the first art folder: a picture there replaces the built-in one
    art = tmp_path / "diamoniak"
    art.mkdir()
    shutil.copy(get("diamoniak").art_folder / "diamoniak" / "diamond.png", art / "castle-red.png")
    seen = [watch.line()]
    while "castle-red.png" not in seen[-1]:  # the new folder may be a build of its own
        assert seen[-1].startswith("toolkit: watch: diamoniak changed: wrote pngs/"), seen
        seen.append(watch.line())
    assert seen[-1].startswith("toolkit: watch: diamoniak/castle-red.png changed: wrote pngs/ in "), seen
    assert (tmp_path / "pngs" / "castle-red.png").read_bytes() != red

    (art / "castle-red.png").write_bytes(b"not a picture")
    line = watch.line()
    assert line.startswith("toolkit: watch: diamoniak/castle-red.png changed: error: cards.toml: "), line
    assert "not a picture" not in (tmp_path / "pngs" / "castle-red.png").read_bytes().decode("latin-1")

    catalogue.touch()
    assert watch.line().startswith("toolkit: watch: cards.toml changed: error: ")  # still broken, still watching
    status, stdout, rest = watch.end()
    assert status == 0 and rest == ["toolkit: watch ended"] and stdout == ""
    assert all("Traceback" not in line for line in watch.said)


def test_rulebook_watch_rebuilds_on_a_changed_name_and_survives_a_bad_line(tmp_path):
    catalogue = _catalogue(tmp_path)
    out = tmp_path / "rules.pdf"
    watch = Watch(tmp_path, "rulebook", "--catalogue", "cards.toml", "--out", "rules.pdf")
    assert watch.line().startswith("toolkit: watch: wrote rules.pdf in ")

    from pypdf import PdfReader

    text = catalogue.read_text(encoding="utf-8")
    catalogue.write_text(text.replace('en = "Witch"', 'en = "Hag"', 1), encoding="utf-8")
    assert watch.line().startswith("toolkit: watch: cards.toml changed: wrote rules.pdf in ")
    words = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Hag" in words
    good = out.read_bytes()

    catalogue.write_text(text.replace("[[cards]]", "[[cards]\n", 1), encoding="utf-8")
    assert watch.line().startswith("toolkit: watch: cards.toml changed: error: cards.toml: ")
    assert out.read_bytes() == good
    status, _, rest = watch.end()
    assert status == 0 and rest == ["toolkit: watch ended"]


def test_the_inputs_watched_are_the_inputs_read(tmp_path):
    """The rulebook reads both languages' texts (it checks them against each other), the sheets the
    aid's text of their language when they print aids; the watch and the output check share the list."""
    from toolkit.catalogue import load
    from toolkit.cli.options import catalogue_inputs

    catalogue = load("diamoniak")
    rules = catalogue_inputs(catalogue, ("rules",), ("ru", "en"))
    game = get("diamoniak")
    assert rules["the rules text (ru)"] == game.text_file("rules", "ru")
    assert rules["the rules text (en)"] == game.text_file("rules", "en")
    assert rules["the catalogue"] == catalogue.source
    assert all(rules[f"the art of {card.id}"] == card.art_path for card in catalogue.cards)


def test_watch_is_refused_with_the_calibration_sheet(run):
    result = run("print-cards", "--calibration", "--watch")
    assert result.exit_code == 2 and "--watch: not read" in result.stderr
