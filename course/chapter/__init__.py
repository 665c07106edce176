"""Chapter C4, "A Transformer block": what its four lessons share. The anchor model's ledger, the frontier
models, the cited papers, the evolution table, the small model's config and measured runs (numbers.py,
measured.py), the decoder-flow and residual-stream widgets (widgets.py, twins.py) and the overview page."""
from __future__ import annotations

from pathlib import Path

from course.chapter import numbers, tables, widgets
from course.core.units import Unit


def validate() -> str:
    from course.chapter.schema import load_inputs
    inputs = load_inputs()
    return f"{len(inputs.frontier.models)} frontier models, {len(inputs.citations.numbers)} cited numbers"


CHAPTER = Unit(
    id="c4",
    folder=Path(__file__).resolve().parent,
    namespace="",
    title={"zh": "C4 一个 Transformer 块", "en": "C4 A Transformer block"},
    numbers=lambda reg, inputs: numbers.add_numbers(reg.registry, inputs),
    validate=validate,
    widgets=widgets.WIDGETS,
    tables=tables.TABLES,
    pages=("c4/index",),
)
