"""The normalization lesson's widgets: BatchNorm on the teaching vectors, the LayerNorm/RMSNorm
playground, and what weight decay does to a gain. Each JavaScript module is js/NAME.js with its label
table js/NAME.labels.json; every number it starts from comes through data-config."""
from __future__ import annotations

from pathlib import Path

from course.paths import relative
from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels
from lessons.c4_normalization.twins import TEACHING_VECTORS, teaching_vectors

JS = Path(__file__).resolve().parent / "js"
NS = "normalization."


def batchnorm_demo(ctx: WidgetContext) -> dict:
    tv = teaching_vectors()
    return {
        "source": relative(TEACHING_VECTORS),
        "dims": tv.dims,
        "eps": tv.batchnorm_eps,
        "focus": tv.focus,
        "focusGloss": tv.focus_gloss,
        "pad": tv.pad.model_dump(),
        "tokens": {k: v.model_dump() for k, v in tv.tokens.items()},
        "example": tv.example.model_dump(),
        "companions": [{"id": c.id, "tokens": c.tokens, "padToExample": c.pad_to_example, "label": c.label.model_dump()}
                       for c in tv.companions],
        "hidden": ctx.num("anchor.hidden_size"),   # what a real hidden vector has, for the teaching-data note
        "initial": "none",
        "digits": 3,
    }


def ln_rms_playground(ctx: WidgetContext) -> dict:
    return {"x": ctx.num(NS + "worked.x"), "shift": ctx.num(NS + "worked.shift"), "scale": ctx.num(NS + "worked.scale"),
            "digits": 3}


def weight_decay(ctx: WidgetContext) -> dict:
    return {
        "lr": ctx.num("project.lr"),
        "weightDecay": ctx.num("project.weight_decay"),
        "gain": ctx.num(NS + "wd.default_gain"),
        "steps": ctx.num(NS + "wd.default_steps"),
        # slider ranges: wide enough to show both pulls, fine enough to land on the defaults
        "gainRange": {"min": 0.0, "max": 3.0, "step": 0.01},
        "stepsRange": {"min": 0, "max": 20000, "step": 100},
        "samples": 200,   # points per line in the chart
        "digits": 3,
    }


WIDGETS = (
    Widget("batchnorm-demo", "batchnorm-demo.js", batchnorm_demo, load_labels(JS / "batchnorm-demo.labels.json"),
           modes=("naive", "improved")),
    Widget("ln-rms-playground", "ln-rms-playground.js", ln_rms_playground,
           load_labels(JS / "ln-rms-playground.labels.json")),
    Widget("weight-decay", "weight-decay.js", weight_decay, load_labels(JS / "weight-decay.labels.json"), plotly=True),
)
