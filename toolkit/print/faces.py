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

    def back(self) -> CardFace:
        return self.look.back()

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
