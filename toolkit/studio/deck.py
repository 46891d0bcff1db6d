"""The deck the studio shows: where it comes from, its cards drawn at screen size, and what a save changed.

Each card side is drawn by ``card_image``, the renderer of the PNG export, from the faces the exports
draw (``toolkit.print.faces``), at the trim (no bleed) and the export's 300 DPI, then made SHRINK times
smaller for the screen (``screen_image``). A drawing is kept under the
digest of what it shows (``face_digest``: its ground, and every text run, shape and picture on it), so
that after a save only the cards whose digest changed are drawn again, and the page is told which.

A deck that no longer loads (a mistake in a save) keeps its last good cards; its error line (the one
the command line prints) stays in ``Deck.error`` until a save mends it.
"""

from __future__ import annotations

import hashlib
import io
import threading
import time
import tomllib
import zlib
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from toolkit.catalogue.words import deck_lang
from toolkit.errors import UserError

# A card drawn at 300 DPI, then each 2 x 2 pixels averaged into one: 150 DPI, a poker card 372 x 520 px, sharp
# at 190 px wide on a screen of twice the density; twice as fast as drawing at 150 DPI, whose ground and
# pictures would each be resampled.
SHRINK = 2
DRAWERS = 2  # threads drawing the faces while the next ones are built
WAITING = 4  # faces built and not drawn yet, at most
MAX_VIEWS = 3  # card sizes and languages kept drawn until the next save; others are drawn when asked
MAX_TOML_BYTES = 1_000_000  # a TOML file of a folder larger than this is no catalogue worth opening to look


def find_deck(deck: str | None, game: str | None, catalogue_path: str | None) -> tuple[str | None, str | None]:
    """(game, catalogue path) for ``load``: from DECK (a catalogue or sheet, a folder holding one, or a
    game's id), else from ``--game`` or ``--catalogue`` as every command takes them."""
    if deck is None:
        return game, catalogue_path
    if game is not None or catalogue_path is not None:
        raise UserError(f"{deck}: give the deck once (DECK, --game or --catalogue)")
    from toolkit.catalogue.remote import fetch, is_url

    if is_url(deck):  # its cached copy, asked for again as the studio polls
        return None, str(fetch(deck))
    path = Path(deck)
    if path.is_dir():
        return None, str(catalogue_in(path))
    if path.exists():
        return None, deck
    from toolkit.games.registry import ids

    if deck in ids():
        return deck, None
    raise UserError(f"{deck}: no such file or folder, nor a game (the games: {', '.join(ids())})")


def catalogue_in(folder: Path) -> Path:
    """The one catalogue of ``folder``: a TOML file with a ``game`` table or a ``sheet`` key (a layout
    has neither), else its one sheet (.csv, .xlsx, .ods)."""
    from toolkit.catalogue.sheet import SHEET_SUFFIXES

    try:
        files = sorted(path for path in folder.iterdir() if path.is_file())
    except OSError as err:
        raise UserError(f"{folder}: cannot read the folder: {err.strerror or err}") from None
    found = [path for path in files if path.suffix.lower() == ".toml" and _is_catalogue(path)]
    if not found:
        found = [path for path in files if path.suffix.lower() in SHEET_SUFFIXES]
    if len(found) == 1:
        return found[0]
    if not found:
        raise UserError(f"{folder}: holds no catalogue (a .toml file with a [game] table or a sheet = key, "
                        "or a .csv, .xlsx or .ods sheet)")
    raise UserError(f"{folder}: holds {len(found)} catalogues ({', '.join(path.name for path in found)}): "
                    "name the one to open")


def _is_catalogue(path: Path) -> bool:
    try:
        if path.stat().st_size > MAX_TOML_BYTES:
            return False
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return "game" in data or "sheet" in data


def face_digest(face, pictures: dict[int, str]) -> str:
    """A digest of everything ``face`` (a ``CardFace``) shows: two faces of one digest draw the same
    picture. ``pictures`` remembers the digest of each picture object on a face by its id (an icon is
    one object on many faces): its pictures must stay alive while it is used."""
    from toolkit.cards.render import Picture

    def image(picture) -> str:
        return f"{picture.mode}{picture.size}{zlib.crc32(picture.tobytes()):08x}"

    def shared(picture) -> str:
        if id(picture) not in pictures:
            pictures[id(picture)] = image(picture)
        return pictures[id(picture)]

    parts = [face.key, repr(face.card_mm), repr(face.bleed_mm), image(face.art)]
    for op in face.ops:
        parts.append(f"picture {op.box} {op.element} {shared(op.image)}" if isinstance(op, Picture) else repr(op))
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=10).hexdigest()


def screen_image(face):
    """``face`` as the PNG export draws it (at the trim when ``face`` has no bleed), SHRINK times smaller."""
    from toolkit.cards.render import card_image

    return card_image(face).reduce(SHRINK)


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)  # drawn for a page on this machine: speed over size
    return buffer.getvalue()


def view_key(card_mm: tuple[float, float], lang: str) -> str:
    return f"{card_mm[0]:g}x{card_mm[1]:g}/{lang}"


@dataclass
class View:
    """The deck drawn at one card size in one language: each card's front and back digests and the
    pictures under those digests."""

    card_mm: tuple[float, float]
    lang: str
    fronts: dict[str, str] = field(default_factory=dict)  # card id -> digest
    backs: dict[str, str] = field(default_factory=dict)  # card id -> digest of the back behind it
    images: dict[str, bytes] = field(default_factory=dict)  # digest -> PNG

    def changed(self, old: View | None) -> list[str]:
        """The cards that look different from ``old`` (or are new)."""
        if old is None:
            return list(self.fronts)
        return [card_id for card_id in self.fronts
                if old.fronts.get(card_id) != self.fronts[card_id] or old.backs.get(card_id) != self.backs[card_id]]


def draw(catalogue, card_mm: tuple[float, float], lang: str, old: View | None = None) -> View:
    """The deck's cards at ``card_mm`` in ``lang``: every face built as the exports build it, and drawn
    only when ``old`` has no picture of its digest. The faces are built here, one after the other, and
    drawn by DRAWERS threads meanwhile (Pillow lets go of Python's lock while it resamples and encodes);
    at most WAITING faces wait to be drawn (a face holds its ground at 300 DPI)."""
    from toolkit.print.faces import _faces

    faces = _faces(catalogue, lang, card_mm, 0.0)
    view = View(tuple(card_mm), lang)
    pictures: dict[int, str] = {}
    kept = []  # the pictures on the faces stay alive while ``pictures`` names them by id
    waiting = threading.BoundedSemaphore(WAITING)
    drawn: dict[str, Future] = {}

    def drawing(face) -> bytes:
        try:
            return png(screen_image(face))
        finally:
            waiting.release()

    def keep(face, pool) -> str:
        kept.extend(op.image for op in face.ops if hasattr(op, "image"))
        digest = face_digest(face, pictures)
        if digest not in view.images and digest not in drawn:
            had = old.images.get(digest) if old is not None else None
            if had is not None:
                view.images[digest] = had
            else:
                waiting.acquire()
                drawn[digest] = pool.submit(drawing, face)
        return digest

    with ThreadPoolExecutor(DRAWERS, thread_name_prefix="studio-draw") as pool:
        for card in faces.cards:
            view.fronts[card.id] = keep(faces.face(card), pool)
        backs = {key: keep(faces.back(key), pool) for key in faces.backs()}
    view.images.update((digest, future.result()) for digest, future in drawn.items())
    view.backs = {card.id: backs[faces.back_key(card)] for card in faces.cards}
    return view


class Deck:
    """The deck the studio shows, as last loaded without a mistake, and the views of it asked for.

    ``inputs(catalogue)`` lists the files a run reads (the command line's ``catalogue_inputs``); every
    change is said to each of ``listeners`` as ``{"error": line or None, "changed": {view: [card ids]}}``."""

    def __init__(self, game: str | None, path: str | None, overrides: Iterable[str] = (),
                 inputs: Callable[[object], dict] = lambda catalogue: {}):
        self.game, self.path, self.overrides = game, path, tuple(overrides)
        self.inputs_of = inputs
        self.catalogue = None
        self.inputs: dict[str, Path] = {}
        self.error: str | None = None
        self.generation = 0
        self.views: OrderedDict[tuple, View] = OrderedDict()
        self.listeners: list[Callable[[dict], None]] = []
        self._work = threading.Lock()  # one drawing at a time
        self._state = threading.Lock()  # the fields above, swapped whole

    def _load(self):
        from toolkit.catalogue import load

        return load(self.game, self.path, self.overrides)

    def load(self, card_mm: tuple[float, float], lang: str | None = None) -> None:
        """The first load, and the deck drawn at ``card_mm`` in ``lang`` (the deck's first language by
        default): a mistake is the command's error."""
        with self._work:
            catalogue = self._load()
            lang = deck_lang(catalogue, lang)
            view = draw(catalogue, card_mm, lang)
            with self._state:
                self.catalogue, self.inputs = catalogue, self.inputs_of(catalogue)
                self.views[(tuple(card_mm), lang)] = view

    def update(self, read: dict, changed: str = "") -> str:
        """Load the deck again and draw again the cards a save changed, in the view last asked for (``changed``:
        what the watch saw change, "" at the start). Fills ``read`` as a ``--watch`` build does, and
        returns the line to tell on stderr."""
        start = time.monotonic()
        with self._work:
            if not changed and self.catalogue is not None:  # the start: the deck is loaded already
                read.update(catalogue=self.catalogue, inputs=self.inputs)
                return ""
            try:
                catalogue = self._load()
                inputs = self.inputs_of(catalogue)
                read.update(catalogue=catalogue, inputs=inputs)
                # the view last asked for is drawn again now; the others go, and are drawn when asked again
                views = OrderedDict((key, draw(catalogue, key[0], key[1], old))
                                    for key, old in list(self.views.items())[-1:] if key[1] in catalogue.langs)
            except UserError as err:
                with self._state:
                    self.error = f"toolkit: error: {err}"
                    self.generation += 1
                self._tell({"error": self.error, "changed": {}})
                return f"toolkit: studio: {changed}error: {err} (the page keeps the last good cards)"
            news = {view_key(*key): view.changed(self.views.get(key)) for key, view in views.items()}
            with self._state:
                self.catalogue, self.inputs, self.views, self.error = catalogue, inputs, views, None
                self.generation += 1
            self._tell({"error": None, "changed": news})
            redrawn = len({card for cards in news.values() for card in cards})
            return (f"toolkit: studio: {changed}{redrawn} card{'s' if redrawn != 1 else ''} redrawn "
                    f"in {time.monotonic() - start:.1f} s")

    def _tell(self, event: dict) -> None:
        for listener in list(self.listeners):
            listener(event)

    def view(self, card_mm: tuple[float, float], lang: str) -> View:
        """The deck at ``card_mm`` in ``lang``, drawn now if it is not kept (the oldest view asked for
        then goes)."""
        key = (tuple(card_mm), lang)
        with self._state:
            if key in self.views:
                self.views.move_to_end(key)
                return self.views[key]
        with self._work:
            catalogue = self.catalogue
            deck_lang(catalogue, lang)
            view = self.views.get(key) or draw(catalogue, card_mm, lang)
            with self._state:
                self.views[key] = view
                self.views.move_to_end(key)
                while len(self.views) > MAX_VIEWS:
                    self.views.popitem(last=False)
            return view

    def image(self, card_mm: tuple[float, float], lang: str, side: str, card_id: str) -> bytes | None:
        """The PNG of one side ("front" or "back") of one card, None when there is no such card."""
        view = self.view(card_mm, lang)
        digest = (view.fronts if side == "front" else view.backs).get(card_id)
        return view.images.get(digest) if digest else None

    def table(self, card_mm: tuple[float, float], lang: str) -> dict:
        """What the page shows: the cards (each with its pictures' digests), the table and its totals."""
        view = self.view(card_mm, lang)
        with self._state:
            catalogue, error, generation = self.catalogue, self.error, self.generation
        from toolkit.games.registry import for_catalogue

        kinds: dict[str, int] = {}
        for card in catalogue.cards:
            kinds[card.kind] = kinds.get(card.kind, 0) + card.count
        fields = list(catalogue.field_names)
        return {
            "title": catalogue.title[lang] if lang in catalogue.title else catalogue.game,
            "game": catalogue.game,
            "source": catalogue.source.name,
            "langs": list(catalogue.langs),
            "lang": lang,
            "view": view_key(card_mm, lang),
            "card_mm": list(card_mm),
            "generation": generation,
            "error": error,
            "playable": for_catalogue(catalogue).playable,
            "fields": fields,
            "cards": [{"id": card.id, "kind": card.kind, "colour": card.colour or "", "count": card.count,
                       "name": card.name[lang], "text": card.text[lang] if lang in card.text else "",
                       "fields": {name: str(card.fields.get(name, "")) for name in fields},
                       "front": view.fronts.get(card.id), "back": view.backs.get(card.id)}
                      for card in catalogue.cards],
            "total": catalogue.total,
            "kinds": kinds,
        }
