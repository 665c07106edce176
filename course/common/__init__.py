"""What the whole course shares, as one unit: the anchor model's ledger, the frontier models, the cited
papers (numbers.py), the small model's config and measured runs (measured.py: `run.*`, `config.*`,
`measure.*`), the residual-stream simulator several lessons use (widgets.py, twins.py) and the references.
Its words (the course's title, the provenance of its numbers, the tables' headings) are in words.LANG.json."""
from __future__ import annotations

from pathlib import Path

from course.common import numbers, tables, widgets
from course.core.units import Unit


def validate(inputs) -> str:
    return f"{len(inputs.frontier.models)} frontier models, {len(inputs.citations.numbers)} cited numbers"


UNIT = Unit(
    id="course",
    folder=Path(__file__).resolve().parent,
    namespace="",
    kind="course",
    numbers=lambda reg, inputs: numbers.add_numbers(reg.registry, inputs),
    validate=validate,
    widgets=widgets.WIDGETS,
    tables={"references": tables.references},
)
