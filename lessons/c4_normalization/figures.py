"""The normalization lesson's figures, from the committed results of every seed: the ablation curves,
the residual stream's RMS per layer, the gradient each block receives, the learning-rate check of the
LayerNorm/RMSNorm pair, the norm gains after the weight-decay runs, and the norm micro-benchmark.
Every chart shows the spread over seeds: a shaded band or error bar (smallest to largest seed), or every
seed as its own point."""
from __future__ import annotations

from course.common.measured import BASELINE, Results, range_text, seed_curves
from course.core.figures import BUTTON_STYLE, REFERENCE_COLOR, band, base_layout
from course.core.formats import fixed, scientific, significant
from course.core.units import Figure
from lessons.c4_normalization.numbers import DECAY_RUNS, OP_LABELS, device_text, tiny

COLORS = {  # one color per run, the same in every figure
    BASELINE: "#3b6fd4", "c4_postln": "#d9534f", "c4_layernorm": "#2ca58d",
    "c4_postln_nowarmup_lr1e-2": "#e08e0b", "c4_preln_nowarmup_lr1e-2": "#8e5cc7",
    "c8_postln_lr1e-3_nowarmup": "#a0522d", "c8_postln_lr1e-3_warmup100": "#e377c2",
}
DEVICE_COLORS = ["#3b6fd4", "#e08e0b", "#2ca58d", "#d9534f"]
DECAY_COLORS = {BASELINE: COLORS[BASELINE], "c4_rms_decay_gains": "#d9534f", "c4_zc_decay_gains": "#2ca58d"}
ABLATIONS = tuple(COLORS)


def span(lo: str, hi: str, lang: str) -> str:
    """A seed range in a chart's text: one value when both ends show the same (as on the page)."""
    text = range_text(lo, hi)
    return text if isinstance(text, str) else text[lang]

CURVE_EVERY = 4   # train loss and grad norm: every 4th step is plenty for a 400-step curve

T = {
    "zh": {"val": "验证损失", "train": "训练损失", "grad": "梯度范数（裁剪前）", "step": "训练步数",
           "loss": "交叉熵（nats/字）", "unigram": "一元（字频）模型的损失", "diverged": "发散", "init": "初始化时",
           "end": "训练结束", "layer": "层（0 = 嵌入之后）", "rms": "残差流 RMS", "block": "块",
           "grad_norm": "块内参数的梯度范数", "ratio": "底 / 顶", "median": "中位数（毫秒，误差棒为四分位距）",
           "fraction": "占纯拷贝带宽的比例", "copy": "纯拷贝", "seeds": "阴影：{n} 个种子的最小到最大",
           "mean": "均值", "gain": "增益（g 或 1 + w）的平均", "norm": "归一化层", "start_gain": "起点：增益 1"},
    "en": {"val": "Validation loss", "train": "Train loss", "grad": "Grad norm (before clipping)", "step": "step",
           "loss": "cross-entropy (nats/char)", "unigram": "unigram loss", "diverged": "diverged",
           "init": "at init", "end": "at the end", "layer": "layer (0 = after the embeddings)",
           "rms": "residual-stream RMS", "block": "block", "grad_norm": "gradient norm of the block's parameters",
           "ratio": "bottom / top", "median": "median (ms; error bars: interquartile range)",
           "fraction": "fraction of copy bandwidth", "copy": "plain copy", "seeds": "shading: min to max over {n} seeds",
           "mean": "mean", "gain": "mean gain (g, or 1 + w)", "norm": "norm", "start_gain": "start: gain 1"},
}

# "Post-LN" names the placement: in our runs the norm after the addition is the same zero-centered RMSNorm
RUN_LABELS = {
    BASELINE: {"zh": "基线：Pre-Norm，零中心 RMSNorm", "en": "baseline: Pre-Norm, zero-centered RMSNorm"},
    "c4_postln": {"zh": "Post-LN（加法之后做 RMSNorm）", "en": "Post-LN (RMSNorm after the add)"},
    "c4_layernorm": {"zh": "Pre-Norm，LayerNorm", "en": "Pre-Norm, LayerNorm"},
    "c4_postln_nowarmup_lr1e-2": {"zh": "Post-LN，无预热", "en": "Post-LN, no warmup"},
    "c4_preln_nowarmup_lr1e-2": {"zh": "Pre-Norm，无预热", "en": "Pre-Norm, no warmup"},
    "c8_postln_lr1e-3_nowarmup": {"zh": "Post-LN，无预热", "en": "Post-LN, no warmup"},
    "c8_postln_lr1e-3_warmup100": {"zh": "Post-LN", "en": "Post-LN"},
    "c4_baseline_lr1e-3": {"zh": "零中心 RMSNorm", "en": "zero-centered RMSNorm"},
    "c4_layernorm_lr1e-3": {"zh": "LayerNorm", "en": "LayerNorm"},
    "c4_rms_decay_gains": {"zh": "普通 RMSNorm，增益 g 也衰减", "en": "plain RMSNorm, gain g decayed too"},
    "c4_zc_decay_gains": {"zh": "零中心 RMSNorm，1 + w 中的 w 也衰减", "en": "zero-centered RMSNorm, w of 1 + w decayed too"},
}


def run_label(name: str, runs, lang: str) -> str:
    cfg = runs[0].config
    base = RUN_LABELS.get(name, {}).get(lang, name)
    extra = f"lr {scientific(cfg.lr)}"
    if cfg.warmup_steps and name != BASELINE:
        extra += f", warmup {cfg.warmup_steps}" if lang == "en" else f"，预热 {cfg.warmup_steps}"
    label = f"{base} ({extra})" if lang == "en" else f"{base}（{extra}）"
    diverged = [r.metrics.diverged_step for r in runs if r.metrics.diverged]
    if diverged:
        n = f"{len(diverged)}/{len(runs)}"
        label += f" — {T[lang]['diverged']} ({n})" if lang == "en" else f"——{T[lang]['diverged']}（{n}）"
    return label


# ---------------------------------------------------------------- 1. the ablation curves

METRICS = ("val", "train", "grad")


def ablation_curves(results: Results, lang: str) -> dict:
    t = T[lang]
    runs = {n: results.runs[n] for n in ABLATIONS if n in results.runs}
    data, which = [], []
    for metric in METRICS:
        for name, rs in runs.items():
            if metric == "val":
                x, mean, lo, hi = seed_curves(rs, lambda r: r.val.step, lambda r: r.val.loss)
                mode = "lines+markers"
            else:
                field = "train_loss" if metric == "train" else "grad_norm"
                x, mean, lo, hi = seed_curves(rs, lambda r: r.curves.step, lambda r, f=field: getattr(r.curves, f),
                                              CURVE_EVERY)
                mode = "lines"
            color = COLORS[name]
            for tr in band(x, lo, hi, color, name, visible=metric == "val"):
                data.append(tr)
                which.append(metric)
            data.append({"type": "scatter", "mode": mode, "x": x, "y": mean, "name": run_label(name, rs, lang),
                         "legendgroup": name, "line": {"color": color, "width": 1.5}, "visible": metric == "val"})
            which.append(metric)
    base = runs.get(BASELINE) or next(iter(runs.values()))
    unigram = base[0].corpus.unigram_floor
    steps = max(rs[0].config.max_steps for rs in runs.values())
    data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [unigram, unigram],
                 "name": f"{t['unigram']} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash"},
                 "hoverinfo": "name"})
    which.append("unigram")

    def visible(metric):
        return [w == metric or (w == "unigram" and metric != "grad") for w in which]

    buttons = [{"label": t[m], "method": "update",
                "args": [{"visible": visible(m)},
                         {"yaxis.title.text": t["loss"] if m != "grad" else t["grad"],
                          "yaxis.type": "linear" if m != "grad" else "log"}]} for m in METRICS]
    n_seeds = len(base)
    title = ("消融实验：每次只改一处（点图例可隐藏某次运行）" if lang == "zh"
             else "Ablations, one change each (click a legend entry to hide a run)")
    layout = base_layout(
        f"{title}<br><sub>{t['seeds'].format(n=n_seeds)}</sub>",
        xaxis={"title": {"text": t["step"]}}, yaxis={"title": {"text": t["loss"]}, "type": "linear"},
        updatemenus=[{"type": "buttons", "direction": "right", "x": 0, "y": 1.02, "xanchor": "left",
                      "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 0, **BUTTON_STYLE}],
        margin={"l": 60, "r": 20, "t": 120, "b": 50}, height=600)
    layout["title"].update({"y": 0.97, "yanchor": "top"})
    final = [r.metrics.final_val_loss for r in base if r.metrics.final_val_loss is not None]
    shown = span(fixed(min(final), 3), fixed(max(final), 3), lang) if final else "—"
    alt = (f"折线图：{len(runs)} 组训练运行（每组 {n_seeds} 个种子）的验证损失随训练步数的变化，阴影是种子间的最小到最大，"
           f"可切换为训练损失或梯度范数；虚线是一元（字频）模型的损失 {fixed(unigram, 3)}。基线的最终验证损失为 {shown}。"
           if lang == "zh" else
           f"Line chart: validation loss against step for {len(runs)} training runs ({n_seeds} seeds each, shaded "
           f"from the lowest to the highest seed), switchable to train loss or gradient norm; the dashed line is "
           f"the unigram loss, {fixed(unigram, 3)}. The baseline run ends at {shown}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. residual-stream RMS per layer

PAIR = (BASELINE, "c4_postln")


def stream_rms(results: Results, lang: str) -> dict:
    t = T[lang]
    data = []
    for name in PAIR:
        rs = results.runs[name]
        for when in ("init", "end"):
            x, mean, lo, hi = seed_curves(rs, lambda r: list(range(len(r.end.stream_rms))),
                                          lambda r, w=when: getattr(r, w).stream_rms)
            dash = "dot" if when == "init" else "solid"
            data += band(x, lo, hi, COLORS[name], f"{name}-{when}")
            data.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": mean,
                         "name": f"{RUN_LABELS[name][lang]}, {t[when]}", "legendgroup": f"{name}-{when}",
                         "line": {"color": COLORS[name], "dash": dash}})
    pre, post = results.runs[PAIR[0]], results.runs[PAIR[1]]
    mean = lambda rs, i: sum(r.end.stream_rms[i] for r in rs) / len(rs)  # noqa: E731
    post_max = max(max(r.end.stream_rms[1:]) for r in post)
    title = ("残差流每层的 RMS：Pre-Norm 的残差流越加越大，Post-LN 每层都被归一化" if lang == "zh"
             else "Residual-stream RMS per layer: Pre-Norm's stream grows, Post-LN renormalizes it every layer")
    layout = base_layout(title, xaxis={"title": {"text": t["layer"]}, "dtick": 1},
                         yaxis={"title": {"text": t["rms"]}, "type": "log", "exponentformat": "power"})
    alt = (f"折线图：每层之后残差流的 RMS（对数纵轴，{len(pre)} 个种子的均值，阴影为种子间范围）。训练结束时 Pre-Norm 从第 1 层的 "
           f"{significant(mean(pre, 1), 3)} 增长到顶层的 {significant(mean(pre, -1), 3)}；Post-LN 在每个块之后重新归一化，"
           f"任何种子、任何一层都不超过 {significant(post_max, 3)}。"
           if lang == "zh" else
           f"Line chart: the residual stream's RMS after each layer (log scale; mean of {len(pre)} seeds, shaded "
           f"over the seeds). At the end, Pre-Norm's grows from {significant(mean(pre, 1), 3)} after layer 1 to "
           f"{significant(mean(pre, -1), 3)} at the top; Post-LN renormalizes after every block, and no layer of any "
           f"seed exceeds {significant(post_max, 3)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. per-block gradient norms

def block_grads(results: Results, lang: str) -> dict:
    t = T[lang]
    data, ratios = [], []
    for name in PAIR:
        rs = results.runs[name]
        for when in ("init", "end"):
            n = len(rs[0].init.block_grad_norm)
            g = [[getattr(r, when).block_grad_norm[i] for r in rs] for i in range(n)]
            mean = [sum(c) / len(c) for c in g]
            data.append({"type": "bar", "x": [f"{t['block']} {i + 1}" for i in range(n)], "y": mean,
                         "name": f"{RUN_LABELS[name][lang]}, {t[when]}",
                         "error_y": {"type": "data", "symmetric": False,
                                     "array": [max(c) - m for c, m in zip(g, mean)],
                                     "arrayminus": [m - min(c) for c, m in zip(g, mean)]},
                         "marker": {"color": COLORS[name], "opacity": 0.45 if when == "init" else 1.0,
                                    **({"pattern": {"shape": "/"}} if when == "init" else {})}})  # a legend swatch of its own
        ends = [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in rs]
        shown = tiny if min(ends) < 0.01 else (lambda x: significant(x, 2))  # keep a tiny ratio's size
        ratios.append(f"{RUN_LABELS[name][lang]}{'：' if lang == 'zh' else ' '}{span(shown(min(ends)), shown(max(ends)), lang)}")
    sep = "；" if lang == "zh" else "; "
    title = (f"每个块的梯度范数<br><sub>{t['ratio']}，训练结束：{'<br>'.join(ratios)}</sub>" if lang == "zh"
             else f"Gradient norm per block<br><sub>{t['ratio']} at the end: {'<br>'.join(ratios)}</sub>")
    layout = base_layout(title, barmode="group",
                         yaxis={"title": {"text": t["grad_norm"]}, "type": "log", "exponentformat": "power"},
                         xaxis={"title": {"text": t["block"]}})
    pre0 = [r.init.block_grad_norm[0] for r in results.runs[PAIR[0]]]
    post0 = [r.init.block_grad_norm[0] for r in results.runs[PAIR[1]]]
    alt = (f"柱状图：每个块参数的梯度范数（对数纵轴，种子均值，误差棒为种子间范围），Pre-Norm 与 Post-LN，初始化时与训练结束时。"
           f"初始化时第 1 块：Pre-Norm {span(significant(min(pre0), 3), significant(max(pre0), 3), lang)}，"
           f"Post-LN {span(significant(min(post0), 3), significant(max(post0), 3), lang)}。训练结束时{t['ratio']}：{sep.join(ratios)}。"
           if lang == "zh" else
           f"Bar chart: gradient norm of each block's parameters (log scale; mean over seeds, error bars over the "
           f"seeds), Pre-Norm and Post-LN, at init and at the end. Block 1 at init: Pre-Norm "
           f"{span(significant(min(pre0), 3), significant(max(pre0), 3), lang)}, Post-LN "
           f"{span(significant(min(post0), 3), significant(max(post0), 3), lang)}. Bottom/top at the end: {sep.join(ratios)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 4. the learning-rate check (LayerNorm vs RMSNorm)

LR_PAIRS = (("c4_baseline", "c4_layernorm"), ("c4_baseline_lr1e-3", "c4_layernorm_lr1e-3"))  # (RMSNorm, LayerNorm)
NORM_COLORS = {"rms": COLORS[BASELINE], "ln": COLORS["c4_layernorm"]}
NORM_NAMES = {"rms": {"zh": "零中心 RMSNorm", "en": "zero-centered RMSNorm"}, "ln": {"zh": "LayerNorm", "en": "LayerNorm"}}


def lr_check(results: Results, lang: str) -> dict:
    """Final validation loss of every seed, RMSNorm and LayerNorm side by side at each learning rate."""
    t = T[lang]
    pairs = [p for p in LR_PAIRS if all(n in results.runs for n in p)]
    data, lines = [], []
    ticks = [f"lr {scientific(results.runs[rms][0].config.lr)}" for rms, _ in pairs]
    for which, offset in (("rms", -0.12), ("ln", 0.12)):
        xs, ys, text = [], [], []
        mx, my = [], []
        for i, pair in enumerate(pairs):
            runs = results.runs[pair[0] if which == "rms" else pair[1]]
            losses = [r.metrics.final_val_loss for r in runs]
            xs += [i + offset] * len(runs)
            ys += losses
            text += [f"seed {r.config.seed}: {fixed(v, 3)}" for r, v in zip(runs, losses)]
            mx.append(i + offset)
            my.append(sum(losses) / len(losses))
            colon, comma = ("：", "、") if lang == "zh" else (": ", ", ")
            lines.append(f"{NORM_NAMES[which][lang]}{'，' if lang == 'zh' else ', '}{ticks[i]}{colon}"
                         + comma.join(fixed(v, 3) for v in losses))
        data.append({"type": "scatter", "mode": "markers", "x": xs, "y": ys, "name": NORM_NAMES[which][lang],
                     "legendgroup": which, "marker": {"color": NORM_COLORS[which], "size": 9, "opacity": 0.75},
                     "hovertext": text, "hoverinfo": "text+name"})
        data.append({"type": "scatter", "mode": "markers", "x": mx, "y": my, "name": t["mean"],
                     "legendgroup": which, "showlegend": False, "hoverinfo": "skip",
                     "marker": {"color": NORM_COLORS[which], "size": 18, "symbol": "line-ew-open", "line": {"width": 3}}})
    title = ("学习率检查：每个点是一个种子的最终验证损失，短横线是均值" if lang == "zh"
             else "Learning-rate check: each dot is one seed's final validation loss, the dash their mean")
    layout = base_layout(title, xaxis={"tickvals": list(range(len(pairs))), "ticktext": ticks, "range": [-0.6, len(pairs) - 0.4]},
                         yaxis={"title": {"text": t["loss"]}})
    sep = "；" if lang == "zh" else "; "
    alt = (f"散点图：零中心 RMSNorm 与 LayerNorm（都用 Pre-Norm）在两个学习率下的最终验证损失，每个种子一个点。{sep.join(lines)}。"
           if lang == "zh" else
           f"Scatter chart: final validation loss of zero-centered RMSNorm and LayerNorm (both Pre-Norm) at two "
           f"learning rates, one dot per seed. {sep.join(lines)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 5. the norm gains after the weight-decay runs

def decay_gains(results: Results, lang: str) -> dict:
    """Each norm's mean effective gain (g, or 1 + w) at the end, mean over seeds with the seed range."""
    t = T[lang]
    runs = {n: results.runs[n] for n in DECAY_RUNS if n in results.runs}
    data, parts = [], []
    for name, rs in runs.items():
        names = [g.name for g in rs[0].end.gains]
        per_norm = [[next(g.mean for g in r.end.gains if g.name == n) for r in rs] for n in names]
        mean = [sum(c) / len(c) for c in per_norm]
        label = RUN_LABELS[name][lang]
        data.append({"type": "bar", "x": names, "y": mean, "name": label, "marker": {"color": DECAY_COLORS[name]},
                     "error_y": {"type": "data", "symmetric": False, "array": [max(c) - m for c, m in zip(per_norm, mean)],
                                 "arrayminus": [m - min(c) for c, m in zip(per_norm, mean)]}})
        overall = [sum(c[i] for c in per_norm) / len(per_norm) for i in range(len(rs))]
        parts.append(f"{label}{'：' if lang == 'zh' else ' '}{span(fixed(min(overall), 3), fixed(max(overall), 3), lang)}")
    first = next(iter(runs.values()))
    n_seeds = len(first)
    data.append({"type": "scatter", "mode": "lines", "x": [first[0].end.gains[0].name, first[0].end.gains[-1].name],
                 "y": [1, 1], "name": t["start_gain"], "line": {"color": REFERENCE_COLOR, "dash": "dash"}, "hoverinfo": "name"})
    title = ("训练结束时每个归一化的平均增益（误差棒：{n} 个种子的范围）" if lang == "zh"
             else "Mean gain of each norm at the end (error bars: range over {n} seeds)").format(n=n_seeds)
    layout = base_layout(title, barmode="group", yaxis={"title": {"text": t["gain"]}},
                         xaxis={"title": {"text": t["norm"]}, "tickangle": -30})
    narrow = {"xaxis": {"tickangle": -90}}   # on a phone (docs/assets/js/figures.js): upright names
    sep = "；" if lang == "zh" else "; "
    alt = (f"柱状图：{len(runs)} 组运行中每个归一化层训练结束时的平均增益，虚线是起点 1。全部归一化平均后，各种子从低到高：{sep.join(parts)}。"
           if lang == "zh" else
           f"Bar chart: each norm's mean gain at the end of {len(runs)} runs, with a dashed line at the starting gain of 1. "
           f"Averaged over all norms, the seeds give (lowest to highest): {sep.join(parts)}.")
    return {"data": data, "layout": layout, "alt": alt, "narrow": narrow}


# ---------------------------------------------------------------- 6. the norm micro-benchmark

def norm_bench(results: Results, lang: str) -> dict:
    t = T[lang]
    benches = results.benches
    data = []
    for i, (device, b) in enumerate(benches.items()):
        ops = list(b.ops)
        labels = [OP_LABELS.get(op, {}).get(lang, op) for op in ops]
        color = DEVICE_COLORS[i % len(DEVICE_COLORS)]
        name = (f"{device_text(b.device_name, b.threads)[lang]}，测于 {b.provenance.date}" if lang == "zh"
                else f"{device_text(b.device_name, b.threads)[lang]}, {b.provenance.date}")
        hover = [f"{lab}<br>median {fixed(o.median_ms, 3)} ms, IQR {fixed(o.q1_ms, 3)}–{fixed(o.q3_ms, 3)}, "
                 f"min {fixed(o.min_ms, 3)}, max {fixed(o.max_ms, 3)}<br>{fixed(o.gbps, 1)} GB/s"
                 for lab, o in zip(labels, (b.ops[op] for op in ops))]
        data.append({"type": "bar", "orientation": "h", "y": labels, "x": [b.ops[op].median_ms for op in ops],
                     "name": name, "legendgroup": device, "marker": {"color": color},
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
    title = (f"归一化算子前向 + 反向，float32 {shape}，{first.reps} 次的中位数" if lang == "zh"
             else f"Normalization ops, forward + backward, float32 {shape}, median of {first.reps}")
    layout = base_layout(
        title, barmode="group", height=520, margin={"l": 250, "r": 20, "t": 60, "b": 60},
        xaxis={"domain": [0, 0.55], "title": {"text": t["median"]}, "type": "log"},
        xaxis2={"domain": [0.62, 1], "title": {"text": t["fraction"]}, "tickformat": ".0%", "anchor": "y2"},
        yaxis={"autorange": "reversed", "automargin": True},
        yaxis2={"autorange": "reversed", "showticklabels": False, "anchor": "x2", "matches": "y"})
    # on a phone (docs/assets/js/figures.js): the two panels one above the other, each with its op names
    narrow = {"height": 800, "margin": {"l": 10}, "xaxis": {"domain": [0, 1], "dtick": "D2"}, "yaxis": {"domain": [0.58, 1]},
              "xaxis2": {"domain": [0, 1]}, "yaxis2": {"domain": [0, 0.42], "showticklabels": True}}
    parts = []
    for b in benches.values():
        ln, rn = b.ops["layernorm"].median_ms, b.ops["rmsnorm"].median_ms
        name = device_text(b.device_name, b.threads)[lang]
        if lang == "zh":
            parts.append(f"{name}：LayerNorm {fixed(ln, 3)} 毫秒，RMSNorm {fixed(rn, 3)} 毫秒，"
                         f"{t['copy']} {fixed(b.plain_copy.gbps, 1)} GB/s")
        else:
            parts.append(f"{name}: LayerNorm {fixed(ln, 3)} ms, RMSNorm {fixed(rn, 3)} ms, "
                         f"{t['copy']} {fixed(b.plain_copy.gbps, 1)} GB/s")
    alt = ("横向柱状图：每个归一化算子的中位耗时（误差棒为四分位距）及其占纯拷贝带宽的比例。" + "；".join(parts) + "。"
           if lang == "zh" else
           "Horizontal bar chart: median time of each normalization op (error bars: interquartile range) and "
           "its fraction of plain-copy bandwidth. " + "; ".join(parts) + ".")
    return {"data": data, "layout": layout, "alt": alt, "narrow": narrow}


FIGURES = (Figure("ablation-curves", ablation_curves), Figure("stream-rms", stream_rms),
           Figure("block-grads", block_grads), Figure("lr-check", lr_check), Figure("decay-gains", decay_gains),
           Figure("norm-bench", norm_bench))
