"""Lesson C8-2 (warmup): the lesson's formulas against what they describe. The schedule is models/train.py's
own; Adam's first steps, with and without bias correction, are PyTorch's; RAdam's ρ_t and r_t are its
paper's, checked at the values the official code's threshold differs from; the papers' scalings at our
depths."""
import math

import pytest

from lessons.c8_postln_warmup import formulas as f
from models.config import load_experiments
from course.paths import ROOT

EXPS = load_experiments(ROOT)


@pytest.mark.parametrize("run", ["c8_postln_lr1e-3_nowarmup", "c8_postln_lr1e-3_warmup25",
                                 "c8_postln_lr1e-3_warmup100", "c8_postln_lr1e-3_warmup200", "c4_baseline"])
def test_the_schedule_is_the_training_loop_s(run):
    from models.train import lr_at
    cfg = EXPS.config(run)
    for step in range(cfg.max_steps):
        assert f.lr_at(step, cfg.lr, cfg.warmup_steps, cfg.max_steps) == pytest.approx(lr_at(step, cfg), rel=1e-15)


def test_the_schedule_s_shape():
    assert f.lr_at(0, 1.0, 100, 400) == pytest.approx(0.01)          # the first update: 1/W of the peak
    assert f.lr_at(99, 1.0, 100, 400) == 1.0                          # the last warmup update: the peak
    assert f.lr_at(100, 1.0, 100, 400) == 1.0                         # the cosine starts at the peak
    assert f.lr_at(400, 1.0, 100, 400) == pytest.approx(f.MIN_LR_FRACTION)
    assert f.lr_at(250, 1.0, 100, 400, "constant") == 1.0
    assert f.lr_at(0, 1.0, 0, 400) == 1.0                             # no warmup: the peak at once


def adam_steps(grads, lr, betas, eps=1e-8, foreach=False):
    """Each update torch.optim.Adam makes on one parameter fed these gradients (float64)."""
    import torch
    p = torch.zeros(len(grads[0]), dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adam([p], lr=lr, betas=betas, eps=eps, foreach=foreach)
    out = []
    for g in grads:
        before = p.detach().clone()
        p.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
        out.append((p.detach() - before).tolist())
    return out


def test_adam_s_first_step_is_the_learning_rate_whatever_the_gradient():
    grads = [[3e-4, -2.0, 150.0, -4e-3]]
    step = adam_steps(grads, 1e-3, (0.9, 0.95))[0]
    assert step == pytest.approx([-1e-3, 1e-3, -1e-3, 1e-3], rel=1e-4)
    # ... as long as the gradient is far above ε: one only 300 times ε moves a third of a percent less
    assert adam_steps([[3e-6]], 1e-3, (0.9, 0.95))[0][0] == pytest.approx(-1e-3 * 3e-6 / (3e-6 + 1e-8), rel=1e-9)


def test_the_uncorrected_first_step():
    # m_1 = (1 − β1) g, v_1 = (1 − β2) g²: the step is lr (1 − β1)/√(1 − β2) in the direction of −g
    for b2 in (0.95, 0.98, 0.999):
        g = 0.37
        m, v = (1 - 0.9) * g, (1 - b2) * g * g
        assert m / math.sqrt(v) == pytest.approx(f.first_step_without_bias_correction(0.9, b2))
    assert f.first_step_without_bias_correction(0.9, 0.95) < 1 < f.first_step_without_bias_correction(0.9, 0.999)
    assert f.bias_correction_ratio(1, 0.9, 0.95) == pytest.approx(f.first_step_without_bias_correction(0.9, 0.95))


def test_the_first_update_norm():
    assert f.first_update_norm(1e-3, 1_000_000) == pytest.approx(1.0)


def test_radam_s_rectification():
    # ρ_∞ = 2/(1 − β2) − 1; ρ_1 = 1 for every β2; r_t → 1 as t grows
    for b2 in (0.95, 0.999):
        assert f.radam_rho(1, b2) == pytest.approx(1.0)
        assert f.radam_rho_inf(b2) == pytest.approx(2 / (1 - b2) - 1)
        assert f.radam_rectification(100_000, b2) == pytest.approx(1.0, abs=1e-3)
    n = f.radam_unadapted_steps(0.95)
    assert f.radam_rho(n, 0.95) <= 4 < f.radam_rho(n + 1, 0.95)
    assert f.radam_steps_to(0.9, 0.95) < f.radam_steps_to(0.9, 0.999)   # a longer ramp for a longer memory


def test_the_papers_scalings():
    assert f.xiong_preln_depth_factor(2, 12) == pytest.approx(math.sqrt(1 / 6))
    lo, hi = f.xiong_preln_stream_rms_bounds(48)
    assert lo == pytest.approx(5.0) and hi == pytest.approx(math.sqrt(73))
    assert f.deepnorm_alpha(12) == pytest.approx(24 ** 0.25) and f.deepnorm_beta(12) == pytest.approx(96 ** -0.25)
    assert f.relative_step(1e-3, 0.02) == pytest.approx(0.05)
