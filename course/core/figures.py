"""Figure helpers and the figures stage: every unit's figures, written as figures/NAME.json.

Each file holds one {data, layout, alt} per language; docs/assets/js/figures.js draws it with the site's
local plotly.js and applies the reader's palette (text and grid colors) at draw time, so trace colors are
mid-tones readable on both backgrounds.
"""
from __future__ import annotations

import json
from pathlib import Path

from course.core.files import write_atomic
from course.core.paths import FIGURES
from course.core.registry import LANGS
from course.core.units import Units

REFERENCE_COLOR = "#888888"   # reference lines (the unigram baseline) in every figure
# fixed dark text on light buttons: readable in both palettes (figures.js themes only axes and text)
BUTTON_STYLE = {"bgcolor": "#e8ebf2", "bordercolor": "#8a90a6", "font": {"color": "#1f2330"}}


def base_layout(title: str, **kw) -> dict:
    layout = {"title": {"text": title, "font": {"size": 15}}, "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
              "hovermode": "closest", "legend": {"orientation": "h", "y": -0.2}, "height": 460}
    layout.update(kw)
    return layout


def band(x: list, lo: list, hi: list, color: str, group: str, **kw) -> list[dict]:
    """Two traces that shade the area between lo and hi (the spread over seeds), without a legend entry."""
    edge = {"type": "scatter", "mode": "lines", "x": x, "line": {"width": 0, "color": color}, "legendgroup": group,
            "showlegend": False, "hoverinfo": "skip", **kw}
    return [{**edge, "y": hi}, {**edge, "y": lo, "fill": "tonexty", "fillcolor": color + "33"}]


def build_figures(units: Units, sources) -> dict[str, dict]:
    return {fig.name: {lang: fig.build(sources, lang) for lang in LANGS} for _, fig in units.figures()}


def write_figures(units: Units, sources, out: Path = FIGURES) -> list[Path]:
    paths = []
    for name, fig in build_figures(units, sources).items():
        path = out / f"{name}.json"
        write_atomic(path, json.dumps(fig, ensure_ascii=False, separators=(",", ":")) + "\n")
        paths.append(path)
    return paths
