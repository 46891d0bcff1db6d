"""The player aid: the turn and the cards' effects summed up on one sheet of the deck's card size,
one per player, printed with the deck (``print-cards``) and exported with it (``export-cards``).

Its words are in the game's ``texts/aid.<lang>.md`` or the file its catalogue names (``game.aid``),
a small line format:

* ``%% ...`` a comment line; ``title: ...`` the heading on the sheet's band (once, first);
* ``## Heading``; ``1. item`` a numbered step; ``- item`` a bullet; any other line a paragraph.
  Each item or paragraph is one line of the file;
* ``**bold**`` inside a line; the rulebook's placeholders (``{rule:price|diamond|diamonds}``,
  ``{name:witch}``, see :mod:`toolkit.rulebook.facts`) for every number or name from the catalogue.

The aid is a :class:`~toolkit.cards.render.CardFace` (a plain art of its own with the text laid out
in millimetres), so the sheets, the PNG, Tabletop Simulator and one-card-per-page exports draw it
exactly like a card. The text is set as large as fits and shrinks until it does; it never runs
past the card.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from toolkit.cards import art
from toolkit.cards.render import (TEXT_MIN_MM, CardFace, Line, ellipsize, font_metrics, size_px,
                                  text_width)
from toolkit.catalogue.model import Catalogue
from toolkit.errors import UserError
from toolkit.typography import bind

KEY = "card:player_aid"   # the face's key: "_" is never in a card id, so no card shares its form
FILE_ID = "player_aid"    # the exports' file stem and manifest id, for the same reason
BAND = art.lighter(art.GOLD, 0.55)
RULE = art.mix(art.GOLD, art.INK, 0.35)
MARGIN = 0.055            # of the card's width, inside the trim
SAFE_PAD = 0.5            # mm kept inside a print service's safe zone on top of it
BAND_HEIGHT = 0.115       # of the card's height, the title's band at the top
LEADING = 1.17
LARGEST = 0.075          # of the card's width: the body text is never set larger than this
LINE = re.compile(r"^(?:(?P<head>##\s+)|(?P<step>\d+\.\s+)|(?P<bullet>-\s+))?(?P<text>\S.*)$")


@dataclass(frozen=True)
class Entry:
    kind: str                          # "head", "step", "bullet" or "para"
    runs: tuple[tuple[str, bool], ...]  # (text, bold)
    number: int = 0


@dataclass(frozen=True)
class AidText:
    title: str
    entries: tuple[Entry, ...]


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
        from toolkit.rulebook.markup import read_text

        path = catalogue.aid_texts[lang]
        return read_text(path, "a player aid"), str(path)
    game = catalogue.game
    try:
        return text_file(game, lang).read_text(encoding="utf-8"), f"{game}/texts/aid.{lang}.md"
    except FileNotFoundError:
        raise UserError(f"{game}/texts/aid.{lang}.md: there is no {lang} player aid for {game}") from None


def aid_text(catalogue: Catalogue, lang: str) -> AidText:
    """The aid's words for ``catalogue`` in ``lang``, every placeholder filled in and bound where a
    line may not end."""
    from toolkit.rulebook.facts import STAR, Facts
    from toolkit.rulebook.figures import Odds
    from toolkit.rulebook.markup import Piece

    source, name = _source(catalogue, lang)
    facts = Facts(catalogue, lang, Odds(catalogue), {})
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
        text = bind(text, lang)
        parts = text.split("**")
        if len(parts) % 2 == 0:
            raise UserError(f"{name}:{line_no}: an unmatched ** (bold is **like this**)")
        runs = tuple((part.replace(STAR, "*"), i % 2 == 1) for i, part in enumerate(parts) if part)
        number = number + 1 if kind == "step" else 0
        entries.append(Entry(kind, runs, number))
    if title is None or not entries:
        raise UserError(f"{name}: a player aid needs a 'title:' line and some text")
    return AidText(bind(title, lang), tuple(entries))


# --- layout ----------------------------------------------------------------------------------------

def _words(runs) -> list[list[tuple[str, str]]]:
    """The words of the runs, each a list of (text, font) pieces set with no space between them
    (``**Buy:**`` and the word after a bold run); words part at ordinary spaces only."""
    words: list[list[tuple[str, str]]] = []
    glue = False
    for text, bold in runs:
        font = "name" if bold else "text"
        for i, part in enumerate(text.split(" ")):
            if i:
                glue = False
            if not part:
                continue
            if glue and words:
                words[-1].append((part, font))
            else:
                words.append([(part, font)])
            glue = True
    return words


def _place(words, x: float, size: float) -> tuple[list[Line], float]:
    """One line of ``words`` set from ``x``: as few Lines as its fonts allow (one string per run of
    one font, the baseline still 0), and where the line ends."""
    out: list[Line] = []
    text, font, start = "", "text", x
    for k, word in enumerate(words):
        for j, (piece, piece_font) in enumerate(word):
            gap = " " if k and not j else ""
            if text and piece_font == font:
                text += gap + piece
                continue
            if text:
                out.append(Line(text, font, size, start + text_width(text, font, size) / 2, 0.0))
                start += text_width(text, font, size)
            # A little more room where a bold lead-in ends than between two words.
            start += text_width(gap, "text", size) * (1.25 if piece_font != font else 1.0) if gap else 0.0
            text, font = piece, piece_font
    if text:
        out.append(Line(text, font, size, start + text_width(text, font, size) / 2, 0.0))
        start += text_width(text, font, size)
    return out, start


def _set(entries, size: float, left: float, right: float, top: float, bottom: float):
    """The lines at body ``size``, or None when they run past ``bottom``."""
    lines: list[Line] = []
    head, lead = size * 1.1, size * LEADING
    asc, desc = font_metrics("text")
    head_asc, head_desc = font_metrics("name")
    y = top
    for index, entry in enumerate(entries):
        if entry.kind == "head":
            y += (0.5 * size if index else 0) + head_asc * head
            text = "".join(t for t, _ in entry.runs)
            if y + head_desc * head > bottom or text_width(text, "name", head) > right - left:
                return None
            lines.append(Line(text, "name", head, left + text_width(text, "name", head) / 2, y))
            y += 0.2 * size + head_desc * head
            continue
        marker = {"step": f"{entry.number}.", "bullet": "•"}.get(entry.kind, "")
        indent = 0.0 if not marker else text_width("8.", "name", size) + 0.45 * size
        y += asc * size + 0.15 * size
        if marker:
            font = "name" if entry.kind == "step" else "text"
            lines.append(Line(marker, font, size, left + text_width(marker, font, size) / 2, y))
        words = _words(entry.runs)
        x0, width = left + indent, right - left - indent
        i = 0
        while i < len(words):
            if y + desc * size > bottom:
                return None
            j = i
            while j < len(words) and _place(words[i:j + 1], 0.0, size)[1] <= width + 1e-9:
                j += 1
            if j == i:
                return None  # one word wider than the card
            lines += [Line(piece.text, piece.font, size, piece.x, y) for piece in _place(words[i:j], x0, size)[0]]
            i = j
            if i < len(words):
                y += lead
        y += desc * size
    return lines


def layout_aid(text: AidText, card_mm: tuple[float, float],
               safe_mm: float | None = None) -> tuple[tuple[Line, ...], bool]:
    """The aid's lines on a card of ``card_mm``, and whether the whole text fits (it is cut with
    "…" at the smallest size only when it does not). With a print service's ``safe_mm``, every
    line keeps at least that far inside the trim: the title is centred in the part of its band
    inside the safe zone, smaller if it must be."""
    w, h = card_mm
    if safe_mm is not None:
        safe_mm += SAFE_PAD  # the drawn glyphs reach a little past their metric width
    margin = max(MARGIN * w, safe_mm or 0.0)
    band = BAND_HEIGHT * h
    asc, desc = font_metrics("name")
    band_top = safe_mm or 0.0  # the title's band, from here to ``band``
    title_size = min(0.5 * (band - band_top), 0.075 * w)
    title_size = min(title_size, title_size * (w - 2 * margin) / max(text_width(text.title, "name", title_size), 1e-9))
    title_y = (band_top + band) / 2 + (asc - desc) * title_size / 2
    title = Line(text.title, "name", title_size, w / 2, title_y)
    left, right, top, bottom = margin, w - margin, band + 0.45 * margin, h - margin
    # The largest body size that fits, searched between the smallest size and a size no larger than
    # the title's (to a hundredth of a millimetre), so that the text fills the card at every size.
    low, high = TEXT_MIN_MM, max(TEXT_MIN_MM, min(title_size * 0.8, LARGEST * w))
    best = _set(text.entries, low, left, right, top, bottom)
    if best is not None:
        top_fit = _set(text.entries, high, left, right, top, bottom)
        if top_fit is not None:
            return (title, *top_fit), True
        while high - low > 0.01:
            middle = (low + high) / 2
            lines = _set(text.entries, middle, left, right, top, bottom)
            if lines is None:
                high = middle
            else:
                low, best = middle, lines
        return (title, *best), True
    size = TEXT_MIN_MM
    # Far too much text for this card: the smallest size, cut where the card ends.
    lines = _set(text.entries, size, left, right, top, 1e9) or []
    kept = [line for line in lines if line.y + font_metrics(line.font)[1] * line.size <= bottom]
    if kept and len(kept) < len(lines):
        last = kept[-1]
        kept[-1] = Line(ellipsize(last.text + " …", last.font, last.size, last.width), last.font, last.size,
                        last.x, last.y)
    return (title, *kept), False


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


def aid_face(catalogue: Catalogue, lang: str, card_mm: tuple[float, float], bleed_mm: float = 0.0,
             safe_mm: float | None = None) -> CardFace:
    """The player aid of ``catalogue`` in ``lang`` as a card face of ``card_mm`` with its bleed,
    its text inside ``safe_mm`` of the trim when a print service sets a safe zone."""
    try:
        text = aid_text(catalogue, lang)
    except UserError as err:  # e.g. a catalogue of one's own without a card the aid names
        raise UserError(f"{err} (leave the player aid out with --no-aids)") from None
    lines, _ = layout_aid(text, tuple(card_mm), safe_mm)
    return CardFace(KEY, tuple(card_mm), bleed_mm, aid_art(tuple(card_mm), bleed_mm), lines)


def aid_copies(catalogue: Catalogue) -> int:
    """One aid per player: as many as the game's most players."""
    return catalogue.players[1]


def aid_image(face: CardFace, dpi: int = art.DPI) -> Image.Image:
    """The aid as an RGB Pillow image with its bleed (like ``render.card_image``, but each line set
    from its left end, as the PDF sets it, so that left-aligned lines stay aligned whatever small
    difference there is between the two libraries' measures of a line)."""
    from toolkit.cards.render import pillow_font

    size = size_px(face.card_mm, face.bleed_mm, dpi)
    image = face.art.copy() if face.art.size == size else face.art.resize(size, Image.Resampling.LANCZOS)
    sx = size[0] / (face.width + 2 * face.bleed_mm)
    sy = size[1] / (face.height + 2 * face.bleed_mm)
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
