"""Which form of a noun agrees with a number, by Babel's plural rules (Russian one|few|many, English
one|other): one function for the catalogue's card texts, the rulebook, the aids and the PDF metadata."""

from __future__ import annotations

from babel import Locale

from toolkit.errors import UserError

FORMS = {"ru": ("one", "few", "many"), "en": ("one", "other")}


def plural(value, forms, lang: str, where: str) -> str:
    """The form among ``forms`` (in the order of ``FORMS[lang]``) that agrees with ``value``."""
    order = FORMS[lang]
    if len(forms) != len(order):
        raise UserError(f"{where}: {len(forms)} noun forms given, {lang} takes {len(order)} ({'|'.join(order)})")
    category = Locale.parse(lang).plural_form(value)
    if category not in order:  # Russian fractions ("other") take the genitive singular: 8,61 хода
        category = "few" if lang == "ru" else "other"
    return forms[order.index(category)]
