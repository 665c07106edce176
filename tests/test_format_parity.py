"""Python (course/core/formats.py) and JavaScript (docs/assets/js/format.js) write a number the same
way: one rounding rule, half away from zero on the exact binary value, over ties, negatives and zero."""
import json
import subprocess

import pytest

from course.core import formats
from course.paths import DOCS

CASES = [(1.125, 2), (2.5, 0), (-2.5, 0), (0.5, 0), (-0.5, 0), (1.005, 2), (0.125, 2), (-0.125, 2), (2.675, 2),
         (0.0, 0), (0.0, 3), (-0.0, 2), (-0.0001, 3), (0.0004999, 3), (1234567.891, 1), (-1234.5, 0), (99.995, 2),
         (660480, 0), (0.00707106781, 5), (11.357816691600547, 2), (-1.0690449676496976, 3), (1e-7, 2)]
VECTORS = [([-1.0690449676496976, -0.5345224838248488, 0.0, 1.6035674514745464], 3), ([0.0004, -0.0004, 2.5], 0)]


def js(expr_cases: str) -> list:
    script = (f"require({json.dumps(str(DOCS / 'assets/js/format.js'))});"
              f"const F = globalThis.CWFormat; process.stdout.write(JSON.stringify({expr_cases}));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_fixed_agrees_on_ties_negatives_and_zero():
    got = js(f"{json.dumps(CASES)}.map(([x, d]) => F.fixed(x, d))")
    want = [formats.fixed(x, d) for x, d in CASES]
    assert got == want
    assert want[:3] == ["1.13", "3", "\u22123"]   # the rule itself: ties go away from zero


def test_vector_agrees_and_writes_a_plain_zero():
    got = js(f"{json.dumps(VECTORS)}.map(([xs, d]) => F.vector(xs, d))")
    assert got == [formats.vector(xs, d) for xs, d in VECTORS]
    assert got[0] == "[\u22121.069, \u22120.535, 0, 1.604]"


def test_percent_agrees():
    cases = [(0.616, 1), (88 / 120, 1), (0.000024, 4), (0.0375, 1), (1.0, 0)]
    got = js(f"{json.dumps(cases)}.map(([x, d]) => F.percent(x, d))")
    assert got == [formats.percent(x, d) for x, d in cases]
    assert got[:2] == ["61.6%", "73.3%"]


@pytest.mark.parametrize("x", [float("nan"), float("inf")])
def test_a_number_that_is_not_finite_is_a_dash_in_both(x):
    assert formats.fixed(x, 2) == "—"
    assert js("[F.fixed(NaN, 2), F.fixed(Infinity, 2)]") == ["—", "—"]


READABLE = [(159287036108943232.0, 2), (3.4567e-10, 2), (0.0, 2), (0.004, 2), (0.0099, 2), (0.01, 2), (13.555, 2),
            (999999.0, 2), (1e6, 2), (-2.5e-8, 2), (9.96e-5, 2), (0.125, 0), (1.25e-3, 2), (-159287036108943232.0, 2),
            (float("nan"), 2)]


def test_readable_agrees_and_stays_fixed_where_fixed_shows_the_number():
    got = js(f"{json.dumps([[x if x == x else None, d] for x, d in READABLE])}"
             ".map(([x, d]) => F.readable(x === null ? NaN : x, d))")
    want = [formats.readable(x, d) for x, d in READABLE]
    assert got == want
    # the gradient ratio of the residual simulator at its extremes: not "159,287,036,108,943,232.00" or "0.00"
    assert want[:2] == ["1.6e17", "3.5e\u221210"]
    assert want[6] == formats.fixed(13.555, 2) and want[7] == "999,999.00" and want[8] == "1e6"
    assert want[9] == "\u22122.5e\u22128" and want[10] == "1e\u22124"


def test_significant_agrees():
    cases = [(0.001234, 2), (0.973, 3), (124.3, 2), (1.0, 3), (-0.0456, 2), (0.0, 2), (9.99, 2)]
    got = js(f"{json.dumps(cases)}.map(([x, d]) => F.significant(x, d))")
    assert got == [formats.significant(x, d) for x, d in cases]
