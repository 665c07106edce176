"""Lesson C4-1's formulas against their worked values, and the registry numbers the page quotes against the
formulas and the data files they come from."""
import math

import pytest

from course.common.formulas import silu
from lessons.c4_ffn import formulas as f
from lessons.c4_ffn.numbers import dense_ffn_models

NS = "ffn."




# ---------------------------------------------------------------- parameters of one FFN

def test_two_matrix_ffn_of_the_2017_base_model():
    assert f.two_matrix_ffn_params(512, 2048) == 2_097_152
    assert f.ffn_params(512, 2048, "two_matrix") == 2_097_152
    assert f.ffn_params(512, 2048, "swiglu") == 3_145_728
    assert f.ffn_bias_params(768, 3072) == 3840


def test_equal_parameter_width_is_8d_over_3_and_back():
    d = 4096
    assert f.equal_params_width(4 * d, "two_matrix", "swiglu") == pytest.approx(8 * d / 3)
    assert f.equal_params_width(8 * d / 3, "swiglu", "two_matrix") == pytest.approx(4 * d)
    # at that width the two forms cost the same
    assert f.ffn_params(d, 4 * d, "two_matrix") == pytest.approx(3 * d * (8 * d / 3))


def test_meta_rule_gives_llama2_and_deepseek_llm_widths():
    assert f.meta_ffn_width(4096, 256) == 11008        # int(10922.67) = 10922 → 43 × 256
    assert f.meta_ffn_width(8192, 256) == 22016        # int(21845.33) = 21845 → 86 × 256
    assert f.meta_ffn_width(128, 8) == 344             # the project's d and multiple_of
    assert f.meta_ffn_width(5120, 256) == 13824
    # the multiplier path: truncate, scale, truncate again, round up
    assert f.meta_ffn_width(4096, 1024, 1.3) == 14336  # int(1.3 · 10922) = 14198 → 14 × 1024
    assert f.meta_ffn_width(4096, 1) == 10922          # multiple_of 1: only the truncation is left


def test_moe_counts_of_a_deepseek_v3_shaped_model():
    out = f.moe_ffn_params(d=7168, layers=61, dense_layers=3, dense_width=18432, expert_width=2048,
                           routed=256, per_token=8, shared=1)
    expert = 3 * 7168 * 2048
    assert out["dense"] == 3 * 3 * 7168 * 18432 == 1_189_085_184
    assert out["total"] == out["dense"] + 58 * 257 * expert == 657_652_187_136
    assert out["active"] == out["dense"] + 58 * 9 * expert == 24_178_065_408
    # a dense model: nothing routed, total equals active
    dense = f.moe_ffn_params(d=64, layers=4, dense_layers=4, dense_width=128, expert_width=1, routed=0,
                             per_token=0, shared=0)
    assert dense["total"] == dense["active"] == 4 * 3 * 64 * 128


# ---------------------------------------------------------------- activations

def test_activations_at_worked_points():
    assert f.relu(-1.5) == 0.0 and f.relu(2.0) == 2.0
    assert f.gelu_exact(1.0) == pytest.approx(0.8413447460685429)      # Φ(1) = 0.841344746…
    assert f.gelu_tanh(1.0) == pytest.approx(0.8411919906082768)
    assert f.gelu_tanh(0.0) == 0.0 and f.gelu_exact(-10.0) == pytest.approx(0.0, abs=1e-20)
    assert f.swiglu_product(2.0, 3.0) == pytest.approx(3 * 2 / (1 + math.exp(-2)))
    assert f.swiglu_product(-20.0, 5.0) == pytest.approx(0.0, abs=1e-6)   # a shut gate
    assert f.ACTIVATIONS["silu"] is silu


def test_largest_gap_finds_the_worst_sample():
    assert f.largest_gap(lambda x: x, lambda x: 0.0, -2.0, 1.0, 4) == 2.0
    gap = f.largest_gap(f.gelu_tanh, f.gelu_exact, -6.0, 6.0, 12001)
    assert 1e-4 < gap < 1e-3


# ---------------------------------------------------------------- the registry against the data

def test_registry_widths_follow_the_data(reg, inputs):
    llama = inputs.frontier.by_name("Llama 2 7B")
    assert reg[NS + "llama2.width_by_rule"].value == llama.ffn_width == 11008
    assert reg[NS + "llama2.truncated"].value == int(8 * llama.hidden_size / 3)
    ds = inputs.frontier.by_name("DeepSeek-LLM-67B")
    assert reg[NS + "deepseek_llm_67b.width_by_rule"].value == ds.ffn_width
    assert reg[NS + "project.meta_rule_width"].value == reg["project.ffn_hidden"].value \
        == reg["config.c4_baseline.ffn_hidden"].value


def test_registry_anchor_shares(reg):
    ffn, total = reg["anchor.params.ffn"].value, reg["anchor.params.total"].value
    assert reg["anchor.ffn_share"].text["en"] == "61.6%"
    assert ffn == reg["anchor.num_layers"].value * 3 * reg["anchor.hidden_size"].value * reg["anchor.ffn_width"].value
    assert reg[NS + "anchor.matrix_params"].value * 3 == reg["anchor.layer.ffn_params"].value
    assert ffn / total < reg[NS + "anchor.decoder_share"].value < 1
    assert reg["anchor.ffn_ratio"].text["en"] == "3.4d"


def test_the_width_table_holds_every_dense_ffn_and_no_other(reg, inputs):
    names = {m.name for m in dense_ffn_models(inputs)}
    assert {"Transformer base", "GPT-2 small", "Llama 3.1 8B", "Qwen3-32B", "DeepSeek-V3"} <= names
    # all-MoE models (no dense FFN in any layer) stay out, though their configs have an intermediate_size
    assert not names & {"gpt-oss-120b", "gpt-oss-20b", "Qwen3-Next-80B-A3B", "DeepSeek-V4-Flash"}
    assert reg[NS + "models.llama_3_1_8b.ratio"].text["en"] == "3.50"
    assert reg[NS + "models.qwen3_32b.ratio"].text["en"] == "5.00"
    assert reg[NS + "models.deepseek_v3.dense_layers"].value == 3


def test_registry_moe_numbers_are_the_formula_on_the_config(reg, inputs):
    m = inputs.frontier.by_name("DeepSeek-V3")
    out = f.moe_ffn_params(m.hidden_size, m.num_layers, m.dense_ffn_layers, m.ffn_width, m.moe_ffn_width,
                           m.num_experts, m.experts_per_token, m.shared_experts)
    assert reg[NS + "moe.total"].value == out["total"] and reg[NS + "moe.active"].value == out["active"]
    assert reg[NS + "moe.total"].text == {"zh": "6,577 亿", "en": "657.7 billion"}


def test_the_small_models_ffns(reg):
    per_layer = {run: reg[f"{NS}runs.{run}.ffn_params"].value
                 for run in ("c1_gelu_ratio2", "c1_gelu_ratio4", "c1_gelu_ratio8", "c4_baseline")}
    d = reg["project.d_model"].value
    assert per_layer["c1_gelu_ratio4"] == 2 * d * 4 * d
    assert per_layer["c1_gelu_ratio2"] * 2 == per_layer["c1_gelu_ratio4"] == per_layer["c1_gelu_ratio8"] / 2
    assert per_layer["c4_baseline"] == 3 * d * reg["config.c4_baseline.ffn_hidden"].value
    assert reg[NS + "runs.swiglu_extra_params"].value == reg["project.n_layer"].value * (
        per_layer["c4_baseline"] - per_layer["c1_gelu_ratio4"])
