"""Writing output files safely: to a temporary name in the same folder, then renamed into place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from toolkit.errors import UserError


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a reader never sees a half-written file.

    A path that exists and is not a regular file (``/dev/null``, a pipe) is written to directly:
    renaming over it would replace a device with a file; a folder is an error.
    """
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{path}: is a folder, not a file")
    if path.exists() and not path.is_file():
        try:
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as err:
            raise UserError(f"{path}: cannot write here: {err.strerror or err}") from None
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise UserError(f"{path}: cannot write here: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
