"""The finished rows of a sweep under way, kept on disk so that an interrupted sweep resumes.

A sweep writing ``BASE.csv`` and ``BASE.json`` keeps its work in the folder ``BASE.parts/``:

* ``manifest.json``: what the sweep is (game, catalogue digest, grid, games, seed, turn limit); a
  resumed sweep must match it in every field, or it would mix rows of two different sweeps;
* one ``<digest of the configuration>.json`` per finished configuration, holding the configuration,
  its row and their seal (a SHA-256 digest of the manifest, the configuration and the row: a part
  edited or copied from another sweep since is refused on ``--resume``, not copied into the
  results). Each is written whole to a temporary name, flushed and renamed into place
  (``toolkit.files.write_atomic``), then the folder itself is flushed, so after a crash, a Ctrl-C or
  a lost worker a part is either there complete or not there at all. A configuration has exactly one
  file name, so it can never be stored (or counted) twice.

The folder is made when the first row is stored, never before: a run that stores no row (a
scheduler that cannot be reached, a Ctrl-C before the first configuration ends) leaves nothing
behind, and a folder that holds no row (only its manifest, say after a crash between the two
writes) blocks no later run: it is taken as empty, with or without ``--resume``.

Rows are JSON, whose numbers read back as the very floats that were written: a resumed sweep writes
the same bytes as one that was never interrupted. Once the sweep's own files are written, the files
it stored are removed, and the folder with them unless it holds something else (a file of the user's).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from pathlib import Path

from toolkit.errors import UserError
from toolkit.files import is_temporary, write_atomic

MANIFEST = "manifest.json"


def part_name(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:24] + ".json"


PART = re.compile(r"[0-9a-f]{24}\.json")  # the name of a part (``part_name``)


def _dump(data) -> bytes:
    return (json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n").encode()


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entries (the renames into it) to the disk."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class SweepStore:
    """The ``.parts`` folder of one sweep: ``open`` it, ``save`` each finished row, ``discard`` at the end."""

    def __init__(self, folder: Path, manifest: dict):
        self.folder = Path(folder)
        self.manifest = json.loads(_dump(manifest))  # as it reads back from the file
        self.started = False  # the folder holds this sweep's manifest (made by the first save)

    def open(self, resume: bool, keys: list[str]) -> dict[str, dict]:
        """The rows already stored (only with ``resume``), by configuration key.

        Without ``resume`` a folder that holds an earlier sweep's rows is refused (they would be
        lost); with it, the stored sweep must be this one and every part must belong to its grid. A
        folder without a row is no earlier work: it is taken as empty and its manifest rewritten by
        the first save. Nothing is written here.
        """
        shown = self.folder
        if self.folder.exists() and not self.folder.is_dir():
            raise UserError(f"{shown}: is a file, not the folder of a sweep's stored rows")
        try:
            stored = sorted(p for p in self.folder.iterdir() if not p.name.startswith(".") and p.name != MANIFEST) \
                if self.folder.is_dir() else []
        except OSError as err:
            raise UserError(f"{shown}: cannot read: {err.strerror or err}") from None
        if not stored:
            self._check_writable()
            return {}
        if not resume:
            raise UserError(f"{shown}: holds the stored rows of an unfinished sweep: give --resume to "
                            f"continue it, or remove the folder to start afresh")
        self._check_manifest()
        wanted = set(keys)
        rows: dict[str, dict] = {}
        for path in stored:
            try:
                data = json.loads(path.read_bytes())
                key, row = data["key"], data["row"]
                assert isinstance(key, str) and isinstance(row, dict)
            except (OSError, ValueError, KeyError, TypeError, AssertionError):
                raise UserError(f"{path}: not a stored row of a sweep: remove it, or the folder") from None
            if path.name != part_name(key) or key not in wanted:
                raise UserError(f"{path}: a row of a configuration this sweep does not have: remove it, "
                                f"or the folder")
            if data.get("seal") != self._seal(key, row):
                raise UserError(f"{path}: changed since this sweep stored it: remove it (its configuration "
                                f"is played again), or the folder")
            rows[key] = row
        self.started = True
        return rows

    def _check_writable(self) -> None:
        """Refuse at once a folder the first save could not make (rather than after a configuration)."""
        place = self.folder
        while not place.exists() and place != place.parent:
            place = place.parent
        if not place.is_dir() or not os.access(place, os.W_OK | os.X_OK):
            raise UserError(f"{self.folder}: cannot write here: "
                            f"{place} is {'not a folder' if not place.is_dir() else 'not writable'}")

    def _start(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UserError(f"{self.folder}: cannot write here: {err.strerror or err}") from None
        write_atomic(self.folder / MANIFEST, _dump(self.manifest))
        _sync_folder(self.folder)
        self.started = True

    def _check_manifest(self) -> None:
        path = self.folder / MANIFEST
        try:
            stored = json.loads(path.read_bytes())
            assert isinstance(stored, dict)
        except (OSError, ValueError, AssertionError):
            raise UserError(f"{path}: missing or unreadable: this folder cannot be resumed (remove it to "
                            f"start afresh)") from None
        for name in sorted(set(stored) | set(self.manifest)):
            if stored.get(name) != self.manifest.get(name):
                raise UserError(f"--resume: the sweep stored in {self.folder} has another {name} "
                                f"({_short(stored.get(name))}, now {_short(self.manifest.get(name))}): "
                                f"give the same options, or remove the folder to start afresh")

    def _seal(self, key: str, row: dict) -> str:
        return hashlib.sha256(_dump({"manifest": self.manifest, "key": key, "row": row})).hexdigest()

    def save(self, key: str, row: dict) -> None:
        """Store one finished row, whole or not at all (the first one makes the folder and its manifest)."""
        if not self.started:
            self._start()
        write_atomic(self.folder / part_name(key), _dump({"key": key, "row": row, "seal": self._seal(key, row)}))
        _sync_folder(self.folder)

    def discard(self) -> None:
        """Once the sweep's results are written, remove the files it stored (its manifest, its parts and
        a write of one cut short), then the folder when nothing else is left in it: a file of the user's
        stays."""
        try:
            names = [entry.name for entry in os.scandir(self.folder)]
        except OSError:
            return
        for name in names:
            if name == MANIFEST or PART.fullmatch(name) or is_temporary(name):
                with contextlib.suppress(OSError):
                    (self.folder / name).unlink()
        try:
            self.folder.rmdir()
        except OSError:  # it holds something of the user's
            pass


def _short(value) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:60] + "…"
