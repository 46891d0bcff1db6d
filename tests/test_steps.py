"""The step shim (``toolkit.fast.steps``): a marked function runs interpreted as written and compiled
by ``compiled`` to the same answers, with numba's options, from numba's cache in a second process."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np

import steps_toy
from toolkit.fast import steps


def test_interpreted_and_compiled_steps_give_the_same_answers():
    cards = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int64)
    plain, fast = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy warns when uint64 arithmetic wraps, numba does not
        h = steps_toy.play(cards, plain)
    space = steps.compiled("steps_toy")
    assert space.play(cards, fast) == h
    assert plain.tolist() == fast.tolist() == [8, 31]
    assert steps_toy._add((0, 0), 5) == (1, 5)  # the module's own functions stay plain
    assert space._add((0, 0), 5) == (1, 5)
    assert space.play.targetoptions["_nrt"] is False and space._add.targetoptions["inline"] == "always"
    assert steps.compiled("steps_toy") is space


def test_a_second_process_loads_the_compiled_steps_from_the_cache(tmp_path):
    here = Path(__file__).parent
    code = ("import numpy as np; from toolkit.fast import steps; space = steps.compiled('steps_toy'); "
            "space.play(np.arange(4), np.zeros(2, dtype=np.int64)); "
            "print(sum(space.play.stats.cache_hits.values()), sum(space.play.stats.cache_misses.values()))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(here)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), [run.stderr[-2000:] for run in runs]
    assert [run.stdout.split() for run in runs] == [["0", "1"], ["1", "0"]]
