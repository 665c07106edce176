"""Lesson C4-3 "Normalization": every sublayer reads from the same scale.

numbers.py    its registry numbers (normalization.*): worked example, ε, the anchor's norms, the simulator's
              read-outs in this lesson's mode, the benchmark, the seed-by-seed comparisons of its notes
formulas.py   LayerNorm and RMSNorm on one token, weight decay on a gain, where the anchor's norms sit
twins.py      the teaching vectors (teaching-vectors.json) and the BatchNorm demo's arithmetic
widgets.py    batchnorm-demo, ln-rms-playground, weight-decay (js/)
figures.py    the measured section's charts
claims.json   the measured section's reading notes, each checked against the results
lab.py        what the hands-on notebook imports (docs/c4/normalization-lab.ipynb, .en.ipynb)
words.LANG.json  its words, one file per language: title and question (and its notebook's), its numbers'
              provenance, the figures' titles, legends and text alternatives, every sentence the lab prints
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c4_normalization import figures, numbers, widgets

HERE = Path(__file__).resolve().parent


def validate(inputs) -> str:
    from lessons.c4_normalization.twins import teaching_vectors
    tv = teaching_vectors()
    return f"{len(tv.tokens)} teaching vectors"


UNIT = Unit(
    id="normalization",
    folder=HERE,
    namespace="normalization",
    order=(4, 3),
    numbers=numbers.add_numbers,
    validate=validate,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    claims=HERE / "claims.json",
    pages=("c4/normalization",),
    notebooks=("c4/normalization-lab",),
)
