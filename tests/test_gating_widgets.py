"""The gating lesson's widgets and their Python twins: the attention-sink toy's arithmetic on its teaching
data, the SwiGLU surface under each clamp, the q_proj split from the anchor's config, and the registry
numbers each widget starts from and the page quotes."""
import json

import pytest
from conftest import widget_config as config

from course.common.schema import load_inputs
from course.core.schema import InputError
from course.project import units as discover
from lessons.c4_gating import formulas as f
from lessons.c4_gating import twins

UNITS = discover()
NS = "gating."




# ---------------------------------------------------------------- attention-sink

def test_twin_attention_sink_weights_always_sum_to_one():
    toy = twins.sink_toy()
    for case in toy.cases:
        for sink in (toy.sink_logit.min, 2.5, toy.sink_logit.max):
            r = twins.sink_row(toy, case.id, sink)
            assert sum(r.weights) == pytest.approx(1) and all(w > 0 for w in r.weights)
            assert r.output == pytest.approx(f.weighted_sum(r.weights, toy.values)) and r.written == r.output


def test_twin_attention_sink_tells_the_lesson():
    toy = twins.sink_toy()
    blur = twins.sink_row(toy, "nothing", 0.0)
    assert blur.weights == pytest.approx([1 / len(toy.tokens)] * len(toy.tokens))
    parked = twins.sink_row(toy, "nothing", 6.0)
    # parking the weight on the short first value writes less than the blur ...
    assert parked.first_token > 0.9 and f.length(parked.output) < f.length(blur.output) / 5
    # ... but the same sink logit drowns a real match
    found, found_sink = twins.sink_row(toy, "found", 0.0), twins.sink_row(toy, "found", 6.0)
    i = toy.tokens.index("苹果")
    assert found.weights[i] > 0.8 and found_sink.weights[i] < 0.2
    # the gate scales whatever the weights write
    shut = twins.sink_row(toy, "nothing", 0.0, gate_logit=-6.0)
    assert shut.gate == pytest.approx(f.sigmoid(-6.0)) and shut.written == pytest.approx([shut.gate * v for v in shut.output])
    assert f.length(shut.written) < 0.01 * f.length(blur.output)


def test_twin_attention_sink_feeds_the_lessons_keys(reg):
    toy = twins.sink_toy()
    g, high = reg[NS + "sink.gate_logit"].value, reg[NS + "sink.sink_high"].value
    open_ = reg[NS + "sink.gate_open_logit"].value
    assert g == toy.gate_logit.default
    cases = {"nothing": ("nothing", 0.0, g), "nothing_sink": ("nothing", high, g),
             "found": ("found", 0.0, open_), "found_sink": ("found", high, open_)}
    readouts = {"first_token": lambda r: r.first_token, "output_norm": lambda r: f.length(r.output),
                "written_norm": lambda r: f.length(r.written), "weight_sum": lambda r: sum(r.weights)}
    checked = 0
    for name, (case, sink, gate) in cases.items():
        r = twins.sink_row(toy, case, sink, gate)
        assert sum(r.weights) == pytest.approx(1)
        for readout, value in readouts.items():   # the read-outs the page quotes of this row
            if f"{NS}sink.{name}.{readout}" in reg:
                assert reg[f"{NS}sink.{name}.{readout}"].value == value(r)
                checked += 1
    assert checked >= 4 and reg[NS + "sink.nothing.weight_sum"].text["en"] == "100%"
    assert reg[NS + "sink.found_sink.match_weight"].value < reg[NS + "sink.found.match_weight"].value


def test_twin_attention_sink_config_is_the_teaching_data(reg):
    toy = twins.sink_toy()
    naive, improved = config(reg, "attention-sink", "naive"), config(reg, "attention-sink", "improved", "en")
    for cfg in (naive, improved):
        assert cfg["tokens"] == toy.tokens and cfg["values"] == toy.values
        assert cfg["cases"] == [c.model_dump() for c in toy.cases] and cfg["source"] == "lessons/c4_gating/attention-sink.json"
        assert cfg["sink"]["default"] == toy.sink_logit.default and cfg["gateLogit"]["default"] == toy.gate_logit.default
    assert naive["gate"] is False and improved["gate"] is True     # the naive plan has no gate to turn on


def test_twin_attention_sink_teaching_data_is_validated(tmp_path):
    data = json.loads(twins.ATTENTION_SINK.read_text(encoding="utf-8"))
    data["values"] = data["values"][:-1]
    bad = tmp_path / "attention-sink.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError, match="8 tokens need 8 value vectors"):
        twins.sink_toy(bad)
    data = json.loads(twins.ATTENTION_SINK.read_text(encoding="utf-8"))
    data["cases"][0]["match"] = "西瓜"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError, match="西瓜"):
        twins.sink_toy(bad)


# ---------------------------------------------------------------- swiglu-surface

def test_twin_swiglu_surface_maxima_are_the_registrys(reg):
    cfg = config(reg, "swiglu-surface")
    limits = [None if lim is None else lim["value"] for lim in cfg["limits"]]
    assert limits == [None, reg["gpt_oss.swiglu_limit"].value, reg["deepseek_v4.swiglu_limit"].value]
    extent, points = cfg["extent"]["value"], cfg["points"]["value"]
    assert cfg["pointStep"] == pytest.approx(f.grid_axis(extent, points)[1] - f.grid_axis(extent, points)[0])
    for name, limit in zip(("none", "gpt_oss", "deepseek_v4"), limits):
        z = f.surface(extent, points, limit)
        assert max(max(r) for r in z) == reg[f"{NS}surface.max.{name}"].value
    # clamped at DeepSeek V4's limit, the grid's maximum is the chapter's SiLU(10)·10
    assert reg[NS + "surface.max.deepseek_v4"].value == pytest.approx(reg["swiglu.silu_at_limit_times_limit"].value)
    assert reg[NS + "surface.max.none"].value > reg[NS + "surface.max.deepseek_v4"].value
    assert cfg["point"]["value"] == reg["deepseek_v4.swiglu_limit"].value


def test_twin_swiglu_surface_clamp_is_our_models():
    """The widget's clamp is models/model.py's SwiGLU: gate clamped from above, up to ±limit."""
    import torch

    from models.model import GPTConfig, SwiGLU
    torch.manual_seed(0)
    mlp = SwiGLU(GPTConfig(d_model=8, swiglu_limit=7.0))
    seen = []   # what the model's forward hands to down_proj: the hidden activation the widget draws
    mlp.c_proj.register_forward_hook(lambda m, inputs, out: seen.append(inputs[0]))
    with torch.no_grad():
        x = 40 * torch.randn(5, 8)
        mlp(x)
        gate, up = mlp.c_gate(x), mlp.c_up(x)
    assert (gate > 7).any() and (up.abs() > 7).any(), "the sample must reach the clamp"
    ours = torch.tensor([[f.swiglu(float(a), float(b), 7.0) for a, b in zip(g, u)] for g, u in zip(gate, up)])
    assert torch.allclose(seen[0], ours.to(seen[0].dtype), rtol=1e-5, atol=1e-6)
    assert seen[0].max() <= f.swiglu_clamped_max(7.0) + 1e-4


# ---------------------------------------------------------------- qproj-split

def test_twin_qproj_split_is_the_anchor_config(reg):
    cfg = config(reg, "qproj-split", lang="en")
    t = load_inputs().anchor.config.text_config
    split = f.q_proj_split(t.num_attention_heads, t.head_dim, t.attn_output_gate)
    assert cfg["heads"]["value"] == t.num_attention_heads and cfg["headDim"]["value"] == t.head_dim
    assert cfg["out"]["value"] == split["out"] == reg["anchor.q_proj_out"].value
    assert cfg["query"]["value"] == split["query"] and cfg["gate"]["value"] == split["gate"]
    assert cfg["gateParams"]["value"] == t.hidden_size * split["gate"]
    # every output belongs to exactly one head's queries or gate
    owners = [None] * split["out"]
    for h in range(t.num_attention_heads):
        for part, (a, b) in f.head_slices(h, t.head_dim).items():
            for i in range(a, b):
                assert owners[i] is None
                owners[i] = (h, part)
    assert None not in owners and sum(p == "gate" for _, p in owners) == split["gate"]
