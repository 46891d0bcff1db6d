"""The odds charts as a print shop gets them: TrueType fonts (no Type 3), every label on the page."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from toolkit.odds.plot import bar_chart, write_chart
from toolkit.typeset.fonts import register_fonts

XS = list(range(1, 30))
YS = [x / 100 for x in XS]
LONG_Y = "доля смоделированных партий, в которых первый дворец достроен на этом ходу, %"


def chart_pdf(**labels) -> pypdf.PdfReader:
    pdf = bar_chart(XS, YS, width_mm=84, height_mm=48.7, lang="ru", fmt="pdf", **labels)
    return pypdf.PdfReader(io.BytesIO(pdf))


def test_a_chart_pdf_embeds_truetype_not_type3(tmp_path):
    path = write_chart(tmp_path / "odds.pdf", xs=XS, ys=YS, xlabel="ход", ylabel="доля партий, %", lang="ru")
    fonts = pypdf.PdfReader(path).pages[0]["/Resources"]["/Font"]
    assert fonts
    for font in fonts.values():
        font = font.get_object()
        assert font["/Subtype"] != "/Type3", font
        descendant = font["/DescendantFonts"][0].get_object()
        assert descendant["/Subtype"] == "/CIDFontType2"  # TrueType outlines
        assert "/FontFile2" in descendant["/FontDescriptor"].get_object()  # embedded


@pytest.mark.parametrize("ylabel", ["доля партий, %", "доля смоделированных партий, %", LONG_Y],
                         ids=["short", "clipped-before", "very-long"])
def test_every_label_stays_on_the_page(ylabel):
    """Each run of text starts and ends inside the page, the rotated y label too."""
    register_fonts()
    page = chart_pdf(xlabel="ход, на котором достроен первый дворец", ylabel=ylabel).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            runs.append((text, cm, tm, size))

    page.extract_text(visitor_text=visit)
    words = set()
    for text, cm, tm, size in runs:
        words.update(text.replace(",", " ").split())
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        length = stringWidth(text, "PTSans-Regular", size) * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
        end_x, end_y = x + cm[0] * length, y + cm[1] * length
        for px, py in ((x, y), (end_x, end_y)):
            assert -0.5 <= px <= width + 0.5 and -0.5 <= py <= height + 0.5, (text, px, py)
    assert set(ylabel.replace(",", " ").split()) <= words  # the label is all there, wrapped or not


@pytest.mark.parametrize("lang, top", [("en", 0.115), ("ru", 0.115), ("en", 31.0)])
def test_y_tick_labels_are_evenly_spaced_numbers(lang, top):
    """Tick steps like 0.025 keep their decimals: 0, 0.025, 0.05, 0.075, never 0.02, 0.05, 0.08."""
    reader = pypdf.PdfReader(io.BytesIO(bar_chart([1, 2, 3], [top / 3, top, top / 2], xlabel="x", ylabel="y",
                                                  lang=lang, fmt="pdf")))
    runs = []
    reader.pages[0].extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append((text.strip(), cm[5])))
    numbers = [(float(text.replace(",", ".")), y) for text, y in runs if re.fullmatch(r"\d+(?:[.,]\d+)?", text)]
    x_row = max({y for _, y in numbers}, key=[y for _, y in numbers].count)  # the x ticks share one baseline
    ticks = sorted(value for value, y in numbers if y != x_row)
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
    assert len(ticks) >= 3 and len(steps) == 1, ticks


def test_a_pdf_chart_has_a_title_and_the_toolkits_metadata():
    import io as _io

    from pypdf import PdfReader as _Reader

    from toolkit.odds.plot import bar_chart as _chart

    pdf = _chart([1, 2, 3], [0.1, 0.5, 0.4], xlabel="turn", ylabel="share of games, %", fmt="pdf")
    meta = _Reader(_io.BytesIO(pdf)).metadata
    assert meta["/Title"] == "share of games, %, turn"
    assert not any("matplotlib" in str(value).lower() for value in meta.values()), meta
    assert re.fullmatch(r"toolkit \S+", meta["/Producer"]) and meta["/CreationDate"] == meta["/ModDate"]


@pytest.mark.parametrize("args, words", [
    ((), {"en": ("Castles and Witches alone: turns to build the castle", "turn", "probability"),
          "ru": ("Замки и ведьмы в одиночку: ходы до готового замка", "ход", "вероятность")}),
    (("--model", "hand", "--hand", "5", "--where", "witch"),
     {"en": ("witch in a hand of 5", "cards in the hand", "probability"),
      "ru": ("witch: в руке из 5 карт", "таких карт в руке", "вероятность")}),
    (("--rules", "examples/pig/pig.py", "--param", "goal=10", "--model", "length"),
     {"en": ("the length of a game", "turns", "probability"), "ru": ("длина партии", "ходы", "вероятность")}),
])
def test_odds_plot_speaks_the_lang_asked(run, tmp_path, monkeypatch, args, words):
    """`odds --plot` draws its title and labels in --lang (English unless asked), read back from the PDF."""
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    for lang in ("en", "ru", None):
        path = tmp_path / f"{lang}.pdf"
        result = run("odds", *args, "--plot", str(path), *(("--lang", lang) if lang else ()))
        assert result.exit_code == 0, result.stderr
        text = " ".join(pypdf.PdfReader(path).pages[0].extract_text().split())
        for word in words[lang or "en"]:
            assert word in text, (lang, word, text)
        other = words["en" if lang == "ru" else "ru"]
        assert other[-1] not in text
