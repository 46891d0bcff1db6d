"""The balance figures of many games of one configuration, from running whole-number totals.

An ``Accumulator`` takes the per-game record arrays of ``toolkit.sim.records.play_records`` batch
by batch and keeps only histograms and exact integer sums, so its memory does not grow with the
number of games, two accumulators ``merge`` into the one of all their games, and the figures do not
depend on how the games were batched or merged.

Every figure has a 95% interval: Wilson's score interval for a share of games, and the normal
interval (mean plus or minus 1.96 standard errors, from exact sums of squares) for a mean. Balance
and the first-player advantage are both read from the seats' shares of the won games (the games
that ended with a winner), so a deck whose games rarely end is judged by the games it decides;
completion says beside them how many those are. Balance's interval is the range of gaps the seats'
own 95% intervals allow (for two seats exactly the 95% interval of the gap).
``METRICS`` says what each figure means; ``half_width(name)`` is what the precision rule reads.
A comeback is a won game whose winner once trailed the highest score by the game's own threshold
(``Game.comeback_points``, in its points) or more; without a threshold there is no comeback figure.
"""

from __future__ import annotations

import numpy as np

from toolkit.sim.play import FIELDS
from toolkit.sim.stats import Histogram, Moments, wilson

METRICS = {
    "games": "games played",
    "completion": "share of games that ended with a winner",
    "stall_rate": "share of games that reached a point where nobody can win any more (they never end)",
    "over_limit_rate": "share of games still going at the turn limit (stopped there)",
    "mean_turns": "mean length in turns of the games that ended",
    "mean_rounds": "mean length in rounds (turns / players, rounded up) of the games that ended",
    "median_rounds": "median length in rounds of the games that ended",
    "win_rate_1": "share of all games won by seat 1",
    "win_rate_2": "share of all games won by seat 2",
    "win_rate_3": "share of all games won by seat 3",
    "win_rate_4": "share of all games won by seat 4",
    "first_player_advantage": "seat 1's share of the won games (the games that had a winner), minus a fair share "
                              "(1 / players)",
    "balance": "1 minus the largest gap between two seats' shares of the won games (1: all seats equal; "
               "its interval: the gaps the seats' 95% intervals allow)",
    "lead_changes": "times per game the leader changed (the leader: the one seat with the highest score)",
    "comeback_rate": "share of the won games whose winner once trailed the leader by the game's comeback "
                     "threshold or more (no threshold: none)",
}

SHARES = ("completion", "stall_rate", "over_limit_rate", "win_rate_1", "win_rate_2", "win_rate_3", "win_rate_4",
          "first_player_advantage", "comeback_rate")
MEANS = ("mean_turns", "mean_rounds", "lead_changes")


class Accumulator:
    """The running totals of the games of one configuration with ``players`` seats; ``comeback`` is the
    game's comeback threshold in points (None: no comeback figure)."""

    def __init__(self, players: int, comeback: int | None = None):
        if not 1 <= players <= 4:
            raise ValueError(f"players {players}: 1 to 4")
        self.players = players
        self.comeback = comeback
        self.games = 0
        self.wins = [0] * players
        self.stalled = 0
        self.comebacks = 0
        self.turns = Histogram()  # of the games that ended with a winner
        self.rounds = Histogram()
        self.lead_changes = Moments()
        self.counters: dict[str, Moments] = {}
        self.decisions: int | None = None  # the times a seat was to decide, where the records count them

    def add(self, records: dict[str, np.ndarray]) -> None:
        """One batch of games: the dict of int64 arrays ``play_records`` returns."""
        winner = np.asarray(records["winner"])
        won = winner >= 0
        turns = np.asarray(records["turns"])[won]
        self.games += int(winner.size)
        for seat in range(self.players):
            self.wins[seat] += int(np.count_nonzero(winner == seat))
        self.stalled += int(np.count_nonzero(records["stalled"]))
        if self.comeback is not None:
            self.comebacks += int(np.count_nonzero(np.asarray(records["winner_deficit"])[won] >= self.comeback))
        self.turns.add(turns)
        self.rounds.add((turns + self.players - 1) // self.players)
        # a game stopped at the turn limit has counts of the limit, not of a game: left out, as its length
        ended = won | (np.asarray(records["stalled"]) > 0)
        self.lead_changes.add(np.asarray(records["lead_changes"])[ended])
        if "decisions" in records:
            self.decisions = (self.decisions or 0) + int(np.asarray(records["decisions"]).sum())
        for name, values in records.items():
            if name not in FIELDS:
                self.counters.setdefault(name, Moments()).add(np.asarray(values)[ended])

    def merge(self, other: "Accumulator") -> None:
        """Add the games of ``other`` (same configuration) to these."""
        if other.players != self.players:
            raise ValueError(f"cannot merge {other.players}-player totals into {self.players}-player ones")
        if other.comeback != self.comeback:
            raise ValueError(f"cannot merge totals of comebacks from {other.comeback} into ones from {self.comeback}")
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.stalled += other.stalled
        self.comebacks += other.comebacks
        self.turns.merge(other.turns)
        self.rounds.merge(other.rounds)
        self.lead_changes.merge(other.lead_changes)
        if other.decisions is not None:
            self.decisions = (self.decisions or 0) + other.decisions
        for name, moments in other.counters.items():
            self.counters.setdefault(name, Moments()).merge(moments)

    # --- the figures ---------------------------------------------------------------------------------

    @property
    def won(self) -> int:
        return sum(self.wins)

    def _share(self, name: str) -> tuple[int, int] | None:
        """(successes, trials) of a share-of-games figure, None where the figure does not exist."""
        if name == "completion":
            return self.won, self.games
        if name == "stall_rate":
            return self.stalled, self.games
        if name == "over_limit_rate":
            return self.games - self.won - self.stalled, self.games
        if name.startswith("win_rate_"):
            seat = int(name.rsplit("_", 1)[1])
            return (self.wins[seat - 1], self.games) if seat <= self.players else None
        if name == "first_player_advantage":
            return (self.wins[0], self.won) if self.players > 1 else None
        if name == "comeback_rate":
            return (self.comebacks, self.won) if self.comeback is not None else None
        return None

    def _moments(self, name: str) -> Moments | None:
        if name == "mean_turns":
            return self.turns.moments()
        if name == "mean_rounds":
            return self.rounds.moments()
        if name == "lead_changes":
            return self.lead_changes
        if name.endswith("_per_game") and name[: -len("_per_game")] in self.counters:
            return self.counters[name[: -len("_per_game")]]
        return None

    def interval(self, name: str) -> tuple[float, float] | None:
        """The 95% interval of a figure, None where it has none (yet)."""
        share = self._share(name)
        if share is not None:
            hits, trials = share
            if trials == 0:
                return None
            low, high = wilson(hits, trials)
            low, high = (0.0 if hits == 0 else low), (1.0 if hits == trials else high)  # no rounding dust
            if name == "first_player_advantage":
                return low - 1 / self.players, high - 1 / self.players
            return low, high
        if name == "balance":
            bounds = self._balance_bounds()
            return None if bounds is None else (max(0.0, bounds[0]), min(1.0, bounds[1]))
        moments = self._moments(name)
        if moments is not None:
            mean, half = moments.mean(), moments.half_width()
            return None if half is None else (mean - half, mean + half)
        return None

    def half_width(self, name: str) -> float | None:
        """Half the width of the 95% interval of a figure (None: no interval yet); for balance half the
        width before the interval is cut to 0 .. 1."""
        if name == "balance":
            bounds = self._balance_bounds()
            return None if bounds is None else (bounds[1] - bounds[0]) / 2
        interval = self.interval(name)
        return None if interval is None else (interval[1] - interval[0]) / 2

    def _won_share_interval(self, seat: int) -> tuple[float, float]:
        """The 95% (Wilson) interval of seat ``seat``'s (from 0) share of the won games."""
        hits, trials = self.wins[seat], self.won
        low, high = wilson(hits, trials)
        return (0.0 if hits == 0 else low), (1.0 if hits == trials else high)

    def _balance(self) -> float | None:
        """1 minus the largest gap of two seats' shares of the won games (None: no game was won)."""
        if self.won == 0:
            return None
        if self.players == 1:
            return 1.0
        return 1 - (max(self.wins) - min(self.wins)) / self.won

    def _balance_bounds(self) -> tuple[float, float] | None:
        """Balance's interval before it is cut to 0 .. 1: 1 minus the largest and the smallest gap the
        seats' 95% intervals allow (the top of one seat's interval against the bottom of another's)."""
        if self.won == 0:
            return None
        if self.players == 1:
            return 1.0, 1.0
        intervals = [self._won_share_interval(seat) for seat in range(self.players)]
        widest = max(high for _, high in intervals) - min(low for low, _ in intervals)
        narrowest = max(low for low, _ in intervals) - min(high for _, high in intervals)
        return 1 - widest, 1 - narrowest

    def metrics(self) -> dict[str, float | None]:
        """Every figure by name (``METRICS`` plus ``<counter>_per_game``), and for each figure with an
        interval its bounds as ``<name>_low`` and ``<name>_high``. None: the figure does not exist
        here (a seat the game does not have, a length when no game ended)."""
        out: dict[str, float | None] = {"games": self.games}
        for name in SHARES:
            share = self._share(name)
            value = None if share is None or share[1] == 0 else share[0] / share[1]
            if name == "first_player_advantage" and value is not None:
                value -= 1 / self.players
            out[name] = value
        for name in MEANS:
            out[name] = self._moments(name).mean()
        out["median_rounds"] = self.rounds.median()
        out["balance"] = self._balance()
        for name in self.counters:
            out[f"{name}_per_game"] = self.counters[name].mean()
        for name in list(out):
            if name == "games" or name == "median_rounds":
                continue
            interval = self.interval(name) if out[name] is not None else None
            out[f"{name}_low"] = None if interval is None else interval[0]
            out[f"{name}_high"] = None if interval is None else interval[1]
        return out

    def percentiles(self, unit: str = "rounds") -> dict[str, int]:
        """Length percentiles (``unit`` "turns" or "rounds") of the games that ended."""
        return (self.rounds if unit == "rounds" else self.turns).percentiles()

    def length_counts(self, unit: str = "rounds") -> list[int]:
        """``counts[r]``: games that ended after r rounds (or turns)."""
        return [int(n) for n in (self.rounds if unit == "rounds" else self.turns).counts]


def describe(name: str, game=None) -> str:
    """The one-line meaning of a figure name of ``Accumulator.metrics``; the comeback figure's says the
    threshold of ``game`` (a ``toolkit.games.game.Game``), where it has one."""
    if name == "comeback_rate" and game is not None and game.comeback_points is not None:
        unit = game.comeback_unit("en")
        return (f"share of the won games whose winner once trailed the leader by {game.comeback_points} or more"
                + (f" {unit}" if unit else ""))
    if name in METRICS:
        return METRICS[name]
    for suffix, what in (("_low", "lower"), ("_high", "upper")):
        if name.endswith(suffix):
            return f"{what} end of the 95% interval of {name[: -len(suffix)]}"
    if name.endswith("_per_game"):
        return f"mean {name[: -len('_per_game')].replace('_', ' ')} per game"
    raise KeyError(name)
