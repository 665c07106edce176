"""Lesson C8-2 "When Post-LN stalls without a warmup in short runs": what a warmup does to Adam's first steps, what Xiong et al.'s
theorem says about the gradient at initialization and what our small model shows instead, and which runs
stall without a warmup.

numbers.py    its registry numbers (warmup.*): Adam's first steps, the papers' scalings at our depths,
              the widgets' read-outs, the depth probes, the traced first updates, the seed counts
formulas.py   the schedule, Adam's and RAdam's first steps, Xiong et al.'s and DeepNet's scalings
twins.py      the two widgets' arithmetic: Adam on synthetic gradients, a random stack at init
widgets.py    warmup-explorer, depth-grads (js/)
figures.py    the measured section's charts
claims.json   the measured section's reading notes, each checked against the results
words.LANG.json  its words, one file per language: title and question, its numbers' provenance (the
              widgets' settings, the probes), the figures' titles, legends and text alternatives
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c8_postln_warmup import figures, numbers, widgets

HERE = Path(__file__).resolve().parent

UNIT = Unit(
    id="warmup",
    folder=HERE,
    namespace="warmup",
    order=(8, 2),
    numbers=numbers.add_numbers,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    claims=HERE / "claims.json",
    pages=("c8/postln-warmup",),
)
