"""The gating lesson's widgets: the attention-sink toy (one query row, with and without an output gate),
the SwiGLU surface with its clamp selector, and the split of the anchor's q_proj into queries and gate.
Each JavaScript module is js/NAME.js with its label table js/NAME.labels.json; every number it starts from
comes through data-config (registry numbers as ctx.num, the toy's teaching data from attention-sink.json)."""
from __future__ import annotations

from pathlib import Path

from course.paths import relative
from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels
from lessons.c4_gating.numbers import SURFACE_DIGITS, SURFACE_EXTENT, SURFACE_POINTS
from lessons.c4_gating.twins import ATTENTION_SINK, sink_toy

JS = Path(__file__).resolve().parent / "js"
NS = "gating."


def attention_sink(ctx: WidgetContext) -> dict:
    toy = sink_toy()
    return {
        "source": relative(ATTENTION_SINK),
        "tokens": toy.tokens,
        "values": toy.values,
        "cases": [c.model_dump() for c in toy.cases],
        "sink": toy.sink_logit.model_dump(),
        "gateLogit": toy.gate_logit.model_dump(),
        "initial": "nothing",
        "gate": ctx.mode == "improved",   # the naive plan has no gate to turn on
        "digits": {"weight": 1, "vector": 3, "norm": 3, "gate": 2, "normGated": 4},   # as the registry writes them
        "percent": 100,   # a fraction times this is the percentage shown (the JS types no number of its own)
    }


def swiglu_surface(ctx: WidgetContext) -> dict:
    return {
        "limits": [None, ctx.num("gpt_oss.swiglu_limit"), ctx.num("deepseek_v4.swiglu_limit")],
        "extent": ctx.num(NS + "surface.extent"),
        "points": ctx.num(NS + "surface.points"),
        # the point the reader moves, starting where the lesson's unbounded example sits: a = b = 10
        "point": ctx.num("deepseek_v4.swiglu_limit"),
        "pointStep": 2 * SURFACE_EXTENT / (SURFACE_POINTS - 1),
        "digits": SURFACE_DIGITS,
        "height": 380, "markerSize": 12,   # layout in px, passed here so the JS holds no number of its own
    }


def qproj_split(ctx: WidgetContext) -> dict:
    return {
        "hidden": ctx.num("anchor.hidden_size"),
        "heads": ctx.num("anchor.num_heads"),
        "headDim": ctx.num("anchor.head_dim"),
        "out": ctx.num("anchor.q_proj_out"),
        "query": ctx.num(NS + "qproj.query"),
        "gate": ctx.num(NS + "qproj.gate"),
        "gateParams": ctx.num(NS + "gate.per_layer_params"),
        "initial": 1,
    }


WIDGETS = (
    Widget("attention-sink", "attention-sink.js", attention_sink, load_labels(JS / "attention-sink.labels.json"),
           modes=("naive", "improved")),
    Widget("swiglu-surface", "swiglu-surface.js", swiglu_surface, load_labels(JS / "swiglu-surface.labels.json"),
           plotly=True),
    Widget("qproj-split", "qproj-split.js", qproj_split, load_labels(JS / "qproj-split.labels.json")),
)
