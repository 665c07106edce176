"""How numbers are written on the pages: the same digits in both languages, and the same rule as the
widgets' JavaScript (docs/assets/js/format.js), which tests/test_format_parity.py holds them to.

Rounding is half away from zero on the exact binary value of the float: 1.125 → "1.13", 2.5 → "3",
−2.5 → "−3", while 1.005 (stored as 1.00499…) → "1.00". That is what JavaScript's toFixed does.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

MINUS = "\u2212"  # typographic minus, so "−1.069" does not read as a hyphen


def rounded(x: float, digits: int) -> Decimal:
    """x rounded to `digits` decimals, half away from zero (Decimal's ROUND_HALF_UP), exactly."""
    return Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def fixed(x: float, digits: int) -> str:
    if not math.isfinite(x):
        return "—"
    r = rounded(x, digits)
    s = f"{abs(r):,.{digits}f}"
    if r == 0:
        return s  # −0.000 prints without a sign
    return (MINUS if r < 0 else "") + s


def integer(x: int) -> str:
    return fixed(x, 0)


def percent(x: float, digits: int) -> str:
    """x is a fraction (0.616 → '61.6%')."""
    return fixed(100 * x, digits) + "%"


def vector(xs: list[float], digits: int) -> str:
    # a value that rounds to zero prints as a plain 0, as the lesson writes it
    return "[" + ", ".join("0" if rounded(x, digits) == 0 else fixed(x, digits) for x in xs) + "]"


def scientific(x: float) -> str:
    """1e-06 → '1e−6', 0.003 → '3e−3' (the form configs and papers use)."""
    mant, exp = f"{x:e}".split("e")
    mant = mant.rstrip("0").rstrip(".")
    return f"{mant}e{int(exp)}".replace("-", MINUS)


def significant(x: float, sig: int) -> str:
    if x == 0 or not math.isfinite(x):
        return fixed(x, 0)
    digits = max(0, sig - 1 - int(math.floor(math.log10(abs(x)))))
    return fixed(x, digits)


def scientific2(x: float) -> str:
    """Two significant digits in the form configs and papers use: 3.46e−10 → '3.5e−10', 1.59e17 → '1.6e17',
    1e17 → '1e17'. Rounding is the module's rule (half away from zero, on the exact value), as toExponential."""
    if x == 0 or not math.isfinite(x):
        return fixed(x, 0)
    d = abs(Decimal(x))
    exp = d.adjusted()
    mant = d.scaleb(-exp).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if mant >= 10:
        mant, exp = (mant / 10).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP), exp + 1
    text = f"{mant:f}".rstrip("0").rstrip(".")
    return (MINUS if x < 0 else "") + f"{text}e{exp}".replace("-", MINUS)


def readable(x: float, digits: int, high: float = 1e6) -> str:
    """fixed(x, digits) where that shows the number; where it would not (a value that rounds to 0.00, or one
    of more than `high`, whose digits mean nothing on a page), two significant digits: '3.5e−10', '1.6e17'."""
    if not math.isfinite(x) or x == 0:
        return fixed(x, digits)
    if abs(x) < 10.0 ** -digits or abs(x) >= high:
        return scientific2(x)
    return fixed(x, digits)

