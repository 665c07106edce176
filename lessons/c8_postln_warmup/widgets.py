"""The warmup lesson's widgets: Adam's first steps on a stream of synthetic gradients under a warmup
(warmup-explorer), and a random Post-LN / Pre-Norm stack's gradients at initialization as depth changes
(depth-grads). Each JavaScript module is js/NAME.js with its label table js/NAME.labels.json; every
number it starts from comes through data-config, and its arithmetic is twins.py's."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels
from lessons.c8_postln_warmup import formulas as f
from lessons.c8_postln_warmup import twins as tw

JS = Path(__file__).resolve().parent / "js"
NS = "warmup."
# the explorer's peak learning rate and schedule: the lesson's warmup runs' (models/experiments.json)
RUN = "c8_postln_lr1e-3_warmup100"


def warmup_explorer(ctx: WidgetContext) -> dict:
    return {
        "spec": asdict(tw.EXPLORER),
        "steps": ctx.num(NS + "steps"),
        "peak": ctx.num(f"config.{RUN}.lr"),
        "beta1": ctx.num(NS + "beta1"),
        # the β2 a reader can pick: ours, the 2017 Transformer's, Adam's default
        "beta2": {"ours": ctx.num(NS + "beta2"), "vaswani": ctx.num("vaswani.beta2"),
                  "adam": ctx.num("kingma.beta2")},
        "eps": ctx.num(NS + "adam_eps"),
        "minLrFraction": f.MIN_LR_FRACTION,
        "digits": 3,
    }


def depth_grads(ctx: WidgetContext) -> dict:
    spec = asdict(tw.DEPTH)
    spec["depths"] = list(tw.DEPTH.depths)
    presets = tw.depth_presets(tw.DEPTH.width, ctx.value("project.init_std"), ctx.value("project.d_model"))
    return {"spec": spec, "eps": ctx.num("project.eps"),
            "presets": {k: asdict(p) for k, p in presets.items()},
            "initStd": ctx.num("project.init_std"), "dModel": ctx.num("project.d_model"),
            "digits": 3}


WIDGETS = (
    Widget("warmup-explorer", "warmup-explorer.js", warmup_explorer, load_labels(JS / "warmup-explorer.labels.json"),
           plotly=True),
    Widget("depth-grads", "depth-grads.js", depth_grads, load_labels(JS / "depth-grads.labels.json"), plotly=True),
)
