"""The exact walk of two- (or more) player Diamoniak in compiled code: the engine walk's chain, faster.

``walker.build`` walks the rules engine: for each chance point, a copy of the state per card
type left in the pile, the engine's rules and the players' policies in Python, and a key of bytes.
Here the same walk runs in ``toolkit.games.diamoniak.kernel.walk_chance_points``, whose rules and
policies are the simulation kernel's own step functions (the port of the engine and of the
policies that the simulation tests hold to the engine card order for card order). A chance point is
the vector of counts the engine's key keeps there, packed into a few 64-bit words and interned in an
open-addressing table; the states are expanded in the engine walk's order, so the chain that comes
back is the engine walk's own: the same state numbers, outcomes, integer weights, ends and turn
rewards, in the same ``ArrayGraph`` arrays (``tests/test_compiled_walk.py`` compares them array
for array on many decks).

``applies`` says where that holds: the engine's own Diamoniak state and key, players whose every
rule the kernel plays (``diamoniak_kernel.supports``), no question's own end (``done``). Elsewhere
``toolkit.walk.walker`` walks the engine.
"""

from __future__ import annotations

from functools import cached_property

from toolkit.walk.walker import key_arguments
from toolkit.walk.graph import ArrayGraph
from toolkit.walk.compiled import ROOM, WalkArrays, packed


def _engine_own(game, state) -> bool:
    """Is this the engine's own Diamoniak game and state, keyed by the engine's own ``key`` and
    ``colour_swap``? (A subclass, or a key replaced to lump differently, is walked by the engine.)"""
    from toolkit.games.diamoniak.engine import DiamoniakGame, DiamoniakState

    if type(game) is not DiamoniakGame or type(state) is not DiamoniakState or state.game is not game:
        return False
    key = DiamoniakState.__dict__.get("key")
    swap = DiamoniakGame.__dict__.get("colour_swap")
    return (getattr(key, "__module__", None) == "toolkit.games.diamoniak.engine"
            and getattr(key, "__qualname__", None) == "DiamoniakState.key"
            and isinstance(swap, cached_property)
            and getattr(swap.func, "__qualname__", None) == "DiamoniakGame.colour_swap")


def may_apply(start, done=None) -> bool:
    """The part of ``applies`` that needs no compiled code loaded: the engine's own Diamoniak, no ``done``."""
    return done is None and _engine_own(getattr(start, "game", None), start)


def applies(start, policies, done=None) -> bool:
    """Can the compiled walk build ``walker.build``'s chain from ``start`` for these players?
    (This loads the compiled code, numba and all: about 0.3 s the first time.)"""
    if not may_apply(start, done):
        return False
    from toolkit.games.diamoniak import kernel as diamoniak_kernel

    return diamoniak_kernel.supports(start.game, list(policies))


def _bits(n: int) -> int:
    return max(int(n), 0).bit_length()


class _Layout:
    """Where each number of a chance point's key vector goes in the packed words, and the swap.

    The vector: the seat to move, the cards drawn this turn (0 when no player reads them), the
    pile and the discard area by card type, then per seat its colour + 1 (0: none), its castle and
    its right side by card type. Each number gets the bits its largest possible value needs: a count
    of a card type never passes the type's count in the deck, the cards drawn in a turn never the
    deck (nothing joins the discard area during a turn before its last card), and zones that never
    hold a kind of card (witches on the right, anything but castle cards in a castle) get none.
    """

    def __init__(self, game, kernel, swap: bool, with_drawn: bool):
        import numpy as np

        kinds, colours, counts, colour_ok, numbers = kernel._encode_game(game)
        self.game_arrays = (kinds, colours, colour_ok, numbers)
        types, players = len(kinds), game.players
        colour_count = int(colours.max()) + 1 if len(colours) else 0
        widths = [_bits(players - 1), _bits(sum(game.counts)) if with_drawn else 0]
        widths += [_bits(n) for n in counts] * 2
        for _ in range(players):
            widths.append(_bits(colour_count))
            widths += [_bits(n) if kind == kernel.CASTLE else 0 for n, kind in zip(counts, kinds)]
            widths += [_bits(n) if kind != kernel.WITCH else 0 for n, kind in zip(counts, kinds)]
        self.size = size = len(widths)
        self.layout, self.words = packed(widths, kernel)
        self.with_drawn = with_drawn
        self.colour_at = np.array([2 + 2 * types + p * (1 + 2 * types) for p in range(players)], dtype=np.int64)
        self.perm = np.arange(size, dtype=np.int64)
        self.colour_map = np.arange(colour_count + 1, dtype=np.int64)
        self.swap = swap
        if swap:  # the engine's colour_swap: the deck's only two castle types with cards, of two colours
            a, b = (i for i, (kind, n) in enumerate(zip(game.kinds, game.counts)) if kind == "castle" and n)
            starts = [2, 2 + types] + [at + 1 + zone * types for at in self.colour_at for zone in (0, 1)]
            for start in starts:
                self.perm[start + a], self.perm[start + b] = start + b, start + a
            ca, cb = int(colours[a]) + 1, int(colours[b]) + 1
            self.colour_map[ca], self.colour_map[cb] = cb, ca

    def vector(self, state):
        """The key vector of an engine state at a chance point (a numpy array)."""
        import numpy as np

        game = state.game
        kinds, colours, _, _ = self.game_arrays
        names = {}
        for colour, number in zip(game.colours, colours):
            if colour is not None:
                names[colour] = int(number)
        values = [state.player, state.drawn_this_turn if self.with_drawn else 0, *state.pile, *state.discard]
        for hand in state.hands:
            values.append(0 if hand.colour is None else names[hand.colour] + 1)
            values += hand.castle
            values += hand.side
        return np.array(values, dtype=np.int64)


def _overflow() -> RuntimeError:
    return RuntimeError("a count of the compiled walk passed its bit field: the layout's bounds do not hold")


def walk(first, policies, max_states: int, progress=None, max_decisions: int | None = None,
         done=None) -> ArrayGraph:
    """The chain ``walker.build`` walks from chance point ``first`` (a state the policies have
    already been played up to, not the end): state 0 is ``first``; ``TooManyStates`` past ``max_states``.
    ``done`` must be None: Diamoniak's walk knows no question's own end."""
    import numpy as np

    if done is not None:
        raise ValueError("the compiled walk of Diamoniak knows no question's own end (done)")

    from toolkit.games.diamoniak.kernel import compiled
    from toolkit.walk.walker import MAX_DECISIONS

    kernel = compiled()

    game = first.game
    arguments = key_arguments(policies)
    ignore = arguments[0] if arguments else frozenset()
    swap = len(arguments) > 1 and arguments[1] and game.colour_swap is not None
    lay = _Layout(game, kernel, bool(swap), "drawn_this_turn" not in ignore)
    kinds, colours, colour_ok, numbers = lay.game_arrays
    table = kernel._encode_policies(policies)
    types, players = len(kinds), game.players
    options = np.array([int(lay.swap), max_states, MAX_DECISIONS if max_decisions is None else max_decisions],
                       dtype=np.int64)

    at = (kernel.C_STATES, kernel.C_ROWS, kernel.C_TARGETS, kernel.C_ENDS, kernel.C_PAUSE)
    a = WalkArrays(ROOM, lay.words, players + 2, at, progress, extra=(np.uint8,))  # extra: flipped, per state
    if not kernel.intern_start(lay.layout, lay.perm, lay.colour_map, lay.colour_at, lay.swap, a.bits, a.keys,
                               a.extra[0], a.index, a.stack, a.counters, a.row_of, lay.vector(first)):
        raise _overflow()
    scratch = (np.zeros(types, dtype=np.int64), np.zeros(types, dtype=np.int64),
               np.zeros((players, types), dtype=np.int64), np.zeros((players, types), dtype=np.int64),
               np.zeros(players, dtype=np.int64),
               np.zeros(types, dtype=np.int64), np.zeros(types, dtype=np.int64),
               np.zeros((players, types), dtype=np.int64), np.zeros((players, types), dtype=np.int64),
               *(np.zeros(players, dtype=np.int64) for _ in range(5)),
               np.zeros(lay.size, dtype=np.int64), np.zeros(lay.size, dtype=np.int64),
               np.zeros(lay.words, dtype=np.uint64), np.zeros(lay.words, dtype=np.uint64),
               np.zeros((2, types), dtype=np.int64))  # a witch's loss (``kernel._choose``)

    def step():
        return kernel.walk_chance_points(
            kinds, colours, colour_ok, numbers, table, lay.layout, lay.perm, lay.colour_map, lay.colour_at, options,
            lay.with_drawn, a.bits, a.keys, a.extra[0], a.index, a.stack, a.counters, a.row_of, a.state_of_row,
            a.offsets, a.targets, a.weights, a.rewards, a.totals, a.end_of, a.end_kinds, *scratch)

    a.run(step, kernel, types, progress, max_states, _overflow)
    return a.graph(players)
