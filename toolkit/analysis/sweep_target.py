"""``--target "mean_rounds=8,balance>=0.95"``: goals a designer names, and how close a configuration is.

A goal is ``METRIC=VALUE``, ``METRIC>=VALUE`` or ``METRIC<=VALUE``. A configuration's shortfall on a
goal is how far its figure is from it (for ``>=`` and ``<=`` only on the wrong side), divided by
the goal's size (``|VALUE|``; a goal of 0 counts the shortfall itself), so goals in different units
add up: its **distance** is the sum of its shortfalls, 0 when every figure is on its goal or on
the goal's side. Configurations
are ranked by distance (then in grid order); the distance is of the figures themselves, the ranking a
guide to where to look.

Whether a configuration **meets** the goals is read from the 95% intervals, never from the figures
alone (a figure of 0.904 with an interval of 0.868 to 0.940 may well be below 0.9). Per goal:

* ``>=`` and ``<=``: ``yes`` when the whole interval meets the goal, ``no`` when the whole interval
  misses it, ``maybe`` when the interval straddles it (more games could tell);
* ``=``: no interval lies on one value, so ``yes`` means the goal lies within the interval (the
  games cannot tell the figure from the goal) and ``no`` that it lies outside;
* an exact figure (``exact``) is its own interval; a figure without an interval (too few games) is
  ``maybe``.

A configuration meets the goals ``yes`` when every goal says yes, ``no`` when one says no, else
``maybe``. A configuration without one of the figures (a seat its game does not have) has no
distance, no ``meets`` and comes last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.errors import UserError

DEFINITION = ("distance: the sum over the goals of |figure - goal| / |goal| (for >= and <= only when on the "
              "wrong side; a goal of 0 counts the difference itself); meets, from the 95% intervals: for >= and "
              "<= yes when the whole interval meets the goal, no when the whole interval misses it, maybe when it "
              "straddles the goal (or has no interval yet); for = yes when the goal lies within the interval, "
              "else no; an exact figure is its own interval; over all goals: yes when every goal says yes, no "
              "when one says no, else maybe")
MEETS = ("meets, from the 95% intervals: yes = the whole interval meets every goal (for =: the goal lies within "
         "it), maybe = an interval straddles a goal, no = an interval misses a goal entirely")
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

    def verdict(self, figure: float, low: float | None, high: float | None, exact: bool) -> str:
        """``yes``, ``maybe`` or ``no``: whether the figure's 95% interval (``low`` .. ``high``; for an
        exact figure the figure itself) meets the goal as a whole, straddles it, or misses it."""
        if exact:
            low = high = figure
        elif low is None or high is None:
            return "maybe"  # no interval yet: the games cannot tell
        if self.op == ">=":
            return "yes" if low >= self.value else "no" if high < self.value else "maybe"
        if self.op == "<=":
            return "yes" if high <= self.value else "no" if low > self.value else "maybe"
        return "yes" if low <= self.value <= high else "no"

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
        exact = (row.get("exact") or "").split()
        verdicts = {goal.verdict(figure, row.get(f"{goal.metric}_low"), row.get(f"{goal.metric}_high"),
                                 goal.metric in exact) for goal, figure in zip(goals, figures)}
        row["meets"] = "no" if "no" in verdicts else "maybe" if "maybe" in verdicts else "yes"
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["distance"] is None, rows[i]["distance"] or 0.0, i))
    for place, i in enumerate(order, 1):
        rows[i]["rank"] = place
