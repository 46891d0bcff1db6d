"""Palaces' games sampled with Python's generator, played whole by the compiled kernel.

Two Python loops play the state with a ``random.Random``: ``toolkit.odds.report.simulate_until`` (through
``toolkit.sim.runner.play``: the first-palace model's simulated answer, and the rulebook's figures) and
``toolkit.odds.walker.estimate_states`` (the sampled games that tell whether an exact walk may fit).
Here the same games are the kernel's loops ``sample_game`` and ``sample_keys``: the same rules and players,
and every chance point drawn from the generator's own outputs as ``randrange`` draws it
(``toolkit.fast.rng.Outputs``), so every game, and every figure counted from them, is the one the Python
loop gives for the same seed. They apply to the engine's own Palaces and seats the kernel plays (``applies``), with
no end of the question's own or the first palace's (the kernel's ``first_palace``).

The generator is drawn ahead (by ``Outputs.BLOCK`` outputs): after these loops it has gone further than
the Python loop would have. Both callers own their generator and draw nothing else from it.
"""

from __future__ import annotations

import numpy as np

from toolkit.fast.rng import Outputs
from toolkit.games.palaces.engine import _encode_game, first_palace_complete
from toolkit.games.palaces.policies import _Seeded, _encode_policies, supports

ROWS = 1 << 8  # chance points a sampled game's keys have room for at first (four times more when full)


def applies(game, seats, done) -> bool:
    """Do ``sample_game`` and ``sample_keys`` play these seats' games, with this end?"""
    return (done is None or done is first_palace_complete) and supports(game, list(seats))


class _Sampler:
    """A game's and its seats' numbers for the kernel, and the generator's outputs."""

    def __init__(self, game, seats, rng):
        from toolkit.games.palaces import kernel

        self.kernel = kernel.compiled()
        self.seats = list(seats)
        self.g = np.asarray(_encode_game(game))
        self.pol, _ = _encode_policies(self.seats)
        self.s = np.zeros(self.g[kernel.S_SIZE], dtype=np.int64)
        self.outputs = Outputs(rng)
        # the seats' streams, as each seeded rule holds them now (a policy keeps its own from game to game)
        self.r = np.zeros(1 + 2 * len(self.seats), dtype=np.uint64)
        for p, seat in enumerate(self.seats):
            for k, rule in enumerate((seat.play, seat.give)):
                if isinstance(rule, _Seeded):
                    self.r[1 + 2 * p + k] = rule.stream(p)

    def keep_streams(self) -> None:
        """Hand the streams back to the seeded rules, as their own play would have left them."""
        for p, seat in enumerate(self.seats):
            for k, rule in enumerate((seat.play, seat.give)):
                if isinstance(rule, _Seeded):
                    rule.streams[p] = int(self.r[1 + 2 * p + k])


def game_player(game, seats, done, rng, max_turns: int):
    """``simulate_until``'s game (``runner.play(game.new_initial_state(), seats, rng, max_turns, stop=done)``)
    as a function of nothing: (its turns, whether ``done`` holds at its end; None when a decision passed
    ``max_turns`` turns, ``GameDidNotEnd``). ``done``: the first palace's."""
    if done is None or not applies(game, seats, done):
        raise ValueError("the compiled sampler does not play this game, these seats or this end")
    sampler = _Sampler(game, seats, rng)
    k, g, s, pol, outputs = sampler.kernel, sampler.g, sampler.s, sampler.pol, sampler.outputs
    limit = np.int64(max_turns)

    def play() -> tuple[int, bool | None]:
        while True:
            r = sampler.r.copy()  # a game played again after more outputs starts from the same streams
            reached, at = k.sample_game(g, s, r, pol, outputs.words, np.int64(0), np.bool_(True), limit)
            if reached != k.NO_WORDS:
                break
            outputs.more()
        outputs.used(at)
        sampler.r = r
        sampler.keep_streams()
        turns = int(s[k.S_TURNS])
        return turns, None if reached == k.TOO_LONG else bool(k.first_palace(g, s))

    return play


def sampled_games(start, policies, rng, done):
    """``walker.sampled_game(start, policies, rng, key_of, done)`` as a function of nothing: each call a
    game's chance points, in order, each as bytes that are equal exactly where the state's keys are (the
    kernel's ``key_vector``). A game abandoned after some chance point has drawn from the generator only
    up to it, as the Python game has; one whose decisions never reach a chance point just ends (the
    estimate counts a ``_Loop`` so)."""
    from toolkit.walk.walker import MAX_DECISIONS

    sampler = _Sampler(start.game, policies, rng)
    k, g, s, pol, outputs = sampler.kernel, sampler.g, sampler.s, sampler.pol, sampler.outputs
    first = np.array(start.s, dtype=np.int64)
    size = k.vector_at(len(start.game.names), start.game.players, int(g[k.G_SLOTS]))["key_size"]
    v = np.zeros(size, dtype=np.int64)
    room = [np.zeros((ROWS, size), dtype=np.int64), np.zeros(ROWS, dtype=np.int64)]
    until_first, decisions = np.bool_(done is not None), np.int64(MAX_DECISIONS)

    def game():
        while True:
            keys, before = room
            reached, n, at = k.sample_keys(g, first, s, sampler.r, pol, outputs.words, np.int64(0), until_first,
                                           decisions, v, keys, before)
            if reached == k.NO_WORDS:
                outputs.more()
            elif reached == k.NO_ROOM:
                room[:] = [np.zeros((4 * len(before), size), dtype=np.int64), np.zeros(4 * len(before), dtype=np.int64)]
            else:
                break
        reached_to = at
        try:
            for j in range(n):
                reached_to = before[j]  # where this point's draw starts: all drawn so far, if stopped here
                yield keys[j].tobytes()
            reached_to = at
        finally:
            outputs.used(reached_to)

    return game
