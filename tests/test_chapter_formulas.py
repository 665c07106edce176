"""The chapter's formulas against their worked values, the anchor's ledger against the official total,
and the chapter's registry texts as the pages show them."""
import pytest

from course.common import formulas as f


def test_residual_growth():
    assert f.residual_writes(64) == 128
    assert f.residual_std(64) == pytest.approx(11.36, abs=5e-3)


def test_project_residual_init():
    assert f.residual_init_std(0.02, 4) == pytest.approx(0.00707, abs=5e-6)


def test_silu_at_clamp():
    assert f.silu(10) * 10 == pytest.approx(99.995, abs=5e-4)
    assert f.silu(0) == 0 and f.silu(-40) == pytest.approx(0, abs=1e-15)


def test_swiglu_equal_params_width():
    # three matrices of width 8d/3 hold as many parameters as two of width 4d
    d = 8192
    assert 3 * d * f.swiglu_equal_params_width(d) == pytest.approx(2 * d * 4 * d)


def test_norm_params():
    assert f.norm_params(64, 5120) == 660_480


def test_anchor_components(inputs):
    t, v = inputs.anchor.config.text_config, inputs.anchor.config.vision_config
    assert f.full_attention_params(5120, 24, 4, 256, True) == 104_858_112
    assert f.gated_deltanet_params(5120, 16, 48, 128, 128, 4) == 115_876_064
    assert f.anchor_ledger(t, v) == {
        "embeddings": 1_271_398_400, "lm_head": 1_271_398_400, "full_attention": 1_677_729_792,
        "gated_deltanet": 5_562_051_072, "ffn": 17_112_760_320, "norms": 660_480,
        "mtp": 424_699_392, "vision": 460_730_096,
    }


def test_ledger_total_equals_official(inputs, reg):
    assert reg["anchor.params.total"].value == 27_781_427_952
    assert reg["anchor.params.total"].value == inputs.anchor.facts.official_parameter_total.value


def test_decoder_layer_parts_sum_to_the_ledger(reg, inputs):
    ledger = f.anchor_ledger(inputs.anchor.config.text_config, inputs.anchor.config.vision_config)
    assert reg["anchor.layer.norm_params"].value == reg["anchor.hidden_size"].value
    L_full, L_lin = reg["anchor.full_attention_layers"].value, reg["anchor.linear_attention_layers"].value
    assert reg["anchor.layer.full_attention_params"].value * L_full == ledger["full_attention"]
    assert reg["anchor.layer.gated_deltanet_params"].value * L_lin == ledger["gated_deltanet"]
    assert reg["anchor.layer.ffn_params"].value * reg["anchor.num_layers"].value == reg["anchor.params.ffn"].value


@pytest.mark.parametrize("key,text", [
    ("anchor.ffn_share", "61.6%"), ("anchor.norm_share", "0.0024%"), ("anchor.params.norms", "660,480"),
    ("anchor.residual_writes", "128"), ("anchor.residual_std", "11.36"), ("anchor.ffn_width", "17,408"),
    ("anchor.ffn_ratio", "3.4d"), ("anchor.q_proj_out", "12,288"),
    ("gpt2.ffn_width", "3,072"), ("gpt2.ffn_ratio", "4d"), ("transformer_base.ffn_width", "2,048"),
    ("deepseek_llm_67b.ffn_width", "22,016"), ("gpt_oss.swiglu_limit", "7"), ("deepseek_v4.swiglu_limit", "10"),
    ("swiglu.silu_at_limit_times_limit", "99.995"), ("project.residual_init_std", "0.00707"),
    ("anchor.eps", "1e\u22126"), ("project.eps", "1e\u22125"), ("project.lr", "3e\u22123"),
])
def test_registry_text_matches_the_chapter(reg, key, text):
    assert reg[key].text["en"] == text
    assert reg[key].text["zh"] == text


def test_every_number_has_provenance_in_both_languages(reg):
    for key, n in reg.numbers.items():
        assert set(n.text) == {"zh", "en"}, key
        zh, en = n.hover("zh"), n.hover("en")
        assert zh and en and zh != en, key
