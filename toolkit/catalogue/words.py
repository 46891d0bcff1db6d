"""The words the toolkit prints itself (not the deck's): a sheet's title line, "Card back", the
headings of ``toolkit catalogue``'s table. The toolkit has them in English and Russian; a deck in
another language gives them in its catalogue (``[words.<lang>]``, any of WORD_KEYS), and English
stands in for the rest, with one notice on stderr.

A word that agrees with a number gives its forms separated by ``|``, in the order of
``toolkit.plurals.plural_forms`` (English ``card|cards``, Russian ``карта|карты|карт``). Another
part of the toolkit (the rulebook) adds its own keys to BUILT_IN, and reads them through ``words``.
"""

from __future__ import annotations

from collections.abc import Mapping

BUILT_IN: dict[str, dict[str, str]] = {
    "en": {
        "sheet_title": "{title}: print-and-play cards",  # the print-and-play PDF's title
        "cards": "card|cards",                            # its subject: "54 cards, 63 × 88 mm"
        "mm": "mm",
        "sheet_bleed": "bleed {bleed} · cards {size}",   # in a sheet's margin, for who prints it
        "no_bleed": "no bleed · cards {size}",
        "card_back": "Card back",                         # the back's name in exports' lists
        "player_aid": "Player aid",                       # across a player aid's back, and its name in lists
        "table_id": "id", "table_kind": "kind", "table_colour": "colour", "table_count": "count",
        "table_name": "name", "table_total": "total",
        "book_title": "{title}: rules of play",           # the rulebook PDF's title and subject
        "book_subject": "Rules of the card game {title}",
        "others": "other cards",                          # the rulebook's components: cards of no colour
        "continued": "continued",                         # "Components (continued)" over a grid's next page
        "designer_title": "{title}: figures for designers",  # the designer's sheet's title and subject
        "designer_subject": "Odds and sampled figures of the card game {title}",
    },
    "ru": {
        "sheet_title": "{title}: карты для печати",
        "cards": "карта|карты|карт",
        "mm": "мм",
        "sheet_bleed": "вылет {bleed} · карты {size}",
        "no_bleed": "без вылета · карты {size}",
        "card_back": "Рубашка",
        "player_aid": "Памятка",
        "table_id": "id", "table_kind": "вид", "table_colour": "цвет", "table_count": "число",
        "table_name": "название", "table_total": "всего",
        "book_title": "{title}: правила игры",
        "book_subject": "Правила карточной игры «{title}»",
        "others": "другие карты",
        "continued": "продолжение",
        "designer_title": "{title}: цифры для автора",
        "designer_subject": "Шансы и выборочные цифры игры «{title}»",
    },
}
WORD_KEYS = tuple(BUILT_IN["en"])
_TOLD: set[tuple[str, str]] = set()


def words(catalogue, lang: str) -> Mapping[str, str]:
    """The toolkit's words in ``lang`` for this deck: the catalogue's ``[words.<lang>]`` over the
    built-in ones; where neither has a word, the English one, and one notice on stderr per deck and
    language naming what is missing."""
    own = catalogue.words.get(lang, {})
    built_in = BUILT_IN.get(lang)
    if built_in is not None:
        return {**built_in, **own}
    missing = [key for key in WORD_KEYS if key not in own]
    if missing and (str(catalogue.source), lang) not in _TOLD:
        from toolkit.fast.notice import say

        _TOLD.add((str(catalogue.source), lang))
        say(f"{catalogue.source.name}: the toolkit has no {language_name(lang)} words of its own and [words.{lang}] "
            f"does not give {', '.join(missing[:4])}{', ...' if len(missing) > 4 else ''}: English is printed instead")
    return {**BUILT_IN["en"], **own}


def counted(catalogue, lang: str, key: str, number: int) -> str:
    """The form of the word ``key`` that agrees with ``number`` (``54 cards``' noun), by the plural rules of
    the language the word is given in (English's where English stands in)."""
    from toolkit.plurals import plural

    given_in = lang if lang in BUILT_IN or key in catalogue.words.get(lang, {}) else "en"
    return plural(number, words(catalogue, lang)[key].split("|"), given_in, key)


def language_name(code: str) -> str:
    """The English name of a language (``de`` -> German), by CLDR; the code itself if CLDR has none."""
    from babel import Locale

    return Locale("en").languages.get(code, code)


def decimal(value: float, lang: str) -> str:
    """``value`` written shortest with the language's decimal sign (2.5 in English, 2,5 in Russian)."""
    from babel.numbers import get_decimal_symbol

    return f"{value:g}".replace(".", get_decimal_symbol(lang))
