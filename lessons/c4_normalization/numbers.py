"""The normalization lesson's numbers, all under `normalization.` in the registry.

The worked example on the 4-d teaching vector, the weight-decay widget's defaults, what ε does, where the
anchor's norms sit and how many parameters they hold, the residual-stream simulator's read-outs in this
lesson's mode (from the chapter's Python twin), the micro-benchmark, and what the reading notes rest on:
seed-by-seed comparisons, the gradient ratios, the norm gains after the weight-decay runs.
"""
from __future__ import annotations

import re

from course.common import formulas as chapter_formulas
from course.common.measured import (BASELINE, LEFT_UNIGRAM_MARGIN, NEVER, TRADEMARKS, Results, add_margins, compare,
                                     cpu_maker,
                                     left_unigram_step, provenance, range_text, spread_keys)
from course.common.numbers import ANCHOR, FRONTIER, anchor_source, computed_from
from course.common.schema import Inputs
from course.common.twins import SIM, simulate
from course.core.formats import fixed, integer, percent, scientific, significant, vector
from course.core.registry import Computed, Measured, Scope, Words
from course.project import words
from lessons.c4_normalization import formulas as f

WORDS = words(__file__)   # lessons/c4_normalization/words.LANG.json
HERE = "lessons/c4_normalization"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = "course/common/twins.py"
# The lesson's 4-d teaching vector and the two operations its playground offers.
TEACHING_VECTOR = [1.0, 2.0, 3.0, 6.0]
SHIFT = 2.0
SCALE = 3.0
# The weight-decay widget's defaults: a gain trained to 1.5, then 5000 steps of decay alone.
WD_GAIN, WD_STEPS = 1.5, 5000


computed = computed_from(FORMULAS)


def add_worked_examples(reg: Scope) -> None:
    x = TEACHING_VECTOR
    shifted = [v + SHIFT for v in x]
    scaled = [v * SCALE for v in x]
    reg.add("worked.shift", SHIFT, fixed(SHIFT, 0), computed(WORDS("worked.shift"), NUMBERS))
    reg.add("worked.scale", SCALE, fixed(SCALE, 0), computed(WORDS("worked.scale"), NUMBERS))
    for name, vec in (("x", x), ("shifted", shifted), ("scaled", scaled)):
        reg.add(f"worked.{name}", vec, vector(vec, 0), computed(WORDS("worked.vector", name=name), NUMBERS))
        reg.add(f"worked.{name}.rms", f.rms(vec), fixed(f.rms(vec), 3), computed("√mean(x²)"))
        ln, rn = f.layernorm(vec), f.rmsnorm(vec)
        reg.add(f"worked.{name}.layernorm", ln, vector(ln, 3), computed("(x − μ)/σ"))
        reg.add(f"worked.{name}.rmsnorm", rn, vector(rn, 3), computed("x / RMS(x)"))
    # the page works the statistics through for x, and for the shifted x the ones a shift changes
    for name, vec in (("x", x), ("shifted", shifted)):
        reg.add(f"worked.{name}.mean", f.mean(vec), fixed(f.mean(vec), 0), computed("μ = mean(x)"))
        reg.add(f"worked.{name}.var", f.variance(vec), fixed(f.variance(vec), 1), computed("mean((x − μ)²)"))
        ms = f.rms(vec) ** 2
        reg.add(f"worked.{name}.mean_square", ms, fixed(ms, 1), computed("mean(x²)"))
        sq = f.squares(vec)
        reg.add(f"worked.{name}.squares", sq, vector(sq, 0), computed("x_i²"))
    sd, dev = f.variance(x) ** 0.5, f.squared_deviations(x)
    reg.add("worked.x.std", sd, fixed(sd, 3), computed("σ = √var"))
    reg.add("worked.x.sq_dev", dev, vector(dev, 0), computed("(x_i − μ)²"))
    n = f.length(f.rmsnorm(x))
    reg.add("worked.rmsnorm_length", n, fixed(n, 0), computed("‖RMSNorm(x)‖ = √d"))
    reg.add("worked.d", len(x), integer(len(x)), computed(WORDS("worked.d"), NUMBERS))


def add_anchor_norms(reg: Scope, inputs: Inputs) -> None:
    """Where the anchor's RMSNorms sit, what ε does there, and the sphere RMSNorm puts a token on."""
    t = inputs.anchor.config.text_config
    d = t.hidden_size
    sphere = d ** 0.5
    reg.add("sqrt_d", sphere, fixed(sphere, 2), computed("√hidden_size", anchor_source("hidden_size")))
    norms = f.anchor_norms(t)
    reg.add("norms.entry.per_layer", norms["entry"]["per_layer"], integer(norms["entry"]["per_layer"]),
            computed(WORDS("norms.entry.per_layer"),
                     anchor_source("num_hidden_layers"), FORMULAS))
    for place in ("entry", "final", "qk", "gdn"):
        n = norms[place]["count"]
        reg.add(f"norms.{place}.count", n, integer(n),
                computed(WORDS("norms.count", place=place, what=WORDS(f"norms.{place}.count")),
                         anchor_source("layer_types"), FORMULAS))
    reg.add("norms.qk.per_layer", norms["qk"]["per_layer"], integer(norms["qk"]["per_layer"]),
            computed(WORDS("norms.qk.per_layer"),
                     anchor_source("layer_types"), FORMULAS))
    mtp_src = anchor_source("mtp_num_hidden_layers")
    for place in ("mtp", "mtp_qk"):
        n = norms[place]["count"]
        reg.add(f"norms.{place}.count", n, integer(n),
                computed(WORDS("norms.count", place=place, what=WORDS(f"norms.{place}.count")), mtp_src, FORMULAS))
    add_norm_params(reg, norms, chapter_formulas.anchor_ledger(t, inputs.anchor.config.vision_config))
    reg.add("direction_dof", d - 1, integer(d - 1),
            computed(WORDS("direction_dof"), anchor_source("hidden_size")))
    unit = f.eps_relative_effect(1.0, t.rms_norm_eps)
    reg.add("eps_effect.unit_rms", unit, scientific(float(f"{unit:.1e}")),
            computed(WORDS("eps_effect.unit_rms"),
                     anchor_source("rms_norm_eps"), FORMULAS))
    at_eps = f.eps_relative_effect(t.rms_norm_eps, t.rms_norm_eps)
    reg.add("eps_effect.at_eps", at_eps, percent(at_eps, 1),
            computed(WORDS("eps_effect.at_eps"),
                     anchor_source("rms_norm_eps"), FORMULAS))
    # which ε the compared models use (the lesson's "why 1e−6 and not 0")
    eps = f.eps_counts([m.norm_eps for m in inputs.frontier.models])
    src = WORDS("eps.source", frontier=FRONTIER)
    n_eps = sum(eps.values())
    reg.add("eps.models", n_eps, integer(n_eps), computed(WORDS("eps.models"), src, FORMULAS))
    for name, value in (("smallest", min(eps)), ("largest", max(eps))):
        which = WORDS(f"eps.which.{name}")
        reg.add(f"eps.{name}", value, scientific(value), computed(WORDS("eps.value", which=which), src, FORMULAS))
        reg.add(f"eps.{name}.count", eps[value], integer(eps[value]),
                computed(WORDS("eps.count", which=which), src, FORMULAS))


def add_norm_params(reg: Scope, norms: dict, ledger: dict[str, int]) -> None:
    """The gain parameters of every norm: the residual stream's (entry + final, the ledger's "norms", which
    the chapter shows as anchor.params.norms), those inside attention, the MTP module's, and all of them."""
    params = f.norm_params(norms)
    stream = params["entry"] + params["final"]
    if stream != ledger["norms"]:
        raise ValueError("the residual stream's norms here and in the chapter's ledger disagree")
    inside = params["qk"] + params["gdn"]
    reg.add("norms.inside_attention.params", inside, integer(inside),
            computed(WORDS("norms.inside_attention.params"), ANCHOR, FORMULAS))
    decoder = stream + inside
    reg.add("norms.decoder.params", decoder, integer(decoder),
            computed(WORDS("norms.decoder.params"), ANCHOR, FORMULAS))
    mtp = params["mtp"] + params["mtp_qk"]
    reg.add("norms.mtp_all.params", mtp, integer(mtp),
            computed(WORDS("norms.mtp_all.params"), ANCHOR, FORMULAS))
    total = sum(params.values())
    reg.add("norms.all.params", total, integer(total),
            computed(WORDS("norms.all.params"),
                     ANCHOR, FORMULAS))
    vectors = sum(n["count"] for n in norms.values())
    reg.add("norms.all.count", vectors, integer(vectors),
            computed(WORDS("norms.all.count"), ANCHOR, FORMULAS))
    share = total / sum(ledger.values())
    reg.add("norms.all.share", share, percent(share, 4),
            computed(WORDS("norms.all.share"), ANCHOR, FORMULAS,
                     "course/common/formulas.py"))


def add_weight_decay(reg: Scope, inputs: Inputs) -> None:
    base = inputs.experiments.base
    src = "models/experiments.json (base)"
    reg.add("wd.default_gain", WD_GAIN, fixed(WD_GAIN, 2), computed(WORDS("wd.default"), NUMBERS))
    reg.add("wd.default_steps", WD_STEPS, integer(WD_STEPS), computed(WORDS("wd.default"), NUMBERS))
    k = f.weight_decay_factor(base.lr, base.weight_decay, WD_STEPS)
    reg.add("wd.factor", k, fixed(k, 3), computed("(1 − lr·wd)^steps", src, FORMULAS))
    g = f.standard_gain_after_decay(WD_GAIN, base.lr, base.weight_decay, WD_STEPS)
    reg.add("wd.standard_gain", g, fixed(g, 3), computed("g · (1 − lr·wd)^steps", src, FORMULAS))
    z = f.zero_centered_gain_after_decay(WD_GAIN, base.lr, base.weight_decay, WD_STEPS)
    reg.add("wd.zero_centered_gain", z, fixed(z, 3), computed("1 + w · (1 − lr·wd)^steps", src, FORMULAS))


SIM_SETTINGS = {  # the lesson's walk through the simulator's switches, at its default N and gain
    "residual_only": dict(residual=True, prenorm=False, scale=False),
    "prenorm": dict(residual=True, prenorm=True, scale=False),
    "prenorm_scaled": dict(residual=True, prenorm=True, scale=True),
}


def add_simulator(reg: Scope) -> None:
    """The simulator's read-outs from its Python twin, so the prose quotes exactly what the widget shows."""
    N, gain = SIM.default_layers, SIM.default_gain
    where = WORDS("sim.where", twins=TWINS, seed=SIM.seed, width=SIM.width, tokens=SIM.tokens)
    reg.add("sim.default_layers", N, integer(N), computed(WORDS("sim.default_layers"), where))
    reg.add("sim.default_gain", gain, fixed(gain, 2), computed(WORDS("sim.default_gain"), where))
    for name, kw in SIM_SETTINGS.items():
        r = simulate(N, gain, **kw)
        if name == "residual_only":  # the same x_0 in every setting: where the stream starts
            reg.add("sim.start_stream_rms", r.stream[0], fixed(r.stream[0], 2),
                    computed(WORDS("sim.start_stream_rms"), where))
        at = WORDS("sim.at", n=N, gain=gain, setting=WORDS(f"sim.setting.{name}"))
        reg.add(f"sim.{name}.grad_ratio", r.grad_ratio, fixed(r.grad_ratio, 2),
                computed(WORDS("sim.grad_ratio", at=at), where))
        reg.add(f"sim.{name}.stream_rms", r.stream_rms, fixed(r.stream_rms, 2),
                computed(WORDS("sim.stream_rms", at=at), where))
        reg.add(f"sim.{name}.read_rms", r.read_rms_top, fixed(r.read_rms_top, 2),
                computed(WORDS("sim.read_rms", at=at), where))


# ---------------------------------------------------------------- measured

def op_label(op: str, lang: str) -> str:
    """How a benchmarked op is named on the page and in the figure (the words op.OP), or its name."""
    return WORDS.lang(lang)(f"op.{op}") if WORDS.has(f"op.{op}") else op


FLOAT32_BYTES = 4   # the benchmark's tensors are float32


THREADS = re.compile(r"^(?P<name>.*?),\s*(?P<n>\d+) threads?$")


def device_text(name: str, threads: int | None = None) -> dict[str, str]:
    """A benchmark's device as each language writes it, with the threads it ran on (a CPU kernel's times
    depend on them): 'Intel(R) Xeon(R) Processor' on 2 threads is 'Intel(R) Xeon(R) Processor (2 threads)'
    and 'Intel Xeon 处理器（2 个线程）'. A language's words take the name as the device reports it (`name`) or
    without its trademark marks and with its own word for a processor (`plain`: Chinese prose has no
    half-width (R)). A name that carries its own count ('AMD EPYC, 2 threads') reads the same way."""
    m = THREADS.match(name)
    if m:
        name, threads = m["name"], threads or int(m["n"])
    bare = " ".join(TRADEMARKS.sub("", name).split())
    plain = {lang: re.sub(r"\bProcessor$", WORDS.lang(lang)("device.processor"), bare) for lang in WORDS.languages}
    key = "device" if threads is None else "device.one_thread" if threads == 1 else "device.threads"
    return WORDS(key, name=name, plain=plain, threads=threads)


# What the page, its notes and the lab quote of each op's times: the lab's table every eager op's median and
# IQR, the notes a few quartiles where they compare two ops
BENCH_QUOTED = {
    "layernorm": ("median_ms", "iqr_ms", "q3_ms"),
    "rmsnorm": ("median_ms", "iqr_ms", "q1_ms"),
    "rmsnorm_manual": ("median_ms", "iqr_ms", "q1_ms", "q3_ms"),
    "rmsnorm_zero_centered": ("median_ms", "iqr_ms", "q1_ms", "q3_ms"),
    "rmsnorm_manual_compiled": ("median_ms", "q1_ms", "q3_ms"),
    "rmsnorm_zero_centered_compiled": ("median_ms", "q1_ms"),
}


def add_bench(reg: Scope, device: str, b) -> None:
    p = b.provenance
    prov = Measured(run=f"norm-bench-{device}", device=p.device_name, date=p.date, commit=p.commit)
    k = f"bench.{device}"
    reg.add(f"{k}.device_name", b.device_name, device_text(b.device_name, b.threads), prov)
    reg.add(f"{k}.date", p.date, p.date, prov)
    reg.add(f"{k}.reps", b.reps, integer(b.reps), prov)
    reg.add(f"{k}.warmup", b.warmup, integer(b.warmup), prov)
    reg.add(f"{k}.shape", b.shape, " × ".join(integer(n) for n in b.shape), prov)
    for op, times in BENCH_QUOTED.items():
        if op in b.ops:
            for name in times:
                t = getattr(b.ops[op], name)
                reg.add(f"{k}.{op}.{name}", t, fixed(t, 3), prov, unit="ms")
    if "layernorm" in b.ops and "rmsnorm" in b.ops:
        x = b.ops["rmsnorm"].median_ms / b.ops["layernorm"].median_ms
        reg.add(f"{k}.rmsnorm_over_layernorm", x, fixed(x, 2) + "×", prov)
    # what the bandwidth figures count: tensors of the input's size a norm's forward + backward moves,
    # against a plain copy's (models/bench.py TENSORS_MOVED), read back from the bytes each result records
    tensor_bytes = f.tensor_bytes(b.shape, FLOAT32_BYTES)
    norm_bytes = next(iter(b.ops.values())).bytes_moved
    reg.add(f"{k}.norm_tensors", norm_bytes // tensor_bytes, integer(norm_bytes // tensor_bytes), prov)
    reg.add(f"{k}.copy_tensors", b.plain_copy.bytes_moved // tensor_bytes,
            integer(b.plain_copy.bytes_moved // tensor_bytes), prov)
    ratio = norm_bytes / b.plain_copy.bytes_moved
    reg.add(f"{k}.bytes_over_copy", ratio, significant(ratio, 2) + "×", prov)


# The comparisons the reading notes rest on: (key, run a, run b, metric, the statistics quoted here, and on the
# other CPU), a minus b seed by seed.
MIN_MAX = ("min", "max")
# with the mean too, so that a check can find the middle of three seeds (3 × mean − min − max)
MEAN_MIN_MAX = ("mean", "min", "max")
COMPARISONS = [
    ("ln_vs_rms", "c4_layernorm", BASELINE, "final_val_loss", MEAN_MIN_MAX, MEAN_MIN_MAX),
    ("ln_vs_rms_lr1e-3", "c4_layernorm_lr1e-3", "c4_baseline_lr1e-3", "final_val_loss", MIN_MAX, MIN_MAX),
    ("rms_lr1e-3_vs_3e-3", "c4_baseline_lr1e-3", BASELINE, "final_val_loss", MIN_MAX, ("max",)),
    ("ln_lr1e-3_vs_3e-3", "c4_layernorm_lr1e-3", "c4_layernorm", "final_val_loss", MIN_MAX, ("max",)),
    ("postln_warmup_vs_preln_lr1e-3", "c8_postln_lr1e-3_warmup100", "c4_baseline_lr1e-3", "final_val_loss",
     ("min", "range"), ()),
    ("postln_warmup_vs_nowarmup", "c8_postln_lr1e-3_warmup100", "c8_postln_lr1e-3_nowarmup", "final_val_loss", MIN_MAX, ()),
    ("rms_decay_vs_baseline", "c4_rms_decay_gains", BASELINE, "final_val_loss", ("mean", "min", "max"), MIN_MAX),
    ("zc_decay_vs_baseline", "c4_zc_decay_gains", BASELINE, "final_val_loss", MEAN_MIN_MAX, MEAN_MIN_MAX),
]
DECAY_RUNS = (BASELINE, "c4_rms_decay_gains", "c4_zc_decay_gains")
# what the notes quote of each: run → (the mean gain's statistics over seeds, those of its shift from 1)
GAINS_QUOTED = {BASELINE: (("mean",), ("max",)),
                "c4_rms_decay_gains": (("mean", "range"), ("mean", "min", "range")),
                "c4_zc_decay_gains": (("mean", "range"), ("max", "range"))}


def other_cpu_provenance(other, what: dict[str, str], runs) -> Measured:
    """A number computed from the other CPU's final losses (data/cross-machine.json): `what` it is, in each
    language; `runs` are this machine's runs of the same name, whose newest date it carries."""
    return Measured(run=WORDS("other_cpu.run", what=what, cpu=other.cpu, commit=other.source_commit),
                    told=WORDS("other_cpu.told", what=what, cpu=other.cpu),
                    device=other.cpu, date=max(r.provenance.date for r in runs), commit=other.source_commit)


def add_other_cpu(reg: Scope, inputs: Inputs, pairs: list[tuple[str, str, str, tuple[str, ...]]]) -> None:
    """other_cpu.compare.KEY.diff(.min/.max/.range): the same paired final-loss differences, a − b seed by
    seed, for the same runs, seeds and code trained on another CPU (data/cross-machine.json), so that a note
    can say what held on both machines and its check can test it there too; `pairs`: (key, run a, run b, the
    statistics quoted)."""
    other, results = inputs.cross_machine, inputs.results
    for key, a, b, stats in pairs:
        la, lb = other.final_val_loss.get(a, {}), other.final_val_loss.get(b, {})
        seeds = sorted(set(la) & set(lb))
        if not seeds or a not in results.runs:
            continue
        diffs = [la[s] - lb[s] if la[s] is not None and lb[s] is not None else "undefined" for s in seeds]
        prov = other_cpu_provenance(other, WORDS("other_cpu.compare", a=a, b=b),
                                    results.runs[a])
        spread_keys(reg, f"other_cpu.compare.{key}.diff", diffs, lambda x: fixed(x, 3), prov, *stats)


OTHER_CPU_PAIRS = [(f"{k}.{m}", a, b, there) for k, a, b, m, _, there in COMPARISONS if m == "final_val_loss" and there]


def tiny(x: float) -> str:
    """A ratio far below 1, in a form that keeps its size: 2.3e−7, not 0.00."""
    return scientific(float(f"{x:.2g}"))


def mean_gain(result) -> float:
    """The effective gain (g, or 1 + w) averaged over every norm of one seed's model at the end."""
    return sum(g.mean for g in result.end.gains) / len(result.end.gains)


def add_gains(reg: Scope, results: Results) -> None:
    """The norm gains at the end of the weight-decay runs: over every norm of the model, the mean of the
    effective gain (g, or 1 + w) and how far it moved from the gain every run starts at (1), with their
    spread over seeds as the notes quote them (GAINS_QUOTED). Then what decay alone would have done."""
    for run, (mean_stats, shift_stats) in GAINS_QUOTED.items():
        if run not in results.runs:
            continue
        runs = results.runs[run]
        prov = provenance(runs, WORDS("gains.provenance", run=run))
        spread_keys(reg, f"gains.{run}.mean", [mean_gain(r) for r in runs], lambda x: fixed(x, 3), prov, *mean_stats)
        shifts = [1 - mean_gain(r) for r in runs]
        spread_keys(reg, f"gains.{run}.shift", shifts, lambda x: fixed(x, 3), prov, *shift_stats)
        if run == BASELINE:
            # the seeds' range as a page shows it: one value where the lowest and highest agree when shown
            lo, hi = fixed(min(shifts), 3), fixed(max(shifts), 3)
            reg.add(f"gains.{run}.shift.shown", [min(shifts), max(shifts)], lo if lo == hi else f"{lo}–{hi}", prov)
    run = "c4_rms_decay_gains"
    if run in results.runs:
        r = results.runs[run][0]   # every seed follows the same schedule
        k = f.decay_over_schedule(r.curves.lr, r.config.weight_decay)
        reg.add("gains.decay_alone", k, fixed(k, 3),
                Computed(formula=WORDS("gains.decay_alone"),
                         sources=[f"data/results/{run}/ (curves.lr)", "models/experiments.json", FORMULAS]))
        reg.add("gains.decay_alone_shift", 1 - k, fixed(1 - k, 3),
                Computed(formula=WORDS("gains.decay_alone_shift"),
                         sources=[f"data/results/{run}/ (curves.lr)", "models/experiments.json", FORMULAS]))


def add_init_scale(reg: Scope, results: Results) -> None:
    """What sets the gradient ratio of Post-LN to Pre-Norm at initialization: the scale of the stream.

    Our init draws the embeddings with std init_std (0.02) and does not multiply them by √d, so the stream
    starts at an RMS of about 0.028 (x_0), and Pre-Norm's stays near it through every block at init. A norm's
    output does not change when its input is multiplied by α, so its backward pass divides by α: the
    gradient Pre-Norm's blocks receive through their norms is about 1/RMS of the stream larger than with a
    stream of RMS 1, which is what Post-LN's stream has after its first norm. The keys: the stream's RMS
    at init (x_0, and every layer of Pre-Norm), the gradient ratio over the stream's RMS seed by seed, and the
    total gradient norm of the first update, which the ablation chart draws."""
    if BASELINE not in results.runs or "c4_postln" not in results.runs:
        return
    pre, post = results.runs[BASELINE], results.runs["c4_postln"]
    if [r.config.seed for r in pre] != [r.config.seed for r in post]:
        return
    spread_keys(reg, "init.embedding_rms", [r.init.stream_rms[0] for r in pre], lambda x: fixed(x, 3),
                provenance(pre, WORDS("init.embedding_rms", baseline=BASELINE)), "mean")
    every = [v for r in pre for v in r.init.stream_rms]
    prov = provenance(pre, WORDS("init.stream_rms", baseline=BASELINE))
    lo, hi = min(every), max(every)
    reg.add("init.preln_stream_rms.range", [lo, hi], f"{fixed(lo, 3)}–{fixed(hi, 3)}", prov)
    # the final norm reads the top of Pre-Norm's stream, so the ratio is taken against the RMS there
    # four decimals: the seeds agree to three (0.031–0.031 would read as no spread at all)
    spread_keys(reg, "init.preln_stream_rms_top", [r.init.stream_rms[-1] for r in pre], lambda x: fixed(x, 4),
                provenance(pre, WORDS("init.preln_stream_rms_top", baseline=BASELINE)), "range")
    over = [(sum(a.init.block_grad_norm) / sum(b.init.block_grad_norm)) / b.init.stream_rms[-1]
            for a, b in zip(post, pre)]
    spread_keys(reg, "compare.init_grads_over_stream_rms", over, lambda x: fixed(x, 2),
                provenance(post, WORDS("compare.init_grads_over_stream_rms", baseline=BASELINE)), "min", "max")
    for run, rs in ((BASELINE, pre), ("c4_postln", post)):
        spread_keys(reg, f"grad_norm.step1.{run}", [r.curves.grad_norm[0] for r in rs], lambda x: fixed(x, 2),
                    provenance(rs, WORDS("grad_norm.step1", run=run)), "range")


def add_measured(reg: Scope, results: Results) -> None:
    add_margins(reg, "loss", "loss_pair", "other")
    for key, a, b, metric, stats, _ in COMPARISONS:
        # only runs with the same seeds pair up; while some seeds are missing, a note that needs the
        # comparison fails by name (unknown key) instead of comparing different seeds
        if a in results.runs and b in results.runs and results.seeds(a) == results.seeds(b):
            compare(reg, f"compare.{key}.{metric}", results, a, b, metric, *stats)
    if "c4_postln" in results.runs and BASELINE in results.runs and results.seeds("c4_postln") == results.seeds(BASELINE):
        post, pre = results.runs["c4_postln"], results.runs[BASELINE]
        ratios = [sum(a.init.block_grad_norm) / sum(b.init.block_grad_norm) for a, b in zip(post, pre)]
        spread_keys(reg, "compare.postln_over_preln_init_grads", ratios, lambda x: significant(x, 2),
                    provenance(post, WORDS("compare.postln_over_preln_init_grads", baseline=BASELINE)), "mean", "max", "range")
        # the bottom block's gradient over the top block's at the end: Post-LN's is far below 1
        for name, runs, text, stats in (("postln", post, tiny, ("max", "range")),
                                        ("baseline", pre, lambda x: significant(x, 2), ("min", "range"))):
            ends = [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in runs]
            spread_keys(reg, f"{name}.end_grad_ratio", ends, text, provenance(runs, WORDS("end_grad_ratio", run=runs[0].run)),
                        *stats)
    add_init_scale(reg, results)
    # how far above the unigram loss the stalled Post-LN runs end (their below_unigram is negative)
    for run in ("c4_postln", "c4_postln_nowarmup_lr1e-2"):
        if run in results.runs:
            rs = results.runs[run]
            spread_keys(reg, f"above_unigram.{run}", [r.metrics.final_val_loss - r.corpus.unigram_floor for r in rs],
                        lambda x: fixed(x, 3), provenance(rs, WORDS("above_unigram", run=run)), "min", "max", "range")
    reg.add("left_unigram_margin", LEFT_UNIGRAM_MARGIN, fixed(LEFT_UNIGRAM_MARGIN, 2),
            Computed(formula=WORDS("left_unigram_margin"), sources=["course/common/measured.py"]))
    # Post-LN at lr 1e-3 without warmup, and with C8 Lesson 2's shortest warmup: how many seeds leave the
    # unigram baseline at all
    for run in ("c8_postln_lr1e-3_nowarmup", "c8_postln_lr1e-3_warmup25"):
        if run in results.runs:
            runs = results.runs[run]
            left = sum(left_unigram_step(r) != NEVER for r in runs)
            reg.add(f"seeds_leaving_unigram.{run}", left, integer(left),
                    provenance(runs, WORDS("seeds_leaving_unigram", run=run, left_unigram_margin=LEFT_UNIGRAM_MARGIN)))
    add_postln_flat_from(reg, results)
    add_longer_run(reg, results)
    add_gains(reg, results)
    for device, b in results.benches.items():
        add_bench(reg, device, b)


def add_postln_flat_from(reg: Scope, results: Results) -> None:
    """postln.flat_from_step: the first validation step from which every seed of both stalled Post-LN runs
    (lr 3e-3 with warmup, lr 1e-2 without) stays within LEFT_UNIGRAM_MARGIN of the unigram loss, above or
    below, at every later step the chart shows. Before it the curves are still coming down to the line."""
    runs = [r for name in ("c4_postln", "c4_postln_nowarmup_lr1e-2") for r in results.runs.get(name, [])]
    if not runs:
        return
    steps = runs[0].val.step
    if any(list(r.val.step) != list(steps) for r in runs):
        return

    def near(r, i):
        v = r.val.loss[i]
        return v is not None and abs(v - r.corpus.unigram_floor) < LEFT_UNIGRAM_MARGIN
    first = next((i for i in range(len(steps)) if all(near(r, j) for r in runs for j in range(i, len(steps)))),
                 None)
    if first is None:
        return
    reg.add("postln.flat_from_step", steps[first], integer(steps[first]),
            provenance(runs, WORDS("postln.flat_from_step", left_unigram_margin=LEFT_UNIGRAM_MARGIN)))


def add_longer_run(reg: Scope, results: Results) -> None:
    """The longer run of Post-LN at lr 1e-3 without warmup (models/experiments.json): the same run continued
    past its last step at a tenth of the peak rate. How many of its seeds are trained (longer.seeds), how many
    leave the unigram loss by its end (longer.left), how many of those stayed within the line in the run of the
    usual length (longer.late.seeds), and the steps at which those leave (longer.late.left_step.range)."""
    short, long = "c8_postln_lr1e-3_nowarmup", "c8_postln_lr1e-3_nowarmup_to1200"
    if short not in results.runs or long not in results.runs:
        return
    rs = results.runs[long]
    stayed = {r.config.seed for r in results.runs[short] if left_unigram_step(r) == NEVER}
    prov = provenance(rs, WORDS("longer", run=long, short=short))
    left = [r for r in rs if left_unigram_step(r) != NEVER]
    late = [left_unigram_step(r) for r in left if r.config.seed in stayed]
    reg.add("longer.seeds", len(rs), integer(len(rs)), prov)
    reg.add("longer.left", len(left), integer(len(left)), prov)
    reg.add("longer.late.seeds", len(late), integer(len(late)), prov)
    reg.add("longer.steps", rs[0].config.max_steps, integer(rs[0].config.max_steps), prov)
    if late:
        spread_keys(reg, "longer.late.left_step", late, integer, prov, "min", "max", "range")


# Section 6 of the notebook sets its tiny runs against the lesson's own 4-layer model: Post-LN in the run of it
# that learns (a warmup at lr 1e-3), and Pre-Norm at the same rate, both probed update by update over their
# first updates (their `trace`, training-batch gradients) and once at the end (the end probe).
POSTLN_LEARNS, PRELN_TRACED = "c8_postln_lr1e-3_warmup100", "c8_preln_lr1e-3_nowarmup"
# the same Post-LN model without a warmup, and the end ratio under which a seed counts as still collapsed
POSTLN_NOWARMUP, STAYS_COLLAPSED = "c8_postln_lr1e-3_nowarmup", 0.1


def bottom_over_top(grads: list) -> float | None:
    return grads[0] / grads[-1] if grads[0] is not None and grads[-1] else None


def ratio_after(r, n: int) -> float | None:
    """The bottom-over-top ratio after n updates in a run's trace: trace.block_grad_norm[k] is logged after
    backward() for update k + 1, on the weights k updates have made (models/train.py, UpdateTrace)."""
    g = r.trace.block_grad_norm
    return bottom_over_top(g[n]) if n < len(g) else None


def add_lab_lengths(reg: Scope) -> None:
    """lab.shortest / lab.tiny_steps / lab.longest: the notebook's run lengths (lab.LENGTHS), as its prose
    names them."""
    from lessons.c4_normalization.lab import LENGTHS, TINY_STEPS
    src = Computed(formula="lab.LENGTHS", sources=[f"{HERE}/lab.py"])
    for name, n in (("shortest", LENGTHS[0]), ("tiny_steps", TINY_STEPS), ("longest", LENGTHS[-1])):
        reg.add(f"lab.{name}", n, integer(n), src)


def add_trace_ratios(reg: Scope, results: Results) -> None:
    """postln_learns.*: in the Post-LN run that learns, the lowest bottom-over-top block-gradient ratio of each
    seed's trace (the early collapse), after how many updates it comes, the ratio after as many updates as each
    of the notebook's runs makes (not collapsed yet), at the end of the run, and what the norms read on the way
    (first_updates, in the seeds that record it).
    postln_nowarmup.*: the same model without a warmup: the ratio after the notebook's middle length, and the
    seeds that stay collapsed (end ratio under a tenth) with their end ratios.
    preln_trace.*: in Pre-Norm at the same rate, the ratio from the shortest length to the middle one, after the
    longest, the first update after which a single batch's ratio exceeds 1 (after the first two), and at the end."""
    from lessons.c4_normalization.lab import LENGTHS, TINY_STEPS
    if POSTLN_LEARNS in results.runs and all(r.trace for r in results.runs[POSTLN_LEARNS]):
        rs = results.runs[POSTLN_LEARNS]
        prov = provenance(rs, WORDS("trace_grad_ratio", run=POSTLN_LEARNS))
        per_seed = [[bottom_over_top(g) for g in r.trace.block_grad_norm] for r in rs]
        lows = [min(x for x in xs if x is not None) for xs in per_seed]
        spread_keys(reg, "postln_learns.trace_low", lows, lambda x: significant(x, 2), prov, "max", "range")
        low_at = [xs.index(lo) for xs, lo in zip(per_seed, lows)]
        spread_keys(reg, "postln_learns.trace_low_after", low_at, integer, prov, "min", "range")
        at = [ratio_after(r, n) for r in rs for n in LENGTHS]
        if None not in at:
            spread_keys(reg, "postln_learns.at_lab_lengths", at, lambda x: significant(x, 2), prov, "min", "range")
        ends = [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in rs]
        spread_keys(reg, "postln_learns.end_grad_ratio", ends, lambda x: significant(x, 3),
                    provenance(rs, WORDS("end_grad_ratio", run=POSTLN_LEARNS)), "min", "range")
        # what the norms above the lowest block read (each block's first norm, the one after attention), at
        # initialization, at the update of the trace's low, and at the last update probed
        probed = [(r, lo) for r, lo in zip(rs, low_at) if r.first_updates and lo in r.first_updates.step]
        if probed:
            fu_prov = provenance([r for r, _ in probed], WORDS("norm_read", run=POSTLN_LEARNS))
            reg.add("postln_learns.norm_read.seeds", [r.config.seed for r, _ in probed],
                    "/".join(str(r.config.seed) for r, _ in probed), fu_prov)

            def read(r, step):
                u = r.first_updates
                return [v for name, v in zip(u.norms, u.norm_input_rms[u.step.index(step)])
                        if name.endswith("norm_1") and not name.startswith("blocks.0.")]
            def last_step(r):  # the last update both the probe and the trace record
                return max(s for s in r.first_updates.step if s < len(r.trace.block_grad_norm))
            for key, step_of in (("start", lambda r, lo: r.first_updates.step[0]), ("at_low", lambda r, lo: lo),
                                 ("last", lambda r, lo: last_step(r))):
                values = [v for r, lo in probed for v in read(r, step_of(r, lo))]
                spread_keys(reg, f"postln_learns.norm_read.{key}", values, lambda x: fixed(x, 2), fu_prov, "range")
            last = [last_step(r) for r, _ in probed]
            spread_keys(reg, "postln_learns.norm_read.last_step", last, integer, fu_prov, "range")
    if POSTLN_NOWARMUP in results.runs and all(r.trace for r in results.runs[POSTLN_NOWARMUP]):
        rs = results.runs[POSTLN_NOWARMUP]
        prov = provenance(rs, WORDS("trace_grad_ratio", run=POSTLN_NOWARMUP))
        at = [ratio_after(r, TINY_STEPS) for r in rs]
        if None not in at:
            spread_keys(reg, "postln_nowarmup.at_tiny_steps", at, lambda x: significant(x, 2), prov, "range")
        ends = [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in rs]
        end_prov = provenance(rs, WORDS("end_grad_ratio", run=POSTLN_NOWARMUP))
        stuck = [e for e in ends if e < STAYS_COLLAPSED]
        reg.add("postln_nowarmup.stays_collapsed", len(stuck), integer(len(stuck)), end_prov)
        reg.add("postln_nowarmup.seeds", len(ends), integer(len(ends)), end_prov)
        if stuck:
            spread_keys(reg, "postln_nowarmup.stays_collapsed.end", stuck, lambda x: significant(x, 2), end_prov,
                        "range")
    if PRELN_TRACED in results.runs and all(r.trace for r in results.runs[PRELN_TRACED]):
        rs = results.runs[PRELN_TRACED]
        prov = provenance(rs, WORDS("trace_grad_ratio", run=PRELN_TRACED))
        at = [ratio_after(r, n) for r in rs for n in LENGTHS]
        if None not in at:
            spread_keys(reg, "preln_trace.at_lab_lengths", at, lambda x: significant(x, 2), prov, "max", "range")
        early = [ratio_after(r, n) for r in rs for n in range(LENGTHS[0], TINY_STEPS + 1)]
        if None not in early:
            spread_keys(reg, "preln_trace.short_to_tiny", early, lambda x: significant(x, 2), prov, "max", "range")
        longest = [ratio_after(r, LENGTHS[-1]) for r in rs]
        if None not in longest:
            spread_keys(reg, "preln_trace.at_longest", longest, lambda x: significant(x, 2), prov, "range")
        # the first single batch whose ratio exceeds 1, after the first updates (at initialization it is about 1)
        spikes = [next((n for n in range(LENGTHS[0], len(r.trace.block_grad_norm)) if ratio_after(r, n) > 1),
                       "never") for r in rs]
        spread_keys(reg, "preln_trace.first_above_one", spikes, integer, prov, "range")
        ends = [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in rs]
        spread_keys(reg, "preln_trace.end_grad_ratio", ends, lambda x: significant(x, 2),
                    provenance(rs, WORDS("end_grad_ratio", run=PRELN_TRACED)), "min", "range")


def add_lab_bench(reg: Scope, results: Results) -> None:
    """lab_bench.*: what section 7 of the notebook shows beside the committed medians. The ratio F.rms_norm ÷
    F.layer_norm read from the quartiles (lower over upper and upper over lower: how far the spreads let it
    move), the plain copy timed in the same run, and the minimums of F.rms_norm and the hand-written RMSNorm."""
    b = results.benches.get("cpu")
    if b is None or not {"layernorm", "rmsnorm", "rmsnorm_manual"} <= set(b.ops):
        return
    p = b.provenance
    prov = Measured(run="norm-bench-cpu", device=p.device_name, date=p.date, commit=p.commit)
    ln, rms, manual = b.ops["layernorm"], b.ops["rmsnorm"], b.ops["rmsnorm_manual"]
    lo, hi = rms.q1_ms / ln.q3_ms, rms.q3_ms / ln.q1_ms
    reg.add("lab_bench.rmsnorm_over_layernorm.quartiles", [lo, hi],
            range_text(fixed(lo, 1) + "×", fixed(hi, 1) + "×"), prov)
    for name, t in (("copy", b.plain_copy), ("rmsnorm", rms), ("rmsnorm_manual", manual)):
        reg.add(f"lab_bench.{name}.min_ms", t.min_ms, fixed(t.min_ms, 2), prov, unit="ms")
    reg.add("lab_bench.copy.median_ms", b.plain_copy.median_ms, fixed(b.plain_copy.median_ms, 3), prov, unit="ms")
    reg.add("lab_bench.copy.iqr_ms", b.plain_copy.iqr_ms, fixed(b.plain_copy.iqr_ms, 3), prov, unit="ms")


def add_decay_low_seed(reg: Scope, inputs: Inputs) -> None:
    """decay.low.*: the seed in which decay on plain gains ends furthest below the baseline (the most negative
    paired difference), with both final losses, the difference, the same seed's difference on the other CPU
    and its top-of-stream RMS at the end; decay.others.end_top_rms: that RMS over every other seed of the
    baseline and the two decay runs; decay.baseline_spread: the baseline's own spread of final losses."""
    results, other = inputs.results, inputs.cross_machine
    plain, zc = "c4_rms_decay_gains", "c4_zc_decay_gains"
    if not all(r in results.runs for r in (BASELINE, plain, zc)) or results.seeds(plain) != results.seeds(BASELINE):
        return
    base = {r.config.seed: r for r in results.runs[BASELINE]}
    low = min(results.runs[plain], key=lambda r: r.metrics.final_val_loss - base[r.config.seed].metrics.final_val_loss)
    seed, b = low.config.seed, base[low.config.seed]
    prov = provenance([low, b], WORDS("decay.low", run=plain, baseline=BASELINE))
    reg.add("decay.low.seed", seed, str(seed), prov)
    reg.add("decay.low.final", low.metrics.final_val_loss, fixed(low.metrics.final_val_loss, 3), prov)
    reg.add("decay.low.baseline_final", b.metrics.final_val_loss, fixed(b.metrics.final_val_loss, 3), prov)
    diff = low.metrics.final_val_loss - b.metrics.final_val_loss
    reg.add("decay.low.diff", diff, fixed(diff, 3), prov)
    reg.add("decay.low.end_top_rms", low.end.stream_rms[-1], fixed(low.end.stream_rms[-1], 2), prov)
    there_p, there_b = other.final_val_loss.get(plain, {}).get(str(seed)), other.final_val_loss.get(BASELINE, {}).get(str(seed))
    if there_p is not None and there_b is not None:
        reg.add("other_cpu.decay.low.diff", there_p - there_b, fixed(there_p - there_b, 3),
                other_cpu_provenance(other, WORDS("decay.low.there", run=plain, baseline=BASELINE), [low]))
    rest = [r for run in (BASELINE, plain, zc) for r in results.runs[run] if r is not low]
    spread_keys(reg, "decay.others.end_top_rms", [r.end.stream_rms[-1] for r in rest], lambda x: fixed(x, 2),
                provenance(rest, WORDS("decay.others", run=plain, zc=zc, baseline=BASELINE)), "min", "range")
    finals = [r.metrics.final_val_loss for r in results.runs[BASELINE]]
    reg.add("decay.baseline_spread", max(finals) - min(finals), fixed(max(finals) - min(finals), 3),
            provenance(results.runs[BASELINE], WORDS("decay.baseline_spread", baseline=BASELINE)))


def add_other_cpu_distinct(reg: Scope, inputs: Inputs, runs) -> None:
    """other_cpu.distinct.RUN: 1 when no seed of RUN here was trained on the CPU that data/cross-machine.json
    records, else 0. A note that says what held "on the other CPU" tests it, so that its check cannot pass by
    comparing a seed's result with itself (a seed trained here on that CPU has a drift of 0 by construction)."""
    other, results = inputs.cross_machine, inputs.results
    for run in runs:
        if run not in results.runs:
            continue
        rs = results.runs[run]
        distinct = int(all(cpu_maker(r.provenance.cpu) != cpu_maker(other.cpu) for r in rs))
        reg.add(f"other_cpu.distinct.{run}", distinct, str(distinct),
                other_cpu_provenance(other, WORDS("other_cpu.distinct", run=run), rs))


# the runs whose other-CPU records a note quotes
OTHER_CPU_RUNS = sorted({r for _, a, b, _, _, there in COMPARISONS if there for r in (a, b)}
                        | {"c8_postln_lr1e-3_nowarmup"})


def add_stalled_below_unigram(reg: Scope, inputs: Inputs) -> None:
    """Post-LN at lr 1e-3 without warmup: of the seeds that end within the margin of the unigram loss on both
    CPUs (here and data/cross-machine.json), how far below the unigram loss the lowest of their finals ends,
    on either CPU (positive: below it). It says whether a seed that stays was already on its way out at the
    run's last step."""
    run, other, results = "c8_postln_lr1e-3_nowarmup", inputs.cross_machine, inputs.results
    there = other.final_val_loss.get(run, {})
    if run not in results.runs or not there:
        return
    rs = results.runs[run]
    floor = rs[0].corpus.unigram_floor
    finals = {str(r.config.seed): [r.metrics.final_val_loss] for r in rs}
    for s, v in there.items():
        if s in finals and v is not None:
            finals[s].append(v)
    stayed = [vs for vs in finals.values() if all(v >= floor - LEFT_UNIGRAM_MARGIN for v in vs)]
    if not stayed:
        return
    below = max(floor - v for vs in stayed for v in vs)
    reg.add(f"stalled_below_unigram.{run}", below, fixed(below, 3),
            other_cpu_provenance(other, WORDS("stalled_below_unigram", run=run,
                                              left_unigram_margin=LEFT_UNIGRAM_MARGIN), rs))


def add_other_cpu_split(reg: Scope, inputs: Inputs) -> None:
    """Post-LN at lr 1e-3 without warmup on the other CPU: how many seeds end more than the margin below the
    unigram loss there (only final losses are kept of that CPU's runs), and whether they are the same seeds as
    here (1 if the seeds that end below it here and there are the same, else 0)."""
    run, other, results = "c8_postln_lr1e-3_nowarmup", inputs.cross_machine, inputs.results
    there = other.final_val_loss.get(run, {})
    if run not in results.runs or not there:
        return
    rs = results.runs[run]
    floor = rs[0].corpus.unigram_floor
    below_there = {s for s, v in there.items() if v is not None and v < floor - LEFT_UNIGRAM_MARGIN}
    below_here = {str(r.config.seed) for r in rs if r.metrics.final_val_loss < floor - LEFT_UNIGRAM_MARGIN}
    prov = other_cpu_provenance(other, WORDS("other_cpu.ending_below_unigram", run=run,
                                             left_unigram_margin=LEFT_UNIGRAM_MARGIN), rs)
    reg.add(f"other_cpu.seeds_ending_below_unigram.{run}", len(below_there), integer(len(below_there)), prov)
    reg.add(f"other_cpu.same_seeds_below_unigram.{run}", int(below_there == below_here),
            str(int(below_there == below_here)), prov)


def add_v4_attention(reg: Scope, inputs: Inputs) -> None:
    """DeepSeek-V4-Flash's attention as step 5 describes it: its KV heads and head_dim (the width of the KV
    entries its kv_norm normalizes), from its config."""
    m = inputs.frontier.by_name("DeepSeek-V4-Flash")
    src = f"{FRONTIER} (DeepSeek-V4-Flash)"
    reg.add("v4.kv_heads", m.num_kv_heads, integer(m.num_kv_heads), Computed(formula="num_key_value_heads", sources=[src]))
    reg.add("v4.head_dim", m.head_dim, integer(m.head_dim), Computed(formula="head_dim", sources=[src]))


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_worked_examples(reg)
    add_anchor_norms(reg, inputs)
    add_weight_decay(reg, inputs)
    add_simulator(reg)
    add_measured(reg, inputs.results)
    add_trace_ratios(reg, inputs.results)
    add_lab_lengths(reg)
    add_lab_bench(reg, inputs.results)
    add_other_cpu(reg, inputs, OTHER_CPU_PAIRS)
    add_decay_low_seed(reg, inputs)
    add_other_cpu_split(reg, inputs)
    add_other_cpu_distinct(reg, inputs, OTHER_CPU_RUNS)
    add_stalled_below_unigram(reg, inputs)
    add_v4_attention(reg, inputs)
