"""The gating lesson's numbers, all under `gating.` in the registry.

The anchor's gates (q_proj split into queries and gate, the FFN's three matrices, the Gated DeltaNet's
in_z) and what they cost; which of the compared models gate their attention output; the bounds of the
gated FFN under each model's clamp or cap; the read-outs of the lesson's three widgets (from their
Python twins); and what our small model's gated and clamped runs measured, seed by seed.
"""
from __future__ import annotations

from course.common.formulas import anchor_layer_parts, anchor_ledger
from course.common.measured import BASELINE, Results, compare, provenance, spread_keys
from course.common.numbers import ANCHOR, FRONTIER, anchor_source, slug
from course.common.schema import Inputs
from course.core.formats import fixed, integer, percent
from course.core.registry import Computed, Scope, add_rows
from lessons.c4_gating import formulas as f
from lessons.c4_gating import twins
from lessons.c4_normalization.numbers import MARGIN_OTHER

HERE = "lessons/c4_gating"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = f"{HERE}/twins.py"
EXPERIMENTS = "models/experiments.json"

GATE_RUN, CLAMP_RUN = "c4g_attn_gate", "c4g_swiglu_clamp7"
# a first token "favored" by attention: more than this many times the uniform-attention share
SINK_THRESHOLD = 1.5

# gpt-oss's swiglu() takes α = 1.702 as a default argument, not from its config:
# openai/gpt-oss gpt_oss/torch/model.py line 249 (@7b58334).
GPT_OSS_ALPHA = 1.702
GPT_OSS_CODE = "openai/gpt-oss gpt_oss/torch/model.py, swiglu() (lines 249–256 @7b58334)"

# The surface widget's grid: wide enough that both clamps (7 and 10) bite, fine enough to land on them.
SURFACE_EXTENT, SURFACE_POINTS = 12.0, 49
SURFACE_DIGITS = 3   # as the chapter writes SiLU(10)·10 (swiglu.silu_at_limit_times_limit)
# The attention-sink walk-through: the sink logit the prose moves to, and the open gate it compares.
SINK_HIGH, GATE_OPEN = 6.0, 6.0


def computed(formula: str, *sources: str) -> Computed:
    return Computed(formula=formula, sources=list(sources) or [FORMULAS])


# ---------------------------------------------------------------- the anchor's gates


def add_anchor_gates(reg: Scope, inputs: Inputs) -> None:
    t = inputs.anchor.config.text_config
    d = t.hidden_size
    split = f.q_proj_split(t.num_attention_heads, t.head_dim, t.attn_output_gate)
    src = anchor_source("attn_output_gate")
    for part, what in (("query", "num_attention_heads × head_dim"), ("gate", "num_attention_heads × head_dim"),
                       ("per_head", "2 × head_dim")):
        reg.add(f"qproj.{part}", split[part], integer(split[part]), computed(f"q_proj_split()['{part}']: {what}", src))
    share = split["gate"] / split["out"]
    reg.add("qproj.gate_share", share, percent(share, 0), computed("gate width / q_proj width", src))

    per_layer = f.output_gate_params(d, t.num_attention_heads, t.head_dim)
    layers = f.anchor_output_gate_layers(t)
    total = per_layer * layers
    # the chapter's ledger (anchor.params.total, anchor.layer.ffn_params), recomputed: a lesson's numbers
    # are built from the inputs alone
    all_params = sum(anchor_ledger(t, inputs.anchor.config.vision_config).values())
    layer_ffn = anchor_layer_parts(t)["ffn"]
    reg.add("gate.per_layer_params", per_layer, integer(per_layer),
            computed("hidden_size × num_attention_heads × head_dim (the gate half of q_proj)", src))
    reg.add("gate.mtp_layers", t.mtp_num_hidden_layers, integer(t.mtp_num_hidden_layers),
            computed("mtp_num_hidden_layers (the MTP module holds one full-attention layer)",
                     anchor_source("mtp_num_hidden_layers")))
    reg.add("gate.layers", layers, integer(layers),
            computed("full-attention layers + MTP layers", anchor_source("layer_types"), FORMULAS))
    reg.add("gate.total_params", total, integer(total), computed("gate parameters per layer × gated layers", ANCHOR))
    reg.add("gate.share", total / all_params, percent(total / all_params, 2),
            computed("gate parameters / all parameters (anchor.params.total)", ANCHOR))
    reg.add("gate.in_ffn_layers", total / layer_ffn, fixed(total / layer_ffn, 2),
            computed("gate parameters / one layer's FFN parameters (anchor.layer.ffn_params)", ANCHOR))

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
    reg.add("gdn.gate_params", d * z, integer(d * z), computed("hidden_size × in_z width", zsrc))


YES_NO = {True: {"zh": "是", "en": "yes"}, False: {"zh": "否", "en": "no"}}

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
    reg.add(f"output_gate.{slug(a.name)}", int(gated), YES_NO[gated],
            computed("attn_output_gate", anchor_source("attn_output_gate")))
    stated = [m for m in inputs.frontier.models if m.attn_output_gate is not None]
    for m in stated:
        p = m.attn_output_gate_source or m.provenance
        where = " ".join(x for x in (p.repository, p.path, p.commit and f"@{p.commit}") if x)
        how = gate_evidence(m)
        source = f"{FRONTIER} ({m.name}; {p.grade}: {where})"
        if how == "code" and m.name in SINK_LOGIT:
            what = ("attn_output_gate (from the model's code, its config has no such key: its attention multiplies "
                    "by no gate and adds a learned sink logit instead)")
            source = SINK_LOGIT[m.name][1]
        else:
            what = {"code": "attn_output_gate (from the model's code: its config has no such key)",
                    "config": f"{GATE_CONFIG_KEYS.get(m.name)} (the model's config key for its attention output gate)",
                    "inferred": "attn_output_gate: inferred (no config key records it; the course read no code for it)"}[how]
        reg.add(f"output_gate.{slug(m.name)}", int(m.attn_output_gate), YES_NO[m.attn_output_gate], computed(what, source))
        if m.name in SINK_LOGIT:
            param, code = SINK_LOGIT[m.name]
            reg.add(f"sink_logit.{slug(m.name)}", 1, {"zh": f"有（{param}）", "en": f"yes ({param})"},
                    computed(f"a learned logit per head, {param}, that joins every softmax row (read from code; "
                             "no config key records it)", code))
    rows = [{"slug": slug(m.name), "name": m.name, "year": m.year, "how": gate_evidence(m),
             "sink": m.name in SINK_LOGIT} for m in sorted(stated, key=lambda m: (m.year, m.name))]
    add_rows(reg, "output_gate.rows", [{"slug": slug(a.name), "name": a.name, "anchor": True, "how": "config"}] + rows,
             computed("the anchor, then every model that records attn_output_gate, oldest first", ANCHOR, FRONTIER))
    yes = sum(m.attn_output_gate for m in stated) + int(gated)
    src = f"{FRONTIER} (attn_output_gate of every model that records it), {ANCHOR}"
    reg.add("output_gate.gated", yes, integer(yes),
            computed("the anchor and the frontier models whose attention output is gated", src))
    inferred = sum(gate_evidence(m) == "inferred" for m in stated)
    reg.add("output_gate.inferred", inferred, integer(inferred),
            computed("the models whose 'no' no config key records (inferred)", FRONTIER))
    sinks = sum(m.name in SINK_LOGIT for m in stated)
    reg.add("sink_logit.models", sinks, integer(sinks),
            computed("the compared models whose code gives each head a learned sink logit", GPT_OSS_SINKS, V4_SINKS))


# ---------------------------------------------------------------- bounding the gated FFN


def add_bounds(reg: Scope, inputs: Inputs) -> None:
    oss = inputs.frontier.by_name("gpt-oss-120b")
    v4 = inputs.frontier.by_name("DeepSeek-V4-Flash")
    k3 = inputs.frontier.by_name("Kimi K3")
    oss_src = f"{FRONTIER} (gpt-oss-120b swiglu_limit), {GPT_OSS_CODE}"
    reg.add("gpt_oss.alpha", GPT_OSS_ALPHA, fixed(GPT_OSS_ALPHA, 3),
            computed("swiglu()'s default alpha (a code constant, no config key)", GPT_OSS_CODE))
    m = f.gpt_oss_clamped_max(GPT_OSS_ALPHA, oss.swiglu_limit)
    reg.add("gpt_oss.clamped_max", m, fixed(m, 2), computed("limit · σ(α · limit) · (limit + 1)", oss_src, FORMULAS))

    k3_src = f"{FRONTIER} (Kimi K3 situ_beta, situ_linear_beta: activation_situ_beta, activation_situ_linear_beta)"
    reg.add("situ.beta", k3.situ_beta, fixed(k3.situ_beta, 0), computed("activation_situ_beta", k3_src))
    reg.add("situ.linear_beta", k3.situ_linear_beta, fixed(k3.situ_linear_beta, 0),
            computed("activation_situ_linear_beta", k3_src))
    bound = f.situ_glu_bound(k3.situ_beta, k3.situ_linear_beta)
    reg.add("situ.bound", bound, fixed(bound, 0), computed("β · β₂: SiTU-GLU stays below it", k3_src, FORMULAS))
    x = v4.swiglu_limit
    s = f.situ_glu(x, x, k3.situ_beta, k3.situ_linear_beta)
    reg.add("situ.at_v4_limit", s, fixed(s, 2),
            computed("SiTU-GLU(x, x) at x = DeepSeek V4's swiglu_limit", k3_src, FRONTIER, FORMULAS))

    limit = inputs.experiments.config(CLAMP_RUN).swiglu_limit
    b = f.swiglu_clamped_max(limit)
    reg.add("small.clamp_bound", b, fixed(b, SURFACE_DIGITS),
            computed(f"SiLU(limit) · limit at the swiglu_limit of {CLAMP_RUN}", EXPERIMENTS, FORMULAS))


# ---------------------------------------------------------------- the widgets' read-outs, from their twins


def add_widget_readouts(reg: Scope, inputs: Inputs) -> None:
    toy = twins.sink_toy()
    where = f"{HERE}/attention-sink.json (teaching data), {TWINS} sink_row()"
    n = len(toy.tokens)
    reg.add("sink.tokens", n, integer(n), computed("tokens in the toy's query row", where))
    reg.add("sink.sink_high", SINK_HIGH, fixed(SINK_HIGH, 0), computed("the first-token logit the lesson sets", NUMBERS))
    g = toy.gate_logit.default
    reg.add("sink.gate_logit", g, fixed(g, 0), computed("the widget's default gate logit", where))
    reg.add("sink.gate_open_logit", GATE_OPEN, fixed(GATE_OPEN, 0), computed("an open gate's logit", NUMBERS))
    found = next(c for c in toy.cases if c.match is not None)
    rows = {
        "nothing": twins.sink_row(toy, "nothing", toy.sink_logit.default, g),
        "nothing_sink": twins.sink_row(toy, "nothing", SINK_HIGH, g),
        "found": twins.sink_row(toy, found.id, toy.sink_logit.default, GATE_OPEN),
        "found_sink": twins.sink_row(toy, found.id, SINK_HIGH, GATE_OPEN),
    }
    words = {"nothing": "no token matches, first-token logit 0", "nothing_sink": f"no match, first-token logit {SINK_HIGH}",
             "found": f"{found.match} matches, first-token logit 0",
             "found_sink": f"{found.match} matches, first-token logit {SINK_HIGH}"}
    for name, r in rows.items():
        reg.add(f"sink.{name}.first_token", r.first_token, percent(r.first_token, 1),
                computed(f"softmax weight on the first token; {words[name]}", where))
        reg.add(f"sink.{name}.weight_sum", sum(r.weights), percent(sum(r.weights), 0),
                computed(f"sum of the row's softmax weights; {words[name]}", where))
        norm = f.length(r.output)
        reg.add(f"sink.{name}.output_norm", norm, fixed(norm, 3), computed(f"‖Σ w_i v_i‖; {words[name]}", where))
        written = f.length(r.written)
        reg.add(f"sink.{name}.written_norm", written, fixed(written, 4),
                computed(f"‖σ(gate logit) · Σ w_i v_i‖; {words[name]}", where))
        if found.match in toy.tokens and name.startswith("found"):
            w = r.weights[toy.tokens.index(found.match)]
            reg.add(f"sink.{name}.match_weight", w, percent(w, 1),
                    computed(f"softmax weight on {found.match}; {words[name]}", where))
    reg.add("sink.uniform_weight", 1 / n, percent(1 / n, 1), computed("1 / tokens: every logit equal", where))
    reg.add("sink.gate", f.sigmoid(g), percent(f.sigmoid(g), 2), computed("σ(default gate logit)", where))
    reg.add("sink.gate_open", f.sigmoid(GATE_OPEN), percent(f.sigmoid(GATE_OPEN), 2),
            computed("σ(open gate logit)", NUMBERS, FORMULAS))

    sw = f"{TWINS} (formulas.surface, a, b ∈ [−{SURFACE_EXTENT:g}, {SURFACE_EXTENT:g}], {SURFACE_POINTS} points each)"
    reg.add("surface.extent", SURFACE_EXTENT, fixed(SURFACE_EXTENT, 0), computed("the grid's half-width", NUMBERS))
    reg.add("surface.points", SURFACE_POINTS, integer(SURFACE_POINTS), computed("grid points per axis", NUMBERS))
    limits = {"none": None, "gpt_oss": inputs.frontier.by_name("gpt-oss-120b").swiglu_limit,
              "deepseek_v4": inputs.frontier.by_name("DeepSeek-V4-Flash").swiglu_limit}
    for name, limit in limits.items():
        z = f.surface(SURFACE_EXTENT, SURFACE_POINTS, limit)
        top = max(max(row) for row in z)
        reg.add(f"surface.max.{name}", top, fixed(top, SURFACE_DIGITS),
                computed(f"largest SiLU(a)·b on the grid, clamp {limit if limit else 'none'}", sw, FRONTIER))


# ---------------------------------------------------------------- measured: our small model


def add_measured(reg: Scope, inputs: Inputs) -> None:
    base = inputs.experiments.base
    ref = f.uniform_first_token_share(base.block_size)
    reg.add("sink_threshold", SINK_THRESHOLD,
            {"zh": fixed(SINK_THRESHOLD, 1) + " 倍", "en": fixed(SINK_THRESHOLD, 1) + " times"},
            computed("how many times the uniform share the notes call favoring the first token", NUMBERS))
    reg.add("uniform_first_token", ref, percent(ref, 2),
            computed("mean over t = 1 … block_size − 1 of 1/(t + 1)", f"{EXPERIMENTS} (base block_size)", FORMULAS))
    gate = base.n_layer * base.d_model * base.d_model
    reg.add("small.gate_params", gate, integer(gate),
            computed("n_layer × d_model × d_model (one gate matrix per layer)", f"{EXPERIMENTS} (base)"))

    results: Results = inputs.results
    runs = [r for r in (BASELINE, GATE_RUN, CLAMP_RUN) if r in results.runs]
    for run in runs:
        rs = results.runs[run]
        prov = provenance(rs, f"{run} (first-token attention per layer)")
        for when in ("init", "end"):
            for i in range(len(rs[0].end.first_token_attention)):
                spread_keys(reg, f"fta.{run}.{when}.layer{i + 1}",
                            [getattr(r, when).first_token_attention[i] for r in rs], lambda x: percent(x, 1), prov)
    if BASELINE not in results.runs:
        return
    if GATE_RUN in results.runs:
        for metric in ("final_val_loss", "end_first_token_attention", "max_ffn_act"):
            compare(reg, f"compare.gate.{metric}", results, GATE_RUN, BASELINE, metric)
        share = [gate / r.parameters for r in results.runs[GATE_RUN]]
        spread_keys(reg, "small.gate_share", share, lambda x: percent(x, 1),
                    provenance(results.runs[GATE_RUN], f"{GATE_RUN} (parameters)"))
    if CLAMP_RUN in results.runs:
        for metric in ("final_val_loss", "max_ffn_act"):
            compare(reg, f"compare.clamp.{metric}", results, CLAMP_RUN, BASELINE, metric)
        limit = inputs.experiments.config(CLAMP_RUN).swiglu_limit
        add_clamp_engagement(reg, results, limit, f.swiglu_clamped_max(limit))


def same_machine(a, b) -> bool:
    """Two results computed alike: the same device, torch and thread count. Only then does a loss curve
    equal to the bit mean that nothing differed; across machines the last bits differ from the first steps."""
    pa, pb = a.provenance, b.provenance
    return (pa.device_name, pa.torch, pa.threads) == (pb.device_name, pb.torch, pb.threads)


def add_clamp_engagement(reg: Scope, results: Results, limit: float, bound: float) -> None:
    """Did the clamp ever act, and on what? It changes an entry whenever the gate's input is above the limit
    or the up branch beyond ±limit, whatever their product. Under the same seed the clamped run starts from
    the baseline's initialization and reads its data: on the same machine, the two compute the same numbers
    until the clamp first changes one, so a clamped loss curve equal to the baseline's to the bit is one the
    clamp never touched, and the first step whose loss differs is where it took hold. Seeds whose two
    results come from different machines tell nothing this way and are left out of these counts. The
    baseline's product is the wrong thing to count: it can stay below the bound while an input crosses
    the limit, as these keys show (the peak product of the baseline in the seeds where the clamp acted)."""
    base, clamp = results.runs[BASELINE], results.runs[CLAMP_RUN]
    pairs = [(c, b) for c, b in zip(clamp, base) if same_machine(c, b)]
    pair = provenance(clamp, f"{CLAMP_RUN} vs {BASELINE} (train-loss curves compared bit for bit, same machine)")
    reg.add("clamp.comparable_seeds", len(pairs), integer(len(pairs)), pair)
    same = sum(c.curves.train_loss == b.curves.train_loss for c, b in pairs)
    reg.add("clamp.identical_seeds", same, integer(same), pair)
    apart = [(next(s for s, x, y in zip(c.curves.step, c.curves.train_loss, b.curves.train_loss) if x != y), b)
             for c, b in pairs if c.curves.train_loss != b.curves.train_loss]
    reg.add("clamp.acting_seeds", len(apart), integer(len(apart)), pair)
    if apart:
        spread_keys(reg, "clamp.acting_first_step", [s for s, _ in apart], integer, pair)
        peaks = [b.metrics.max_ffn_act for _, b in apart]
        spread_keys(reg, "clamp.acting_base_peak", peaks, lambda x: fixed(x, 1),
                    provenance(base, f"{BASELINE} (largest FFN product over training, in the seeds where the clamp acted)"))
        below = sum(p * (1 + MARGIN_OTHER) < bound for p in peaks)
        reg.add("clamp.acting_below_bound_seeds", below, integer(below),
                provenance(base, f"{BASELINE}: seeds where the clamp acted though the baseline's peak product stays "
                                 f"below the bound by more than the {MARGIN_OTHER:.0%} margin"))
        under = [bound / p for p in peaks]
        spread_keys(reg, "clamp.acting_bound_over_base_peak", under, lambda x: fixed(x, 3),
                    provenance(base, f"SiLU(limit)·limit / the baseline's peak product, seeds where the clamp acted"))
    # the inputs of the two branches at the end of training, before the clamp (the probe reads the
    # outputs of gate_proj and up_proj): above the limit while the product stays under the bound
    spread_keys(reg, "clamp.end_pre_max", [max(r.end.ffn_pre_max) for r in clamp], lambda x: fixed(x, 2),
                provenance(clamp, f"{CLAMP_RUN} (largest |gate or up input| at the end, before the clamp)"))
    reg.add("clamp.limit", limit, fixed(limit, 0), computed(f"swiglu_limit of {CLAMP_RUN}", EXPERIMENTS))


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_anchor_gates(reg, inputs)
    add_who_gates(reg, inputs)
    add_bounds(reg, inputs)
    add_widget_readouts(reg, inputs)
    add_measured(reg, inputs)
