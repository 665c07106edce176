"""What a model keeps, per sequence, to generate its next token: the keys and values of the earlier tokens
(the KV cache) and, in linear-attention layers, a state of fixed size. Computed from the attention fields
that scripts/import_configs.py reads into data/frontier-models.json and from the anchor's config
(data/anchor-model.json), for chapter C3.

An entry is one stored number; bytes = entries × bytes per entry (BF16: 2). Per layer, by what it keeps:

  full attention (MHA, GQA, MQA)  2 × num_kv_heads × head_dim per token: a key and a value per KV head
  MLA                             kv_lora_rank + qk_rope_head_dim per token: the latent and the one RoPE key
                                  all heads share (DeepSeek-V2 §2.1.2-2.1.3, "(d_c + d_h^R) l elements";
                                  what DeepSeek-V3's inference/model.py caches in its default "absorb" mode)
  sliding window                  as full attention, for the last `sliding_window` tokens at most
  linear attention                a state whatever the context: per value head a key-by-value matrix,
                                  num_v_heads × k_dim × v_dim, and the short convolution's last inputs,
                                  (conv_kernel − 1) × (2 × num_k_heads × k_dim + num_v_heads × v_dim), as vLLM's
                                  MambaStateShapeCalculator sizes Gated DeltaNet and KDA states
  DeepSeek-V4                     one head_dim vector per cached position (its key is its value): the last
                                  sliding_window tokens in every layer, one entry per compress_ratio tokens in
                                  its compressed layers (CSA 4, HCA 128), and in CSA layers the indexer's
                                  index_head_dim key per 4 tokens (DeepSeek-V4-Flash inference/model.py:
                                  Attention.kv_cache holds window_size + max_seq_len // compress_ratio vectors
                                  of head_dim, Indexer.kv_cache max_seq_len // compress_ratio of index_head_dim)

Not counted: multi-token-prediction layers (they serve speculative decoding); DeepSeek-V4's compressors'
partial-window buffers (kept in FP32 by its reference code, a few per layer whatever the context). A
recurrent state is counted at the same bytes per entry as the cache, although engines often keep it in FP32.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Optional

from course.common.schema import AnchorModel, FrontierModel, Inputs

BF16 = 2   # bytes per entry

ANCHOR = "data/anchor-model.json"
FRONTIER = "data/frontier-models.json"

# how many positions a part of the cache holds at a context of T tokens
Grows = Literal["every", "window", "strided", "fixed"]   # T; min(T, span); T // span; none (a state)


@dataclass(frozen=True)
class Part:
    """Layers of one kind and what each keeps: `entries` per cached position (for a state, the state's size)."""
    what: Literal["full", "mla", "sliding", "window", "compressed", "indexer", "linear_state", "linear_conv"]
    layers: int
    entries: int
    grows: Grows
    span: int = 1       # "window": the window in tokens; "strided": tokens per cached entry (the compress ratio)
    formula: str = ""

    def positions(self, context: int) -> int:
        """Positions one layer holds after `context` tokens (1 for a state, counted once)."""
        return {"every": context, "window": min(context, self.span), "strided": context // self.span,
                "fixed": 1}[self.grows]

    def entries_at(self, context: int) -> int:
        return self.layers * self.entries * self.positions(context)

    def entries_per_token(self) -> Fraction:
        """What one more token adds once the context is long (a window is full, a state does not grow)."""
        if self.grows == "every":
            return Fraction(self.layers * self.entries)
        if self.grows == "strided":
            return Fraction(self.layers * self.entries, self.span)
        return Fraction(0)


@dataclass(frozen=True)
class CachePlan:
    """A model's cache, part by part."""
    model: str
    attention: Literal["MHA", "GQA", "MQA", "MLA", "CSA/HCA"]   # what its attention layers cache
    parts: tuple[Part, ...]
    max_context: Optional[int]     # max_position_embeddings; where the config gives none, the context length
                                   # of the model's paper (paper_context); None where neither gives one
    source: str
    max_context_from: Optional[Literal["config", "paper"]] = None   # which of the two max_context is

    def layers(self, what: str) -> int:
        return sum(p.layers for p in self.parts if p.what == what)

    def full_bytes_per_token(self, bytes_per_entry: int = BF16) -> int:
        """Bytes per token in the layers that keep every token (full attention, MLA)."""
        return sum(p.layers * p.entries for p in self.parts if p.grows == "every") * bytes_per_entry

    def bytes_per_token(self, bytes_per_entry: int = BF16) -> Fraction:
        """Bytes one more token adds at long context: every-token layers, plus compressed layers' share."""
        return sum((p.entries_per_token() for p in self.parts), Fraction(0)) * bytes_per_entry

    def fixed_bytes(self, bytes_per_entry: int = BF16) -> int:
        """Bytes that do not grow with the context (linear-attention states)."""
        return sum(p.entries_at(0) for p in self.parts if p.grows == "fixed") * bytes_per_entry

    def bytes_at(self, context: int, bytes_per_entry: int = BF16, batch: int = 1) -> int:
        """The whole cache after `context` tokens, for `batch` sequences."""
        return batch * sum(p.entries_at(context) for p in self.parts) * bytes_per_entry


@dataclass(frozen=True)
class NoPlan:
    """A model whose data lacks what its cache needs."""
    model: str
    reason: str


@dataclass(frozen=True)
class _Attention:
    """The fields a plan reads, named as in data/frontier-models.json, for a frontier model and the anchor."""
    name: str
    source: str
    num_layers: int
    num_heads: int
    num_kv_heads: Optional[int]
    head_dim: Optional[int]
    kv_lora_rank: Optional[int]
    qk_rope_head_dim: Optional[int]
    sliding_window: Optional[int]
    layer_types: Optional[list[str]]
    compress_ratios: Optional[list[int]]
    index_head_dim: Optional[int]
    linear_num_key_heads: Optional[int]
    linear_num_value_heads: Optional[int]
    linear_key_head_dim: Optional[int]
    linear_value_head_dim: Optional[int]
    linear_conv_kernel_dim: Optional[int]
    max_position_embeddings: Optional[int]
    paper_context: Optional[int]
    absent: dict[str, str]


class _Missing(Exception):
    pass


def _need(a: _Attention, *fields: str) -> list[int]:
    values = [getattr(a, f) for f in fields]
    for f, v in zip(fields, values):
        if v is None:
            raise _Missing(f"{f}: " + a.absent.get(f, "not in the data"))
    return values


def _plan(a: _Attention) -> CachePlan:
    L = a.num_layers
    types = a.layer_types or ["full_attention"] * L
    n = Counter(types)
    parts: list[Part] = []
    if a.compress_ratios is not None:                      # DeepSeek-V4
        head_dim, window = _need(a, "head_dim", "sliding_window")
        attention = "CSA/HCA"
        parts.append(Part("window", L, head_dim, "window", window,
                          "head_dim (one vector: the key is the value) × min(T, sliding_window), every layer"))
        for kind, indexer in (("compressed_sparse_attention", True), ("heavily_compressed_attention", False)):
            if not n[kind]:
                continue
            ratios = {r for r, t in zip(a.compress_ratios, types) if t == kind}
            if len(ratios) != 1:
                raise _Missing(f"compress_ratios: the {kind} layers have ratios {sorted(ratios)}, expected one")
            (ratio,) = ratios
            parts.append(Part("compressed", n[kind], head_dim, "strided", ratio,
                              f"head_dim × (T // {ratio}) in the {kind} layers"))
            if indexer:
                (index_dim,) = _need(a, "index_head_dim")
                parts.append(Part("indexer", n[kind], index_dim, "strided", ratio,
                                  f"index_head_dim × (T // {ratio}) in the {kind} layers"))
    elif a.kv_lora_rank is not None:                       # MLA
        (rope,) = _need(a, "qk_rope_head_dim")
        attention = "MLA"
        parts.append(Part("mla", n["full_attention"], a.kv_lora_rank + rope, "every", 1,
                          "(kv_lora_rank + qk_rope_head_dim) × T"))
    else:                                                  # MHA, GQA, MQA
        kv, head_dim = _need(a, "num_kv_heads", "head_dim")
        attention = "MHA" if kv == a.num_heads else "MQA" if kv == 1 else "GQA"
        parts.append(Part("full", n["full_attention"], 2 * kv * head_dim, "every", 1,
                          "2 × num_kv_heads × head_dim × T"))
        if n["sliding_attention"]:
            (window,) = _need(a, "sliding_window")
            parts.append(Part("sliding", n["sliding_attention"], 2 * kv * head_dim, "window", window,
                              "2 × num_kv_heads × head_dim × min(T, sliding_window)"))
    if n["linear_attention"]:
        kh, vh, kd, vd, conv = _need(a, "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                                     "linear_value_head_dim", "linear_conv_kernel_dim")
        parts.append(Part("linear_state", n["linear_attention"], vh * kd * vd, "fixed", 1,
                          "linear_num_value_heads × linear_key_head_dim × linear_value_head_dim"))
        parts.append(Part("linear_conv", n["linear_attention"], (conv - 1) * (2 * kh * kd + vh * vd), "fixed", 1,
                          "(linear_conv_kernel_dim − 1) × (2 × linear_num_key_heads × linear_key_head_dim + "
                          "linear_num_value_heads × linear_value_head_dim)"))
    unknown = set(n) - {"full_attention", "sliding_attention", "linear_attention", "compressed_sparse_attention",
                        "heavily_compressed_attention"}
    if unknown or (a.compress_ratios is None and set(n) & {"compressed_sparse_attention",
                                                            "heavily_compressed_attention"}):
        raise _Missing(f"layer_types: kinds this plan does not count: {sorted(unknown or n)}")
    most = a.max_position_embeddings or a.paper_context
    return CachePlan(a.name, attention, tuple(p for p in parts if p.layers), most, a.source,
                     None if most is None else "config" if a.max_position_embeddings else "paper")


FIELDS = [f for f in _Attention.__dataclass_fields__ if f not in ("name", "source", "absent")]


def _from_frontier(m: FrontierModel) -> _Attention:
    return _Attention(name=m.name, source=f"{FRONTIER} ({m.name})", absent=dict(m.attention_absent),
                      **{f: getattr(m, f) for f in FIELDS})


def _from_anchor(anchor: AnchorModel) -> _Attention:
    """The anchor keeps its whole official config; its text model has no MLA, window or compression keys."""
    t = anchor.config.text_config
    return _Attention(
        name=anchor.name, source=f"{ANCHOR} (config.text_config)", num_layers=t.num_hidden_layers,
        num_heads=t.num_attention_heads, num_kv_heads=t.num_key_value_heads, head_dim=t.head_dim,
        kv_lora_rank=None, qk_rope_head_dim=None, sliding_window=None, layer_types=list(t.layer_types),
        compress_ratios=None, index_head_dim=None, linear_num_key_heads=t.linear_num_key_heads,
        linear_num_value_heads=t.linear_num_value_heads, linear_key_head_dim=t.linear_key_head_dim,
        linear_value_head_dim=t.linear_value_head_dim, linear_conv_kernel_dim=t.linear_conv_kernel_dim,
        max_position_embeddings=t.max_position_embeddings, paper_context=None, absent={})


def plan_model(m: FrontierModel) -> CachePlan | NoPlan:
    try:
        return _plan(_from_frontier(m))
    except _Missing as e:
        return NoPlan(m.name, str(e))


def plan_anchor(anchor: AnchorModel) -> CachePlan:
    return _plan(_from_anchor(anchor))


def plans(inputs: Inputs) -> tuple[list[CachePlan], list[NoPlan]]:
    """The anchor's plan, then every frontier model's in the data's order; the models that have none, and why."""
    done: list[CachePlan] = [plan_anchor(inputs.anchor)]
    missing: list[NoPlan] = []
    for m in inputs.frontier.models:
        p = plan_model(m)
        (done if isinstance(p, CachePlan) else missing).append(p)
    return done, missing
