"""The odds chart of a rulebook: a bar chart drawn at its printed size, 300 DPI, in PT Sans.

It looks like ``toolkit.odds.plot.bar_chart`` (the same colours and frame) but is made for print: the
figure is exactly as wide as the text column, its lettering is set at 7-8 pt, and the tick labels
are numbers in the rulebook's language (a decimal comma in Russian), which plot.bar_chart, made for
the screen and English, does not do.
"""

from __future__ import annotations

import io

from babel.numbers import format_decimal

from toolkit.cards.render import FONT_FILES, MM_PER_INCH

DPI = 300
BAR = "#1f5fbf"


def bar_chart(xs: list[int], ys: list[float], *, xlabel: str, ylabel: str, width_mm: float, height_mm: float,
              lang: str) -> bytes:
    """PNG bytes; the same data gives the same bytes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib import pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    font = str(FONT_FILES["label"])
    font_manager.fontManager.addfont(font)
    family = font_manager.FontProperties(fname=font).get_name()
    style = {"font.family": family, "font.size": 7.5, "axes.labelsize": 8, "axes.linewidth": 0.6,
             "xtick.major.width": 0.6, "ytick.major.width": 0.6, "xtick.major.size": 2.5, "ytick.major.size": 2.5,
             "svg.hashsalt": "toolkit", "axes.edgecolor": "#333333"}
    with plt.rc_context(style):
        fig, ax = plt.subplots(figsize=(width_mm / MM_PER_INCH, height_mm / MM_PER_INCH))
        ax.bar(xs, ys, color=BAR, width=0.72)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        step = max(1, -(-len(xs) // 16))  # at most about 16 labelled turns
        ax.set_xticks([x for i, x in enumerate(xs) if i % step == 0])
        ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: format_decimal(round(value, 2), locale=lang)))
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", alpha=0.3, linewidth=0.5)
        ax.set_axisbelow(True)
        fig.tight_layout(pad=0.3)
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=DPI, metadata={"Software": None})
        plt.close(fig)
    return out.getvalue()
