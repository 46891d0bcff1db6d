"""Solo Diamoniak at scale: the vectorised passes and the flint pile-start solve against the slow paths.

``solo_passes.pile_passes`` (numpy, many piles at once) is held to ``epoch_pass`` (the Python dict
loop, one pile) fraction for fraction, and ``solo_odds`` as a whole
to the backward walk ``solve`` (memoised recursion, or the general ``Chain`` on the draw-by-draw
chain when it is cyclic), on many small random decks.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solo_reference
from toolkit.games.diamoniak import solo as diamoniak_solo
from toolkit.games.diamoniak import pile_system
from toolkit.games.diamoniak import solo_passes
from toolkit.odds.chain import Chain
from toolkit.games.diamoniak.solo import SoloDeck


@st.composite
def decks(draw, most: int = 11):
    size = draw(st.integers(1, 3))
    counts = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    deck = SoloDeck(castles=tuple((f"c{i}", n) for i, n in enumerate(counts) if n),
                    diamonds=draw(st.integers(0, 3)), witches=draw(st.integers(0, 3)),
                    fairies=draw(st.integers(0, 2)), size=size, takes=draw(st.integers(1, 3)))
    if deck.total > most:
        deck = SoloDeck(deck.castles, min(deck.diamonds, 1), min(deck.witches, 2), min(deck.fairies, 1),
                        size, deck.takes)
    return deck


def _pile_starts(deck: SoloDeck) -> list:
    """Every state that starts a pile, found with the reference pass."""
    seen, todo = {}, [deck.start()]
    while todo:
        state = todo.pop()
        if state not in seen:
            seen[state] = solo_reference.epoch_pass(deck, {state: Fraction(1)})
            todo.extend(seen[state].exits)
    return list(seen)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks())
def test_the_vectorised_passes_are_the_reference_passes(deck):
    starts = _pile_starts(deck)
    separate = solo_passes.pile_passes(deck, [{state: Fraction(1)} for state in starts])
    for state, epoch in zip(starts, separate):
        reference = solo_reference.epoch_pass(deck, {state: Fraction(1)})
        assert (epoch.wins, epoch.doomed, epoch.exits) == (reference.wins, reference.doomed, reference.exits)
        assert epoch.states <= reference.states  # fewer: a pile whose witches fairies cover ends at once
    # one group of weighted starts pushed together: the masses add up as in the reference
    group = {state: Fraction(k + 1, len(starts) + 3) for k, state in enumerate(starts)}
    together, = solo_passes.pile_passes(deck, [group])
    reference = solo_reference.epoch_pass(deck, group)
    assert (together.wins, together.doomed, together.exits) == (reference.wins, reference.doomed, reference.exits)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks(most=9))
def test_solo_odds_equals_the_backward_walk(deck):
    odds = diamoniak_solo.solo_odds(deck)
    backward = solo_reference.solve(deck)
    assert odds.expected_turns == backward.expected_turns
    assert odds.p_reshuffle == backward.p_reshuffle and odds.never == backward.p_never
    assert sum(odds.p, Fraction(0)) + odds.tail + odds.never == 1 and odds.tail >= 0
    if odds.expected_turns is not None and not odds.tail:
        assert sum(t * q for t, q in enumerate(odds.p)) == odds.expected_turns


def test_the_pile_chain_solve_is_the_general_solvers(tmp_path):
    """A cyclic pile-start chain: the pile-start solve gives Chain.expected_reward's fraction."""
    deck = SoloDeck(castles=(("red", 4), ("blue", 3)), diamonds=4, witches=4, fairies=1, size=3, takes=3)
    passes = {state: solo_reference.epoch_pass(deck, {state: Fraction(1)}) for state in _pile_starts(deck)}
    own = {state: sum((k * q for k, q in r.wins.items()), Fraction(0)) + deck.witches * sum(r.exits.values(), Fraction(0))
           for state, r in passes.items()}
    transitions = {}
    for state, r in passes.items():
        ended = 1 - sum(r.exits.values(), Fraction(0))
        transitions[state] = [(q, after) for after, q in r.exits.items()] + ([(ended, "won")] if ended else [])
    chain = Chain(transitions)
    assert max(len(members) for members in chain._members) > 10  # a real cycle, not substitution alone
    denominators = {s: math.lcm(*(q.denominator for q in [*r.exits.values(), *r.wins.values()])) for s, r in passes.items()}
    whole = {s: {a: int(q * denominators[s]) for a, q in r.exits.items()} for s, r in passes.items()}
    ours = pile_system.expected_from_start(whole, denominators, {s: int(v * denominators[s]) for s, v in own.items()},
                                           deck.start())
    assert ours == chain.expected_reward(deck.start(), own.__getitem__)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks())
def test_the_compiled_passes_are_the_array_passes(deck):
    """``solo_kernel`` (residues, a hash table) gives the numpy passes' whole numbers, pass by pass."""
    starts = _pile_starts(deck)
    groups = [{state: Fraction(1)} for state in starts]
    groups.append({state: Fraction(k + 1, len(starts) + 3) for k, state in enumerate(starts)})
    for sweep in (groups, [{deck.start(): Fraction(1)}]):  # many groups, and the first pile alone
        arrays = solo_passes.whole_passes(deck, sweep)
        compiled = solo_passes.whole_passes(deck, sweep, compiled=True)
        for mine, theirs in zip(compiled, arrays, strict=True):
            assert (mine.denominator, mine.wins, mine.doomed, mine.exits, mine.states) == \
                (theirs.denominator, theirs.wins, theirs.doomed, theirs.exits, theirs.states)


def test_the_compiled_first_pile_with_castle_colours_of_many_sizes(monkeypatch):
    """Before the colour is fixed a state has a successor per castle size: with three sizes and more,
    more than the four draws after it (the kernel once wrote past its table there)."""
    from toolkit.catalogue import load

    catalogue = load("diamoniak", overrides=["castle-red=7", "castle-blue=8", "castle-green=9"], require_art=False)
    deck = SoloDeck.from_catalogue(catalogue)
    assert len({n for _, n in deck.castles}) == 4
    first = [solo_passes.whole_passes(deck, [{deck.start(): Fraction(1)}], compiled=c)[0] for c in (False, True)]
    assert (first[0].wins, first[0].doomed, first[0].exits) == (first[1].wins, first[1].doomed, first[1].exits)
    arrays = diamoniak_solo.solo_odds(deck)
    monkeypatch.setattr(diamoniak_solo, "COMPILED_FROM", 0)
    compiled = diamoniak_solo.solo_odds(deck)
    assert (compiled.expected_turns, compiled.p, compiled.p_reshuffle) == \
        (arrays.expected_turns, arrays.p, arrays.p_reshuffle)


def test_decks_whose_tables_would_not_fit_are_not_compiled():
    huge = SoloDeck(castles=(("red", 6),), diamonds=20, witches=1, fairies=500, size=6, takes=3)
    assert not solo_passes.kernel_fits(huge)
    assert not solo_passes.kernel_fits(SoloDeck((("red", 6),), 20, 4100, 3, 6, 3))  # card counts past 2**12
    assert solo_passes.kernel_fits(SoloDeck((("red", 6),) * 4, 20, 20, 10, 6, 3))


def test_residues_rebuild_whole_numbers_past_one_prime(monkeypatch):
    """With small primes a pass's numbers need several of them: the remainders still give them back."""
    from toolkit.odds import residues

    deck = SoloDeck(castles=(("red", 4), ("blue", 3)), diamonds=4, witches=4, fairies=1, size=3, takes=3)
    starts = _pile_starts(deck)
    reference = solo_passes.whole_passes(deck, [{s: Fraction(1)} for s in starts])
    small = residues.primes(40, 1 << 20)  # numbers of about 36 bits need two of them or more
    monkeypatch.setattr(residues, "primes", lambda count, top=residues.TOP: small[:count])
    mod = residues.Residues(60)
    assert mod.count >= 3 and mod.integers(mod.of([2**59 + 12345, 7])) == [2**59 + 12345, 7]
    compiled = solo_passes.whole_passes(deck, [{s: Fraction(1)} for s in starts], compiled=True)
    assert [(r.wins, r.exits) for r in compiled] == [(r.wins, r.exits) for r in reference]


def test_the_cyclic_solve_runs_compiled_and_gives_the_same_fractions(monkeypatch):
    deck = SoloDeck(castles=(("red", 4), ("blue", 3)), diamonds=4, witches=4, fairies=1, size=3, takes=3)
    arrays = diamoniak_solo.solo_odds(deck)
    monkeypatch.setattr(diamoniak_solo, "COMPILED_FROM", 0)
    calls = []
    original = solo_passes._compiled_levels
    monkeypatch.setattr(solo_passes, "_compiled_levels", lambda *a, **k: calls.append(1) or original(*a, **k))
    compiled = diamoniak_solo.solo_odds(deck)
    assert calls and arrays.piles > 10
    assert (compiled.expected_turns, compiled.p, compiled.tail, compiled.p_reshuffle, compiled.states) == \
        (arrays.expected_turns, arrays.p, arrays.tail, arrays.p_reshuffle, arrays.states)


def test_a_deck_past_the_budget_is_refused_after_a_sample_with_its_estimate(monkeypatch):
    """The estimate from the first pile and a sample of pile starts comes before the other passes."""
    import pytest

    deck = SoloDeck(castles=(("red", 5), ("blue", 4)), diamonds=8, witches=6, fairies=2, size=3, takes=3)
    whole = diamoniak_solo.solo_odds(deck)
    limit = whole.states * 85 // 100  # the first two piles and the sample fit in it; the whole solve does not
    assert diamoniak_solo.first_pile_bound(deck) < limit and whole.piles > 2 * diamoniak_solo.PASSES_AT_ONCE
    sweeps = []
    original = solo_passes.whole_passes
    monkeypatch.setattr(solo_passes, "whole_passes", lambda *a, **k: sweeps.append(len(a[1])) or original(*a, **k))
    with pytest.raises(diamoniak_solo.OutOfReach) as refused:
        diamoniak_solo.solo_odds(deck, max_states=limit)
    # a small first pile: the first pile, the second, the sample
    assert sweeps == [1, 1, diamoniak_solo.PASSES_AT_ONCE]
    assert f"{diamoniak_solo.PASSES_AT_ONCE} sampled pile starts" in str(refused.value)
    estimate = refused.value.estimate
    assert limit < estimate and 0.5 * whole.states < estimate < 2 * whole.states
    assert f"about {estimate:,} states" in str(refused.value) and f"limit of {limit:,} states" in str(refused.value)
    # the cost at the nominal rate (the sample's own rate is measured only when compiled)
    assert str(refused.value).endswith(f"at least about {diamoniak_solo.duration(estimate / diamoniak_solo.RATE)} "
                                       f"of work for this deck")
    # a large first pile: 8 sampled pile starts first, before the second pile's pass (about as large)
    monkeypatch.setattr(diamoniak_solo, "SAMPLE_EARLY_FROM", 0)
    sweeps.clear()
    with pytest.raises(diamoniak_solo.OutOfReach) as refused:
        diamoniak_solo.solo_odds(deck, max_states=limit)
    assert sweeps in ([1, 8], [1, 8, 1, diamoniak_solo.PASSES_AT_ONCE - 8])
    assert f"{8 + sum(sweeps[3:])} sampled pile starts" in str(refused.value)


def test_an_acyclic_deck_is_not_refused_by_the_sample_estimate(monkeypatch):
    """The sample's estimate is for decks whose piles start again: a deck whose games all end in two
    piles is solved by its second pile's pass, however the sampled passes would add up."""
    from toolkit.catalogue import load

    deck = SoloDeck.from_catalogue(load("diamoniak", require_art=False))
    whole = diamoniak_solo.solo_odds(deck)
    assert whole.piles == 0
    monkeypatch.setattr(diamoniak_solo, "pile_starts_bound", lambda deck: 10**9)  # an estimate far past any budget
    assert diamoniak_solo.solo_odds(deck).expected_turns == whole.expected_turns


def test_a_long_solve_says_first_how_long_it_will_take(monkeypatch):
    """Past TELL_FROM seconds by the sample's estimate, the solver says so before the bulk of the work."""
    deck = SoloDeck(castles=(("red", 5), ("blue", 4)), diamonds=8, witches=6, fairies=2, size=3, takes=3)
    quiet = []
    whole = diamoniak_solo.solo_odds(deck, note=lambda text, ticks: quiet.append(text))
    assert quiet == []  # a second or so: nothing to say
    told = []
    monkeypatch.setattr(diamoniak_solo, "TELL_FROM", -1)
    assert diamoniak_solo.solo_odds(deck, note=lambda text, ticks: told.append((text, ticks))) == whole
    (text, ticks), = told
    assert text.startswith("the exact odds go through about ") and " states (an estimate from the first pile and " in text
    assert text.endswith(" on this machine") and ticks > 0


def test_durations_read_as_a_person_would_say_them():
    said = [diamoniak_solo.duration(s) for s in (0.2, 1.4, 40, 89, 600, 3000, 5400, 3 * 86400)]
    assert said == ["a second", "a second", "40 seconds", "89 seconds", "10 minutes", "50 minutes", "2 hours", "3 days"]
