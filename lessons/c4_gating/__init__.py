"""Lesson C4-4 "Gating": multiply, not only add.

numbers.py          its registry numbers (gating.*): the anchor's gates and what they cost, who gates the
                    attention output, the bounds of the gated FFN, the widgets' read-outs, the measured runs
formulas.py         softmax and the output gate, the three bounded gated FFNs, q_proj's split, the
                    uniform-attention reference of our first-token measurement
twins.py            the attention-sink toy (attention-sink.json, teaching data) and its arithmetic
widgets.py          attention-sink, swiglu-surface, qproj-split (js/)
tables.py           output-gates: which of the compared models gate their attention output
figures.py          the measured section's charts
claims.json         the measured section's reading notes, each checked against the results
words.LANG.json     its words, one file per language: its title and question, its numbers' provenance, the
                    table's headings, the figures' titles, legends and text alternatives
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c4_gating import figures, numbers, tables, widgets

HERE = Path(__file__).resolve().parent


def validate(inputs) -> str:
    from lessons.c4_gating.twins import sink_toy
    toy = sink_toy()
    return f"attention-sink toy: {len(toy.tokens)} tokens, {len(toy.cases)} cases"


UNIT = Unit(
    id="gating",
    folder=HERE,
    namespace="gating",
    order=(4, 4),
    numbers=numbers.add_numbers,
    validate=validate,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    tables=tables.TABLES,
    claims=HERE / "claims.json",
    pages=("c4/gating",),
)
