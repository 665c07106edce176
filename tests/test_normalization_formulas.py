"""The normalization lesson's formulas, each checked against the worked value the lesson shows, and the
lesson's registry texts as its page shows them."""
import math
from types import SimpleNamespace

import pytest

from lessons.c4_normalization import formulas as f

X = [1.0, 2.0, 3.0, 6.0]



def test_layernorm_worked_example():
    assert f.mean(X) == 3
    assert f.variance(X) == pytest.approx(3.5)
    assert math.sqrt(f.variance(X)) == pytest.approx(1.871, abs=5e-4)
    assert f.layernorm(X) == pytest.approx([-1.069, -0.535, 0.0, 1.604], abs=5e-4)
    assert sum(f.layernorm(X)) == pytest.approx(0, abs=1e-12)


def test_terms_of_the_variance_and_the_mean_square():
    assert f.squared_deviations(X) == [4, 1, 0, 9]
    assert f.squares(X) == [1, 4, 9, 36]


def test_rmsnorm_worked_example_and_its_length():
    assert f.rms(X) == pytest.approx(math.sqrt(12.5)) and f.rms(X) == pytest.approx(3.536, abs=5e-4)
    assert f.rmsnorm(X) == pytest.approx([0.283, 0.566, 0.849, 1.697], abs=5e-4)
    assert f.length(f.rmsnorm(X)) == pytest.approx(2.0)                               # √d for d = 4
    assert f.length(f.rmsnorm([0.3 * i - 7 for i in range(5120)])) == pytest.approx(math.sqrt(5120))


def test_shift_changes_only_rmsnorm_and_scale_changes_neither():
    shifted, scaled = [v + 2 for v in X], [3 * v for v in X]
    assert f.layernorm(shifted) == pytest.approx(f.layernorm(X))
    assert f.rms(shifted) == pytest.approx(5.339, abs=5e-4)
    assert f.rmsnorm(shifted) == pytest.approx([0.562, 0.749, 0.937, 1.499], abs=5e-4)
    assert f.rms(scaled) == pytest.approx(10.607, abs=5e-4)
    assert f.rmsnorm(scaled) == pytest.approx(f.rmsnorm(X))
    assert f.layernorm(scaled) == pytest.approx(f.layernorm(X))


def test_eps_matters_only_near_the_mean_square():
    assert f.eps_relative_effect(1.0, 1e-6) == pytest.approx(5e-7, rel=1e-3)
    assert f.eps_relative_effect(1e-6, 1e-6) == pytest.approx(1 - math.sqrt(0.5))
    assert f.eps_relative_effect(1.0, 0.0) == 0


def test_weight_decay_pull():
    k = f.weight_decay_factor(3e-3, 0.1, 5000)
    assert k == pytest.approx(0.9997 ** 5000)
    assert f.standard_gain_after_decay(1.5, 3e-3, 0.1, 5000) == pytest.approx(1.5 * k)
    assert f.zero_centered_gain_after_decay(1.5, 3e-3, 0.1, 5000) == pytest.approx(1 + 0.5 * k)
    assert f.zero_centered_gain_after_decay(1.0, 3e-3, 0.1, 10**6) == 1.0  # w = 0 stays at gain 1


ANCHOR_TEXT = SimpleNamespace(num_hidden_layers=64, hidden_size=5120, head_dim=256, linear_value_head_dim=128,
                              layer_types=(["linear_attention"] * 3 + ["full_attention"]) * 16, mtp_num_hidden_layers=1)


def test_anchor_norm_table():
    t = f.anchor_norms(ANCHOR_TEXT)
    assert t["entry"] == {"per_layer": 2, "count": 128, "dim": 5120}
    assert t["final"]["count"] == 1 and t["final"]["dim"] == 5120
    assert t["qk"] == {"per_layer": 2, "count": 32, "dim": 256}
    assert t["gdn"] == {"per_layer": 1, "count": 48, "dim": 128}
    assert t["mtp"] == {"per_layer": 5, "count": 5, "dim": 5120}
    assert t["mtp_qk"] == {"per_layer": 2, "count": 2, "dim": 256}


def test_every_norm_of_the_anchor_counted():
    p = f.norm_params(f.anchor_norms(ANCHOR_TEXT))
    assert p["entry"] + p["final"] == 64 * 2 * 5120 + 5120 == 660_480          # the residual stream's
    assert p["entry"] + p["final"] + p["qk"] + p["gdn"] == 674_816              # + q/k and GDN norms
    assert p["mtp"] + p["mtp_qk"] == 5 * 5120 + 2 * 256 == 26_112               # the MTP module's
    assert sum(p.values()) == 700_928


def test_decay_over_a_schedule():
    assert f.decay_over_schedule([3e-3] * 5000, 0.1) == pytest.approx(f.weight_decay_factor(3e-3, 0.1, 5000))
    assert f.decay_over_schedule([1e-3, 2e-3], 0.5) == pytest.approx((1 - 5e-4) * (1 - 1e-3))
    assert f.decay_over_schedule([], 0.1) == 1.0


def test_tensor_bytes():
    assert f.tensor_bytes([32, 256, 256], 4) == 8_388_608


def test_eps_counts_skip_models_without_one():
    assert f.eps_counts([1e-5, 1e-6, None, 1e-6]) == {1e-6: 2, 1e-5: 1}
    assert list(f.eps_counts([1e-5, 1e-6])) == [1e-6, 1e-5]


@pytest.mark.parametrize("key,text", [
    ("worked.x.layernorm", "[\u22121.069, \u22120.535, 0, 1.604]"), ("worked.x.rmsnorm", "[0.283, 0.566, 0.849, 1.697]"),
    ("worked.x.rms", "3.536"), ("worked.x.std", "1.871"), ("worked.shifted.rms", "5.339"),
    ("worked.shifted.rmsnorm", "[0.562, 0.749, 0.937, 1.499]"), ("worked.scaled.rms", "10.607"),
    ("sqrt_d", "71.55"), ("norms.entry.count", "128"), ("norms.qk.count", "32"), ("norms.gdn.count", "48"),
    ("norms.all.params", "700,928"), ("norms.decoder.params", "674,816"), ("norms.mtp.count", "5"),
])
def test_registry_text_matches_the_lesson(reg, key, text):
    n = reg[f"normalization.{key}"]
    assert n.text["en"] == text and n.text["zh"] == text
