"""The chapter's shared numbers, from the validated inputs: the anchor's sizes and parameter ledger, the
frontier models the evolution table quotes, the cited paper numbers, the small model's config and its
measured runs. Each `reg.add` names the formula (course/common/formulas.py) and the data file it reads,
so a reader can trace a page's number in three hops: page key → this file → the data file.
"""
from __future__ import annotations

import re

from course.common import formulas as f
from course.common.measured import add_config, add_drift, add_measured
from course.common.schema import Inputs
from course.core.formats import fixed, integer, percent, scientific
from course.core.registry import Cited, Computed, Registry, Words
from course.core.schema import Bilingual
from course.project import words as words_of

WORDS = words_of(__file__)   # course/common/words.LANG.json

ANCHOR = "data/anchor-model.json"
FRONTIER = "data/frontier-models.json"
EXPERIMENTS = "models/experiments.json"
FORMULAS = "course/common/formulas.py"


def computed_from(default: str):
    """`computed(formula, *sources)`: a computed number's provenance, its sources `default` (the formulas file of
    the lesson, or of the course) where none is named. A formula may stay one string; a sentence is in words."""
    def computed(formula: Words, *sources: Words) -> Computed:
        return Computed(formula=formula, sources=list(sources) or [default])
    return computed


computed = computed_from(FORMULAS)


def slug(name: str) -> str:
    """'Llama 3.1 8B' → 'llama_3_1_8b': a model's name as a registry key part."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def anchor_source(field: str) -> str:
    return f"{ANCHOR} (config.text_config.{field})"


def frontier_source(name: str, grade: str) -> Words:
    """'data/frontier-models.json (Kimi K3; official file)', in each language's words and punctuation: how the
    config was obtained (FileProvenance.grade) is the word grade.GRADE ("official file": grade.official_file)."""
    return WORDS("frontier_source", file=FRONTIER, name=name, grade=WORDS("grade." + grade.replace(" ", "_")))


def add_anchor(reg: Registry, inputs: Inputs) -> None:
    a = inputs.anchor
    t, v = a.config.text_config, a.config.vision_config
    L, d = t.num_hidden_layers, t.hidden_size
    src = anchor_source

    reg.add("anchor.hidden_size", d, integer(d), computed("hidden_size", src("hidden_size")))
    reg.add("anchor.num_layers", L, integer(L), computed("num_hidden_layers", src("num_hidden_layers")))
    reg.add("anchor.ffn_width", t.intermediate_size, integer(t.intermediate_size),
            computed("intermediate_size", src("intermediate_size")))
    ratio = t.intermediate_size / d
    reg.add("anchor.ffn_ratio", ratio, fixed(ratio, 1) + "d",
            computed("intermediate_size / hidden_size", src("intermediate_size")))
    reg.add("anchor.head_dim", t.head_dim, integer(t.head_dim), computed("head_dim", src("head_dim")))
    reg.add("anchor.num_heads", t.num_attention_heads, integer(t.num_attention_heads),
            computed("num_attention_heads", src("num_attention_heads")))
    attn_width = t.num_attention_heads * t.head_dim
    reg.add("anchor.attn_width", attn_width, integer(attn_width),
            computed("num_attention_heads × head_dim", src("num_attention_heads")))
    q_out = attn_width * (2 if t.attn_output_gate else 1)
    reg.add("anchor.q_proj_out", q_out, integer(q_out),
            computed("(2 if attn_output_gate) × num_attention_heads × head_dim", src("attn_output_gate")))
    reg.add("anchor.gdn_norm_dim", t.linear_value_head_dim, integer(t.linear_value_head_dim),
            computed("linear_value_head_dim", src("linear_value_head_dim")))
    n_full = sum(x == "full_attention" for x in t.layer_types)
    reg.add("anchor.full_attention_layers", n_full, integer(n_full),
            computed(WORDS("anchor.full_attention_layers"), src("layer_types")))
    reg.add("anchor.linear_attention_layers", L - n_full, integer(L - n_full),
            computed(WORDS("anchor.linear_attention_layers"), src("layer_types")))
    reg.add("anchor.eps", t.rms_norm_eps, scientific(t.rms_norm_eps), computed("rms_norm_eps", src("rms_norm_eps")))

    writes = f.residual_writes(L)
    reg.add("anchor.residual_writes", writes, integer(writes), computed("2 × num_hidden_layers", src("num_hidden_layers")))
    reg.add("anchor.residual_writes_plus_one", writes + 1, integer(writes + 1),
            computed("2 × num_hidden_layers + 1", src("num_hidden_layers")))
    std = f.residual_std(L)
    reg.add("anchor.residual_std", std, fixed(std, 2), computed("√(2L + 1)", src("num_hidden_layers"), FORMULAS))

    ledger = f.anchor_ledger(t, v)
    total = sum(ledger.values())
    for part in ("ffn", "norms"):   # the parts the pages name (the ledger figure draws every part)
        reg.add(f"anchor.params.{part}", ledger[part], integer(ledger[part]),
                computed(f"anchor_ledger()['{part}']", ANCHOR, FORMULAS))
    reg.add("anchor.params.total", total, integer(total), computed(WORDS("anchor.params.total"), ANCHOR, FORMULAS))
    official = int(a.facts.official_parameter_total.value)
    reg.add("anchor.params.official_total", official, integer(official),
            computed("facts.official_parameter_total (safetensors headers)", f"{ANCHOR} (facts)"))
    reg.add("anchor.ffn_share", ledger["ffn"] / total, percent(ledger["ffn"] / total, 1),
            computed(WORDS("anchor.ffn_share", layers=L), ANCHOR, FORMULAS))
    reg.add("anchor.norm_share", ledger["norms"] / total, percent(ledger["norms"] / total, 4),
            computed("(2·L·d + d) / all parameters", ANCHOR, FORMULAS))
    # one decoder layer's parts, for the decoder-flow widget: parameters per layer, not summed over layers
    for part, n in f.anchor_layer_parts(t).items():
        reg.add(f"anchor.layer.{part}_params", n, integer(n),
                computed(f"anchor_layer_parts()['{part}']", ANCHOR, FORMULAS))


def add_frontier(reg: Registry, inputs: Inputs) -> None:
    fm = inputs.frontier
    for key, name in (("transformer_base", "Transformer base"), ("gpt2", "GPT-2 small"),
                      ("deepseek_llm_67b", "DeepSeek-LLM-67B"), ("llama2_7b", "Llama 2 7B")):
        m = fm.by_name(name)
        src = frontier_source(name, m.provenance.grade)
        reg.add(f"{key}.hidden_size", m.hidden_size, integer(m.hidden_size), computed("hidden_size", src))
        reg.add(f"{key}.ffn_width", m.ffn_width, integer(m.ffn_width), computed("ffn_width", src))
        if key != "deepseek_llm_67b":   # the pages give DeepSeek-LLM-67B's width against the rule, not as d_ff/d
            r = m.ffn_width / m.hidden_size
            reg.add(f"{key}.ffn_ratio", r, fixed(r, 2 if r != int(r) else 0) + "d", computed("ffn_width / hidden_size", src))
    for key, name in (("gpt_oss", "gpt-oss-120b"), ("deepseek_v4", "DeepSeek-V4-Flash")):
        m = fm.by_name(name)
        reg.add(f"{key}.swiglu_limit", m.swiglu_limit, fixed(m.swiglu_limit, 0),
                computed("swiglu_limit", frontier_source(name, m.provenance.grade)))
    x = fm.by_name("DeepSeek-V4-Flash").swiglu_limit
    unbounded = f.silu(x) * x
    reg.add("swiglu.silu_at_limit_times_limit", unbounded, fixed(unbounded, 3),
            computed(WORDS("swiglu.silu_at_limit_times_limit"), FRONTIER, FORMULAS))


def add_project(reg: Registry, inputs: Inputs) -> None:
    """The small model's base config (models/experiments.json), shared by every lesson's measured section."""
    base = inputs.experiments.base
    src = f"{EXPERIMENTS} (base)"
    reg.add("project.lr", base.lr, scientific(base.lr), computed("lr", src))
    reg.add("project.weight_decay", base.weight_decay, fixed(base.weight_decay, 1), computed("weight_decay", src))
    reg.add("project.eps", base.norm_eps, scientific(base.norm_eps), computed("norm_eps", src))
    reg.add("project.n_layer", base.n_layer, integer(base.n_layer), computed("n_layer", src))
    reg.add("project.d_model", base.d_model, integer(base.d_model), computed("d_model", src))
    reg.add("project.n_head", base.n_head, integer(base.n_head), computed("n_head", src))
    reg.add("project.block_size", base.block_size, integer(base.block_size), computed("block_size", src))
    reg.add("project.batch_size", base.batch_size, integer(base.batch_size), computed("batch_size", src))
    reg.add("project.max_steps", base.max_steps, integer(base.max_steps), computed("max_steps", src))
    reg.add("project.init_std", base.init_std, fixed(base.init_std, 2), computed("init_std", src))
    reg.add("project.residual_writes", f.residual_writes(base.n_layer), integer(f.residual_writes(base.n_layer)),
            computed("2 × n_layer", src))
    s = f.residual_init_std(base.init_std, base.n_layer)
    reg.add("project.residual_init_std", s, fixed(s, 5), computed("init_std / √(2 × n_layer)", src, FORMULAS))
    reg.add("project.warmup_steps", base.warmup_steps, integer(base.warmup_steps), computed("warmup_steps", src))
    hidden = base.gpt_config(vocab_size=1).ffn_hidden
    reg.add("project.ffn_hidden", hidden, integer(hidden),
            computed("ffn_multiple_of · ⌈(8/3) · d_model / ffn_multiple_of⌉", src, "models/config.py"))


def add_citations(reg: Registry, inputs: Inputs) -> None:
    c = inputs.citations
    for n in c.numbers:
        p = c.papers[n.paper]
        source = f"{p.authors} {p.year}" + (f" ({p.kind})" if p.kind != "paper" else "")
        reg.add(n.key, n.value, fixed(n.value, n.digits) + n.unit,
                Cited(paper=source, table=words(n.table), row=words(n.row)), unit=n.unit)


def words(w: str | Bilingual) -> Words:
    """A data file's words: one text for every language, or one per language."""
    return w if isinstance(w, str) else w.model_dump()


def add_numbers(reg: Registry, inputs: Inputs) -> None:
    add_anchor(reg, inputs)
    add_frontier(reg, inputs)
    add_project(reg, inputs)
    add_citations(reg, inputs)
    add_config(reg, inputs.experiments)
    add_measured(reg, inputs.results, inputs.experiments)
    add_drift(reg, inputs.results, inputs.cross_machine)
