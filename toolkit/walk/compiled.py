"""What the compiled chain walks of the games share on the Python side: the key vector's bit layout
(``packed``), the arrays a walk fills and the loop that grows them (``WalkArrays``), and the chain they
make (``graph``, an ``ArrayGraph``)."""

from __future__ import annotations

from array import array

from toolkit.walk.graph import DONE, LOOP, STALLED, ArrayGraph, TooManyStates

ROOM = 1 << 12  # states the arrays hold at first (they double when full)


def packed(widths, kernel):
    """(the kernel's layout array, the number of 64-bit words) for key vector numbers of these bit
    widths, in order, each in the word where it still fits whole; a width of 0 gets no bits.
    (Shared by the compiled walks of both games.)"""
    import numpy as np

    layout = np.zeros((3, len(widths)), dtype=np.int64)
    word = used = 0
    for k, width in enumerate(widths):
        if width == 0:
            continue
        if used + width > 64:
            word, used = word + 1, 0
        layout[kernel.L_WORD, k], layout[kernel.L_SHIFT, k] = word, used
        layout[kernel.L_MASK, k] = (1 << width) - 1
        used += width
    return layout, word + 1


class WalkArrays:
    """The arrays a compiled walk (either game's) fills, and the loop that grows them as it goes.

    The kernel interns chance points in ``keys`` (their packed words), found through the hash table
    ``index`` (``1 << bits`` slots), and fills the chain's rows (``row_of``, ``state_of_row``,
    ``offsets``, ``rewards``, ``totals``), successors (``targets``, ``weights``), ends (``end_of``,
    ``end_kinds``) and ``counters``; when one runs short it pauses, and ``grow`` doubles it. ``extra``:
    the dtypes of more arrays of one number per state that a walk of its own keeps (Diamoniak's
    ``flipped``), grown with ``keys``. ``at``: where the kernel's ``counters`` keep the states, rows,
    successors, ends and the next progress pause (the same places in both kernels, named apart).
    """

    def __init__(self, room: int, words: int, ends: int, at, progress, extra=()):
        import numpy as np

        self.at = at
        self.bits = (2 * room).bit_length()
        self.keys = np.zeros((room, words), dtype=np.uint64)
        self.extra = [np.zeros(room, dtype=dtype) for dtype in extra]
        self.index = np.full(1 << self.bits, -1, dtype=np.int64)
        self.stack = np.zeros(room, dtype=np.int64)
        self.row_of = np.zeros(room, dtype=np.int64)
        self.state_of_row = np.zeros(room, dtype=np.int64)
        self.offsets = np.zeros(room + 1, dtype=np.int64)
        self.rewards = np.zeros(room, dtype=np.int64)
        self.totals = np.zeros(room, dtype=np.int64)
        self.targets = np.zeros(4 * room, dtype=np.int64)
        self.weights = np.zeros(4 * room, dtype=np.int64)
        self.counters = np.zeros(6, dtype=np.int64)
        self.counters[at[4]] = 999 if progress else -1
        self.end_of = np.full(ends, -1, dtype=np.int64)
        self.end_kinds = np.zeros(ends, dtype=np.int64)

    def run(self, step, kernel, types: int, progress, max_states: int, overflow) -> None:
        """Call ``step`` (the kernel's walk on these arrays) until the walk is done: report progress
        at a pause, raise ``TooManyStates`` or ``overflow()``, grow the arrays when room ran short."""
        states_at, _, targets_at, _, pause_at = self.at
        while True:
            status = step()
            if status == kernel.WALK_DONE:
                return
            if status == kernel.WALK_PAUSE:
                progress(1)
                self.counters[pause_at] += 1000
            elif status == kernel.WALK_TOO_MANY:
                raise TooManyStates(max_states)
            elif status == kernel.WALK_OVERFLOW:
                raise overflow()
            else:  # WALK_ROOM: twice the room where it ran short
                self.grow(int(self.counters[states_at]), int(self.counters[targets_at]), types, kernel.rehash)

    def grow(self, states: int, pairs: int, types: int, rehash) -> None:
        """Twice the room of what cannot take one more state's ``types`` outcomes: the per-state
        arrays, the successors, the hash table (rebuilt by the kernel's ``rehash``)."""
        import numpy as np

        if states + types >= len(self.keys):
            room = 2 * len(self.keys)
            self.keys = _grown(self.keys, room)
            self.extra = [_grown(values, room) for values in self.extra]
            self.stack, self.row_of = _grown(self.stack, room), _grown(self.row_of, room)
            self.state_of_row, self.rewards = _grown(self.state_of_row, room), _grown(self.rewards, room)
            self.totals, self.offsets = _grown(self.totals, room), _grown(self.offsets, room + 1)
        if pairs + types > len(self.targets):
            self.targets, self.weights = _grown(self.targets, 2 * len(self.targets)), \
                _grown(self.weights, 2 * len(self.weights))
        if 2 * (states + types) > (1 << self.bits):
            self.bits += 1
            self.index = np.full(1 << self.bits, -1, dtype=np.int64)
            rehash(self.keys, states, self.index, self.bits)

    def graph(self, players: int) -> ArrayGraph:
        """The walked chain as an ``ArrayGraph`` (the module's ``graph``)."""
        sizes = tuple(int(self.counters[k]) for k in self.at[:4])
        return graph(sizes, self.row_of, self.state_of_row, self.offsets, self.targets, self.weights,
                           self.rewards, self.totals, self.end_kinds, players)


def _grown(values, size: int):
    import numpy as np

    grown = np.zeros((size, *values.shape[1:]), dtype=values.dtype)
    grown[:len(values)] = values
    return grown


def graph(sizes, row_of, state_of_row, offsets, targets, weights, rewards, totals, end_kinds,
          players: int) -> ArrayGraph:
    """The kernel's arrays as the ``ArrayGraph`` the Python walk fills, field for field. ``sizes``: the
    states, rows, successors and ends walked; an end's kind is a winner's seat, ``players`` (STALLED),
    ``players + 1`` (LOOP) or ``players + 2`` (DONE: the question's own end, which Palaces' walk knows).
    (Shared by the compiled walks of both games, through ``WalkArrays.graph``.)"""
    states, rows, pairs, ends = sizes
    kinds = end_kinds[:ends].tolist()
    return ArrayGraph.from_arrays(
        array("q", row_of[:states].tobytes()), array("q", state_of_row[:rows].tobytes()),
        array("q", offsets[:rows + 1].tobytes()), array("q", targets[:pairs].tobytes()),
        array("q", weights[:pairs].tobytes()),
        rewards[:rows].tolist(), totals[:rows].tolist(),
        [("end", kind) if kind < players else STALLED if kind == players else LOOP if kind == players + 1 else DONE
         for kind in kinds])
