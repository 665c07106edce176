"""Chapter C4's widget: the decoder-flow, one decoder layer of the anchor with each lesson's part lit (its
mode is the lesson). Which parts each lesson has taught is the chapter's to say, so it lives here."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels

JS = Path(__file__).resolve().parent / "js"

# Which parts of the layer each lesson has taught, is teaching, leaves for a later lesson of this chapter,
# or leaves to another chapter (attention to C3, Gated DeltaNet to C11: their tags are references).
# "gate": the lesson teaches only the gate inside the part (lesson 4: the attention output gate, the FFN's
# gate_proj); the rest of the part is taught where its reference says.
PART_STATUS = {
    "ffn": {"input": "later", "norm1": "later", "attention": "elsewhere", "gated-deltanet": "elsewhere",
            "add1": "later", "norm2": "later", "ffn": "current", "add2": "later"},
    "residual": {"input": "current", "norm1": "later", "attention": "elsewhere", "gated-deltanet": "elsewhere",
                 "add1": "current", "norm2": "later", "ffn": "taught", "add2": "current"},
    "normalization": {"input": "taught", "norm1": "current", "attention": "elsewhere", "gated-deltanet": "elsewhere",
                      "add1": "taught", "norm2": "current", "ffn": "taught", "add2": "taught"},
    "gating": {"input": "taught", "norm1": "taught", "attention": "gate", "gated-deltanet": "elsewhere",
               "add1": "taught", "norm2": "taught", "ffn": "gate", "add2": "taught"},
}


def decoder_flow(ctx: WidgetContext) -> dict:
    d = ctx.value("anchor.hidden_size")
    status = PART_STATUS[ctx.mode]
    parts = [
        {"id": "input", "shape": [d], "params": None},
        {"id": "norm1", "shape": [d, d], "params": ctx.num("anchor.layer.norm_params")},
        {"id": "attention", "shape": [d, ctx.value("anchor.q_proj_out"), d],
         "params": ctx.num("anchor.layer.full_attention_params"), "layers": ctx.num("anchor.full_attention_layers")},
        {"id": "gated-deltanet", "shape": [d, d],
         "params": ctx.num("anchor.layer.gated_deltanet_params"), "layers": ctx.num("anchor.linear_attention_layers")},
        {"id": "add1", "shape": [d, d], "params": None},
        {"id": "norm2", "shape": [d, d], "params": ctx.num("anchor.layer.norm_params")},
        {"id": "ffn", "shape": [d, ctx.value("anchor.ffn_width"), d], "params": ctx.num("anchor.layer.ffn_params")},
        {"id": "add2", "shape": [d, d], "params": None},
    ]
    for p in parts:
        p["status"] = status[p["id"]]
    first = next(p["id"] for p in parts if p["status"] in ("current", "gate"))
    return {"parts": parts, "hidden": ctx.num("anchor.hidden_size"), "layers": ctx.num("anchor.num_layers"),
            "heads": ctx.num("anchor.num_heads"), "headDim": ctx.num("anchor.head_dim"), "initial": first}


WIDGETS = (
    Widget("decoder-flow", "decoder-flow.js", decoder_flow, load_labels(JS / "decoder-flow.labels.json"),
           modes=tuple(PART_STATUS)),
)
