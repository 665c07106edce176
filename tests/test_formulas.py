"""Every formula against the lesson's worked value, and the anchor's ledger against the official total."""
import math
from pathlib import Path

import pytest

from course import formulas as f
from course.numbers import build_registry
from course.schema import load_inputs

ROOT = Path(__file__).resolve().parent.parent
X = [1.0, 2.0, 3.0, 6.0]


def close(a, b, tol=5e-4):
    return all(abs(u - v) <= tol for u, v in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def inputs():
    return load_inputs(ROOT)


@pytest.fixture(scope="module")
def reg(inputs):
    return build_registry(inputs)


def test_layernorm_worked_example():
    assert f.mean(X) == 3 and f.variance(X) == 3.5
    assert math.sqrt(f.variance(X)) == pytest.approx(1.871, abs=5e-4)
    assert close(f.layernorm(X), [-1.069, -0.535, 0.0, 1.604])


def test_rmsnorm_worked_example():
    assert f.rms(X) == pytest.approx(math.sqrt(12.5)) and f.rms(X) == pytest.approx(3.536, abs=5e-4)
    assert close(f.rmsnorm(X), [0.283, 0.566, 0.849, 1.697])


def test_shift_changes_only_rmsnorm():
    shifted = [v + 2 for v in X]
    assert close(f.layernorm(shifted), f.layernorm(X), 1e-12)
    assert f.rms(shifted) == pytest.approx(5.339, abs=5e-4)
    assert close(f.rmsnorm(shifted), [0.562, 0.749, 0.937, 1.499])


def test_scale_changes_neither():
    scaled = [v * 3 for v in X]
    assert f.rms(scaled) == pytest.approx(10.607, abs=5e-4)
    assert close(f.layernorm(scaled), f.layernorm(X), 1e-12)
    assert close(f.rmsnorm(scaled), f.rmsnorm(X), 1e-12)


def test_rmsnorm_output_has_length_sqrt_d():
    assert f.length(f.rmsnorm(X)) == pytest.approx(2.0)
    assert f.length(f.rmsnorm([0.3] * 5120)) == pytest.approx(71.55, abs=5e-3)


def test_residual_growth():
    assert f.residual_writes(64) == 128
    assert f.residual_std(64) == pytest.approx(11.36, abs=5e-3)


def test_project_residual_init():
    assert f.residual_init_std(0.02, 4) == pytest.approx(0.00707, abs=5e-6)


def test_silu_at_clamp():
    assert f.silu(10) * 10 == pytest.approx(99.995, abs=5e-4)


def test_weight_decay_pull():
    k = f.weight_decay_factor(3e-3, 0.1, 5000)
    assert k == pytest.approx(0.9997 ** 5000)
    assert f.standard_gain_after_decay(1.5, 3e-3, 0.1, 5000) == pytest.approx(1.5 * k)
    assert f.zero_centered_gain_after_decay(1.5, 3e-3, 0.1, 5000) == pytest.approx(1 + 0.5 * k)
    assert f.zero_centered_gain_after_decay(1.0, 3e-3, 0.1, 10**6) == 1.0  # w = 0 stays at gain 1


def test_swiglu_equal_params_width():
    assert f.swiglu_equal_params_width(8192) == pytest.approx(21845.33, abs=0.01)


def test_norm_params():
    assert f.norm_params(64, 5120) == 660_480


def test_anchor_components(inputs):
    t, v = inputs.anchor.config.text_config, inputs.anchor.config.vision_config
    assert f.full_attention_params(5120, 24, 4, 256, True) == 104_858_112
    assert f.gated_deltanet_params(5120, 16, 48, 128, 128, 4) == 115_876_064
    ledger = f.anchor_ledger(t, v)
    assert ledger == {
        "embeddings": 1_271_398_400, "lm_head": 1_271_398_400, "full_attention": 1_677_729_792,
        "gated_deltanet": 5_562_051_072, "ffn": 17_112_760_320, "norms": 660_480,
        "mtp": 424_699_392, "vision": 460_730_096,
    }


def test_ledger_total_equals_official(inputs, reg):
    assert reg["anchor.params.total"].value == 27_781_427_952
    assert reg["anchor.params.total"].value == inputs.anchor.facts.official_parameter_total.value


@pytest.mark.parametrize("key,text", [
    ("anchor.ffn_share", "61.6%"), ("anchor.norm_share", "0.0024%"), ("anchor.params.norms", "660,480"),
    ("anchor.residual_writes", "128"), ("anchor.residual_std", "11.36"), ("anchor.ffn_width", "17,408"),
    ("anchor.ffn_ratio", "3.4d"), ("anchor.q_proj_out", "12,288"), ("anchor.sqrt_d", "71.55"),
    ("gpt2.ffn_width", "3,072"), ("gpt2.ffn_ratio", "4d"), ("transformer_base.ffn_width", "2,048"),
    ("deepseek_llm_67b.ffn_width", "22,016"), ("gpt_oss.swiglu_limit", "7"), ("deepseek_v4.swiglu_limit", "10"),
    ("swiglu.silu_at_limit_times_limit", "99.995"), ("project.residual_init_std", "0.00707"),
    ("worked.x.layernorm", "[\u22121.069, \u22120.535, 0, 1.604]"), ("worked.x.rmsnorm", "[0.283, 0.566, 0.849, 1.697]"),
    ("worked.x.rms", "3.536"), ("worked.x.std", "1.871"), ("worked.shifted.rms", "5.339"),
    ("worked.shifted.rmsnorm", "[0.562, 0.749, 0.937, 1.499]"), ("worked.scaled.rms", "10.607"),
    ("anchor.eps", "1e\u22126"), ("project.eps", "1e\u22125"), ("project.lr", "3e\u22123"),
])
def test_registry_text_matches_lesson(reg, key, text):
    assert reg[key].text["en"] == text
    assert reg[key].text["zh"] == text


def test_every_number_has_provenance_in_both_languages(reg):
    for key, n in reg.numbers.items():
        assert set(n.text) == {"zh", "en"}, key
        zh, en = n.hover("zh"), n.hover("en")
        assert zh and en and zh != en, key
