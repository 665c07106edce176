"""The warmup lesson's numbers, all under `warmup.` in the registry.

What Adam does on its first steps (from the project's optimizer settings and the papers' β2), what the
papers' scalings give for our depths, the two widgets' read-outs from their Python twins, and what the
reading notes rest on: the init-only depth probes, the update sizes and gradients the traced runs
recorded over their first updates, and how many seeds of each run got clear of the unigram loss.
Every measured number is a spread over the seeds (key, .min, .max, .range) with its runs' provenance;
a run that is not in the committed results adds no keys, so a note that needs it fails by name.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from course.common.measured import LEFT_UNIGRAM_MARGIN, NEVER, MARGIN_LOSS, MARGIN_OTHER, TRADEMARKS, Results, add_margins, compare, left_unigram_step, provenance, spread_keys
from course.common.numbers import computed_from
from course.core.formats import fixed, integer, percent, scientific, scientific2, significant
from course.core.registry import Computed, Measured, Scope, Words
from course.project import words
from lessons.c8_postln_warmup import formulas as f
from lessons.c8_postln_warmup import twins as tw

WORDS = words(__file__)   # lessons/c8_postln_warmup/words.LANG.json
HERE = "lessons/c8_postln_warmup"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = f"{HERE}/twins.py"
EXPERIMENTS = "models/experiments.json"


# The runs this lesson reads, by role.
PLACEMENTS = ("postln", "postln_unscaled", "preln", "preln_unscaled")
DEPTHS = (2, 4, 8, 12)
SWEEP = ("c8_postln_lr1e-3_nowarmup", "c8_postln_lr1e-3_warmup25", "c8_postln_lr1e-3_warmup100",
         "c8_postln_lr1e-3_warmup200", "c8_preln_lr1e-3_nowarmup")
DEEP = ("c8_postln_L12_lr1e-3_nowarmup", "c8_postln_L12_lr1e-3_warmup100",
        "c8_preln_L12_lr1e-3_nowarmup", "c8_preln_L12_lr1e-3_warmup100")
# The longer runs (the 400-step runs continued at their final rate: decay_steps 400) and the optimizer-ε control
LONG = ("c8_postln_lr1e-3_nowarmup_to1200", "c8_postln_L12_lr1e-3_nowarmup_to800")
EPS = ("c8_postln_L12_lr1e-3_nowarmup_eps1e-16",)
# The runs whose first updates were probed (models/train.py, FirstUpdates), and the runs the plateau is read on
PROBED = SWEEP + DEEP + EPS
COMPARED = SWEEP + DEEP + LONG + EPS
# The unigram plateau on the training loss at every step: a SMOOTH-step trailing mean within ±BAND of the unigram loss
SMOOTH = 10
BAND = 0.05
# A pause on the plateau: in its longest unbroken stay in the band the smoothed training loss falls per step at least
# PAUSE times more slowly than both on its way there and over the AFTER steps after it leaves the band
PAUSE = 1.3
AFTER = 20
C4_RUNS = ("c4_postln", "c4_postln_nowarmup_lr1e-2", "c4_preln_nowarmup_lr1e-2", "c4_baseline",
           "c4_baseline_lr1e-3")
TRAINED = SWEEP + DEEP + C4_RUNS
# Below this fraction of the top block's gradient norm, the bottom block's is "almost no gradient".
SLIVER = 0.01
TAIL = 20   # the last traced updates the per-block read-outs average over
LAST = 3    # the very last traced updates, for a statement about the end of the trace that one update must not carry
# Seed-by-seed comparisons: (key, run a, run b, metric, the statistics quoted), a minus b.
COMPARISONS = [
    ("w100_vs_w0", "c8_postln_lr1e-3_warmup100", "c8_postln_lr1e-3_nowarmup", "final_val_loss", ("max", "range")),
    ("w25_vs_w100", "c8_postln_lr1e-3_warmup25", "c8_postln_lr1e-3_warmup100", "final_val_loss", ("min", "range")),
    ("L12_pre_w100_vs_w0", "c8_preln_L12_lr1e-3_warmup100", "c8_preln_L12_lr1e-3_nowarmup", "final_val_loss",
     ("max", "range")),
    ("L12_post_w100_vs_pre_w0", "c8_postln_L12_lr1e-3_warmup100", "c8_preln_L12_lr1e-3_nowarmup", "final_val_loss",
     ("min", "max")),
]


computed = computed_from(FORMULAS)


def init_run(placement: str, layers: int) -> str:
    return f"c8_init_{placement}_L{layers}"


# ---------------------------------------------------------------- the optimizer and the papers' scalings


def add_optimizer(reg: Scope, inputs) -> None:
    base = inputs.experiments.base
    src = f"{EXPERIMENTS} (base)"
    add_margins(reg, "loss", "loss_pair", "other")
    reg.add("left_margin", LEFT_UNIGRAM_MARGIN, fixed(LEFT_UNIGRAM_MARGIN, 2),
            computed(WORDS("left_margin"), "course/common/measured.py (LEFT_UNIGRAM_MARGIN)"))
    reg.add("beta1", base.beta1, fixed(base.beta1, 2), computed("beta1", src))
    reg.add("beta2", base.beta2, fixed(base.beta2, 2), computed("beta2", src))
    reg.add("grad_clip", base.grad_clip, fixed(base.grad_clip, 1), computed("grad_clip", src))
    reg.add("adam_eps", tw.EXPLORER.eps, scientific(tw.EXPLORER.eps),
            computed(WORDS("adam_eps"), TWINS, "models/config.py (adam_eps)"))
    steps = inputs.experiments.base.max_steps
    reg.add("steps", steps, integer(steps), computed("max_steps", src))
    eps_run = "c8_postln_L12_lr1e-3_nowarmup_eps1e-16"
    if eps_run in inputs.experiments.runs:
        e = inputs.experiments.config(eps_run).adam_eps
        reg.add("eps_control", e, scientific(e), computed("adam_eps", f"{EXPERIMENTS} ({eps_run})"))

    ours = f.first_step_without_bias_correction(base.beta1, base.beta2)
    reg.add("adam.nobc_step1", ours, fixed(ours, 3),
            computed(WORDS("adam.nobc_step1"), src, FORMULAS))
    cited = {c.key: c.value for c in inputs.citations.numbers}
    key = "kingma.beta2"   # Adam's default β2
    x = f.first_step_without_bias_correction(base.beta1, cited[key])
    reg.add("adam.nobc_step1.adam_default", x, fixed(x, 3),
            computed(WORDS("adam.nobc_step1.cited", beta1=base.beta1, key=key), "data/citations.json", FORMULAS))
    peak = max(f.bias_correction_ratio(t, base.beta1, base.beta2) for t in range(1, steps + 1))
    reg.add("adam.nobc_peak", peak, fixed(peak, 2),
            computed(WORDS("adam.nobc_peak"), src, FORMULAS))
    # without the correction the step ramps up: the first update at which it reaches one lr
    reach = next(t for t in range(1, steps + 1) if f.bias_correction_ratio(t, base.beta1, base.beta2) >= 1)
    reg.add("adam.nobc_reach1", reach, integer(reach),
            computed(WORDS("adam.nobc_reach1"), src, FORMULAS))
    b2 = cited["kingma.beta2"]
    peak = max(f.bias_correction_ratio(t, base.beta1, b2) for t in range(1, steps + 1))
    reg.add("adam.nobc_peak.adam_default", peak, fixed(peak, 2),
            computed(WORDS("adam.nobc_peak.adam_default"), "data/citations.json", FORMULAS))
    n = f.radam_unadapted_steps(base.beta2)
    reg.add("radam.unadapted_steps", n, integer(n), computed(WORDS("radam.unadapted_steps"), src, FORMULAS))
    for name, b2 in (("ours", base.beta2), ("adam_default", cited["kingma.beta2"])):
        t90 = f.radam_steps_to(0.9, b2)
        reg.add(f"radam.to90.{name}", t90, integer(t90),
                computed(WORDS("radam.to90"), src if name == "ours" else "data/citations.json", FORMULAS))
    reg.add("radam.fraction", 0.9, percent(0.9, 0), computed(WORDS("radam.fraction"), NUMBERS))


def add_scalings(reg: Scope, inputs) -> None:
    base = inputs.experiments.base
    exps = inputs.experiments
    lr = exps.config("c8_postln_lr1e-3_warmup100").lr
    src = f"{EXPERIMENTS} (base, c8 runs)"
    deep = exps.config("c8_postln_L12_lr1e-3_warmup100").n_layer
    for layers in (base.n_layer, deep):
        s = base.init_std / math.sqrt(2 * layers)
        x = f.relative_step(lr, s)
        reg.add(f"rel_step.write.L{layers}", x, percent(x, 0),
                computed(WORDS("rel_step.write"), src, FORMULAS))
    # the deep stack's write scale, and DeepNorm's constants for it
    s = base.init_std / math.sqrt(2 * deep)
    reg.add(f"write_std.L{deep}", s, fixed(s, 5), computed("init_std / √(2 · n_layer)", src))
    a, b = f.deepnorm_alpha(deep), f.deepnorm_beta(deep)
    reg.add(f"deepnorm.alpha.L{deep}", a, fixed(a, 2), computed("(2N)^{1/4}", src, FORMULAS))
    reg.add(f"deepnorm.beta.L{deep}", b, fixed(b, 2), computed("(8N)^{−1/4}", src, FORMULAS))
    # β times Xavier's std for a d×d matrix (√(2/(d+d)) = √(1/d)): the std DeepNorm gives the scaled matrices
    bx = b * math.sqrt(1 / base.d_model)
    reg.add(f"deepnorm.beta_xavier.L{deep}", bx, fixed(bx, 3), computed("(8N)^{−1/4} · √(1/d_model)", src, FORMULAS))
    lo, hi = min(DEPTHS), max(DEPTHS)
    x = f.xiong_preln_depth_factor(lo, hi)
    reg.add("xiong.preln_factor", x, fixed(x, 2), computed(WORDS("xiong.preln_factor", lo=lo, hi=hi), FORMULAS))
    reg.add("depth.min", lo, integer(lo), computed(WORDS("depth.min"), NUMBERS))
    reg.add("depth.max", hi, integer(hi), computed(WORDS("depth.max"), NUMBERS))
    # how far a warmup moves the later rates too (the cosine starts after it): the largest amount by which the
    # warmed schedule's rate exceeds the unwarmed one's over the updates after the warmup, as a fraction of the peak
    unwarmed = exps.config("c8_postln_lr1e-3_nowarmup")
    for run in ("c8_postln_lr1e-3_warmup25", "c8_postln_lr1e-3_warmup100"):
        c = exps.config(run)
        gap = max(f.lr_at(t, c.lr, c.warmup_steps, c.max_steps)
                  - f.lr_at(t, unwarmed.lr, unwarmed.warmup_steps, unwarmed.max_steps)
                  for t in range(c.warmup_steps, c.max_steps)) / c.lr
        reg.add(f"schedule.lr_gap.{run}", gap, percent(gap, 0),
                computed(WORDS("schedule.lr_gap", run=run, other="c8_postln_lr1e-3_nowarmup"),
                         f"{EXPERIMENTS} ({run}, c8_postln_lr1e-3_nowarmup)", "models/train.py (lr_at)", FORMULAS))
    cited = {c.key: c.value for c in inputs.citations.numbers}
    tokens, batch, seq = cited["olmo2cfg.t_warmup"], cited["olmo2cfg.batch"], cited["olmo2cfg.seq_len"]
    steps = tokens / (batch * seq)
    reg.add("olmo2.warmup_steps", steps, integer(round(steps)),
            computed("t_warmup / (global_train_batch_size × max_sequence_length)", "data/citations.json"))


# ---------------------------------------------------------------- the widgets' read-outs (from the twins)


def add_explorer(reg: Scope, inputs) -> None:
    base, spec = inputs.experiments.base, tw.EXPLORER
    where = TWINS
    setting = WORDS("explorer.setting", seed=spec.seed, params=spec.params)
    steps = base.max_steps
    reg.add("explorer.window", spec.window, integer(spec.window), computed(WORDS("explorer.window"), TWINS))
    reg.add("explorer.default_warmup", spec.default_warmup, integer(spec.default_warmup),
            computed(WORDS("explorer.default_warmup"), TWINS))
    draws = tw.explorer_draws(spec, steps)
    at = WORDS("explorer.at", warmup=spec.default_warmup, beta2=base.beta2, signal=spec.default_signal, setting=setting)
    e = tw.explore(spec, steps, base.beta1, base.beta2, spec.default_warmup, "cosine", spec.default_scale,
                   spec.default_signal, draws)
    e0 = tw.explore(spec, steps, base.beta1, base.beta2, 0, "cosine", spec.default_scale, spec.default_signal, draws)
    what = WORDS("explorer.what.step1", window=spec.window)
    reg.add("explorer.step1", e.step1, fixed(e.step1, 4), computed(WORDS("explorer.in_peak_lr", what=what, at=at), where))
    reg.add("explorer.travel_ratio", e.travel_ratio, percent(e.travel_ratio, 0),
            computed(WORDS("explorer.travel_ratio", at=at), where))
    reg.add("explorer.step1_nowarmup", e0.step1, fixed(e0.step1, 3),
            computed(WORDS("explorer.step1_nowarmup", at=at), where))
    # the gradient's scale drops out: the same read-out a thousand times smaller
    small = tw.explore(spec, steps, base.beta1, base.beta2, 0, "cosine", spec.default_scale - 3,
                       spec.default_signal, draws)
    rel = abs(small.travel_nowarmup / e0.travel_nowarmup - 1)
    reg.add("explorer.scale_change", rel, scientific(float(f"{rel:.1e}")) if rel else "0",
            computed(WORDS("explorer.scale_change", setting=setting), where))
    noise = tw.explore(spec, steps, base.beta1, base.beta2, 0, "cosine", spec.default_scale, 0.0, draws)
    reg.add("explorer.noise_step1", noise.step1, fixed(noise.step1, 3),
            computed(WORDS("explorer.noise_step1", setting=setting), where))
    late = noise.adam[spec.window - 1]
    reg.add("explorer.noise_step_window", late, fixed(late, 2),
            computed(WORDS("explorer.noise_step_window", window=spec.window, setting=setting), where))


def add_depth(reg: Scope, inputs) -> None:
    base, spec = inputs.experiments.base, tw.DEPTH
    where = TWINS
    setting = WORDS("depth.setting", seed=spec.seed, width=spec.width, tokens=spec.tokens)
    presets = tw.depth_presets(spec.width, base.init_std, base.d_model)
    z = tw.depth_draws(spec)
    lo, hi = spec.depths[0], spec.depths[-1]
    reg.add("sim.depth_lo", lo, integer(lo), computed(WORDS("sim.depth_lo"), TWINS))
    reg.add("sim.depth_hi", hi, integer(hi), computed(WORDS("sim.depth_hi"), TWINS))
    reg.add("sim.default_layers", spec.default_layers, integer(spec.default_layers), computed(WORDS("sim.default_layers"), TWINS))
    x = f.xiong_preln_depth_factor(lo, hi)
    reg.add("sim.xiong_factor", x, fixed(x, 2), computed(f"√({lo}/{hi})", FORMULAS))
    blo, bhi = f.xiong_preln_stream_rms_bounds(hi)
    reg.add("sim.lemma_rms_lo", blo, fixed(blo, 1), computed(WORDS("sim.lemma_rms_lo", hi=hi), FORMULAS))
    reg.add("sim.lemma_rms_hi", bhi, fixed(bhi, 1), computed(WORDS("sim.lemma_rms_hi", hi=hi), FORMULAS))
    i = spec.depths.index(spec.default_layers)
    # what the page quotes of each init's curves: Xavier's (unscaled) against our scaled init
    quoted = {"xavier": ("post.depth_ratio", "pre.depth_ratio", "pre_rms_hi", "pre_matched_depth_ratio"),
              "ours": ("pre.depth_ratio", "pre_over_post")}
    for name, preset, scale in (("xavier", presets["xavier"], False), ("ours", presets["ours"], True)):
        c = tw.depth_curve(spec, z, preset, scale, base.norm_eps)
        at = WORDS("depth.at.scaled" if scale else "depth.at", init=name, setting=setting)
        post, pre = c.post[-1] / c.post[0], c.pre[-1] / c.pre[0]
        over = c.pre[i] / c.post[i]
        matched = (c.pre[-1] * c.pre_rms[-1]) / (c.pre[0] * c.pre_rms[0])
        readouts = {   # read-out → (value, text, formula)
            "post.depth_ratio": (post, fixed(post, 2), WORDS("sim.depth_ratio", hi=hi, lo=lo, at=at)),
            "pre.depth_ratio": (pre, fixed(pre, 2), WORDS("sim.depth_ratio", hi=hi, lo=lo, at=at)),
            "pre_over_post": (over, significant(over, 2),
                              WORDS("sim.pre_over_post", default_layers=spec.default_layers, at=at)),
            "pre_rms_hi": (c.pre_rms[-1], significant(c.pre_rms[-1], 2), WORDS("sim.pre_rms_hi", hi=hi, at=at)),
            "pre_matched_depth_ratio": (matched, fixed(matched, 2),
                                        WORDS("sim.pre_matched_depth_ratio", hi=hi, lo=lo, at=at)),
        }
        for readout in quoted[name]:
            value, text, formula = readouts[readout]
            reg.add(f"sim.{name}.{readout}", value, text, computed(formula, where))


# ---------------------------------------------------------------- measured: the init-only depth probes


# What the notes quote of the probes: (placement, depth) → read-out → the statistics over seeds
PROBES_QUOTED = {("preln", 2): {"rms": ("range",)},
                 ("preln", 12): {"rms": ("range",), "top_over_bottom": ("max", "range")},
                 ("postln", 12): {"top_over_bottom": ("max", "range")}}
# and placement → how a read-out changes from the shallowest stack to the deepest → the statistics
DEPTH_QUOTED = {"postln": {"depth_ratio": ("min", "max", "range")},
                "preln": {"depth_ratio": ("min", "max", "range")},
                "preln_unscaled": {"depth_ratio": ("max", "range"), "matched_depth_ratio": ("min",),
                                   "rms_growth": ("min", "range")}}


def add_probes(reg: Scope, results: Results) -> None:
    """For every placement and depth: the last block's FFN-output gradient (Xiong et al.'s W²), the RMS of
    the stream its last norm reads, their product (the gradient at matched stream scale: the final
    norm's 1/RMS taken out), and the top block's gradient over the bottom block's. Then, seed by seed,
    how the first changes from the shallowest to the deepest stack, and how the placements compare. Only
    what PROBES_QUOTED and DEPTH_QUOTED name becomes a number."""
    lo, hi = min(DEPTHS), max(DEPTHS)
    per = {}
    for p in PLACEMENTS:
        for L in DEPTHS:
            run = init_run(p, L)
            if run not in results.runs:
                continue
            rs = results.runs[run]
            prov = provenance(rs, WORDS("init.probe", run=run))
            w2 = [r.init.ffn_out_grad_norm[-1] for r in rs]
            rms = [r.init.stream_rms[-1] for r in rs]
            per[(p, L)] = {"seeds": [r.config.seed for r in rs], "w2": w2, "rms": rms,
                           "matched": [a * b for a, b in zip(w2, rms)], "prov": prov}
            readouts = {"rms": (rms, lambda x: significant(x, 3)),
                        "top_over_bottom": ([r.init.block_grad_norm[-1] / r.init.block_grad_norm[0] for r in rs],
                                            lambda x: fixed(x, 2))}
            for readout, stats in PROBES_QUOTED.get((p, L), {}).items():
                values, text = readouts[readout]
                spread_keys(reg, f"init.{p}.L{L}.{readout}", values, text, prov, *stats)
        a, b = per.get((p, lo)), per.get((p, hi))
        if a and b and a["seeds"] == b["seeds"]:
            prov = provenance(results.runs[init_run(p, hi)], WORDS("init.probes", runs=f"{init_run(p, hi)} / {init_run(p, lo)}"))
            for readout, stats in DEPTH_QUOTED.get(p, {}).items():
                of = {"depth_ratio": "w2", "rms_growth": "rms", "matched_depth_ratio": "matched"}[readout]
                spread_keys(reg, f"init.{p}.{readout}", [y / x for x, y in zip(a[of], b[of])], lambda x: fixed(x, 2),
                            prov, *stats)
    # the two placements at each depth, scaled init (our model's), seed by seed
    raw, matched, prov = [], [], None
    for L in DEPTHS:
        post, pre = per.get(("postln", L)), per.get(("preln", L))
        if not (post and pre and post["seeds"] == pre["seeds"]):
            raw = matched = None
            break
        raw += [b / a for a, b in zip(post["w2"], pre["w2"])]
        matched += [b / a for a, b in zip(post["matched"], pre["matched"])]
        prov = provenance(results.runs[init_run("preln", L)], WORDS("init.probes", runs="c8_init_preln_L* / c8_init_postln_L*"))
    if raw:
        spread_keys(reg, "init.pre_over_post.raw", raw, lambda x: significant(x, 2), prov, "min", "range")
        spread_keys(reg, "init.pre_over_post.matched", matched, lambda x: fixed(x, 2), prov, "min", "max", "range")


# ---------------------------------------------------------------- measured: training


def val_extremes(r) -> tuple[float, float]:
    """The lowest validation loss after the first update, and the unigram loss."""
    vals = [v for s, v in zip(r.val.step, r.val.loss) if s > 0 and v is not None]
    return min(vals), r.corpus.unigram_floor


def plateau_end(r) -> int:
    """The last validation step after the first update at which the loss is not yet clearly below the unigram
    loss (above it less LEFT_UNIGRAM_MARGIN); 0 when every evaluation is clearly below it."""
    floor = r.corpus.unigram_floor
    return max([s for s, v in zip(r.val.step, r.val.loss) if s > 0 and v is not None and v > floor - LEFT_UNIGRAM_MARGIN],
               default=0)


@dataclass(frozen=True)
class Quoted:
    """What the page and its notes quote of one trained run (nothing else of it is computed)."""
    counts: tuple[str, ...] = ()   # left.RUN, stalled.RUN: how many seeds clearly left the unigram loss, or stalled;
                                   # left_by_warmup_end.RUN: how many of those were clearly below it by the warmup's end
    readouts: dict[str, tuple[str, ...]] = field(default_factory=dict)   # READOUT.RUN: the statistics over seeds
    trace: dict[str, tuple[str, ...]] = field(default_factory=dict)      # trace.RUN.READOUT (TRACE_READOUTS)
    trace_facts: tuple[str, ...] = ()   # trace.RUN.steps, .block_parameters, .predicted_step1, .off_plateau and
                                        # .on_plateau ("plateau_counts"), .longest_plateau.* ("longest_plateau")


QUOTED = {
    "c4_postln": Quoted(counts=("stalled",), readouts={"above_unigram": ("range",)}),
    "c4_postln_nowarmup_lr1e-2": Quoted(counts=("stalled",)),
    "c4_preln_nowarmup_lr1e-2": Quoted(counts=("left",), readouts={"best_below_unigram": ("range",)}),
    "c8_postln_lr1e-3_nowarmup": Quoted(
        counts=("left", "stalled"), readouts={"left_step": ("min", "range")},
        trace={"step1": ("range",), "step1_per_lr": ("min", "max", "range"), "travel": ("min", "range"),
               "grad_step1": ("max", "range"), "lower_over_upper.tail": ("max",),
               "bottom_over_top.min.left": ("mean", "max"), "bottom_over_top.tail.stalled": ("min", "max", "range"),
               "bottom_update_over_top.tail.stalled": ("min", "range"), "bottom_grad_rms.tail.stalled": ("min", "range"),
               "sliver_from.stalled": ("min", "max", "range"), "sliver_span.stalled": ("min", "max", "range")},
        trace_facts=("steps", "predicted_step1")),
    "c8_postln_lr1e-3_warmup25": Quoted(counts=("left",), readouts={"best_below_unigram": ("min", "max", "range"),
                                                                    "plateau_end": ("max",), "left_step": ("min", "range")},
                                        trace={"lower_over_upper.tail.on_plateau": ("min", "max", "range")},
                                        trace_facts=("steps", "longest_plateau", "plateau_counts")),
    "c8_postln_lr1e-3_warmup100": Quoted(
        counts=("left", "left_by_warmup_end"), readouts={"best_below_unigram": ("min",), "left_step": ("max", "range")},
        trace={"step1": ("range",), "travel": ("max", "range"), "bottom_over_top.min": ("min",),
               "bottom_over_top.tail": ("min", "range"), "lower_over_upper.tail.off_plateau": ("min", "range"),
               "lower_over_upper.tail.on_plateau": ("max",), "below_unigram.trace_end.off_plateau": ("range",)},
        trace_facts=("steps", "plateau_counts")),
    "c8_postln_lr1e-3_warmup200": Quoted(counts=("left",), trace={"lower_over_upper.tail": ("max",)}),
    "c8_preln_lr1e-3_nowarmup": Quoted(
        counts=("left",), readouts={"best_below_unigram": ("min",), "grad_max": ("min", "range")},
        trace={"step1": ("range",), "step1_per_lr": ("min", "max", "range"), "grad_step1": ("min", "range"),
               "bottom_over_top.min": ("min",)}),
    "c8_postln_L12_lr1e-3_nowarmup": Quoted(
        counts=("stalled",),
        trace={"block_spread.first": ("max",), "lower_over_upper.tail": ("max",), "bottom_over_top.tail": ("max", "range"),
               "bottom_update_over_top.tail": ("min", "max", "range"), "bottom_update_over_decay.tail": ("min", "max", "range"),
               "bottom_grad_rms.tail": ("range",), "eps_over_bottom_grad_rms.tail": ("min",), "sliver_from": ("max",),
               "sliver_span": ("min", "range"), "step1_per_lr": ("max", "range"),
               "init.embed_rms": ("range",), "init.block_rms": ("range",)},
        trace_facts=("block_parameters",)),
    "c8_postln_L12_lr1e-3_warmup100": Quoted(
        counts=("left",), readouts={"left_step": ("min", "max", "range")},
        trace={"block_spread.first": ("max",), "lower_over_upper.tail": ("max",),
               "bottom_over_top.tail": ("min", "max", "range"), "bottom_update_over_decay.tail": ("min", "range")},
        trace_facts=("steps",)),
    "c8_preln_L12_lr1e-3_nowarmup": Quoted(
        counts=("left",), readouts={"left_step": ("max", "range"), "grad_max": ("min", "max", "range")},
        trace={"step1_per_lr": ("min", "max", "range"), "grad_step1": ("min", "range"), "bottom_over_top.min": ("min",)}),
    "c8_preln_L12_lr1e-3_warmup100": Quoted(counts=("left",), readouts={"grad_max": ("max", "range")},
                                            trace={"bottom_over_top.min": ("min",)}),
    # the stalled runs continued past 400 steps at their final rate, and the 12-layer run with a smaller ε
    "c8_postln_lr1e-3_nowarmup_to1200": Quoted(counts=("left", "stalled"), readouts={"left_step": ("range",)}),
    "c8_postln_L12_lr1e-3_nowarmup_to800": Quoted(counts=("left", "stalled"), readouts={"best_below_unigram": ("max",)}),
    "c8_postln_L12_lr1e-3_nowarmup_eps1e-16": Quoted(
        counts=("left", "stalled"),
        trace={"bottom_update_over_top.tail": ("min", "max", "range"),
               "bottom_update_over_decay.tail": ("min", "max", "range"),
               "bottom_grad_rms.tail": ("min", "range"), "step1_per_lr": ("min", "max", "range")},
        trace_facts=("steps",)),
}


def clearly_left(r) -> bool:
    """A seed has clearly left the unigram loss when its best validation loss is below it by the margin and
    the retrain margin."""
    lo, floor = val_extremes(r)
    return lo < floor - LEFT_UNIGRAM_MARGIN - MARGIN_LOSS


def clearly_stalled(r) -> bool:
    """A seed has clearly stalled when its best validation loss stays above the margin less the retrain margin."""
    lo, floor = val_extremes(r)
    return lo > floor - LEFT_UNIGRAM_MARGIN + MARGIN_LOSS


def left_by_warmup_end(r) -> bool:
    """A seed that clearly left the unigram loss and was already below the leaving line at the last evaluation
    within its warmup (its first leaving step no later than the warmup's last update)."""
    step = left_unigram_step(r)
    return clearly_left(r) and step != NEVER and step <= r.config.warmup_steps


# A trained run's read-outs over its seeds, READOUT.RUN: (values over the seeds, text)
READOUTS = {
    # how far above the unigram loss it ends, and how far below it its best validation loss gets
    "above_unigram": (lambda rs: [r.metrics.final_val_loss - r.corpus.unigram_floor if r.metrics.final_val_loss is not None
                                  else "diverged" for r in rs], lambda x: fixed(x, 3)),
    "best_below_unigram": (lambda rs: [floor - lo for lo, floor in map(val_extremes, rs)], lambda x: fixed(x, 3)),
    # the seeds that clearly left: the first validation step at which each is clearly below the line
    "left_step": (lambda rs: [left_unigram_step(r) for r in rs if clearly_left(r)], integer),
    # the last validation step at which a seed is still on the unigram loss (not yet clearly below it);
    # defined for every seed, so it does not hang on which seeds count as having left
    "plateau_end": (lambda rs: [plateau_end(r) for r in rs], integer),
    # the largest gradient norm before clipping over the whole run (what clipping acts on)
    "grad_max": (lambda rs: [max(g for g in r.curves.grad_norm if g is not None) for r in rs], lambda x: significant(x, 2)),
}


def add_training(reg: Scope, results: Results) -> None:
    for run, quoted in QUOTED.items():
        if run not in results.runs:
            continue
        rs = results.runs[run]
        prov = provenance(rs, run)
        for name, test in (("left", clearly_left), ("stalled", clearly_stalled),
                           ("left_by_warmup_end", left_by_warmup_end)):
            if name in quoted.counts:
                n = sum(map(test, rs))
                reg.add(f"{name}.{run}", n, integer(n), prov)
        for readout, stats in quoted.readouts.items():
            values_of, text = READOUTS[readout]
            values = values_of(rs)
            if values:   # (no seed left: no left_step)
                spread_keys(reg, f"{readout}.{run}", values, text, prov, *stats)
        if (quoted.trace or quoted.trace_facts) and all(r.trace is not None and r.trace.update_norm for r in rs):
            add_trace(reg, run, rs, prov, quoted)
    # Pre-Norm's lowest bottom/top ratio over every traced Pre-Norm run (each seed, the whole trace)
    reg.add("trace.tail", TAIL, integer(TAIL),
            computed(WORDS("trace.tail"), NUMBERS))
    reg.add("trace.last", LAST, integer(LAST),
            computed(WORDS("trace.last"), NUMBERS))
    reg.add("trace.sliver", SLIVER, percent(SLIVER, 0),
            computed(WORDS("trace.sliver"), NUMBERS))
    pre = [run for run in TRAINED if run.startswith("c8_preln") and run in results.runs
           and all(r.trace is not None and r.trace.block_grad_norm for r in results.runs[run])]
    if pre:
        rs = [r for run in pre for r in results.runs[run]]
        prov_pre = provenance(rs, WORDS.join("list", pre))
        low = min(r.trace.block_grad_norm[i][0] / r.trace.block_grad_norm[i][-1]
                  for r in rs for i in range(len(r.trace.step)))
        reg.add("trace.preln.bottom_over_top.min", low, significant(low, 2), prov_pre)
        # and over the last TAIL traced updates, the bottom block's norm over the largest of the others', lowest seed
        most = min(bottom_over_others(tail_grads(r)) for r in rs)
        reg.add("trace.preln.bottom_over_others.tail.min", most, significant(most, 3), prov_pre)
        reg.add("trace.preln.runs", len(pre), integer(len(pre)),
                computed(WORDS("trace.preln.runs"), EXPERIMENTS))
    # every traced Post-LN seed: how many are off the plateau at the trace's last update, how many still on it
    post = [run for run in TRAINED + EPS if run.startswith("c8_postln") and run in results.runs
            and all(r.trace is not None and r.trace.block_grad_norm for r in results.runs[run])]
    if post:
        rs = [r for run in post for r in results.runs[run]]
        if all(below_unigram_at_trace_end(r) is not None for r in rs):
            prov_post = provenance(rs, WORDS.join("list", post))
            for name, test in (("off_plateau", off_plateau_at_trace_end), ("on_plateau", on_plateau_at_trace_end)):
                n = sum(map(test, rs))
                reg.add(f"trace.postln.{name}", n, integer(n), prov_post)
            reg.add("trace.postln.seeds", len(rs), integer(len(rs)), prov_post)
    for key, a, b, metric, stats in COMPARISONS:
        if a in results.runs and b in results.runs and results.seeds(a) == results.seeds(b):
            compare(reg, f"compare.{key}.{metric}", results, a, b, metric, *stats)


def tail_steps(r) -> range:
    n = len(r.trace.step)
    return range(max(0, n - TAIL), n)


def tail_grads(r) -> list[float]:
    """Each block's gradient norm over the last TAIL traced updates, as a geometric mean (bottom block first)."""
    g = r.trace.block_grad_norm
    return [f.geometric_mean(g[i][b] for i in tail_steps(r)) for b in range(len(g[0]))]


def lower_over_upper(blocks: list[float]) -> float:
    return max(blocks[i] / blocks[i + 1] for i in range(len(blocks) - 1))


def bottom_over_others(blocks: list[float]) -> float:
    return blocks[0] / max(blocks[1:])


def bottom_over_top_tail(r) -> float:
    """The bottom block's gradient norm over the top block's, on the geometric means of the last TAIL updates
    (the same as the geometric mean of the per-update ratio)."""
    g = tail_grads(r)
    return g[0] / g[-1]


def block_parameters(r) -> int:
    """The parameters of one block of our model (models/model.py, Block): attention's c_attn (3·d²) and
    c_proj (d²), SwiGLU's gate, up and down matrices (3·d·ffn_hidden), and the two norms' gains (2·d); no
    biases. Only for the SwiGLU block without an attention gate, the block every traced run uses."""
    c = r.config
    if c.ffn_type != "swiglu" or c.attn_output_gate:
        raise ValueError(f"block_parameters: no count for ffn_type={c.ffn_type}, attn_output_gate={c.attn_output_gate}")
    d = c.d_model
    return 4 * d * d + 3 * d * r.ffn_hidden + 2 * d


def bottom_grad_rms_tail(r) -> float:
    """The bottom block's gradient as an RMS per parameter (its norm over √parameters), geometric mean over
    the last TAIL updates: the size of a typical entry, to set beside Adam's ε. It says nothing about single
    parameters."""
    n = math.sqrt(block_parameters(r))
    g = r.trace.block_grad_norm
    return f.geometric_mean(g[i][0] / n for i in tail_steps(r))


def below_unigram_at_trace_end(r):
    """How far the validation loss at the trace's last update lies below the unigram loss (None when that
    step was not evaluated)."""
    at = dict(zip(r.val.step, r.val.loss)).get(r.trace.step[-1])
    return None if at is None else r.corpus.unigram_floor - at


def off_plateau_at_trace_end(r) -> bool:
    """Clearly below the unigram loss at the trace's last update: by the leaving margin and the rerun margin."""
    b = below_unigram_at_trace_end(r)
    return b is not None and b > LEFT_UNIGRAM_MARGIN + MARGIN_LOSS


def on_plateau_at_trace_end(r) -> bool:
    """Clearly not yet below the unigram loss by the leaving margin at the trace's last update."""
    b = below_unigram_at_trace_end(r)
    return b is not None and b < LEFT_UNIGRAM_MARGIN - MARGIN_LOSS


def bottom_update_over_top(r) -> float:
    u = r.trace.block_update_norm
    return f.geometric_mean(u[i][0] / u[i][-1] for i in tail_steps(r))


def bottom_update_over_decay(r) -> float:
    t = r.trace
    return f.geometric_mean(t.block_update_norm[i][0] / f.decay_only_step(r.curves.lr[t.step[i] - 1], r.config.weight_decay,
                                                                          t.block_param_norm[i][0])
                            for i in tail_steps(r))


def bottom_over_top(r, i: int) -> float:
    """The bottom block's gradient norm over the top block's at traced update i."""
    g = r.trace.block_grad_norm[i]
    return g[0] / g[-1]


def sliver_from(r) -> int:
    """The first traced update from which the bottom/top ratio stays below SLIVER, less the margin of a ratio of
    two measured norms, to the end of the trace (one past the trace when it ends above it): from there to the end
    of the trace the bottom block is left almost no gradient (what comes after the trace is not recorded)."""
    above = [s for i, s in enumerate(r.trace.step) if bottom_over_top(r, i) >= SLIVER / (1 + 2 * MARGIN_OTHER)]
    return max(above) + 1 if above else r.trace.step[0]


def sliver_span(r) -> int:
    """How many of the trace's last updates stay below SLIVER (with the margin): the stretch sliver_from opens."""
    return r.trace.step[-1] - sliver_from(r) + 1


# A traced run's read-outs over its seeds, trace.RUN.READOUT: (values over the seeds, text). The last TAIL traced
# updates are read as a geometric mean per block, so that one update's spike does not decide.
TRACE_READOUTS = {
    # the size of the first update (whole model, and per parameter, which bias-corrected Adam makes ≈ lr), how
    # far the parameters travelled over the explorer's first window of updates, the first gradient norm
    "step1": (lambda rs: [r.trace.update_norm[0] for r in rs], lambda x: significant(x, 3)),
    "step1_per_lr": (lambda rs: [r.trace.update_norm[0] / (r.curves.lr[0] * math.sqrt(r.parameters)) for r in rs],
                     lambda x: fixed(x, 3)),
    "travel": (lambda rs: [sum(r.trace.update_norm[:tw.EXPLORER.window]) for r in rs], lambda x: significant(x, 3)),
    "grad_step1": (lambda rs: [r.curves.grad_norm[0] for r in rs], lambda x: significant(x, 2)),
    # the bottom block's gradient against the top block's: its lowest over the trace, and over the last updates
    "bottom_over_top.min": (lambda rs: [min(bottom_over_top(r, i) for i in range(len(r.trace.step))) for r in rs],
                            lambda x: significant(x, 2)),
    "bottom_over_top.tail": (lambda rs: [bottom_over_top_tail(r) for r in rs], lambda x: significant(x, 2)),
    # every block, not only the two ends: the largest ratio of a block's norm to the norm of the block above it
    # (under 1: each block receives less than the one above it); at the first update, how far apart the
    # blocks' norms lie (largest over smallest)
    "lower_over_upper.tail": (lambda rs: [lower_over_upper(tail_grads(r)) for r in rs], lambda x: significant(x, 2)),
    "block_spread.first": (lambda rs: [max(g) / min(g) for g in (r.trace.block_grad_norm[0] for r in rs)],
                           lambda x: fixed(x, 2)),
    "sliver_from": (lambda rs: [sliver_from(r) for r in rs], integer),
    # how many of the trace's last updates that stretch covers
    "sliver_span": (lambda rs: [sliver_span(r) for r in rs], integer),
    # how far the bottom block moves, over the last updates: against the top block, and against what AdamW's
    # decoupled weight decay alone would move it (a gradient too small to matter leaves about 1)
    "bottom_update_over_top.tail": (lambda rs: [bottom_update_over_top(r) for r in rs], lambda x: significant(x, 2)),
    "bottom_update_over_decay.tail": (lambda rs: [bottom_update_over_decay(r) for r in rs], lambda x: significant(x, 2)),
    # the bottom block's gradient per parameter (an RMS), to set beside Adam's ε
    "bottom_grad_rms.tail": (lambda rs: [bottom_grad_rms_tail(r) for r in rs], scientific2),
    "eps_over_bottom_grad_rms.tail": (lambda rs: [tw.EXPLORER.eps / bottom_grad_rms_tail(r) for r in rs],
                                      lambda x: significant(x, 2)),
    # the residual stream at initialization: the raw embedding block 1 reads, and (every seed's stream after
    # every block, pooled: its range is the range over blocks and seeds) the stream after each block
    "init.embed_rms": (lambda rs: [r.init.stream_rms[0] for r in rs], lambda x: significant(x, 2)),
    "init.block_rms": (lambda rs: [x for r in rs for x in r.init.stream_rms[1:]], lambda x: significant(x, 3)),
    # over the seeds that stalled, or those that left, where a run has both
    "bottom_over_top.min.left": (lambda rs: [min(bottom_over_top(r, i) for i in range(len(r.trace.step)))
                                             for r in seeds_that("left", rs)], lambda x: significant(x, 2)),
    "bottom_over_top.tail.stalled": (lambda rs: [bottom_over_top_tail(r) for r in seeds_that("stalled", rs)],
                                     lambda x: significant(x, 2)),
    "bottom_update_over_top.tail.stalled": (lambda rs: [bottom_update_over_top(r) for r in seeds_that("stalled", rs)],
                                            lambda x: significant(x, 2)),
    "bottom_grad_rms.tail.stalled": (lambda rs: [bottom_grad_rms_tail(r) for r in seeds_that("stalled", rs)], scientific2),
    "sliver_from.stalled": (lambda rs: [sliver_from(r) for r in seeds_that("stalled", rs)], integer),
    "sliver_span.stalled": (lambda rs: [sliver_span(r) for r in seeds_that("stalled", rs)], integer),
    # over the seeds off the plateau (clearly below the unigram loss) at the trace's last update, and those
    # clearly still on it: how the blocks fall, and how far below the unigram loss they are there
    "lower_over_upper.tail.off_plateau": (lambda rs: [lower_over_upper(tail_grads(r)) for r in seeds_that("off_plateau", rs)],
                                          lambda x: significant(x, 3) if x < 0.995 or x > 1.005 else fixed(x, 2)),
    "lower_over_upper.tail.on_plateau": (lambda rs: [lower_over_upper(tail_grads(r)) for r in seeds_that("on_plateau", rs)],
                                         lambda x: significant(x, 3) if x < 0.995 or x > 1.005 else fixed(x, 2)),
    "below_unigram.trace_end.off_plateau": (lambda rs: [below_unigram_at_trace_end(r) for r in seeds_that("off_plateau", rs)],
                                            lambda x: fixed(x, 3)),
}


def seeds_that(group: str, rs) -> list:
    """The seeds of a run that stalled or left (only where the run has both), or that are off or on the plateau
    at the trace's last update (only where every seed was evaluated there)."""
    if group in ("stalled", "left"):
        sign = 1 if group == "stalled" else -1
        sub = [r for r in rs if sign * (val_extremes(r)[0] - val_extremes(r)[1] + LEFT_UNIGRAM_MARGIN) > MARGIN_LOSS]
        return sub if len(sub) < len(rs) else []
    if any(below_unigram_at_trace_end(r) is None for r in rs):
        return []
    return [r for r in rs if (off_plateau_at_trace_end if group == "off_plateau" else on_plateau_at_trace_end)(r)]


def add_trace(reg: Scope, run: str, rs, prov, quoted: Quoted) -> None:
    """What the first traced updates did, as the notes quote it (quoted.trace: TRACE_READOUTS), and the facts
    of the trace they name (quoted.trace_facts)."""
    k = f"trace.{run}"
    for readout, stats in quoted.trace.items():
        values_of, text = TRACE_READOUTS[readout]
        values = values_of(rs)
        if values:   # (a group of seeds the run does not have: the note that needs it fails by name)
            spread_keys(reg, f"{k}.{readout}", values, text, prov, *stats)
    facts = quoted.trace_facts
    if "plateau_counts" in facts and all(below_unigram_at_trace_end(r) is not None for r in rs):
        # how many seeds are off the plateau at the trace's last update, how many clearly still on it
        for group in ("off_plateau", "on_plateau"):
            n = len(seeds_that(group, rs))
            reg.add(f"{k}.{group}", n, integer(n), prov)
    if "longest_plateau" in facts:
        # the seed that stays on the unigram loss longest (ties: the one with the smallest end ratio, so that
        # a note claiming a large ratio there is not carried by the kinder seed): its plateau and its ratio
        ends = [(plateau_end(r), -bottom_over_top(r, -1), r) for r in rs]
        _, _, longest = max(ends, key=lambda e: (e[0], e[1]))
        one = provenance([longest], run)
        lp = f"{k}.longest_plateau"
        reg.add(f"{lp}.seed", longest.config.seed, str(longest.config.seed), one)
        reg.add(f"{lp}.plateau_end", plateau_end(longest), integer(plateau_end(longest)), one)
        end = bottom_over_top(longest, -1)
        reg.add(f"{lp}.bottom_over_top.end", end, significant(end, 2), one)
        n = len(longest.trace.step)
        low = min(bottom_over_top(longest, i) for i in range(n))
        reg.add(f"{lp}.bottom_over_top.min", low, significant(low, 2), one)
        last = min(bottom_over_top(longest, i) for i in range(n - LAST, n))
        reg.add(f"{lp}.bottom_over_top.last.min", last, significant(last, 2), one)
    if "block_parameters" in facts:
        n = block_parameters(rs[0])
        reg.add(f"{k}.block_parameters", n, integer(n), computed(WORDS("block_parameters"), EXPERIMENTS, "models/model.py (Block)"))
    if "steps" in facts:
        steps = len(rs[0].trace.step)
        reg.add(f"{k}.steps", steps, integer(steps), prov)
    if "predicted_step1" in facts:
        predicted = f.first_update_norm(rs[0].curves.lr[0], rs[0].parameters)
        reg.add(f"{k}.predicted_step1", predicted, significant(predicted, 3),
                computed(WORDS("predicted_step1"), EXPERIMENTS, FORMULAS))


# ---------------------------------------------------------------- measured: the unigram plateau, step by step


def smoothed_train_loss(r) -> list[tuple[int, float]]:
    """(step, the trailing SMOOTH-step mean of the training loss) from the SMOOTH-th recorded step on."""
    steps, loss = r.curves.step, r.curves.train_loss
    out = []
    for i in range(SMOOTH - 1, len(loss)):
        window = loss[i - SMOOTH + 1:i + 1]
        if all(v is not None for v in window):
            out.append((steps[i], sum(window) / SMOOTH))
    return out


def plateau_steps(r) -> int:
    """How many steps the smoothed training loss lies within ±BAND of the unigram loss: how long the run sits on
    the plateau (counted at every step, which validation every 50 steps cannot see)."""
    floor = r.corpus.unigram_floor
    return sum(abs(v - floor) <= BAND for _, v in smoothed_train_loss(r))


def plateau_first(r):
    """The first step at which the smoothed training loss is within ±BAND of the unigram loss ('never')."""
    floor = r.corpus.unigram_floor
    return next((s for s, v in smoothed_train_loss(r) if abs(v - floor) <= BAND), NEVER)


def plateau_stay(r):
    """The longest unbroken stretch of steps at which the smoothed training loss lies within ±BAND of the unigram
    loss, as (index of its first, index of its last) into smoothed_train_loss; None when it never gets there."""
    floor = r.corpus.unigram_floor
    best, start = None, None
    sm = smoothed_train_loss(r)
    for i, (_, v) in enumerate(sm + [(None, math.inf)]):
        if abs(v - floor) <= BAND:
            start = i if start is None else start
        elif start is not None:
            if best is None or i - 1 - start > best[1] - best[0]:
                best = (start, i - 1)
            start = None
    return best


def plateau_stay_steps(r) -> int:
    """How many consecutive steps the longest unbroken stay in the band lasts (0: never in it)."""
    stay = plateau_stay(r)
    return 0 if stay is None else stay[1] - stay[0] + 1


def plateau_pause(r):
    """How many times faster the smoothed training loss falls per step outside its longest unbroken stay in the band
    than inside it: the smaller of (the fall per step from the first smoothed step to the stay's first step) and
    (the fall per step over the AFTER steps after its last), over the fall per step inside it. At least PAUSE: the
    run pauses on the plateau. 'stays' when the stay runs to within AFTER steps of the end (nothing after to compare:
    a stall, not a pause); 'undefined' when it is never in the band or starts there."""
    stay = plateau_stay(r)
    sm = smoothed_train_loss(r)
    if stay is None or stay[0] == 0:
        return "undefined"
    a, b = stay
    if b + AFTER >= len(sm):
        return "stays"
    rate = lambda i, j: (sm[i][1] - sm[j][1]) / (sm[j][0] - sm[i][0])   # noqa: E731 (fall per step from i to j)
    inside = rate(a, b) if b > a else 0.0
    outside = min(rate(0, a), rate(b, b + AFTER))
    if inside <= 0:
        return math.inf if outside > 0 else 0.0
    return outside / inside


def plateau_rebound(r) -> float:
    """The highest the raw training loss climbs above the unigram loss after the smoothed loss first reaches the
    band: a spike back up off the plateau."""
    first = plateau_first(r)
    if first == NEVER:
        return "undefined"
    return max(v for s, v in zip(r.curves.step, r.curves.train_loss) if v is not None and s >= first) - r.corpus.unigram_floor


PLATEAU_READOUTS = {"stay": plateau_stay_steps, "first": plateau_first, "pause": plateau_pause,
                    "rebound": plateau_rebound}
PLATEAU_TEXT = {"stay": integer, "first": integer, "pause": lambda x: fixed(x, 1), "rebound": lambda x: fixed(x, 2)}

PLATEAU_QUOTED = {   # run → read-out → statistics over its seeds (plateau.RUN.READOUT)
    "c8_preln_lr1e-3_nowarmup": {"first": ("max", "range"), "pause": ("min", "range"), "rebound": ("max", "range")},
    "c8_postln_lr1e-3_warmup25": {"pause": ("min", "range")},
    "c8_postln_lr1e-3_warmup100": {"pause": ("min", "range")},
    "c8_postln_lr1e-3_warmup200": {"pause": ("min", "range")},
    "c8_preln_L12_lr1e-3_nowarmup": {"rebound": ("max", "range")},
    "c8_postln_lr1e-3_nowarmup": {"first": ("min", "range")},
}


def plateau_slowdown(r) -> float:
    """How fast the smoothed training loss falls on the plateau against how fast it fell on its way there: the fall
    per step from the first step at which it is within ±BAND of the unigram loss to the last, over the fall per step
    from the first smoothed step to that first step on the plateau. Small: the run slows down there; near 1: it
    passes the band without a pause."""
    floor = r.corpus.unigram_floor
    sm = smoothed_train_loss(r)
    on = [(s, v) for s, v in sm if abs(v - floor) <= BAND]
    if not on or on[0][0] == sm[0][0]:
        return "undefined"
    (s0, v0), (sa, va), (sb, vb) = sm[0], on[0], on[-1]
    before = (v0 - va) / (sa - s0)
    inside = (va - vb) / (sb - sa) if sb > sa else before
    return inside / before


def add_plateaus(reg: Scope, results: Results) -> None:
    """How long each compared run sits on the unigram plateau, on the training loss at every step; and, over every
    seed of every compared run present (a continued run left out: its first 400 steps are the shorter run's), the
    fewest steps any seed spends there, the latest step at which one first gets there, and the largest ratio of its
    fall per step there to its fall per step on the way (it pauses, or passes through without one)."""
    reg.add("plateau.smooth", SMOOTH, integer(SMOOTH), computed(WORDS("plateau.smooth"), NUMBERS))
    reg.add("plateau.band", BAND, fixed(BAND, 2), computed(WORDS("plateau.band"), NUMBERS))
    reg.add("plateau.pause", PAUSE, fixed(PAUSE, 1), computed(WORDS("plateau.pause"), NUMBERS))
    reg.add("plateau.after", AFTER, integer(AFTER), computed(WORDS("plateau.after"), NUMBERS))
    present = [run for run in COMPARED if run in results.runs and run not in LONG]
    for run, quoted in PLATEAU_QUOTED.items():
        if run not in results.runs:
            continue
        rs = results.runs[run]
        prov = provenance(rs, WORDS("plateau.of", run=run))
        for readout, stats in quoted.items():
            values = [PLATEAU_READOUTS[readout](r) for r in rs]
            spread_keys(reg, f"plateau.{run}.{readout}", values, PLATEAU_TEXT[readout], prov, *stats)
    if present:
        rs = [r for run in present for r in results.runs[run]]
        prov = provenance(rs, WORDS.join("list", present))
        spread_keys(reg, "plateau.all.steps", [plateau_steps(r) for r in rs], integer, prov, "min")
        spread_keys(reg, "plateau.all.first", [plateau_first(r) for r in rs], integer, prov, "max")
        spread_keys(reg, "plateau.all.slowdown", [plateau_slowdown(r) for r in rs], lambda x: fixed(x, 2), prov, "max")
        # the runs in which every seed pauses, and those in which every seed stays to the end (a stall, no pause)
        pausing = [run for run in present if all(isinstance(p, float) and p >= PAUSE * (1 + MARGIN_OTHER)
                                                 for p in map(plateau_pause, results.runs[run]))]
        reg.add("plateau.pausing.runs", len(pausing), integer(len(pausing)), prov)
        reg.add("plateau.all.runs", len(present), integer(len(present)), prov)
        reg.add("plateau.all.seeds", len(rs), integer(len(rs)), prov)


# ---------------------------------------------------------------- measured: the first updates, probed from outside


def branch_ratio(fu, k: int) -> float:
    """The largest branch-to-stream RMS ratio over the blocks and both branches after k updates."""
    return max(x for row in (fu.attn_ratio[k], fu.ffn_ratio[k]) for x in row if x is not None)


def heavy_from(r):
    """The first update after which some block's branch is as large as the stream it is added to (ratio ≥ 1),
    Liu et al.'s heavy dependency in its plainest form; 'never' within the probe."""
    fu = r.first_updates
    return next((s for k, s in enumerate(fu.step) if branch_ratio(fu, k) >= 1), NEVER)


def post_norm_inputs(r) -> list[int]:
    """The norms whose input is a sum x + F(x) of a Post-LN block (every norm of a Post-LN model; none of a
    Pre-Norm model, whose norms read the stream itself)."""
    return list(range(len(r.first_updates.norms))) if r.config.norm_placement == "post" else []


def norm_rms_peak(r) -> float:
    """The largest RMS of a Post-LN norm's input over the probed updates (after the first update: at init the first
    norm reads the small embedding)."""
    fu = r.first_updates
    return max((fu.norm_input_rms[k][i] for k in range(1, len(fu.step)) for i in post_norm_inputs(r)
                if fu.norm_input_rms[k][i] is not None), default="undefined")


# A probed run's read-outs over its seeds, fu.RUN.READOUT: (values over the seeds, text)
PROBE_READOUTS = {
    # the largest branch-to-stream ratio at initialization, and its peak over the probed updates
    "ratio.init": (lambda rs: [branch_ratio(r.first_updates, 0) for r in rs], lambda x: significant(x, 2)),
    "ratio.peak": (lambda rs: [max(branch_ratio(r.first_updates, k) for k in range(len(r.first_updates.step)))
                               for r in rs], lambda x: significant(x, 2)),
    "heavy_from": (lambda rs: [heavy_from(r) for r in rs], integer),
    # the change of the logits the first update makes, and the largest change of one update over the probe
    "logit_change.first": (lambda rs: [r.first_updates.logit_change[0] for r in rs], lambda x: significant(x, 2)),
    "logit_change.peak": (lambda rs: [max(v for v in r.first_updates.logit_change if v is not None) for r in rs],
                          lambda x: significant(x, 2)),
    "norm_rms.peak": (lambda rs: [norm_rms_peak(r) for r in rs], lambda x: significant(x, 2)),
}
PROBE_QUOTED = {   # run → read-out → statistics (fu.RUN.READOUT)
    "c8_postln_lr1e-3_nowarmup": {"ratio.init": ("max",), "heavy_from": ("min", "max", "range"),
                                  "logit_change.first": ("max", "range"), "logit_change.peak": ("min", "range")},
    "c8_postln_lr1e-3_warmup100": {"heavy_from": ("min", "range"), "logit_change.first": ("range",)},
    "c8_preln_lr1e-3_nowarmup": {"ratio.init": ("min", "range"), "heavy_from": ("max", "range"),
                                 "logit_change.first": ("min", "range"), "logit_change.peak": ("max", "range")},
    "c8_postln_L12_lr1e-3_nowarmup": {"ratio.init": ("max",), "heavy_from": ("min", "max", "range"),
                                      "logit_change.first": ("max", "range"), "logit_change.peak": ("max", "range")},
    "c8_postln_L12_lr1e-3_warmup100": {"heavy_from": ("min", "range")},
    "c8_preln_L12_lr1e-3_nowarmup": {"heavy_from": ("min", "max", "range"), "logit_change.first": ("min", "range"),
                                     "logit_change.peak": ("min", "range")},
}
# The quantities set beside trainability, over the probed Post-LN seeds that clearly stalled and those that clearly
# left the unigram loss within the 400 steps: within the one run whose seeds split (fu.split.GROUP.Q), and within
# each depth, every probed Post-LN run of that depth pooled (fu.L{depth}.GROUP.Q); min, max and range. The groups
# are never pooled across depths.
SEPARATION = ("ratio.peak", "logit_change.peak", "norm_rms.peak")
SPLIT = "c8_postln_lr1e-3_nowarmup"


def add_first_updates(reg: Scope, results: Results) -> None:
    """What the probes of the first updates show: how large the branches grow against the stream, how much one
    update changes the output, how large the Post-LN norms' inputs get; per run as PROBE_QUOTED names, and pooled
    over the probed Post-LN seeds that stall and those that learn, to see whether a quantity separates them."""
    traced = [r for run in PROBED if run in results.runs for r in results.runs[run] if r.first_updates is not None]
    if traced:
        n = len(traced[0].first_updates.logit_change)
        reg.add("fu.steps", n, integer(n), provenance(traced[:1], WORDS("fu.steps")))
    for run, quoted in PROBE_QUOTED.items():
        if run not in results.runs or any(r.first_updates is None for r in results.runs[run]):
            continue
        rs = results.runs[run]
        prov = provenance(rs, WORDS("fu.of", run=run), code=("models/train.py", "FirstUpdates"))
        for readout, stats in quoted.items():
            values_of, text = PROBE_READOUTS[readout]
            spread_keys(reg, f"fu.{run}.{readout}", values_of(rs), text, prov, *stats)
    # pooled over the runs at the project's optimizer settings: the ε control (EPS) changes the optimizer, so it is
    # not pooled with them
    probed = [run for run in PROBED if run in results.runs and run.startswith("c8_postln") and run not in EPS
              and all(r.first_updates is not None for r in results.runs[run])]
    if not probed:
        return
    pools = {"split": [SPLIT] if SPLIT in probed else []}
    for depth in sorted({results.runs[run][0].config.n_layer for run in probed}):
        pools[f"L{depth}"] = [run for run in probed if results.runs[run][0].config.n_layer == depth]
    for pool, runs in pools.items():
        rs = [r for run in runs for r in results.runs[run]]
        groups = {"stalled": [r for r in rs if clearly_stalled(r)], "learned": [r for r in rs if clearly_left(r)]}
        if not (groups["stalled"] and groups["learned"]):
            continue   # (a pool without both groups: nothing to set side by side)
        for name, group in groups.items():
            prov = provenance(group, WORDS(f"fu.group.{name}", runs=WORDS.join("list", runs)))
            reg.add(f"fu.{pool}.{name}.seeds", len(group), integer(len(group)), prov)
            for q in SEPARATION:
                values_of, text = PROBE_READOUTS[q]
                spread_keys(reg, f"fu.{pool}.{name}.{q}", values_of(group), text, prov, "min", "max", "range")


# each continued run and the run whose final rate it holds (decay_steps: the shorter run's max_steps)
CONTINUES = {"c8_postln_lr1e-3_nowarmup_to1200": "c8_postln_lr1e-3_nowarmup",
             "c8_postln_L12_lr1e-3_nowarmup_to800": "c8_postln_L12_lr1e-3_nowarmup"}


def add_continued(reg: Scope, results: Results) -> None:
    """How far the continued runs' training loss departs from the shorter runs' over the shorter runs' steps, seed by
    seed (0 when the longer run repeats the shorter one exactly up to its end, as the schedule makes it on one
    machine), the largest over both pairs; and, per continued run, the last validation step at which a seed is still
    on the plateau (readouts plateau_end, QUOTED)."""
    diffs, rs, pairs = [], [], []
    for long, short in CONTINUES.items():
        if long not in results.runs or short not in results.runs:
            continue   # (a continued run not in the results: the pairs present decide)
        shorter = {r.config.seed: r for r in results.runs[short]}
        for a in results.runs[long]:
            b = shorter.get(a.config.seed)
            if b is None or a.config.decay_steps != b.config.max_steps:
                return
            n = b.config.max_steps
            diffs.append(max(abs(x - y) for x, y in zip(a.curves.train_loss[:n], b.curves.train_loss[:n])
                             if x is not None and y is not None))
            rs += [a, b]
        pairs.append(f"{long} / {short}")
    if not diffs:
        return
    prov = provenance(rs, WORDS.join("list", pairs))
    reg.add("long.prefix_diff.max", max(diffs), scientific2(max(diffs)) if max(diffs) else "0", prov)


def add_escapes(reg: Scope, results: Results) -> None:
    """Per continued run, the seeds that clearly stalled within the shorter run's steps, seed by seed: how many of
    them the longer run sees clearly leave the unigram loss (long.RUN.escaped), at which validation step
    (long.RUN.escaped_step: min, max, range), and how many still clearly stay on it (long.RUN.still); only over the
    seeds present in both runs (long.RUN.pairs)."""
    for long, short in CONTINUES.items():
        if long not in results.runs or short not in results.runs:
            continue
        shorter = {r.config.seed: r for r in results.runs[short]}
        pairs = [(a, shorter[a.config.seed]) for a in results.runs[long] if a.config.seed in shorter]
        stalled = [(a, b) for a, b in pairs if clearly_stalled(b)]
        prov = provenance([x for p in pairs for x in p], f"{long} / {short}")
        k = f"long.{long}"
        reg.add(f"{k}.pairs", len(pairs), integer(len(pairs)), prov)
        extra = results.runs[long][0].config.max_steps - results.runs[long][0].config.decay_steps
        reg.add(f"{k}.extra_steps", extra, integer(extra), prov)
        reg.add(f"{k}.stalled_before", len(stalled), integer(len(stalled)), prov)
        escaped = [a for a, _ in stalled if clearly_left(a)]
        reg.add(f"{k}.escaped", len(escaped), integer(len(escaped)), prov)
        still = sum(clearly_stalled(a) for a, _ in stalled)
        reg.add(f"{k}.still", still, integer(still), prov)
        if escaped:
            spread_keys(reg, f"{k}.escaped_step", [left_unigram_step(a) for a in escaped], integer, prov,
                        "min", "max", "range")
            # the learning rate, as a fraction of the peak, at the step each of them first got clearly below the
            # unigram loss; and the first validation step at which each was below it at all, with the rate there
            spread_keys(reg, f"{k}.escaped_lr_over_peak", [lr_over_peak(a, left_unigram_step(a)) for a in escaped],
                        lambda x: fixed(x, 2), prov, "min", "max", "range")
            below = [first_below_unigram(a) for a in escaped]
            spread_keys(reg, f"{k}.below_step", below, integer, prov, "min", "max", "range")
            spread_keys(reg, f"{k}.below_lr_over_peak", [lr_over_peak(a, s) for a, s in zip(escaped, below)],
                        lambda x: fixed(x, 2), prov, "min", "max", "range")
            # which of them were already leaving when the shorter run ended (its last validation loss below the
            # unigram loss by more than the rerun margin: early) and which were not (late); of the late ones, how far
            # above the unigram loss that last evaluation was, the last evaluation before each first got below it,
            # and when it did and when it got clearly below it
            ends = {a.config.seed: b.val.loss[-1] - b.corpus.unigram_floor for a, b in stalled}
            early = [a for a in escaped if ends[a.config.seed] < -MARGIN_LOSS]
            late = [a for a in escaped if a not in early]
            reg.add(f"{k}.early", len(early), integer(len(early)), prov)
            reg.add(f"{k}.late", len(late), integer(len(late)), prov)
            if len(early) == 1:
                reg.add(f"{k}.early.seed", early[0].config.seed, str(early[0].config.seed), prov)
            if early:
                spread_keys(reg, f"{k}.early.escaped_step", [left_unigram_step(a) for a in early], integer, prov,
                            "min", "max", "range")
            if late:
                spread_keys(reg, f"{k}.late.above_at_end", [ends[a.config.seed] for a in late],
                            lambda x: fixed(x, 3), prov, "min", "range")
                lb = [first_below_unigram(a) for a in late]
                if len(late) == 1:
                    reg.add(f"{k}.late.seed", late[0].config.seed, str(late[0].config.seed), prov)
                # how far above the unigram loss each was at its last evaluation before it first got below it
                spread_keys(reg, f"{k}.late.above_last", [val_at(a, a.val.step[a.val.step.index(s) - 1])
                                                          - a.corpus.unigram_floor for a, s in zip(late, lb)],
                            lambda x: fixed(x, 3), prov, "min", "max", "range")
                spread_keys(reg, f"{k}.late.above_until", [a.val.step[a.val.step.index(s) - 1] for a, s in zip(late, lb)],
                            integer, prov, "min", "range")
                spread_keys(reg, f"{k}.late.below_step", lb, integer, prov, "min", "range")
                spread_keys(reg, f"{k}.late.escaped_step", [left_unigram_step(a) for a in late], integer, prov,
                            "max", "range")


def add_creep(reg: Scope, results: Results) -> None:
    """Per continued run whose stalled seeds all still stall at its end (none left), how the validation loss of
    those seeds moved after the shorter run's end, seed by seed (long.RUN.creep.*): how far above the unigram loss
    each was at the shorter run's last evaluation (at_end_above), how far below it each ends (final_below), how far
    it fell between the two (fall), how many rose again at some evaluation on the way (unsteady), and the
    validation step from which each stays below the unigram loss to the end (below_from: min, max; the seed with
    the earliest, when it is one seed; and how many get there only at the last evaluation)."""
    for long, short in CONTINUES.items():
        if long not in results.runs or short not in results.runs:
            continue
        shorter = {r.config.seed: r for r in results.runs[short]}
        pairs = [(a, shorter[a.config.seed]) for a in results.runs[long] if a.config.seed in shorter]
        stalled = [a for a, b in pairs if clearly_stalled(b)]
        if not stalled or len(stalled) != len(pairs) or not all(clearly_stalled(a) for a in stalled):
            continue
        prov = provenance(stalled, long)
        k = f"long.{long}.creep"
        end = stalled[0].config.decay_steps
        after = [[(s, v - a.corpus.unigram_floor) for s, v in zip(a.val.step, a.val.loss) if s >= end and v is not None]
                 for a in stalled]
        if any(not path or path[0][0] != end for path in after):
            continue
        three = lambda x: fixed(x, 3)
        spread_keys(reg, f"{k}.at_end_above", [p[0][1] for p in after], three, prov, "min", "max", "range")
        spread_keys(reg, f"{k}.final_below", [-p[-1][1] for p in after], three, prov, "min", "max", "range")
        spread_keys(reg, f"{k}.fall", [p[0][1] - p[-1][1] for p in after], three, prov, "min", "range")
        unsteady = sum(any(y[1] > x[1] for x, y in zip(p, p[1:])) for p in after)
        reg.add(f"{k}.unsteady", unsteady, integer(unsteady), prov)
        froms = []
        for p in after:
            tail = next((p[i][0] for i in range(len(p)) if all(d < 0 for _, d in p[i:])), NEVER)
            froms.append(tail)
        spread_keys(reg, f"{k}.below_from", froms, integer, prov, "min", "max")
        if all(isinstance(x, int) for x in froms):
            first = [a.config.seed for a, x in zip(stalled, froms) if x == min(froms)]
            if len(first) == 1:
                reg.add(f"{k}.below_from.first_seed", first[0], str(first[0]), prov)
            last = after[0][-1][0]
            n = sum(x == last for x in froms)
            reg.add(f"{k}.below_from.at_last", n, integer(n), prov)


def val_at(r, step: int) -> float:
    """The validation loss at validation step `step`."""
    return r.val.loss[r.val.step.index(step)]


def lr_over_peak(r, step: int) -> float:
    """The learning rate of update `step` over the run's peak."""
    return r.curves.lr[r.curves.step.index(step)] / r.config.lr


def first_below_unigram(r):
    """The first validation step after the first update at which the loss is below the unigram loss at all."""
    floor = r.corpus.unigram_floor
    return next((s for s, v in zip(r.val.step, r.val.loss) if s > 0 and v is not None and v < floor), NEVER)


def add_edge_seed(reg: Scope, results: Results) -> None:
    """Of the 12-layer Post-LN with warmup against Pre-Norm without it, the seed whose difference of final losses is
    largest (edge.L12_post_w100.seed) and the Post-LN's final loss for it here (edge.L12_post_w100.here)."""
    a, b = "c8_postln_L12_lr1e-3_warmup100", "c8_preln_L12_lr1e-3_nowarmup"
    if a not in results.runs or b not in results.runs:
        return
    other = {r.config.seed: r.metrics.final_val_loss for r in results.runs[b]}
    rs = [r for r in results.runs[a] if r.config.seed in other]
    top = max(rs, key=lambda r: r.metrics.final_val_loss - other[r.config.seed])
    prov = provenance([top], a)
    reg.add("edge.L12_post_w100.seed", top.config.seed, str(top.config.seed), prov)
    reg.add("edge.L12_post_w100.here", top.metrics.final_val_loss, fixed(top.metrics.final_val_loss, 3), prov)


def add_parameters(reg: Scope, results: Results) -> None:
    """The parameter count of each placement at 4 layers (Post-LN has one norm fewer: no final norm)."""
    for name, run in (("postln", "c8_postln_lr1e-3_nowarmup"), ("preln", "c8_preln_lr1e-3_nowarmup")):
        if run in results.runs:
            n = results.runs[run][0].parameters
            reg.add(f"parameters.{name}", n, integer(n), provenance(results.runs[run], run))


def add_split(reg: Scope, results: Results) -> None:
    """The seeds of the run whose seeds split: which clearly learned (split.learned_seed, when it is one seed)."""
    if SPLIT not in results.runs:
        return
    rs = results.runs[SPLIT]
    learned = [r for r in rs if clearly_left(r)]
    if len(learned) == 1:
        seed = learned[0].config.seed
        reg.add("split.learned_seed", seed, str(seed), provenance(rs, SPLIT))
    # the stalled seed that ends lowest: which it is, how far below the unigram loss it ends, and how far its
    # validation loss lies from the unigram loss at the last three evaluations (above: positive)
    stalled = [r for r in rs if clearly_stalled(r)]
    if stalled:
        low = min(stalled, key=lambda r: r.metrics.final_val_loss)
        one = provenance([low], SPLIT)
        floor = low.corpus.unigram_floor
        reg.add("split.lowest_stalled.seed", low.config.seed, str(low.config.seed), one)
        below = floor - low.metrics.final_val_loss
        reg.add("split.lowest_stalled.final_below_unigram", below, fixed(below, 3), one)
        vals = [(s, v) for s, v in zip(low.val.step, low.val.loss) if v is not None][-3:]
        for i, (s, v) in enumerate(vals):
            reg.add(f"split.lowest_stalled.val{i}.step", s, integer(s), one)
            reg.add(f"split.lowest_stalled.val{i}.above_unigram", v - floor, fixed(v - floor, 3), one)
            reg.add(f"split.lowest_stalled.val{i}.below_unigram", floor - v, fixed(floor - v, 3), one)


# Seeds whose final loss on the other CPU (data/cross-machine.json) the cross-machine note sets against the unigram
# loss: (run, seed, "above" or "below"), read as how far the final loss there lies above or below it. That record
# keeps final losses only, so nothing about when a seed left, or about its best loss there, is read from it.
THERE = (("c8_postln_lr1e-3_nowarmup", 1338, "above"), ("c8_postln_lr1e-3_warmup25", 1339, "below"))


def add_there(reg: Scope, inputs) -> None:
    """there.RUN.seedS.above_unigram / .below_unigram: a seed's final validation loss on the other CPU, less the
    unigram loss (above) or the unigram loss less it (below)."""
    other, results = inputs.cross_machine, inputs.results
    for run, seed, side in THERE:
        loss = other.final_val_loss.get(run, {}).get(str(seed))
        if loss is None or run not in results.runs:
            continue
        rs = results.runs[run]
        floor = rs[0].corpus.unigram_floor
        x = loss - floor if side == "above" else floor - loss
        prov = Measured(run=WORDS("there.run", run=run, seed=seed, cpu=cpu_words(other.cpu)),
                        device=other.cpu, date=max(r.provenance.date for r in rs), commit=other.source_commit)
        reg.add(f"there.{run}.seed{seed}.{side}_unigram", x, fixed(x, 3), prov)


def cpu_words(cpu: str) -> str:
    """A CPU's name as prose gives it, without trademark marks or the generic word 'Processor'
    ('Intel(R) Xeon(R) Processor' is 'Intel Xeon')."""
    return " ".join(re.sub(r"\bProcessor$", "", " ".join(TRADEMARKS.sub("", cpu).split())).split())


def add_other_cpu(reg: Scope, inputs) -> None:
    """other_cpu: the CPU of data/cross-machine.json in reader words (cpu_words); the exact name is the number's
    device, which the numbers appendix gives with the commit."""
    other, results = inputs.cross_machine, inputs.results
    plain = cpu_words(other.cpu)
    rs = [r for rs in results.runs.values() for r in rs]
    prov = Measured(run=WORDS("other_cpu.run"), device=other.cpu,
                    date=max(r.provenance.date for r in rs), commit=other.source_commit)
    reg.add("other_cpu", other.cpu, plain, prov)


def add_eps_same(reg: Scope, results: Results) -> None:
    """How close the ε control stays to the run with the default ε, seed by seed: the largest relative difference of
    the bottom block's gradient RMS or of its ratio to the top block's, over the last TAIL traced updates
    (eps.same.max_rel), and the largest difference of the final
    validation losses (eps.same.final_val_loss.max_abs)."""
    a, b = EPS[0], "c8_postln_L12_lr1e-3_nowarmup"
    if a not in results.runs or b not in results.runs:
        return
    other = {r.config.seed: r for r in results.runs[b]}
    pairs = [(x, other[x.config.seed]) for x in results.runs[a] if x.config.seed in other and x.trace and other[x.config.seed].trace]
    if not pairs:
        return
    prov = provenance([r for p in pairs for r in p], f"{a} / {b}")
    rel = max(abs(fn(x) / fn(y) - 1) for x, y in pairs for fn in (bottom_grad_rms_tail, bottom_over_top_tail))
    reg.add("eps.same.max_rel", rel, percent(rel, 1), prov)
    d = max(abs(x.metrics.final_val_loss - y.metrics.final_val_loss) for x, y in pairs)
    reg.add("eps.same.final_val_loss.max_abs", d, significant(d, 1), prov)


def add_eval_every(reg: Scope, results: Results) -> None:
    """eval_every: how many updates apart the sweep's validation losses are (one value over its runs, or none)."""
    rs = [r for run in SWEEP for r in results.runs.get(run, [])]
    every = {r.config.eval_every for r in rs}
    if len(every) == 1:
        n = every.pop()
        reg.add("eval_every", n, integer(n), provenance(rs, WORDS.join("list", SWEEP)))


def add_numbers(reg: Scope, inputs) -> None:
    add_optimizer(reg, inputs)
    add_scalings(reg, inputs)
    add_explorer(reg, inputs)
    add_depth(reg, inputs)
    add_probes(reg, inputs.results)
    add_training(reg, inputs.results)
    add_plateaus(reg, inputs.results)
    add_first_updates(reg, inputs.results)
    add_continued(reg, inputs.results)
    add_escapes(reg, inputs.results)
    add_creep(reg, inputs.results)
    add_parameters(reg, inputs.results)
    add_edge_seed(reg, inputs.results)
    add_split(reg, inputs.results)
    add_there(reg, inputs)
    add_other_cpu(reg, inputs)
    add_eval_every(reg, inputs.results)
    add_eps_same(reg, inputs.results)
