"""The training-loop and model options added after the first results, each off by default: at its default
each computes what the code computed before it (bit for bit, against the earlier code written out here),
and each changes what it should when set. The tests that train take a few steps of the quick config."""
import dataclasses
import json
import math

import pytest
import torch
from torch.nn import functional as F

from models.config import TrainConfig
from models.measure import config_key, experiments
from models.model import GPT, GPTConfig
from models.results import RunResult
from models.train import lr_at, quick_config

from conftest import ROOT

NEW_DEFAULTS = {"probe_steps": 0, "attn_stats": False, "adam_eps": 1e-8, "decay_steps": None, "n_kv_head": None, "attn_scale": True,
                "attn_type": "softmax", "embed_init_std": None, "linear_init": "normal"}


def small(**kw) -> GPTConfig:
    return GPTConfig(**{"vocab_size": 50, "block_size": 16, "n_layer": 2, "n_head": 4, "d_model": 32, **kw})


def base(**kw) -> TrainConfig:
    return experiments(ROOT).config("c4_baseline").model_copy(update=kw)


def valid(cfg: TrainConfig, **kw) -> TrainConfig:
    return TrainConfig.model_validate({**cfg.model_dump(), **kw})


# ---------------------------------------------------------------- the defaults are the earlier code

@pytest.mark.parametrize("kw", [{}, {"norm_placement": "post"}, {"ffn_type": "gelu", "attn_output_gate": True}])
def test_default_init_draws_what_the_earlier_code_drew(monkeypatch, kw):
    cfg = small(**kw)
    torch.manual_seed(0)
    now = GPT(cfg)
    # the earlier rule on a model that drew only its modules' own construction-time values: every matrix and
    # embedding N(0, init_std) in apply's order (the tied head last, over the embedding), then the write-backs
    # redrawn at init_std/√(2·n_layer)
    monkeypatch.setattr(GPT, "_init_weights", lambda self, module: None)
    torch.manual_seed(0)
    ref = GPT(dataclasses.replace(cfg, scale_proj_init=False))

    def earlier(module):
        if isinstance(module, (torch.nn.Linear, torch.nn.Embedding)):
            torch.nn.init.normal_(module.weight, mean=0.0, std=cfg.init_std)
    ref.apply(earlier)
    for name, p in ref.named_parameters():
        if name.endswith("c_proj.weight"):
            torch.nn.init.normal_(p, mean=0.0, std=cfg.init_std / math.sqrt(2 * cfg.n_layer))
    for (name, a), b in zip(now.state_dict().items(), ref.state_dict().values()):
        assert torch.equal(a, b), name


def earlier_attention(attn, x):
    """The earlier forward: q, k, v split evenly out of one matrix, the fused kernel at its own scale."""
    B, T, C = x.shape
    q, k, v = (t.view(B, T, attn.n_head, C // attn.n_head).transpose(1, 2) for t in attn.c_attn(x).split(C, dim=2))
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).contiguous().view(B, T, C)
    return attn.c_proj(y)


def test_default_attention_computes_what_the_earlier_code_computed():
    torch.manual_seed(0)
    attn = GPT(small()).blocks[0].attn
    x = torch.randn(3, 16, 32)
    assert torch.equal(attn(x), earlier_attention(attn, x))
    assert sum(p.numel() for p in attn.c_attn.parameters()) == 3 * 32 * 32


def earlier_lr(step: int, cfg: TrainConfig) -> float:
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, cfg.max_steps - cfg.warmup_steps)
    min_lr = cfg.lr * 0.1
    return min_lr + 0.5 * (1 + math.cos(math.pi * progress)) * (cfg.lr - min_lr)


def test_default_schedule_and_optimizer_are_the_earlier_ones():
    exp = experiments(ROOT)
    plain = [run for run in exp.runs if "decay_steps" not in exp.runs[run]]   # a run that sets it changes it
    assert "c4_baseline" in plain
    for run in plain:
        cfg = exp.config(run)
        assert [lr_at(s, cfg) for s in range(cfg.max_steps)] == [earlier_lr(s, cfg) for s in range(cfg.max_steps)]
    opt = GPT(small()).configure_optimizers(1e-3, 0.1, (0.9, 0.95))
    assert [g["eps"] for g in opt.param_groups] == [1e-8, 1e-8]   # what AdamW was given before: its default


def test_new_fields_at_their_defaults_keep_every_run_and_its_key():
    exp = experiments(ROOT)
    # the runs that existed before the options (the new runs are the ones that set one of them)
    earlier = [run for run in exp.runs if not set(exp.runs[run]) & set(NEW_DEFAULTS)]
    assert "c4_baseline" in earlier and len(earlier) >= 34
    for run in earlier:
        cfg = exp.config(run)
        assert {k: getattr(cfg, k) for k in NEW_DEFAULTS} == NEW_DEFAULTS
        assert config_key(cfg) == config_key(valid(cfg, **NEW_DEFAULTS))
    cfg = exp.config("c4_baseline")
    assert all(config_key(valid(cfg, **{k: v})) != config_key(cfg) for k, v in
               {"probe_steps": 5, "adam_eps": 1e-6, "decay_steps": 100, "n_kv_head": 1, "attn_scale": False,
                "attn_type": "causal_mean", "embed_init_std": 1.0, "linear_init": "fan_in"}.items())


def test_the_new_fields_are_validated():
    cfg = base()
    for bad in ({"n_kv_head": 3}, {"n_kv_head": 0}, {"decay_steps": cfg.warmup_steps}, {"adam_eps": 0},
                {"attn_type": "linear"}, {"attn_scale": False, "attn_type": "causal_mean"}, {"probe_steps": -1},
                {"linear_init": "xavier"}, {"embed_init_std": 0}):
        with pytest.raises(ValueError):
            valid(cfg, **bad)


# ---------------------------------------------------------------- each option does what it says

def test_kv_heads_shrink_keys_and_values_and_group_the_queries():
    d, heads, d_head = 32, 4, 8
    for kv in (4, 2, 1):
        attn = GPT(small(n_kv_head=kv)).blocks[0].attn
        assert attn.c_attn.weight.shape == (d + 2 * kv * d_head, d)   # queries keep every head
    torch.manual_seed(0)
    attn = GPT(small(n_kv_head=2)).blocks[0].attn
    x = torch.randn(2, 16, d)
    q, k, v = attn.heads(x)
    assert q.shape == k.shape == v.shape == (2, heads, 16, d_head)
    assert torch.equal(k[:, 0], k[:, 1]) and torch.equal(v[:, 2], v[:, 3]) and not torch.equal(k[:, 1], k[:, 2])
    # query heads 0, 1 read K/V head 0; 2, 3 read K/V head 1: the output is standard attention over them
    _, kk, vv = attn.c_attn(x).split([d, 2 * d_head, 2 * d_head], dim=2)
    kk, vv = (t.view(2, 16, 2, d_head).transpose(1, 2) for t in (kk, vv))
    y = torch.cat([F.scaled_dot_product_attention(q[:, 2 * g:2 * g + 2], kk[:, g:g + 1].expand(-1, 2, -1, -1),
                                                  vv[:, g:g + 1].expand(-1, 2, -1, -1), is_causal=True)
                   for g in range(2)], dim=1)
    assert torch.allclose(attn(x), attn.c_proj(y.transpose(1, 2).reshape(2, 16, d)), atol=1e-6)
    # n_kv_head = n_head is the default model, draw for draw
    torch.manual_seed(0)
    a = GPT(small(n_kv_head=4))
    torch.manual_seed(0)
    b = GPT(small())
    assert all(torch.equal(p, r) for p, r in zip(a.parameters(), b.parameters()))


def test_unscaled_attention_takes_the_softmax_of_the_raw_scores():
    torch.manual_seed(0)
    scaled = GPT(small()).blocks[0].attn
    unscaled = GPT(small(attn_scale=False)).blocks[0].attn
    unscaled.load_state_dict(scaled.state_dict())
    x = torch.randn(2, 16, 32)
    q, k, v = scaled.heads(x)
    causal = torch.ones(16, 16, dtype=torch.bool).tril()
    raw = (q @ k.transpose(-2, -1)).masked_fill(~causal, float("-inf"))
    assert torch.allclose(unscaled.attention_weights(x), raw.softmax(-1), atol=1e-6)
    assert torch.allclose(scaled.attention_weights(x), (raw / math.sqrt(8)).softmax(-1), atol=1e-6)
    y = (raw.softmax(-1) @ v).transpose(1, 2).reshape(2, 16, 32)
    assert torch.allclose(unscaled(x), unscaled.c_proj(y), atol=1e-6)
    assert not torch.allclose(scaled(x), unscaled(x), atol=1e-6)


def test_causal_mean_attention_is_the_uniform_mean_of_the_values_so_far():
    torch.manual_seed(0)
    attn = GPT(small(attn_type="causal_mean")).blocks[0].attn
    assert attn.c_attn.weight.shape == (32, 32)   # the values alone: no queries or keys
    x = torch.randn(2, 16, 32)
    w = attn.attention_weights(x)
    T = torch.arange(1, 17, dtype=torch.float32)
    assert torch.allclose(w, torch.ones(16, 16).tril() / T[:, None]) and w.shape == (2, 4, 16, 16)
    v = attn.c_attn(x)
    running_mean = v.cumsum(1) / T[None, :, None]
    assert torch.allclose(attn(x), attn.c_proj(running_mean), atol=1e-6)


def test_embed_init_std_sizes_the_tied_embedding_and_positions():
    torch.manual_seed(0)
    m = GPT(small(vocab_size=2000, embed_init_std=1.0))
    assert m.lm_head.weight is m.wte.weight
    assert abs(m.wte.weight.std().item() - 1.0) < 0.02 and abs(m.wpe.weight.std().item() - 1.0) < 0.1
    assert abs(m.blocks[0].attn.c_attn.weight.std().item() - 0.02) < 0.002   # the matrices keep init_std


def test_fan_in_init_draws_each_matrix_at_one_over_root_fan_in():
    torch.manual_seed(0)
    cfg = small(d_model=64, n_head=4, linear_init="fan_in", scale_proj_init=False)
    m = GPT(cfg)
    b = m.blocks[0]
    assert abs(b.attn.c_attn.weight.std().item() - 1 / 8) < 0.005
    assert abs(b.mlp.c_proj.weight.std().item() - 1 / math.sqrt(cfg.ffn_hidden)) < 0.005
    assert abs(m.wte.weight.std().item() - 0.02) < 0.002   # the tied embedding keeps its own std
    torch.manual_seed(0)
    scaled = GPT(small(d_model=64, n_head=4, linear_init="fan_in")).blocks[0].mlp.c_proj.weight.std().item()
    assert abs(scaled - 1 / math.sqrt(cfg.ffn_hidden) / math.sqrt(2 * cfg.n_layer)) < 0.003


def stream_after_block_1(**kw) -> float:
    torch.manual_seed(1337)
    m = GPT(GPTConfig(vocab_size=2001, residual=False, **kw))
    stream: list = []
    with torch.no_grad():
        m(torch.randint(0, 2001, (4, 128), generator=torch.Generator().manual_seed(0)), stream=stream)
    return stream[1]


def test_a_plain_stack_with_fan_in_init_keeps_its_stream_above_the_norms_epsilon():
    eps = GPTConfig().norm_eps
    # the residual stack's init leaves a stack without the residual at the size of √ε after block 1
    assert stream_after_block_1() < 2 * math.sqrt(eps)
    assert stream_after_block_1(scale_proj_init=False, linear_init="fan_in") > 100 * math.sqrt(eps)


def test_decay_steps_ends_the_cosine_and_holds_the_rate():
    short = base(max_steps=400)
    long = base(max_steps=1200, decay_steps=400)
    assert [lr_at(s, long) for s in range(400)] == [lr_at(s, short) for s in range(400)]
    assert {lr_at(s, long) for s in range(400, 1200)} == {short.lr * 0.1}


def test_adam_eps_reaches_the_optimizer():
    opt = GPT(small()).configure_optimizers(1e-3, 0.1, (0.9, 0.95), eps=1e-6)
    assert [g["eps"] for g in opt.param_groups] == [1e-6, 1e-6]


# ---------------------------------------------------------------- training with the options (quick runs)

def _computed(result: dict) -> dict:
    """What a run computes: its result less the clock and the config that names the options."""
    return {k: v for k, v in result.items() if k not in ("timing", "config", "first_updates", "trace", "attention")}


def test_probes_of_the_first_updates_do_not_perturb_training(trains):
    cfg = quick_config(experiments(ROOT).config("c4_postln"))
    plain = trains("x", cfg, progress=False)
    probed = trains("x", valid(cfg, probe_steps=3), progress=False)
    assert json.dumps(_computed(plain)) == json.dumps(_computed(probed))
    assert "first_updates" not in plain
    f = probed["first_updates"]
    n = cfg.n_layer
    assert f["step"] == [0, 1, 2, 3] and len(f["logit_change"]) == len(f["hidden_change"]) == 3
    assert all(len(r) == n for r in f["attn_ratio"] + f["ffn_ratio"])
    assert f["norms"] == [f"blocks.{i}.norm_{j}" for i in range(n) for j in (1, 2)]   # Post-LN: no final norm
    assert f["loss"][0] == pytest.approx(plain["init"]["loss"], rel=1e-6)   # the same probe batch as `init`
    assert all(v > 0 for v in f["logit_change"] + f["hidden_change"])
    # in Post-LN the second norm's input is the stream after attention, x + attn(x)
    assert all(v is not None and v > 0 for row in f["norm_input_rms"] for v in row)


def test_probes_follow_the_norm_placement(trains):
    cfg = valid(quick_config(experiments(ROOT).config("c4_baseline")), probe_steps=2)
    f = trains("x", cfg, progress=False)["first_updates"]
    assert f["norms"][-1] == "norm_f" and len(f["norm_input_rms"][0]) == 2 * cfg.n_layer + 1
    # Pre-Norm at init: the write-backs are small against the stream (std 0.02/√8 on a unit-size input)
    assert all(r < 1 for r in f["attn_ratio"][0] + f["ffn_ratio"][0])


def test_decay_steps_continues_the_shorter_run_bit_for_bit(trains):
    short = quick_config(experiments(ROOT).config("c4_baseline"))
    assert short.max_steps == 6 and short.eval_every == 3
    long = valid(short, max_steps=12, decay_steps=6)
    a, b = trains("x", short, progress=False), trains("x", long, progress=False)
    for key in ("train_loss", "lr", "grad_norm", "ffn_act_max"):
        assert b["curves"][key][:6] == a["curves"][key]
    assert b["val"]["step"][:3] == a["val"]["step"] and b["val"]["loss"][:3] == a["val"]["loss"]
    assert set(b["curves"]["lr"][6:]) == {short.lr * 0.1}
    # without decay_steps the 12-step run is another schedule from its first step after the warmup
    other = trains("x", valid(short, max_steps=12), progress=False)
    assert other["curves"]["lr"][:6] != a["curves"]["lr"]


OPTIONS = {"adam_eps": {"adam_eps": 1e-3}, "n_kv_head": {"n_kv_head": 1}, "attn_scale": {"attn_scale": False},
           "causal_mean": {"attn_type": "causal_mean"},
           "plain_stack": {"residual": False, "scale_proj_init": False, "linear_init": "fan_in"},
           "embed_init_std": {"embed_init_std": 1.0}, "decay_steps": {"max_steps": 6, "decay_steps": 4}}


@pytest.mark.parametrize("option", OPTIONS)
def test_every_option_trains_on_the_quick_config_and_changes_the_run(trains, option):
    cfg = quick_config(experiments(ROOT).config("c4_baseline"))
    changed = valid(cfg, **OPTIONS[option], probe_steps=2)
    r = trains("x", changed, progress=False)
    RunResult.model_validate({"hash": "x", "key": {"code": {}, "config": "", "corpus": "", "device": "cpu"},
                              "quick": True, "provenance": {"device": "cpu", "device_name": "cpu", "cpu": "cpu",
                                                            "torch": torch.__version__, "python": "3",
                                                            "threads": 1, "seed": cfg.seed, "date": "", "commit": ""},
                              **r})
    assert not r["metrics"]["diverged"] and r["metrics"]["steps_done"] == changed.max_steps
    plain = trains("x", cfg, progress=False)
    assert r["curves"]["train_loss"] != plain["curves"]["train_loss"]


def test_attention_statistics_record_without_perturbing_training(trains):
    cfg = quick_config(experiments(ROOT).config("c4_baseline"))
    plain = trains("x", cfg, progress=False)
    recorded = trains("x", valid(cfg, attn_stats=True), progress=False)
    assert json.dumps(_computed(plain)) == json.dumps(_computed(recorded))
    a = recorded["attention"]
    assert a["step"] == recorded["val"]["step"]                    # at every evaluation, from the init on
    assert all(len(r) == cfg.n_layer for r in a["score_std"] + a["entropy"])
    assert all(0 < e <= a["uniform_entropy"] + 1e-6 for r in a["entropy"] for e in r)
    # at init (std 0.02) the scores are small: softmax is near uniform, its entropy near the largest
    assert all(a["uniform_entropy"] - e < 0.01 for e in a["entropy"][0])


def test_attention_statistics_see_the_scale_and_the_causal_mean(trains):
    cfg = valid(quick_config(experiments(ROOT).config("c4_baseline")), attn_stats=True)
    scaled = trains("x", cfg, progress=False)["attention"]
    unscaled = trains("x", valid(cfg, attn_scale=False), progress=False)["attention"]
    # the same init: without 1/√d_head the first layer's scores are √d_head times larger (later layers read
    # streams that the first layer's other attention already changed)
    d_head = cfg.d_model // cfg.n_head
    assert unscaled["score_std"][0][0] == pytest.approx(scaled["score_std"][0][0] * math.sqrt(d_head), rel=1e-5)
    mean = trains("x", valid(cfg, attn_type="causal_mean"), progress=False)["attention"]
    assert all(v is None for r in mean["score_std"] for v in r)
    assert all(e == pytest.approx(mean["uniform_entropy"], rel=1e-6) for r in mean["entropy"] for e in r)
