"""The compiled random numbers are the plain ones, number for number: run interpreted (each step's
plain twin) and compiled (the step's body, by numba)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from toolkit.fast import rng, steps
from toolkit.sim.card_order import CardOrder, game_seed, rule_seed

u64 = st.integers(0, 2**64 - 1)
SPACES = {"interpreted": lambda: rng, "compiled": lambda: steps.compiled("toolkit.fast.rng")}


@pytest.mark.parametrize("mode", SPACES)
@settings(max_examples=60, deadline=None)
@given(u64, st.integers(0, 10**9))
def test_seeds_agree(mode, run, index):
    space = SPACES[mode]()
    assert int(space.game_seed(np.uint64(run), index)) == game_seed(run, index)
    assert int(space.rule_seed(np.uint64(run), index, 3, 2)) == rule_seed(run, index, 3, 2)


@pytest.mark.parametrize("mode", SPACES)
@settings(max_examples=60, deadline=None)
@given(u64, st.lists(st.integers(0, 6), min_size=1, max_size=12))
def test_shuffles_agree(mode, seed, counts):
    space = SPACES[mode]()
    plain, stream = CardOrder(seed), np.array([seed], dtype=np.uint64)
    order = np.zeros(sum(counts) + 1, dtype=np.int64)
    n = space.shuffle_into(np.array(counts, dtype=np.int64), order, stream)
    assert list(order[:n]) == plain.shuffled(counts)
    assert int(stream[0]) == plain.state


def test_interpreted_random_numbers_load_no_numba():
    import subprocess
    import sys

    code = ("import sys, numpy as np; from toolkit.fast import rng; s = np.array([5], dtype=np.uint64); "
            "rng.shuffle_into(np.array([2, 1]), np.zeros(3, dtype=np.int64), s); "
            "print('numba' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
