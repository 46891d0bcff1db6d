"""Which policy wins most: a search per seat and player count, and a two-player round-robin.

The search, for each player count and each seat, the other seats keeping the default policy:

1. screen: every candidate plays the same ``games_for(4 x precision)`` card orders; the game says
   which (its ``Strategy``: a list of candidates, or a search of its own over numbered rules, whose
   ranges are reported as ``searched``, e.g. each value on a coarse grid, then every value between the
   best grid value's neighbours: ``coarse_grid``, ``neighbours``); in a list, a candidate plainly
   behind two others after a quarter of the games stops there;
2. refine: the best ``REFINED`` of the screen race on, each beside the default on the same card
   orders, until the gain (the candidate's win rate at that seat minus the default's, a paired
   difference) is known to plus or minus ``precision``, or until it cannot beat another of them by
   more than ``precision`` (on the games both played, the 95% upper bound of its paired difference
   with the other is below ``precision``): two candidates that close are as strong to the precision
   asked, only the strongest is reported, and the one behind keeps its wider interval.

The default is beaten at a seat when the best refined gain's 95% interval lies above 0; only then
is the challenger the best way to play, otherwise the default is, and the challenger is reported as
the strongest one with its gain (which may be below 0). A best value at an end of its searched range
is reported (``edges``).

The tournament: every pair of named policies plays two-player games, each policy once in each seat,
on the same card orders per seating, in stages until both shares are known to plus or minus
``precision``: at most ``games_for(precision) / 2`` a seating, fewer for a share far from one half; a
cell is the row policy's share of wins, ``overall`` the mean of a row's cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from toolkit.analysis.analyse import CHUNK, Played, games_for, run_seed
from toolkit.sim.stats import Z95, wilson

REFINED = 2  # screened candidates refined per seat


_GRID = (*range(1, 9), 10, 12, 15, *range(20, 100, 5), *range(100, 1001, 25))


def coarse_grid(low: int, high: int) -> list[int]:
    """The first screen's values in ``low .. high``: every value near the start, then sparser, and
    both ends."""
    return sorted({low, high, *(low - 1 + v for v in _GRID if low - 1 + v <= high)})


def neighbours(grid: list[int], best: int) -> list[int]:
    """The values strictly between ``best``'s neighbours in ``grid`` that the grid does not hold."""
    i = grid.index(best)
    low = grid[i - 1] if i > 0 else best
    high = grid[i + 1] if i + 1 < len(grid) else best
    return [v for v in range(low + 1, high) if v not in grid]


class Strategy:
    """What the search and the tournament try for one game. A game's package gives its own
    (``STRATEGY`` of what its ``Game.strategy()`` gives); a game without one has only its
    default policy: nothing to search, no tournament."""

    default = "default"  # the policy the other seats play, by the name the report describes
    candidates: tuple[str, ...] = ()  # what the screen tries at a seat (the default left out)
    named: tuple[str, ...] = ()  # the policies of the two-player tournament
    # The words of the report for each rule a policy name is made of (lang -> rule -> words; a numbered
    # rule's words take {n} and {cards}; "" says nothing), and the rules telling when a turn stops,
    # which read as one sentence joined by "or" (``toolkit.analysis.report_texts.describe_policy``).
    words: dict[str, dict[str, str]] = {}
    stop_rules: tuple[str, ...] = ()

    def ranges(self, catalogue) -> dict[str, tuple[int, int]]:
        """The searched range of each numbered rule (``searched`` in a row; ``edges``)."""
        return {}

    def screen(self, catalogue, game, parse, seats, seat: int, seed: int, games: int, tick,
               played: Played) -> dict[str, int]:
        """Wins at ``seat`` of every screened candidate, in games 0..games-1 (their winners kept in ``played``),
        or fewer for one plainly behind after a quarter of them (``screen_names``' ``stop_behind``)."""
        return screen_names(game, parse, seats, seat, self._tried(), seed, games, tick, played, stop_behind=True)

    def screened(self) -> int:
        """About how many candidates one seat's screen plays (for the progress bar)."""
        return len(self._tried())

    def searched_words(self, searched: dict, lang: str) -> str | None:
        """What the search tried, in the words of the balance report (``searched`` of a row), if anything."""
        return None

    def tip(self, k: int) -> tuple[str, str] | None:
        """The rulebook's tip: a careful player stopping after ``k`` cards, and one who draws on, if the game has it."""
        return None

    def _tried(self) -> list[str]:
        return [name for name in self.candidates if name != self.default]


def strategy_of(game_id: str) -> Strategy:
    from toolkit.games.registry import get

    game = get(game_id)
    part = game.strategy()
    return Strategy() if part is None else part.STRATEGY


@dataclass
class Gain:
    """A candidate beside the default at one seat, on the same card orders."""

    policy: str
    games: int
    wins: int  # the candidate's wins at the seat
    default_wins: int  # the default's wins at the seat, same games
    diff_squares: int  # sum over games of (candidate won - default won)^2
    behind: str | None = None  # the refined candidate it could not beat by more than the precision: it stopped there

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

    def gain_bounds(self) -> tuple[float, float]:
        """95% bounds on the gain: the paired normal interval, widened where it is narrower than Newcombe's
        square-and-add interval on the two discordant shares (the games only the candidate won, and only
        the default won; Wilson bounds each). The normal interval alone has no width when no game
        differed, as if a handful of games settled the gain exactly; the square-and-add one does not."""
        half = self.gain_half_width()
        n, total = self.games, self.wins - self.default_wins
        if n == 0:
            return (-1.0, 1.0)
        only_mine, only_theirs = (self.diff_squares + total) // 2, (self.diff_squares - total) // 2
        mine, theirs = only_mine / n, only_theirs / n
        mine_low, mine_high = wilson(only_mine, n)
        theirs_low, theirs_high = wilson(only_theirs, n)
        low = self.gain - math.hypot(mine - mine_low, theirs_high - theirs)
        high = self.gain + math.hypot(mine_high - mine, theirs - theirs_low)
        return (max(-1.0, min(low, self.gain - half)), min(1.0, max(high, self.gain + half)))

    def as_json(self) -> dict:
        gain_low, gain_high = self.gain_bounds()
        low, high = wilson(self.wins, self.games)
        default_low, default_high = wilson(self.default_wins, self.games)
        return {"policy": self.policy, "games": self.games, "win_rate": self.win_rate, "win_rate_low": low,
                "win_rate_high": high, "default_win_rate": self.default_rate, "default_win_rate_low": default_low,
                "default_win_rate_high": default_high, "gain": self.gain,
                "gain_low": gain_low, "gain_high": gain_high, "behind": self.behind}


def _played_wins(played: Played, game, policies, seed: int, seat: int, start: int, stop: int, tick):
    """Per chunk of games ``start .. stop-1``: an array, 1 where seat ``seat`` (from 0) won; from the games
    ``played`` keeps, playing those it does not hold yet."""
    winners = played.winners(game, policies, seed, stop, tick, start)
    for first in range(start, stop, CHUNK):
        yield (winners[first:min(first + CHUNK, stop)] == seat).astype(np.int64)


def paired(policy: str, mine: np.ndarray, theirs: np.ndarray) -> Gain:
    """``policy``'s gain over another way of playing from two arrays of the same games, 1 where each won."""
    mine, theirs = mine.astype(np.int64), theirs.astype(np.int64)
    return Gain(policy, mine.size, int(mine.sum()), int(theirs.sum()), int(((mine - theirs) ** 2).sum()))


def screen_names(game, parse, seats, seat: int, names, seed: int, games: int, tick, played: Played,
                 stop_behind: bool = False) -> dict[str, int]:
    """Wins at ``seat`` of each candidate in games 0..games-1, their winners kept in ``played`` (the
    refinement of the best goes on from them instead of playing them again). ``stop_behind``: every
    candidate first plays a quarter of the games, and one plainly behind ``REFINED`` others there (the
    95% upper bound of its wins minus each one's, paired game by game, below 0) stops: it could not be
    refined, and its wins are those of the games it played."""
    def won(name: str, n: int, start: int = 0) -> np.ndarray:  # the progress told of games start .. n-1
        policies = list(seats)
        policies[seat] = parse(name)
        return played.winners(game, policies, seed, n, tick, start)[:n] == seat

    first = min(games, max(100, games // 4)) if stop_behind else games
    early = {name: won(name, first) for name in names}
    behind = {name for name in names if first < games and
              sum(paired(name, early[name], early[other]).gain_bounds()[1] < 0 for other in names if other != name)
              >= REFINED}
    return {name: int((early[name] if name in behind else won(name, games, first)).sum()) for name in names}


class _Refining:
    """A candidate playing on beside the default until its paired gain is within ``precision`` (or
    ``max_games``), a round at a time (both sides' games kept in ``played``: the default's are every
    candidate's pair, and the two-player tournament plays some of the same games)."""

    def __init__(self, game, parse, seats, seat: int, name: str, seed: int, precision: float, max_games: int,
                 tick, played: Played):
        self.game, self.seats, self.seat, self.seed, self.tick, self.played = game, seats, seat, seed, tick, played
        self.policies = list(seats)
        self.policies[seat] = parse(name)
        self.precision, self.max_games = precision, max_games
        self.gain = Gain(name, 0, 0, 0, 0)
        self.target = min(max_games, games_for(2 * precision))
        self.done = False

    def play_to(self, games: int) -> None:
        """Count games up to ``games`` into the gain, playing those not played yet."""
        result, game, seed, seat, tick, played = self.gain, self.game, self.seed, self.seat, self.tick, self.played
        pairs = zip(_played_wins(played, game, self.policies, seed, seat, result.games, games, tick),
                    _played_wins(played, game, self.seats, seed, seat, result.games, games, tick))
        for mine, theirs in pairs:
            result.wins += int(mine.sum())
            result.default_wins += int(theirs.sum())
            result.diff_squares += int(((mine - theirs) ** 2).sum())
        result.games = games

    def step(self) -> None:
        """Play on to the target; then done, or the next target."""
        self.play_to(self.target)
        result = self.gain
        half = result.gain_half_width()
        if half <= self.precision or result.games >= self.max_games:
            self.done = True
            return
        # the games the estimate asks for (a half-width falls as 1/sqrt(n)), with no margin: a target a
        # little short is checked again 100 games on, so the gain ends within 100 games of the fewest
        # that give it to plus or minus ``precision`` (a 10% margin played about 6,000 more a candidate);
        # at most twice the games so far, so that racing candidates are compared again on the way (``refine``)
        need = min(math.ceil(result.games * (half / self.precision) ** 2), 2 * result.games)
        self.target = min(self.max_games, max(result.games + 100, -(-need // 100) * 100))

    def wins(self, games: int) -> np.ndarray:
        """1 where the candidate won at its seat, in games 0 .. games-1 (all played already)."""
        return self.played.winners(self.game, self.policies, self.seed, games)[:games] == self.seat


def _drop_behind(racing: list[_Refining], screen_games: int, precision: float) -> None:
    """Stop every candidate still playing that cannot beat another one still in the race by more than
    ``precision``: on the games both played (the screen's at first), it has not won more than the other,
    and the 95% upper bound of its wins minus the other's, paired game by game (``Gain.gain_bounds``),
    is below ``precision``. The other is then as strong to within the precision (and plainly stronger
    when that bound is below 0). The stopped candidate's gain is kept as far as it got, with its wider
    interval, and ``behind`` names the other. The last candidate in the race is never stopped."""
    for loser in racing:
        if loser.done:
            continue
        for other in racing:
            if other is loser or other.gain.behind is not None:
                continue
            games = max(screen_games, min(loser.gain.games, other.gain.games))
            gain = paired(loser.gain.policy, loser.wins(games), other.wins(games))
            if gain.gain <= 0 and gain.gain_bounds()[1] < precision:
                loser.done, loser.gain.behind = True, other.gain.policy
                loser.play_to(max(games, loser.gain.games))  # stopped at the screen: its gain there
                break


def refine(game, parse, seats, seat: int, names, seed: int, precision: float, max_games: int, screen_games: int,
           tick, played: Played) -> list[Gain]:
    """The screen's best ``names`` race on beside the default (each as ``_Refining`` plays it) until each
    is known to plus or minus ``precision`` or cannot beat another by more than that (``_drop_behind``,
    checked on the screen's games first and again after every round)."""
    racing = [_Refining(game, parse, seats, seat, name, seed, precision, max_games, tick, played)
              for name in names]
    _drop_behind(racing, screen_games, precision)
    while not all(runner.done for runner in racing):
        for runner in racing:
            if not runner.done:
                runner.step()
        _drop_behind(racing, screen_games, precision)
    return [runner.gain for runner in racing]


def rule_kind(name: str) -> str:
    """A numbered rule's kind (``stop-after`` of ``stop-after-3``), or the rule itself."""
    return name.rsplit("-", 1)[0] if name[-1].isdigit() else name


def rule_value(name: str) -> int:
    """A numbered rule's value (3 of ``stop-after-3``)."""
    return int(name.rsplit("-", 1)[1])


def edges(name: str, ranges: dict[str, tuple[int, int]]) -> list[dict]:
    """The parts of a stopping rule whose value is an end of its kind's searched range."""
    out = []
    for part in name.split(","):
        kind = rule_kind(part)
        if kind in ranges and rule_value(part) in ranges[kind]:
            low, high = ranges[kind]
            out.append({"rule": part, "kind": kind, "range": [low, high],
                        "end": "high" if rule_value(part) == high else "low"})
    return out


def search(catalogue, counts: list[int], variants, seed: int, precision: float, max_games: int, tick=None,
           played: Played | None = None) -> list[dict]:
    """The best policy per player count and seat against default players (see the module's text); the
    games already played in ``played`` (the balance report's, with default players) are not played again."""
    from toolkit.games.registry import make_game, policy_module

    parse = policy_module(catalogue.game).parse
    strategy = strategy_of(catalogue.game)
    screen_games = max(100, games_for(4 * precision))
    ranges = strategy.ranges(catalogue)
    rows = []
    played = Played() if played is None else played
    if not strategy.screened():
        return rows  # nothing to try but the default
    for players in counts:
        if players < 2:
            continue
        game = make_game(catalogue, players, variants)
        seats = [parse("default") for _ in range(players)]
        seed_n = run_seed(seed, players)
        for seat in range(players):
            wins = strategy.screen(catalogue, game, parse, seats, seat, seed_n, screen_games, tick, played)
            ranked = sorted(wins, key=lambda name: -wins[name])[:REFINED]  # stable: list order breaks ties
            refined = refine(game, parse, seats, seat, ranked, seed_n, precision, max_games, screen_games, tick,
                             played)
            top = max((g for g in refined if g.behind is None), key=lambda g: g.gain)
            beaten = top.gain_bounds()[0] > 0
            rows.append({"players": players, "seat": seat + 1, "screened": len(wins), "screen_games": screen_games,
                         "searched": {kind: list(bounds) for kind, bounds in ranges.items()},
                         "best_policy": top.policy if beaten else strategy.default,
                         "default_policy": strategy.default, "beaten": beaten,
                         "challenger": top.as_json(), "refined": [g.as_json() for g in refined],
                         "edges": edges(top.policy, ranges)})
    return rows


def tournament(catalogue, variants, seed: int, precision: float, extra: tuple[str, ...] = (), tick=None,
               played: Played | None = None) -> dict | None:
    """Two-player round-robin of the named policies (and ``extra`` ones): each cell the row's share of
    wins against the column, over both seatings; None when there are not two policies to pair. The
    games already played in ``played`` (the search's two-player games) are not played again."""
    from toolkit.games.registry import make_game, policy_module

    parse = policy_module(catalogue.game).parse
    named, seen = [], set()
    for name in (*strategy_of(catalogue.game).named, *extra):
        if parse(name).name not in seen:  # "aggressive" and "aggressive,give-worst" are one policy
            seen.add(parse(name).name)
            named.append(name)
    if len(named) < 2:
        return None
    game = make_game(catalogue, 2, variants)
    seed_2 = run_seed(seed, 2)
    played = Played() if played is None else played
    wins, games = {}, {}
    for i, a in enumerate(named):
        for b in named[i + 1:]:
            wins[(a, b)], wins[(b, a)], games[(a, b)] = _pairing(game, parse(a), parse(b), seed_2, precision, tick,
                                                                 played)
            games[(b, a)] = games[(a, b)]
    table = {a: {b: (wins[(a, b)] / games[(a, b)] if a != b else None) for b in named} for a in named}
    intervals = {a: {b: list(wilson(wins[(a, b)], games[(a, b)])) for b in named if b != a} for a in named}
    # overall: the mean of the row's shares (each opponent alike); its interval the mean of their intervals,
    # which is wider than the mean's own (the cells' errors partly cancel), so it never claims more
    overall = {a: sum(table[a][b] for b in named if b != a) / (len(named) - 1) for a in named}
    reach = [max(share - intervals[a][b][0], intervals[a][b][1] - share) for a in named
             for b, share in table[a].items() if b != a]
    for a in named:
        low = sum(intervals[a][b][0] for b in intervals[a]) / (len(named) - 1)
        high = sum(intervals[a][b][1] for b in intervals[a]) / (len(named) - 1)
        reach.append(max(overall[a] - low, high - overall[a]))
    return {"policies": named, "games_per_pair": max(games.values()),
            "games": {a: {b: games[(a, b)] for b in named if b != a} for a in named}, "table": table,
            "overall": overall, "intervals": intervals, "half_width": max(reach)}


def _pairing(game, a, b, seed: int, precision: float, tick, played: Played) -> tuple[int, int, int]:
    """(a's wins, b's wins, games) of a two-player pairing, each seating on the same card orders, played in
    stages until both shares are within ``precision`` (their 95% intervals reach no further from
    them), at most ``seating_games(precision)`` a seating: a share far from one half needs fewer."""
    most = seating_games(precision)
    n, told = min(most, seating_games(4 * precision)), 0  # the progress is told of games told .. n-1
    while True:
        first = played.winners(game, [a, b], seed, n, tick, told)[:n]
        second = played.winners(game, [b, a], seed, n, tick, told)[:n]
        told = n
        a_wins, b_wins = int((first == 0).sum() + (second == 1).sum()), int((first == 1).sum() + (second == 0).sum())
        reach = max(_reach(a_wins, 2 * n), _reach(b_wins, 2 * n))
        if reach <= precision or n >= most:
            return a_wins, b_wins, 2 * n
        need = math.ceil(n * (reach / precision) ** 2)  # a reach falls as 1/sqrt(games)
        n = min(most, max(n + 100, -(-need // 100) * 100))


def seating_games(precision: float) -> int:
    """Games of a two-player pairing in one seating: both seatings together give a share to ±precision."""
    return max(50, math.ceil(games_for(precision) / 2))


def _reach(hits: int, trials: int) -> float:
    """How far a share's 95% interval reaches from the share on its longer side: a table-wide
    ``±`` of the largest reach holds for every cell."""
    low, high = wilson(hits, trials)
    return max(hits / trials - low, high - hits / trials)


def work_estimate(game_id: str, counts: list[int], precision: float) -> int:
    """About how many games the search and the tournament play (for the progress bar)."""
    seats = sum(n for n in counts if n >= 2)
    screen = max(100, games_for(4 * precision))
    strategy = strategy_of(game_id)
    if not strategy.screened():
        return 0  # nothing to search, and no tournament
    per_seat = strategy.screened() * screen
    refine = REFINED * 2 * games_for(2 * precision) * 2
    named = len(strategy.named) + 1
    return seats * (per_seat + refine) + named * (named - 1) * seating_games(precision)
