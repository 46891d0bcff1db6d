"""The player aid: the turn and the cards' effects summed up on one sheet of the deck's card size,
one per player, printed with the deck (``print-cards``) and exported with it (``export-cards``).

Its words are in the game's ``texts/aid.<lang>.md`` or the file its catalogue names (``game.aid``),
a small line format:

* ``%% ...`` a comment line; ``title: ...`` the heading on the sheet's band (once, first);
* ``## Heading``; ``1. item`` a numbered step; ``- item`` a bullet; any other line a paragraph.
  Each item or paragraph is one line of the file;
* ``**bold**`` inside a line; the rulebook's placeholders (``{rule:price|diamond|diamonds}``,
  ``{name:witch}``, see :mod:`toolkit.placeholders.facts`) for every number or name from the catalogue;
  ``:name:`` for the deck's icon, drawn inline at the text's size as on the cards.

The aid is a :class:`~toolkit.cards.render.CardFace` (a plain art of its own with the text laid out
in millimetres), so the sheets, the PNG, Tabletop Simulator and one-card-per-page exports draw it
exactly like a card. Its body text is set at one size, the largest that fits and never under
7.5 pt (as on the cards), each paragraph shaped like a card's text; text that needs more room goes
on to the card's other side, and text that does not fit both sides is refused in one line (never
cut). The aid has a back of its own (:func:`aid_back`), never the deck's, so that it cannot be
shuffled unseen into the pile.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from toolkit.cards import art
from toolkit.cards.render import CardFace, Line, Shape, card_image, card_size_name, size_px
from toolkit.catalogue.checks import quote
from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.layout.text import Setting, Word, place, set_text, words
from toolkit.typeset.breaks import bind
from toolkit.typeset.fonts import SMALLEST_PT, font_metrics, text_width
from toolkit.typeset.units import PT_PER_MM

KEY = "card:player_aid"   # the face's key: "_" is never in a card id, so no card shares its form
BACK_KEY = "card:player_aid_back"  # its back's
FILE_ID = "player_aid"    # the exports' file stem and manifest id, for the same reason
BAND = art.lighter(art.GOLD, 0.55)
RULE = art.mix(art.GOLD, art.INK, 0.35)
MARGIN = 0.055            # of the card's width, inside the trim
SAFE_PAD = 0.5            # mm kept inside a print service's safe zone on top of it
BAND_HEIGHT = 0.115       # of the card's height, the title's band at the top
LEADING = 1.17
HEAD = 1.1                # a heading's size, in body sizes
LARGEST = 0.075          # of the card's width: the body text is never set larger than this
LINE = re.compile(r"^(?:(?P<head>##\s+)|(?P<step>\d+\.\s+)|(?P<bullet>-\s+))?(?P<text>\S.*)$")


@dataclass(frozen=True)
class Entry:
    kind: str                          # "head", "step", "bullet" or "para"
    runs: tuple[tuple[str, bool], ...]  # (text, bold)
    number: int = 0
    words: tuple[Word, ...] = ()       # as the cards' text is read (toolkit.layout.text.words): icons too


@dataclass(frozen=True)
class AidText:
    title: str
    entries: tuple[Entry, ...]
    source: str = "the player aid"  # the file it is read from, as messages name it
    icons: object = None            # the deck's icons (toolkit.layout.icons.Icons) its words name


def text_file(game: str, lang: str):
    from toolkit.games.registry import get

    return get(game).text_file("aid", lang)


def has_aid(catalogue: Catalogue, lang: str) -> bool:
    """Does the deck have a player aid in ``lang``: named by its catalogue (``game.aid``), or its game's own?"""
    from toolkit.games.registry import get

    return lang in catalogue.aid_texts or get(catalogue.game).has_text("aid", lang)


def _source(catalogue: Catalogue, lang: str) -> tuple[str, str]:
    """The aid's text in ``lang`` and the name its messages give it: the catalogue's file, else the game's."""
    if lang in catalogue.aid_texts:
        from toolkit.placeholders.text import read_text

        path = catalogue.aid_texts[lang]
        return read_text(path, "a player aid"), str(path)
    game = catalogue.game
    try:
        return text_file(game, lang).read_text(encoding="utf-8-sig"), f"{game}/texts/aid.{lang}.md"
    except FileNotFoundError:
        raise UserError(f"{game}/texts/aid.{lang}.md: there is no {lang} player aid for {game}") from None


def aid_text(catalogue: Catalogue, lang: str) -> AidText:
    """The aid's words for ``catalogue`` in ``lang``, every placeholder filled in and bound where a
    line may not end."""
    from toolkit.layout.engine import deck_icons
    from toolkit.placeholders.facts import STAR, Facts
    from toolkit.placeholders.figures import Odds
    from toolkit.placeholders.text import Piece

    source, name = _source(catalogue, lang)
    facts = Facts(catalogue, lang, Odds(catalogue), {})
    icons = deck_icons(catalogue)
    title, entries, number = None, [], 0
    for line_no, raw in enumerate(source.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%%"):
            continue
        if line.startswith("title:"):
            if title is not None or entries:
                raise UserError(f"{name}:{line_no}: 'title:' comes once, before everything else")
            title = line.split(":", 1)[1].strip()
            continue
        match = LINE.match(line)
        kind = next((k for k in ("head", "step", "bullet") if match.group(k)), "para")
        text = html.unescape(facts.resolve(Piece(match.group("text"), name, line_no)))
        parts = bind(text, lang).split("**")
        if len(parts) % 2 == 0:
            raise UserError(f"{name}:{line_no}: an unmatched ** (bold is **like this**)")
        runs = tuple((part.replace(STAR, "*"), i % 2 == 1) for i, part in enumerate(parts) if part)
        # the card text's reading: bold and the deck's icons (a lone * is a star here, not italic)
        marked = re.sub(r"(?<!\*)\*(?!\*)", r"\\*", text).replace(STAR, "\\*")
        number = number + 1 if kind == "step" else 0
        entries.append(Entry(kind, runs, number, tuple(words(marked, lang, icons, f"{name}:{line_no}"))))
    if title is None or not entries:
        raise UserError(f"{name}: a player aid needs a 'title:' line and some text")
    return AidText(bind(title, lang), tuple(entries), name, icons)


# --- layout ----------------------------------------------------------------------------------------

def _bold(font: str, style: str) -> str:
    """The aid's bold face: its heading font."""
    return "name" if "bold" in style else font


def _set(entries, size: float, left: float, right: float, top: float, bottom: float, icons):
    """The lines of ``entries`` at body ``size`` and where they end, or None when they run past
    ``bottom``. Each paragraph is shaped as a card's text is (:func:`toolkit.layout.text.set_text`:
    the fewest lines, as even as they can be, no one-word last line where a break avoids it)."""
    lines: list = []
    aspects = icons.aspects(word for entry in entries for word in entry.words) if icons is not None else {}
    body = Setting("text", _bold, size, LEADING, aspects)
    head = Setting("name", _bold, size * HEAD, LEADING, aspects)
    descent = font_metrics("text")[1]
    y = top
    for index, entry in enumerate(entries):
        if entry.kind == "head":
            y += 0.5 * size if index else 0.0
            plain = [tuple(replace(piece, style="") for piece in word) for word in entry.words]
            laid = set_text(plain, head, y, bottom, lambda t, b: (left, right))
            if laid is None:
                return None
            lines += [run for line in laid for run in place(line, head, left, icons)]
            y = laid[-1].baseline + font_metrics("name")[1] * head.size + 0.2 * size
            continue
        marker = {"step": f"{entry.number}.", "bullet": "•"}.get(entry.kind, "")
        indent = 0.0 if not marker else text_width("8.", "name", size) + 0.45 * size
        laid = set_text(list(entry.words), body, y + 0.15 * size, bottom, lambda t, b: (left + indent, right))
        if laid is None:
            return None
        if marker:
            font = "name" if entry.kind == "step" else "text"
            lines.append(Line(marker, font, size, left + text_width(marker, font, size) / 2, laid[0].baseline))
        lines += [run for line in laid for run in place(line, body, left + indent, icons)]
        y = laid[-1].baseline + descent * size
    return lines, y


def _wide_word(entries, size: float, width: float) -> str | None:
    """The first word of ``entries`` that no line ``width`` wide holds at body ``size`` (a heading's
    at its own size, a step's or a bullet's after its marker), or None."""
    indent = text_width("8.", "name", size) + 0.45 * size
    for entry in entries:
        head = entry.kind == "head"
        room = width - (0.0 if entry.kind in ("head", "para") else indent)
        for word in entry.words:
            wide = sum(text_width(piece.text, "name" if head or piece.style else "text", size * (HEAD if head else 1))
                       for piece in word)
            if wide > room:
                return "".join(piece.text for piece in word)
    return None


@dataclass(frozen=True)
class AidLayout:
    """The aid's lines on each side of its card (one side, or two when the text needs both), at
    one body size throughout."""

    sides: tuple[tuple[Line, ...], ...]
    size: float  # the body text's size, mm

    @property
    def two_sided(self) -> bool:
        return len(self.sides) == 2


def _splits(entries) -> tuple[list[int], list[int]]:
    """Where the text may go on to the card's other side: before a heading; else before any entry
    but a heading's first (a heading never ends a side)."""
    heads = [k for k in range(1, len(entries)) if entries[k].kind == "head"]
    others = [k for k in range(1, len(entries)) if entries[k - 1].kind != "head" and k not in heads]
    return heads, others


def layout_aid(text: AidText, card_mm: tuple[float, float], safe_mm: float | None = None) -> AidLayout:
    """The aid laid out on a card of ``card_mm``: the body text at one size, the largest that fits,
    never under SMALLEST_PT. Text that does not fit one side at that size goes on to the card's
    other side (split before a heading where it can, the two sides as even as they can be). Text
    that does not fit both sides at SMALLEST_PT is refused in one line (nothing is cut). With a print
    service's ``safe_mm``, every line keeps at least that far inside the trim: the title is centred
    in the part of its band inside the safe zone, smaller if it must be."""
    w, h = card_mm
    if safe_mm is not None:
        safe_mm += SAFE_PAD  # the drawn glyphs reach a little past their metric width
    margin = max(MARGIN * w, safe_mm or 0.0)
    band = BAND_HEIGHT * h
    asc, desc = font_metrics("name")
    band_top = safe_mm or 0.0  # the title's band, from here to ``band``
    smallest = SMALLEST_PT / PT_PER_MM
    title_size = min(0.5 * (band - band_top), 0.075 * w)
    title_size = min(title_size, title_size * (w - 2 * margin) / max(text_width(text.title, "name", title_size), 1e-9))
    characters = sum(len(t) for entry in text.entries for t, _ in entry.runs)
    refused = (f"{text.source}: the player aid ({characters:,} characters) does not fit a {card_size_name(card_mm)} "
               f"card at {SMALLEST_PT:g} pt, even on both sides; shorten it, or print on larger cards (--card)")
    title_size = max(title_size, smallest)  # a narrow band (a service's safe zone) takes the smallest size
    if text_width(text.title, "name", title_size) > w - 2 * margin + 1e-9:
        raise UserError(f"{text.source}: the player aid's title '{text.title}' does not fit a "
                        f"{card_size_name(card_mm)} card at {SMALLEST_PT:g} pt; shorten it, or print on larger "
                        "cards (--card)")
    title_y = (band_top + band) / 2 + (asc - desc) * title_size / 2
    title = Line(text.title, "name", title_size, w / 2, title_y)
    left, right, top, bottom = margin, w - margin, band + 0.45 * margin, h - margin

    def fits(groups, size: float):
        laid = [_set(group, size, left, right, top, bottom, text.icons) for group in groups]
        return None if any(one is None for one in laid) else [one[0] for one in laid]

    entries = text.entries
    groups: list = [entries]
    high_size = max(smallest, min(title_size * 0.8, LARGEST * w))

    def largest(parts) -> float:
        """The largest body size (to a hundredth of a millimetre) at which ``parts`` fit their sides."""
        low, high = smallest, high_size
        if fits(parts, high) is not None:
            return high
        while high - low > 0.01:
            middle = (low + high) / 2
            low, high = (middle, high) if fits(parts, middle) is not None else (low, middle)
        return low

    if fits(groups, smallest) is None:
        best = None  # (-size, the fuller side's end, split): the split that lets the text be largest,
        # then the most even (the first side once held a third of the text under a half-empty card)
        heads, others = _splits(entries)  # before a heading where that is as good, else before any entry
        for k in heads + others:
            ends = [_set(part, smallest, left, right, top, 1e9, text.icons) for part in (entries[:k], entries[k:])]
            if None in ends:  # a word wider than the card: no split helps
                continue
            deeper = max(end[1] for end in ends)
            if deeper <= bottom:
                # a tenth of a point larger is worth a side that starts inside a section
                key = (-round(largest([entries[:k], entries[k:]]) * PT_PER_MM * 10), k not in heads, deeper, k)
                best = key if best is None or key < best else best
        if best is not None:
            best = (best[2], best[3])
        if best is None:
            wide = _wide_word(entries, smallest, right - left)
            if wide is not None:
                raise UserError(f"{text.source}: the player aid's word {quote(wide)} is wider than a "
                                f"{card_size_name(card_mm)} card at {SMALLEST_PT:g} pt (a word is never cut); "
                                "shorten it (a card's name?), or print on larger cards (--card)")
            raise UserError(refused)
        groups = [entries[:best[1]], entries[best[1]:]]
    # The largest body size that fits, searched between the smallest and a size no larger than the
    # title's (to a hundredth of a millimetre), so that the text fills the card.
    low, high = smallest, high_size
    best_lines = fits(groups, high)
    if best_lines is not None:
        low = high
    else:
        best_lines = fits(groups, low)
        while high - low > 0.01:
            middle = (low + high) / 2
            lines = fits(groups, middle)
            if lines is None:
                high = middle
            else:
                low, best_lines = middle, lines
    return AidLayout(tuple((title, *side) for side in best_lines), low)


def aid_art(card_mm: tuple[float, float], bleed_mm: float) -> Image.Image:
    """The aid's plain ground at 300 DPI: paper, a band for the title and a thin rule under it."""
    size = size_px(card_mm, bleed_mm)
    image = Image.new("RGB", size, art.PAPER)
    draw = ImageDraw.Draw(image)
    per_mm = size[1] / (card_mm[1] + 2 * bleed_mm)
    band = round((bleed_mm + BAND_HEIGHT * card_mm[1]) * per_mm)
    draw.rectangle((0, 0, size[0], band), fill=BAND)
    draw.rectangle((0, band, size[0], band + max(2, round(0.35 * per_mm))), fill=RULE)
    foot = round((bleed_mm + card_mm[1] - MARGIN * card_mm[0] * 0.35) * per_mm)
    draw.rectangle((0, foot, size[0], size[1]), fill=BAND)
    return image


def _layout(catalogue: Catalogue, lang: str, card_mm, safe_mm) -> AidLayout:
    try:
        return layout_aid(aid_text(catalogue, lang), tuple(card_mm), safe_mm)
    except UserError as err:  # e.g. a catalogue of one's own without a card the aid names
        raise UserError(f"{err} (leave the player aid out with --no-aids)") from None


def aid_card_size(catalogue: Catalogue, lang: str, card_mm: tuple[float, float]) -> tuple[float, float]:
    """The card size the sheets print the player aid at: the deck's, or poker beside cards smaller than
    poker (mini) when the aid does not fit them at SMALLEST_PT, the floor of every card. A deck of
    poker size or larger whose aid does not fit is refused as before (shorten the aid)."""
    from toolkit.cards.render import CARD_SIZES

    card_mm = tuple(card_mm)
    try:
        _layout(catalogue, lang, card_mm, None)
        return card_mm
    except UserError:
        poker = CARD_SIZES["poker"]
        if card_mm[0] * card_mm[1] >= poker[0] * poker[1]:
            raise
        _layout(catalogue, lang, poker, None)  # refused in its own words when it does not fit poker either
        return poker


def aid_face(catalogue: Catalogue, lang: str, card_mm: tuple[float, float], bleed_mm: float = 0.0,
             safe_mm: float | None = None) -> CardFace:
    """The player aid of ``catalogue`` in ``lang`` as a card face of ``card_mm`` with its bleed,
    its text inside ``safe_mm`` of the trim when a print service sets a safe zone."""
    laid = _layout(catalogue, lang, card_mm, safe_mm)
    return CardFace(KEY, tuple(card_mm), bleed_mm, aid_art(tuple(card_mm), bleed_mm), laid.sides[0])


def two_sided(catalogue: Catalogue, lang: str, card_mm: tuple[float, float], safe_mm: float | None = None) -> bool:
    """Does the aid's text go on to its card's other side (to be printed as a card of its own where
    a print has no backs)?"""
    return _layout(catalogue, lang, card_mm, safe_mm).two_sided


def aid_back(catalogue: Catalogue, lang: str, card_mm: tuple[float, float], bleed_mm: float = 0.0,
             safe_mm: float | None = None) -> CardFace:
    """The player aid's back, never the deck's (an aid must not shuffle unseen into the pile): the
    rest of its text when it needs both sides; else a plain back of the aid's own paper and band, the
    words "player aid" in the deck's language (catalogue/words.py, ``player_aid``) in the band and the
    game's title in the middle."""
    laid = _layout(catalogue, lang, card_mm, safe_mm)
    if laid.two_sided:
        return CardFace(BACK_KEY, tuple(card_mm), bleed_mm, aid_art(tuple(card_mm), bleed_mm), laid.sides[1])
    from toolkit.catalogue.words import words

    # The aid's own plain ground, its label in the band at the top and the game's title in the middle: a
    # band stamped across the deck's back art looked like a printing fault (the editor, Weathervane).
    w, h = card_mm
    label = words(catalogue, lang)["player_aid"]
    reach = w - 2 * max(MARGIN * w, (safe_mm or 0.0) + SAFE_PAD)
    band_top = safe_mm or 0.0
    asc, desc = font_metrics("name")
    size = min(0.5 * (BAND_HEIGHT * h - band_top), 0.075 * w)
    size = min(size, size * reach / max(text_width(label, "name", size), 1e-9))
    if size < SMALLEST_PT / PT_PER_MM:
        raise UserError(f"{catalogue.source.name}: words.{lang}.player_aid: '{label}' does not fit the back of a "
                        f"{card_size_name(card_mm)} card at {SMALLEST_PT:g} pt (leave the player aid out with --no-aids)")
    ops = [Line(label, "name", size, w / 2, (band_top + BAND_HEIGHT * h) / 2 + (asc - desc) * size / 2, art.INK, "aid")]
    title = catalogue.title[lang]
    big = min(0.09 * w, 0.09 * w * reach / max(text_width(title, "name", 0.09 * w), 1e-9))
    if big >= SMALLEST_PT / PT_PER_MM:  # a title too long for the card's width is left out
        ops.append(Line(title, "name", big, w / 2, h / 2 + (asc - desc) * big / 2, RULE, "title"))
    return CardFace(BACK_KEY, tuple(card_mm), bleed_mm, aid_art(tuple(card_mm), bleed_mm), tuple(ops))


def aid_copies(catalogue: Catalogue) -> int:
    """One aid per player: as many as the game's most players."""
    return catalogue.players[1]


def aid_image(face: CardFace, dpi: int = art.DPI) -> Image.Image:
    """The aid as an RGB Pillow image with its bleed (like ``render.card_image``, but each line set
    from its left end, as the PDF sets it, so that left-aligned lines stay aligned whatever small
    difference there is between the two libraries' measures of a line)."""
    from toolkit.cards.render import Picture, _paste
    from toolkit.typeset.fonts import pillow_font

    if any(isinstance(op, Shape) for op in face.ops):  # the designed back: the deck's back and a band
        return card_image(face, dpi)
    size = size_px(face.card_mm, face.bleed_mm, dpi)
    image = face.art.copy() if face.art.size == size else face.art.resize(size, Image.Resampling.LANCZOS)
    sx = size[0] / (face.width + 2 * face.bleed_mm)
    sy = size[1] / (face.height + 2 * face.bleed_mm)
    for op in face.ops:  # the icons in the text, placed as the PDF places them
        if isinstance(op, Picture):
            x0, y0, x1, y1 = op.box
            b = face.bleed_mm
            _paste(image, op.image, ((x0 + b) * sx, (y0 + b) * sy, (x1 + b) * sx, (y1 + b) * sy))
    draw = ImageDraw.Draw(image)
    before = None  # the run before on the same line: its baseline, where the PDF ends it, where Pillow did
    for line in face.lines:
        font = pillow_font(line.font, round(line.size * sy * 4) / 4)
        x = (line.x - line.width / 2 + face.bleed_mm) * sx
        anchor = "ls"
        if line is face.lines[0]:  # the title, centred on its band
            x, anchor = (line.x + face.bleed_mm) * sx, "ms"
        elif before is not None and before[0] == line.y:
            # a run after a bold lead-in: keep the PDF's gap after where Pillow really ended the lead-in
            x = max(x, before[2] + x - before[1])
        draw.text((x, (line.y + face.bleed_mm) * sy), line.text, font=font, fill=art.INK, anchor=anchor)
        before = (line.y, (line.x + line.width / 2 + face.bleed_mm) * sx, x + draw.textlength(line.text, font=font))
    return image
