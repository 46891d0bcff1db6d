"""The simulator's summary as readable text."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the annotations only: an exact odds answer uses these lines without numpy
    from toolkit.sim.stats import Summary

NO_DECISIONS = "no seat had a decision to make in these games: chance alone played them"


def text_report(summary: Summary, title: str) -> str:
    s = summary
    seats = "player" if s.players == 1 else "players"
    lines = [f"{title}: {s.players} {seats}, {s.games} games (seed {s.seed})"]
    for seat, policy in enumerate(s.policies, start=1):
        lines.append(f"  seat {seat} policy: {policy}")
    if s.variants:
        lines.append(f"  variants: {', '.join(s.variants)}")
    lines += unfinished_lines(s, "nobody can win any more", "were still going")
    if s.mean is None:
        if s.over_limit:  # not every game was stuck: a game may still end, past the limit
            rare = 1 - 0.05 ** (1 / s.games)  # the 95% upper bound of a share never seen in s.games games
            lines.append(f"no game ended within {s.turn_limit:,} turns, so no length is given: fewer than "
                         f"{100 * rare:.2g}% of games of this composition and policy end that soon (95% confidence)")
        else:
            lines.append("no game ended: this composition or policy cannot finish a game")
        return "\n".join(lines)
    unit = s.unit
    among = f" of the {s.games - s.unfinished} games that ended (not an expected length)" if s.unfinished else ""
    lines.append(f"game length ({unit}){among}: mean {s.mean:.3f} ± {s.stderr:.3f} "
                 f"(95% interval {s.ci95[0]:.3f} to {s.ci95[1]:.3f}), median {s.median:g}")
    lines.append("percentiles: " + ", ".join(f"{q}%: {v}" for q, v in s.percentiles.items()))
    for seat, (rate, (low, high)) in enumerate(zip(s.win_rate, s.win_ci), start=1):
        lines.append(f"seat {seat} wins {100 * rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
    for name, mean in s.per_game.items():
        lines.append(f"{name.replace('_', ' ')}: {mean:.3f} per game, in {100 * s.at_least_once[name]:.1f}% of games")
    return "\n".join(lines)


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


def report_lines(result: dict) -> str:
    """The simulation as text."""
    r = result
    seats = "player" if r["players"] == 1 else "players"
    lines = [f"{r['game']}: {r['players']} {seats}, {r['games']:,} games (seed {r['seed']})"]
    if r["decisions"]:
        lines += [f"  seat {seat} plays {policy}" for seat, policy in enumerate(r["policies"], start=1)]
    else:
        lines.append(f"  {NO_DECISIONS}")
    unit = r["length_unit"]
    low, high = r[f"ci95_{unit}"]
    lines.append(f"length ({unit}): mean {r[f'mean_{unit}']:.3f} ± {r[f'stderr_{unit}']:.3f} (95% interval {low:.3f} "
                 f"to {high:.3f}), median {r[f'median_{unit}']:g}")
    lines.append("percentiles: " + ", ".join(f"{q}%: {v}" for q, v in r["percentiles"].items()))
    for seat, (rate, (low, high)) in enumerate(zip(r["win_rate"], r["win_rate_ci95"]), start=1):
        lines.append(f"seat {seat} wins {100 * rate:.2f}% (95% interval {100 * low:.2f}% to {100 * high:.2f}%)")
    if r["draws"]:
        lines.append(f"no winner in {r['draws']:,} games ({100 * r['draws'] / r['games']:.2f}%)")
    for name, mean in r["per_game"].items():
        what = "lead changes" if name == "lead_changes" else name.replace("_", " ")
        lines.append(f"{what}: {mean:.3f} per game, in {100 * r['at_least_once'][name]:.1f}% of games")
    return "\n".join(lines)
