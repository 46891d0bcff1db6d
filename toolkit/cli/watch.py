"""``--watch``: build once, then build again whenever one of the run's inputs changes.

The inputs are what the last build read (``catalogue_inputs``: the catalogue file, its art, the
texts), plus the places the art could come from next time (each art name in every art folder), so
that a picture added to an earlier folder is seen too. Only those paths trigger a build: an output
written next to the inputs, or an editor's swap file, does not. watchfiles (a Rust wheel over
inotify, FSEvents or ReadDirectoryChanges) watches their folders, not the files, so that an editor
that saves by writing a new file and renaming it over the old one is seen; it gathers the burst of
writes one save makes (STEP_MS without a new one) into one build.

A deck from a URL (``--catalogue https://...``) is asked for again every POLL_S seconds (a conditional
GET, ``RemoteDeck.refresh``); a changed deck is written over its cached copy, which is an input like any
other, so the watch builds again. A failure to ask says one line (once until it changes) and the watch
goes on with the last copy.

Each build says one line on stderr: what changed, what was written and how long it took, or the
mistake in the inputs (the watch goes on, and the last good output stays as it was: every output is
written whole or not at all). Ctrl-C ends the watch with status 0.
"""

from __future__ import annotations

import os
import queue
import signal
import stat
import threading
import time
from pathlib import Path
from typing import Callable

import click

from toolkit.errors import UserError

STEP_MS = 150  # a save's writes closer together than this are one change
MAX_WAIT_MS = 1600  # a stream of writes is built at least this often
TICK_MS = 200  # how often the watching thread looks whether it should stop
READY_WAIT_S = 10.0  # at most this long for the watch to start before the first build
POLL_S = 10.0  # a deck from a URL is asked for again this often


def watch(build: Callable[[dict], object], game: str | None, catalogue_path: str | None) -> None:
    """Run ``build(read)`` now and after every change of its inputs, until Ctrl-C.

    ``build`` returns what it wrote (shown in the line); as soon as it has loaded the catalogue it
    puts into ``read`` the ``catalogue`` and the run's ``inputs`` ({what: path}). Until a build has
    got that far, the catalogue file (``--catalogue``, or the built-in one of ``--game``) is watched."""
    signal.signal(signal.SIGINT, _end)
    follow(lambda read, changed: _build(build, read, changed), game, catalogue_path)


def follow(run: Callable[[dict, str], None], game: str | None, catalogue_path: str | None,
           poll: float = POLL_S) -> None:
    """Call ``run(read, changed)`` now and after every change of the inputs, forever (``watch``'s loop;
    ``toolkit studio`` runs it in a thread of its own). ``changed`` says what changed ("" the first
    time, else "PATH, ... changed: "); ``run`` fills ``read`` as ``watch``'s ``build`` does, and says
    itself how it went. A deck from a URL is asked for again every ``poll`` seconds."""
    from toolkit.catalogue.loader import builtin_path
    from toolkit.games.registry import default_id

    catalogue_file = Path(catalogue_path) if catalogue_path else builtin_path(game or default_id())
    from toolkit.catalogue.remote import fetched

    deck = fetched(catalogue_file)
    if deck is not None:
        _Poller(deck, poll)
    changes: queue.Queue = queue.Queue()
    paths = _watched({}, catalogue_file)
    watcher = _Watcher(_folders(paths), changes)
    changed = ""
    while True:
        state, began = _state(paths), time.time()
        read: dict = {}
        run(read, changed)
        if read:
            paths = _watched(read, catalogue_file)
        # the paths first known from this build, and all of them when the folders to watch change
        # (the new ones are watched only from now): any changed since the build began is built again
        fresh = _state(paths).keys() - state.keys()
        if _folders(paths) != watcher.folders:  # start watching the new folders before leaving the old
            old, watcher = watcher, _Watcher(_folders(paths), changes)
            old.stop.set()
            fresh = _state(paths).keys()
        late = {path for path in fresh if _changed_since(path, began)}
        state.update(_state(fresh - state.keys()))
        seen = late or _next_changes(changes, state)
        changed = _changed(sorted(seen))


def _stat(path: Path) -> tuple | None:
    try:
        found = path.stat()
    except OSError:
        return None
    if stat.S_ISDIR(found.st_mode):  # a folder on the way to an input: only whether it is there
        return found.st_ino,
    return found.st_mtime_ns, found.st_ctime_ns, found.st_size, found.st_ino


def _state(paths) -> dict[Path, tuple | None]:
    """What each path, and each folder on the way to it, is now (None: not there): a build is due
    when one differs from what the last build began with (an event alone may be the echo of a change
    that build already read, or of a file written into a folder that is no input)."""
    return {path: _stat(path) for path in {*paths, *(folder for path in paths for folder in path.parents)}}


def _changed_since(path: Path, moment: float) -> bool:
    """Whether the file ``path`` (not a folder: its files are asked themselves) was made, written or renamed since ``moment`` (the system's clock for file
    times is coarser than time.time(): a little early counts)."""
    found = _stat(path)
    return found is not None and len(found) > 1 and found[1] >= (moment - 0.05) * 1e9


class _Watcher(threading.Thread):
    """watchfiles watching ``folders`` (not their subfolders) in a thread of its own, each burst of
    changes put into ``changes``, so that none is lost while a build runs. Ready once started."""

    def __init__(self, folders: list[Path], changes: queue.Queue):
        super().__init__(daemon=True)
        self.folders, self.changes = folders, changes
        self.stop, self.ready = threading.Event(), threading.Event()
        self.start()
        self.ready.wait(READY_WAIT_S)

    def run(self) -> None:
        import watchfiles

        try:
            # a timeout yields an empty set: the first one says the watch has started
            for batch in watchfiles.watch(*self.folders, watch_filter=None, recursive=False, step=STEP_MS,
                                          debounce=MAX_WAIT_MS, rust_timeout=TICK_MS, yield_on_timeout=True,
                                          stop_event=self.stop, ignore_permission_denied=True):
                self.ready.set()
                if batch:
                    self.changes.put({_absolute(path) for _, path in batch})
        except Exception as err:  # a watched folder the system will not watch: the watch cannot go on
            self.changes.put(err)
            self.ready.set()


class _Poller(threading.Thread):
    """Asks for a deck from a URL again every ``poll`` seconds, in a thread of its own: a changed deck
    replaces its cached copy (the watched input). A failure is said once, until another one comes."""

    def __init__(self, deck, poll: float):
        super().__init__(daemon=True)
        self.deck, self.poll = deck, poll
        self.start()

    def run(self) -> None:
        said = None
        while True:
            time.sleep(self.poll)
            try:
                self.deck.refresh()
                said = None
            except UserError as err:
                if str(err) != said:
                    said = str(err)
                    click.echo(f"toolkit: watch: {err} (the last copy stays; asking again every {self.poll:g} s)",
                               err=True)


def _next_changes(changes: queue.Queue, state: dict[Path, tuple | None]) -> set[Path]:
    """Wait for a change to a path of ``state`` (an input, or a folder on the way to one) that makes
    it differ from ``state``; return it and every other such change already waiting, so that a burst
    is one build."""
    seen: set[Path] = set()
    while not seen:
        batch = changes.get()
        while True:
            if isinstance(batch, Exception):
                raise UserError(f"--watch: cannot watch the inputs' folders: {batch}")
            seen.update(path for path in batch if path in state and _stat(path) != state[path])
            try:
                batch = changes.get_nowait()
            except queue.Empty:
                break
    return seen


def _end(signum, frame) -> None:
    """Ctrl-C: the watch is over. A build under way leaves nothing behind (its temporary files go,
    the last good output stays)."""
    from toolkit import files

    if files.HELD:  # a few steps that must happen together: end right after them
        files.DEFERRED.append(signum)
        return
    files.remove_pending()
    try:
        os.write(2, b"toolkit: watch ended\n")
    except OSError:
        pass
    os._exit(0)


def _build(build: Callable[[dict], object], read: dict, changed: str) -> None:
    start = time.monotonic()
    try:
        written = build(read)
    except UserError as err:
        click.echo(f"toolkit: watch: {changed}error: {err} (nothing written; watching for the fix)", err=True)
        return
    click.echo(f"toolkit: watch: {changed}wrote {written} in {time.monotonic() - start:.1f} s", err=True)


def _changed(paths: list[Path]) -> str:
    names = [_shown(path) for path in paths[:3]]
    more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
    return f"{', '.join(names)}{more} changed: "


def _shown(path: Path) -> str:
    from toolkit.catalogue.remote import fetched

    deck = fetched(path)
    if deck is not None:  # a deck from a URL's cached copy: its URL
        return deck.shown
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _absolute(path) -> Path:
    return Path(os.path.abspath(path))


def _watched(read: dict, catalogue_file: Path) -> frozenset[Path]:
    """Every path whose change calls for a build: the inputs read, and each art name in every art
    folder (the first folder that has a picture wins, so one added to an earlier folder counts)."""
    paths = {_absolute(catalogue_file)}
    paths.update(_absolute(path) for path in read.get("inputs", {}).values() if path is not None)
    catalogue = read.get("catalogue")
    if catalogue is not None:
        from toolkit.catalogue.loader import catalogue_art_dirs

        names = {catalogue.back_art, *(card.art for card in catalogue.cards),
                 *(card.back_art for card in catalogue.cards if card.back_art)}
        paths.update(_absolute(folder / name) for folder in catalogue_art_dirs(catalogue) for name in names)
    return frozenset(paths)


def _folders(paths: frozenset[Path]) -> list[Path]:
    """The folders to watch: each path's folder, or its nearest folder that exists (the creation of
    the missing folder is then seen)."""
    folders = set()
    for path in paths:
        folder = path.parent
        while not folder.is_dir() and folder != folder.parent:
            folder = folder.parent
        folders.add(folder)
    return sorted(folders)
