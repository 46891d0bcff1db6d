"""Compiled fast paths (numba): the same games as the rules engines, many at a time.

Each kernel plays the games of ``toolkit.sim.play`` from the same seeds and must give the same
records; the tests hold them to that on thousands of card orders.
"""
