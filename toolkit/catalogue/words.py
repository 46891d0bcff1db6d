"""The words the toolkit prints itself (not the deck's): a sheet's title line, "Card back", the
headings of ``toolkit catalogue``'s table, the rulebook's "(continued)". The toolkit has them in
English, Russian, French, Polish and Czech; a deck in another language gives them in its catalogue
(``[words.<lang>]``, any of WORD_KEYS), and English stands in for the rest, with one note on stderr
naming the keys to give.

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
        # the rulebook's line of players, age and time when its text gives no 'facts:' ("2–4 players · ...")
        "players": "player|players", "ages": "ages {age} and up", "minutes": "minute|minutes",
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
        "players": "игрок|игрока|игроков", "ages": "от {age} лет", "minutes": "минута|минуты|минут",
    },
    # French puts a no-break space before a colon (U+00A0 here: the fonts have no narrow one).
    "fr": {
        "sheet_title": "{title}\u00a0: cartes à imprimer",
        "cards": "carte|cartes|cartes",
        "mm": "mm",
        "sheet_bleed": "fond perdu {bleed} · cartes {size}",
        "no_bleed": "sans fond perdu · cartes {size}",
        "card_back": "Dos de carte",
        "player_aid": "Aide de jeu",
        "table_id": "id", "table_kind": "type", "table_colour": "couleur", "table_count": "nombre",
        "table_name": "nom", "table_total": "total",
        "book_title": "{title}\u00a0: règles du jeu",
        "book_subject": "Règles du jeu de cartes {title}",
        "others": "autres cartes",
        "continued": "suite",
        "designer_title": "{title}\u00a0: chiffres pour l’auteur",
        "designer_subject": "Probabilités et chiffres tirés de parties du jeu de cartes {title}",
        "players": "joueur|joueurs|joueurs", "ages": "dès {age} ans", "minutes": "minute|minutes|minutes",
    },
    "pl": {
        "sheet_title": "{title}: karty do wydruku",
        "cards": "karta|karty|kart|karty",
        "mm": "mm",
        "sheet_bleed": "spad {bleed} · karty {size}",
        "no_bleed": "bez spadu · karty {size}",
        "card_back": "Rewers karty",
        "player_aid": "Pomoc gracza",
        "table_id": "id", "table_kind": "rodzaj", "table_colour": "kolor", "table_count": "liczba",
        "table_name": "nazwa", "table_total": "razem",
        "book_title": "{title}: zasady gry",
        "book_subject": "Zasady gry karcianej {title}",
        "others": "inne karty",
        "continued": "ciąg dalszy",
        "designer_title": "{title}: liczby dla autora",
        "designer_subject": "Szanse i liczby z rozegranych partii gry karcianej {title}",
        "players": "gracz|gracze|graczy|gracza", "ages": "od {age} lat", "minutes": "minuta|minuty|minut|minuty",
    },
    "cs": {
        "sheet_title": "{title}: karty k vytištění",
        "cards": "karta|karty|karty|karet",
        "mm": "mm",
        "sheet_bleed": "spadávka {bleed} · karty {size}",
        "no_bleed": "bez spadávky · karty {size}",
        "card_back": "Rub karty",
        "player_aid": "Přehled pravidel",
        "table_id": "id", "table_kind": "druh", "table_colour": "barva", "table_count": "počet",
        "table_name": "název", "table_total": "celkem",
        "book_title": "{title}: pravidla hry",
        "book_subject": "Pravidla karetní hry {title}",
        "others": "ostatní karty",
        "continued": "pokračování",
        "designer_title": "{title}: čísla pro autora",
        "designer_subject": "Šance a čísla z odehraných partií karetní hry {title}",
        "players": "hráč|hráči|hráče|hráčů", "ages": "od {age} let", "minutes": "minuta|minuty|minuty|minut",
    },
}
COUNTED_WORDS = ("cards", "players", "minutes")  # words given in the noun forms of toolkit.plurals
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


def deck_lang(catalogue, lang: str | None) -> str:
    """``--lang`` as given (a language the deck has), else the deck's first language: the commands' and
    the studio's one reading of it."""
    if lang is None:
        return catalogue.langs[0]
    if lang not in catalogue.langs:
        from toolkit.catalogue.checks import printable, quote
        from toolkit.errors import UserError

        raise UserError(f"--lang {printable(lang)}: {quote(catalogue.source.name)} has no such language "
                        f"(its languages: {', '.join(catalogue.langs)})")
    return lang


def language_name(code: str) -> str:
    """The English name of a language (``de`` -> German), by CLDR; the code itself if CLDR has none."""
    from babel import Locale

    return Locale("en").languages.get(code, code)


def decimal(value: float, lang: str) -> str:
    """``value`` written shortest with the language's decimal sign (2.5 in English, 2,5 in Russian)."""
    from babel.numbers import get_decimal_symbol

    return f"{value:g}".replace(".", get_decimal_symbol(lang))
