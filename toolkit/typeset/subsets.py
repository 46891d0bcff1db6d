"""TrueType fonts embedded as subsets whose tags differ within a file.

A PDF names an embedded subset ``ABCDEF+FontName``: the six capitals tell one subset from another
(PDF 32000-1, 9.6.4), so two subsets in one file should never share them. reportlab numbers each
font's subsets from 0 (``AAAAAA``, ``AAAAAB``...), so every font of a file began with ``AAAAAA``.
Here a subset's tag is made from a digest of the font file and the characters of the subset: the
same font and text give the same tag (the same inputs, the same bytes), and a tag already given in
the same file is never given again (the digest is taken again with a counter until it is new, in
the order reportlab writes the fonts, which is fixed).

reportlab makes the tag in one module-level function (``ttfonts.SUBSETN``, called from
``TTFont.addObjects`` with the subset's number alone); it is replaced once, on import, by one that
asks the font being written (a context variable, so threads writing PDFs at once do not mix) and
falls back to reportlab's own for any other font.
"""

from __future__ import annotations

import contextvars
import hashlib
from functools import cached_property
from typing import Callable

from reportlab.pdfbase import ttfonts

_writing: contextvars.ContextVar[Callable[[int], bytes] | None] = contextvars.ContextVar("subset_tag", default=None)
_REPORTLAB_TAG = ttfonts.SUBSETN


def _subset_tag(n: int, *args) -> bytes:
    tag = _writing.get()
    return _REPORTLAB_TAG(n, *args) if tag is None else tag(n)


if getattr(ttfonts.SUBSETN, "__module__", "") != __name__:  # once, however often this module is loaded
    ttfonts.SUBSETN = _subset_tag


def tag_of(data: bytes, used: set[bytes]) -> bytes:
    """Six capitals from a digest of ``data``, not among ``used`` (added to it)."""
    attempt = 0
    while True:
        digest = hashlib.sha256(data + attempt.to_bytes(4, "big")).digest()
        tag = bytes(ord("A") + byte % 26 for byte in digest[:6])
        if tag not in used:
            used.add(tag)
            return tag
        attempt += 1


class SubsetFont(ttfonts.TTFont):
    """A TrueType font reportlab embeds as subsets, each tagged from its own contents (see above)."""

    @cached_property
    def _font_digest(self) -> bytes:
        return hashlib.sha256(self.face._ttf_data).digest()

    def addObjects(self, doc) -> None:
        state = self.state.get(doc)
        subsets = [tuple(subset) for subset in state.subsets] if state is not None else []
        used = doc.__dict__.setdefault("_toolkit_subset_tags", set())  # the tags given in this file

        def tag(n: int) -> bytes:
            chars = ",".join(map(str, subsets[n])).encode("ascii") if n < len(subsets) else b""
            return tag_of(self._font_digest + self.face.name + b"\0" + chars, used)

        token = _writing.set(tag)
        try:
            super().addObjects(doc)
        finally:
            _writing.reset(token)
