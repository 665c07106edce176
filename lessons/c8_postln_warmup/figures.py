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
from course.core.words import LangWords
from lessons.c8_postln_warmup import formulas as f
from lessons.c8_postln_warmup.numbers import (DEEP, DEPTHS, EPS, LONG, PLACEMENTS, SWEEP, WORDS, branch_ratio, init_run,
                                              post_norm_inputs)

COLORS = {
    "c8_postln_lr1e-3_nowarmup": "#d9534f", "c8_postln_lr1e-3_warmup25": "#c27400",
    "c8_postln_lr1e-3_warmup100": "#8e5cc7", "c8_postln_lr1e-3_warmup200": "#2ca58d",
    "c8_preln_lr1e-3_nowarmup": "#3b6fd4",
    "c8_postln_L12_lr1e-3_nowarmup": "#d9534f", "c8_postln_L12_lr1e-3_warmup100": "#8e5cc7",
    "c8_preln_L12_lr1e-3_nowarmup": "#3b6fd4", "c8_preln_L12_lr1e-3_warmup100": "#2ca58d",
    "c8_postln_lr1e-3_nowarmup_to1200": "#d9534f", "c8_postln_L12_lr1e-3_nowarmup_to800": "#a3302c",
    "c8_postln_L12_lr1e-3_nowarmup_eps1e-16": "#e08e0b",
    "postln": "#d9534f", "postln_unscaled": "#e08e0b", "preln": "#3b6fd4", "preln_unscaled": "#2ca58d",
}
DASH = ("solid", "dash", "dot")   # one per seed
# the charts' words: fig.* (axes, legends), placement.* and run.*, and each chart's title and text alternative


def run_label(results: Results, run: str, t: LangWords, depth: bool = False) -> str:
    """A run's name on a chart, from its config: placement, depth (always when `depth`, else when it is not
    the base's), warmup."""
    cfg = results.runs[run][0].config
    parts = ["Post-LN" if cfg.norm_placement == "post" else "Pre-Norm"]
    if depth or cfg.n_layer != 4:
        parts.append(t("run.layers", n=cfg.n_layer))
    parts.append(warmup_label(cfg, t))
    if cfg.max_steps != 400:
        parts.append(t("run.steps", n=cfg.max_steps))
    if cfg.adam_eps != 1e-8:
        parts.append(t("run.eps", eps=f"{cfg.adam_eps:.0e}".replace("e-", "e−")))
    return t("fig.comma").join(parts)


def warmup_label(cfg, t: LangWords) -> str:
    return t("run.warmup", n=cfg.warmup_steps) if cfg.warmup_steps else t("run.no_warmup")


def _menu(buttons: list[dict], dropdown: bool = False) -> list[dict]:
    """The chart's one menu, above the plot at the left: a row of buttons, or a drop-down list for many views."""
    if not buttons:
        return []
    return [{"type": "dropdown" if dropdown else "buttons", "direction": "down" if dropdown else "right", "x": 0,
             "y": 1.02, "xanchor": "left", "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 0,
             **BUTTON_STYLE}]


def _present(results: Results, runs) -> list[str]:
    return [r for r in runs if r in results.runs]


def _unigram(results: Results):
    for rs in results.runs.values():
        return rs[0].corpus.unigram_floor
    return None


def _per_seed_lines(results: Results, runs, t: LangWords, x_of, y_of, mode="lines", width=1.4, keep=None) -> list[dict]:
    data = []
    for run in runs:
        for i, r in enumerate(results.runs[run]):
            if keep is not None and not keep(r):
                continue
            data.append({"type": "scatter", "mode": mode, "x": x_of(r), "y": y_of(r),
                         "name": f"{run_label(results, run, t)} · {t('fig.seed')} {r.config.seed}",
                         "legendgroup": run, "line": {"color": COLORS[run], "dash": DASH[i % len(DASH)], "width": width}})
    return data


# ---------------------------------------------------------------- 1. the gradient at init against depth

def _probe_marker(placement: str) -> dict:
    """Post-LN's points are the same with and without the write-back scaling (its norm comes after the
    write), and so are both placements once matched: the unscaled variant is a larger open ring around the
    scaled one's filled point, so neither hides the other."""
    unscaled = placement.endswith("_unscaled")
    return {"color": COLORS[placement], "size": 13 if unscaled else 7, "line": {"width": 2, "color": COLORS[placement]},
            "symbol": ("circle" if "pre" in placement else "square") + ("-open" if unscaled else "")}


def depth_probe(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
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
            data.append({"type": "scatter", "mode": "markers", "x": xs, "y": ys, "name": t(f"placement.{p}"),
                         "text": [f"{t('fig.seed')} {s}" for s in seeds], "legendgroup": p, "visible": view == "raw",
                         "marker": _probe_marker(p)})
            which.append(view)
    buttons = [{"label": t(f"fig.{v}"), "method": "update", "args": [{"visible": [w == v for w in which]}]} for v in ("raw", "matched")]
    have = any(init_run(p, L) in results.runs for p in PLACEMENTS for L in DEPTHS)
    layout = base_layout(t("depth_probe.title") + ("" if have else t("fig.none")),
                         xaxis={"title": {"text": t("fig.depth")}, "type": "log", "tickvals": list(DEPTHS)},
                         yaxis={"title": {"text": t("fig.w2")}, "type": "log", "exponentformat": "power", "dtick": 1},
                         updatemenus=_menu(buttons),
                         margin={"l": 70, "r": 20, "t": 100, "b": 50})
    alt = t("depth_probe.alt", depths=t.join("list", map(str, DEPTHS)))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. and 6. validation loss, seed by seed

def _loss_figure(results: Results, t: LangWords, runs, title: str, alt_runs: str) -> dict:
    present = _present(results, runs)
    data = _per_seed_lines(results, present, t, lambda r: r.val.step, lambda r: r.val.loss, mode="lines+markers")
    unigram = _unigram(results)
    steps = max((results.runs[r][0].config.max_steps for r in present), default=0)
    if unigram is not None:
        data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [unigram, unigram],
                     "name": f"{t('fig.unigram')} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash"},
                     "hoverinfo": "name"})
    layout = base_layout(title + ("" if present else t("fig.none")), xaxis={"title": {"text": t("fig.step")}},
                         yaxis={"title": {"text": t("fig.loss")}}, height=520, legend={"orientation": "h", "y": -0.25})
    n = len(results.runs[present[0]]) if present else 0
    # a space between runs named by a Latin letter or digit and a word that follows without one (Chinese)
    gap = " " if alt_runs[-1:].isascii() and alt_runs[-1:].isalnum() else ""
    alt = t("loss.alt", runs=alt_runs, gap=gap, seeds=n)
    return {"data": data, "layout": layout, "alt": alt}


def warmup_sweep(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    return _loss_figure(results, t, SWEEP, t("sweep.title"), t("sweep.runs"))


def deep_runs(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    return _loss_figure(results, t, DEEP, t("deep.title"), t("deep.runs"))


# ---------------------------------------------------------------- 3. the size of the first updates

UPDATE_RUNS = ("c8_postln_lr1e-3_nowarmup", "c8_postln_lr1e-3_warmup100", "c8_preln_lr1e-3_nowarmup")


def update_size(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    present = [r for r in _present(results, UPDATE_RUNS) if all(x.trace for x in results.runs[r])]
    data = _per_seed_lines(results, present, t, lambda r: r.trace.step, lambda r: r.trace.update_norm)
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
                          "name": f"{t('fig.predicted')} · {warmup_label(r.config, t)}",
                          "line": {"color": REFERENCE_COLOR, "dash": dash, "width": 3}, "hoverinfo": "name"})
    data = reference + data
    n = len(results.runs[present[0]][0].trace.step) if present else 0
    layout = base_layout(t("update.title", n=n) + ("" if present else t("fig.none")),
                         xaxis={"title": {"text": t("fig.update")}},
                         yaxis={"title": {"text": t("fig.update_norm")}, "type": "log", "exponentformat": "power"},
                         height=520, legend={"orientation": "h", "y": -0.25})
    names = t.join("list", [run_label(results, r, t) for r in present])
    alt = t("update.alt", n=n, names=names)
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 4. the bottom block's gradient over the top block's

TRACE_SETS = {"four": SWEEP, "twelve": DEEP}


def trace_grads(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    data, which = [], []
    for name, runs in TRACE_SETS.items():
        present = [r for r in _present(results, runs) if all(x.trace for x in results.runs[r])]
        lines = _per_seed_lines(results, present, t, lambda r: r.trace.step,
                                lambda r: [g[0] / g[-1] if g[0] is not None and g[-1] else None
                                           for g in r.trace.block_grad_norm])
        for ln in lines:
            ln["visible"] = name == "four"
            data.append(ln)
            which.append(name)
    buttons = [{"label": t(f"fig.{n}"), "method": "update", "args": [{"visible": [w == n for w in which]}]}
               for n in TRACE_SETS]
    layout = base_layout(t("trace_grads.title") + ("" if data else t("fig.none")), xaxis={"title": {"text": t("fig.update")}},
                         yaxis={"title": {"text": t("fig.ratio")}, "type": "log", "exponentformat": "power"},
                         updatemenus=_menu(buttons),
                         margin={"l": 70, "r": 20, "t": 100, "b": 50}, height=560, legend={"orientation": "h", "y": -0.25})
    alt = t("trace_grads.alt")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 5. every block's gradient over the first updates

def _superscript(k: int) -> str:
    return "10" + str(k).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))


def trace_blocks(results: Results, lang: str) -> dict:
    """One heatmap per traced run and seed (a menu picks one): update across, block up, the colour the block's
    gradient norm before clipping on a log scale that every view shares, so that two views compare by colour."""
    t = WORDS.lang(lang)
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
                     "hovertemplate": t.template("fig.block_hover") + "<extra></extra>",   # Plotly fills its %{…}
                     "zmin": lo, "zmax": hi, "colorscale": "Viridis",
                     "colorbar": {"title": {"text": t("fig.grad")}, "tickvals": list(range(lo, hi + 1)),
                                  "ticktext": [_superscript(k) for k in range(lo, hi + 1)], "thickness": 12}})
        buttons.append({"label": f"{run_label(results, run, t, depth=True)} · {t('fig.seed')} {r.config.seed}", "method": "update",
                        "args": [{"visible": [j == i for j in range(len(views))]}]})
    layout = base_layout(t("trace_blocks.title") + ("" if data else t("fig.none")), xaxis={"title": {"text": t("fig.update")}},
                         yaxis={"title": {"text": t("fig.block")}, "dtick": 1},
                         updatemenus=_menu(buttons, dropdown=True),
                         margin={"l": 70, "r": 20, "t": 100, "b": 50}, height=520)
    alt = t("trace_blocks.alt")
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 7. the training loss at every step

LOSS_SETS = {"four": SWEEP, "twelve": DEEP, "long": LONG + EPS}


def train_loss(results: Results, lang: str) -> dict:
    """The training loss at every step, seed by seed, one view per set of runs (4 layers, 12 layers, the longer
    runs and the ε control), with the unigram loss as a line: every run reaches it early, and the
    runs differ in whether and when they leave it."""
    t = WORDS.lang(lang)
    data, which = [], []
    for name, runs in LOSS_SETS.items():
        for ln in _per_seed_lines(results, _present(results, runs), t, lambda r: r.curves.step,
                                  lambda r: r.curves.train_loss, width=1):
            ln["visible"] = name == "four"
            data.append(ln)
            which.append(name)
    unigram = _unigram(results)
    steps = max((r.config.max_steps for rs in results.runs.values() for r in rs
                 if r.run in SWEEP + DEEP + LONG + EPS), default=400)
    if unigram is not None:
        data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [unigram, unigram],
                     "name": f"{t('fig.unigram')} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash",
                                                                              "width": 2}, "hoverinfo": "name"})
        which.append(None)   # on every view
    buttons = [{"label": t(f"fig.{n}"), "method": "update",
                "args": [{"visible": [w is None or w == n for w in which]}]} for n in LOSS_SETS]
    layout = base_layout(t("train_loss.title") + ("" if len(data) > 1 else t("fig.none")),
                         xaxis={"title": {"text": t("fig.step")}},
                         yaxis={"title": {"text": t("fig.train_loss")}, "range": [5.0, 7.8]},
                         updatemenus=_menu(buttons), margin={"l": 70, "r": 20, "t": 100, "b": 50}, height=560,
                         legend={"orientation": "h", "y": -0.25})
    return {"data": data, "layout": layout, "alt": t("train_loss.alt")}


# ---------------------------------------------------------------- 8. the first updates, probed from outside

PROBE_VIEWS = {   # quantity → (per probed state or per update, the value for a result)
    "branch_ratio": lambda r: (r.first_updates.step, [branch_ratio(r.first_updates, k) for k in range(len(r.first_updates.step))]),
    "logit_change": lambda r: (r.first_updates.step[1:], r.first_updates.logit_change),
    "norm_rms": lambda r: (r.first_updates.step[1:],
                           [max((row[i] for i in post_norm_inputs(r) if row[i] is not None), default=None)
                            for row in r.first_updates.norm_input_rms[1:]]),
}


def first_updates(results: Results, lang: str) -> dict:
    """One view per quantity and depth (a menu picks one): the largest branch-to-stream RMS ratio over the blocks,
    the change of the logits each update makes (per update, not accumulated since init), and the largest RMS of a
    Post-LN norm's input; Post-LN and Pre-Norm, with and without warmup, seed by seed, on log axes."""
    t = WORDS.lang(lang)
    data, which, views = [], [], []
    for q in PROBE_VIEWS:
        for depth, runs in (("four", SWEEP), ("twelve", DEEP + EPS)):
            # every seed whose first updates were probed (a seed not yet retrained with the probes draws no line)
            present = [run for run in _present(results, runs) if any(x.first_updates for x in results.runs[run])]
            if q == "norm_rms":
                present = [run for run in present if results.runs[run][0].config.norm_placement == "post"]
            view = f"{q}.{depth}"
            views.append(view)
            for ln in _per_seed_lines(results, present, t, lambda r: PROBE_VIEWS[q](r)[0],
                                      lambda r: PROBE_VIEWS[q](r)[1], keep=lambda r: r.first_updates is not None):
                data.append(ln)
                which.append(view)
    first = which[0] if which else None
    for d, w in zip(data, which):
        d["visible"] = w == first
    buttons = [{"label": t(f"fu.view.{v.split('.')[0]}") + " · " + t(f"fig.{v.split('.')[1]}"), "method": "update",
                "args": [{"visible": [w == v for w in which]}, {"yaxis.title.text": t(f"fu.axis.{v.split('.')[0]}")}]}
               for v in views]
    layout = base_layout(t("first_updates.title") + ("" if data else t("fig.none")),
                         xaxis={"title": {"text": t("fig.update")}},
                         yaxis={"title": {"text": t("fu.axis.branch_ratio")}, "type": "log", "exponentformat": "power"},
                         updatemenus=_menu(buttons, dropdown=True), margin={"l": 70, "r": 20, "t": 100, "b": 50},
                         height=580, legend={"orientation": "h", "y": -0.25})
    return {"data": data, "layout": layout, "alt": t("first_updates.alt")}


FIGURES = (Figure("depth-probe", depth_probe), Figure("warmup-sweep", warmup_sweep), Figure("update-size", update_size),
           Figure("trace-grads", trace_grads), Figure("trace-blocks", trace_blocks), Figure("deep-runs", deep_runs),
           Figure("train-loss", train_loss), Figure("first-updates", first_updates))
