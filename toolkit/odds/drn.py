"""The chain behind an exact answer, written in Storm's explicit DRN format, for a model checker to verify.

`toolkit odds --export-chain PATH` writes the very chain the answer was solved on, so that Storm (or
any tool that reads DRN) can check it independently: the transitions, exact as fractions ``p/q``
(each weight over its state's total), labels on the states that matter, and one reward model,
``turns``, whose expected total until an ``end`` state is the expected number of turns `toolkit odds`
prints (Storm: ``R{"turns"}=? [F "end"]``). The first turn, which no transition counts, is part of the
reward of the initial state; when some transition leads back to the start, a state of its own (the
last, labelled ``init``: Storm finds the initial state by its label) leads to it, so that the first
turn is counted once.

The format (Storm's ``DirectEncodingParser``): a header of ``@type: DTMC``, ``@parameters`` (an empty
line: no parameters), ``@reward_models`` (their names), ``@nr_states``, ``@nr_choices`` (one choice
per state in a DTMC) and ``@model``; then per state ``state N [reward] label ...``, ``action 0`` and
one ``successor : probability`` line per successor, in increasing order. An absorbing state has a
self-loop of probability 1. Lines starting with ``//`` are comments.

States are numbered in breadth-first order from the start, successors in the order the model lists
them, so the same inputs give the same bytes. The states are walked here one by one from ``step``, so
a model with no stored chain (a game's own, walked draw by draw) is written without building it first.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolkit.walk.walker import Walked

REWARD = "turns"

Weight = int | Fraction
# A reward may also be given as (numerator, denominator): no Fraction to make for each state.
Reward = Weight | tuple[int, int]
# step(state) -> ((weight, next state) pairs, reward collected on leaving the state); no pairs: absorbing
Step = Callable[[Hashable], tuple[Iterable[tuple[Weight, Hashable]], Reward]]


class ChainTooLarge(Exception):
    """The chain has more states than ``max_states``: the file would be too large to write."""


def write_drn(start: Hashable, step: Step, labels: Callable[[Hashable], Iterable[str]], *, initial_reward: Weight = 0,
              comments: Iterable[str] = (), max_states: int | None = None) -> tuple[bytes, int]:
    """The DRN text of the chain reachable from ``start``, and its number of states.

    ``labels(state)`` names a state's labels (``init`` is added to the initial state); label names
    must be words without spaces or quotes. ``initial_reward`` is collected once, at the start.
    Past ``max_states`` states, ``ChainTooLarge``.
    """
    ids: dict[Hashable, int] = {start: 0}
    order: deque = deque([start])
    body: list[str] = []
    reenters = False
    first_reward: Reward = 0
    first_labels: list[str] = []
    first_moves = False
    texts: dict = {}  # (weight, total) -> "p/q": the same few ratios come back in almost every state

    def ratio(weight: Weight, total: Weight = 1) -> str:
        text = texts.get((weight, total))
        if text is None:
            text = texts[weight, total] = _ratio(weight, total)
        return text

    def named(state) -> str:
        return "".join(f" {name}" for name in labels(state))

    known, queue, limit = ids.get, order.append, max_states if max_states is not None else -1
    while order:
        state = order.popleft()
        here = len(body)
        pairs, reward = step(state)
        combined: dict[int, Weight] = {}
        for weight, target in pairs:
            if not weight:
                continue
            number = known(target)
            if number is None:
                number = len(ids)
                if number == limit:
                    raise ChainTooLarge(f"more than {max_states:,} states")
                ids[target] = number
                queue(target)
            combined[number] = combined.get(number, 0) + weight
        reenters = reenters or 0 in combined
        if combined:
            total = sum(combined.values())
            moves = "".join([f"\n\t\t{target} : {ratio(combined[target], total)}" for target in sorted(combined)])
        else:
            moves = f"\n\t\t{here} : 1"
        if here:
            reward_text = ratio(*reward) if type(reward) is tuple else ratio(reward)
            body.append(f"state {here} [{reward_text}]{named(state)}\n\taction 0{moves}")
        else:  # its line is written last: the first turn may go into its reward
            first_reward, first_labels, first_moves = reward, list(labels(state)), bool(combined)
            body.append(f"\n\taction 0{moves}")
    states = len(body)
    if initial_reward and (reenters or not first_moves):
        # Storm knows the initial state by its label: a last state, left for the start and never
        # entered again, carries the first turn (a reward on an absorbing start would not count)
        body.append(f"state {states} [{_ratio(initial_reward)}] init\n\taction 0\n\t\t0 : 1")
        states += 1
    else:
        first_reward = _value(first_reward) + initial_reward
        first_labels.insert(0, "init")
    body[0] = f"state 0 [{_ratio(_value(first_reward))}]" + "".join(f" {name}" for name in first_labels) + body[0]
    header = [f"// {line}" for line in comments]
    header += ["@type: DTMC", "@parameters", "", "@reward_models", REWARD, "@nr_states", str(states),
               "@nr_choices", str(states), "@model"]
    return ("\n".join(header + body) + "\n").encode("utf-8"), states  # only a comment may be beyond ASCII


def _value(reward: Reward) -> Weight:
    return Fraction(*reward) if type(reward) is tuple else reward


def _ratio(weight: Weight, total: Weight = 1) -> str:
    """``weight / total`` as ``p/q`` in lowest terms (``p`` when whole)."""
    if type(weight) is int and type(total) is int:
        divisor = math.gcd(weight, total)
        p, q = weight // divisor, total // divisor
    else:
        value = Fraction(weight) / Fraction(total)
        p, q = value.numerator, value.denominator
    return str(p) if q == 1 else f"{p}/{q}"


def engine_drn(walked: Walked, comments: Iterable[str] = ()) -> tuple[bytes, int]:
    """The chain of ``walker.build`` (chance point to chance point of the rules engine) as DRN, read from
    the graph's arrays (a node is its id, an end its target ``-1 - k``).

    Its reward: the turns each chance step adds, on average over its outcomes (the graph's ``rewards``
    over its ``totals``); ``first_turns``, the turn counter at the first chance point, is collected at the
    start. Labels: ``win1`` .. ``winN`` and ``end`` on a seat's win, ``done`` and ``end`` on the question's
    own end (e.g. a first palace), ``stalled`` and ``never`` on a game the engine ended without a winner,
    ``loop`` and ``never`` on decisions that never reach chance, ``draw`` and ``end`` on a game of one's
    own that ended without one winner (``build``'s ``outcome``), ``never`` on every state from which
    no end can be reached (a closed class: the game goes on for ever).
    """
    from toolkit.walk.graph import DONE, LOOP, STALLED

    graph = walked.graph
    trapped = graph.cannot_end() if len(graph) else set()
    row_of, offsets, targets, weights, ends = graph.row, graph.offsets, graph.targets, graph.weights, graph.ends

    def step(node):
        if type(node) is not int or node < 0:
            return (), 0
        row = row_of[node]
        a, b = offsets[row], offsets[row + 1]
        return zip(weights[a:b], targets[a:b]), (graph.rewards[row], graph.totals[row])

    def labels(node):
        if type(node) is int and node >= 0:
            return ("never",) if node in trapped else ()
        key = ends[-1 - node] if type(node) is int else node
        if key == STALLED:
            return ("stalled", "never")
        if key == LOOP:
            return ("loop", "never")
        if key == DONE:
            return ("done", "end")
        if key[1] is None:  # ("end", None, outcome): a game of one's own ended without one winner
            return ("draw", "end")
        return (f"win{key[1] + 1}", "end")  # ("end", seat) or ("end", seat, outcome)

    return write_drn(walked.start, step, labels, initial_reward=walked.first_turns, comments=comments)
