"""What the lesson's hands-on notebook (docs/c4/normalization-lab.ipynb, .en.ipynb) imports.

The notebook's cells show the arithmetic a reader should see; this module holds what would only distract
from it: the BatchNorm widget's teaching batches as tensors, the tiny Pre-Norm / Post-LN training on the
project's own model and corpus, the benchmark harness run with the reader's own repetitions beside the
committed result, aligned text tables, and the checks of the "your turn" cells (they diagnose the usual
mistakes, in the notebook's language).

COURSE_LAB_QUICK=1 shortens the tiny training and the benchmark (the tests' setting); the build runs the
full version.
"""
from __future__ import annotations

import math
import os
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import torch

from course.core.formats import fixed
from course.core.lab import Numbers

QUICK = os.environ.get("COURSE_LAB_QUICK") == "1"

# ---------------------------------------------------------------- printing


def width(text: str) -> int:
    """Columns a string takes in a monospace font: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table(header: list[str], rows: list[list[str]]) -> None:
    """Print rows as an aligned text table (CJK-aware), the first column left-aligned, the rest right."""
    cols = list(zip(header, *rows))
    widths = [max(width(c) for c in col) for col in cols]

    def line(cells):
        return "  ".join(c + " " * (w - width(c)) if i == 0 else " " * (w - width(c)) + c
                         for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(header))
    print("  ".join("─" * w for w in widths))
    for r in rows:
        print(line(r))


def widget_label(widget: str, key: str, lang: str, **fill) -> str:
    """A label from a widget's label table, so the notebook names a read-out exactly as the widget does."""
    from course.project import units as discover
    from course.core.widgets import label
    _, w = discover().widget(widget)
    return label(w, key, lang).format(**fill)


# ---------------------------------------------------------------- the checks' messages

MESSAGES = {
    "prediction_ok": {"zh": "✓ {question} 你的预测:{predicted};运行结果:{actual}。",
                      "en": "✓ {question} You predicted {predicted}; the run gives {actual}."},
    "prediction_wrong": {"zh": "预测与运行结果不符。{question} 你的预测:{predicted};运行结果:{actual}。",
                         "en": "The run disagrees with your prediction. {question} You predicted {predicted}; "
                               "the run gives {actual}."},
    "yes": {"zh": "是", "en": "yes"},
    "no": {"zh": "否", "en": "no"},
    "solution_ok": {"zh": "✓ 你的 {name} 和项目的实现一致(每种情形都检查过了)。",
                    "en": "✓ Your {name} agrees with the project's implementation (every case checked)."},
    "not_a_tensor": {"zh": "{name} 应当返回一个张量,形状与输入 x 相同;它返回了 {got}。",
                     "en": "{name} should return a tensor of the same shape as its input x; it returned {got}."},
    "wrong_shape": {"zh": "{name} 的输出形状是 {got},应当与输入相同:{want}。",
                    "en": "{name} returned shape {got}; it should keep the input's shape, {want}."},
    "zc_times_w": {"zh": "w = 0 时输出全是 0:增益应当是 1 + w,而不是 w。",
                   "en": "At w = 0 the output is all zeros: the gain is 1 + w, not w."},
    "zc_centered": {"zh": "输出减去了均值:那是 LayerNorm。RMSNorm 只除以均方根,不减均值。",
                    "en": "The output has its mean subtracted: that is LayerNorm. RMSNorm only divides by the root "
                          "mean square."},
    "zc_wrong_dim": {"zh": "统计量不是沿最后一维(每个 token 自己的 d 个数)取的:用 mean(-1, keepdim=True)。",
                     "en": "The statistics are not taken over the last dimension (each token's own d numbers): "
                           "use mean(-1, keepdim=True)."},
    "zc_no_sqrt": {"zh": "除的是均方而不是均方根:别忘了开平方(torch.rsqrt 或 torch.sqrt)。",
                   "en": "It divides by the mean square, not its root: take the square root (torch.rsqrt or "
                         "torch.sqrt)."},
    "zc_eps": {"zh": "ε 用得不对:它应当加在根号里面,即 √(mean(x²) + ε)。一个均方与 ε 相当的 token 能看出差别。",
               "en": "ε is not where it belongs: inside the square root, √(mean(x²) + ε). A token whose mean square "
                     "is comparable to ε shows the difference."},
    "zc_other": {"zh": "在 {case} 上与项目的 ZeroCenteredRMSNorm 不一致:最大偏差 {diff}。",
                 "en": "On {case} it disagrees with the project's ZeroCenteredRMSNorm: largest difference {diff}."},
    "bn_batch_stats": {"zh": "你用的是这一批自己的均值和方差:那是训练模式。推理时要用训练中累积下来的统计量 "
                                "running_mean 和 running_var。",
                       "en": "This uses the batch's own mean and variance: that is training mode. At inference use "
                             "the running statistics collected in training, running_mean and running_var."},
    "bn_std": {"zh": "running_var 是方差:要除以 √(running_var + ε),而不是 running_var 本身。",
               "en": "running_var is a variance: divide by √(running_var + ε), not by running_var itself."},
    "bn_other": {"zh": "在 {case} 上与 torch.nn.BatchNorm1d 的推理输出不一致:最大偏差 {diff}。",
                 "en": "On {case} it disagrees with torch.nn.BatchNorm1d at inference: largest difference {diff}."},
}


def message(key: str, lang: str, **fill) -> str:
    return MESSAGES[key][lang].format(**fill)


def check_prediction(question: str, predicted, actual, lang: str, tol: float | None = None) -> None:
    """Hold a reader's prediction against what the run gives: equal, or within `tol` for a number. A wrong
    prediction raises AssertionError; either way the message repeats the question and both answers."""
    ok = abs(predicted - actual) <= tol if tol is not None else predicted == actual

    def answer(v) -> str:
        if isinstance(v, bool):
            return message("yes" if v else "no", lang)
        return fixed(v, 3) if tol is not None else str(v)
    text = dict(question=question, predicted=answer(predicted), actual=answer(actual))
    if not ok:
        raise AssertionError(message("prediction_wrong", lang, **text))
    print(message("prediction_ok", lang, **text))


# ---------------------------------------------------------------- the BatchNorm widget's batches


@dataclass
class TeachingBatch:
    case: str                     # "none", a companion's id, or "single": the widget's cases
    label: str                    # the case as the widget names it
    tokens: list[str]
    vectors: torch.Tensor         # (tokens, dims), float64: each row one token's teaching vector
    focus_index: int              # where 苹果 sits in the batch
    widget_output: list[float]    # BatchNorm's 苹果 as the widget computes it (twins.batch_cases)


def batchnorm_label(key: str, lang: str) -> str:
    """A label of the BatchNorm widget, with the focus token filled in as the widget fills it."""
    from lessons.c4_normalization.twins import teaching_vectors
    tv = teaching_vectors()
    return widget_label("batchnorm-demo", key, lang, focus=tv.focus, gloss=tv.focus_gloss)


def teaching_batches(lang: str) -> list[TeachingBatch]:
    """The batches the BatchNorm widget shows, in its order: the example sentence alone, with each
    companion sentence, and the generation case (one token)."""
    from lessons.c4_normalization.twins import batch_cases, teaching_vectors
    tv = teaching_vectors()
    labels = {c.id: getattr(c.label, lang) for c in tv.companions}
    labels["none"] = batchnorm_label("none", lang)
    labels["single"] = batchnorm_label("single", lang)

    def vec(token: str) -> list[float]:
        return tv.pad.vector if token == tv.pad.token else tv.tokens[token].vector

    return [TeachingBatch(case=c.id, label=labels[c.id], tokens=c.tokens,
                          vectors=torch.tensor([vec(t) for t in c.tokens], dtype=torch.float64),
                          focus_index=c.focus_index, widget_output=c.batchnorm)
            for c in batch_cases(tv)]


# ---------------------------------------------------------------- the "your turn" checks

def _max_diff(a: torch.Tensor, b: torch.Tensor) -> str:
    return fixed(float((a - b).abs().max()), 6)


def _returns_tensor(name: str, out, like: torch.Tensor, lang: str) -> None:
    if not isinstance(out, torch.Tensor):
        raise AssertionError(message("not_a_tensor", lang, name=name, got=type(out).__name__))
    if out.shape != like.shape:
        raise AssertionError(message("wrong_shape", lang, name=name, got=tuple(out.shape), want=tuple(like.shape)))


def check_rmsnorm_zero_centered(fn: Callable, lang: str) -> None:
    """fn(x, w, eps) against the project's ZeroCenteredRMSNorm (models/model.py), on the lesson's teaching
    vector with w = 0, on a random batch with a trained-looking w, and on a token whose mean square is ε.
    A mismatch is diagnosed: gain w instead of 1 + w, mean subtracted, wrong dimension, no root, ε misplaced."""
    from models.model import ZeroCenteredRMSNorm
    name = "rmsnorm_zero_centered"
    gen = torch.Generator().manual_seed(0)
    d, eps = 8, 1e-5
    cases = {
        "w = 0": (torch.randn(3, 5, d, generator=gen, dtype=torch.float64), torch.zeros(d, dtype=torch.float64)),
        "w ≠ 0": (3 * torch.randn(3, 5, d, generator=gen, dtype=torch.float64) + 1,
                  0.5 * torch.randn(d, generator=gen, dtype=torch.float64)),
        "mean(x²) = ε": (math.sqrt(eps) * torch.tensor([[1.0, -1.0] * (d // 2)], dtype=torch.float64),
                         torch.zeros(d, dtype=torch.float64)),
    }
    for case, (x, w) in cases.items():
        ref = ZeroCenteredRMSNorm(d, eps).double()
        with torch.no_grad():
            ref.weight.copy_(w)
            want = ref(x)
        out = fn(x.clone(), w.clone(), eps)
        _returns_tensor(name, out, x, lang)
        out = out.detach().double()
        if torch.allclose(out, want, rtol=1e-9, atol=1e-12):
            continue
        rms = x.pow(2).mean(-1, keepdim=True)
        wrong = {
            "zc_times_w": x * torch.rsqrt(rms + eps) * w,
            "zc_centered": torch.nn.functional.layer_norm(x, (d,), eps=eps) * (1 + w),
            "zc_wrong_dim": x * torch.rsqrt(x.pow(2).mean(0, keepdim=True) + eps) * (1 + w),
            "zc_no_sqrt": x / (rms + eps) * (1 + w),
        }
        for key, guess in wrong.items():
            if torch.allclose(out, guess, rtol=1e-6, atol=1e-9) and not torch.allclose(guess, want):
                raise AssertionError(message(key, lang))
        # off by a hair everywhere, or only where mean(x²) is as small as ε: ε is in the wrong place
        if case == "mean(x²) = ε" or torch.allclose(out, want, rtol=1e-3):
            raise AssertionError(message("zc_eps", lang))
        raise AssertionError(message("zc_other", lang, case=case, diff=_max_diff(out, want)))
    print(message("solution_ok", lang, name=name))


def check_batchnorm_inference(fn: Callable, bn: torch.nn.BatchNorm1d, batches: list[torch.Tensor],
                              lang: str) -> None:
    """fn(x, running_mean, running_var, eps) against `bn` at inference (eval mode), on every batch given."""
    name = "batchnorm_inference"
    was_training = bn.training
    bn.eval()
    try:
        for i, x in enumerate(batches):
            with torch.no_grad():
                want = bn(x)
            out = fn(x.clone(), bn.running_mean.clone(), bn.running_var.clone(), bn.eps)
            _returns_tensor(name, out, x, lang)
            out = out.detach().double()
            if torch.allclose(out, want, rtol=1e-9, atol=1e-12):
                continue
            if x.shape[0] > 1:
                batch_stats = (x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + bn.eps)
                if torch.allclose(out, batch_stats, rtol=1e-6, atol=1e-9):
                    raise AssertionError(message("bn_batch_stats", lang))
            if torch.allclose(out, (x - bn.running_mean) / (bn.running_var + bn.eps), rtol=1e-6, atol=1e-9):
                raise AssertionError(message("bn_std", lang))
            raise AssertionError(message("bn_other", lang, case=f"batches[{i}]", diff=_max_diff(out, want)))
    finally:
        bn.train(was_training)
    print(message("solution_ok", lang, name=name))


# ---------------------------------------------------------------- Pre-Norm vs Post-LN on a tiny model

# The project's baseline (models/experiments.json), shrunk until a run takes seconds on a CPU. The warmup
# keeps the baseline's share of the run (a tenth of the steps).
TINY = {"d_model": 64, "n_layer": 4, "n_head": 4, "block_size": 64, "batch_size": 8}
TINY_STEPS = 20 if QUICK else 40


def tiny_config(placement: str, steps: int = TINY_STEPS):
    """The baseline's config with TINY's sizes, `steps` updates and the norm at `placement` ("pre"/"post")."""
    from course.paths import ROOT
    from models.config import load_experiments
    base = load_experiments(ROOT).base
    return base.model_validate({**base.model_dump(), **TINY, "norm_placement": placement, "max_steps": steps,
                                "warmup_steps": max(1, steps // 10), "eval_every": steps, "eval_batches": 2})


@contextmanager
def one_thread():
    """At this size every matrix product is small: splitting it across threads costs more than it saves,
    and far more when other programs share the cores. The thread count is restored afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def train_tiny(placement: str, steps: int = TINY_STEPS) -> dict:
    """One run of models/train.py's train() at tiny_config: its result holds `init` and `end` probes
    (train.probe: the gradient norm each block receives, on one fixed validation batch)."""
    from models.train import train
    with one_thread():
        return train(f"tiny-{placement}", tiny_config(placement, steps), progress=False)


# ---------------------------------------------------------------- the benchmark, here and as committed

BENCH_REPS = 20 if QUICK else None      # None: the harness's own REPS and WARMUP
BENCH_WARMUP = 5 if QUICK else None


def bench_here(reps: int | None = BENCH_REPS, warmup: int | None = BENCH_WARMUP) -> dict:
    """The lesson's micro-benchmark (models/bench.py) on this machine's CPU: the same shape, warm-up,
    repetitions and interleaving as the committed result, eager ops only (the torch.compile forms
    compile on first use, seconds per form, which is not what this comparison is about)."""
    from models.bench import REPS, SHAPE, WARMUP, run_bench
    return run_bench("cpu", compile_ops=False, reps=reps or REPS, warmup=warmup or WARMUP, shape=SHAPE)


def bench_ops() -> list[str]:
    from models.bench import SHAPE, eager_ops
    return list(eager_ops(SHAPE[-1]))


def op_label(op: str, lang: str) -> str:
    from lessons.c4_normalization.numbers import OP_LABELS
    return OP_LABELS[op][lang]


def bench_rows(mine: dict, num: Numbers) -> list[list[str]]:
    """Per op: the committed median (IQR) and this run's, in ms, as the page writes them."""
    k = "normalization.bench.cpu"
    rows = []
    for op in bench_ops():
        t = mine["ops"][op]
        rows.append([op_label(op, num.lang),
                     f"{num.text(f'{k}.{op}.median_ms')} ({num.text(f'{k}.{op}.iqr_ms')})",
                     f"{fixed(t['median_ms'], 3)} ({fixed(t['iqr_ms'], 3)})"])
    return rows


def faster(ops: dict[str, float], a: str = "layernorm", b: str = "rmsnorm") -> str:
    """Which of two ops has the lower median: `a` or `b`."""
    return a if ops[a] < ops[b] else b

