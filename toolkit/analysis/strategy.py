"""Which policy wins most: a search per seat and player count, and a two-player round-robin.

The search, for each player count and each seat, the other seats keeping the default policy:

1. screen: every candidate plays the same ``games_for(4 x precision)`` card orders; for Diamoniak
   the candidates are the stopping rules stop-after-K, risk-H, odds-P and stop-on-castle, then the
   combinations (stop as soon as any part says stop) of the best screened rule of each kind;
2. refine: the best ``REFINED`` of the screen play on, each beside the default on the same card
   orders, until the gain (the candidate's win rate at that seat minus the default's, a paired
   difference) is known to plus or minus ``precision``.

The default is beaten at a seat when the best refined gain's 95% interval lies above 0.

The tournament: every pair of named policies plays two-player games, each policy once in each seat,
on ``games_for(precision) / 2`` card orders per seating; a cell is the row policy's share of wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from toolkit.analysis.analyse import CHUNK, MAX_TURNS, games_for, run_seed
from toolkit.sim.records import play_records
from toolkit.sim.stats import Z95, wilson

REFINED = 2  # screened candidates refined per seat


def diamoniak_singles(witch_takes: int) -> list[str]:
    """The single stopping rules searched; risk-H with H >= what a witch takes never stops (it is the
    default's until-witch), so H stops below it."""
    return ([f"stop-after-{k}" for k in range(1, 9)] + [f"risk-{h}" for h in range(0, min(6, witch_takes))]
            + [f"odds-{p}" for p in range(5, 65, 5)] + ["stop-on-castle"])



DIAMONIAK_KINDS = ("stop-after", "risk", "odds")
DIAMONIAK_NAMED = ("until-witch", "stop-on-castle", "stop-after-2", "stop-after-4", "risk-1", "risk-2",
                   "odds-15", "odds-30")
PALACES_CANDIDATES = tuple(f"{play},{give}" for play in ("builder", "no-attack", "aggressive", "random")
                           for give in ("give-worst", "give-random"))
PALACES_NAMED = ("builder", "no-attack", "aggressive", "random", "builder,give-random")
DEFAULT_NAME = {"diamoniak": "until-witch", "palaces": "builder,give-worst"}


@dataclass
class Gain:
    """A candidate beside the default at one seat, on the same card orders."""

    policy: str
    games: int
    wins: int  # the candidate's wins at the seat
    default_wins: int  # the default's wins at the seat, same games
    diff_squares: int  # sum over games of (candidate won - default won)^2

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def default_rate(self) -> float:
        return self.default_wins / self.games

    @property
    def gain(self) -> float:
        return (self.wins - self.default_wins) / self.games

    def gain_half_width(self) -> float:
        n, total = self.games, self.wins - self.default_wins
        if n < 2:
            return 1.0
        variance = (self.diff_squares * n - total * total) / (n * (n - 1))
        return Z95 * math.sqrt(max(0.0, variance) / n)

    def as_json(self) -> dict:
        half = self.gain_half_width()
        low, high = wilson(self.wins, self.games)
        return {"policy": self.policy, "games": self.games, "win_rate": self.win_rate, "win_rate_low": low,
                "win_rate_high": high, "default_win_rate": self.default_rate, "gain": self.gain,
                "gain_low": self.gain - half, "gain_high": self.gain + half}


def _seat_wins(game, policies, seed: int, seat: int, start: int, stop: int, tick):
    """Per chunk of games ``start .. stop-1``: an array, 1 where seat ``seat`` (from 0) won."""
    for first in range(start, stop, CHUNK):
        count = min(CHUNK, stop - first)
        yield (play_records(game, policies, seed, first, count, MAX_TURNS)["winner"] == seat).astype(np.int64)
        if tick:
            tick(count)


def _screen(game, parse, seats, seat: int, names, seed: int, games: int, tick) -> dict[str, int]:
    """Wins at ``seat`` of each candidate in games 0..games-1."""
    wins = {}
    for name in names:
        policies = list(seats)
        policies[seat] = parse(name)
        wins[name] = sum(int(chunk.sum()) for chunk in _seat_wins(game, policies, seed, seat, 0, games, tick))
    return wins


def _refine(game, parse, seats, seat: int, name: str, seed: int, precision: float, max_games: int, tick) -> Gain:
    """Play a candidate beside the default until the paired gain is within ``precision``; a chunk at a
    time, so memory stays flat."""
    policies = list(seats)
    policies[seat] = parse(name)
    result = Gain(name, 0, 0, 0, 0)
    target = min(max_games, games_for(2 * precision))
    while True:
        pairs = zip(_seat_wins(game, policies, seed, seat, result.games, target, tick),
                    _seat_wins(game, seats, seed, seat, result.games, target, tick))
        for mine, theirs in pairs:
            result.wins += int(mine.sum())
            result.default_wins += int(theirs.sum())
            result.diff_squares += int(((mine - theirs) ** 2).sum())
        result.games = target
        half = result.gain_half_width()
        if half <= precision or result.games >= max_games:
            return result
        need = math.ceil(result.games * (half / precision) ** 2 * 1.1)
        target = min(max_games, max(result.games + 100, -(-need // 100) * 100))


def _combinations(best: dict[str, str]) -> list[str]:
    """The combined stopping rules of the best rule of each kind: every pair and the triple."""
    kinds = [best[kind] for kind in DIAMONIAK_KINDS if kind in best]
    out = []
    for i in range(len(kinds)):
        for j in range(i + 1, len(kinds)):
            out.append(f"{kinds[i]},{kinds[j]}")
    if len(kinds) == 3:
        out.append(",".join(kinds))
    return out


def _kind(name: str) -> str:
    return name.rsplit("-", 1)[0] if name[-1].isdigit() else name


def search(catalogue, counts: list[int], variants, seed: int, precision: float, max_games: int, tick=None) -> list[dict]:
    """The best policy per player count and seat against default players (see the module's text)."""
    from toolkit.games.registry import make_game, policy_module

    parse = policy_module(catalogue.game).parse
    screen_games = max(100, games_for(4 * precision))
    rows = []
    for players in counts:
        if players < 2:
            continue
        game = make_game(catalogue, players, variants)
        seats = [parse("default") for _ in range(players)]
        seed_n = run_seed(seed, players)
        for seat in range(players):
            if catalogue.game == "diamoniak":
                singles = diamoniak_singles(catalogue.rules["witch_takes"])
                wins = _screen(game, parse, seats, seat, singles, seed_n, screen_games, tick)
                best: dict[str, str] = {}
                for name in singles:  # first of the list wins a tie: deterministic
                    kind = _kind(name)
                    if kind in DIAMONIAK_KINDS and (kind not in best or wins[name] > wins[best[kind]]):
                        best[kind] = name
                wins.update(_screen(game, parse, seats, seat, _combinations(best), seed_n, screen_games, tick))
            else:
                names = [name for name in PALACES_CANDIDATES if name != DEFAULT_NAME["palaces"]]
                wins = _screen(game, parse, seats, seat, names, seed_n, screen_games, tick)
            ranked = sorted(wins, key=lambda name: -wins[name])[:REFINED]  # stable: list order breaks ties
            refined = [_refine(game, parse, seats, seat, name, seed_n, precision, max_games, tick) for name in ranked]
            top = max(refined, key=lambda g: g.gain)
            half = top.gain_half_width()
            rows.append({"players": players, "seat": seat + 1, "screened": len(wins), "screen_games": screen_games,
                         "best": top.as_json(), "refined": [g.as_json() for g in refined],
                         "beaten": top.gain - half > 0})
    return rows


def tournament(catalogue, variants, seed: int, precision: float, extra: tuple[str, ...] = (), tick=None) -> dict:
    """Two-player round-robin of the named policies (and ``extra`` ones): each cell the row's share of
    wins against the column, over both seatings."""
    from toolkit.games.registry import make_game, policy_module

    parse = policy_module(catalogue.game).parse
    named, seen = [], set()
    for name in (*(DIAMONIAK_NAMED if catalogue.game == "diamoniak" else PALACES_NAMED), *extra):
        if parse(name).name not in seen:  # "aggressive" and "aggressive,give-worst" are one policy
            seen.add(parse(name).name)
            named.append(name)
    game = make_game(catalogue, 2, variants)
    seed_2 = run_seed(seed, 2)
    per_seating = seating_games(precision)
    wins = {(a, b): 0 for a in named for b in named if a != b}
    for a in named:
        for b in named:
            if a == b:
                continue
            policies = [parse(a), parse(b)]
            winners = np.concatenate([play_records(game, policies, seed_2, first, min(CHUNK, per_seating - first),
                                                   MAX_TURNS)["winner"] for first in range(0, per_seating, CHUNK)])
            if tick:
                tick(per_seating)
            wins[(a, b)] += int((winners == 0).sum())
            wins[(b, a)] += int((winners == 1).sum())
    games = 2 * per_seating
    table = {a: {b: (wins[(a, b)] / games if a != b else None) for b in named} for a in named}
    overall = {a: sum(wins[(a, b)] for b in named if b != a) / (games * (len(named) - 1)) for a in named}
    return {"policies": named, "games_per_pair": games, "table": table, "overall": overall,
            "half_width": max(_half(wins[key], games) for key in wins)}


def seating_games(precision: float) -> int:
    """Games of a two-player pairing in one seating: both seatings together give a share to ±precision."""
    return max(50, math.ceil(games_for(precision) / 2))


def _half(hits: int, trials: int) -> float:
    low, high = wilson(hits, trials)
    return (high - low) / 2


def work_estimate(game_id: str, counts: list[int], precision: float) -> int:
    """About how many games the search and the tournament play (for the progress bar)."""
    seats = sum(n for n in counts if n >= 2)
    screen = max(100, games_for(4 * precision))
    per_seat = (len(diamoniak_singles(6)) + 4 if game_id == "diamoniak" else len(PALACES_CANDIDATES) - 1) * screen
    refine = REFINED * 2 * games_for(2 * precision) * 2
    named = len(DIAMONIAK_NAMED if game_id == "diamoniak" else PALACES_NAMED) + 1
    return seats * (per_seat + refine) + named * (named - 1) * seating_games(precision)
