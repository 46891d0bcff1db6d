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
* Polish and Czech: a one-letter word (Polish a i o u w z, Czech a i k o s u v z) stays with the word
  after it;
* French: a narrow no-break space (U+202F) before ``; : ! ?`` and ``»`` and after ``«``: a space
  written there becomes one, and where none is written before ``; ! ? »`` or after ``«`` one is put in
  (before a colon only where a space or the end follows it: ``10:30`` and an icon's ``:name:`` stay
  as they are), so that no line starts with those marks;
* an abbreviation stays with the word after it (``см. раздел``, ``т. е. карта``, ``напр. фея``,
  ``e.g. the``, ``i.e. a``, ``p. 2``), and the parts of ``т. е.``, ``т. д.``, ``т. п.`` stay together.

Every line breaker of the project must break at ordinary spaces only: reportlab does, and so does
the card renderer (``toolkit.cards.render``). The PT fonts have no narrow no-break space, and reportlab
would break a line at one: :func:`drawn` sets it for the fonts (in reportlab markup, a no-break space
3.5 pt smaller than the text, about two thirds of a word space in body text; on cards and aids, which
set one face and size a run, a no-break space).
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
NNBSP = "\u202f"  # narrow no-break space (French, before ; : ! ? »)

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
    "pl": re.compile(r"(?<![\w\-'’])[aiouwz]( )", re.IGNORECASE),
    "cs": re.compile(r"(?<![\w\-'’])[aikosuvz]( )", re.IGNORECASE),
}
# French: the space written before ; : ! ? » (before a colon, only one followed by a space or the end)
# or after «, and where none is written before ; ! ? » or after «, the place one goes.
_FRENCH_SPACE = re.compile(r"[ \u00a0](?=[;!?»]|:(?!\S))|(?<=«)[ \u00a0]")
_FRENCH_MISSING = re.compile(r"(?<=[^\s;:!?«(\[\u202f])(?=[;!?»]|:(?!\S))|(?<=«)(?=[^\s\u202f])")
_ICON_BEFORE = re.compile(r":[A-Za-z0-9_-]+$")  # the colon closes an icon's :name:


def _spaces(plain: str, lang: str) -> tuple[dict[int, str], set[int]]:
    """The spaces in ``plain`` at which no line may end (index: the space that takes its place), and
    the indexes before which a narrow no-break space goes in (French)."""
    found = {m.start() for pattern in (_DASH, _NUMBER) for m in pattern.finditer(plain)}
    found.update(m.start(1) for pattern in (_ABBREVIATION, _ABBREVIATION_PARTS) for m in pattern.finditer(plain))
    if lang == "ru":
        found.update(m.start() for m in _PARTICLE.finditer(plain))
    short = _SHORT.get(lang)
    if short is not None:
        found.update(m.start(1) for m in short.finditer(plain))
    spaces = {index: NBSP for index in found if plain[index] == " "}
    if lang != "fr":
        return spaces, set()
    spaces.update((m.start(), NNBSP) for m in _FRENCH_SPACE.finditer(plain))
    return spaces, {m.start() for m in _FRENCH_MISSING.finditer(plain)
                    if plain[m.start()] != ":" or not _ICON_BEFORE.search(plain, 0, m.start())}


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
    spaces, inserted = _spaces("".join(plain), lang)
    if not spaces and not inserted:
        return "".join(parts)
    chars = {i: list(part) for i, part in enumerate(parts) if not (markup and i % 2)}
    for index, space in spaces.items():
        if origin[index] is not None:
            part, offset = origin[index]
            chars[part][offset] = space
    for index in inserted:
        if origin[index] is not None:
            part, offset = origin[index]
            chars[part][offset] = NNBSP + chars[part][offset]
    return "".join("".join(chars[i]) if i in chars else part for i, part in enumerate(parts))


def drawn(text: str, markup: bool = False) -> str:
    """``text`` as the PT fonts can set it: each narrow no-break space (which they have no glyph for)
    as a no-break space, in reportlab ``markup`` a narrower one (3.5 pt smaller than the text)."""
    return text.replace(NNBSP, f'<font size="-3.5">{NBSP}</font>' if markup else NBSP)


def breakable(text: str) -> list[str]:
    """The words a line breaker may put on different lines: split at ordinary spaces only."""
    return [word for word in text.split(" ") if word.strip()]
