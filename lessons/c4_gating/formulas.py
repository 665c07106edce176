"""The gating lesson's formulas, as small pure functions: softmax and the sigmoid gate on one attention row,
the three bounded forms of a gated FFN (DeepSeek-V4's clamp, which our small model uses; gpt-oss's clamped
function; Kimi K3's SiTU-GLU), how the anchor's q_proj splits into queries and gate, what the gates cost,
and the uniform-attention reference of our first-token measurement. Each has a unit test whose fixture is
the lesson's worked value (tests/test_gating_formulas.py)."""
from __future__ import annotations

import math

from course.common.formulas import silu

# ---------------------------------------------------------------- one attention row and its output gate


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def softmax(logits: list[float]) -> list[float]:
    """The attention weights of one query row: positive, and they always sum to 1."""
    top = max(logits)
    e = [math.exp(v - top) for v in logits]
    total = sum(e)
    return [v / total for v in e]


def weighted_sum(weights: list[float], values: list[list[float]]) -> list[float]:
    """What the head outputs for this query: Σ_i w_i v_i."""
    return [sum(w * v[j] for w, v in zip(weights, values)) for j in range(len(values[0]))]


def length(x: list[float]) -> float:
    return math.sqrt(sum(v * v for v in x))


def gate_output(y: list[float], gate_logit: float | None) -> list[float]:
    """Y ⊙ σ(x W_g) for one head (the toy uses one gate value for the whole head); None: no gate."""
    if gate_logit is None:
        return list(y)
    g = sigmoid(gate_logit)
    return [g * v for v in y]


# ---------------------------------------------------------------- gated FFNs and their bounds


def swiglu(gate: float, up: float, limit: float | None = None) -> float:
    """SiLU(gate) · up, as our small model and DeepSeek-V4 compute it: with a limit, the gate's input is
    clamped from above at the limit and the up branch to [−limit, limit] before they multiply."""
    if limit is not None:
        gate, up = min(gate, limit), max(-limit, min(up, limit))
    return silu(gate) * up


def swiglu_clamped_max(limit: float) -> float:
    """The largest value the clamped SwiGLU can take: SiLU(limit) · limit (SiLU rises for positive inputs)."""
    return silu(limit) * limit


def gpt_oss_swiglu(glu: float, linear: float, alpha: float, limit: float) -> float:
    """gpt-oss's gated activation (gpt_oss/torch/model.py, swiglu()): the gate half is x·σ(α·x), clamped
    from above at the limit; the linear half is clamped to [−limit, limit] and gets +1."""
    glu, linear = min(glu, limit), max(-limit, min(linear, limit))
    return glu * sigmoid(alpha * glu) * (linear + 1.0)


def gpt_oss_clamped_max(alpha: float, limit: float) -> float:
    """Its largest value: both halves at the limit, limit · σ(α · limit) · (limit + 1)."""
    return gpt_oss_swiglu(limit, limit, alpha, limit)


def situ_glu(gate: float, up: float, beta: float, linear_beta: float) -> float:
    """Kimi K3's SiTU-GLU: β·tanh(gate/β)·σ(gate) times β₂·tanh(up/β₂). Near 0 it is SwiGLU; far out both
    factors saturate, so |output| < β·β₂ everywhere."""
    return beta * math.tanh(gate / beta) * sigmoid(gate) * linear_beta * math.tanh(up / linear_beta)


def situ_glu_bound(beta: float, linear_beta: float) -> float:
    return beta * linear_beta


def surface(extent: float, points: int, limit: float | None) -> list[list[float]]:
    """SiLU(a)·b on a square grid a, b ∈ [−extent, extent] with `points` values per axis, rows by b
    (what the surface widget draws); with a limit, in the clamped form of swiglu()."""
    axis = grid_axis(extent, points)
    return [[swiglu(a, b, limit) for a in axis] for b in axis]


def grid_axis(extent: float, points: int) -> list[float]:
    return [-extent + 2 * extent * i / (points - 1) for i in range(points)]


# ---------------------------------------------------------------- the anchor's gates


def q_proj_split(heads: int, head_dim: int, output_gate: bool) -> dict[str, int]:
    """The width of q_proj and its two parts: queries (heads × head_dim) and, with the output gate, as many
    gate values again; one block of 2 × head_dim per head (queries first, then that head's gate)."""
    query = heads * head_dim
    gate = query if output_gate else 0
    return {"query": query, "gate": gate, "out": query + gate,
            "per_head": head_dim * (2 if output_gate else 1)}


def head_slices(head: int, head_dim: int) -> dict[str, tuple[int, int]]:
    """Which outputs of the gated q_proj belong to head `head` (from 0), as [start, end): the code views
    q_proj's output as (heads, 2 × head_dim) and splits each row into queries, then gate."""
    start = 2 * head * head_dim
    return {"query": (start, start + head_dim), "gate": (start + head_dim, start + 2 * head_dim)}


def output_gate_params(d: int, heads: int, head_dim: int) -> int:
    """The gate half of q_proj in one full-attention layer: a d × (heads · head_dim) matrix."""
    return d * heads * head_dim


def anchor_output_gate_layers(text) -> int:
    """Every full-attention layer gates its output, and the MTP module holds one more such layer
    (course/common/formulas.py anchor_ledger)."""
    return sum(t == "full_attention" for t in text.layer_types) + text.mtp_num_hidden_layers


def ffn_shapes(d: int, width: int) -> dict[str, tuple[int, int]]:
    """The gated FFN's three matrices as (inputs, outputs)."""
    return {"gate_proj": (d, width), "up_proj": (d, width), "down_proj": (width, d)}


def gated_deltanet_gate_width(value_heads: int, value_head_dim: int) -> int:
    """in_z, the output gate of a Gated DeltaNet layer: one gate value per value-head dimension."""
    return value_heads * value_head_dim


# ---------------------------------------------------------------- our attention-sink measurement


def uniform_first_token_share(block_size: int) -> float:
    """What `first_token_attention` reads if every query spreads its weight evenly over what it can see:
    query t (t = 1 … T−1) sees t + 1 positions, so position 0 gets 1/(t + 1); the mean over those queries."""
    return sum(1.0 / (t + 1) for t in range(1, block_size)) / (block_size - 1)
