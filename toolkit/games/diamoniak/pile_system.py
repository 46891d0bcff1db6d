"""The expected reward of the chain between pile starts of solo Diamoniak, solved exactly and fast.

A pile start is a state where the draw pile was just made again. From one pile start the game
reaches the next ones with exact probabilities ``exits[s][a] / denominators[s]`` and draws
``own[s] / denominators[s]`` witches on the way, so the expected witches from ``s`` solve
``x[s] * denominators[s] = own[s] + sum_a exits[s][a] * x[a]``. Once a count moves the chain
turns cyclic: one strongly connected block of most of the states, each row with a hundred or more
entries of ~280 bits, answers of 30,000 to 40,000+ bits. python-flint's ``fmpz_mat.solve``
(FLINT's dense p-adic lifting) took 7 s on it at witch=14 and 16 s at witch=16, where the same
matrix with an answer of all ones takes 0.9 s: the time goes into the thousand or more lifting
steps a long answer needs, each of them a product with the dense matrix of long entries.

Here the system is solved in one piece, exactly: only the states ``start`` reaches, ordered by
strongly connected blocks, sinks first (``toolkit.solve.scc``), so that the matrix is block lower
triangular; every row divided by the gcd of its integers (that drops the ~280-bit entries to ~50
bits on average: the passes' denominators share large factors); then the block lifting of
``toolkit.solve.dense``, which stops as early as the answer allows and returns only an answer it
has checked exactly.

Anything that way cannot take (every prime tried divides a leading minor of a block, digits beyond
Hadamard's bound without a checked answer, a block too small for the lifting to pay) goes to
``solve_by_components``: the same system block by block with python-flint's exact solver, which is
how the solo solver solved it before.
"""

from __future__ import annotations

import math
from fractions import Fraction

from toolkit.solve.dense import lift_blocks
from toolkit.solve.scc import strong_components

#: The lifting is used when the largest cyclic block has at least this many states; smaller
#: systems go to flint block by block. Measured on the solo decks (benchmarks/bench_pile_system.py):
#: at witch=10 (a block of 188) both take 0.06-0.1 s, and the lifting's first compiled call in a
#: process costs about 0.3 s more (numba's start) when nothing compiled ran before; at witch=11
#: (332) the lifting takes 0.16-0.24 s to flint's 0.36-0.65 s, at witch=12 (476) 0.35 s to 1.7 s.
LIFT_FROM = 250


def expected_from_start(exits: dict, denominators: dict, own: dict, start) -> Fraction:
    """``x[start]`` where ``x[s] = (own[s] + sum of exits[s][a] * x[a]) / denominators[s]``, exactly.

    ``exits[s]`` maps each pile start ``a`` that ``s`` can reach to an integer (the numerator of
    the probability over ``denominators[s]``); every ``a`` named must be a key of ``exits``. The
    system must be non-singular, as it is for a chain that ends with probability one (a
    singular one raises ZeroDivisionError, from flint's solve in ``solve_by_components``).
    """
    blocks = reachable_blocks(exits, start)
    order = [state for block in blocks for state in block]
    if max((len(block) for block in blocks), default=0) >= LIFT_FROM:
        rows, rhs = integer_rows(order, exits, denominators, own)
        block_start = [0]
        for block in blocks:
            block_start.append(block_start[-1] + len(block))
        found = lift_blocks(rows, rhs, block_start)
        if found is not None:
            numerators, denominator = found
            return Fraction(int(numerators[order.index(start)]), int(denominator))
    value = solve_by_components(blocks, exits, denominators, own)[start]
    return Fraction(int(value.p), int(value.q))


def reachable_blocks(exits: dict, start) -> list[list]:
    """The strongly connected blocks of the states ``start`` reaches (an edge from ``s`` to each key
    of ``exits[s]``), found by ``toolkit.solve.scc`` from ``start``: each block's states in the order
    the search met them, the blocks in the order it completed them, so a block only reaches itself
    and earlier blocks."""
    states = [start, *(state for state in exits if state != start)]
    number = {state: k for k, state in enumerate(states)}
    component_of, members, starts = strong_components([[number[after] for after in exits[state]]
                                                       for state in states])
    # the search from the start completes every block it reaches, the start's own last, before any other root
    grouped, bounds = members.tolist(), starts.tolist()
    return [[states[k] for k in reversed(grouped[bounds[c]:bounds[c + 1]])] for c in range(int(component_of[0]) + 1)]


def integer_rows(order: list, exits: dict, denominators: dict, own: dict) -> tuple[list[dict[int, int]], list[int]]:
    """The system ``A x = b`` over ``order`` (rows: column -> integer), every row and its
    right-hand side divided by the gcd of its integers."""
    position = {state: k for k, state in enumerate(order)}
    rows, rhs = [], []
    for k, state in enumerate(order):
        out = exits[state]
        divisor = math.gcd(denominators[state], own[state], *out.values())
        row = {k: denominators[state] // divisor}
        for after, n in out.items():
            j = position[after]
            row[j] = row.get(j, 0) - n // divisor
        rows.append({j: value for j, value in row.items() if value})
        rhs.append(own[state] // divisor)
    return rows, rhs


def solve_by_components(blocks: list[list], exits: dict, denominators: dict, own: dict) -> dict:
    """Every state's value, block by block (earlier blocks known), as python-flint's rationals: a
    single state without a loop by substitution, a cyclic block as one integer system solved by
    ``fmpz_mat.solve``. Raises ZeroDivisionError for a singular system."""
    import flint

    value: dict = {}
    for block in blocks:
        if len(block) == 1 and block[0] not in exits[block[0]]:
            state = block[0]
            total = flint.fmpq(own[state]) + sum((n * value[a] for a, n in exits[state].items()), flint.fmpq(0))
            value[state] = total / denominators[state]
            continue
        inside = {state: k for k, state in enumerate(block)}
        matrix = flint.fmpz_mat(len(block), len(block))
        rhs = flint.fmpz_mat(len(block), 1)
        for k, state in enumerate(block):
            known = flint.fmpq(own[state]) + sum((n * value[a] for a, n in exits[state].items() if a not in inside),
                                                 flint.fmpq(0))
            scale = known.q
            matrix[k, k] = scale * denominators[state]
            for a, n in exits[state].items():
                if a in inside:
                    matrix[k, inside[a]] -= scale * n
            rhs[k, 0] = known.p
        solution = matrix.solve(rhs)
        value.update((state, solution[k, 0]) for k, state in enumerate(block))
    return value
