"""The compiled random numbers are the plain ones, number for number."""

import numpy as np
from hypothesis import given, settings, strategies as st

from toolkit.fast import rng
from toolkit.sim.card_order import CardOrder, game_seed, rule_seed

u64 = st.integers(0, 2**64 - 1)


@settings(max_examples=60, deadline=None)
@given(u64, st.integers(0, 10**9))
def test_seeds_agree(run, index):
    assert int(rng.game_seed(np.uint64(run), index)) == game_seed(run, index)
    assert int(rng.rule_seed(np.uint64(run), index, 3, 2)) == rule_seed(run, index, 3, 2)


@settings(max_examples=60, deadline=None)
@given(u64, st.lists(st.integers(0, 6), min_size=1, max_size=12))
def test_streams_shuffles_and_picks_agree(seed, counts):
    plain, stream = CardOrder(seed), rng.new_stream(np.uint64(seed))
    assert [plain.next() for _ in range(5)] == [int(rng.next64(stream)) for _ in range(5)]
    assert [plain.below(7) for _ in range(5)] == [int(rng.below(stream, 7)) for _ in range(5)]
    order = np.zeros(sum(counts) + 1, dtype=np.int64)
    n = rng.shuffle_into(np.array(counts, dtype=np.int64), order, stream)
    assert list(order[:n]) == plain.shuffled(counts)
    if sum(counts):
        assert [plain.pick(counts) for _ in range(4)] == [rng.pick(np.array(counts, dtype=np.int64), stream)
                                                          for _ in range(4)]
