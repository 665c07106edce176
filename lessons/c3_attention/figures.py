"""The attention lesson's figure: what the runs' attention did during training, from the committed results of
every seed (each run with attn_stats records, at every evaluation, each layer's score std and weight entropy on
one fixed batch). One line per run and seed, the mean over the layers: the scores' std (the causal mean has
none), or the entropy as a share of the uniform weights' (a row of buttons). Without the results, the figure
says they are not there yet."""
from __future__ import annotations

from course.common.measured import Results
from course.core.figures import BUTTON_STYLE, base_layout
from course.core.units import Figure
from lessons.c3_attention.numbers import ATTN_RUNS, WORDS, layer_mean

COLORS = {"c3_baseline": "#3b6fd4", "c3_no_scale": "#c27400", "c3_causal_mean": "#2ca58d"}
SEED_DASH = ("solid", "dash", "dot")
RUN_NAMES = {"c3_baseline": "fig.run.c3_baseline", "c3_no_scale": "fig.run.c3_no_scale",
             "c3_causal_mean": "fig.run.c3_causal_mean"}   # each run's name in the legend
METRICS = ("score_std", "entropy_share")


def series(r, metric: str):
    a = getattr(r, "attention", None)
    if a is None:
        return None
    if metric == "score_std":
        ys = [layer_mean(row) for row in a.score_std]
        return None if all(y is None for y in ys) else (a.step, ys)
    return a.step, [layer_mean([e / a.uniform_entropy for e in row]) for row in a.entropy]


def attention_stats(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    present = [r for r in ATTN_RUNS if r in results.runs]
    data, which = [], []
    for metric in METRICS:
        for run in present:
            for i, r in enumerate(results.runs[run]):
                s = series(r, metric)
                if s is None:
                    continue
                data.append({"type": "scatter", "mode": "lines", "x": s[0], "y": s[1], "legendgroup": run,
                             "name": t("fig.seed", run=t(RUN_NAMES[run]), seed=r.config.seed),
                             "line": {"color": COLORS[run], "dash": SEED_DASH[i % len(SEED_DASH)], "width": 1.6},
                             "visible": metric == METRICS[0]})
                which.append(metric)
    buttons = [{"label": t(f"fig.metric.{m}"), "method": "update",
                "args": [{"visible": [w == m for w in which]},
                         {"yaxis.title.text": t(f"fig.axis.{m}"), "yaxis.type": "log" if m == "score_std" else "linear"}]}
               for m in METRICS]
    layout = base_layout(t("fig.title"), height=480, margin={"l": 60, "r": 20, "t": 110, "b": 60},
                         xaxis={"title": {"text": t("fig.step")}},
                         yaxis={"title": {"text": t("fig.axis.score_std")}, "type": "log"},
                         updatemenus=[{"type": "buttons", "direction": "right", "x": 0, "y": 1.02, "xanchor": "left",
                                       "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 0,
                                       **BUTTON_STYLE}])
    alt = t("fig.alt", runs=len(present)) if len(present) == len(ATTN_RUNS) else t("fig.alt_missing")
    if not data:   # the axes alone, with the annotation below, until the results exist
        data = [{"type": "scatter", "mode": "lines", "x": [0], "y": [None], "showlegend": False, "hoverinfo": "skip"}]
    if len(present) < len(ATTN_RUNS):
        layout["annotations"] = [{"text": t("fig.missing"), "showarrow": False, "xref": "paper", "yref": "paper",
                                  "x": 0.5, "y": 0.5}]
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("attention-stats", attention_stats),)
