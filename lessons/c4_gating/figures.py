"""The gating lesson's figures, from the committed results of every seed: the attention each layer puts on
the first token (baseline against the gated run, with the uniform-attention reference), and the largest FFN
activation over training (baseline against the clamped run, with the clamp's bound). Both show the spread
over seeds: error bars or a shaded band from the lowest to the highest seed around the mean."""
from __future__ import annotations

from course.common.measured import BASELINE, Results
from course.core.figures import REFERENCE_COLOR, band, base_layout
from course.core.formats import fixed, percent, significant
from course.core.units import Figure
from lessons.c4_gating import formulas as f
from lessons.c4_gating.numbers import CLAMP_RUN, GATE_RUN, SURFACE_DIGITS

COLORS = {BASELINE: "#3b6fd4", GATE_RUN: "#d9534f", CLAMP_RUN: "#2ca58d"}
RUN_LABELS = {
    BASELINE: {"zh": "基线（不加门，不截断）", "en": "baseline (no gate, no clamp)"},
    GATE_RUN: {"zh": "注意力输出加 sigmoid 门", "en": "sigmoid gate on the attention output"},
    CLAMP_RUN: {"zh": "SwiGLU 截断在 {limit}", "en": "SwiGLU clamped at {limit}"},
}
T = {
    "zh": {"layer": "层", "fta": "查询 t ≥ 1 给第一个 token 的平均权重", "uniform": "均匀注意力的参照 {x}",
           "step": "训练步数", "act": "FFN 隐藏激活的最大绝对值", "bound": "截断后乘积的上限 SiLU({l})·{l} = {b}",
           "init": "初始化时", "end": "训练结束", "bars": "误差棒：{n} 个种子的最小到最大",
           "band": "阴影：{n} 个种子的最小到最大",
           "missing": "（结果尚未生成）"},
    "en": {"layer": "layer", "fta": "mean weight queries t ≥ 1 put on the first token", "uniform": "uniform attention {x}",
           "step": "step", "act": "largest |FFN hidden activation|", "bound": "clamped product's bound SiLU({l})·{l} = {b}",
           "init": "at init", "end": "at the end", "bars": "error bars: min to max over {n} seeds",
           "band": "shading: min to max over {n} seeds",
           "missing": "(no results yet)"},
}


def run_label(run: str, results: Results, lang: str) -> str:
    limit = results.runs[run][0].config.swiglu_limit if run in results.runs else None
    return RUN_LABELS[run][lang].format(limit=fixed(limit, 0) if limit else "")


def over_seeds(series: list[list[float]]) -> tuple[list[float], list[float], list[float]]:
    """Mean, min and max at each position of equally long per-seed series."""
    cols = list(zip(*series))
    return [sum(c) / len(c) for c in cols], [min(c) for c in cols], [max(c) for c in cols]


# ---------------------------------------------------------------- 1. first-token attention per layer


def first_token_attention(results: Results, lang: str) -> dict:
    t = T[lang]
    runs = [r for r in (BASELINE, GATE_RUN) if r in results.runs]
    data, means = [], {}
    block = next((results.runs[r][0].config.block_size for r in runs), None)
    for run in runs:
        rs = results.runs[run]
        layers = list(range(1, len(rs[0].end.first_token_attention) + 1))
        for when in ("init", "end"):
            mean, lo, hi = over_seeds([getattr(r, when).first_token_attention for r in rs])
            means[(run, when)] = (mean, lo, hi)
            data.append({"type": "scatter", "mode": "lines+markers", "x": layers, "y": mean,
                         "name": f"{run_label(run, results, lang)}, {t[when]}", "legendgroup": f"{run}-{when}",
                         "line": {"color": COLORS[run], "dash": "dot" if when == "init" else "solid",
                                  "width": 1 if when == "init" else 2},
                         "opacity": 0.5 if when == "init" else 1.0,
                         "error_y": {"type": "data", "symmetric": False,
                                     "array": [h - m for h, m in zip(hi, mean)],
                                     "arrayminus": [m - l for m, l in zip(mean, lo)]}})
    if block:
        ref = f.uniform_first_token_share(block)
        n_layers = len(results.runs[runs[0]][0].end.first_token_attention)
        data.append({"type": "scatter", "mode": "lines", "x": [0.8, n_layers + 0.2], "y": [ref, ref],
                     "name": t["uniform"].format(x=percent(ref, 2)), "hoverinfo": "name",
                     "line": {"color": REFERENCE_COLOR, "dash": "dash"}})
    n_seeds = len(results.runs[runs[0]]) if runs else 0
    title = ("每层给第一个 token 的注意力：基线与加门" if lang == "zh"
             else "Attention on the first token per layer: baseline and gated")
    sub = t["bars"].format(n=n_seeds) if runs else t["missing"]
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", xaxis={"title": {"text": t["layer"]}, "dtick": 1},
                         yaxis={"title": {"text": t["fta"]}, "tickformat": ".1%", "rangemode": "tozero"},
                         margin={"l": 70, "r": 20, "t": 80, "b": 50})
    parts = []
    for run in runs:
        spans = []
        for when in ("init", "end"):
            mean, lo, hi = means[(run, when)]
            if lang == "zh":
                layers = "、".join(f"第 {i + 1} 层 {percent(m, 1)}（{percent(a, 1)}–{percent(b, 1)}）"
                                  for i, (m, a, b) in enumerate(zip(mean, lo, hi)))
                spans.append(f"{'初始化时' if when == 'init' else '训练结束时'}，{layers}")
            else:
                layers = ", ".join(f"layer {i + 1} {percent(m, 1)} ({percent(a, 1)}–{percent(b, 1)})"
                                   for i, (m, a, b) in enumerate(zip(mean, lo, hi)))
                spans.append(f"{t[when]}, {layers}")
        label = run_label(run, results, lang)
        if lang == "zh":
            parts.append(f"{label}：" + "；".join(spans) + "。")
        else:
            parts.append(f"{label[0].upper()}{label[1:]}: " + "; ".join(spans) + ".")
    ref_text = f"{' ' + percent(f.uniform_first_token_share(block), 2) if block else ''}"
    if lang == "zh":
        alt = (f"折线图：每层的查询（t ≥ 1）给第一个 token 的平均注意力权重，初始化时（虚点线）和训练结束时（实线），"
               f"{n_seeds} 个种子的均值，误差棒为种子间最小到最大；虚线是均匀注意力时的参照值{ref_text}。"
               + ("".join(parts) if parts else "结果尚未生成。"))
    else:
        alt = (f"Line chart: the mean attention weight that queries t ≥ 1 put on the first token, per layer, at "
               f"initialization (dotted) and at the end of training (solid), mean of {n_seeds} seeds with error bars "
               f"from the lowest to the highest seed; the dashed line is the uniform-attention reference{ref_text}. "
               + (" ".join(parts) if parts else "No results yet."))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the largest FFN activation over training


def ffn_activation(results: Results, lang: str) -> dict:
    t = T[lang]
    runs = [r for r in (BASELINE, CLAMP_RUN) if r in results.runs]
    data, peaks = [], {}
    for run in runs:
        rs = results.runs[run]
        x = rs[0].curves.step
        mean, lo, hi = over_seeds([r.curves.ffn_act_max for r in rs])
        mean, lo, hi = ([round(y, 3) for y in ys] for ys in (mean, lo, hi))   # a lighter figure file
        data += band(x, lo, hi, COLORS[run], run)
        data.append({"type": "scatter", "mode": "lines", "x": x, "y": mean, "name": run_label(run, results, lang),
                     "legendgroup": run, "line": {"color": COLORS[run], "width": 1.5}})
        peaks[run] = [max(r.curves.ffn_act_max) for r in rs]
    limit = results.runs[CLAMP_RUN][0].config.swiglu_limit if CLAMP_RUN in results.runs else None
    if limit and runs:
        bound = f.swiglu_clamped_max(limit)
        steps = results.runs[runs[0]][0].config.max_steps
        data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [bound, bound], "hoverinfo": "name",
                     "name": t["bound"].format(l=fixed(limit, 0), b=fixed(bound, SURFACE_DIGITS)),
                     "line": {"color": REFERENCE_COLOR, "dash": "dash"}})
    n_seeds = len(results.runs[runs[0]]) if runs else 0
    title = ("FFN 里最大的隐藏激活：基线与截断" if lang == "zh"
             else "The largest FFN hidden activation: baseline and clamped")
    sub = t["band"].format(n=n_seeds) if runs else t["missing"]
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", xaxis={"title": {"text": t["step"]}},
                         yaxis={"title": {"text": t["act"]}, "rangemode": "tozero"},
                         margin={"l": 70, "r": 20, "t": 80, "b": 50})
    sep = "：" if lang == "zh" else " "   # a label that ends in a full-width parenthesis takes no space
    parts = [f"{run_label(run, results, lang)}{sep}{significant(min(p), 3)}–{significant(max(p), 3)}"
             for run, p in peaks.items()]
    if lang == "zh":
        alt = (f"折线图：每个训练步里所有层 FFN 隐藏激活（down_proj 的输入）的最大绝对值，{n_seeds} 个种子的均值，阴影为种子间"
               f"最小到最大；虚线是截断后乘积能达到的上限。整个训练中的峰值（各种子的范围）：" + ("；".join(parts) or "结果尚未生成") + "。")
    else:
        alt = (f"Line chart: at each training step, the largest absolute FFN hidden activation (the input of down_proj) "
               f"over all layers, mean of {n_seeds} seeds, shaded from the lowest to the highest seed; the dashed line "
               f"is the most the clamped product can reach. Peak over training (range over seeds): "
               + ("; ".join(parts) or "no results yet") + ".")
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("first-token-attention", first_token_attention), Figure("ffn-activation", ffn_activation))
