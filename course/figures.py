"""The measured section's Plotly figures, written as figures/NAME.json from the committed results.

Each file holds one {data, layout, alt} per language; docs/assets/js/figures.js draws it with the site's
one local plotly.js and applies the light or dark palette's text and grid colors at draw time. Trace colors
are mid-tone, readable on both backgrounds.
"""
from __future__ import annotations

import json
from pathlib import Path

from course.files import write_atomic
from course.measured import BASELINE, OP_LABELS, load_benches, load_runs
from course.registry import LANGS, fixed, scientific, significant
from course.schema import BenchResult, RunResult

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("ablation-curves", "stream-rms", "block-grads", "norm-bench")

COLORS = {  # one color per run, the same in every figure
    "c4_baseline": "#3b6fd4", "c4_postln": "#d9534f", "c4_layernorm": "#2ca58d",
    "c4_postln_nowarmup_lr1e-2": "#e08e0b", "c4_preln_nowarmup_lr1e-2": "#8e5cc7",
    "c8_postln_lr1e-3_nowarmup": "#a0522d", "c8_postln_lr1e-3_warmup100": "#e377c2",
}
FLOOR_COLOR = "#888888"
DEVICE_COLORS = ["#3b6fd4", "#e08e0b", "#2ca58d", "#d9534f"]

T = {
    "zh": {"val": "验证损失", "train": "训练损失", "grad": "梯度范数(裁剪前)", "step": "训练步数",
           "loss": "交叉熵(nats/字)", "floor": "一元频率下限", "diverged": "发散", "init": "初始化时",
           "end": "训练结束", "layer": "层(0 = 嵌入之后)", "rms": "残差流 RMS", "block": "块",
           "grad_norm": "块内参数的梯度范数", "ratio": "底 / 顶", "median": "中位数(毫秒,误差棒为四分位距)",
           "fraction": "占纯拷贝带宽的比例", "copy": "纯拷贝"},
    "en": {"val": "Validation loss", "train": "Train loss", "grad": "Grad norm (before clipping)", "step": "step",
           "loss": "cross-entropy (nats/char)", "floor": "unigram floor", "diverged": "diverged", "init": "at init",
           "end": "at the end", "layer": "layer (0 = after the embeddings)", "rms": "residual-stream RMS",
           "block": "block", "grad_norm": "gradient norm of the block's parameters", "ratio": "bottom / top",
           "median": "median (ms; error bars: interquartile range)", "fraction": "fraction of copy bandwidth",
           "copy": "plain copy"},
}

RUN_LABELS = {
    "c4_baseline": {"zh": "基线:Pre-Norm,零中心 RMSNorm", "en": "baseline: Pre-Norm, zero-centered RMSNorm"},
    "c4_postln": {"zh": "Post-LN", "en": "Post-LN"},
    "c4_layernorm": {"zh": "Pre-Norm,LayerNorm", "en": "Pre-Norm, LayerNorm"},
    "c4_postln_nowarmup_lr1e-2": {"zh": "Post-LN,无预热", "en": "Post-LN, no warmup"},
    "c4_preln_nowarmup_lr1e-2": {"zh": "Pre-Norm,无预热", "en": "Pre-Norm, no warmup"},
    "c8_postln_lr1e-3_nowarmup": {"zh": "Post-LN,无预热", "en": "Post-LN, no warmup"},
    "c8_postln_lr1e-3_warmup100": {"zh": "Post-LN", "en": "Post-LN"},
}


def run_label(name: str, r: RunResult, lang: str) -> str:
    base = RUN_LABELS.get(name, {}).get(lang, name)
    extra = f"lr {scientific(r.config.lr)}"
    if r.config.warmup_steps and name != BASELINE:
        extra += f", warmup {r.config.warmup_steps}" if lang == "en" else f",预热 {r.config.warmup_steps}"
    label = f"{base} ({extra})" if lang == "en" else f"{base}({extra})"
    if r.metrics.diverged:
        label += f" — {T[lang]['diverged']} @ {r.metrics.diverged_step}"
    return label


def base_layout(title: str, **kw) -> dict:
    layout = {"title": {"text": title, "font": {"size": 15}}, "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
              "hovermode": "closest", "legend": {"orientation": "h", "y": -0.2}, "height": 460}
    layout.update(kw)
    return layout


# ---------------------------------------------------------------- 1. the ablation curves

METRICS = ("val", "train", "grad")


def ablation_curves(runs: dict[str, RunResult], lang: str) -> dict:
    t = T[lang]
    data, which = [], []
    for metric in METRICS:
        for name, r in runs.items():
            if metric == "val":
                x, y, mode = r.val.step, r.val.loss, "lines+markers"
            elif metric == "train":
                x, y, mode = r.curves.step, r.curves.train_loss, "lines"
            else:
                x, y, mode = r.curves.step, r.curves.grad_norm, "lines"
            data.append({"type": "scatter", "mode": mode, "x": x, "y": y, "name": run_label(name, r, lang),
                         "legendgroup": name, "line": {"color": COLORS.get(name), "width": 1.5},
                         "visible": metric == "val"})
            which.append(metric)
    floor = next(iter(runs.values())).corpus.unigram_floor
    steps = max(r.config.max_steps for r in runs.values())
    data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [floor, floor],
                 "name": f"{t['floor']} {fixed(floor, 3)}", "line": {"color": FLOOR_COLOR, "dash": "dash"},
                 "hoverinfo": "name"})
    which.append("floor")

    def visible(metric):
        return [w == metric or (w == "floor" and metric != "grad") for w in which]

    buttons = [{"label": t[m], "method": "update",
                "args": [{"visible": visible(m)},
                         {"yaxis.title.text": t["loss"] if m != "grad" else t["grad"],
                          "yaxis.type": "linear" if m != "grad" else "log"}]} for m in METRICS]
    layout = base_layout(
        "消融实验:每次只改一处(点图例可隐藏某次运行)" if lang == "zh"
        else "Ablations, one change each (click a legend entry to hide a run)",
        xaxis={"title": {"text": t["step"]}}, yaxis={"title": {"text": t["loss"]}, "type": "linear"},
        # fixed dark text on light buttons: readable in both palettes (figures.js themes only axes and text)
        updatemenus=[{"type": "buttons", "direction": "right", "x": 0, "y": 1.02, "xanchor": "left",
                      "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 0,
                      "bgcolor": "#e8ebf2", "bordercolor": "#8a90a6", "font": {"color": "#1f2330"}}],
        margin={"l": 60, "r": 20, "t": 110, "b": 50}, height=580)
    layout["title"].update({"y": 0.97, "yanchor": "top"})
    base = runs[BASELINE] if BASELINE in runs else next(iter(runs.values()))
    alt = (f"折线图:{len(runs)} 次训练运行的验证损失随训练步数的变化,可切换为训练损失或梯度范数;"
           f"虚线是一元频率下限 {fixed(floor, 3)}。基线最终验证损失 {fixed(base.metrics.final_val_loss or 0, 4)}。"
           if lang == "zh" else
           f"Line chart: validation loss against step for {len(runs)} training runs, switchable to train loss "
           f"or gradient norm; the dashed line is the unigram floor, {fixed(floor, 3)}. The baseline ends at "
           f"{fixed(base.metrics.final_val_loss or 0, 4)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. residual-stream RMS per layer

PAIR = (BASELINE, "c4_postln")


def stream_rms(runs: dict[str, RunResult], lang: str) -> dict:
    t = T[lang]
    data = []
    for name in PAIR:
        r = runs[name]
        for when in ("init", "end"):
            probe = getattr(r, when)
            data.append({"type": "scatter", "mode": "lines+markers", "x": list(range(len(probe.stream_rms))),
                         "y": probe.stream_rms, "name": f"{RUN_LABELS[name][lang]}, {t[when]}",
                         "line": {"color": COLORS[name], "dash": "dot" if when == "init" else "solid"}})
    pre, post = runs[PAIR[0]].end.stream_rms, runs[PAIR[1]].end.stream_rms
    title = ("残差流每层的 RMS:Pre-Norm 的残差流越加越大,Post-LN 每层都被归一化" if lang == "zh"
             else "Residual-stream RMS per layer: Pre-Norm's stream grows, Post-LN renormalizes it every layer")
    layout = base_layout(title, xaxis={"title": {"text": t["layer"]}, "dtick": 1},
                         yaxis={"title": {"text": t["rms"]}, "type": "log", "exponentformat": "power"})
    alt = (f"折线图:每层之后残差流的 RMS(对数纵轴)。训练结束时 Pre-Norm 从第 1 层的 {significant(pre[1], 3)} "
           f"增长到顶层的 {significant(pre[-1], 3)};Post-LN 各层约为 {significant(post[-1], 3)}。"
           if lang == "zh" else
           f"Line chart: the residual stream's RMS after each layer (log scale). At the end, Pre-Norm's grows from "
           f"{significant(pre[1], 3)} after layer 1 to {significant(pre[-1], 3)} at the top; Post-LN's stays near "
           f"{significant(post[-1], 3)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. per-block gradient norms

def block_grads(runs: dict[str, RunResult], lang: str) -> dict:
    t = T[lang]
    data, ratios = [], []
    for name in PAIR:
        r = runs[name]
        for when in ("init", "end"):
            g = getattr(r, when).block_grad_norm
            data.append({"type": "bar", "x": [f"{t['block']} {i + 1}" for i in range(len(g))], "y": g,
                         "name": f"{RUN_LABELS[name][lang]}, {t[when]}",
                         "marker": {"color": COLORS[name], "opacity": 0.45 if when == "init" else 1.0}})
        end = r.end.block_grad_norm
        ratios.append(f"{RUN_LABELS[name][lang]} {fixed(end[0] / end[-1], 2)}")
    sep = ";" if lang == "zh" else "; "
    title = (f"每个块的梯度范数({t['ratio']},训练结束:{sep.join(ratios)})" if lang == "zh"
             else f"Gradient norm per block ({t['ratio']} at the end: {sep.join(ratios)})")
    layout = base_layout(title, barmode="group",
                         yaxis={"title": {"text": t["grad_norm"]}, "type": "log", "exponentformat": "power"},
                         xaxis={"title": {"text": t["block"]}})
    pre0, post0 = runs[PAIR[0]].init.block_grad_norm, runs[PAIR[1]].init.block_grad_norm
    alt = (f"柱状图:每个块参数的梯度范数(对数纵轴),Pre-Norm 与 Post-LN,初始化时与训练结束时。"
           f"初始化时第 1 块:Pre-Norm {significant(pre0[0], 3)},Post-LN {significant(post0[0], 3)}。"
           f"训练结束时{t['ratio']}:{sep.join(ratios)}。"
           if lang == "zh" else
           f"Bar chart: gradient norm of each block's parameters (log scale), Pre-Norm and Post-LN, at init and "
           f"at the end. Block 1 at init: Pre-Norm {significant(pre0[0], 3)}, Post-LN {significant(post0[0], 3)}. "
           f"Bottom/top at the end: {sep.join(ratios)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 4. the norm micro-benchmark

def norm_bench(benches: dict[str, BenchResult], lang: str) -> dict:
    t = T[lang]
    data = []
    for i, (device, b) in enumerate(benches.items()):
        ops = list(b.ops)
        labels = [OP_LABELS.get(op, {}).get(lang, op) for op in ops]
        med = [b.ops[op].median_ms for op in ops]
        color = DEVICE_COLORS[i % len(DEVICE_COLORS)]
        name = f"{b.device_name} ({b.provenance.date})"
        hover = [f"{lab}<br>median {fixed(o.median_ms, 3)} ms, IQR {fixed(o.q1_ms, 3)}–{fixed(o.q3_ms, 3)}, "
                 f"min {fixed(o.min_ms, 3)}, max {fixed(o.max_ms, 3)}<br>{fixed(o.gbps, 1)} GB/s"
                 for lab, o in zip(labels, (b.ops[op] for op in ops))]
        data.append({"type": "bar", "orientation": "h", "y": labels, "x": med, "name": name, "legendgroup": device,
                     "marker": {"color": color},
                     "error_x": {"type": "data", "symmetric": False,
                                 "array": [b.ops[op].q3_ms - b.ops[op].median_ms for op in ops],
                                 "arrayminus": [b.ops[op].median_ms - b.ops[op].q1_ms for op in ops]},
                     "hovertext": hover, "hoverinfo": "text", "xaxis": "x", "yaxis": "y"})
        data.append({"type": "bar", "orientation": "h", "y": labels,
                     "x": [b.ops[op].fraction_of_copy_gbps for op in ops], "name": name, "legendgroup": device,
                     "showlegend": False, "marker": {"color": color}, "xaxis": "x2", "yaxis": "y2",
                     "hovertext": [f"{lab}: {fixed(100 * b.ops[op].fraction_of_copy_gbps, 1)}% "
                                   f"({t['copy']} {fixed(b.plain_copy.gbps, 1)} GB/s)" for lab, op in zip(labels, ops)],
                     "hoverinfo": "text"})
    first = next(iter(benches.values()))
    shape = " × ".join(str(n) for n in first.shape)
    title = (f"归一化算子前向 + 反向,float32 {shape},{first.reps} 次的中位数" if lang == "zh"
             else f"Normalization ops, forward + backward, float32 {shape}, median of {first.reps}")
    layout = base_layout(
        title, barmode="group", height=520, margin={"l": 250, "r": 20, "t": 60, "b": 60},
        xaxis={"domain": [0, 0.55], "title": {"text": t["median"]}, "type": "log"},
        xaxis2={"domain": [0.62, 1], "title": {"text": t["fraction"]}, "tickformat": ".0%", "anchor": "y2"},
        yaxis={"autorange": "reversed", "automargin": True},
        yaxis2={"autorange": "reversed", "showticklabels": False, "anchor": "x2", "matches": "y"})
    parts = []
    for b in benches.values():
        ln, rn = b.ops["layernorm"].median_ms, b.ops["rmsnorm"].median_ms
        parts.append(f"{b.device_name}: LayerNorm {fixed(ln, 3)} ms, RMSNorm {fixed(rn, 3)} ms, "
                     f"{t['copy']} {fixed(b.plain_copy.gbps, 1)} GB/s")
    alt = ("横向柱状图:每个归一化算子的中位耗时(误差棒为四分位距)及其占纯拷贝带宽的比例。" if lang == "zh"
           else "Horizontal bar chart: median time of each normalization op (error bars: interquartile range) and "
                "its fraction of plain-copy bandwidth. ") + "; ".join(parts)
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- writing

BUILDERS = {"ablation-curves": ("runs", ablation_curves), "stream-rms": ("runs", stream_rms),
            "block-grads": ("runs", block_grads), "norm-bench": ("benches", norm_bench)}


def build_figures(root: Path = ROOT) -> dict[str, dict]:
    sources = {"runs": load_runs(root), "benches": load_benches(root)}
    return {name: {lang: fn(sources[src], lang) for lang in LANGS} for name, (src, fn) in BUILDERS.items()}


def write_figures(root: Path = ROOT, out: Path | None = None) -> list[Path]:
    out = out or root / "figures"
    paths = []
    for name, fig in build_figures(root).items():
        path = out / f"{name}.json"
        write_atomic(path, json.dumps(fig, ensure_ascii=False, separators=(",", ":")) + "\n")
        paths.append(path)
    return paths
