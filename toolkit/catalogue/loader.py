"""Read a catalogue TOML file, check every field, and build the frozen model.

Every problem is reported as a UserError whose message reads
``<file>: <key path>: <what is wrong>``, e.g. ``diamoniak.toml: cards[5].count: ...``.

Art files are looked up, in order, next to the catalogue file, in ``./card_art`` of the current
directory, and in the art that ships with the game (its ``Game.art_folder``). An art
path is relative and stays inside those folders (no ``..``, no link leading out), so ``toolkit art``
writes only inside its ``--out-dir``. The other files a catalogue names (its sheet, layout, icons,
fonts and texts) lie inside the catalogue's folder in the same way (``checks.inside``).

Whatever a file holds, loading it either returns a catalogue or raises one UserError of one line:
every number has a range (model.py), every text is one line the PT fonts can draw, and only
plain rule names are placeholders.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
import stat
import string
import tomllib
import unicodedata
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable


from toolkit.catalogue.model import (
    AGE,
    MAX_CATALOGUE_BYTES,
    MAX_CARD_TYPES,
    MAX_COUNT,
    MAX_DECK,
    MAX_FIELDS,
    FIELD_NUMBER,
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
from toolkit.catalogue.checks import (
    check_art_path, did_you_mean, inside, meant, open_art, printable, quote, text_problem,
)
from toolkit.catalogue.words import COUNTED_WORDS, WORD_KEYS, language_name
from toolkit.catalogue.sheet import MAX_SHEET_BYTES, SHEET_SUFFIXES, column_letter, is_sheet, read_cells
from toolkit.errors import UserError
from toolkit.plurals import plural, plural_forms

_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_RGB = re.compile(r"^#[0-9a-fA-F]{6}$")
_DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes '²' and '٣'
_RULE_NAME = re.compile(r"[a-z_][a-z0-9_]*")
FIELD_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
TITLED_WORDS = ("sheet_title", "book_title", "book_subject", "designer_title", "designer_subject")  # words that hold the deck's {title}
FILE_NAME_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_FIELD_INT = re.compile(r"-?(0|[1-9][0-9]{0,9})")  # a field's text that is a whole number ("007" stays text)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
_LANG = re.compile(r"[a-z]{2,3}")

# The keys of each table: (required, optional). docs/generate.py writes docs/catalogue.md's reference
# from these and model.py's limits, and the messages of a wrong or missing key name that page.
DOCUMENT_KEYS = ({"game", "rules", "colours", "cards"}, {"tokens", "words"})
FREE_DOCUMENT_KEYS = {"rules", "colours"}  # optional in a catalogue of a game without rules (RulesLessGame)
GAME_KEYS = ({"id", "title", "players", "age", "minutes"},
             {"back_art", "note", "seconds_per_turn", "langs", "layout", "icons", "fonts", "rulebook", "aid",
              "original", "publisher", "author"})
COLOUR_KEYS = ({"id", "name", "rgb", "symbol"}, set())
CARD_KEYS = ({"id", "kind", "count", "name", "text", "art"}, {"colour", "back"})
TOKEN_KEYS = ({"id", "value", "count", "name"}, set())
# A sheet's columns (one row per card type): the names and texts per language (name, name_<lang>,
# text, text_<lang>), the copies (one of COPIES_COLUMNS), the others below; any other column is a field.
COPIES_COLUMNS = ("count", "copies", "quantity")
SHEET_COLUMNS = ("id", "kind", "colour", "art", "back")
DEFAULT_KIND = "card"  # a card's kind in a sheet without a kind column
# A sheet given alone as the catalogue: what the game's table would say (a TOML naming the sheet says otherwise).
SHEET_GAME = {"players": (2, 4), "age": 8, "minutes": (15, 30), "back_art": "back.png"}
DOCS_PAGE = "docs/catalogue.md"


def builtin_path(game: str) -> Path:
    """The catalogue that ships with a registered game."""
    from toolkit.games.registry import get

    return get(game).catalogue_file


def art_dirs(catalogue_file: Path, game) -> list[Path]:
    """Folders searched for the art of a catalogue of ``game`` (a toolkit.games.game.Game), first match wins."""
    folders = [catalogue_file.parent, Path.cwd() / "card_art", game.art_folder]
    return [folder for folder in folders if folder is not None]


def url_art_dirs(assets: Path | None, game) -> list[Path]:
    """The art folders of a deck from a URL: the ``--assets`` folder (if given) and the game's shipped
    art, never the current folder's ``card_art`` (toolkit.catalogue.remote)."""
    return [folder for folder in (assets, game.art_folder) if folder is not None]


def catalogue_art_dirs(catalogue: Catalogue) -> list[Path]:
    """The folders ``catalogue``'s art was looked up in, first match wins."""
    from toolkit.games.registry import get

    if catalogue.url is not None:
        return url_art_dirs(catalogue.assets, get(catalogue.game))
    return art_dirs(catalogue.source, get(catalogue.game))


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
    from toolkit.catalogue.remote import fetched

    remote = fetched(path)
    try:
        catalogue = _Reader(Path(path), require_art, remote).read()
    except UserError as err:
        if remote is None:
            raise
        raise UserError(f"{remote.shown}: {err}") from None
    if remote is not None:
        catalogue = dataclasses.replace(catalogue, url=remote.shown, assets=remote.assets)
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


def check_lang(code: Any, fail) -> str:
    """``code`` as a language of a deck: two or three lower-case letters that CLDR knows (so that
    Babel has the language's plural rules), else ``fail(what is wrong)`` is raised."""
    if not isinstance(code, str) or not _LANG.fullmatch(code):
        shown = quote(code) if isinstance(code, str) else _kind(code)
        raise fail(f"{shown} is not a language code (two or three lower-case letters, e.g. en, de, fr)")
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        raise fail(f"{quote(code)} is not a language the toolkit knows (CLDR has no such code)") from None
    return code


class _PluralFormatter(string.Formatter):
    """``{price:diamond|diamonds}`` -> ``3 diamonds``; Russian takes three forms (one|few|many)."""

    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        if not spec:
            return str(value)
        forms = spec.split("|")
        order = plural_forms(self.lang)
        if len(forms) != len(order):
            raise ValueError(f"{quote(spec)} needs {len(order)} forms ({'|'.join(order)})")
        return f"{value} {plural(value, forms, self.lang, spec)}"


class _Reader:
    def __init__(self, path: Path, require_art: bool, remote=None, folder: Path | None = None):
        self.path = path
        self.require_art = require_art
        # A deck from a URL (toolkit.catalogue.remote.RemoteDeck): its folder is the --assets folder, or none.
        self.remote = remote
        self.folder = (remote.assets if folder is None else folder) if remote is not None else path.parent
        self.art_dropped = False  # a deck from a URL without --assets: its pictures are not drawn
        self.name = printable(path.name)
        self.backs_read: set[Path] = set()
        # the cards' own fields: where each is first given and what it is there (a column, a key)
        self.field_places: dict[str, tuple[str, str]] = {}
        self.layout_path: Path | None = None  # the layout the catalogue names, if any
        self.game_id: str | None = None
        self._layout_names: set[str] | None = None

    def fail(self, where: str, what: str) -> UserError:
        return UserError(f"{self.name}: {where}: {what}")

    # --- generic field checks -------------------------------------------------------------------

    def table(self, data: Any, where: str, required: set[str], optional: set[str] = frozenset()) -> dict:
        if not isinstance(data, dict):
            raise self.fail(where, f"expected a table, got {_kind(data)}")
        for key in data:
            if key not in required | optional:
                shown = _key(key)
                raise self.fail(f"{where}.{shown}" if where else shown,
                                f"unknown key{did_you_mean(key, required | optional)} (the keys: {DOCS_PAGE})")
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
        """A text in every language of the deck (``self.langs``), in the order the file gives them."""
        if not isinstance(value, dict):
            table = ", ".join(f"{lang} = ..." for lang in self.langs)
            raise self.fail(where, f"expected a table {{ {table} }}, got {_kind(value)}")
        for key in value:
            if key not in self.langs:
                raise self.fail(f"{where}.{_key(key)}", f"unknown language (the deck's languages: {', '.join(self.langs)})")
        for lang in self.langs:
            if lang not in value:
                raise self.fail(f"{where}.{lang}", f"missing {language_name(lang)} {what}")
        limit = MAX_NAME_CHARS if what in ("name", "title") else MAX_TEXT_CHARS
        words = {}
        for lang in value:
            words[lang] = self.line(value[lang], f"{where}.{lang}", limit)
            if fields is not None:
                words[lang] = self.fill(words[lang], f"{where}.{lang}", lang, fields)
        return Text(words)

    def languages(self, game: dict) -> tuple[str, ...]:
        """The deck's languages: ``game.langs`` in its order, else the languages of ``game.title``
        with English first when the deck has it (the default ``--lang`` is the first)."""
        if "langs" in game:
            value, where = game["langs"], "game.langs"
            if not isinstance(value, list) or not value:
                raise self.fail(where, f"expected an array of language codes, e.g. [\"en\", \"de\"], got {_kind(value)}")
            codes = [self.lang_code(code, f"{where}[{i}]") for i, code in enumerate(value)]
        else:
            value, where = game["title"], "game.title"
            if not isinstance(value, dict) or not value:
                raise self.fail(where, f"expected a table of the title in each language, e.g. {{ en = \"...\" }}, got {_kind(value)}")
            codes = [self.lang_code(code, f"{where}.{_key(code)}") for code in value]
            codes.sort(key=lambda code: code != "en")
        if len(set(codes)) != len(codes):
            raise self.fail(where, "a language is given twice")
        return tuple(codes)

    def lang_code(self, code: Any, where: str) -> str:
        return check_lang(code, lambda what: self.fail(where, what))

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
                known = f"rules: {', '.join(fields)}" if fields else "the deck has no [rules] to fill it from"
                raise self.fail(where, f"unknown placeholder {quote('{' + name + '}', '')} ({known})")
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
        folders = art_dirs(self.path, self.schema) if self.remote is None else url_art_dirs(self.folder, self.schema)
        for folder in folders:
            candidate = folder / relative
            try:
                mode = candidate.stat().st_mode
            except (OSError, ValueError):
                continue
            if stat.S_ISREG(mode):
                candidate = inside(folder, relative, f"{self.name}: {where}", "art path", "the art folder")
                if self.require_art:
                    open_art(candidate, f"{self.name}: {where}", relative).close()
                return relative, candidate
            folder_found = folder_found or stat.S_ISDIR(mode)
            other_found = other_found or not stat.S_ISDIR(mode)
        if not self.require_art:
            return relative, None
        if self.remote is not None and self.folder is None:  # drawn without it, as a sheet without art
            if not self.art_dropped:
                from toolkit.fast.notice import say

                say(f"{self.remote.shown}: the deck names pictures ({where}: {shown}), which a deck from a URL "
                    "reads from the folder --assets names: the cards are drawn without them")
            self.art_dropped = True
            return "", None
        if folder_found:
            raise self.fail(where, f"art file {shown} is a folder, not an image")
        if other_found:
            raise self.fail(where, f"art file {shown} is not a regular file")
        raise self.fail(where, f"art file {shown} does not exist (run 'toolkit art' to draw it)")

    def back(self, value: Any, where: str) -> tuple[str, Path | None]:
        """A card's own back picture (a card's ``back``, a sheet's column): found as art is, and
        with ``require_art`` read whole once, so that a damaged file is named where it is written
        rather than half-way through a print."""
        import warnings

        from PIL import Image

        back, path = self.art(value, where)
        if not back:  # a deck from a URL without --assets: the deck's back
            return None, None
        if path is not None and self.require_art and path not in self.backs_read:
            with open_art(path, f"{self.name}: {where}", back) as image:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        image.load()
                except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as err:
                    raise self.fail(where, f"cannot read the art file {quote(back)}: {printable(str(err))}") from None
            self.backs_read.add(path)
        return back, path

    # --- the document ---------------------------------------------------------------------------

    def read_bytes(self, path: Path | None = None, most: int = MAX_CATALOGUE_BYTES) -> bytes:
        """The bytes of ``path`` (the catalogue's file by default): a regular file of at most ``most``
        bytes. The path is looked at before it is opened (a FIFO would block, /dev/zero never ends),
        and opened without blocking and checked again in case it changed in between."""
        path = self.path if path is None else path
        where = printable(str(path))
        limit = f"at most {most // 1_000_000} MB"
        try:
            mode = path.stat().st_mode
            if stat.S_ISDIR(mode):
                raise UserError(f"{where}: is a folder, not a catalogue file")
            if not stat.S_ISREG(mode):
                raise UserError(f"{where}: is not a regular file, so not a catalogue file")
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    raise UserError(f"{where}: is not a regular file, so not a catalogue file")
                raw = handle.read(most + 1)
        except (OSError, ValueError) as err:
            message = getattr(err, "strerror", None) or str(err)
            raise UserError(f"{where}: cannot read the catalogue: {printable(message)}") from None
        if len(raw) > most:
            raise UserError(f"{printable(path.name)}: the file is larger than a catalogue may be ({limit})")
        return raw

    def read(self) -> Catalogue:
        if is_sheet(self.path):
            return self.sheet_alone()
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

        game = self.table(doc.get("game"), "game", *GAME_KEYS) if "game" in doc else None
        game_id = self.ident(game["id"], "game.id") if game is not None else None
        from toolkit.games.registry import get

        # A game the toolkit has no package for is the catalogue's alone: [rules] and [[colours]] optional.
        schema = self.schema = get(game_id) if game_id is not None else None
        required, optional = DOCUMENT_KEYS
        if schema is not None and schema.rules_less:
            required, optional = required - FREE_DOCUMENT_KEYS, optional | FREE_DOCUMENT_KEYS
        if "sheet" in doc:  # the cards come from a spreadsheet instead of [[cards]]
            if "cards" in doc:
                raise self.fail("sheet", "give the cards as [[cards]] or in a sheet, not both")
            required, optional = required - {"cards"}, optional | {"sheet"}
        self.table(doc, "", required, optional)
        self.langs = self.languages(game)
        layout = self.game_file(game["layout"], "game.layout", (".toml",)) if "layout" in game else None
        self.layout_path, self.game_id = layout, game_id
        rules = self.rules(doc.get("rules", {}), schema)
        colours = self.colours(doc.get("colours", []))
        sheet = None
        if "sheet" in doc:
            sheet = self.game_file(doc["sheet"], "sheet", SHEET_SUFFIXES)
            sheet_reader = _Reader(sheet, self.require_art, self.remote, self.folder)
            sheet_reader.layout_path, sheet_reader.game_id = self.layout_path, self.game_id
            cards = sheet_reader.sheet_cards(schema, colours, rules, self.langs)[0]
            self.field_places = sheet_reader.field_places
        else:
            cards = self.cards(doc["cards"], schema, colours, rules)
        tokens = self.tokens(doc.get("tokens", []), {card.id for card in cards})
        # No back art: the layout draws the back (the deck's title on a plain ground, by default).
        back_art, back_art_path = self.art(game["back_art"], "game.back_art") if "back_art" in game else ("", None)
        return self.checked_fields(Catalogue(
            game=game_id,
            source=self.path,
            title=self.text(game["title"], "game.title", "title"),
            players=self.range_(game["players"], "game.players", PLAYERS),
            age=self.whole(game["age"], "game.age", AGE),
            minutes=self.range_(game["minutes"], "game.minutes", MINUTES),
            note=self.text(game["note"], "game.note", "note") if "note" in game else self.no_text(),
            back_art=back_art,
            back_art_path=back_art_path,
            rules=rules,
            colours=colours,
            cards=cards,
            tokens=tokens,
            seconds_per_turn=(self.whole(game["seconds_per_turn"], "game.seconds_per_turn", SECONDS_PER_TURN)
                              if "seconds_per_turn" in game else None),
            original=self.text(game["original"], "game.original", "title") if "original" in game else self.no_text(),
            publisher=self.text(game["publisher"], "game.publisher", "name") if "publisher" in game else self.no_text(),
            author=self.text(game["author"], "game.author", "name") if "author" in game else self.no_text(),
            counts_on_file={card.id: card.count for card in cards},
            langs=self.langs,
            sheet=sheet,
            layout_file=layout,
            icons=self.named_files(game.get("icons", {}), "game.icons", (".png", ".svg")),
            fonts=self.named_files(game.get("fonts", {}), "game.fonts", (".ttf", ".otf")),
            rulebook_texts=self.texts(game.get("rulebook", {}), "game.rulebook"),
            aid_texts=self.texts(game.get("aid", {}), "game.aid"),
            words=self.words(doc.get("words", {})),
        ))

    def no_text(self) -> Text:
        """An optional text the file does not give: empty in every language of the deck."""
        return Text(dict.fromkeys(self.langs, ""))

    # --- files the catalogue names for the game -------------------------------------------------

    def game_file(self, value: Any, where: str, suffixes: tuple[str, ...]) -> Path:
        """A file named relative to the catalogue's folder, inside it, existing, with one of ``suffixes``."""
        relative = self.string(value, where)
        if self.folder is None:
            raise self.fail(where, f"{quote(relative)}: a deck from a URL reads the files it names from a local "
                                   "folder: name it with --assets DIR")
        place = "the --assets folder" if self.remote is not None else "the deck's folder"
        path = inside(self.folder, relative, f"{self.name}: {where}", place=place)
        if not relative.lower().endswith(suffixes):
            raise self.fail(where, f"{quote(relative)} is not a {' or '.join(suffixes)} file")
        if not path.is_file():
            beside = "in the --assets folder" if self.remote is not None else "beside the catalogue"
            raise self.fail(where, f"the file {quote(relative)} does not exist {beside} (in "
                                   f"{quote(printable(str(self.folder)), limit=80)})")
        return path

    def named_files(self, data: Any, where: str, suffixes: tuple[str, ...]) -> MappingProxyType:
        """``{ name = "path" }``: files by a name (an icon's, a font's) written with a-z, 0-9, _ and -."""
        data = self.table(data, where, set(), set(data) if isinstance(data, dict) else set())
        files = {}
        for name, value in data.items():
            if not FILE_NAME_KEY.fullmatch(name):
                raise self.fail(f"{where}.{_key(name)}", "a name of a-z, 0-9, _ and - (at most 40 characters)")
            files[name] = self.game_file(value, f"{where}.{name}", suffixes)
        return MappingProxyType(files)

    def texts(self, data: Any, where: str) -> MappingProxyType:
        """A text per language (``game.rulebook``, ``game.aid``): Markdown files, languages of the deck."""
        data = self.table(data, where, set(), set(data) if isinstance(data, dict) else set())
        for lang in data:
            if lang not in self.langs:
                raise self.fail(f"{where}.{_key(lang)}",
                                f"unknown language (the deck's languages: {', '.join(self.langs)})")
        return MappingProxyType({lang: self.game_file(value, f"{where}.{lang}", (".md",))
                                 for lang, value in data.items()})

    def words(self, data: Any) -> MappingProxyType:
        """``[words.<lang>]``: the words the toolkit prints itself, in a language it has none of its own
        for (toolkit.catalogue.words names the keys)."""
        data = self.table(data, "words", set(), set(data) if isinstance(data, dict) else set())
        result = {}
        for lang, table in data.items():
            where = f"words.{_key(lang)}"
            if lang not in self.langs:
                raise self.fail(where, f"unknown language (the deck's languages: {', '.join(self.langs)})")
            table = self.table(table, where, set(), set(WORD_KEYS))
            given = {key: self.line(value, f"{where}.{key}", MAX_NAME_CHARS) for key, value in table.items()}
            forms = plural_forms(lang)
            for key in COUNTED_WORDS:
                if key in given and len(given[key].split("|")) != len(forms):
                    raise self.fail(f"{where}.{key}", f"{language_name(lang)} takes {len(forms)} forms, separated by | "
                                                      f"({'|'.join(forms)})")
            if "ages" in given and (given["ages"].count("{age}") != 1
                                    or any(brace in given["ages"].replace("{age}", "") for brace in "{}")):
                raise self.fail(f"{where}.ages", "write {age} once where the youngest age goes, and no other braces")
            for key in TITLED_WORDS:
                title = given.get(key, "{title}")
                if title.count("{title}") != 1 or any(brace in title.replace("{title}", "") for brace in "{}"):
                    raise self.fail(f"{where}.{key}", "write {title} once where the deck's title goes, and no "
                                                      "other braces")
            result[lang] = MappingProxyType(given)
        return MappingProxyType(result)

    # --- a spreadsheet of cards ------------------------------------------------------------------

    def sheet_alone(self) -> Catalogue:
        """A sheet given as the catalogue: the game's id and title from the file's name, its languages
        from the name columns, the card back ``back.png`` beside it, and SHEET_GAME's facts."""
        stem = self.path.stem
        game_id = re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", _fold(stem))).strip("-")[:MAX_ID_CHARS].strip("-")
        if not game_id:
            raise UserError(f"{self.name}: the file's name gives the game no id: name the file with Latin letters "
                            "or digits (e.g. my-game.csv), or name the sheet in a TOML catalogue")
        from toolkit.games.registry import get

        schema = self.schema = get(game_id)
        self.game_id = game_id
        rules: dict[str, int] = {}
        if not schema.rules_less:
            raise UserError(f"{self.name}: the file's name makes it a deck of {game_id}, whose rules need [rules]: "
                            "name the sheet in a TOML catalogue with the game's keys (docs/catalogue.md)")
        cards, self.langs = self.sheet_cards(schema, (), rules, None)
        title = self.line(stem, "the file's name (the deck's title)", MAX_NAME_CHARS)
        back_art, back_art_path = (self.art(SHEET_GAME["back_art"], "the card back (back.png beside the sheet)")
                                   if self.folder is not None and (self.folder / SHEET_GAME["back_art"]).exists()
                                   else ("", None))
        return self.checked_fields(Catalogue(
            game=game_id, source=self.path, title=Text(dict.fromkeys(self.langs, title)),
            players=SHEET_GAME["players"], age=SHEET_GAME["age"], minutes=SHEET_GAME["minutes"],
            note=Text(dict.fromkeys(self.langs, "")), back_art=back_art, back_art_path=back_art_path,
            rules=rules, colours=(), cards=cards, counts_on_file={card.id: card.count for card in cards},
            langs=self.langs, sheet=self.path,
        ))

    def layout_names(self) -> set[str]:
        """The card values the deck's layout names (``toolkit.layout.names``), read once."""
        if self._layout_names is None:
            from toolkit.layout.names import deck_layout, names_used

            self._layout_names = names_used(deck_layout(self.layout_path, self.game_id))
        return self._layout_names

    def field(self, name: str, where: str, known: Iterable[str], what: str) -> None:
        """A field of the cards' own (a sheet's column, a card's key), where it is first given. One the
        deck's layout names (``{value}``, ``when``, an art's ``field``) is meant; one else that is one
        edit from a column or key the toolkit reads (``Atr`` for ``art``) is a slip, refused in one line."""
        if name in self.field_places or name in self.layout_names():
            self.field_places.setdefault(name, (where, what))
            return
        slip = meant(name, known)
        if slip is not None:
            raise UserError(f"{where}: not a {what} the toolkit reads, nor a value the layout names: did you "
                            f"mean '{slip}'? (a field of your own is kept when the layout names it)")
        self.field_places[name] = (where, what)

    def checked_fields(self, catalogue: Catalogue) -> Catalogue:
        """``catalogue``, having said in a note each field of the cards' own that nothing uses: neither
        the layout (by name, or as ``fieldN``, the deck's Nth field) nor the deck's rulebook or aid texts."""
        if not self.field_places:
            return catalogue
        from toolkit.fast.notice import say

        used = self.layout_names()
        order = dict.fromkeys(key for card in catalogue.cards for key in card.fields)
        by_place = {name for number, name in enumerate(order, start=1) if f"field{number}" in used}
        quoted = _text_fields(catalogue)
        for name, (where, _) in self.field_places.items():
            if name not in used and name not in by_place and name not in quoted:
                say(f"{where}: no layout or text of the deck uses it (the cards keep it as a field)")
        return catalogue

    def sheet_cards(self, game, colours: tuple[Colour, ...], rules: dict[str, int],
                    langs: tuple[str, ...] | None) -> tuple[tuple[CardType, ...], tuple[str, ...]]:
        """The cards of this reader's sheet, one a row, and the deck's languages (``langs`` when a TOML
        gives them, else the sheet's name columns). Every message names the sheet, the row and the column."""
        self.schema = game
        cells = read_cells(self.path, self.read_bytes(most=MAX_SHEET_BYTES))
        columns = self.sheet_columns(cells[0] if cells else [], langs)
        self.langs = langs = columns.langs
        colour_ids = [c.id for c in colours]
        result, seen, slugs = [], set(), set()
        rows = [(number, row) for number, row in enumerate(cells[1:], start=2) if any(_filled(c) for c in row)]
        if not rows:
            raise self.fail("row 2", "the sheet has no cards (a row per card type under the column names)")
        if len(rows) > MAX_CARD_TYPES:
            raise self.fail(f"rows 2-{rows[-1][0]}", f"{len(rows)} card types, at most {MAX_CARD_TYPES}")
        for number, row in rows:
            extra = next((i for i in range(len(columns.names), len(row)) if _filled(row[i])), None)
            if extra is None:
                extra = next((i for i, name in enumerate(columns.names) if name is None and i < len(row)
                              and _filled(row[i])), None)
            if extra is not None:
                raise self.fail(f"row {number}, column {column_letter(extra)}", "a value under no column name")
            cell = {name: row[i] if i < len(row) else "" for i, name in enumerate(columns.names) if name is not None}

            def at(column: str) -> str:
                return f'row {number}, column "{printable(columns.shown[column])}"'

            names = {}
            for lang in langs:
                column = columns.name[lang]
                value = self.cell_text(cell[column], at(column))
                if value is None:
                    raise self.fail(at(column), f"empty: every card needs a name in {language_name(lang)}")
                names[lang] = self.line(value, at(column), MAX_NAME_CHARS)
            texts = {}
            for lang in langs:
                column = columns.text.get(lang)
                value = self.cell_text(cell[column], at(column)) if column else None
                texts[lang] = "" if value is None else self.fill(self.line(value, at(column), MAX_TEXT_CHARS),
                                                                 at(column), lang, rules)
            given = [lang for lang in langs if texts[lang]]
            if given and len(given) < len(langs):
                lang = next(lang for lang in langs if not texts[lang])
                raise self.fail(at(columns.text[lang]), f"empty, but the card has text in {language_name(given[0])}: "
                                                        "give it in every language of the deck")
            card_id = self.cell_text(cell["id"], at("id")) if "id" in cell else None
            if card_id is None:
                card_id = _slug(names[langs[0]], number, slugs | seen)
                slugs.add(card_id)
            else:
                card_id = self.ident(card_id, at("id"))
                if card_id in RESERVED_CARD_IDS:
                    raise self.fail(at("id"), f"'{card_id}' is reserved: exports name the card back's file after it")
                self.unique(seen, card_id, at("id"), "card")
            copies = self.cell_count(cell[columns.copies], at(columns.copies))
            kind = self.cell_text(cell["kind"], at("kind")) if "kind" in cell else None
            kind = self.ident(kind or DEFAULT_KIND, at("kind") if "kind" in cell else f"row {number}")
            if not game.rules_less and kind not in game.kinds:
                raise self.fail(at("kind") if "kind" in cell else f"row {number}",
                                f"unknown kind {quote(kind)} for {game.id} (choose from {', '.join(game.kinds)})")
            colour = self.cell_text(cell["colour"], at("colour")) if "colour" in cell else None
            if colour is not None and colour not in colour_ids:
                raise self.fail(at("colour"), f"unknown colour {quote(colour)} "
                                              f"(colours: {', '.join(colour_ids) or 'the deck has none'})")
            if not game.rules_less and (kind in game.coloured_kinds) != (colour is not None):
                raise self.fail(at("colour") if "colour" in cell else f"row {number}",
                                f"a {kind} card needs a colour" if colour is None else f"a {kind} card has no colour")
            art = self.cell_text(cell["art"], at("art")) if "art" in cell else None
            # No picture: the layout leaves its place plain.
            art, art_path = self.art(art, at("art")) if art is not None else ("", None)
            back = self.cell_text(cell["back"], at("back")) if "back" in cell else None
            back, back_path = self.back(back, at("back")) if back is not None else (None, None)
            fields = {}
            for column in columns.fields:
                value = self.cell_field(cell[column], at(column))
                if value is not None:
                    fields[column] = value
            result.append(CardType(id=card_id, kind=kind, colour=colour, count=copies, name=Text(names),
                                   text=Text(texts), art=art, art_path=art_path, fields=MappingProxyType(fields),
                                   back_art=back, back_art_path=back_path))
        if card_id_clash := sorted(seen & slugs):
            raise self.fail("column \"id\"", f"the id {quote(card_id_clash[0])} is given to one card and made from "
                                               "another's name: give that card an id")
        total = sum(card.count for card in result)
        if total > MAX_DECK:
            raise self.fail(f'column "{printable(columns.shown[columns.copies])}"',
                            f"the deck has {total} cards, at most {MAX_DECK}")
        return tuple(result), langs

    def sheet_columns(self, header: list, langs: tuple[str, ...] | None) -> _Columns:
        """What each column of the first row is: names, texts, copies, the other known columns, fields."""
        if not any(_filled(cell) for cell in header):
            raise self.fail("row 1", "no column names (the first row names the columns: name, copies, art...)")
        names: list[str | None] = []
        shown: dict[str, str] = {}
        for i, cell in enumerate(header):
            where = f"row 1, column {column_letter(i)}"
            text = self.cell_text(cell, where)
            if text is None:
                names.append(None)
                continue
            name = text.lower()
            if name in shown:
                first = column_letter(names.index(name))
                raise self.fail(where, f"the column {quote(text)} is there twice (also column {first}): "
                                       "give each column one name")
            names.append(name)
            shown[name] = text
        columns = _Columns(names, shown)
        for name in shown:
            where = f'column "{printable(shown[name])}"'
            base, _, lang = name.partition("_")
            if base in ("name", "text") and lang:
                lang = check_lang(lang, lambda what: self.fail(where, what))
                (columns.name if base == "name" else columns.text)[lang] = name
            elif name in ("name", "text"):
                (columns.name if name == "name" else columns.text)[""] = name
            elif name in COPIES_COLUMNS:
                if columns.copies:
                    raise self.fail(where, f"the copies are already in column \"{shown[columns.copies]}\": "
                                           "give one of count, copies, quantity")
                columns.copies = name
            elif name in SHEET_COLUMNS:
                pass
            elif FIELD_NAME.fullmatch(name):
                columns.fields.append(name)
            else:
                raise self.fail(where, "not a column the toolkit knows, and not a field name (a field is named "
                                       f"with a-z, 0-9 and _, at most 40 characters; the columns: {DOCS_PAGE})")
        for base in ("name", "text"):
            found = columns.name if base == "name" else columns.text
            if "" in found and len(found) > 1:
                other = next(column for lang, column in found.items() if lang)
                raise self.fail(f'column "{shown[found[""]]}"', f"a bare {base} column beside {quote(other, chr(34))}: "
                                                               f"name every language's column {base}_<lang>")
        if len(columns.fields) > MAX_FIELDS:
            raise self.fail("row 1", f"{len(columns.fields)} field columns, at most {MAX_FIELDS}")
        if not columns.name:
            raise self.fail("row 1", "no name column (name, or name_<lang> for each language, e.g. name_en)")
        if "" in columns.name:  # one language: the TOML's, else English
            if langs is not None and len(langs) > 1:
                raise self.fail(f'column "{shown["name"]}"', f"the deck's languages are {', '.join(langs)}: "
                                                             "give a name_<lang> column for each")
            lang = langs[0] if langs else "en"
            columns.name = {lang: "name"}
            columns.text = {lang: "text"} if columns.text else {}
        found = list(columns.name)
        if langs is None:
            langs = tuple(sorted(found, key=lambda lang: lang != "en"))
        for lang in langs:
            if lang not in columns.name:
                raise self.fail("row 1", f"no name_{lang} column: the deck's languages are {', '.join(langs)}")
        for lang in found:
            if lang not in langs:
                raise self.fail(f'column "{shown[columns.name[lang]]}"',
                                f"{language_name(lang)} is not a language of the deck ({', '.join(langs)})")
        for lang in columns.text:
            if lang not in langs:
                raise self.fail(f'column "{shown[columns.text[lang]]}"',
                                f"{language_name(lang)} is not a language of the deck ({', '.join(langs)})")
        if columns.text and len(columns.text) < len(langs):
            lang = next(lang for lang in langs if lang not in columns.text)
            raise self.fail("row 1", f"no text_{lang} column: the cards' texts are given in every language of the "
                                     "deck or in none")
        if not columns.copies:
            raise self.fail("row 1", "no copies column (count, copies or quantity: how many of each card)")
        columns.langs = langs
        known = frozenset((*SHEET_COLUMNS, *COPIES_COLUMNS, "name", "text",
                           *(f"{base}_{lang}" for base in ("name", "text") for lang in langs)))
        for name in columns.fields:
            self.field(name, f'{self.name}: column "{printable(shown[name])}"', known, "column")
        return columns

    def cell_text(self, value: Any, where: str) -> str | None:
        """A cell as text, None when empty: a whole number reads as its digits (a name "7")."""
        if value is None or isinstance(value, str):
            value = (value or "").strip()
            return value or None
        number = self.cell_number(value, where)
        return str(number) if isinstance(number, int) else f"{number:g}"

    def cell_number(self, value: Any, where: str) -> int | float:
        if isinstance(value, bool):
            raise self.fail(where, f"a true/false cell ({str(value).upper()}): write a number or text")
        if isinstance(value, (int, float)):
            if value != value or value in (float("inf"), float("-inf")):
                raise self.fail(where, "not a number")
            return int(value) if float(value).is_integer() else value
        if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
            raise self.fail(where, f"a date or time ({value}): write the value as a number or text")
        raise self.fail(where, f"a cell of an unknown kind ({type(value).__name__})")

    def cell_count(self, value: Any, where: str) -> int:
        """The copies of a card: a whole number from 0 to MAX_COUNT (3.0 is 3; 3.5 is refused)."""
        if isinstance(value, str):
            text = value.strip()
            if not text:
                raise self.fail(where, "empty: give the number of copies (0 leaves the card out)")
            if not _DIGITS.fullmatch(text):
                raise self.fail(where, f"expected a whole number from 0 to {MAX_COUNT}, got {quote(text)}")
            value = int(text) if len(text) < 10 else 10**10
        elif value is None:
            raise self.fail(where, "empty: give the number of copies (0 leaves the card out)")
        number = self.cell_number(value, where)
        if not isinstance(number, int):
            raise self.fail(where, f"expected a whole number from 0 to {MAX_COUNT}, got {number:g}")
        return self.whole(number, where, (0, MAX_COUNT))

    def cell_field(self, value: Any, where: str) -> str | int | None:
        """A field's cell: None when empty, a whole number as an int (text "10" too), else one line of text."""
        if isinstance(value, str) or value is None:
            text = (value or "").strip()
            if not text:
                return None
            if _FIELD_INT.fullmatch(text):
                return self.whole(int(text), where, FIELD_NUMBER)
            return self.line(text, where, MAX_NAME_CHARS)
        number = self.cell_number(value, where)
        if not isinstance(number, int):
            raise self.fail(where, f"{number:g} is not a whole number: a field is text or a whole number "
                                   "(format the cell as text to keep the fraction)")
        return self.whole(number, where, FIELD_NUMBER)

    def rules(self, data: Any, game) -> dict[str, int]:
        if game.rules_less:  # the catalogue's own numbers, for its card texts' placeholders
            data = self.table(data, "rules", set(), set(data) if isinstance(data, dict) else set())
            for name in data:
                if not _RULE_NAME.fullmatch(name):
                    raise self.fail(f"rules.{_key(name)}", "a rule is named with a-z, 0-9 and _ (a placeholder in "
                                                          "card texts: {name})")
            return {name: self.whole(value, f"rules.{name}", FIELD_NUMBER) for name, value in data.items()}
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
            if not isinstance(item, dict):
                raise self.fail(where, f"expected a table, got {_kind(item)}")
            known = CARD_KEYS[0] | CARD_KEYS[1]
            fields = self.fields({key: value for key, value in item.items() if key not in known}, where)
            for key in fields:
                self.field(key, f"{self.name}: {where}.{key}", known, "key")
            item = self.table({key: value for key, value in item.items() if key in known}, where, *CARD_KEYS)
            card_id = self.ident(item["id"], f"{where}.id")
            if card_id in RESERVED_CARD_IDS:
                raise self.fail(
                    f"{where}.id", f"'{card_id}' is reserved: exports name the card back's file after it"
                )
            self.unique(seen, card_id, f"{where}.id", "card")
            kind = self.string(item["kind"], f"{where}.kind")
            if game.rules_less:
                kind = self.ident(kind, f"{where}.kind")
            elif kind not in kinds:
                raise self.fail(f"{where}.kind", f"unknown kind {quote(kind)} for {game_id} (choose from {', '.join(kinds)})")
            colour = item.get("colour")
            if game.rules_less and colour is not None:  # any card may have a colour of the deck, or none
                colour = self.string(colour, f"{where}.colour")
                if colour not in colour_ids:
                    raise self.fail(f"{where}.colour", f"unknown colour {quote(colour)} "
                                                       f"(colours: {', '.join(colour_ids) or 'the deck has none'})")
            elif kind in game.coloured_kinds:
                if colour is None:
                    raise self.fail(f"{where}.colour", f"missing: a {kind} card needs a colour")
                colour = self.string(colour, f"{where}.colour")
                if colour not in colour_ids:
                    raise self.fail(f"{where}.colour", f"unknown colour {quote(colour)} (colours: {', '.join(colour_ids)})")
            elif colour is not None:
                raise self.fail(f"{where}.colour", f"a {kind} card has no colour")
            art, art_path = self.art(item["art"], f"{where}.art")
            back, back_path = self.back(item["back"], f"{where}.back") if "back" in item else (None, None)
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
                    fields=fields,
                    back_art=back,
                    back_art_path=back_path,
                )
            )
        total = sum(card.count for card in result)
        if total > MAX_DECK:
            raise self.fail("cards", f"the deck has {total} cards, at most {MAX_DECK}")
        return tuple(result)

    def fields(self, data: dict, where: str) -> MappingProxyType:
        """A card's own fields: each named with lower-case letters, digits and _, its value one line
        of text or a whole number (a number with a zero fraction, 3.0, is the whole number 3)."""
        if len(data) > MAX_FIELDS:
            raise self.fail(where, f"{len(data)} fields, at most {MAX_FIELDS}")
        fields = {}
        for key, value in data.items():
            at = f"{where}.{_key(key)}"
            if not FIELD_NAME.fullmatch(key):
                raise self.fail(at, "unknown key, and not a field name (a field is named with a-z, 0-9 and _, "
                                    f"at most 40 characters; the keys: {DOCS_PAGE})")
            fields[key] = self.field_value(value, at)
        return MappingProxyType(fields)

    def field_value(self, value: Any, where: str) -> str | int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.whole(value, where, FIELD_NUMBER)
        if isinstance(value, str):
            return self.line(value, where, MAX_NAME_CHARS)
        raise self.fail(where, f"a field is text or a whole number, got {_kind(value)}"
                               + (" (write it as text, in quotes, to keep the fraction)" if isinstance(value, float) else ""))

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


class _Columns:
    """The columns of a sheet: ``names`` by position (lower case; None where the first row is empty),
    ``shown`` as written, and by role: name and text columns per language, copies, fields."""

    def __init__(self, names: list[str | None], shown: dict[str, str]):
        self.names, self.shown = names, shown
        self.name: dict[str, str] = {}
        self.text: dict[str, str] = {}
        self.copies = ""
        self.fields: list[str] = []
        self.langs: tuple[str, ...] = ()


def _text_fields(catalogue: Catalogue) -> set[str]:
    """The fields the catalogue's own rulebook and aid texts quote (``{where:value=10}``, ``{max:cost}``)."""
    quoted: set[str] = set()
    for path in (*catalogue.rulebook_texts.values(), *catalogue.aid_texts.values()):
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        quoted.update(re.findall(r"\{[a-z]+:\s*([a-z][a-z0-9_]*)", text))
    return quoted


def _filled(cell: Any) -> bool:
    return cell is not None and not (isinstance(cell, str) and not cell.strip())


def _fold(text: str) -> str:
    """``text`` in lower case with accents taken off (é -> e), for an id made from a name."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()


def _slug(name: str, row: int, taken: set[str]) -> str:
    """An id made from a card's name (``Ace of Hearts`` -> ``ace-of-hearts``), unique in the deck:
    ``-2``, ``-3``... after a name met before; ``card-<row>`` for a name without Latin letters or digits."""
    base = re.sub(r"[^a-z0-9]+", "-", _fold(name)).strip("-")[:MAX_ID_CHARS - 4].strip("-") or f"card-{row}"
    if base in RESERVED_CARD_IDS:
        base = f"{base}-card"
    card_id, n = base, 1
    while card_id in taken:
        n += 1
        card_id = f"{base}-{n}"
    return card_id


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
