"""Read a catalogue TOML file, check every field, and build the frozen model.

Every problem is reported as a UserError whose message reads
``<file>: <key path>: <what is wrong>``, e.g. ``diamoniak.toml: cards[5].count: ...``.

Art files are looked up, in order, next to the catalogue file, in ``./card_art`` of the current
directory, and in the art that ships with the game (its ``Game.art_folder``). An art
path is relative and stays inside those folders (no ``..``), so ``toolkit art`` writes only inside
its ``--out-dir``.

Whatever a file holds, loading it either returns a catalogue or raises one UserError of one line:
every number has a range (model.py), every text is one line the PT fonts can draw, and only
plain rule names are placeholders.
"""

from __future__ import annotations

import os
import re
import stat
import string
import tomllib
from pathlib import Path
from typing import Any, Iterable


from toolkit.catalogue.model import (
    AGE,
    LANGS,
    MAX_CATALOGUE_BYTES,
    MAX_CARD_TYPES,
    MAX_COUNT,
    MAX_DECK,
    MAX_ID_CHARS,
    MAX_NAME_CHARS,
    MAX_TEXT_CHARS,
    MAX_TOKEN_COUNT,
    MAX_TOKENS,
    MINUTES,
    PLAYERS,
    RESERVED_CARD_IDS,
    SECONDS_PER_TURN,
    SYMBOLS,
    TOKEN_VALUE,
    Catalogue,
    CardType,
    Colour,
    Text,
    Token,
)
from toolkit.catalogue.checks import check_art_path, open_art, printable, quote, text_problem
from toolkit.errors import UserError
from toolkit.plurals import FORMS, plural

_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_RGB = re.compile(r"^#[0-9a-fA-F]{6}$")
_DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes '²' and '٣'
_RULE_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
_LANG_NAMES = {"ru": "Russian", "en": "English"}

# The keys of each table: (required, optional). docs/generate.py writes docs/catalogue.md's reference
# from these and model.py's limits, and the messages of a wrong or missing key name that page.
DOCUMENT_KEYS = ({"game", "rules", "colours", "cards"}, {"tokens"})
GAME_KEYS = ({"id", "title", "players", "age", "minutes", "back_art"}, {"note", "seconds_per_turn", "original", "publisher"})
COLOUR_KEYS = ({"id", "name", "rgb", "symbol"}, set())
CARD_KEYS = ({"id", "kind", "count", "name", "text", "art"}, {"colour"})
TOKEN_KEYS = ({"id", "value", "count", "name"}, set())
DOCS_PAGE = "docs/catalogue.md"


def builtin_path(game: str) -> Path:
    """The catalogue that ships with a registered game."""
    from toolkit.games.registry import get

    return get(game).catalogue_file


def art_dirs(catalogue_file: Path, game) -> list[Path]:
    """Folders searched for the art of a catalogue of ``game`` (a toolkit.games.game.Game), first match wins."""
    return [catalogue_file.parent, Path.cwd() / "card_art", game.art_folder]


def load(
    game: str | None = None,
    path: str | Path | None = None,
    overrides: Iterable[str] = (),
    require_art: bool = True,
) -> Catalogue:
    """Load a built-in game's catalogue or a user's file, then apply ``--set ID=N`` overrides."""
    if path is None:
        from toolkit.games.registry import default_id, ids

        game = game or default_id()
        if game not in ids():
            raise UserError(f"--game: unknown game {quote(game)} (choose from {', '.join(ids())})")
        path = builtin_path(game)
    catalogue = _Reader(Path(path), require_art).read()
    return apply_overrides(catalogue, overrides)


def parse_override(text: str) -> tuple[str, int]:
    """``witch=8`` -> ``("witch", 8)``; the count in ASCII digits, 0 to MAX_COUNT."""
    shown = quote(text, "")
    card_id, sep, value = text.partition("=")
    card_id, value = card_id.strip(), value.strip()
    if not sep or not card_id:
        raise UserError(f"--set {shown}: expected ID=N, e.g. --set witch=8")
    if not _DIGITS.fullmatch(value) or len(value) > 9 or int(value) > MAX_COUNT:
        raise UserError(
            f"--set {shown}: the count must be a whole number from 0 to {MAX_COUNT} in digits 0-9, "
            f"got {quote(value)}"
        )
    return card_id, int(value)


def apply_overrides(catalogue: Catalogue, overrides: Iterable[str]) -> Catalogue:
    """The catalogue with ``--set ID=N`` counts applied; the deck keeps to MAX_DECK cards."""
    counts: dict[str, int] = {}
    known = [card.id for card in catalogue.cards]
    texts = list(overrides)
    for text in texts:
        card_id, count = parse_override(text)
        if card_id not in known:
            ids = ", ".join(sorted(known)[:12]) + (", ..." if len(known) > 12 else "")
            raise UserError(
                f"--set {quote(text, '')}: no card with id {quote(card_id)} in {printable(catalogue.source.name)} "
                f"(ids: {ids})"
            )
        if card_id in counts:
            raise UserError(f"--set {quote(text, '')}: the count of {quote(card_id)} is set twice: give it once")
        counts[card_id] = count
    if not counts:
        return catalogue
    changed = catalogue.with_counts(counts)
    if changed.total > MAX_DECK:
        raise UserError(
            f"{quote(' '.join(f'--set {text}' for text in texts), '', 80)}: the deck would have {changed.total} cards, "
            f"at most {MAX_DECK}"
        )
    return changed


class _PluralFormatter(string.Formatter):
    """``{price:diamond|diamonds}`` -> ``3 diamonds``; Russian takes three forms (one|few|many)."""

    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        if not spec:
            return str(value)
        forms = spec.split("|")
        order = FORMS[self.lang]
        if len(forms) != len(order):
            raise ValueError(f"{quote(spec)} needs {len(order)} forms ({'|'.join(order)})")
        return f"{value} {plural(value, forms, self.lang, spec)}"


class _Reader:
    def __init__(self, path: Path, require_art: bool):
        self.path = path
        self.require_art = require_art
        self.name = printable(path.name)

    def fail(self, where: str, what: str) -> UserError:
        return UserError(f"{self.name}: {where}: {what}")

    # --- generic field checks -------------------------------------------------------------------

    def table(self, data: Any, where: str, required: set[str], optional: set[str] = frozenset()) -> dict:
        if not isinstance(data, dict):
            raise self.fail(where, f"expected a table, got {_kind(data)}")
        for key in data:
            if key not in required | optional:
                key = _key(key)
                raise self.fail(f"{where}.{key}" if where else key, f"unknown key (the keys: {DOCS_PAGE})")
        for key in sorted(required):
            if key not in data:
                raise self.fail(f"{where}.{key}" if where else key, f"missing (the keys: {DOCS_PAGE})")
        return data

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"expected non-empty text, got {_kind(value)}")
        return value

    def ident(self, value: Any, where: str) -> str:
        value = self.string(value, where)
        if not _ID.fullmatch(value):
            raise self.fail(where, f"{quote(value)} is not an id (lower-case letters, digits and dashes)")
        if len(value) > MAX_ID_CHARS:
            raise self.fail(where, f"too long: {len(value)} characters, at most {MAX_ID_CHARS}")
        return value

    def whole(self, value: Any, where: str, bounds: tuple[int, int]) -> int:
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            got = value if type(value) is int and abs(value) < 10**15 else _kind(value)
            raise self.fail(where, f"expected a whole number from {low} to {high}, got {got}")
        return value

    def line(self, value: Any, where: str, limit: int) -> str:
        """Non-empty text of at most ``limit`` characters that the PT fonts can print."""
        value = self.string(value, where)
        if len(value) > limit:
            raise self.fail(where, f"too long: {len(value)} characters, at most {limit}")
        problem = text_problem(value)
        if problem:
            raise self.fail(where, problem)
        return value

    def text(self, value: Any, where: str, what: str = "text", fields: dict[str, int] | None = None) -> Text:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table {{ ru = ..., en = ... }}, got {_kind(value)}")
        for key in value:
            if key not in LANGS:
                key = _key(key)
                raise self.fail(f"{where}.{key}", "unknown language (use ru and en)")
        limit = MAX_NAME_CHARS if what in ("name", "title") else MAX_TEXT_CHARS
        words = {}
        for lang in LANGS:
            if lang not in value:
                raise self.fail(f"{where}.{lang}", f"missing {_LANG_NAMES[lang]} {what}")
            words[lang] = self.line(value[lang], f"{where}.{lang}", limit)
            if fields is not None:
                words[lang] = self.fill(words[lang], f"{where}.{lang}", lang, fields)
        return Text(**words)

    def fill(self, text: str, where: str, lang: str, fields: dict[str, int]) -> str:
        """Replace ``{rule}`` and ``{rule:form|forms}`` by the rule's value; ``{{`` and ``}}`` are
        braces. Only a plain rule name is a placeholder: str.format would also evaluate attributes
        (``{price.__class__}``), indexes and conversions."""
        formatter = _PluralFormatter(lang)
        try:
            parts = list(formatter.parse(text))
        except ValueError:
            raise self.fail(where, "bad placeholder: a lone '{' or '}' (write {{ or }} for a brace)") from None
        out = []
        for literal, name, spec, conversion in parts:
            out.append(literal)
            if name is None:
                continue
            if conversion is not None or not _RULE_NAME.fullmatch(name) or "{" in spec or "}" in spec:
                written = "{" + name + (f"!{conversion}" if conversion is not None else "") + (f":{spec}" if spec else "") + "}"
                raise self.fail(
                    where, f"bad placeholder {quote(written)}: write a rule name, e.g. {{price}} or {{price:diamond|diamonds}}"
                )
            if name not in fields:
                raise self.fail(where, f"unknown placeholder {quote('{' + name + '}', '')} (rules: {', '.join(fields)})")
            try:
                out.append(formatter.format_field(fields[name], spec))
            except ValueError as err:
                raise self.fail(where, f"bad placeholder: {err}") from None
        return "".join(out)

    def range_(self, value: Any, where: str, bounds: tuple[int, int]) -> tuple[int, int]:
        data = self.table(value, where, {"min", "max"})
        low = self.whole(data["min"], f"{where}.min", bounds)
        high = self.whole(data["max"], f"{where}.max", bounds)
        if high < low:
            raise self.fail(where, f"max ({high}) is less than min ({low})")
        return low, high

    def art(self, value: Any, where: str) -> tuple[str, Path | None]:
        """The art path as written and the file it names in the first art folder that has it.

        Only a relative path that stays inside the folder is accepted, so that reading and
        ``toolkit art``'s writing stay in the folders the user chose. With ``require_art`` the file
        must exist and be a picture of at most MAX_ART_PIXELS (only its header is read here)."""
        relative = self.string(value, where)
        check_art_path(relative, f"{self.name}: {where}")
        shown = quote(relative)
        folder_found = other_found = False
        for folder in art_dirs(self.path, self.schema):
            candidate = folder / relative
            try:
                mode = candidate.stat().st_mode
            except (OSError, ValueError):
                continue
            if stat.S_ISREG(mode):
                if self.require_art:
                    open_art(candidate, f"{self.name}: {where}", relative).close()
                return relative, candidate
            folder_found = folder_found or stat.S_ISDIR(mode)
            other_found = other_found or not stat.S_ISDIR(mode)
        if not self.require_art:
            return relative, None
        if folder_found:
            raise self.fail(where, f"art file {shown} is a folder, not an image")
        if other_found:
            raise self.fail(where, f"art file {shown} is not a regular file")
        raise self.fail(where, f"art file {shown} does not exist (run 'toolkit art' to draw it)")

    # --- the document ---------------------------------------------------------------------------

    def read_bytes(self) -> bytes:
        """The file's bytes: a regular file of at most MAX_CATALOGUE_BYTES. The path is looked at
        before it is opened (a FIFO would block, /dev/zero never ends), and opened without blocking
        and checked again in case it changed in between."""
        where = printable(str(self.path))
        limit = f"at most {MAX_CATALOGUE_BYTES // 1_000_000} MB"
        try:
            mode = self.path.stat().st_mode
            if stat.S_ISDIR(mode):
                raise UserError(f"{where}: is a folder, not a catalogue file")
            if not stat.S_ISREG(mode):
                raise UserError(f"{where}: is not a regular file, so not a catalogue file")
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    raise UserError(f"{where}: is not a regular file, so not a catalogue file")
                raw = handle.read(MAX_CATALOGUE_BYTES + 1)
        except (OSError, ValueError) as err:
            message = getattr(err, "strerror", None) or str(err)
            raise UserError(f"{where}: cannot read the catalogue: {printable(message)}") from None
        if len(raw) > MAX_CATALOGUE_BYTES:
            raise UserError(f"{self.name}: the file is larger than a catalogue may be ({limit})")
        return raw

    def read(self) -> Catalogue:
        raw = self.read_bytes()
        try:
            doc = tomllib.loads(raw.decode("utf-8-sig"))  # -sig: a byte-order mark at the start is fine
        except UnicodeDecodeError:
            raise UserError(f"{self.name}: the file is not UTF-8 text") from None
        except tomllib.TOMLDecodeError as err:
            raise UserError(f"{self.name}: not valid TOML: {printable(str(err))}") from None
        except ValueError:  # tomllib's int() of a number longer than Python converts
            raise UserError(f"{self.name}: not valid TOML: a number with far too many digits") from None
        except RecursionError:
            raise UserError(f"{self.name}: not valid TOML: arrays or tables nested too deeply") from None

        self.table(doc, "", *DOCUMENT_KEYS)
        game = self.table(doc["game"], "game", *GAME_KEYS)
        game_id = self.ident(game["id"], "game.id")
        from toolkit.games.registry import games

        if game_id not in games():
            raise self.fail("game.id", f"unknown game {quote(game_id)} (the toolkit knows {', '.join(games())})")
        schema = self.schema = games()[game_id]
        rules = self.rules(doc["rules"], schema)
        colours = self.colours(doc["colours"])
        cards = self.cards(doc["cards"], schema, colours, rules)
        tokens = self.tokens(doc.get("tokens", []), {card.id for card in cards})
        back_art, back_art_path = self.art(game["back_art"], "game.back_art")
        return Catalogue(
            game=game_id,
            source=self.path,
            title=self.text(game["title"], "game.title", "title"),
            players=self.range_(game["players"], "game.players", PLAYERS),
            age=self.whole(game["age"], "game.age", AGE),
            minutes=self.range_(game["minutes"], "game.minutes", MINUTES),
            note=self.text(game["note"], "game.note", "note") if "note" in game else Text("", ""),
            back_art=back_art,
            back_art_path=back_art_path,
            rules=rules,
            colours=colours,
            cards=cards,
            tokens=tokens,
            seconds_per_turn=(self.whole(game["seconds_per_turn"], "game.seconds_per_turn", SECONDS_PER_TURN)
                              if "seconds_per_turn" in game else None),
            original=self.text(game["original"], "game.original", "title") if "original" in game else Text("", ""),
            publisher=self.text(game["publisher"], "game.publisher", "name") if "publisher" in game else Text("", ""),
            counts_on_file={card.id: card.count for card in cards},
        )

    def rules(self, data: Any, game) -> dict[str, int]:
        data = self.table(data, "rules", set(game.rules))
        rules = {name: self.whole(data[name], f"rules.{name}", span) for name, span in game.rules.items()}
        # Sanity between rules that needs no engine (what depends on the counts, which --set can
        # change, is the engines' set-up check).
        problem = game.check_rules(rules)
        if problem is not None:
            raise self.fail(f"rules.{problem[0]}", problem[1])
        return rules

    def array(self, data: Any, where: str) -> list:
        if not isinstance(data, list):
            raise self.fail(where, f"expected an array of tables ([[{where}]]), got {_kind(data)}")
        return data

    def unique(self, seen: set[str], value: str, where: str, what: str) -> None:
        if value in seen:
            raise self.fail(where, f"duplicate {what} id {quote(value)}")
        seen.add(value)

    def colours(self, data: Any) -> tuple[Colour, ...]:
        result, seen = [], set()
        for i, item in enumerate(self.array(data, "colours")):
            where = f"colours[{i}]"
            item = self.table(item, where, *COLOUR_KEYS)
            colour_id = self.ident(item["id"], f"{where}.id")
            self.unique(seen, colour_id, f"{where}.id", "colour")
            rgb = self.string(item["rgb"], f"{where}.rgb")
            if not _RGB.fullmatch(rgb):
                raise self.fail(f"{where}.rgb", f"{quote(rgb)} is not a colour like \"#d7263d\"")
            symbol = self.string(item["symbol"], f"{where}.symbol")
            if symbol not in SYMBOLS:
                raise self.fail(f"{where}.symbol", f"unknown symbol {quote(symbol)} (choose from {', '.join(SYMBOLS)})")
            symbols = [c.symbol for c in result]
            if symbol in symbols:
                raise self.fail(f"{where}.symbol", f"symbol '{symbol}' is already used by another colour")
            result.append(Colour(colour_id, self.text(item["name"], f"{where}.name", "name"), rgb.lower(), symbol))
        return tuple(result)

    def cards(self, data: Any, game, colours: tuple[Colour, ...], rules: dict[str, int]) -> tuple[CardType, ...]:
        kinds, game_id = game.kinds, game.id
        colour_ids = [c.id for c in colours]
        result, seen = [], set()
        items = self.array(data, "cards")
        if not items:
            raise self.fail("cards", "the deck has no card types")
        if len(items) > MAX_CARD_TYPES:
            raise self.fail("cards", f"{len(items)} card types, at most {MAX_CARD_TYPES}")
        for i, item in enumerate(items):
            where = f"cards[{i}]"
            item = self.table(item, where, *CARD_KEYS)
            card_id = self.ident(item["id"], f"{where}.id")
            if card_id in RESERVED_CARD_IDS:
                raise self.fail(
                    f"{where}.id", f"'{card_id}' is reserved: exports name the card back's file after it"
                )
            self.unique(seen, card_id, f"{where}.id", "card")
            kind = self.string(item["kind"], f"{where}.kind")
            if kind not in kinds:
                raise self.fail(f"{where}.kind", f"unknown kind {quote(kind)} for {game_id} (choose from {', '.join(kinds)})")
            colour = item.get("colour")
            if kind in game.coloured_kinds:
                if colour is None:
                    raise self.fail(f"{where}.colour", f"missing: a {kind} card needs a colour")
                colour = self.string(colour, f"{where}.colour")
                if colour not in colour_ids:
                    raise self.fail(f"{where}.colour", f"unknown colour {quote(colour)} (colours: {', '.join(colour_ids)})")
            elif colour is not None:
                raise self.fail(f"{where}.colour", f"a {kind} card has no colour")
            art, art_path = self.art(item["art"], f"{where}.art")
            result.append(
                CardType(
                    id=card_id,
                    kind=kind,
                    colour=colour,
                    count=self.whole(item["count"], f"{where}.count", (0, MAX_COUNT)),
                    name=self.text(item["name"], f"{where}.name", "name"),
                    text=self.text(item["text"], f"{where}.text", "card text", fields=rules),
                    art=art,
                    art_path=art_path,
                )
            )
        total = sum(card.count for card in result)
        if total > MAX_DECK:
            raise self.fail("cards", f"the deck has {total} cards, at most {MAX_DECK}")
        return tuple(result)

    def tokens(self, data: Any, card_ids: set[str]) -> tuple[Token, ...]:
        """The tokens; their ids differ from every card id and from the reserved ids, since exports
        name a token's picture after its id beside the cards' (``<id>.png``)."""
        result, seen = [], set()
        for i, item in enumerate(self.array(data, "tokens")):
            where = f"tokens[{i}]"
            item = self.table(item, where, *TOKEN_KEYS)
            token_id = self.ident(item["id"], f"{where}.id")
            if token_id in card_ids or token_id in RESERVED_CARD_IDS:
                what = "a card's id" if token_id in card_ids else "reserved for the card back's file"
                raise self.fail(f"{where}.id", f"{quote(token_id)} is {what}: give the token an id of its own")
            self.unique(seen, token_id, f"{where}.id", "token")
            result.append(
                Token(
                    id=token_id,
                    value=self.whole(item["value"], f"{where}.value", TOKEN_VALUE),
                    count=self.whole(item["count"], f"{where}.count", (0, MAX_TOKEN_COUNT)),
                    name=self.text(item["name"], f"{where}.name", "name"),
                )
            )
        total = sum(token.count for token in result)
        if total > MAX_TOKENS:
            raise self.fail("tokens", f"{total} tokens in all, at most {MAX_TOKENS}")
        return tuple(result)


def _key(key: str) -> str:
    """A TOML key as a key path shows it: bare when it can be, else quoted (and cut)."""
    return key if _BARE_KEY.fullmatch(key) else quote(key, '"')


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, int):
        if abs(value) >= 10**15:
            return f"a number of {len(str(abs(value)))} digits"
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return quote(value) if value.strip() else "empty text"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
