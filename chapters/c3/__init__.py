"""Chapter C3, "Attention": its overview page, which lists its written lessons by itself. What its
lessons share goes here (numbers, widgets, tables), as chapters/c4/ does. Its title and the question it
answers are in words.LANG.json."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit

UNIT = Unit(
    id="c3",
    folder=Path(__file__).resolve().parent,
    namespace="c3",
    kind="chapter",
    order=(3,),
    pages=("c3/index",),
)
