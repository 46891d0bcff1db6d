"""A card text set in a box: inline markup (``**bold**``, ``*italic*``, ``:icon:``), words broken at
ordinary spaces only (``toolkit.typeset.breaks.bind`` keeps ``от себя`` together), and paragraphs shaped for the
box: the fewest lines that fit, then as even as they can be at that count (no funnel, no one-word
last line where another break avoids it)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from toolkit.cards.render import INK, Line
from toolkit.errors import UserError
from toolkit.typeset.breaks import bind, drawn
from toolkit.typeset.fonts import font_metrics, text_width

MARKUP = re.compile(r"\\\*|\*\*|\*|:([A-Za-z0-9_-]+):")
ICON_RISE = 0.12  # an inline icon's foot sits this many font sizes below the baseline
ICON_GAP = 0.08   # and keeps this many font sizes of air on each side


@dataclass(frozen=True)
class Piece:
    """Part of a word: ``text`` in one style ("", "bold", "italic", "bold-italic"), or an icon."""

    text: str
    style: str = ""
    icon: str | None = None


Word = tuple[Piece, ...]


def styled(font: str, style: str, variants: Callable[[str, str], str]) -> str:
    return variants(font, style) if style else font


def words(text: str, lang: str, icons, where: str) -> list[Word]:
    """The words of ``text`` (markup read, no-break spaces bound), each a tuple of pieces."""
    text = drawn(bind(" ".join(text.split()), lang))
    out: list[list[Piece]] = [[]]
    bold = italic = False
    at = 0

    def add(chunk: str) -> None:
        style = "-".join(s for s, on in (("bold", bold), ("italic", italic)) if on)
        for i, part in enumerate(chunk.split(" ")):
            if i and out[-1]:
                out.append([])
            if part:
                out[-1].append(Piece(part, style))

    for match in MARKUP.finditer(text):
        add(text[at:match.start()])
        at = match.end()
        token = match.group(0)
        if token == "\\*":
            add("*")
        elif token == "**":
            bold = not bold
        elif token == "*":
            italic = not italic
        else:
            name = match.group(1)
            if name not in icons:
                add(token)  # not an icon of the deck: the text as written (a time like 10:30: stays)
            else:
                out[-1].append(Piece("", "", name))
    add(text[at:])
    if bold or italic:
        raise UserError(f"{where}: an unmatched {'**' if bold else '*'} (bold is **like this**, italic *like this*)")
    return [tuple(word) for word in out if word]


@dataclass(frozen=True)
class Setting:
    """How a text is set: its font key, ``variants(font, style)`` for bold and italic, size in mm,
    leading (baseline to baseline, in sizes), and each icon's width per unit of height."""

    font: str
    variants: Callable[[str, str], str]
    size: float
    leading: float
    icon_aspect: dict

    def piece_width(self, piece: Piece) -> float:
        if piece.icon is not None:
            return self.size * (self.icon_aspect[piece.icon] + 2 * ICON_GAP)
        return text_width(piece.text, styled(self.font, piece.style, self.variants), self.size)

    def word_width(self, word: Word) -> float:
        return sum(self.piece_width(p) for p in word)

    @property
    def space(self) -> float:
        return text_width(" ", self.font, self.size)


@dataclass(frozen=True)
class SetLine:
    words: tuple[Word, ...]
    baseline: float
    left: float
    right: float  # the room the line had
    width: float  # the line's own width


def _greedy(ws: list[Word], widths: list[float], space: float, s: Setting, first: float, bottom: float, room,
            factor: float, max_lines: int | None) -> list[SetLine] | None:
    ascent, descent = font_metrics(s.font)
    lines: list[SetLine] = []
    i, baseline = 0, first
    while i < len(ws):
        if baseline + descent * s.size > bottom + 1e-9 or (max_lines is not None and len(lines) >= max_lines):
            return None
        left, right = room(baseline - ascent * s.size, baseline + descent * s.size)
        available = (right - left) * factor
        if widths[i] > available + 1e-9:
            return None
        width, j = widths[i], i + 1
        while j < len(ws) and width + space + widths[j] <= available + 1e-9:
            width += space + widths[j]
            j += 1
        lines.append(SetLine(tuple(ws[i:j]), baseline, left, right, width))
        i, baseline = j, baseline + s.leading * s.size
    return lines


def set_text(ws: list[Word], s: Setting, top: float, bottom: float, room, valign: str = "top",
             max_lines: int | None = None) -> list[SetLine] | None:
    """The words set from ``top`` down, each line within ``room(line_top, line_bottom) -> (left,
    right)``, or None when they do not fit above ``bottom``. The fewest lines, made as even as they
    can be (the narrowest measure that keeps their count); then moved down for ``valign`` where the
    lines still fit there the same way."""
    ascent, descent = font_metrics(s.font)
    first = top + ascent * s.size
    widths, space = [s.word_width(w) for w in ws], s.space

    def greedy(first_baseline: float, factor: float) -> list[SetLine] | None:
        return _greedy(ws, widths, space, s, first_baseline, bottom, room, factor, max_lines)

    def shaped(first_baseline: float) -> list[SetLine] | None:
        lines = greedy(first_baseline, 1.0)
        if not lines or len(lines) == 1:
            return lines
        low, high = 0.3, 1.0
        for _ in range(14):
            middle = (low + high) / 2
            trial = greedy(first_baseline, middle)
            if trial is not None and len(trial) == len(lines):
                high = middle
            else:
                low = middle
        return greedy(first_baseline, high)

    lines = shaped(first)
    if not lines or valign == "top":
        return lines
    spare = bottom - (lines[-1].baseline + descent * s.size)
    tries = (spare / 2, spare / 3, spare / 5) if valign == "middle" else (spare, spare / 2, spare / 3)
    for shift in tries:
        if shift <= 1e-9:
            continue
        moved = shaped(first + shift)
        if moved is not None and len(moved) == len(lines):
            return moved
    return lines


def place(line: SetLine, s: Setting, x: float, icons, colour=INK, name: str = "") -> list:
    """One set line drawn from ``x``: a Line for each stretch of one face (the spaces between its
    words inside it), and each inline icon as a Picture of ``icons`` at the text's size (its height
    the font size, its foot ICON_RISE below the baseline, ICON_GAP of air on each side). The cards,
    the player aids and (through :func:`icon_size`) the rulebook draw an icon in text this one way."""
    out: list = []
    run, run_font, start, at = "", None, x, x

    def flush() -> None:
        nonlocal run, run_font
        if run:
            out.append(Line(run, run_font, s.size, start + text_width(run, run_font, s.size) / 2, line.baseline,
                            colour, name))
        run, run_font = "", None

    for k, word in enumerate(line.words):
        space = k > 0
        for piece in word:
            if piece.icon is not None:
                flush()
                at += s.space if space else 0.0
                space = False
                width = s.size * s.icon_aspect[piece.icon]
                left, bottom = at + ICON_GAP * s.size, line.baseline + ICON_RISE * s.size
                out.append(icons.picture(piece.icon, (left, bottom - s.size, left + width, bottom), "centre", "middle",
                                         name))
                at += s.piece_width(piece)
                continue
            font = styled(s.font, piece.style, s.variants)
            if run and font == run_font:
                run += (" " if space else "") + piece.text
            else:
                flush()
                at += s.space if space else 0.0
                start, run_font, run = at, font, piece.text
            space = False
            at = start + text_width(run, run_font, s.size)  # where the run as drawn ends (its spaces in its face)
    flush()
    return out
