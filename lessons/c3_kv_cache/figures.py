"""The KV-cache lesson's figure: the table's caches as bars, one per model, split by what the layers keep
(every token, a window, compressed entries, a linear-attention state), at 32k, at 128k or at each model's
maximum context (a row of buttons). Computed from the configs by course/common/kv_cache.py, as the table is."""
from __future__ import annotations

from course.common.kv_cache import plans
from course.common.schema import load_inputs
from course.core.figures import BUTTON_STYLE, base_layout
from course.core.formats import fixed
from course.core.units import Figure
from lessons.c3_kv_cache.numbers import GROUP, GROUPS, LONG, SHORT, WORDS, ordered, size

COLORS = {"every": "#3b6fd4", "window": "#2ca58d", "compressed": "#c27400", "state": "#8e5cc7"}
VIEWS = ("short", "long", "max")


def by_group(plan, context: int) -> dict[str, int]:
    out = {g: 0 for g in GROUPS}
    for p in plan.parts:
        out[GROUP[p.what]] += p.entries_at(context) * 2   # BF16
    return out


def kv_cache_figure(results, lang: str) -> dict:
    t = WORDS.lang(lang)
    inputs = load_inputs()
    found, _ = plans(inputs)
    found = list(reversed(ordered(found, inputs)))      # horizontal bars: the table's first row on top
    names = [t("fig.anchor", name=p.model) if p.model == inputs.anchor.name else p.model for p in found]
    data, which = [], []
    for view in VIEWS:
        contexts = [SHORT if view == "short" else LONG if view == "long" else p.max_context for p in found]
        split = [by_group(p, T) if T else {g: 0 for g in GROUPS} for p, T in zip(found, contexts)]
        totals = [sum(s.values()) for s in split]
        for g in GROUPS:
            if not any(s[g] for s in split):
                continue
            data.append({"type": "bar", "orientation": "h", "y": names, "x": [s[g] / 1e9 for s in split],
                         "name": t(f"fig.group.{g}"), "legendgroup": g, "marker": {"color": COLORS[g]},
                         "visible": view == "long", "showlegend": True,
                         "hovertext": [t("fig.hover", model=n, group=t(f"fig.group.{g}"), size=size(s[g])) for n, s in zip(names, split)],
                         "hoverinfo": "text"})
            which.append(view)
        data.append({"type": "scatter", "mode": "text", "y": names, "x": [x / 1e9 for x in totals],
                     "text": [(" " + size(x) + (t("fig.beyond") if T and (not p.max_context or T > p.max_context) else ""))
                              if T else " " + t("fig.no_max") for x, T, p in zip(totals, contexts, found)],
                     "textposition": "middle right", "cliponaxis": False, "showlegend": False, "hoverinfo": "skip",
                     "visible": view == "long"})
        which.append(view)
    buttons = [{"label": t(f"fig.view.{v}"), "method": "update",
                "args": [{"visible": [w == v for w in which]}, {"xaxis.title.text": t(f"fig.axis.{v}")}]}
               for v in VIEWS]
    layout = base_layout(t("fig.title"), barmode="stack", height=620,
                         margin={"l": 170, "r": 90, "t": 110, "b": 60},
                         xaxis={"title": {"text": t("fig.axis.long")}, "rangemode": "tozero"},
                         yaxis={"automargin": True},
                         updatemenus=[{"type": "buttons", "direction": "right", "x": 0, "y": 1.02, "xanchor": "left",
                                       "yanchor": "bottom", "buttons": buttons, "showactive": True, "active": 1,
                                       **BUTTON_STYLE}])
    long = sorted(((by_group(p, LONG), p.model) for p in found), key=lambda x: sum(x[0].values()))
    alt = t("fig.alt", n=len(found), least=long[0][1], least_size=size(sum(long[0][0].values())),
            most=long[-1][1], most_size=size(sum(long[-1][0].values())),
            ratio=fixed(sum(long[-1][0].values()) / sum(long[0][0].values()), 0))
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("kv-cache", kv_cache_figure),)
