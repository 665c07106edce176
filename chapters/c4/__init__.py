"""Chapter C4, "A Transformer block": its overview page, its evolution table (one row per lesson, one
column per generation of models) and the decoder-flow widget its lessons open with. What every chapter
shares (the anchor and frontier models, the cited papers, the small model's runs) is the course's
(course/common/). Its title, the question it answers and its overview's title in the navigation are in
words.LANG.json."""
from __future__ import annotations

from pathlib import Path

from chapters.c4 import widgets
from course.common.tables import evolution
from course.core.units import Unit

UNIT = Unit(
    id="c4",
    folder=Path(__file__).resolve().parent,
    namespace="c4",
    kind="chapter",
    order=(4,),
    widgets=widgets.WIDGETS,
    tables={"evolution": evolution},
    pages=("c4/index",),
)
