"""Diamoniak's table picture in the rulebook (``Game.table_scene``, see :mod:`toolkit.rulebook.table_picture`):
``{table:player=...|castle=...|row=...|pile=...|discard=...}``, the castle in front of the player, the
row of face-up cards on the player's right, the draw pile and the discard area in the middle of the
table."""

from __future__ import annotations

from toolkit.cards.render import CardFace
from toolkit.catalogue.model import Catalogue
from toolkit.rulebook.table_picture import RATIO, Card, Label, Scene, pick, pile_and_discard, pile_and_empty_discard

KEYS = ("player", "castle", "row", "pile", "discard")


def scene(catalogue: Catalogue, face, back: CardFace) -> Scene:
    castle = pick(catalogue, "castle")
    built = [castle] * min(3, castle.count) if castle else []
    row = [c for c in (pick(catalogue, "diamond"), pick(catalogue, "fairy"),
                       pick(catalogue, "castle", avoid=(castle.colour,) if castle else ())) if c]
    step, gap, side = 0.55, 0.7, 0.35
    group = lambda n: 1 + step * (n - 1) if n else 0.0  # noqa: E731
    width = side + group(len(built)) + gap + group(len(row)) + side
    width = max(width, 4.2)
    x_castle = side
    x_row = width - side - group(len(row))
    bottom_cards = [Card(face(c), x_castle + i * step, 0) for i, c in enumerate(built)]
    bottom_cards += [Card(face(c), x_row + i * step, 0) for i, c in enumerate(row)]
    bottom_labels = []
    if built:
        bottom_labels.append(Label("castle", x_castle + group(len(built)) / 2, group(len(built)) + gap * 0.8))
    if row:
        bottom_labels.append(Label("row", x_row + group(len(row)) / 2, group(len(row)) + gap * 0.8))
    top_cards, top_labels = pile_and_discard(catalogue, face, back, width, ("witch", "diamond", "castle", "fairy"))
    return Scene(width, [(RATIO, top_cards, top_labels, []), (RATIO, bottom_cards, bottom_labels, [])],
                 x_castle + max(group(len(built)), 1) / 2)


SETUP_KEYS = KEYS


def setup_scene(catalogue: Catalogue, face, back: CardFace) -> Scene:
    """The table as a game starts (``{setup:...}``): the whole deck face down as the draw pile, the
    discard area empty beside it, and nothing yet in front of the player: the places where the castle
    and the row on the right will lie are outlines."""
    gap, side = 0.7, 0.35
    width = 4.2
    x_castle, x_row = side + 0.2, width - side - 1 - 0.2
    places = [(x_castle, 0.0), (x_row, 0.0)]
    labels = [Label("castle", x_castle + 0.5, 1 + gap * 0.8), Label("row", x_row + 0.5, 1 + gap * 0.8)]
    pile, top_labels, discard = pile_and_empty_discard(back, width)
    return Scene(width, [(RATIO, pile, top_labels, discard), (RATIO, [], labels, places)], x_castle + 0.5)
