"""The gating lesson's numbers, all under `gating.` in the registry.

The anchor's gates (q_proj split into queries and gate, the FFN's three matrices, the Gated DeltaNet's
in_z) and what they cost; which of the compared models gate their attention output; the bounds of the
gated FFN under each model's clamp or cap; the read-outs of the lesson's three widgets (from their
Python twins); and what our small model's gated and clamped runs measured, seed by seed.
"""
from __future__ import annotations

from course.common.formulas import anchor_layer_parts, anchor_ledger
from course.common.measured import (BASELINE, MARGIN_LOSS, Results, add_margins, compare, provenance, seed_values,
                                     spread_keys)
from course.common.numbers import ANCHOR, FRONTIER, anchor_source, computed_from, slug
from course.common.schema import Inputs
from course.core.formats import fixed, integer, percent, scientific2, significant
from course.core.registry import Computed, Scope, Words, add_rows
from course.project import words
from lessons.c4_gating import formulas as f
from lessons.c4_gating import twins
from lessons.c4_normalization.numbers import add_other_cpu, other_cpu_provenance

WORDS = words(__file__)   # lessons/c4_gating/words.LANG.json
HERE = "lessons/c4_gating"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = f"{HERE}/twins.py"
EXPERIMENTS = "models/experiments.json"

GATE_RUN, CLAMP_RUN = "c4g_attn_gate", "c4g_swiglu_clamp7"
# the gate again at the lower learning rate, and its partner: the baseline at that rate
GATE_LOW_LR, BASELINE_LOW_LR = "c4g_attn_gate_lr1e-3", "c4_baseline_lr1e-3"
# a first token "favored" by attention: more than this many times the uniform-attention share
SINK_THRESHOLD = 1.5
# the clamp changes "few" entries when no step changes more than this share of the entries of a branch
CLAMP_FEW = 0.001
# a seed in which the clamp, once it has started, acts in more than this share of the remaining steps: it acts
# "in most steps" from its first (how often it acts, as against how many entries it changes). Not a split into
# kinds of seed: how often the clamp acts belongs to one trajectory on one CPU (seed 1337 acted in 99% of its
# steps from the first on the Intel Xeon, in 79% on the AMD EPYC), so the notes quote a count and a range only.
CLAMP_MOSTLY = 0.5

# gpt-oss's swiglu() takes α = 1.702 as a default argument, not from its config:
# openai/gpt-oss gpt_oss/torch/model.py line 249 (@7b58334).
GPT_OSS_ALPHA = 1.702
GPT_OSS_CODE = "openai/gpt-oss gpt_oss/torch/model.py, swiglu() (lines 249–256 @7b58334)"

# The surface widget's grid: wide enough that both clamps (7 and 10) bite, fine enough to land on them.
SURFACE_EXTENT, SURFACE_POINTS = 12.0, 49
SURFACE_DIGITS = 3   # as the chapter writes SiLU(10)·10 (swiglu.silu_at_limit_times_limit)
# The attention-sink walk-through: the sink logit the prose moves to, and the open gate it compares.
SINK_HIGH, GATE_OPEN = 6.0, 6.0


computed = computed_from(FORMULAS)


# ---------------------------------------------------------------- the anchor's gates


def add_anchor_gates(reg: Scope, inputs: Inputs) -> None:
    t = inputs.anchor.config.text_config
    d = t.hidden_size
    split = f.q_proj_split(t.num_attention_heads, t.head_dim, t.attn_output_gate)
    src = anchor_source("attn_output_gate")
    for part, what in (("query", "num_attention_heads × head_dim"), ("gate", "num_attention_heads × head_dim"),
                       ("per_head", "2 × head_dim")):
        reg.add(f"qproj.{part}", split[part], integer(split[part]), computed(f"q_proj_split()['{part}']: {what}", src))

    per_layer = f.output_gate_params(d, t.num_attention_heads, t.head_dim)
    layers = f.anchor_output_gate_layers(t)
    total = per_layer * layers
    # the chapter's ledger (anchor.params.total, anchor.layer.ffn_params), recomputed: a lesson's numbers
    # are built from the inputs alone
    all_params = sum(anchor_ledger(t, inputs.anchor.config.vision_config).values())
    layer_ffn = anchor_layer_parts(t)["ffn"]
    reg.add("gate.per_layer_params", per_layer, integer(per_layer),
            computed(WORDS("gate.per_layer_params"), src))
    reg.add("gate.mtp_layers", t.mtp_num_hidden_layers, integer(t.mtp_num_hidden_layers),
            computed(WORDS("gate.mtp_layers"),
                     anchor_source("mtp_num_hidden_layers")))
    reg.add("gate.layers", layers, integer(layers),
            computed(WORDS("gate.layers"), anchor_source("layer_types"), FORMULAS))
    reg.add("gate.total_params", total, integer(total), computed(WORDS("gate.total_params"), ANCHOR))
    reg.add("gate.share", total / all_params, percent(total / all_params, 2),
            computed(WORDS("gate.share"), ANCHOR))
    in_ffn = total / layer_ffn   # a whole number of layers is written as one (2, not 2.00)
    reg.add("gate.in_ffn_layers", in_ffn, fixed(in_ffn, 0 if abs(in_ffn - round(in_ffn)) < 1e-9 else 2),
            computed(WORDS("gate.in_ffn_layers"), ANCHOR))

    shapes = f.ffn_shapes(d, t.intermediate_size)
    gate_proj = shapes["gate_proj"][0] * shapes["gate_proj"][1]
    reg.add("ffn.gate_proj_params", gate_proj, integer(gate_proj),
            computed("hidden_size × intermediate_size (gate_proj)", anchor_source("intermediate_size")))
    reg.add("ffn.gate_proj_share", gate_proj / layer_ffn, percent(gate_proj / layer_ffn, 1),
            computed("gate_proj / (gate_proj + up_proj + down_proj)", ANCHOR))

    z = f.gated_deltanet_gate_width(t.linear_num_value_heads, t.linear_value_head_dim)
    zsrc = anchor_source("linear_num_value_heads")
    reg.add("gdn.value_heads", t.linear_num_value_heads, integer(t.linear_num_value_heads),
            computed("linear_num_value_heads", zsrc))
    reg.add("gdn.gate_width", z, integer(z), computed("linear_num_value_heads × linear_value_head_dim (in_z)", zsrc))


def yes_no(v: bool) -> dict[str, str]:
    return WORDS("yes" if v else "no")


# Where a "yes" is read, model by model, when the config's own key is not attn_output_gate: Kimi K3's config
# switches the gate of its MLA layers with this key (model-configs/moonshotai__Kimi-K3.config.json).
GATE_CONFIG_KEYS = {"Kimi K3": "mla_use_output_gate"}
# A learned logit per head that joins every softmax row (a "sink" the weights can go to instead of a token):
# read from each model's code, for no config records it. gpt-oss: AttentionBlock.sinks, appended as one more
# column of the scores before the softmax and dropped after it (openai/gpt-oss gpt_oss/torch/model.py,
# sdpa()); DeepSeek V4: Attention.attn_sink, one fp32 value per head, an extra term in the softmax's
# denominator (the inference code published with the weights, inference/model.py, sparse_attn()).
GPT_OSS_SINKS = "openai/gpt-oss gpt_oss/torch/model.py (AttentionBlock.sinks, sdpa())"
V4_SINKS = "DeepSeek-V4 inference/model.py (Attention.attn_sink, passed to sparse_attn())"
SINK_LOGIT = {"gpt-oss-120b": ("sinks", GPT_OSS_SINKS), "gpt-oss-20b": ("sinks", GPT_OSS_SINKS),
              "DeepSeek-V4-Flash": ("attn_sink", V4_SINKS), "DeepSeek-V4-Pro": ("attn_sink", V4_SINKS)}
# The anchor's attention code, read for the sink column: its config names the architecture qwen3_5, whose
# Qwen3_5Attention splits q_proj per head into queries and gate and multiplies the SDPA output by
# sigmoid(gate) before o_proj; its softmax (eager_attention_forward) has no extra logit.
ANCHOR_ATTENTION_CODE = ("huggingface/transformers src/transformers/models/qwen3_5/modeling_qwen3_5.py "
                         "(Qwen3_5Attention, eager_attention_forward) @d8c1e2844cbfeae1e342a1723d7f4e69ff1adcc0")


def sink_evidence(m) -> str:
    """How the table's sink column knows a model's answer: 'yes' (its code adds a sink logit), 'code' (we read
    its attention code and it adds none), or 'unchecked' (we read none of its attention code: a config key
    would not show a sink logit either, so the column says so rather than 'no')."""
    if m.name in SINK_LOGIT:
        return "yes"
    return "code" if m.attn_output_gate_source else "unchecked"


def gate_evidence(m) -> str:
    """How the table knows a model's answer: 'config' (a config key says so), 'code' (the model's code gates
    and its config has no key), or 'inferred' (no config key records it and we read no code that gates)."""
    if m.attn_output_gate_source or m.name in SINK_LOGIT:   # their attention code read: no gate, a sink logit
        return "code"
    if m.name in GATE_CONFIG_KEYS:
        return "config"
    return "inferred"


def add_who_gates(reg: Scope, inputs: Inputs) -> None:
    """Which models gate their attention output: the anchor from its config, every frontier model that
    records an answer (from a config key, from its code where the config has none, or, for a "no" that no
    config key records, inferred); and which of them give each head a learned sink logit instead."""
    a = inputs.anchor
    gated = a.config.text_config.attn_output_gate
    reg.add(f"output_gate.{slug(a.name)}", int(gated), yes_no(gated),
            computed("attn_output_gate", anchor_source("attn_output_gate")))
    no_sink = WORDS("sink_logit.none")
    reg.add(f"sink_logit.{slug(a.name)}", 0, yes_no(False), computed(no_sink, ANCHOR_ATTENTION_CODE))
    stated = [m for m in inputs.frontier.models if m.attn_output_gate is not None]
    for m in stated:
        p = m.attn_output_gate_source or m.provenance
        where = " ".join(x for x in (p.repository, p.path, p.commit and f"@{p.commit}") if x)
        how = gate_evidence(m)
        source = f"{FRONTIER} ({m.name}; {p.grade}: {where})"
        if how == "code" and m.name in SINK_LOGIT:
            what = WORDS("output_gate.how.code_sink")
            source = SINK_LOGIT[m.name][1]
        else:
            what = WORDS(f"output_gate.how.{how}", key=GATE_CONFIG_KEYS.get(m.name))
        reg.add(f"output_gate.{slug(m.name)}", int(m.attn_output_gate), yes_no(m.attn_output_gate), computed(what, source))
        if m.name in SINK_LOGIT:
            param, code = SINK_LOGIT[m.name]
            reg.add(f"sink_logit.{slug(m.name)}", 1, WORDS("sink_logit.yes", param=param),
                    computed(WORDS("sink_logit.learned", param=param), code))
        elif sink_evidence(m) == "code":
            reg.add(f"sink_logit.{slug(m.name)}", 0, yes_no(False), computed(no_sink, source))
    rows = [{"slug": slug(m.name), "name": m.name, "year": m.year, "how": gate_evidence(m),
             "sink": m.name in SINK_LOGIT, "sink_how": sink_evidence(m)}
            for m in sorted(stated, key=lambda m: (m.year, m.name))]
    # the anchor's year from data/anchor-model.json (facts.release_year), as every other row has its year
    anchor_row = {"slug": slug(a.name), "name": a.name, "year": int(a.facts.release_year.value), "anchor": True,
                  "how": "config", "sink_how": "code"}
    add_rows(reg, "output_gate.rows", [anchor_row] + rows,
             computed(WORDS("output_gate.rows"), ANCHOR, FRONTIER))
    yes = sum(m.attn_output_gate for m in stated) + int(gated)
    src = WORDS("output_gate.source", frontier=FRONTIER, anchor=ANCHOR)
    reg.add("output_gate.gated", yes, integer(yes),
            computed(WORDS("output_gate.gated"), src))
    inferred = sum(gate_evidence(m) == "inferred" for m in stated)
    reg.add("output_gate.inferred", inferred, integer(inferred),
            computed(WORDS("output_gate.inferred"), FRONTIER))
    unchecked = sum(sink_evidence(m) == "unchecked" for m in stated)
    reg.add("sink_logit.unchecked", unchecked, integer(unchecked),
            computed(WORDS("sink_logit.unchecked"), FRONTIER))


# ---------------------------------------------------------------- bounding the gated FFN


def add_bounds(reg: Scope, inputs: Inputs) -> None:
    oss = inputs.frontier.by_name("gpt-oss-120b")
    v4 = inputs.frontier.by_name("DeepSeek-V4-Flash")
    k3 = inputs.frontier.by_name("Kimi K3")
    oss_src = f"{FRONTIER} (gpt-oss-120b swiglu_limit), {GPT_OSS_CODE}"
    reg.add("gpt_oss.alpha", GPT_OSS_ALPHA, fixed(GPT_OSS_ALPHA, 3),
            computed(WORDS("gpt_oss.alpha"), GPT_OSS_CODE))
    m = f.gpt_oss_clamped_max(GPT_OSS_ALPHA, oss.swiglu_limit)
    reg.add("gpt_oss.clamped_max", m, fixed(m, 2), computed("limit · σ(α · limit) · (limit + 1)", oss_src, FORMULAS))

    k3_src = f"{FRONTIER} (Kimi K3 situ_beta, situ_linear_beta: activation_situ_beta, activation_situ_linear_beta)"
    reg.add("situ.beta", k3.situ_beta, fixed(k3.situ_beta, 0), computed("activation_situ_beta", k3_src))
    reg.add("situ.linear_beta", k3.situ_linear_beta, fixed(k3.situ_linear_beta, 0),
            computed("activation_situ_linear_beta", k3_src))
    bound = f.situ_glu_bound(k3.situ_beta, k3.situ_linear_beta)
    reg.add("situ.bound", bound, fixed(bound, 0), computed(WORDS("situ.bound"), k3_src, FORMULAS))
    x = v4.swiglu_limit
    s = f.situ_glu(x, x, k3.situ_beta, k3.situ_linear_beta)
    reg.add("situ.at_v4_limit", s, fixed(s, 2),
            computed(WORDS("situ.at_v4_limit"), k3_src, FRONTIER, FORMULAS))

    limit = inputs.experiments.config(CLAMP_RUN).swiglu_limit
    b = f.swiglu_clamped_max(limit)
    reg.add("small.clamp_bound", b, fixed(b, SURFACE_DIGITS),
            computed(WORDS("small.clamp_bound", clamp_run=CLAMP_RUN), EXPERIMENTS, FORMULAS))


# ---------------------------------------------------------------- the widgets' read-outs, from their twins


def add_widget_readouts(reg: Scope, inputs: Inputs) -> None:
    toy = twins.sink_toy()
    where = f"{HERE}/attention-sink.json (teaching data), {TWINS} sink_row()"
    n = len(toy.tokens)
    reg.add("sink.tokens", n, integer(n), computed(WORDS("sink.tokens"), where))
    reg.add("sink.sink_high", SINK_HIGH, fixed(SINK_HIGH, 0), computed(WORDS("sink.sink_high"), NUMBERS))
    g = toy.gate_logit.default
    reg.add("sink.gate_logit", g, fixed(g, 0), computed(WORDS("sink.gate_logit"), where))
    reg.add("sink.gate_open_logit", GATE_OPEN, fixed(GATE_OPEN, 0), computed(WORDS("sink.gate_open_logit"), NUMBERS))
    found = next(c for c in toy.cases if c.match is not None)
    rows = {
        "nothing": twins.sink_row(toy, "nothing", toy.sink_logit.default, g),
        "nothing_sink": twins.sink_row(toy, "nothing", SINK_HIGH, g),
        "found": twins.sink_row(toy, found.id, toy.sink_logit.default, GATE_OPEN),
        "found_sink": twins.sink_row(toy, found.id, SINK_HIGH, GATE_OPEN),
    }
    # what the page quotes of each row: read-out → (its value, its text)
    readouts = {
        "first_token": lambda r: (r.first_token, percent(r.first_token, 1)),
        "weight_sum": lambda r: (sum(r.weights), percent(sum(r.weights), 0)),
        "output_norm": lambda r: (f.length(r.output), fixed(f.length(r.output), 3)),
        "written_norm": lambda r: (f.length(r.written), fixed(f.length(r.written), 4)),
    }
    quoted = {"nothing": ("weight_sum", "output_norm", "written_norm"), "nothing_sink": ("first_token", "output_norm"),
              "found": ("written_norm",), "found_sink": ()}
    for name, r in rows.items():
        case = WORDS(f"sink.case.{name}", match=found.match, sink=SINK_HIGH)   # which row of the toy
        for readout in quoted[name]:
            reg.add(f"sink.{name}.{readout}", *readouts[readout](r), computed(WORDS(f"sink.{readout}", case=case), where))
        if found.match in toy.tokens and name.startswith("found"):
            w = r.weights[toy.tokens.index(found.match)]
            reg.add(f"sink.{name}.match_weight", w, percent(w, 1),
                    computed(WORDS("sink.match_weight", match=found.match, case=case), where))
    reg.add("sink.uniform_weight", 1 / n, percent(1 / n, 1), computed(WORDS("sink.uniform_weight"), where))
    # the most the gated head can write, however the weights fall: Σ w_i v_i is a weighted mean of the values
    # (the weights are positive and sum to 1), so it is never longer than the longest value
    longest = max(f.length(v) for v in toy.values)
    bound = f.sigmoid(g) * longest
    reg.add("sink.gated_written_max", bound, fixed(bound, 4),
            computed(WORDS("sink.gated_written_max"), where))
    reg.add("sink.gate", f.sigmoid(g), percent(f.sigmoid(g), 2), computed(WORDS("sink.gate"), where))
    reg.add("sink.gate_open", f.sigmoid(GATE_OPEN), percent(f.sigmoid(GATE_OPEN), 2),
            computed(WORDS("sink.gate_open"), NUMBERS, FORMULAS))

    sw = f"{TWINS} (formulas.surface, a, b ∈ [−{SURFACE_EXTENT:g}, {SURFACE_EXTENT:g}], {SURFACE_POINTS} points each)"
    reg.add("surface.extent", SURFACE_EXTENT, fixed(SURFACE_EXTENT, 0), computed(WORDS("surface.extent"), NUMBERS))
    reg.add("surface.points", SURFACE_POINTS, integer(SURFACE_POINTS), computed(WORDS("surface.points"), NUMBERS))
    limits = {"none": None, "gpt_oss": inputs.frontier.by_name("gpt-oss-120b").swiglu_limit,
              "deepseek_v4": inputs.frontier.by_name("DeepSeek-V4-Flash").swiglu_limit}
    for name, limit in limits.items():
        z = f.surface(SURFACE_EXTENT, SURFACE_POINTS, limit)
        top = max(max(row) for row in z)
        reg.add(f"surface.max.{name}", top, fixed(top, SURFACE_DIGITS),
                computed(WORDS("surface.max", limit=limit if limit else WORDS("surface.no_limit")), sw, FRONTIER))


# ---------------------------------------------------------------- measured: our small model


def add_measured(reg: Scope, inputs: Inputs) -> None:
    base = inputs.experiments.base
    ref = f.uniform_first_token_share(base.block_size)
    reg.add("sink_threshold", SINK_THRESHOLD,
            WORDS("times", x=fixed(SINK_THRESHOLD, 1)),
            computed(WORDS("sink_threshold"), NUMBERS))
    reg.add("uniform_first_token", ref, percent(ref, 2),
            computed(WORDS("uniform_first_token"), f"{EXPERIMENTS} (base block_size)", FORMULAS))
    gate = base.n_layer * base.d_model * base.d_model
    reg.add("small.gate_params", gate, integer(gate),
            computed(WORDS("small.gate_params"), f"{EXPERIMENTS} (base)"))

    results: Results = inputs.results
    if BASELINE in results.runs:
        # how much of the training set one run reads: max_steps × batch_size × block_size characters (windows
        # at random offsets, so some repeat and some are never read) against the training set's length
        b = results.runs[BASELINE][0]
        read = b.config.max_steps * b.config.batch_size * b.config.block_size / b.corpus.train_chars
        reg.add("small.epoch_fraction", read, fixed(read, 2),
                computed(WORDS("small.epoch_fraction"), f"{EXPERIMENTS} (base)",
                         f"data/results/cpu/{BASELINE} (corpus.train_chars)"))
    # the first token's share of attention at the end: the baseline's in each layer and its largest; the gated
    # run's largest, against uniform attention and against the line a note calls favoring
    # (every run of the lesson gets its largest share, so that a note about all our runs can check them all)
    for run in (r for r in (BASELINE, GATE_RUN, CLAMP_RUN, BASELINE_LOW_LR, GATE_LOW_LR) if r in results.runs):
        rs = results.runs[run]
        prov = provenance(rs, WORDS("fta.provenance", run=run))
        if run == BASELINE:
            for i in range(len(rs[0].end.first_token_attention)):
                spread_keys(reg, f"fta.{run}.end.layer{i + 1}", [r.end.first_token_attention[i] for r in rs],
                            lambda x: percent(x, 1), prov, "mean", "max")
            # the mean at initialization to two decimals, as the reference is printed: to one it reads 3.5%
            # beside a reference of 3.49%, as if it started above uniform
            spread_keys(reg, f"fta.{run}.init", seed_values(rs, "init_first_token_attention"),
                        lambda x: percent(x, 2), prov, "mean")
        top = max(max(r.end.first_token_attention) for r in rs)
        reg.add(f"fta.{run}.end.top", top, percent(top, 1), prov)
        if run == GATE_RUN:
            reg.add(f"fta.{run}.end.top_over_uniform", top / ref, fixed(top / ref, 2), prov)
            # how far that largest share stays below the line, as a share of itself: the room the one-margin
            # test (top × (1 + margin) < line) leaves
            below = SINK_THRESHOLD * ref / top - 1
            reg.add(f"fta.{run}.end.top_below_line", below, percent(below, 1), prov)
    if BASELINE not in results.runs:
        return
    if GATE_RUN in results.runs:
        for metric in ("final_val_loss", "max_ffn_act"):
            compare(reg, f"compare.gate.{metric}", results, GATE_RUN, BASELINE, metric, "min", "max")
        # a difference of two shares, shown in percentage points: a bare number the page calls "percentage points"
        compare(reg, "compare.gate.end_first_token_attention", results, GATE_RUN, BASELINE,
                "end_first_token_attention", "mean", "min", "max", "range", text=lambda x: fixed(100 * x, 2))
        # the yardstick for those paired differences: the baseline's own spread over seeds of the same share (two
        # runs of one seed start from different inits), in percentage points like them
        shares = seed_values(results.runs[BASELINE], "end_first_token_attention")
        reg.add("spread.baseline.end_first_token_attention", max(shares) - min(shares),
                fixed(100 * (max(shares) - min(shares)), 2),
                provenance(results.runs[BASELINE], WORDS("spread.baseline.end_first_token_attention", baseline=BASELINE)))
        share = [gate / r.parameters for r in results.runs[GATE_RUN]]
        spread_keys(reg, "small.gate_share", share, lambda x: percent(x, 1),
                    provenance(results.runs[GATE_RUN], WORDS("small.gate_share", gate_run=GATE_RUN)), "mean")
    if GATE_LOW_LR in results.runs and BASELINE_LOW_LR in results.runs:
        for metric in ("final_val_loss", "max_ffn_act"):
            compare(reg, f"compare.gate_lr1e-3.{metric}", results, GATE_LOW_LR, BASELINE_LOW_LR, metric, "min", "max")
        # the baseline's own spread over seeds at that rate: the yardstick the clamp note uses for a paired gain
        losses = [r.metrics.final_val_loss for r in results.runs[BASELINE_LOW_LR]]
        reg.add("spread.baseline_lr1e-3.final_val_loss", max(losses) - min(losses), fixed(max(losses) - min(losses), 3),
                provenance(results.runs[BASELINE_LOW_LR],
                           WORDS("spread.baseline_lr1e-3.final_val_loss", baseline_low_lr=BASELINE_LOW_LR)))
    if CLAMP_RUN in results.runs:
        compare(reg, "compare.clamp.max_ffn_act", results, CLAMP_RUN, BASELINE, "max_ffn_act", "min", "max")
        limit = inputs.experiments.config(CLAMP_RUN).swiglu_limit
        add_clamp_engagement(reg, results, limit)


def add_clamp_engagement(reg: Scope, results: Results, limit: float) -> None:
    """How often the clamp acted. Each training step the clamped run counts the entries it changed
    (curves.clamped_gate: gate inputs above the limit; curves.clamped_up: up values beyond ±limit, whatever
    their product), summed over the layers, out of batch × block × ffn_hidden × n_layer entries per branch."""
    clamp = results.runs[CLAMP_RUN]
    cfg = clamp[0].config
    per_step = cfg.batch_size * cfg.block_size * clamp[0].ffn_hidden * cfg.n_layer
    counted = WORDS("clamp.counted", clamp_run=CLAMP_RUN)
    prov = provenance(clamp, counted)
    reg.add("clamp.entries_per_step", per_step, integer(per_step),
            computed(WORDS("clamp.entries_per_step"),
                     EXPERIMENTS))
    reg.add("clamp.few_threshold", CLAMP_FEW, percent(CLAMP_FEW, 1),
            computed(WORDS("clamp.few_threshold"), NUMBERS))
    acted = [[s for s, g, u in zip(r.curves.step, r.curves.clamped_gate, r.curves.clamped_up) if g or u]
             for r in clamp]
    seeds = sum(bool(a) for a in acted)
    reg.add("clamp.acting_seeds", seeds, integer(seeds), prov)
    # the first step it acted, over the seeds in which it acted at all (a seed where it never acts, as seed 1339
    # on the AMD EPYC, has no first step)
    firsts = [a[0] for a in acted if a]
    spread_keys(reg, "clamp.first_step", firsts or ["never"], integer, prov, "min", "max", "range")
    spread_keys(reg, "clamp.acting_steps", [len(a) for a in acted], integer, prov, "min", "max")
    add_clamp_mostly(reg, clamp, acted, prov)
    totals = [sum(r.curves.clamped_gate) + sum(r.curves.clamped_up) for r in clamp]
    spread_keys(reg, "clamp.total", totals, integer, prov, "min", "max")
    peaks = [max(max(r.curves.clamped_gate), max(r.curves.clamped_up)) for r in clamp]
    spread_keys(reg, "clamp.peak_step", peaks, integer, prov, "max")
    spread_keys(reg, "clamp.peak_share", [p / per_step for p in peaks], lambda x: percent(x, 2), prov, "max")
    # the inputs of the two branches at the end of training, before the clamp (the probe reads the
    # outputs of gate_proj and up_proj): above the limit while the product stays under the bound
    spread_keys(reg, "clamp.end_pre_max", [max(r.end.ffn_pre_max) for r in clamp], lambda x: fixed(x, 2),
                provenance(clamp, WORDS("clamp.end_pre_max", clamp_run=CLAMP_RUN)), "range")
    reg.add("clamp.limit", limit, fixed(limit, 0), computed(f"swiglu_limit ({CLAMP_RUN})", EXPERIMENTS))


def add_clamp_mostly(reg: Scope, clamp: list, acted: list[list[int]], prov) -> None:
    """How often the clamp acts once it has started, seed by seed: the steps in which it changed any entry,
    out of the steps from its first to the last. clamp.mostly: the seeds in which it then acts in more than
    CLAMP_MOSTLY of those steps, how many and their lowest share."""
    steps = clamp[0].config.max_steps
    share = [len(a) / (steps - a[0] + 1) if a else 0.0 for a in acted]
    reg.add("clamp.mostly_threshold", CLAMP_MOSTLY, percent(CLAMP_MOSTLY, 0),
            computed(WORDS("clamp.mostly_threshold"), NUMBERS))
    mostly = [x for x in share if x > CLAMP_MOSTLY]
    reg.add("clamp.mostly.seeds", len(mostly), integer(len(mostly)), prov)
    # no such seed: the share is undefined, and a check that compares it fails (rather than naming no key)
    spread_keys(reg, "clamp.mostly.share_from_first", mostly or ["undefined"], lambda x: percent(x, 1), prov, "min")


def signed(x: float):
    """A paired difference with its sign, so that a list of them reads as differences (+0.002, −0.044). An
    exact zero (two runs that end at the same bits, as a clamp that never acts leaves them) says so, so that it
    does not read like a difference that rounds to zero."""
    if x == 0:
        return WORDS("same_bits")
    t = fixed(x, 3)
    if not t.strip("−-+0."):   # rounds to zero: no sign
        return t.lstrip("−-+")
    return t if t.startswith(("−", "-")) else f"+{t}"


def add_clamp_seeds(reg: Scope, inputs: Inputs) -> None:
    """What the clamp did to the loss, seed by seed: clamped minus baseline final validation loss in every
    seed, here (clamp.final_val_diff.seeds) and on the other CPU (other_cpu.clamp.final_val_diff.seeds); how
    many seeds keep a sign beyond the pair margin on both CPUs (clamp.held_sign.seeds), how many are beyond it
    on both with opposite signs (clamp.flipped.seeds). And two seeds named by a rule that does not use the
    loss, by how much the clamp acted: clamp.most, the seed in which it changed the most entries, and
    clamp.least, the one in which it changed the fewest; for each, how often it acted, the entries it
    changed, the largest training-loss gap to the baseline of the same seed, and the final difference here
    and on the other CPU."""
    results, other = inputs.results, inputs.cross_machine
    if CLAMP_RUN not in results.runs or BASELINE not in results.runs or results.seeds(CLAMP_RUN) != results.seeds(BASELINE):
        return
    clamp, base = results.runs[CLAMP_RUN], results.runs[BASELINE]
    if any(c.curves.step != b.curves.step for c, b in zip(clamp, base)):
        return
    there_c, there_b = other.final_val_loss.get(CLAMP_RUN, {}), other.final_val_loss.get(BASELINE, {})
    rows = []
    for c, b in zip(clamp, base):
        s = str(c.config.seed)
        there = (there_c[s] - there_b[s] if there_c.get(s) is not None and there_b.get(s) is not None
                 else "undefined")
        rows.append({"run": c, "seed": c.config.seed,
                     "acting": sum(1 for g, u in zip(c.curves.clamped_gate, c.curves.clamped_up) if g or u),
                     "total": sum(c.curves.clamped_gate) + sum(c.curves.clamped_up),
                     "gap": max(abs(x - y) for x, y in zip(c.curves.train_loss, b.curves.train_loss)),
                     "diff": c.metrics.final_val_loss - b.metrics.final_val_loss, "there": there})
    words = {k: WORDS(f"clamp.seeds.{k}", clamp_run=CLAMP_RUN, baseline=BASELINE)
             for k in ("seed", "acting", "total", "gap", "diff", "there", "list", "held", "flipped", "same")}
    runs = [r["run"] for r in rows]
    spread_keys(reg, "clamp.final_val_loss", [r["run"].metrics.final_val_loss for r in rows], lambda x: fixed(x, 3),
                provenance(runs, WORDS("clamp.final_val_loss", clamp_run=CLAMP_RUN)), "mean", "range")
    # every seed, in seed order: here, and on the other CPU
    reg.add("clamp.final_val_diff.seeds", [r["diff"] for r in rows], WORDS.join("list", [signed(r["diff"]) for r in rows]),
            provenance(runs, words["list"]))
    if all(isinstance(r["there"], float) for r in rows):
        prov_there = other_cpu_provenance(other, words["there"], runs)
        reg.add("other_cpu.clamp.final_val_diff.seeds", [r["there"] for r in rows],
                WORDS.join("list", [signed(r["there"]) for r in rows]), prov_there)
        # beyond the pair margin with one sign on both CPUs (a cost or a gain that carried over), and beyond it
        # on both with opposite signs (which run ends lower depends on the CPU)
        m = 2 * MARGIN_LOSS   # the pair margin (gating.margin.loss_pair)
        held = sum((r["diff"] > m and r["there"] > m) or (r["diff"] < -m and r["there"] < -m) for r in rows)
        flipped = sum((r["diff"] > m and r["there"] < -m) or (r["diff"] < -m and r["there"] > m) for r in rows)
        both = provenance(runs, words["held"])
        reg.add("clamp.held_sign.seeds", held, integer(held), both)
        reg.add("clamp.flipped.seeds", flipped, integer(flipped), provenance(runs, words["flipped"]))
        # seeds whose clamped run and baseline end at the same bits: what a clamp that never acts leaves (the two
        # share their init and data order), here and on the other CPU, whose runs keep only their final losses
        same = sum(r["diff"] == 0 for r in rows)
        reg.add("clamp.same_bits.seeds", same, integer(same), provenance(runs, words["same"]))
        same = sum(r["there"] == 0 for r in rows)
        reg.add("other_cpu.clamp.same_bits.seeds", same, integer(same), other_cpu_provenance(other, words["same"], runs))
    # the rule does not use the loss: most and fewest entries changed (ties: the lower seed). It was chosen
    # after the per-seed losses had been on the page (commit 04b3ac8 replaced a rule by closeness in loss), so
    # it is not a pre-registration, only a rule that reads no loss.
    for role, r in (("most", max(rows, key=lambda r: (r["total"], -r["seed"]))),
                    ("least", min(rows, key=lambda r: (r["total"], r["seed"])))):
        k, one = f"clamp.{role}", [r["run"]]
        reg.add(f"{k}.seed", r["seed"], str(r["seed"]), provenance(one, words["seed"]))
        reg.add(f"{k}.acting_steps", r["acting"], integer(r["acting"]), provenance(one, words["acting"]))
        reg.add(f"{k}.total", r["total"], integer(r["total"]), provenance(one, words["total"]))
        gap = r["gap"]   # a gap far below the loss's own digits keeps its size: 9.5e−7, not 0.0000
        reg.add(f"{k}.train_loss_gap", gap, significant(gap, 2) if gap >= 1e-3 or not gap else scientific2(gap),
                provenance(one, words["gap"]))
        reg.add(f"{k}.final_val_diff", r["diff"], signed(r["diff"]), provenance(one, words["diff"]))
        if isinstance(r["there"], float):
            reg.add(f"other_cpu.{k}.final_val_diff", r["there"], signed(r["there"]),
                    other_cpu_provenance(other, words["there"], one))


def cleared_spread(gains: list[float], baseline: list[float]) -> tuple[float, int]:
    """The stricter yardstick for a paired gain: the baseline's own spread over seeds (its highest final loss
    minus its lowest), and how many seeds' paired differences, less the pair margin, lie farther from zero
    than that spread plus the margin."""
    spread, margin = max(baseline) - min(baseline), 2 * MARGIN_LOSS
    return spread, sum(abs(d) - margin > spread + margin for d in gains)


def add_yardstick(reg: Scope, inputs: Inputs) -> None:
    """yardstick.gate.spread / .cleared, on this machine and (other_cpu.yardstick.…) on the other CPU: the
    gate's paired loss gains at the baseline's rate held to the baseline's own spread over seeds."""
    runs = inputs.results.runs
    if GATE_RUN not in runs:
        return
    base = {r.config.seed: r.metrics.final_val_loss for r in runs[BASELINE]}
    gated = {r.config.seed: r.metrics.final_val_loss for r in runs[GATE_RUN]}
    spread, cleared = cleared_spread([gated[s] - base[s] for s in base], list(base.values()))
    words = WORDS("yardstick.gate", gate_run=GATE_RUN, baseline=BASELINE)
    prov = provenance(runs[GATE_RUN], words)
    reg.add("yardstick.gate.spread", spread, fixed(spread, 3), prov)
    reg.add("yardstick.gate.cleared", cleared, integer(cleared), prov)
    other = inputs.cross_machine
    ob, og = other.final_val_loss.get(BASELINE, {}), other.final_val_loss.get(GATE_RUN, {})
    seeds = sorted(set(ob) & set(og))
    if seeds and all(ob[s] is not None and og[s] is not None for s in seeds):
        spread, cleared = cleared_spread([og[s] - ob[s] for s in seeds], [ob[s] for s in seeds])
        prov = other_cpu_provenance(other, words, runs[GATE_RUN])
        reg.add("other_cpu.yardstick.gate.spread", spread, fixed(spread, 3), prov)
        reg.add("other_cpu.yardstick.gate.cleared", cleared, integer(cleared), prov)


def add_qiu_scale(reg: Scope, inputs: Inputs) -> None:
    """Qiu et al.'s perplexity change (Table 4) as a change of log-perplexity, the unit of our losses (nats per
    token; theirs are BPE tokens, ours characters, so set beside our gains it is a hint of scale only)."""
    import math
    cited = {n.key: n.value for n in inputs.citations.numbers}
    drop = math.log(cited["qiu.ppl.baseline"]) - math.log(cited["qiu.ppl.gated"])
    reg.add("qiu.log_ppl_drop", drop, fixed(drop, 3),
            computed(WORDS("qiu.log_ppl_drop"), "data/citations.json (qiu.ppl.baseline, qiu.ppl.gated)"))


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_qiu_scale(reg, inputs)
    add_anchor_gates(reg, inputs)
    add_who_gates(reg, inputs)
    add_bounds(reg, inputs)
    add_widget_readouts(reg, inputs)
    add_margins(reg, "loss", "loss_pair", "other")
    add_measured(reg, inputs)
    add_other_cpu(reg, inputs, [("gate", GATE_RUN, BASELINE, ("min", "max")),
                                ("baseline_lr1e-3", BASELINE_LOW_LR, BASELINE, ("max",))])
    add_yardstick(reg, inputs)
    add_clamp_seeds(reg, inputs)
