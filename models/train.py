"""One training run of the small model: AdamW, warmup then cosine, gradient clipping, a log of everything.

`train(name, config, device=...)` returns the run's result as a plain dict (schema: `RunResult` in
models/results.py); models/measure.py decides which runs are stale and writes the files. Everything the
result holds except its `timing` block and its date is a pure function of the code, the config (seed
included), the corpus, the device and the thread count: a rerun on the same machine gives the same bytes.
Another machine gives other bytes: a different CPU runs other matmul kernels, whose rounding differs in
the last bits, and 400 steps of training grow that: under 1e-6 in the final loss of a steady run at lr
1e-3, up to 0.08 at 3e-3 (data/cross-machine.json).

The initialization and the data order are drawn on the CPU, so a run starts from the same weights and
sees the same batches on every device; the forward and backward passes run on `device`.
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from typing import Callable

import torch
from tqdm import tqdm

from models.config import TrainConfig
from models.corpus import load_corpus
from models.model import GPT

MIN_LR_FRACTION = 0.1   # cosine decays to lr/10, as nanoGPT does


def lr_at(step: int, cfg: TrainConfig) -> float:
    """Learning rate for update `step` (0-based): linear warmup to lr, then cosine to lr/10 at decay_steps
    (max_steps unless set), where it then holds: a longer run with the same decay_steps is the shorter one
    continued, the same run up to there."""
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    end = cfg.decay_steps or cfg.max_steps
    progress = min(1.0, (step - cfg.warmup_steps) / max(1, end - cfg.warmup_steps))
    min_lr = cfg.lr * MIN_LR_FRACTION
    return min_lr + 0.5 * (1 + math.cos(math.pi * progress)) * (cfg.lr - min_lr)


def quick_config(cfg: TrainConfig) -> TrainConfig:
    """The tests' version of a run: same model and schedule shape, a few small steps."""
    steps, warmup = min(cfg.max_steps, 6), min(cfg.warmup_steps, 2)
    # a cosine that ends before the last step ends as early in proportion (after the warmup)
    decay = (None if cfg.decay_steps is None
             else max(warmup + 1, math.ceil(cfg.decay_steps * steps / max(1, cfg.max_steps))))
    return cfg.model_copy(update={"max_steps": steps, "warmup_steps": warmup, "decay_steps": decay,
                                  "eval_every": 3, "eval_batches": 2, "batch_size": 4,
                                  "trace_steps": min(cfg.trace_steps, 3), "probe_steps": min(cfg.probe_steps, 3)})


def finite(x: float) -> float | None:
    return x if math.isfinite(x) else None  # JSON has no NaN: a non-finite value is recorded as null


# ---------------------------------------------------------------- what the FFNs compute, seen from outside

@contextmanager
def watch_ffns(model: GPT):
    """While active, `maxima` holds per layer the largest |hidden activation| (the input of the FFN's
    output matrix) and the largest |pre-activation| (the outputs of its input matrices) seen so far, and,
    for a clamped SwiGLU, `maxima["clamped"]` counts the entries the clamp changed: a gate above the limit,
    an up value beyond ±limit (whatever their product)."""
    maxima = {"act": [0.0] * len(model.blocks), "pre": [0.0] * len(model.blocks), "clamped": {"gate": 0, "up": 0}}

    def keep(kind: str, layer: int) -> Callable:
        def hook(module, inputs, output):
            t = inputs[0] if kind == "act" else output
            value = float(t.detach().abs().max())
            if math.isfinite(value):  # a diverging step is recorded by the loss, not here
                maxima[kind][layer] = max(maxima[kind][layer], value)
        return hook

    def count(branch: str, limit: float) -> Callable:
        def hook(module, inputs, output):
            beyond = output.detach() > limit if branch == "gate" else output.detach().abs() > limit
            maxima["clamped"][branch] += int(beyond.sum())
        return hook

    handles = []
    for i, block in enumerate(model.blocks):
        handles.append(block.mlp.c_proj.register_forward_hook(keep("act", i)))
        for name in ("c_gate", "c_up", "c_fc"):
            if hasattr(block.mlp, name):
                handles.append(getattr(block.mlp, name).register_forward_hook(keep("pre", i)))
        limit = getattr(block.mlp, "limit", None)
        if limit is not None:
            handles.append(block.mlp.c_gate.register_forward_hook(count("gate", limit)))
            handles.append(block.mlp.c_up.register_forward_hook(count("up", limit)))
    try:
        yield maxima
    finally:
        for h in handles:
            h.remove()


@torch.no_grad()
def first_token_attention(model: GPT, x) -> list[float]:
    """Per layer: the softmax weight each query t ≥ 1 puts on position 0, averaged over queries, heads and
    the batch (query 0 can only attend to itself). Uniform attention would give mean over t of 1/(t + 1)."""
    inputs: list = []
    handles = [b.attn.register_forward_pre_hook(lambda m, a: inputs.append(a[0])) for b in model.blocks]
    try:
        model(x)
    finally:
        for h in handles:
            h.remove()
    return [float(block.attn.attention_weights(u)[:, :, 1:, 0].mean()) for block, u in zip(model.blocks, inputs)]


@torch.no_grad()
def attention_stats(model: GPT, x) -> tuple[list[float | None], list[float]]:
    """Per layer, on batch x: the std of the attention scores softmax reads (over the causal entries of queries
    t ≥ 1, every head), and the mean entropy of the weight rows of those queries (nats). How far softmax is
    from uniform (entropy log(t + 1)) and how large the scores that drive it are; the causal mean has no scores."""
    inputs: list = []
    handles = [b.attn.register_forward_pre_hook(lambda m, a: inputs.append(a[0])) for b in model.blocks]
    try:
        model(x)
    finally:
        for h in handles:
            h.remove()
    stds, entropies = [], []
    for block, u in zip(model.blocks, inputs):
        w = block.attn.attention_weights(u)[:, :, 1:, :]
        entropies.append(float(-(w * w.clamp_min(1e-30).log()).sum(-1).mean()))
        s = block.attn.scores(u)
        if s is None:
            stds.append(None)
        else:
            T = s.size(-1)
            causal = torch.ones(T, T, dtype=torch.bool, device=s.device).tril()
            causal[0] = False
            stds.append(float(s[:, :, causal].std()))
    return stds, entropies


def uniform_entropy(T: int) -> float:
    """The mean entropy of uniform weights over the prefix, queries 1..T−1: the mean of log(t + 1)."""
    return sum(math.log(t + 1) for t in range(1, T)) / (T - 1)


def gain_stats(model: GPT) -> list[dict]:
    out = []
    for name, norm in model.norms().items():
        g = norm.gain().detach()
        out.append({"name": name, "mean": float(g.mean()), "std": float(g.std(unbiased=False)),
                    "min": float(g.min()), "max": float(g.max())})
    return out


# ---------------------------------------------------------------- evaluation and probes

@torch.no_grad()
def batch_losses(model: GPT, batches) -> list[float]:
    model.eval()
    losses = [model(x, y)[1].item() for x, y in batches]
    model.train()
    return losses


def evaluate(model: GPT, batches) -> float:
    return sum(batch_losses(model, batches)) / len(batches)


def norm_of(tensors) -> float:
    return math.sqrt(sum(float(t.pow(2).sum()) for t in tensors if t is not None))


def block_grad_norms(model: GPT) -> list[float]:
    """‖∂loss/∂θ‖ over each block's parameters, from the gradients backward() left."""
    return [norm_of(p.grad for p in b.parameters()) for b in model.blocks]


def probe(model: GPT, batch) -> dict:
    """Per-block gradient norm (and that of each block's FFN output matrix, the W₂ of Xiong et al.'s
    Theorem 1), the residual stream's RMS per layer, attention on the first token, the FFNs' largest
    activations and the norm gains, on one fixed batch. Leaves no gradient behind, so it can run before
    the first update and after the last."""
    x, y = batch
    model.zero_grad(set_to_none=True)
    stream: list[float] = []
    with watch_ffns(model) as ffn:
        _, loss = model(x, y, stream=stream)
    loss.backward()
    grads = block_grad_norms(model)
    ffn_out = [norm_of([b.mlp.c_proj.weight.grad]) for b in model.blocks]
    model.zero_grad(set_to_none=True)
    return {"block_grad_norm": [finite(g) for g in grads], "ffn_out_grad_norm": [finite(g) for g in ffn_out],
            "stream_rms": [finite(s) for s in stream], "loss": finite(loss.item()),
            "first_token_attention": first_token_attention(model, x),
            "ffn_act_max": ffn["act"], "ffn_pre_max": ffn["pre"], "gains": gain_stats(model)}


class UpdateTrace:
    """For the first `steps` updates: each block's gradient norm before clipping, and the size of the
    update the optimizer made, ‖Δθ‖ = ‖θ after − θ before‖, over all parameters and per block."""

    def __init__(self, model: GPT, steps: int):
        self.model, self.steps = model, steps
        self.log = {"step": [], "block_grad_norm": [], "update_norm": [], "block_update_norm": [],
                    "param_norm": [], "block_param_norm": []}
        self.before: list | None = None

    def active(self, step: int) -> bool:
        return step < self.steps

    def before_update(self) -> None:
        """Called after backward(), before clipping and the optimizer's step."""
        self.log["block_grad_norm"].append([finite(g) for g in block_grad_norms(self.model)])
        self.before = [p.detach().clone() for p in self.model.parameters()]

    def after_update(self, steps_done: int) -> None:
        params = list(self.model.parameters())
        delta = {id(p): p.detach() - b for p, b in zip(params, self.before)}
        self.log["step"].append(steps_done)
        self.log["update_norm"].append(finite(norm_of(delta.values())))
        self.log["block_update_norm"].append([finite(norm_of(delta[id(p)] for p in b.parameters()))
                                              for b in self.model.blocks])
        self.log["param_norm"].append(finite(norm_of(p.detach() for p in params)))
        self.log["block_param_norm"].append([finite(norm_of(p.detach() for p in b.parameters()))
                                             for b in self.model.blocks])
        self.before = None


def rms(t) -> float:
    return float(t.detach().pow(2).mean().sqrt())


class FirstUpdates:
    """The first `steps` updates seen from outside, on the fixed probe batch (a validation batch, drawn by its
    own generator: the training data and order are untouched) with no gradient, before the first update and
    after each: per block, the RMS of each branch's output relative to the RMS of the residual stream it is
    added to (Pre-Norm adds F(Norm(x)) to x, the norm's input; Post-LN adds F(x) to x, the sublayer's input;
    RMS over the whole batch, as `stream_rms`), the RMS of every norm's input, the loss; and per update the
    change of the model's output F on that batch, ‖F(θ_k) − F(θ_{k−1})‖ per token, averaged over its tokens:
    of the logits (the model's output, whose change DeepNet's Fig. 4a plots) and of the final hidden state
    the head reads (after the final norm in Pre-Norm, the last block's output in Post-LN)."""

    def __init__(self, model: GPT, batch, steps: int):
        self.model, self.batch, self.steps = model, batch, steps
        self.log = {"step": [], "loss": [], "attn_ratio": [], "ffn_ratio": [], "norms": list(model.norms()),
                    "norm_input_rms": [], "logit_change": [], "hidden_change": []}
        self.last: tuple | None = None  # the logits and the hidden state of the previous measure

    def active(self, step: int) -> bool:
        return step < self.steps

    @torch.no_grad()
    def measure(self, steps_done: int) -> None:
        seen: dict[str, tuple[float, float]] = {}   # module name → (RMS of its input, RMS of its output)
        hidden: list = []

        def keep(name: str) -> Callable:
            def hook(module, inputs, output):
                seen[name] = (rms(inputs[0]), rms(output))
            return hook

        blocks = range(len(self.model.blocks))
        names = set(self.log["norms"]) | {f"blocks.{i}.{s}" for i in blocks for s in ("attn", "mlp")}
        handles = [m.register_forward_hook(keep(n)) for n, m in self.model.named_modules() if n in names]
        handles.append(self.model.lm_head.register_forward_pre_hook(lambda m, a: hidden.append(a[0])))
        try:
            x, y = self.batch
            logits, loss = self.model(x, y)
        finally:
            for h in handles:
                h.remove()

        def ratio(block: int, sublayer: str, norm: str) -> float | None:
            # the stream the branch is added to: the norm's input in Pre-Norm, the sublayer's own in Post-LN
            reads = norm if self.model.blocks[block].pre else sublayer
            stream, branch = seen[f"blocks.{block}.{reads}"][0], seen[f"blocks.{block}.{sublayer}"][1]
            return finite(branch / stream) if stream else None

        self.log["step"].append(steps_done)
        self.log["loss"].append(finite(loss.item()))
        self.log["attn_ratio"].append([ratio(i, "attn", "norm_1") for i in blocks])
        self.log["ffn_ratio"].append([ratio(i, "mlp", "norm_2") for i in blocks])
        self.log["norm_input_rms"].append([finite(seen[n][0]) for n in self.log["norms"]])
        if self.last is not None:
            for key, now, before in zip(("logit_change", "hidden_change"), (logits, hidden[0]), self.last):
                self.log[key].append(finite(float((now - before).norm(dim=-1).mean())))
        self.last = (logits, hidden[0])


# ---------------------------------------------------------------- the run

def to(device: str, batch):
    return tuple(t.to(device) for t in batch)


def train(name: str, cfg: TrainConfig, progress: bool | Callable[[int, dict], None] = True,
          device: str = "cpu") -> dict:
    """Train one run on `device` ("cpu" or "cuda"). `progress` is True for a terminal bar, False for
    silence, or a function called as progress(steps_done, {"val": ...}) after every step (the parallel
    refresh reports through it). With max_steps 0 the model is only probed at initialization."""
    corpus = load_corpus(cfg.vocab_top)
    torch.manual_seed(cfg.seed)
    model = GPT(cfg.gpt_config(corpus.vocab_size)).to(device)
    opt = model.configure_optimizers(cfg.lr, cfg.weight_decay, (cfg.beta1, cfg.beta2), cfg.adam_eps)
    val_batches = [to(device, b) for b in corpus.val_batches(cfg.eval_batches, cfg.batch_size, cfg.block_size)]
    probe_batch = val_batches[0]
    data_rng = torch.Generator().manual_seed(cfg.seed)  # the data order follows the seed, as the init does
    clamped = any(getattr(b.mlp, "limit", None) is not None for b in model.blocks)
    trace = UpdateTrace(model, cfg.trace_steps) if cfg.trace_steps else None
    first = FirstUpdates(model, probe_batch, cfg.probe_steps) if cfg.probe_steps else None

    curves = {"step": [], "train_loss": [], "lr": [], "grad_norm": [], "ffn_act_max": []}
    if clamped:
        curves.update({"clamped_gate": [], "clamped_up": []})
    val = {"step": [], "loss": []}
    attention = {"step": [], "score_std": [], "entropy": []} if cfg.attn_stats else None

    def evaluation(steps_done: int) -> float:
        """The validation loss; with attn_stats, the attention's statistics on the probe batch too."""
        if attention is not None:
            std, entropy = attention_stats(model, probe_batch[0])
            attention["step"].append(steps_done)
            attention["score_std"].append([finite(v) if v is not None else None for v in std])
            attention["entropy"].append([finite(v) for v in entropy])
        return evaluate(model, val_batches)
    diverged, diverged_step, last_finite = False, None, None
    init = probe(model, probe_batch)
    if first is not None:
        first.measure(0)
    val["step"].append(0)
    val["loss"].append(evaluation(0))

    t0 = time.perf_counter()
    bar = tqdm(total=cfg.max_steps, desc=f"{name:<28}", unit="step", disable=progress is not True, leave=True)
    steps_done = 0
    for step in range(cfg.max_steps):
        lr = lr_at(step, cfg)
        for group in opt.param_groups:
            group["lr"] = lr
        x, y = to(device, corpus.batch("train", cfg.batch_size, cfg.block_size, data_rng))
        with watch_ffns(model) as ffn:
            _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        tracing = trace is not None and trace.active(step)
        if tracing:
            trace.before_update()
        grad_norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip))
        loss_value = loss.item()
        if not (math.isfinite(loss_value) and math.isfinite(grad_norm)):
            # a diverged run stops here and keeps its log; the other runs go on
            diverged, diverged_step = True, step + 1
            if tracing:
                trace.log["block_grad_norm"].pop()
            break
        opt.step()
        steps_done = step + 1
        if tracing:
            trace.after_update(steps_done)
        if first is not None and first.active(step):
            first.measure(steps_done)
        last_finite = loss_value
        curves["step"].append(steps_done)
        curves["train_loss"].append(loss_value)
        curves["lr"].append(lr)
        curves["grad_norm"].append(grad_norm)
        curves["ffn_act_max"].append(max(ffn["act"]))
        if clamped:
            curves["clamped_gate"].append(ffn["clamped"]["gate"])
            curves["clamped_up"].append(ffn["clamped"]["up"])
        if steps_done % cfg.eval_every == 0 or steps_done == cfg.max_steps:
            val["step"].append(steps_done)
            val["loss"].append(finite(evaluation(steps_done)))
            bar.set_postfix(val=f"{val['loss'][-1]:.3f}" if val["loss"][-1] is not None else "nan")
        bar.update(1)
        if callable(progress):
            progress(steps_done, {"val": val["loss"][-1]})
    wall = time.perf_counter() - t0
    bar.close()

    end = probe(model, probe_batch)
    # the spread of the final loss over the fixed validation batches: how precisely one number estimates it
    end["val_batch_losses"] = [finite(v) for v in batch_losses(model, val_batches)]
    tail = curves["train_loss"][-20:]
    metrics = {
        "final_val_loss": None if diverged else val["loss"][-1],
        "min_val_loss": min((v for v in val["loss"] if v is not None), default=None),
        "final_train_loss": sum(tail) / len(tail) if tail else None,  # mean of the last 20 steps
        "steps_done": steps_done,
        "diverged": diverged,
        "diverged_step": diverged_step,
        "last_finite_loss": last_finite,
        "max_ffn_act": max(curves["ffn_act_max"] + init["ffn_act_max"] + end["ffn_act_max"]),
    }
    out = {
        "run": name,
        "config": cfg.model_dump(),
        "corpus": {"vocab_size": corpus.vocab_size, "train_chars": len(corpus.train), "val_chars": len(corpus.val),
                   "unigram_floor": corpus.unigram_floor(), "source_sha256": corpus.source_sha256},
        "parameters": sum(p.numel() for p in model.parameters()),
        "ffn_hidden": model.config.ffn_hidden,
        "curves": curves,
        "val": val,
        "init": init,
        "end": end,
        "metrics": metrics,
        "timing": {"wall_s": wall, "tokens_per_s": steps_done * cfg.batch_size * cfg.block_size / wall if wall else 0.0},
    }
    if trace is not None:
        out["trace"] = trace.log
    if first is not None:
        out["first_updates"] = first.log
    if attention is not None:
        out["attention"] = {**attention, "uniform_entropy": uniform_entropy(cfg.block_size)}
    return out
