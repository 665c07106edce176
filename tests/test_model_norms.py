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
