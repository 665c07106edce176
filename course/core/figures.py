"""Figure helpers and the figures stage: every unit's figures, written into figures/.

figures/NAME.json holds one {data, layout, alt} per language; docs/assets/js/figures.js draws it on the
site with the site's local plotly.js and applies the reader's palette (text and grid colors) at draw
time, so trace colors are mid-tones readable on both backgrounds. Beside it, figures/NAME.LANG.html is
the figure on its own, for an author to open or embed: a page with the figure's data and its text
alternative, drawn by the one local plotly.js in figures/ (no CDN), in the reader's light or dark palette.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from course.core.files import write_atomic
from course.core.project import Paths
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


# The palettes of the standalone pages: the text and grid colors CW.colors (docs/assets/js/common.js) gives
# the site's charts, on the page colors of Material's default and slate schemes.
PALETTES = {"light": {"fg": "#1f2330", "grid": "#dde1ea", "bg": "#ffffff"},
            "dark": {"fg": "#e6e6ef", "grid": "#3a3f55", "bg": "#1e2129"}}

STANDALONE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
:root {{ color-scheme: light dark; }}
body {{ margin: 1rem auto; max-width: 60rem; padding: 0 1rem; background: {light[bg]}; color: {light[fg]};
       font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "PingFang SC", sans-serif; }}
@media (prefers-color-scheme: dark) {{ body {{ background: {dark[bg]}; color: {dark[fg]}; }} }}
figure {{ margin: 0; }}
#figure {{ width: 100%; min-height: 380px; }}
figcaption {{ font-size: .9rem; line-height: 1.5; }}
</style>
<script src="{plotly}"></script>
</head>
<body>
<figure>
<div id="figure" role="img" aria-label="{title}"></div>
<figcaption>{alt}</figcaption>
</figure>
<script type="application/json" id="figure-data">{data}</script>
<script>
(function () {{
  var palettes = {palettes};
  var c = palettes[window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"];
  var f = JSON.parse(document.getElementById("figure-data").textContent);
  var layout = Object.assign({{}}, f.layout, {{ paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
                                              font: Object.assign({{}}, f.layout.font, {{ color: c.fg }}) }});
  Object.keys(layout).forEach(function (k) {{
    if (/^[xy]axis\\d*$/.test(k)) layout[k] = Object.assign({{ gridcolor: c.grid, zerolinecolor: c.grid, color: c.fg }}, layout[k]);
  }});
  Plotly.newPlot("figure", f.data, layout, {{ responsive: true, displaylogo: false }});
}})();
</script>
</body>
</html>
"""


def standalone_html(fig: dict, lang: str, plotly: str) -> str:
    """One figure in one language as a page of its own, loading plotly.js from `plotly` (a relative URL)."""
    title = fig["layout"].get("title", {}).get("text", "")
    data = json.dumps({"data": fig["data"], "layout": fig["layout"]}, ensure_ascii=False, separators=(",", ":"))
    return STANDALONE.format(lang=lang, title=html.escape(title), alt=html.escape(fig.get("alt", "")),
                             plotly=plotly, palettes=json.dumps(PALETTES), light=PALETTES["light"],
                             dark=PALETTES["dark"], data=data.replace("</", "<\\/"))


def figure_files(names: list[str], paths: Paths, out: Path | None = None) -> list[Path]:
    """Every file the figures stage writes for these figures."""
    out = out or paths.figures
    return ([out / f"{n}.json" for n in names] + [out / f"{n}.{lang}.html" for n in names for lang in LANGS]
            + [out / paths.plotly_js.name])


def write_figures(units: Units, sources, paths: Paths, out: Path | None = None) -> list[Path]:
    """Write each figure's data for the site and its standalone pages; return the data files."""
    out = out or paths.figures
    written = []
    for name, fig in build_figures(units, sources).items():
        path = out / f"{name}.json"
        write_atomic(path, json.dumps(fig, ensure_ascii=False, separators=(",", ":")) + "\n")
        written.append(path)
        for lang in LANGS:
            write_atomic(out / f"{name}.{lang}.html", standalone_html(fig[lang], lang, paths.plotly_js.name))
    plotly = out / paths.plotly_js.name  # one copy beside the pages, shared by all of them
    if not plotly.exists() or plotly.read_bytes() != paths.plotly_js.read_bytes():
        write_atomic(plotly, paths.plotly_js.read_bytes())
    return written
