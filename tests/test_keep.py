"""Issue 33: nothing of the user's replaced, and no silent mistake. Each test holds one finding of a
hostile run: an output onto a file the deck reads or a file of another kind, a folder the toolkit
clears, a picture the user edited, a typo in a column's name, a formula without its value, a long
card name in the player aid, a temporary file left by a killed run, a layout saved with a BOM."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import openpyxl
from PIL import Image

from conftest import ROOT, builtin_doc, write_catalogue
from test_hostile import one_error_line


def weathervane(folder: Path) -> Path:
    """A copy of the example deck (a catalogue, its sheet, layout, icons, back and texts) in ``folder``."""
    shutil.copytree(ROOT / "examples" / "weathervane", folder, dirs_exist_ok=True)
    return folder / "weathervane.toml"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def notes(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("toolkit: note: ")]


# --- 1. an output onto a file the deck reads, or onto a file of another kind ---------------------------


def test_an_output_onto_any_file_the_deck_read_is_refused_before_any_work(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    weathervane(tmp_path)
    shutil.copy(tmp_path / "icons" / "sun.svg", tmp_path / "icons" / "storm.svg")
    with open(tmp_path / "layout.toml", "a", encoding="utf-8") as layout:  # an icon of the layout's own
        layout.write('\n[icons]\nstorm = "icons/storm.svg"\n')
    before = snapshot(tmp_path)
    for out, what in (("icons/storm.svg", "the icon storm"), ("icons/sun.svg", "the icon sun"),
                      ("layout.toml", "the layout"), ("cards.csv", "the sheet"), ("back.png", "the art of the back"),
                      ("texts/aid.en.md", "player aid")):
        one_error_line(run("print-cards", "--catalogue", "weathervane.toml", "--out", out), f"--out {out}: ", what)
    assert snapshot(tmp_path) == before


def test_sweep_never_writes_over_the_decks_sheet(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = builtin_doc("diamoniak")
    cards = doc.pop("cards")
    doc["sheet"] = "cards.csv"
    with open(tmp_path / "cards.csv", "w", encoding="utf-8", newline="") as sheet:
        out = csv.writer(sheet)
        out.writerow(["id", "kind", "colour", "count", "name_ru", "name_en", "text_ru", "text_en", "art"])
        for card in cards:
            out.writerow([card["id"], card["kind"], card.get("colour", ""), card["count"], card["name"]["ru"],
                          card["name"]["en"], card["text"]["ru"], card["text"]["en"], card["art"]])
    write_catalogue(tmp_path, doc, "deck.toml")
    before = snapshot(tmp_path)
    result = run("sweep", "--catalogue", "deck.toml", "--set", "witch=5..6", "--players", "2", "--games", "10",
                 "--in-process", "--out", "cards")
    one_error_line(result, "--out cards.csv: is the sheet this run reads")
    assert snapshot(tmp_path) == before


def test_an_output_of_another_kind_is_refused(run, tmp_path, monkeypatch):
    """A PDF is never written to a name of another kind (.py, .toml, .png...), and an existing file is
    replaced only by a file of its own kind: a PDF over a PDF."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "make_art.py").write_text("print('mine')\n")
    (tmp_path / "notes").write_text("my notes\n")
    small = ["--set", "witch=0", "--set", "diamond=0", "--set", "fairy=0", "--no-aids"]
    one_error_line(run("print-cards", *small, "--out", "make_art.py"), "--out make_art.py: ", "a .pdf")
    one_error_line(run("print-cards", *small, "--out", "new.toml"), "--out new.toml: ", "a .pdf")
    one_error_line(run("rulebook", "--out", "notes"), "--out notes: ", "not a PDF")
    one_error_line(run("odds", "--export-policy", "make_art.py", "--model", "optimal", "--set", "witch=1"),
                   "--export-policy make_art.py: ")
    assert (tmp_path / "make_art.py").read_text() == "print('mine')\n"
    assert (tmp_path / "notes").read_text() == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["make_art.py", "notes"]
    # a PDF named without .pdf is written, and written again
    for _ in range(2):
        assert run("print-cards", *small, "--out", "sheet").exit_code == 0
    assert (tmp_path / "sheet").read_bytes().startswith(b"%PDF-")


# --- 2. folders the toolkit clears delete only what it wrote -------------------------------------------


def test_a_finished_sweep_keeps_the_users_files_in_its_parts_folder(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["sweep", "--set", "witch=5..6", "--players", "2", "--games", "10", "--in-process", "--out", "sw"]
    parts = tmp_path / "sw.parts"
    parts.mkdir()
    (parts / ".my-notes").write_text("mine")
    assert run(*args).exit_code == 0
    assert (parts / ".my-notes").read_text() == "mine"
    assert sorted(p.name for p in parts.iterdir()) == [".my-notes"]  # the sweep's own files are gone
    shutil.rmtree(parts)
    assert run(*args).exit_code == 0 and not parts.exists()  # a folder of its own alone: removed whole


def test_an_export_never_replaces_a_file_the_user_changed_in_it(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    small = ["--set", "witch=0", "--set", "diamond=0", "--set", "fairy=0", "--no-aids"]
    assert run("export-cards", "--target", "png", *small, "--out", "cards").exit_code == 0
    back = tmp_path / "cards" / "back.png"
    Image.new("RGB", (20, 20), (1, 2, 3)).save(back)  # the user retouched the back in the export
    edited = back.read_bytes()
    one_error_line(run("export-cards", "--target", "png", *small, "--out", "cards"), "'back.png'", "changed")
    assert back.read_bytes() == edited


# --- 3. `toolkit art` replaces only the pixels it drew -------------------------------------------------


def test_art_refuses_a_picture_edited_in_a_program_that_kept_its_mark(run, tmp_path):
    out = tmp_path / "art"
    assert run("art", "--game", "diamoniak", "--out-dir", str(out)).exit_code == 0
    witch = out / "diamoniak" / "witch.png"
    with Image.open(witch) as drawn:
        from PIL.PngImagePlugin import PngInfo

        info = PngInfo()
        for key, value in drawn.text.items():  # an editor that keeps the picture's texts
            info.add_text(key, value)
        edited = drawn.convert("RGB")
    edited.putpixel((10, 10), (255, 0, 0))
    edited.save(witch, pnginfo=info)
    before = snapshot(out)
    result = run("art", "--game", "diamoniak", "--out-dir", str(out))
    one_error_line(result, f"{witch}: ", "changed since 'toolkit art' drew it")
    assert snapshot(out) == before
    assert run("art", "--game", "diamoniak", "--out-dir", str(tmp_path / "again")).exit_code == 0


# --- 4. a typo in a column's or key's name ----------------------------------------------------------------


def add_column(sheet, name: str, value: str) -> None:
    """The sheet with one more column, ``value`` in every row."""
    rows = list(csv.reader(sheet.open(encoding="utf-8")))
    rows[0].append(name)
    for row in rows[1:]:
        row.append(value)
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)


def test_a_column_one_letter_from_a_known_one_is_an_error(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    weathervane(tmp_path)
    add_column(tmp_path / "cards.csv", "Atr", "back.png")
    result = run("catalogue", "--catalogue", "weathervane.toml")
    one_error_line(result, 'cards.csv: column "Atr": ', "did you mean 'art'?")


def test_a_column_nothing_uses_is_a_note_and_a_used_one_is_quiet(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    weathervane(tmp_path)
    result = run("catalogue", "--catalogue", "weathervane.toml")
    assert result.exit_code == 0 and notes(result) == []  # value: the layout prints it
    add_column(tmp_path / "cards.csv", "designer_comment", "check")
    result = run("catalogue", "--catalogue", "weathervane.toml")
    assert result.exit_code == 0
    (line,) = notes(result)
    assert 'cards.csv: column "designer_comment"' in line and "no layout or text" in line


def test_a_catalogue_and_a_layout_key_one_letter_off_say_what_was_meant(run, tmp_path, monkeypatch, doc):
    monkeypatch.chdir(tmp_path)
    doc["cards"][0]["colur"] = doc["cards"][0].pop("colour")
    write_catalogue(tmp_path, doc)
    one_error_line(run("catalogue", "--catalogue", "mine.toml"), "cards[0].colur", "did you mean 'colour'?")
    weathervane(tmp_path)
    layout = tmp_path / "layout.toml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("valign", "valing", 1), encoding="utf-8")
    one_error_line(run("print-cards", "--catalogue", "weathervane.toml", "--out", "x.pdf"), "valing",
                   "did you mean 'valign'?")


# --- 5. a formula without its saved value ----------------------------------------------------------------


def test_a_formula_with_no_saved_value_is_named(run, tmp_path):
    (tmp_path / "card.png").write_bytes((ROOT / "examples" / "weathervane" / "back.png").read_bytes())
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active.append(["name", "copies", "art"])
    book.active.append(["Knight", "=1+2", "card.png"])  # openpyxl saves no value: as if never computed
    book.save(tmp_path / "court.xlsx")
    result = run("catalogue", "--catalogue", str(tmp_path / "court.xlsx"))
    one_error_line(result, "court.xlsx: sheet 'Cards', cell B2: ", "no saved value", "save it")


# --- 6. a long card name in the player aid ----------------------------------------------------------------


def test_a_very_long_card_name_in_the_player_aid_is_one_line(run, tmp_path, monkeypatch, doc):
    monkeypatch.chdir(tmp_path)
    witch = next(card for card in doc["cards"] if card["id"] == "witch")
    witch["name"]["en"] = "W" * 100
    write_catalogue(tmp_path, doc)
    result = run("print-cards", "--catalogue", "mine.toml", "--out", "cards.pdf")
    one_error_line(result, "player aid", "WWWW", "--no-aids")
    assert not (tmp_path / "cards.pdf").exists()


# --- 7. a temporary file left by a killed run ---------------------------------------------------------------


def test_a_killed_runs_temporary_file_is_cleared_by_the_next_run(tmp_path):
    from toolkit import files

    script = ("import os, signal\n"
              "import toolkit.files as files\n"
              "real = os.fsync\n"
              "def fsync(fd):\n"
              "    real(fd)\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n"
              "files.os.fsync = fsync\n"
              "from toolkit.entry import run\n"
              "run()\n")
    out = tmp_path / "sheet.pdf"
    done = subprocess.run([sys.executable, "-c", script, "print-cards", "--calibration", "--out", str(out)],
                          capture_output=True, timeout=120)
    assert done.returncode == -9
    (left,) = tmp_path.iterdir()
    assert left.name.startswith(".toolkit-") and left.name.endswith(".tmp")
    old = tmp_path / ".toolkit-old.tmp"  # a name without a process: taken as stale once it is old
    old.write_bytes(b"x")
    long_ago = time.time() - 3 * 3600
    os.utime(old, (long_ago, long_ago))
    recent = tmp_path / ".toolkit-recent.tmp"  # ... and kept while it may be another run's
    recent.write_bytes(b"x")
    mine = tmp_path / ".toolkit-notes.txt"  # not a name the toolkit gives
    mine.write_bytes(b"mine")
    files.write_atomic(tmp_path / "other.pdf", b"%PDF-")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".toolkit-notes.txt", ".toolkit-recent.tmp", "other.pdf"]


# --- 8. a byte-order mark ------------------------------------------------------------------------------------


def test_a_layout_saved_with_a_byte_order_mark_is_read(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    weathervane(tmp_path)
    for name in ("layout.toml", "texts/aid.en.md", "texts/rules.en.md", "weathervane.toml", "cards.csv"):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    result = run("print-cards", "--catalogue", "weathervane.toml", "--out", "cards.pdf")
    assert result.exit_code == 0, result.stderr
    result = run("rulebook", "--catalogue", "weathervane.toml", "--out", "rules.pdf")
    assert result.exit_code == 0, result.stderr
