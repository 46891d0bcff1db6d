"""The rulebook as a PDF: reportlab platypus, PT Serif text, PT Sans headings, cards drawn by the
same renderer as the print-and-play sheets.

Two page layouts share one story:

* ``a4`` / ``letter``: two columns per page under a title banner on the first page;
* booklet pages (A5 or half-Letter): one column, a cover first; ``booklet.impose`` then puts them
  two-up on the sheet in saddle-stitch order.

Headings keep with what follows them (no heading ends a column), paragraphs leave no single line
behind at a column's foot or head, no line ends where :func:`toolkit.typeset.breaks.bind` forbids it
(``хотя бы``, ``в замок``, ``3 карты``), long words are hyphenated with pyphen's dictionaries for the
block's language, bold ones too (and any word that still does not fit is split, so no line runs over
its column). Every book is set ragged right, in every language: one alignment throughout (justified
Russian lines in a narrow column stretched their word gaps to three or four spaces, and paragraphs set
ragged to avoid that stood beside justified ones), every word gap a plain space.
The PDF is built with ``invariant=1``: the same inputs give the same bytes.
"""

from __future__ import annotations

import copy
import io
import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, FrameBreak, NextPageTemplate,
                                KeepTogether, PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle)

from toolkit.cards.render import CARD_SIZES, CardFace, Line, draw_card, ellipsize
from toolkit.catalogue.model import Catalogue
from toolkit.games.registry import get as game_of
from toolkit.layout.engine import Look
from toolkit.odds.plot import bar_chart
from toolkit.pdf import tokens as token_art
from toolkit.pdf.canvas import binary_streams
from toolkit.placeholders.facts import NBSP, VARIANT_OPEN, Facts, format_number
from toolkit.rulebook.markup import Block, Section, Source
from toolkit.typeset.breaks import bind, drawn
from toolkit.typeset.fonts import SANS, SANS_BOLD, SERIF, SERIF_ITALIC, SMALLEST_PT, register_fonts
from toolkit.typeset.units import PT_PER_MM

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
INK = colors.HexColor("#1d1d1f")
ACCENT = colors.HexColor("#1f3b73")
MUTED = colors.HexColor("#6b7280")
GLOSS = colors.HexColor("#4a4f57")  # a caption's second language: 70 % black (the muted grey was 45 %)
RULE = colors.HexColor("#c9ced6")
TAGS = {"ru": colors.HexColor("#b8322a"), "en": colors.HexColor("#1f5fbf")}
OTHER_TAG = colors.HexColor("#4d5a66")  # the label of a language with no colour of its own
HYPHENATION = {"ru": "ru_RU", "en": "en_US"}  # others: pyphen's dictionary for the language, if it has one
SHY = "\u00ad"
POKER = CARD_SIZES["poker"]
CAPTION_PT = SMALLEST_PT  # the smallest type of a book: captions under pictures, a bilingual block's language tag
CAPTION_LINES = 2.5  # a card's or token's name under its picture takes about this many lines at most
CAPTION_PAD = 3.2    # points on each side of a caption in its cell
PICTURE_DPI = 200    # a card pictured in the book: its printed face as one picture (sharp at 25 mm wide)
SAMPLE_ABOVE = 24    # a deck of more card types pictures a sample of them (Story.shown_cards)


@cache
def _pyphen(lang: str):
    import pyphen

    # three letters at least on each side: «По-|этому» would read as a hyphenated word
    code = HYPHENATION.get(lang) or pyphen.language_fallback(lang)
    return pyphen.Pyphen(lang=code, left=3, right=3) if code else None  # None: a language pyphen has no rules for


# Words of seven letters or more are hyphenated: a shorter one ("cas-|tle") is better moved whole.
_WORD = re.compile(r"(?<![\w\-])[A-Za-zÀ-ÿА-Яа-яЁё]{7,}(?![\w\-])")
_TAG = re.compile(r"(<[^>]*>|&[a-z]+;|&#\d+;)")


@lru_cache(maxsize=4096)  # the copyfitting lays the same paragraphs out again at each size it tries
def hyphenate(markup: str, lang: str) -> str:
    """Soft hyphens (U+00AD) at the break points pyphen's dictionary allows for ``lang``, three
    letters at least from either end, in every word of seven letters or more outside tags. reportlab breaks a line at one of them, with a visible
    hyphen, only when the word would not fit. Words joined by a hyphen (variant names) stay whole.
    A no-break space is never a break point, so a long word may be hyphenated inside a group that
    :func:`toolkit.typeset.breaks.bind` holds together (``хотя бы 3 брил-/лианта``), but the group's
    short words always stay with the part of it next to them."""
    dictionary = _pyphen(lang)
    if dictionary is None:
        return markup
    parts = _TAG.split(markup)

    def word(match: re.Match, last: bool) -> str:
        text, end = match.string, match.end()
        # reportlab mishandles a word with soft hyphens that ends a run of text before a tag: it drops
        # the space after it ("exactly <b>one</b>" came out "exactlyone"), or doubles the space after
        # the part it carries to the next line. That word is left whole; all others, bold or not,
        # may be hyphenated, so that the lines of a bold question stay even too.
        if not last and " " not in text[end:].rstrip(" "):  # the run's last word, punctuation and all
            return match.group(0)
        return dictionary.inserted(match.group(0), hyphen=SHY)

    for i, part in enumerate(parts):
        if not i % 2 and not (i and parts[i - 1] == VARIANT_OPEN):  # not a tag, nor a rule's name
            parts[i] = _WORD.sub(lambda m: word(m, i == len(parts) - 1), part)
    # A paragraph never ends in a word fragment («приго-/дились»): its last word stays whole.
    for i in range(len(parts) - 1, -1, -2):  # _TAG.split puts text at the even indexes, last included
        cut = max(parts[i].rfind(" "), parts[i].rfind(NBSP))
        parts[i] = parts[i][:cut + 1] + parts[i][cut + 1:].replace(SHY, "")
        if cut >= 0:
            break
    return "".join(parts)


class BodyParagraph(Paragraph):
    """A paragraph that never leaves a hyphenated word's first part at the foot of a column or page
    (such a split moves one more line on)."""

    head_lines = 0  # under a heading: at least this many of its lines stay with it at a column's foot

    def split(self, avail_width, avail_height):
        parts = super().split(avail_width, avail_height)
        while len(parts) == 2 and _ends_hyphenated(parts[0], avail_width) and avail_height > 0:
            avail_height -= self.style.leading
            parts = super().split(avail_width, avail_height)
        if len(parts) == 2 and self.head_lines and _line_count(parts[0], avail_width) < self.head_lines:
            return []  # the heading and its paragraph go on together to the next column
        return parts


def _headed(flow: list, heads: tuple) -> list:
    """``flow`` with each heading kept with what follows it: a short list (one KeepTogether) goes with
    it as one block, a paragraph keeps HEAD_LINES lines at least with it at a column's foot."""
    out: list = []
    for flowable in flow:
        heading = out[-1] if out else None
        if isinstance(heading, Paragraph) and heading.style in heads:
            if isinstance(flowable, KeepTogether):
                out[-1] = KeepTogether([heading, *flowable._content])
                continue
            if isinstance(flowable, BodyParagraph):
                flowable.head_lines = max(flowable.head_lines, HEAD_LINES)
        out.append(flowable)
    return out


def _line_count(paragraph: Paragraph, width: float) -> int:
    paragraph.wrap(width, 10_000)
    return len(getattr(paragraph.blPara, "lines", []) or [])


HEAD_LINES = 3   # a heading at a column's foot keeps at least this many lines of its text with it
SHORT_LIST = 4   # a list of at most this many items and SHORT_LINES lines is never split between columns
SHORT_LINES = 12  # or pages (a longer one leaves too large a hole where it does not fit)
WHOLE_LINES = 10  # a paragraph kept whole (a quick start's, a list's first item) is at most this long


def _ends_hyphenated(paragraph: Paragraph, width: float) -> bool:
    paragraph.wrap(width, 10_000)
    lines = getattr(paragraph.blPara, "lines", None)
    if not lines:
        return False
    last = lines[-1]
    words = last[1] if isinstance(last, tuple) else [w.text if hasattr(w, "text") else w for w in
                                                     getattr(last, "words", [])]
    text = "".join(str(w) if not hasattr(w, "text") else w.text for w in words) if words else ""
    return text.rstrip().endswith("-")


def typeset(markup: str, lang: str) -> str:
    """A paragraph's markup ready for reportlab: soft hyphens added to the markup of
    ``Facts.markup``, which already holds no-break spaces where no line may end."""
    return hyphenate(markup, lang)


# --- page geometry ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Geometry:
    page: tuple[float, float]   # mm
    left: float
    right: float
    top: float
    bottom: float
    columns: int
    gutter: float
    booklet: bool
    body_size: float

    @property
    def width(self) -> float:
        return self.page[0] - self.left - self.right

    @property
    def column(self) -> float:
        return (self.width - (self.columns - 1) * self.gutter) / self.columns

    @property
    def height(self) -> float:
        return self.page[1] - self.top - self.bottom


def geometry(paper: str, booklet: bool) -> Geometry:
    w, h = PAPERS[paper]
    if booklet:  # half the sheet, so that two pages sit side by side at full size
        return Geometry((h / 2, w), 14, 14, 13, 17, 1, 0, True, 9.5)
    return Geometry((w, h), 16, 16, 15, 17, 2, 7, False, 9.3)


# --- styles ----------------------------------------------------------------------------------------

class Styles:
    def __init__(self, geom: Geometry):
        register_fonts()
        size = geom.body_size
        lead = round(size * 1.32, 2)
        self.size, self.lead = size, lead
        self.title = ParagraphStyle("title", fontName=SANS_BOLD, fontSize=30 if geom.booklet else 28,
                                    leading=34 if geom.booklet else 31, textColor=ACCENT, spaceAfter=2)
        self.tagline = ParagraphStyle("tagline", fontName=SERIF_ITALIC, fontSize=12, leading=15,
                                      textColor=INK, spaceAfter=3)
        self.facts = ParagraphStyle("facts", fontName=SANS, fontSize=10, leading=13, textColor=MUTED)
        self.h2 = ParagraphStyle("h2", fontName=SANS_BOLD, fontSize=13, leading=15.5, textColor=ACCENT,
                                 spaceBefore=9, spaceAfter=3.5, keepWithNext=1)
        self.h3 = ParagraphStyle("h3", fontName=SANS_BOLD, fontSize=size + 0.8, leading=lead,
                                 textColor=INK, spaceBefore=4.5, spaceAfter=1, keepWithNext=1)
        self.caption = ParagraphStyle("caption", fontName=SANS, fontSize=CAPTION_PT, leading=9,
                                      alignment=TA_CENTER, textColor=INK)
        self.continued = ParagraphStyle("continued", fontName=SANS_BOLD, fontSize=size + 0.8, leading=lead,
                                        textColor=ACCENT)
        self.footer = ParagraphStyle("footer", fontName=SANS, fontSize=8)
        self._body: dict[str, ParagraphStyle] = {}

    def body(self, lang: str, kind: str = "para") -> ParagraphStyle:
        key = f"{lang}:{kind}"
        if key not in self._body:
            base = dict(fontName=SERIF, fontSize=self.size, leading=self.lead, textColor=INK,
                        alignment=TA_LEFT, splitLongWords=1, spaceShrinkage=0, allowWidows=0, allowOrphans=0,
                        spaceAfter=round(self.lead * 0.45, 2))
            if kind == "bullets":
                base.update(leftIndent=11, bulletIndent=2.5, bulletFontName=SERIF, bulletFontSize=self.size,
                            spaceAfter=round(self.lead * 0.2, 2))
            elif kind == "steps":
                base.update(leftIndent=13, bulletIndent=0, bulletFontName=SANS_BOLD, bulletFontSize=self.size,
                            spaceAfter=round(self.lead * 0.2, 2))
            self._body[key] = ParagraphStyle(key, **base)
        return self._body[key]


def _both(markups: list[str]) -> str:
    """A heading in the book's one language, or in both: the second in grey after a slash."""
    return markups[0] if len(markups) == 1 else f'{markups[0]}<font color="#{MUTED.hexval()[2:]}"> / {markups[1]}</font>'


def tag(lang: str) -> str:
    """The coloured language label that opens each block of a bilingual rulebook."""
    hexa = TAGS.get(lang, OTHER_TAG).hexval()[2:]
    return (f'<font name="{SANS_BOLD}" size="{CAPTION_PT}" color="white" backColor="#{hexa}">'
            f"{NBSP}{lang.upper()}{NBSP}</font>{NBSP} ")


# --- flowables -------------------------------------------------------------------------------------

class CardPicture(Flowable):
    """One card drawn by the print renderer at poker size, scaled down to ``width`` points."""

    def __init__(self, face: CardFace, width: float):
        super().__init__()
        self.face = face
        self.scale = width / (face.width * PT_PER_MM)
        self.width, self.height = width, face.height * PT_PER_MM * self.scale

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def draw(self):
        canvas = self.canv
        canvas.saveState()
        canvas.scale(self.scale, self.scale)
        draw_card(canvas, self.face, 0, 0)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.roundRect(0, 0, self.width, self.height, 1.2 * PT_PER_MM * self.scale * 2, stroke=1, fill=0)
        canvas.restoreState()


class CardFan(Flowable):
    """The cover's picture: a few cards fanned out, the back at the bottom of the stack."""

    def __init__(self, faces: list[CardFace], card_width: float, width: float):
        super().__init__()
        self.faces, self.card_width, self.width = faces, card_width, width
        self.card_height = card_width * POKER[1] / POKER[0]
        self.height = self.card_height * 1.25

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def draw(self):
        canvas, n = self.canv, len(self.faces)
        step = 11.0
        pivot = self.card_height * 0.9  # the fan turns about a point this far below the cards' feet
        for i, face in enumerate(self.faces):
            angle = (i - (n - 1) / 2) * step
            canvas.saveState()
            canvas.translate(self.width / 2, -pivot + self.card_height * 0.12)
            canvas.rotate(-angle)
            canvas.translate(-self.card_width / 2, pivot)
            canvas.saveState()
            canvas.setFillColor(colors.Color(0, 0, 0, alpha=0.15))
            canvas.roundRect(1.0, -1.0, self.card_width, self.card_height, 2.5, stroke=0, fill=1)
            canvas.restoreState()
            canvas.scale(self.card_width / (face.width * PT_PER_MM), self.card_width / (face.width * PT_PER_MM))
            draw_card(canvas, face, 0, 0)
            canvas.restoreState()


class TokenPicture(Flowable):
    """A token as the book pictures it: its value without its name (the caption says it; at this size
    the name would be 3-4 pt)."""

    def __init__(self, value: int, diameter_mm: float, colour):
        super().__init__()
        self.value, self.diameter, self.colour = value, diameter_mm, colour
        self.width = self.height = (diameter_mm + 2 * token_art.TOKEN_BLEED) * PT_PER_MM

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def draw(self):
        self.canv.saveState()
        self.canv.translate(self.width / 2, self.height / 2)
        token_art.draw_token(self.canv, self.value, "", self.diameter, self.colour)
        self.canv.restoreState()


class Chart(Flowable):
    """A 300 DPI chart at its full width, or down to ``smallest`` of it when that lets it finish the
    column instead of leaving the column's foot empty."""

    def __init__(self, png: bytes, width: float, height: float, smallest: float = 0.62):
        super().__init__()
        from reportlab.lib.utils import ImageReader

        self.image = ImageReader(io.BytesIO(png))
        self.full = (width, height)
        self.smallest = smallest
        self.width, self.height = width, height
        self.spaceBefore, self.spaceAfter = 1 * PT_PER_MM, 2.5 * PT_PER_MM

    def wrap(self, avail_width, avail_height):
        w, h = self.full
        scale = min(1.0, avail_width / w)
        if h * scale > avail_height and avail_height >= h * self.smallest:
            scale = avail_height / h
        self.width, self.height = w * scale, h * scale
        self._avail = avail_width
        return avail_width, self.height

    def draw(self):
        self.canv.drawImage(self.image, (self._avail - self.width) / 2, 0, self.width, self.height)


class IntroducedChart(Flowable):
    """A chart with the paragraph before it, which introduces it: the paragraph may begin in one
    column and end in the next, but its last lines (two at least) go with the chart."""

    def __init__(self, intro: Paragraph, chart: Chart):
        super().__init__()
        self.intro, self.chart = intro, chart
        self.gap = max(intro.getSpaceAfter(), chart.getSpaceBefore())
        self.spaceBefore, self.spaceAfter = intro.getSpaceBefore(), chart.getSpaceAfter()

    def wrap(self, avail_width, avail_height):
        _, above = self.intro.wrap(avail_width, avail_height)
        _, below = self.chart.wrap(avail_width, max(avail_height - above - self.gap, 0))
        self.width, self.height = avail_width, above + self.gap + below
        return self.width, self.height

    def split(self, avail_width, avail_height):
        parts = self.intro.split(avail_width, avail_height)
        if len(parts) != 2:  # not even the paragraph's first lines fit here
            return []
        return [parts[0], IntroducedChart(parts[1], self.chart)]

    def draw(self):
        self.intro.drawOn(self.canv, 0, self.height - self.intro.height)
        self.chart.drawOn(self.canv, 0, 0)


class Rule(Flowable):
    def __init__(self, width: float, colour=RULE, thickness: float = 0.6):
        super().__init__()
        self.width, self.height, self.colour, self.thickness = width, thickness + 2, colour, thickness

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return self.width, self.height

    def draw(self):
        self.canv.setStrokeColor(self.colour)
        self.canv.setLineWidth(self.thickness)
        self.canv.line(0, 1, self.width, 1)


# --- the story -------------------------------------------------------------------------------------

class Story:
    """Turns the parsed sources of one or two languages into flowables."""

    def __init__(self, catalogue: Catalogue, sources: dict[str, Source], facts: dict[str, Facts], geom: Geometry,
                 designer: bool = False):
        self.catalogue, self.sources, self.facts, self.geom = catalogue, sources, facts, geom
        self.designer = designer
        self.langs = list(sources)
        self.styles = Styles(geom)
        self.chart_smallest = 0.62  # a chart may shrink to this share of its width to finish a column
        self._faces: dict[tuple[str, str], CardFace] = {}
        self._pictures: dict[tuple, CardFace] = {}
        self._looks: dict[str, Look] = {}
        self._charts: dict[tuple, bytes] = {}

    def face(self, card_id: str, lang: str) -> CardFace:
        key = (card_id, lang)
        if key not in self._faces:
            if lang not in self._looks:
                self._looks[lang] = Look(self.catalogue, lang, POKER)
            self._faces[key] = self._looks[lang].face(self.catalogue.card(card_id))
        return self._faces[key]

    def picture(self, card_id: str, lang: str) -> CardFace:
        """The card as the book pictures it: the face as printed, its words included (Weathervane's
        number in its band), laid into one picture at PICTURE_DPI, so that the book's text keeps its
        7.5 pt floor (a card's words are 2-4 pt at a picture's size; the caption names the card). One
        picture a card and language, kept: the copyfitting lays the book out several times, and a kept
        face keeps its encoding (``CardFace.pdf_image``) from one layout to the next."""
        key = (card_id, lang)
        if key not in self._pictures:
            from toolkit.cards.render import card_image

            face = self.face(card_id, lang)
            self._pictures[key] = CardFace(face.key, face.card_mm, face.bleed_mm, card_image(face, PICTURE_DPI))
        return self._pictures[key]

    def back(self, lang: str) -> CardFace:
        """The deck's back, drawn once a language: the cover's fan and each table picture show it in
        every layout the copyfitting tries."""
        key = ("back", lang)
        if key not in self._pictures:
            self._pictures[key] = Look(self.catalogue, lang, POKER).back()
        return self._pictures[key]

    def bare_picture(self, card_id: str, lang: str) -> CardFace:
        """The card as a table picture draws it: art, shapes and icons without a word (its cards are
        smaller still than the grid's and lie over one another; the labels say what they are)."""
        key = (card_id, lang, "bare")
        if key not in self._pictures:
            face = self.face(card_id, lang)
            self._pictures[key] = CardFace(face.key, face.card_mm, face.bleed_mm, face.art,
                                           tuple(op for op in face.ops if not isinstance(op, Line)))
        return self._pictures[key]

    def shown_cards(self) -> list:
        """The cards the components' grid pictures: every card type the deck holds, or, for a deck of
        more than SAMPLE_ABOVE types (Weathervane's 40 numbered cards), a sample: one card of each kind
        and colour (the first whose text says nothing of its own, else the first), and the first card
        of each text of its own (Weathervane's 1 and 10; texts that differ only in their icons are one),
        in the deck's order."""
        cards = [card for card in self.catalogue.cards if card.count]
        if len(cards) <= SAMPLE_ABOVE:
            return cards
        lang = self.langs[0]
        chosen: dict[str, None] = {}
        groups: dict[tuple, list] = {}
        for card in cards:
            groups.setdefault((card.kind, card.colour), []).append(card)
        for group in groups.values():
            plain = [card for card in group if not card.text[lang].strip()]
            chosen[(plain or group)[0].id] = None
        texts: dict[str, None] = {}
        for card in cards:
            text = re.sub(r":[A-Za-z0-9_-]+:", "", card.text[lang]).strip()  # the same words with another icon
            if text and text not in texts:
                texts[text] = None
                chosen[card.id] = None
        return [card for card in cards if card.id in chosen]

    # the title

    def banner(self, centred: bool = False) -> list:
        s, out = self.styles, []
        title_style, tagline_style, facts_style = (
            (ParagraphStyle(st.name + "-c", parent=st, alignment=TA_CENTER) for st in (s.title, s.tagline, s.facts))
            if centred else (s.title, s.tagline, s.facts))
        # the text's own '# Title', else the catalogue's title (text, not markup)
        titles = [self.facts[lang].markup([meta["title"]], title_style.fontSize) if "title" in meta
                  else escape(self.catalogue.title[lang])
                  for lang, meta in ((lang, self.sources[lang].meta) for lang in self.langs)]
        title = titles[0] if len(titles) == 1 else (
            f'{titles[0]}<font color="#{MUTED.hexval()[2:]}"> / {titles[1]}</font>')
        out.append(Paragraph(title, title_style))
        for lang in self.langs:  # a text without a tagline has none
            if "tagline" in self.sources[lang].meta:
                out.append(Paragraph(self.facts[lang].markup([self.sources[lang].meta["tagline"]],
                                                             tagline_style.fontSize), tagline_style))
        for lang in self.langs:  # without 'facts:', the players, age and time from the deck
            meta = self.sources[lang].meta
            line = (self.facts[lang].markup([meta["facts"]], facts_style.fontSize) if "facts" in meta
                    else self.facts[lang].deck_line())
            out.append(Paragraph(line, facts_style))
        return out

    def footer(self, lang: str, designer: bool = False) -> str:
        """The page footer in ``lang``: the text's ``footer:``, else the book's title line."""
        from toolkit.catalogue.words import words

        meta = self.sources[lang].meta
        if "footer" in meta:
            return self.facts[lang].plain(meta["footer"])
        key = "designer_title" if designer else "book_title"
        return words(self.catalogue, lang)[key].format(title=self.catalogue.title[lang])

    def cover(self) -> list:
        """The booklet's first page: title, a fan of cards, the facts."""
        out = self.banner(centred=True)
        game = game_of(self.catalogue.game)
        kinds = [k for k in game.kinds if self.catalogue.of_kind(k)]
        picks = [kinds[round(i * (len(kinds) - 1) / 3)] for i in range(4)] if len(kinds) > 4 else kinds
        faces, colour_index = [self.back(self.langs[-1])], 0
        for kind in dict.fromkeys(picks):
            cards = self.catalogue.of_kind(kind)
            card = cards[colour_index % len(cards)] if kind in game.coloured_kinds else cards[0]
            colour_index += kind in game.coloured_kinds
            faces.append(self.picture(card.id, self.langs[-1]))
        if len(faces) < 3:  # a game that names no kinds of card: four of its cards, spread over the deck
            faces[1:] = [self.picture(card_id, self.langs[-1]) for card_id in self.fan_cards()]
        width = self.geom.width * PT_PER_MM
        return [Spacer(1, 22 * PT_PER_MM), *out, Spacer(1, 22 * PT_PER_MM), CardFan(faces, 42 * PT_PER_MM, width)]

    def fan_cards(self) -> list[str]:
        """Four cards of a deck whose game names no kinds, for the cover's fan: one of each of its first
        four colours, at different places in the colour's run (its last, first, two thirds and a third
        along: Weathervane's Sun 10, Rain 1, Wind 7 and Snow 4); a deck without colours, four cards
        spread over it."""
        cards = [card for card in self.catalogue.cards if card.count]
        runs = [[card for card in cards if card.colour == colour.id] for colour in self.catalogue.colours]
        runs = [run for run in runs if run]
        if len(runs) < 3:
            return list(dict.fromkeys(cards[round(i * (len(cards) - 1) / 3)].id for i in range(4)))
        along = (1.0, 0.0, 2 / 3, 1 / 3)
        return [run[round(along[i] * (len(run) - 1))].id for i, run in enumerate(runs[:4])]

    # the sections

    def sections(self) -> list:
        out = []
        first = self.sources[self.langs[0]]
        for index, section in enumerate(first.sections):
            parts = [src.sections[index] for src in self.sources.values()]
            out.extend(self.section(parts))
        return out

    def plans_back_cover(self) -> bool:
        """Does the text fill a booklet's outside back cover on purpose (its last section starts with
        ``{newpage}``: a quick start on the back)?"""
        last = self.sources[self.langs[0]].sections[-1]
        return bool(last.blocks) and last.blocks[0].kind == "newpage"

    def section(self, parts: list[Section]) -> list:
        s = self.styles
        from toolkit.catalogue.words import words

        heads = [self.facts[lang].markup([part.heading], s.h2.fontSize) for lang, part in zip(self.langs, parts)]
        out: list = [Paragraph(_both(heads), s.h2)]
        # over the rest of a grid of pictures carried to the next column or page
        continued = _both([f"{head} ({escape(words(self.catalogue, lang)['continued'])})"
                           for head, lang in zip(heads, self.langs)])
        start = parts[0].blocks[0].kind
        for lang, part in zip(self.langs, parts):
            blocks = tuple(block for block in part.blocks if block.kind not in ("onepage", "newpage"))
            flow = self.blocks(blocks, lang, tagged=len(self.langs) > 1, continued=continued)
            if start == "newpage" and flow and not self.geom.booklet:
                # a page of its own in columns (the quick start): no paragraph or item broken between
                # columns, and in a book of two languages each language in a column of its own
                for flowable in flow:
                    if (isinstance(flowable, BodyParagraph)
                            and _line_count(flowable, self.geom.column * PT_PER_MM) <= WHOLE_LINES):
                        flowable.head_lines = 10 ** 6
                if lang != self.langs[0]:
                    flow = [FrameBreak(), *flow]
            out.extend(flow)
        out = _headed(out, (s.h2, s.h3))
        if start == "newpage":  # a page of its own: a booklet's back cover, a sheet's last page
            return [PageBreak(), KeepTogether(out)] if self.geom.booklet else [PageBreak(), *out]
        if start in ("onepage", "newpage"):  # kept on one page: a new page when it does not fit here
            return [KeepTogether(out)]
        return out

    def blocks(self, blocks: tuple[Block, ...], lang: str, tagged: bool, continued: str = "") -> list:
        """One language's blocks of a section; ``continued``: the section's heading over the rest of a grid
        of pictures broken across columns. A book in two languages draws its pictures (cards, tokens,
        the table) once, with the first language's blocks, captioned in both."""
        s, facts = self.styles, self.facts[lang]
        out: list = []
        prefix = tag(lang) if tagged else ""
        pictured = lang == self.langs[0]
        blocks = tuple(block for block in blocks if pictured or block.kind not in ("cards", "tokens"))
        if not blocks:
            return []
        if prefix and blocks[0].kind not in ("para",):
            out.append(Paragraph(prefix, ParagraphStyle("tagline-only", parent=s.body(lang), spaceAfter=2,
                                                        keepWithNext=1)))
            prefix = ""
        for index, block in enumerate(blocks):
            if block.kind == "para":
                out.append(BodyParagraph(prefix + typeset(facts.markup(block.items[0], s.size), lang), s.body(lang)))
                following = blocks[index + 1].kind if index + 1 < len(blocks) else ""
                if following in ("bullets", "steps"):  # a lead-in stays with the first item of its list
                    out[-1].keepWithNext = 1
            elif block.kind == "sub":
                out.append(Paragraph(facts.markup(block.items[0], s.h3.fontSize), s.h3))
            elif block.kind in ("bullets", "steps"):
                out.extend(self.items([facts.markup(item, s.size) for item in block.items], block.kind, lang))
            elif block.kind == "components":
                out.extend(self.items(self.components(lang), "bullets", lang))
            elif block.kind == "cards":
                out += [self.cards(continued), Spacer(1, 1.5 * PT_PER_MM)]
            elif block.kind == "tokens":
                if self.catalogue.tokens:
                    out += [self.tokens(continued), Spacer(1, 1.5 * PT_PER_MM)]
            elif block.kind == "figure":
                chart = self.figure(block, lang)
                if out and isinstance(out[-1], BodyParagraph):  # never parted from the words before it
                    out[-1] = IntroducedChart(out[-1], chart)
                else:
                    if out:
                        out[-1].keepWithNext = 1
                    out.append(chart)
            elif block.kind in ("table", "setup"):
                from toolkit.rulebook.table_picture import table_picture

                picture = table_picture(self, block, lang)
                after_para = index > 0 and blocks[index - 1].kind == "para"
                if after_para and out and isinstance(out[-1], BodyParagraph) and not isinstance(picture, Spacer):
                    out[-1] = IntroducedChart(out[-1], picture)  # never parted from the words before it
                else:
                    out.append(picture)
            prefix = ""
        return out

    def items(self, markups: list[str], kind: str, lang: str) -> list:
        """A bullet (``bullets``) or numbered (``steps``) list of paragraphs of markup."""
        s = self.styles
        style = s.body(lang, kind)
        bullets = ["•" if kind == "bullets" else f"{n}." for n in range(1, len(markups) + 1)]
        # reportlab starts the first line at bulletIndent + the bullet's width + 0.6 em when that
        # passes leftIndent: each bullet is set flush right against a gap of 0.6 em, so that every
        # first line starts exactly at the hanging indent of the lines under it.
        gap = 0.6 * style.bulletFontSize
        widths = [pdfmetrics.stringWidth(b, style.bulletFontName, style.bulletFontSize) for b in bullets]
        indent = max(style.leftIndent, max(widths) + gap)
        items = []
        for i, (markup, bullet, width) in enumerate(zip(markups, bullets, widths)):
            last = i == len(bullets) - 1  # the last item keeps the list's bottom margin
            item_style = ParagraphStyle(f"{style.name}-{i}", parent=style, leftIndent=indent,
                                        bulletIndent=indent - width - gap - 0.01,
                                        spaceAfter=s.body(lang).spaceAfter if last else style.spaceAfter)
            items.append(BodyParagraph(typeset(markup, lang), item_style, bulletText=bullet))
        width = self.geom.column * PT_PER_MM
        if self.geom.booklet and len(items) <= SHORT_LIST and \
                sum(_line_count(item, width) for item in items) <= SHORT_LINES:
            # set-up steps, "The cards at a glance": read as one, kept as one on a booklet's page (in the
            # columns of a sheet, where a column's foot is half a page's, their first item is whole:
            # kept together there, they left holes at columns' feet the text could not close)
            return [KeepTogether(items)]
        if _line_count(items[0], width) <= WHOLE_LINES:
            items[0].head_lines = 10 ** 6
        return items

    def components(self, lang: str) -> list[str]:
        """``{components}``: what the box holds, from the deck: the cards (by colour when the deck has
        colours) and each kind of counter, as list items of markup."""
        from toolkit.catalogue.words import counted, words

        c = self.catalogue
        cards = f"{format_number(c.total, lang)}{NBSP}{escape(counted(c, lang, 'cards', c.total))}"
        by_colour = [(colour.name[lang], sum(card.count for card in c.cards if card.colour == colour.id))
                     for colour in c.colours]
        shown = [f"{escape(name)}{NBSP}×{format_number(n, lang)}" for name, n in by_colour if n]
        uncoloured = c.total - sum(n for _, n in by_colour)
        if shown and uncoloured:
            shown.append(f"{escape(words(c, lang)['others'])}{NBSP}×{format_number(uncoloured, lang)}")
        items = [cards + (": " + ", ".join(shown) if shown else "")]
        items += [f"{escape(token.name[lang])}{NBSP}×{format_number(token.count, lang)}" for token in c.tokens
                  if token.count]
        return [drawn(bind(item, lang, markup=True), markup=True) for item in items]

    def _grid(self, cells: list, per_row: int, cell_width: float, heading: str) -> "Grid":
        """The pictures in rows of ``per_row`` cells (None: an empty cell), each captioned with its
        names in the book's languages and its count; every caption of a row wraps into as many lines
        as the row's longest needs (one language at a time), so that a row never mixes one-line and
        two-line captions. Broken across columns or pages, the grid repeats ``heading`` (the
        section's) over its rest, "(continued)"."""
        rows = [cells[i:i + per_row] for i in range(0, len(cells), per_row)]
        rows[-1] += [None] * (per_row - len(rows[-1]))
        room = cell_width - 2 * CAPTION_PAD
        grey = GLOSS.hexval()[2:]
        table_rows = []
        for row in rows:
            # (words, widths) of each filled cell's caption in each language: the first language's
            # last word is the count, in bold
            parts = [[self._caption_words(names[i], count if i == 0 else None, room) for i in range(len(self.langs))]
                     for _, names, count in filter(None, row)]
            lines = [max(_caption_lines(part[i][1], room) for part in parts) for i in range(len(self.langs))]
            captions = iter(parts)
            out = []
            for cell in row:
                if cell is None:
                    out.append("")
                    continue
                set_lines = [_break_caption(*words_widths, lines[i]) for i, words_widths in enumerate(next(captions))]
                markup = "<br/>".join(set_lines[0])
                if len(set_lines) > 1:
                    markup += "".join(f'<br/><font color="#{grey}">{line}</font>' for line in set_lines[1])
                out.append([*cell[0], Paragraph(markup, self.styles.caption)])
            table_rows.append(out)
        table = Table(table_rows, colWidths=[cell_width] * per_row, hAlign="CENTER")
        # The last row never stands alone at the head of a column, parted from the grid (a single flood).
        table.setStyle(TableStyle([("NOSPLIT", (0, max(0, len(rows) - 2)), (-1, -1))]))
        table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), SANS, 7),  # no stray Helvetica
                                   ("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   # captions of neighbouring cells keep a gap of 2 x CAPTION_PAD, or wrap
                                   ("LEFTPADDING", (0, 0), (-1, -1), CAPTION_PAD),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), CAPTION_PAD),
                                   ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]))
        return Grid(table, Paragraph(heading, self.styles.continued))

    def _caption_words(self, name: str, count: int | None, room: float) -> tuple[list[str], list[float]]:
        """A caption's words as markup and their widths: the name (cut with "…" when too long for a few
        lines of its cell, a word when too long for one) and, given ``count``, "×6" in bold."""
        style = self.styles.caption
        number = f"×{format_number(count, self.langs[0])}" if count is not None else ""
        number_width = pdfmetrics.stringWidth(number, SANS_BOLD, style.fontSize)
        shown = ellipsize(name, "label", style.fontSize, CAPTION_LINES * room - number_width - _caption_space())
        plain = [ellipsize(word, "label", style.fontSize, room) for word in shown.split(" ") if word]
        words = [escape(word) for word in plain]
        widths = [pdfmetrics.stringWidth(word, style.fontName, style.fontSize) for word in plain]
        if number:
            words.append(f"<b>{number}</b>")
            widths.append(number_width)
        return words, widths

    def cards(self, heading: str) -> "Grid":
        """Every card type with its picture, names and count; each coloured kind starts a new row. A
        book in two languages shows them once, captioned in both."""
        lang = self.langs[0]
        column = self.geom.column * PT_PER_MM
        per_row = max(2, min(max(4, len(self.catalogue.colours)), int(column // (19 * PT_PER_MM))))
        cell = column / per_row
        card_width = min((20 if self.geom.booklet else 25) * PT_PER_MM, cell - 3 * PT_PER_MM)
        game = game_of(self.catalogue.game)
        order = {kind: i for i, kind in enumerate(game.kinds)}
        cards = sorted(self.shown_cards(), key=lambda c: order.get(c.kind, len(order)))
        cells, kind = [], None
        for card in cards:
            if kind is not None and card.kind != kind and (card.kind in game.coloured_kinds or kind in game.coloured_kinds):
                cells += [None] * (-len(cells) % per_row)
            kind = card.kind
            cells.append(([CardPicture(self.picture(card.id, lang), card_width), Spacer(1, 1.5 * PT_PER_MM)],
                          [card.name[code] for code in self.langs], card.count))
        return self._grid(cells, per_row, cell, heading)

    def tokens(self, heading: str) -> "Grid":
        paint = token_art.colours(self.catalogue)
        column = self.geom.column * PT_PER_MM
        per_row = max(1, min(len(self.catalogue.tokens), int(column // (24 * PT_PER_MM))))
        cells, cell = [], column / max(per_row, 3)
        for token in self.catalogue.tokens:
            cells.append(([TokenPicture(token.value, 15, paint[token.value]), Spacer(1, 1 * PT_PER_MM)],
                          [token.name[code] for code in self.langs], token.count))
        return self._grid(cells, per_row, cell, heading)

    def figure(self, block: Block, lang: str) -> Flowable:
        name, xlabel, ylabel = block.args
        data = self.facts[lang].odds.chart(name)
        width = self.geom.column
        height = round(width * 0.5, 1)
        key = (name, xlabel, ylabel, lang)
        if key not in self._charts:
            self._charts[key] = bar_chart(data.xs, data.ys, xlabel=xlabel, ylabel=ylabel, width_mm=width,
                                          height_mm=height, lang=lang)
        return Chart(self._charts[key], width * PT_PER_MM, height * PT_PER_MM, self.chart_smallest)


def _caption_breaks(widths: list[float], space: float, lines: int) -> tuple[float, tuple[int, ...]]:
    """The words of ``widths`` on ``lines`` lines (or one a word, when there are fewer): (the longest
    line's width, the index of each line's first word after the first) for the breaks that make the
    longest line shortest."""
    from itertools import combinations

    n = len(widths)
    best = None
    for cuts in combinations(range(1, n), min(lines, n) - 1):
        bounds = (0, *cuts, n)
        longest = max(sum(widths[a:b]) + space * (b - a - 1) for a, b in zip(bounds, bounds[1:]))
        if best is None or longest < best[0]:
            best = (longest, cuts)
    return best


def _caption_space() -> float:
    return pdfmetrics.stringWidth(" ", SANS, CAPTION_PT)


def _caption_lines(widths: list[float], room: float) -> int:
    """The fewest lines a caption's words take within ``room`` points (one a word at most)."""
    for lines in range(1, len(widths)):
        if _caption_breaks(widths, _caption_space(), lines)[0] <= room:
            return lines
    return max(1, len(widths))


def _break_caption(words: list[str], widths: list[float], lines: int) -> list[str]:
    """A caption's words (markup) on ``lines`` lines, balanced (see _caption_breaks); the words of a
    line are held together by no-break spaces."""
    if not words:
        return []
    bounds = (0, *_caption_breaks(widths, _caption_space(), lines)[1], len(words))
    return [NBSP.join(words[a:b]) for a, b in zip(bounds, bounds[1:])]


class Grid(Flowable):
    """A grid of pictures (a reportlab Table, centred in its column) that, broken across columns or
    pages, repeats its section's heading over the rest ("Components (continued)"), so that the rows
    carried over never open a page without one. Its rows break as the table's do."""

    GAP = 2.0  # points between the repeated heading and the rows under it

    def __init__(self, table: Table, heading: Paragraph, continued: bool = False):
        super().__init__()
        self.table, self.heading, self.continued = table, heading, continued

    def _head(self, avail_width: float, avail_height: float) -> float:
        return self.heading.wrap(avail_width, avail_height)[1] + self.GAP if self.continued else 0.0

    def wrap(self, avail_width, avail_height):
        head = self._head(avail_width, avail_height)
        self.table_width, table_height = self.table.wrap(avail_width, avail_height - head)
        self.width, self.height = avail_width, head + table_height
        return self.width, self.height

    def split(self, avail_width, avail_height):
        parts = self.table.split(avail_width, avail_height - self._head(avail_width, avail_height))
        if len(parts) < 2:
            return []
        return [Grid(parts[0], self.heading, self.continued), Grid(parts[1], self.heading, True)]

    def draw(self):
        self.table.drawOn(self.canv, (self.width - self.table_width) / 2, 0)
        if self.continued:
            self.heading.drawOn(self.canv, 0, self.height - self.heading.height)


# --- the document ----------------------------------------------------------------------------------

class Column(Frame):
    """A column that ends where the one beside it ends (flush at its foot): on a page before the last,
    the room left at a column's foot (the next block did not fit there) is shared out between its
    blocks (``doc.stretch``, measured by a first layout: ``doc.gaps`` counts the gaps it may widen).
    No gap after a heading; the room added is less than what was left, so every block stays in the
    column it had (a block that did not fit, or split, with more room does the same with less)."""

    def __init__(self, doc: "_Doc", *args, **kwargs):
        self.doc = doc
        super().__init__(*args, **kwargs)

    def _reset(self):
        super()._reset()
        self.after_heading = False

    def __deepcopy__(self, memo):  # reportlab measures a block in a copy of its frame: the document stays one
        clone = self.__class__.__new__(self.__class__)
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            setattr(clone, name, value if name == "doc" else copy.deepcopy(value, memo))
        return clone

    def _add(self, flowable, canv, trySplit=0):
        if getattr(flowable, "frameAction", None):
            return super()._add(flowable, canv, trySplit)
        key = (self.doc.page, self.id)
        gap = not self._atTop and not self.after_heading
        extra = self.doc.stretch.get(key, 0.0) if gap else 0.0
        self._y -= extra
        if not super()._add(flowable, canv, trySplit):
            self._y += extra
            return 0
        self.doc.gaps[key] = self.doc.gaps.get(key, 0) + gap
        self.doc.heights[key] = self._height
        keep = getattr(flowable, "getKeepWithNext", None)
        self.after_heading = bool(keep()) if keep is not None else False
        return 1

    add = _add  # reportlab's Frame binds ``add`` to its own ``_add``


class _Doc(BaseDocTemplate):
    def __init__(self, buffer, geom: Geometry, footers: list[str], styles: Styles, **kwargs):
        super().__init__(buffer, pagesize=(geom.page[0] * PT_PER_MM, geom.page[1] * PT_PER_MM),
                         leftMargin=geom.left * PT_PER_MM, rightMargin=geom.right * PT_PER_MM,
                         topMargin=geom.top * PT_PER_MM, bottomMargin=geom.bottom * PT_PER_MM,
                         invariant=1, pageCompression=1, initialFontName=SANS, initialFontSize=8,
                         **kwargs)
        self.geom, self.footers, self.styles = geom, footers, styles
        self.used: dict[tuple[int, str], float] = {}  # (page, frame): the lowest point drawn, from its top
        self.stretch: dict[tuple[int, str], float] = {}  # (page, frame): room added at each of its gaps
        self.gaps: dict[tuple[int, str], int] = {}      # (page, frame): the gaps between its blocks
        self.heights: dict[tuple[int, str], float] = {}  # (page, frame): its height
        self.blank: set[int] = set()                     # pages left blank on purpose: no folio
        self.broken: set[tuple[int, str]] = set()        # (page, frame) ended by a page break (a section
        # that starts a page): its foot stays as it is

    date: int | None = None  # the metadata's CreationDate and ModDate (toolkit.pdf.canvas.document_date)

    def beforeDocument(self) -> None:
        from toolkit.pdf.canvas import pdf_date

        if self.date is not None:
            stamp = pdf_date(self.date)
            self.canv._doc.setDateFormatter(lambda *_: stamp)

    def afterFlowable(self, flowable) -> None:
        frame = self.frame
        if frame is None:  # a page break
            return
        key = (self.page, frame.id)
        self.used[key] = max(self.used.get(key, 0.0), frame._y1 + frame._height - frame._y)

    def fill(self, page: int, height: float) -> float:
        """The share of ``page``'s column height its columns fill, together."""
        return sum(self.depths(page)) / (self.geom.columns * height)

    def depths(self, page: int) -> tuple[float, ...]:
        """How far down each column of ``page`` its text reaches (0 for an empty one)."""
        frames = sorted(frame for number, frame in self.used if number == page)
        return tuple(self.used[(page, frame)] for frame in frames) + (0.0,) * (self.geom.columns - len(frames))

    # (first page, last page or None: to the end, the shorter columns of those pages), and the template
    # of the pages outside them
    balance: list[tuple[int, int | None, PageTemplate]] = []
    plain: str = "rest"

    def handle_pageBreak(self, slow=None):
        if self.frame is not None:
            self.broken.add((self.page, self.frame.id))
        super().handle_pageBreak(slow)

    def flush(self, pages: int) -> dict[tuple[int, str], float]:
        """The room to add at each gap of each column of the pages before ``pages`` for it to end at
        its foot: all that its foot has left (less half a point), shared between its gaps, where
        that is at most FLUSH_GAP a gap."""
        out = {}
        for (page, frame), used in self.used.items():
            key = (page, frame)
            if page >= pages or key in self.broken or key not in self.heights or not self.gaps.get(key):
                continue
            spare = self.heights[key] - used - 0.5
            if spare > 0 and spare / self.gaps[key] <= FLUSH_GAP * self.styles.lead:
                out[key] = spare / self.gaps[key]
        return out

    def handle_pageBegin(self):
        coming = self.page + 1
        if self.balance and coming > 1:
            inside = [template for first, last, template in self.balance
                      if first <= coming and (last is None or coming <= last)]
            self.pageTemplate = inside[0] if inside else self.pageTemplates[
                [t.id for t in self.pageTemplates].index(self.plain)]
        super().handle_pageBegin()

    def footer(self, canvas, doc) -> None:
        geom, page = self.geom, canvas.getPageNumber()
        if (geom.booklet and page == 1) or page in self.blank:
            return  # the cover; a planned blank page
        canvas.saveState()
        y = geom.bottom * PT_PER_MM * 0.5
        left, right = geom.left * PT_PER_MM, (geom.page[0] - geom.right) * PT_PER_MM
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(left, y + 10, right, y + 10)
        canvas.setFillColor(MUTED)
        canvas.setFont(SANS, 8)
        number = str(page)
        # A long title is cut with "…" before it runs into the page number.
        room = right - left - pdfmetrics.stringWidth(number, SANS_BOLD, 9) - 12
        text = ellipsize("   ·   ".join(self.footers), "label", 8, room)
        outer_right = not geom.booklet or page % 2 == 1  # a booklet's even pages are left-hand pages
        canvas.setFont(SANS_BOLD, 9)
        canvas.setFillColor(ACCENT)
        if outer_right:
            canvas.drawRightString(right, y, number)
        else:
            canvas.drawString(left, y, number)
        canvas.setFont(SANS, 8)
        canvas.setFillColor(MUTED)
        if outer_right:
            canvas.drawString(left, y, text)
        else:
            canvas.drawRightString(right, y, text)
        canvas.restoreState()


def _measure(flowables: list, width: float) -> float:
    total = 0.0
    for i, f in enumerate(flowables):
        _, h = f.wrap(width, 10_000)
        total += h + (f.getSpaceBefore() if i else 0) + f.getSpaceAfter()
    return total


# Copyfitting: when a book's last page would be less than a third full (the page before a last page of
# its own, such as a quick start, less than two thirds full), or a booklet's text would run onto its
# outside back cover, the body is set a little smaller (or larger, to carry more onto a last
# page that cannot be saved) and the book laid out again, as an editor would ask of a typesetter.
LEAST_FILL = 1 / 3
FULL_BEFORE_LAST = 2 / 3  # the page before a page of its own (a quick start) is at least this full
FITS = (0.0, -0.15, -0.3, -0.45, -0.6, 0.15, 0.3, 0.45)  # points on the body size, tried in this order


def build_pdf(story: Story, title: str, subject: str) -> tuple[bytes, int]:
    """The rulebook's pages as PDF bytes and their number, copyfitted (see FITS)."""
    base, tried = story.geom, []
    for change in FITS:
        story.geom = replace(base, body_size=base.body_size + change)
        story.styles = Styles(story.geom)
        story.chart_smallest = 0.62 if change >= 0 else 0.5
        laid = _lay_out(story, title, subject)
        if laid.proofed:
            break
        tried.append((change, laid))
    else:  # none proofed: the free back cover first, then the fullest last page
        change, laid = max(tried, key=lambda one: (not one[1].on_back_cover, one[1].last_fill))
        story.geom = replace(base, body_size=base.body_size + change)  # laid out again at its size below
        story.styles = Styles(story.geom)
        story.chart_smallest = 0.62 if change >= 0 else 0.5
    if laid.on_back_cover and story.plans_back_cover():
        # The page planned for the back cover does not land on it: the text before it spread over every
        # inner page, each as deep as the others, so that it does; else (a text that cannot be spread so)
        # blank pages before it (never after it, where a family would find white pages at the end of
        # the stack), until it does.
        spread = _spread_to_back_cover(story, title, subject, laid)
        if spread is not None:
            laid = spread
        else:
            padded = _lay_out(story, title, subject, blanks=(laid.pages, -laid.pages % 4))
            if padded.pages % 4 == 0:
                laid = padded
    laid = _balanced(story, title, subject, laid)
    laid = _spread(story, title, subject, laid)
    laid = _filled_before_last(story, title, subject, laid)
    if laid.flush:  # the columns of the pages before the last end at their foot
        flushed = _lay_out(story, title, subject, laid.balance, laid.flush, laid.blanks)
        if flushed.pages == laid.pages and flushed.last_columns == laid.last_columns:
            laid = flushed
    # the trials above were drafts (``_Draft``): the layout kept, again on a canvas that writes the PDF
    pdf = _lay_out(story, title, subject, laid.balance, laid.stretch, laid.blanks, draft=False).pdf
    story.geom, story.styles = base, Styles(base)
    if laid.on_back_cover and not story.plans_back_cover():  # a blank page after the text: the booklet grows
        # by a sheet, its back cover blank
        return _with_blank_page(pdf), laid.pages + 1
    return pdf, laid.pages


def _with_blank_page(pdf: bytes) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    box = writer.pages[-1].mediabox
    writer.add_blank_page(float(box.width), float(box.height))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


UNEVEN = 0.15  # the last page's columns differ by more than this share of their height: balance them
FLUSH_GAP = 1.0  # at most this many lines of room added at one gap to bring a column's end to its foot


def _balanced(story: Story, title: str, subject: str, laid: "_Laid") -> "_Laid":
    """The last page's two columns of about equal length: its columns are made shorter, a line at a
    time from half their text, until its text fits them on the same page (KeepTogether blocks, charts
    and card grids may need a few lines more than half)."""
    depths = laid.last_columns
    height = laid.column_height  # the last page's columns' (under the title on a book of one page)
    if len(depths) < 2 or max(depths) - min(depths) <= UNEVEN * height:
        return laid
    lead = story.styles.lead
    for extra in range(0, 12):
        column = min(height, sum(depths) / 2 + extra * lead)
        again = _lay_out_within(story, title, subject, balance=(laid.pages, column), blanks=laid.blanks)
        if again is not None and again.pages == laid.pages:
            return again
    return laid


def _lay_out_within(story: Story, title: str, subject: str, **given) -> "_Laid | None":
    """``_lay_out`` with columns made shorter (``balance``), or None when a block that cannot break (a
    grid of pictures, a kept-together section) is taller than they are."""
    from reportlab.platypus.doctemplate import LayoutError

    try:
        return _lay_out(story, title, subject, **given)
    except LayoutError:
        return None


SPREAD_LEAST = 0.5  # a spread-out page holds at least this share of a page where the text allows


def _spread(story: Story, title: str, subject: str, laid: "_Laid") -> "_Laid":
    """A booklet whose text ends before the last inner page (a page of text in a folded sheet left
    page 3 blank) has its last pages' text spread over every page up to the outside back cover, each
    as deep as the others; the back cover stays blank. The spread starts early enough for each page
    to hold SPREAD_LEAST of a page, or on the first page after the cover; text too short to fill each
    page a third is left as it is."""
    if not story.geom.booklet or story.plans_back_cover() or laid.blanks:
        return laid
    target = laid.pages + (-laid.pages % 4) - 1  # the last inner page
    if laid.pages >= target or laid.pages < 2:
        return laid
    height = laid.column_height
    for first in range(laid.pages, 1, -1):
        column = ((laid.pages - first) * height + laid.last_columns[0]) / (target - first + 1)
        if column >= SPREAD_LEAST * height:
            break
    if column < LEAST_FILL * height + 2 * story.styles.lead:  # too little text to spread: pages a third full
        return laid
    for extra in range(12):
        again = _lay_out_within(story, title, subject, balance=(first, min(height, column + extra * story.styles.lead)))
        if again is not None and again.pages == target and again.least_fill >= LEAST_FILL + 0.05:  # a margin over the page proof
            return again
    return laid


def _spread_to_back_cover(story: Story, title: str, subject: str, laid: "_Laid") -> "_Laid | None":
    """A booklet whose page of its own (the quick start) should be the outside back cover, laid out with
    the text before it over every inner page (pages 2 to the one before the back cover), each as deep
    as the others: no blank page inside the booklet. None when no such layout lands the planned page
    on the back cover."""
    target = laid.pages + (-laid.pages % 4)  # the back cover's page
    if not story.geom.booklet or target == laid.pages or laid.pages < 3 or not laid.fills:
        return None
    height, lead = laid.column_height_full, story.styles.lead
    text = sum(laid.fills[1:laid.pages - 1]) * height  # pages 2 to the one before the planned page
    column = text / (target - 2)
    for extra in range(16):
        again = _lay_out_within(story, title, subject, balance=((2, target - 1, min(height, column + extra * lead)),))
        if again is not None and again.pages == target:
            return again
    return None


def _filled_before_last(story: Story, title: str, subject: str, laid: "_Laid") -> "_Laid":
    """A text whose last section has a page of its own (``{newpage}``: the quick start) leaves the page
    before that one as full as the text ran: a few lines at the head of a page. The text of the pages
    before it is spread over them, each as deep as the others (a booklet's from page 2, after its cover;
    a sheet's from page 1 if need be, its columns under the title), so that the page before the last
    is at least FULL_BEFORE_LAST full; the last page keeps its own columns."""
    if not story.plans_back_cover() or laid.pages < 3 or laid.blanks or not laid.fills:
        return laid
    before = laid.pages - 1
    if laid.fills[before - 1] >= FULL_BEFORE_LAST:
        return laid
    height, lead = laid.column_height_full, story.styles.lead
    # a booklet's page 1 is its cover; a sheet's first page spreads its columns under the title
    starts = [first for first in range(before, 1 if story.geom.booklet else 0, -1)
              if sum(laid.fills[first - 1:before]) / (before - first + 1) >= FULL_BEFORE_LAST + 0.02]
    kept = tuple(piece for piece in _segments(laid.balance) if piece[0] > before)  # the last page's balance
    best, best_fill = laid, laid.fills[before - 1]
    for first in starts[:2]:  # the latest start that can work, and one page earlier
        column = sum(laid.fills[first - 1:before]) / (before - first + 1) * height
        for extra in range(12):
            high = min(height, column + extra * lead)
            again = _lay_out_within(story, title, subject, balance=((first, before, high), *kept), blanks=laid.blanks)
            if again is None or again.pages != laid.pages:
                continue
            least = min(again.fills[first - 1:before])
            if least > best_fill:
                best, best_fill = again, least
            if least >= FULL_BEFORE_LAST + 0.03:
                return best
    return best if best_fill >= FULL_BEFORE_LAST else laid


class _Draft(Canvas):
    """The canvas of a trial layout, of which the copyfitting reads only where the text went: pictures
    are placed but not encoded (reportlab hashes and compresses a picture's pixels for every new
    document), and nothing is written."""

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        return width, height

    def save(self):
        pass


@dataclass(frozen=True)
class _Laid:
    pdf: bytes  # empty for a draft
    pages: int
    last_fill: float     # the share of the last page's columns the text fills
    on_back_cover: bool  # a booklet's text runs onto the outside back cover (its pages a multiple of 4), or
    # the page the text plans there ({newpage} last) does not land on it
    last_columns: tuple[float, ...]  # how far down each column of the last page its text reaches (points)
    balance: tuple | None = None  # the shorter columns it was laid out with (see ``_segments``)
    flush: dict = None  # (page, column): the room to add at each of its gaps for it to end at its foot
    column_height: float = 0.0  # the height of the last page's columns (points)
    column_height_full: float = 0.0  # the height of a page's columns after the first (points)
    blanks: tuple[int, int] | None = None  # the blank pages before a booklet's planned back cover (first, count)
    least_fill: float = 1.0  # the share the emptiest page after the first fills
    stretch: dict | None = None  # the room it was laid out with at the gaps of columns (see ``_lay_out``)
    fills: tuple[float, ...] = ()  # the share of each page's columns its text fills, from page 1

    planned: bool = False  # the last page is one of its own ({newpage}): ``last_fill`` is the page before it's

    @property
    def proofed(self) -> bool:
        least = FULL_BEFORE_LAST + 0.02 if self.planned else LEAST_FILL  # a margin over the page proof
        return (self.pages == 1 or self.last_fill >= least) and not self.on_back_cover


def _segments(balance) -> list[tuple[int, int | None, float]]:
    """``balance`` as (first page, last page or None: to the end, column height) pieces: None is none, a
    (page, height) pair the pages from that one on, and a tuple of such triples is itself."""
    if balance is None:
        return []
    if len(balance) == 2 and not isinstance(balance[0], tuple):
        return [(balance[0], None, balance[1])]
    return [tuple(piece) for piece in balance]


def _lay_out(story: Story, title: str, subject: str, balance=None,
             stretch: dict | None = None, blanks: tuple[int, int] | None = None, draft: bool = True) -> _Laid:
    """One layout of the book; with ``balance`` (page, height) that page's columns are only so high;
    with ``stretch`` ((page, column): room), that room is added at each gap of those columns; with
    ``blanks`` (page, count), a booklet's planned back cover, which was that page, comes after that many
    blank pages (no folio on them). A ``draft`` measures where everything goes and writes no PDF."""
    geom, s = story.geom, story.styles
    segments = _segments(balance)
    footers = [story.footer(lang, story.designer) for lang in story.langs]
    buffer = io.BytesIO()
    # The toolkit's metadata, as on every PDF it writes (toolkit.pdf.canvas): the edition's author, the
    # toolkit as Creator and Producer, dated by the deck's files and the texts read.
    from toolkit.pdf.canvas import author_of, deck_files, document_date, software

    doc = _Doc(buffer, geom, footers, s, title=title, author=author_of(story.catalogue, story.langs[0]),
               subject=subject, creator=software(), producer=software(), lang=story.langs[0])
    from toolkit.rulebook.markup import text_path

    kind = "designer" if story.designer else "rules"
    doc.date = document_date([*deck_files(story.catalogue), *(source.file for source in story.sources.values()),
                              *(text_path(story.catalogue.game, lang, kind) for lang in story.langs)])
    doc.stretch = dict(stretch or {})
    x0, y0 = geom.left * PT_PER_MM, geom.bottom * PT_PER_MM
    width, height, column, gutter = (side * PT_PER_MM for side in (geom.width, geom.height, geom.column, geom.gutter))
    pad = dict(leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)

    def columns(top: float, page_id: str, high: float | None = None) -> list[Frame]:
        bottom = y0 if high is None else top - high
        return [Column(doc, x0 + i * (column + gutter), bottom, column, top - bottom, id=f"{page_id}-col{i}", **pad)
                for i in range(geom.columns)]

    flow: list = []
    banner_h = 0.0
    if geom.booklet:
        cover = PageTemplate("cover", [Frame(x0, y0, width, height, id="cover", **pad)], onPage=doc.footer)
        body = PageTemplate("body", columns(y0 + height, "body"), onPage=doc.footer)
        doc.addPageTemplates([cover, body])
        doc.plain = "body"
        doc.balance = [(first, last, PageTemplate(f"short{i}", columns(y0 + height, f"short{i}", high), onPage=doc.footer))
                       for i, (first, last, high) in enumerate(segments)]  # pages only so high (see _spread)
        flow += story.cover() + [NextPageTemplate("body"), PageBreak()]
    else:
        banner = story.banner() + [Spacer(1, 2 * PT_PER_MM), Rule(width, ACCENT, 1.2)]
        banner_h = _measure(banner, width) + 6 * PT_PER_MM
        top = y0 + height
        one_page = next((high for first, _, high in segments if first == 1), None)  # a book of one page, or
        # the first page of a spread (see _filled_before_last): its columns under the title, never past the foot
        if one_page is not None:
            one_page = min(one_page, top - banner_h - y0)
        first = PageTemplate("first", [Frame(x0, top - banner_h, width, banner_h, id="banner", **pad),
                                       *columns(top - banner_h, "first", one_page)],
                             onPage=doc.footer, autoNextPageTemplate="rest")
        rest = PageTemplate("rest", columns(top, "rest"), onPage=doc.footer)
        doc.addPageTemplates([first, rest])
        doc.balance = [(max(first, 2), last, PageTemplate(f"short{i}", columns(top, f"short{i}", high), onPage=doc.footer))
                       for i, (first, last, high) in enumerate(segments) if last is None or last > 1]
        flow += banner + [FrameBreak()]
    flow += story.sections()
    if blanks is not None and blanks[1]:
        last_break = max(i for i, flowable in enumerate(flow) if isinstance(flowable, PageBreak))
        flow[last_break:last_break] = [PageBreak() for _ in range(blanks[1])]
        doc.blank = set(range(blanks[0], blanks[0] + blanks[1]))
    with binary_streams():
        doc.build(flow, canvasmaker=_Draft if draft else Canvas)
    pages = doc.page
    booklet_pages = pages + (-pages % 4)
    # A booklet's text on its outside back cover, unless the text plans that page ({newpage} last):
    # then the planned page belongs there, and the page that must not be left near empty is the one
    # before it.
    planned = story.plans_back_cover() and pages > 1
    return _Laid(buffer.getvalue(), pages, doc.fill(pages - planned, height),
                 geom.booklet and (pages != booklet_pages if planned else pages == booklet_pages),
                 doc.depths(pages), balance=balance, flush=doc.flush(pages) if geom.columns > 1 else {}, blanks=blanks,
                 column_height=height - (banner_h if pages == 1 and not geom.booklet else 0.0), column_height_full=height,
                 least_fill=min((doc.fill(page, height) for page in range(2, pages + 1)), default=1.0),
                 stretch=stretch, fills=tuple(doc.fill(page, height) for page in range(1, pages + 1)),
                 planned=planned)
