"""Derive every computed and cited number of the course from the validated inputs into one Registry.

Each `reg.add` names the formula (from course/formulas.py) and the data file it reads, so a reader can
trace a page's number in three hops: page key → this file → the data file.
Measured numbers join from the results of the small model's runs (course/measured.py).
"""
from __future__ import annotations

from course import formulas as f
from course.measured import add_measured
from course.registry import Cited, Computed, Registry, fixed, integer, percent, scientific, vector
from course.schema import Inputs

ANCHOR = "data/anchor-model.json"
FRONTIER = "data/frontier-models.json"
EXPERIMENTS = "models/experiments.json"
FORMULAS = "course/formulas.py"

# The lesson's 4-d teaching vector and the two operations its playground offers.
TEACHING_VECTOR = [1.0, 2.0, 3.0, 6.0]
SHIFT = 2.0
SCALE = 3.0


def computed(formula: str, *sources: str) -> Computed:
    return Computed(formula=formula, sources=list(sources) or [FORMULAS])


def add_anchor(reg: Registry, inputs: Inputs) -> None:
    a = inputs.anchor
    t, v = a.config.text_config, a.config.vision_config
    L, d = t.num_hidden_layers, t.hidden_size
    src = lambda field: f"{ANCHOR} (config.text_config.{field})"  # noqa: E731

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
            computed("count of 'full_attention' in layer_types", src("layer_types")))
    reg.add("anchor.linear_attention_layers", L - n_full, integer(L - n_full),
            computed("count of 'linear_attention' in layer_types", src("layer_types")))
    reg.add("anchor.eps", t.rms_norm_eps, scientific(t.rms_norm_eps), computed("rms_norm_eps", src("rms_norm_eps")))

    writes = f.residual_writes(L)
    reg.add("anchor.residual_writes", writes, integer(writes), computed("2 × num_hidden_layers", src("num_hidden_layers")))
    reg.add("anchor.residual_writes_plus_one", writes + 1, integer(writes + 1),
            computed("2 × num_hidden_layers + 1", src("num_hidden_layers")))
    std = f.residual_std(L)
    reg.add("anchor.residual_std", std, fixed(std, 2), computed("√(2L + 1)", src("num_hidden_layers"), FORMULAS))
    sphere = d ** 0.5
    reg.add("anchor.sqrt_d", sphere, fixed(sphere, 2), computed("√hidden_size", src("hidden_size")))

    ledger = f.anchor_ledger(t, v)
    total = sum(ledger.values())
    for part, n in ledger.items():
        reg.add(f"anchor.params.{part}", n, integer(n),
                computed(f"anchor_ledger()['{part}']", ANCHOR, FORMULAS))
    reg.add("anchor.params.total", total, integer(total), computed("sum of the ledger", ANCHOR, FORMULAS))
    official = int(a.facts.official_parameter_total.value)
    reg.add("anchor.params.official_total", official, integer(official),
            computed("facts.official_parameter_total (safetensors headers)", f"{ANCHOR} (facts)"))
    reg.add("anchor.ffn_share", ledger["ffn"] / total, percent(ledger["ffn"] / total, 1),
            computed("FFN parameters / all parameters", ANCHOR, FORMULAS))
    reg.add("anchor.norm_share", ledger["norms"] / total, percent(ledger["norms"] / total, 4),
            computed("(2·L·d + d) / all parameters", ANCHOR, FORMULAS))
    per_layer_norm = 2 * d
    # the lesson's table of where the anchor's RMSNorms sit (shapes: anchor.hidden_size, head_dim, gdn_norm_dim)
    norms = f.anchor_norms(t)
    reg.add("anchor.norms.entry.per_layer", norms["entry"]["per_layer"], integer(norms["entry"]["per_layer"]),
            computed("anchor_norms()['entry']: input_layernorm + post_attention_layernorm", src("num_hidden_layers"), FORMULAS))
    for place, what in (("entry", "2 × num_hidden_layers"), ("final", "one after the last layer"),
                        ("qk", "2 × count of 'full_attention' in layer_types"),
                        ("gdn", "count of 'linear_attention' in layer_types")):
        n = norms[place]["count"]
        reg.add(f"anchor.norms.{place}.count", n, integer(n),
                computed(f"anchor_norms()['{place}']: {what}", src("layer_types"), FORMULAS))
    reg.add("anchor.norms.qk.per_layer", norms["qk"]["per_layer"], integer(norms["qk"]["per_layer"]),
            computed("anchor_norms()['qk']: q_norm + k_norm per full-attention layer", src("layer_types"), FORMULAS))
    dof = d - 1
    reg.add("anchor.direction_dof", dof, integer(dof),
            computed("hidden_size − 1 (a direction in d dimensions)", src("hidden_size")))
    unit = f.eps_relative_effect(1.0, t.rms_norm_eps)
    reg.add("anchor.eps_effect.unit_rms", unit, scientific(float(f"{unit:.1e}")),
            computed("1 − √(1 / (1 + rms_norm_eps)): output shrink for a token of mean square 1",
                     src("rms_norm_eps"), FORMULAS))
    at_eps = f.eps_relative_effect(t.rms_norm_eps, t.rms_norm_eps)
    reg.add("anchor.eps_effect.at_eps", at_eps, percent(at_eps, 1),
            computed("1 − √(ε / (ε + ε)): output shrink for a token whose mean square equals ε",
                     src("rms_norm_eps"), FORMULAS))
    reg.add("anchor.norms_per_layer_params", per_layer_norm, integer(per_layer_norm),
            computed("2 × hidden_size", src("hidden_size")))


def add_frontier(reg: Registry, inputs: Inputs) -> None:
    fm = inputs.frontier
    for key, name in (("transformer_base", "Transformer base"), ("gpt2", "GPT-2 small"),
                      ("deepseek_llm_67b", "DeepSeek-LLM-67B")):
        m = fm.by_name(name)
        src = f"{FRONTIER} ({name}; {m.provenance.grade})"
        reg.add(f"{key}.hidden_size", m.hidden_size, integer(m.hidden_size), computed("hidden_size", src))
        reg.add(f"{key}.ffn_width", m.ffn_width, integer(m.ffn_width), computed("ffn_width", src))
        r = m.ffn_width / m.hidden_size
        reg.add(f"{key}.ffn_ratio", r, fixed(r, 2 if r != int(r) else 0) + "d", computed("ffn_width / hidden_size", src))
    ds = fm.by_name("DeepSeek-LLM-67B")
    eq = f.swiglu_equal_params_width(ds.hidden_size)
    reg.add("deepseek_llm_67b.equal_params_width", eq, fixed(eq, 0), computed("8d/3", FRONTIER, FORMULAS))
    reg.add("deepseek_llm_67b.vs_equal_params", ds.ffn_width / eq, fixed(ds.ffn_width / eq, 3) + "×",
            computed("ffn_width / (8d/3)", FRONTIER, FORMULAS))
    for key, name in (("gpt_oss", "gpt-oss-120b"), ("deepseek_v4", "DeepSeek-V4-Flash")):
        m = fm.by_name(name)
        reg.add(f"{key}.swiglu_limit", m.swiglu_limit, fixed(m.swiglu_limit, 0),
                computed("swiglu_limit", f"{FRONTIER} ({name}; {m.provenance.grade})"))
    # which ε the compared models use (the lesson's "why 1e−6 and not 0")
    eps = f.eps_counts([m.norm_eps for m in fm.models])
    src = f"{FRONTIER} (norm_eps of every model that states one)"
    n_eps = sum(eps.values())
    reg.add("frontier.eps.models", n_eps, integer(n_eps), computed("models with a norm_eps", src, FORMULAS))
    for name, value in (("smallest", min(eps)), ("largest", max(eps))):
        reg.add(f"frontier.eps.{name}", value, scientific(value), computed(f"{name} norm_eps", src, FORMULAS))
        reg.add(f"frontier.eps.{name}.count", eps[value], integer(eps[value]),
                computed(f"models whose norm_eps is the {name}", src, FORMULAS))
    x = fm.by_name("DeepSeek-V4-Flash").swiglu_limit
    unbounded = f.silu(x) * x
    reg.add("swiglu.silu_at_limit_times_limit", unbounded, fixed(unbounded, 3),
            computed("SiLU(x)·x at x = DeepSeek V4's swiglu_limit", FRONTIER, FORMULAS))


def add_worked_examples(reg: Registry) -> None:
    x = TEACHING_VECTOR
    shifted = [v + SHIFT for v in x]
    scaled = [v * SCALE for v in x]
    reg.add("worked.shift", SHIFT, fixed(SHIFT, 0), computed("the playground's shift", "course/numbers.py"))
    reg.add("worked.scale", SCALE, fixed(SCALE, 0), computed("the playground's scale", "course/numbers.py"))
    for name, vec in (("x", x), ("shifted", shifted), ("scaled", scaled)):
        reg.add(f"worked.{name}", vec, vector(vec, 0), computed(f"teaching vector ({name})", "course/numbers.py"))
        reg.add(f"worked.{name}.mean", f.mean(vec), fixed(f.mean(vec), 0), computed("μ = mean(x)"))
        reg.add(f"worked.{name}.var", f.variance(vec), fixed(f.variance(vec), 1), computed("mean((x − μ)²)"))
        sd = f.variance(vec) ** 0.5
        reg.add(f"worked.{name}.std", sd, fixed(sd, 3), computed("σ = √var"))
        ms = f.rms(vec) ** 2
        reg.add(f"worked.{name}.mean_square", ms, fixed(ms, 1), computed("mean(x²)"))
        reg.add(f"worked.{name}.rms", f.rms(vec), fixed(f.rms(vec), 3), computed("√mean(x²)"))
        sq, dev = f.squares(vec), f.squared_deviations(vec)
        reg.add(f"worked.{name}.squares", sq, vector(sq, 0), computed("x_i²"))
        reg.add(f"worked.{name}.sq_dev", dev, vector(dev, 0), computed("(x_i − μ)²"))
        ln, rn = f.layernorm(vec), f.rmsnorm(vec)
        reg.add(f"worked.{name}.layernorm", ln, vector(ln, 3), computed("(x − μ)/σ"))
        reg.add(f"worked.{name}.rmsnorm", rn, vector(rn, 3), computed("x / RMS(x)"))
    n = f.length(f.rmsnorm(x))
    reg.add("worked.rmsnorm_length", n, fixed(n, 0), computed("‖RMSNorm(x)‖ = √d"))
    reg.add("worked.d", len(x), integer(len(x)), computed("len(teaching vector)", "course/numbers.py"))


def add_project(reg: Registry, inputs: Inputs) -> None:
    base = inputs.experiments.base
    src = f"{EXPERIMENTS} (base)"
    reg.add("project.lr", base.lr, scientific(base.lr), computed("lr", src))
    reg.add("project.weight_decay", base.weight_decay, fixed(base.weight_decay, 1), computed("weight_decay", src))
    reg.add("project.eps", base.norm_eps, scientific(base.norm_eps), computed("norm_eps", src))
    reg.add("project.n_layer", base.n_layer, integer(base.n_layer), computed("n_layer", src))
    reg.add("project.d_model", base.d_model, integer(base.d_model), computed("d_model", src))
    reg.add("project.init_std", base.init_std, fixed(base.init_std, 2), computed("init_std", src))
    reg.add("project.residual_writes", f.residual_writes(base.n_layer), integer(f.residual_writes(base.n_layer)),
            computed("2 × n_layer", src))
    s = f.residual_init_std(base.init_std, base.n_layer)
    reg.add("project.residual_init_std", s, fixed(s, 5), computed("init_std / √(2 × n_layer)", src, FORMULAS))
    reg.add("project.warmup_steps", base.warmup_steps, integer(base.warmup_steps), computed("warmup_steps", src))
    # each run's learning rate, so a page can say what a run changes without typing it
    for run in inputs.experiments.runs:
        c = inputs.experiments.config(run)
        rsrc = f"{EXPERIMENTS} (runs.{run} over base)"
        reg.add(f"config.{run}.lr", c.lr, scientific(c.lr), computed("lr", rsrc))
    # the weight-decay widget's defaults: a gain trained to 1.5, then 5000 steps of decay alone
    gain, steps = 1.5, 5000
    reg.add("wd.default_gain", gain, fixed(gain, 2), computed("widget default", "course/numbers.py"))
    reg.add("wd.default_steps", steps, integer(steps), computed("widget default", "course/numbers.py"))
    k = f.weight_decay_factor(base.lr, base.weight_decay, steps)
    reg.add("wd.factor", k, fixed(k, 3), computed("(1 − lr·wd)^steps", src, FORMULAS))
    g = f.standard_gain_after_decay(gain, base.lr, base.weight_decay, steps)
    reg.add("wd.standard_gain", g, fixed(g, 3), computed("g · (1 − lr·wd)^steps", src, FORMULAS))
    z = f.zero_centered_gain_after_decay(gain, base.lr, base.weight_decay, steps)
    reg.add("wd.zero_centered_gain", z, fixed(z, 3), computed("1 + w · (1 − lr·wd)^steps", src, FORMULAS))


def add_decoder_layer(reg: Registry, inputs: Inputs) -> None:
    """One decoder layer's parts, for the decoder-flow widget: parameters per layer, not summed over layers."""
    for part, n in f.anchor_layer_parts(inputs.anchor.config.text_config).items():
        reg.add(f"anchor.layer.{part}_params", n, integer(n),
                computed(f"anchor_layer_parts()['{part}']", ANCHOR, FORMULAS))


TWINS = "course/twins.py"


def add_simulator(reg: Registry) -> None:
    """The residual-stream simulator's read-outs at its default settings, from the Python twin of the widget,
    so the prose quotes exactly what the page's widget shows on load."""
    from course.twins import SIM, simulate
    N, gain = SIM.default_layers, SIM.default_gain
    where = f"{TWINS} (simulate, seed {SIM.seed}, d = {SIM.width}, T = {SIM.tokens})"
    reg.add("sim.default_layers", N, integer(N), computed("the simulator's default N", where))
    reg.add("sim.default_gain", gain, fixed(gain, 2), computed("the simulator's default init gain", where))
    settings = {
        "residual_only": dict(residual=True, prenorm=False, scale=False),
        "prenorm": dict(residual=True, prenorm=True, scale=False),
        "prenorm_scaled": dict(residual=True, prenorm=True, scale=True),
    }
    words = {"residual_only": "residual on, pre-RMSNorm off", "prenorm": "residual on, pre-RMSNorm on",
             "prenorm_scaled": "residual on, pre-RMSNorm on, write-back × 1/√N"}
    for name, kw in settings.items():
        r = simulate(N, gain, **kw)
        if name == "residual_only":  # the same x_0 in every setting: where the stream starts
            reg.add("sim.start_stream_rms", r.stream[0], fixed(r.stream[0], 2),
                    computed("RMS of the residual stream x_0 before the first sublayer", where))
        at = f"N = {N}, gain = {gain}, {words[name]}"
        reg.add(f"sim.{name}.grad_ratio", r.grad_ratio, fixed(r.grad_ratio, 2),
                computed(f"bottom-layer ‖∂L/∂x‖ / top-layer ‖∂L/∂x‖; {at}", where))
        reg.add(f"sim.{name}.stream_rms", r.stream_rms, fixed(r.stream_rms, 2),
                computed(f"RMS of the final residual stream; {at}", where))
        reg.add(f"sim.{name}.read_rms", r.read_rms_top, fixed(r.read_rms_top, 2),
                computed(f"RMS of the top sublayer's input; {at}", where))


def add_citations(reg: Registry, inputs: Inputs) -> None:
    c = inputs.citations
    for n in c.numbers:
        p = c.papers[n.paper]
        reg.add(n.key, n.value, fixed(n.value, n.digits) + n.unit,
                Cited(paper=f"{p.authors} {p.year}", table=n.table, row=n.row), unit=n.unit)


def build_registry(inputs: Inputs) -> Registry:
    reg = Registry()
    add_anchor(reg, inputs)
    add_frontier(reg, inputs)
    add_worked_examples(reg)
    add_project(reg, inputs)
    add_decoder_layer(reg, inputs)
    add_simulator(reg)
    add_citations(reg, inputs)
    add_measured(reg)
    return reg
