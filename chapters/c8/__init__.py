"""Chapter C8, "Training stability": its overview page, which lists the lesson it has (C8-2, why Post-LN
needs a warmup) and, through the course map, the topics other pages defer to it. What the chapter's
lessons share (the small model's runs, the cited papers) is the course's (course/common/); this chapter
adds no numbers, widgets or tables of its own."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit

UNIT = Unit(
    id="c8",
    folder=Path(__file__).resolve().parent,
    namespace="c8",
    kind="chapter",
    order=(8,),
    title={"zh": "训练稳定性", "en": "Training stability"},
    question={"zh": "训练为什么会卡住或发散，各家用哪些办法让它稳下来？",
              "en": "Why does training stall or diverge, and what do the labs do to keep it stable?"},
    pages=("c8/index",),
)
