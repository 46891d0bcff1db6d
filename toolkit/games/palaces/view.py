"""What a person reads of a Palaces state and action (``Game.state_fields``, ``Game.action_name``): the
policy table of ``toolkit odds --model optimal`` names the cards by their catalogue ids and the seats from 1.

The fields, the same names for every state of a game: the cards of each type in the pile and in the
discard pile; per seat the cards of each type in hand, its palaces (each its foundation and the cards on
it, ``+`` between them, a ruins card lying on it after ``/``; ``;`` between palaces), the ruins card on its
empty building place and its tokens; and the phase (``turn``, or ``give`` during a general exchange).
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=8)
def _names(cards: tuple[str, ...], players: int) -> tuple[str, ...]:
    names = [f"pile {card}" for card in cards] + [f"discard {card}" for card in cards]
    for seat in range(1, players + 1):
        names += [f"seat {seat} hand {card}" for card in cards]
        names += [f"seat {seat} palaces", f"seat {seat} site", f"seat {seat} tokens"]
    return (*names, "phase")


def _palace(cards: tuple[str, ...], palace: tuple) -> str:
    foundation, on, ruins = palace
    text = "+".join(cards[card] for card in (foundation, *on))
    return text if ruins < 0 else f"{text}/{cards[ruins]}"


def fields(state) -> tuple[tuple[str, ...], tuple]:
    game = state.game
    cards = game.names
    values = [*state.pile, *state.discard]
    for hand, palaces, site, tokens in zip(state.hands, state.palaces, state.site, state.tokens):
        values += [*hand, "; ".join(_palace(cards, palace) for palace in palaces) or "none",
                   "none" if site < 0 else cards[site], tokens]
    values.append(state.phase)
    return _names(cards, game.players), tuple(values)


def _cards(game, cards) -> str:
    """A multiset of card indices in words: ``2 floor-red, tower``."""
    counted: dict[int, int] = {}
    for card in cards:
        counted[card] = counted.get(card, 0) + 1
    return ", ".join(game.names[card] if n == 1 else f"{n} {game.names[card]}" for card, n in sorted(counted.items()))


def _slot(slot) -> str:
    return "the building place" if slot is None else f"palace {slot + 1}"


def action_name(game, action) -> str:
    """Each action of the engine (``toolkit.games.palaces.engine``) in words, the cards by their ids."""
    verb = action[0]
    if verb in ("discard", "give"):
        return f"{verb} {_cards(game, action[1])}"
    if verb == "build":
        _, card, slot = action
        return f"build {game.names[card]}" + ("" if slot is None else f" on palace {slot + 1}")
    if verb == "ruins":
        _, card, seat, slot = action
        if card is None:
            return f"clear the ruins from {_slot(slot)}"
        return f"lay {game.names[card]} on seat {seat + 1}'s {_slot(slot)}"
    if verb == "special":
        card, rest = game.names[action[1]], action[2:]
        if len(rest) >= 2 and isinstance(rest[1], tuple):  # an exchange: the target and the cards given (taken)
            text = f"play {card} with seat {rest[0] + 1}, giving {_cards(game, rest[1])}"
            return text + (f", taking {_cards(game, rest[2])}" if len(rest) == 3 else "")
        if len(rest) == 2:  # a flood: the target and the palace
            return f"play {card} on seat {rest[0] + 1}'s palace {rest[1] + 1}"
        return f"play {card}"
    return verb
