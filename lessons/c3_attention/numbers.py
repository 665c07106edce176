"""Lesson C3-1's registry numbers (attention.*): the widget's teaching data at its defaults (from the Python twin),
the scale 1/√d_head for the anchor and for the small model's init, softmax's saturation without it, the anchor's
heads and its full-attention layer's parameters, what one layer's attention and FFN cost per token in every model
this lesson counts (and the context at which the two are equal), and the measured runs' attention statistics."""
from __future__ import annotations

import math

from course.common.numbers import ANCHOR, EXPERIMENTS, anchor_source, computed_from, frontier_source, slug
from course.common.schema import FrontierModel, Inputs
from course.core.formats import fixed, integer, percent, significant, vector
from course.core.registry import Computed, Scope, add_rows
from course.project import words
from lessons.c3_attention import formulas as f
from lessons.c3_attention import twins

WORDS = words(__file__)   # lessons/c3_attention/words.LANG.json
HERE = "lessons/c3_attention"
FORMULAS = f"{HERE}/formulas.py"
TWINS = f"{HERE}/twins.py"
VECTORS = f"{HERE}/teaching-vectors.json"


computed = computed_from(FORMULAS)


def millions(x: float) -> dict[str, str]:
    """A count of FLOPs in the units each language reads it in: millions to one decimal in English; in Chinese
    万 below 亿 (to the 万) and 亿 from there (to three decimals, 10 万, as fine as the English)."""
    return WORDS("millions.small" if x < 1e8 else "millions.large", m=fixed(x / 1e6, 1), wan=integer(round(x / 1e4)),
                 yi=fixed(x / 1e8, 3))


def thousands(x: float) -> dict[str, str]:
    """A count of tokens to the nearest 50, as a check-yourself answer shows it: thousands to one decimal in
    English, 万 to two decimals in Chinese (the tolerance is half a unit of the last digit, 50 tokens in each)."""
    return WORDS("thousands", k=fixed(x / 1e3, 1), wan=fixed(x / 1e4, 2))


# ---------------------------------------------------------------- the widget's teaching data

QUESTION_SCALE = 2.0    # the scale multiplier a check-yourself question asks about (the slider reaches it)

def add_toy(reg: Scope) -> None:
    t = twins.teaching()
    src = [VECTORS, TWINS]
    reg.add("toy.d", t.d, integer(t.d), computed(WORDS("toy.d"), VECTORS))
    reg.add("toy.inv_sqrt_d", 1 / math.sqrt(t.d), fixed(1 / math.sqrt(t.d), 1), computed("1 / √d", VECTORS))
    reg.add("toy.tokens", len(t.tokens), integer(len(t.tokens)), computed(WORDS("toy.tokens"), VECTORS))
    default = t.scale.default
    reg.add("toy.scale.default", default, fixed(default, 0), computed(WORDS("toy.scale.default"), VECTORS))
    reg.add("toy.scale.max", t.scale.max, fixed(t.scale.max, 0), computed(WORDS("toy.scale.max"), VECTORS))
    reg.add("toy.scale.question", QUESTION_SCALE, fixed(QUESTION_SCALE, 0), computed(WORDS("toy.scale.question"), HERE + "/numbers.py"))
    i = t.reader
    for causal, key in ((True, "masked"), (False, "unmasked")):
        for m, at in ((default, "default"), (0.0, "zero"), (t.scale.max, "max")):
            row = twins.weights(t, m, causal)[i]
            for j, w in enumerate(row):
                if w is not None:
                    reg.add(f"toy.{key}.{at}.w{j}", w, fixed(w, 2),
                            computed(WORDS("toy.weight", m=fixed(m, 1), mask=WORDS(f"toy.mask.{key}"), j=j), *src))
        out = twins.outputs(t, default, causal)[i]
        if causal:   # the scores the row of 苹果 gives the tokens it may read, at the default and at m = question
            for m, at in ((default, "default"), (QUESTION_SCALE, "question")):
                for j in range(i + 1):
                    sc = m * twins.scores(t)[i][j]
                    reg.add(f"toy.masked.{at}.s{j}", sc, fixed(sc, 2),
                            computed(WORDS("toy.score", m=fixed(m, 1), j=j), *src))
            for j, w in enumerate(twins.weights(t, QUESTION_SCALE, True)[i]):
                if w is not None:
                    reg.add(f"toy.masked.question.w{j}", w, fixed(w, 2),
                            computed(WORDS("toy.weight", m=fixed(QUESTION_SCALE, 1), mask=WORDS("toy.mask.masked"), j=j),
                                     *src))
        reg.add(f"toy.{key}.default.output", out, vector(out, 2),
                computed(WORDS("toy.output", mask=WORDS(f"toy.mask.{key}")), *src))


# ---------------------------------------------------------------- the scale, heads and parameters

def add_scale(reg: Scope, inputs: Inputs) -> None:
    t = inputs.anchor.config.text_config
    src = anchor_source("head_dim")
    s = math.sqrt(t.head_dim)
    reg.add("anchor.sqrt_head_dim", s, fixed(s, 0), computed("√head_dim", src))
    reg.add("anchor.inv_sqrt_head_dim", 1 / s, fixed(1 / s, 4), computed("1 / √head_dim", src))
    # softmax over rows of the anchor's head_dim scores: with the scale (std 1 for unit-variance entries) and
    # without it (std √head_dim), as footnote 4's assumption has it
    keys, rows, seed = t.head_dim, SATURATION_ROWS, SATURATION_SEED
    for key, std in (("scaled", 1.0), ("unscaled", s)):
        r = f.saturation(std, keys, rows, seed)
        how = WORDS("saturation.how", std=fixed(std, 0), keys=keys, rows=rows, seed=seed)
        reg.add(f"saturation.{key}.std", std, fixed(std, 0), computed(WORDS("saturation.std"), src, FORMULAS))
        reg.add(f"saturation.{key}.max_weight", r["max_weight"], fixed(r["max_weight"], 2),
                computed(WORDS("saturation.max_weight", how=how), src, FORMULAS))
        reg.add(f"saturation.{key}.entropy_share", r["entropy_share"], percent(r["entropy_share"], 0),
                computed(WORDS("saturation.entropy_share", how=how), src, FORMULAS))
    reg.add("saturation.keys", keys, integer(keys), computed(WORDS("saturation.keys"), src))

    # the small model at init: a q or k entry has variance d_model · init_std² (the norm's output has unit RMS)
    base = inputs.experiments.base
    d_head = base.d_model // base.n_head
    var = base.d_model * base.init_std ** 2
    esrc = f"{EXPERIMENTS} (base)"
    reg.add("project.d_head", d_head, integer(d_head), computed("d_model / n_head", esrc))
    reg.add("project.sqrt_d_head", math.sqrt(d_head), fixed(math.sqrt(d_head), 1), computed("√(d_model / n_head)", esrc))
    reg.add("project.entry_var", var, fixed(var, 4), computed("d_model × init_std²", esrc))
    unscaled = math.sqrt(d_head) * var
    reg.add("project.unscaled_std_init", unscaled, fixed(unscaled, 2),
            computed(WORDS("project.unscaled_std_init"), esrc, FORMULAS))
    reg.add("project.scaled_std_init", var, fixed(var, 3), computed(WORDS("project.scaled_std_init"), esrc))


SATURATION_ROWS, SATURATION_SEED = 200, 3
KV_CONTEXT = 131_072    # 128k tokens, the context at which lesson C3-2 counts every model's cache


def add_heads(reg: Scope, inputs: Inputs) -> None:
    from course.common.formulas import anchor_layer_parts
    t = inputs.anchor.config.text_config
    reg.add("anchor.num_kv_heads", t.num_key_value_heads, integer(t.num_key_value_heads),
            computed("num_key_value_heads", anchor_source("num_key_value_heads")))
    g = t.num_attention_heads // t.num_key_value_heads
    reg.add("anchor.group", g, integer(g),
            computed("num_attention_heads / num_key_value_heads", anchor_source("num_key_value_heads")))
    parts = anchor_layer_parts(t)
    layer = parts["full_attention"] + parts["ffn"] + 2 * parts["norm"]
    share = parts["full_attention"] / layer
    reg.add("anchor.attention_share_of_layer", share, percent(share, 1),
            computed(WORDS("anchor.attention_share_of_layer"), ANCHOR, "course/common/formulas.py"))
    # the keys and values the anchor keeps for a context of 128k tokens (BF16): its full-attention layers only,
    # without the fixed state of its Gated DeltaNet layers, which does not grow with the context
    n_full = sum(x == "full_attention" for x in t.layer_types)
    kv = n_full * 2 * t.num_key_value_heads * t.head_dim * 2 * KV_CONTEXT
    reg.add("anchor.kv_at_128k", kv, fixed(kv / 1e9, 2) + " GB",
            computed(WORDS("anchor.kv_at_128k", context=integer(KV_CONTEXT)), anchor_source("layer_types"),
                     anchor_source("head_dim")))
    interval = t.full_attention_interval
    reg.add("anchor.full_attention_interval", interval, integer(interval),
            computed("full_attention_interval", anchor_source("full_attention_interval")))


# ---------------------------------------------------------------- cost against context

QUESTION_MODEL = "Llama 3.1 8B"    # the model a check-yourself question asks the scale of

# models this lesson does not count, and why (the words cost.skip.KEY say it on the page)
SKIPPED = {"Transformer base": "encdec", "DeepSeek-V4-Flash": "v4", "DeepSeek-V4-Pro": "v4", "Kimi K3": "latent"}


def frontier_cost(m: FrontierModel) -> f.LayerCost:
    """One full-attention layer of a frontier model (an MoE layer where the model has them)."""
    d = m.hidden_size
    if m.kv_lora_rank:
        proj = f.mla_projection_weights(d, m.num_heads, m.q_lora_rank, m.kv_lora_rank, m.qk_nope_head_dim,
                                        m.qk_rope_head_dim, m.v_head_dim)
        per_key = f.per_key_flops(m.num_heads, m.qk_nope_head_dim + m.qk_rope_head_dim, m.v_head_dim)
    else:
        proj = f.gqa_projection_weights(d, m.num_heads, m.num_kv_heads, m.head_dim, bool(m.attn_output_gate))
        per_key = f.per_key_flops(m.num_heads, m.head_dim, m.head_dim)
    gated = m.activation not in ("relu", "gelu")
    if m.num_experts:
        width = m.moe_ffn_width or m.ffn_width      # gpt-oss's config gives its experts' width as intermediate_size
        experts = m.experts_per_token + (m.shared_experts or 0)
        ffn = experts * f.ffn_weights(d, width, gated)
    else:
        ffn = f.ffn_weights(d, m.ffn_width, gated)
    return f.LayerCost(ffn, proj, per_key)


def anchor_cost(inputs: Inputs) -> f.LayerCost:
    t = inputs.anchor.config.text_config
    proj = f.gqa_projection_weights(t.hidden_size, t.num_attention_heads, t.num_key_value_heads, t.head_dim,
                                    t.attn_output_gate)
    return f.LayerCost(f.ffn_weights(t.hidden_size, t.intermediate_size, True), proj,
                       f.per_key_flops(t.num_attention_heads, t.head_dim, t.head_dim))


def add_cost(reg: Scope, inputs: Inputs) -> None:
    rows = []
    counted = [m for m in inputs.frontier.models if m.name not in SKIPPED]
    for m in sorted(counted, key=lambda m: (m.year, m.name)):
        c, s = frontier_cost(m), slug(m.name)
        add_layer_cost(reg, s, c, frontier_source(m.name, m.provenance.grade), m.max_position_embeddings)
        rows.append({"slug": s, "name": m.name, "moe": bool(m.num_experts), "mla": bool(m.kv_lora_rank),
                     "max": m.max_position_embeddings,
                     "hybrid": bool(m.layer_types and any(x != "full_attention" for x in m.layer_types))})
    t = inputs.anchor.config.text_config
    a = anchor_cost(inputs)
    add_layer_cost(reg, "anchor", a, ANCHOR, t.max_position_embeddings)
    # a check-yourself answer no page prints: the context at which the anchor's attention costs twice its FFN
    twice = (2 * a.ffn_flops - a.projection_flops) / a.per_key
    reg.add("cost.anchor.twice_ffn", twice, thousands(twice), computed(WORDS("cost.twice_ffn"), ANCHOR, FORMULAS))
    # another model's scale, for a check-yourself question (the page prints the anchor's)
    m = next(m for m in inputs.frontier.models if m.name == QUESTION_MODEL)
    src = frontier_source(m.name, m.provenance.grade)
    reg.add("question_model.head_dim", m.head_dim, integer(m.head_dim), computed("head_dim", src))
    reg.add("question_model.inv_sqrt_head_dim", 1 / math.sqrt(m.head_dim), fixed(1 / math.sqrt(m.head_dim), 4),
            computed("1 / √head_dim", src))
    rows.append({"slug": "anchor", "name": inputs.anchor.name, "moe": False, "mla": False, "anchor": True,
                 "max": t.max_position_embeddings, "hybrid": True})
    add_rows(reg, "cost.rows", rows, computed(WORDS("cost.rows"), "data/frontier-models.json", ANCHOR))
    skipped = [n for n in SKIPPED if n in {m.name for m in inputs.frontier.models}]
    reg.add("cost.skipped", len(skipped), integer(len(skipped)), computed(WORDS("cost.skipped"), HERE + "/numbers.py"))
    crossovers = [reg.value(f"attention.cost.{r['slug']}.crossover") for r in rows]
    reg.add("cost.crossover_min", min(crossovers), integer(round(min(crossovers))), computed(WORDS("cost.crossover_min")))
    reg.add("cost.crossover_max", max(crossovers), integer(round(max(crossovers))), computed(WORDS("cost.crossover_max")))


def add_layer_cost(reg: Scope, s: str, c: f.LayerCost, src, max_context) -> None:
    k = f"cost.{s}"
    reg.add(f"{k}.ffn_flops", c.ffn_flops, millions(c.ffn_flops), computed(WORDS("cost.ffn_flops"), src, FORMULAS))
    reg.add(f"{k}.projection_flops", c.projection_flops, millions(c.projection_flops),
            computed(WORDS("cost.projection_flops"), src, FORMULAS))
    reg.add(f"{k}.per_key", c.per_key, integer(c.per_key), computed(WORDS("cost.per_key"), src, FORMULAS))
    reg.add(f"{k}.crossover", c.crossover, integer(round(c.crossover)), computed(WORDS("cost.crossover"), src, FORMULAS))
    if max_context:
        at = c.attention_flops(max_context) / c.ffn_flops
        reg.add(f"{k}.at_max_over_ffn", at, WORDS("times", x=fixed(at, 1)),
                computed(WORDS("cost.at_max_over_ffn", context=integer(max_context)), src, FORMULAS))


# ---------------------------------------------------------------- the measured section

ATTN_RUNS = ("c3_baseline", "c3_no_scale", "c3_causal_mean")
# the words of the runs' statistics (asked for once the results exist)
RUN_WORDS = {"score_std": "runs.score_std", "entropy_share": "runs.entropy_share", "init": "runs.init", "end": "runs.end"}


def layer_mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def attention_metrics(r, when: int) -> dict:
    """One seed's attention statistics at one evaluation (0: the first, before any update; −1: the last): the
    scores' std and the weights' entropy over the uniform's, each the mean over the layers."""
    a = getattr(r, "attention", None)
    if a is None:
        return {}
    return {"score_std": layer_mean(a.score_std[when]),
            "entropy_share": layer_mean([e / a.uniform_entropy for e in a.entropy[when]])}


# The statistics over seeds the pages and notes quote of each attention statistic (nothing else is computed)
QUOTED_STATS = {
    "runs.c3_no_scale.init_score_std": ("min", "max", "range"),
    "runs.c3_baseline.init_score_std": ("min", "max", "range"),
    "runs.c3_no_scale.init_entropy_share": ("min", "range"),
    "runs.c3_baseline.init_entropy_share": ("min", "range"),
    "runs.c3_no_scale.end_score_std": ("min", "range"),
    "runs.c3_baseline.end_score_std": ("min", "max", "range"),
    "runs.c3_no_scale.end_entropy_share": ("max", "range"),
    "runs.c3_baseline.end_entropy_share": ("min", "range"),
}


def add_runs(reg: Scope, inputs: Inputs) -> None:
    """With the committed results of every run of this lesson: their attention statistics seed by seed, and the
    final loss against the baseline. Without them nothing is added (a page that quotes them is a draft)."""
    from course.common.measured import add_margins, compare, provenance, spread_keys
    results = inputs.results
    if not all(r in results.runs for r in ATTN_RUNS):
        return
    add_margins(reg, "loss_pair", "other")
    for run in ATTN_RUNS:
        runs = results.runs[run]
        for when, at in ((0, "init"), (-1, "end")):
            for metric, text in (("score_std", lambda x: significant(x, 2)), ("entropy_share", lambda x: percent(x, 1))):
                values = [attention_metrics(r, when).get(metric) for r in runs]
                key = f"runs.{run}.{at}_{metric}"
                if key not in QUOTED_STATS:
                    continue     # not quoted (the causal mean has no scores, and its weights are uniform by design)
                spread_keys(reg, key, values, text,
                            provenance(runs, WORDS(RUN_WORDS[metric], run=run, at=WORDS(RUN_WORDS[at]))), *QUOTED_STATS[key])
    for run in ATTN_RUNS[1:]:
        compare(reg, f"compare.{run}.final_val_loss", results, run, "c3_baseline", "final_val_loss", "min", "range")
    add_curves(reg, inputs)


def val_losses(r) -> list:
    return list(r.val.loss)


def add_curves(reg: Scope, inputs: Inputs) -> None:
    """What the validation curves say beyond the final loss: when the causal mean left the unigram loss and how
    far below it it ends, how much each run still fell over the last evaluation interval, how the gaps to the
    baseline grew over the last two intervals, how far ahead of the baseline the run without the scale got
    early on (its largest lead, with the seed and step), and how much larger q·k itself ended without the scale
    once the factor √d_head is taken out (the pooled std of the scores, seed by seed)."""
    from course.common.measured import (LEFT_UNIGRAM_MARGIN, METRICS, provenance, seed_values, spread_keys,
                                        trained_on)
    runs = inputs.results.runs
    reg.add("left_unigram_margin", LEFT_UNIGRAM_MARGIN, fixed(LEFT_UNIGRAM_MARGIN, 2),
            computed(WORDS("left_unigram_margin"), "course/common/measured.py (LEFT_UNIGRAM_MARGIN)"))
    cm, base, ns = runs["c3_causal_mean"], runs["c3_baseline"], runs["c3_no_scale"]
    spread_keys(reg, "runs.c3_causal_mean.below_unigram", seed_values(cm, "below_unigram"), METRICS["below_unigram"][1],
                provenance(cm, WORDS("runs.below_unigram", run="c3_causal_mean")), "min", "range")
    for run, stats in (("c3_causal_mean", ("min", "range")), ("c3_baseline", ("max", "range"))):
        spread_keys(reg, f"runs.{run}.left_unigram_step", seed_values(runs[run], "left_unigram_step"), integer,
                    provenance(runs[run], WORDS("runs.left_unigram_step", run=run)), *stats)
    for run in ("c3_causal_mean", "c3_baseline"):
        drops = [val_losses(r)[-2] - val_losses(r)[-1] for r in runs[run]]
        spread_keys(reg, f"runs.{run}.last_drop", drops, lambda x: fixed(x, 3),
                    provenance(runs[run], WORDS("runs.last_drop", run=run)), "min")
    for run in ("c3_no_scale", "c3_causal_mean"):
        gaps = [[a - b for a, b in zip(val_losses(x), val_losses(y))] for x, y in zip(runs[run], base)]
        spread_keys(reg, f"runs.{run}.gap_growth", [g[-1] - g[-3] for g in gaps], lambda x: fixed(x, 3),
                    provenance(runs[run], WORDS("runs.gap_growth", run=run)), "min")
    # the largest lead of the run without the scale over the baseline, at any evaluation after the first
    lead, seed, step = max((b - a, x.config.seed, s) for x, y in zip(ns, base)
                           for s, a, b in zip(x.val.step[1:], val_losses(x)[1:], val_losses(y)[1:]))
    prov = provenance(ns, WORDS("runs.lead", run="c3_no_scale"))
    reg.add("runs.c3_no_scale.lead", lead, fixed(lead, 3), prov)
    reg.add("runs.c3_no_scale.lead.seed", seed, str(seed), prov)
    reg.add("runs.c3_no_scale.lead.step", step, integer(step), prov)
    # what that lead measures: the largest lead in the other seeds; and, at the lead's step, the baseline's loss
    # in the lead's seed against every other seed of the two runs
    elsewhere = max(b - a for x, y in zip(ns, base) if x.config.seed != seed
                    for a, b in zip(val_losses(x)[1:], val_losses(y)[1:]))
    reg.add("runs.c3_no_scale.lead_elsewhere.max", elsewhere, fixed(elsewhere, 3),
            provenance(ns, WORDS("runs.lead_elsewhere", run="c3_no_scale")))
    at = lambda r: val_losses(r)[list(r.val.step).index(step)]   # noqa: E731
    slow = next(at(y) for y in base if y.config.seed == seed)
    reg.add("runs.c3_baseline.at_lead", slow, fixed(slow, 3), provenance(base, WORDS("runs.at_lead", run="c3_baseline")))
    others = [at(r) for r in ns] + [at(y) for y in base if y.config.seed != seed]
    spread_keys(reg, "runs.at_lead.others", others, lambda x: fixed(x, 3),
                provenance(ns + base, WORDS("runs.at_lead_others")), "max", "range")
    device = trained_on([r for n in ATTN_RUNS for r in runs[n]])   # the CPU (or CPUs, with their seeds)
    cpus = " / ".join(sorted({r.provenance.cpu for n in ATTN_RUNS for r in runs[n]}))
    reg.add("runs.device", cpus, device,
            provenance(base, WORDS("runs.device")))
    # q·k without the scale against the baseline's q·k (its scaled std times √d_head), seed by seed, at the end
    root = math.sqrt(inputs.experiments.base.d_model // inputs.experiments.base.n_head)
    ratios = [attention_metrics(x, -1)["score_std"] / (root * attention_metrics(y, -1)["score_std"])
              for x, y in zip(ns, base)]
    spread_keys(reg, "runs.qk_ratio", ratios, lambda x: fixed(x, 1),
                provenance(ns, WORDS("runs.qk_ratio")), "min", "max", "range")
    # the same ratio layer by layer (every layer of every seed), and the weights' entropy layer by layer
    layer_ratios = [a / (root * b) for x, y in zip(ns, base)
                    for a, b in zip(x.attention.score_std[-1], y.attention.score_std[-1])
                    if a is not None and b is not None]
    spread_keys(reg, "runs.qk_ratio_layer", layer_ratios, lambda x: fixed(x, 1),
                provenance(ns, WORDS("runs.qk_ratio_layer")), "min", "max")
    for run, stat in (("c3_no_scale", "max"), ("c3_baseline", "min")):
        shares = [e / r.attention.uniform_entropy for r in runs[run] for e in r.attention.entropy[-1] if e is not None]
        spread_keys(reg, f"runs.{run}.end_entropy_layer", shares, lambda x: percent(x, 1),
                    provenance(runs[run], WORDS("runs.end_entropy_layer", run=run)), stat)


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_toy(reg)
    add_scale(reg, inputs)
    add_heads(reg, inputs)
    add_cost(reg, inputs)
    add_runs(reg, inputs)
