"""A note on stderr when a first compile takes long (numba compiles once per machine, then loads from its
cache in well under a second): a run that would otherwise sit silent for seconds says why."""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager

# seconds before a compile still going is announced: on a terminal, and off one (as a whole line)
NOTE_AFTER = {True: 1.0, False: 3.0}


def say(text: str) -> None:
    """``toolkit: note: TEXT`` on stderr (a closed or full stderr says nothing)."""
    try:
        print(f"toolkit: note: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


_SAID: set[str] = set()


def _say_once(text: str) -> None:
    if text not in _SAID:
        _SAID.add(text)
        say(text)


@contextmanager
def said_if_slow(text: str):
    """Say ``text`` (once in a process) if the block is still running after ``NOTE_AFTER`` seconds."""
    timer = threading.Timer(NOTE_AFTER[sys.stderr.isatty()], _say_once, (text,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
