"""The rulebook's text sources: one small markup file per game and language.

A game's ``texts/rules.<lang>.md`` (``Game.text_file``) holds the prose of one rulebook in one
language. The markup is a small subset of Markdown, so that a translation can be checked against
the original section by section:

* ``%% ...`` a comment line, ignored anywhere.
* Before the first section, ``# Title`` (the book's title in place of the catalogue's) and
  ``key: value`` lines: the front matter, each optional: ``tagline`` (the line under the title;
  none without it), ``facts`` (players, age, time; made from the deck without it), ``footer`` (the
  page footer; the toolkit's "<title>: rules of play" without it) and ``modified`` (printed in place
  of the catalogue's note when ``--set`` changed the deck, since the note may quote the file's counts).
* ``## id: Heading`` starts a section. The id (lower-case letters, digits, dashes) is the same in
  every language and the sections come in the same order; the heading is the language's own.
  ``## Heading`` (ordinary Markdown) starts one too, its id made from the heading (:func:`slug`); a
  text with such a section is paired with its translation in order (:func:`check_same_shape`).
* ``### Heading``: a minor heading inside a section.
* Lines of text form a paragraph; a blank line ends it.
* ``- item``: a bullet list item; ``1. item``: a numbered step (the number printed is the item's
  place in its list). An item goes on over the following lines that are indented.
* ``**bold**`` and ``*italic*`` inside any text.
* ``{...}``: a placeholder, filled in at build time from the catalogue and the odds solver (the
  full list is in :mod:`toolkit.placeholders.facts`). Inline forms: ``{key}``, ``{key:arg}``, and with
  noun forms that agree with the number, ``{count:witch|witch|witches}`` in English or
  ``{count:witch|ведьма|ведьмы|ведьм}`` in Russian (one|other and one|few|many, chosen by Babel's
  plural rules). A placeholder never spans two lines. Alone on a line, ``{cards}``, ``{tokens}``
  and ``{figure:name|x label|y label}`` are blocks: the cards with their pictures, the tokens, a
  chart; ``{table:key=label|key=label|...}`` is the picture of the table, each part labelled (the
  keys are the game's own, ``Game.table_keys``, see :mod:`toolkit.rulebook.table_picture`), a scene
  during a game; ``{setup:key=label|...}`` the table as a game starts (``Game.setup_keys``).
  ``{onepage}``, first in a section, keeps the section on one page: it starts a new page when it
  does not fit where it would stand (a quick start on the book's last page); ``{newpage}`` does the same
  on sheets, and in a booklet starts it on a new page whatever room is left (the back cover).

Every problem is a UserError naming the file and line, e.g.
``diamoniak/texts/rules.en.md:14: unknown placeholder {count:wizard} ...``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from toolkit.errors import UserError
from toolkit.placeholders.text import PLACEHOLDER, Piece, read_text

SECTION = re.compile(r"^##\s+([a-z][a-z0-9-]*)\s*:\s*(\S.*?)\s*$")
PLAIN_SECTION = re.compile(r"^##\s+(\S.*?)\s*$")  # ordinary Markdown: the id is made from the heading
TITLE = re.compile(r"^#\s+(\S.*?)\s*$")
SUBHEADING = re.compile(r"^###\s+(\S.*?)\s*$")
BULLET = re.compile(r"^-\s+(\S.*)$")
STEP = re.compile(r"^\d+\.\s+(\S.*)$")
META = re.compile(r"^([a-z][a-z0-9-]*)\s*:\s*(\S.*?)\s*$")
BLOCK = re.compile(r"^\{(cards|tokens|components|onepage|newpage|figure:[^{}]*|table:[^{}]*|setup:[^{}]*)\}$")
META_KEYS = ("tagline", "facts", "footer", "modified")
LANG_CODE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")  # a language tag: en, ru, pt-BR


@dataclass(frozen=True)
class Block:
    """A paragraph (``para``), minor heading (``sub``), list (``bullets``, ``steps``: one tuple of
    pieces per item), or a block placeholder (``cards``, ``tokens``, ``onepage``, ``newpage``, ``figure``, ``table``: its
    labels are its items, one piece each, and its keys its args)."""

    kind: str
    items: tuple[tuple[Piece, ...], ...]
    line: int
    args: tuple[str, ...] = ()  # figure: name, x label, y label; table: the labels' keys


@dataclass(frozen=True)
class Section:
    id: str
    heading: Piece
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Source:
    """``meta``: the front matter given (any of META_KEYS) and ``title`` from a ``# Title`` line;
    ``plain``: some section's id was made from its heading (ordinary Markdown), so a translation is
    paired with it section by section in order rather than by id."""

    file: str
    meta: dict[str, Piece]
    sections: tuple[Section, ...]
    plain: bool = False

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(section.id for section in self.sections)


def text_path(game: str, lang: str, kind: str = "rules"):
    from toolkit.games.registry import get

    return get(game).text_file(kind, lang)


def load_source(game: str, lang: str, kind: str = "rules") -> Source:
    """One language's text of a game: ``rules`` (the players' book) or ``designer`` (the designer's
    sheet: the exact and sampled figures)."""
    path = text_path(game, lang, kind)
    name = f"{game}/texts/{kind}.{lang}.md"  # as the game's package holds it
    what = "rulebook" if kind == "rules" else "designer's sheet"
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserError(f"{name}: there is no {lang} {what} text for {game}") from None
    return parse(text, name)


def text_lang(path: Path) -> str:
    """The language of a rulebook text named ``<anything>.<lang>.md`` (``rules.en.md``: en)."""
    parts = path.name.split(".")
    if len(parts) < 3 or parts[-1] != "md" or not LANG_CODE.fullmatch(parts[-2]):
        raise UserError(f"{path}: a rulebook text is named <name>.<language>.md (e.g. rules.en.md), so that its "
                        "language is known")
    return parts[-2]


def read_source(path: Path) -> Source:
    """A rulebook text of the user's (``rulebook --text``, ``game.rulebook``): one file, checked like
    the games' own."""
    return parse(read_text(path, "a rulebook text"), str(path))


def parse(text: str, file: str) -> Source:
    """Parse one source file; raises UserError naming ``file`` and the line of the first problem."""
    meta: dict[str, Piece] = {}
    sections: list[Section] = []
    blocks: list[Block] = []
    heading: Piece | None = None
    section_id = ""
    para: list[Piece] = []
    items: list[list[Piece]] = []
    list_kind = ""
    list_line = 0
    seen: set[str] = set()
    plain = False

    def fail(line: int, what: str) -> UserError:
        return UserError(f"{file}:{line}: {what}")

    def flush() -> None:
        nonlocal para, items, list_kind
        if para:
            blocks.append(Block("para", (tuple(para),), para[0].line))
            para = []
        if items:
            blocks.append(Block(list_kind, tuple(tuple(item) for item in items), list_line))
            items, list_kind = [], ""

    def close_section() -> None:
        flush()
        if heading is not None:
            if not blocks:
                raise fail(heading.line, f"section '{section_id}' has no text")
            sections.append(Section(section_id, heading, tuple(blocks)))

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith("%%"):
            continue
        if not stripped:
            flush()
            continue
        if "\t" in line:
            raise fail(number, "tab character: indent with spaces")
        match = SECTION.match(line) or PLAIN_SECTION.match(line)
        if match:
            close_section()
            blocks = []
            if match.re is SECTION:
                section_id = match.group(1)
                if section_id in seen:
                    raise fail(number, f"duplicate section id '{section_id}'")
            else:
                section_id, plain = slug(match.group(1), seen, len(sections) + 1), True
            seen.add(section_id)
            heading = Piece(match.group(match.re.groups), file, number)
            continue
        title = TITLE.match(line)
        if title:
            if heading is not None or "title" in meta:
                raise fail(number, "'# Title' stands once, before the first section")
            meta["title"] = Piece(title.group(1), file, number)
            continue
        if line.startswith("#"):
            sub = SUBHEADING.match(line)
            if not sub or heading is None:
                raise fail(number, "a heading is '# Title' (the book's, first), '## Heading' or '## id: Heading' "
                                   "(a section) or '### Heading' (inside a section)")
            flush()
            blocks.append(Block("sub", ((Piece(sub.group(1), file, number),),), number))
            continue
        if heading is None:
            match = META.match(line)
            if not match or match.group(1) not in META_KEYS:
                raise fail(number, f"before the first section only '# Title' and "
                                   f"{', '.join(k + ': ...' for k in META_KEYS)} lines may stand (a section starts "
                                   "with '## Heading')")
            if match.group(1) in meta:
                raise fail(number, f"'{match.group(1)}' given twice")
            meta[match.group(1)] = Piece(match.group(2), file, number)
            continue
        block = BLOCK.match(stripped)
        if block and line == stripped:
            flush()
            name, *args = block.group(1).split("|")
            if name.startswith("figure:"):
                figure = name.split(":", 1)[1].strip()
                if not figure or len(args) != 2 or not all(a.strip() for a in args):
                    raise fail(number, "a figure is {figure:name|x axis label|y axis label}")
                blocks.append(Block("figure", (), number, (figure, *(a.strip() for a in args))))
            elif name.startswith(("table:", "setup:")):
                kind, first = name.split(":", 1)
                blocks.append(_table(first, args, file, number, fail, kind))
            else:
                if args:
                    raise fail(number, f"{{{name}}} takes no arguments")
                if name in ("onepage", "newpage") and blocks:
                    raise fail(number, f"{{{name}}} stands first in its section, right under the heading")
                blocks.append(Block(name, (), number))
            continue
        bullet, step = BULLET.match(line), STEP.match(line)
        if bullet or step:
            kind = "bullets" if bullet else "steps"
            if para:
                flush()
            if items and list_kind != kind:
                flush()
            if not items:
                list_kind, list_line = kind, number
            items.append([Piece((bullet or step).group(1), file, number)])
            continue
        if line[0] == " " and items:
            items[-1].append(Piece(stripped, file, number))
            continue
        if line[0] == " ":
            raise fail(number, "an indented line continues a list item, and there is none above")
        if items:
            flush()
        para.append(Piece(stripped, file, number))
    close_section()
    if not sections:
        raise UserError(f"{file}: no sections (a section starts with '## Heading')")
    return Source(file, meta, tuple(sections), plain)


def slug(heading: str, taken: set[str], number: int) -> str:
    """A section's id made from its heading: lower-case ASCII letters and digits joined by dashes
    (``## Winning the game``: ``winning-the-game``), ``section-N`` for a heading with no such letters
    (N its place in the book), and ``-2``, ``-3``... after an id already taken. The same text gives the
    same ids."""
    plain = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode().lower()
    base = "-".join(re.findall(r"[a-z0-9]+", plain))
    if not base or not base[0].isalpha():
        base = f"section-{number}" if not base else f"s-{base}"
    found, n = base, 1
    while found in taken:
        n += 1
        found = f"{base}-{n}"
    return found


def check_same_shape(first: Source, second: Source) -> None:
    """The two languages of one game must have the same sections, in the same order, and the
    same placeholders in each section (forms aside): a translation cannot fall behind. Where both
    texts give every section its id (``## id: Heading``), the ids must agree; where either made its
    ids from its headings (ordinary Markdown), the sections are paired in order, so only their number
    is checked. The front matter must be given for the same keys in both."""
    for key in META_KEYS:
        given = [src.file for src in (first, second) if key in src.meta]
        if len(given) == 1:
            raise UserError(f"{first.file} and {second.file} differ: only {given[0]} gives '{key}: ...'")
        if not given:
            continue
        a, b = (sorted(_key(m) for m in PLACEHOLDER.finditer(src.meta[key].text)) for src in (first, second))
        if a != b:
            raise UserError(f"{first.file} and {second.file} differ in '{key}:': placeholders {a} and {b}")
    if first.plain or second.plain:
        if len(first.sections) != len(second.sections):
            raise UserError(f"{first.file} and {second.file} differ: {len(first.sections)} sections and "
                            f"{len(second.sections)} (a text in ordinary Markdown is paired with its translation "
                            "section by section)")
    elif first.ids != second.ids:
        only = [i for i in first.ids if i not in second.ids] or [i for i in second.ids if i not in first.ids]
        detail = f"section '{only[0]}' is missing from one" if only else "the sections are in another order"
        raise UserError(f"{first.file} and {second.file} differ: {detail}")
    for number, (a, b) in enumerate(zip(first.sections, second.sections), 1):
        pa, pb = _section_keys(a), _section_keys(b)
        if pa != pb:
            extra = sorted(set(pa) ^ set(pb)) or sorted(pa)
            name = f"'{a.id}'" if not (first.plain or second.plain) else f"{number} ('{a.heading.text}')"
            raise UserError(f"{first.file} and {second.file} differ in section {name}: "
                            f"placeholders {', '.join(extra)} (each must appear as often in both)")


def _section_keys(section: Section) -> list[str]:
    keys = [_key(m) for m in PLACEHOLDER.finditer(section.heading.text)]
    for block in section.blocks:
        if block.kind in ("cards", "tokens", "components", "onepage", "newpage"):
            keys.append("{" + block.kind + "}")
        elif block.kind == "figure":
            keys.append("{figure:" + block.args[0] + "}")
        elif block.kind in ("table", "setup"):
            keys.append("{" + block.kind + ":" + ",".join(sorted(block.args)) + "}")
        for item in block.items:
            for piece in item:
                keys.extend(_key(match) for match in PLACEHOLDER.finditer(piece.text))
    return sorted(keys)


def _table(first: str, rest: list[str], file: str, number: int, fail, kind: str = "table") -> Block:
    """``{table:key=label|key=label|...}`` (``{setup:...}`` the same): the labels become the block's
    items, the keys its args."""
    keys, labels = [], []
    for part in (first, *rest):
        key, sep, label = part.partition("=")
        key, label = key.strip(), label.strip()
        if not sep or not re.fullmatch(r"[a-z][a-z0-9-]*", key) or not label:
            raise fail(number, f"a table picture is {{{kind}:key=label|key=label|...}}, e.g. {{{kind}:pile=Draw pile|...}}")
        if key in keys:
            raise fail(number, f"the table picture's label '{key}' is given twice")
        keys.append(key)
        labels.append((Piece(label, file, number),))
    return Block(kind, tuple(labels), number, tuple(keys))


def _key(match: re.Match) -> str:
    """A placeholder without its noun forms: ``{count:witch}``."""
    return "{" + match.group(1) + (":" + match.group(2) if match.group(2) else "") + "}"
