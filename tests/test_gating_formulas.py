"""The gating lesson's formulas, each checked against the worked value the lesson shows; the anchor's gates
from its config; who gates the attention output (Qwen3-Next from its code); the registry texts the page
quotes."""
import json
import math
from types import SimpleNamespace

import pytest

from course.common.formulas import silu
from course.common.schema import load_inputs
from course.paths import MODEL_CONFIGS
from lessons.c4_gating import formulas as f

NS = "gating."
# the anchor's text_config, as far as these formulas read it (data/anchor-model.json)
ANCHOR = SimpleNamespace(hidden_size=5120, num_attention_heads=24, head_dim=256, intermediate_size=17408,
                         layer_types=(["linear_attention"] * 3 + ["full_attention"]) * 16, mtp_num_hidden_layers=1,
                         linear_num_value_heads=48, linear_value_head_dim=128)



# ---------------------------------------------------------------- one attention row and its gate

def test_softmax_hands_out_everything_even_with_nothing_to_say():
    assert f.softmax([0.0] * 8) == pytest.approx([0.125] * 8)
    w = f.softmax([6.0] + [0.0] * 7)
    assert sum(w) == pytest.approx(1) and w[0] == pytest.approx(math.exp(6) / (math.exp(6) + 7))
    assert f.softmax([1000.0, 0.0]) == pytest.approx([1.0, 0.0])      # no overflow for large logits


def test_gate_scales_the_head_output():
    y = [0.5, -1.0, 2.0]
    assert f.gate_output(y, None) == y
    assert f.gate_output(y, -6.0) == pytest.approx([v * 0.0024726231566347743 for v in y])
    assert f.sigmoid(0.0) == 0.5 and f.sigmoid(6.0) == pytest.approx(0.9975273768433653)
    assert f.weighted_sum([0.25, 0.75], [[4.0, 0.0], [0.0, 4.0]]) == [1.0, 3.0]
    assert f.length([3.0, 4.0]) == 5.0


# ---------------------------------------------------------------- gated FFNs and their bounds

def test_swiglu_has_no_ceiling_until_clamped_in_deepseek_v4s_form():
    assert f.swiglu(10, 10) == pytest.approx(99.995, abs=5e-4) == silu(10) * 10
    assert f.swiglu(30, 30) > f.swiglu(20, 20) > f.swiglu(10, 10)
    assert f.swiglu(10, 10, limit=7) == pytest.approx(48.955, abs=5e-4) == f.swiglu_clamped_max(7)
    assert f.swiglu(10, -20, limit=7) == pytest.approx(-f.swiglu_clamped_max(7))
    assert f.swiglu(3, 2, limit=7) == f.swiglu(3, 2)                    # below the limit nothing changes
    assert f.swiglu(-20, 5, limit=7) == silu(-20) * 5                   # the gate is clamped from above only
    assert f.swiglu_clamped_max(10) == pytest.approx(99.995, abs=5e-4)


def test_gpt_oss_function_is_not_plain_swiglu():
    top = f.gpt_oss_clamped_max(1.702, 7)
    assert top == pytest.approx(7 * f.sigmoid(1.702 * 7) * 8) and top == pytest.approx(56.0, abs=1e-3)
    assert top != pytest.approx(f.swiglu_clamped_max(7), abs=1)
    assert f.gpt_oss_swiglu(5, -1, 1.702, 7) == 0                        # the +1 on the linear branch
    assert f.gpt_oss_swiglu(50, 50, 1.702, 7) == top


def test_situ_glu_is_swiglu_near_zero_and_saturates_far_out():
    assert f.situ_glu(10, 10, 4, 25) == pytest.approx(37.485, abs=1e-3)
    assert f.situ_glu(0.05, 0.2, 4, 25) == pytest.approx(f.swiglu(0.05, 0.2), rel=2e-3)
    assert f.situ_glu_bound(4, 25) == 100
    assert 99.9 < f.situ_glu(100, 100, 4, 25) < 100


def test_surface_grid_lands_on_both_limits():
    axis = f.grid_axis(12.0, 49)
    assert axis[0] == -12 and axis[-1] == 12 and 7 in axis and 10 in axis
    for limit, top in ((None, silu(12) * 12), (7.0, f.swiglu_clamped_max(7)), (10.0, f.swiglu_clamped_max(10))):
        z = f.surface(12.0, 49, limit)
        assert max(max(r) for r in z) == pytest.approx(top) and min(min(r) for r in z) == pytest.approx(-top)


# ---------------------------------------------------------------- the anchor's gates

def test_q_proj_split_of_the_anchor():
    s = f.q_proj_split(24, 256, True)
    assert s == {"query": 6144, "gate": 6144, "out": 12288, "per_head": 512}
    assert f.q_proj_split(24, 256, False) == {"query": 6144, "gate": 0, "out": 6144, "per_head": 256}


def test_each_head_owns_a_block_of_queries_then_gate():
    assert f.head_slices(0, 256) == {"query": (0, 256), "gate": (256, 512)}
    assert f.head_slices(23, 256) == {"query": (11776, 12032), "gate": (12032, 12288)}
    covered = sorted(r for h in range(24) for r in f.head_slices(h, 256).values())
    assert covered[0][0] == 0 and covered[-1][1] == 12288
    assert all(a[1] == b[0] for a, b in zip(covered, covered[1:]))     # no gap, no overlap


def test_what_the_anchors_output_gates_cost():
    per_layer = f.output_gate_params(5120, 24, 256)
    assert per_layer == 31_457_280
    assert f.anchor_output_gate_layers(ANCHOR) == 17                  # 16 full-attention layers + 1 in MTP
    assert per_layer * 17 == 534_773_760 == 2 * 3 * 5120 * 17408       # as much as two layers' FFNs
    assert f.ffn_shapes(5120, 17408) == {"gate_proj": (5120, 17408), "up_proj": (5120, 17408),
                                         "down_proj": (17408, 5120)}
    assert f.gated_deltanet_gate_width(48, 128) == 6144


def test_uniform_first_token_reference_is_what_uniform_attention_measures():
    assert f.uniform_first_token_share(2) == 0.5
    assert f.uniform_first_token_share(3) == pytest.approx((1 / 2 + 1 / 3) / 2)
    T = 128  # uniform causal attention: row t spreads 1/(t + 1) over positions 0..t; the probe averages rows 1..T−1
    rows = [[1 / (t + 1) if s <= t else 0.0 for s in range(T)] for t in range(T)]
    assert f.uniform_first_token_share(T) == pytest.approx(sum(r[0] for r in rows[1:]) / (T - 1))
    assert f.uniform_first_token_share(T) == pytest.approx(0.03491, abs=1e-5)


# ---------------------------------------------------------------- who gates the attention output

def test_qwen3_next_gates_by_its_code_though_its_config_has_no_key():
    configs = MODEL_CONFIGS
    assert configs.is_dir(), f"{configs} is missing: the official configs are needed to check this fact"
    config = json.loads((configs / "Qwen__Qwen3-Next-80B-A3B-Instruct.config.json").read_text(encoding="utf-8"))
    assert "attn_output_gate" not in config
    m = load_inputs().frontier.by_name("Qwen3-Next-80B-A3B")
    assert m.attn_output_gate is True
    src = m.attn_output_gate_source
    assert src.grade == "official code" and "Qwen3NextAttention" in src.path and "torch.sigmoid(gate)" in src.verification


def test_who_gates_the_attention_output(reg):
    gated = {k for k, n in reg.numbers.items() if k.startswith(NS + "output_gate.") and n.value == 1}
    assert gated == {NS + "output_gate.qwen3_8_27b", NS + "output_gate.qwen3_next_80b_a3b", NS + "output_gate.kimi_k3"}
    assert reg[NS + "output_gate.gated"].value == 3
    assert "from the model's code" in reg[NS + "output_gate.qwen3_next_80b_a3b"].hover("en")


def test_every_answer_says_how_it_is_known(reg):
    """A "no" that no config key records says it is inferred; a "yes" or "no" read from code names the code."""
    from course.core.registry import table_rows
    rows = {r["slug"]: r for r in table_rows(reg, NS + "output_gate.rows")}
    how = {slug: r["how"] for slug, r in rows.items()}
    assert how["qwen3_8_27b"] == how["kimi_k3"] == "config" and how["qwen3_next_80b_a3b"] == "code"
    inferred = {s for s, h in how.items() if h == "inferred"}
    assert inferred == {"llama_3_1_8b", "qwen3_32b", "deepseek_v3", "kimi_k2"}
    assert reg[NS + "output_gate.inferred"].value == len(inferred)
    assert all(reg[NS + f"output_gate.{s}"].value == 0 for s in inferred)
    for s in inferred:
        assert "inferred" in reg[NS + f"output_gate.{s}"].hover("en")
    sinks = {s for s, r in rows.items() if r.get("sink")}
    assert sinks == {"gpt_oss_120b", "gpt_oss_20b", "deepseek_v4_flash", "deepseek_v4_pro"}
    assert all(how[s] == "code" and reg[NS + f"output_gate.{s}"].value == 0 for s in sinks)
    assert "sinks" in reg[NS + "sink_logit.gpt_oss_120b"].text["en"]
    assert "attn_sink" in reg[NS + "sink_logit.deepseek_v4_flash"].text["en"]


def test_configs_hold_no_key_for_the_inferred_gates_nor_the_sinks():
    """The official configs of the models marked inferred, and of those whose sink logits are read from code,
    have no key that would say otherwise."""
    configs = MODEL_CONFIGS
    for name in ("openai__gpt-oss-120b", "deepseek-ai__DeepSeek-V4-Flash", "meta-llama__Llama-3.1-8B-Instruct",
                 "Qwen__Qwen3-32B", "deepseek-ai__DeepSeek-V3", "moonshotai__Kimi-K2-Instruct"):
        text = (configs / f"{name}.config.json").read_text(encoding="utf-8")
        assert "output_gate" not in text and "sink" not in text.replace("hc_sinkhorn_iters", ""), name


@pytest.mark.parametrize("key,text", [
    ("qproj.gate", "6,144"), ("qproj.per_head", "512"), ("gate.layers", "17"),
    ("gate.per_layer_params", "31,457,280"), ("gate.total_params", "534,773,760"), ("gate.share", "1.92%"),
    ("gate.in_ffn_layers", "2"), ("ffn.gate_proj_params", "89,128,960"), ("ffn.gate_proj_share", "33.3%"),
    ("gdn.gate_width", "6,144"), ("gpt_oss.alpha", "1.702"), ("gpt_oss.clamped_max", "56.00"),
    ("situ.beta", "4"), ("situ.linear_beta", "25"), ("situ.bound", "100"), ("situ.at_v4_limit", "37.48"),
    ("small.clamp_bound", "48.955"), ("surface.max.deepseek_v4", "99.995"), ("surface.max.none", "143.999"),
    ("uniform_first_token", "3.49%"), ("small.gate_params", "65,536"), ("sink.uniform_weight", "12.5%"),
])
def test_registry_text_matches_the_lesson(reg, key, text):
    n = reg[NS + key]
    assert n.text["en"] == text and n.text["zh"] == text


def test_the_gate_share_of_q_proj_is_the_chapters_q_proj(reg):
    assert reg[NS + "qproj.query"].value + reg[NS + "qproj.gate"].value == reg["anchor.q_proj_out"].value
    assert reg[NS + "surface.max.deepseek_v4"].value == pytest.approx(reg["swiglu.silu_at_limit_times_limit"].value)


def test_the_gates_cost_is_measured_against_the_chapters_ledger(reg):
    """numbers.py recomputes the ledger from the inputs; it must agree with the chapter's keys."""
    total, ffn = reg["anchor.params.total"].value, reg["anchor.layer.ffn_params"].value
    assert reg[NS + "gate.share"].value == reg[NS + "gate.total_params"].value / total
    assert reg[NS + "gate.in_ffn_layers"].value == reg[NS + "gate.total_params"].value / ffn
    assert reg[NS + "ffn.gate_proj_params"].value * 3 == ffn
