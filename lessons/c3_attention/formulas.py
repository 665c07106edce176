"""The attention lesson's formulas: what one layer's attention and FFN cost per token, and the context length at
which the two are equal; the spread of a dot product of random vectors; softmax's saturation.

Costs are in FLOPs per token, a multiply-add counting 2, as the weights a token goes through (2 per weight) plus,
for attention, what grows with the T tokens the token reads: a score per key (a dot product of a query head
with a key) and a weighted sum of the values, per head:

    attention(T) = 2 · projection weights + 2 · n_h · (d_qk + d_v) · T
    FFN          = 2 · the FFN weights a token goes through (in an MoE layer: its routed experts and the shared ones)

so the two are equal at T* = (FFN − 2 · projection weights) / (2 · n_h · (d_qk + d_v)). Norms, biases, routers,
position encodings and the softmax itself are left out: each is small beside these.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class LayerCost:
    """One layer's costs per token: the FFN, attention's projections, and attention's cost per token read."""
    ffn_weights: int            # the FFN weights one token goes through
    projection_weights: int     # attention's q, k, v (or MLA's down and up projections) and output weights
    per_key: int                # FLOPs per token read: 2 · n_h · (d_qk + d_v)

    @property
    def ffn_flops(self) -> int:
        return 2 * self.ffn_weights

    @property
    def projection_flops(self) -> int:
        return 2 * self.projection_weights

    def attention_flops(self, context: int) -> int:
        return self.projection_flops + self.per_key * context

    @property
    def crossover(self) -> float:
        """The context at which attention's FLOPs per token equal the FFN's (0 if the projections alone cost more)."""
        return max(0.0, (self.ffn_flops - self.projection_flops) / self.per_key)


def gqa_projection_weights(d: int, n_h: int, n_kv: int, d_head: int, output_gate: bool = False) -> int:
    """q (twice as wide with an output gate, whose half is the gate), k, v and the output projection."""
    q = d * n_h * d_head * (2 if output_gate else 1)
    return q + 2 * d * n_kv * d_head + n_h * d_head * d


def mla_projection_weights(d: int, n_h: int, q_lora: Optional[int], kv_lora: int, nope: int, rope: int,
                           v_dim: int) -> int:
    """MLA (DeepSeek-V2 §2.1): the query through its low-rank pair (or one matrix), the down-projection to the
    latent and the shared RoPE key, the up-projection to every head's key part and value, the output."""
    qk = nope + rope
    q = d * q_lora + q_lora * n_h * qk if q_lora else d * n_h * qk
    return q + d * (kv_lora + rope) + kv_lora * n_h * (nope + v_dim) + n_h * v_dim * d


def per_key_flops(n_h: int, d_qk: int, d_v: int) -> int:
    return 2 * n_h * (d_qk + d_v)


def ffn_weights(d: int, width: int, gated: bool) -> int:
    return (3 if gated else 2) * d * width


def dot_product_std(d: int, entry_var: float = 1.0) -> float:
    """The std of q·k over d coordinates whose entries are independent, mean 0, variance entry_var each
    (Vaswani et al. 2017, footnote 4: variance d for unit variance)."""
    return math.sqrt(d) * entry_var


def softmax(xs: list[float]) -> list[float]:
    top = max(xs)
    e = [math.exp(x - top) for x in xs]
    s = sum(e)
    return [x / s for x in e]


def entropy(ws: list[float]) -> float:
    return -sum(w * math.log(w) for w in ws if w > 0)


def saturation(std: float, keys: int, rows: int, seed: int) -> dict[str, float]:
    """Rows of `keys` scores drawn N(0, std²) (the chapter's seeded Mulberry32, so the page shows the same every
    build): the mean of each row's largest softmax weight, and the mean entropy over the uniform's, log(keys)."""
    from course.common.twins import Mulberry32
    rng = Mulberry32(seed)
    top, ent = 0.0, 0.0
    for _ in range(rows):
        w = softmax([std * rng.normal() for _ in range(keys)])
        top += max(w)
        ent += entropy(w)
    return {"max_weight": top / rows, "entropy_share": ent / rows / math.log(keys)}
