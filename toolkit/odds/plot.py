"""Charts of the odds (matplotlib), for `toolkit odds --plot` and the rulebooks' appendix.

One bar chart in PT Sans, at a given printed size and 300 DPI, with the y axis numbered in the
chart's language (a decimal comma in Russian). PNG or PDF; no timestamps, so the same data gives
the same bytes. A PDF embeds PT Sans as a TrueType subset (print shops refuse Type 3 fonts), and an
axis label too long for its side of the chart is set on two lines, then smaller, never clipped.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.numbers import format_decimal

from toolkit.errors import UserError
from toolkit.files import write_atomic
from toolkit.typeset.fonts import FONT_FILES
from toolkit.typeset.units import MM_PER_INCH

SUFFIXES = (".png", ".pdf")
BAR = "#1f5fbf"


def check_path(path: str | Path) -> Path:
    if not str(path).strip():
        raise UserError("--plot: the path is empty: name a .png or .pdf file")
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise UserError(f"--plot {path}: the chart is written as PNG or PDF: name a .png or .pdf file")
    return path


def bar_chart(xs: list[int], ys: list[float], *, xlabel: str, ylabel: str, title: str | None = None,
              width_mm: float = 160.0, height_mm: float = 85.0, lang: str = "en", dpi: int = 300,
              fmt: str = "png", date: int | None = None) -> bytes:
    """A bar chart as PNG or PDF bytes, ``width_mm`` x ``height_mm`` when printed; ``date``: a PDF's
    CreationDate and ModDate (``toolkit.pdf.canvas.document_date``)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib import pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    font = str(FONT_FILES["label"])
    font_manager.fontManager.addfont(font)
    family = font_manager.FontProperties(fname=font).get_name()
    style = {"font.family": family, "font.size": 7.5, "axes.labelsize": 8, "axes.titlesize": 9,
             "axes.linewidth": 0.6, "xtick.major.width": 0.6, "ytick.major.width": 0.6, "xtick.major.size": 2.5,
             "ytick.major.size": 2.5, "svg.hashsalt": "toolkit", "axes.edgecolor": "#333333", "pdf.compression": 9,
             "pdf.fonttype": 42}
    with plt.rc_context(style):
        fig, ax = plt.subplots(figsize=(width_mm / MM_PER_INCH, height_mm / MM_PER_INCH))
        ax.bar(xs, ys, color=BAR, width=0.72)
        if title:
            ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        step = max(1, -(-len(xs) // 16))  # at most about 16 labelled bars
        ax.set_xticks([x for i, x in enumerate(xs) if i % step == 0])
        if xs:
            ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
        # As many decimals as the ticks need (0.025 stays 0.025, not 0.02), none of float noise.
        ax.yaxis.set_major_formatter(FuncFormatter(
            lambda value, _: format_decimal(round(value, 10), format="#,##0.##########", locale=lang)))
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3, linewidth=0.5)
        ax.set_axisbelow(True)
        fig.tight_layout(pad=0.3)
        for label, side in ((ax.yaxis.label, 1), (ax.xaxis.label, 0)):
            if _fit_label(fig, ax, label, side):
                fig.tight_layout(pad=0.3)
        out = io.BytesIO()
        # A PDF chart names what it shows, with the toolkit's metadata (toolkit.pdf.canvas); a PNG no software.
        from toolkit.pdf.canvas import chart_metadata

        metadata = {"Software": None} if fmt == "png" else chart_metadata(title or f"{ylabel}, {xlabel}", date)
        fig.savefig(out, format=fmt, dpi=dpi, metadata=metadata)
        plt.close(fig)
    return out.getvalue()


def _fit_label(fig, ax, label, side: int) -> bool:
    """Set ``label`` on two lines, then smaller, until it is no longer than the axes' width (``side``
    0) or height (1), along which it is centred; True if it was changed."""
    renderer = fig.canvas.get_renderer()
    room = ax.get_window_extent(renderer).size[side]

    def length() -> float:
        return label.get_window_extent(renderer).size[side]

    if length() <= room:
        return False
    words = label.get_text().split(" ")
    if len(words) > 1:  # break at the space that gives the most even lines
        cut = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
        label.set_text(" ".join(words[:cut]) + "\n" + " ".join(words[cut:]))
    while length() > room and label.get_fontsize() > 5:
        label.set_fontsize(label.get_fontsize() * 0.92)
    return True


def in_language(chart: dict, lang: str) -> dict:
    """A chart's keyword arguments for ``bar_chart`` in ``lang``: a title or label given per language
    ({"en": ..., "ru": ...}) takes ``lang``'s words (English where it has none)."""
    out = dict(chart)
    for key in ("title", "xlabel", "ylabel"):
        value = out.get(key)
        if isinstance(value, dict):
            out[key] = value.get(lang) or value["en"]
    return {**out, "lang": lang}


def write_chart(path: str | Path, lang: str = "en", date: int | None = None, **chart) -> Path:
    path = check_path(path)
    return write_atomic(path, bar_chart(fmt=path.suffix.lower()[1:], date=date, **in_language(chart, lang)))
