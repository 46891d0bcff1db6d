"""How much skill matters in a game of one's own: the gap between the best play and a beginner's, and
van der Genugten's relative skill (Dreef, Borm and van der Genugten, "Measuring skill in games: several
approaches discussed", Mathematical Methods of Operations Research 59 (2004) 375-391).

For one seat, with every other seat a beginner (``random``: every legal action equally likely), three
players are compared by their result (the chance to win; in a one-player game that every play wins, the
expected length, where less is better):

* the beginner: the seat plays ``random`` too; exact, from the chain (``walk.chain_odds``);
* the optimal player: the seat's best reply to the beginners (``optimal``); exact, or an interval;
* the clairvoyant ("fictive") player: the seat knows every future outcome of chance, the beginners'
  choices included, and plays the best plan for them. A game's chance outcomes are fixed in advance as
  a sequence of numbers ``u1, u2, ...`` drawn uniformly from [0, 1): the k-th chance event of a game
  takes the outcome where ``uk`` falls among its outcomes' probabilities, in the order the game lists
  them. The player sees the sequence and plays the plan that does best on it (a search over its
  decisions, exact for each sequence); its expected result is simulated over seeded sequences, with a
  95% interval (Wilson's for a chance, the normal one for a length).

The learning effect is the optimal player's result minus the beginner's, the chance effect the
clairvoyant's minus the optimal player's (for a length: the other way round), and the relative skill
``learning / (learning + chance)``: 0 when playing well gains nothing, 1 when chance plays no part.
docs/skill.md says the same for people.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from fractions import Fraction

from toolkit.errors import UserError
from toolkit.games import CHANCE, TERMINAL
from toolkit.rules import optimal, walk

MAX_PLANS = 500_000  # states the clairvoyant's search may meet in one sequence (beyond: out of reach)
Z = 1.959963984540054  # the normal quantile of a 95% interval


@dataclass(frozen=True)
class Skill:
    seat: int
    objective: str  # "win" or "length"
    beginner: Fraction
    optimal: tuple[float, float]  # the optimal player's result: exact (both the same) or an interval
    optimal_exact: Fraction | None
    clairvoyant: tuple[float, float, float] | None  # mean, 95% interval; None: out of reach
    sequences: int
    why_not: str | None = None  # why the clairvoyant is out of reach

    @property
    def learning(self) -> tuple[float, float]:
        """The learning effect: (low, high)."""
        low, high = self.optimal
        if self.objective == "length":
            return float(self.beginner) - high, float(self.beginner) - low
        return low - float(self.beginner), high - float(self.beginner)

    @property
    def chance(self) -> tuple[float, float] | None:
        """The chance effect: (low, high), from the clairvoyant's interval and the optimal player's."""
        if self.clairvoyant is None:
            return None
        _, low, high = self.clairvoyant
        if self.objective == "length":
            return max(0.0, self.optimal[0] - high), max(0.0, self.optimal[1] - low)
        return max(0.0, low - self.optimal[1]), max(0.0, high - self.optimal[0])

    @property
    def relative(self) -> tuple[float, float] | None:
        """The relative skill learning / (learning + chance) as an interval (its bounds' worst cases)."""
        chance = self.chance
        if chance is None:
            return None
        (l_low, l_high), (c_low, c_high) = self.learning, chance
        l_low, l_high = max(0.0, l_low), max(0.0, l_high)

        def ratio(learning, luck):
            return learning / (learning + luck) if learning + luck > 0 else math.nan

        low, high = ratio(l_low, c_high), ratio(l_high, c_low)
        return low, high


def skill(game, sequences: int = 2000, seed: int = 1, max_states: int = 200_000,
          exact_up_to: int = optimal.EXACT_UP_TO) -> list[Skill]:
    """The skill figures of every seat of ``game`` (a ``RulesGame``) against beginners."""
    players = game.num_players()
    beginner = [game.policies()["random"]] * players
    odds = walk.chain_odds(game, beginner, max_states, distribution=False)
    out = []
    for seat in range(players):
        if players == 1:
            [best] = optimal.solve(game, None, None, max_states, exact_up_to)
        else:
            best = optimal.best_reply(game, seat, beginner, max_states, exact_up_to)
        objective = best.objective
        if objective == "length":
            if odds.expected_length is None:
                raise UserError(f"{game.source}: skill: a beginner's game may never end: no expected length")
            start = odds.expected_length
        else:
            start = odds.win[seat]
        bounds = (float(best.value),) * 2 if best.exact else best.bounds
        try:
            seen = clairvoyant(game, seat, beginner, objective, sequences, seed)
            why = None
        except _OutOfReach as err:
            seen, why = None, str(err)
        out.append(Skill(seat, objective, start, bounds, best.value if best.exact else None, seen,
                         sequences if seen else 0, why))
    return out


class _OutOfReach(Exception):
    pass


def clairvoyant(game, seat: int, seats, objective: str, sequences: int, seed: int) -> tuple[float, float, float]:
    """The clairvoyant seat's expected result over ``sequences`` seeded sequences of chance: (mean, low,
    high), the 95% interval."""
    rng = random.Random(seed)
    results = []
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        for _ in range(sequences):
            results.append(_best_on(game, seat, seats, objective, rng))
    finally:
        sys.setrecursionlimit(limit)
    n = len(results)
    mean = sum(results) / n
    if objective == "win":
        centre = (mean + Z * Z / (2 * n)) / (1 + Z * Z / n)
        half = Z * math.sqrt(mean * (1 - mean) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
        return mean, max(0.0, centre - half), min(1.0, centre + half)
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / max(1, n - 1))
    return mean, mean - Z * spread / math.sqrt(n), mean + Z * spread / math.sqrt(n)


def _best_on(game, seat: int, seats, objective: str, rng: random.Random) -> float:
    """The best the seat can do on one sequence of chance (drawn from ``rng`` as far as it is read)."""
    draws: list[float] = []
    memo: dict = {}
    on_path: set = set()
    length = objective == "length"
    worst = math.inf if length else 0.0

    def draw(k: int) -> float:
        while len(draws) <= k:
            draws.append(rng.random())
        return draws[k]

    def value(state, k: int) -> float:
        """The best result from ``state`` with the k-th chance event next (for a length: turns to go)."""
        who = state.current_player()
        if who == TERMINAL:
            return 0.0 if length else float(state.winner == seat)
        key = (state.key(), k)
        known = memo.get(key)
        if known is not None:
            return known
        if key in on_path:  # the seat's own decisions loop without chance: that play never ends
            return worst
        if len(memo) >= MAX_PLANS:
            raise _OutOfReach(f"the clairvoyant's search passes {MAX_PLANS:,} states on one sequence")
        on_path.add(key)
        began = state.turns
        if who == seat:
            best = None
            for action in state.legal_actions():
                after = state.clone()
                after.apply_action(action)
                result = value(after, k) + (after.turns - began if length else 0)
                if best is None or (result < best if length else result > best):
                    best = result
                if not length and best == 1.0:
                    break
        else:
            outcomes = state.chance_outcomes() if who == CHANCE else seats[who].distribution(state)
            total = sum(weight for _, weight in outcomes)
            pick = draw(k) * total
            for outcome, weight in outcomes:
                pick -= weight
                if pick < 0:
                    break
            after = state.clone()
            after.apply_action(outcome)
            best = value(after, k + 1) + (after.turns - began if length else 0)
        on_path.discard(key)
        memo[key] = best
        return best

    return value(game.new_initial_state(), 0)


def skill_lines(figures: list[Skill]) -> list[str]:
    """The skill figures for people (the figures said as intervals where they are not exact)."""
    lines = []
    for figure in figures:
        what = "expected length" if figure.objective == "length" else "chance to win"
        lines.append(f"seat {figure.seat + 1} against beginners ({what}):")
        lines.append(f"  a beginner (random legal moves): {float(figure.beginner):.4f}")
        if figure.optimal_exact is not None:
            lines.append(f"  the best play: {float(figure.optimal_exact):.4f}")
        else:
            lines.append(f"  the best play: between {figure.optimal[0]:.4f} and {figure.optimal[1]:.4f}")
        low, high = figure.learning
        lines.append(f"  skill gap (learning effect): {_span(low, high)}")
        if figure.clairvoyant is None:
            lines.append(f"  knowing the future: out of reach ({figure.why_not})")
            continue
        mean, c_low, c_high = figure.clairvoyant
        lines.append(f"  knowing every future roll and draw: {mean:.4f} (95% interval {c_low:.4f} to {c_high:.4f}, "
                     f"{figure.sequences:,} sequences)")
        c_low, c_high = figure.chance
        lines.append(f"  chance effect: {_span(c_low, c_high)}")
        r_low, r_high = figure.relative
        if math.isnan(r_low) or math.isnan(r_high):
            lines.append("  relative skill: undefined (neither skill nor chance changes the result)")
        else:
            lines.append(f"  relative skill (learning / (learning + chance)): {_span(r_low, r_high)}")
    return lines


def _span(low: float, high: float) -> str:
    return f"{low:.4f}" if abs(high - low) < 5e-5 else f"between {low:.4f} and {high:.4f}"


ANALYSE_STATES = 20_000  # the largest walk ``analyse`` makes for the skill figure (beyond: out of reach)
ANALYSE_SEQUENCES = 1_000  # sequences of chance the clairvoyant plays there


def section(game, seed: int, max_states: int = ANALYSE_STATES,
            sequences: int = ANALYSE_SEQUENCES) -> tuple[list[str], dict]:
    """The skill figure for ``analyse --rules``: (lines, JSON-ready dict); a game too large for it is said
    to be out of reach, in one line, and the rest of the analysis stands."""
    from toolkit.odds.engine_chain import TooManyStates

    try:
        figures = skill(game, sequences, seed, max_states)
    except (TooManyStates, UserError) as err:
        why = str(err).split(": ", 1)[-1] if isinstance(err, UserError) else f"the game has {err}"
        return [f"how much skill matters: out of reach ({why})"], {"out_of_reach": why}
    data = []
    for figure in figures:
        entry = {"seat": figure.seat + 1, "objective": figure.objective, "beginner": str(figure.beginner),
                 "optimal": list(figure.optimal), "learning_effect": list(figure.learning)}
        if figure.clairvoyant is not None:
            entry.update({"clairvoyant": list(figure.clairvoyant), "sequences": figure.sequences,
                          "chance_effect": list(figure.chance), "relative_skill": list(figure.relative)})
        else:
            entry["clairvoyant_out_of_reach"] = figure.why_not
        data.append(entry)
    return ["how much skill matters (each seat against beginners; docs/skill.md):"] + skill_lines(figures), \
        {"seats": data, "seed": seed}
