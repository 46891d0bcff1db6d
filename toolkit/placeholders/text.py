"""The text a placeholder stands in: a line of a user's or a game's text file (:class:`Piece`, which
messages name by file and line), the placeholder's form (``PLACEHOLDER``: ``{key}``, ``{key:arg}``,
``{key:arg|form|form}``), and the reading of a user's text file (:func:`read_text`), the same for a
rulebook text and a player aid."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from toolkit.catalogue.checks import text_problem
from toolkit.errors import UserError

# {key}, {key:arg}, {key|form|form}, {key:arg|form|form|form}
PLACEHOLDER = re.compile(r"\{([a-z_]+)(?::([A-Za-z0-9_.=-]+))?((?:\|[^{}|]*)*)\}")
MAX_TEXT_BYTES = 1_000_000  # a user's text file (a rulebook's, an aid's): a regular file of at most 1 MB


@dataclass(frozen=True)
class Piece:
    """One line of source text (``line`` counts from 1 in ``file``)."""

    text: str
    file: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_text(path: Path, what: str) -> str:
    """A text file of the user's (a rulebook's, an aid's): UTF-8, at most MAX_TEXT_BYTES, every line
    printable by the fonts; anything else is one line naming the file (and the line)."""
    try:
        if not path.is_file():
            raise UserError(f"{path}: no such file ({what}, <name>.<language>.md)")
        if path.stat().st_size > MAX_TEXT_BYTES:
            raise UserError(f"{path}: {path.stat().st_size:,} bytes; {what} is at most {MAX_TEXT_BYTES:,} bytes")
        data = path.read_bytes()
    except OSError as err:
        raise UserError(f"{path}: cannot read it ({err.strerror or err})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UserError(f"{path}: not UTF-8 text (byte {err.start + 1:,}); save it as UTF-8") from None
    text = text.replace("\t", "    ")
    for number, line in enumerate(text.splitlines(), 1):
        problem = text_problem(line)
        if problem:
            raise UserError(f"{path}:{number}: {problem}")
    return text
