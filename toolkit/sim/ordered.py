"""Play the rules engines on a card order fixed in advance, one record a game.

This is the reference every fast path is held to: ``toolkit.fast`` plays the same games from the same
seeds and must give the same record, field for field (``tests/test_fast_*.py``).

How chance is resolved (``toolkit.sim.card_order`` defines the numbers):

* a draw from the pile (``state.draws_from_pile()``) takes the top card of a shuffled order of the
  pile. The order is made (the pile's cards shuffled) at the first draw, and again at any draw where
  the pile holds cards the order does not know: after a reshuffle of the discard pile, or after a rule
  put cards back into the pile (the whole pile is then shuffled);
* any other chance point (a card taken blind from a hand) picks one card of the weights it offers,
  each card equally likely (``CardOrder.pick``).

A record holds, per game: ``winner`` (seat from 0, or -1), ``turns`` (``state.turns`` at the end),
``stalled`` (1 when the game reached a point where it can never end), every counter of
``state.counters()``, and two figures of the race, read from ``state.scores()`` at the end of every
turn and once at the end of the game:

* ``lead_changes``: how often the leader (the one seat with the highest score; a tie leaves no
  leader) became a different seat than the previous leader;
* ``winner_deficit``: the most the winner ever trailed the highest score by (0 without a winner).
"""

from __future__ import annotations

import numpy as np

from toolkit.game.contract import CHANCE
from toolkit.sim.card_order import CardOrder, game_seed

BASE_FIELDS = ("winner", "turns", "stalled", "lead_changes", "winner_deficit")


class Race:
    """The leader and each seat's largest deficit, updated at every look at the scores."""

    def __init__(self, seats: int):
        self.leader = -1
        self.changes = 0
        self.worst = [0] * seats

    def look(self, scores) -> None:
        top = max(scores)
        leaders = [p for p, s in enumerate(scores) if s == top]
        for p, s in enumerate(scores):
            self.worst[p] = max(self.worst[p], top - s)
        if len(leaders) == 1:
            if self.leader >= 0 and leaders[0] != self.leader:
                self.changes += 1
            self.leader = leaders[0]


def play_ordered(game, policies, seed: int, max_turns: int = 10_000) -> dict[str, int]:
    """Play one game of ``game`` from the card order of ``seed``; ``policies[p]`` decides for seat p.

    A game still going after ``max_turns`` turns is stopped (``winner`` -1, ``stalled`` 0).
    """
    state = game.new_initial_state()
    order = CardOrder(seed)
    for seat, policy in enumerate(policies):
        start = getattr(policy, "start_game", None)
        if start is not None:
            start(seed, seat)
    race = Race(game.players)
    pile_order: list[int] = []
    known: list[int] = []  # the pile's counts as the order knows them
    turns = state.turns
    from_pile = getattr(state, "draws_from_pile", None)  # absent: every chance point is a draw from the pile
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            if from_pile is not None and not from_pile():
                state.apply_action(order.pick(_weights(state)))
                continue
            if known != state.pile:
                pile_order = order.shuffled(state.pile)
                known = list(state.pile)
            card = pile_order.pop()
            known[card] -= 1
            state.apply_action(card)
        else:
            state.apply_action(policies[player].act(state))
        if state.turns != turns or state.is_terminal():
            race.look(state.scores())
            turns = state.turns
        if player != CHANCE and state.turns > max_turns:
            break
    winner = -1 if state.winner is None else state.winner
    record = {"winner": winner, "turns": state.turns, "stalled": int(state.is_terminal() and state.winner is None),
              "lead_changes": race.changes, "winner_deficit": race.worst[winner] if winner >= 0 else 0}
    record.update(state.counters())
    return record


def _weights(state) -> list[int]:
    """The weights of a chance point, one per card type (0 where it offers none)."""
    weights = [0] * len(state.game.names)
    for card, weight in state.chance_outcomes():
        weights[card] = weight
    return weights


def engine_batch(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run seeded ``run_seed``, one int64 array per record field."""
    records = [play_ordered(game, policies, game_seed(run_seed, index), max_turns)
               for index in range(start, start + count)]
    names = list(records[0]) if records else list(BASE_FIELDS)
    return {name: np.array([r[name] for r in records], dtype=np.int64) for name in names}
