"""Lesson C3-2's registry numbers (kv_cache.*): what every model of our data keeps per sequence to generate,
counted by course/common/kv_cache.py from its config (bytes per token, the cache at 32k, at 128k and at its
maximum context, a linear-attention state), the steps' own numbers (the formula on GPT-2 and Llama 2, the
GQA groups, MLA's latent against DeepSeek-V2's and DeepSeek 67B's caches, gpt-oss's window, the anchor's
hybrid, DeepSeek-V4's compressed entries) and the cited figures they stand beside. Each number names the
formula and the file it was computed from; the table, the figure and the calculator read the same plans."""
from __future__ import annotations

from fractions import Fraction

from course.common.kv_cache import BF16, CachePlan, plans
from course.common.numbers import ANCHOR, FRONTIER, anchor_source, computed_from, frontier_source, slug
from course.common.schema import FrontierModel, Inputs
from course.core.formats import fixed, integer, percent
from course.core.registry import Computed, Measured, Scope, add_rows
from course.project import words

WORDS = words(__file__)   # lessons/c3_kv_cache/words.LANG.json
KV = "course/common/kv_cache.py"
NUMBERS = "lessons/c3_kv_cache/numbers.py"
CITATIONS = "data/citations.json"

SHORT, LONG = 32_768, 131_072            # the table's two contexts: 32k and 128k tokens
ANCHOR_SLUG = "anchor"
# what a part of a plan keeps, as the table and the calculator group it (course/common/kv_cache.py Part.what)
GROUP = {"full": "every", "mla": "every", "sliding": "window", "window": "window", "compressed": "compressed",
         "indexer": "compressed", "linear_state": "state", "linear_conv": "state"}
GROUPS = ("every", "window", "compressed", "state")


computed = computed_from(KV)


def size(b: float) -> str:
    """Bytes as a page shows a cache: GB (10⁹ bytes) from 1 GB up, MB (10⁶) below."""
    return fixed(b / 1e9, 2) + " GB" if b >= 1e9 else fixed(b / 1e6, 1) + " MB"


def times(x: float, digits: int):
    """A ratio as each language writes it in prose ("71×" in one, "71" and its measure word in another: the
    words files' "times")."""
    return WORDS("times", x=fixed(x, digits))


def whole(x: Fraction) -> int:
    if x.denominator != 1:
        raise ValueError(f"expected a whole number of bytes, got {x}")
    return int(x)


def model_slug(p: CachePlan, inputs: Inputs) -> str:
    return ANCHOR_SLUG if p.model == inputs.anchor.name else slug(p.model)


def source_of(p: CachePlan, inputs: Inputs):
    """The file a plan was read from, as every number of the course names a model's config."""
    if p.model == inputs.anchor.name:
        return anchor_source("layer_types")
    m = inputs.frontier.by_name(p.model)
    return frontier_source(m.name, m.provenance.grade)


def parts_text(p: CachePlan, fixed_only: bool = False) -> dict[str, str]:
    """The plan's parts in words: "16 full-attention layers × 2,048 …", each language's list (with fixed_only,
    the parts that do not grow with the context: a linear-attention state)."""
    return WORDS.join("clauses", [WORDS(f"part.{x.what}", layers=integer(x.layers), entries=integer(x.entries),
                                        span=integer(x.span)) for x in p.parts
                                  if not fixed_only or x.grows == "fixed"])


def ordered(found: list[CachePlan], inputs: Inputs) -> list[CachePlan]:
    """The frontier models oldest first (then by name), the anchor last, as the course's tables list them."""
    year = {m.name: m.year for m in inputs.frontier.models}
    anchor = [p for p in found if p.model == inputs.anchor.name]
    rest = sorted((p for p in found if p.model != inputs.anchor.name), key=lambda p: (year[p.model], p.model))
    return rest + anchor


# ---------------------------------------------------------------- every model's cache (the table)

def add_models(reg: Scope, inputs: Inputs) -> list[CachePlan]:
    found, missing = plans(inputs)
    if missing:   # kv_cache.py names the field; the lesson's table covers every model of the data
        raise ValueError("models without a cache plan: " + "; ".join(f"{m.model}: {m.reason}" for m in missing))
    found = ordered(found, inputs)
    rows = []
    for p in found:
        s, src = model_slug(p, inputs), source_of(p, inputs)
        k = f"models.{s}"
        parts = parts_text(p)
        per_token = whole(p.bytes_per_token())
        reg.add(f"{k}.bytes_per_token", per_token, integer(per_token),
                computed(WORDS("models.bytes_per_token", parts=parts), src, KV))
        for key, T in (("at_32k", SHORT), ("at_128k", LONG)):
            b = p.bytes_at(T)
            reg.add(f"{k}.{key}", b, size(b), computed(WORDS("models.bytes_at", context=integer(T), parts=parts), src, KV))
        if p.max_context:
            fm = None if s == ANCHOR_SLUG else inputs.frontier.by_name(p.model)
            reg.add(f"{k}.max_context", p.max_context, integer(p.max_context),
                    computed("max_position_embeddings" if p.max_context_from == "config"
                             else WORDS("models.paper_context", source=fm.paper_context_source), src))
            b = p.bytes_at(p.max_context)
            reg.add(f"{k}.at_max", b, size(b),
                    computed(WORDS("models.bytes_at", context=integer(p.max_context), parts=parts), src, KV))
        if p.fixed_bytes():
            reg.add(f"{k}.fixed", p.fixed_bytes(), size(p.fixed_bytes()),
                    computed(WORDS("models.fixed", parts=parts_text(p, fixed_only=True)), src, KV))
        for what in sorted({x.what for x in p.parts}):
            n = p.layers(what)
            reg.add(f"{k}.layers.{what}", n, integer(n), computed(WORDS("models.layers", what=WORDS(f"kind.{what}")), src))
        rows.append({"slug": s, "name": p.model, "attention": p.attention, "anchor": s == ANCHOR_SLUG,
                     "year": (int(inputs.anchor.facts.release_year.value) if s == ANCHOR_SLUG
                              else inputs.frontier.by_name(p.model).year),
                     "parts": sorted({x.what for x in p.parts}, key=list(GROUP).index),
                     "max": p.max_context, "max_from_paper": p.max_context_from == "paper",
                     "nope": s != ANCHOR_SLUG and bool(inputs.frontier.by_name(p.model).mla_use_nope),
                     "secondary": s != ANCHOR_SLUG and
                     inputs.frontier.by_name(p.model).provenance.grade == "secondary source",
                     "encdec": s != ANCHOR_SLUG and inputs.frontier.by_name(p.model).cache_rule is not None,
                     # a model with no maximum context (Transformer base) was trained on short examples: its 32k
                     # and 128k figures are as hypothetical as those beyond a maximum
                     "beyond": [key for key, T in (("at_32k", SHORT), ("at_128k", LONG))
                                if p.max_context is None or T > p.max_context]})
    add_rows(reg, "models.rows", rows, computed(WORDS("models.rows"), FRONTIER, ANCHOR, KV))
    from lessons.c3_kv_cache.twins import calculator_models   # the widget's models, read from the registry
    add_rows(reg, "calculator.models", calculator_models(found, inputs),
             computed(WORDS("calculator.models"), FRONTIER, ANCHOR, KV))
    reg.add("models.count", len(found), integer(len(found)), computed(WORDS("models.count"), FRONTIER, ANCHOR, KV))
    gqa = sum(1 for p in found if p.attention == "GQA")
    reg.add("models.count_gqa", gqa, integer(gqa), computed(WORDS("models.count_gqa"), FRONTIER, ANCHOR, KV))
    reg.add("context.short", SHORT, integer(SHORT), computed(WORDS("context.short"), NUMBERS))
    reg.add("context.long", LONG, integer(LONG), computed(WORDS("context.long"), NUMBERS))
    reg.add("bf16_bytes", BF16, integer(BF16), computed(WORDS("bf16_bytes"), KV))
    return found


def heads(reg: Scope, m: FrontierModel) -> None:
    """A model's query heads, KV heads, head width and group size (query heads per KV head)."""
    k, src = f"models.{slug(m.name)}", frontier_source(m.name, m.provenance.grade)
    reg.add(f"{k}.num_heads", m.num_heads, integer(m.num_heads), computed("num_heads", src))
    reg.add(f"{k}.num_kv_heads", m.num_kv_heads, integer(m.num_kv_heads), computed("num_kv_heads", src))
    if m.head_dim:
        reg.add(f"{k}.head_dim", m.head_dim, integer(m.head_dim), computed("head_dim", src))
    if m.kv_lora_rank:
        reg.add(f"{k}.kv_lora_rank", m.kv_lora_rank, integer(m.kv_lora_rank), computed("kv_lora_rank", src))
        reg.add(f"{k}.qk_rope_head_dim", m.qk_rope_head_dim, integer(m.qk_rope_head_dim), computed("qk_rope_head_dim", src))
    if m.head_dim and m.compress_ratios is None:
        g = m.num_heads // m.num_kv_heads
        reg.add(f"{k}.group", g, integer(g), computed("num_heads / num_kv_heads", src))
        entries = 2 * m.num_kv_heads * m.head_dim
        reg.add(f"{k}.entries_per_layer", entries, integer(entries), computed("2 × num_kv_heads × head_dim", src))


# ---------------------------------------------------------------- the steps

def add_steps(reg: Scope, inputs: Inputs, found: list[CachePlan]) -> None:
    fm = inputs.frontier
    for m in fm.models:
        if m.num_kv_heads:
            heads(reg, m)
    plan = {p.model: p for p in found}

    # Step 1: Llama 2 7B with one KV head, as MQA would have it
    llama = fm.by_name("Llama 2 7B")
    mqa = plan[llama.name].full_bytes_per_token() // llama.num_kv_heads
    reg.add("llama2.mqa_bytes_per_token", mqa, integer(mqa),
            computed(WORDS("llama2.mqa_bytes_per_token"), frontier_source(llama.name, llama.provenance.grade), KV))

    # Step 3: MLA. DeepSeek-V3's latent and RoPE key, what they equal in GQA groups of its head width, and what a
    # cache of per-head keys and values (transformers' implementation) would hold instead
    v3 = fm.by_name("DeepSeek-V3")
    src = frontier_source(v3.name, v3.provenance.grade)
    latent = v3.kv_lora_rank + v3.qk_rope_head_dim
    reg.add("mla.kv_lora_rank", v3.kv_lora_rank, integer(v3.kv_lora_rank), computed("kv_lora_rank", src))
    reg.add("mla.qk_rope_head_dim", v3.qk_rope_head_dim, integer(v3.qk_rope_head_dim), computed("qk_rope_head_dim", src))
    reg.add("mla.v_head_dim", v3.v_head_dim, integer(v3.v_head_dim), computed("v_head_dim", src))
    reg.add("mla.per_layer", latent, integer(latent), computed("kv_lora_rank + qk_rope_head_dim", src))
    groups = Fraction(latent, 2 * v3.v_head_dim)
    reg.add("mla.gqa_groups", float(groups), fixed(float(groups), 2),
            computed("(kv_lora_rank + qk_rope_head_dim) / (2 × v_head_dim)", src))
    per_head = v3.num_heads * (v3.qk_nope_head_dim + v3.qk_rope_head_dim + v3.v_head_dim)
    reg.add("mla.per_head_cache", per_head, integer(per_head),
            computed(WORDS("mla.per_head_cache"), src))
    reg.add("mla.per_head_over_latent", per_head / latent, times(per_head / latent, 0),
            computed(WORDS("mla.per_head_over_latent"), src))

    # DeepSeek-V2 against DeepSeek 67B: the paper's 93.3% is its deployed cache (MLA, 6-bit entries) against the
    # 67B's; in elements, or at one precision for both, it is less
    ds = fm.by_name("DeepSeek-LLM-67B")
    cited = {n.key: n.value for n in inputs.citations.numbers}
    v2 = (cited["deepseekv2.kv_lora_rank"] + cited["deepseekv2.rope_head_dim"]) * cited["deepseekv2.layers"]
    big = plan[ds.name].full_bytes_per_token() // BF16
    src67 = frontier_source(ds.name, ds.provenance.grade)
    reg.add("v2.elements_per_token", int(v2), integer(int(v2)), computed("(d_c + d_h^R) × l", CITATIONS))
    reg.add("v2.67b_elements_per_token", big, integer(big),
            computed("num_layers × 2 × num_kv_heads × head_dim", src67, KV))
    same = 1 - v2 / big
    reg.add("v2.reduction_same_precision", same, percent(same, 1),
            computed(WORDS("v2.reduction_same_precision"), CITATIONS, src67))
    deployed = 1 - v2 * cited["deepseekv2.cache_bits"] / (big * 16)
    reg.add("v2.reduction_deployed", deployed, percent(deployed, 1),
            computed(WORDS("v2.reduction_deployed"), CITATIONS, src67))

    # Step 4: gpt-oss-120b's window, and what its cache would grow by if every layer were full
    oss = plan["gpt-oss-120b"]
    m = fm.by_name("gpt-oss-120b")
    src = frontier_source(m.name, m.provenance.grade)
    reg.add("oss.sliding_window", m.sliding_window, integer(m.sliding_window), computed("sliding_window", src))
    every = sum(x.layers * x.entries for x in oss.parts) * BF16
    reg.add("oss.all_full_bytes_per_token", every, integer(every), computed(WORDS("oss.all_full"), src, KV))
    window = sum(x.entries_at(m.sliding_window) for x in oss.parts if x.what == "sliding") * BF16
    reg.add("oss.window_bytes", window, size(window), computed(WORDS("oss.window_bytes"), src, KV))

    # the anchor: its growing cache against its fixed DeltaNet state, and a cache of 64 full-attention layers
    a = plan[inputs.anchor.name]
    t = inputs.anchor.config.text_config
    full = a.full_bytes_per_token()
    reg.add("anchor.break_even", a.fixed_bytes() / full, integer(round(a.fixed_bytes() / full)),
            computed(WORDS("anchor.break_even"), ANCHOR, KV))
    reg.add("anchor.fixed_bytes", a.fixed_bytes(), integer(a.fixed_bytes()),
            computed(WORDS("models.fixed", parts=parts_text(a, fixed_only=True)), ANCHOR, KV))
    # the full-attention layers' own keys and values (the growing part alone, without the fixed state)
    for key, T in (("full_at_128k", LONG), ("full_at_max", t.max_position_embeddings)):
        b = full * T
        reg.add(f"anchor.{key}", b, size(b),
                computed(WORDS("anchor.full_at", context=integer(T)), anchor_source("layer_types"), KV))
    # the state as the config keeps it: the state matrices in mamba_ssm_dtype (FP32), the convolution cache in BF16
    ssm = {"float32": 4, "bfloat16": 2, "float16": 2}[t.mamba_ssm_dtype]
    fp32 = sum(x.entries_at(0) * (ssm if x.what == "linear_state" else BF16) for x in a.parts if x.grows == "fixed")
    reg.add("anchor.fixed_ssm_dtype", fp32, size(fp32),
            computed(WORDS("anchor.fixed_ssm_dtype", dtype=t.mamba_ssm_dtype, bytes=ssm),
                     anchor_source("mamba_ssm_dtype"), KV))
    reg.add("anchor.break_even_ssm_dtype", fp32 / full, integer(round(fp32 / full)),
            computed(WORDS("anchor.break_even_ssm_dtype", dtype=t.mamba_ssm_dtype), anchor_source("mamba_ssm_dtype"), KV))
    every = t.num_hidden_layers * 2 * t.num_key_value_heads * t.head_dim * BF16
    reg.add("anchor.all_full_bytes_per_token", every, integer(every),
            computed("num_hidden_layers × 2 × num_key_value_heads × head_dim × 2 B", anchor_source("head_dim")))
    reg.add("anchor.all_full_at_max", every * t.max_position_embeddings, size(every * t.max_position_embeddings),
            computed(WORDS("anchor.all_full_at_max"), anchor_source("max_position_embeddings")))
    state = next(x for x in a.parts if x.what == "linear_state").entries
    conv = next(x for x in a.parts if x.what == "linear_conv").entries
    reg.add("anchor.state_entries", state, integer(state), computed(WORDS("anchor.state_entries"), ANCHOR, KV))
    reg.add("anchor.conv_entries", conv, integer(conv), computed(WORDS("anchor.conv_entries"), ANCHOR, KV))
    reg.add("anchor.num_kv_heads", t.num_key_value_heads, integer(t.num_key_value_heads),
            computed("num_key_value_heads", anchor_source("num_key_value_heads")))
    reg.add("anchor.group", t.num_attention_heads // t.num_key_value_heads,
            integer(t.num_attention_heads // t.num_key_value_heads),
            computed("num_attention_heads / num_key_value_heads", anchor_source("num_key_value_heads")))
    reg.add("anchor.entries_per_layer", 2 * t.num_key_value_heads * t.head_dim,
            integer(2 * t.num_key_value_heads * t.head_dim),
            computed("2 × num_key_value_heads × head_dim", anchor_source("head_dim")))

    # Step 5: DeepSeek-V4's compressed cache
    for name in ("DeepSeek-V4-Flash", "DeepSeek-V4-Pro"):
        m = fm.by_name(name)
        k, src = f"models.{slug(name)}", frontier_source(name, m.provenance.grade)
        reg.add(f"{k}.sliding_window", m.sliding_window, integer(m.sliding_window), computed("sliding_window", src))
        reg.add(f"{k}.num_layers", m.num_layers, integer(m.num_layers), computed("num_layers", src))
        reg.add(f"{k}.compress_entries", len(m.compress_ratios), integer(len(m.compress_ratios)),
                computed("len(compress_ratios)", src))
        window_only = sum(1 for t_ in m.layer_types if t_ == "sliding_attention")
        reg.add(f"{k}.window_only_layers", window_only, integer(window_only),
                computed(WORDS("v4.window_only_layers"), src))
        reg.add(f"{k}.index_head_dim", m.index_head_dim, integer(m.index_head_dim), computed("index_head_dim", src))
        for kind, key in (("compressed_sparse_attention", "csa"), ("heavily_compressed_attention", "hca")):
            ratio = {r for r, t_ in zip(m.compress_ratios, m.layer_types) if t_ == kind}
            (r,) = ratio   # one ratio per kind (course/common/kv_cache.py refuses a plan otherwise)
            reg.add(f"{k}.{key}_ratio", r, integer(r), computed(WORDS("v4.ratio", kind=kind), src))
            n = sum(1 for t_ in m.layer_types if t_ == kind)
            reg.add(f"{k}.{key}_layers", n, integer(n), computed(WORDS("v4.layers", kind=kind), src))
    add_v32(reg, inputs, plan["DeepSeek-V4-Pro"])


V32 = "data/model-configs/deepseek-ai__DeepSeek-V3.2.config.json"   # not a row of the table (SOURCES.md §2)


def add_v32(reg: Scope, inputs: Inputs, pro: CachePlan) -> None:
    """DeepSeek-V3.2's cache at DeepSeek-V4-Pro's maximum context, counted the page's way (every number in BF16;
    an MLA latent and RoPE key per layer and token, and the DSA indexer's key, as V4's indexer is counted), and
    V4-Pro's cache as a share of it: with the indexer and without."""
    import json
    c = json.loads((inputs.root / V32).read_text())
    T = pro.max_context
    mla = c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * BF16 * T
    idx = c["num_hidden_layers"] * c["index_head_dim"] * BF16 * T
    reg.add("v32.num_layers", c["num_hidden_layers"], integer(c["num_hidden_layers"]), computed("num_hidden_layers", V32))
    reg.add("v32.index_head_dim", c["index_head_dim"], integer(c["index_head_dim"]), computed("index_head_dim", V32))
    for key, b in (("at_max", mla + idx), ("at_max_no_indexer", mla)):
        reg.add(f"v32.{key}", b, size(b), computed(WORDS(f"v32.{key}", context=integer(T)), V32, KV))
        share = pro.bytes_at(T) / b
        reg.add(f"v32.pro_share{key.removeprefix('at_max')}", share, percent(share, 1),
                computed(WORDS("v32.pro_share", context=integer(T)), V32, source_of(pro, inputs), KV))


# ---------------------------------------------------------------- the measured section

KV_RUNS = ("c3_baseline", "c3_kv2", "c3_kv1")     # 4 (the base config's n_head), 2 and 1 key/value heads
EXPERIMENTS = "models/experiments.json"


def add_runs(reg: Scope, inputs: Inputs) -> None:
    """Each KV run's key/value heads, the parameters it saves against the baseline and its cache per token,
    from its config (models/experiments.json); with the committed results of every run, the share of the
    baseline's parameters saved and the seed-by-seed differences of the final loss. A run the experiments do
    not name yet, or results not yet trained, add nothing (a page that quotes them is a draft until then)."""
    from course.common.measured import add_margins, compare
    exp = inputs.experiments
    if not all(r in exp.runs for r in KV_RUNS):
        return
    cfg = {r: exp.config(r) for r in KV_RUNS}
    base = cfg["c3_baseline"]
    kv = {r: getattr(c, "n_kv_head", None) or c.n_head for r, c in cfg.items()}
    for run, c in cfg.items():
        d_head = c.d_model // c.n_head
        src = f"{EXPERIMENTS} ({run})"
        reg.add(f"runs.{run}.n_kv_head", kv[run], integer(kv[run]), computed(WORDS("runs.n_kv_head"), src))
        per_token = c.n_layer * 2 * kv[run] * d_head * BF16
        reg.add(f"runs.{run}.bytes_per_token", per_token, integer(per_token),
                computed("n_layer × 2 × n_kv_head × (d_model / n_head) × 2 B", src))
        if run != "c3_baseline":
            saved = c.n_layer * 2 * c.d_model * (kv["c3_baseline"] - kv[run]) * d_head
            reg.add(f"runs.{run}.saved_params", saved, integer(saved),
                    computed(WORDS("runs.saved_params"), src, f"{EXPERIMENTS} (c3_baseline)"))
    results = inputs.results
    if not all(r in results.runs for r in KV_RUNS):
        return
    add_margins(reg, "loss_pair", "other")
    params = results.runs["c3_baseline"][0].parameters
    for run in KV_RUNS[1:]:
        share = reg.value(f"kv_cache.runs.{run}.saved_params") / params
        reg.add(f"runs.{run}.saved_share", share, percent(share, 1),
                computed(WORDS("runs.saved_share"), f"{EXPERIMENTS} ({run})", "data/results/cpu/c3_baseline/"))
        stats = ("min", "max") if run == "c3_kv2" else ("min",)   # what the notes quote
        compare(reg, f"compare.{run}.final_val_loss", results, run, "c3_baseline", "final_val_loss", *stats)
    compare(reg, "compare.c3_kv1_kv2.final_val_loss", results, "c3_kv1", "c3_kv2", "final_val_loss", "min", "max")
    add_narrowing(reg, results)
    add_other_cpu_baseline(reg, results, inputs.cross_machine)


def add_narrowing(reg: Scope, results) -> None:
    """How the one-head run's validation-loss gap to the baseline (the same evaluation step, the same seed) moved:
    runs.c3_kv1.narrowed (.min, and .max), how much smaller it was at the last evaluation than at its widest;
    .peak_step.min/.max, the step of its widest; .last_step, the last evaluation; and .drop_over_step, over the
    seeds the smallest ratio of that drop to the largest change of the gap between two consecutive evaluations
    from its widest on (a drop no larger than one such change would be a wobble, not a decline). A shift of one
    seed's whole run moves every point of its curve alike, so it moves none of these; another machine's rounding
    could."""
    from course.common.measured import provenance
    shrunk, peaks, ratios = [], [], []
    for a, b in zip(results.runs["c3_kv1"], results.runs["c3_baseline"]):
        if a.val.step != b.val.step:
            raise ValueError("c3_kv1 and c3_baseline were evaluated at different steps")
        gaps = [x - y for x, y in zip(a.val.loss, b.val.loss)]
        i = max(range(len(gaps)), key=gaps.__getitem__)
        shrunk.append(gaps[i] - gaps[-1])
        peaks.append(a.val.step[i])
        steps = [abs(gaps[k + 1] - gaps[k]) for k in range(i, len(gaps) - 1)]
        ratios.append(shrunk[-1] / max(steps) if steps and max(steps) else 0.0)   # a flat gap has not narrowed
    prov = provenance(results.runs["c3_kv1"] + results.runs["c3_baseline"], WORDS("runs.narrowed"))
    reg.add("runs.c3_kv1.narrowed", min(shrunk), fixed(min(shrunk), 3), prov)
    reg.add("runs.c3_kv1.narrowed.max", max(shrunk), fixed(max(shrunk), 3), prov)
    step_prov = provenance(results.runs["c3_kv1"] + results.runs["c3_baseline"], WORDS("runs.peak_step"))
    reg.add("runs.c3_kv1.peak_step.min", min(peaks), integer(min(peaks)), step_prov)
    reg.add("runs.c3_kv1.peak_step.max", max(peaks), integer(max(peaks)), step_prov)
    reg.add("runs.c3_kv1.first_step", results.runs["c3_kv1"][0].val.step[0],
            integer(results.runs["c3_kv1"][0].val.step[0]), step_prov)
    last = results.runs["c3_kv1"][0].val.step[-1]
    reg.add("runs.c3_kv1.last_step", last, integer(last), step_prov)
    reg.add("runs.c3_kv1.drop_over_step", min(ratios), times(min(ratios), 1),
            provenance(results.runs["c3_kv1"] + results.runs["c3_baseline"], WORDS("runs.drop_over_step")))


OTHER_BASELINE = "c4_baseline"   # c3_baseline's config without attn_stats (models/experiments.json)


def add_other_cpu_baseline(reg: Scope, results, other) -> None:
    """The KV runs against chapter C4's baseline, which has their config apart from n_kv_head (c3_baseline's
    without attn_stats).

    flag.seeds / flag.identical: seeds that c3_baseline and c4_baseline both trained on one CPU, and how many of
    them end at exactly the same final loss (attn_stats only records).

    other.seeds, other.c3_kvN.diff.min/.max: c4_baseline's final loss on a CPU other than the KV runs', seed by
    seed, wherever the project has one: a result in data/results/cpu/ trained there, or else the cross-machine
    record (data/cross-machine.json) when its CPU is another; the KV runs minus it. other.cpu names that CPU."""
    from course.common.measured import TRADEMARKS, cpu_maker, provenance, seed_values
    if OTHER_BASELINE not in results.runs:
        return
    base = results.runs[OTHER_BASELINE]
    here = {cpu_maker(r.provenance.cpu) for r in results.runs["c3_baseline"]}
    same = [(r, q) for r, q in zip(results.runs["c3_baseline"], base)
            if r.config.seed == q.config.seed and cpu_maker(r.provenance.cpu) == cpu_maker(q.provenance.cpu)]
    prov = provenance(results.runs["c3_baseline"] + base, WORDS("flag.seeds"))
    reg.add("flag.seeds", len(same), integer(len(same)), prov)
    identical = sum(1 for r, q in same if r.metrics.final_val_loss == q.metrics.final_val_loss)
    reg.add("flag.identical", identical, integer(identical), prov)
    there: dict[int, float] = {}
    cpus: set[str] = set()
    for r in base:
        if cpu_maker(r.provenance.cpu) not in here and r.metrics.final_val_loss is not None:
            there[r.config.seed] = r.metrics.final_val_loss
            cpus.add(r.provenance.device_name)
    if cpu_maker(other.cpu) not in here:
        for seed, v in other.final_val_loss.get(OTHER_BASELINE, {}).items():
            if v is not None and int(seed) not in there:
                there[int(seed)] = v
                cpus.add(other.cpu)
    if not there:
        return
    seeds = sorted(there)
    measured = Measured(run=WORDS("other.run", seeds="/".join(map(str, seeds))),
                        told=WORDS("other.told", seeds="/".join(map(str, seeds))),
                        device=WORDS.join("list", sorted(cpus)), date=max(r.provenance.date for r in base),
                        commit=other.source_commit)
    reg.add("other.seeds", len(seeds), integer(len(seeds)), measured)
    if len(cpus) == 1:
        (cpu,) = cpus
        reg.add("other.cpu", cpu, TRADEMARKS.sub("", cpu).replace("  ", " ").strip(), measured)
    for run in KV_RUNS[1:]:
        loss = {r.config.seed: v for r, v in zip(results.runs[run], seed_values(results.runs[run], "final_val_loss"))}
        diffs = [loss[s] - there[s] for s in seeds if loss.get(s) is not None]
        for stat, v in (("min", min(diffs)), ("max", max(diffs))):
            reg.add(f"other.{run}.diff.{stat}", v, fixed(v, 3), measured)


def add_calculator(reg: Scope, inputs: Inputs, found: list[CachePlan]) -> None:
    """The calculator's range of contexts (twins.CONTEXT_EXPONENTS: powers of two), and the anchor's and Llama 3.1
    8B's caches at the shortest, as the prose compares them (BF16, one sequence)."""
    from lessons.c3_kv_cache.twins import CONTEXT_EXPONENTS
    for key, e in zip(("min_context", "max_context"), CONTEXT_EXPONENTS):
        reg.add(f"calculator.{key}", 2 ** e, integer(2 ** e),
                computed(WORDS("calculator.context", e=e), "lessons/c3_kv_cache/twins.py"))
    T = 2 ** CONTEXT_EXPONENTS[0]
    plan = {model_slug(p, inputs): p for p in found}
    for s in ("anchor", "llama_3_1_8b"):
        b = plan[s].bytes_at(T)
        reg.add(f"calculator.{s}_at_min", b, size(b),
                computed(WORDS("models.bytes_at", context=integer(T), parts=parts_text(plan[s])),
                         source_of(plan[s], inputs), KV))


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    found = add_models(reg, inputs)
    add_steps(reg, inputs, found)
    add_calculator(reg, inputs, found)
    add_runs(reg, inputs)
