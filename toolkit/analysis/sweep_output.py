"""A sweep's rows as CSV, JSON and lines of text: one row per configuration, in grid order.

Columns: the axes, then ``games``, then each chosen figure with the bounds of its 95% interval
(``NAME``, ``NAME_low``, ``NAME_high``; an exact figure has both bounds equal to it and is named in
``exact``), then ``seed`` (the run seed of the configuration's games: ``toolkit simulate --seed``
with the same configuration plays the same games), ``exact`` and ``note``, and with ``--target``
``distance``, ``meets`` and ``rank``. Numbers are written as Python writes floats, which read back
as the same numbers; an empty cell (null in JSON) is a figure the configuration does not have.
"""

from __future__ import annotations

import csv
import io
import json


def columns(axes: list[str], metrics: list[str], target: bool) -> list[str]:
    names = [*axes, "games"]
    for metric in metrics:
        names += [metric, f"{metric}_low", f"{metric}_high"]
    names += ["seed", "exact", "note"]
    if target:
        names += ["distance", "meets", "rank"]
    return names


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def csv_bytes(rows: list[dict], names: list[str]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        writer.writerow([_cell(row.get(name)) for name in names])
    return out.getvalue().encode("utf-8")


def json_bytes(head: dict, rows: list[dict], names: list[str]) -> bytes:
    listed = []
    for row in rows:
        item = {name: row.get(name) for name in names}
        for extra in sorted(name for name in row if name.endswith("_exact")):
            item[extra] = row[extra]  # an exact figure as a fraction, digit for digit
        listed.append(item)
    data = {**head, "columns": names, "rows": listed}
    return (json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def _figure(row: dict, metric: str) -> str:
    value = row.get(metric)
    if value is None:
        return f"{metric} n/a"
    text = f"{metric} {_short(value)}"
    if metric == "games" or metric in (row.get("exact") or "").split():
        return text + " (exact)"
    low, high = row.get(f"{metric}_low"), row.get(f"{metric}_high")
    if low is None or high is None:
        return text + " (no interval: too few games)"
    return f"{text} (95%: {_short(low)} to {_short(high)})"


def _short(value) -> str:
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.4g}" if abs(value) < 1e4 else f"{value:,.0f}"


def row_line(row: dict, axes: list[str], metrics: list[str]) -> str:
    where = " ".join(f"{name}={row[name]}" for name in axes)
    line = f"{where}: " + ", ".join(_figure(row, metric) for metric in metrics)
    if row.get("note"):
        line += f" [{row['note']}]"
    return line
