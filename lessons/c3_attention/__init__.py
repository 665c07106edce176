"""Lesson C3-1 "Attention": how a token's row takes in the rows of itself and the tokens before it (query, key,
value, the causal mask, the 1/√d_head scale, many heads), and what attention costs against the FFN as the
context grows.

numbers.py       its registry numbers (attention.*): the widget's teaching data at its defaults, the scale for the
                 anchor and the small model's init, softmax's saturation, the anchor's heads, each model's cost per
                 token and the context at which attention's equals the FFN's, the runs' attention statistics
formulas.py      the costs, the spread of a dot product, softmax's saturation
twins.py         the attention widget's Python twin and its teaching data (teaching-vectors.json)
widgets.py       attention-explorer (js/)
tables.py        the cost table
figures.py       the runs' attention statistics over training
questions.json   its check-yourself questions (course/core/questions.py)
claims.json      the measured section's reading notes (no 1/√d scale; the causal mean)
words.LANG.json  its words, one file per language
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c3_attention import figures, numbers, tables, widgets

HERE = Path(__file__).resolve().parent


def validate(inputs) -> str:
    from lessons.c3_attention.twins import teaching
    t = teaching()
    return f"attention teaching vectors: {len(t.tokens)} tokens of {t.d} numbers"


UNIT = Unit(
    id="attention",  # the lesson's name, which is also its registry namespace: its keys are attention.*
    folder=HERE,
    namespace="attention",
    order=(3, 1),  # chapter 3, lesson 1: its reference id is c3-1 (<!-- ref:c3-1 -->)
    numbers=numbers.add_numbers,
    validate=validate,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    tables=tables.TABLES,
    claims=HERE / "claims.json",
    questions=HERE / "questions.json",
    pages=("c3/attention",),  # docs/c3/attention.md (Chinese) and docs/c3/attention.en.md (English)
)
