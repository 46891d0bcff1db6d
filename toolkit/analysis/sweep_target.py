"""``--target "mean_rounds=8,balance>=0.95"``: goals a designer names, and how close a configuration is.

A goal is ``METRIC=VALUE``, ``METRIC>=VALUE`` or ``METRIC<=VALUE``. A configuration's shortfall on a
goal is how far its figure is from it (for ``>=`` and ``<=`` only on the wrong side), divided by
the goal's size (``|VALUE|``; a goal of 0 counts the shortfall itself), so goals in different units
add up: its **distance** is the sum of its shortfalls, 0 when it meets every goal. Configurations
are ranked by distance (then in grid order). ``meets`` says ``yes`` when the figures meet every goal,
``maybe`` when they do not but every goal lies within its figure's 95% interval (more games could
tell), else ``no``. A configuration without one of the figures (a seat its game does not have) has
no distance and comes last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.errors import UserError

DEFINITION = ("distance: the sum over the goals of |figure - goal| / |goal| (for >= and <= only when on the "
              "wrong side; a goal of 0 counts the difference itself); meets: yes when every goal is met, "
              "maybe when every goal lies within its figure's 95% interval, else no")
_GOAL = re.compile(r"([a-z0-9_]+)\s*(>=|<=|=)\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))")


@dataclass(frozen=True)
class Goal:
    metric: str
    op: str
    value: float

    def shortfall(self, figure: float) -> float:
        if self.op == ">=":
            gap = max(0.0, self.value - figure)
        elif self.op == "<=":
            gap = max(0.0, figure - self.value)
        else:
            gap = abs(figure - self.value)
        return gap / abs(self.value) if self.value else gap

    def possible(self, low: float | None, high: float | None, figure: float) -> bool:
        """Whether the goal lies within the figure's 95% interval (an exact figure: the figure itself)."""
        low = figure if low is None else low
        high = figure if high is None else high
        if self.op == ">=":
            return high >= self.value
        if self.op == "<=":
            return low <= self.value
        return low <= self.value <= high

    def as_text(self) -> str:
        return f"{self.metric}{self.op}{self.value:g}"


def parse_target(text: str, metrics: list[str]) -> list[Goal]:
    """The goals of ``--target``; each metric must be one the sweep can report, each named once."""
    goals: list[Goal] = []
    for part in text.split(","):
        part = part.strip()
        match = _GOAL.fullmatch(part)
        if not match:
            raise UserError(f"--target {text}: {part!r} is not a goal like mean_rounds=8 or balance>=0.95")
        metric, op, value = match.groups()
        if metric not in metrics:
            raise UserError(f"--target {text}: unknown figure {metric!r} (choose from {', '.join(metrics)})")
        if any(goal.metric == metric for goal in goals):
            raise UserError(f"--target {text}: {metric} has two goals: give it one")
        goals.append(Goal(metric, op, float(value)))
    return goals


def rank(rows: list[dict], goals: list[Goal]) -> None:
    """Add ``distance``, ``meets`` and ``rank`` (1: the closest) to every row, in place."""
    for row in rows:
        figures = [row.get(goal.metric) for goal in goals]
        if any(figure is None for figure in figures):
            row["distance"], row["meets"] = None, ""
            continue
        row["distance"] = sum(goal.shortfall(figure) for goal, figure in zip(goals, figures))
        if row["distance"] == 0:
            row["meets"] = "yes"
        elif all(goal.possible(row.get(f"{goal.metric}_low"), row.get(f"{goal.metric}_high"), figure)
                 for goal, figure in zip(goals, figures)):
            row["meets"] = "maybe"
        else:
            row["meets"] = "no"
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["distance"] is None, rows[i]["distance"] or 0.0, i))
    for place, i in enumerate(order, 1):
        rows[i]["rank"] = place
