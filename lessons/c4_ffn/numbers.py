"""The FFN lesson's numbers, all under `ffn.` in the registry.

What an FFN costs in the 2017 Transformer, GPT-2, Llama 2, DeepSeek-LLM-67B and the anchor; the
equal-parameter width and Meta's rounding rule; d_ff/d across the frontier models with a dense FFN; one MoE
model's FFN weights in total and per token; the activation explorer's and the ring classifier's read-outs
(from the Python twins); the small model's FFN widths; and the seed-by-seed comparisons the reading notes
rest on.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from course.common.formulas import (
    anchor_layer_parts,
    anchor_ledger,
    swiglu_equal_params_width,
)
from course.common.measured import (BASELINE, Results, add_margins, add_pair_drift, compare, newest, provenance,
                                     spread_keys, trained_on)
from course.common.numbers import ANCHOR, EXPERIMENTS, FRONTIER, anchor_source, computed_from, slug
from course.common.numbers import frontier_source as common_frontier_source
from course.common.schema import FrontierModel, Inputs
from course.core.formats import fixed, integer, percent, significant
from course.core.registry import Computed, Measured, Scope, add_rows
from course.project import words
from lessons.c4_ffn import formulas as f
from lessons.c4_ffn import twins

WORDS = words(__file__)   # lessons/c4_ffn/words.LANG.json
HERE = "lessons/c4_ffn"
FORMULAS = f"{HERE}/formulas.py"
NUMBERS = f"{HERE}/numbers.py"
TWINS = f"{HERE}/twins.py"


computed = computed_from(FORMULAS)


def frontier_source(m: FrontierModel) -> dict[str, str]:
    return common_frontier_source(m.name, m.provenance.grade)


def ffn_kind(m: FrontierModel) -> str:
    """Two matrices for ReLU and GELU; the gated forms (SwiGLU, Kimi K3's SiTU-GLU) have three."""
    return "two_matrix" if m.activation in ("relu", "gelu") else "swiglu"


def exact_ratio(num: int, den: int, digits: int) -> tuple[Fraction, str]:
    """num/den as an exact fraction and its text, rounded half up on the exact value: 17,408 / 13,653⅓ is
    exactly 1.275 and prints 1.28, where the float 1.275 (stored as 1.27499…) would print 1.27. The shared
    formatter rounds the binary value on purpose (the widgets' JavaScript does the same); a ratio of two
    config integers is exact, so it is rounded here, before it becomes a float."""
    q = Fraction(num, den)
    exact = (Decimal(q.numerator) / Decimal(q.denominator)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return q, f"{exact:,.{digits}f}"


def billions(x: float) -> dict[str, str]:
    """A count of parameters in the unit each language reads it in: 亿 (10⁸) or billion (10⁹)."""
    return WORDS("billions", in_1e8=fixed(x / 1e8, 0), in_1e9=fixed(x / 1e9, 1))


# ---------------------------------------------------------------- the steps of the lesson

def add_two_matrix_era(reg: Scope, inputs: Inputs) -> None:
    """Step 1 and 2: the 2017 Transformer's and GPT-2's two-matrix FFNs, weights per layer."""
    for key, name in (("transformer_base", "Transformer base"), ("gpt2", "GPT-2 small")):
        m = inputs.frontier.by_name(name)
        n = f.two_matrix_ffn_params(m.hidden_size, m.ffn_width)
        reg.add(f"{key}.params_per_layer", n, integer(n),
                computed(WORDS("two_matrix.params_per_layer"), frontier_source(m), FORMULAS))
    gpt2 = inputs.frontier.by_name("GPT-2 small")
    bias = f.ffn_bias_params(gpt2.hidden_size, gpt2.ffn_width)
    weights = f.two_matrix_ffn_params(gpt2.hidden_size, gpt2.ffn_width)
    reg.add("gpt2.bias_params", bias, integer(bias), computed(WORDS("gpt2.bias_params"),
                                                               frontier_source(gpt2), FORMULAS))
    reg.add("gpt2.bias_share", bias / (weights + bias), percent(bias / (weights + bias), 2),
            computed(WORDS("gpt2.bias_share"), frontier_source(gpt2), FORMULAS))


def add_equal_params(reg: Scope, inputs: Inputs) -> None:
    """Step 3: the width at which three matrices cost what two matrices of width 4d cost, and Meta's rule
    that turns it into Llama 2 7B's 11,008 (and DeepSeek-LLM-67B's width)."""
    llama = inputs.frontier.by_name("Llama 2 7B")
    src = frontier_source(llama)
    d, m = llama.hidden_size, llama.ffn_multiple_of
    reg.add("llama2.hidden_size", d, integer(d), computed("hidden_size", src))
    reg.add("llama2.four_d", 4 * d, integer(4 * d), computed(WORDS("llama2.four_d"), src))
    eq = swiglu_equal_params_width(d)
    reg.add("llama2.equal_params_width", eq, fixed(eq, 1), computed("8d/3", src, "course/common/formulas.py"))
    truncated = int(eq)
    reg.add("llama2.truncated", truncated, integer(truncated), computed(WORDS("llama2.truncated"), src))
    reg.add("llama2.multiple_of", m, integer(m), computed("multiple_of (params.json)", src))
    w = f.meta_ffn_width(d, m)
    reg.add("llama2.width_by_rule", w, integer(w),
            computed("multiple_of · ⌈int(2 · 4d / 3) / multiple_of⌉ (meta_ffn_width)", src, FORMULAS))
    reg.add("llama2.multiples", w // m, integer(w // m), computed("width_by_rule / multiple_of", src, FORMULAS))
    reg.add("llama2.ffn_width", llama.ffn_width, integer(llama.ffn_width), computed("ffn_width", src))
    reg.add("llama2.params_per_layer", f.ffn_params(d, w, "swiglu"), integer(f.ffn_params(d, w, "swiglu")),
            computed(WORDS("llama2.params_per_layer"), src, FORMULAS))
    four = f.two_matrix_ffn_params(d, 4 * d)
    reg.add("llama2.two_matrix_4d_params", four, integer(four), computed(WORDS("llama2.two_matrix_4d_params"), src, FORMULAS))

    ds = inputs.frontier.by_name("DeepSeek-LLM-67B")
    w = f.meta_ffn_width(ds.hidden_size, m)
    reg.add("deepseek_llm_67b.width_by_rule", w, integer(w),
            computed(WORDS("deepseek_llm_67b.width_by_rule"), frontier_source(ds), src, FORMULAS))


def add_anchor(reg: Scope, inputs: Inputs) -> None:
    """Step 4: the anchor's three matrices, their weights per layer and their share of the model."""
    t, v = inputs.anchor.config.text_config, inputs.anchor.config.vision_config
    d, w = t.hidden_size, t.intermediate_size
    src = anchor_source("intermediate_size")
    reg.add("anchor.matrix_params", d * w, integer(d * w), computed("hidden_size · intermediate_size", src))
    ledger = anchor_ledger(t, v)
    layers = ledger["ffn"] + ledger["full_attention"] + ledger["gated_deltanet"] + 2 * t.num_hidden_layers * d
    reg.add("anchor.decoder_share", ledger["ffn"] / layers, percent(ledger["ffn"] / layers, 1),
            computed(WORDS("anchor.decoder_share"), ANCHOR, "course/common/formulas.py"))
    # what the share counts: the 64 decoder layers' FFNs over every weight of the checkpoint (the embeddings,
    # the vision encoder and the MTP module included); and how it grows if the other MLPs count too
    total = sum(ledger.values())
    mtp_ffn = t.mtp_num_hidden_layers * 3 * d * w
    vision_mlps = v.depth * (2 * v.hidden_size * v.intermediate_size + v.intermediate_size + v.hidden_size)
    for key, n in (("share_with_mtp_ffn", ledger["ffn"] + mtp_ffn),
                   ("share_with_vision_mlps", ledger["ffn"] + mtp_ffn + vision_mlps)):
        reg.add(f"anchor.{key}", n / total, percent(n / total, 1),
                computed(WORDS("anchor.share_of_all", what=WORDS(f"anchor.{key}")),
                         ANCHOR, "course/common/formulas.py", NUMBERS))
    parts = anchor_layer_parts(t)
    in_layer = parts["ffn"] / (parts["ffn"] + parts["full_attention"] + 2 * d)
    reg.add("anchor.full_attention_layer_share", in_layer, percent(in_layer, 1),
            computed(WORDS("anchor.full_attention_layer_share"), ANCHOR,
                     "course/common/formulas.py"))
    eq = swiglu_equal_params_width(d)
    reg.add("anchor.equal_params_width", eq, fixed(eq, 1), computed("8d/3", src, "course/common/formulas.py"))
    q, text = exact_ratio(3 * w, 8 * d, 2)
    reg.add("anchor.vs_equal_params", float(q), WORDS("anchor.vs_equal_params.text", x=text),   # "1.28×"; the Chinese prose writes 倍 after the number
            computed(WORDS("anchor.vs_equal_params"), src, NUMBERS))
    rule = f.meta_ffn_width(d, inputs.frontier.by_name("Llama 2 7B").ffn_multiple_of)
    reg.add("anchor.meta_rule_width", rule, integer(rule),
            computed(WORDS("anchor.meta_rule_width"), src, FORMULAS))
    two = f.equal_params_width(w, "swiglu", "two_matrix")
    reg.add("anchor.two_matrix_equal_width", two, integer(round(two)),
            computed(WORDS("anchor.two_matrix_equal_width"), src, FORMULAS))
    reg.add("anchor.two_matrix_equal_ratio", two / d, fixed(two / d, 1) + "d", computed("3/2 · d_ff / d", src, FORMULAS))
    # the Gated DeltaNet layers' short causal convolution over q, k and v: how many positions it mixes
    k = t.linear_conv_kernel_dim
    reg.add("anchor.gdn_conv_kernel", k, integer(k),
            computed("linear_conv_kernel_dim", anchor_source("linear_conv_kernel_dim")))


def dense_layers(m: FrontierModel) -> int:
    """Layers with a dense FFN: all of them in a dense model, the first few (or none) in an MoE model."""
    return m.num_layers if m.num_experts is None else (m.dense_ffn_layers or 0)


def dense_ffn_models(inputs: Inputs) -> list[FrontierModel]:
    """Every frontier model with a dense FFN in at least one layer, oldest first (then narrowest)."""
    models = [m for m in inputs.frontier.models if m.ffn_width and dense_layers(m) > 0]
    return sorted(models, key=lambda m: (m.year, m.hidden_size, m.name))


def add_frontier_table(reg: Scope, inputs: Inputs) -> None:
    """Step 4's table: d_ff/d of every frontier model's dense FFN, and the expert width of the MoE ones."""
    gated = []
    for m in dense_ffn_models(inputs):
        k, src = f"models.{slug(m.name)}", frontier_source(m)
        r = m.ffn_width / m.hidden_size
        reg.add(f"{k}.hidden_size", m.hidden_size, integer(m.hidden_size), computed("hidden_size", src))
        reg.add(f"{k}.ffn_width", m.ffn_width, integer(m.ffn_width), computed("ffn_width", src))
        reg.add(f"{k}.ratio", r, fixed(r, 2), computed("ffn_width / hidden_size", src))
        reg.add(f"{k}.num_layers", m.num_layers, integer(m.num_layers), computed("num_layers", src))
        if m.num_experts is not None:   # the table gives an MoE model's dense layers (a dense model's are all)
            n = dense_layers(m)
            reg.add(f"{k}.dense_layers", n, integer(n),
                    computed(WORDS("models.dense_layers"), src, NUMBERS))
        if m.moe_ffn_width:
            e = m.moe_ffn_width / m.hidden_size
            reg.add(f"{k}.expert_ratio", e, fixed(e, 2), computed("moe_ffn_width / hidden_size", src))
        if ffn_kind(m) == "swiglu":
            gated.append(r)
    rows = [{"slug": slug(m.name), "name": m.name, "year": m.year, "form": ffn_kind(m),
             "moe": m.num_experts is not None, "expert": bool(m.moe_ffn_width),
             "secondary": m.provenance.grade == "secondary source",
             "latent": m.name == LATENT_MOE_MODEL,
             "encdec": m.name in ENCODER_DECODER_MODELS} for m in dense_ffn_models(inputs)]
    rows.append({"slug": "anchor", "name": inputs.anchor.name, "year": int(inputs.anchor.facts.release_year.value)})
    add_rows(reg, "models.rows", rows, computed(WORDS("models.rows"), FRONTIER, ANCHOR))
    t = inputs.anchor.config.text_config
    r = t.intermediate_size / t.hidden_size
    reg.add("models.anchor.ratio", r, fixed(r, 2), computed("intermediate_size / hidden_size",
                                                             anchor_source("intermediate_size")))
    gated.append(r)   # the anchor's row is gated too: the count and the range are over the table's rows
    src = WORDS("models.gated.source", frontier=FRONTIER, anchor=ANCHOR)
    reg.add("models.gated.count", len(gated), integer(len(gated)),
            computed(WORDS("models.gated.count"), src))
    reg.add("models.gated.ratio_min", min(gated), fixed(min(gated), 2) + "d", computed(WORDS("models.gated.ratio_min"), src))
    reg.add("models.gated.ratio_max", max(gated), fixed(max(gated), 2) + "d", computed(WORDS("models.gated.ratio_max"), src))


def add_latent_moe(reg: Scope, inputs: Inputs) -> None:
    """Kimi K3's routed experts read a latent vector narrower than the stream (routed_expert_hidden_size
    in its config, cited in data/citations.json): against their own input they are wider than against d."""
    m = inputs.frontier.by_name(LATENT_MOE_MODEL)
    latent = int(next(n.value for n in inputs.citations.numbers if n.key == LATENT_KEY))
    k = f"models.{slug(m.name)}"
    r = m.moe_ffn_width / latent
    reg.add(f"{k}.latent_expert_ratio", r, fixed(r, 2),
            computed("moe_ffn_width / routed_expert_hidden_size", frontier_source(m), "data/citations.json"))
    h = latent / m.hidden_size
    reg.add(f"{k}.latent_share", h, fixed(h, 2),
            computed("routed_expert_hidden_size / hidden_size", frontier_source(m), "data/citations.json"))


LATENT_MOE_MODEL, LATENT_KEY = "Kimi K3", "kimik3.routed_expert_hidden_size"
ENCODER_DECODER_MODELS = {"Transformer base"}   # num_layers counts each of its two stacks; every other row is decoder-only
MOE_MODEL = "DeepSeek-V3"


def add_moe(reg: Scope, inputs: Inputs) -> None:
    """Step 5: one MoE model's FFN weights, all of them and those one token uses."""
    m = inputs.frontier.by_name(MOE_MODEL)
    src = frontier_source(m)
    k = "moe"
    moe = f.moe_ffn_params(m.hidden_size, m.num_layers, m.dense_ffn_layers, m.ffn_width, m.moe_ffn_width,
                           m.num_experts, m.experts_per_token, m.shared_experts)
    for field, value in (("num_layers", m.num_layers), ("dense_layers", m.dense_ffn_layers),
                         ("routed", m.num_experts), ("per_token", m.experts_per_token),
                         ("shared", m.shared_experts), ("expert_width", m.moe_ffn_width)):
        reg.add(f"{k}.{field}", value, integer(value), computed(field, src))
    reg.add(f"{k}.total", moe["total"], billions(moe["total"]),
            computed(WORDS("moe.total"), src, FORMULAS))
    reg.add(f"{k}.active", moe["active"], billions(moe["active"]),
            computed(WORDS("moe.active"), src, FORMULAS))
    share = moe["active"] / moe["total"]
    reg.add(f"{k}.active_share", share, percent(share, 1), computed(WORDS("moe.active_share"), src, FORMULAS))


# ---------------------------------------------------------------- the widgets' read-outs

ACT_RANGE = 4.0          # the explorer's x, a and b run over [−4, 4]
ACT_DEFAULTS = {"x": 1.0, "a": 2.0, "b": 3.0}
MIN_SCAN = (-3.0, 0.0, 30001)     # where GELU and SiLU reach their minimum: a fine scan of [−3, 0]
GAP_SCAN = (-6.0, 6.0, 12001)


def add_activations(reg: Scope) -> None:
    where = computed(WORDS("act.defaults"), NUMBERS)
    reg.add("act.range", ACT_RANGE, fixed(ACT_RANGE, 0), where)
    for name, v in ACT_DEFAULTS.items():
        reg.add(f"act.default_{name}", v, fixed(v, 0), where)
    x, a, b = ACT_DEFAULTS["x"], ACT_DEFAULTS["a"], ACT_DEFAULTS["b"]
    for name, fn in f.ACTIVATIONS.items():
        reg.add(f"act.{name}_at_x", fn(x), fixed(fn(x), 3), computed(WORDS("act.at_x", name=name), FORMULAS))
    p = f.swiglu_product(a, b)
    reg.add("act.swiglu_at_ab", p, fixed(p, 3), computed(WORDS("act.swiglu_at_ab"), FORMULAS))
    lo, hi, n = MIN_SCAN
    xs = [lo + (hi - lo) * i / (n - 1) for i in range(n)]
    for name in ("gelu", "silu"):
        fn = f.ACTIVATIONS[name]
        at = min(xs, key=fn)
        reg.add(f"act.{name}_min", fn(at), fixed(fn(at), 3), computed(WORDS("act.min", name=name), FORMULAS))
        reg.add(f"act.{name}_argmin", at, fixed(at, 2), computed(WORDS("act.argmin", name=name), FORMULAS))
    gap = f.largest_gap(f.gelu_tanh, f.gelu_exact, *GAP_SCAN)
    reg.add("act.gelu_tanh_gap", gap, significant(gap, 2),
            computed(WORDS("act.gelu_tanh_gap"), FORMULAS))
    # the heat map's left edge, a = −range: how close to 0 SiLU(a) gets inside the widget
    reg.add("act.left_edge", -ACT_RANGE, fixed(-ACT_RANGE, 0), where)
    edge = f.ACTIVATIONS["silu"](-ACT_RANGE)
    reg.add("act.silu_at_left_edge", edge, fixed(edge, 3),
            computed(WORDS("act.silu_at_left_edge", edge=fixed(-ACT_RANGE, 0)), FORMULAS))
    corner = f.swiglu_product(ACT_RANGE, ACT_RANGE)
    reg.add("act.swiglu_corner", corner, fixed(corner, 2), computed(WORDS("act.swiglu_corner"), FORMULAS))


def add_ring(reg: Scope) -> None:
    spec = twins.RING
    where = WORDS("ring.where", twins=TWINS, seed=spec.seed)
    pts = twins.ring_points(spec)
    for field in ("center_radius", "ring_inner", "threshold"):
        v = getattr(spec, field)
        reg.add(f"ring.{field}", v, fixed(v, 1), computed(f"RingSpec.{field}", where))
    n = len(pts)
    reg.add("ring.points", n, integer(n), computed(WORDS("ring.points"), where))
    best = twins.best_line(pts, spec)
    reg.add("ring.best_line.correct", best["correct"], integer(best["correct"]),
            computed(WORDS("ring.best_line.correct"), where))
    reg.add("ring.best_line.accuracy", best["correct"] / n, percent(best["correct"] / n, 1),
            computed(WORDS("ring.best_line.accuracy"), where))
    first = twins.smallest_k_all_correct(pts, spec)
    reg.add("ring.relu.first_all_correct", first, integer(first),
            computed(WORDS("ring.relu.first_all_correct"), where))
    g = twins.guaranteed_k(spec)
    reg.add("ring.relu.guaranteed_k", g, integer(g), computed("⌊π / arccos(t / ring_inner)⌋ + 1", where))
    for k in (3, 4):   # the two unit counts the page walks through: how many points each gets right, and its corner
        c = twins.correct(pts, twins.relu_scores(pts, k, spec.threshold))
        reg.add(f"ring.relu.k{k}.correct", c, integer(c), computed(WORDS("ring.relu.correct", k=k), where))
        r = twins.corner_radius(k, spec.threshold)
        reg.add(f"ring.relu.k{k}.corner", r, fixed(r, 2), computed("t / cos(π/k)", where))


# ---------------------------------------------------------------- the small model

SWEEP = ("c1_gelu_ratio2", "c1_gelu_ratio4", "c1_gelu_ratio8")   # two-matrix GELU FFN, width 2d, 4d, 8d
EQUAL_PAIR = ("c1_gelu_ratio4", BASELINE)                         # GELU 4d against SwiGLU 8d/3
COMPARISONS = [  # (key, run a, run b, statistics quoted): a minus b, seed by seed; above 0 when b ends lower
    ("ratio2_minus_ratio4", "c1_gelu_ratio2", "c1_gelu_ratio4", ("min", "max", "range")),
    ("ratio4_minus_ratio8", "c1_gelu_ratio4", "c1_gelu_ratio8", ("min", "max", "range")),
    ("swiglu_minus_gelu4", BASELINE, "c1_gelu_ratio4", ("min", "range")),
    ("gelu4_minus_swiglu_lr1e-3", "c1_gelu_ratio4_lr1e-3", "c4_baseline_lr1e-3", ("mean", "min", "max")),   # the same pair at lr 1e-3
    ("swiglu_3e-3_minus_lr1e-3", BASELINE, "c4_baseline_lr1e-3", ("min", "range")),
]


def add_project(reg: Scope, inputs: Inputs) -> None:
    """The small model's FFNs, from its config (models/experiments.json, models/model.py)."""
    ex = inputs.experiments
    base = ex.base
    src = f"{EXPERIMENTS} (base)"
    m = base.ffn_multiple_of
    reg.add("project.multiple_of", m, integer(m), computed("ffn_multiple_of", src))
    eq = swiglu_equal_params_width(base.d_model)
    reg.add("project.equal_params_width", eq, fixed(eq, 1), computed("8 · d_model / 3", src, "course/common/formulas.py"))
    rule = f.meta_ffn_width(base.d_model, m)
    reg.add("project.meta_rule_width", rule, integer(rule),
            computed("meta_ffn_width(d_model, ffn_multiple_of)", src, FORMULAS))
    per_layer = {}
    for run in (*SWEEP, BASELINE):
        cfg = ex.config(run)
        w = cfg.gpt_config(vocab_size=1).ffn_hidden
        kind = "two_matrix" if cfg.ffn_type == "gelu" else "swiglu"
        n = f.ffn_params(cfg.d_model, w, kind)
        per_layer[run] = n
        reg.add(f"runs.{run}.ffn_params", n, integer(n),
                computed(f"{f.MATRICES[kind]} · d_model · ffn_hidden", f"{EXPERIMENTS} ({run})", "models/model.py (MLP, SwiGLU)", FORMULAS))
    for (narrow, wide), name in zip(zip(SWEEP, SWEEP[1:]), ("widen_2_to_4", "widen_4_to_8")):
        added = base.n_layer * (per_layer[wide] - per_layer[narrow])
        reg.add(f"runs.{name}.params", added, integer(added),
                computed(WORDS("runs.widen.params", wide=wide, narrow=narrow), EXPERIMENTS, FORMULAS))
    extra = base.n_layer * (per_layer[BASELINE] - per_layer["c1_gelu_ratio4"])
    reg.add("runs.swiglu_extra_params", extra, integer(extra),
            computed(WORDS("runs.swiglu_extra_params"),
                     EXPERIMENTS, FORMULAS))


GELU4 = "c1_gelu_ratio4"
GELU4_LOW_LR = "c1_gelu_ratio4_lr1e-3"        # the same GELU 4d at lr 1e-3
BASELINE_LOW_LR = "c4_baseline_lr1e-3"
SPLIT_STEP = 150   # a validation step (every 50) at which GELU 4d's seeds have already parted


def seed_max(values) -> float:
    return max(v for v in values if v is not None)


def add_split(reg: Scope, results: Results) -> None:
    """GELU 4d's seeds fall into two groups: the two lowest final losses close together, the highest far
    above them, beside the SwiGLU baseline's seeds. Keys for each group (by final loss, whatever the seed),
    their validation loss at SPLIT_STEP and their top-of-stream RMS at the end; the baseline's too."""
    if GELU4 not in results.runs or BASELINE not in results.runs:
        return
    runs = sorted(results.runs[GELU4], key=lambda r: r.metrics.final_val_loss)
    low, high = runs[:-1], runs[-1]
    prov = provenance(results.runs[GELU4], WORDS("gelu4.groups", gelu4=GELU4))
    val_at = lambda r: r.val.loss[r.val.step.index(SPLIT_STEP)]   # noqa: E731
    loss3 = lambda x: fixed(x, 3)                                    # noqa: E731
    # the low group is quoted as a range over its seeds, the high group's one seed as its value
    for group, rs, stats, top_stats in (("low", low, ("min", "max", "range"), ("min", "max", "range")),
                                        ("high", [high], ("mean",), ("mean",))):
        spread_keys(reg, f"gelu4.{group}.final_val_loss", [r.metrics.final_val_loss for r in rs], loss3, prov, *stats)
        spread_keys(reg, f"gelu4.{group}.val_at_split", [val_at(r) for r in rs], loss3, prov, *stats)
        spread_keys(reg, f"gelu4.{group}.end_stream_rms_top", [r.end.stream_rms[-1] for r in rs],
                    lambda x: significant(x, 3), prov, *top_stats)
        # the stream right after the first block (stream_rms[1]): most of the top-of-stream RMS is written there
        spread_keys(reg, f"gelu4.{group}.end_stream_rms_block1", [r.end.stream_rms[1] for r in rs],
                    lambda x: significant(x, 3), prov, *top_stats)
    # what each group gains from each widening step and by how much it beats SwiGLU, seed by seed
    by_seed = {n: {r.config.seed: r.metrics.final_val_loss for r in results.runs[n]}
               for n in (*SWEEP, BASELINE) if n in results.runs}
    if len(by_seed) == len(SWEEP) + 1:
        for group, rs in (("low", low), ("high", [high])):
            seeds = [r.config.seed for r in rs]
            for key, a, b, low_stats in (("first_gain", "c1_gelu_ratio2", GELU4, ("min", "range")),
                                         ("second_gain", GELU4, "c1_gelu_ratio8", ("max", "range")),
                                         ("swiglu_gap", BASELINE, GELU4, ("min",))):
                spread_keys(reg, f"gelu4.{group}.{key}", [by_seed[a][s] - by_seed[b][s] for s in seeds], loss3,
                            provenance(results.runs[a], WORDS("gelu4.group_seeds", what=f"{a} − {b}",
                                                              group=WORDS(f"gelu4.group.{group}"))),
                            *(low_stats if group == "low" else ("mean",)))
    # GELU 4d at lr 1e-3 against GELU 4d at the default lr, for the seeds of each group: the low group
    # ends higher at 1e-3 (lr1e-3_rise, 1e-3 minus default), the high seed lower (lr1e-3_drop, default minus 1e-3)
    if GELU4_LOW_LR in results.runs and results.seeds(GELU4_LOW_LR) == results.seeds(GELU4):
        at_low_lr = {r.config.seed: r.metrics.final_val_loss for r in results.runs[GELU4_LOW_LR]}
        for group, rs, key, sign, what, stats in (
                ("low", low, "lr1e-3_rise", 1, f"{GELU4_LOW_LR} − {GELU4}", ("min", "range")),
                ("high", [high], "lr1e-3_drop", -1, f"{GELU4} − {GELU4_LOW_LR}", ("mean",))):
            spread_keys(reg, f"gelu4.{group}.{key}",
                        [sign * (at_low_lr[r.config.seed] - r.metrics.final_val_loss) for r in rs], loss3,
                        provenance(results.runs[GELU4_LOW_LR],
                                   WORDS("gelu4.group_seeds", what=what, group=WORDS(f"gelu4.group.{group}"))), *stats)
    base = results.runs[BASELINE]
    spread_keys(reg, "baseline.val_at_split", [val_at(r) for r in base], loss3,
                provenance(base, WORDS("baseline.val_at_split", baseline=BASELINE, split_step=SPLIT_STEP)), "min", "range")
    for run, stats in (("c1_gelu_ratio2", ("min", "range")), ("c1_gelu_ratio8", ("max", "range"))):   # the sweep's end points at the same step
        if run in results.runs:
            rs = results.runs[run]
            spread_keys(reg, f"runs.{run}.val_at_split", [val_at(r) for r in rs], loss3,
                        provenance(rs, WORDS("runs.val_at_split", run=run, split_step=SPLIT_STEP)), *stats)
    if "c1_gelu_ratio2" in results.runs:   # how far the narrow end sits above GELU 4d's highest seed at the split step
        gap = min(val_at(r) for r in results.runs["c1_gelu_ratio2"]) - max(val_at(r) for r in results.runs[GELU4])
        reg.add("runs.narrow_gap_at_split", gap, fixed(gap, 3),
                provenance(results.runs["c1_gelu_ratio2"], WORDS("runs.narrow_gap_at_split", gelu4=GELU4, split_step=SPLIT_STEP)))
    reg.add("split_step", SPLIT_STEP, integer(SPLIT_STEP), computed(WORDS("split_step"), NUMBERS))
    # whether the split step's loss and the top-of-stream RMS mark GELU's regimes in SwiGLU too: at lr 1e-3,
    # where no GELU seed splits, how far SwiGLU trails GELU at the split step (seed by seed), and how large
    # SwiGLU's stream ends there; and how far SwiGLU trails GELU at the split step in GELU's high seed at 3e-3
    if all(n in results.runs for n in (GELU4_LOW_LR, BASELINE_LOW_LR)) \
            and results.seeds(GELU4_LOW_LR) == results.seeds(BASELINE_LOW_LR):
        g = {r.config.seed: val_at(r) for r in results.runs[GELU4_LOW_LR]}
        spread_keys(reg, "compare.swiglu_minus_gelu4_lr1e-3.val_at_split",
                    [val_at(r) - g[r.config.seed] for r in results.runs[BASELINE_LOW_LR]], loss3,
                    provenance(results.runs[BASELINE_LOW_LR],
                               WORDS("compare.swiglu_minus_gelu4_lr1e-3.val_at_split", baseline_low_lr=BASELINE_LOW_LR,
                                     gelu4_low_lr=GELU4_LOW_LR, split_step=SPLIT_STEP)), "min", "max", "range")
        for run in (BASELINE_LOW_LR, GELU4_LOW_LR):
            rs = results.runs[run]
            spread_keys(reg, f"runs.{run}.end_stream_rms_top", [r.end.stream_rms[-1] for r in rs],
                        lambda x: significant(x, 3), provenance(rs, WORDS("runs.end_stream_rms_top", run=run)),
                        "min", "max", "range")
    # the stream at init already differs by width: its top-of-stream RMS across the sweep
    for run in SWEEP:
        if run in results.runs:
            rs = results.runs[run]
            spread_keys(reg, f"runs.{run}.init_stream_rms_top", [r.init.stream_rms[-1] for r in rs],
                        lambda x: significant(x, 3), provenance(rs, WORDS("runs.init_stream_rms_top", run=run)),
                        "min", "max", "range")
    # SwiGLU's top-of-stream RMS at the default rate in GELU's high seed: larger than GELU's in the low pair's
    # seeds, but in the high seed the smaller one, as at lr 1e-3 (so the RMS ranks the two forms differently
    # at the two rates in two seeds of three, not in all)
    base_high = [r for r in base if r.config.seed == high.config.seed]
    if base_high:
        v = base_high[0].end.stream_rms[-1]
        reg.add("gelu4.high.swiglu_end_stream_rms_top", v, significant(v, 3),
                provenance(base_high, WORDS("gelu4.high.swiglu_end_stream_rms_top", baseline=BASELINE, gelu4=GELU4)))
    # each form at the better of its two learning rates, seed by seed: SwiGLU's lower final loss minus GELU 4d's
    pair = (GELU4, GELU4_LOW_LR, BASELINE, BASELINE_LOW_LR)
    if all(n in results.runs for n in pair) and all(results.seeds(n) == results.seeds(GELU4) for n in pair):
        fin = {n: {r.config.seed: r.metrics.final_val_loss for r in results.runs[n]} for n in pair}
        spread_keys(reg, "compare.best_rate.swiglu_minus_gelu4",
                    [min(fin[BASELINE][s], fin[BASELINE_LOW_LR][s]) - min(fin[GELU4][s], fin[GELU4_LOW_LR][s])
                     for s in results.seeds(GELU4)], loss3,
                    provenance(results.runs[BASELINE_LOW_LR],
                               WORDS("compare.best_rate.swiglu_minus_gelu4", baseline=BASELINE,
                                     baseline_low_lr=BASELINE_LOW_LR, gelu4=GELU4, gelu4_low_lr=GELU4_LOW_LR)),
                    "min", "range")
    at_base = {r.config.seed: val_at(r) for r in base}
    if high.config.seed in at_base:
        lag = at_base[high.config.seed] - val_at(high)
        reg.add("gelu4.high.swiglu_lag_at_split", lag, loss3(lag),
                provenance(base, WORDS("gelu4.high.swiglu_lag_at_split", baseline=BASELINE, gelu4=GELU4,
                                       split_step=SPLIT_STEP)))
    # at init: the largest hidden activation of each FFN (over its layers), SwiGLU's over GELU's per seed
    if results.seeds(BASELINE) == results.seeds(GELU4):
        a, b = results.runs[BASELINE], results.runs[GELU4]
        spread_keys(reg, "compare.swiglu_over_gelu4.init_act_max",
                    [seed_max(x.init.ffn_act_max) / seed_max(y.init.ffn_act_max) for x, y in zip(a, b)],
                    lambda x: fixed(x, 2), provenance(a, WORDS("compare.swiglu_over_gelu4.init_act_max", baseline=BASELINE, gelu4=GELU4)),
                    "max", "range")
        spread_keys(reg, "compare.swiglu_over_gelu4.max_act",
                    [x.metrics.max_ffn_act / y.metrics.max_ffn_act for x, y in zip(a, b)],
                    lambda x: fixed(x, 1), provenance(a, WORDS("compare.swiglu_over_gelu4.max_act", baseline=BASELINE, gelu4=GELU4)),
                    "min", "range")
    if all(n in results.runs for n in (GELU4_LOW_LR, BASELINE_LOW_LR)) \
            and results.seeds(GELU4_LOW_LR) == results.seeds(BASELINE_LOW_LR):
        a, b = results.runs[BASELINE_LOW_LR], results.runs[GELU4_LOW_LR]
        spread_keys(reg, "compare.swiglu_over_gelu4_lr1e-3.max_act",
                    [x.metrics.max_ffn_act / y.metrics.max_ffn_act for x, y in zip(a, b)],
                    lambda x: fixed(x, 1),
                    provenance(a, WORDS("compare.swiglu_over_gelu4_lr1e-3.max_act", baseline_low_lr=BASELINE_LOW_LR, gelu4_low_lr=GELU4_LOW_LR)),
                    "min", "max", "range")


# the loss differences the reading notes rest on at lr 3e-3, a minus b seed by seed (the note's own compare keys)
# (and what of each the notes quote there: course/common/measured.py add_pair_drift)
CROSS_PAIRS = {"ratio2_minus_ratio4": ("c1_gelu_ratio2", GELU4, ("thin_there",)),
               "ratio4_minus_ratio8": (GELU4, "c1_gelu_ratio8", ("there_min",)),
               "swiglu_minus_gelu4": (BASELINE, GELU4, ("thin_there",))}


def add_split_there(reg: Scope, results: Results, other) -> None:
    """GELU 4d's split on the other CPU (data/cross-machine.json, final losses only): the final loss there of
    the seed that ends high here, and of the two that end low here. It tells whether the split follows the
    seed or the machine."""
    there = other.final_val_loss.get(GELU4, {})
    runs = results.runs.get(GELU4, [])
    if len(runs) < 2 or any(there.get(str(r.config.seed)) is None for r in runs):
        return
    runs = sorted(runs, key=lambda r: r.metrics.final_val_loss)
    prov = Measured(run=WORDS("gelu4.there.run", gelu4=GELU4, cpu=other.cpu, commit=other.source_commit),
                    told=WORDS("gelu4.there.told", gelu4=GELU4, cpu=other.cpu),
                    device=other.cpu, date=max(r.provenance.date for r in runs), commit=other.source_commit)
    loss3 = lambda x: fixed(x, 3)   # noqa: E731
    spread_keys(reg, "drift.gelu4.low.there", [there[str(r.config.seed)] for r in runs[:-1]], loss3, prov,
                "min", "max", "range")
    spread_keys(reg, "drift.gelu4.high.there", [there[str(runs[-1].config.seed)]], loss3, prov, "mean")


def add_cross_machine(reg: Scope, inputs: Inputs) -> None:
    add_pair_drift(reg, inputs.results, inputs.cross_machine, CROSS_PAIRS)
    add_split_there(reg, inputs.results, inputs.cross_machine)


def add_measured(reg: Scope, results: Results) -> None:
    add_margins(reg, "loss_pair", "other")
    add_split(reg, results)
    for key, a, b, stats in COMPARISONS:
        # seed by seed needs the same seeds: while runs are still arriving, a pair may not have them yet
        if a in results.runs and b in results.runs and results.seeds(a) == results.seeds(b):
            compare(reg, f"compare.{key}.final_val_loss", results, a, b, "final_val_loss", *stats)
    # how far below the unigram loss every run of this page ends: the closest seed of all six runs
    page_runs = [r for n in (*SWEEP, BASELINE, GELU4_LOW_LR, BASELINE_LOW_LR) for r in results.runs.get(n, [])]
    if page_runs:   # the CPU each seed of this page's runs was trained on (not the whole course's)
        last = newest(page_runs)
        device = trained_on(page_runs)
        reg.add("runs.device", " / ".join(dict.fromkeys(r.provenance.device_name for r in page_runs)), device,
                Measured(run=WORDS("runs.device.run"), device=device, date=last.provenance.date,
                         commit=last.provenance.commit))
    if page_runs and all(r.metrics.final_val_loss is not None for r in page_runs):
        closest = min(r.corpus.unigram_floor - r.metrics.final_val_loss for r in page_runs)
        last = newest(page_runs)
        reg.add("runs.below_unigram.min", closest, fixed(closest, 3),
                Measured(run=WORDS("runs.below_unigram.min.run"),
                         device=trained_on(page_runs), date=last.provenance.date, commit=last.provenance.commit))
    if all(r in results.runs for r in EQUAL_PAIR):
        gelu, swiglu = (results.runs[r] for r in EQUAL_PAIR)
        extra = (swiglu[0].parameters - gelu[0].parameters) / gelu[0].parameters
        reg.add("compare.gelu4_vs_swiglu.params_share", extra, percent(extra, 2),
                provenance(swiglu, WORDS("compare.gelu4_vs_swiglu.params_share", baseline=BASELINE)))


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    add_two_matrix_era(reg, inputs)
    add_equal_params(reg, inputs)
    add_anchor(reg, inputs)
    add_frontier_table(reg, inputs)
    add_latent_moe(reg, inputs)
    add_moe(reg, inputs)
    add_activations(reg)
    add_ring(reg)
    add_project(reg, inputs)
    add_measured(reg, inputs.results)
    add_cross_machine(reg, inputs)
