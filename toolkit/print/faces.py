"""The deck's faces as an export draws them, and what an export reports: shared by every target."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from functools import cached_property

from toolkit.cards.render import CardFace
from toolkit.catalogue.model import CardType, Catalogue, Token
from toolkit.catalogue.origin import deck_origin
from toolkit.errors import UserError
from toolkit.layout.engine import Look
from toolkit.plurals import plural
from toolkit.print.aids import aid_back, aid_face

MAX_FILE_NAME = 255  # bytes in one file name on common file systems
BACK_FILE = "back.png"  # no card can take this name: the loader reserves the id "back"
DECK_BACK = "back"  # the key of the deck's back (a card's own back is "back:<card id>")


@dataclass(frozen=True)
class ExportResult:
    target: str
    folder: Path
    files: tuple[Path, ...]
    summary: str


@dataclass(frozen=True)
class Faces:
    """The card types of the deck (count > 0) and how to draw them. Each face is drawn when it is
    written and then let go: a deck of hundreds of card types, all held at 300 DPI, would take
    gigabytes."""

    catalogue: Catalogue
    cards: list[CardType]
    lang: str
    card_mm: tuple[float, float]
    bleed: float
    aids: int = 0  # copies of the player aid to export with the deck
    safe_mm: float | None = None  # a service's safe zone, inside the trim (None: the renderer's own margin)

    @cached_property
    def look(self) -> Look:
        return Look(self.catalogue, self.lang, self.card_mm, self.bleed, self.safe_mm)

    def face(self, card: CardType) -> CardFace:
        return self.look.face(card)

    def every(self) -> Iterator[CardFace]:
        return (self.face(card) for card in self.cards)

    @cached_property
    def back_keys(self) -> dict[str, str]:
        return back_keys(self.catalogue)

    def back_key(self, card: CardType) -> str:
        """The back ``card`` shows: DECK_BACK, or "back:<id>" for a back picture of its own."""
        return self.back_keys[card.id]

    def backs(self) -> list[str]:
        """The backs the cards of the export show, in order: the deck's (when a card shows it), then each
        back picture of the cards' own, as ``back_keys`` orders them (the player aids have a back of their own)."""
        used = dict.fromkeys(self.back_key(card) for card in self.cards)
        return sorted(used, key=lambda key: key != DECK_BACK)

    def back(self, key: str = DECK_BACK) -> CardFace:
        return back_face(self.look, key)

    def back_count(self, key: str) -> int:
        """How many cards of the export show the back ``key``."""
        return sum(card.count for card in self.cards if self.back_key(card) == key)

    def aid(self) -> CardFace:
        return aid_face(self.catalogue, self.lang, self.card_mm, self.bleed, self.safe_mm)

    def aid_back(self) -> CardFace:
        """The aid's own back (never the deck's): its text's second side, or the deck's back marked "player aid"."""
        return aid_back(self.catalogue, self.lang, self.card_mm, self.bleed, self.safe_mm)


def _faces(catalogue: Catalogue, lang: str, card_mm, bleed: float, aids: int = 0,
           safe_mm: float | None = None) -> Faces:
    """The deck's card types, once each; refuses an empty deck before anything is drawn or written."""
    cards = [card for card in catalogue.cards if card.count > 0]
    if not cards:
        raise UserError(f"{deck_origin(catalogue)}: the deck has no cards to export (every count is 0)")
    return Faces(catalogue, cards, lang, tuple(card_mm), bleed, aids, safe_mm)


def back_keys(catalogue: Catalogue) -> dict[str, str]:
    """The back each card of the deck shows, by card id: DECK_BACK, or "back:<id>" for a back
    picture of its own (``CardType.back_art``), <id> being the first card of the deck (catalogue
    order, count above 0) with that picture, so that cards sharing a picture share one back. A card
    whose own back is the deck's back picture shows the deck's back."""
    def picture(path: Path | None, written: str) -> Path | str:
        return path.resolve() if path is not None else written

    deck = picture(catalogue.back_art_path, catalogue.back_art) if catalogue.back_art else None
    owners: dict[Path | str, str] = {}
    keys = {}
    for card in catalogue.cards:
        if card.count == 0:
            continue
        own = picture(card.back_art_path, card.back_art) if card.back_art else None
        if own is None or own == deck:
            keys[card.id] = DECK_BACK
        else:
            keys[card.id] = "back:" + owners.setdefault(own, card.id)
    return keys


def is_back(key: str) -> bool:
    return key == DECK_BACK or key.startswith("back:")


def back_face(look: Look, key: str) -> CardFace:
    """The back ``key`` (``back_keys``) as ``look`` draws it."""
    return look.back() if key == DECK_BACK else look.back(look.catalogue.card(key.removeprefix("back:")))


def back_file(key: str) -> str:
    """The file of the back ``key``: ``back.png`` for the deck's, ``back_<id>.png`` for a card's
    own ("_" is never in a card's or token's id, so no face or token can take its name)."""
    return BACK_FILE if key == DECK_BACK else f"back_{key.removeprefix('back:')}.png"


def counted(number: int, one: str, other: str) -> str:
    """``number`` and the English noun that agrees with it, for an export's summary: "1 sheet", "2 sheets"."""
    return f"{number} {plural(number, (one, other), 'en', 'export summary')}"


def token_file(token: Token) -> str:
    """A token's picture, named after its id beside the cards' (the loader keeps token ids apart
    from card ids and from the back's)."""
    return f"{token.id}.png"


def token_files(catalogue: Catalogue) -> list[tuple[int, str]]:
    """(index in catalogue.tokens, file name) of each token kind with counters to export."""
    return [(index, token_file(token)) for index, token in enumerate(catalogue.tokens) if token.count > 0]


def _check_file_names(catalogue: Catalogue, cards: list[CardType]) -> None:
    for card in cards:
        if len(f"{card.id}.png".encode()) > MAX_FILE_NAME:
            raise UserError(f"{catalogue.source.name}: card '{card.id[:40]}...': the id is too long to name "
                            f"its PNG file (at most {MAX_FILE_NAME - 4} characters)")
