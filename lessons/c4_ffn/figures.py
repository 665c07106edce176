"""The FFN lesson's figures: where the anchor's parameters go (its parameter ledger, from the official
config), and the small model's two experiments from the committed results of every seed: the FFN width
sweep (final validation loss against parameters) and GELU 4d against SwiGLU 8d/3 at equal parameters.
The measured charts draw every seed as its own marker or line and average nothing: GELU 4d's seeds split
into two groups, which a mean with a band would hide."""
from __future__ import annotations

from course.common.formulas import anchor_ledger
from course.common.measured import BASELINE, Results
from course.common.schema import load_inputs
from course.core.figures import base_layout
from course.core.formats import fixed, integer
from course.core.units import Figure
from lessons.c4_ffn.numbers import EQUAL_PAIR, SWEEP

# ---------------------------------------------------------------- 1. where the anchor's parameters go

PARTS = {  # the ledger's parts as the page names them, largest first in the chart
    "ffn": {"zh": "解码层的 FFN（SwiGLU）", "en": "decoder layers' FFNs (SwiGLU)"},
    "gated_deltanet": {"zh": "Gated DeltaNet（线性注意力）", "en": "Gated DeltaNet (linear attention)"},
    "full_attention": {"zh": "全注意力", "en": "full attention"},
    "embeddings": {"zh": "词嵌入", "en": "token embeddings"},
    "lm_head": {"zh": "输出层（lm_head）", "en": "output layer (lm_head)"},
    "vision": {"zh": "视觉编码器", "en": "vision encoder"},
    "mtp": {"zh": "MTP 模块（多 token 预测）", "en": "MTP module (multi-token prediction)"},
    "norms": {"zh": "RMSNorm 增益", "en": "RMSNorm gains"},
}
FFN_COLOR, OTHER_COLOR = "#e08e0b", "#6f86c9"


def ledger(results: Results, lang: str) -> dict:
    a = load_inputs().anchor
    parts = anchor_ledger(a.config.text_config, a.config.vision_config)
    total = sum(parts.values())
    order = sorted(parts, key=parts.get)          # horizontal bars: the largest on top
    share = {p: parts[p] / total for p in order}
    shown = {p: fixed(100 * share[p], 1 if share[p] >= 0.001 else 4) + "%" for p in order}
    data = [{"type": "bar", "orientation": "h", "y": [PARTS[p][lang] for p in order],
             "x": [parts[p] / (1e8 if lang == "zh" else 1e9) for p in order], "text": [shown[p] for p in order], "textposition": "outside",
             "cliponaxis": False,
             "marker": {"color": [FFN_COLOR if p == "ffn" else OTHER_COLOR for p in order]},
             "hovertext": [f"{PARTS[p][lang]}: {integer(parts[p])} ({shown[p]})" for p in order],
             "hoverinfo": "text", "showlegend": False}]
    title = (f"锚点模型 {a.name} 的 {fixed(total / 1e8, 0)} 亿个参数都在哪里" if lang == "zh"
             else f"Where the {fixed(total / 1e9, 1)}B parameters of the anchor, {a.name}, go")
    layout = base_layout(title, height=420, margin={"l": 220, "r": 70, "t": 60, "b": 50},
                         xaxis={"title": {"text": "亿个参数" if lang == "zh" else "billions of parameters"}},
                         yaxis={"automargin": True})
    parts_text = ("；" if lang == "zh" else "; ").join(f"{PARTS[p][lang]}{'' if PARTS[p][lang].endswith('）') else ' '}{shown[p]}"
                                                           for p in reversed(order))
    alt = (f"横向柱状图：锚点模型 {a.name} 的检查点共 {integer(total)} 个参数，按部件拆分（由官方 config 计算）。"
           f"各部件所占比例：{parts_text}。" if lang == "zh" else
           f"Horizontal bar chart: the {integer(total)} parameters of the anchor's checkpoint ({a.name}), split by part "
           f"(computed from its official config). Shares: {parts_text}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the width sweep

COLORS = {"c1_gelu_ratio2": "#8e5cc7", "c1_gelu_ratio4": "#3b6fd4", "c1_gelu_ratio8": "#2ca58d", BASELINE: "#c27400"}
SEED_DASH = ("solid", "dash", "dot")        # seed 1, 2, 3 of a run, in seed order
SEED_SYMBOL = ("circle", "square", "triangle-up")
T = {
    "zh": {"params": "参数总数", "loss": "最终验证损失（nats/字）", "step": "训练步数", "val": "验证损失（nats/字）",
           "seed": "种子 {s}", "gelu": "GELU，d_ff = {w}（{r}d）", "swiglu": "SwiGLU，d_ff = {w}",
           "missing": "（尚无结果）", "sweep_sub": "每条细线是一个种子：同一个种子在三种宽度下的结果连在一起",
           "curves_sub": "每条线是一个种子，没有取均值", "sep": "；", "colon": "：", "comma": "，"},
    "en": {"params": "parameters", "loss": "final validation loss (nats/char)", "step": "step",
           "val": "validation loss (nats/char)", "seed": "seed {s}", "gelu": "GELU, d_ff = {w} ({r}d)",
           "swiglu": "SwiGLU, d_ff = {w}", "missing": " (no results yet)",
           "sweep_sub": "one thin line per seed: the same seed joined across the three widths",
           "curves_sub": "one line per seed, no averaging", "sep": "; ", "colon": ": ", "comma": ", "},
}


def run_label(name: str, runs, lang: str) -> str:
    r, t = runs[0], T[lang]
    if r.config.ffn_type == "gelu":
        return t["gelu"].format(w=integer(r.ffn_hidden), r=fixed(r.config.ffn_ratio, 0))
    return t["swiglu"].format(w=integer(r.ffn_hidden))


def finals(runs) -> list[float]:
    return [r.metrics.final_val_loss for r in runs if r.metrics.final_val_loss is not None]


def seed_finals_text(name: str, results: Results, lang: str) -> str:
    """'GELU, d_ff = 512 (4d): seed 1337 5.096, seed 1338 5.059, seed 1339 5.631' for the text alternatives."""
    t, rs = T[lang], results.runs[name]
    seeds = t["comma"].join(f"{t['seed'].format(s=r.config.seed)} {fixed(r.metrics.final_val_loss, 3)}"
                            for r in rs if r.metrics.final_val_loss is not None)
    return f"{run_label(name, rs, lang)}{t['colon']}{seeds}"


def width_sweep(results: Results, lang: str) -> dict:
    """Final loss against parameters, every seed its own marker; the sweep's seeds each joined by a thin line
    across the three widths (the notes compare seed by seed, so the chart draws the pairs they compare)."""
    t = T[lang]
    names = [n for n in (*SWEEP, BASELINE) if n in results.runs]
    sweep = [n for n in SWEEP if n in results.runs]
    data = []
    seeds = sorted({r.config.seed for n in names for r in results.runs[n]})
    for i, seed in enumerate(seeds):
        pts = [(results.runs[n][0].parameters, r.metrics.final_val_loss, n) for n in sweep
               for r in results.runs[n] if r.config.seed == seed and r.metrics.final_val_loss is not None]
        if len(pts) > 1:
            data.append({"type": "scatter", "mode": "lines", "x": [x for x, _, _ in pts], "y": [y for _, y, _ in pts],
                         "showlegend": False, "hoverinfo": "skip",
                         "line": {"color": COLORS["c1_gelu_ratio4"], "width": 1, "dash": SEED_DASH[i % 3]}})
    for name in names:
        rs, color = results.runs[name], COLORS[name]
        label = run_label(name, rs, lang)
        ok = [r for r in rs if r.metrics.final_val_loss is not None]
        data.append({"type": "scatter", "mode": "markers", "x": [r.parameters for r in ok],
                     "y": [r.metrics.final_val_loss for r in ok], "name": label, "legendgroup": name,
                     "marker": {"color": color, "size": 9, "opacity": 0.85,
                                "symbol": ["diamond" if name == BASELINE else SEED_SYMBOL[seeds.index(r.config.seed) % 3]
                                           for r in ok]},
                     "hovertext": [f"{label}, {t['seed'].format(s=r.config.seed)}: {integer(r.parameters)} "
                                   f"{t['params']}, {fixed(r.metrics.final_val_loss, 3)}" for r in ok],
                     "hoverinfo": "text"})
    title = ("FFN 宽度扫描：最终验证损失对参数总数" if lang == "zh"
             else "FFN width sweep: final validation loss against parameters")
    missing = [n for n in (*SWEEP, BASELINE) if n not in results.runs]
    sub = t["sweep_sub"] + (t["missing"] + " " + ", ".join(missing) if missing else "")
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", height=460,
                         xaxis={"title": {"text": t["params"]}}, yaxis={"title": {"text": t["loss"]}})
    parts = [seed_finals_text(n, results, lang) for n in names if finals(results.runs[n])]
    alt = (f"散点图：小模型在不同 FFN 宽度下的最终验证损失对参数总数，每个种子一个点，同一个种子在三种宽度下用细线相连。"
           f"{t['sep'].join(parts) if parts else '尚无结果'}。" if lang == "zh" else
           f"Scatter plot: the small model's final validation loss against its parameter count for several FFN "
           f"widths; one marker per seed, each seed joined by a thin line across the three widths. "
           f"{t['sep'].join(parts) if parts else 'No results yet'}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. GELU 4d against SwiGLU 8d/3

def gelu_vs_swiglu(results: Results, lang: str) -> dict:
    """Validation loss against step, one line per seed of each run: GELU 4d's seeds do not agree (two end
    low, one high), and a mean with a band would hide which seed went where."""
    t = T[lang]
    names = [n for n in EQUAL_PAIR if n in results.runs]
    data, parts = [], []
    for name in names:
        rs, color = results.runs[name], COLORS[name]
        label = f"{run_label(name, rs, lang)}, {integer(rs[0].parameters)} {t['params']}"
        for i, r in enumerate(rs):
            seed = t["seed"].format(s=r.config.seed)
            steps = [s for s, v in zip(r.val.step, r.val.loss) if v is not None]
            losses = [v for v in r.val.loss if v is not None]
            data.append({"type": "scatter", "mode": "lines+markers", "x": steps, "y": losses,
                         "name": f"{label}{t['comma']}{seed}", "legendgroup": name,
                         "line": {"color": color, "width": 1.5, "dash": SEED_DASH[i % 3]},
                         "marker": {"color": color, "size": 5, "symbol": SEED_SYMBOL[i % 3]},
                         "hovertemplate": f"{label}{t['comma']}{seed}<br>%{{x}}{t['colon']}%{{y:.3f}}<extra></extra>"})
        if finals(rs):
            parts.append(seed_finals_text(name, results, lang))
    title = ("参数相同时：GELU（4d）对 SwiGLU（8d/3）" if lang == "zh"
             else "At equal parameters: GELU (4d) against SwiGLU (8d/3)")
    missing = [n for n in EQUAL_PAIR if n not in results.runs]
    sub = t["curves_sub"] + (t["missing"] + " " + ", ".join(missing) if missing else "")
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", height=500,
                         xaxis={"title": {"text": t["step"]}}, yaxis={"title": {"text": t["val"]}})
    alt = (f"折线图：两种 FFN 的验证损失随训练步数的变化，每个种子一条线。最终验证损失：{t['sep'].join(parts) if parts else '尚无结果'}。"
           if lang == "zh" else
           f"Line chart: validation loss against step for the two FFNs, one line per seed. Final validation loss: "
           f"{t['sep'].join(parts) if parts else 'no results yet'}.")
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("ffn-ledger", ledger), Figure("ffn-width-sweep", width_sweep),
           Figure("ffn-gelu-swiglu", gelu_vs_swiglu))
