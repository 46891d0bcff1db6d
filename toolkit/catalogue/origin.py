"""Naming the user's input behind a deck, for the one line that refuses it.

A deck is the catalogue file's counts with the ``--set ID=N`` overrides applied; the catalogue keeps
the file's counts (``Catalogue.counts_on_file``) to tell which was which. A problem a ``--set`` made
is named by those ``--set`` options; one the file holds by its name and key paths
(``mine.toml: cards[4].count``; a sheet's by the card ids: ``deck.csv: the copies of ace, two``),
which is where the user would fix it.
"""

from __future__ import annotations

from typing import Iterable

from toolkit.catalogue.model import Catalogue

SHOWN = 4  # key paths named before "..."


def changed_by_set(catalogue: Catalogue) -> list[str]:
    """The ids whose count differs from the file's: the ones ``--set`` changed, in catalogue order."""
    counts = catalogue.counts_on_file
    if counts is None:
        return []
    return [card.id for card in catalogue.cards if counts.get(card.id) != card.count]


def deck_origin(catalogue: Catalogue, card_ids: Iterable[str] | None = None) -> str:
    """``--set castle-red=5 --set castle-blue=0`` when ``--set`` changed any of ``card_ids`` (every
    card when None), else ``mine.toml: cards[0].count, cards[3].count`` (those of the cards)."""
    ids = [card.id for card in catalogue.cards] if card_ids is None else list(card_ids)
    wanted = set(ids)
    changed = [card_id for card_id in changed_by_set(catalogue) if card_id in wanted]
    if changed:
        return " ".join(f"--set {card_id}={catalogue.card(card_id).count}" for card_id in changed)
    if catalogue.sheet is not None:  # a sheet's rows have no key paths: the cards are named by id
        named = [card.id for card in catalogue.cards if card.id in wanted]
        if card_ids is None or not named:
            return catalogue.sheet.name
        shown = ", ".join(named[:SHOWN]) + (", ..." if len(named) > SHOWN else "")
        return f"{catalogue.sheet.name}: the copies of {shown}"
    paths = [f"cards[{i}].count" for i, card in enumerate(catalogue.cards) if card.id in wanted]
    if card_ids is None or not paths:
        return catalogue.source.name
    shown = ", ".join(paths[:SHOWN]) + (", ..." if len(paths) > SHOWN else "")
    return f"{catalogue.source.name}: {shown}"
