"""The walked game, one container for every walk: ``ArrayGraph``.

Nodes are ints, 0 the start, numbered as the walk first meets them; they are expanded in another order
(a stack), each into a row of edges. The graph is compressed sparse rows in flat arrays (the ``array``
module's, read by numpy without a copy: ``first``/``stop``): per node its ``kind`` (the seat deciding,
``CHANCE`` or ``TERMINAL``) and ``row``, per row ``offsets`` (where its edges start) and ``state_of_row``,
per edge ``targets``, ``weights`` (the whole weights of chance; 1 for a decision; a list of Python ints
once one passes 64 bits), ``actions`` (a decision's action, -1 for chance; a list once one is not a
64-bit whole number) and, where kept, ``turns`` (the turns started on the way).

An end is one of two things. In a chain (every decision played by fixed players during the walk, so
every node a chance point) an edge may lead to an absorbing end: a target ``-1 - k`` is ``ends[k]``
(``("end", winner)``, ``("end", winner, outcome)``, ``DONE``, ``STALLED``, ``LOOP``), and each row keeps
the sum of its weights (``totals``) and of weight x turns started (``rewards``). With decisions kept, a
finished game is a node of its own (``TERMINAL``), ``end[n]`` its place in ``ends``
(``("end", winner, returns)``, given as ``returns``/``winners`` too).

A chain is what ``toolkit.odds.Chain`` solves, from these arrays (``toolkit.odds.engine_chain`` asks it).
"""

from __future__ import annotations

from array import array
from fractions import Fraction

from toolkit.game.contract import CHANCE, TERMINAL

STALLED = ("stalled",)  # the engine ended the game without a winner: it cannot be finished
LOOP = ("loop",)  # the policies kept deciding without a chance point or an end
DONE = ("done",)  # the question's own end (``done``) was reached without a winner


class TooManyStates(Exception):
    """The walk would be larger than the limit: exact solving is out of reach for this game.

    ``estimate``, when given, is what an estimate made before any work said the chain would need
    (the walk was then not started at all); ``basis``, when given, says how it was made.
    """

    def __init__(self, limit: int, estimate: int | None = None, basis: str | None = None):
        if estimate is None:
            text = f"more than {limit:,} states, the limit"
        elif basis is None:
            text = f"up to {estimate:,} states by an estimate made before solving, over the limit of {limit:,}"
        else:  # ``basis`` says how the estimate was made
            text = f"at least about {estimate:,} states by {basis}, over the limit of {limit:,}"
        super().__init__(text)
        self.limit = limit
        self.estimate = estimate


class Fields:
    """The kept seats' decision nodes described for people: node -> (an index into ``ArrayGraph.names``,
    the values), read as a mapping, in the order the walk described them. Held as arrays and one flat
    list of every value (a node's values: a slice of it, made a tuple when read) rather than a dict of
    pairs or a tuple per node: a million decisions of Pig to 100 held some 100 MB of tuples, scattered
    through the memory the walk frees, which kept it from going back (some 250 MB more at the peak)."""

    def __init__(self):
        self._place = array("i")  # per node: its place among the described, or -1
        self._nodes = array("q")
        self._names = array("i")
        self._starts = array("q", [0])  # per place: where its values start in ``_values`` (one more: the end)
        self._values: list = []

    def add(self, node: int, names_index: int, values: tuple) -> None:
        place = self._place
        if node >= len(place):
            place.extend(array("i", [-1]) * max(node + 1 - len(place), len(place)))
        place[node] = len(self._nodes)
        self._nodes.append(node)
        self._names.append(names_index)
        self._values += values
        self._starts.append(len(self._values))

    def get(self, node: int, default=None):
        place = self._place[node] if 0 <= node < len(self._place) else -1
        if place < 0:
            return default
        return self._names[place], tuple(self._values[self._starts[place]:self._starts[place + 1]])

    def __getitem__(self, node: int) -> tuple[int, tuple]:
        found = self.get(node)
        if found is None:
            raise KeyError(node)
        return found

    def __contains__(self, node: object) -> bool:
        return isinstance(node, int) and self.get(node) is not None

    def __len__(self) -> int:
        return len(self._nodes)

    def __iter__(self):
        return iter(self._nodes)

    def items(self):
        values, starts = self._values, self._starts
        return zip(self._nodes, zip(self._names, (tuple(values[starts[p]:starts[p + 1]])
                                                  for p in range(len(self._nodes)))))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fields) and list(self.items()) == list(other.items())


class ArrayGraph:
    """A walked game (the module's docstring): nodes, rows of edges, the end table."""

    def __init__(self, edge_turns: bool = False):
        self.kind = array("b")
        self.row = array("q")  # node -> its row (rows are in the order nodes were expanded)
        self.state_of_row = array("q")  # row -> node
        self.offsets = array("q", [0])  # row -> where its edges start
        self.targets = array("q")  # a node, or -1 - k for the absorbing end ends[k]
        self.weights: array | list = array("q")  # a list once some weight passes 64 bits
        self.actions: array | list = array("q")  # a list once some action is not a 64-bit whole number
        self.turns: array | None = array("q") if edge_turns else None  # per edge: the turns started
        self.rewards: list[int] = []  # a chain's rows: the sum of weight x turns started on the way
        self.totals: list[int] = []  # a chain's rows: the sum of the weights
        self.end = array("q")  # with decisions kept: per node, its place in ``ends`` or -1
        self.ends: list = []
        self.end_codes: dict = {}  # an end -> its target (-1 - its place)
        self.returns: list[tuple[Fraction, ...]] = []  # with decisions kept: per end, the returns
        self.winners: list[int | None] = []  # ... and the winner (None: no one winner)
        self.fields = Fields()
        self.names: list[tuple[str, ...]] = []
        self.kept: frozenset[int] = frozenset()  # the seats whose decisions are nodes
        self.players = 0
        self.decisions = False  # a seat, kept or not, was ever to decide (False: chance alone plays the game)

    @classmethod
    def from_arrays(cls, row: array, state_of_row: array, offsets: array, targets: array, weights: array,
                    rewards: list[int], totals: list[int], ends: list) -> ArrayGraph:
        """A chain walked elsewhere (a compiled walk), given field for field: ``row`` (node -> row),
        ``state_of_row``, ``offsets`` (one more than the rows), ``targets`` (a node, or -1 - k for the
        absorbing end ``ends[k]``) and ``weights``, and per row ``rewards`` and ``totals``."""
        graph = cls()
        graph.kind = array("b", [CHANCE]) * len(row)
        graph.row, graph.state_of_row, graph.offsets, graph.targets = row, state_of_row, offsets, targets
        graph.weights, graph.rewards, graph.totals = weights, rewards, totals
        graph.ends = list(ends)
        graph.end_codes = {end: -1 - k for k, end in enumerate(graph.ends)}
        return graph

    # --- the arrays as numpy reads them ---------------------------------------------------------------

    @property
    def first(self):
        """Per node: where its edges start (numpy)."""
        import numpy as np

        return np.frombuffer(self.offsets, dtype=np.int64)[np.frombuffer(self.row, dtype=np.int64)]

    @property
    def stop(self):
        """Per node: where its edges stop (numpy)."""
        import numpy as np

        return np.frombuffer(self.offsets, dtype=np.int64)[np.frombuffer(self.row, dtype=np.int64) + 1]

    def edges(self, node: int) -> range:
        row = self.row[node]
        return range(self.offsets[row], self.offsets[row + 1])

    # --- what a walk calls ----------------------------------------------------------------------------

    def end_code(self, ended) -> int:
        """The target of the absorbing end ``ended`` (numbered in the order the walk meets them)."""
        target = self.end_codes.get(ended)
        if target is None:
            target = self.end_codes[ended] = -1 - len(self.ends)
            self.ends.append(ended)
        return target

    def end_node(self, returns: tuple, winner) -> int:
        """The place in ``ends`` of a finished game (decisions kept), by its returns and winner."""
        code = self.end_code(("end", winner, returns))
        if len(self.returns) < len(self.ends):
            self.returns.append(returns)
            self.winners.append(winner)
        return -1 - code

    def add_weight(self, weight) -> None:
        try:
            self.weights.append(weight)
        except (OverflowError, TypeError):
            self.weights = list(self.weights) + [weight]

    def add_action(self, action) -> None:
        if type(self.actions) is not list and (type(action) is not int or not -2**63 <= action < 2**63):
            self.actions = list(self.actions)
        self.actions.append(action)

    def __len__(self) -> int:
        return len(self.row)

    def turn_reward(self, state: int) -> Fraction:
        """Turns started, on average, between chance point ``state`` and the next one (or the end).

        Kept as two ints per state and made a Fraction only when asked for (a Fraction per state
        would cost more time and memory than the rest of the walk's numbers together)."""
        row = self.row[state]
        return Fraction(self.rewards[row], self.totals[row])

    def turn_distribution(self, start: int, first_turns: int, max_turns: int,
                          enough: Fraction = Fraction(1)) -> tuple[list[Fraction], Fraction]:
        """(``P(the game ends after exactly t turns)`` for ``t = 0 .. T``, the chance it has not ended by
        then), exact, from chance point ``start`` where ``first_turns`` turns have started; ``T`` is
        ``max_turns``, or the first length by which at least ``enough`` of the games have ended.

        Needs the turns of each edge (a walk with ``edge_turns``). The probability is pushed forward
        turn by turn; within a turn, along the edges that start no new turn, until none is left (a
        turn that may go on for ever is a ValueError: its length has no distribution by turns). A game
        that never ends (an absorbing end other than ``("end", ...)`` or ``DONE``) stays in the second
        figure."""
        from gmpy2 import mpq

        if self.turns is None:
            raise ValueError("the chain was walked without the turns of each transition")
        offsets, targets, weights, increments = self.offsets, self.targets, self.weights, self.turns
        totals, row_of, ends = self.totals, self.row, self.ends
        result = [mpq(0)] * (max_turns + 1)
        layers: dict[int, dict[int, object]] = {first_turns: {start: mpq(1)}}
        told, last = mpq(0), max_turns
        for turn in range(first_turns, max_turns + 1):
            layer = layers.pop(turn, None)
            passes = 0
            while layer:
                passes += 1
                if passes > len(self.row) + 1:
                    raise ValueError("a turn may go on for ever: the length in turns has no distribution")
                within: dict[int, object] = {}
                for state, mass in layer.items():
                    row = row_of[state]
                    share = mass / totals[row]
                    for k in range(offsets[row], offsets[row + 1]):
                        p = share * weights[k]
                        target, later = targets[k], turn + increments[k]
                        if target < 0:
                            end = ends[-1 - target]
                            if (end[0] == "end" or end == DONE) and later <= max_turns:
                                result[later] += p
                        elif later == turn:
                            within[target] = within.get(target, 0) + p
                        elif later <= max_turns:
                            into = layers.setdefault(later, {})
                            into[target] = into.get(target, 0) + p
                layer = within
            told += result[turn]
            if told >= enough:
                last = turn
                break
        return ([Fraction(int(p.numerator), int(p.denominator)) for p in result[:last + 1]],
                Fraction(1) - Fraction(int(told.numerator), int(told.denominator)))

    def cannot_end(self) -> set[int]:
        """The states from which no absorbing end can be reached: they are caught in a closed class of
        the chain, where play goes on for ever without the engine ever calling the game over. Found on
        the strongly connected components (``toolkit.solve.scc``): a component reaches only components
        numbered before it, so one pass in that order tells which reach an end."""
        import numpy as np

        from toolkit.solve import scc

        n, offsets = len(self.row), np.frombuffer(self.offsets, dtype=np.int64)
        targets = np.frombuffer(self.targets, dtype=np.int64)
        source = np.repeat(np.frombuffer(self.state_of_row, dtype=np.int64), np.diff(offsets))
        live = np.array([bool(w) for w in self.weights], dtype=bool) if type(self.weights) is list \
            else np.frombuffer(self.weights, dtype=np.int64) != 0
        inner = live & (targets >= 0)
        order = np.argsort(source[inner], kind="stable")
        tails, heads = source[inner][order], targets[inner][order]
        nodes = np.arange(n)
        find = scc.compiled().components if len(heads) >= scc.COMPILED_FROM else scc.components
        component = find(np.searchsorted(tails, nodes), np.searchsorted(tails, nodes, "right"), heads)[0]
        reach = np.zeros(int(component.max(initial=-1)) + 1, dtype=bool)
        reach[component[source[live & (targets < 0)]]] = True
        crossing = component[tails] != component[heads]
        ahead = np.argsort(component[tails][crossing], kind="stable")
        ends = reach.tolist()
        for tail, head in zip(component[tails][crossing][ahead].tolist(), component[heads][crossing][ahead].tolist()):
            if ends[head]:
                ends[tail] = True
        return set(np.flatnonzero(~np.array(ends, dtype=bool)[component]).tolist())


__all__ = ["ArrayGraph", "CHANCE", "DONE", "Fields", "LOOP", "STALLED", "TERMINAL", "TooManyStates"]
