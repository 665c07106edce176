"""The residual lesson's own widgets: the unrolled paths of x + F(x), and the stream's growth against
√(n + 1). (The residual-stream simulator is the chapter's, course/common/widgets.py, in its `residual`
mode.) Each JavaScript module is js/NAME.js with its label table js/NAME.labels.json; every number it
starts from comes through data-config."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels

JS = Path(__file__).resolve().parent / "js"
NS = "residual."


def residual_paths(ctx: WidgetContext) -> dict:
    return {"blocks": ctx.num(NS + "paths.default_blocks"), "maxBlocks": ctx.num(NS + "paths.max_blocks")}


def variance_growth(ctx: WidgetContext) -> dict:
    return {
        "stream": ctx.num(NS + "growth.sim_stream"),   # the simulator's stream RMS after n = 0 … N writes
        "write": ctx.num(NS + "growth.sim_write"),     # the RMS of write n = 1 … N
        "gain": ctx.num(NS + "sim.default_gain"),
        "n": ctx.num(NS + "growth.at_default.n"),
        "digits": 2,
    }


WIDGETS = (
    Widget("residual-paths", "residual-paths.js", residual_paths, load_labels(JS / "residual-paths.labels.json")),
    Widget("variance-growth", "variance-growth.js", variance_growth, load_labels(JS / "variance-growth.labels.json"),
           plotly=True),
)
