"""Chapter C4, "A Transformer block": its overview page, its evolution table (one row per lesson, one
column per generation of models) and the decoder-flow widget its lessons open with. What every chapter
shares (the anchor and frontier models, the cited papers, the small model's runs) is the course's
(course/common/)."""
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
    title={"zh": "一个 Transformer 块", "en": "A Transformer block"},
    question={"zh": "一个解码层里的 FFN、残差、归一化和门控各做什么，为什么是现在这个样子？",
              "en": "What do the FFN, the residual connection, normalization and gating of one decoder layer do, and why do they look the way they do?"},
    widgets=widgets.WIDGETS,
    tables={"evolution": evolution},
    pages=("c4/index",),
    overview={"zh": "概览与演进表", "en": "Overview and evolution table"},
)
