"""The project's small model: a character-level decoder, in one file (after nanoGPT's model.py).

Causal self-attention, a SwiGLU FFN, learned positions, tied embeddings. Every part chapter C4 varies
is a switch of the config, off by default so the baseline stays the baseline:

    norm_type, norm_placement   which norm, and where (lesson 3)
    decay_gains                 weight decay on the norm gains too (lesson 3)
    ffn_type, ffn_ratio         SwiGLU or a two-matrix GELU FFN, and its width (lesson 1)
    residual, scale_proj_init   x + F(x) or F(x) alone; the 1/√(2·n_layer) write-back init (lesson 2)
    attn_output_gate            a sigmoid gate on the attention output (lesson 4)
    swiglu_limit                a clamp on SwiGLU's two branches (lesson 4)
    embed_init_std, linear_init the init of a plain stack: embeddings of another size, matrices by fan-in
    n_kv_head                   fewer key/value heads than query heads (grouped-query; 1 = multi-query)
    attn_scale                  the 1/√d_head on the attention scores
    attn_type                   softmax attention, or the uniform mean of the values so far (no selection)
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn
from torch.nn import functional as F

# the config lives apart, without torch, so that a build that trains nothing can compute the sizes
from models.config import GPTConfig


# ---------------------------------------------------------------- the three norms

class ZeroCenteredRMSNorm(nn.Module):
    """y = x / √(mean(x²) + ε) · (1 + w), w = 0 at init: weight decay pulls the gain toward 1, not 0."""

    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(d))

    def gain(self):
        return 1 + self.weight

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.gain()


class RMSNorm(nn.Module):
    """y = x / √(mean(x²) + ε) · g, g = 1 at init (Zhang & Sennrich 2019)."""

    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def gain(self):
        return self.weight

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.gain()


class LayerNorm(nn.Module):
    """y = (x − μ) / √(var(x) + ε) · γ + β (Ba et al. 2016), statistics over the token's own d numbers."""

    def __init__(self, d: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))
        self.bias = nn.Parameter(torch.zeros(d))

    def gain(self):
        return self.weight

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = (x - mu).pow(2).mean(-1, keepdim=True)
        return (x - mu) * torch.rsqrt(var + self.eps) * self.gain() + self.bias


NORMS = {"zero_centered_rms": ZeroCenteredRMSNorm, "rms": RMSNorm, "layernorm": LayerNorm}


def make_norm(config: GPTConfig) -> nn.Module:
    return NORMS[config.norm_type](config.d_model, config.norm_eps)


# ---------------------------------------------------------------- the sublayers

def causal_mean_weights(T: int, device) -> torch.Tensor:
    """(T, T): row t puts 1/(t + 1) on each position ≤ t, what softmax gives when every score is equal."""
    causal = torch.ones(T, T, device=device).tril()
    return causal / causal.sum(-1, keepdim=True)


class CausalSelfAttention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.n_head = config.n_head
        self.n_kv_head = config.n_kv_head or config.n_head  # each K/V head serves n_head / n_kv_head query heads
        self.d_head = config.d_model // config.n_head
        self.scale = None if config.attn_scale else 1.0      # None: the kernel's own 1/√d_head
        self.mean = config.attn_type == "causal_mean"        # no queries or keys: the values' running mean
        kv = self.n_kv_head * self.d_head
        self.sizes = [kv] if self.mean else [config.d_model, kv, kv]
        self.c_attn = nn.Linear(config.d_model, sum(self.sizes), bias=False)  # q, k, v in one matrix (v alone)
        # Y = Attention(x) ⊙ σ(x W_g): one gate per head dimension, computed from the sublayer's input
        self.c_gate = nn.Linear(config.d_model, config.d_model, bias=False) if config.attn_output_gate else None
        self.c_proj = nn.Linear(config.d_model, config.d_model, bias=False)      # writes to the stream

    def heads(self, x):
        """q, k, v as (B, n_head, T, d_head), each K/V head repeated for the query heads it serves (the causal
        mean has no q or k: None)."""
        B, T, C = x.shape

        def split(t, n):  # (B, T, n·d_head) → (B, n, T, d_head)
            return t.view(B, T, n, self.d_head).transpose(1, 2)

        if self.mean:
            q, k, v = None, None, split(self.c_attn(x), self.n_kv_head)
        else:
            q, k, v = self.c_attn(x).split(self.sizes, dim=2)
            q, k, v = split(q, self.n_head), split(k, self.n_kv_head), split(v, self.n_kv_head)
        if self.n_kv_head != self.n_head:  # query head h reads K/V head h // group
            group = self.n_head // self.n_kv_head
            k = None if k is None else k.repeat_interleave(group, dim=1)
            v = v.repeat_interleave(group, dim=1)
        return q, k, v

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.heads(x)
        if self.mean:
            y = causal_mean_weights(T, x.device) @ v
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.scale)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        if self.c_gate is not None:
            y = y * torch.sigmoid(self.c_gate(x))
        return self.c_proj(y)

    @torch.no_grad()
    def scores(self, x):
        """The scores (B, n_head, T, T) softmax reads, scale applied, later positions at -inf (None for the
        causal mean, which has none)."""
        if self.mean:
            return None
        q, k, _ = self.heads(x)
        T = x.size(1)
        scores = q @ k.transpose(-2, -1)
        if self.scale is None:
            scores = scores / math.sqrt(self.d_head)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        return scores.masked_fill(~causal, float("-inf"))

    @torch.no_grad()
    def attention_weights(self, x):
        """The weights (B, n_head, T, T) that forward's fused kernel computes without returning."""
        if self.mean:
            B, T = x.shape[:2]
            return causal_mean_weights(T, x.device).expand(B, self.n_head, T, T)
        return self.scores(x).softmax(-1)


class SwiGLU(nn.Module):
    """FFN(x) = W_down (SiLU(W_gate x) ⊙ W_up x) (Shazeer 2020). With `swiglu_limit` the gate's input is
    clamped from above and the up branch to ±limit before they multiply, so the product stays bounded."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.limit = config.swiglu_limit
        self.c_gate = nn.Linear(config.d_model, config.ffn_hidden, bias=False)
        self.c_up = nn.Linear(config.d_model, config.ffn_hidden, bias=False)
        self.c_proj = nn.Linear(config.ffn_hidden, config.d_model, bias=False)  # writes to the stream

    def forward(self, x):
        gate, up = self.c_gate(x), self.c_up(x)
        if self.limit is not None:
            gate, up = gate.clamp(max=self.limit), up.clamp(-self.limit, self.limit)
        return self.c_proj(F.silu(gate) * up)


class MLP(nn.Module):
    """FFN(x) = W_2 GELU(W_1 x): two matrices, as in GPT-2 (the 2017 Transformer used ReLU)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_fc = nn.Linear(config.d_model, config.ffn_hidden, bias=False)
        self.c_proj = nn.Linear(config.ffn_hidden, config.d_model, bias=False)  # writes to the stream

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x)))


FFNS = {"swiglu": SwiGLU, "gelu": MLP}


class Block(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.pre, self.residual = config.norm_placement == "pre", config.residual
        self.norm_1, self.attn = make_norm(config), CausalSelfAttention(config)
        self.norm_2, self.mlp = make_norm(config), FFNS[config.ffn_type](config)

    def add(self, x, fx):
        return x + fx if self.residual else fx  # without the residual a sublayer replaces the stream

    def forward(self, x):
        if self.pre:   # x + F(Norm(x)): a pure-addition path from the embeddings to the top
            x = self.add(x, self.attn(self.norm_1(x)))
            return self.add(x, self.mlp(self.norm_2(x)))
        x = self.norm_1(self.add(x, self.attn(x)))  # Norm(x + F(x)): every path goes through a norm
        return self.norm_2(self.add(x, self.mlp(x)))


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
        if config.scale_proj_init:
            for name, p in self.named_parameters():
                # 2·n_layer sublayers add to the residual stream; scaling their output projections by
                # 1/√(2·n_layer) keeps the stream's variance at init independent of depth (GPT-2).
                if name.endswith("c_proj.weight"):
                    nn.init.normal_(p, mean=0.0, std=self._std(p.size(1)) / math.sqrt(2 * config.n_layer))

    def _std(self, fan_in: int) -> float:
        """A matrix's init std: init_std (GPT-2), or 1/√fan_in, which keeps a unit-size input unit-size at
        the output: what a plain stack, whose every layer reads the previous one's output, needs."""
        return self.config.init_std if self.config.linear_init == "normal" else 1 / math.sqrt(fan_in)

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            embedding = isinstance(module, nn.Embedding) or module is self.lm_head  # the head is the tied embedding
            std = (self.config.embed_init_std or self.config.init_std) if embedding else self._std(module.in_features)
            nn.init.normal_(module.weight, mean=0.0, std=std)
            if getattr(module, "bias", None) is not None:
                nn.init.zeros_(module.bias)

    def norms(self) -> dict[str, nn.Module]:
        return {name: m for name, m in self.named_modules() if isinstance(m, tuple(NORMS.values()))}

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

    def configure_optimizers(self, lr: float, weight_decay: float, betas: tuple[float, float], eps: float = 1e-8):
        # Matrices (and the embedding tables) decay; 1-d tensors (norm gains, biases) do not, unless
        # decay_gains: then the gains decay too, which pulls a plain gain g toward 0 and 1 + w toward 1.
        gains = {id(m.weight) for m in self.norms().values()} if self.config.decay_gains else set()
        params = [p for p in self.parameters() if p.requires_grad]
        groups = [{"params": [p for p in params if p.dim() >= 2 or id(p) in gains], "weight_decay": weight_decay},
                  {"params": [p for p in params if p.dim() < 2 and id(p) not in gains], "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=lr, betas=betas, eps=eps)
