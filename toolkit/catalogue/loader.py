"""Read a catalogue TOML file, check every field, and build the frozen model.

Every problem is reported as a UserError whose message reads
``<file>: <key path>: <what is wrong>``, e.g. ``diamoniak.toml: cards[5].count: ...``.

Art files are looked up, in order, next to the catalogue file, in ``./card_art`` of the current
directory, and in the art that ships with the package (``card_art/`` of the source tree).
"""

from __future__ import annotations

import re
import string
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterable

from babel import Locale

from toolkit.catalogue.model import (
    COLOURED_KINDS,
    GAME_KINDS,
    GAME_RULES,
    LANGS,
    SYMBOLS,
    Catalogue,
    CardType,
    Colour,
    Text,
    Token,
)
from toolkit.errors import UserError

BUILTIN_GAMES = ("diamoniak", "palaces")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_RGB = re.compile(r"^#[0-9a-fA-F]{6}$")
_LANG_NAMES = {"ru": "Russian", "en": "English"}


def builtin_path(game: str) -> Path:
    return Path(str(files("toolkit.catalogue").joinpath(f"{game}.toml")))


_PACKAGE = Path(__file__).resolve().parent.parent
# The art that ships with the toolkit: card_art/ beside the package in a source tree or an editable
# install, toolkit/card_art/ inside an installed wheel (pyproject.toml maps it there).
SHIPPED_ART = next(
    (folder for folder in (_PACKAGE.parent / "card_art", _PACKAGE / "card_art") if folder.is_dir()),
    _PACKAGE.parent / "card_art",
)


def art_dirs(catalogue_file: Path) -> list[Path]:
    """Folders searched for art, first match wins."""
    return [catalogue_file.parent, Path.cwd() / "card_art", SHIPPED_ART]


def load(
    game: str | None = None,
    path: str | Path | None = None,
    overrides: Iterable[str] = (),
    require_art: bool = True,
) -> Catalogue:
    """Load a built-in game's catalogue or a user's file, then apply ``--set ID=N`` overrides."""
    if path is None:
        game = game or "diamoniak"
        if game not in BUILTIN_GAMES:
            raise UserError(f"--game: unknown game '{game}' (choose from {', '.join(BUILTIN_GAMES)})")
        path = builtin_path(game)
    catalogue = _Reader(Path(path), require_art).read()
    return apply_overrides(catalogue, overrides)


def parse_override(text: str) -> tuple[str, int]:
    card_id, sep, value = text.partition("=")
    card_id, value = card_id.strip(), value.strip()
    if not sep or not card_id:
        raise UserError(f"--set {text}: expected ID=N, e.g. --set witch=8")
    if not value.isdigit():
        raise UserError(f"--set {text}: the count must be a whole number >= 0, got '{value}'")
    return card_id, int(value)


def apply_overrides(catalogue: Catalogue, overrides: Iterable[str]) -> Catalogue:
    counts: dict[str, int] = {}
    known = {card.id for card in catalogue.cards}
    for text in overrides:
        card_id, count = parse_override(text)
        if card_id not in known:
            raise UserError(
                f"--set {text}: no card with id '{card_id}' in {catalogue.source.name} "
                f"(ids: {', '.join(sorted(known))})"
            )
        counts[card_id] = count
    return catalogue.with_counts(counts) if counts else catalogue


class _PluralFormatter(string.Formatter):
    """``{price:diamond|diamonds}`` -> ``3 diamonds``; Russian takes three forms (one|few|many)."""

    def __init__(self, lang: str):
        self.lang = lang
        self.locale = Locale.parse(lang)

    def format_field(self, value: Any, spec: str) -> str:
        if not spec:
            return str(value)
        forms = spec.split("|")
        order = ("one", "few", "many") if self.lang == "ru" else ("one", "other")
        if len(forms) != len(order):
            raise ValueError(f"'{spec}' needs {len(order)} forms ({'|'.join(order)})")
        category = self.locale.plural_form(value)
        index = order.index(category) if category in order else len(order) - 1
        return f"{value} {forms[index]}"


class _Reader:
    def __init__(self, path: Path, require_art: bool):
        self.path = path
        self.require_art = require_art
        self.name = path.name

    def fail(self, where: str, what: str) -> UserError:
        return UserError(f"{self.name}: {where}: {what}")

    # --- generic field checks -------------------------------------------------------------------

    def table(self, data: Any, where: str, required: set[str], optional: set[str] = frozenset()) -> dict:
        if not isinstance(data, dict):
            raise self.fail(where, f"expected a table, got {_kind(data)}")
        for key in data:
            if key not in required | optional:
                raise self.fail(f"{where}.{key}" if where else key, "unknown key")
        for key in sorted(required):
            if key not in data:
                raise self.fail(f"{where}.{key}" if where else key, "missing")
        return data

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"expected non-empty text, got {_kind(value)}")
        return value

    def ident(self, value: Any, where: str) -> str:
        value = self.string(value, where)
        if not _ID.match(value):
            raise self.fail(where, f"'{value}' is not an id (lower-case letters, digits and dashes)")
        return value

    def whole(self, value: Any, where: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected a whole number >= {minimum}, got {_kind(value)}")
        if value < minimum:
            raise self.fail(where, f"expected a whole number >= {minimum}, got {value}")
        return value

    def text(self, value: Any, where: str, what: str = "text", fields: dict[str, int] | None = None) -> Text:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table {{ ru = ..., en = ... }}, got {_kind(value)}")
        for key in value:
            if key not in LANGS:
                raise self.fail(f"{where}.{key}", "unknown language (use ru and en)")
        words = {}
        for lang in LANGS:
            if lang not in value:
                raise self.fail(f"{where}.{lang}", f"missing {_LANG_NAMES[lang]} {what}")
            words[lang] = self.string(value[lang], f"{where}.{lang}")
            if fields is not None:
                try:
                    words[lang] = _PluralFormatter(lang).vformat(words[lang], (), fields)
                except KeyError as err:
                    raise self.fail(
                        f"{where}.{lang}", f"unknown placeholder {{{err.args[0]}}} (rules: {', '.join(fields)})"
                    ) from None
                except (ValueError, IndexError) as err:
                    raise self.fail(f"{where}.{lang}", f"bad placeholder: {err}") from None
        return Text(**words)

    def range_(self, value: Any, where: str, minimum: int) -> tuple[int, int]:
        data = self.table(value, where, {"min", "max"})
        low = self.whole(data["min"], f"{where}.min", minimum)
        high = self.whole(data["max"], f"{where}.max", minimum)
        if high < low:
            raise self.fail(where, f"max ({high}) is less than min ({low})")
        return low, high

    def art(self, value: Any, where: str) -> tuple[str, Path | None]:
        relative = self.string(value, where)
        if Path(relative).is_absolute():
            candidates = [Path(relative)]
        else:
            candidates = [folder / relative for folder in art_dirs(self.path)]
        for candidate in candidates:
            if candidate.is_file():
                return relative, candidate
        if self.require_art:
            raise self.fail(where, f"art file '{relative}' does not exist (run 'toolkit art' to draw it)")
        return relative, None

    # --- the document ---------------------------------------------------------------------------

    def read(self) -> Catalogue:
        try:
            raw = self.path.read_bytes()
        except OSError as err:
            raise UserError(f"{self.path}: cannot read the catalogue: {err.strerror or err}") from None
        try:
            doc = tomllib.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise UserError(f"{self.name}: the file is not UTF-8 text") from None
        except tomllib.TOMLDecodeError as err:
            raise UserError(f"{self.name}: not valid TOML: {err}") from None

        self.table(doc, "", {"game", "rules", "colours", "cards"}, {"tokens"})
        game = self.table(
            doc["game"], "game", {"id", "title", "players", "age", "minutes", "back_art"}, {"note"}
        )
        game_id = self.ident(game["id"], "game.id")
        if game_id not in GAME_KINDS:
            raise self.fail("game.id", f"unknown game '{game_id}' (the engines know {', '.join(GAME_KINDS)})")
        rules = self.rules(doc["rules"], game_id)
        colours = self.colours(doc["colours"])
        cards = self.cards(doc["cards"], game_id, colours, rules)
        tokens = self.tokens(doc.get("tokens", []))
        back_art, back_art_path = self.art(game["back_art"], "game.back_art")
        return Catalogue(
            game=game_id,
            source=self.path,
            title=self.text(game["title"], "game.title", "title"),
            players=self.range_(game["players"], "game.players", 1),
            age=self.whole(game["age"], "game.age"),
            minutes=self.range_(game["minutes"], "game.minutes", 1),
            note=self.text(game["note"], "game.note", "note") if "note" in game else Text("", ""),
            back_art=back_art,
            back_art_path=back_art_path,
            rules=rules,
            colours=colours,
            cards=cards,
            tokens=tokens,
        )

    def rules(self, data: Any, game_id: str) -> dict[str, int]:
        names = set(GAME_RULES[game_id])
        data = self.table(data, "rules", names)
        return {name: self.whole(data[name], f"rules.{name}", 1) for name in GAME_RULES[game_id]}

    def array(self, data: Any, where: str) -> list:
        if not isinstance(data, list):
            raise self.fail(where, f"expected an array of tables ([[{where}]]), got {_kind(data)}")
        return data

    def unique(self, seen: set[str], value: str, where: str, what: str) -> None:
        if value in seen:
            raise self.fail(where, f"duplicate {what} id '{value}'")
        seen.add(value)

    def colours(self, data: Any) -> tuple[Colour, ...]:
        result, seen = [], set()
        for i, item in enumerate(self.array(data, "colours")):
            where = f"colours[{i}]"
            item = self.table(item, where, {"id", "name", "rgb", "symbol"})
            colour_id = self.ident(item["id"], f"{where}.id")
            self.unique(seen, colour_id, f"{where}.id", "colour")
            rgb = self.string(item["rgb"], f"{where}.rgb")
            if not _RGB.match(rgb):
                raise self.fail(f"{where}.rgb", f"'{rgb}' is not a colour like \"#d7263d\"")
            symbol = self.string(item["symbol"], f"{where}.symbol")
            if symbol not in SYMBOLS:
                raise self.fail(f"{where}.symbol", f"unknown symbol '{symbol}' (choose from {', '.join(SYMBOLS)})")
            symbols = [c.symbol for c in result]
            if symbol in symbols:
                raise self.fail(f"{where}.symbol", f"symbol '{symbol}' is already used by another colour")
            result.append(Colour(colour_id, self.text(item["name"], f"{where}.name", "name"), rgb.lower(), symbol))
        return tuple(result)

    def cards(self, data: Any, game_id: str, colours: tuple[Colour, ...], rules: dict[str, int]) -> tuple[CardType, ...]:
        kinds = GAME_KINDS[game_id]
        colour_ids = [c.id for c in colours]
        result, seen = [], set()
        items = self.array(data, "cards")
        if not items:
            raise self.fail("cards", "the deck has no card types")
        for i, item in enumerate(items):
            where = f"cards[{i}]"
            item = self.table(item, where, {"id", "kind", "count", "name", "text", "art"}, {"colour"})
            card_id = self.ident(item["id"], f"{where}.id")
            self.unique(seen, card_id, f"{where}.id", "card")
            kind = self.string(item["kind"], f"{where}.kind")
            if kind not in kinds:
                raise self.fail(f"{where}.kind", f"unknown kind '{kind}' for {game_id} (choose from {', '.join(kinds)})")
            colour = item.get("colour")
            if kind in COLOURED_KINDS:
                if colour is None:
                    raise self.fail(f"{where}.colour", f"missing: a {kind} card needs a colour")
                colour = self.string(colour, f"{where}.colour")
                if colour not in colour_ids:
                    raise self.fail(f"{where}.colour", f"unknown colour '{colour}' (colours: {', '.join(colour_ids)})")
            elif colour is not None:
                raise self.fail(f"{where}.colour", f"a {kind} card has no colour")
            art, art_path = self.art(item["art"], f"{where}.art")
            result.append(
                CardType(
                    id=card_id,
                    kind=kind,
                    colour=colour,
                    count=self.whole(item["count"], f"{where}.count"),
                    name=self.text(item["name"], f"{where}.name", "name"),
                    text=self.text(item["text"], f"{where}.text", "card text", fields=rules),
                    art=art,
                    art_path=art_path,
                )
            )
        return tuple(result)

    def tokens(self, data: Any) -> tuple[Token, ...]:
        result, seen = [], set()
        for i, item in enumerate(self.array(data, "tokens")):
            where = f"tokens[{i}]"
            item = self.table(item, where, {"id", "value", "count", "name"})
            token_id = self.ident(item["id"], f"{where}.id")
            self.unique(seen, token_id, f"{where}.id", "token")
            result.append(
                Token(
                    id=token_id,
                    value=self.whole(item["value"], f"{where}.value", 1),
                    count=self.whole(item["count"], f"{where}.count"),
                    name=self.text(item["name"], f"{where}.name", "name"),
                )
            )
        return tuple(result)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"'{value}'" if value.strip() else "empty text"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
