"""Placeholders: the catalogue's facts and the solver's figures, formatted for each language.

Inline placeholders (``{key}``, ``{key:arg}``; those marked # take noun forms that agree with the
number, e.g. ``{count:witch|ведьма|ведьмы|ведьм}`` -> ``7 ведьм``, ``{total|card|cards}`` ->
``54 cards``):

=========================  ===========================================================
``{title}``                the game's title
``{players_min}`` #        fewest players; ``{players_max}`` # most players
``{age}`` #                the youngest age
``{minutes_min}`` #        shortest playing time; ``{minutes_max}`` # longest
``{total}`` #              cards in the deck
``{count:ID}`` #           copies of card ``ID``
``{kind:KIND}`` #          cards of kind ``KIND`` (all colours together)
``{each:KIND}`` #          cards of kind ``KIND`` in each colour (``2–6`` when the colours differ)
``{name:ID}``              card ``ID``'s name; ``{lname:ID}`` the same in lower case
``{colours}`` #            how many colours; ``{colour_names}`` their names as a list
``{colour:ID}``            one colour's name
``{rule:NAME}`` #          a rule number (``castle_size``, ``hand_size``, ``goal`` ...)
``{token:ID}`` #           copies of token ``ID``; ``{token_value:ID}`` # its value
``{tokens_total}`` #       tokens in all
``{where:FIELD=VALUE}`` #  cards whose field ``FIELD`` (a sheet's column) is ``VALUE``
``{distinct:FIELD}`` #     how many different values the cards' field ``FIELD`` has
``{min:FIELD}`` #          the smallest number in field ``FIELD``; ``{max:FIELD}`` # the largest
``{variant:NAME}``         a rules variant, printed by its name for players (the game's ``variant_names``);
                           ``NAME`` is the engine's (checked against its list)
``{form:ID|form|form}``    only the form that agrees with the count of card ``ID`` (or rule
                           ``ID``), the number not printed: ``{count:fairy|fairy|fairies},
                           {form:fairy|who protects|who protect}`` -> ``1 fairy, who protects``;
                           ``#`` in a form prints the number: ``{form:witch|once|# times}``
                           -> ``once`` or ``7 times``
``{odds:NAME}`` #          a figure from the solver (see :mod:`toolkit.placeholders.figures`)
``{tenths:NAME}`` #        a chance from the solver for families: in how many tries of 10, rounded
                           (``{tenths:no_witch_3|time|times} in 10`` -> ``7 times in 10``)
``{one_in:ID}`` #          one card in how many is card ``ID`` (or of kind ``ID``), rounded: the deck's
                           size over their count (``∞`` when the deck holds none)
``{original}``             the published game this edition follows (``game.original``);
                           ``{publisher}`` its publisher (``game.publisher``): an error when the
                           catalogue names none
=========================  ===========================================================

Numbers follow the language: Babel formats them (Russian: decimal comma, a non-breaking space
before %, 8,61 and 12,96 %; English: 8.61 and 12.96%), and a number and its noun never part at a
line's end.
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext
from fractions import Fraction
from xml.sax.saxutils import escape

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_percent

from toolkit.catalogue.model import Catalogue
from toolkit.games.registry import get as game_of
from toolkit.errors import UserError
from toolkit.placeholders.deck import DeckError
from toolkit.placeholders.figures import Odds
from toolkit.placeholders.text import PLACEHOLDER, Piece
from toolkit.plurals import plural
from toolkit.typeset.breaks import bind, drawn
from toolkit.typeset.fonts import SERIF_ITALIC

NBSP = "\u00a0"
VARIANT_OPEN = f'<font name="{SERIF_ITALIC}">'  # a rule variant's name ({variant:...}), never hyphenated
QUOTED_VARIANT = re.compile(r'[“«"„]\s*(' + re.escape(VARIANT_OPEN) + r'[^<]*</font>)\s*[”»"“]')
DIGITS = 2
LIST_LOCALE = {"en": "en_GB"}
STAR = "\ue000"  # a '*' inside a value, kept out of the emphasis markup

def _decimal(value: Fraction | float | int) -> Decimal:
    if isinstance(value, Fraction):
        with localcontext() as ctx:
            ctx.prec = 40
            return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def _rounded(value, digits: int) -> Decimal:
    return _decimal(value).quantize(Decimal(1).scaleb(-digits))


def format_number(value: Fraction | float | int, lang: str, digits: int = DIGITS) -> str:
    """A whole number as is (``20 057``), anything else with ``digits`` decimals (``8,61``)."""
    if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
        return format_decimal(int(value), locale=lang)
    return format_decimal(_rounded(value, digits), format="#,##0." + "0" * digits, locale=lang)


def format_percent(value: Fraction | float, lang: str, digits: int = DIGITS) -> str:
    """A probability as a percentage in the language's own pattern: ``12,96 %``, ``12.96%``."""
    pattern = Locale.parse(lang).percent_formats[None].pattern
    pattern = re.sub(r"0(?![0-9.])", "0." + "0" * digits, pattern, count=1)
    return babel_percent(_rounded(value, digits + 2), format=pattern, locale=lang)


class Facts:
    """Resolves the placeholders of one language's text against one catalogue."""

    def __init__(self, catalogue: Catalogue, lang: str, odds: Odds, variants: dict[str, str]):
        self.catalogue, self.lang, self.odds, self.variants = catalogue, lang, odds, variants
        self.used_variants: set[str] = set()
        self._icons = None

    # --- one placeholder ------------------------------------------------------------------------

    def value(self, key: str, arg: str | None, where: str) -> tuple[str, object | None, bool]:
        """(text, the number for noun forms or None, whether the text is already markup)."""
        c, lang = self.catalogue, self.lang
        needs_arg = {"count", "kind", "each", "name", "lname", "colour", "rule", "token", "token_value", "variant", "odds",
                     "form", "where", "distinct", "min", "max", "tenths", "one_in"}
        if key in needs_arg and not arg:
            raise UserError(f"{where}: {{{key}}} needs an argument, e.g. {{{key}:...}}")
        if key not in needs_arg and arg:
            raise UserError(f"{where}: {{{key}}} takes no argument (got '{arg}')")
        numbers = {
            "players_min": c.players[0], "players_max": c.players[1], "age": c.age,
            "minutes_min": c.minutes[0], "minutes_max": c.minutes[1], "total": c.total,
            "colours": len(c.colours), "tokens_total": sum(t.count for t in c.tokens),
        }
        if key in numbers:
            return self.number(numbers[key]), numbers[key], False
        if key == "title":
            return c.title[lang], None, False
        if key in ("original", "publisher"):
            words = getattr(c, key).get(lang, "")
            if not words:
                raise UserError(f"{where}: {{{key}}}: {c.source.name} names no {key} "
                                f"(add game.{key} = {{ ru = ..., en = ... }} to it)")
            return words, None, False
        if key == "one_in":
            if any(card.id == arg for card in c.cards):
                n = self._card(arg, where).count
            elif arg in self.kinds():
                n = c.count_of_kind(arg)
            else:
                raise UserError(f"{where}: {{one_in:{arg}}}: no card or kind '{arg}' in {c.source.name}")
            if not n:
                return "∞", 1_000_005, False
            whole = int(_rounded(Fraction(c.total, n), 0))
            return self.number(whole), whole, False
        if key == "colour_names":
            # British usage, like "colour": no comma before the last "and" (red, blue, green and yellow)
            return format_list([colour.name[lang] for colour in c.colours], locale=LIST_LOCALE.get(lang, lang)), \
                None, False
        if key in ("count", "name", "lname"):
            card = self._card(arg, where)
            if key == "count":
                return self.number(card.count), card.count, False
            # a number stays with the word before it: "the Sun 10" never breaks between "Sun" and "10"
            name = re.sub(r" (?=\d)", NBSP, card.name[lang])
            return (name[:1].lower() + name[1:] if key == "lname" else name), None, False
        if key in ("kind", "each"):
            kinds = self.kinds()
            if arg not in kinds:
                raise UserError(f"{where}: {{kind:{arg}}}: no card kind '{arg}' in {c.game} "
                                f"(kinds: {', '.join(kinds)})")
            if key == "kind":
                n = c.count_of_kind(arg)
                return self.number(n), n, False
            counts = [sum(card.count for card in c.cards if card.kind == arg and card.colour == colour.id)
                      for colour in c.colours]
            low, high = min(counts, default=0), max(counts, default=0)
            return (self.number(low) if low == high else f"{self.number(low)}–{self.number(high)}"), high, False
        if key == "colour":
            try:
                return c.colour(arg).name[lang], None, False
            except KeyError:
                raise UserError(f"{where}: {{colour:{arg}}}: no colour '{arg}' in {c.source.name} "
                                f"(colours: {', '.join(x.id for x in c.colours)})") from None
        if key == "rule":
            if arg not in c.rules:
                raise UserError(f"{where}: {{rule:{arg}}}: no rule '{arg}' in {c.source.name} "
                                f"(rules: {', '.join(c.rules)})")
            return self.number(c.rules[arg]), c.rules[arg], False
        if key in ("token", "token_value"):
            token = next((t for t in c.tokens if t.id == arg), None)
            if token is None:
                raise UserError(f"{where}: {{{key}:{arg}}}: no token '{arg}' in {c.source.name} "
                                f"(tokens: {', '.join(t.id for t in c.tokens) or 'none'})")
            n = token.count if key == "token" else token.value
            return self.number(n), n, False
        if key in ("where", "distinct", "min", "max"):
            n = self._field_number(key, arg, where)
            return self.number(n), n, False
        if key == "variant":
            if arg not in self.variants:
                raise UserError(f"{where}: {{variant:{arg}}}: the {c.game} engine has no variant '{arg}' "
                                f"(variants: {', '.join(self.variants)})")
            name = game_of(c.game).variant_names.get(arg, {}).get(lang)
            if name is None:
                raise UserError(f"{where}: {{variant:{arg}}}: the variant has no {lang} name for players "
                                f"(add it to the variant_names of the {c.game} game)")
            self.used_variants.add(arg)
            # one mark for a rule's name: italic serif, never hyphenated or broken, the quotes round it
            # in the text dropped (Facts.markup); bold sans in quotes were three marks for one thing
            return f'{VARIANT_OPEN}{escape(name).replace(" ", NBSP)}</font>', None, True
        if key == "form":
            if any(card.id == arg for card in c.cards):
                n = self._card(arg, where).count
            elif arg in c.rules:
                n = c.rules[arg]
            else:
                raise UserError(f"{where}: {{form:{arg}}}: no card or rule '{arg}' in {c.source.name}")
            return "", n, False
        if key in ("odds", "tenths"):
            try:
                figure = self.odds.figure(arg)
            except DeckError:
                raise  # it names the user's input already
            except UserError as err:
                raise UserError(f"{where}: {{odds:{arg}}}: {err}") from None
            if figure.value is None:  # e.g. a goal the deck may never reach: "∞ turns"
                return "∞", 1_000_005, False
            if key == "tenths":
                if figure.kind != "percent":
                    raise UserError(f"{where}: {{tenths:{arg}}}: '{arg}' is not a chance (use {{odds:{arg}}})")
                tenths = int(_rounded(figure.value * 10, 0))
                return self.number(tenths), tenths, False
            if figure.kind == "percent":
                return format_percent(figure.value, lang), None, False
            if figure.kind == "int":
                return self.number(figure.value), figure.value, False
            if figure.kind == "range":  # "8–9 turns": the noun agrees with the higher end
                low, high = figure.value
                return f"{self.number(low)}–{self.number(high)}", high, False
            # The noun agrees with the number as printed: a whole number is printed whole ("1 turn").
            whole = isinstance(figure.value, Fraction) and figure.value.denominator == 1
            shown = int(figure.value) if whole else _rounded(figure.value, DIGITS)
            return format_number(figure.value, lang), shown, False
        raise UserError(f"{where}: unknown placeholder {{{key}{':' + arg if arg else ''}}} "
                        f"(see toolkit/placeholders/facts.py for the list)")

    def kinds(self) -> tuple[str, ...]:
        """The card kinds a text may name: the game's, or for a game of the deck alone its cards' own."""
        c = self.catalogue
        return game_of(c.game).kinds or tuple(dict.fromkeys(card.kind for card in c.cards))

    def _field_number(self, key: str, arg: str, where: str) -> int:
        """A number about the cards' own fields (a sheet's columns), copies counted."""
        c = self.catalogue
        name, _, wanted = arg.partition("=")
        if (key == "where") != bool(wanted):
            form = "{where:FIELD=VALUE}" if key == "where" else f"{{{key}:FIELD}}"
            raise UserError(f"{where}: {{{key}:{arg}}}: write it as {form}")
        known = sorted({field for card in c.cards for field in card.fields})
        if name not in known:
            raise UserError(f"{where}: {{{key}:{arg}}}: no card has a field '{name}' in {c.source.name} "
                            f"(fields: {', '.join(known) or 'none'})")
        values = [card.fields[name] for card in c.cards if card.count and name in card.fields]
        if key == "where":
            return sum(card.count for card in c.cards if str(card.fields.get(name, "")) == wanted)
        if key == "distinct":
            return len(set(values))
        numbers = [value for value in values if isinstance(value, int)]
        if not numbers or len(numbers) < len(values):
            raise UserError(f"{where}: {{{key}:{arg}}}: the field '{name}' is not a whole number on every card")
        return min(numbers) if key == "min" else max(numbers)

    def _card(self, card_id: str, where: str):
        try:
            return self.catalogue.card(card_id)
        except KeyError:
            raise UserError(f"{where}: no card with id '{card_id}' in {self.catalogue.source.name} "
                            f"(ids: {', '.join(c.id for c in self.catalogue.cards)})") from None

    def number(self, value) -> str:
        return format_number(value, self.lang)

    def placeholder(self, match: re.Match, where: str) -> str:
        key, arg, forms = match.group(1), match.group(2), match.group(3)
        text, number, markup = self.value(key, arg, where)
        if not markup:
            text = escape(text)
        if forms:
            if number is None:
                raise UserError(f"{where}: {match.group(0)}: only a number takes noun forms")
            noun = plural(number, forms[1:].split("|"), self.lang, f"{where}: {match.group(0)}")
            if key == "form":  # a '#' in the chosen form stands for the number: {form:witch|once|# times}
                text = escape(noun).replace("# ", f"{self.number(number)}{NBSP}").replace("#", self.number(number))
            else:
                text = f"{text}{NBSP}{escape(noun)}"
        elif key == "form":
            raise UserError(f"{where}: {match.group(0)}: {{form:...}} needs the forms to choose from")
        return text.replace("*", STAR)

    # --- a piece of text --------------------------------------------------------------------------

    def resolve(self, piece: Piece) -> str:
        """One line of source text, placeholders filled in, XML-escaped (emphasis not yet applied)."""
        out, last = [], 0
        for match in PLACEHOLDER.finditer(piece.text):
            out.append(self._literal(piece.text[last:match.start()], piece))
            out.append(self.placeholder(match, piece.where))
            last = match.end()
        out.append(self._literal(piece.text[last:], piece))
        return "".join(out)

    def _literal(self, text: str, piece: Piece) -> str:
        if "{" in text or "}" in text:
            bad = re.search(r"\{[^}]*\}?|\}", text).group(0)
            raise UserError(f"{piece.where}: unknown placeholder {bad} (placeholders are {{key}}, {{key:arg}} "
                            "or {key:arg|form|form}; see toolkit/placeholders/facts.py)")
        return escape(text)

    def markup(self, pieces: tuple[Piece, ...] | list[Piece], size: float = 0.0) -> str:
        """Pieces joined into one paragraph of reportlab markup (bold, italic, typography); each
        ``:name:`` of the deck's icons drawn inline for text of ``size`` points (:func:`inline_icons`)."""
        text = " ".join(self.resolve(piece) for piece in pieces)
        text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
        text = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"<i>\1</i>", text)
        if "*" in text:
            raise UserError(f"{pieces[0].where}: an unmatched * (emphasis is **bold** or *italic*)")
        text = drawn(bind(text.replace(STAR, "*"), self.lang, markup=True), markup=True)
        text = QUOTED_VARIANT.sub(r"\1", text)
        return inline_icons(text, self.icons, size) if size else text

    @property
    def icons(self):
        if self._icons is None:
            from toolkit.layout.engine import deck_icons

            self._icons = deck_icons(self.catalogue)
        return self._icons

    def deck_line(self) -> str:
        """The players, age and time from the deck, as markup, for a text without ``facts:``
        (``2–4 players · ages 6 and up · 10–20 minutes``; the words are the toolkit's, catalogue/words.py)."""
        from toolkit.catalogue.words import counted, words

        c, said = self.catalogue, words(self.catalogue, self.lang)

        def span(low: int, high: int, key: str) -> str:
            numbers = self.number(low) if low == high else f"{self.number(low)}–{self.number(high)}"
            return f"{numbers}{NBSP}{counted(c, self.lang, key, high)}"

        line = " · ".join((span(*c.players, "players"), said["ages"].format(age=self.number(c.age)),
                           span(*c.minutes, "minutes")))
        return drawn(bind(escape(line), self.lang, markup=True), markup=True)

    def plain(self, piece: Piece) -> str:
        """A piece as plain text (chart labels, the footer): placeholders filled in, no markup, an
        icon's ``:name:`` in words."""
        from toolkit.layout.engine import icon_words

        text = icon_words(self.resolve(piece), self.catalogue, self.lang, self.icons)
        return re.sub(r"<[^>]+>", "", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")




_ICON_FILES: dict[tuple, str] = {}


def inline_icons(markup: str, icons, size: float) -> str:
    """``markup`` with each ``:name:`` of ``icons`` as an ``<img>`` drawn as the card text draws it
    (toolkit.layout.text.place): its height the text's ``size`` (points), its foot ICON_RISE of the
    size below the baseline, ICON_GAP of air on each side. reportlab reads an inline picture from a
    file only, so each icon at each size is written once a process as a PNG in a temporary folder."""
    from toolkit.layout.text import ICON_GAP, ICON_RISE

    def tag(match: re.Match) -> str:
        name = match.group(1)
        if name not in icons:
            return match.group(0)  # no icon of the deck: printed as written, as on the cards
        aspect = icons.aspect(name)
        key = (str(icons.paths[name]), name, round(size, 3))
        if key not in _ICON_FILES:
            _ICON_FILES[key] = _icon_file(icons, name, size, aspect, ICON_GAP)
        width = size * (aspect + 2 * ICON_GAP)
        return f'<img src="{_ICON_FILES[key]}" width="{width:.3f}" height="{size:.3f}" valign="{-ICON_RISE * 100:g}%"/>'

    return re.sub(r":([A-Za-z0-9_-]+):", tag, markup)


def _icon_file(icons, name: str, size: float, aspect: float, gap: float) -> str:
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    from PIL import Image

    from toolkit.typeset.units import PT_PER_MM

    height_mm = size / PT_PER_MM
    image = icons.image(name, height_mm * aspect, height_mm).convert("RGBA")
    pad = round(gap * image.height)
    padded = Image.new("RGBA", (image.width + 2 * pad, image.height), (0, 0, 0, 0))
    padded.paste(image, (pad, 0), image)
    if "folder" not in _ICON_FILES:
        folder = tempfile.mkdtemp(prefix="toolkit-icons-")
        atexit.register(shutil.rmtree, folder, True)
        _ICON_FILES["folder"] = folder
    path = Path(_ICON_FILES["folder"]) / f"{len(_ICON_FILES)}.png"
    padded.save(path, "PNG")
    return str(path)
