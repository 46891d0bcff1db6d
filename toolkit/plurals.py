"""Which form of a noun agrees with a number, by Babel's plural rules (Russian one|few|many, English
one|other, any other language its CLDR categories): one function for the catalogue's card texts, the
rulebook, the aids and the PDF metadata."""

from __future__ import annotations

from babel import Locale

from toolkit.errors import UserError

# Russian writes three forms: CLDR's "other" (fractions) takes the genitive singular, the "few" form.
FORMS = {"ru": ("one", "few", "many"), "en": ("one", "other")}
_CLDR_ORDER = ("zero", "one", "two", "few", "many")


def plural_forms(lang: str) -> tuple[str, ...]:
    """The noun forms a text in ``lang`` gives, in order: FORMS, else the language's CLDR categories
    (zero, one, two, few, many, as it has them) and "other"."""
    if lang in FORMS:
        return FORMS[lang]
    tags = Locale.parse(lang).plural_form.tags
    return (*(tag for tag in _CLDR_ORDER if tag in tags), "other")


def plural(value, forms, lang: str, where: str) -> str:
    """The form among ``forms`` (in the order of ``plural_forms(lang)``) that agrees with ``value``."""
    order = plural_forms(lang)
    if len(forms) != len(order):
        raise UserError(f"{where}: {len(forms)} noun forms given, {lang} takes {len(order)} ({'|'.join(order)})")
    category = Locale.parse(lang).plural_form(value)
    if category not in order:  # Russian fractions ("other") take the genitive singular: 8,61 хода
        category = "few" if lang == "ru" else "other"
    return forms[order.index(category)]
