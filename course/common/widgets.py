"""The residual-stream simulator, a widget several lessons share: lesson C4-2 (mode `residual`: RMSNorm
off) and lesson C4-3 (mode `normalization`: RMSNorm on), each quoting its own read-outs."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from course.common.twins import SIM
from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels

JS = Path(__file__).resolve().parent / "js"

# The simulator's switches when a page loads, per lesson: lesson 2 starts from the bare residual stream,
# lesson 3 with its own part, RMSNorm at each sublayer's input, switched on.
SIM_TOGGLES = {
    "normalization": {"residual": True, "prenorm": True, "scale": False},
    "residual": {"residual": True, "prenorm": False, "scale": False},
}


def residual_sim(ctx: WidgetContext) -> dict:
    return {"spec": asdict(SIM), "layers": {"value": SIM.default_layers}, "gain": {"value": SIM.default_gain},
            "toggles": SIM_TOGGLES[ctx.mode], "digits": 2}


WIDGETS = (
    Widget("residual-sim", "residual-sim.js", residual_sim, load_labels(JS / "residual-sim.labels.json"),
           modes=tuple(SIM_TOGGLES), plotly=True),
)
