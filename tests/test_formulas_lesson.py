"""The normalization lesson's formulas, each checked against the worked value the lesson shows."""
import math
from types import SimpleNamespace

import pytest

from course import formulas as f

X = [1.0, 2.0, 3.0, 6.0]


def test_layernorm_worked_example():
    assert f.mean(X) == 3
    assert f.variance(X) == pytest.approx(3.5)
    assert math.sqrt(f.variance(X)) == pytest.approx(1.871, abs=5e-4)
    assert f.layernorm(X) == pytest.approx([-1.069, -0.535, 0.0, 1.604], abs=5e-4)


def test_terms_of_the_variance_and_the_mean_square():
    assert f.squared_deviations(X) == [4, 1, 0, 9]
    assert f.squares(X) == [1, 4, 9, 36]
    assert f.squares([3, 4, 5, 8]) == [9, 16, 25, 64]


def test_rmsnorm_worked_example_and_its_length():
    assert f.rms(X) == pytest.approx(math.sqrt(12.5)) and f.rms(X) == pytest.approx(3.536, abs=5e-4)
    assert f.rmsnorm(X) == pytest.approx([0.283, 0.566, 0.849, 1.697], abs=5e-4)
    assert f.length(f.rmsnorm(X)) == pytest.approx(2.0)          # √d for d = 4
    assert math.sqrt(5120) == pytest.approx(71.55, abs=5e-3)      # √d for the anchor


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


def test_anchor_norm_table_and_parameters():
    layer_types = (["linear_attention"] * 3 + ["full_attention"]) * 16
    text = SimpleNamespace(num_hidden_layers=64, hidden_size=5120, head_dim=256,
                           linear_value_head_dim=128, layer_types=layer_types)
    t = f.anchor_norms(text)
    assert t["entry"] == {"per_layer": 2, "count": 128, "dim": 5120}
    assert t["final"]["count"] == 1 and t["final"]["dim"] == 5120
    assert t["qk"] == {"per_layer": 2, "count": 32, "dim": 256}
    assert t["gdn"] == {"per_layer": 1, "count": 48, "dim": 128}
    assert f.norm_params(64, 5120) == 660_480
    assert f.residual_std(64) == pytest.approx(11.36, abs=5e-3)   # √129


def test_eps_counts_skip_models_without_one():
    assert f.eps_counts([1e-5, 1e-6, None, 1e-6]) == {1e-6: 2, 1e-5: 1}
    assert list(f.eps_counts([1e-5, 1e-6])) == [1e-6, 1e-5]
