"""Statistics of a batch of simulated games: length in rounds, its error and interval, win rates."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal law


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """A 95% interval for a proportion (Wilson's score interval: sound near 0 and 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Summary:
    game: str
    players: int
    policies: tuple[str, ...]
    variants: tuple[str, ...]
    seed: int
    games: int
    unfinished: int  # games that could not end (no winner possible, or past the safety limit)
    mean: float | None
    stderr: float | None
    ci95: tuple[float, float] | None
    median: float | None
    percentiles: dict[str, int]
    win_rate: tuple[float, ...]
    win_ci: tuple[tuple[float, float], ...]
    per_game: dict[str, float]  # mean of each counter per game
    at_least_once: dict[str, float]  # share of games in which the counter was >= 1

    def as_json(self) -> dict:
        return {
            "game": self.game,
            "players": self.players,
            "policies": list(self.policies),
            "variants": list(self.variants),
            "seed": self.seed,
            "games": self.games,
            "unfinished": self.unfinished,
            "mean_turns": self.mean,
            "stderr_turns": self.stderr,
            "ci95_turns": list(self.ci95) if self.ci95 else None,
            "median_turns": self.median,
            "percentiles": self.percentiles,
            "win_rate": list(self.win_rate),
            "win_rate_ci95": [list(ci) for ci in self.win_ci],
            "per_game": self.per_game,
            "at_least_once": self.at_least_once,
        }


def summarise(*, game: str, players: int, policies, variants, seed: int, rounds: np.ndarray,
              winners: np.ndarray, counters: dict[str, np.ndarray]) -> Summary:
    """``rounds[i]`` is game i's length in rounds (0 if it did not end), ``winners[i]`` its winning seat (-1: none)."""
    games = int(rounds.size)
    done = rounds[rounds > 0].astype(float)
    if done.size:
        mean = float(done.mean())
        stderr = float(done.std(ddof=1) / math.sqrt(done.size)) if done.size > 1 else 0.0
        ci95 = (mean - Z95 * stderr, mean + Z95 * stderr)
        median = float(np.median(done))
        percentiles = {str(q): int(np.percentile(done, q, method="inverted_cdf")) for q in (10, 25, 50, 75, 90, 99)}
    else:
        mean = stderr = ci95 = median = None
        percentiles = {}
    wins = [int((winners == seat).sum()) for seat in range(players)]
    return Summary(
        game=game,
        players=players,
        policies=tuple(policies),
        variants=tuple(variants),
        seed=seed,
        games=games,
        unfinished=games - int(done.size),
        mean=mean,
        stderr=stderr,
        ci95=ci95,
        median=median,
        percentiles=percentiles,
        win_rate=tuple(w / games for w in wins),
        win_ci=tuple(wilson(w, games) for w in wins),
        per_game={name: float(values.mean()) for name, values in counters.items()},
        at_least_once={name: float((values > 0).mean()) for name, values in counters.items()},
    )
