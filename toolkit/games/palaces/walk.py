"""The exact walk of Palaces in compiled code: the engine walk's chain, faster.

``walker.build`` walks the rules engine: for each chance point (a card drawn in a deal or a
refill, a card taken blind in an exchange), a copy of the state per outcome, the engine's rules and
the players' policies in Python (the decisions played once per decision point's key), and a key of
bytes. Here the same walk runs in ``toolkit.games.palaces.kernel.walk_chance_points``, whose rules
and policies are the simulation kernel's own step functions (``outcome``, ``decide`` and the rules
and builder under them: the port of the engine and of the policies that ``tests/test_fast_palaces.py``
holds to the engine card order for card order). A chance point is the vector of numbers the engine's
``PalacesState.key`` keeps there, packed into a few 64-bit words and interned in an open-addressing
table; the states are expanded in the engine walk's order, so the chain that comes back is the engine
walk's own: the same state numbers, outcomes, integer weights, ends and turn rewards, in the same
``ArrayGraph`` arrays (``tests/test_compiled_palaces_walk.py`` compares them array for array).

``applies`` says where that holds: the engine's own Palaces state and key, players who decide by the
state alone with rules the kernel plays (the builder in each of its forms, giving the worst cards),
and as the question's own end (``done``) none, or "a first palace is complete"
(``toolkit.games.palaces.engine.first_palace_complete``). Elsewhere ``toolkit.walk.walker`` walks the engine.
Where it applies, ``sampled_games`` also plays the games ``walker.estimate_states`` samples
(``toolkit.games.palaces.sampled``).
"""

from __future__ import annotations

from toolkit.games.palaces.sampled import sampled_games  # noqa: F401  (the walker's sampled games, see above)
from toolkit.walk.walker import key_arguments
from toolkit.walk.graph import ArrayGraph
from toolkit.walk.compiled import ROOM, WalkArrays, packed


def is_first_palace(done) -> bool:
    """Is ``done`` the first-palace question (``toolkit.games.palaces.engine.first_palace_complete``, the very
    function)? Only then does the kernel know it: it reads the same counter, the palaces completed,
    where the engine's ``counters`` does."""
    from toolkit.games.palaces.engine import first_palace_complete

    return done is first_palace_complete


def _engine_own(game, state) -> bool:
    """Is this the engine's own Palaces game and state, keyed by the engine's own ``key`` and counted
    by its own ``counters``? (A subclass, or a key replaced to lump differently, is walked by the engine.)"""
    from toolkit.games.palaces.engine import PalacesGame, PalacesState

    if type(game) is not PalacesGame or type(state) is not PalacesState or state.game is not game:
        return False
    for name in ("key", "counters", "chance_outcomes"):
        method = PalacesState.__dict__.get(name)
        if getattr(method, "__module__", None) != "toolkit.games.palaces.engine" \
                or getattr(method, "__qualname__", None) != f"PalacesState.{name}":
            return False
    return True


def may_apply(start, done=None) -> bool:
    """The part of ``applies`` that needs no compiled code loaded: the engine's own Palaces, and no
    ``done`` or the first palace's."""
    return (done is None or is_first_palace(done)) and _engine_own(getattr(start, "game", None), start)


def applies(start, policies, done=None) -> bool:
    """Can the compiled walk build ``walker.build``'s chain from ``start`` for these players?"""
    if not may_apply(start, done):
        return False
    from toolkit.games.palaces.policies import Builder, GiveWorst, PalacesPolicy

    policies = list(policies)
    if any(type(policy) is not PalacesPolicy or type(policy.play) is not Builder
           or type(policy.give) is not GiveWorst for policy in policies):
        return False  # the seeded random rules are not deterministic: no exact chain
    if key_arguments(policies) != ():
        return False
    from toolkit.games.palaces.policies import supports

    return supports(start.game, policies)


def _bits(n: int) -> int:
    return max(int(n), 0).bit_length()


def _present(game):
    """(the game with only the card types its deck holds, those types' indices in ``game``).

    The walk plays that game: the same rules and players, with no loop of the kernel spent on card
    types that are never anywhere (a small deck of the catalogue leaves most of its 17 types out).
    Exact, the types keeping their order: every rule and policy compares card types only by their
    order (palaces sorted by their cards, ties to the lower type), the deck's totals per kind and
    colour do not change, and the chance outcomes of a type that no zone holds have no weight, so
    the engine walk lists none for it."""
    from dataclasses import replace

    kept = [i for i, n in enumerate(game.counts) if n]
    if len(kept) == len(game.counts):
        return game, kept
    return replace(game, names=tuple(game.names[i] for i in kept), kinds=tuple(game.kinds[i] for i in kept),
                   colours=tuple(game.colours[i] for i in kept), counts=tuple(game.counts[i] for i in kept)), kept


class _Layout:
    """Where each number of a chance point's key vector goes in the packed words.

    Each number gets the bits its largest possible value needs: a count of a card type never passes
    the type's count in the deck, the hand size drawn to never the larger of the hand size and the
    deck, a palace's foundation + 1 and ruins + 1 never the last such card type + 1, the floors on
    a palace are only of floor and tower types, the tokens at a chance point stay below the goal (a
    player who reaches it has won). A position that gets no bits (the floors of a type that is no
    floor nor tower, a seat's number with one player, ...) must hold 0: the packing checks it.
    """

    def __init__(self, game, kernel):
        whole = game
        game, self.kept = _present(game)
        from toolkit.games.palaces.engine import _encode_game

        g = _encode_game(game)
        self.g = g
        types, players, slots = len(game.names), game.players, int(g[kernel.G_SLOTS])
        self.at = at = kernel.vector_at(types, players, slots)
        counts, kinds = game.counts, game.kinds
        seat = _bits(players - 1)
        last_foundation = max((i + 1 for i, kind in enumerate(kinds) if kind == "foundation"), default=0)
        last_ruins = max((i + 1 for i, kind in enumerate(kinds) if kind == "ruins"), default=0)
        widths = [0] * at["size"]
        widths[kernel.V_PHASE] = _bits(max(kernel.DEAL, kernel.STEAL, kernel.REFILL))
        widths[kernel.V_PLAYER] = widths[kernel.V_DRAWER] = widths[kernel.V_VICTIM] = seat
        widths[kernel.V_DRAW_TO] = _bits(max(game.hand_size, sum(counts)))
        widths[kernel.V_STEAL_LEFT] = _bits(game.exchange_cards)
        for i, n in enumerate(counts):
            for part in ("handing", "pile", "discard"):
                widths[at[part] + i] = _bits(n)
            for p in range(players):
                widths[at["hands"] + p * types + i] = _bits(n)
        for p in range(players):
            for k in range(slots):
                start = at["palaces"] + (p * slots + k) * (2 + types)
                widths[start], widths[start + 1] = _bits(last_foundation), _bits(last_ruins)
                for i, (n, kind) in enumerate(zip(counts, kinds)):
                    widths[start + 2 + i] = _bits(n) if kind in ("floor", "tower") else 0
            widths[at["site"] + p] = _bits(last_ruins)
            widths[at["tokens"] + p] = _bits(game.to_win)
        self.layout, self.words = packed(widths, kernel)
        self.size = at["size"]
        self._renumber(kernel.vector_at(len(whole.names), players, slots), len(whole.names), players, slots)

    def _renumber(self, whole, all_types: int, players: int, slots: int) -> None:
        """How the key vector of the engine's game (its parts at ``whole``) becomes the one here: number ``n``
        here is its number ``gather[n]``; where a card type + 1 stands (a palace's foundation and ruins, a
        building place's ruins: ``cards``), it is renumbered by ``new_card`` (0, no card, stays 0)."""
        import numpy as np

        at, kept, types = self.at, self.kept, len(self.kept)
        gather, cards = list(range(at["size"])), []
        for part in ("handing", "pile", "discard"):
            for k, i in enumerate(kept):
                gather[at[part] + k] = whole[part] + i
        for p in range(players):
            for k, i in enumerate(kept):
                gather[at["hands"] + p * types + k] = whole["hands"] + p * all_types + i
            for j in range(slots):
                here = at["palaces"] + (p * slots + j) * (2 + types)
                there = whole["palaces"] + (p * slots + j) * (2 + all_types)
                gather[here], gather[here + 1] = there, there + 1
                cards += [here, here + 1]
                for k, i in enumerate(kept):
                    gather[here + 2 + k] = there + 2 + i
            gather[at["site"] + p], gather[at["tokens"] + p] = whole["site"] + p, whole["tokens"] + p
            cards.append(at["site"] + p)
        self.whole_size = whole["size"]
        self.gather, self.cards = np.array(gather, dtype=np.int64), np.array(cards, dtype=np.int64)
        self.new_card = np.zeros(all_types + 1, dtype=np.int64)
        self.new_card[[i + 1 for i in kept]] = np.arange(1, types + 1)

    def vector(self, state):
        """The key vector of an engine state at a chance point (a numpy array): the kernel's ``vector_of`` of
        the state's own numbers (its steps, interpreted or compiled), its card types renumbered to the ones
        kept here."""
        import numpy as np

        v = np.zeros(self.whole_size, dtype=np.int64)
        state.steps.vector_of(state.g, state.s, v)
        v = v[self.gather]
        v[self.cards] = self.new_card[v[self.cards]]
        return v


def _overflow() -> RuntimeError:
    return RuntimeError("a number of the compiled walk passed its bit field: the layout's bounds do not hold")


def walk(first, policies, max_states: int, progress=None, max_decisions: int | None = None,
         done=None) -> ArrayGraph:
    """The chain ``walker.build`` walks from chance point ``first`` (a state the policies have
    already been played up to, not the end, nor ``done``): state 0 is ``first``; ``TooManyStates``
    past ``max_states``. ``done``: None, or the first palace's (``is_first_palace``)."""
    import numpy as np

    from toolkit.games.palaces import kernel
    from toolkit.walk.walker import MAX_DECISIONS

    if done is not None and not is_first_palace(done):
        raise ValueError("the compiled walk knows no other end than a first palace complete")
    game = first.game
    lay = _Layout(game, kernel)
    g = lay.g
    from toolkit.games.palaces.policies import _encode_policies

    table, _ = _encode_policies(policies)
    fast = kernel.compiled()
    types, players = len(lay.kept), game.players
    options = np.array([max_states, MAX_DECISIONS if max_decisions is None else max_decisions,
                        int(done is not None)], dtype=np.int64)
    at = (kernel.W_STATES, kernel.W_ROWS, kernel.W_TARGETS, kernel.W_ENDS, kernel.W_PAUSE)
    a = WalkArrays(ROOM, lay.words, players + 3, at, progress)
    words = np.zeros(lay.words, dtype=np.uint64)
    if not fast.intern_start(lay.layout, a.bits, a.keys, a.index, a.stack, a.counters, a.row_of,
                             lay.vector(first), words):
        raise _overflow()
    r = np.zeros(1 + 2 * players, dtype=np.uint64)  # no seeded rule plays here: never drawn from
    base, s = np.zeros(g[kernel.S_SIZE], dtype=np.int64), np.zeros(g[kernel.S_SIZE], dtype=np.int64)
    v = np.zeros(lay.size, dtype=np.int64)

    def step():
        return fast.walk_chance_points(g, table, r, lay.layout, options, a.bits, a.keys, a.index, a.stack,
                                       a.counters, a.row_of, a.state_of_row, a.offsets, a.targets, a.weights,
                                       a.rewards, a.totals, a.end_of, a.end_kinds, base, s, v, words)

    a.run(step, fast, types, progress, max_states, _overflow)
    return a.graph(players)
