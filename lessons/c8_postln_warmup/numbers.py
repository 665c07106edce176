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

from course.common.measured import LEFT_UNIGRAM_MARGIN, MARGIN_LOSS, MARGIN_OTHER, Results, add_margins, compare, left_unigram_step, provenance, spread_keys
from course.core.formats import fixed, integer, percent, scientific, scientific2, significant
from course.core.registry import Computed, Scope, Words
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
C4_RUNS = ("c4_postln", "c4_postln_nowarmup_lr1e-2", "c4_preln_nowarmup_lr1e-2", "c4_baseline",
           "c4_baseline_lr1e-3")
TRAINED = SWEEP + DEEP + C4_RUNS
# Below this fraction of the top block's gradient norm, the bottom block's is "almost no gradient".
SLIVER = 0.01
TAIL = 20   # the last traced updates the per-block read-outs average over
LAST = 3    # the very last traced updates, for a statement about the end of the trace that one update must not carry
# Seed-by-seed comparisons: (key, run a, run b, metric), a minus b.
COMPARISONS = [
    ("w100_vs_w0", "c8_postln_lr1e-3_warmup100", "c8_postln_lr1e-3_nowarmup", "final_val_loss"),
    ("w200_vs_w100", "c8_postln_lr1e-3_warmup200", "c8_postln_lr1e-3_warmup100", "final_val_loss"),
    ("w25_vs_w100", "c8_postln_lr1e-3_warmup25", "c8_postln_lr1e-3_warmup100", "final_val_loss"),
    ("pre_vs_post_w100", "c8_preln_lr1e-3_nowarmup", "c8_postln_lr1e-3_warmup100", "final_val_loss"),
    ("L12_post_w100_vs_w0", "c8_postln_L12_lr1e-3_warmup100", "c8_postln_L12_lr1e-3_nowarmup", "final_val_loss"),
    ("L12_pre_w100_vs_w0", "c8_preln_L12_lr1e-3_warmup100", "c8_preln_L12_lr1e-3_nowarmup", "final_val_loss"),
    ("L12_post_w100_vs_pre_w0", "c8_postln_L12_lr1e-3_warmup100", "c8_preln_L12_lr1e-3_nowarmup", "final_val_loss"),
]


def computed(formula: Words, *sources: str) -> Computed:
    """A computed number's provenance: a bare formula may stay one string; a sentence is in the lesson's words."""
    return Computed(formula=formula, sources=list(sources) or [FORMULAS])


def init_run(placement: str, layers: int) -> str:
    return f"c8_init_{placement}_L{layers}"


# ---------------------------------------------------------------- the optimizer and the papers' scalings


def add_optimizer(reg: Scope, inputs) -> None:
    base = inputs.experiments.base
    src = f"{EXPERIMENTS} (base)"
    add_margins(reg)
    reg.add("left_margin", LEFT_UNIGRAM_MARGIN, fixed(LEFT_UNIGRAM_MARGIN, 2),
            computed(WORDS("left_margin"), "course/common/measured.py (LEFT_UNIGRAM_MARGIN)"))
    reg.add("beta1", base.beta1, fixed(base.beta1, 2), computed("beta1", src))
    reg.add("beta2", base.beta2, fixed(base.beta2, 2), computed("beta2", src))
    reg.add("grad_clip", base.grad_clip, fixed(base.grad_clip, 1), computed("grad_clip", src))
    reg.add("adam_eps", tw.EXPLORER.eps, scientific(tw.EXPLORER.eps),
            computed(WORDS("adam_eps"), TWINS))
    steps = inputs.experiments.base.max_steps
    reg.add("steps", steps, integer(steps), computed("max_steps", src))

    ours = f.first_step_without_bias_correction(base.beta1, base.beta2)
    reg.add("adam.nobc_step1", ours, fixed(ours, 3),
            computed(WORDS("adam.nobc_step1"), src, FORMULAS))
    cited = {c.key: c.value for c in inputs.citations.numbers}
    for name, key in (("adam_default", "kingma.beta2"), ("vaswani", "vaswani.beta2")):
        b2 = cited[key]
        x = f.first_step_without_bias_correction(base.beta1, b2)
        reg.add(f"adam.nobc_step1.{name}", x, fixed(x, 3),
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
    for layers in (base.n_layer, exps.config("c8_postln_L12_lr1e-3_warmup100").n_layer):
        s = base.init_std / math.sqrt(2 * layers)
        reg.add(f"write_std.L{layers}", s, fixed(s, 5), computed("init_std / √(2 · n_layer)", src))
        x = f.relative_step(lr, s)
        reg.add(f"rel_step.write.L{layers}", x, percent(x, 0),
                computed(WORDS("rel_step.write"), src, FORMULAS))
        a, b = f.deepnorm_alpha(layers), f.deepnorm_beta(layers)
        reg.add(f"deepnorm.alpha.L{layers}", a, fixed(a, 2), computed("(2N)^{1/4}", src, FORMULAS))
        reg.add(f"deepnorm.beta.L{layers}", b, fixed(b, 2), computed("(8N)^{−1/4}", src, FORMULAS))
    x = f.relative_step(lr, base.init_std)
    reg.add("rel_step.weight", x, percent(x, 0), computed(WORDS("rel_step.weight"), src, FORMULAS))
    lo, hi = min(DEPTHS), max(DEPTHS)
    x = f.xiong_preln_depth_factor(lo, hi)
    reg.add("xiong.preln_factor", x, fixed(x, 2), computed(WORDS("xiong.preln_factor", lo=lo, hi=hi), FORMULAS))
    reg.add("depth.min", lo, integer(lo), computed(WORDS("depth.min"), NUMBERS))
    reg.add("depth.max", hi, integer(hi), computed(WORDS("depth.max"), NUMBERS))
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
    reg.add("explorer.params", spec.params, integer(spec.params), computed(WORDS("explorer.params"), TWINS))
    reg.add("explorer.default_warmup", spec.default_warmup, integer(spec.default_warmup),
            computed(WORDS("explorer.default_warmup"), TWINS))
    draws = tw.explorer_draws(spec, steps)
    at = WORDS("explorer.at", warmup=spec.default_warmup, beta2=base.beta2, signal=spec.default_signal, setting=setting)
    e = tw.explore(spec, steps, base.beta1, base.beta2, spec.default_warmup, "cosine", spec.default_scale,
                   spec.default_signal, draws)
    e0 = tw.explore(spec, steps, base.beta1, base.beta2, 0, "cosine", spec.default_scale, spec.default_signal, draws)
    for name, x, text in (("step1", e.step1, lambda v: fixed(v, 4)), ("step1_nobc", e.step1_nobc, lambda v: fixed(v, 4)),
                          ("travel", e.travel, lambda v: significant(v, 3)),
                          ("travel_nowarmup", e.travel_nowarmup, lambda v: significant(v, 3))):
        what = WORDS(f"explorer.what.{name}", window=spec.window)
        reg.add(f"explorer.{name}", x, text(x), computed(WORDS("explorer.in_peak_lr", what=what, at=at), where))
    reg.add("explorer.travel_ratio", e.travel_ratio, percent(e.travel_ratio, 0),
            computed(WORDS("explorer.travel_ratio", at=at), where))
    reg.add("explorer.step1_nowarmup", e0.step1, fixed(e0.step1, 3),
            computed(WORDS("explorer.step1_nowarmup", at=at), where))
    reg.add("explorer.step2_nowarmup", e0.adam[1], fixed(e0.adam[1], 2),
            computed(WORDS("explorer.step2_nowarmup", at=at), where))
    late = e0.adam[spec.window - 1]
    reg.add("explorer.step_window_nowarmup", late, fixed(late, 2),
            computed(WORDS("explorer.step_window_nowarmup", window=spec.window, at=at), where))
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
    reg.add("sim.width", spec.width, integer(spec.width), computed(WORDS("sim.width"), TWINS))
    x = f.xiong_preln_depth_factor(lo, hi)
    reg.add("sim.xiong_factor", x, fixed(x, 2), computed(f"√({lo}/{hi})", FORMULAS))
    blo, bhi = f.xiong_preln_stream_rms_bounds(hi)
    reg.add("sim.lemma_rms_lo", blo, fixed(blo, 1), computed(WORDS("sim.lemma_rms_lo", hi=hi), FORMULAS))
    reg.add("sim.lemma_rms_hi", bhi, fixed(bhi, 1), computed(WORDS("sim.lemma_rms_hi", hi=hi), FORMULAS))
    i = spec.depths.index(spec.default_layers)
    for name, preset, scale in (("xavier", presets["xavier"], False), ("ours", presets["ours"], True),
                                ("ours_unscaled", presets["ours"], False)):
        c = tw.depth_curve(spec, z, preset, scale, base.norm_eps)
        at = WORDS("depth.at.scaled" if scale else "depth.at", init=name, setting=setting)
        for pl, ys in (("post", c.post), ("pre", c.pre)):
            r = ys[-1] / ys[0]
            reg.add(f"sim.{name}.{pl}.depth_ratio", r, fixed(r, 2),
                    computed(WORDS("sim.depth_ratio", hi=hi, lo=lo, at=at), where))
        r = c.pre[i] / c.post[i]
        reg.add(f"sim.{name}.pre_over_post", r, significant(r, 2),
                computed(WORDS("sim.pre_over_post", default_layers=spec.default_layers, at=at), where))
        reg.add(f"sim.{name}.pre_rms_hi", c.pre_rms[-1], significant(c.pre_rms[-1], 2),
                computed(WORDS("sim.pre_rms_hi", hi=hi, at=at), where))
        reg.add(f"sim.{name}.pre_rms_lo", c.pre_rms[0], significant(c.pre_rms[0], 2),
                computed(WORDS("sim.pre_rms_lo", lo=lo, at=at), where))
        matched = (c.pre[-1] * c.pre_rms[-1]) / (c.pre[0] * c.pre_rms[0])
        reg.add(f"sim.{name}.pre_matched_depth_ratio", matched, fixed(matched, 2),
                computed(WORDS("sim.pre_matched_depth_ratio", hi=hi, lo=lo, at=at), where))
    reg.add("sim.ours.weight_std", presets["ours"].weight_std, fixed(presets["ours"].weight_std, 3),
            computed(WORDS("sim.ours.weight_std"), f"{EXPERIMENTS} (base)", TWINS))
    reg.add("sim.ours.input_std", presets["ours"].input_std, fixed(presets["ours"].input_std, 3),
            computed(WORDS("sim.ours.input_std"), f"{EXPERIMENTS} (base)", TWINS))


# ---------------------------------------------------------------- measured: the init-only depth probes


def add_probes(reg: Scope, results: Results) -> None:
    """For every placement and depth: the last block's FFN-output gradient (Xiong et al.'s W²), the RMS of
    the stream its last norm reads, their product (the gradient at matched stream scale: the final
    norm's 1/RMS taken out), and the top block's gradient over the bottom block's. Then, seed by seed,
    how the first changes from the shallowest to the deepest stack, and how the placements compare."""
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
            k = f"init.{p}.L{L}"
            spread_keys(reg, f"{k}.w2", w2, lambda x: significant(x, 3), prov)
            spread_keys(reg, f"{k}.rms", rms, lambda x: significant(x, 3), prov)
            spread_keys(reg, f"{k}.matched", per[(p, L)]["matched"], lambda x: significant(x, 3), prov)
            spread_keys(reg, f"{k}.top_over_bottom",
                        [r.init.block_grad_norm[-1] / r.init.block_grad_norm[0] for r in rs],
                        lambda x: fixed(x, 2), prov)
        a, b = per.get((p, lo)), per.get((p, hi))
        if a and b and a["seeds"] == b["seeds"]:
            prov = provenance(results.runs[init_run(p, hi)], WORDS("init.probes", runs=f"{init_run(p, hi)} / {init_run(p, lo)}"))
            spread_keys(reg, f"init.{p}.depth_ratio", [y / x for x, y in zip(a["w2"], b["w2"])], lambda x: fixed(x, 2), prov)
            spread_keys(reg, f"init.{p}.rms_growth", [y / x for x, y in zip(a["rms"], b["rms"])], lambda x: fixed(x, 2), prov)
            spread_keys(reg, f"init.{p}.matched_depth_ratio", [y / x for x, y in zip(a["matched"], b["matched"])],
                        lambda x: fixed(x, 2), prov)
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
        spread_keys(reg, "init.pre_over_post.raw", raw, lambda x: significant(x, 2), prov)
        spread_keys(reg, "init.pre_over_post.matched", matched, lambda x: fixed(x, 2), prov)


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


def add_training(reg: Scope, results: Results) -> None:
    for run in TRAINED:
        if run not in results.runs:
            continue
        rs = results.runs[run]
        prov = provenance(rs, run)
        # a seed has clearly left the unigram loss when its best validation loss is below it by the margin
        # and the retrain margin; it has clearly stalled when its best stays above the margin less that
        left = sum(lo < floor - LEFT_UNIGRAM_MARGIN - MARGIN_LOSS for lo, floor in map(val_extremes, rs))
        stalled = sum(lo > floor - LEFT_UNIGRAM_MARGIN + MARGIN_LOSS for lo, floor in map(val_extremes, rs))
        reg.add(f"left.{run}", left, integer(left), prov)
        reg.add(f"stalled.{run}", stalled, integer(stalled), prov)
        finals = [r.metrics.final_val_loss - r.corpus.unigram_floor if r.metrics.final_val_loss is not None
                  else "diverged" for r in rs]
        spread_keys(reg, f"above_unigram.{run}", finals, lambda x: fixed(x, 3), prov)
        spread_keys(reg, f"best_below_unigram.{run}", [floor - lo for lo, floor in map(val_extremes, rs)],
                    lambda x: fixed(x, 3), prov)
        # the seeds that clearly left: the first validation step at which each is clearly below the line
        lefts = [r for r in rs if val_extremes(r)[0] < val_extremes(r)[1] - LEFT_UNIGRAM_MARGIN - MARGIN_LOSS]
        if lefts:
            spread_keys(reg, f"left_step.{run}", [left_unigram_step(r) for r in lefts], integer, prov)
        # the last validation step at which a seed is still on the unigram loss (not yet clearly below it);
        # defined for every seed, so it does not hang on which seeds count as having left
        spread_keys(reg, f"plateau_end.{run}", [plateau_end(r) for r in rs], integer, prov)
        # the largest gradient norm before clipping over the whole run (what clipping acts on)
        spread_keys(reg, f"grad_max.{run}", [max(g for g in r.curves.grad_norm if g is not None) for r in rs],
                    lambda x: significant(x, 2), prov)
        if all(r.trace is not None and r.trace.update_norm for r in rs):
            add_trace(reg, run, rs, prov)
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
    post = [run for run in TRAINED if run.startswith("c8_postln") and run in results.runs
            and all(r.trace is not None and r.trace.block_grad_norm for r in results.runs[run])]
    if post:
        rs = [r for run in post for r in results.runs[run]]
        if all(below_unigram_at_trace_end(r) is not None for r in rs):
            prov_post = provenance(rs, WORDS.join("list", post))
            for name, test in (("off_plateau", off_plateau_at_trace_end), ("on_plateau", on_plateau_at_trace_end)):
                n = sum(map(test, rs))
                reg.add(f"trace.postln.{name}", n, integer(n), prov_post)
            reg.add("trace.postln.seeds", len(rs), integer(len(rs)), prov_post)
            reg.add("trace.postln.runs", len(post), integer(len(post)),
                    computed(WORDS("trace.postln.runs"), EXPERIMENTS))
    for key, a, b, metric in COMPARISONS:
        if a in results.runs and b in results.runs and results.seeds(a) == results.seeds(b):
            compare(reg, f"compare.{key}.{metric}", results, a, b, metric)


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


def add_trace(reg: Scope, run: str, rs, prov) -> None:
    """What the first traced updates did: the size of the first update (whole model, and per parameter,
    which bias-corrected Adam makes ≈ lr), how far the parameters travelled over the first 50 updates,
    and how the bottom block's gradient compares with the top block's by the end of the trace."""
    k = f"trace.{run}"
    window = tw.EXPLORER.window
    spread_keys(reg, f"{k}.step1", [r.trace.update_norm[0] for r in rs], lambda x: significant(x, 3), prov)
    spread_keys(reg, f"{k}.step1_per_lr", [r.trace.update_norm[0] / (r.curves.lr[0] * math.sqrt(r.parameters))
                                           for r in rs], lambda x: fixed(x, 3), prov)
    spread_keys(reg, f"{k}.travel", [sum(r.trace.update_norm[:window]) for r in rs], lambda x: significant(x, 3), prov)
    spread_keys(reg, f"{k}.grad_step1", [r.curves.grad_norm[0] for r in rs], lambda x: significant(x, 2), prov)

    def ratio(r, i):
        g = r.trace.block_grad_norm[i]
        return g[0] / g[-1]
    spread_keys(reg, f"{k}.bottom_over_top.end", [ratio(r, -1) for r in rs], lambda x: significant(x, 2), prov)
    spread_keys(reg, f"{k}.bottom_over_top.min", [min(ratio(r, i) for i in range(len(r.trace.step))) for r in rs],
                lambda x: significant(x, 2), prov)
    # every block, not only the two ends, over the last TAIL traced updates (a geometric mean per block, so
    # that one update's spike does not decide): the largest ratio of a block's norm to the norm of the block
    # above it (under 1: each block receives less than the one above it) and the bottom block's norm over the
    # largest of the others' (over 1: the bottom block receives the most); at the first update, how far apart
    # the blocks' norms lie (largest over smallest)
    spread_keys(reg, f"{k}.lower_over_upper.tail", [lower_over_upper(tail_grads(r)) for r in rs],
                lambda x: significant(x, 2), prov)
    spread_keys(reg, f"{k}.bottom_over_others.tail", [bottom_over_others(tail_grads(r)) for r in rs],
                lambda x: significant(x, 2), prov)
    spread_keys(reg, f"{k}.block_spread.first", [max(g) / min(g) for g in (r.trace.block_grad_norm[0] for r in rs)],
                lambda x: fixed(x, 2), prov)
    # the first traced update from which the ratio stays below SLIVER, less the margin of a ratio of two
    # measured norms, to the end of the trace (one past the trace when it ends above it): where the bottom
    # block is left almost no gradient for good
    def sliver_from(r):
        above = [s for i, s in enumerate(r.trace.step) if ratio(r, i) >= SLIVER / (1 + 2 * MARGIN_OTHER)]
        return max(above) + 1 if above else r.trace.step[0]
    spread_keys(reg, f"{k}.sliver_from", [sliver_from(r) for r in rs], integer, prov)
    # the same two read-outs over the seeds that stalled and over those that left, where a run has both
    # the same ratio on the geometric means of the last TAIL updates (one update's spike does not decide)
    spread_keys(reg, f"{k}.bottom_over_top.tail", [bottom_over_top_tail(r) for r in rs], lambda x: significant(x, 2), prov)
    for name, sign in (("stalled", 1), ("left", -1)):
        sub = [r for r in rs if sign * (val_extremes(r)[0] - val_extremes(r)[1] + LEFT_UNIGRAM_MARGIN) > MARGIN_LOSS]
        if sub and len(sub) < len(rs):
            spread_keys(reg, f"{k}.bottom_over_top.end.{name}", [ratio(r, -1) for r in sub], lambda x: significant(x, 2), prov)
            spread_keys(reg, f"{k}.bottom_over_top.tail.{name}", [bottom_over_top_tail(r) for r in sub],
                        lambda x: significant(x, 2), prov)
            spread_keys(reg, f"{k}.sliver_from.{name}", [sliver_from(r) for r in sub], integer, prov)
            spread_keys(reg, f"{k}.bottom_grad_rms.tail.{name}", [bottom_grad_rms_tail(r) for r in sub], scientific2, prov)
            spread_keys(reg, f"{k}.bottom_over_top.min.{name}",
                        [min(ratio(r, i) for i in range(len(r.trace.step))) for r in sub], lambda x: significant(x, 2), prov)
            spread_keys(reg, f"{k}.bottom_update_over_top.tail.{name}", [bottom_update_over_top(r) for r in sub],
                        lambda x: significant(x, 2), prov)
    # how far the bottom block moves, over the same last updates: against the top block, and against what
    # AdamW's decoupled weight decay alone would move it (a gradient too small to matter leaves about 1)
    spread_keys(reg, f"{k}.bottom_update_over_top.tail", [bottom_update_over_top(r) for r in rs],
                lambda x: significant(x, 2), prov)
    spread_keys(reg, f"{k}.bottom_update_over_decay.tail", [bottom_update_over_decay(r) for r in rs],
                lambda x: significant(x, 2), prov)
    # the bottom block's gradient per parameter (an RMS), to set beside Adam's ε
    spread_keys(reg, f"{k}.bottom_grad_rms.tail", [bottom_grad_rms_tail(r) for r in rs], scientific2, prov)
    spread_keys(reg, f"{k}.eps_over_bottom_grad_rms.tail", [tw.EXPLORER.eps / bottom_grad_rms_tail(r) for r in rs],
                lambda x: significant(x, 2), prov)
    # which seeds are off the plateau (clearly below the unigram loss) at the trace's last update, which
    # clearly still on it, and how the blocks fall (largest lower/upper ratio) in each group
    if all(below_unigram_at_trace_end(r) is not None for r in rs):
        off = [r for r in rs if off_plateau_at_trace_end(r)]
        on = [r for r in rs if on_plateau_at_trace_end(r)]
        reg.add(f"{k}.off_plateau", len(off), integer(len(off)), prov)
        reg.add(f"{k}.on_plateau", len(on), integer(len(on)), prov)
        for name, sub in (("off_plateau", off), ("on_plateau", on)):
            if sub:
                spread_keys(reg, f"{k}.lower_over_upper.tail.{name}", [lower_over_upper(tail_grads(r)) for r in sub],
                            lambda x: significant(x, 2) if x < 0.995 or x > 1.005 else fixed(x, 2), prov)
                spread_keys(reg, f"{k}.below_unigram.trace_end.{name}", [below_unigram_at_trace_end(r) for r in sub],
                            lambda x: fixed(x, 3), prov)
    # the seed that stays on the unigram loss longest (ties: the one with the smallest end ratio, so that
    # a note claiming a large ratio there is not carried by the kinder seed): its plateau and its ratio
    ends = [(plateau_end(r), -ratio(r, -1), r) for r in rs]
    _, _, longest = max(ends, key=lambda e: (e[0], e[1]))
    one = provenance([longest], run)
    lp = f"{k}.longest_plateau"
    reg.add(f"{lp}.seed", longest.config.seed, str(longest.config.seed), one)
    reg.add(f"{lp}.plateau_end", plateau_end(longest), integer(plateau_end(longest)), one)
    end = ratio(longest, -1)
    reg.add(f"{lp}.bottom_over_top.end", end, significant(end, 2), one)
    low = min(ratio(longest, i) for i in range(len(longest.trace.step)))
    reg.add(f"{lp}.bottom_over_top.min", low, significant(low, 2), one)
    last = min(ratio(longest, i) for i in range(len(longest.trace.step) - LAST, len(longest.trace.step)))
    reg.add(f"{lp}.bottom_over_top.last.min", last, significant(last, 2), one)
    # the residual stream at initialization: the raw embedding block 1 reads, and the stream after each block
    spread_keys(reg, f"{k}.init.embed_rms", [r.init.stream_rms[0] for r in rs], lambda x: significant(x, 2), prov)
    # (every seed's stream after every block, pooled: its range is the range over blocks and seeds)
    spread_keys(reg, f"{k}.init.block_rms", [x for r in rs for x in r.init.stream_rms[1:]], lambda x: significant(x, 3), prov)
    n = block_parameters(rs[0])
    reg.add(f"{k}.block_parameters", n, integer(n),
            computed(WORDS("block_parameters"), EXPERIMENTS))
    steps = len(rs[0].trace.step)
    reg.add(f"{k}.steps", steps, integer(steps), prov)
    predicted = f.first_update_norm(rs[0].curves.lr[0], rs[0].parameters)
    reg.add(f"{k}.predicted_step1", predicted, significant(predicted, 3),
            computed(WORDS("predicted_step1"), EXPERIMENTS, FORMULAS))


def add_numbers(reg: Scope, inputs) -> None:
    add_optimizer(reg, inputs)
    add_scalings(reg, inputs)
    add_explorer(reg, inputs)
    add_depth(reg, inputs)
    add_probes(reg, inputs.results)
    add_training(reg, inputs.results)
