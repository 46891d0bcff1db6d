"""The PDF report's figures are the console's (issue 37, an editor's findings): one ``analyse --report``
run, and every estimate with its 95% interval that the console prints is in the PDF as the same
numbers (the PDF in its language's way: a decimal comma and a true minus in Russian); a range whose
ends carry a sign is written in words ("−2.8 to +6.0", «от −2,8 до +6,0»), never "−2.8–+6.0"."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from toolkit.analysis.report_pdf import _span

NUMBER = r"[+-]?\d+\.\d+"
# (the console's words around a figure and its interval, the PDF's unit after the interval)
PATTERNS = [
    (rf"wins ({NUMBER})% \(95% interval ({NUMBER})% to ({NUMBER})%\)", "%"),
    (rf"completion ({NUMBER})% \(95% interval ({NUMBER})% to ({NUMBER})%\)", "%"),
    (rf"({NUMBER})% of the won games \(95% interval ({NUMBER})% to ({NUMBER})%\)", "%"),
    (rf"first-player advantage ({NUMBER}) points \(95% interval ({NUMBER}) points to ({NUMBER}) points\)", ""),
    (rf"balance ({NUMBER}) \(1 minus [^;]*; interval ({NUMBER}) to ({NUMBER}):", ""),
    (rf"({NUMBER}) turns \(95% interval ({NUMBER}) to ({NUMBER})\)", ""),
    (rf"({NUMBER}) rounds \(95% interval ({NUMBER}) to ({NUMBER})\)", ""),
    (rf"lead changes ({NUMBER}) per game \(95% interval ({NUMBER}) to ({NUMBER})\)", ""),
    (rf"^    [^:]+: ({NUMBER}) \(({NUMBER}) to ({NUMBER})\)$", ""),  # events per game
    (rf"wins ({NUMBER})% \(({NUMBER})% to ({NUMBER})%\) against", "%"),  # strategy: the challenger
    (rf"the default's ({NUMBER})% \(({NUMBER})% to ({NUMBER})%\)", "%"),
    (rf"gain ({NUMBER}) points \(95% interval ({NUMBER}) points to ({NUMBER}) points\)", ""),
]


def in_pdf_words(text: str, lang: str) -> str:
    text = text.replace("-", "−")
    return text.replace(".", ",") if lang == "ru" else text


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pdf_reports_intervals_are_the_consoles(run, tmp_path, lang):
    path = tmp_path / "report.pdf"
    result = run("analyse", "--precision", "0.1", "--players", "2..3", "--report", str(path), "--lang", lang)
    assert result.exit_code == 0, result.stderr
    pdf = squeezed("\n".join(page.extract_text() for page in PdfReader(path).pages))
    found = signed = 0
    for pattern, unit in PATTERNS:
        for value, low, high in re.findall(pattern, result.stdout, flags=re.M):
            value, low, high = (in_pdf_words(v, lang) for v in (value, low, high))
            expected = f"{value}{unit} ({_span(low, high, lang)}{unit})"
            assert squeezed(expected) in pdf, (expected, pattern)
            found += 1
            signed += low[0] in "+−"
    assert found >= 40 and signed >= 5, (found, signed)


@pytest.mark.parametrize("lang, low, high, written", [
    ("en", "−1.8", "−0.7", "−1.8 to −0.7"), ("ru", "−1,8", "−0,7", "от −1,8 до −0,7"),
    ("en", "−2.8", "+6.0", "−2.8 to +6.0"), ("en", "52.8", "53.8", "52.8–53.8"), ("ru", "0,880", "1,000", "0,880–1,000"),
])
def test_a_signed_range_is_written_in_words(lang, low, high, written):
    assert _span(low, high, lang) == written
