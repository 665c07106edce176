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
from course.core.words import LangWords
from lessons.c4_residual.numbers import NO_RESIDUAL, NO_SCALING, RUNS, WORDS, sci

COLORS = {BASELINE: "#3b6fd4", NO_RESIDUAL: "#d9534f", NO_SCALING: "#2ca58d"}  # mid-tones, both palettes
SEED_MARKERS = ("circle", "square", "diamond")   # a run drawn per seed: a marker and a line style per seed, so the
SEED_DASH = ("solid", "longdash", "longdashdot") # legend tells them apart; long dashes, unlike the init lines' dots
PER_SEED = (NO_SCALING,)   # runs the loss chart draws seed by seed
def present(results: Results) -> dict:
    return {name: results.runs[name] for name in RUNS if name in results.runs}


def spread(columns: list[list[float]]) -> tuple[list[float], list[float], list[float]]:
    """Mean, smallest and largest of each column (one value per seed)."""
    return ([sum(c) / len(c) for c in columns], [min(c) for c in columns], [max(c) for c in columns])


def seeds_note(runs: dict, t: LangWords) -> str:
    n = min(len(rs) for rs in runs.values())
    return t("seeds", n=n)


def run_label(name: str, t: LangWords) -> str:
    return t(f"run.{name}")


# ---------------------------------------------------------------- 1. validation loss


def loss_curves(results: Results, lang: str) -> dict:
    t, runs = WORDS.lang(lang), present(results)
    data = []
    for name, rs in runs.items():
        if name in PER_SEED:                                   # one line per seed, no band, no mean
            for i, r in enumerate(rs):
                data.append({"type": "scatter", "mode": "lines+markers", "x": r.val.step, "y": r.val.loss,
                             "legendgroup": name, "marker": {"size": 6, "symbol": SEED_MARKERS[i % len(SEED_MARKERS)]},
                             "name": f"{run_label(name, t)}{t('seed', s=r.config.seed)}",
                             "line": {"color": COLORS[name], "width": 2, "dash": SEED_DASH[i % len(SEED_DASH)]}})
            continue
        steps = min((r.val.step for r in rs), key=len)       # a diverged seed stops early
        cols = [[r.val.loss[i] for r in rs if r.val.loss[i] is not None] for i in range(len(steps))]
        mean, lo, hi = spread(cols)
        data += band(steps, lo, hi, COLORS[name], name)
        data.append({"type": "scatter", "mode": "lines+markers", "x": steps, "y": mean, "legendgroup": name,
                     "name": run_label(name, t), "line": {"color": COLORS[name], "width": 1.5}})
    any_run = next(iter(runs.values()))
    unigram, last = any_run[0].corpus.unigram_floor, any_run[0].config.max_steps
    data.append({"type": "scatter", "mode": "lines", "x": [0, last], "y": [unigram, unigram], "hoverinfo": "name",
                 "name": f"{t('unigram')} {fixed(unigram, 3)}", "line": {"color": REFERENCE_COLOR, "dash": "dash"}})
    layout = base_layout(f"{t('loss.title')}<br><sub>{seeds_note(runs, t)}{t('per_seed') if NO_SCALING in runs else ''}</sub>",
                         xaxis={"title": {"text": t("step")}},
                         yaxis={"title": {"text": t("loss")}}, margin={"l": 60, "r": 20, "t": 80, "b": 50})
    ends = {name: [r.metrics.final_val_loss for r in rs if r.metrics.final_val_loss is not None]
            for name, rs in runs.items()}
    parts = [f"{run_label(n, t)} {fixed(min(v), 3)}–{fixed(max(v), 3)}" for n, v in ends.items() if v]
    alt = t("loss.alt", runs=len(runs), unigram=fixed(unigram, 3), finals=t.join("clauses", parts))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the stream's RMS per layer


def stream_rms(results: Results, lang: str) -> dict:
    t, runs = WORDS.lang(lang), present(results)
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
                                 "name": f"{t('run_when', run=run_label(name, t), when=t(when))}"
                                         f"{t('seed', s=r.config.seed)}",
                                 "line": {"color": COLORS[name], "width": 2, "dash": SEED_DASH[i % len(SEED_DASH)]}})
                described.append(f"{t('run_when', run=run_label(name, t), when=t(when))} "
                                 f"{significant(mean[0], 2)} → "
                                 f"{t.join('list', [significant(ys[-1], 2) for ys in per_layer])}")
                continue
            data += band(xs, lo, hi, COLORS[name], group)
            data.append({"type": "scatter", "mode": "lines+markers", "x": xs, "y": mean, "legendgroup": group,
                         "name": t("run_when", run=run_label(name, t), when=t(when)),
                         "line": {"color": COLORS[name], "dash": "dot" if when == "init" else "solid"}})
            described.append(f"{t('run_when', run=run_label(name, t), when=t(when))} "
                             f"{significant(mean[0], 2)} → {significant(mean[-1], 2)}")
    layout = base_layout(f"{t('rms.title')}<br><sub>{seeds_note(runs, t)}{t('per_seed_end') if NO_SCALING in runs else ''}</sub>",
                         xaxis={"title": {"text": t("layer")}, "dtick": 1},
                         yaxis={"title": {"text": t("rms")}, "type": "log", "exponentformat": "power", "dtick": 1},
                         margin={"l": 60, "r": 20, "t": 80, "b": 50}, height=520)   # dtick: decades only, no "2" beside "10⁻³"
    alt = t("rms.alt", described=t.join("clauses", described))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. per-block gradient norms


def block_grads(results: Results, lang: str) -> dict:
    """At init (the question of lesson 2's naive plan) and at the end of training (where a stack without
    the residual has starved its lower blocks): bars per block, pale at init, full at the end."""
    t, runs = WORDS.lang(lang), present(results)
    data, described = [], []
    for name, rs in runs.items():
        for when in ("init", "end"):
            per_block = [list(c) for c in zip(*(getattr(r, when).block_grad_norm for r in rs))]
            mean, lo, hi = spread(per_block)
            data.append({"type": "bar", "x": [f"{t('block')} {i + 1}" for i in range(len(mean))], "y": mean,
                         "name": t("run_when", run=run_label(name, t), when=t(when)), "legendgroup": name,
                         "marker": {"color": COLORS[name], "opacity": 0.45 if when == "init" else 1.0,
                                    **({"pattern": {"shape": "/"}} if when == "init" else {})},  # its own swatch
                         "error_y": {"type": "data", "symmetric": False, "array": [h - m for h, m in zip(hi, mean)],
                                     "arrayminus": [m - low for low, m in zip(lo, mean)]}})
            described.append(f"{t('run_when', run=run_label(name, t), when=t(when))} "
                             + t.join("list", [sci(m) for m in mean]))
    layout = base_layout(f"{t('grads.title')}<br><sub>{seeds_note(runs, t)}</sub>", barmode="group", height=520,
                         yaxis={"title": {"text": t("grad")}, "type": "log", "exponentformat": "power"},
                         xaxis={"title": {"text": t("block")}}, margin={"l": 60, "r": 20, "t": 80, "b": 50})
    alt = t("grads.alt", described=t.join("clauses", described))
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("residual-loss", loss_curves), Figure("residual-stream-rms", stream_rms),
           Figure("residual-block-grads", block_grads))
