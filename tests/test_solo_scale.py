"""Solo Diamoniak at scale: the vectorised passes and the flint pile-start solve against the slow paths.

``solo_passes.pile_passes`` (numpy, many piles at once) is held to ``epoch_pass`` (the Python dict
loop, one pile) fraction for fraction, and ``solo_odds`` as a whole
to the backward walk ``solve`` (memoised recursion, or the general ``Chain`` on the draw-by-draw
chain when it is cyclic), on many small random decks.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings

import solo_reference
from toolkit.games.diamoniak import solo as diamoniak_solo
from toolkit.games.diamoniak import pile_system
from toolkit.games.diamoniak import solo_model, solo_passes
from toolkit.odds.chain import Chain
from toolkit.games.diamoniak.solo import SoloDeck


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
@given(solo_reference.decks())
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
@given(solo_reference.decks(most=9))
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
@given(solo_reference.decks())
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


def _representative(game, deck: SoloDeck, state):
    """An engine state at the start of a turn that the lumped ``state`` stands for: its junk as diamonds
    (the player loses other colours' cards before diamonds, and neither is ever built)."""
    es = game.new_initial_state()
    types = len(game.names)
    diamond, witch, fairy = types - 3, types - 2, types - 1
    pile, discard, castle, side = [0] * types, [0] * types, [0] * types, [0] * types
    if state[0] == "pre":
        _, j, w, f, h, fh = state
        colour = None
        for k, (_, n) in enumerate(deck.castles):
            pile[k] = n
        junk_total = deck.diamonds
    else:
        own_total, junk_total, o, j, w, f, c, h, fh = state
        k = next(k for k, (_, n) in enumerate(deck.castles) if n == own_total)  # a colour of that many cards
        colour = deck.castles[k][0]
        pile[k], castle[k], discard[k] = o, c, own_total - o - c
    pile[diamond], side[diamond], discard[diamond] = j, h, junk_total - j - h
    pile[witch], discard[witch] = w, deck.witches - w
    pile[fairy], side[fairy], discard[fairy] = f, fh, deck.fairies - f - fh
    es.pile, es.discard = pile, discard
    es.hands[0].colour, es.hands[0].castle, es.hands[0].side = colour, castle, side
    es.phase = "turn"
    return es


def _lumped(es, deck: SoloDeck, source):
    """The solo model's state of an engine state after a draw (at the next decision to draw, or over)."""
    from toolkit.games.diamoniak.solo_model import DOOMED, WON

    if es.is_terminal():
        return WON if es.winner == 0 else DOOMED
    hand, kinds = es.hands[0], es.game.kinds
    diamond, witch, fairy = (kinds.index(kind) for kind in ("diamond", "witch", "fairy"))
    if hand.colour is None:
        assert not any(hand.castle) and all(es.pile[k] == n for k, (_, n) in enumerate(deck.castles))
        return ("pre", es.pile[diamond], es.pile[witch], es.pile[fairy], hand.side[diamond], hand.side[fairy])
    k = es.game.colours.index(hand.colour)
    own_total = dict(deck.castles)[hand.colour] if source[0] == "pre" else source[0]
    junk_total = deck.diamonds + deck.castle_total - own_total
    others = [i for i in range(len(deck.castles)) if i != k]
    return (own_total, junk_total, es.pile[k], es.pile[diamond] + sum(es.pile[i] for i in others), es.pile[witch],
            es.pile[fairy], hand.castle[k], hand.side[diamond] + sum(hand.side[i] for i in others), hand.side[fairy])


def _engine_moves(game, deck: SoloDeck, state, player) -> Counter:
    """{(lumped state after, a witch was drawn): weight} of one draw of the engine from ``state``'s
    representative, the player's decisions (a witch's loss) played until its next draw."""
    es = _representative(game, deck, state)
    out: Counter = Counter()
    if player.act(es) != ("draw",):  # an empty pile with nothing to reshuffle
        return out
    es.apply_action(("draw",))
    for card, weight in es.chance_outcomes():
        after = es.clone()
        after.apply_action(card)
        while after.phase == "witch":
            after.apply_action(player.act(after))
        assert after.is_terminal() or after.phase in ("more", "turn")
        out[_lumped(after, deck, state), game.kinds[card] == "witch"] += weight
    return out


def _check_lumped_draws(deck: SoloDeck) -> None:
    """Against the readable engine (the oracle, whose fields a test may set; the three-way tests hold it
    to the product's steps)."""
    from oracles import diamoniak_policies, oracle_game

    game, player = oracle_game(solo_reference.engine_game(deck)), diamoniak_policies.parse("default")
    for state in solo_reference.explore(deck):
        lumped: Counter = Counter()
        for weight, after, is_witch in solo_model.moves(deck, state):
            lumped[after, is_witch] += weight
        assert lumped == _engine_moves(game, deck, state, player), state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(solo_reference.decks(most=10))
def test_the_lumped_draws_are_the_games_draws(deck):
    """Every state the solo model reaches: its draws (``solo_model.moves``, the rules of ``solo_kernel``)
    are the game's own, played by its engine and default player from a state it stands for, lumped back."""
    assume(any(n >= deck.size for _, n in deck.castles))  # else the game stalls at once: no castle can be built
    _check_lumped_draws(deck)


@pytest.mark.parametrize("deck", [
    SoloDeck(castles=(("red", 4), ("blue", 3), ("green", 2)), diamonds=3, witches=3, fairies=2, size=3, takes=2),
    SoloDeck(castles=(("red", 3), ("blue", 3)), diamonds=2, witches=2, fairies=1, size=3, takes=3),
    SoloDeck(castles=(("red", 1), ("blue", 2)), diamonds=1, witches=2, fairies=0, size=1, takes=1),
])
def test_the_lumped_draws_are_the_games_draws_on_larger_decks(deck):
    _check_lumped_draws(deck)
