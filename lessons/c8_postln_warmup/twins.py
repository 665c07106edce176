"""Python twins of the warmup lesson's two widgets: the same arithmetic the browser runs, with the course's
seeded Mulberry32 (course/common/twins.py) drawn in the same order, so the prose can quote what a reader
sees and the tests can hold js/warmup-explorer.js and js/depth-grads.js to these functions (≤ 1e-6).

warmup-explorer   Adam on a stream of synthetic gradients: the step each parameter takes in the first
                  updates under a schedule, with and without bias correction, against no warmup and
                  against RAdam. Nothing is trained: the gradients are drawn, not computed.
depth-grads       a random stack of Post-LN or Pre-Norm layers at initialization, forward then backward:
                  the gradient of each layer's FFN output matrix (Xiong et al.'s W²) as depth changes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from course.common.twins import Mulberry32, remembered
from lessons.c8_postln_warmup import formulas as f

# ---------------------------------------------------------------- warmup-explorer


@dataclass(frozen=True)
class ExplorerSpec:
    """What the explorer does not let a reader change. The optimizer's and the schedule's settings
    (peak lr, β1, the β2 choices, the run's length) come from the project's config through the widget's
    data-config; these are the synthetic stream's."""
    # Of seeds 1–12, seed 2 gives the read-outs nearest their median at the defaults (a typical draw;
    # with 256 parameters averaged, the read-outs differ by under 5% across those seeds).
    seed: int = 2
    params: int = 256            # how many synthetic parameters the step sizes are averaged over
    eps: float = 1e-8            # Adam's ε: PyTorch's default, also the training config's (models/config.py)
    window: int = 50             # the "first steps" the read-outs sum over
    warmup_max: int = 200
    warmup_step: int = 5
    default_warmup: int = 100
    scale_min: float = -10.0     # log10 of the gradient's scale
    scale_max: float = 2.0
    scale_step: float = 0.5
    default_scale: float = 0.0
    signal_min: float = 0.0      # the mean of each parameter's gradient, in units of its noise
    signal_max: float = 3.0
    signal_step: float = 0.1
    default_signal: float = 1.0


EXPLORER = ExplorerSpec()


@dataclass
class Exploration:
    lr: list[float]              # lr_t / peak, t = 1 … steps
    adam: list[float]            # RMS over parameters of |Δθ_t| / peak: bias-corrected Adam, this schedule
    adam_nobc: list[float]       # the same without bias correction
    adam_nowarmup: list[float]   # bias-corrected Adam, no warmup (the same schedule after it)
    radam: list[float]           # RAdam (Algorithm 2 of Liu et al. 2019), no warmup
    step1: float                 # adam[0]
    step1_nobc: float            # adam_nobc[0]
    travel: float                # Σ adam over the first `window` steps: how far a parameter has moved, in peak lrs
    travel_nowarmup: float       # the same without warmup
    travel_ratio: float          # travel / travel_nowarmup


@remembered
def explorer_draws(spec: ExplorerSpec, steps: int) -> tuple[list[float], list[list[float]]]:
    """Each parameter's mean direction a_i (standard normal), then the noise z_{t,i} step by step."""
    rng = Mulberry32(spec.seed)
    a = [rng.normal() for _ in range(spec.params)]
    z = [[rng.normal() for _ in range(spec.params)] for _ in range(steps)]
    return a, z


def explore(spec: ExplorerSpec, steps: int, beta1: float, beta2: float, warmup: int, after: str,
            log_scale: float, signal: float, draws=None) -> Exploration:
    """Adam on g_{t,i} = 10^log_scale · (signal·a_i + z_{t,i}), for `steps` updates. Every series is the
    RMS over the parameters of the step each takes, divided by the peak learning rate (so the peak itself
    drops out). Updates are numbered 1 … steps here and on the page; the schedule's update t is
    lr_at(t − 1), as in models/train.py. Weight decay and gradient clipping are left out."""
    a, z = draws or explorer_draws(spec, steps)
    P, eps, scale = spec.params, spec.eps, 10.0 ** log_scale
    lr = [f.lr_at(t, 1.0, warmup, steps, after) for t in range(steps)]
    lr0 = [f.lr_at(t, 1.0, 0, steps, after) for t in range(steps)]
    m = [0.0] * P
    v = [0.0] * P
    adam, nobc, flat, radam = [], [], [], []
    for t in range(steps):
        k = t + 1
        c1, c2 = 1 - beta1 ** k, 1 - beta2 ** k
        r = f.radam_rectification(k, beta2)
        s_adam = s_nobc = s_flat = s_radam = 0.0
        for i in range(P):
            g = scale * (signal * a[i] + z[t][i])
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            mh, vh = m[i] / c1, v[i] / c2
            d = mh / (math.sqrt(vh) + eps)
            s_adam += (lr[t] * d) ** 2
            s_flat += (lr0[t] * d) ** 2
            s_nobc += (lr[t] * m[i] / (math.sqrt(v[i]) + eps)) ** 2
            s_radam += (lr0[t] * (mh if r is None else r * d)) ** 2
        adam.append(math.sqrt(s_adam / P))
        nobc.append(math.sqrt(s_nobc / P))
        flat.append(math.sqrt(s_flat / P))
        radam.append(math.sqrt(s_radam / P))
    w = spec.window
    travel, travel0 = sum(adam[:w]), sum(flat[:w])
    return Exploration(lr=lr, adam=adam, adam_nobc=nobc, adam_nowarmup=flat, radam=radam, step1=adam[0],
                       step1_nobc=nobc[0], travel=travel, travel_nowarmup=travel0, travel_ratio=travel / travel0)


# ---------------------------------------------------------------- depth-grads


@dataclass(frozen=True)
class DepthSpec:
    """The random stack's fixed settings; the two initializations' numbers come from the project's
    config (see depth_presets) and reach the widget through data-config."""
    # Of seeds 1–12, seed 9 gives the read-outs nearest their median (at the default depth and over the
    # depth chart, in both initializations): a typical draw, not a lucky one.
    seed: int = 9
    width: int = 32              # d: the stream's width and every matrix's (all d × d, as in Xiong et al.'s analysis)
    tokens: int = 16             # T: positions of one sequence; attention averages over the ones before
    layers_min: int = 1
    layers_max: int = 48
    default_layers: int = 12
    depths: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48)   # the depth chart's points


DEPTH = DepthSpec()


@dataclass(frozen=True)
class Preset:
    """One initialization: the std of every weight and of the input rows."""
    weight_std: float
    input_std: float


def depth_presets(width: int, init_std: float, d_model: int) -> dict[str, Preset]:
    """Xavier (Xiong et al.'s setting: N(0, 2/(n_in + n_out)), which is 1/d for a d × d matrix, and inputs
    with entries of variance 1) and our small model's: std init_std at width d_model, so the toy keeps the
    same std × √fan_in at its own width, and inputs of std init_std·√2 (a token and a position embedding,
    each std init_std, added)."""
    return {"xavier": Preset(weight_std=1 / math.sqrt(width), input_std=1.0),
            "ours": Preset(weight_std=init_std * math.sqrt(d_model / width), input_std=init_std * math.sqrt(2))}


@dataclass
class Stack:
    w2_grad: list[float]         # per layer l = 1 … L: ‖∂L/∂W²_l‖_F, the FFN output matrix
    last_norm_rms: float         # RMS of what the last norm reads (Post-LN: the last layer's sum; Pre-Norm: the final stream)
    stream: list[float] = field(default_factory=list)   # RMS of the stream after the input and after each layer


@remembered
def depth_draws(spec: DepthSpec) -> np.ndarray:
    """Every standard normal the widget uses, in its order: x_0 (T·d), the output gradient (T·d), then
    for each layer up to layers_max W^V, W^O, W¹, W² (d·d each, row-major)."""
    d, T = spec.width, spec.tokens
    rng = Mulberry32(spec.seed)
    n = 2 * T * d + spec.layers_max * 4 * d * d
    return np.array([rng.normal() for _ in range(n)])


def _norm(x, eps):
    r = np.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    return x / r, r


def _norm_back(g, y, r):
    """RMSNorm without gain: y = x / r  ⇒  ∂x = (∂y − y·mean(∂y ⊙ y)) / r, row by row."""
    return (g - y * (g * y).mean(axis=1, keepdims=True)) / r


def stack(spec: DepthSpec, z: np.ndarray, layers: int, placement: str, preset: Preset, scale: bool,
          eps: float) -> Stack:
    """One stack at initialization. Layer l, with u the causal mean of its input over positions ≤ t
    (Xiong et al.'s attention with W^Q = W^K = 0, made causal):
        Post-LN   x ← Norm(x + A(x)),   then  x ← Norm(x + FFN(x))
        Pre-Norm  x ← x + A(Norm(x)),   then  x ← x + FFN(Norm(x)),   and a final Norm after the last layer
    with A(u) = mean_{j≤t}(u_j)·W^V·W^O and FFN(u) = ReLU(u·W¹)·W². Norm is RMSNorm with gain 1 (the gain's
    value at init). With `scale`, W^O and W² (the matrices that write to the stream) are multiplied by
    1/√(2L), GPT-2's rule. The loss is L = Σ_t ⟨c_t, y_t⟩ for a fixed random c (standard normal over T), y
    the stack's output; backward by hand."""
    d, T = spec.width, spec.tokens
    k = 0
    x0 = z[k:k + T * d].reshape(T, d) * preset.input_std
    k += T * d
    gy = z[k:k + T * d].reshape(T, d) / T
    k += T * d
    s = 1 / math.sqrt(2 * layers) if scale else 1.0
    sd = preset.weight_std
    W = []
    for _ in range(layers):
        mats = [z[k + j * d * d:k + (j + 1) * d * d].reshape(d, d) * sd for j in range(4)]
        k += 4 * d * d
        W.append((mats[0], mats[1] * s, mats[2], mats[3] * s))
    count = np.arange(1, T + 1, dtype=float)[:, None]

    x = x0
    stream = [float(np.sqrt((x * x).mean()))]
    cache = []
    last_in = None
    for Wv, Wo, W1, W2 in W:
        if placement == "post":
            avg = np.cumsum(x, axis=0) / count
            x1 = x + (avg @ Wv) @ Wo
            x2, r1 = _norm(x1, eps)
            h = x2 @ W1
            hr = np.maximum(h, 0.0)
            x3 = x2 + hr @ W2
            out, r2 = _norm(x3, eps)
            cache.append((x2, r1, h, hr, out, r2))
            last_in = x3
        else:
            u, ru = _norm(x, eps)
            avg = np.cumsum(u, axis=0) / count
            x1 = x + (avg @ Wv) @ Wo
            v, rv = _norm(x1, eps)
            h = v @ W1
            hr = np.maximum(h, 0.0)
            out = x1 + hr @ W2
            cache.append((u, ru, v, rv, h, hr))
        x = out
        stream.append(float(np.sqrt((x * x).mean())))
    if placement == "pre":
        last_in = x
        y, rf = _norm(x, eps)
        g = _norm_back(gy, y, rf)
    else:
        g = gy
    grads = [0.0] * layers
    for l in range(layers - 1, -1, -1):
        Wv, Wo, W1, W2 = W[l]
        if placement == "post":
            x2, r1, h, hr, out, r2 = cache[l]
            g3 = _norm_back(g, out, r2)
            grads[l] = float(np.sqrt(((hr.T @ g3) ** 2).sum()))
            g2 = g3 + ((g3 @ W2.T) * (h > 0)) @ W1.T
            g1 = _norm_back(g2, x2, r1)
            ga = (g1 @ Wo.T) @ Wv.T / count
            g = g1 + np.cumsum(ga[::-1], axis=0)[::-1]
        else:
            u, ru, v, rv, h, hr = cache[l]
            grads[l] = float(np.sqrt(((hr.T @ g) ** 2).sum()))
            g1 = g + _norm_back(((g @ W2.T) * (h > 0)) @ W1.T, v, rv)
            ga = (g1 @ Wo.T) @ Wv.T / count
            g = g1 + _norm_back(np.cumsum(ga[::-1], axis=0)[::-1], u, ru)
    return Stack(w2_grad=grads, last_norm_rms=float(np.sqrt((last_in * last_in).mean())), stream=stream)


@dataclass
class DepthCurve:
    depths: list[int]
    post: list[float]            # the last layer's ‖∂L/∂W²_L‖ at each depth
    pre: list[float]
    pre_rms: list[float]         # RMS of Pre-Norm's final stream (what its final norm reads)
    post_rms: list[float]        # RMS of what Post-LN's last norm reads


def depth_curve(spec: DepthSpec, z: np.ndarray, preset: Preset, scale: bool, eps: float) -> DepthCurve:
    post, pre = [stack(spec, z, L, "post", preset, scale, eps) for L in spec.depths], \
                [stack(spec, z, L, "pre", preset, scale, eps) for L in spec.depths]
    return DepthCurve(depths=list(spec.depths), post=[s.w2_grad[-1] for s in post], pre=[s.w2_grad[-1] for s in pre],
                      pre_rms=[s.last_norm_rms for s in pre], post_rms=[s.last_norm_rms for s in post])
