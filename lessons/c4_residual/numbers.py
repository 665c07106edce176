"""The residual lesson's numbers, all under `residual.` in the registry.

The anchor's one stream and its writes, the unrolled view's path counts (for the widget, the anchor and
Veit et al.'s network), the stream's growth against √(n + 1), the chapter simulator's read-outs in this
lesson's mode (from its Python twin), the wider streams of DeepSeek-V4 and Kimi K3 (from their configs),
and the seed-by-seed comparisons the reading notes rest on.
"""
from __future__ import annotations

from course.common import formulas as chapter
from course.common.measured import BASELINE, Results, add_margins, add_pair_drift, compare, provenance, spread_keys
from course.common.numbers import EXPERIMENTS, anchor_source, frontier_source
from course.common.schema import Inputs
from course.common.twins import SIM, simulate
from course.core.formats import fixed, integer, percent, scientific, significant
from course.core.registry import Computed, Scope
from lessons.c4_residual import formulas as f
from lessons.c4_residual import twins

HERE = "lessons/c4_residual"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = "course/common/twins.py"
CITATIONS = "data/citations.json"


def computed(formula: "str | dict[str, str]", *sources: str) -> Computed:
    return Computed(formula=formula, sources=list(sources) or [FORMULAS])


def power_of_ten(x: int) -> str:
    """2^128 as '3.4 × 10³⁸': a count too large for its digits to mean anything on a page."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa} × 10" + str(int(exponent)).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))


# ---------------------------------------------------------------- the anchor's stream


def add_anchor(reg: Scope, inputs: Inputs) -> None:
    t = inputs.anchor.config.text_config
    per_layer = chapter.residual_writes(1)
    reg.add("anchor.sublayers_per_layer", per_layer, integer(per_layer),
            computed({"zh": "residual_writes(1)：每层注意力和 FFN 各加一次", "en": "residual_writes(1): attention and FFN each add once per layer"}, "course/common/formulas.py"))
    concat = (chapter.residual_writes(t.num_hidden_layers) + 1) * t.hidden_size
    reg.add("anchor.concat_width", concat, integer(concat),
            computed({"zh": "(2 × num_hidden_layers + 1) × hidden_size：x_0 和每次写入并排放", "en": "(2 × num_hidden_layers + 1) × hidden_size: x_0 and every write side by side"},
                     anchor_source("hidden_size")))
    w = f.width_per_write(t.hidden_size, chapter.residual_writes(t.num_hidden_layers))
    reg.add("anchor.width_per_write", w, fixed(w, 0),
            computed("hidden_size / (2 × num_hidden_layers)", anchor_source("hidden_size"), FORMULAS))


# ---------------------------------------------------------------- the unrolled view

# The paths widget: a stack small enough to list every path (2^5 = 32 rows at most).
PATHS_DEFAULT, PATHS_MAX = 3, 5


def add_paths(reg: Scope, inputs: Inputs) -> None:
    widget = {"zh": "路径小工具的设置", "en": "the paths widget's setting"}
    reg.add("paths.default_blocks", PATHS_DEFAULT, integer(PATHS_DEFAULT), computed(widget, NUMBERS))
    reg.add("paths.max_blocks", PATHS_MAX, integer(PATHS_MAX), computed(widget, NUMBERS))
    n = f.path_count(PATHS_DEFAULT)
    reg.add("paths.default_count", n, integer(n), computed({"zh": "2^N：小工具默认的 N 个子层", "en": "2^N at the widget's default N sublayers"}))
    k = f.paths_skipping(PATHS_DEFAULT, 1)
    reg.add("paths.default_skipping_one", k, integer(k), computed({"zh": "2^(N − 1)：绕开选中的一个子层的路径", "en": "2^(N − 1): paths around one chosen sublayer"}))

    # the anchor: every sublayer is one residual branch
    writes = chapter.residual_writes(inputs.anchor.config.text_config.num_hidden_layers)
    src = anchor_source("num_hidden_layers")
    count = f.path_count(writes)
    reg.add("paths.anchor", count, power_of_ten(count), computed("2^(2 × num_hidden_layers)", src, FORMULAS))
    reg.add("paths.anchor.mean_length", writes / 2, fixed(writes / 2, 0),
            computed({"zh": "N / 2，N = 2 × num_hidden_layers：二项分布路径长度的均值", "en": "N / 2 with N = 2 × num_hidden_layers: the mean of the binomial path lengths"}, src, FORMULAS))
    lo, hi = f.central_lengths(writes, 0.95)
    share = f.share_of_paths_between(writes, lo, hi)
    where = computed({"zh": "central_lengths(2 × num_hidden_layers, 0.95)：N/2 附近至少包含 95% 路径的最窄范围", "en": "central_lengths(2 × num_hidden_layers, 0.95): the narrowest range around N/2 holding at least 95% of the paths"}, src, FORMULAS)
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
                computed({"zh": f"2^{m} 条路径里经过 {lo} 到 {hi} 个模块的比例（二项分布）", "en": f"share of the 2^{m} paths that pass through {lo} to {hi} modules (binomial)"},
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


def sim_words(gain: float, residual: bool, prenorm: bool, scale: bool) -> str:
    return (f"N = {SIM.default_layers}, gain = {gain}, residual {'on' if residual else 'off'}, "
            f"pre-RMSNorm {'on' if prenorm else 'off'}, write-back × 1/√N {'on' if scale else 'off'}")


def sim_words_zh(gain: float, residual: bool, prenorm: bool, scale: bool) -> str:
    on = lambda x: "开" if x else "关"   # noqa: E731
    return (f"N = {SIM.default_layers}，增益 = {gain}，残差{on(residual)}，子层入口 RMSNorm {on(prenorm)}，"
            f"写回 × 1/√N {on(scale)}")


WHEN_ZH = {"init": "初始化时", "end": "训练结束时"}


def add_simulator(reg: Scope) -> None:
    """The simulator's read-outs from its Python twin, so the prose quotes exactly what the widget shows
    (the widget prints two decimals; a ratio too small for them also gets its scientific form)."""
    where = {"zh": f"{TWINS}（simulate，种子 {SIM.seed}，d = {SIM.width}，T = {SIM.tokens}）",
             "en": f"{TWINS} (simulate, seed {SIM.seed}, d = {SIM.width}, T = {SIM.tokens})"}
    reg.add("sim.default_layers", SIM.default_layers, integer(SIM.default_layers),
            computed({"zh": "模拟器默认的 N", "en": "the simulator's default N"}, where))
    reg.add("sim.width", SIM.width, integer(SIM.width), computed({"zh": "d：模拟器里残差流和每个子层的宽度", "en": "d: the width of the simulator's stream and of each sublayer"}, where))
    reg.add("sim.max_layers", SIM.layers_max, integer(SIM.layers_max), computed({"zh": "模拟器最大的 N", "en": "the simulator's largest N"}, where))
    reg.add("sim.default_gain", SIM.default_gain, fixed(SIM.default_gain, 2),
            computed({"zh": "模拟器默认的初始化增益", "en": "the simulator's default init gain"}, where))
    reg.add("sim.low_gain", LOW_GAIN, fixed(LOW_GAIN, 2), computed({"zh": "低于默认值的一个增益", "en": "a gain below the default"}, NUMBERS))
    reg.add("sim.high_gain", HIGH_GAIN, fixed(HIGH_GAIN, 2), computed({"zh": "高于默认值的一个增益", "en": "a gain above the default"}, NUMBERS))
    for name, setting in SIM_SETTINGS.items():
        r = simulate(SIM.default_layers, *setting)
        if name == "on":
            reg.add("sim.start_stream_rms", r.stream[0], fixed(r.stream[0], 2),
                    computed({"zh": "第一个子层之前残差流 x_0 的 RMS", "en": "RMS of the residual stream x_0 before the first sublayer"}, where))
        at, at_zh = sim_words(*setting), sim_words_zh(*setting)
        reg.add(f"sim.{name}.grad_ratio", r.grad_ratio, fixed(r.grad_ratio, 2),
                computed({"zh": f"最底层子层入口的 ‖∂ℒ/∂x‖ / 最顶层子层入口的 ‖∂ℒ/∂x‖；{at_zh}", "en": f"‖∂ℒ/∂x‖ at the bottom sublayer's input / at the top sublayer's input; {at}"}, where))
        if r.grad_ratio < 0.01:
            reg.add(f"sim.{name}.grad_ratio_exact", r.grad_ratio, scientific(float(f"{r.grad_ratio:.1e}")),
                    computed({"zh": f"最底层子层入口的 ‖∂ℒ/∂x‖ / 最顶层子层入口的 ‖∂ℒ/∂x‖（两位有效数字）；{at_zh}", "en": f"‖∂ℒ/∂x‖ at the bottom sublayer's input / at the top sublayer's input (two significant digits); {at}"}, where))
        reg.add(f"sim.{name}.stream_rms", r.stream_rms, fixed(r.stream_rms, 2),
                computed({"zh": f"最终残差流的 RMS；{at_zh}", "en": f"RMS of the final residual stream; {at}"}, where))
        reg.add(f"sim.{name}.stream_growth", r.stream_rms / r.stream[0], fixed(r.stream_rms / r.stream[0], 1) + "×",
                computed({"zh": f"最终残差流的 RMS / x_0 的 RMS；{at_zh}", "en": f"RMS of the final stream / RMS of x_0; {at}"}, where))
        reg.add(f"sim.{name}.read_rms", r.read_rms_top, fixed(r.read_rms_top, 2),
                computed({"zh": f"最顶层子层输入的 RMS；{at_zh}", "en": f"RMS of the top sublayer's input; {at}"}, where))


# ---------------------------------------------------------------- growth: √(n + 1) against the simulator


def add_growth(reg: Scope) -> None:
    g = twins.growth()
    where = {"zh": (f"{HERE}/twins.py 的 growth()，基于 {TWINS}（simulate，种子 {SIM.seed}，N = {SIM.layers_max}，"
                    f"增益 {g.gain}，有残差，无归一化，写回不缩放）"),
             "en": (f"{HERE}/twins.py growth() over {TWINS} (simulate, seed {SIM.seed}, N = {SIM.layers_max}, "
                    f"gain {g.gain}, residual on, no norm, no write-back scaling)")}
    # whole curves, for the widget: their text says what they hold rather than listing every value
    for key, values, what in (("sim_stream", g.stream, {"zh": "写入 l = 0 … N 次后残差流的 RMS", "en": "the stream's RMS after l = 0 … N writes"}),
                              ("sim_write", g.write, {"zh": "第 l = 1 … N 次写入的 RMS", "en": "the RMS of write l = 1 … N"})):
        reg.add(f"growth.{key}", values, {"zh": f"{integer(len(values))} 个值", "en": f"{integer(len(values))} values"},
                computed(what, where))
    for name, n in (("at_default", SIM.default_layers), ("at_max", SIM.layers_max)):
        reg.add(f"growth.{name}.n", n, integer(n), computed({"zh": "写入次数 l", "en": "writes counted, l"}, where))
        reg.add(f"growth.{name}.law", g.law[n], fixed(g.law[n], 2), computed(f"√(l + 1), l = {n}", FORMULAS))
        reg.add(f"growth.{name}.sim", g.stream[n], fixed(g.stream[n], 2),
                computed({"zh": f"写入 l = {n} 次后模拟器里残差流的 RMS", "en": f"the simulator's stream RMS after l = {n} writes"}, where))
        reg.add(f"growth.{name}.independent", g.independent[n], fixed(g.independent[n], 2),
                computed({"zh": f"前 {n} 次写入的 √(RMS(x_0)² + Σ RMS(写入)²)", "en": f"√(RMS(x_0)² + Σ RMS(write)²) over the first {n} writes"}, where, FORMULAS))
        ratio = g.stream[n] / g.law[n]
        reg.add(f"growth.{name}.sim_over_law", ratio, percent(ratio, 0),
                computed({"zh": f"l = {n} 时模拟器的值 / √(l + 1)", "en": f"simulator / √(l + 1) at l = {n}"}, where))
    reg.add("growth.first_write", g.write[0], fixed(g.write[0], 2), computed({"zh": "第一次写入的 RMS", "en": "RMS of the first write"}, where))
    reg.add("growth.last_write", g.write[-1], fixed(g.write[-1], 2),
            computed({"zh": f"第 {SIM.layers_max} 次写入的 RMS", "en": f"RMS of write {SIM.layers_max}"}, where))
    t = f.tanh_rms(g.gain)
    reg.add("growth.tanh_unit_rms", t, fixed(t, 2),
            computed({"zh": f"√E[tanh({g.gain} · z)²]，z ~ N(0, 1)：增益为 {g.gain}、输入 RMS 为 1 时一次 tanh 写入的 RMS", "en": f"√E[tanh({g.gain} · z)²], z ~ N(0, 1): the RMS of a tanh write at gain {g.gain}, of an input of RMS 1"}, FORMULAS))


# ---------------------------------------------------------------- wider streams (2025–2026)


def add_divergence(reg: Scope, inputs: Inputs) -> None:
    for key, name in (("deepseek_v4_flash", "DeepSeek-V4-Flash"), ("deepseek_v4_pro", "DeepSeek-V4-Pro")):
        m = inputs.frontier.by_name(name)
        src = frontier_source(name, m.provenance.grade)
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
            computed({"zh": "留给最后一块的层数", "en": "layers left for the last block"}, src, FORMULAS))


# ---------------------------------------------------------------- measured

NO_RESIDUAL, NO_SCALING = "c2_no_residual", "c2_no_proj_scaling"
SPLIT_STEP = 150   # the validation step at which lesson 1 reads GELU 4d's split (lessons/c4_ffn/numbers.py)
RUNS = (BASELINE, NO_RESIDUAL, NO_SCALING)
# The comparisons the reading notes rest on: (key, run a, run b, metric), a minus b seed by seed.
COMPARISONS = [
    ("no_residual", NO_RESIDUAL, BASELINE, "final_val_loss"),
    ("no_residual", NO_RESIDUAL, BASELINE, "init_block_grad_mean"),
    ("baseline_minus_no_scaling", BASELINE, NO_SCALING, "final_val_loss"),
    ("no_scaling", NO_SCALING, BASELINE, "init_stream_rms_top"),
    ("no_scaling", NO_SCALING, BASELINE, "end_stream_rms_top"),
    ("no_scaling", NO_SCALING, BASELINE, "init_block_grad_mean"),
]


def sci(x: float) -> str:
    """Two significant digits; below 0.01 in the form configs and papers use (2.5e−8, 2.0e−7: the second
    digit kept, so that two such numbers side by side have the same precision), else plainly (4.0)."""
    if abs(x) >= 0.01:
        return significant(x, 2)
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}".replace("-", "−")


def add_layers(reg: Scope, results: Results) -> None:
    """Per-layer values the chapter's metrics do not name: the stream's RMS right after the embeddings (the
    layer every run shares), and the end-of-training bottom/top gradient ratio where it is too small for
    the chapter's fixed-point text."""
    for key, run in (("baseline", BASELINE), ("no_residual", NO_RESIDUAL), ("no_scaling", NO_SCALING)):
        if run not in results.runs:
            continue
        runs = results.runs[run]
        prov = provenance(runs, {"zh": f"{run}（初始化时和训练结束时的探测）", "en": f"{run} (probes at init and at the end)"})
        for when in ("init", "end"):
            spread_keys(reg, f"layers.{key}.{when}_embed_rms", [getattr(r, when).stream_rms[0] for r in runs],
                        lambda x: significant(x, 2), prov)
            spread_keys(reg, f"layers.{key}.{when}_grad_ratio", [getattr(r, when).block_grad_norm[0]
                                                                   / getattr(r, when).block_grad_norm[-1] for r in runs],
                        sci, prov)
        spread_keys(reg, f"layers.{key}.end_bottom_grad", [r.end.block_grad_norm[0] for r in runs], sci, prov)
        if key == "no_residual":
            # after block 1 the stream's mean square is below the norm's eps: the next RMSNorm brings it to
            # RMS ≈ rms / sqrt(rms² + eps), not to 1 (the stream's RMS stands in for each row's)
            spread_keys(reg, "layers.no_residual.init_ms_first", [r.init.stream_rms[1] ** 2 for r in runs], sci,
                        provenance(runs, {"zh": f"{run}（初始化时第一个块之后残差流 RMS 的平方）",
                                          "en": f"{run} (the square of the stream's RMS after the first block, at init)"}))
            spread_keys(reg, "layers.no_residual.init_normed_rms_first",
                        [r.init.stream_rms[1] / (r.init.stream_rms[1] ** 2 + r.config.norm_eps) ** 0.5 for r in runs],
                        lambda x: significant(x, 2),
                        provenance(runs, {"zh": f"{run}（RMS / √(RMS² + ε)，初始化时第一个块之后）",
                                          "en": f"{run} (RMS / √(RMS² + ε), after the first block at init)"}))
        if key in ("no_residual", "baseline"):
            # what the RMSNorm in front of the second block divides by at init: √(mean square + ε), ε included
            spread_keys(reg, f"layers.{key}.init_norm_divisor_first",
                        [(r.init.stream_rms[1] ** 2 + r.config.norm_eps) ** 0.5 for r in runs], lambda x: significant(x, 2),
                        provenance(runs, {"zh": f"{run}（√(RMS² + ε)，初始化时第一个块之后）",
                                          "en": f"{run} (√(RMS² + ε), after the first block at init)"}))


def paired(results: Results, a: str, b: str) -> bool:
    """Both runs have results for the same seeds (while a refresh is under way, one may be ahead); a note
    whose comparison is missing names an unknown key and stops the build."""
    return a in results.runs and b in results.runs and results.seeds(a) == results.seeds(b)


def add_stall(reg: Scope, results: Results) -> None:
    """When the run without the residual reaches the unigram loss (already at the first evaluation), what the
    baseline reads there, and what the top block writes at the end: the facts the stall note rests on."""
    for key, run in (("baseline", BASELINE), ("no_residual", NO_RESIDUAL)):
        if run not in results.runs:
            continue
        runs = results.runs[run]
        prov = provenance(runs, {"zh": f"{run}（验证曲线；训练结束时的探测）", "en": f"{run} (validation curve; end probe)"})
        if key == "baseline":
            first = runs[0].val.step[1]
            reg.add("first_eval_step", first, integer(first),
                    computed({"zh": "第 0 步之后的第一个验证步", "en": "the first validation step after step 0"}, EXPERIMENTS))
        spread_keys(reg, f"stall.{key}.first_eval_val", [r.val.loss[1] for r in runs], lambda x: fixed(x, 3), prov)
        spread_keys(reg, f"stall.{key}.first_eval_above_unigram", [r.val.loss[1] - r.corpus.unigram_floor for r in runs],
                    lambda x: fixed(x, 3), prov)
        spread_keys(reg, f"stall.{key}.min_val_off_unigram",
                    [abs(r.metrics.min_val_loss - r.corpus.unigram_floor) for r in runs], lambda x: significant(x, 2), prov)
        spread_keys(reg, f"stall.{key}.end_top_rms", [r.end.stream_rms[-1] for r in runs], lambda x: significant(x, 2), prov)
        spread_keys(reg, f"stall.{key}.end_top_ffn_act", [r.end.ffn_act_max[-1] for r in runs],
                    lambda x: significant(x, 3), prov)


# the loss differences the reading notes rest on at lr 3e-3, a minus b seed by seed (the note's own compare keys)
CROSS_PAIRS = {"baseline_minus_no_scaling": (BASELINE, NO_SCALING), "no_residual_minus_baseline": (NO_RESIDUAL, BASELINE)}


def add_cross_machine(reg: Scope, inputs: Inputs) -> None:
    add_pair_drift(reg, inputs.results, inputs.cross_machine, CROSS_PAIRS)


def add_measured(reg: Scope, results: Results) -> None:
    add_margins(reg)
    add_stall(reg, results)
    add_layers(reg, results)
    for key, a, b, metric in COMPARISONS:
        if paired(results, a, b):
            compare(reg, f"compare.{key}.{metric}", results, a, b, metric)
    # per seed: how many times the baseline's per-block init gradient the run's is (its mean over blocks)
    for key, run in (("no_residual", NO_RESIDUAL), ("no_scaling", NO_SCALING)):
        if paired(results, run, BASELINE):
            a, b = results.runs[run], results.runs[BASELINE]
            ratios = [sum(x.init.block_grad_norm) / sum(y.init.block_grad_norm) for x, y in zip(a, b)]
            spread_keys(reg, f"compare.{key}.init_grad_times", ratios, lambda x: significant(x, 2),
                        provenance(a, {"zh": f"{run} / {BASELINE}（初始化时各块的梯度）", "en": f"{run} / {BASELINE} (init block gradients)"}))
            # and how many times the baseline's the top of its stream is, at init and at the end
            for when in ("init", "end"):
                tops = [getattr(x, when).stream_rms[-1] / getattr(y, when).stream_rms[-1] for x, y in zip(a, b)]
                spread_keys(reg, f"compare.{key}.{when}_top_times", tops, lambda x: fixed(x, 2),
                            provenance(a, {"zh": f"{run} / {BASELINE}（残差流顶层的 RMS，{WHEN_ZH[when]}）", "en": f"{run} / {BASELINE} (top-of-stream RMS, {when})"}))
    # the unscaled run's seeds by final loss: the lowest alone (it ends with a small stream, like GELU 4d's low
    # seeds in lesson 1) and the other two; each group's final loss, gain over its baseline seed, top-of-stream
    # RMS at the end and validation loss at the step where lesson 1's split shows
    if paired(results, NO_SCALING, BASELINE):
        base = {r.config.seed: r for r in results.runs[BASELINE]}
        ranked = sorted(results.runs[NO_SCALING], key=lambda r: r.metrics.final_val_loss)
        prov = provenance(results.runs[NO_SCALING],
                          {"zh": f"{NO_SCALING}，按最终损失分组的种子（最低的单独一组）",
                           "en": f"{NO_SCALING}, seeds by final loss (the lowest alone)"})
        for group, rs in (("low", ranked[:1]), ("high", ranked[1:])):
            k = f"no_scaling.{group}"
            spread_keys(reg, f"{k}.final_val_loss", [r.metrics.final_val_loss for r in rs], lambda x: fixed(x, 3), prov)
            spread_keys(reg, f"{k}.gain", [base[r.config.seed].metrics.final_val_loss - r.metrics.final_val_loss
                                           for r in rs], lambda x: fixed(x, 3), prov)
            spread_keys(reg, f"{k}.end_top_rms", [r.end.stream_rms[-1] for r in rs], lambda x: significant(x, 3), prov)
            spread_keys(reg, f"{k}.val_at_step", [r.val.loss[r.val.step.index(SPLIT_STEP)] for r in rs],
                        lambda x: fixed(x, 3), prov)
        rs = results.runs[BASELINE]
        spread_keys(reg, "baseline.val_at_step", [r.val.loss[r.val.step.index(SPLIT_STEP)] for r in rs],
                    lambda x: fixed(x, 3),
                    provenance(rs, {"zh": f"{BASELINE}，第 {SPLIT_STEP} 步的验证损失",
                                    "en": f"{BASELINE}, validation loss at step {SPLIT_STEP}"}))
        reg.add("split_step", SPLIT_STEP, integer(SPLIT_STEP),
                computed({"zh": "FFN 一课读 GELU 4d 分裂所用的验证步", "en": "the validation step at which the FFN lesson reads GELU 4d's split"},
                         NUMBERS))
    # how many times its top-of-stream RMS grows from init to the end of training, per seed
    for key, run in (("baseline", BASELINE), ("no_scaling", NO_SCALING)):
        if run in results.runs:
            rs = results.runs[run]
            spread_keys(reg, f"layers.{key}.top_growth_in_training",
                        [r.end.stream_rms[-1] / r.init.stream_rms[-1] for r in rs], lambda x: integer(round(x)),
                        provenance(rs, {"zh": f"{run}（残差流顶层的 RMS，训练结束时 / 初始化时）", "en": f"{run} (top-of-stream RMS, end / init)"}))


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_anchor(reg, inputs)
    add_paths(reg, inputs)
    add_simulator(reg)
    add_growth(reg)
    add_divergence(reg, inputs)
    add_measured(reg, inputs.results)
    add_cross_machine(reg, inputs)
