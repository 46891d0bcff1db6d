"""A heatmap of one figure of a sweep over two of its axes (matplotlib), as PNG or PDF.

Rows of the grid are the second axis' values, columns the first's; each cell is coloured by the
figure and, while the cells are large enough to read, shows it with its 95% interval beneath (an
exact figure shows no interval). Axes of the grid other than the two drawn make one panel per
combination of their values (at most ``MAX_PANELS``). A cell without the figure (a seat the game does
not have) is left grey. No timestamps and no software named: the same rows give the same bytes.
"""

from __future__ import annotations

import io
import itertools
import math
from pathlib import Path

from toolkit.errors import UserError

SUFFIXES = (".png", ".pdf")
MAX_PANELS = 12
MAX_CELLS = 10_000  # cells of one panel: beyond this the picture would be noise
LABELLED_CELLS = 12  # columns (and rows) up to which each cell shows its numbers


def check_path(path: str) -> Path:
    if not path.strip():
        raise UserError("--heatmap: the path is empty: name a .png or .pdf file")
    out = Path(path)
    if out.suffix.lower() not in SUFFIXES:
        raise UserError(f"--heatmap {path}: a heatmap is written as PNG or PDF: name a .png or .pdf file")
    return out


def choose_axes(axes: list[tuple[str, tuple]], text: str | None) -> tuple[str, str | None, list[str]]:
    """The axes drawn across and down (``--heatmap-axes X,Y``, else the first two that vary), and the
    other varying axes, which make the panels. Refuses too many panels or no axis that varies."""
    varying = [name for name, values in axes if len(values) > 1]
    names = [name for name, _ in axes]
    if text is not None:
        chosen = [part.strip() for part in text.split(",")]
        if len(chosen) != 2 or len(set(chosen)) != 2:
            raise UserError(f"--heatmap-axes {text}: expected two different axes X,Y, e.g. witch,fairy")
        for name in chosen:
            if name not in names:
                raise UserError(f"--heatmap-axes {text}: {name!r} is not an axis of this sweep "
                                f"(axes: {', '.join(names)})")
        x, y = chosen
    else:
        if not varying:
            raise UserError("--heatmap: the grid has one configuration: there is nothing to map "
                            "(give an axis two values or more)")
        x, y = varying[0], (varying[1] if len(varying) > 1 else None)
    others = [name for name in varying if name not in (x, y)]
    panels = math.prod(len(dict(axes)[name]) for name in others)
    if panels > MAX_PANELS:
        raise UserError(f"--heatmap: {', '.join(others)} vary too: {panels} panels, at most {MAX_PANELS} "
                        f"(give those axes fewer values, or pick the two to draw with --heatmap-axes)")
    size = len(dict(axes)[x]) * (len(dict(axes)[y]) if y else 1)
    if size > MAX_CELLS:
        raise UserError(f"--heatmap: {size:,} cells in a panel, at most {MAX_CELLS:,}")
    return x, y, others


def _number(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def heatmap(rows: list[dict], axes: list[tuple[str, tuple]], x: str, y: str | None, others: list[str],
            metric: str, meaning: str, fmt: str = "png") -> bytes:
    """The heatmap of ``metric`` (``meaning``: its one-line description, the title) as PNG or PDF bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import numpy as np
    from matplotlib import font_manager
    from matplotlib import pyplot as plt

    from toolkit.typeset.fonts import FONT_FILES

    values = dict(axes)
    xs, ys = list(values[x]), (list(values[y]) if y else [None])
    combos = list(itertools.product(*(values[name] for name in others))) or [()]
    index = {tuple(row[name] for name in [x, *([y] if y else []), *others]): row for row in rows}

    def cell(panel, xv, yv):
        return index.get((xv, *([yv] if y else []), *panel))

    found = [row[metric] for row in rows if row.get(metric) is not None]
    low, high = (min(found), max(found)) if found else (0.0, 1.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    font = str(FONT_FILES["label"])
    font_manager.fontManager.addfont(font)
    family = font_manager.FontProperties(fname=font).get_name()
    columns = min(3, len(combos))
    lines = -(-len(combos) // columns)
    width = min(11.0, 1.6 + columns * (1.0 + 0.55 * len(xs)))
    titles = [_panel_title(others, panel, (width - 1.6) / columns) for panel in combos] if others else []
    title_lines = max((title.count("\n") + 1 for title in titles), default=0)
    height = min(14.0, 1.2 + lines * (1.1 + 0.42 * len(ys) + 0.14 * title_lines))
    style = {"font.family": family, "font.size": 7.5, "axes.titlesize": 8, "pdf.fonttype": 42,
             "pdf.compression": 9, "svg.hashsalt": "sweep"}
    labelled = len(xs) <= LABELLED_CELLS and len(ys) <= LABELLED_CELLS
    with plt.rc_context(style):
        fig, grid = plt.subplots(lines, columns, figsize=(width, height), squeeze=False, layout="constrained")
        cmap = matplotlib.colormaps["viridis"].with_extremes(bad="#d9d9d9")
        image = None
        for number, panel in enumerate(combos):
            ax = grid[number // columns][number % columns]
            data = np.full((len(ys), len(xs)), np.nan)
            for i, yv in enumerate(ys):
                for j, xv in enumerate(xs):
                    row = cell(panel, xv, yv)
                    if row is not None and row.get(metric) is not None:
                        data[i, j] = row[metric]
            image = ax.imshow(data, cmap=cmap, vmin=low, vmax=high, origin="lower", aspect="auto")
            ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=45 if len(str(xs[-1])) > 4 else 0,
                          ha="right" if len(str(xs[-1])) > 4 else "center")
            ax.set_xlabel(x)
            if y:
                ax.set_yticks(range(len(ys)), [str(v) for v in ys])
                ax.set_ylabel(y)
            else:
                ax.set_yticks([])
            if others:
                ax.set_title(titles[number], linespacing=1.15)
            if labelled:
                for i, yv in enumerate(ys):
                    for j, xv in enumerate(xs):
                        _label(ax, cell(panel, xv, yv), metric, j, i, (data[i, j] - low) / (high - low))
        for number in range(len(combos), lines * columns):
            grid[number // columns][number % columns].axis("off")
        fig.suptitle(f"{metric}: {meaning}" + ("\neach cell: the figure, and beneath it its 95% interval (or "
                                               "exact: the figure is the exact value)" if labelled
                                               else "\n95% intervals: in the table of rows"),
                     fontsize=8.5)
        fig.colorbar(image, ax=grid.ravel().tolist(), shrink=0.85, label=metric)
        out = io.BytesIO()
        from toolkit.pdf.canvas import chart_metadata

        metadata = {"Software": None} if fmt == "png" else chart_metadata(
            f"{metric} by {x}" + (f" and {y}" if y else ""))
        fig.savefig(out, format=fmt, dpi=200, metadata=metadata)
        plt.close(fig)
    return out.getvalue()


def _panel_title(others: list[str], panel: tuple, inches: float) -> str:
    """A panel's values of the other axes, one per line, long ones (policy names) wrapped to the panel."""
    import textwrap

    chars = max(16, int(inches * 17))  # characters of the title's font across the panel
    lines = []
    for name, value in zip(others, panel):
        lines += textwrap.wrap(f"{name}={value}", chars, break_on_hyphens=True) or [f"{name}="]
    return "\n".join(lines)


def _label(ax, row: dict | None, metric: str, j: int, i: int, shade: float) -> None:
    """A cell's figure and, unless it is exact, its 95% interval beneath."""
    if row is None or row.get(metric) is None:
        ax.text(j, i, "n/a", ha="center", va="center", fontsize=6, color="#555555")
        return
    value, lo, hi = row[metric], row.get(f"{metric}_low"), row.get(f"{metric}_high")
    exact = metric in (row.get("exact") or "").split() or metric == "games"
    text = _number(value)
    if exact:
        text += "\nexact"
    elif lo is None or hi is None:
        text += "\nno interval"
    else:
        text += f"\n{_number(lo)}–{_number(hi)}"
    colour = "white" if shade < 0.55 else "black"
    ax.text(j, i, text, ha="center", va="center", fontsize=6, color=colour, linespacing=1.1)
