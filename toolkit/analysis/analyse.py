"""Balance figures of one game, per player count, from as many games as a target precision asks for.

How many games: ``measure`` plays a first stage, reads the half-width of every governed figure's
95% interval (``toolkit.analysis.metrics``), and plays on until each is within its tolerance:

* every share of games (win rate of each seat, first-player advantage, completion, stalls,
  comebacks) to plus or minus ``precision``;
* balance (1 minus a gap of two shares, so twice as uncertain) to plus or minus 2 x ``precision``;
* the mean length in turns and in rounds to plus or minus ``precision`` of itself (relative).

or until ``max_games`` were played (the report then says which figures stayed wider). The games of
a player count are games ``0, 1, 2, ...`` of one run seed derived from ``--seed`` and the count, the
same for every mix of policies: two policies are compared on the same card orders.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from toolkit.analysis.metrics import Accumulator
from toolkit.errors import UserError
from toolkit.sim.card_order import MASK, mix64
from toolkit.sim.records import game_batches, play_records
from toolkit.sim.stats import Z95

CHUNK = 20_000  # games played and counted together: memory stays flat in the number of games
MIN_STAGE = 200  # the fewest games of a first stage
MAX_SEATS = 4  # the balance figures are kept for 1 to 4 seats
MAX_TURNS = 10_000  # a game still going after this many turns is stopped (counted as not ended)

SHARE_RULED = ("completion", "stall_rate", "first_player_advantage", "comeback_rate")
MEAN_RULED = ("mean_turns", "mean_rounds")


def run_seed(seed: int, players: int) -> int:
    """The run seed of every game with ``players`` seats in an analysis seeded ``seed``."""
    return mix64(mix64(seed) ^ ((players * 0x5DEECE66D) & MASK))


def games_for(precision: float) -> int:
    """Games that give a share an interval of plus or minus ``precision`` in the worst case (p = 1/2)."""
    return math.ceil(Z95 * Z95 / (4 * precision * precision))


def tolerances(acc: Accumulator, precision: float) -> dict[str, float]:
    """The figure -> largest allowed half-width of the precision rule, for the figures that exist."""
    metrics = acc.metrics()
    out = {name: precision for name in SHARE_RULED}
    out.update({f"win_rate_{seat}": precision for seat in range(1, acc.players + 1)})
    out["balance"] = 2 * precision
    for name in MEAN_RULED:
        if metrics[name]:
            out[name] = precision * metrics[name]
    return out


def shortfall(acc: Accumulator, precision: float) -> dict[str, tuple[float, float]]:
    """The governed figures whose interval is still wider than allowed: name -> (half-width, allowed)."""
    wide = {}
    for name, allowed in tolerances(acc, precision).items():
        half = acc.half_width(name)
        if half is not None and half > allowed:
            wide[name] = (half, allowed)
    return wide


def games_needed(acc: Accumulator, precision: float) -> int:
    """Games the precision rule asks for, judged from the games so far (a half-width falls as 1/sqrt(n))."""
    need = acc.games
    for half, allowed in shortfall(acc, precision).values():
        need = max(need, math.ceil(acc.games * (half / allowed) ** 2))
    return need


class Played:
    """The winners of the games one analysis played (a byte a game), so that no game is played twice:
    per seat count, seats' policies (by name: one name, one policy) and run seed, the winners of games
    0, 1, 2, ... as far as they were played. Every game is played with ``MAX_TURNS`` and the analysis's
    own catalogue and variants, and its record depends on its seed alone, so a kept winner is the one
    the game would give again."""

    def __init__(self):
        self._winners: dict[tuple, np.ndarray] = {}

    @staticmethod
    def _key(game, policies, seed: int) -> tuple:
        return game.players, tuple(policy.name for policy in policies), seed

    def keep(self, game, policies, seed: int, start: int, winners: np.ndarray) -> None:
        """Games ``start ..`` of the run ``seed`` had these ``winners`` (kept when they follow on)."""
        key = self._key(game, policies, seed)
        known = self._winners.get(key, np.zeros(0, dtype=np.int8))
        if start == known.size:
            self._winners[key] = np.concatenate([known, winners.astype(np.int8)])

    def winners(self, game, policies, seed: int, stop: int, tick=None, start: int = 0) -> np.ndarray:
        """The winners of games 0 .. stop-1 (at least) of the run ``seed``, playing those not yet played;
        ``tick`` is told of games ``start .. stop-1``, kept or played (the progress counts them as work
        done, as it counted them before they were kept)."""
        key = self._key(game, policies, seed)
        known = self._winners.get(key, np.zeros(0, dtype=np.int8))
        reused = min(stop, known.size) - start
        if tick and reused > 0:
            tick(reused)
        if stop > known.size:
            played = [known]
            for first in range(known.size, stop, CHUNK):
                count = min(CHUNK, stop - first)
                played.append(play_records(game, policies, seed, first, count, MAX_TURNS)["winner"].astype(np.int8))
                if tick:
                    tick(count)
            known = self._winners[key] = np.concatenate(played)
        return known


def measure(game, policies, seed: int, precision: float, max_games: int, tick=None, played: Played | None = None,
            comeback: int | None = None) -> Accumulator:
    """The totals of as many games of ``seed`` as the precision rule asks for (at most ``max_games``),
    comebacks counted from ``comeback`` points (the game's ``comeback_points``); the winners kept in
    ``played``, if given."""
    acc = Accumulator(game.players, comeback)

    def play(start: int, stop: int) -> None:
        for records in game_batches(game, policies, seed, start, stop, MAX_TURNS, CHUNK):
            first = acc.games
            acc.add(records)
            if played is not None:
                played.keep(game, policies, seed, first, records["winner"])
            if tick:
                tick(int(records["winner"].size))

    return in_stages(acc, play, precision, max_games)


def in_stages(acc: Accumulator, play: Callable[[int, int], None], precision: float, max_games: int) -> Accumulator:
    """The precision rule for any game: ``play(start, stop)`` adds games ``start .. stop-1`` to ``acc``; a
    first stage, then on until every governed figure's 95% interval is narrow enough, or ``max_games``."""
    target = min(max_games, max(MIN_STAGE, games_for(4 * precision)))
    while True:
        play(acc.games, target)
        need = games_needed(acc, precision)
        if need <= acc.games or acc.games >= max_games:
            return acc
        # a little past the estimate, in whole hundreds, so that one more stage is rarely needed
        target = min(max_games, max(acc.games + MIN_STAGE, -(-int(need * 1.1) // 100) * 100))


def parse_players(text: str | None, low: int, high: int) -> list[int]:
    """``--players N`` or ``A..B``, within the catalogue's ``low .. high``; None: every count from 2
    (1 when the game is for one player only) to ``high``."""
    if text is None:
        return list(range(max(low, 2 if high >= 2 else 1), high + 1))
    match = re.fullmatch(r"\s*([0-9]{1,2})\s*(?:\.\.\s*([0-9]{1,2})\s*)?", text)
    if not match:
        raise UserError(f"--players {text}: expected a player count like 3 or a range like 2..4")
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) else first
    if first > last:
        raise UserError(f"--players {text}: the range runs backwards (write {last}..{first})")
    if first < low or last > high:
        raise UserError(f"--players {text}: this game is for {low} to {high} players")
    return list(range(first, last + 1))


@dataclass
class PlayerCount:
    """The figures of one player count with one mix of policies."""

    players: int
    policies: list[str]
    seed: int
    acc: Accumulator
    wide: dict[str, tuple[float, float]] = field(default_factory=dict)  # figures wider than asked


def analyse_game(game, seats, seed: int, precision: float, max_games: int, tick=None, played: Played | None = None,
                 comeback: int | None = None) -> PlayerCount:
    """The figures of ``game`` played by ``seats``: its games are those of the run seed of ``seed`` and its
    seat count. Where the records say no seat had a decision to make in any of them (a race with dice
    and no choice), the figures name no players."""
    if not 1 <= game.players <= MAX_SEATS:
        raise UserError(f"{game.source}: {game.name} has {game.players} players: analyse reports games of 1 to "
                        f"{MAX_SEATS} players (simulate plays any number)")
    config_seed = run_seed(seed, game.players)
    acc = measure(game, seats, config_seed, precision, max_games, tick, played=played, comeback=comeback)
    names = [policy.name for policy in seats] if acc.decisions != 0 else []
    return PlayerCount(game.players, names, config_seed, acc, shortfall(acc, precision))


def analyse_counts(catalogue, counts: list[int], policies, variants, seed: int, precision: float,
                   max_games: int, tick=None, played: Played | None = None) -> list[PlayerCount]:
    """Measure every player count of ``counts`` with the players ``policies`` names (``toolkit.seats.Policies``,
    the default elsewhere); the winners kept in ``played``, if given."""
    from toolkit.games.registry import get, make_game
    from toolkit.seats import builtin_players

    missing = [seat for seat in (policies.seats if policies else []) if seat > counts[0]]
    if missing and len(counts) > 1:
        raise UserError(f"--policy {missing[0]}=...: seat {missing[0]} does not exist with {counts[0]} players "
                        f"(give --players {missing[0]}..{counts[-1]} or fewer seats)")
    results = []
    for players in counts:
        game = make_game(catalogue, players, variants)
        seats = builtin_players(catalogue.game, players, policies)
        results.append(analyse_game(game, seats, seed, precision, max_games, tick, played,
                                    get(catalogue.game).comeback_points))
    return results


def playing_time(catalogue, acc: Accumulator) -> dict | None:
    """Minutes of play from the catalogue's seconds per turn: the mean with its interval, the 10th to
    90th percentile, and the box's minutes beside them (None: the catalogue gives no time per turn)."""
    seconds = catalogue.seconds_per_turn
    metrics = acc.metrics()
    if seconds is None or metrics["mean_turns"] is None:
        return None
    interval = acc.interval("mean_turns")
    per = acc.percentiles("turns")
    low, high = catalogue.minutes
    mean = metrics["mean_turns"] * seconds / 60
    return {
        "seconds_per_turn": seconds,
        "mean_minutes": mean,
        "mean_minutes_low": interval[0] * seconds / 60 if interval else None,
        "mean_minutes_high": interval[1] * seconds / 60 if interval else None,
        "p10_minutes": per["10"] * seconds / 60,
        "p90_minutes": per["90"] * seconds / 60,
        "box_minutes": [low, high],
        "against_box": "shorter" if mean < low else "longer" if mean > high else "within",
    }


def skill_section(game, result: PlayerCount, seed: int) -> tuple[list[str], dict, list | None]:
    """How much skill matters (``toolkit.rules.skill.section``): lines, JSON and the figures for the report's
    page; one line and no figures where no seat had a decision to make (skill has nothing to act on)."""
    from toolkit.sim.report import NO_DECISIONS

    if not result.policies:
        return [f"how much skill matters: not at all ({NO_DECISIONS})"], {"no_decisions": True}, None
    from toolkit.rules import skill

    return skill.section(game, seed)


def scored(rules) -> bool:
    """Does the game keep a score (lead changes mean something)?"""
    return rules.players > 1 and rules.new_initial_state().scores() is not None
