"""The FFN lesson's figures: where the anchor's parameters go (its parameter ledger, from the official
config), and the small model's two experiments from the committed results of every seed: the FFN width
sweep (final validation loss against parameters) and GELU 4d against SwiGLU 8d/3 at equal parameters.
The measured charts show every seed: faint markers per seed, the mean with a bar from the lowest to the
highest seed, or a shaded band over the curves."""
from __future__ import annotations

from course.common.formulas import anchor_ledger
from course.common.measured import BASELINE, Results, seed_curves
from course.common.schema import load_inputs
from course.core.figures import band, base_layout
from course.core.formats import fixed, integer
from course.core.units import Figure
from lessons.c4_ffn.numbers import EQUAL_PAIR, SWEEP

# ---------------------------------------------------------------- 1. where the anchor's parameters go

PARTS = {  # the ledger's parts as the page names them, largest first in the chart
    "ffn": {"zh": "FFN(SwiGLU)", "en": "FFN (SwiGLU)"},
    "gated_deltanet": {"zh": "Gated DeltaNet(线性注意力)", "en": "Gated DeltaNet (linear attention)"},
    "full_attention": {"zh": "全注意力", "en": "full attention"},
    "embeddings": {"zh": "词嵌入", "en": "token embeddings"},
    "lm_head": {"zh": "输出层(lm_head)", "en": "output layer (lm_head)"},
    "vision": {"zh": "视觉编码器", "en": "vision encoder"},
    "mtp": {"zh": "MTP 模块", "en": "MTP module"},
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
             "x": [parts[p] / 1e9 for p in order], "text": [shown[p] for p in order], "textposition": "outside",
             "cliponaxis": False,
             "marker": {"color": [FFN_COLOR if p == "ffn" else OTHER_COLOR for p in order]},
             "hovertext": [f"{PARTS[p][lang]}: {integer(parts[p])} ({shown[p]})" for p in order],
             "hoverinfo": "text", "showlegend": False}]
    title = (f"锚点模型 {a.name} 的 {fixed(total / 1e8, 0)} 亿个参数都在哪里" if lang == "zh"
             else f"Where the {fixed(total / 1e9, 1)}B parameters of the anchor, {a.name}, go")
    layout = base_layout(title, height=420, margin={"l": 220, "r": 70, "t": 60, "b": 50},
                         xaxis={"title": {"text": "十亿个参数" if lang == "zh" else "billions of parameters"}},
                         yaxis={"automargin": True})
    parts_text = "; ".join(f"{PARTS[p][lang]} {shown[p]}" for p in reversed(order))
    alt = (f"横向柱状图:锚点模型 {a.name} 共 {integer(total)} 个参数按部件拆分(由官方 config 计算)。"
           f"各部件所占比例:{parts_text}。" if lang == "zh" else
           f"Horizontal bar chart: the {integer(total)} parameters of the anchor, {a.name}, split by part "
           f"(computed from its official config). Shares: {parts_text}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the width sweep

COLORS = {"c1_gelu_ratio2": "#8e5cc7", "c1_gelu_ratio4": "#3b6fd4", "c1_gelu_ratio8": "#2ca58d", BASELINE: "#e08e0b"}
T = {
    "zh": {"params": "参数总数", "loss": "最终验证损失(nats/字)", "step": "训练步数", "val": "验证损失(nats/字)",
           "seed": "种子 {s}", "mean": "{n} 个种子的均值,误差棒为最小到最大", "gelu": "GELU,d_ff = {w}({r}d)",
           "swiglu": "SwiGLU,d_ff = {w}", "missing": "(尚无结果)", "band": "阴影:{n} 个种子的最小到最大"},
    "en": {"params": "parameters", "loss": "final validation loss (nats/char)", "step": "step",
           "val": "validation loss (nats/char)", "seed": "seed {s}", "mean": "mean of {n} seeds, bars from lowest to highest",
           "gelu": "GELU, d_ff = {w} ({r}d)", "swiglu": "SwiGLU, d_ff = {w}", "missing": " (no results yet)",
           "band": "shading: lowest to highest of {n} seeds"},
}


def run_label(name: str, runs, lang: str) -> str:
    r, t = runs[0], T[lang]
    if r.config.ffn_type == "gelu":
        return t["gelu"].format(w=integer(r.ffn_hidden), r=fixed(r.config.ffn_ratio, 0))
    return t["swiglu"].format(w=integer(r.ffn_hidden))


def finals(runs) -> list[float]:
    return [r.metrics.final_val_loss for r in runs if r.metrics.final_val_loss is not None]


def width_sweep(results: Results, lang: str) -> dict:
    t = T[lang]
    names = [n for n in (*SWEEP, BASELINE) if n in results.runs]
    data, lines = [], []
    for name in names:
        rs, color = results.runs[name], COLORS[name]
        ys = finals(rs)
        p = rs[0].parameters
        label = run_label(name, rs, lang)
        data.append({"type": "scatter", "mode": "markers", "x": [p] * len(ys), "y": ys, "legendgroup": name,
                     "showlegend": False, "marker": {"color": color, "opacity": 0.45, "size": 7},
                     "hovertext": [f"{label}, {t['seed'].format(s=r.config.seed)}: {fixed(y, 3)}" for r, y in zip(rs, ys)],
                     "hoverinfo": "text"})
        if ys:
            mean = sum(ys) / len(ys)
            data.append({"type": "scatter", "mode": "markers", "x": [p], "y": [mean], "name": label, "legendgroup": name,
                         "marker": {"color": color, "size": 12, "symbol": "diamond" if name == BASELINE else "circle"},
                         "error_y": {"type": "data", "symmetric": False, "array": [max(ys) - mean],
                                     "arrayminus": [mean - min(ys)], "color": color},
                         "hovertext": [f"{label}: {integer(p)} {t['params']}, {fixed(mean, 3)}"], "hoverinfo": "text"})
            if name in SWEEP:
                lines.append((p, mean))
    if len(lines) > 1:
        data.insert(0, {"type": "scatter", "mode": "lines", "x": [x for x, _ in lines], "y": [y for _, y in lines],
                        "showlegend": False, "hoverinfo": "skip", "line": {"color": COLORS["c1_gelu_ratio4"], "width": 1}})
    n_seeds = max((len(results.runs[n]) for n in names), default=0)
    title = ("FFN 宽度扫描:最终验证损失对参数总数" if lang == "zh"
             else "FFN width sweep: final validation loss against parameters")
    missing = [n for n in (*SWEEP, BASELINE) if n not in results.runs]
    sub = t["mean"].format(n=n_seeds) + (t["missing"] + " " + ", ".join(missing) if missing else "")
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", height=460,
                         xaxis={"title": {"text": t["params"]}}, yaxis={"title": {"text": t["loss"]}})
    parts = []
    for name in names:
        ys = finals(results.runs[name])
        if ys:
            parts.append(f"{run_label(name, results.runs[name], lang)}: {integer(results.runs[name][0].parameters)} "
                         f"{t['params']}, {fixed(min(ys), 3)}–{fixed(max(ys), 3)}")
    alt = (f"散点图:小模型在不同 FFN 宽度下的最终验证损失对参数总数,每个种子一个淡色点,实心点是 {n_seeds} 个种子的均值,"
           f"误差棒从最小到最大。{'；'.join(parts) if parts else '尚无结果'}。" if lang == "zh" else
           f"Scatter plot: the small model's final validation loss against its parameter count for several FFN "
           f"widths; one faint marker per seed, the solid marker is the mean of {n_seeds} seeds with a bar from the "
           f"lowest to the highest. {'; '.join(parts) if parts else 'No results yet'}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. GELU 4d against SwiGLU 8d/3

def gelu_vs_swiglu(results: Results, lang: str) -> dict:
    t = T[lang]
    names = [n for n in EQUAL_PAIR if n in results.runs]
    data, parts = [], []
    for name in names:
        rs, color = results.runs[name], COLORS[name]
        x, mean, lo, hi = seed_curves(rs, lambda r: r.val.step, lambda r: r.val.loss)
        label = f"{run_label(name, rs, lang)}, {integer(rs[0].parameters)} {t['params']}"
        data += band(x, lo, hi, color, name)
        data.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": mean, "name": label, "legendgroup": name,
                     "line": {"color": color, "width": 1.5, "dash": "solid" if name == BASELINE else "dash"}})
        ys = finals(rs)
        if ys:
            parts.append(f"{label}: {fixed(min(ys), 3)}–{fixed(max(ys), 3)}")
    n_seeds = max((len(results.runs[n]) for n in names), default=0)
    title = ("参数相同时:GELU(4d)对 SwiGLU(8d/3)" if lang == "zh"
             else "At equal parameters: GELU (4d) against SwiGLU (8d/3)")
    missing = [n for n in EQUAL_PAIR if n not in results.runs]
    sub = t["band"].format(n=n_seeds) + (t["missing"] + " " + ", ".join(missing) if missing else "")
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", height=460,
                         xaxis={"title": {"text": t["step"]}}, yaxis={"title": {"text": t["val"]}})
    alt = (f"折线图:两种 FFN 的验证损失随训练步数的变化,阴影是 {n_seeds} 个种子的最小到最大。最终验证损失的范围:"
           f"{'；'.join(parts) if parts else '尚无结果'}。" if lang == "zh" else
           f"Line chart: validation loss against step for the two FFNs, shaded from the lowest to the highest of "
           f"{n_seeds} seeds. Final validation loss ranges: {'; '.join(parts) if parts else 'no results yet'}.")
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("ffn-ledger", ledger), Figure("ffn-width-sweep", width_sweep),
           Figure("ffn-gelu-swiglu", gelu_vs_swiglu))
