"""The small model's parts: its norms against the framework's, the zero-centered gain at init, the
initialization rule, causality, and the corpus's tag stripping."""
import math

import pytest
import torch
from torch.nn import functional as F

from models.corpus import load_corpus, strip_tags
from models.model import GPT, GPTConfig, LayerNorm, RMSNorm, ZeroCenteredRMSNorm

D, EPS = 128, 1e-5


@pytest.fixture
def x():
    return torch.randn(4, 16, D, generator=torch.Generator().manual_seed(0)) * 3 + 0.5


def test_layernorm_matches_framework(x):
    n = LayerNorm(D, EPS)
    with torch.no_grad():
        n.weight.normal_(1, 0.1)
        n.bias.normal_(0, 0.1)
    ref = F.layer_norm(x, (D,), n.weight, n.bias, EPS)
    assert (n(x) - ref).abs().max().item() <= 1e-6


def test_rmsnorm_matches_framework(x):
    n = RMSNorm(D, EPS)
    with torch.no_grad():
        n.weight.normal_(1, 0.1)
    assert (n(x) - F.rms_norm(x, (D,), n.weight, EPS)).abs().max().item() <= 1e-6


def test_zero_centered_rmsnorm_is_rmsnorm_with_gain_one_plus_w(x):
    n = ZeroCenteredRMSNorm(D, EPS)
    with torch.no_grad():
        n.weight.normal_(0, 0.1)
    assert (n(x) - F.rms_norm(x, (D,), 1 + n.weight, EPS)).abs().max().item() <= 1e-6


def test_zero_centered_norm_at_init_is_identity_gain(x):
    n = ZeroCenteredRMSNorm(D, EPS)
    assert torch.equal(n.weight, torch.zeros(D))
    assert (n(x) - F.rms_norm(x, (D,), None, EPS)).abs().max().item() <= 1e-6
    # identity gain: every token lands on the sphere of radius √d
    assert torch.allclose(n(x).norm(dim=-1), torch.full(x.shape[:-1], math.sqrt(D)), rtol=1e-4)


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_model_init_and_causality(placement):
    torch.manual_seed(0)
    cfg = GPTConfig(vocab_size=50, block_size=16, n_layer=2, n_head=2, d_model=32, norm_placement=placement)
    m = GPT(cfg)
    assert m.lm_head.weight is m.wte.weight
    proj = m.blocks[0].mlp.c_proj.weight
    assert abs(proj.std().item() - 0.02 / math.sqrt(2 * cfg.n_layer)) < 0.003
    idx = torch.randint(0, 50, (1, 16))
    changed = idx.clone()
    changed[0, -1] = (idx[0, -1] + 1) % 50
    a, _ = m(idx)
    b, _ = m(changed)
    assert torch.allclose(a[0, :-1], b[0, :-1], atol=1e-6)  # the last token is seen by no earlier position


def test_optimizer_decays_matrices_only():
    m = GPT(GPTConfig(vocab_size=50, block_size=16, n_layer=2, n_head=2, d_model=32, norm_type="layernorm"))
    decay, no_decay = m.configure_optimizers(1e-3, 0.1, (0.9, 0.95)).param_groups
    assert all(p.dim() >= 2 for p in decay["params"]) and decay["weight_decay"] == 0.1
    assert all(p.dim() == 1 for p in no_decay["params"]) and no_decay["weight_decay"] == 0.0
    assert len(no_decay["params"]) == 2 * (2 * 2 + 1)  # γ and β of two norms per block, two blocks, the final norm
    assert sum(p.numel() for g in (decay, no_decay) for p in g["params"]) == sum(p.numel() for p in m.parameters())


def test_tag_stripping_handles_words_and_bracketed_entities():
    tagged = "迈向/v  充满/v  [中国/ns  共产党/nt]nt  ，/w\n１２月/t  ３１日/t"
    assert strip_tags(tagged) == "迈向充满中国共产党，\n１２月３１日"


def test_corpus_has_no_tags_left_and_keeps_line_breaks():
    import re
    c = load_corpus(2000)
    text = c.decode(c.train[:200_000].tolist()) + c.decode(c.val[:50_000].tolist())
    assert not re.search(r"/[A-Za-z]", text)
    assert not re.search(r"\][A-Za-z]", text)
    assert "\n" in text and "  " not in text
    assert c.vocab_size == 2001 and c.chars[-1] != c.chars[0]
    assert 0 < c.unigram_floor() < math.log(c.vocab_size)


# ---------------------------------------------------------------- the chapter's switches (each off by default)

def small(**kw) -> GPTConfig:
    return GPTConfig(**{"vocab_size": 50, "block_size": 16, "n_layer": 2, "n_head": 2, "d_model": 48, **kw})


def test_ffn_width_follows_the_multiple_of_rule():
    # SwiGLU at the parameters of a two-matrix 4d FFN: 8d/3 = 341.3 for d = 128, rounded up to a multiple of 8
    assert GPTConfig(d_model=128).ffn_hidden == 344
    assert GPTConfig(d_model=128, ffn_type="gelu").ffn_hidden == 512
    assert GPTConfig(d_model=128, ffn_type="gelu", ffn_ratio=2).ffn_hidden == 256
    assert GPTConfig(d_model=4096, ffn_multiple_of=256).ffn_hidden == 11008  # Llama 2 7B by the same rule
    gelu = GPT(small(ffn_type="gelu")).blocks[0].mlp
    swiglu = GPT(small()).blocks[0].mlp
    assert sum(p.numel() for p in gelu.parameters()) == 2 * 48 * 192
    assert sum(p.numel() for p in swiglu.parameters()) == 3 * 48 * 128


def test_swiglu_clamp_bounds_the_product():
    torch.manual_seed(0)
    m = GPT(small(swiglu_limit=7.0)).blocks[0].mlp
    with torch.no_grad():
        m.c_gate.weight.mul_(400)
        m.c_up.weight.mul_(400)
    x = torch.randn(2, 16, 48)
    hidden = []
    m.c_proj.register_forward_hook(lambda mod, a, out: hidden.append(a[0].detach()))
    m(x)
    assert float(hidden[0].abs().max()) <= F.silu(torch.tensor(7.0)).item() * 7 + 1e-4
    unclamped = GPT(small()).blocks[0].mlp
    unclamped.load_state_dict(m.state_dict())
    unclamped.c_proj.register_forward_hook(lambda mod, a, out: hidden.append(a[0].detach()))
    unclamped(x)
    assert float(hidden[1].abs().max()) > 100


def test_attention_output_gate_multiplies_by_a_sigmoid_of_the_input():
    torch.manual_seed(0)
    m = GPT(small(attn_output_gate=True)).blocks[0].attn
    x = torch.randn(2, 16, 48).abs()
    with torch.no_grad():
        m.c_gate.weight.fill_(-1e3)   # σ(x W_g) ≈ 0 for every positive input: the gate is shut
    assert torch.allclose(m(x), torch.zeros(2, 16, 48), atol=1e-6)
    w = m.attention_weights(x)
    assert torch.allclose(w.sum(-1), torch.ones(2, 2, 16)) and torch.equal(w.triu(1), torch.zeros_like(w))


def test_without_the_residual_a_sublayer_replaces_the_stream():
    torch.manual_seed(0)
    block = GPT(small(residual=False)).blocks[0]
    x = torch.randn(1, 16, 48)
    h = block.attn(block.norm_1(x))
    assert torch.allclose(block(x), block.mlp(block.norm_2(h)))


def test_write_back_init_scaling_is_a_switch():
    torch.manual_seed(0)
    scaled = GPT(small(n_layer=8)).blocks[0].mlp.c_proj.weight.std().item()
    torch.manual_seed(0)
    plain = GPT(small(n_layer=8, scale_proj_init=False)).blocks[0].mlp.c_proj.weight.std().item()
    assert abs(plain - 0.02) < 0.002 and abs(scaled - 0.02 / math.sqrt(16)) < 0.001


@pytest.mark.parametrize("norm_type", ["rms", "zero_centered_rms"])
def test_decay_gains_puts_the_gains_in_the_decayed_group(norm_type):
    m = GPT(small(norm_type=norm_type, decay_gains=True))
    decay, no_decay = m.configure_optimizers(1e-3, 0.1, (0.9, 0.95)).param_groups
    gains = {id(n.weight) for n in m.norms().values()}
    assert gains <= {id(p) for p in decay["params"]} and no_decay["params"] == []
    # one step of decay alone (no gradient) pulls g toward 0 and 1 + w toward 1
    for p in m.parameters():
        p.grad = torch.zeros_like(p)
    before = [n.gain().detach().clone() for n in m.norms().values()]
    with torch.no_grad():
        for n in m.norms().values():
            n.weight.fill_(1.5 if norm_type == "rms" else 0.5)  # a gain of 1.5 in both forms
    opt = m.configure_optimizers(1e-1, 0.5, (0.9, 0.95))
    opt.step()
    after = [n.gain().detach() for n in m.norms().values()]
    assert all(torch.allclose(a, torch.full_like(a, 1.0 + 0.5 * 0.95) if norm_type == "zero_centered_rms"
                              else torch.full_like(a, 1.5 * 0.95)) for a in after)
    assert len(before) == 2 * 2 + 1
