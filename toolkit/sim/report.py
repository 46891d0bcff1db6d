"""The simulator's summary as text and as one JSON object."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the annotations only: an exact odds answer uses these lines without numpy
    from toolkit.sim.stats import Summary

NO_DECISIONS = "no seat had a decision to make in these games: chance alone played them"


def report(summary: Summary) -> tuple[dict, str]:
    """A run's figures, as one JSON object and as text, for every game: what a game adds (the draws, the
    parameters, whether any seat decided) comes in the summary's ``about``."""
    s = summary
    data = s.as_json()
    seats = "player" if s.players == 1 else "players"
    lines = [f"{s.title or s.game}: {s.players} {seats}, {s.games} games (seed {s.seed})"]
    if data.get("decisions", True):
        lines += [f"  seat {seat} policy: {policy}" for seat, policy in enumerate(s.policies, start=1)]
    else:
        lines.append(f"  {NO_DECISIONS}")
    if s.variants:
        lines.append(f"  variants: {', '.join(s.variants)}")
    lines += unfinished_lines(s, "nobody can win any more", "were still going")
    if s.mean is None or s.stderr is None or s.ci95 is None:
        if s.over_limit:  # not every game was stuck: a game may still end, past the limit
            rare = 1 - 0.05 ** (1 / s.games)  # the 95% upper bound of a share never seen in s.games games
            lines.append(f"no game ended within {s.turn_limit:,} turns, so no length is given: fewer than "
                         f"{100 * rare:.2g}% of games of this composition and policy end that soon (95% confidence)")
        else:
            lines.append("no game ended: this composition or policy cannot finish a game")
        return data, "\n".join(lines)
    among = f" of the {s.games - s.unfinished} games that ended (not an expected length)" if s.unfinished else ""
    lines.append(f"game length ({s.unit}){among}: mean {s.mean:.3f} ± {s.stderr:.3f} "
                 f"(95% interval {s.ci95[0]:.3f} to {s.ci95[1]:.3f}), median {s.median:g}")
    lines.append("percentiles: " + ", ".join(f"{q}%: {v}" for q, v in s.percentiles.items()))
    for seat, (rate, (low, high)) in enumerate(zip(s.win_rate, s.win_ci), start=1):
        lines.append(f"seat {seat} wins {100 * rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
    if data.get("draws"):
        lines.append(f"no winner in {data['draws']:,} games ({100 * data['draws'] / s.games:.2f}%)")
    for name, mean in s.per_game.items():
        lines.append(f"{name.replace('_', ' ')}: {mean:.3f} per game, in {100 * s.at_least_once[name]:.1f}% of games")
    return data, "\n".join(lines)


def unfinished_lines(summary: Summary, stuck: str, going: str, measure: str = "length") -> list[str]:
    """What the games that did not end mean for the figures: never a mean over games that never end."""
    lines = []
    if summary.stalled:
        lines.append(f"  {summary.stalled:,} of {summary.games:,} games reached a point where {stuck}: such a game "
                     f"never ends, so the expected {measure} is infinite")
    if summary.over_limit:
        lines.append(f"  {summary.over_limit:,} of {summary.games:,} games {going} after {summary.turn_limit:,} "
                     "turns and were stopped: they are left out of the lengths below, which therefore run short")
    return lines
