"""Statistics of a batch of simulated games: length (in the game's unit), its error and interval, win rates.

Games are added batch by batch to a ``Tally`` of whole-number counts (a histogram of lengths, wins,
counter totals), so a run of any number of games takes the same memory, and every figure comes
from exact integer sums: the same games give the same figures however they were batched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal law
PERCENTILES = (10, 25, 50, 75, 90, 99)


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """A 95% interval for a proportion (Wilson's score interval: sound near 0 and 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _merge_hist(mine: np.ndarray, other: np.ndarray) -> np.ndarray:
    size = max(mine.size, other.size)
    out = np.zeros(size, dtype=np.int64)
    out[: mine.size] += mine
    out[: other.size] += other
    return out


class Moments:
    """Count, sum and sum of squares of whole numbers, as exact Python integers."""

    __slots__ = ("n", "total", "squares")

    def __init__(self):
        self.n = self.total = self.squares = 0

    def add(self, values: np.ndarray) -> None:
        values = values.astype(np.int64)
        self.n += int(values.size)
        self.total += int(values.sum())
        self.squares += int(np.dot(values.astype(object), values.astype(object))) if values.size else 0

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    def stderr(self) -> float | None:
        """The standard error of the mean (sample variance with n - 1), None below two values."""
        if self.n < 2:
            return None
        variance = Fraction(self.squares * self.n - self.total * self.total, self.n * (self.n - 1))
        return math.sqrt(variance / self.n)

    def half_width(self) -> float | None:
        """1.96 standard errors of the mean, None below two values."""
        stderr = self.stderr()
        return None if stderr is None else Z95 * stderr


class Histogram:
    """How many values were 0, 1, 2, ...: exact means, standard errors and percentiles of whole numbers."""

    def __init__(self):
        self.counts = np.zeros(1, dtype=np.int64)

    def add(self, values: np.ndarray) -> None:
        if values.size:
            self.counts = _merge_hist(self.counts, np.bincount(values.astype(np.int64)))

    def merge(self, other: "Histogram") -> None:
        self.counts = _merge_hist(self.counts, other.counts)

    def moments(self) -> Moments:
        m = Moments()
        values = np.arange(self.counts.size, dtype=object)
        m.n = int(self.counts.sum())
        m.total = int((values * self.counts).sum())
        m.squares = int((values * values * self.counts).sum())
        return m

    def at_rank(self, rank: int) -> int:
        """The rank-th smallest value, rank from 1."""
        return int(np.searchsorted(np.cumsum(self.counts), rank))

    def percentiles(self) -> dict[str, int]:
        """numpy's "inverted_cdf": the smallest value whose share of the values reaches q%."""
        n = int(self.counts.sum())
        return {str(q): self.at_rank(max(1, -(-n * q // 100))) for q in PERCENTILES} if n else {}

    def median(self) -> float | None:
        n = int(self.counts.sum())
        return (self.at_rank(n // 2 + 1) + self.at_rank((n + 1) // 2)) / 2 if n else None



@dataclass(frozen=True)
class Summary:
    game: str
    players: int
    policies: tuple[str, ...]
    variants: tuple[str, ...] | None  # None: the game has no named variants (the JSON has no "variants")
    seed: int
    games: int
    unfinished: int  # games that did not end: stalled, or past the turn limit
    mean: float | None  # over the games that ended only
    stderr: float | None
    ci95: tuple[float, float] | None
    median: float | None
    percentiles: dict[str, int]
    win_rate: tuple[float, ...]
    win_ci: tuple[tuple[float, float], ...]
    per_game: dict[str, float]  # mean of each counter per game
    at_least_once: dict[str, float]  # share of games in which the counter was >= 1
    stalled: int = 0  # games that reached a point where nobody can win any more: they can never end
    turn_limit: int | None = None  # a game still going after this many turns was stopped (None: every game ends)
    lengths: tuple[int, ...] = ()  # lengths[r]: games that ended after r units of length (index 0 unused)
    counts: dict[str, int] | None = None  # games in which each counter was >= 1
    unit: str = "rounds"  # what the lengths count (the game's length unit): every length key is named by it
    title: str = ""  # what the text calls the game ("": its id, ``game``)
    about: dict = field(default_factory=dict)  # what the game adds to the JSON after the figures (its spec, draws...)

    @property
    def over_limit(self) -> int:
        """Games stopped at the turn limit: still going, maybe only long."""
        return self.unfinished - self.stalled

    def as_json(self) -> dict:
        """The figures as one JSON object; a game with no turn limit (every game ends) has no keys of the
        games that did not, and one where no seat decided no ``policies``."""
        out = {
            "game": self.game,
            "players": self.players,
            "policies": list(self.policies),
            "variants": list(self.variants or ()),
            "seed": self.seed,
            "games": self.games,
            "unfinished": self.unfinished,
            "stalled": self.stalled,
            "turn_limit": self.turn_limit,
            "length_unit": self.unit,
            f"mean_{self.unit}": self.mean,
            f"stderr_{self.unit}": self.stderr,
            f"ci95_{self.unit}": list(self.ci95) if self.ci95 else None,
            f"median_{self.unit}": self.median,
            "percentiles": self.percentiles,
            "win_rate": list(self.win_rate),
            "win_rate_ci95": [list(ci) for ci in self.win_ci],
            "per_game": self.per_game,
            "at_least_once": self.at_least_once,
            **self.about,
        }
        left_out = ((("variants",) if self.variants is None else ())
                    + (("unfinished", "stalled", "turn_limit") if self.turn_limit is None else ())
                    + (("policies",) if self.about.get("decisions") is False else ()))
        return {name: value for name, value in out.items() if name not in left_out}


class Tally:
    """Whole-number totals of the games seen so far; ``add`` a batch, ``summary`` at the end."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.stalled = 0
        self.lengths = Histogram()  # of the lengths of the games that ended
        self.wins = [0] * players
        self.sums: dict[str, int] = {}
        self.positive: dict[str, int] = {}

    def add(self, rounds: np.ndarray, winners: np.ndarray, counters: dict[str, np.ndarray],
            stalled: np.ndarray | None = None) -> None:
        """One batch: ``rounds[i]`` is game i's length (0 if it did not end), ``winners[i]`` its winning
        seat (-1: none), ``stalled[i]`` True if it can never end."""
        self.games += int(rounds.size)
        self.lengths.add(rounds[rounds > 0])
        for seat in range(self.players):
            self.wins[seat] += int((winners == seat).sum())
        for name, values in counters.items():
            self.sums[name] = self.sums.get(name, 0) + int(np.asarray(values, dtype=np.int64).sum())
            self.positive[name] = self.positive.get(name, 0) + int((np.asarray(values) > 0).sum())
        if stalled is not None:
            self.stalled += int(np.count_nonzero(stalled))

    def summary(self, *, game: str, policies, variants, seed: int, unit: str, turn_limit: int | None = None,
                **words) -> Summary:
        """The figures so far; ``unit`` is what the lengths given to ``add`` count (turns, rounds, steps);
        ``words``: the summary's ``title`` and ``about``, what its report says of the game."""
        games, lengths = self.games, self.lengths.counts
        moments = self.lengths.moments()
        done = moments.n
        mean = stderr = ci95 = None
        if done:
            mean = moments.mean()
            stderr = moments.stderr() if done > 1 else 0.0
            ci95 = (mean - Z95 * stderr, mean + Z95 * stderr)
        return Summary(
            game=game,
            players=self.players,
            policies=tuple(policies),
            variants=None if variants is None else tuple(variants),
            seed=seed,
            games=games,
            unfinished=games - done,
            mean=mean,
            stderr=stderr,
            ci95=ci95,
            median=self.lengths.median(),
            percentiles=self.lengths.percentiles(),
            win_rate=tuple(w / games for w in self.wins) if games else (0.0,) * self.players,
            win_ci=tuple(wilson(w, games) for w in self.wins),
            per_game={name: total / games for name, total in self.sums.items()} if games else {},
            at_least_once={name: n / games for name, n in self.positive.items()} if games else {},
            stalled=self.stalled,
            turn_limit=turn_limit,
            lengths=tuple(int(n) for n in lengths),
            counts=dict(self.positive),
            unit=unit,
            **words,
        )
