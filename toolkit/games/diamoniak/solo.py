"""Solo Diamoniak, solved exactly (the model: ``solo_model``, docs/rules/diamoniak.md, "The solo model").

``solo_odds`` (what `toolkit odds` uses) pushes the probability forward pile by pile: between two
reshuffles the pile only shrinks, so each pile is a layered acyclic pass in integer arithmetic
(``solo_passes``: every pass of a round at once, in numpy arrays or compiled); the states that start
a new pile form a small chain, whose cycles (cards lost to witches and drawn again) are solved as
integer systems by python-flint, and the distribution of turns goes from pile to pile in whole
numbers over a common denominator. The tests hold it to two other exact methods
(tests/solo_reference.py): the same pass as a plain dict loop, and a backward walk of the
draw-by-draw chain.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from toolkit.games.diamoniak.solo_model import Epoch, SoloDeck
from toolkit.walk.graph import TooManyStates

# passes swept together: more is a little faster, fewer holds fewer states at once (a pile size's
# states of every pass of a sweep are in memory together: witch=13, 768 passes at once, took 0.9 GB)
PASSES_AT_ONCE = 96
# a deck of up to this many cards is solved whatever it costs (``solo_odds``'s default): every deck a
# designer tries of the game's size, up to 20 witches, 80 diamonds and 10 fairies; the largest of those
# we found takes under five minutes (witch=20, diamond=10, fairy=10: 656 million states, 2.6 GB)
EVERY_DECK_UP_TO = 100
# the most states such a deck may go through: a bound that only refuses what would take about an hour
LIMIT = 5_000_000_000
# the budget of a larger deck, and of callers that solve many decks (``toolkit sweep``): about a minute
REACH = 50_000_000
# states a second of a whole long solve (its passes, the pile-start chain, the distribution) on the
# 2-core machine it was measured on (witch=20, diamond=46, fairy=10: 43.5 million states in 29 s): what
# a refusal made before any work quotes the cost at
RATE = 1_500_000
# the share of a long solve's time that its passes take (0.71 at witch=20, diamond=10, fairy=10, about
# 0.6 at witch=14): a solve under way times its sampled passes, and quotes the rest at that rate times this
PASS_SHARE = 0.7
# a solve expected to take longer than this says so first, with its estimate (seconds)
TELL_FROM = 10
# the pile starts sampled, spread over the first round, to estimate the passes' states before the bulk
# of them, and how far over the budget the estimate may be before the deck is refused: 8 first (a
# deck far out of reach is told in seconds), then PASSES_AT_ONCE
SAMPLES = ((8, 2), (PASSES_AT_ONCE, 1))
# the first sample comes before the second pile's pass (about as large as the first) when the first
# went through more states than this; on a smaller deck 8 passes more would cost more than they save
SAMPLE_EARLY_FROM = 400_000
# the passes run compiled (solo_kernel) when those still to come are expected to go through more states
# than this: loading the compiled code costs about 0.6 s, what the numpy passes take for about 400,000
# states (the compiled ones go about 5 times faster)
COMPILED_FROM = 400_000


@dataclass(frozen=True)
class SoloOdds:
    """Everything `toolkit odds --model solo` reports, exact."""

    expected_turns: Fraction | None  # None when a game may never end
    p: list[Fraction]  # p[t] = P(the castle is complete on turn t), t = 0 .. len - 1
    tail: Fraction  # P(more turns than ``p`` covers)
    never: Fraction  # P(the castle can never be completed)
    p_reshuffle: Fraction  # P(the first pile runs out before the castle is complete): 1 for a doomed game
    states: int  # states of the draw-by-draw chain gone through
    piles: int  # distinct states that start a new pile (after a reshuffle)


def first_pile_bound(deck: SoloDeck) -> int:
    """An upper bound on the states one pile's forward pass can meet, from the deck's numbers alone.

    It lets ``solo_odds`` refuse a deck before any work (a pass near the bound takes seconds per
    million states, and the bound is within about twice the real count on the decks tried). A
    state is counted by its pile (own cards ``o``, junk ``j``, witches ``w``, fairies ``f``) and
    hand (castle ``c``, junk ``h``, fairies ``fh``): with ``d`` witches drawn and ``s`` of them
    stopped by a fairy, the ``d - s`` others took at most ``takes`` cards each, so the cards lost,
    ``(drawn own - c) + (drawn junk - h)``, are at most ``takes * (d - s)``; ``c`` stays below the
    castle size. Before the colour is fixed every castle card is in the pile and junk is diamonds.
    """
    witches, fairies, takes, size = deck.witches, deck.fairies, deck.takes, deck.size

    def held_junk(junk: int, lost: int) -> int:
        """Pairs (junk drawn b, junk held h) with b <= junk and b - h <= lost: sum of min(b, lost) + 1."""
        if lost >= junk:
            return (junk + 1) * (junk + 2) // 2
        return (lost + 1) * (lost + 2) // 2 + (junk - lost) * (lost + 1)

    def over_witches(junk: int) -> int:
        # fairy splits (f in the pile, fh held) with s = fairies - f - fh spent: fairies - s + 1 of them
        return sum((fairies - s + 1) * held_junk(junk, takes * (d - s))
                   for d in range(witches + 1) for s in range(min(d, fairies) + 1))

    bound = over_witches(deck.diamonds)
    for own in sorted({n for _, n in deck.castles if n >= size}):
        castle_states = sum(min(own - o, size - 1) + 1 for o in range(own))
        bound += castle_states * over_witches(deck.diamonds + deck.castle_total - own)
    return bound


def solo_odds(deck: SoloDeck, tail_below: Fraction = Fraction(1, 10**12), max_epochs: int = 200,
              quick_piles: int = 2, max_states: int | None = None, progress=None,
              note: Callable[[str, int], None] | None = None) -> SoloOdds:
    """The exact solo figures, pile by pile (a pile: from a shuffle until it runs out).

    First all games are pushed forward together, pile after pile; when every game has ended within
    ``quick_piles`` piles (the built-in deck needs two), the distribution is complete and the
    expected value is its mean. Otherwise each state that starts a pile gets a forward pass of its
    own, once (all of a round in one vectorised sweep); together they make a small chain from pile
    to pile, whose cycles (cards lost and drawn again) are solved exactly (``pile_system``),
    and the distribution is pushed from pile to pile until what is left is below ``tail_below`` (or
    ``max_epochs`` piles). All the passes together may go through ``max_states`` states; past that,
    ``TooManyStates`` says the deck is out of reach. By default that is ``LIMIT`` for a deck of up to
    ``EVERY_DECK_UP_TO`` cards (which every such deck of the game's shape stays under) and ``REACH``
    (about a minute) for a larger one.
    A deck whose first pile alone may exceed that (``first_pile_bound``) is refused before any work,
    and one whose sampled pile starts say so, before the bulk of the work. A solve the sample says
    will be long calls ``note(text, ticks)`` first: its estimate of states and time (at the rate the
    sampled passes went), and about how many progress ticks the rest will give.
    """
    if deck.castle_total == 0 or not any(n >= deck.size for _, n in deck.castles):
        # no castle can be finished: the game goes on for ever, so its first pile surely runs out
        return SoloOdds(None, [Fraction(0)], Fraction(0), Fraction(1), Fraction(int(deck.total > 0)), 0, 0)
    limit_of = ""
    if max_states is None:
        max_states = LIMIT if deck.total <= EVERY_DECK_UP_TO else REACH
        limit_of = f" for a deck of more than {EVERY_DECK_UP_TO} cards" if deck.total > EVERY_DECK_UP_TO else ""
    estimate = first_pile_bound(deck)
    if estimate > max_states:
        raise OutOfReach(max_states, estimate, f"up to {estimate:,} states in its first pile alone, by a bound "
                                               f"from the deck's counts", bound=True, limit_of=limit_of)
    try:
        return _solo_odds(deck, tail_below, max_epochs, quick_piles, max_states, estimate, progress, note)
    except OutOfReach as refused:
        refused.say(limit_of)
        raise
    except (TooManyStates, OverflowError):  # the budget left over, or counts too large for one int64 key
        raise TooManyStates(max_states) from None


def pile_starts_bound(deck: SoloDeck) -> int:
    """At most how many states start a pile: a castle short of the size, any junk and fairies held,
    for each colour that can win (the pile is what is neither held nor lost, so the hand says it)."""
    colours = {(n, deck.diamonds + deck.castle_total - n) for _, n in deck.castles if n >= deck.size}
    return sum(deck.size * (junk + 1) * (deck.fairies + 1) for _, junk in colours)


class OutOfReach(TooManyStates):
    """The solve would go through more states than the limit, by a bound or an estimate made before the
    bulk of the work: the first pile's bound (``first_pile_bound``), or the first pile and a sample of
    the pile starts (within 10 % of the real count at witch=12 and 15; up to 1.5 times it on the decks
    tried). The message gives the cost as well, at ``rate`` states a second of the whole solve."""

    def __init__(self, limit: int, estimate: int, how: str, bound: bool = False, rate: float = RATE,
                 limit_of: str = ""):
        super().__init__(limit, estimate)
        self.how, self.bound, self.rate = how, bound, rate
        self.say(limit_of)

    def say(self, limit_of: str) -> None:
        """Word the message, the limit said to be ``limit_of`` a kind of deck (e.g. " for a deck of ...")."""
        self.args = (f"{self.how}, made before solving, over the limit of {self.limit:,} states{limit_of}: "
                     f"{'up to' if self.bound else 'at least'} about {duration(self.estimate / self.rate)} of work "
                     f"for this deck",)


def duration(seconds: float) -> str:
    """A time to wait, in words: "40 seconds", "3.5 minutes", "2 hours", "9 days"."""
    if seconds < 1.5:
        return "a second"
    if seconds < 90:
        return f"{round(seconds)} seconds"
    minutes = seconds / 60
    if minutes < 90:
        return f"{minutes:.1f} minutes" if minutes < 10 else f"{minutes:.0f} minutes"
    hours = minutes / 60
    return f"{hours:,.0f} hours" if hours < 48 else f"{hours / 24:,.0f} days"


def progress_ticks(deck: SoloDeck) -> int:
    """About how many ticks ``solo_odds`` gives its ``progress``: one per pile size of each sweep,
    the first two piles, a sample of pile starts, then a sweep per PASSES_AT_ONCE pile starts, of which there are at most one
    per castle cards, junk and fairies held when a pile runs out (a bound: the bar ends early)."""
    starts = deck.size * (deck.diamonds + deck.castle_total + 1) * (deck.fairies + 1)
    return deck.total * (3 + math.ceil(starts / PASSES_AT_ONCE))


def _solo_odds(deck: SoloDeck, tail_below: Fraction, max_epochs: int, quick_piles: int, max_states: int,
               first_bound: int, progress, note) -> SoloOdds:
    from toolkit.games.diamoniak.solo_passes import WholePass, kernel_fits, pile_passes, whole_passes

    start = deck.start()
    budget = max_states

    def counted(epochs: list) -> list:
        nonlocal budget
        budget -= sum(epoch.states for epoch in epochs)
        return epochs

    can_compile = kernel_fits(deck)

    def worth_compiling(states: float) -> bool:
        return can_compile and states > COMPILED_FROM

    # the first pass goes through about a third of first_pile_bound's states (witch=7 to 12: a sixth to a third)
    first, = counted(whole_passes(deck, [{start: Fraction(1)}], progress, budget,
                                  worth_compiling(first_bound / 3)))
    together = [Epoch(wins={k: Fraction(n, first.denominator) for k, n in first.wins.items()},
                      doomed=Fraction(first.doomed, first.denominator),
                      exits={s: Fraction(n, first.denominator) for s, n in first.exits.items()}, states=first.states)]
    passes: dict[tuple, WholePass] = {start: first}
    todo = sorted(first.exits)
    compiled = worth_compiling(first.states)  # as the second pile's pass
    spread = todo[::max(1, len(todo) // PASSES_AT_ONCE)][:PASSES_AT_ONCE]

    def sampled(size: int, margin: float, cyclic: bool = False) -> float:
        """The states a pass from ``size`` of the spread pile starts went through, on average; past
        ``margin`` times the budget by the estimate they give, a deck whose piles start again
        (``cyclic``, or a sampled pass has exits) is refused."""
        nonlocal rate
        sample = spread[::max(1, len(spread) // size)][:size]
        left = [state for state in sample if state not in passes]
        began = time.perf_counter()
        passes.update(zip(left, counted(_swept(deck, left, progress, budget, compiled))))
        if compiled and left:  # the whole solve's rate, from its passes'
            rate = PASS_SHARE * sum(passes[state].states for state in left) / max(time.perf_counter() - began, 1e-6)
        per_pass = sum(passes[state].states for state in sample) / len(sample)
        estimate = first.states + per_pass * pile_starts_bound(deck)
        # an estimate for a deck whose piles start again, which the sample shows when a pass of it has exits
        if estimate > margin * max_states and (cyclic or any(passes[state].exits for state in sample)):
            raise OutOfReach(max_states, round(estimate), f"about {round(estimate):,} states by an estimate from "
                                                          f"its first pile and {len(sample)} sampled pile starts",
                             rate=rate)
        return per_pass

    rate = RATE  # states a second of the whole solve, by the sampled passes' time where they ran compiled

    if todo and first.states > SAMPLE_EARLY_FROM:  # before a large second pile's pass: told in seconds
        sampled(*SAMPLES[0])
    while together[-1].exits and len(together) < quick_piles:  # a pass about as large as the first
        together += counted(pile_passes(deck, [together[-1].exits], progress, budget, worth_compiling(first.states)))
    # a game whose colour is too small never ends, so its pile runs out too (the colour is fixed in
    # the first pile: the pile cannot run out before every castle card is drawn)
    p_reshuffle = sum(together[0].exits.values(), Fraction(0)) + together[0].doomed
    states = sum(epoch.states for epoch in together)
    if not together[-1].exits:
        table, never = _table(deck, [{None: (Fraction(1), epoch)} for epoch in together])
        expected = None if never else sum((t * q for t, q in enumerate(table)), Fraction(0))
        return SoloOdds(expected, table, Fraction(0), never, p_reshuffle, states, 0)

    # one pass per state that starts a pile, all of a round in one sweep (their exits: the next round);
    # the sampled pile starts, spread over the first round, tell what the rest will cost
    per_pass = sampled(*SAMPLES[1], cyclic=True)
    left_over = per_pass * max(pile_starts_bound(deck) - len(passes), 0)  # a bound, as the estimate's
    if note is not None and left_over / rate > TELL_FROM:
        note(f"the exact odds go through about {round(first.states + per_pass * pile_starts_bound(deck)):,} "
             f"states (an estimate from the first pile and {len(spread)} sampled pile starts): about "
             f"{duration(left_over / rate)} on this machine",
             deck.total * math.ceil(pile_starts_bound(deck) / PASSES_AT_ONCE))
    compiled = compiled or worth_compiling(per_pass * (len(todo) - len(spread)))
    while todo:
        left = [state for state in todo if state not in passes]
        at = 0
        while at < len(left):
            # a sweep of PASSES_AT_ONCE pile starts per thread when compiled (the kernel lets go of the GIL)
            part = left[at:at + (_THREADS if compiled else 1) * PASSES_AT_ONCE]
            swept = counted(_swept(deck, part, progress, budget, compiled))
            passes.update(zip(left[at:], swept))
            at += len(swept)
            # the passes left of this round, at these sweeps' states a pass
            compiled = compiled or worth_compiling(sum(whole.states for whole in swept) / len(swept) * (len(left) - at))
        todo = sorted({after for state in todo for after in passes[state].exits if after not in passes})
    states = sum(whole.states for whole in passes.values())

    table, tail, never = _pushed(deck, passes, start, tail_below, max_epochs)
    expected = None
    if not any(whole.doomed for whole in passes.values()):
        # expected witches: each pass's own witches, then the chain from pile to pile
        own = {state: sum(k * n for k, n in whole.wins.items()) + deck.witches * sum(whole.exits.values())
               for state, whole in passes.items()}
        from toolkit.games.diamoniak import pile_system

        expected = 1 + pile_system.expected_from_start({state: whole.exits for state, whole in passes.items()},
                                                       {state: whole.denominator for state, whole in passes.items()},
                                                       own, start)
    return SoloOdds(expected, table, tail, never, p_reshuffle, states, len(passes) - 1)


# threads for the compiled passes: a sweep each, at once (2 on the machines this was measured on)
_THREADS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def _swept(deck: SoloDeck, starts: list, progress, budget: int, compiled: bool) -> list:
    """A pass from each of ``starts`` (``whole_passes``), in their order. Compiled, the starts are split
    into a sweep per thread, run at once: the kernel runs without the GIL, and a pass does not depend on
    the others of its sweep, so the passes are the same however the starts are split."""
    from toolkit.games.diamoniak.solo_passes import whole_passes

    def sweep(part: list, tick) -> list:
        return whole_passes(deck, [{state: Fraction(1)} for state in part], tick, budget, compiled)

    threads = min(_THREADS if compiled else 1, len(starts))
    if threads <= 1:
        return sweep(starts, progress)
    import threading
    from concurrent.futures import ThreadPoolExecutor

    lock = threading.Lock()

    def tick(n: int) -> None:
        with lock:
            progress(n)

    step = -(-len(starts) // threads)
    parts = [starts[k:k + step] for k in range(0, len(starts), step)]
    with ThreadPoolExecutor(len(parts)) as pool:
        done = list(pool.map(sweep, parts, [tick if progress else None] * len(parts)))
    return [whole for part in done for whole in part]


def _pushed(deck: SoloDeck, passes: dict, start, tail_below: Fraction, max_epochs: int) -> tuple[list[Fraction], ...]:
    """(P(turn t) for t = 0, 1, ..., P(later), P(never)): the distribution of turns pushed pile after pile
    through the passes until what is left is below ``tail_below`` (or ``max_epochs`` piles).

    The masses are whole numbers over one denominator, which grows by the passes' common denominator
    a pile (less their common factor, taken out each pile): past witch=14 they have tens of thousands
    of bits and this push is most of the solve, so they are GMP's integers (gmpy2: three times
    Python's on such numbers). Each turn's chance is one fraction, made at the end."""
    from gmpy2 import gcd, mpq, mpz

    common = mpz(math.lcm(*(whole.denominator for whole in passes.values())))
    rows = {state: (common // whole.denominator, [(drawn, mpz(n)) for drawn, n in whole.wins.items()],
                    mpz(whole.doomed), [(after, mpz(n)) for after, n in whole.exits.items()])
            for state, whole in passes.items()}
    p: dict[int, mpq] = {}
    never = mpq(0)
    masses, denominator, pile = {start: mpz(1)}, mpz(1), 0
    while masses and pile < max_epochs:
        won: dict[int, mpz] = {}
        doomed, following = mpz(0), {}
        for state, mass in masses.items():
            scale, wins, lost, exits = rows[state]
            weight = mass * scale
            for drawn, n in wins:
                turn = 1 + deck.witches * pile + drawn
                won[turn] = won.get(turn, 0) + weight * n
            doomed += weight * lost
            for after, n in exits:
                following[after] = following.get(after, 0) + weight * n
        denominator *= common
        for turn, n in won.items():
            p[turn] = p.get(turn, 0) + mpq(n, denominator)
        never += mpq(doomed, denominator)
        pile += 1
        divisor = gcd(denominator, *following.values())  # keep the numbers as small as they can be
        masses, denominator = {s: n // divisor for s, n in following.items()}, denominator // divisor
        if sum(masses.values()) * tail_below.denominator < tail_below.numerator * denominator:
            break
    table = [_fraction(p[t]) if t in p else Fraction(0) for t in range(max(p, default=0) + 1)]
    return table, _fraction(mpq(sum(masses.values()), denominator)), _fraction(never)


def _fraction(q) -> Fraction:
    return Fraction(int(q.numerator), int(q.denominator))


def _table(deck: SoloDeck, piles: list[dict]) -> tuple[list[Fraction], Fraction]:
    """P(turn t) from the piles in order: pile e's games win on turn 1 + witches * e + witches drawn in it."""
    p: dict[int, Fraction] = {}
    never = Fraction(0)
    for e, pile in enumerate(piles):
        for mass, result in pile.values():
            for drawn, q in result.wins.items():
                turn = 1 + deck.witches * e + drawn
                p[turn] = p.get(turn, Fraction(0)) + mass * q
            never += mass * result.doomed
    return [p.get(t, Fraction(0)) for t in range(max(p, default=0) + 1)], never
