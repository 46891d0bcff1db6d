"""Where a line may not end: no-break spaces for the rulebooks and the card texts alike.

:func:`bind` replaces the ordinary spaces at which a line must not break with no-break spaces
(U+00A0), in plain text or in reportlab's paragraph markup (tags and entities are left alone and
do not count as words, so ``в <b>замок</b>`` is bound like ``в замок``):

* both languages: a number stays with the word or % after it (``3 карты``, ``8,61 %``, ``70 cards``),
  and a dash with the word before it (``бриллианты — деньги``); a spaced hyphen becomes a dash;
* Russian: a one- or two-letter word (в, к, с, о, у, и, а, во, со, на, не, ни, от, до, из, за, по,
  но...) stays with the word after it, and the particles бы, б, ли, ль, же, ж with the word before
  them (``хотя бы``, ``тот же``);
* English: "a" and "I" stay with the word after them;
* an abbreviation stays with the word after it (``см. раздел``, ``т. е. карта``, ``напр. фея``,
  ``e.g. the``, ``i.e. a``, ``p. 2``), and the parts of ``т. е.``, ``т. д.``, ``т. п.`` stay together.

Every line breaker of the project must break at ordinary spaces only: reportlab does, and so does
the card renderer (``toolkit.cards.render``).
"""

from __future__ import annotations

import re

NBSP = "\u00a0"

_MARKUP = re.compile(r"(<[^>]*>|&#?\w+;)")
_DASH = re.compile(r" (?=[—–])")
_NUMBER = re.compile(r"(?<=\d) (?=[^\W\d_]{2}|%)")
_ABBREVIATION = re.compile(r"(?<![\w.])(?:см|ср|напр|рис|стр|с|т\.\s?е|e\.g|i\.e|cf|pp?)\.( )",
                           re.IGNORECASE)
_ABBREVIATION_PARTS = re.compile(r"(?<![\w.])т\.( )(?=[едп]\.)", re.IGNORECASE)
_PARTICLE = re.compile(r"(?<=\w) (?=(?:бы|б|ли|ль|же|ж)(?![\w-]))")
_SHORT = {
    "ru": re.compile(r"(?<![\w\-])(?!(?:бы|б|ли|ль|же|ж)(?![\w-]))[а-яё]{1,2}( )",
                     re.IGNORECASE),
    "en": re.compile(r"(?<![\w\-'’])(?:a|A|I)( )"),
}


def _spaces(plain: str, lang: str) -> set[int]:
    """Indexes of the spaces in ``plain`` at which no line may end."""
    found = {m.start() for pattern in (_DASH, _NUMBER) for m in pattern.finditer(plain)}
    found.update(m.start(1) for pattern in (_ABBREVIATION, _ABBREVIATION_PARTS) for m in pattern.finditer(plain))
    if lang == "ru":
        found.update(m.start() for m in _PARTICLE.finditer(plain))
    short = _SHORT.get(lang)
    if short is not None:
        found.update(m.start(1) for m in short.finditer(plain))
    return found


def bind(text: str, lang: str, markup: bool = False) -> str:
    """``text`` with no-break spaces where a line must not end (see the module's rules). With
    ``markup``, ``text`` is reportlab markup: tags count as nothing, an entity as one non-letter."""
    dash = " — " if lang == "ru" else " – "
    parts = _MARKUP.split(text) if markup else [text]
    # The visible text, and for each of its characters the part and offset it comes from.
    plain, origin = [], []
    for i, part in enumerate(parts):
        if markup and i % 2:
            if part.startswith("&"):
                plain.append("&")
                origin.append(None)
            continue
        part = parts[i] = part.replace(" - ", dash)
        plain.append(part)
        origin.extend((i, offset) for offset in range(len(part)))
    spaces = _spaces("".join(plain), lang)
    if not spaces:
        return "".join(parts)
    chars = {i: list(part) for i, part in enumerate(parts) if not (markup and i % 2)}
    for index in spaces:
        if origin[index] is not None:
            part, offset = origin[index]
            chars[part][offset] = NBSP
    return "".join("".join(chars[i]) if i in chars else part for i, part in enumerate(parts))


def breakable(text: str) -> list[str]:
    """The words a line breaker may put on different lines: split at ordinary spaces only."""
    return [word for word in text.split(" ") if word.strip()]
