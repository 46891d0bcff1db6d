"""The one Python play loop: a game of the contract (:mod:`toolkit.game.contract`) played to its end from
one seed, one record a game. Every fast path is held to it: the compiled kernels of the built-in games
(``toolkit.fast``, ``tests/test_fast_*.py``) and the tabulated play of a rules file
(``toolkit.rules.table``) play the same games from the same seeds and give the same records.

Chance comes from the source the game declares (its ``chance_source``; ``toolkit.sim.card_order`` and
``toolkit.sim.runner`` define the numbers), each from the game's one splitmix64 stream:

* ``PILE`` (the built-in card games): a draw from the pile (``state.draws_from_pile()``) takes the top
  card of a shuffled order of the pile. The order is made (the pile's cards shuffled) at the first
  draw, and again at any draw where the pile holds cards the order does not know: after a reshuffle of
  the discard pile, or after a rule put cards back into the pile (the whole pile is then shuffled). Any
  other chance point (a card taken blind from a hand) picks one card of the weights it offers, each
  card equally likely (``CardOrder.pick``);
* ``WEIGHTS`` (every other game): the outcome where ``below(total)`` falls in the listed whole weights
  (``toolkit.sim.runner.sample_outcome``).

Each seat's random choices come from a stream of that seat's own (``seat_streams``), so a change of
player never changes the dice, and a game's record depends on its seed alone.

A record: ``winner`` (seat, -1: none), ``turns`` (``state.turns`` at the end: the game's own turns, else
steps), ``steps``, ``decisions`` (the times a seat was to decide), ``stalled`` (1: the game ended without
a winner), ``lead_changes`` and ``winner_deficit``, then every count of ``events()``. The two race
figures are read from ``state.scores()`` at the end of every turn and at the end of the game (0 when
the game keeps no score):

* ``lead_changes``: how often the leader (the one seat with the highest score; a tie leaves no
  leader) became a different seat than the previous leader;
* ``winner_deficit``: the most the winner ever trailed the highest score by (0 without a winner).

A game played with ``max_turns`` is stopped once a seat decides past that many turns (``winner`` -1,
``stalled`` 0); without it, a game still going after the game's ``max_steps`` is a mistake of the game,
said in one line.
"""

from __future__ import annotations

import inspect

import numpy as np

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE, DEFAULT_MAX_STEPS
from toolkit.sim.card_order import CardOrder, game_seed
from toolkit.sim.runner import Stream, sample_outcome, seat_streams

PILE, WEIGHTS = "pile", "weights"  # the chance sources a game may declare (its ``chance_source``)
FIELDS = ("winner", "turns", "steps", "decisions", "stalled", "lead_changes", "winner_deficit")  # of a record
LOOP_ONLY = ("steps", "decisions")  # what the built-in games' kernels do not count
BASE_FIELDS = tuple(name for name in FIELDS if name not in LOOP_ONLY)  # a kernel's record, before its counters


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


class PileOrder:
    """The ``PILE`` source: the cards of the pile in a shuffled order, made again when the pile changes."""

    def __init__(self, seed: int, state):
        self.order = CardOrder(seed)
        self.cards: list[int] = []
        self.known: list[int] = []  # the pile's counts as the order knows them
        self.from_pile = getattr(state, "draws_from_pile", None)  # absent: every chance point is a draw from the pile

    def draw(self, state) -> int:
        if self.from_pile is not None and not self.from_pile():
            weights = [0] * len(state.game.names)  # one per card type (0 where it offers none)
            for card, weight in state.chance_outcomes():
                weights[card] = weight
            return self.order.pick(weights)
        if self.known != state.pile:
            self.cards = self.order.shuffled(state.pile)
            self.known = list(state.pile)
        card = self.cards.pop()
        self.known[card] -= 1
        return card


def chance_of(game, state, seed: int, draw=None):
    """``draw(state)``: the chance outcomes of the game seeded ``seed`` played on ``state``, from the source
    ``game`` declares.
    ``draw(state, stream)`` (for ``WEIGHTS``) draws as ``sample_outcome(state.chance_outcomes(), stream)``
    does (that, when not given), faster."""
    if getattr(game, "chance_source", WEIGHTS) == PILE:
        return PileOrder(seed, state).draw
    stream = Stream(seed)
    if draw is None:
        return lambda state: sample_outcome(state.chance_outcomes(), stream)
    return lambda state: draw(state, stream)


def play_game(game, seats, seed: int, draw=None, max_turns: int | None = None) -> dict[str, int]:
    """One game of the seed ``seed`` played by ``seats`` (one player a seat): its record. ``draw``: see
    ``chance_of``."""
    streams = seat_streams(seed, len(seats))
    for seat, policy in enumerate(seats):
        start = getattr(policy, "start_game", None)
        if start is not None:
            start(seed, seat)
    state = game.new_initial_state()
    chance = chance_of(game, state, seed, draw)
    race = Race(len(seats)) if state.scores() is not None else None
    limit = getattr(game, "max_steps", DEFAULT_MAX_STEPS)
    turns = state.turns
    steps = decisions = 0
    over = state.is_terminal()
    while not over:
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(chance(state))
        else:
            decisions += 1
            state.apply_action(seats[player].act(state, streams[player]))
        steps += 1
        over = state.is_terminal()
        if race is not None and (over or state.turns != turns):
            race.look(state.scores())
            turns = state.turns
        if over:
            break
        if max_turns is None:
            if steps >= limit:
                raise _endless(game, state, seats, limit)
        elif player != CHANCE and state.turns > max_turns:
            break
    if race is not None and not steps:  # over before it began: looked at once
        race.look(state.scores())
    winner = -1 if state.winner is None else state.winner
    record = {"winner": winner, "turns": state.turns, "steps": steps, "decisions": decisions,
              "stalled": int(over and winner < 0), "lead_changes": race.changes if race else 0,
              "winner_deficit": race.worst[winner] if race and winner >= 0 else 0}
    record.update(state.events())
    return record


def _endless(game, state, seats, limit: int) -> UserError:
    where = getattr(game, "source", game.name)
    inner = getattr(game, "game", None)  # a rules file's own game object
    if inner is not None and hasattr(inner, "max_game_length"):
        where = game.where(inner.max_game_length)
        why = "the limit its max_game_length() gives"
    else:
        if inner is not None:
            try:
                where = f"{game.source}:{inspect.getsourcelines(game.cls)[1]}"
            except (OSError, TypeError):
                pass
        why = "the default limit; a game that may be longer says so in max_game_length()"
    names = ", ".join(policy.name for policy in seats)
    return UserError(f"{where}: {game.name}: a game played by {names} did not end within {limit:,} steps "
                     f"({why}); it was at state {state!r}")


def play_batch(game, seats, run_seed: int, start: int, count: int, max_turns: int | None = None,
               draw=None) -> dict[str, np.ndarray]:
    """Games ``start .. start+count-1`` of the run ``run_seed``: one int64 array per record field."""
    return arrays([play_game(game, seats, game_seed(run_seed, index), draw, max_turns)
                   for index in range(start, start + count)])


def engine_batch(game, policies, run_seed: int, start: int, count: int, max_turns: int = 10_000) -> dict[str, np.ndarray]:
    """``play_batch`` of a built-in game as its kernel gives the records: without ``LOOP_ONLY``."""
    records = play_batch(game, policies, run_seed, start, count, max_turns)
    return {name: values for name, values in records.items() if name not in LOOP_ONLY}


def arrays(records: list[dict[str, int]]) -> dict[str, np.ndarray]:
    """Records as one int64 array per field: the fields, then each count in the order the games met it."""
    names = list(FIELDS)
    for record in records:  # a game may count an event the earlier ones never met
        names += [name for name in record if name not in names]
    return {name: np.array([record.get(name, 0) for record in records], dtype=np.int64) for name in names}
