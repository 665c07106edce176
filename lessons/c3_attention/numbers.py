"""Lesson C3-1's registry numbers (attention.*): the widget's teaching data at its defaults (from the Python twin),
the scale 1/√d_head for the anchor and for the small model's init, softmax's saturation without it, the anchor's
heads and its full-attention layer's parameters, what one layer's attention and FFN cost per token in every model
this lesson counts (and the context at which the two are equal), and the measured runs' attention statistics."""
from __future__ import annotations

import math

from course.common.numbers import ANCHOR, EXPERIMENTS, anchor_source, frontier_source, slug
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


def computed(formula, *sources) -> Computed:
    return Computed(formula=formula, sources=list(sources) or [FORMULAS])


def millions(x: float) -> dict[str, str]:
    """A count of FLOPs in the unit each language reads it in: 百万 or million."""
    return WORDS("millions", m=fixed(x / 1e6, 1))


# ---------------------------------------------------------------- the widget's teaching data

def add_toy(reg: Scope) -> None:
    t = twins.teaching()
    src = [VECTORS, TWINS]
    reg.add("toy.d", t.d, integer(t.d), computed(WORDS("toy.d"), VECTORS))
    reg.add("toy.inv_sqrt_d", 1 / math.sqrt(t.d), fixed(1 / math.sqrt(t.d), 1), computed("1 / √d", VECTORS))
    reg.add("toy.tokens", len(t.tokens), integer(len(t.tokens)), computed(WORDS("toy.tokens"), VECTORS))
    default = t.scale.default
    reg.add("toy.scale.default", default, fixed(default, 0), computed(WORDS("toy.scale.default"), VECTORS))
    reg.add("toy.scale.max", t.scale.max, fixed(t.scale.max, 0), computed(WORDS("toy.scale.max"), VECTORS))
    i = t.reader
    for causal, key in ((True, "masked"), (False, "unmasked")):
        for m, at in ((default, "default"), (0.0, "zero"), (t.scale.max, "max")):
            row = twins.weights(t, m, causal)[i]
            for j, w in enumerate(row):
                if w is not None:
                    reg.add(f"toy.{key}.{at}.w{j}", w, fixed(w, 2),
                            computed(WORDS("toy.weight", m=fixed(m, 1), mask=WORDS(f"toy.mask.{key}"), j=j), *src))
        out = twins.outputs(t, default, causal)[i]
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
    reg.add("project.entry_var", var, fixed(var, 4), computed("d_model × init_std²", esrc))
    unscaled = math.sqrt(d_head) * var
    reg.add("project.unscaled_std_init", unscaled, fixed(unscaled, 2),
            computed(WORDS("project.unscaled_std_init"), esrc, FORMULAS))
    reg.add("project.scaled_std_init", var, fixed(var, 3), computed(WORDS("project.scaled_std_init"), esrc))


SATURATION_ROWS, SATURATION_SEED = 200, 3


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
    interval = t.full_attention_interval
    reg.add("anchor.full_attention_interval", interval, integer(interval),
            computed("full_attention_interval", anchor_source("full_attention_interval")))


# ---------------------------------------------------------------- cost against context

# models this lesson does not count, and why (the words cost.skip.KEY say it on the page)
SKIPPED = {"Transformer base": "encdec", "Qwen3-Next-80B-A3B": "shared", "DeepSeek-V4-Flash": "v4",
           "DeepSeek-V4-Pro": "v4", "Kimi K3": "latent"}


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
    add_layer_cost(reg, "anchor", anchor_cost(inputs), ANCHOR, t.max_position_embeddings)
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
        reg.add(f"{k}.at_max_over_ffn", at, fixed(at, 1) + "×",
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
    "runs.c3_baseline.end_score_std": ("max", "range"),
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


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_toy(reg)
    add_scale(reg, inputs)
    add_heads(reg, inputs)
    add_cost(reg, inputs)
    add_runs(reg, inputs)
