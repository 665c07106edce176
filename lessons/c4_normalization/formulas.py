"""The normalization lesson's formulas, as small pure functions: LayerNorm and RMSNorm on one token and
their worked-example terms, what ε does, what weight decay does to a gain (over fixed steps or a run's
schedule), where the anchor's norms sit and how many parameters they hold, the benchmark's tensor sizes.
Each has a unit test whose fixture is the lesson's worked value (tests/test_normalization_formulas.py)."""
from __future__ import annotations

import math

# ---------------------------------------------------------------- normalization on one token


def mean(x: list[float]) -> float:
    return sum(x) / len(x)


def variance(x: list[float]) -> float:
    """Population variance over the token's own d numbers, as LayerNorm uses it."""
    mu = mean(x)
    return sum((v - mu) ** 2 for v in x) / len(x)


def rms(x: list[float]) -> float:
    return math.sqrt(sum(v * v for v in x) / len(x))


def layernorm(x: list[float], eps: float = 0.0) -> list[float]:
    """(x − μ)/σ with γ = 1, β = 0: the part that is the same for every trained LayerNorm."""
    mu, sd = mean(x), math.sqrt(variance(x) + eps)
    return [(v - mu) / sd for v in x]


def rmsnorm(x: list[float], eps: float = 0.0) -> list[float]:
    r = math.sqrt(sum(v * v for v in x) / len(x) + eps)
    return [v / r for v in x]


def length(x: list[float]) -> float:
    return math.sqrt(sum(v * v for v in x))


def squares(x: list[float]) -> list[float]:
    """The terms of the mean square: x_i²."""
    return [v * v for v in x]


def squared_deviations(x: list[float]) -> list[float]:
    """The terms of the variance: (x_i − μ)²."""
    mu = mean(x)
    return [(v - mu) ** 2 for v in x]


def eps_relative_effect(mean_square: float, eps: float) -> float:
    """How much ε shrinks RMSNorm's output for a token with this mean square: 1 − √(ms / (ms + ε))."""
    return 1.0 - math.sqrt(mean_square / (mean_square + eps))


# ---------------------------------------------------------------- gains under weight decay, ε across models


def weight_decay_factor(lr: float, weight_decay: float, steps: int) -> float:
    """Decoupled weight decay alone multiplies a parameter by (1 − lr·wd) each step."""
    return (1.0 - lr * weight_decay) ** steps


def decay_over_schedule(lrs: list[float], weight_decay: float) -> float:
    """What decoupled weight decay alone does over a run whose learning rate changes step by step:
    the product of (1 − lr_t·wd). AdamW applies it as p ← p·(1 − lr_t·wd) before each update."""
    factor = 1.0
    for lr in lrs:
        factor *= 1.0 - lr * weight_decay
    return factor


def standard_gain_after_decay(gain: float, lr: float, weight_decay: float, steps: int) -> float:
    """A standard gain g is itself the parameter: it decays toward 0."""
    return gain * weight_decay_factor(lr, weight_decay, steps)


def zero_centered_gain_after_decay(gain: float, lr: float, weight_decay: float, steps: int) -> float:
    """A zero-centered gain stores w = gain − 1 and applies 1 + w: it decays toward 1."""
    return 1.0 + (gain - 1.0) * weight_decay_factor(lr, weight_decay, steps)


def eps_counts(eps_values: list[float | None]) -> dict[float, int]:
    """How many models use each norm ε (models that do not state one are left out), smallest ε first."""
    counts: dict[float, int] = {}
    for e in eps_values:
        if e is not None:
            counts[e] = counts.get(e, 0) + 1
    return dict(sorted(counts.items()))


# ---------------------------------------------------------------- the anchor's norms


def anchor_norms(text) -> dict[str, dict[str, int]]:
    """Where the anchor's RMSNorms sit, how many there are and the length of each gain vector.

    Two at the sublayer entries of every layer and one after the last layer, over hidden_size;
    q_norm and k_norm in every full-attention layer, over one head (head_dim, shared by the heads);
    one inside every Gated DeltaNet layer, over one value head (linear_value_head_dim): the gated norm,
    a plain gain initialized to 1 whose output is multiplied by SiLU of a gate; and in each
    multi-token-prediction (MTP) layer five over hidden_size (one on the embedding and one on the hidden
    state before its fc, its decoder layer's two sublayer-entry norms, its final norm) plus that
    layer's q_norm and k_norm.
    """
    n_full = sum(t == "full_attention" for t in text.layer_types)
    n_linear = sum(t == "linear_attention" for t in text.layer_types)
    n_mtp = text.mtp_num_hidden_layers
    return {
        "entry": {"per_layer": 2, "count": 2 * text.num_hidden_layers, "dim": text.hidden_size},
        "final": {"per_layer": 0, "count": 1, "dim": text.hidden_size},
        "qk": {"per_layer": 2, "count": 2 * n_full, "dim": text.head_dim},
        "gdn": {"per_layer": 1, "count": n_linear, "dim": text.linear_value_head_dim},
        "mtp": {"per_layer": MTP_HIDDEN_NORMS, "count": MTP_HIDDEN_NORMS * n_mtp, "dim": text.hidden_size},
        "mtp_qk": {"per_layer": 2, "count": 2 * n_mtp, "dim": text.head_dim},
    }


# an MTP layer's norms over hidden_size: pre_fc_norm_embedding, pre_fc_norm_hidden, the decoder layer's
# input_layernorm and post_attention_layernorm, and the module's final norm
MTP_HIDDEN_NORMS = 5


def norm_params(norms: dict[str, dict[str, int]]) -> dict[str, int]:
    """Gain parameters per place (count × length of the gain vector), for anchor_norms()' table."""
    return {place: n["count"] * n["dim"] for place, n in norms.items()}


# ---------------------------------------------------------------- the micro-benchmark


def tensor_bytes(shape: list[int], bytes_per_element: int) -> int:
    """Bytes of one tensor of this shape."""
    n = bytes_per_element
    for size in shape:
        n *= size
    return n
