"""The chapter's shared formulas, as small pure functions: the anchor's parameter ledger, the residual
stream's growth and the write-back init, SiLU. course/common/numbers.py applies them to the data; a
lesson's own formulas live in its package. Each has a unit test whose fixture is a worked value."""
from __future__ import annotations

import math

# ---------------------------------------------------------------- residual stream


def residual_writes(num_layers: int) -> int:
    """Each decoder layer adds to the stream twice: once from attention, once from the FFN."""
    return 2 * num_layers


def residual_std(num_layers: int) -> float:
    """Std of x_0 + 2L independent unit-variance writes: √(2L + 1)."""
    return math.sqrt(residual_writes(num_layers) + 1)


def residual_init_std(base_std: float, num_layers: int) -> float:
    """nanoGPT / GPT-2 rule: output projections start at base_std / √(2L)."""
    return base_std / math.sqrt(2 * num_layers)


# ---------------------------------------------------------------- activations


def silu(x: float) -> float:
    return x / (1.0 + math.exp(-x))


def swiglu_equal_params_width(d: int) -> float:
    """Width that gives a three-matrix SwiGLU FFN the parameters of a two-matrix 4d FFN: 8d/3."""
    return 8 * d / 3


# ---------------------------------------------------------------- the anchor's parameters


def norm_params(num_layers: int, d: int) -> int:
    """Two sublayer-entry norms per layer and one final norm, each a gain vector of size d."""
    return 2 * num_layers * d + d


def full_attention_params(d: int, heads: int, kv_heads: int, head_dim: int, output_gate: bool) -> int:
    """q (doubled when the output gate is on: half of q_proj is the gate), k, v, o, and q/k norms."""
    q = d * heads * head_dim * (2 if output_gate else 1)
    kv = 2 * d * kv_heads * head_dim
    o = heads * head_dim * d
    return q + kv + o + 2 * head_dim


def gated_deltanet_params(d: int, key_heads: int, value_heads: int, key_dim: int, value_dim: int,
                          conv_kernel: int) -> int:
    """in_qkv, in_z (output gate), in_a and in_b (per-head decay and beta), the depthwise conv over
    q, k and v, out, the gated RMSNorm over one value head, A_log and dt_bias per value head."""
    qkv = 2 * key_heads * key_dim + value_heads * value_dim
    z = value_heads * value_dim
    return (d * qkv + d * z + 2 * d * value_heads + qkv * conv_kernel + z * d
            + value_dim + 2 * value_heads)


def swiglu_ffn_params(d: int, width: int) -> int:
    """gate_proj, up_proj, down_proj."""
    return 3 * d * width


def vision_tower_params(depth: int, hidden: int, inter: int, in_channels: int, patch: int,
                        temporal_patch: int, positions: int, merge: int, out_hidden: int) -> int:
    """Qwen3-VL-style ViT: a conv3d patch embedding, learned positions, pre-LN blocks with biased
    linears, and a merger that folds merge² patches into one token of the text width."""
    patch_embed = in_channels * temporal_patch * patch * patch * hidden + hidden
    pos = positions * hidden
    block = (2 * 2 * hidden                       # two LayerNorms, weight + bias
             + hidden * 3 * hidden + 3 * hidden   # qkv
             + hidden * hidden + hidden           # proj
             + hidden * inter + inter             # fc1
             + inter * hidden + hidden)           # fc2
    merged = hidden * merge * merge
    merger = 2 * hidden + merged * merged + merged + merged * out_hidden + out_hidden
    return patch_embed + pos + depth * block + merger


def anchor_layer_parts(text) -> dict[str, int]:
    """Parameters of one decoder layer's parts (per layer, not summed over layers), from text_config."""
    d = text.hidden_size
    return {
        "norm": d,  # one gain vector
        "full_attention": full_attention_params(d, text.num_attention_heads, text.num_key_value_heads,
                                                text.head_dim, text.attn_output_gate),
        "gated_deltanet": gated_deltanet_params(d, text.linear_num_key_heads, text.linear_num_value_heads,
                                                text.linear_key_head_dim, text.linear_value_head_dim,
                                                text.linear_conv_kernel_dim),
        "ffn": swiglu_ffn_params(d, text.intermediate_size),
    }


def anchor_ledger(text, vision) -> dict[str, int]:
    """Parameters of the anchor component by component, from its config (text_config, vision_config)."""
    d = text.hidden_size
    n_full = sum(t == "full_attention" for t in text.layer_types)
    n_linear = sum(t == "linear_attention" for t in text.layer_types)
    layer = anchor_layer_parts(text)
    attn, gdn, ffn = layer["full_attention"], layer["gated_deltanet"], layer["ffn"]
    embed = text.vocab_size * d
    # MTP: fc from [embedding; hidden] (2d) to d, three norms (one per input, one final),
    # and one full-attention decoder layer with its two norms and its FFN.
    mtp_layer = 2 * d * d + 3 * d + attn + 2 * d + ffn
    return {
        "embeddings": embed,
        "lm_head": 0 if text.tie_word_embeddings else embed,
        "full_attention": n_full * attn,
        "gated_deltanet": n_linear * gdn,
        "ffn": text.num_hidden_layers * ffn,
        "norms": norm_params(text.num_hidden_layers, d),
        "mtp": text.mtp_num_hidden_layers * mtp_layer,
        "vision": vision_tower_params(vision.depth, vision.hidden_size, vision.intermediate_size,
                                      vision.in_channels, vision.patch_size, vision.temporal_patch_size,
                                      vision.num_position_embeddings, vision.spatial_merge_size,
                                      vision.out_hidden_size),
    }
