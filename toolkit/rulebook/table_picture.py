"""The pictures of the table in the rulebook: one player's side of the table as it looks during a game
(``{table:...}``, for the example of play) or as a game starts (``{setup:...}``, for the set-up), drawn
with the real card faces (the print renderer, reading the catalogue) at a small scale, each
part labelled in the book's language.

The text places it with a block line whose keys are the game's own (the labels are the text's):
``{table:player=...|...}``, the keys a game's ``Game.table_keys``, its scene (which cards lie where)
``Game.table_scene``, built from the pieces here; ``{setup:...}`` the same with ``Game.setup_keys`` and
``Game.setup_scene``. A game without them has no table picture. Labels are 7.5 pt at least, as the
book's captions, and stay inside the picture's frame (the player's place's label too, a line a
language when the two do not fit on one).

Only cards the deck holds (count > 0) are drawn, so a deck changed by ``--set`` still draws: a part
with no card to show is left out. The miniature cards show their art and name only: their rules
text would be too small to read. The picture fits the column it stands in. A book in two languages
draws it once, labelled in both (the second language in grey under the first).
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, Spacer

from toolkit.cards.render import CARD_SIZES, CardFace, draw_card
from toolkit.catalogue.model import CardType, Catalogue
from toolkit.errors import UserError
from toolkit.games.registry import get as game_of
from toolkit.typeset.breaks import bind, drawn
from toolkit.typeset.fonts import SANS, SANS_BOLD, SMALLEST_PT
from toolkit.typeset.units import PT_PER_MM

TOKEN_SIZE = 0.42                # a victory token's diameter, in card widths
POKER = CARD_SIZES["poker"]
RATIO = POKER[1] / POKER[0]      # a card's height in card widths
MAX_CARD = 13.0 * PT_PER_MM             # the cards are never drawn wider than this
SMALLEST = 0.75                  # nor narrower than this part of the column's largest, to fill a page
LABEL_FONT, LABEL_SIZE, LABEL_LEAD = SANS_BOLD, SMALLEST_PT, 8.8  # never under a book's captions
OTHER_FONT = SANS                # a bilingual book's second language, in grey
LABEL_GAP = 4.0                  # points at least between two labels side by side
SEAT_BAND = 13.0                 # the player's place and label, a band along the table's near edge
TABLE = colors.HexColor("#efe9dc")
EDGE = colors.HexColor("#b9ab8f")
INK = colors.HexColor("#1d1d1f")
OUTLINE = colors.HexColor("#8a8170")
MUTED = colors.HexColor("#4a4f57")  # a label's second language: 70 % black, as the book's captions


@dataclass(frozen=True)
class Card:
    """A card in the scene: its face, its lower-left corner (x, y, in card widths) and a turn in degrees
    about its centre."""

    face: CardFace
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Label:
    """A label under its cards: its key, its centre and the width it may take, in card widths."""

    key: str
    x: float
    width: float


@dataclass
class Scene:
    """Rows from the top of the table down, each of cards and labels; ``width`` in card widths."""

    width: float
    rows: list[tuple[float, list[Card], list[Label], list[tuple[float, float]]]]  # height, cards, labels, empty places
    seat_x: float
    tokens: list[tuple[int, float, float]] = ()  # (value, centre x, y above their row's base) in card widths
    tokens_row: int = -1  # the row the tokens lie in: the last (a player's own) or the first (a common supply)


def pick(catalogue: Catalogue, kind: str, colour: str | None = None, avoid: tuple = ()) -> CardType | None:
    """The first card of ``kind`` the deck holds (of ``colour``, not of a colour in ``avoid``), or None."""
    for card in catalogue.cards:
        if card.kind == kind and card.count > 0 and (colour is None or card.colour == colour) \
                and card.colour not in avoid:
            return card
    return None


def pile_and_discard(catalogue: Catalogue, face, back: CardFace, width: float, discard_kinds: tuple):
    """The draw pile (a few backs) and the discard pile (the first two kinds of ``discard_kinds`` the deck
    holds) in the middle of a table ``width`` wide, with their labels ``pile`` and ``discard``."""
    centre, cards = width / 2, []
    for i in range(3):  # a few backs, a little offset: a pile
        cards.append(Card(back, centre - 1.25 + 0.035 * i, 0.035 * i))
    labels = [Label("pile", centre - 0.75 + 0.035, 1.9)]
    top = next((c for kind in discard_kinds if (c := pick(catalogue, kind))), None)
    under = next((c for kind in discard_kinds[1:] if (c := pick(catalogue, kind)) and c is not top), None)
    if top:
        if under:
            cards.append(Card(face(under), centre + 0.3, 0.0, -7))
        cards.append(Card(face(top), centre + 0.25, 0.0, 4))
        labels.append(Label("discard", centre + 0.75, 1.9))
    return cards, labels


def pile_and_empty_discard(back: CardFace, width: float, cards: int = 5):
    """The draw pile (the whole deck: a few more backs) and the empty place of the discard pile beside
    it, as a game starts, with their labels ``pile`` and ``discard``; the empty place is returned apart
    (an outline)."""
    centre = width / 2
    pile = [Card(back, centre - 1.25 + 0.035 * i, 0.035 * i) for i in range(cards)]
    labels = [Label("pile", centre - 0.75 + 0.07, 1.9), Label("discard", centre + 0.75, 1.9)]
    return pile, labels, [(centre + 0.25, 0.0)]


def _lines(text: str, width: float, font: str = LABEL_FONT) -> list[str]:
    """``text`` in lines no wider than ``width`` points (no break at a no-break space); never cut: a long
    label takes a line more, and its band grows with it."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and pdfmetrics.stringWidth(lines[-1] + " " + word, font, LABEL_SIZE) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


class TablePicture(Flowable):
    """The scene at the largest card size up to MAX_CARD that fits the column. ``labels`` holds for
    each key the label in each language of the book, the book's first language first."""

    def __init__(self, scene: Scene, labels: dict[str, list[str]], catalogue: Catalogue):
        super().__init__()
        self.scene, self.labels, self.catalogue = scene, labels, catalogue
        self.spaceBefore, self.spaceAfter = 1.5 * PT_PER_MM, 3 * PT_PER_MM
        self.wrap(scene.width * MAX_CARD, 10_000)

    def _widest_word(self, label: Label) -> float:
        """The widest word of the label in any of its languages, in points: it cannot be broken."""
        return max((pdfmetrics.stringWidth(word, LABEL_FONT if i == 0 else OTHER_FONT, LABEL_SIZE)
                    for i, text in enumerate(self.labels.get(label.key, ())) for word in text.split(" ")), default=0.0)

    def _label_lines(self, label: Label, unit: float, row: list[Label]) -> list[tuple[str, bool]]:
        """(line, whether it is the book's first language) of one label under its cards, each line
        within the label's own room: its width, less where a neighbour's width reaches into it (the
        two share the overlap, each keeping room for its widest word where it can), with LABEL_GAP
        between them."""
        left, right = (label.x - label.width / 2) * unit, (label.x + label.width / 2) * unit
        x = label.x * unit
        for other in row:
            if other is label:
                continue
            ox, o_left, o_right = other.x * unit, (other.x - other.width / 2) * unit, (other.x + other.width / 2) * unit
            if ox < x and o_right + LABEL_GAP > left:  # a neighbour on the left reaching into (or near) its room
                lowest = ox + self._widest_word(other) / 2 + LABEL_GAP / 2
                highest = x - self._widest_word(label) / 2 - LABEL_GAP / 2
                left = max(left, min(max((left + o_right) / 2, lowest), highest) + LABEL_GAP / 2)
            elif ox >= x and o_left - LABEL_GAP < right:  # one on the right
                lowest = x + self._widest_word(label) / 2 + LABEL_GAP / 2
                highest = ox - self._widest_word(other) / 2 - LABEL_GAP / 2
                right = min(right, max(min((o_left + right) / 2, highest), lowest) - LABEL_GAP / 2)
        width = 2 * min(x - left, right - x)
        out = []
        for i, text in enumerate(self.labels.get(label.key, ())):
            out += [(line, i == 0) for line in _lines(text, width, LABEL_FONT if i == 0 else OTHER_FONT)]
        return out

    def _bands(self, unit: float) -> list[float]:
        """The height of each row's label band: as many lines as its longest label takes."""
        return [max((len(self._label_lines(label, unit, labels)) for label in labels), default=1) * LABEL_LEAD + 3
                for _, _, labels, _ in self.scene.rows]

    def _seat_lines(self, u: float) -> list[tuple[str, bool]]:
        """The player's place's label beside its mark, inside the frame: both languages on one line when
        they fit there, else a line each (the second in grey), each wrapped to the room."""
        room = self.scene.width * u - (self.scene.seat_x * u + 4.2 * PT_PER_MM) - 2 * PT_PER_MM
        texts = self.labels["player"]
        joined = " / ".join(texts)
        if pdfmetrics.stringWidth(joined, LABEL_FONT, LABEL_SIZE) <= room:
            return [(joined, True)]
        return [(line, i == 0) for i, text in enumerate(texts)
                for line in _lines(text, room, LABEL_FONT if i == 0 else OTHER_FONT)]

    def _size(self, u: float) -> float:
        self.unit, self.bands = u, self._bands(u)
        self.seat = self._seat_lines(u)
        rows = sum(h * u + band for (h, *_), band in zip(self.scene.rows, self.bands))
        self.width = self.scene.width * u
        self.height = (rows + 0.25 * u + 0.3 * u * (len(self.scene.rows) - 1) + SEAT_BAND
                       + (len(self.seat) - 1) * LABEL_LEAD)
        return self.height

    def wrap(self, avail_width, avail_height):
        """The largest cards up to MAX_CARD the column's width allows; down to SMALLEST of that when
        it lets the picture fill the rest of a page instead of leaving it empty."""
        full = min(MAX_CARD, avail_width / self.scene.width)
        u = full
        while self._size(u) > avail_height and u > full * SMALLEST:
            u = max(full * SMALLEST, u - 0.25 * PT_PER_MM)
        if self.height > avail_height:
            self._size(full)
        self._avail = avail_width
        return avail_width, self.height

    def draw(self):
        c, u = self.canv, self.unit
        c.saveState()
        c.translate((self._avail - self.width) / 2, 0)
        c.setFillColor(TABLE)
        c.setStrokeColor(EDGE)
        c.setLineWidth(1.2)
        c.roundRect(0, 0, self.width, self.height, 3 * PT_PER_MM, stroke=1, fill=1)
        # The player's place at the table's near edge, a band inside the picture, named beside it.
        seat = self.scene.seat_x * u
        c.setFillColor(EDGE)
        mark = 3.2 * PT_PER_MM  # the place's half-disc, its radius
        c.wedge(seat - mark, -mark, seat + mark, mark, 0, 180, stroke=0, fill=1)
        y = 4.0 + (len(self.seat) - 1) * LABEL_LEAD
        for line, first in self.seat:
            c.setFillColor(INK if first else MUTED)
            c.setFont(LABEL_FONT if first else OTHER_FONT, LABEL_SIZE)
            c.drawString(seat + 4.2 * PT_PER_MM, y, line)
            y -= LABEL_LEAD
        top = self.height - 0.25 * u
        for (height, cards, labels, empty), band in zip(self.scene.rows, self.bands):
            base = top - height * u  # the row's cards stand on this line
            for x, y in empty:
                c.saveState()
                c.setStrokeColor(OUTLINE)
                c.setLineWidth(0.7)
                c.setDash(2.5, 2)
                c.roundRect(x * u, base + y * u, u, RATIO * u, 1.5, stroke=1, fill=0)
                c.restoreState()
            for card in cards:
                self._card(card, base)
            if (height, cards, labels, empty) == self.scene.rows[self.scene.tokens_row]:
                self._tokens(base)
            for label in labels:
                y = base - 3 - LABEL_SIZE * 0.8
                for line, first in self._label_lines(label, u, labels):
                    c.setFillColor(INK if first else MUTED)
                    c.setFont(LABEL_FONT if first else OTHER_FONT, LABEL_SIZE)
                    c.drawCentredString(label.x * u, y, line)
                    y -= LABEL_LEAD
            top = base - band - 0.3 * u
        c.restoreState()

    def _tokens(self, base: float) -> None:
        """The heap of victory tokens: the sheet's own tokens, scaled down, without their names."""
        from toolkit.pdf import tokens as token_art

        paint, full = token_art.colours(self.catalogue), 25.0  # mm, a token as the sheet prints it
        for value, x, y in self.scene.tokens:
            self.canv.saveState()
            self.canv.translate(x * self.unit, base + y * self.unit)
            self.canv.scale(TOKEN_SIZE * self.unit / (full * PT_PER_MM), TOKEN_SIZE * self.unit / (full * PT_PER_MM))
            token_art.draw_token(self.canv, value, "", full, paint[value])
            self.canv.restoreState()

    def _card(self, card: Card, base: float) -> None:
        c, u = self.canv, self.unit
        w, h = u, RATIO * u
        c.saveState()
        c.translate(card.x * u + w / 2, base + card.y * u + h / 2)
        c.rotate(card.angle)
        c.translate(-w / 2, -h / 2)
        c.saveState()  # the shadow's transparency must not reach the card
        c.setFillColor(colors.Color(0, 0, 0, alpha=0.18))
        c.roundRect(0.6, -0.6, w, h, 1.5, stroke=0, fill=1)
        c.restoreState()
        scale = w / (card.face.width * PT_PER_MM)
        c.saveState()
        c.scale(scale, scale)
        draw_card(c, card.face, 0, 0)
        c.restoreState()
        c.setStrokeColor(OUTLINE)
        c.setLineWidth(0.3)
        c.roundRect(0, 0, w, h, 1.5, stroke=1, fill=0)
        c.restoreState()


def _labels(story, block, lang: str) -> dict[str, str]:
    """The labels of one language's table block, checked against the game's keys."""
    catalogue = story.catalogue
    where = f"{story.sources[lang].file}:{block.line}"
    game = game_of(catalogue.game)
    keys = game.setup_keys if block.kind == "setup" else game.table_keys
    if not keys:
        what = "picture of the table as a game starts" if block.kind == "setup" else "table picture"
        raise UserError(f"{where}: there is no {what} for {catalogue.game}")
    given = dict(zip(block.args, block.items))
    missing = [k for k in keys if k not in given]
    unknown = [k for k in given if k not in keys]
    if missing or unknown:
        raise UserError(f"{where}: the table picture of {catalogue.game} takes the labels {', '.join(keys)} "
                        f"({'missing: ' + missing[0] if missing else 'unknown: ' + unknown[0]})")
    return {k: drawn(bind(story.facts[lang].plain(given[k][0]), lang)) for k in keys}


def _same_block(story, block, lang: str, other: str):
    """The table block of language ``other`` that stands where ``block`` stands in ``lang``."""
    for index, section in enumerate(story.sources[lang].sections):
        if block in section.blocks:
            tables = [b for b in section.blocks if b.kind == block.kind]
            mine = story.sources[other].sections[index]
            return [b for b in mine.blocks if b.kind == block.kind][tables.index(block)]
    raise AssertionError("the block is not in its source")  # pragma: no cover


def table_picture(story, block, lang: str) -> Flowable:
    """The flowable for a ``{table:...}`` block of ``story`` (a layout.Story) in ``lang``. A book in
    two languages shows the picture once, with the first language's block, labelled in both."""
    langs = story.langs
    if lang != langs[0]:
        return Spacer(0, 0)
    per_lang = [_labels(story, block, lang)]
    per_lang += [_labels(story, _same_block(story, block, lang, other), other) for other in langs[1:]]
    labels = {key: [labels[key] for labels in per_lang] for key in per_lang[0]}
    catalogue = story.catalogue
    back = story.back(lang)
    def face(card: CardType) -> CardFace:  # no words: at this size they would be unreadable, and cut by the overlap
        return story.bare_picture(card.id, lang)

    game = game_of(catalogue.game)
    scene = (game.setup_scene if block.kind == "setup" else game.table_scene)(catalogue, face, back)
    return TablePicture(scene, labels, catalogue)
