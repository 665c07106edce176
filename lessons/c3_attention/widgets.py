"""The attention lesson's widget: attention on the running sentence (js/attention-explorer.js, its labels in
js/attention-explorer.labels.json). Its teaching vectors come through data-config from teaching-vectors.json,
read by the Python twin (twins.py), the scale's defaults from the registry."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels
from course.paths import relative
from lessons.c3_attention import twins

JS = Path(__file__).resolve().parent / "js"


def attention_explorer(ctx: WidgetContext) -> dict:
    t = twins.teaching()
    return {
        "source": relative(twins.VECTORS),
        "tokens": t.tokens, "reader": t.reader, "q": t.q, "k": t.k, "v": t.v,
        "scale": t.scale.model_dump(),
        "digits": 2,          # weights and outputs as the registry writes them
        "percent": 100,       # a cell's shade is this × its weight, in percent of the full color
    }


WIDGETS = (
    Widget("attention-explorer", "attention-explorer.js", attention_explorer,
           load_labels(JS / "attention-explorer.labels.json")),
)
