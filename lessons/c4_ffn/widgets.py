"""The FFN lesson's widgets: the FFN calculator, the activation explorer and the ring classifier. Each
JavaScript module is js/NAME.js with its label table js/NAME.labels.json; every number it starts from comes
through data-config, from the registry or from the Python twin's spec (twins.py)."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from course.core.units import Widget, WidgetContext
from course.core.widgets import load_labels
from lessons.c4_ffn import formulas as f
from lessons.c4_ffn.twins import RING

JS = Path(__file__).resolve().parent / "js"
NS = "ffn."

# The calculator's presets: (id, model name, registry key of d, of d_ff, form). The anchor's first.
PRESETS = [
    ("anchor", "Qwen3.8-27B", "anchor.hidden_size", "anchor.ffn_width", "swiglu"),
    ("transformer-base", "Transformer base", "transformer_base.hidden_size", "transformer_base.ffn_width", "two_matrix"),
    ("gpt2", "GPT-2 small", "gpt2.hidden_size", "gpt2.ffn_width", "two_matrix"),
    ("llama2-7b", "Llama 2 7B", NS + "llama2.hidden_size", NS + "llama2.ffn_width", "swiglu"),
    ("deepseek-llm-67b", "DeepSeek-LLM-67B", "deepseek_llm_67b.hidden_size", "deepseek_llm_67b.ffn_width", "swiglu"),
    ("llama3-8b", "Llama 3.1 8B", NS + "models.llama_3_1_8b.hidden_size", NS + "models.llama_3_1_8b.ffn_width", "swiglu"),
    ("qwen3-32b", "Qwen3-32B", NS + "models.qwen3_32b.hidden_size", NS + "models.qwen3_32b.ffn_width", "swiglu"),
    ("project", None, "project.d_model", "project.ffn_hidden", "swiglu"),
]


def ffn_calculator(ctx: WidgetContext) -> dict:
    return {
        "presets": [{"id": pid, "name": name, "d": ctx.num(d), "width": ctx.num(w), "kind": kind}
                    for pid, name, d, w, kind in PRESETS],
        "initial": "anchor",
        "matrices": f.MATRICES,
        # slider ranges: every preset's d is a multiple of 128 inside this one; ratios up to 8d
        "dRange": {"min": 128, "max": 8192, "step": 128},
        "ratioRange": {"min": 1, "max": 8, "step": 0.05},
    }


def activation_explorer(ctx: WidgetContext) -> dict:
    return {
        "range": ctx.num(NS + "act.range"),
        "x": ctx.num(NS + "act.default_x"), "a": ctx.num(NS + "act.default_a"), "b": ctx.num(NS + "act.default_b"),
        "step": 0.05,       # the sliders' step
        "samples": 161,     # points per curve
        "grid": 41,         # the heat map is grid × grid
        "digits": 3,
    }


def ring_classifier(ctx: WidgetContext) -> dict:
    return {"spec": asdict(RING), "digits": 1}


WIDGETS = (
    Widget("ffn-calculator", "ffn-calculator.js", ffn_calculator, load_labels(JS / "ffn-calculator.labels.json")),
    Widget("activation-explorer", "activation-explorer.js", activation_explorer,
           load_labels(JS / "activation-explorer.labels.json"), plotly=True),
    Widget("ring-classifier", "ring-classifier.js", ring_classifier, load_labels(JS / "ring-classifier.labels.json"),
           modes=("linear", "relu"), plotly=True),
)
