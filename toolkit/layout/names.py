"""What a deck's layout names, read without drawing anything (no Pillow, no checks): which layout file
a deck is drawn with, the files it names (its own icons and font files) and the card values it uses
(``{value}`` in a text or a colour, ``when = "value"``, an art element's ``field``).

The command line lists the files among a run's inputs, which no output may overwrite; the loader
asks which values are used, to tell a column of the user's own from a misspelt one. A layout that
cannot be read here names nothing: drawing with it says what is wrong, in one line.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

DEFAULT_LAYOUT = Path(__file__).with_name("default.toml")
_TEMPLATE = re.compile(r"\{([A-Za-z0-9_]+)\}")
_WHEN = re.compile(r"\s*!?([A-Za-z0-9_]+)")
_MOST_BYTES = 1_000_000  # as layout.model reads


def layout_file(catalogue) -> Path:
    """The layout a deck is drawn with: the catalogue's own (``game.layout``), else its game's
    (``Game.layout_file``), else the default one."""
    return deck_layout(catalogue.layout_file, catalogue.game)


def deck_layout(own: Path | None, game_id: str | None) -> Path:
    """The layout of a deck whose catalogue names ``own`` (or None) for the game ``game_id``."""
    if own is not None:
        return own
    from toolkit.games.registry import games

    game = games().get(game_id)
    found = game.layout_file if game is not None else None
    return found if found is not None else DEFAULT_LAYOUT


def _document(path: Path) -> dict:
    try:
        if path.stat().st_size > _MOST_BYTES:
            return {}
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):  # TOMLDecodeError is a ValueError
        return {}


def _elements(doc: dict):
    """Every element table of the layout: the base's, each kind's and the back's, and those of each
    card size's own tables (``[sizes.<size>]``)."""
    sizes = doc.get("sizes")
    if isinstance(sizes, dict):
        for over in sizes.values():
            if isinstance(over, dict):
                yield from _elements({k: v for k, v in over.items() if k != "sizes"})
    tables = [doc.get("elements"), (doc.get("back") or {}).get("elements") if isinstance(doc.get("back"), dict)
              else None]
    kinds = doc.get("kinds")
    if isinstance(kinds, dict):
        tables += [kind.get("elements") for kind in kinds.values() if isinstance(kind, dict)]
    for table in tables:
        if isinstance(table, dict):
            yield from (element for element in table.values() if isinstance(element, dict))


def layout_files(path: Path) -> dict[str, Path]:
    """The files the layout at ``path`` names, by what they are: its icons (``[icons]``) and its font
    files (an element's ``font = "Hand.ttf"``), each beside the layout."""
    doc = _document(path)
    found: dict[str, Path] = {}
    icons = doc.get("icons")
    if isinstance(icons, dict):
        found.update({f"the icon {name} of the layout": (path.parent / file).resolve()
                      for name, file in icons.items() if isinstance(file, str)})
    for element in _elements(doc):
        font = element.get("font")
        if isinstance(font, str) and font.lower().endswith((".ttf", ".otf")):
            found[f"the font {font} of the layout"] = (path.parent / font).resolve()
    return found


def names_used(path: Path) -> set[str]:
    """The card values the layout at ``path`` uses by name: in a template (``{value}``) of any key, in
    ``when``, and as an art element's ``field``."""
    used: set[str] = set()
    for element in _elements(_document(path)):
        for key, value in element.items():
            if not isinstance(value, str):
                continue
            used.update(_TEMPLATE.findall(value))
            if key == "when" and (match := _WHEN.match(value)):
                used.add(match.group(1))
            elif key == "field":
                used.add(value.strip())
    return used


def picture_fields(path: Path) -> set[str]:
    """The card values that name a picture for an art element of the layout at ``path`` (its ``field``,
    other than the card's ``art``)."""
    return {element["field"].strip() for element in _elements(_document(path))
            if element.get("type") == "art" and isinstance(element.get("field"), str)} - {"art"}
