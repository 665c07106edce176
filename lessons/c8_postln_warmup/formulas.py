"""The warmup lesson's formulas, as small pure functions: the learning-rate schedule our training loop
uses, Adam's step on its first updates (with and without bias correction), RAdam's rectification term,
the scalings of Xiong et al.'s Theorem 1 and DeepNet's α and β. Each has a unit test
(tests/test_warmup_formulas.py); the schedule is held to models/train.py's lr_at.

Sources: Adam's update rule and bias correction, Kingma & Ba 2015 (Algorithm 1; Sections 2.1 and 3);
RAdam's ρ_t and r_t, Liu et al. 2019 (Algorithm 2; their official code uses ρ_t ≥ 5 where the paper
writes ρ_t > 4, and so does nothing here: the paper's condition is used); DeepNorm's constants for a
decoder-only model, Wang et al. 2022 (Section 4.3, the summary for encoder-only or decoder-only models).
"""
from __future__ import annotations

import math

MIN_LR_FRACTION = 0.1   # models/train.py: the cosine ends at lr/10


# ---------------------------------------------------------------- the schedule


def lr_at(step: int, peak: float, warmup: int, total: int, after: str = "cosine") -> float:
    """Learning rate of update `step` (0-based), as models/train.py computes it: a linear ramp
    peak·(step + 1)/warmup over the first `warmup` updates, then either the cosine from peak down to
    peak/10 at update `total` (`after="cosine"`, what our runs use) or the peak itself (`"constant"`)."""
    if step < warmup:
        return peak * (step + 1) / warmup
    if after == "constant":
        return peak
    progress = (step - warmup) / max(1, total - warmup)
    low = peak * MIN_LR_FRACTION
    return low + 0.5 * (1 + math.cos(math.pi * progress)) * (peak - low)


# ---------------------------------------------------------------- Adam's first steps


def first_step_without_bias_correction(beta1: float, beta2: float) -> float:
    """|Δθ_1| / lr when Adam skips its bias correction: m_1 = (1 − β1)·g, v_1 = (1 − β2)·g², so the
    step is lr·(1 − β1)/√(1 − β2) whatever g is (ε = 0). Kingma & Ba's Section 2.1 names this ratio
    as the bound of the first case; with the correction, the first step is exactly lr·sign(g)."""
    return (1 - beta1) / math.sqrt(1 - beta2)


def bias_correction_ratio(t: int, beta1: float, beta2: float) -> float:
    """The uncorrected step over the corrected one at step t (1-based), for a gradient that does not
    change: m_t and v_t are (1 − β1^t) and (1 − β2^t) times their corrected values, so the ratio is
    (1 − β1^t)/√(1 − β2^t)."""
    return (1 - beta1 ** t) / math.sqrt(1 - beta2 ** t)


def first_update_norm(lr: float, parameters: int) -> float:
    """‖Δθ‖ of the first bias-corrected Adam update when every parameter has a nonzero gradient much
    larger than ε: each moves by exactly lr, so the whole update has norm lr·√(number of parameters)."""
    return lr * math.sqrt(parameters)


def decay_only_step(lr: float, weight_decay: float, param_norm: float) -> float:
    """‖Δθ‖ of an AdamW update whose gradient part is nil: the decoupled decay alone moves θ by lr·λ·θ."""
    return lr * weight_decay * param_norm


def geometric_mean(values) -> float:
    """The mean of the logarithms, back again: for ratios and norms that span powers of ten."""
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


# ---------------------------------------------------------------- RAdam (Liu et al. 2019)


def radam_rho_inf(beta2: float) -> float:
    return 2 / (1 - beta2) - 1


def radam_rho(t: int, beta2: float) -> float:
    """ρ_t, the length of the simple moving average RAdam compares the exponential one with."""
    b = beta2 ** t
    return radam_rho_inf(beta2) - 2 * t * b / (1 - b)


def radam_rectification(t: int, beta2: float) -> float | None:
    """r_t for ρ_t > 4; None where RAdam takes an un-adapted momentum step instead (Algorithm 2)."""
    rho, inf = radam_rho(t, beta2), radam_rho_inf(beta2)
    if rho <= 4:
        return None
    return math.sqrt((rho - 4) * (rho - 2) * inf / ((inf - 4) * (inf - 2) * rho))


def radam_unadapted_steps(beta2: float) -> int:
    """How many first updates RAdam takes without the adaptive denominator (ρ_t ≤ 4)."""
    t = 1
    while radam_rectification(t, beta2) is None:
        t += 1
    return t - 1


def radam_steps_to(fraction: float, beta2: float) -> int:
    """The first update whose rectification r_t reaches `fraction`: how long RAdam's own ramp lasts."""
    t = 1
    while True:
        r = radam_rectification(t, beta2)
        if r is not None and r >= fraction:
            return t
        t += 1


# ---------------------------------------------------------------- the papers' scalings


def xiong_preln_depth_factor(layers_from: int, layers_to: int) -> float:
    """The factor Xiong et al.'s Theorem 1 puts on the Pre-LN bound going from one depth to another:
    the bound scales like 1/√L, so √(L_from / L_to). (The Post-LN bound does not depend on L.)"""
    return math.sqrt(layers_from / layers_to)


def xiong_preln_stream_rms_bounds(layers: int) -> tuple[float, float]:
    """Xiong et al.'s Lemma 2 for the Pre-LN stream at initialization, as an RMS per coordinate:
    (1 + l/2)·d ≤ E‖x_l‖² ≤ (1 + 3l/2)·d, so the RMS lies between √(1 + l/2) and √(1 + 3l/2)."""
    return math.sqrt(1 + layers / 2), math.sqrt(1 + 3 * layers / 2)


def deepnorm_alpha(layers: int) -> float:
    """DeepNorm's weight on the residual connection, x_{l+1} = LN(α·x_l + G(x_l)), decoder-only: (2M)^{1/4}."""
    return (2 * layers) ** 0.25


def deepnorm_beta(layers: int) -> float:
    """DeepNorm's down-scaling of the FFN weights and of attention's value and output projections at
    initialization, decoder-only: (8M)^{−1/4}."""
    return (8 * layers) ** -0.25


def relative_step(lr: float, init_std: float) -> float:
    """One Adam step of size lr on a weight drawn with this std, as a fraction of that std."""
    return lr / init_std
