"""Lesson C4-2 "Residual": the stream every layer writes into.

numbers.py    its registry numbers (residual.*): the anchor's writes, the unrolled view's path counts, the
              stream's growth against √(n + 1), the chapter simulator's read-outs in this lesson's mode,
              the wider streams of DeepSeek-V4 and Kimi K3, the seed-by-seed comparisons of its notes
formulas.py   path counts and lengths, the spread of a sum of writes, widened streams
twins.py      the Python twins of its two widgets
widgets.py    residual-paths, variance-growth (js/); the simulator is the chapter's (course/common/)
figures.py    the measured section's charts
claims.json   the measured section's reading notes, each checked against the results
words.LANG.json  its words, one file per language: title and question, its numbers' provenance, the figures'
              titles, legends and text alternatives
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.c4_residual import figures, numbers, widgets

HERE = Path(__file__).resolve().parent


def validate(inputs) -> str:
    from lessons.c4_residual import formulas as f
    return f"{f.path_count(numbers.PATHS_MAX)} paths at most in the paths widget"


UNIT = Unit(
    id="residual",
    folder=HERE,
    namespace="residual",
    order=(4, 2),
    numbers=numbers.add_numbers,
    validate=validate,
    widgets=widgets.WIDGETS,
    figures=figures.FIGURES,
    claims=HERE / "claims.json",
    pages=("c4/residual",),
)
