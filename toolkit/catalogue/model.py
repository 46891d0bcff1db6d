"""The catalogue as frozen dataclasses: what every other part of the toolkit reads."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

# The languages of the built-in games' catalogues, and of the words the toolkit prints itself
# (toolkit.catalogue.words); a deck may have any others (``Catalogue.langs``).
LANGS = ("ru", "en")
# Shapes that tell a colour apart without its hue (for colour-blind players); the art draws them.
SYMBOLS = ("circle", "square", "triangle", "star", "diamond", "hexagon")

# The limits a catalogue (and ``--set``) must keep: sane games, and no input that makes a command
# run for hours, fill the memory or print nonsense. Ranges are inclusive.
MAX_COUNT = 500            # copies of one card type (``count``, ``--set ID=N``)
MAX_DECK = 1000            # cards in the whole deck
MAX_CARD_TYPES = 100       # different cards (each is drawn, and exported, once)
MAX_TOKEN_COUNT = 500      # counters of one token kind
MAX_TOKENS = 1000          # counters of all kinds together
TOKEN_VALUE = (1, 100)
PLAYERS = (1, 4)           # game.players.min and .max
AGE = (0, 99)              # game.age
MINUTES = (1, 600)         # game.minutes.min and .max
SECONDS_PER_TURN = (1, 3600)  # game.seconds_per_turn (optional): the time one turn takes at the table
MAX_ID_CHARS = 40          # an id (a card's id names its exported file)
MAX_NAME_CHARS = 100       # a name or title: one line on a card, shrunk to fit
MAX_TEXT_CHARS = 1000      # a card text or note (what does not fit at the layout's smallest size is refused, never cut)
MAX_FIELDS = 30            # fields of one card (suit, value, cost...)
FIELD_NUMBER = (-10**9, 10**9)  # a field that is a whole number
MAX_CATALOGUE_BYTES = 1_000_000  # a catalogue file: a regular file of at most 1 MB
MAX_ART_PIXELS = 40_000_000      # an art image: at most 40 megapixels (a 6000 x 6667 photo)
# Card ids that cannot be used: ``export-cards --target png`` writes each face as ``<id>.png`` and
# the back as ``back.png`` (``card-back.png`` when a card is called ``back``), so these would
# overwrite the back.
RESERVED_CARD_IDS = ("back", "card-back")


class Text(Mapping[str, str]):
    """The same words in each language of a deck: an immutable mapping language -> text, in the
    order the catalogue gives them. ``text["en"]`` reads one language (KeyError for a language the
    text lacks); ``text.en`` does the same for a language code written as an attribute."""

    __slots__ = ("_words",)

    def __init__(self, words: Mapping[str, str] | None = None, /, **by_lang: str):
        object.__setattr__(self, "_words", {**(words or {}), **by_lang})

    def __getitem__(self, lang: str) -> str:
        return self._words[lang]

    def __iter__(self):
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def __getattr__(self, lang: str) -> str:
        try:
            return object.__getattribute__(self, "_words")[lang]
        except KeyError:
            raise AttributeError(lang) from None

    def __setattr__(self, name, value):
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __hash__(self) -> int:
        return hash(tuple(self._words.items()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Text) and self._words == other._words

    def __reduce__(self):
        return (Text, (self._words,))

    def __repr__(self) -> str:
        return f"Text({self._words!r})"

    def as_dict(self) -> dict[str, str]:
        return dict(self._words)


@dataclass(frozen=True)
class Colour:
    id: str
    name: Text
    rgb: str  # "#rrggbb"
    symbol: str


@dataclass(frozen=True)
class CardType:
    id: str
    kind: str
    colour: str | None
    count: int
    name: Text
    text: Text
    art: str  # as written in the catalogue
    art_path: Path | None  # where the file was found; None when the art is not drawn yet
    # The card's own fields, every other key of the card in the catalogue (every other column of a
    # sheet): suit, value, cost... A whole number stays an int; the rest is text.
    fields: Mapping[str, str | int] = dataclasses.field(default_factory=lambda: MappingProxyType({}), hash=False)
    # The card's own back (a card's ``back``, a sheet's ``back`` column), as written and as found; None:
    # the deck's back. Every print and export puts it behind this card (toolkit.print.faces.back_keys).
    back_art: str | None = None
    back_art_path: Path | None = None


@dataclass(frozen=True)
class Token:
    id: str
    value: int
    count: int
    name: Text


@dataclass(frozen=True)
class Catalogue:
    game: str
    source: Path
    title: Text
    players: tuple[int, int]
    age: int
    minutes: tuple[int, int]
    note: Text
    back_art: str
    back_art_path: Path | None
    rules: dict[str, int]
    colours: tuple[Colour, ...]
    cards: tuple[CardType, ...]
    tokens: tuple[Token, ...] = ()
    # Seconds one turn takes at the table, an estimate (None: the file gives none, so no playing time
    # is estimated from simulated turns).
    seconds_per_turn: int | None = None
    # The published game this catalogue is an edition of, and its publisher, for the rulebook's credits
    # (``{original}``, ``{publisher}``); empty when the file names none.
    original: Text = Text()
    publisher: Text = Text()
    # Who made this edition (its designer or publisher), the /Author of every PDF made from it; empty
    # when the file names none (the original's publisher above did not make this edition's files).
    author: Text = Text()
    # The counts as the catalogue's file gives them, before any ``--set`` (None: not read from a file);
    # a copy with other counts keeps them, so a message can name the options that changed the deck.
    counts_on_file: dict[str, int] | None = dataclasses.field(default=None, compare=False)
    # The deck's languages: every text of the deck is given in each; the first is the default --lang.
    langs: tuple[str, ...] = ("en", "ru")
    # The spreadsheet the cards were read from (the catalogue file itself for a sheet alone); None: [[cards]].
    sheet: Path | None = None
    # Files the catalogue names for the game (each checked to exist inside the catalogue's folder):
    # the card layout (game.layout, .toml), icons by name (game.icons, .png or .svg), fonts by name
    # (game.fonts, .ttf or .otf), and the rulebook's text per language (game.rulebook, .md).
    layout_file: Path | None = None
    icons: Mapping[str, Path] = dataclasses.field(default_factory=lambda: MappingProxyType({}), hash=False)
    fonts: Mapping[str, Path] = dataclasses.field(default_factory=lambda: MappingProxyType({}), hash=False)
    rulebook_texts: Mapping[str, Path] = dataclasses.field(default_factory=lambda: MappingProxyType({}), hash=False)
    aid_texts: Mapping[str, Path] = dataclasses.field(default_factory=lambda: MappingProxyType({}), hash=False)
    # Words the toolkit prints itself, as the catalogue's [words.<lang>] gives them: lang -> key -> text
    # (toolkit.catalogue.words reads them, with the built-in words and English behind).
    words: Mapping[str, Mapping[str, str]] = dataclasses.field(default_factory=lambda: MappingProxyType({}),
                                                                hash=False)
    # A deck from a URL (toolkit.catalogue.remote): the URL as messages show it (``source`` is its cached
    # copy), and the local folder --assets names, where its relative paths lie (None: none given).
    url: str | None = dataclasses.field(default=None, compare=False)
    assets: Path | None = dataclasses.field(default=None, compare=False)

    @property
    def folder(self) -> Path | None:
        """The folder the deck's relative paths lie in: the catalogue's own, or for a deck from a URL the
        --assets folder (None when none was given: the deck has no pictures nor files of its own)."""
        return self.assets if self.url is not None else self.source.parent

    @property
    def total(self) -> int:
        return sum(card.count for card in self.cards)

    @property
    def is_empty(self) -> bool:
        """True when every count is 0: such a deck loads (for ``toolkit catalogue``), but there is
        nothing to print, deal or solve, so those commands refuse it."""
        return self.total == 0

    def card(self, card_id: str) -> CardType:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def colour(self, colour_id: str) -> Colour:
        for colour in self.colours:
            if colour.id == colour_id:
                return colour
        raise KeyError(colour_id)

    def of_kind(self, kind: str) -> tuple[CardType, ...]:
        return tuple(card for card in self.cards if card.kind == kind)

    def count_of_kind(self, kind: str) -> int:
        return sum(card.count for card in self.of_kind(kind))

    def with_counts(self, counts: dict[str, int]) -> Catalogue:
        """A copy with some card counts replaced (ids must exist)."""
        cards = tuple(
            dataclasses.replace(card, count=counts[card.id]) if card.id in counts else card
            for card in self.cards
        )
        return dataclasses.replace(self, cards=cards)

    @property
    def field_names(self) -> tuple[str, ...]:
        """The names of the cards' own fields, in the order they first appear."""
        return tuple(dict.fromkeys(name for card in self.cards for name in card.fields))

    def as_json(self) -> dict:
        """The deck for ``toolkit catalogue --json``: each card's ``fields`` when the deck has any."""
        with_fields = bool(self.field_names)
        return {
            "game": self.game,
            "total": self.total,
            "cards": [
                {
                    "id": card.id,
                    "kind": card.kind,
                    "colour": card.colour,
                    "count": card.count,
                    "name": card.name.as_dict(),
                    **({"fields": dict(card.fields)} if with_fields else {}),
                }
                for card in self.cards
            ],
        }
