"""The FFN lesson's formulas, as small pure functions: what an FFN costs in parameters, the width that
gives a gated FFN the parameters of a two-matrix one, Meta's rounding rule, what an MoE layer holds and
what a token uses of it, and the activations the lesson draws. Each has a unit test whose fixture is the
lesson's worked value (tests/test_ffn_formulas.py)."""
from __future__ import annotations

import math

from course.common.formulas import silu, swiglu_ffn_params

# ---------------------------------------------------------------- parameters of one FFN

# How many d × d_ff weight matrices each form has: up and down; or gate, up and down.
MATRICES = {"two_matrix": 2, "swiglu": 3}


def two_matrix_ffn_params(d: int, width: int) -> int:
    """W_1 (d → d_ff) and W_2 (d_ff → d), weights only."""
    return 2 * d * width


def ffn_params(d: int, width: int, kind: str) -> int:
    """Weights of one FFN of either form (biases, where a model has them, are counted apart)."""
    return two_matrix_ffn_params(d, width) if kind == "two_matrix" else swiglu_ffn_params(d, width)


def ffn_bias_params(d: int, width: int) -> int:
    """The two biases of a two-matrix FFN with biases (2017 Transformer, GPT-2): b_1 (d_ff) and b_2 (d)."""
    return width + d


def equal_params_width(width: float, from_kind: str, to_kind: str) -> float:
    """The width at which an FFN of `to_kind` has the weights of one of `from_kind` and this width:
    m_from · d · width = m_to · d · w, so w = width · m_from / m_to (d cancels)."""
    return width * MATRICES[from_kind] / MATRICES[to_kind]


def meta_ffn_width(dim: int, multiple_of: int, ffn_dim_multiplier: float | None = None) -> int:
    """Meta's rule (meta-llama/llama, llama/model.py, FeedForward): start from the 4·dim of a two-matrix
    FFN, take two thirds (truncated to an integer), optionally scale, then round up to a multiple of
    `multiple_of`. The same steps, in the same order, as the reference code."""
    hidden = int(2 * (4 * dim) / 3)
    if ffn_dim_multiplier is not None:
        hidden = int(ffn_dim_multiplier * hidden)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


# ---------------------------------------------------------------- many small FFNs (MoE)

def moe_ffn_params(d: int, layers: int, dense_layers: int, dense_width: int, expert_width: int,
                   routed: int, per_token: int, shared: int) -> dict[str, int]:
    """FFN weights of an MoE model whose first `dense_layers` layers have one dense SwiGLU FFN and whose
    other layers each hold `routed` + `shared` SwiGLU experts: all of them (`total`), and those one token
    runs through (`active`: the dense FFNs, its `per_token` routed experts and the shared ones). Routers
    (d × routed per layer) are not FFN weights and are left out."""
    dense = dense_layers * swiglu_ffn_params(d, dense_width)
    expert = swiglu_ffn_params(d, expert_width)
    moe_layers = layers - dense_layers
    return {"dense": dense,
            "total": dense + moe_layers * (routed + shared) * expert,
            "active": dense + moe_layers * (per_token + shared) * expert}


# ---------------------------------------------------------------- activations

def relu(x: float) -> float:
    return max(0.0, x)


def gelu_exact(x: float) -> float:
    """x · Φ(x), Φ the standard normal CDF."""
    return 0.5 * x * (1.0 + math.erf(x / math.sqrt(2.0)))


def gelu_tanh(x: float) -> float:
    """GELU's tanh approximation, the form GPT-2's code computes (openai/gpt-2, src/model.py, gelu)."""
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


def swiglu_product(a: float, b: float) -> float:
    """One hidden unit of SwiGLU: SiLU of the gate branch times the up branch."""
    return silu(a) * b


ACTIVATIONS = {"relu": relu, "gelu": gelu_tanh, "silu": silu}


def largest_gap(f, g, lo: float, hi: float, samples: int) -> float:
    """max |f(x) − g(x)| over `samples` evenly spaced x in [lo, hi] (both ends included)."""
    return max(abs(f(x) - g(x)) for x in (lo + (hi - lo) * i / (samples - 1) for i in range(samples)))
