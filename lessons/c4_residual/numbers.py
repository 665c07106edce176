"""The residual lesson's numbers, all under `residual.` in the registry.

The anchor's one stream and its writes, the unrolled view's path counts (for the widget, the anchor and
Veit et al.'s network), the stream's growth against √(n + 1), the chapter simulator's read-outs in this
lesson's mode (from its Python twin), the wider streams of DeepSeek-V4 and Kimi K3 (from their configs),
and the seed-by-seed comparisons the reading notes rest on.
"""
from __future__ import annotations

from course.common import formulas as chapter
from course.common.measured import BASELINE, Results, add_margins, add_pair_drift, compare, provenance, spread_keys
from course.common.numbers import EXPERIMENTS, anchor_source, computed_from, frontier_source
from course.common.schema import Inputs
from course.common.twins import SIM, simulate
from course.core.formats import fixed, integer, percent, scientific, significant
from course.core.registry import Computed, Scope
from course.project import words
from lessons.c4_residual import formulas as f
from lessons.c4_residual import twins

WORDS = words(__file__)   # lessons/c4_residual/words.LANG.json
HERE = "lessons/c4_residual"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = "course/common/twins.py"
CITATIONS = "data/citations.json"


computed = computed_from(FORMULAS)


def power_of_ten(x: int) -> str:
    """2^128 as '3.4 × 10³⁸': a count too large for its digits to mean anything on a page."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa} × 10" + str(int(exponent)).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))


# ---------------------------------------------------------------- the anchor's stream


def add_anchor(reg: Scope, inputs: Inputs) -> None:
    t = inputs.anchor.config.text_config
    per_layer = chapter.residual_writes(1)
    reg.add("anchor.sublayers_per_layer", per_layer, integer(per_layer),
            computed(WORDS("anchor.sublayers_per_layer"), "course/common/formulas.py"))
    concat = (chapter.residual_writes(t.num_hidden_layers) + 1) * t.hidden_size
    reg.add("anchor.concat_width", concat, integer(concat),
            computed(WORDS("anchor.concat_width"),
                     anchor_source("hidden_size")))
    w = f.width_per_write(t.hidden_size, chapter.residual_writes(t.num_hidden_layers))
    reg.add("anchor.width_per_write", w, fixed(w, 0),
            computed("hidden_size / (2 × num_hidden_layers)", anchor_source("hidden_size"), FORMULAS))


# ---------------------------------------------------------------- the unrolled view

# The paths widget: a stack small enough to list every path (2^5 = 32 rows at most).
PATHS_DEFAULT, PATHS_MAX = 3, 5


def add_paths(reg: Scope, inputs: Inputs) -> None:
    widget = WORDS("paths.widget_setting")
    reg.add("paths.default_blocks", PATHS_DEFAULT, integer(PATHS_DEFAULT), computed(widget, NUMBERS))
    reg.add("paths.max_blocks", PATHS_MAX, integer(PATHS_MAX), computed(widget, NUMBERS))
    n = f.path_count(PATHS_DEFAULT)
    reg.add("paths.default_count", n, integer(n), computed(WORDS("paths.default_count")))
    k = f.paths_skipping(PATHS_DEFAULT, 1)
    reg.add("paths.default_skipping_one", k, integer(k), computed(WORDS("paths.default_skipping_one")))

    # the anchor: every sublayer is one residual branch
    writes = chapter.residual_writes(inputs.anchor.config.text_config.num_hidden_layers)
    src = anchor_source("num_hidden_layers")
    count = f.path_count(writes)
    reg.add("paths.anchor", count, power_of_ten(count), computed("2^(2 × num_hidden_layers)", src, FORMULAS))
    reg.add("paths.anchor.mean_length", writes / 2, fixed(writes / 2, 0),
            computed(WORDS("paths.anchor.mean_length"), src, FORMULAS))
    lo, hi = f.central_lengths(writes, 0.95)
    share = f.share_of_paths_between(writes, lo, hi)
    where = computed(WORDS("paths.anchor.central"), src, FORMULAS)
    reg.add("paths.anchor.central_min", lo, integer(lo), where)
    reg.add("paths.anchor.central_max", hi, integer(hi), where)
    reg.add("paths.anchor.central_share", share, percent(share, 1), where)

    # Veit et al.'s 54-module network, recomputed from its cited module count
    cited = {n.key: n.value for n in inputs.citations.numbers}
    m = int(cited["veit.modules"])
    for name, (a, b) in (("central", ("veit.central.min", "veit.central.max")),
                         ("effective", ("veit.effective.min", "veit.effective.max"))):
        lo, hi = int(cited[a]), int(cited[b])
        share = f.share_of_paths_between(m, lo, hi)
        reg.add(f"paths.veit.{name}_share", share, percent(share, 2 if share < 0.01 else 1),
                computed(WORDS("paths.veit.share", m=m, lo=lo, hi=hi),
                         CITATIONS, FORMULAS))


# ---------------------------------------------------------------- the simulator, in this lesson's mode

LOW_GAIN, HIGH_GAIN = 0.5, 2.0   # two gains either side of the default, both on the widget's slider
SIM_SETTINGS = {  # name → (gain, residual, prenorm, scale), at the simulator's default N
    "on": (SIM.default_gain, True, False, False),
    "off": (SIM.default_gain, False, False, False),
    "scaled": (SIM.default_gain, True, False, True),
    "off_low_gain": (LOW_GAIN, False, False, False),
    "off_high_gain": (HIGH_GAIN, False, False, False),
    "on_low_gain": (LOW_GAIN, True, False, False),
    "on_high_gain": (HIGH_GAIN, True, False, False),
}


def sim_words(gain: float, residual: bool, prenorm: bool, scale: bool) -> dict[str, str]:
    """A setting of the simulator, as its provenance names it."""
    def on(x: bool) -> dict[str, str]:
        return WORDS("on" if x else "off")
    return WORDS("sim.setting", layers=SIM.default_layers, gain=gain, residual=on(residual), prenorm=on(prenorm),
                 scale=on(scale))


def add_simulator(reg: Scope) -> None:
    """The simulator's read-outs from its Python twin, so the prose quotes exactly what the widget shows
    (the widget prints two decimals; a ratio too small for them also gets its scientific form)."""
    where = WORDS("sim.where", twins=TWINS, seed=SIM.seed, width=SIM.width, tokens=SIM.tokens)
    reg.add("sim.default_layers", SIM.default_layers, integer(SIM.default_layers),
            computed(WORDS("sim.default_layers"), where))
    reg.add("sim.width", SIM.width, integer(SIM.width), computed(WORDS("sim.width"), where))
    reg.add("sim.default_gain", SIM.default_gain, fixed(SIM.default_gain, 2),
            computed(WORDS("sim.default_gain"), where))
    reg.add("sim.low_gain", LOW_GAIN, fixed(LOW_GAIN, 2), computed(WORDS("sim.low_gain"), NUMBERS))
    reg.add("sim.high_gain", HIGH_GAIN, fixed(HIGH_GAIN, 2), computed(WORDS("sim.high_gain"), NUMBERS))
    for name, setting in SIM_SETTINGS.items():
        r = simulate(SIM.default_layers, *setting)
        at = sim_words(*setting)
        if name == "on":   # the page walks through the default setting's stream
            reg.add("sim.start_stream_rms", r.stream[0], fixed(r.stream[0], 2),
                    computed(WORDS("sim.start_stream_rms"), where))
            reg.add(f"sim.{name}.stream_growth", r.stream_rms / r.stream[0], WORDS("times", x=fixed(r.stream_rms / r.stream[0], 1)),
                    computed(WORDS("sim.stream_growth", at=at), where))
            reg.add(f"sim.{name}.read_rms", r.read_rms_top, fixed(r.read_rms_top, 2),
                    computed(WORDS("sim.read_rms", at=at), where))
        reg.add(f"sim.{name}.grad_ratio", r.grad_ratio, fixed(r.grad_ratio, 2),
                computed(WORDS("sim.grad_ratio", at=at), where))
        if r.grad_ratio < 0.01:
            reg.add(f"sim.{name}.grad_ratio_exact", r.grad_ratio, scientific(float(f"{r.grad_ratio:.1e}")),
                    computed(WORDS("sim.grad_ratio_exact", at=at), where))
        reg.add(f"sim.{name}.stream_rms", r.stream_rms, fixed(r.stream_rms, 2),
                computed(WORDS("sim.stream_rms", at=at), where))


# ---------------------------------------------------------------- growth: √(n + 1) against the simulator


def add_growth(reg: Scope) -> None:
    g = twins.growth()
    where = WORDS("growth.where", here=HERE, twins=TWINS, seed=SIM.seed, layers_max=SIM.layers_max, gain=g.gain)
    # whole curves, for the widget: their text says what they hold rather than listing every value
    for key, values, what in (("sim_stream", g.stream, WORDS("growth.sim_stream")),
                              ("sim_write", g.write, WORDS("growth.sim_write"))):
        reg.add(f"growth.{key}", values, WORDS("growth.values", n=integer(len(values))),
                computed(what, where))
    for name, n in (("at_default", SIM.default_layers), ("at_max", SIM.layers_max)):
        reg.add(f"growth.{name}.n", n, integer(n), computed(WORDS("growth.n"), where))
        reg.add(f"growth.{name}.law", g.law[n], fixed(g.law[n], 2), computed(f"√(l + 1), l = {n}", FORMULAS))
        reg.add(f"growth.{name}.sim", g.stream[n], fixed(g.stream[n], 2),
                computed(WORDS("growth.sim", n=n), where))
        reg.add(f"growth.{name}.independent", g.independent[n], fixed(g.independent[n], 2),
                computed(WORDS("growth.independent", n=n), where, FORMULAS))
        ratio = g.stream[n] / g.law[n]
        reg.add(f"growth.{name}.sim_over_law", ratio, percent(ratio, 0),
                computed(WORDS("growth.sim_over_law", n=n), where))
    reg.add("growth.first_write", g.write[0], fixed(g.write[0], 2), computed(WORDS("growth.first_write"), where))
    reg.add("growth.last_write", g.write[-1], fixed(g.write[-1], 2),
            computed(WORDS("growth.last_write", layers_max=SIM.layers_max), where))
    t = f.tanh_rms(g.gain)
    reg.add("growth.tanh_unit_rms", t, fixed(t, 2),
            computed(WORDS("growth.tanh_unit_rms", gain=g.gain), FORMULAS))


# ---------------------------------------------------------------- wider streams (2025–2026)


def add_divergence(reg: Scope, inputs: Inputs) -> None:
    for key, name in (("deepseek_v4_flash", "DeepSeek-V4-Flash"), ("deepseek_v4_pro", "DeepSeek-V4-Pro")):
        m = inputs.frontier.by_name(name)
        src = frontier_source(name, m.provenance.grade)
        if key == "deepseek_v4_flash":   # the page works out Flash's width, and gives both
            reg.add(f"{key}.hc_mult", m.hc_mult, integer(m.hc_mult), computed("hc_mult", src))
            reg.add(f"{key}.hidden_size", m.hidden_size, integer(m.hidden_size), computed("hidden_size", src))
        w = f.widened_stream(m.hidden_size, m.hc_mult)
        reg.add(f"{key}.stream_width", w, integer(w), computed("hc_mult × hidden_size", src, FORMULAS))
    k3 = inputs.frontier.by_name("Kimi K3")
    src = frontier_source("Kimi K3", k3.provenance.grade)
    reg.add("kimi_k3.attn_res_block_size", k3.attn_res_block_size, integer(k3.attn_res_block_size),
            computed("attn_res_block_size", src))
    reg.add("kimi_k3.num_layers", k3.num_layers, integer(k3.num_layers), computed("num_hidden_layers", src))
    b = f.blocks_of(k3.num_layers, k3.attn_res_block_size)
    reg.add("kimi_k3.attn_res_blocks", b, integer(b),
            computed("⌈num_hidden_layers / attn_res_block_size⌉", src, FORMULAS))
    last = k3.num_layers - (b - 1) * k3.attn_res_block_size
    reg.add("kimi_k3.attn_res_last_block", last, integer(last),
            computed(WORDS("kimi_k3.attn_res_last_block"), src, FORMULAS))


# ---------------------------------------------------------------- measured

NO_RESIDUAL, NO_SCALING = "c2_no_residual", "c2_no_proj_scaling"
NO_RESIDUAL_PLAIN = "c2_no_residual_plain_init"   # its control: no residual, and a plain stack's init
PLAIN = "c2_plain_init"   # the residual kept, with the same fan-in init
POSTLN = "c4_postln"      # lesson 3's Post-LN run: a shortcut in every sublayer, the same lr and warmup
POSTLN_LOW_LR = "c8_postln_lr1e-3_warmup100"   # C8-2's Post-LN at lr 1e-3 with a longer warmup: it learns
GELU4 = "c1_gelu_ratio4"   # lesson 1's GELU 4d, whose seeds split at this lr (lessons/c4_ffn/numbers.py)
BASELINE_LOW_LR = "c4_baseline_lr1e-3"   # the baseline at the lower lr
SPLIT_STEP = 150   # the validation step at which lesson 1 reads GELU 4d's split (lessons/c4_ffn/numbers.py)
RUNS = (BASELINE, NO_RESIDUAL, NO_SCALING)
# The comparisons the reading notes rest on: (key, run a, run b, metric, statistics quoted), a minus b seed by seed.
COMPARISONS = [
    ("baseline_minus_no_scaling", BASELINE, NO_SCALING, "final_val_loss", ("min",)),
]


def sci(x: float) -> str:
    """Two significant digits; below 0.01 in the form configs and papers use (2.5e−8, 2.0e−7: the second
    digit kept, so that two such numbers side by side have the same precision), else plainly (4.0)."""
    if abs(x) >= 0.01:
        return significant(x, 2)
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}".replace("-", "−")


# Per-layer read-outs the chapter's metrics do not name: the stream's RMS right after the embeddings (the layer
# every run shares), and the bottom/top gradient ratio where it is too small for the chapter's fixed-point text
LAYER_READOUTS = {
    "init_embed_rms": (lambda r: r.init.stream_rms[0], lambda x: significant(x, 2)),
    "end_embed_rms": (lambda r: r.end.stream_rms[0], lambda x: significant(x, 2)),
    "init_grad_ratio": (lambda r: r.init.block_grad_norm[0] / r.init.block_grad_norm[-1], sci),
    "end_grad_ratio": (lambda r: r.end.block_grad_norm[0] / r.end.block_grad_norm[-1], sci),
    "init_first_rms": (lambda r: r.init.stream_rms[1], lambda x: significant(x, 2)),
    # the embeddings' RMS over the top of the stream's: how much of the top x₀ is, by size
    "end_embed_share": (lambda r: r.end.stream_rms[0] / r.end.stream_rms[-1], lambda x: percent(x, 1)),
}
# what the notes quote of them: run → read-out → the statistics over seeds
LAYERS_QUOTED = {
    "baseline": (BASELINE, {"init_embed_rms": ("min", "max"), "end_embed_rms": ("max", "range"),
                            "end_grad_ratio": ("min", "range"), "end_embed_share": ("range",)}),
    "no_residual": (NO_RESIDUAL, {"init_embed_rms": ("mean", "min"), "init_grad_ratio": ("min", "range"),
                                  "end_grad_ratio": ("min", "max")}),
    "no_residual_plain": (NO_RESIDUAL_PLAIN, {"init_grad_ratio": ("min", "range"), "end_grad_ratio": ("min", "max")}),
    "plain": (PLAIN, {"init_grad_ratio": ("min", "range"), "init_embed_rms": ("range",),
                      "init_first_rms": ("range",)}),
}


def add_layers(reg: Scope, results: Results) -> None:
    """The per-layer read-outs the notes quote (LAYERS_QUOTED), and what the norm in front of the second block
    makes of the stream at init."""
    for key, (run, quoted) in LAYERS_QUOTED.items():
        if run not in results.runs:
            continue
        runs = results.runs[run]
        prov = provenance(runs, WORDS("layers.provenance", run=run))
        for readout, stats in quoted.items():
            value, text = LAYER_READOUTS[readout]
            spread_keys(reg, f"layers.{key}.{readout}", [value(r) for r in runs], text, prov, *stats)
        if key == "no_residual":
            # after block 1 the stream's mean square is below the norm's eps: the next RMSNorm brings it to
            # RMS ≈ rms / sqrt(rms² + eps), not to 1 (the stream's RMS stands in for each row's)
            spread_keys(reg, "layers.no_residual.init_ms_first", [r.init.stream_rms[1] ** 2 for r in runs], sci,
                        provenance(runs, WORDS("layers.no_residual.init_ms_first", run=run)), "max", "range")
            spread_keys(reg, "layers.no_residual.init_normed_rms_first",
                        [r.init.stream_rms[1] / (r.init.stream_rms[1] ** 2 + r.config.norm_eps) ** 0.5 for r in runs],
                        lambda x: significant(x, 2),
                        provenance(runs, WORDS("layers.no_residual.init_normed_rms_first", run=run)), "max", "range")
        # what the RMSNorm in front of the second block divides by at init: √(mean square + ε), ε included
        spread_keys(reg, f"layers.{key}.init_norm_divisor_first",
                    [(r.init.stream_rms[1] ** 2 + r.config.norm_eps) ** 0.5 for r in runs], lambda x: significant(x, 2),
                    provenance(runs, WORDS("layers.init_norm_divisor_first", run=run)),
                    *(("max", "range") if key == "no_residual" else ("min", "range")))


def paired(results: Results, a: str, b: str) -> bool:
    """Both runs have results for the same seeds (while a refresh is under way, one may be ahead); a note
    whose comparison is missing names an unknown key and stops the build."""
    return a in results.runs and b in results.runs and results.seeds(a) == results.seeds(b)


def add_stall(reg: Scope, results: Results) -> None:
    """When the run without the residual reaches the unigram loss (already at the first evaluation), what the
    baseline reads there, and what the top block writes at the end: the facts the stall note rests on."""
    for key, run, top_stats in (("baseline", BASELINE, ("max", "range")), ("no_residual", NO_RESIDUAL, ("min", "range"))):
        if run not in results.runs:
            continue
        runs = results.runs[run]
        prov = provenance(runs, WORDS("stall.provenance", run=run))
        if key == "baseline":
            first = runs[0].val.step[1]
            reg.add("first_eval_step", first, integer(first),
                    computed(WORDS("first_eval_step"), EXPERIMENTS))
        spread_keys(reg, f"stall.{key}.first_eval_above_unigram", [r.val.loss[1] - r.corpus.unigram_floor for r in runs],
                    lambda x: fixed(x, 3), prov, "max", "range")
        if key == "no_residual":
            spread_keys(reg, f"stall.{key}.min_val_off_unigram",
                        [abs(r.metrics.min_val_loss - r.corpus.unigram_floor) for r in runs], lambda x: significant(x, 2),
                        prov, "max")
        spread_keys(reg, f"stall.{key}.end_top_rms", [r.end.stream_rms[-1] for r in runs], lambda x: significant(x, 2),
                    prov, *top_stats)
    if NO_RESIDUAL_PLAIN in results.runs:   # how far from the unigram loss its lowest and final losses get
        runs = results.runs[NO_RESIDUAL_PLAIN]
        off = [max(abs(r.metrics.min_val_loss - r.corpus.unigram_floor), abs(r.metrics.final_val_loss - r.corpus.unigram_floor))
               for r in runs]
        spread_keys(reg, "stall.plain_init.off_unigram", off, lambda x: significant(x, 2),
                    provenance(runs, WORDS("stall.plain_init.off_unigram", run=NO_RESIDUAL_PLAIN)), "max")


# the loss differences the reading notes rest on at lr 3e-3, a minus b seed by seed (the note's own compare keys)
# (and what of each the notes quote there: course/common/measured.py add_pair_drift)
CROSS_PAIRS = {"baseline_minus_no_scaling": (BASELINE, NO_SCALING, ("thin_there",)),
               "no_residual_minus_baseline": (NO_RESIDUAL, BASELINE, ())}


def add_cross_machine(reg: Scope, inputs: Inputs) -> None:
    add_pair_drift(reg, inputs.results, inputs.cross_machine, CROSS_PAIRS)


def add_controls(reg: Scope, results: Results) -> None:
    """What the controls of the stall note carry: the fan-in run's stream above every block at init, its end
    state, its gradients against its residual twin's; and lesson 3's Post-LN run at the same lr, which keeps a
    shortcut and stalls too."""
    if NO_RESIDUAL_PLAIN in results.runs:
        runs = results.runs[NO_RESIDUAL_PLAIN]
        # the smallest stream RMS after any block at init, seed by seed (the stream stays large all the way up)
        spread_keys(reg, "layers.no_residual_plain.init_stream_rms_blocks_min", [min(r.init.stream_rms[1:]) for r in runs],
                    lambda x: significant(x, 2),
                    provenance(runs, WORDS("layers.init_stream_rms_blocks_min", run=NO_RESIDUAL_PLAIN)), "min", "range")
        spread_keys(reg, "stall.no_residual_plain.end_top_rms", [r.end.stream_rms[-1] for r in runs],
                    lambda x: significant(x, 2), provenance(runs, WORDS("stall.provenance", run=NO_RESIDUAL_PLAIN)),
                    "min", "range")
    # per seed, the run without the residual's init block gradients over its residual twin's: the mean over
    # blocks (Σ/Σ, as compare.no_residual.init_grad_times) and the smallest block's own ratio
    for key, a, b in (("no_residual", NO_RESIDUAL, BASELINE), ("no_residual_plain", NO_RESIDUAL_PLAIN, PLAIN)):
        if not paired(results, a, b):
            continue
        ra, rb = results.runs[a], results.runs[b]
        prov = provenance(ra, WORDS("compare.init_grad_times", run=a, baseline=b))
        if key == "no_residual_plain":
            spread_keys(reg, f"compare.{key}.init_grad_times",
                        [sum(x.init.block_grad_norm) / sum(y.init.block_grad_norm) for x, y in zip(ra, rb)],
                        lambda x: significant(x, 2), prov, "min", "max", "range")
        spread_keys(reg, f"compare.{key}.init_grad_times_block_min",
                    [min(p / q for p, q in zip(x.init.block_grad_norm, y.init.block_grad_norm)) for x, y in zip(ra, rb)],
                    lambda x: significant(x, 2),
                    provenance(ra, WORDS("compare.init_grad_times_block_min", run=a, baseline=b)), "min")
    if POSTLN_LOW_LR in results.runs:   # the Post-LN stall depends on the rate and the warmup
        runs = results.runs[POSTLN_LOW_LR]
        prov = provenance(runs, WORDS("stall.provenance", run=POSTLN_LOW_LR))
        spread_keys(reg, "stall.postln_low_lr.final_val_loss", [r.metrics.final_val_loss for r in runs],
                    lambda x: fixed(x, 3), prov, "range")
        spread_keys(reg, "stall.postln_low_lr.below_unigram",
                    [r.corpus.unigram_floor - r.metrics.final_val_loss for r in runs], lambda x: fixed(x, 3), prov, "min")
    if POSTLN in results.runs:
        runs = results.runs[POSTLN]
        prov = provenance(runs, WORDS("stall.provenance", run=POSTLN))
        spread_keys(reg, "stall.postln.off_unigram",
                    [max(abs(r.metrics.min_val_loss - r.corpus.unigram_floor),
                         abs(r.metrics.final_val_loss - r.corpus.unigram_floor)) for r in runs],
                    lambda x: significant(x, 2), prov, "max")
        spread_keys(reg, "stall.postln.final_val_loss", [r.metrics.final_val_loss for r in runs],
                    lambda x: fixed(x, 3), prov, "range")
        spread_keys(reg, "stall.postln.end_grad_ratio",
                    [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in runs], sci, prov, "min", "max")


def add_measured(reg: Scope, results: Results) -> None:
    add_margins(reg, "loss", "loss_pair", "other")
    add_stall(reg, results)
    add_controls(reg, results)
    add_layers(reg, results)
    for key, a, b, metric, stats in COMPARISONS:
        if paired(results, a, b):
            compare(reg, f"compare.{key}.{metric}", results, a, b, metric, *stats)
    # per seed: how many times the baseline's per-block init gradient the run without the residual has (its
    # mean over blocks)
    if paired(results, NO_RESIDUAL, BASELINE):
        a, b = results.runs[NO_RESIDUAL], results.runs[BASELINE]
        ratios = [sum(x.init.block_grad_norm) / sum(y.init.block_grad_norm) for x, y in zip(a, b)]
        spread_keys(reg, "compare.no_residual.init_grad_times", ratios, lambda x: significant(x, 2),
                    provenance(a, WORDS("compare.init_grad_times", run=NO_RESIDUAL, baseline=BASELINE)), "min", "range")
    # and how many times the baseline's the top of the unscaled run's stream is, at init and at the end
    if paired(results, NO_SCALING, BASELINE):
        a, b = results.runs[NO_SCALING], results.runs[BASELINE]
        for when, stats in (("init", ("min", "range")), ("end", ("max", "range"))):
            tops = [getattr(x, when).stream_rms[-1] / getattr(y, when).stream_rms[-1] for x, y in zip(a, b)]
            spread_keys(reg, f"compare.no_scaling.{when}_top_times", tops, lambda x: fixed(x, 2),
                        provenance(a, WORDS("compare.top_times", run=NO_SCALING, baseline=BASELINE, when=WORDS(f"when.{when}"))),
                        *stats)
    # the unscaled run's seeds by final loss: the lowest alone (it ends with a small stream, like GELU 4d's low
    # seeds in lesson 1) and the other two; each group's gain over its baseline seed, top-of-stream RMS at the
    # end and validation loss at the step where lesson 1's split shows (the low group's one seed as its value)
    if paired(results, NO_SCALING, BASELINE):
        base = {r.config.seed: r for r in results.runs[BASELINE]}
        ranked = sorted(results.runs[NO_SCALING], key=lambda r: r.metrics.final_val_loss)
        prov = provenance(results.runs[NO_SCALING],
                          WORDS("no_scaling.groups", no_scaling=NO_SCALING))
        for group, rs, quoted in (("low", ranked[:1], {"gain": ("mean",), "end_top_rms": ("mean",), "val_at_step": ("mean",)}),
                                  ("high", ranked[1:], {"gain": ("max", "range"), "end_top_rms": ("min", "max", "range"),
                                                        "val_at_step": ("min", "range")})):
            k = f"no_scaling.{group}"
            spread_keys(reg, f"{k}.gain", [base[r.config.seed].metrics.final_val_loss - r.metrics.final_val_loss
                                           for r in rs], lambda x: fixed(x, 3), prov, *quoted["gain"])
            spread_keys(reg, f"{k}.end_top_rms", [r.end.stream_rms[-1] for r in rs], lambda x: significant(x, 3), prov,
                        *quoted["end_top_rms"])
            if paired(results, PLAIN, BASELINE):   # the fan-in run with the residual, in the same seeds
                plain = {r.config.seed: r for r in results.runs[PLAIN]}
                spread_keys(reg, f"{k}.plain_gain", [base[r.config.seed].metrics.final_val_loss
                                                     - plain[r.config.seed].metrics.final_val_loss for r in rs],
                            lambda x: fixed(x, 3),
                            provenance(results.runs[PLAIN], WORDS("no_scaling.plain_gain", plain=PLAIN, baseline=BASELINE,
                                                                  no_scaling=NO_SCALING)),
                            *(("mean",) if group == "low" else ("min", "range")))
            spread_keys(reg, f"{k}.val_at_step", [r.val.loss[r.val.step.index(SPLIT_STEP)] for r in rs],
                        lambda x: fixed(x, 3), prov, *quoted["val_at_step"])
        if GELU4 in results.runs:
            ranked_gelu = sorted(results.runs[GELU4], key=lambda r: r.metrics.final_val_loss)
            gprov = provenance(results.runs[GELU4], WORDS("no_scaling.gelu4", gelu4=GELU4))
            for group, rs in (("low", ranked_gelu[:-1]), ("high", ranked_gelu[-1:])):
                spread_keys(reg, f"no_scaling.gelu4_{group}.end_top_rms", [r.end.stream_rms[-1] for r in rs],
                            lambda x: significant(x, 3), gprov, *(("min", "max", "range") if group == "low" else ("mean",)))
                spread_keys(reg, f"no_scaling.gelu4_{group}.val_at_step",
                            [r.val.loss[r.val.step.index(SPLIT_STEP)] for r in rs], lambda x: fixed(x, 3), gprov,
                            *(("max", "range") if group == "low" else ("mean",)))
        rs = results.runs[BASELINE]
        spread_keys(reg, "baseline.val_at_step", [r.val.loss[r.val.step.index(SPLIT_STEP)] for r in rs],
                    lambda x: fixed(x, 3),
                    provenance(rs, WORDS("baseline.val_at_step", baseline=BASELINE, split_step=SPLIT_STEP)), "min", "range")
        reg.add("split_step", SPLIT_STEP, integer(SPLIT_STEP),
                computed(WORDS("split_step"),
                         NUMBERS))
    # how many times its top-of-stream RMS grows from init to the end of training, per seed
    for key, run in (("baseline", BASELINE), ("no_scaling", NO_SCALING)):
        if run in results.runs:
            rs = results.runs[run]
            spread_keys(reg, f"layers.{key}.top_growth_in_training",
                        [r.end.stream_rms[-1] / r.init.stream_rms[-1] for r in rs], lambda x: integer(round(x)),
                        provenance(rs, WORDS("layers.top_growth_in_training", run=run)), "min", "range")
    # the stream's growth from after block 1 to the top, as a bare factor (the chapter's keys print "2.01×",
    # which a Chinese sentence reads as 倍): the unscaled run's at init, the baseline's at init and at the end
    for key, run, when, stats in (("no_scaling", NO_SCALING, "init", ("range",)), ("baseline", BASELINE, "init", ("min",)),
                                  ("baseline", BASELINE, "end", ("range",))):
        if run in results.runs:
            rs = results.runs[run]
            spread_keys(reg, f"layers.{key}.{when}_growth_above_first",
                        [getattr(r, when).stream_rms[-1] / getattr(r, when).stream_rms[1] for r in rs],
                        lambda x: fixed(x, 2),
                        provenance(rs, WORDS("layers.growth_above_first", run=run, when=WORDS(f"when.{when}"))), *stats)
    if BASELINE_LOW_LR in results.runs:   # the same at the lower lr, where the baseline ends lower
        rs = results.runs[BASELINE_LOW_LR]
        spread_keys(reg, "layers.baseline_low_lr.top_growth_in_training",
                    [r.end.stream_rms[-1] / r.init.stream_rms[-1] for r in rs], lambda x: fixed(x, 1),
                    provenance(rs, WORDS("layers.top_growth_in_training", run=BASELINE_LOW_LR)), "max", "range")


# The init-only runs (max_steps 0) that lesson C8-2 also reads: the small model at several depths, with the
# write-back scaling and without it. Step 3 measures its arithmetic on them: the top of the stream at init.
DEPTHS = (2, 4, 8, 12)
DEPTH_RUNS = {"scaled": "c8_init_preln_L{}", "unscaled": "c8_init_preln_unscaled_L{}"}
# what the page and its note quote: kind → (the top RMS's statistics over seeds at each depth, the growth's)
DEPTH_QUOTED = {"scaled": ({L: ("range",) for L in DEPTHS}, ("min", "max", "range")),
                "unscaled": ({2: ("max", "range"), 4: ("min", "max", "range"), 8: ("min", "max", "range"),
                              12: ("min", "range")}, ("min", "range"))}


def add_depth(reg: Scope, results: Results) -> None:
    """depth.KIND.LL.top_rms: the top-of-stream RMS at init of the init-only run with LL layers, with (scaled)
    and without (unscaled) the write-back scaling; depth.KIND.growth: seed by seed, the deepest stack's top
    over the shallowest's."""
    lo, hi = min(DEPTHS), max(DEPTHS)
    for kind, pattern in DEPTH_RUNS.items():
        runs = {L: results.runs.get(pattern.format(L)) for L in DEPTHS}
        if any(rs is None for rs in runs.values()):
            continue
        for L, rs in runs.items():
            if kind == "scaled":   # the depth each pair of runs builds, as the page names it
                reg.add(f"depth.L{L}.layers", rs[0].config.n_layer, integer(rs[0].config.n_layer),
                        Computed(formula=f"n_layer ({pattern.format(L)})", sources=[EXPERIMENTS]))
            spread_keys(reg, f"depth.{kind}.L{L}.top_rms", [r.init.stream_rms[-1] for r in rs],
                        lambda x: significant(x, 2), provenance(rs, WORDS("depth.top_rms", run=pattern.format(L))),
                        *DEPTH_QUOTED[kind][0][L])
        if [r.config.seed for r in runs[lo]] == [r.config.seed for r in runs[hi]]:
            spread_keys(reg, f"depth.{kind}.growth",
                        [b.init.stream_rms[-1] / a.init.stream_rms[-1] for a, b in zip(runs[lo], runs[hi])],
                        lambda x: fixed(x, 2),
                        provenance(runs[hi], WORDS("depth.growth", hi=pattern.format(hi), lo=pattern.format(lo))),
                        *DEPTH_QUOTED[kind][1])
            # what the writes add, √(top² − embeddings²), at the deepest over the shallowest stack: against
            # √(writes ratio) without the scaling and 1 with it, what independent writes would give (step 3)
            def writes(r):
                return (r.init.stream_rms[-1] ** 2 - r.init.stream_rms[0] ** 2) ** 0.5
            spread_keys(reg, f"depth.{kind}.writes_growth",
                        [writes(b) / writes(a) for a, b in zip(runs[lo], runs[hi])], lambda x: significant(x, 2),
                        provenance(runs[hi], WORDS("depth.writes_growth", hi=pattern.format(hi), lo=pattern.format(lo))),
                        "min", "max", "range")
            if kind == "scaled":
                # the embeddings' share of the top's RMS in the deepest scaled stack: what keeps the top flat
                spread_keys(reg, "depth.scaled.embed_share", [r.init.stream_rms[0] / r.init.stream_rms[-1] for r in runs[hi]],
                            lambda x: percent(x, 0),
                            provenance(runs[hi], WORDS("depth.embed_share", run=pattern.format(hi))), "min", "range")
            if kind == "unscaled":
                law = (hi / lo) ** 0.5
                reg.add("depth.independent_writes_growth", law, fixed(law, 2),
                        computed(WORDS("depth.independent_writes_growth", hi=hi, lo=lo), NUMBERS))


def add_end_reads(reg: Scope, results: Results) -> None:
    """layers.KEY.end_first_read_gap: at the end of training, seed by seed, how many times the smallest stream a
    block above the first reads exceeds what the first block reads (the embeddings), at lr 3e-3 (baseline) and
    at lr 1e-3 (baseline_low_lr); layers.baseline.init_read_gap: at init, every block above the first, every
    seed, what it reads over what the first block reads."""
    for key, run in (("baseline", BASELINE), ("baseline_low_lr", BASELINE_LOW_LR)):
        if run not in results.runs:
            continue
        rs = results.runs[run]
        gaps = [min(r.end.stream_rms[1:-1]) / r.end.stream_rms[0] for r in rs]
        spread_keys(reg, f"layers.{key}.end_first_read_gap", gaps, lambda x: significant(x, 2),
                    provenance(rs, WORDS("layers.first_read_gap", run=run, when=WORDS("when.end"))),
                    "range")
        if key == "baseline":
            reads = [x / r.init.stream_rms[0] for r in rs for x in r.init.stream_rms[1:-1]]
            spread_keys(reg, "layers.baseline.init_read_gap", reads, lambda x: fixed(x, 2),
                        provenance(rs, WORDS("layers.init_read_gap", run=run)), "range")


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_anchor(reg, inputs)
    add_paths(reg, inputs)
    add_simulator(reg)
    add_growth(reg)
    add_divergence(reg, inputs)
    add_measured(reg, inputs.results)
    add_cross_machine(reg, inputs)
    add_depth(reg, inputs.results)
    add_end_reads(reg, inputs.results)
