"""Lesson C8-2 (warmup): the two widgets' Python twins against what they stand for, and against the
registry numbers the prose quotes. warmup-explorer's bias-corrected Adam is held to torch.optim.Adam fed
the same synthetic gradients; depth-grads' hand-written backward pass is held to torch's autograd on the
same stack."""
import math
from dataclasses import replace

import numpy as np
import pytest
from conftest import widget_config as config

from lessons.c8_postln_warmup import formulas as f
from lessons.c8_postln_warmup import twins as tw

NS = "warmup."
STEPS = 60


@pytest.fixture(scope="module")
def small():
    """A shorter explorer run: the same draws, fewer steps (the tests need no more)."""
    spec = replace(tw.EXPLORER, params=32, window=20)
    return spec, tw.explorer_draws(spec, STEPS)


# ---------------------------------------------------------------- warmup-explorer

def test_twin_warmup_explorer_is_torch_adam(small):
    import torch
    spec, (a, z) = small
    for warmup, b2, scale, signal in ((0, 0.95, 0.0, 1.0), (10, 0.999, -2.0, 0.5), (25, 0.98, 1.0, 0.0)):
        e = tw.explore(spec, STEPS, 0.9, b2, warmup, "cosine", scale, signal, (a, z))
        p = torch.zeros(spec.params, dtype=torch.float64, requires_grad=True)
        opt = torch.optim.Adam([p], lr=1.0, betas=(0.9, b2), eps=spec.eps, foreach=False)
        for t in range(STEPS):
            for group in opt.param_groups:
                group["lr"] = f.lr_at(t, 1.0, warmup, STEPS)
            before = p.detach().clone()
            p.grad = torch.tensor([10.0 ** scale * (signal * a[i] + z[t][i]) for i in range(spec.params)],
                                  dtype=torch.float64)
            opt.step()
            rms = float((p.detach() - before).pow(2).mean().sqrt())
            assert rms == pytest.approx(e.adam[t], rel=1e-9)


def test_twin_warmup_explorer_first_steps(small):
    spec, draws = small
    e0 = tw.explore(spec, STEPS, 0.9, 0.95, 0, "cosine", 0.0, 1.0, draws)
    assert e0.step1 == pytest.approx(1.0, rel=1e-6)                       # one whole learning rate
    assert e0.step1_nobc == pytest.approx(f.first_step_without_bias_correction(0.9, 0.95), rel=1e-6)
    e = tw.explore(spec, STEPS, 0.9, 0.95, 20, "cosine", 0.0, 1.0, draws)
    assert e.step1 == pytest.approx(1 / 20, rel=1e-6) and e.lr[0] == pytest.approx(1 / 20)
    # the schedule only scales the step: Adam's m̂/√v̂ is the same sequence either way
    assert [x / l for x, l in zip(e.adam, e.lr)] == pytest.approx([x / l for x, l in zip(e0.adam, e0.lr)], rel=1e-12)
    assert e.travel < e0.travel and e.travel_ratio == pytest.approx(e.travel / e0.travel_nowarmup)
    # RAdam: un-adapted momentum steps first, so they scale with the gradient
    small_g = tw.explore(spec, STEPS, 0.9, 0.95, 0, "cosine", -3.0, 1.0, draws)
    n = f.radam_unadapted_steps(0.95)
    assert small_g.radam[0] == pytest.approx(1e-3 * e0.radam[0], rel=1e-9)
    assert small_g.radam[n + 5] == pytest.approx(e0.radam[n + 5], rel=1e-3)


def test_twin_warmup_explorer_ignores_the_gradient_s_scale_until_epsilon(small):
    spec, draws = small
    ref = tw.explore(spec, STEPS, 0.9, 0.95, 0, "cosine", 0.0, 1.0, draws)
    for scale in (-4.0, 2.0):
        e = tw.explore(spec, STEPS, 0.9, 0.95, 0, "cosine", scale, 1.0, draws)
        assert e.adam == pytest.approx(ref.adam, rel=1e-3)
    tiny = tw.explore(spec, STEPS, 0.9, 0.95, 0, "cosine", -10.0, 1.0, draws)
    assert tiny.step1 < 0.1                                               # ε now dominates the denominator


def test_twin_warmup_explorer_feeds_the_registry_and_the_widget(reg):
    cfg = config(reg, "warmup-explorer")
    assert cfg["steps"]["value"] == reg[NS + "steps"].value and cfg["peak"]["value"] == reg["config.c8_postln_lr1e-3_warmup100.lr"].value
    assert cfg["beta2"]["ours"]["value"] == reg[NS + "beta2"].value and cfg["beta2"]["adam"]["value"] == 0.999
    assert cfg["spec"]["default_warmup"] == reg[NS + "explorer.default_warmup"].value
    assert cfg["minLrFraction"] == f.MIN_LR_FRACTION
    assert reg[NS + "explorer.step1_nowarmup"].value == pytest.approx(1.0, rel=1e-6)
    assert reg[NS + "explorer.step1"].value == pytest.approx(1 / tw.EXPLORER.default_warmup, rel=1e-6)
    assert reg[NS + "explorer.travel_ratio"].value < 1


# ---------------------------------------------------------------- depth-grads

def torch_stack(spec, z, layers, placement, preset, scale, eps):
    """The same stack with torch's autograd: ‖∂L/∂W²‖ per layer."""
    import torch
    d, T = spec.width, spec.tokens
    zt = torch.tensor(z, dtype=torch.float64)
    x = zt[:T * d].reshape(T, d) * preset.input_std
    gy = zt[T * d:2 * T * d].reshape(T, d) / T
    s = 1 / math.sqrt(2 * layers) if scale else 1.0
    k, W2s = 2 * T * d, []
    count = torch.arange(1, T + 1, dtype=torch.float64)[:, None]

    def norm(u):
        return u / torch.sqrt((u * u).mean(1, keepdim=True) + eps)
    for _ in range(layers):
        Wv, Wo, W1, W2 = (zt[k + j * d * d:k + (j + 1) * d * d].reshape(d, d).clone() * preset.weight_std for j in range(4))
        k += 4 * d * d
        Wo, W2 = Wo * s, (W2 * s).requires_grad_()
        W2s.append(W2)
        if placement == "post":
            x = norm(x + (torch.cumsum(x, 0) / count) @ Wv @ Wo)
            x = norm(x + torch.relu(x @ W1) @ W2)
        else:
            x = x + (torch.cumsum(norm(x), 0) / count) @ Wv @ Wo
            x = x + torch.relu(norm(x) @ W1) @ W2
    y = norm(x) if placement == "pre" else x
    (y * gy).sum().backward()
    return [float(w.grad.norm()) for w in W2s]


@pytest.fixture(scope="module")
def depth():
    spec = tw.DEPTH
    return spec, tw.depth_draws(spec), tw.depth_presets(spec.width, 0.02, 128)


@pytest.mark.parametrize("placement", ["post", "pre"])
@pytest.mark.parametrize("preset,scale", [("xavier", False), ("ours", True)])
def test_twin_depth_grads_is_autograd(depth, placement, preset, scale):
    spec, z, presets = depth
    for layers in (1, 5):
        got = tw.stack(spec, z, layers, placement, presets[preset], scale, 1e-5).w2_grad
        assert got == pytest.approx(torch_stack(spec, z, layers, placement, presets[preset], scale, 1e-5), rel=1e-9)


def test_twin_depth_grads_reproduces_xiong_s_trend(depth):
    spec, z, presets = depth
    c = tw.depth_curve(spec, z, presets["xavier"], False, 1e-5)
    assert 0.6 < c.post[-1] / c.post[0] < 1.6                     # Post-LN: no trend with depth
    assert c.pre[-1] / c.pre[0] < 0.3                              # Pre-Norm: falls, as 1/√L would
    lo, hi = f.xiong_preln_stream_rms_bounds(spec.depths[-1])
    assert lo < c.pre_rms[-1] < hi                                 # Lemma 2's range for the final stream
    ours = tw.depth_curve(spec, z, presets["ours"], True, 1e-5)
    assert all(p > 10 * q for p, q in zip(ours.pre, ours.post))   # our init: Pre-Norm's gradient is the large one


def test_twin_depth_grads_feeds_the_registry_and_the_widget(reg, depth):
    spec, z, _ = depth
    cfg = config(reg, "depth-grads")
    presets = tw.depth_presets(spec.width, reg["project.init_std"].value, reg["project.d_model"].value)
    assert cfg["presets"]["ours"]["weight_std"] == presets["ours"].weight_std
    assert cfg["spec"]["depths"] == list(spec.depths) and cfg["eps"]["value"] == reg["project.eps"].value
    c = tw.depth_curve(spec, z, presets["xavier"], False, reg["project.eps"].value)
    assert reg[NS + "sim.xavier.post.depth_ratio"].value == pytest.approx(c.post[-1] / c.post[0])
    assert reg[NS + "sim.xavier.pre_rms_hi"].value == pytest.approx(c.pre_rms[-1])
