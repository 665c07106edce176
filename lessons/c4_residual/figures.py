"""The residual lesson's figures, from the committed results of every seed: validation loss for the
baseline and the two residual ablations, the residual stream's RMS per layer at init and at the end, and
the gradient each block receives at init and at the end. Every chart shows the spread over seeds: a shaded band (or error
bars) from the smallest to the largest seed around their mean. The loss chart draws the unscaled run one line per seed
instead: its seeds split (one ends far below the other two), and a band would hide which seed went where. A run
without results yet is left out."""
from __future__ import annotations

from course.common.measured import BASELINE, Results
from course.core.figures import REFERENCE_COLOR, band, base_layout
from course.core.formats import fixed, significant
from course.core.units import Figure
from lessons.c4_residual.numbers import NO_RESIDUAL, NO_SCALING, RUNS, sci

COLORS = {BASELINE: "#3b6fd4", NO_RESIDUAL: "#d9534f", NO_SCALING: "#2ca58d"}  # mid-tones, both palettes
SEED_MARKERS = ("circle", "square", "diamond")   # a run drawn per seed: a marker and a line style per seed, so the
SEED_DASH = ("solid", "longdash", "longdashdot") # legend tells them apart; long dashes, unlike the init lines' dots
PER_SEED = (NO_SCALING,)   # runs the loss chart draws seed by seed
RUN_LABELS = {
    BASELINE: {"zh": "基线：x + F(x)，写回按 1/√N 初始化", "en": "baseline: x + F(x), write-back init × 1/√N"},
    NO_RESIDUAL: {"zh": "无残差：子层输出取代残差流", "en": "no residual: each sublayer replaces the stream"},
    NO_SCALING: {"zh": "写回初始化不乘 1/√N", "en": "write-back init without 1/√N"},
}
T = {
    "zh": {"step": "训练步数", "loss": "验证损失（nats/字）", "unigram": "一元模型的损失", "init": "初始化时",
           "end": "训练结束", "layer": "层（0 = 嵌入之后）", "rms": "残差流 RMS（对数轴）", "block": "块",
           "grad": "块内参数的梯度范数（对数轴）", "seeds": "阴影与误差棒：{n} 个种子的最小到最大",
           "per_seed": "；写回不缩放的运行每个种子一条线，因为它的种子有两种结局", "seed": "，种子 {s}",
           "per_seed_end": "；写回不缩放的运行在训练结束时每个种子一条线，因为它的种子有两种结局"},
    "en": {"step": "step", "loss": "validation loss (nats/char)", "unigram": "unigram model's loss",
           "init": "at init", "end": "at the end", "layer": "layer (0 = after the embeddings)",
           "rms": "residual-stream RMS (log axis)", "block": "block",
           "grad": "gradient norm of the block's parameters (log axis)",
           "seeds": "bands and error bars: min to max over {n} seeds",
           "per_seed": "; the unscaled run one line per seed, since its seeds split", "seed": ", seed {s}",
           "per_seed_end": "; the unscaled run at the end one line per seed, since its seeds split"},
}


def present(results: Results) -> dict:
    return {name: results.runs[name] for name in RUNS if name in results.runs}


def spread(columns: list[list[float]]) -> tuple[list[float], list[float], list[float]]:
    """Mean, smallest and largest of each column (one value per seed)."""
    return ([sum(c) / len(c) for c in columns], [min(c) for c in columns], [max(c) for c in columns])


def seeds_note(runs: dict, lang: str) -> str:
    n = min(len(rs) for rs in runs.values())
    return T[lang]["seeds"].format(n=n)


# ---------------------------------------------------------------- 1. validation loss


def loss_curves(results: Results, lang: str) -> dict:
    t, runs = T[lang], present(results)
    data = []
    for name, rs in runs.items():
        if name in PER_SEED:                                   # one line per seed, no band, no mean
            for i, r in enumerate(rs):
                data.append({"type": "scatter", "mode": "lines+markers", "x": r.val.step, "y": r.val.loss,
                             "legendgroup": name, "marker": {"size": 6, "symbol": SEED_MARKERS[i % len(SEED_MARKERS)]},
                             "name": f"{RUN_LABELS[name][lang]}{t['seed'].format(s=r.config.seed)}",
                             "line": {"color": COLORS[name], "width": 2, "dash": SEED_DASH[i % len(SEED_DASH)]}})
            continue
        steps = min((r.val.step for r in rs), key=len)       # a diverged seed stops early
        cols = [[r.val.loss[i] for r in rs if r.val.loss[i] is not None] for i in range(len(steps))]
        mean, lo, hi = spread(cols)
        data += band(steps, lo, hi, COLORS[name], name)
        data.append({"type": "scatter", "mode": "lines+markers", "x": steps, "y": mean, "legendgroup": name,
                     "name": RUN_LABELS[name][lang], "line": {"color": COLORS[name], "width": 1.5}})
    any_run = next(iter(runs.values()))
    unigram, last = any_run[0].corpus.unigram_floor, any_run[0].config.max_steps
    data.append({"type": "scatter", "mode": "lines", "x": [0, last], "y": [unigram, unigram], "hoverinfo": "name",
                 "name": f"{t['unigram']} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash"}})
    title = ("验证损失：去掉残差、去掉写回缩放，与基线对照" if lang == "zh"
             else "Validation loss: without the residual, without the write-back scaling, and the baseline")
    layout = base_layout(f"{title}<br><sub>{seeds_note(runs, lang)}{t['per_seed'] if NO_SCALING in runs else ''}</sub>",
                         xaxis={"title": {"text": t["step"]}},
                         yaxis={"title": {"text": t["loss"]}}, margin={"l": 60, "r": 20, "t": 80, "b": 50})
    ends = {name: [r.metrics.final_val_loss for r in rs if r.metrics.final_val_loss is not None]
            for name, rs in runs.items()}
    parts = [f"{RUN_LABELS[n][lang]} {fixed(min(v), 3)}–{fixed(max(v), 3)}" for n, v in ends.items() if v]
    sep = "；" if lang == "zh" else "; "
    alt = (f"折线图：{len(runs)} 组运行的验证损失随训练步数的变化，阴影是种子间的最小到最大（写回初始化不乘 1/√N 的运行每个种子一条线，各用一种标记，线型依次为实线、长虚线、长点划线）；虚线是一元模型的损失 "
           f"{fixed(unigram, 3)}。最终验证损失：{sep.join(parts)}。" if lang == "zh" else
           f"Line chart: validation loss against step for {len(runs)} runs, shaded from the lowest to the highest "
           f"seed (the run without the 1/√N write-back init one line per seed, each with its own marker, drawn solid, long-dashed and long dash-dotted); the dashed line is the unigram model's loss, {fixed(unigram, 3)}. Final validation loss: "
           f"{sep.join(parts)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the stream's RMS per layer


def stream_rms(results: Results, lang: str) -> dict:
    t, runs = T[lang], present(results)
    data, described = [], []
    for name, rs in runs.items():
        for when in ("init", "end"):
            per_layer = [getattr(r, when).stream_rms for r in rs]
            xs = list(range(len(per_layer[0])))
            mean, lo, hi = spread([list(c) for c in zip(*per_layer)])
            group = f"{name}-{when}"
            if name in PER_SEED and when == "end":             # its seeds split at the end: one line per seed
                for i, (r, ys) in enumerate(zip(rs, per_layer)):
                    data.append({"type": "scatter", "mode": "lines+markers", "x": xs, "y": ys, "legendgroup": group,
                                 "marker": {"size": 6, "symbol": SEED_MARKERS[i % len(SEED_MARKERS)]},
                                 "name": f"{RUN_LABELS[name][lang]}{'，' if lang == 'zh' else ', '}{t[when]}"
                                         f"{t['seed'].format(s=r.config.seed)}",
                                 "line": {"color": COLORS[name], "width": 2, "dash": SEED_DASH[i % len(SEED_DASH)]}})
                tops = "、".join if lang == "zh" else ", ".join
                described.append(f"{RUN_LABELS[name][lang]}{'，' if lang == 'zh' else ', '}{t[when]} "
                                 f"{significant(mean[0], 2)} → "
                                 f"{tops(significant(ys[-1], 2) for ys in per_layer)}")
                continue
            data += band(xs, lo, hi, COLORS[name], group)
            data.append({"type": "scatter", "mode": "lines+markers", "x": xs, "y": mean, "legendgroup": group,
                         "name": f"{RUN_LABELS[name][lang]}{'，' if lang == 'zh' else ', '}{t[when]}",
                         "line": {"color": COLORS[name], "dash": "dot" if when == "init" else "solid"}})
            described.append(f"{RUN_LABELS[name][lang]}{'，' if lang == 'zh' else ', '}{t[when]} "
                             f"{significant(mean[0], 2)} → {significant(mean[-1], 2)}")
    title = ("每层之后残差流的 RMS：初始化时（点线）与训练结束（其余的线）" if lang == "zh"
             else "Residual-stream RMS after each layer, at init (dotted) and at the end (the other lines)")
    layout = base_layout(f"{title}<br><sub>{seeds_note(runs, lang)}{t['per_seed_end'] if NO_SCALING in runs else ''}</sub>",
                         xaxis={"title": {"text": t["layer"]}, "dtick": 1},
                         yaxis={"title": {"text": t["rms"]}, "type": "log", "exponentformat": "power", "dtick": 1},
                         margin={"l": 60, "r": 20, "t": 80, "b": 50}, height=520)   # dtick: decades only, no "2" beside "10⁻³"
    sep = "；" if lang == "zh" else "; "
    alt = (f"折线图：嵌入之后和每个块之后残差流的 RMS（对数纵轴，种子均值，阴影为种子间范围；写回不缩放的运行在训练结束时每个种子一条线，各用一种标记，线型依次为实线、长虚线、长点划线），从嵌入之后到顶层："
           f"{sep.join(described)}。" if lang == "zh" else
           f"Line chart: the residual stream's RMS after the embeddings and after each block (log scale; mean over "
           f"seeds, shaded over the seeds; the unscaled run at the end one line per seed, each with its own marker, drawn solid, long-dashed and long dash-dotted), from after the embeddings to the top: {sep.join(described)}.")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. per-block gradient norms


def block_grads(results: Results, lang: str) -> dict:
    """At init (the question of lesson 2's naive plan) and at the end of training (where a stack without
    the residual has starved its lower blocks): bars per block, pale at init, full at the end."""
    t, runs = T[lang], present(results)
    data, described = [], []
    for name, rs in runs.items():
        for when in ("init", "end"):
            per_block = [list(c) for c in zip(*(getattr(r, when).block_grad_norm for r in rs))]
            mean, lo, hi = spread(per_block)
            data.append({"type": "bar", "x": [f"{t['block']} {i + 1}" for i in range(len(mean))], "y": mean,
                         "name": f"{RUN_LABELS[name][lang]}{'，' if lang == 'zh' else ', '}{t[when]}", "legendgroup": name,
                         "marker": {"color": COLORS[name], "opacity": 0.45 if when == "init" else 1.0,
                                    **({"pattern": {"shape": "/"}} if when == "init" else {})},  # its own swatch
                         "error_y": {"type": "data", "symmetric": False, "array": [h - m for h, m in zip(hi, mean)],
                                     "arrayminus": [m - low for low, m in zip(lo, mean)]}})
            described.append(f"{RUN_LABELS[name][lang]}{'，' if lang == 'zh' else ', '}{t[when]} "
                             + ("、" if lang == "zh" else ", ").join(sci(m) for m in mean))
    title = ("每个块收到的梯度范数：初始化时（浅色）与训练结束（深色）" if lang == "zh"
             else "Gradient norm each block receives, at init (pale) and at the end (full)")
    layout = base_layout(f"{title}<br><sub>{seeds_note(runs, lang)}</sub>", barmode="group", height=520,
                         yaxis={"title": {"text": t["grad"]}, "type": "log", "exponentformat": "power"},
                         xaxis={"title": {"text": t["block"]}}, margin={"l": 60, "r": 20, "t": 80, "b": 50})
    sep = "；" if lang == "zh" else "; "
    alt = (f"柱状图：每个块参数的梯度范数（对数纵轴，种子均值，误差棒为种子间范围），初始化时与训练结束时，从第 1 块到顶层块："
           f"{sep.join(described)}。" if lang == "zh" else
           f"Bar chart: gradient norm of each block's parameters (log scale; mean over seeds, error bars over the "
           f"seeds), at init and at the end, from block 1 to the top block: {sep.join(described)}.")
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("residual-loss", loss_curves), Figure("residual-stream-rms", stream_rms),
           Figure("residual-block-grads", block_grads))
