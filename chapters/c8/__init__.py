"""Chapter C8, "Training stability": its overview page, which lists the lesson it has (C8-2, why Post-LN
needs a warmup) and, through the course map, the topics other pages defer to it. What the chapter's
lessons share (the small model's runs, the cited papers) is the course's (course/common/); this chapter
adds no numbers, widgets or tables of its own. Its title and the question it answers are in words.LANG.json."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit

UNIT = Unit(
    id="c8",
    folder=Path(__file__).resolve().parent,
    namespace="c8",
    kind="chapter",
    order=(8,),
    pages=("c8/index",),
)
