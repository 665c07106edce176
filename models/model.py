"""The project's small model: a character-level decoder, in one file (after nanoGPT's model.py).

Causal self-attention, a SwiGLU FFN, learned positions, tied embeddings. The two things the
normalization lesson varies are switches of the config: which norm (zero-centered RMSNorm as the
anchor uses it, standard RMSNorm, LayerNorm) and where it sits (`pre`: at each sublayer's entry plus
a final norm; `post`: after each residual add, as in the 2017 Transformer).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class GPTConfig:
    vocab_size: int = 2001          # top 2000 characters + UNK
    block_size: int = 128
    n_layer: int = 4
    n_head: int = 4
    d_model: int = 128
    norm_type: Literal["zero_centered_rms", "rms", "layernorm"] = "zero_centered_rms"
    norm_placement: Literal["pre", "post"] = "pre"
    norm_eps: float = 1e-5
    init_std: float = 0.02

    @property
    def ffn_hidden(self) -> int:
        # SwiGLU's three matrices at the parameter count of a 4d two-matrix FFN: 8d/3, rounded up to 64
        return 64 * math.ceil(8 * self.d_model / 3 / 64)


# ---------------------------------------------------------------- the three norms

class ZeroCenteredRMSNorm(nn.Module):
    """y = x / √(mean(x²) + ε) · (1 + w), w = 0 at init: weight decay pulls the gain toward 1, not 0."""

    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * (1 + self.weight)


class RMSNorm(nn.Module):
    """y = x / √(mean(x²) + ε) · g, g = 1 at init (Zhang & Sennrich 2019)."""

    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class LayerNorm(nn.Module):
    """y = (x − μ) / √(var(x) + ε) · γ + β (Ba et al. 2016), statistics over the token's own d numbers."""

    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = (x - mu).pow(2).mean(-1, keepdim=True)
        return (x - mu) * torch.rsqrt(var + self.eps) * self.weight + self.bias


NORMS = {"zero_centered_rms": ZeroCenteredRMSNorm, "rms": RMSNorm, "layernorm": LayerNorm}


def make_norm(config: GPTConfig) -> nn.Module:
    return NORMS[config.norm_type](config.d_model, config.norm_eps)


# ---------------------------------------------------------------- the sublayers

class CausalSelfAttention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.n_head = config.n_head
        self.c_attn = nn.Linear(config.d_model, 3 * config.d_model, bias=False)  # q, k, v in one matrix
        self.c_proj = nn.Linear(config.d_model, config.d_model, bias=False)      # writes to the stream

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class SwiGLU(nn.Module):
    """FFN(x) = W_down (SiLU(W_gate x) ⊙ W_up x) (Shazeer 2020)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_gate = nn.Linear(config.d_model, config.ffn_hidden, bias=False)
        self.c_up = nn.Linear(config.d_model, config.ffn_hidden, bias=False)
        self.c_proj = nn.Linear(config.ffn_hidden, config.d_model, bias=False)  # writes to the stream

    def forward(self, x):
        return self.c_proj(F.silu(self.c_gate(x)) * self.c_up(x))


class Block(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.pre = config.norm_placement == "pre"
        self.norm_1, self.attn = make_norm(config), CausalSelfAttention(config)
        self.norm_2, self.mlp = make_norm(config), SwiGLU(config)

    def forward(self, x):
        if self.pre:   # x + F(Norm(x)): a pure-addition path from the embeddings to the top
            x = x + self.attn(self.norm_1(x))
            return x + self.mlp(self.norm_2(x))
        x = self.norm_1(x + self.attn(x))  # Norm(x + F(x)): every path goes through a norm
        return self.norm_2(x + self.mlp(x))


# ---------------------------------------------------------------- the model

class GPT(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.d_model)
        self.wpe = nn.Embedding(config.block_size, config.d_model)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layer))
        # Pre-Norm leaves the stream un-normalized, so the head reads it through a final norm;
        # in Post-LN the last block's output is already normalized.
        self.norm_f = make_norm(config) if config.norm_placement == "pre" else nn.Identity()
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight  # tied: one matrix reads and writes characters

        self.apply(self._init_weights)
        for name, p in self.named_parameters():
            # 2·n_layer sublayers add to the residual stream; scaling their output projections by
            # 1/√(2·n_layer) keeps the stream's variance at init independent of depth (GPT-2).
            if name.endswith("c_proj.weight"):
                nn.init.normal_(p, mean=0.0, std=config.init_std / math.sqrt(2 * config.n_layer))

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=self.config.init_std)
            if getattr(module, "bias", None) is not None:
                nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None, stream: list | None = None):
        """Logits, and the mean cross-entropy when targets are given. If `stream` is a list, the
        residual stream's RMS after the embeddings and after each block is appended to it."""
        T = idx.size(1)
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        if stream is not None:
            stream.append(x.detach().pow(2).mean().sqrt().item())
        for block in self.blocks:
            x = block(x)
            if stream is not None:
                stream.append(x.detach().pow(2).mean().sqrt().item())
        logits = self.lm_head(self.norm_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    def configure_optimizers(self, lr: float, weight_decay: float, betas: tuple[float, float]):
        # Matrices (and the embedding tables) decay; 1-d tensors (norm gains, biases) do not: decay
        # would pull a standard gain toward 0. A zero-centered gain 1 + w is safe either way.
        params = [p for p in self.parameters() if p.requires_grad]
        groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": weight_decay},
                  {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=lr, betas=betas)
