"""Palaces' table pictures in the rulebook (``Game.table_scene`` for the example of play, ``setup_scene`` for
the set-up; see :mod:`toolkit.rulebook.table_picture`):
``{table:player=...|hand=...|palace=...|ruins=...|place=...|pile=...|discard=...|tokens=...}``, the hand
and the player's victory tokens beside it, the building places (a palace of three cards with a tower,
one under ruins, and an empty place, never more palaces than ``max_palaces`` allows), the draw pile
and the discard pile with a completed palace's roof on top."""

from __future__ import annotations

from toolkit.cards.render import CardFace
from toolkit.catalogue.model import Catalogue
from toolkit.rulebook.table_picture import RATIO, Card, Label, Scene, pick, pile_and_discard, pile_and_empty_discard

KEYS = ("player", "hand", "palace", "ruins", "place", "pile", "discard", "tokens")


def scene(catalogue: Catalogue, face, back: CardFace) -> Scene:
    rise = 0.3 * RATIO  # each card laid on a palace stands this much higher than the one below it
    gap, side = 0.5, 0.35
    places = min(3, max(1, catalogue.rules.get("max_palaces", 3)))
    # A legal position: a palace under construction (three cards with a tower), one under ruins, and an
    # empty building place only while the player builds fewer palaces than the limit allows.
    slots = ["palace", "ruins", "place"] if places >= 3 else ["palace", "place"] if places == 2 else ["palace"]
    width = max(side * 2 + len(slots) + gap * (len(slots) - 1), 4.9)  # room for the hand and the tokens beside it
    x0 = (width - (len(slots) + gap * (len(slots) - 1))) / 2
    colours = [c.id for c in catalogue.colours]
    cards: list[Card] = []
    labels: list[Label] = []
    empty: list[tuple[float, float]] = []
    used: list[str] = []
    built: list[float] = []  # where the palaces stand, for their one label
    for i, slot in enumerate(slots):
        x = x0 + i * (1 + gap)
        if slot == "place":
            empty.append((x, 0.0))
            labels.append(Label("place", x + 0.5, 1 + gap * 0.95))
            continue
        foundation = next((f for colour in colours if colour not in used
                           and (f := pick(catalogue, "foundation", colour))), None)
        stack = []
        if foundation:
            used.append(foundation.colour)
            stack.append(foundation)
            floor = pick(catalogue, "floor", foundation.colour)
            first = slot == "palace" and not built
            if floor and (first or slot == "ruins"):
                stack.append(floor)
            if first and (tower := pick(catalogue, "tower")):
                stack.append(tower)
        for level, card in enumerate(stack):
            cards.append(Card(face(card), x, level * rise))
        ruins = pick(catalogue, "ruins") if slot == "ruins" else None
        if ruins:
            if not stack:
                empty.append((x, 0.0))
            cards.append(Card(face(ruins), x, 0.35 * RATIO, 90))
            labels.append(Label("ruins", x + 0.5, 1 + gap * 0.95))
        elif stack:
            built.append(x)
        else:
            empty.append((x, 0.0))
            if not any(label.key == "place" for label in labels) and "place" not in slots[i + 1:]:
                labels.append(Label("place", x + 0.5, 1 + gap * 0.95))
    if built:
        labels.append(Label("palace", (built[0] + built[-1] + 1) / 2, built[-1] - built[0] + 1 + gap * 0.95))
    height = RATIO + 2 * rise
    hand_kinds = ("roof", "floor", "exchange", "tower", "flood", "general-exchange", "foundation", "ruins")
    hand_cards = []
    for kind in hand_kinds:
        card = pick(catalogue, kind, avoid=tuple(used[:1]) if kind == "floor" else ())
        if card and card not in hand_cards:
            hand_cards.append(card)
        if len(hand_cards) == min(5, catalogue.rules.get("hand_size", 5)):
            break
    hand, n, step = [], len(hand_cards), 0.5
    start = width / 2 - (1 + step * (n - 1)) / 2 - (0.4 if catalogue.tokens else 0)
    for i, card in enumerate(hand_cards):
        off = i - (n - 1) / 2  # a gentle fan: the outer cards a little lower and turned outwards
        hand.append(Card(face(card), start + i * step, 0.2 - 0.025 * off * off, -4 * off))
    hand_labels = [Label("hand", start + (1 + step * (n - 1)) / 2, 1 + step * (n - 1) + 0.6)] if hand else []
    # The victory tokens the player has won (completed palaces), a small heap right of the hand.
    values = sorted({token.value for token in catalogue.tokens}, reverse=True)
    heap = [values[0]] + [values[-1]] * 2 if values else []
    # clear of the hand's last card, even turned outwards as it is
    x_tokens = max(start + 1 + step * (n - 1) + 0.45, width - side - 0.8) if hand else width / 2 - 0.3
    tokens = [(value, x_tokens + 0.28 * i, 0.5 + 0.28 * (i % 2) - 0.06 * i) for i, value in enumerate(heap)]
    if tokens:
        labels_row = hand_labels + [Label("tokens", x_tokens + 0.28, 1.3)]
    else:
        labels_row = hand_labels
    top_cards, top_labels = pile_and_discard(catalogue, face, back, width,
                                              ("roof", "flood", "exchange", "general-exchange", "ruins", "floor"))
    return Scene(width, [(RATIO, top_cards, top_labels, []), (height, cards, labels, empty),
                         (RATIO + 0.2, hand, labels_row, [])], width / 2, tokens)


SETUP_KEYS = ("player", "place", "pile", "discard", "tokens")


def setup_scene(catalogue: Catalogue, face, back: CardFace) -> Scene:
    """The table as a game starts (``{setup:...}``): in the middle the rest of the deck face down as the
    draw pile, the discard pile's place empty beside it and the victory tokens in their common supply on
    its other side (nobody has scored yet); in front of the player their building places, all empty
    (outlines, as many as ``max_palaces`` allows, up to 4). Nothing is built yet, and the hand just dealt
    is in the player's hand, not on the table."""
    side = 0.35
    width = 5.4
    # The middle of the table: the supply of tokens left of the draw pile, the empty discard on its right.
    pile, top_labels, discard = pile_and_empty_discard(back, width)
    pile_left = width / 2 - 1.25
    values = sorted({token.value for token in catalogue.tokens}, reverse=True)
    x_supply = (side + pile_left) / 2 - 0.1
    heap = [values[-1], values[0], values[-1], values[0], values[-1]] if values else []
    at = [(-0.2, 0.3), (0.2, 0.34), (0.0, 0.62), (-0.18, 0.92), (0.2, 0.96)]
    tokens = [(value, x_supply + dx, dy) for value, (dx, dy) in zip(heap, at)]
    if tokens:
        # the draw pile's label keeps to the pile, so the supply's has room beside it
        top_labels = [Label(label.key, label.x, 1.0) if label.key == "pile" else label for label in top_labels]
        top_labels.append(Label("tokens", x_supply, 1.5))
    # The building places in front of the player, outlined: nothing is built yet.
    places = min(4, max(1, catalogue.rules.get("max_palaces", 3)))
    gap = 0.5 if places <= 3 else 0.3
    span = places + gap * (places - 1)
    x0 = (width - span) / 2
    outlines = [(x0 + i * (1 + gap), 0.0) for i in range(places)]
    place_labels = [Label("place", width / 2, span + gap)]
    rows = [(RATIO, pile, top_labels, discard), (RATIO, [], place_labels, outlines)]
    return Scene(width, rows, width / 2, tokens, tokens_row=0)
