"""The deck as a plain-text table: every card type, with the cards' own fields after the name."""

from __future__ import annotations

from toolkit.catalogue.model import Catalogue
from toolkit.catalogue.words import words

_HEADERS = ("table_id", "table_kind", "table_colour", "table_count", "table_name")


def deck_table(catalogue: Catalogue, lang: str) -> str:
    rows = [
        (
            card.id,
            card.kind,
            catalogue.colour(card.colour).name[lang] if card.colour else "-",
            str(card.count),
            card.name[lang],
            *(str(card.fields.get(name, "-")) for name in catalogue.field_names),
        )
        for card in catalogue.cards
    ]
    said = words(catalogue, lang)
    header = (*(said[key] for key in _HEADERS), *catalogue.field_names)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row):
        cells = [cell.rjust(widths[i]) if i == 3 else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        return "  ".join(cells).rstrip()

    title = f"{catalogue.title[lang]} ({catalogue.game})"
    rule = "-" * len(line(header))
    total = f"{said['table_total']}: {catalogue.total}"
    return "\n".join([title, line(header), rule, *map(line, rows), rule, total])
