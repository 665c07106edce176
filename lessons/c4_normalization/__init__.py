"""Lesson C4-3 "Normalization": every sublayer reads from the same scale.

numbers.py    its registry numbers (normalization.*): worked example, ε, the anchor's norms, the simulator's
              read-outs in this lesson's mode, the benchmark, the seed-by-seed comparisons of its notes
formulas.py   LayerNorm and RMSNorm on one token, weight decay on a gain, where the anchor's norms sit
twins.py      the teaching vectors (teaching-vectors.json) and the BatchNorm demo's arithmetic
widgets.py    batchnorm-demo, ln-rms-playground, weight-decay (js/)
figures.py    the measured section's charts
claims.json   the measured section's reading notes, each checked against the results
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
    title={"zh": "归一化", "en": "Normalization"},
    question={"zh": "残差流越加越大，怎样让每个子层读到同一量级的输入？",
              "en": "The residual stream keeps growing: how does every sublayer get an input of the same scale?"},
    numbers=numbers.add_numbers,
    validate=validate,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    claims=HERE / "claims.json",
    pages=("c4/normalization",),
    notebooks=("c4/normalization-lab",),
    notebook_title={"zh": "动手实验：归一化", "en": "Hands-on: normalization"},
    notebook_question={"zh": "先预测，再运行，再核对：归一化的几条结论亲手验证一遍。",
                       "en": "Predict, run, check: the normalization lesson's claims, tried by hand."},
)
