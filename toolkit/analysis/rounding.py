"""Rounding for the printed reports: halves away from zero (never to even), ends of a range outward,
and enough decimals that a bound's sign shows."""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal


def rounded(value: float, digits: int, way: str = "near") -> float:
    """``value`` to ``digits`` decimals: "near" (halves away from zero, not to even), "down" or "up"
    (outward ends of a range)."""
    scale = Decimal(1).scaleb(-digits)
    mode = {"near": ROUND_HALF_UP, "down": ROUND_FLOOR, "up": ROUND_CEILING}[way]
    return float(Decimal(repr(value)).quantize(scale, rounding=mode))


def sign_digits(*values: float, digits: int = 1, most: int = 3) -> int:
    """Decimals enough that every value that is not 0 prints as not 0 (so a bound's sign shows)."""
    while digits < most and any(v != 0 and abs(v) < 10 ** -digits for v in values):
        digits += 1
    return digits


def figure(value: float, digits: int, way: str = "near") -> str:
    """``value`` written with ``digits`` decimals, rounded ``way`` (see ``rounded``), never "-0.0": the
    one way the console's report and the PDF's write a figure or an end of its interval, so that the
    two give the same numbers (the PDF then writes them in its language's way)."""
    text = f"{rounded(value, digits, way):.{digits}f}"
    return text.lstrip("-") if text.lstrip("-").strip("0.") == "" else text
