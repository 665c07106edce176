"""The warmup lesson's figures, from the committed results of every seed: the gradient at initialization
against depth (the depth probes), the validation loss of the warmup sweep and of the 12-layer runs, the
size of each of the first updates, how the bottom block's gradient compares with the top block's over
those updates, and every block's gradient over them. Runs whose seeds behave differently (some stall, some train) are drawn seed by seed,
never as a mean: a mean of a stalled and a trained seed is a curve no run followed."""
from __future__ import annotations

import math

from course.common.measured import Results
from course.core.figures import BUTTON_STYLE, REFERENCE_COLOR, base_layout
from course.core.formats import fixed
from course.core.units import Figure
from lessons.c8_postln_warmup import formulas as f
from lessons.c8_postln_warmup.numbers import DEEP, DEPTHS, PLACEMENTS, SWEEP, init_run

COLORS = {
    "c8_postln_lr1e-3_nowarmup": "#d9534f", "c8_postln_lr1e-3_warmup25": "#c27400",
    "c8_postln_lr1e-3_warmup100": "#8e5cc7", "c8_postln_lr1e-3_warmup200": "#2ca58d",
    "c8_preln_lr1e-3_nowarmup": "#3b6fd4",
    "c8_postln_L12_lr1e-3_nowarmup": "#d9534f", "c8_postln_L12_lr1e-3_warmup100": "#8e5cc7",
    "c8_preln_L12_lr1e-3_nowarmup": "#3b6fd4", "c8_preln_L12_lr1e-3_warmup100": "#2ca58d",
    "postln": "#d9534f", "postln_unscaled": "#e08e0b", "preln": "#3b6fd4", "preln_unscaled": "#2ca58d",
}
DASH = ("solid", "dash", "dot")   # one per seed

T = {
    "zh": {"step": "训练步数", "update": "第几次更新", "loss": "验证损失（nats/字）", "unigram": "一元（字频）模型的损失",
           "depth": "层数", "w2": "最后一个块 FFN 输出矩阵的梯度范数", "raw": "直接测得", "matched": "乘以输出层所读残差流的 RMS",
           "update_norm": "这次更新的大小 ‖Δθ‖", "ratio": "最底层块 ÷ 最顶层块的梯度范数", "seed": "种子",
           "predicted": "学习率 × √参数个数", "block": "块（1 为最底层）", "grad": "梯度范数",
           "block_hover": "第 %{x} 次更新之前，第 %{y} 块：%{customdata:.2e}", "four": "4 层", "twelve": "12 层", "none": "（结果尚未提交）"},
    "en": {"step": "step", "update": "update", "loss": "validation loss (nats/char)", "unigram": "unigram loss",
           "depth": "layers", "w2": "gradient norm of the last block's FFN output matrix", "raw": "as measured",
           "matched": "times the RMS of the stream the output layer reads", "update_norm": "size of the update ‖Δθ‖",
           "ratio": "bottom block's gradient norm ÷ top block's", "seed": "seed",
           "predicted": "lr × √(parameters)", "block": "block (1 = bottom)", "grad": "gradient norm",
           "block_hover": "before update %{x}, block %{y}: %{customdata:.2e}", "four": "4 layers", "twelve": "12 layers",
           "none": " (results not committed yet)"},
}

def run_label(results: Results, run: str, lang: str, depth: bool = False) -> str:
    """A run's name on a chart, from its config: placement, depth (always when `depth`, else when it is not
    the base's), warmup."""
    cfg = results.runs[run][0].config
    parts = ["Post-LN" if cfg.norm_placement == "post" else "Pre-Norm"]
    if depth or cfg.n_layer != 4:
        parts.append(f"{cfg.n_layer} 层" if lang == "zh" else f"{cfg.n_layer} layers")
    parts.append(warmup_label(cfg, lang))
    return ("，" if lang == "zh" else ", ").join(parts)


def warmup_label(cfg, lang: str) -> str:
    if cfg.warmup_steps:
        return f"预热 {cfg.warmup_steps} 步" if lang == "zh" else f"{cfg.warmup_steps} warmup steps"
    return "不预热" if lang == "zh" else "no warmup"


PLACEMENT_LABELS = {
    "postln": {"zh": "Post-LN", "en": "Post-LN"},
    "postln_unscaled": {"zh": "Post-LN，写回不缩放", "en": "Post-LN, write-backs unscaled"},
    "preln": {"zh": "Pre-Norm", "en": "Pre-Norm"},
    "preln_unscaled": {"zh": "Pre-Norm，写回不缩放", "en": "Pre-Norm, write-backs unscaled"},
}


def _menu(buttons: list[dict], dropdown: bool = False) -> list[dict]:
    """The chart's one menu, above the plot at the left: a row of buttons, or a drop-down list for many views."""
    if not buttons:
        return []
    return [{"type": "dropdown" if dropdown else "buttons", "direction": "down" if dropdown else "right", "x": 0,
             "y": 1.02, "xanchor": "left", "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 0,
             **BUTTON_STYLE}]


def _sep(lang: str) -> str:
    return "；" if lang == "zh" else "; "


def _present(results: Results, runs) -> list[str]:
    return [r for r in runs if r in results.runs]


def _unigram(results: Results):
    for rs in results.runs.values():
        return rs[0].corpus.unigram_floor
    return None


def _per_seed_lines(results: Results, runs, lang: str, x_of, y_of, mode="lines", width=1.4) -> list[dict]:
    data = []
    for run in runs:
        for i, r in enumerate(results.runs[run]):
            data.append({"type": "scatter", "mode": mode, "x": x_of(r), "y": y_of(r),
                         "name": f"{run_label(results, run, lang)} · {T[lang]['seed']} {r.config.seed}",
                         "legendgroup": run, "line": {"color": COLORS[run], "dash": DASH[i % len(DASH)], "width": width}})
    return data


# ---------------------------------------------------------------- 1. the gradient at init against depth

def depth_probe(results: Results, lang: str) -> dict:
    t = T[lang]
    data, which = [], []
    for view in ("raw", "matched"):
        for p in PLACEMENTS:
            xs, ys, seeds = [], [], []
            for L in DEPTHS:
                run = init_run(p, L)
                for r in results.runs.get(run, []):
                    w2 = r.init.ffn_out_grad_norm[-1]
                    xs.append(L)
                    ys.append(w2 if view == "raw" else w2 * r.init.stream_rms[-1])
                    seeds.append(r.config.seed)
            data.append({"type": "scatter", "mode": "markers", "x": xs, "y": ys, "name": PLACEMENT_LABELS[p][lang],
                         "text": [f"{t['seed']} {s}" for s in seeds], "legendgroup": p, "visible": view == "raw",
                         "marker": {"color": COLORS[p], "size": 8, "symbol": "circle" if "pre" in p else "square"}})
            which.append(view)
    buttons = [{"label": t[v], "method": "update", "args": [{"visible": [w == v for w in which]}]} for v in ("raw", "matched")]
    have = any(init_run(p, L) in results.runs for p in PLACEMENTS for L in DEPTHS)
    title = ("初始化时，最后一个块 FFN 输出矩阵的梯度随层数的变化" if lang == "zh"
             else "At initialization: the gradient of the last block's FFN output matrix against depth")
    layout = base_layout(title + ("" if have else t["none"]),
                         xaxis={"title": {"text": t["depth"]}, "type": "log", "tickvals": list(DEPTHS)},
                         yaxis={"title": {"text": t["w2"]}, "type": "log", "exponentformat": "power", "dtick": 1},
                         updatemenus=_menu(buttons),
                         margin={"l": 70, "r": 20, "t": 100, "b": 50})
    depths = "、".join(map(str, DEPTHS)) if lang == "zh" else ", ".join(map(str, DEPTHS))
    alt = (f"散点图：{depths} 层的模型在初始化时（不训练），最后一个块 FFN 输出矩阵的梯度范数（对数纵轴，每个种子一个点），"
           "四种设置：Post-LN 与 Pre-Norm，写回矩阵按 1/√(2L) 缩放或不缩放。按钮切换到每个值乘以输出层所读残差流的 RMS"
           "（Pre-Norm 是最终归一化层的输入；Post-LN 是最后一个归一化层的输出，按构造为 1），这样就去掉了最终归一化层按输入尺度放大梯度的那一份。"
           if lang == "zh" else
           f"Scatter plot: at initialization (no training), the gradient norm of the last block's FFN output matrix "
           f"in models of {depths} layers (log scale, one point per seed), for four settings: Post-LN and Pre-Norm, "
           "with the write-back matrices scaled by 1/√(2L) or not. A button switches to each value times the RMS of "
           "the stream the output layer reads (for Pre-Norm the input of its final norm; for Post-LN the output of its last "
           "norm, 1 by construction), which takes out the factor by which the final norm scales the gradient up.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. and 6. validation loss, seed by seed

def _loss_figure(results: Results, lang: str, runs, title: str, alt_runs: str) -> dict:
    t = T[lang]
    present = _present(results, runs)
    data = _per_seed_lines(results, present, lang, lambda r: r.val.step, lambda r: r.val.loss, mode="lines+markers")
    unigram = _unigram(results)
    steps = max((results.runs[r][0].config.max_steps for r in present), default=0)
    if unigram is not None:
        data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [unigram, unigram],
                     "name": f"{t['unigram']} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash"},
                     "hoverinfo": "name"})
    layout = base_layout(title + ("" if present else t["none"]), xaxis={"title": {"text": t["step"]}},
                         yaxis={"title": {"text": t["loss"]}}, height=520, legend={"orientation": "h", "y": -0.25})
    n = len(results.runs[present[0]]) if present else 0
    gap = " " if alt_runs[-1:].isascii() and alt_runs[-1:].isalnum() else ""
    alt = (f"折线图：{alt_runs}{gap}的验证损失随训练步数的变化，每个种子单独一条线（共 {n} 个种子，线型区分种子），"
           "虚线是只知道字频的一元模型的损失；停在虚线附近的线就是没学到上下文的种子。"
           if lang == "zh" else
           f"Line chart: validation loss against training step for {alt_runs}, one line per seed ({n} seeds, told "
           "apart by the dash), with the loss of a unigram model, which knows only character frequencies, as a dashed "
           "line; a seed whose line stays near it has learned nothing about context.")
    return {"data": data, "layout": layout, "alt": alt}


def warmup_sweep(results: Results, lang: str) -> dict:
    title = ("4 层，同一学习率：Post-LN 的几种预热长度与不预热的 Pre-Norm，逐个种子" if lang == "zh"
             else "4 layers, one learning rate: Post-LN with several warmup lengths, and Pre-Norm without warmup, seed by seed")
    runs = ("4 层、同一学习率下的 Post-LN（不预热和几种预热长度）与不预热的 Pre-Norm" if lang == "zh"
            else "4-layer Post-LN (without warmup and with several warmup lengths) and Pre-Norm without warmup, all at "
                 "one learning rate")
    return _loss_figure(results, lang, SWEEP, title, runs)


def deep_runs(results: Results, lang: str) -> dict:
    title = ("12 层：两种放法，各自预热与不预热，逐个种子" if lang == "zh"
             else "12 layers: both placements, with and without warmup, seed by seed")
    runs = ("12 层的 Post-LN 与 Pre-Norm，各自不预热与预热" if lang == "zh"
            else "12-layer Post-LN and Pre-Norm, each without and with warmup")
    return _loss_figure(results, lang, DEEP, title, runs)


# ---------------------------------------------------------------- 3. the size of the first updates

UPDATE_RUNS = ("c8_postln_lr1e-3_nowarmup", "c8_postln_lr1e-3_warmup100", "c8_preln_lr1e-3_nowarmup")


def update_size(results: Results, lang: str) -> dict:
    t = T[lang]
    present = [r for r in _present(results, UPDATE_RUNS) if all(x.trace for x in results.runs[r])]
    data = _per_seed_lines(results, present, lang, lambda r: r.trace.step, lambda r: r.trace.update_norm)
    # the reference: one thick grey line per learning-rate schedule (runs that share a schedule have the same
    # line to within their parameter counts' difference, 1e-4: drawn once, it hides no run's line under another's)
    schedules: dict[tuple, object] = {}
    for run in present:
        r = results.runs[run][0]
        schedules.setdefault(tuple(r.curves.lr[s - 1] for s in r.trace.step), r)
    reference = []   # drawn first, so no seed's line is hidden under them
    for i, r in enumerate(schedules.values()):
        dash = ("longdash", "longdashdot")[i % 2]   # no seed's line uses either (DASH)
        steps = r.trace.step
        reference.append({"type": "scatter", "mode": "lines", "x": steps,
                          "y": [f.first_update_norm(r.curves.lr[s - 1], r.parameters) for s in steps],
                          "name": f"{t['predicted']} · {warmup_label(r.config, lang)}",
                          "line": {"color": REFERENCE_COLOR, "dash": dash, "width": 3}, "hoverinfo": "name"})
    data = reference + data
    n = len(results.runs[present[0]][0].trace.step) if present else 0
    title = (f"前 {n} 次更新中每一次的大小" if lang == "zh" else f"The size of each of the first {n} updates")
    layout = base_layout(title + ("" if present else t["none"]), xaxis={"title": {"text": t["update"]}},
                         yaxis={"title": {"text": t["update_norm"]}, "type": "log", "exponentformat": "power"},
                         height=520, legend={"orientation": "h", "y": -0.25})
    names = ("、" if lang == "zh" else ", ").join(run_label(results, r, lang) for r in present)
    alt = (f"折线图：4 层模型前 {n} 次更新中，每次更新所有参数的变化量 ‖Δθ‖（对数纵轴，每个种子一条线）：{names}。"
           "灰色粗虚线每种预热设置一条（两组不预热的运行共用一条），画的是假设每个参数都恰好移动一个当步学习率时的 ‖Δθ‖，即学习率乘以参数个数的平方根。"
           if lang == "zh" else
           f"Line chart: for the 4-layer model's first {n} updates, the change of all parameters in each update, ‖Δθ‖ "
           f"(log scale, one line per seed): {names}. The thick grey dashed lines, one per warmup setting (the two runs "
           "without warmup share one), are the ‖Δθ‖ every parameter moving by exactly that update's learning rate "
           "would give: the learning rate times the square root of the number of parameters.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 4. the bottom block's gradient over the top block's

TRACE_SETS = {"four": SWEEP, "twelve": DEEP}


def trace_grads(results: Results, lang: str) -> dict:
    t = T[lang]
    data, which = [], []
    for name, runs in TRACE_SETS.items():
        present = [r for r in _present(results, runs) if all(x.trace for x in results.runs[r])]
        lines = _per_seed_lines(results, present, lang, lambda r: r.trace.step,
                                lambda r: [g[0] / g[-1] if g[0] is not None and g[-1] else None
                                           for g in r.trace.block_grad_norm])
        for ln in lines:
            ln["visible"] = name == "four"
            data.append(ln)
            which.append(name)
    buttons = [{"label": t[n], "method": "update", "args": [{"visible": [w == n for w in which]}]} for n in TRACE_SETS]
    title = ("最初若干次更新中，最底层块与最顶层块梯度范数之比（裁剪之前）" if lang == "zh"
             else "Over the first updates: the bottom block's gradient norm over the top block's (before clipping)")
    layout = base_layout(title + ("" if data else t["none"]), xaxis={"title": {"text": t["update"]}},
                         yaxis={"title": {"text": t["ratio"]}, "type": "log", "exponentformat": "power"},
                         updatemenus=_menu(buttons),
                         margin={"l": 70, "r": 20, "t": 100, "b": 50}, height=560, legend={"orientation": "h", "y": -0.25})
    alt = ("折线图：每次更新之前，最底层块参数的梯度范数除以最顶层块的（对数纵轴，每个种子一条线）；按钮在 4 层与 12 层的运行之间切换。"
           "比值掉到很小，说明底层几乎收不到梯度。"
           if lang == "zh" else
           "Line chart: before each update, the gradient norm of the bottom block's parameters divided by the top "
           "block's (log scale, one line per seed); buttons switch between the 4-layer and the 12-layer runs. A ratio "
           "that falls far below 1 means the bottom of the model gets almost no gradient.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 5. every block's gradient over the first updates

def _superscript(k: int) -> str:
    return "10" + str(k).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def trace_blocks(results: Results, lang: str) -> dict:
    """One heatmap per traced run and seed (a menu picks one): update across, block up, the colour the block's
    gradient norm before clipping on a log scale that every view shares, so that two views compare by colour."""
    t = T[lang]
    views = [(run, r) for run in _present(results, SWEEP + DEEP) if all(x.trace for x in results.runs[run])
             for r in results.runs[run]]
    logs = [math.log10(g) for _, r in views for step in r.trace.block_grad_norm for g in step if g]
    lo, hi = (math.floor(min(logs)), math.ceil(max(logs))) if logs else (0, 1)
    data, buttons = [], []
    for i, (run, r) in enumerate(views):
        grads = r.trace.block_grad_norm
        blocks = list(range(1, len(grads[0]) + 1))
        data.append({"type": "heatmap", "x": r.trace.step, "y": blocks, "visible": i == 0,
                     "z": [[math.log10(step[b - 1]) if step[b - 1] else None for step in grads] for b in blocks],
                     "customdata": [[step[b - 1] for step in grads] for b in blocks],
                     "hovertemplate": t["block_hover"] + "<extra></extra>",
                     "zmin": lo, "zmax": hi, "colorscale": "Viridis",
                     "colorbar": {"title": {"text": t["grad"]}, "tickvals": list(range(lo, hi + 1)),
                                  "ticktext": [_superscript(k) for k in range(lo, hi + 1)], "thickness": 12}})
        buttons.append({"label": f"{run_label(results, run, lang, depth=True)} · {t['seed']} {r.config.seed}", "method": "update",
                        "args": [{"visible": [j == i for j in range(len(views))]}]})
    title = ("最初若干次更新中，每个块的梯度范数（裁剪之前）" if lang == "zh"
             else "Over the first updates: each block's gradient norm (before clipping)")
    layout = base_layout(title + ("" if data else t["none"]), xaxis={"title": {"text": t["update"]}},
                         yaxis={"title": {"text": t["block"]}, "dtick": 1},
                         updatemenus=_menu(buttons, dropdown=True),
                         margin={"l": 70, "r": 20, "t": 100, "b": 50}, height=520)
    alt = ("热图：记录了前几次更新的每组运行、每个种子各一张，用菜单挑选。横轴是第几次更新，纵轴是块（1 是最底层），"
           "颜色是这个块的参数在这次更新之前（裁剪之前）的梯度范数，对数刻度，所有运行和种子共用一条色标。"
           if lang == "zh" else
           "Heatmap, one for each traced run and seed, picked from a menu: the update across, the block up (1 is the "
           "bottom), and as colour the gradient norm of that block's parameters before that update (before clipping), "
           "on a log scale that every run and seed shares.")
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("depth-probe", depth_probe), Figure("warmup-sweep", warmup_sweep), Figure("update-size", update_size),
           Figure("trace-grads", trace_grads), Figure("trace-blocks", trace_blocks), Figure("deep-runs", deep_runs))
