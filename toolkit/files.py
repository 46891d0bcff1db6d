"""Writing output files and folders safely: nothing half-written is ever left where the user looks.

A file is written to a temporary name in its own folder, flushed to the disk and renamed into place;
a folder of files (an export) is built beside its target and renamed into place whole, the old one
removed only once the new one stands. Every error of the operating system on the way (a full disk, a
name too long, no permission) becomes one ``UserError`` line naming the path, and the temporary file
or folder is removed, also when the run is interrupted: the temporary paths of a run are kept in
``PENDING`` while they exist, and the command line's signal handlers remove them (``remove_pending``)
before the process ends; the few steps between creating a temporary path and noting it, and between
the renames of a folder, run with Ctrl-C and SIGTERM held back, so no moment leaves one behind. What
a run killed outright (SIGKILL) leaves, the next run that writes in the same folder removes: a
temporary name holds its process's id (``_cleared``).

New files get the mode the user's umask gives; a replaced file keeps its mode.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from toolkit.errors import UserError


PENDING: set[Path] = set()  # temporary files and folders of this run that exist now
# While HELD, the command line's signal handlers note a signal in DEFERRED instead of stopping the
# run; it is raised again as soon as the held steps are done. (A signal mask would not do: another
# thread of the process, numpy's for one, could take the signal and the handler would run anyway.)
HELD = 0
DEFERRED: list[int] = []


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back Ctrl-C and SIGTERM for a few steps that must happen together; they arrive after."""
    global HELD
    HELD += 1
    try:
        yield
    finally:
        HELD -= 1
        if not HELD and DEFERRED:
            signal.raise_signal(DEFERRED.pop())


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder of this run in the system's temporary folder, removed when the block ends
    or the run is stopped (for a library's own scratch files, such as Dask's locks)."""
    with _signals_held():
        path = Path(tempfile.mkdtemp(prefix=prefix))
        PENDING.add(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        PENDING.discard(path)


def remove_pending() -> None:
    """Remove every temporary file and folder of this run (called by the signal handlers)."""
    for path in list(PENDING):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        PENDING.discard(path)


# The temporary names of a run: ``.toolkit-<pid>-<random>.tmp`` (a folder being replaced: ``.old``). A run
# killed where no handler runs (SIGKILL, a power cut) leaves its own behind; the next run that writes
# in that folder removes them: those of a process that is gone, and those without a process id (of an
# earlier version of the toolkit) once they are an hour old. A name of another pattern is never touched.
_TEMPORARY = re.compile(r"\.toolkit-(?:([0-9]+)-)?[A-Za-z0-9_]+\.(?:tmp|old)")
STALE_AFTER = 3600.0  # seconds, for a temporary name without a process id
_CLEARED: set[Path] = set()  # the folders this run has looked through already


def _prefix() -> str:
    return f".toolkit-{os.getpid()}-"


def is_temporary(name: str) -> bool:
    """Whether ``name`` is one the toolkit gives its temporary files and folders."""
    return _TEMPORARY.fullmatch(name) is not None


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):  # another user's process, or a number no pid has
        return True
    return True


def _stale(entry: os.DirEntry) -> bool:
    match = _TEMPORARY.fullmatch(entry.name)
    if match is None or entry.is_symlink():
        return False
    if match.group(1) is not None:
        return not _running(int(match.group(1)))
    return time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER


def _cleared(folder: Path) -> Path:
    """``folder``, once the temporary files and folders a killed run left in it are removed (looked for
    once a run per folder; a file that cannot be removed is left)."""
    key = Path(os.path.abspath(folder))
    if key in _CLEARED:
        return folder
    _CLEARED.add(key)
    try:
        with os.scandir(folder) as entries:
            stale = [Path(entry.path) for entry in entries if _stale(entry)]
    except OSError:
        return folder
    for path in stale:
        if path in PENDING:
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()
    return folder


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _new_mode(existing: Path, default: int) -> int:
    """The mode for a file or folder about to replace ``existing``: its own mode, or the umask's."""
    try:
        return stat.S_IMODE(existing.stat().st_mode)
    except OSError:
        return default & ~_umask()


def _failed(path: Path, err: OSError) -> UserError:
    return UserError(f"{path}: cannot write here: {err.strerror or err}")


def _make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; the folders made here, deepest first (``_take_back``)."""
    made, here = [], folder
    while not os.path.lexists(here) and here != here.parent:
        made.append(here)
        here = here.parent
    folder.mkdir(parents=True, exist_ok=True)
    return made


def _take_back(made: list[Path]) -> None:
    """Remove the folders ``_make_folders`` made for a write that failed, deepest first, as far as they
    are empty: a run that wrote nothing leaves no folder behind."""
    for folder in sorted(made, key=lambda f: len(f.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:
            return


def check_out_path(text: str | None, option: str = "--out") -> None:
    """An output path given on the command line must not be empty (it would mean the default)."""
    if text is not None and not text.strip():
        raise UserError(f"{option}: the path is empty")


def followed(path: Path) -> Path:
    """Where writing to ``path`` lands: the file or folder a link points to (so that the link is
    kept), or ``path`` itself when it is no link. A loop of links is refused in one line."""
    if not os.path.islink(path):  # also for a name too long: writing it then says so
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a link to a file yet to be made
        return Path(os.path.realpath(path))
    except OSError as err:
        raise UserError(f"{path}: cannot follow the link: {err.strerror or err}") from None


def check_file_target(path: str | Path | None, option: str) -> None:
    """Refuse, before any work, a file target that could not be written at the end: a folder or a
    loop of links."""
    if path is None:
        return
    shown = Path(path)
    if os.path.isdir(followed(shown)):  # (a name too long is said when it is written)
        raise UserError(f"{option} {shown}: is a folder, not a file")


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # either is not there (yet)
        return os.path.realpath(a) == os.path.realpath(b)


@dataclass(frozen=True)
class Kind:
    """What an output file is: ``what`` for messages, the suffixes its name may end in, and the first
    bytes every such file starts with (None: no test of the contents)."""

    what: str
    suffixes: tuple[str, ...]
    magic: bytes | None = None


PDF = Kind("a PDF", (".pdf",), b"%PDF-")
DRN = Kind("a DRN chain", (".drn",))
JSON = Kind("a JSON file", (".json",), b"{")
# Suffixes of files a designer keeps (the deck's own, programs, pictures, documents): an output of
# another kind is never written under such a name, whether or not the file exists yet.
KNOWN_SUFFIXES = frozenset((
    ".py", ".toml", ".csv", ".xlsx", ".xls", ".ods", ".md", ".txt", ".json", ".yaml", ".yml", ".ini", ".cfg",
    ".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff", ".svg", ".ttf", ".otf", ".icc", ".icm",
    ".pdf", ".drn", ".html", ".doc", ".docx", ".odt", ".zip", ".sh"))


def _of_kind(path: Path, kind: Kind) -> bool:
    """Whether the file at ``path`` holds a file of ``kind`` already (its first bytes say so)."""
    if kind.magic is None:
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(len(kind.magic)) == kind.magic
    except OSError:
        return False


def check_kind(option: str, shown: Path, kind: Kind) -> None:
    """Refuse an output of ``kind`` written under a name of another kind (``make_art.py`` for a PDF),
    or over an existing file that is not of its kind and not named as one (a PDF over ``notes``)."""
    for path in dict.fromkeys((shown, followed(shown))):
        suffix = path.suffix.lower()
        if suffix in KNOWN_SUFFIXES and suffix not in kind.suffixes:
            raise UserError(f"{option} {shown}: names a {suffix} file, and {option} writes {kind.what}: "
                            f"name a {kind.suffixes[0]} file")
        if (suffix not in kind.suffixes and os.path.isfile(path) and os.path.getsize(path) > 0
                and not _of_kind(path, kind)):
            raise UserError(f"{option} {shown}: an existing file that is not {kind.what}, which {option} "
                            f"writes: name a {kind.suffixes[0]} file, or move it")


def check_outputs(outputs: list[tuple], inputs: dict[str, Path | None]) -> None:
    """Refuse, before any work, an output (``(option, path)``, or ``(option, path, kind)``) that is, or
    resolves to, a file this run reads (``{what: path}``) or another of its outputs: writing it would
    destroy an input or lose the other output; with a ``Kind``, also one named as, or replacing, a file
    of another kind (``check_kind``)."""
    named = [(option, Path(path), *kind) for option, path, *kind in outputs if path is not None]
    for place, (option, path, *kind) in enumerate(named):
        check_file_target(path, option)
        for what, source in inputs.items():
            if source is not None and _same(path, source):
                raise UserError(f"{option} {path}: is {what} this run reads ({source}): name another file")
        for other, earlier, *_ in named[:place]:
            if _same(path, earlier):
                raise UserError(f"{option} {path}: is also the file of {other}: name another file")
        if kind:
            check_kind(option, path, kind[0])


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a reader never sees a half-written file.

    A path that exists and is not a regular file (``/dev/null``, a pipe) is written to directly:
    renaming over it would replace a device with a file; a folder is an error. A link is followed
    and kept: the file it points to is replaced.
    """
    shown = Path(path)
    path = followed(shown)
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as err:  # a name too long, a parent that is a file, no permission
        raise _failed(shown, err) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise UserError(f"{shown}: is a folder, not a file")
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as err:
            raise _failed(shown, err) from None
        return shown
    mode = _new_mode(path, 0o666)
    tmp, made, written = None, [], False
    try:
        made = _make_folders(path.parent)
        with _signals_held():
            # A short temporary name: one derived from a long target name could pass the name limit.
            fd, name = tempfile.mkstemp(prefix=_prefix(), suffix=".tmp", dir=_cleared(path.parent))
            tmp = Path(name)
            PENDING.add(tmp)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        with _signals_held():
            os.replace(tmp, path)
            PENDING.discard(tmp)
            tmp, written = None, True
    except OSError as err:
        raise _failed(shown, err) from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
            PENDING.discard(tmp)
        if not written:
            _take_back(made)
    return shown


def write_many(items: dict[Path, bytes]) -> list[Path]:
    """Write several files so that either all of them are replaced or none is.

    Every file is first written to a temporary name beside its target and flushed; only when all
    of them are on disk are they renamed into place, together, with Ctrl-C and SIGTERM held back.
    """
    staged: list[tuple[Path, Path]] = []
    made: list[Path] = []
    written = False
    try:
        for shown, data in items.items():
            shown = Path(shown)
            path = followed(shown)
            try:
                if path.is_dir():
                    raise UserError(f"{shown}: is a folder, not a file")
                mode = _new_mode(path, 0o666)
                made += _make_folders(path.parent)
                with _signals_held():
                    fd, name = tempfile.mkstemp(prefix=_prefix(), suffix=".tmp", dir=_cleared(path.parent))
                    staged.append((Path(name), path))
                    PENDING.add(Path(name))
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(name, mode)
            except OSError as err:
                raise _failed(shown, err) from None
        with _signals_held():
            for tmp, path in staged:
                try:
                    os.replace(tmp, path)
                except OSError as err:
                    raise _failed(path, err) from None
                PENDING.discard(tmp)
        written = True
    finally:
        for tmp, _ in staged:
            if tmp in PENDING:
                tmp.unlink(missing_ok=True)
                PENDING.discard(tmp)
        if not written:
            _take_back(made)
    return [Path(shown) for shown in items]


@contextlib.contextmanager
def atomic_folder(path: str | Path, replaceable: Callable[[Path], str | None] | None = None) -> Iterator[Path]:
    """Build a folder beside ``path`` and rename it into place when the block ends without error.

    Yields the temporary folder to write into. An earlier folder at ``path`` is replaced whole (none
    of its files survive), and removed only after the new one is in place; on any error or
    interruption the temporary folder is removed and ``path`` is left as it was. ``replaceable(old)``
    says why an existing folder must not be replaced (None when it may); a link is followed, so the
    folder it points to is replaced and the link kept; the current folder, or one holding it, is
    never replaced.
    """
    shown = Path(path)
    path = followed(shown)
    try:
        if path.exists() and not path.is_dir():
            raise UserError(f"{shown}: is a file, not a folder")
        if path.exists():
            here = Path.cwd().resolve()
            if path.resolve() == here or path.resolve() in here.parents:
                raise UserError(f"{shown}: is the current folder or holds it: name a folder of its own")
            why = replaceable(path) if replaceable else None
            if why:
                raise UserError(f"{shown}: {why}")
        mode = _new_mode(path, 0o777)
        made = _make_folders(path.parent)
        try:
            with _signals_held():
                tmp = Path(tempfile.mkdtemp(prefix=_prefix(), suffix=".tmp", dir=_cleared(path.parent)))
                PENDING.add(tmp)
        except BaseException:
            _take_back(made)
            raise
    except OSError as err:
        raise _failed(path, err) from None
    old = None
    try:
        try:
            yield tmp
        except UserError as err:  # a file inside failed: name it where the user will look for it
            raise UserError(str(err).replace(str(tmp), str(path))) from None
        os.chmod(tmp, mode)
        with _signals_held():  # the earlier folder aside, the new one in, as one step
            if path.exists():
                old = Path(tempfile.mkdtemp(prefix=_prefix(), suffix=".old", dir=path.parent))
                PENDING.add(old)
                os.replace(path, old / "folder")
            try:
                os.replace(tmp, path)
            except OSError:
                if old is not None:  # put the earlier folder back
                    os.replace(old / "folder", path)
                raise
            PENDING.discard(tmp)
            tmp = None
    except OSError as err:
        raise _failed(path, err) from None
    finally:
        failed = tmp is not None  # still beside the target: the folder never went into place
        for leftover in (tmp, old):
            if leftover is not None:
                shutil.rmtree(leftover, ignore_errors=True)
                PENDING.discard(leftover)
        if failed:
            _take_back(made)
