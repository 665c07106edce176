"""Interactive widgets: the root element each `<!-- widget:NAME [mode] -->` shortcode becomes.

Each widget is a small JavaScript module in docs/assets/js/widgets/ that finds its root by
`data-widget="NAME"` and reads its settings from `data-config`. Every number a widget starts from
(lr, weight_decay, the anchor's sizes, the simulator's seed and defaults, the teaching vectors) is
written here from the registry, course/twins.py or a data file, never typed into the JavaScript.

    batchnorm-demo [naive|improved]   BatchNorm on 苹果 with different batch companions (improved adds RMSNorm)
    ln-rms-playground                 LayerNorm vs RMSNorm on an editable 4-d vector, with an operation log
    residual-sim                      the residual-stream simulator (twin: course/twins.simulate)
    weight-decay                      standard gain g vs zero-centered 1 + w under decoupled weight decay
    decoder-flow                      one decoder layer of the anchor, each part with shape and parameters
"""
from __future__ import annotations

import html
import json
from dataclasses import asdict
from typing import Callable


def _registry():
    from course.shortcodes import registry
    return registry()


def _num(key: str) -> dict:
    """A registry number as the widget needs it: the value to compute with, the text to show, the source."""
    n = _registry()[key]
    return {"key": key, "value": n.value, "text": n.text, "source": {lang: n.hover(lang) for lang in n.text}}


def _root(name: str, config: dict, lang: str, mode: str | None = None) -> str:
    data = html.escape(json.dumps(config, ensure_ascii=False, separators=(",", ":")), quote=True)
    noscript = ("这个交互组件需要 JavaScript。" if lang == "zh" else "This interactive widget needs JavaScript.")
    attrs = f'class="cw" data-widget="{name}" data-lang="{lang}" data-config="{data}"'
    if mode:
        attrs += f' data-mode="{mode}"'
    # one line, so Markdown (also inside an indented tab) keeps it as a raw HTML block
    return f'<div {attrs}><noscript>{noscript}</noscript></div>'


def _no_mode(name: str, mode: str | None) -> None:
    if mode is not None:
        from course.shortcodes import ShortcodeError
        raise ShortcodeError(f"widget {name!r} takes no mode, got {mode!r}")


# ---------------------------------------------------------------- the five widgets

BATCHNORM_MODES = ("naive", "improved")


def batchnorm_demo(mode: str | None, lang: str) -> str:
    from course.twins import TEACHING_VECTORS, teaching_vectors
    mode = mode or "naive"
    if mode not in BATCHNORM_MODES:
        from course.shortcodes import ShortcodeError
        raise ShortcodeError(f"widget 'batchnorm-demo' has modes {BATCHNORM_MODES}, got {mode!r}")
    tv = teaching_vectors()
    config = {
        "source": TEACHING_VECTORS,
        "dims": tv.dims,
        "eps": tv.batchnorm_eps,
        "focus": tv.focus,
        "focusGloss": tv.focus_gloss,
        "pad": tv.pad.model_dump(),
        "tokens": {k: v.model_dump() for k, v in tv.tokens.items()},
        "example": tv.example.model_dump(),
        "companions": [{"id": c.id, "tokens": c.tokens, "padToExample": c.pad_to_example, "label": c.label.model_dump()}
                       for c in tv.companions],
        "hidden": _num("anchor.hidden_size"),   # what a real hidden vector has, for the teaching-data note
        "initial": "none",
        "digits": 3,
    }
    return _root("batchnorm-demo", config, lang, mode)


def ln_rms_playground(mode: str | None, lang: str) -> str:
    _no_mode("ln-rms-playground", mode)
    config = {"x": _num("worked.x"), "shift": _num("worked.shift"), "scale": _num("worked.scale"), "digits": 3}
    return _root("ln-rms-playground", config, lang)


def residual_sim(mode: str | None, lang: str) -> str:
    from course.twins import SIM
    _no_mode("residual-sim", mode)
    spec = asdict(SIM)
    config = {
        "spec": spec,
        "layers": _num("sim.default_layers"),
        "gain": _num("sim.default_gain"),
        "toggles": {"residual": True, "prenorm": True, "scale": False},
        "digits": 2,
    }
    return _root("residual-sim", config, lang)


def weight_decay(mode: str | None, lang: str) -> str:
    _no_mode("weight-decay", mode)
    config = {
        "lr": _num("project.lr"),
        "weightDecay": _num("project.weight_decay"),
        "gain": _num("wd.default_gain"),
        "steps": _num("wd.default_steps"),
        # slider ranges: wide enough to show both pulls, fine enough to land on the defaults
        "gainRange": {"min": 0.0, "max": 3.0, "step": 0.01},
        "stepsRange": {"min": 0, "max": 20000, "step": 100},
        "samples": 200,   # points per line in the chart
        "digits": 3,
    }
    return _root("weight-decay", config, lang)


def decoder_flow(mode: str | None, lang: str) -> str:
    _no_mode("decoder-flow", mode)
    d = _registry()["anchor.hidden_size"].value
    parts = [
        {"id": "input", "status": "taught", "shape": [d], "params": None},
        {"id": "norm1", "status": "current", "shape": [d, d], "params": _num("anchor.layer.norm_params")},
        {"id": "attention", "status": "taught", "shape": [d, _registry()["anchor.q_proj_out"].value, d],
         "params": _num("anchor.layer.full_attention_params"), "layers": _num("anchor.full_attention_layers")},
        {"id": "gated-deltanet", "status": "later", "shape": [d, d],
         "params": _num("anchor.layer.gated_deltanet_params"), "layers": _num("anchor.linear_attention_layers")},
        {"id": "add1", "status": "taught", "shape": [d, d], "params": None},
        {"id": "norm2", "status": "current", "shape": [d, d], "params": _num("anchor.layer.norm_params")},
        {"id": "ffn", "status": "taught", "shape": [d, _registry()["anchor.ffn_width"].value, d],
         "params": _num("anchor.layer.ffn_params")},
        {"id": "add2", "status": "taught", "shape": [d, d], "params": None},
    ]
    config = {"parts": parts, "hidden": _num("anchor.hidden_size"), "layers": _num("anchor.num_layers"),
              "heads": _num("anchor.num_heads"), "headDim": _num("anchor.head_dim"), "initial": "norm1"}
    return _root("decoder-flow", config, lang)


WIDGETS: dict[str, Callable[[str | None, str], str]] = {
    "batchnorm-demo": batchnorm_demo,
    "ln-rms-playground": ln_rms_playground,
    "residual-sim": residual_sim,
    "weight-decay": weight_decay,
    "decoder-flow": decoder_flow,
}


def render(name: str, mode: str | None, lang: str) -> str:
    if name not in WIDGETS:
        from course.shortcodes import ShortcodeError
        raise ShortcodeError(f"unknown widget {name!r} (known: {', '.join(WIDGETS) or 'none yet'})")
    return WIDGETS[name](mode, lang)
