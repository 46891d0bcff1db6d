"""Charts of the odds (matplotlib): PNG or PDF by the file's suffix, the same bytes every time."""

from __future__ import annotations

import io
from pathlib import Path

from toolkit.errors import UserError
from toolkit.files import write_atomic

SUFFIXES = (".png", ".pdf")


def check_path(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise UserError(f"--plot {path}: the chart is written as PNG or PDF: name a .png or .pdf file")
    return path


def bar_chart(xs: list[int], ys: list[float], *, title: str, xlabel: str, ylabel: str, dpi: int = 150,
              fmt: str = "png", font: str | None = None) -> bytes:
    """A bar chart as PNG or PDF bytes (no timestamps, so the same data gives the same bytes)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib import pyplot as plt

    family = None
    if font:
        font_manager.fontManager.addfont(font)
        family = font_manager.FontProperties(fname=font).get_name()
    with plt.rc_context({"font.family": family or "sans-serif", "svg.hashsalt": "toolkit", "pdf.compression": 9}):
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        ax.bar(xs, ys, color="#1f5fbf", width=0.75)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_xticks(xs)
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        out = io.BytesIO()
        metadata = {"Software": None} if fmt == "png" else {"CreationDate": None, "Producer": None, "Creator": None}
        fig.savefig(out, format=fmt, dpi=dpi, metadata=metadata)
        plt.close(fig)
    return out.getvalue()


def write_chart(path: str | Path, **chart) -> Path:
    path = check_path(path)
    return write_atomic(path, bar_chart(fmt=path.suffix.lower()[1:], **chart))
