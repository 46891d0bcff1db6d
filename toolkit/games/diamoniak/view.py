"""What a person reads of a Diamoniak state and action (``Game.state_fields``, ``Game.action_name``): the
policy table of ``toolkit odds --model optimal`` names the cards by their catalogue ids and the seats from 1.

The fields, the same names for every state of a game: the cards of each type in the pile and in the
discard area; per seat its castle colour (``none`` before it has one), the cards in its castle and the
cards of each type on its right (a witch never waits there); the cards drawn this turn, whether the last one went into the castle,
and the turns in a row in which nobody could act. What the game only counts (witch strikes, purchases,
reshuffles, fairies spent) is left out: it does not change the play ahead.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=8)
def _names(cards: tuple[str, ...], kinds: tuple[str, ...], players: int) -> tuple[str, ...]:
    names = [f"pile {card}" for card in cards] + [f"discard {card}" for card in cards]
    for seat in range(1, players + 1):
        names += [f"seat {seat} colour", f"seat {seat} castle"]
        names += [f"seat {seat} right {card}" for card, kind in zip(cards, kinds) if kind != "witch"]
    return (*names, "drawn this turn", "last built", "passes")


def fields(state) -> tuple[tuple[str, ...], tuple]:
    game = state.game
    values = [*state.pile, *state.discard]
    for hand in state.hands:  # a witch never waits on the right: her column is left out
        values += [hand.colour or "none", sum(hand.castle)]
        values += [n for n, kind in zip(hand.side, game.kinds) if kind != "witch"]
    values += [state.drawn_this_turn, state.last_built, state.passes]
    return _names(game.names, game.kinds, game.players), tuple(values)


def action_name(game, action) -> str:
    """``("draw",)`` -> draw, ``("buy", 1)`` -> buy from seat 2, ``("lose", ((zone, card, n), ...))`` -> lose 2
    diamond from the right, 1 castle-red from the castle; spend a fairy, stop, pass."""
    verb = action[0]
    if verb == "buy":
        return f"buy from seat {action[1] + 1}"
    if verb == "fairy":
        return "spend a fairy"
    if verb == "lose":
        where = {"side": "the right", "castle": "the castle"}
        if not action[1]:
            return "lose nothing"
        return "lose " + ", ".join(f"{n} {game.names[card]} from {where[zone]}" for zone, card, n in action[1])
    return verb
