"""The FFN lesson's figures: where the anchor's parameters go (its parameter ledger, from the official
config), and the small model's two experiments from the committed results of every seed: the FFN width
sweep (final validation loss against parameters) and GELU 4d against SwiGLU 8d/3 at equal parameters.
The measured charts draw every seed as its own marker or line and average nothing: GELU 4d's seeds split
into two groups, which a mean with a band would hide."""
from __future__ import annotations

from course.common.formulas import anchor_ledger
from course.common.measured import BASELINE, Results
from course.common.schema import load_inputs
from course.core.figures import base_layout
from course.core.formats import fixed, integer, scientific
from course.core.units import Figure
from course.core.words import LangWords
from lessons.c4_ffn.numbers import EQUAL_PAIR, SWEEP, WORDS

# ---------------------------------------------------------------- 1. where the anchor's parameters go
# the ledger's parts as the page names them (the words part.PART), largest first in the chart
FFN_COLOR, OTHER_COLOR = "#e08e0b", "#6f86c9"


def ledger(results: Results, lang: str) -> dict:
    t = WORDS.lang(lang)
    a = load_inputs().anchor
    parts = anchor_ledger(a.config.text_config, a.config.vision_config)
    total = sum(parts.values())
    order = sorted(parts, key=parts.get)          # horizontal bars: the largest on top
    share = {p: parts[p] / total for p in order}
    shown = {p: fixed(100 * share[p], 1 if share[p] >= 0.001 else 4) + "%" for p in order}
    name = {p: t(f"part.{p}") for p in order}
    scale = float(t("ledger.axis_scale"))   # the count each language reads parameters in: 亿 (1e8), billions (1e9)
    data = [{"type": "bar", "orientation": "h", "y": [name[p] for p in order],
             "x": [parts[p] / scale for p in order], "text": [shown[p] for p in order], "textposition": "outside",
             "cliponaxis": False,
             "marker": {"color": [FFN_COLOR if p == "ffn" else OTHER_COLOR for p in order]},
             "hovertext": [t("ledger.hover", part=name[p], n=integer(parts[p]), shown=shown[p]) for p in order],
             "hoverinfo": "text", "showlegend": False}]
    title = t("ledger.title", anchor=a.name, in_1e8=fixed(total / 1e8, 0), in_1e9=fixed(total / 1e9, 1))
    layout = base_layout(title, height=420, margin={"l": 220, "r": 70, "t": 60, "b": 50},
                         xaxis={"title": {"text": t("ledger.axis")}}, yaxis={"automargin": True})
    # no space after a part whose name ends in a full-width parenthesis
    parts_text = t.join("clauses", [f"{name[p]}{'' if name[p].endswith('）') else ' '}{shown[p]}" for p in reversed(order)])
    alt = t("ledger.alt", anchor=a.name, total=integer(total), parts=parts_text)
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 2. the width sweep

COLORS = {"c1_gelu_ratio2": "#8e5cc7", "c1_gelu_ratio4": "#3b6fd4", "c1_gelu_ratio8": "#2ca58d", BASELINE: "#c27400"}
SEED_DASH = ("solid", "dash", "dot")        # seed 1, 2, 3 of a run, in seed order
SEED_SYMBOL = ("circle", "square", "triangle-up")
def run_label(name: str, runs, t: LangWords) -> str:
    r = runs[0]
    if r.config.ffn_type == "gelu":
        return t("gelu", w=integer(r.ffn_hidden), r=fixed(r.config.ffn_ratio, 0))
    return t("swiglu", w=integer(r.ffn_hidden))


def finals(runs) -> list[float]:
    return [r.metrics.final_val_loss for r in runs if r.metrics.final_val_loss is not None]


def seed_finals_text(name: str, results: Results, t: LangWords) -> str:
    """'GELU, d_ff = 512 (4d): seed 1337 5.096, seed 1338 5.059, seed 1339 5.631' for the text alternatives."""
    rs = results.runs[name]
    seeds = t("comma").join(f"{t('seed', s=r.config.seed)} {fixed(r.metrics.final_val_loss, 3)}"
                            for r in rs if r.metrics.final_val_loss is not None)
    return f"{run_label(name, rs, t)}{t('colon')}{seeds}"


def width_sweep(results: Results, lang: str) -> dict:
    """Final loss against parameters, every seed its own marker; the sweep's seeds each joined by a thin line
    across the three widths (the notes compare seed by seed, so the chart draws the pairs they compare)."""
    t = WORDS.lang(lang)
    names = [n for n in (*SWEEP, BASELINE) if n in results.runs]
    sweep = [n for n in SWEEP if n in results.runs]
    data = []
    seeds = sorted({r.config.seed for n in names for r in results.runs[n]})
    for i, seed in enumerate(seeds):
        pts = [(results.runs[n][0].parameters, r.metrics.final_val_loss, n) for n in sweep
               for r in results.runs[n] if r.config.seed == seed and r.metrics.final_val_loss is not None]
        if len(pts) > 1:
            data.append({"type": "scatter", "mode": "lines", "x": [x for x, _, _ in pts], "y": [y for _, y, _ in pts],
                         "showlegend": False, "hoverinfo": "skip",
                         "line": {"color": COLORS["c1_gelu_ratio4"], "width": 1, "dash": SEED_DASH[i % 3]}})
    for name in names:
        rs, color = results.runs[name], COLORS[name]
        label = run_label(name, rs, t)
        ok = [r for r in rs if r.metrics.final_val_loss is not None]
        data.append({"type": "scatter", "mode": "markers", "x": [r.parameters for r in ok],
                     "y": [r.metrics.final_val_loss for r in ok], "name": label, "legendgroup": name,
                     "marker": {"color": color, "size": 9, "opacity": 0.85,
                                "symbol": ["diamond" if name == BASELINE else SEED_SYMBOL[seeds.index(r.config.seed) % 3]
                                           for r in ok]},
                     "hovertext": [f"{label}{t('comma')}{t('seed', s=r.config.seed)}: {integer(r.parameters)} "
                                   f"{t('params')}{t('comma')}{fixed(r.metrics.final_val_loss, 3)}" for r in ok],
                     "hoverinfo": "text"})
    missing = [n for n in (*SWEEP, BASELINE) if n not in results.runs]
    sub = t("sweep_sub") + (t("missing") + " " + ", ".join(missing) if missing else "")
    lrs = sorted({r.config.lr for n in names for r in results.runs[n]})
    title = t("sweep.title", lr=" / ".join(scientific(x) for x in lrs))
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", height=460,
                         xaxis={"title": {"text": t("params")}}, yaxis={"title": {"text": t("loss")}})
    parts = [seed_finals_text(n, results, t) for n in names if finals(results.runs[n])]
    alt = t("sweep.alt", finals=t.join("clauses", parts) if parts else t("sweep.none"))
    return {"data": data, "layout": layout, "alt": alt}


# ---------------------------------------------------------------- 3. GELU 4d against SwiGLU 8d/3

def gelu_vs_swiglu(results: Results, lang: str) -> dict:
    """Validation loss against step, one line per seed of each run: GELU 4d's seeds do not agree (two end
    low, one high), and a mean with a band would hide which seed went where."""
    t = WORDS.lang(lang)
    names = [n for n in EQUAL_PAIR if n in results.runs]
    data, parts = [], []
    for name in names:
        rs, color = results.runs[name], COLORS[name]
        label = f"{run_label(name, rs, t)}{t('comma')}{integer(rs[0].parameters)} {t('params')}"
        for i, r in enumerate(rs):
            seed = t("seed", s=r.config.seed)
            steps = [s for s, v in zip(r.val.step, r.val.loss) if v is not None]
            losses = [v for v in r.val.loss if v is not None]
            data.append({"type": "scatter", "mode": "lines+markers", "x": steps, "y": losses,
                         "name": f"{label}{t('comma')}{seed}", "legendgroup": name,
                         "line": {"color": color, "width": 1.5, "dash": SEED_DASH[i % 3]},
                         "marker": {"color": color, "size": 5, "symbol": SEED_SYMBOL[i % 3]},
                         "hovertemplate": f"{label}{t('comma')}{seed}<br>%{{x}}{t('colon')}%{{y:.3f}}<extra></extra>"})
        if finals(rs):
            parts.append(seed_finals_text(name, results, t))
    missing = [n for n in EQUAL_PAIR if n not in results.runs]
    sub = t("curves_sub") + (t("missing") + " " + ", ".join(missing) if missing else "")
    lrs = sorted({r.config.lr for n in names for r in results.runs[n]})
    title = t("curves.title", lr=" / ".join(scientific(x) for x in lrs))
    layout = base_layout(f"{title}<br><sub>{sub}</sub>", height=500,
                         xaxis={"title": {"text": t("step")}}, yaxis={"title": {"text": t("val")}})
    alt = t("curves.alt", finals=t.join("clauses", parts) if parts else t("curves.none"))
    return {"data": data, "layout": layout, "alt": alt}


FIGURES = (Figure("ffn-ledger", ledger), Figure("ffn-width-sweep", width_sweep),
           Figure("ffn-gelu-swiglu", gelu_vs_swiglu))
