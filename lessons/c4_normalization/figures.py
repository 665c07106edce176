"""The normalization lesson's figures, from the committed results of every seed: the ablation curves,
the residual stream's RMS per layer, the gradient each block receives, the learning-rate check of the
LayerNorm/RMSNorm pair, the norm gains after the weight-decay runs, and the norm micro-benchmark.
Every chart shows the spread over seeds: a shaded band or error bar (smallest to largest seed), or every
seed as its own point."""
from __future__ import annotations

from course.common.measured import BASELINE, Results, range_text, seed_curves
from course.core.figures import BUTTON_STYLE, REFERENCE_COLOR, band, base_layout
from course.core.formats import fixed, scientific, significant
from course.core.registry import in_lang
from course.core.units import Figure
from course.core.words import LangWords
from lessons.c4_normalization.numbers import DECAY_RUNS, WORDS, device_text, op_label, tiny

COLORS = {  # one color per run, the same in every figure
    BASELINE: "#3b6fd4", "c4_postln": "#d9534f", "c4_layernorm": "#2ca58d",
    "c4_postln_nowarmup_lr1e-2": "#e08e0b", "c4_preln_nowarmup_lr1e-2": "#8e5cc7",
    "c8_postln_lr1e-3_nowarmup": "#a0522d", "c8_postln_lr1e-3_warmup100": "#e377c2",
}
DEVICE_COLORS = ["#3b6fd4", "#e08e0b", "#2ca58d", "#d9534f"]
DECAY_COLORS = {BASELINE: COLORS[BASELINE], "c4_rms_decay_gains": "#d9534f", "c4_zc_decay_gains": "#2ca58d"}
ABLATIONS = tuple(COLORS)


def span(lo: str, hi: str, t: LangWords) -> str:
    """A seed range in a chart's text: one value when both ends show the same (as on the page)."""
    return in_lang(range_text(lo, hi), t.lang)

CURVE_EVERY = 4   # train loss and grad norm: every 4th step is plenty for a 400-step curve

def run_name(name: str, t: LangWords) -> str:
    """A run as the charts name it (the words run.NAME; "Post-LN" names the placement: in our runs the norm
    after the addition is the same zero-centered RMSNorm), or its name."""
    return t(f"run.{name}") if WORDS.has(f"run.{name}") else name


def run_label(name: str, runs, t: LangWords) -> str:
    cfg = runs[0].config
    extra = f"lr {scientific(cfg.lr)}"
    if cfg.warmup_steps and name != BASELINE:
        extra += t("run.warmup", n=cfg.warmup_steps)
    label = t("run.label", run=run_name(name, t), extra=extra)
    diverged = [r.metrics.diverged_step for r in runs if r.metrics.diverged]
    if diverged:
        label += t("run.diverged", n=f"{len(diverged)}/{len(runs)}")
    return label


# ---------------------------------------------------------------- 1. the ablation curves

METRICS = ("val", "train", "grad")


def ablation_curves(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
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
            data.append({"type": "scatter", "mode": mode, "x": x, "y": mean, "name": run_label(name, rs, t),
                         "legendgroup": name, "line": {"color": color, "width": 1.5}, "visible": metric == "val"})
            which.append(metric)
    base = runs.get(BASELINE) or next(iter(runs.values()))
    unigram = base[0].corpus.unigram_floor
    steps = max(rs[0].config.max_steps for rs in runs.values())
    data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [unigram, unigram],
                 "name": f"{t('fig.unigram')} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash"},
                 "hoverinfo": "name"})
    which.append("unigram")

    def visible(metric):
        return [w == metric or (w == "unigram" and metric != "grad") for w in which]

    buttons = [{"label": t(f"fig.{m}"), "method": "update",
                "args": [{"visible": visible(m)},
                         {"yaxis.title.text": t("fig.loss") if m != "grad" else t("fig.grad"),
                          "yaxis.type": "linear" if m != "grad" else "log"}]} for m in METRICS]
    n_seeds = len(base)
    layout = base_layout(
        f"{t('ablation.title')}<br><sub>{t('fig.seeds', n=n_seeds)}</sub>",
        xaxis={"title": {"text": t("fig.step")}}, yaxis={"title": {"text": t("fig.loss")}, "type": "linear"},
        updatemenus=[{"type": "buttons", "direction": "right", "x": 0, "y": 1.02, "xanchor": "left",
                      "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 0, **BUTTON_STYLE}],
        margin={"l": 60, "r": 20, "t": 120, "b": 50}, height=600)
    layout["title"].update({"y": 0.97, "yanchor": "top"})
    final = [r.metrics.final_val_loss for r in base if r.metrics.final_val_loss is not None]
    shown = span(fixed(min(final), 3), fixed(max(final), 3), t) if final else "—"
    alt = t("ablation.alt", runs=len(runs), seeds=n_seeds, unigram=fixed(unigram, 3), final=shown)
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. residual-stream RMS per layer

PAIR = (BASELINE, "c4_postln")


def stream_rms(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    data = []
    for name in PAIR:
        rs = results.runs[name]
        for when in ("init", "end"):
            x, mean, lo, hi = seed_curves(rs, lambda r: list(range(len(r.end.stream_rms))),
                                          lambda r, w=when: getattr(r, w).stream_rms)
            dash = "dot" if when == "init" else "solid"
            data += band(x, lo, hi, COLORS[name], f"{name}-{when}")
            data.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": mean,
                         "name": f"{run_name(name, t)}{t('fig.comma')}{t(f'fig.{when}')}", "legendgroup": f"{name}-{when}",
                         "line": {"color": COLORS[name], "dash": dash}})
    pre, post = results.runs[PAIR[0]], results.runs[PAIR[1]]
    mean = lambda rs, i: sum(r.end.stream_rms[i] for r in rs) / len(rs)  # noqa: E731
    post_max = max(max(r.end.stream_rms[1:]) for r in post)
    layout = base_layout(t("rms.title"), xaxis={"title": {"text": t("fig.layer")}, "dtick": 1},
                         yaxis={"title": {"text": t("fig.rms")}, "type": "log", "exponentformat": "power"})
    alt = t("rms.alt", seeds=len(pre), first=significant(mean(pre, 1), 3), top=significant(mean(pre, -1), 3),
            post_max=significant(post_max, 3))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. per-block gradient norms

def block_grads(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    data, ratios = [], []
    for name in PAIR:
        rs = results.runs[name]
        for when in ("init", "end"):
            n = len(rs[0].init.block_grad_norm)
            g = [[getattr(r, when).block_grad_norm[i] for r in rs] for i in range(n)]
            mean = [sum(c) / len(c) for c in g]
            data.append({"type": "bar", "x": [f"{t('fig.block')} {i + 1}" for i in range(n)], "y": mean,
                         "name": f"{run_name(name, t)}{t('fig.comma')}{t(f'fig.{when}')}",
                         "error_y": {"type": "data", "symmetric": False,
                                     "array": [max(c) - m for c, m in zip(g, mean)],
                                     "arrayminus": [m - min(c) for c, m in zip(g, mean)]},
                         "marker": {"color": COLORS[name], "opacity": 0.45 if when == "init" else 1.0,
                                    **({"pattern": {"shape": "/"}} if when == "init" else {})}})  # a legend swatch of its own
        ends = [r.end.block_grad_norm[0] / r.end.block_grad_norm[-1] for r in rs]
        shown = tiny if min(ends) < 0.01 else (lambda x: significant(x, 2))  # keep a tiny ratio's size
        ratios.append(t("run_span", run=run_name(name, t), span=span(shown(min(ends)), shown(max(ends)), t)))
    title = f"{t('grads.title')}<br><sub>{t('grads.sub', ratio=t('fig.ratio'), ratios='<br>'.join(ratios))}</sub>"
    layout = base_layout(title, barmode="group",
                         yaxis={"title": {"text": t("fig.grad_norm")}, "type": "log", "exponentformat": "power"},
                         xaxis={"title": {"text": t("fig.block")}})
    pre0 = [r.init.block_grad_norm[0] for r in results.runs[PAIR[0]]]
    post0 = [r.init.block_grad_norm[0] for r in results.runs[PAIR[1]]]
    alt = t("grads.alt", pre=span(significant(min(pre0), 3), significant(max(pre0), 3), t),
            post=span(significant(min(post0), 3), significant(max(post0), 3), t), ratio=t("fig.ratio"),
            ratios=t.join("clauses", ratios))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 4. the learning-rate check (LayerNorm vs RMSNorm)

LR_PAIRS = (("c4_baseline", "c4_layernorm"), ("c4_baseline_lr1e-3", "c4_layernorm_lr1e-3"))  # (RMSNorm, LayerNorm)
NORM_COLORS = {"rms": COLORS[BASELINE], "ln": COLORS["c4_layernorm"]}


def lr_check(results: Results, lang: str) -> dict:
    """Final validation loss of every seed, RMSNorm and LayerNorm side by side at each learning rate (the
    words norm.rms, norm.ln name them)."""
    t = WORDS.lang(lang)
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
            lines.append(t("lr.line", norm=t(f"norm.{which}"), tick=ticks[i],
                           losses=t.join("list", [fixed(v, 3) for v in losses])))
        data.append({"type": "scatter", "mode": "markers", "x": xs, "y": ys, "name": t(f"norm.{which}"),
                     "legendgroup": which, "marker": {"color": NORM_COLORS[which], "size": 9, "opacity": 0.75},
                     "hovertext": text, "hoverinfo": "text+name"})
        data.append({"type": "scatter", "mode": "markers", "x": mx, "y": my, "name": t("fig.mean"),
                     "legendgroup": which, "showlegend": False, "hoverinfo": "skip",
                     "marker": {"color": NORM_COLORS[which], "size": 18, "symbol": "line-ew-open", "line": {"width": 3}}})
    layout = base_layout(t("lr.title"), xaxis={"tickvals": list(range(len(pairs))), "ticktext": ticks,
                                               "range": [-0.6, len(pairs) - 0.4]},
                         yaxis={"title": {"text": t("fig.loss")}})
    alt = t("lr.alt", lines=t.join("clauses", lines))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 5. the norm gains after the weight-decay runs

def decay_gains(results: Results, lang: str) -> dict:
    """Each norm's mean effective gain (g, or 1 + w) at the end, mean over seeds with the seed range."""
    t = WORDS.lang(lang)
    runs = {n: results.runs[n] for n in DECAY_RUNS if n in results.runs}
    data, parts = [], []
    for name, rs in runs.items():
        names = [g.name for g in rs[0].end.gains]
        per_norm = [[next(g.mean for g in r.end.gains if g.name == n) for r in rs] for n in names]
        mean = [sum(c) / len(c) for c in per_norm]
        label = run_name(name, t)
        data.append({"type": "bar", "x": names, "y": mean, "name": label, "marker": {"color": DECAY_COLORS[name]},
                     "error_y": {"type": "data", "symmetric": False, "array": [max(c) - m for c, m in zip(per_norm, mean)],
                                 "arrayminus": [m - min(c) for c, m in zip(per_norm, mean)]}})
        overall = [sum(c[i] for c in per_norm) / len(per_norm) for i in range(len(rs))]
        parts.append(t("run_span", run=label, span=span(fixed(min(overall), 3), fixed(max(overall), 3), t)))
    first = next(iter(runs.values()))
    n_seeds = len(first)
    data.append({"type": "scatter", "mode": "lines", "x": [first[0].end.gains[0].name, first[0].end.gains[-1].name],
                 "y": [1, 1], "name": t("fig.start_gain"), "line": {"color": REFERENCE_COLOR, "dash": "dash"}, "hoverinfo": "name"})
    layout = base_layout(t("gains.title", n=n_seeds), barmode="group", yaxis={"title": {"text": t("fig.gain")}},
                         xaxis={"title": {"text": t("fig.norm")}, "tickangle": -30})
    narrow = {"xaxis": {"tickangle": -90}}   # on a phone (docs/assets/js/figures.js): upright names
    alt = t("gains.alt", runs=len(runs), parts=t.join("clauses", parts))
    return {"data": data, "layout": layout, "alt": alt, "narrow": narrow}


# ---------------------------------------------------------------- 6. the norm micro-benchmark

def norm_bench(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    benches = results.benches
    data = []
    for i, (device, b) in enumerate(benches.items()):
        ops = list(b.ops)
        labels = [op_label(op, lang) for op in ops]
        color = DEVICE_COLORS[i % len(DEVICE_COLORS)]
        name = t("bench.name", device=device_text(b.device_name, b.threads)[lang], date=b.provenance.date)
        hover = [t("bench.hover", op=lab, median=fixed(o.median_ms, 3), q1=fixed(o.q1_ms, 3), q3=fixed(o.q3_ms, 3),
                   min=fixed(o.min_ms, 3), max=fixed(o.max_ms, 3), gbps=fixed(o.gbps, 1))
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
                     "hovertext": [t("bench.copy_hover", op=lab, share=fixed(100 * b.ops[op].fraction_of_copy_gbps, 1),
                                     copy_words=t("fig.copy"), copy=fixed(b.plain_copy.gbps, 1))
                                   for lab, op in zip(labels, ops)],
                     "hoverinfo": "text"})
    first = next(iter(benches.values()))
    shape = " × ".join(str(n) for n in first.shape)
    layout = base_layout(
        t("bench.title", shape=shape, reps=first.reps), barmode="group", height=520,
        margin={"l": 250, "r": 20, "t": 60, "b": 60},
        xaxis={"domain": [0, 0.55], "title": {"text": t("fig.median")}, "type": "log"},
        xaxis2={"domain": [0.62, 1], "title": {"text": t("fig.fraction")}, "tickformat": ".0%", "anchor": "y2"},
        yaxis={"autorange": "reversed", "automargin": True},
        yaxis2={"autorange": "reversed", "showticklabels": False, "anchor": "x2", "matches": "y"})
    # on a phone (docs/assets/js/figures.js): the two panels one above the other, each with its op names
    narrow = {"height": 800, "margin": {"l": 10}, "xaxis": {"domain": [0, 1], "dtick": "D2"}, "yaxis": {"domain": [0.58, 1]},
              "xaxis2": {"domain": [0, 1]}, "yaxis2": {"domain": [0, 0.42], "showticklabels": True}}
    parts = []
    for b in benches.values():
        ln, rn = b.ops["layernorm"].median_ms, b.ops["rmsnorm"].median_ms
        parts.append(t("bench.part", device=device_text(b.device_name, b.threads)[lang], ln=fixed(ln, 3),
                       rn=fixed(rn, 3), copy=t("fig.copy"), gbps=fixed(b.plain_copy.gbps, 1)))
    alt = t("bench.alt", parts=t.join("clauses", parts))
    return {"data": data, "layout": layout, "alt": alt, "narrow": narrow}


FIGURES = (Figure("ablation-curves", ablation_curves), Figure("stream-rms", stream_rms),
           Figure("block-grads", block_grads), Figure("lr-check", lr_check), Figure("decay-gains", decay_gains),
           Figure("norm-bench", norm_bench))
