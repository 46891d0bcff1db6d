"""Output files and folders: atomic, cleaned up on every error and interruption, modes kept."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import pytest

from toolkit.errors import UserError
from toolkit.files import atomic_folder, write_atomic
from toolkit.print.export import MARK


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".toolkit-"))


@contextlib.contextmanager
def umask(mask):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


@contextlib.contextmanager
def full_filesystem(path):
    """A 64 KB tmpfs at ``path``: a real disk that fills up (needs root, as CI runs)."""
    path.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(path)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_a_new_file_takes_the_umask_and_a_replaced_file_keeps_its_mode(tmp_path):
    with umask(0o027):
        write_atomic(tmp_path / "new.pdf", b"one")
    assert (tmp_path / "new.pdf").stat().st_mode & 0o777 == 0o640
    old = tmp_path / "old.pdf"
    old.write_bytes(b"old")
    old.chmod(0o600)
    write_atomic(old, b"new")
    assert old.read_bytes() == b"new" and old.stat().st_mode & 0o777 == 0o600
    assert leftovers(tmp_path) == []


def test_a_full_disk_is_one_line_and_leaves_the_old_file(tmp_path):
    with full_filesystem(tmp_path / "disk") as disk:
        (disk / "out.pdf").write_bytes(b"before")
        with pytest.raises(UserError, match=r"out.pdf: cannot write here: No space left on device"):
            write_atomic(disk / "out.pdf", b"x" * 200_000)
        assert (disk / "out.pdf").read_bytes() == b"before"
        assert leftovers(disk) == []
        with pytest.raises(UserError, match="No space left on device"):
            with atomic_folder(disk / "export") as tmp:
                (tmp / "a.png").write_bytes(b"x" * 200_000)
        assert sorted(p.name for p in disk.iterdir()) == ["out.pdf"]


def test_a_device_is_written_in_place_and_a_full_one_is_an_error():
    write_atomic("/dev/null", b"anything")
    with pytest.raises(UserError, match="/dev/full: cannot write here: No space left on device"):
        write_atomic("/dev/full", b"anything")


def test_names_too_long_and_impossible_folders_are_one_line(tmp_path):
    with pytest.raises(UserError, match="File name too long"):
        write_atomic(tmp_path / ("x" * 300 + ".pdf"), b"data")
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(UserError, match="cannot write here"):
        write_atomic(tmp_path / "file" / "inside.pdf", b"data")
    with pytest.raises(UserError, match="is a folder, not a file"):
        write_atomic(tmp_path, b"data")
    with pytest.raises(UserError, match="is a file, not a folder"):
        with atomic_folder(tmp_path / "file"):
            pass
    assert leftovers(tmp_path) == []


def test_an_interruption_before_the_rename_removes_the_temporary_file(tmp_path, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "out.pdf", b"data")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_is_replaced_whole_or_not_at_all(tmp_path):
    target = tmp_path / "export"
    with atomic_folder(target) as tmp:
        (tmp / "a.png").write_bytes(b"a")
        (tmp / "b.png").write_bytes(b"b")
    with atomic_folder(target) as tmp:
        (tmp / "a.png").write_bytes(b"A")
    assert sorted(p.name for p in target.iterdir()) == ["a.png"]  # b.png of the earlier export is gone
    with pytest.raises(RuntimeError):
        with atomic_folder(target) as tmp:
            (tmp / "c.png").write_bytes(b"c")
            raise RuntimeError("a renderer failed")
    assert sorted(p.name for p in target.iterdir()) == ["a.png"] and (target / "a.png").read_bytes() == b"A"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("signum, status, word", [(15, 143, "terminated"), (2, 130, "interrupted")])
@pytest.mark.parametrize("target", ["print-cards", "export-cards"])
def test_a_signal_while_writing_leaves_no_temporary_file(tmp_path, signum, status, word, target):
    """SIGTERM or Ctrl-C just after a file is flushed, before its rename: one line, nothing left over."""
    script = (
        "import os, sys\n"
        "import toolkit.files as files\n"
        "real = os.fsync\n"
        "def fsync(fd):\n"
        "    real(fd)\n"
        f"    os.kill(os.getpid(), {signum})\n"
        "files.os.fsync = fsync\n"
        "from toolkit.entry import run\n"
        "run()\n"
    )
    args = ["print-cards", "--out", str(tmp_path / "cards.pdf")] if target == "print-cards" else [
        "export-cards", "--target", "png", "--out", str(tmp_path / "png")]
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == status, done.stderr
    assert done.stderr == f"toolkit: {word}\n"
    assert list(tmp_path.iterdir()) == []


def test_a_signal_between_the_renames_of_a_folder_keeps_one_whole_folder(tmp_path):
    """The earlier export aside, the new one in: a signal in between waits, so a folder is always there."""
    script = (
        "import os, sys\n"
        "import toolkit.files as files\n"
        "real = os.replace\n"
        "def replace(a, b):\n"
        "    if str(b).endswith('folder'):\n"
        "        os.kill(os.getpid(), 15)\n"
        "    real(a, b)\n"
        "files.os.replace = replace\n"
        "from toolkit.entry import run\n"
        "run()\n"
    )
    out = tmp_path / "png"
    args = ["export-cards", "--target", "png", "--out", str(out)]
    assert subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True).returncode == 0
    (out / "stray.png").write_bytes(b"from before")
    with open(out / MARK, "a", encoding="utf-8") as mark:  # an earlier export's file: its mark names it
        mark.write("stray.png\n")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 143, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]
    assert "manifest.csv" in {p.name for p in out.iterdir()} and not (out / "stray.png").exists()


def test_only_an_earlier_export_or_an_empty_folder_is_replaced(tmp_path, monkeypatch, run):
    mine = tmp_path / "mine"
    (mine / "sub").mkdir(parents=True)
    (mine / "thesis.txt").write_text("precious")
    line = run("export-cards", "--target", "png", "--out", str(mine)).stderr
    assert "holds 'sub', which no export writes" in line and (mine / "thesis.txt").read_text() == "precious"
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    assert run("export-cards", "--target", "png", "--out", str(tmp_path / "link")).exit_code == 0
    assert (tmp_path / "link").is_symlink() and (real / "manifest.csv").exists()  # the link kept, its folder filled
    assert run("export-cards", "--target", "tts", "--out", str(tmp_path / "link")).exit_code == 0  # an export: replaced
    assert not (real / "manifest.csv").exists()
    inside = real / "here"
    inside.mkdir()
    monkeypatch.chdir(inside)
    assert "is the current folder or holds it" in run("export-cards", "--target", "png", "--out", str(real)).stderr
    assert inside.exists()
    assert leftovers(tmp_path) == [] and leftovers(real) == []


def test_several_files_are_replaced_together_or_not_at_all(tmp_path, monkeypatch):
    from toolkit.files import write_many

    old = {tmp_path / "a.png": b"old a", tmp_path / "b.png": b"old b"}
    for path, data in old.items():
        path.write_bytes(data)
    write_many({tmp_path / "a.png": b"new a", tmp_path / "b.png": b"new b", tmp_path / "c" / "c.png": b"c"})
    assert (tmp_path / "a.png").read_bytes() == b"new a" and (tmp_path / "c" / "c.png").read_bytes() == b"c"
    real = os.fsync
    calls = []

    def failing(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(UserError, match="b.png: cannot write here: No space left on device"):
        write_many({tmp_path / "a.png": b"newer a", tmp_path / "b.png": b"newer b"})
    assert (tmp_path / "a.png").read_bytes() == b"new a" and (tmp_path / "b.png").read_bytes() == b"new b"
    assert leftovers(tmp_path) == []


def test_art_on_a_full_disk_replaces_no_picture(tmp_path):
    with full_filesystem(tmp_path / "disk") as disk:
        done = subprocess.run([sys.executable, "-m", "toolkit", "art", "--game", "diamoniak", "--out-dir",
                               str(disk / "art")], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert [p for p in disk.rglob("*") if p.is_file()] == []


def test_a_write_that_fails_takes_back_the_folders_it_made_and_no_other(tmp_path, monkeypatch, run):
    """A file, several files or a folder written under folders that did not exist: when the write
    fails, the folders made for it are removed again, and a folder that was there before stays (the fuzz
    found `export-cards --card mini` leaving an empty `output` folder after its one-line error)."""
    from toolkit.files import write_many

    (tmp_path / "there").mkdir()

    def fail_in(kind: str):
        def failing(fd):
            raise OSError(28, "No space left on device")
        monkeypatch.setattr(os, "fsync", failing)
        with pytest.raises(UserError, match="No space left on device"):
            if kind == "file":
                write_atomic(tmp_path / "there" / "new" / "deeper" / "a.pdf", b"x")
            else:
                write_many({tmp_path / "there" / "new" / "a.png": b"a", tmp_path / "there" / "other" / "b.png": b"b"})
        monkeypatch.undo()

    for kind in ("file", "files"):
        fail_in(kind)
        assert [p.name for p in tmp_path.iterdir()] == ["there"] and list((tmp_path / "there").iterdir()) == []
    with pytest.raises(UserError, match="inside"):
        with atomic_folder(tmp_path / "there" / "new" / "export") as folder:
            (folder / "a.png").write_bytes(b"x")
            raise UserError("inside")
    assert list((tmp_path / "there").iterdir()) == []
    write_atomic(tmp_path / "there" / "new" / "a.pdf", b"x")  # a write that succeeds keeps its folders
    assert (tmp_path / "there" / "new" / "a.pdf").read_bytes() == b"x"
    monkeypatch.chdir(tmp_path / "there")
    result = run("export-cards", "--target", "png", "--card", "mini")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "does not fit a mini" in result.stderr
    assert sorted(p.name for p in (tmp_path / "there").iterdir()) == ["new"]
