"""The gating lesson's figures, from the committed results of every seed: the attention each layer puts on
the first token (baseline against the gated run, with the uniform-attention reference), and the largest FFN
activation over training (baseline against the clamped run, with the clamp's bound). Both show the spread
over seeds: error bars or a shaded band from the lowest to the highest seed around the mean."""
from __future__ import annotations

from course.common.measured import BASELINE, Results
from course.core.figures import REFERENCE_COLOR, band, base_layout
from course.core.formats import fixed, percent, significant
from course.core.units import Figure
from course.core.words import LangWords
from lessons.c4_gating import formulas as f
from lessons.c4_gating.numbers import CLAMP_RUN, GATE_RUN, SURFACE_DIGITS, WORDS

COLORS = {BASELINE: "#3b6fd4", GATE_RUN: "#d9534f", CLAMP_RUN: "#2ca58d"}
def run_label(run: str, results: Results, t: LangWords) -> str:
    """The run as the legends name it (the words run.RUN), the clamped run with its limit."""
    limit = results.runs[run][0].config.swiglu_limit if run in results.runs else None
    return t(f"run.{run}", limit=fixed(limit, 0) if limit else "")


def over_seeds(series: list[list[float]]) -> tuple[list[float], list[float], list[float]]:
    """Mean, min and max at each position of equally long per-seed series."""
    cols = list(zip(*series))
    return [sum(c) / len(c) for c in cols], [min(c) for c in cols], [max(c) for c in cols]


# ---------------------------------------------------------------- 1. first-token attention per layer


def first_token_attention(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
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
                         "name": f"{run_label(run, results, t)}{t('comma')}{t(when)}", "legendgroup": f"{run}-{when}",
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
                     "name": t("uniform", x=percent(ref, 2)), "hoverinfo": "name",
                     "line": {"color": REFERENCE_COLOR, "dash": "dash"}})
    n_seeds = len(results.runs[runs[0]]) if runs else 0
    sub = t("bars", n=n_seeds) if runs else t("missing")
    layout = base_layout(f"{t('fta.title')}<br><sub>{sub}</sub>", xaxis={"title": {"text": t("layer")}, "dtick": 1},
                         yaxis={"title": {"text": t("fta")}, "tickformat": ".1%", "rangemode": "tozero"},
                         margin={"l": 70, "r": 20, "t": 80, "b": 50})
    parts = []
    for run in runs:
        spans = []
        for when in ("init", "end"):
            mean, lo, hi = means[(run, when)]
            layers = t.join("list", [t("fta.alt.layer", layer=i + 1, mean=percent(m, 1), lo=percent(a, 1), hi=percent(b, 1))
                                     for i, (m, a, b) in enumerate(zip(mean, lo, hi))])
            spans.append(t("fta.alt.when", when=t(f"fta.alt.{when}"), layers=layers))
        label = run_label(run, results, t)
        parts.append(t("fta.alt.run", label=label[:1].upper() + label[1:], spans=t.join("clauses", spans)))
    ref_text = f"{' ' + percent(f.uniform_first_token_share(block), 2) if block else ''}"
    alt = t("fta.alt", seeds=n_seeds, ref=ref_text,
            runs=t.join("sentences", parts) if parts else t("fta.alt.none"))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the largest FFN activation over training


def ffn_activation(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    runs = [r for r in (BASELINE, CLAMP_RUN) if r in results.runs]
    data, peaks = [], {}
    for run in runs:
        rs = results.runs[run]
        x = rs[0].curves.step
        mean, lo, hi = over_seeds([r.curves.ffn_act_max for r in rs])
        mean, lo, hi = ([round(y, 3) for y in ys] for ys in (mean, lo, hi))   # a lighter figure file
        data += band(x, lo, hi, COLORS[run], run)
        data.append({"type": "scatter", "mode": "lines", "x": x, "y": mean, "name": run_label(run, results, t),
                     "legendgroup": run, "line": {"color": COLORS[run], "width": 1.5}})
        peaks[run] = [max(r.curves.ffn_act_max) for r in rs]
    limit = results.runs[CLAMP_RUN][0].config.swiglu_limit if CLAMP_RUN in results.runs else None
    if limit and runs:
        bound = f.swiglu_clamped_max(limit)
        steps = results.runs[runs[0]][0].config.max_steps
        data.append({"type": "scatter", "mode": "lines", "x": [0, steps], "y": [bound, bound], "hoverinfo": "name",
                     "name": t("bound", l=fixed(limit, 0), b=fixed(bound, SURFACE_DIGITS)),
                     "line": {"color": REFERENCE_COLOR, "dash": "dash"}})
    n_seeds = len(results.runs[runs[0]]) if runs else 0
    sub = t("band", n=n_seeds) if runs else t("missing")
    layout = base_layout(f"{t('act.title')}<br><sub>{sub}</sub>", xaxis={"title": {"text": t("step")}},
                         yaxis={"title": {"text": t("act")}, "rangemode": "tozero"},
                         margin={"l": 70, "r": 20, "t": 80, "b": 50})
    parts = [t("act.alt.run", label=run_label(run, results, t), lo=significant(min(p), 3), hi=significant(max(p), 3))
             for run, p in peaks.items()]
    alt = t("act.alt", seeds=n_seeds, peaks=t.join("clauses", parts) or t("act.alt.none"))
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("first-token-attention", first_token_attention), Figure("ffn-activation", ffn_activation))
