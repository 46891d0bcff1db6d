"""How much skill matters in a game of one's own: the gap between the best play and a beginner's, and
van der Genugten's relative skill (Dreef, Borm and van der Genugten, "Measuring skill in games: several
approaches discussed", Mathematical Methods of Operations Research 59 (2004) 375-391).

For one seat, with every other seat a beginner (``random``: every legal action equally likely), three
players are compared by their result (the chance to win; in a one-player game that every play wins, the
expected length, where less is better):

* the beginner: the seat plays ``random`` too; exact, from the chain (``engine_chain.chain_odds``);
* the optimal player: the seat's best reply to the beginners (``optimal``); exact, or an interval;
* the clairvoyant ("fictive") player: the seat knows every future outcome of chance, the beginners'
  choices included, and plays the best plan for them. Chance is fixed in advance as a sequence of numbers
  ``u1, u2, ...`` drawn uniformly from [0, 1): the k-th chance event of a game (a roll, a draw, a
  beginner's choice) takes the outcome where ``uk`` falls among its outcomes' probabilities, laid end to
  end in the order the game lists them. (A game whose chance is one pile drawn from, card after card:
  the sequence is the order of the shuffled pile, whatever the plan. A die rolled again and again: the
  rolls to come.)

The clairvoyant's expectation is computed on the walked graph of the best reply (decisions of the seat
kept, the beginners chance points), as a chain of its own (``_Plans``): a state is the set of positions
(chance points of the graph, with the length each has taken) that the seat can be at just before the
k-th chance event, given where ``u1 .. u(k-1)`` fell; the cells of ``uk`` are [0, 1) cut at every
breakpoint of every position's outcomes, each cell a transition of exact probability its width; the seat's
decisions between chance events are followed to every end. Its value at a set is the best over its
positions, which is the clairvoyant's (its plan may depend on all of ``u``), and the chain is solved
exactly (``optimal.evaluate``), loops included. A chain too large for ``CHAIN_STATES`` is cut there: each
set left unexplored is worth at least the best reply from its best position (the clairvoyant can go there
and play on without looking ahead) and at most a win (a length: the best reply's), which gives guaranteed
bounds; where they are wider than ``BOUNDS_WIDTH``, the expectation is sampled instead, over seeded
sequences with a 95% interval (Wilson's for a chance, the normal one for a length).

The learning effect is the optimal player's result minus the beginner's, the chance effect the
clairvoyant's minus the optimal player's (for a length: the other way round), and the relative skill
``learning / (learning + chance)``: 0 when playing well gains nothing, 1 when chance plays no part.
Each figure is exact, bounded (guaranteed bounds) or sampled (a 95% interval), the least sure of what it
is made from. docs/skill.md says the same for people.
"""

from __future__ import annotations

import heapq
import math
import random
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toolkit.errors import UserError
from toolkit.game.contract import CHANCE, TERMINAL
from toolkit.odds import engine_chain
from toolkit.rules import optimal
from toolkit.walk.graph import ArrayGraph

CHAIN_STATES = 20_000  # sets of positions the clairvoyant's exact chain holds at most (beyond: bounds)
MAX_WORK = 2_000_000  # positions moved through cells while the chain is built, at most (beyond: cut there)
SAMPLE_WORK = 20_000_000  # positions moved over all sampled sequences, at most (beyond: out of reach)
BOUNDS_WIDTH = Fraction(1, 200)  # bounds at most this wide (a length: this share of it) are said, else sampled
MAX_DRAWS = 1_000_000  # chance events of one sampled sequence at most (more: the play never ends)
Z = 1.959963984540054  # the normal quantile of a 95% interval

EXACT, BOUNDS, SAMPLED = "exact", "bounds", "sampled"  # how a figure is known, from the surest


@dataclass(frozen=True)
class Figure:
    """One figure: exact (``value``, a Fraction, with ``low == high == value``), bounded (guaranteed
    ``low`` .. ``high``) or sampled (``value`` the mean over ``sequences``, ``low`` .. ``high`` its 95%
    interval)."""

    how: str
    low: Fraction | float
    high: Fraction | float
    value: Fraction | float | None = None
    sequences: int = 0

    @classmethod
    def exact(cls, value: Fraction) -> Figure:
        return cls(EXACT, value, value, value)


def _least_sure(*figures: Figure) -> str:
    return max((figure.how for figure in figures), key=(EXACT, BOUNDS, SAMPLED).index)


def _gap(more: Figure, less: Figure) -> Figure:
    """``more - less``, a difference known to be at least 0 (the clairvoyant does at least as well as the
    best reply, which does at least as well as the beginner)."""
    how = _least_sure(more, less)
    if how == EXACT:
        return Figure.exact(more.value - less.value)
    value = None if more.value is None or less.value is None else max(0.0, float(more.value - less.value))
    return Figure(how, max(0, more.low - less.high), max(0, more.high - less.low), value,
                  more.sequences or less.sequences)


def _relative(learning: Figure, chance: Figure) -> Figure | None:
    """learning / (learning + chance), as an interval from its bounds' worst cases; None: undefined
    (neither playing well nor knowing the future changes the result, or the bounds allow that)."""
    how = _least_sure(learning, chance)
    if how == EXACT:
        total = learning.value + chance.value
        return None if total == 0 else Figure.exact(learning.value / total)

    def ratio(skill_part, luck_part):
        return skill_part / (skill_part + luck_part) if skill_part + luck_part > 0 else None

    low, high = ratio(learning.low, chance.high), ratio(learning.high, chance.low)
    if low is None or high is None:
        return None
    value = None
    if learning.value is not None and chance.value is not None:
        value = ratio(learning.value, chance.value)
    return Figure(how, low, high, value, learning.sequences or chance.sequences)


@dataclass(frozen=True)
class Skill:
    seat: int
    objective: str  # "win" or "length"
    beginner: Figure  # always exact
    optimal: Figure  # exact or bounds
    clairvoyant: Figure | None  # None: out of reach (``why_not``)
    why_not: str | None = None

    @property
    def learning(self) -> Figure:
        """The learning effect: what the best reply gains on the beginner."""
        if self.objective == "length":
            return _gap(self.beginner, self.optimal)
        return _gap(self.optimal, self.beginner)

    @property
    def chance(self) -> Figure | None:
        """The chance effect: what knowing the future adds to the best reply."""
        if self.clairvoyant is None:
            return None
        if self.objective == "length":
            return _gap(self.optimal, self.clairvoyant)
        return _gap(self.clairvoyant, self.optimal)

    @property
    def relative(self) -> Figure | None:
        chance = self.chance
        return None if chance is None else _relative(self.learning, chance)


def skill(game, sequences: int = 2000, seed: int = 1, max_states: int = 200_000,
          exact_up_to: int = optimal.EXACT_UP_TO, chain_states: int = CHAIN_STATES) -> list[Skill]:
    """The skill figures of every seat of ``game`` (a ``RulesGame``) against beginners."""
    players = game.num_players()
    beginner = [game.policies()["random"]] * players
    odds = engine_chain.chain_odds(game, beginner, max_states, distribution=False)
    out = []
    knowing = None  # a game of hidden information: the best replies that know only what their seat knows
    for seat in range(players):
        if players == 1:
            [best] = optimal.solve(game, None, None, max_states, exact_up_to)
        else:
            best = optimal.best_reply(game, seat, beginner, max_states, exact_up_to)
        objective = best.objective
        if objective == "length":
            if odds.expected_length is None:
                raise UserError(f"{game.source}: skill: a beginner's game may never end: no expected length")
            start = odds.expected_length
        else:
            start = odds.win[seat]
        if getattr(game, "hidden_information", False) and objective == "win":
            # the optimal player knows only what its seat knows (exact); the clairvoyant below sees every card
            from toolkit.rules import equilibrium
            from toolkit.seats import Policies

            if knowing is None:
                knowing = equilibrium.best_replies(game, Policies.of(every="random"), "win", max_states)
            reply = Figure.exact(knowing.replies[seat].value)
        elif best.exact:
            reply = Figure.exact(best.value)
        else:
            reply = Figure(BOUNDS, Fraction(best.bounds[0]), Fraction(best.bounds[1]))
        try:
            seen, why = clairvoyant(best, seat, sequences, seed, chain_states), None
        except _OutOfReach as err:
            seen, why = None, str(err)
        out.append(Skill(seat, objective, Figure.exact(start), reply, seen, why))
    return out


class _OutOfReach(Exception):
    pass


def clairvoyant(best: optimal.Optimum, seat: int, sequences: int = 2000, seed: int = 1,
                chain_states: int = CHAIN_STATES) -> Figure:
    """The clairvoyant seat's expected result on the graph of its best reply ``best``: exact where its
    chain has at most ``chain_states`` sets, else guaranteed bounds where they are narrow enough, else
    sampled over ``sequences`` seeded sequences."""
    plans = _Plans(best.graph, seat, best.objective, best.values)
    bounds = plans.solve(chain_states)
    if bounds is not None:
        low, high = bounds
        if low == high:
            return Figure.exact(low)
        scale = max(1, abs(low)) if best.objective == "length" else 1
        if high - low <= BOUNDS_WIDTH * scale:
            return Figure(BOUNDS, low, high)
    return plans.sample(sequences, seed)


_WON, _LOST, _DONE = ("won",), ("lost",), ("done",)  # the ends of the clairvoyant's chain
_ENDS = (_WON, _LOST, _DONE)


class _Plans:
    """The clairvoyant's chain on a walked graph (``ArrayGraph``, the seat's decisions kept, every other
    seat a chance point): a state is ``(positions, cap)``, the positions a tuple of (chance node, length
    taken beyond the least of them), ``cap`` the least length of an end already reached (a length; None
    while there is none), or one of the ends ``_WON``, ``_LOST`` (a chance to win) and ``_DONE`` (a
    length). For a chance to win, lengths are all 0 and only positions from which a win can still be
    reached are kept; a position the best reply wins for sure wins the set."""

    def __init__(self, graph: ArrayGraph, seat: int, objective: str, values: list | None):
        self.graph = graph
        self.kind = graph.kind
        self.targets, self.turns = graph.targets, graph.turns
        self.length = objective == "length"
        self.values = values
        self._cuts: dict[int, tuple[int, list[int], list[int]]] = {}
        self._reach: dict = {}  # node -> where the seat's decisions lead from it (``_ahead``)
        if not self.length:
            self.alive = self._can_win(seat)
            self.sure = frozenset(n for n, v in enumerate(values) if v == 1) if values is not None else frozenset()

    def _can_win(self, seat: int) -> bytearray:
        """Per node: can a win of ``seat`` still be reached from it (some path to such an end)?"""
        graph = self.graph
        before: list[list[int]] = [[] for _ in range(len(graph))]
        for node in range(len(graph)):
            for e in graph.edges(node):
                before[graph.targets[e]].append(node)
        alive = bytearray(len(graph))
        todo = [n for n in range(len(graph)) if graph.kind[n] == TERMINAL and graph.end[n] >= 0
                and graph.winners[graph.end[n]] == seat]
        for node in todo:
            alive[node] = 1
        while todo:
            for prior in before[todo.pop()]:
                if not alive[prior]:
                    alive[prior] = 1
                    todo.append(prior)
        return alive

    def _cut(self, node: int) -> tuple[int, list[int], list[int]]:
        """A chance node's outcomes laid end to end: (total weight, the running sums, the edges)."""
        cut = self._cuts.get(node)
        if cut is None:
            edges = list(self.graph.edges(node))
            sums, total = [], 0
            for e in edges:
                total += self.graph.weights[e]
                sums.append(total)
            cut = self._cuts[node] = (total, sums, edges)
        return cut

    def settle(self, moved, cap):
        """Follow the seat's decisions from ``moved`` [(node, length taken)] to the next chance points:
        (the length the least of them has taken, the state)."""
        reach = self._reach
        if not self.length:
            chance = set()
            for node, _ in moved:
                ahead = reach.get(node)
                if ahead is None:
                    ahead = reach[node] = self._ahead(node)
                if ahead is _WON:
                    return 0, _WON
                chance.update(ahead)
            return 0, ((tuple(sorted((node, 0) for node in chance)), None) if chance else _LOST)
        chance = {}
        for node, taken in moved:
            ahead = reach.get(node)
            if ahead is None:
                ahead = reach[node] = self._ahead(node)
            points, end = ahead
            if end is not None and (cap is None or taken + end < cap):
                cap = taken + end
            for point, more in points:
                known = chance.get(point)
                if known is None or taken + more < known:
                    chance[point] = taken + more
        chance = {node: taken for node, taken in chance.items() if cap is None or taken < cap}
        if not chance:
            if cap is None:
                raise _OutOfReach("the seat's own decisions can go on for ever")
            return cap, _DONE
        base = min(chance.values())
        return base, (tuple(sorted((node, taken - base) for node, taken in chance.items())),
                      None if cap is None else cap - base)

    def _ahead(self, start: int):
        """Where the seat's decisions lead from ``start`` before the next chance event. A chance to win:
        ``_WON`` when a win (or a position the best reply wins for sure) is among them, else the chance
        points from which a win can still be reached. A length: ((chance point, least length to it),
        ...) and the least length to an end (None: none)."""
        kind, targets, graph = self.kind, self.targets, self.graph
        if not self.length:
            alive, sure = self.alive, self.sure
            seen, chance, stack = set(), [], [start]
            while stack:
                node = stack.pop()
                if node in seen or not alive[node]:
                    continue
                seen.add(node)
                if node in sure or kind[node] == TERMINAL:  # a win (the only ends left alive)
                    return _WON
                if kind[node] == CHANCE:
                    chance.append(node)
                else:
                    stack.extend(targets[e] for e in graph.edges(node))
            return tuple(chance)
        turns = self.turns
        heap, done, chance, end = [(0, start)], set(), [], None
        while heap:  # the least length to each point (Dijkstra's order: lengths only grow)
            taken, node = heapq.heappop(heap)
            if end is not None and taken >= end:
                break
            if node in done:
                continue
            done.add(node)
            if kind[node] == TERMINAL:
                end = taken
            elif kind[node] == CHANCE:
                chance.append((node, taken))
            else:
                for e in graph.edges(node):
                    heapq.heappush(heap, (taken + turns[e], targets[e]))
        return tuple((node, taken) for node, taken in chance if end is None or taken < end), end

    def cells(self, state) -> tuple[int, dict, int]:
        """The cells of the next number of the sequence from ``state``: (scale, {(length added, next
        state): weight}, how many cells), each cell's probability its weight over the scale."""
        positions, cap = state
        cuts = [self._cut(node) for node, _ in positions]
        scale = math.lcm(*(total for total, _, _ in cuts))
        ends = sorted({s * (scale // total) for total, sums, _ in cuts for s in sums})
        at = [0] * len(cuts)
        out: dict = {}
        start = 0
        targets, turns = self.targets, self.turns
        for end in ends:
            moved = []
            for i, (total, sums, edges) in enumerate(cuts):
                factor = scale // total
                while sums[at[i]] * factor <= start:
                    at[i] += 1
                e = edges[at[i]]
                moved.append((targets[e], positions[i][1] + turns[e]))
            step = self.settle(moved, cap)
            out[step] = out.get(step, 0) + end - start
            start = end
        return scale, out, len(ends)

    def solve(self, budget: int) -> tuple[Fraction, Fraction] | None:
        """The clairvoyant's expected result, exact (low == high) when its chain closes within ``budget``
        sets (and ``MAX_WORK``), else guaranteed bounds; None where no bound can be given (a length with no best reply's
        values to bound it, or a chain that may not end)."""
        from gmpy2 import mpq

        from toolkit.solve import scc

        first_shift, start = self.settle([(0, 0)], None)
        ids, states = {start: 0}, [start]
        first, stop, target, prob, cost = [], [], [], [], []
        n = work = 0
        while n < len(states) and len(states) < budget and work < MAX_WORK:
            state = states[n]
            first.append(len(target))
            if state not in _ENDS:
                scale, out, count = self.cells(state)
                work += len(state[0]) * count
                for (shift, after), weight in out.items():
                    if after not in ids:
                        ids[after] = len(states)
                        states.append(after)
                    target.append(ids[after])
                    prob.append(mpq(weight, scale))
                    cost.append(shift)
            stop.append(len(target))
            n += 1
        open_sets = len(states) - n  # met, not explored: ends of the cut chain, valued by their bounds
        first += [len(target)] * open_sets
        stop += [len(target)] * open_sets
        low_ends, high_ends = [], []
        for number, state in enumerate(states):
            if number < n and state not in _ENDS:
                low_ends.append(None)
                high_ends.append(None)
                continue
            low, high = self._bounds(state)
            if high is None:
                return None
            low_ends.append(low)
            high_ends.append(high)
        chain = _Chain(first, stop, target, prob, cost if self.length else None, low_ends)
        sense = np.where(chain.kind == TERMINAL, 2, 0).astype(np.int64)
        kernel = scc.compiled()
        if len(kernel.endless(chain.first, chain.stop, chain.target, sense)):
            return None  # some plans' sets never end: a length without bound, or a chain to say no more of
        _, members, starts = kernel.components(chain.first, chain.stop, chain.target)
        low = optimal.evaluate(chain, members, starts, None, low_ends, with_cost=self.length)[0]
        high = low if low_ends == high_ends else \
            optimal.evaluate(chain, members, starts, None, high_ends, with_cost=self.length)[0]
        return Fraction(first_shift) + _fraction(low), Fraction(first_shift) + _fraction(high)

    def _bounds(self, state) -> tuple[Fraction, Fraction | None]:
        """The value of an end, or bounds on the value of a set left unexplored (None: no upper bound)."""
        if state in _ENDS:
            return (Fraction(1),) * 2 if state == _WON else (Fraction(0),) * 2
        positions, cap = state
        values = self.values
        if not self.length:
            best = _fraction(max(values[node] for node, _ in positions)) if values is not None else Fraction(0)
            return best, Fraction(1)
        if values is None:
            return Fraction(0), None
        high = _fraction(min(taken + values[node] for node, taken in positions))
        return Fraction(0), high if cap is None else min(high, Fraction(cap))

    def sample(self, sequences: int, seed: int) -> Figure:
        """The clairvoyant's result over ``sequences`` sequences drawn from ``seed``: the mean and its
        95% interval. Each number of a sequence is 53 random bits (``u = bits / 2^53``): a chance node of
        total weight ``t`` takes the first outcome whose running sum passes ``u * t``."""
        rng = random.Random(seed)
        first_shift, start = self.settle([(0, 0)], None)
        targets, turns = self.targets, self.turns
        results = []
        work = 0
        for _ in range(sequences):
            state, taken, draws = start, first_shift, 0
            while state not in _ENDS:
                draws += 1
                work += len(state[0])
                if work > SAMPLE_WORK:
                    raise _OutOfReach(f"following every plan passes {SAMPLE_WORK:,} steps over the sequences")
                if draws > MAX_DRAWS:
                    if self.length:
                        raise _OutOfReach(f"a sequence of chance passes {MAX_DRAWS:,} events without an end")
                    break
                bits = rng.getrandbits(53)
                moved = []
                for node, ahead in state[0]:
                    total, sums, edges = self._cut(node)
                    e = edges[bisect_right(sums, (bits * total) >> 53)]
                    moved.append((targets[e], ahead + turns[e]))
                shift, state = self.settle(moved, state[1])
                taken += shift
            results.append(float(taken) if self.length else float(state == _WON))
        return _interval(results, self.length)


def _interval(results: list[float], length: bool) -> Figure:
    """The mean of ``results`` and its 95% interval: Wilson's for a chance, the normal one for a length."""
    n = len(results)
    mean = sum(results) / n
    if not length:
        centre = (mean + Z * Z / (2 * n)) / (1 + Z * Z / n)
        half = Z * math.sqrt(mean * (1 - mean) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
        return Figure(SAMPLED, max(0.0, centre - half), min(1.0, centre + half), mean, n)
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / max(1, n - 1))
    return Figure(SAMPLED, mean - Z * spread / math.sqrt(n), mean + Z * spread / math.sqrt(n), mean, n)


def _fraction(value) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(int(value.numerator), int(value.denominator))


class _Chain:
    """The clairvoyant's chain as ``optimal.evaluate`` reads it: every node a chance point or an end."""

    def __init__(self, first, stop, target, prob, cost, ends):
        self.first = np.array(first, np.int64)
        self.stop = np.array(stop, np.int64)
        self.target = np.array(target, np.int64)
        self.exact_prob = prob
        self.exact_cost = cost
        self.kind = np.array([TERMINAL if value is not None else CHANCE for value in ends], np.int64)
        self.end = np.arange(len(ends), dtype=np.int64)


# --- for people ---------------------------------------------------------------------------------------


def _said(figure: Figure, digits: int = 4) -> str:
    """A figure with the word saying how it is known."""
    if figure.how == EXACT:
        return f"{float(figure.value):.{digits}f} (exact)"
    if figure.how == BOUNDS:
        return f"between {float(figure.low):.{digits}f} and {float(figure.high):.{digits}f} (bounds)"
    middle = f"{float(figure.value):.{digits}f} " if figure.value is not None else ""
    return (f"{middle}(95% interval {float(figure.low):.{digits}f} to {float(figure.high):.{digits}f}, "
            f"sampled over {figure.sequences:,} sequences)")


def skill_lines(figures: list[Skill]) -> list[str]:
    """The skill figures for people, each said as exact, between guaranteed bounds or sampled."""
    lines = []
    for figure in figures:
        what = "expected length" if figure.objective == "length" else "chance to win"
        lines.append(f"seat {figure.seat + 1} against beginners ({what}):")
        lines.append(f"  a beginner (random legal moves): {_said(figure.beginner)}")
        lines.append(f"  the best play: {_said(figure.optimal)}")
        lines.append(f"  skill gap (learning effect): {_said(figure.learning)}")
        if figure.clairvoyant is None:
            lines.append(f"  knowing the future: out of reach ({figure.why_not})")
            continue
        lines.append(f"  knowing every outcome of chance to come: {_said(figure.clairvoyant)}")
        lines.append(f"  chance effect: {_said(figure.chance)}")
        relative = figure.relative
        if relative is None:
            lines.append("  relative skill: undefined (neither skill nor chance changes the result)")
        else:
            lines.append(f"  relative skill (learning / (learning + chance)): {_said(relative)}")
    return lines


def figure_data(figure: Figure) -> dict:
    """A figure for JSON: how it is known, its value (exact: also as a fraction) and its interval."""
    data = {"how": figure.how, "value": None if figure.value is None else float(figure.value),
            "low": float(figure.low), "high": float(figure.high)}
    if figure.how == EXACT:
        from toolkit.odds.report import fraction_text

        data["fraction"] = fraction_text(figure.value)
    if figure.how == SAMPLED:
        data["sequences"] = figure.sequences
    return data


ANALYSE_STATES = 20_000  # the largest walk ``analyse`` makes for the skill figure (beyond: out of reach)
ANALYSE_SEQUENCES = 1_000  # sequences of chance the clairvoyant plays there where it is sampled


def section(game, seed: int, max_states: int = ANALYSE_STATES,
            sequences: int = ANALYSE_SEQUENCES) -> tuple[list[str], dict, list[Skill] | None]:
    """The skill figure for ``analyse --rules``: (lines, JSON-ready dict, the figures); a game too large
    for it is said to be out of reach, in one line (no figures), and the rest of the analysis stands."""
    from toolkit.walk.graph import TooManyStates

    try:
        figures = skill(game, sequences, seed, max_states)
    except (TooManyStates, UserError) as err:
        why = str(err).split(": ", 1)[-1] if isinstance(err, UserError) else f"the game has {err}"
        return [f"how much skill matters: out of reach ({why})"], {"out_of_reach": why}, None
    data = []
    for figure in figures:
        entry = {"seat": figure.seat + 1, "objective": figure.objective, "beginner": figure_data(figure.beginner),
                 "optimal": figure_data(figure.optimal), "learning_effect": figure_data(figure.learning)}
        if figure.clairvoyant is not None:
            relative = figure.relative
            entry.update({"clairvoyant": figure_data(figure.clairvoyant),
                          "chance_effect": figure_data(figure.chance),
                          "relative_skill": None if relative is None else figure_data(relative)})
        else:
            entry["clairvoyant_out_of_reach"] = figure.why_not
        data.append(entry)
    head = ["how much skill matters (each seat against beginners; docs/skill.md):"]
    # what the best play knows, said before its figures
    if getattr(game, "hidden_information", False):
        head.append("  hidden information: the best play knows only what its seat knows (exact best replies); the "
                    "clairvoyant sees every card and every outcome of chance to come")
        info = {"information": "hidden"}
    else:
        from toolkit.rules.hidden import PERFECT

        head.append(f"  {PERFECT}")
        info = {"information": "perfect (assumed)"}
    return head + skill_lines(figures), {**info, "seats": data, "seed": seed}, figures
