"""Figure helpers and the figures stage: every unit's figures, written into figures/.

figures/NAME.json holds one {data, layout, alt} per language the project declares (what the pages' text
alternatives and the tests read), and figures/NAME.LANG.json the one language a page fetches, its numbers to the
digits a chart can show; docs/assets/js/figures.js draws it on the site with the site's local plotly.js and applies the reader's palette (text and grid colors) at draw
time, so trace colors are mid-tones readable on both backgrounds. Beside it, figures/NAME.LANG.html is
the figure on its own, for an author to open or embed: a page with the figure's data and its text
alternative, drawn by the one local plotly.js in figures/ (no CDN), in the reader's light or dark palette.
"""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

from course.core.files import write_atomic
from course.core.project import Paths
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
    return {fig.name: {lang: fig.build(sources, lang) for lang in units.languages} for _, fig in units.figures()}


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


def figure_files(names: list[str], paths: Paths, languages: tuple[str, ...], out: Path | None = None) -> list[Path]:
    """Every file the figures stage writes for these figures (the static renderings through their index)."""
    from course.core.static_figures import INDEX, STATIC
    out = out or paths.figures
    return ([out / f"{n}.json" for n in names] + [out / f"{n}.{lang}.{ext}" for n in names for lang in languages
                                                   for ext in ("json", "html")]
            + [out / paths.plotly_js.name, out / STATIC / INDEX])


SIGNIFICANT = 6   # digits a figure's numbers keep where a reader gets them: more than any chart or hover shows


def sent(value):
    """A figure's value as the site sends it: every float to SIGNIFICANT digits (a trace of a thousand steps
    in full precision is several times the bytes, for digits no chart can show)."""
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT}g}") if math.isfinite(value) else value
    if isinstance(value, list):
        return [sent(v) for v in value]
    if isinstance(value, dict):
        return {k: sent(v) for k, v in value.items()}
    return value


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write_figures(units: Units, sources, paths: Paths, out: Path | None = None) -> list[Path]:
    """Write each figure's data for the site, its standalone pages and its static renderings (one per
    language and palette); return the data files."""
    # imported here: a notebook that imports this module for its helpers has no use for the renderer
    from course.core.static_figures import STATIC, jobs, render
    out = out or paths.figures
    written = []
    figures = build_figures(units, sources)
    for name, fig in figures.items():
        path = out / f"{name}.json"
        write_atomic(path, compact(fig) + "\n")
        written.append(path)
        for lang in units.languages:   # what a page in that language fetches, and the figure on its own
            write_atomic(out / f"{name}.{lang}.json", compact(sent(fig[lang])) + "\n")
            write_atomic(out / f"{name}.{lang}.html", standalone_html(sent(fig[lang]), lang, paths.plotly_js.name))
    plotly = out / paths.plotly_js.name  # one copy beside the pages, shared by all of them
    if not plotly.exists() or plotly.read_bytes() != paths.plotly_js.read_bytes():
        write_atomic(plotly, paths.plotly_js.read_bytes())
    render([job for name, fig in figures.items() for lang in units.languages for job in jobs(f"{name}.{lang}", fig[lang])],
           out / STATIC, paths)
    return written


# The layout check of every drawn chart (tests/test_chart_layout.py, scripts/measure_reader.py): run in a page
# with the element to search under, it returns one entry per visible Plotly chart with the boxes of its title,
# axis titles, legend, plot areas and modebar, and `problems`: text over text, text cut by the chart's box, a
# plot area too small to read, legend entries drawn alike, a dotted trace too faint for its background.
CHART_BOXES = r"""
root => {
  // Every Plotly chart under root: the boxes of its title, axis titles, legend, plot areas, tick labels
  // and modebar, and what is wrong with them (text over text, text cut by the chart's box, a plot area
  // too small to read, legend entries that look alike).
  const R = e => { const b = e.getBoundingClientRect(); return {l: b.left, r: b.right, t: b.top, b: b.bottom, w: b.width, h: b.height}; };
  const meet = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
  const inside = (a, c) => a.l >= c.l - 1 && a.r <= c.r + 1 && a.t >= c.t - 1 && a.b <= c.b + 1;
  const shown = e => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0 && e.textContent.trim() !== ""; };
  const charts = [];
  root.querySelectorAll('.js-plotly-plot').forEach(gd => {
    if (!gd.offsetParent) return;                       // in a closed tab or a collapsed block
    const host = gd.closest('[data-figure]') || gd.closest('[data-widget]');
    const name = host ? (host.dataset.figure || host.dataset.widget + (host.dataset.mode ? ':' + host.dataset.mode : '')) + (host.dataset.figure ? '' : ' #' + [...host.querySelectorAll('.js-plotly-plot')].indexOf(gd)) : gd.id;
    const box = R(gd);
    const title = [...gd.querySelectorAll('.g-gtitle text')].filter(shown).map(R);
    const axisTitles = [...gd.querySelectorAll('g[class^="g-"][class$="title"]:not(.g-gtitle) text')].filter(shown)
      .map(t => ({...R(t), text: t.textContent, axis: t.closest('g').getAttribute('class').slice(2, -5)}));
    const legendBg = gd.querySelector('.legend .bg');
    const legend = legendBg && legendBg.getBoundingClientRect().height > 0 ? R(legendBg) : null;
    const areas = [...gd.querySelectorAll('.nsewdrag')].map(a => ({...R(a), subplot: a.dataset.subplot}));
    const ticks = [...gd.querySelectorAll('g[class$="tick"] > text, g[class$="tick2"] > text')].filter(shown)
      .map(t => { const m = /rotate\((-?[\d.]+)/.exec(t.getAttribute('transform') || '');
                  return {...R(t), text: t.textContent, axis: t.closest('g').getAttribute('class'), angle: m ? +m[1] : 0,
                          len: t.getComputedTextLength(), size: parseFloat(getComputedStyle(t).fontSize)}; });
    // two tick labels meet: their boxes, or for labels turned by the same angle, their turned outlines
    const ticksMeet = (a, b) => {
      if (!a.angle || a.angle !== b.angle) return meet(a, b);
      const th = a.angle * Math.PI / 180, dx = (b.l + b.r - a.l - a.r) / 2, dy = (b.t + b.b - a.t - a.b) / 2;
      const along = Math.abs(dx * Math.cos(th) + dy * Math.sin(th)), across = Math.abs(-dx * Math.sin(th) + dy * Math.cos(th));
      return across < 0.85 * Math.min(a.size, b.size) && along < (a.len + b.len) / 2;
    };
    const mb = gd.querySelector('.modebar');
    const modebar = mb && mb.getBoundingClientRect().width > 0 ? R(mb) : null;
    const problems = [];
    const clip = (what, b) => inside(b, box) || problems.push(`${what} is cut by the chart's box`);
    title.forEach(t => {
      clip('the title', t);
      if (modebar && meet(t, modebar)) problems.push('the modebar lies on the title');
      areas.forEach(a => meet(t, a) && problems.push('the title lies on a plot area'));
      if (legend && meet(t, legend)) problems.push('the title lies on the legend');
    });
    axisTitles.forEach((t, i) => {
      clip(`axis title "${t.text}"`, t);
      areas.forEach(a => meet(t, a) && problems.push(`axis title "${t.text}" lies on plot area ${a.subplot}`));
      if (legend && meet(t, legend)) problems.push(`axis title "${t.text}" lies on the legend`);
      title.forEach(u => meet(t, u) && problems.push(`axis title "${t.text}" lies on the title`));
      axisTitles.slice(i + 1).forEach(u => meet(t, u) && problems.push(`axis titles "${t.text}" and "${u.text}" overlap`));
      ticks.forEach(k => meet(t, k) && problems.push(`axis title "${t.text}" lies on tick label "${k.text}"`));
      if (t.axis.startsWith('y')) {
        const a = areas.find(a => a.subplot.includes(t.axis)) || areas[0];
        if (a && t.h > a.h + 2) problems.push(`axis title "${t.text}" (${Math.round(t.h)} px) is taller than its plot (${Math.round(a.h)} px)`);
      }
    });
    if (legend) {
      clip('the legend', legend);
      areas.forEach(a => meet(legend, a) && problems.push(`the legend lies on plot area ${a.subplot}`));
      ticks.forEach(k => meet(legend, k) && problems.push(`the legend lies on tick label "${k.text}"`));
    }
    areas.forEach(a => (a.h < 120 || a.w < 120) && problems.push(`plot area ${a.subplot} is ${Math.round(a.w)}×${Math.round(a.h)} px`));
    ticks.forEach((k, i) => {
      clip(`tick label "${k.text}"`, k);
      ticks.slice(i + 1).forEach(u => u.axis === k.axis && ticksMeet(k, u) && problems.push(`tick labels "${k.text}" and "${u.text}" overlap`));
    });
    // legend entries must look different: the swatch drawn for each entry (its fill, stroke, dash, opacity)
    const seen = new Map();
    gd.querySelectorAll('.legend .traces').forEach(tr => {
      const label = tr.querySelector('.legendtext');
      const sw = [...tr.querySelectorAll('.legendpoints path, .legendlines path, .legendfill path, .legendundefined path')];
      const sig = sw.map(p => { const s = getComputedStyle(p); return [p.getAttribute('d') ? p.closest('g').getAttribute('class') : '', s.fill, s.fillOpacity, s.stroke, s.strokeOpacity, s.strokeDasharray, s.opacity].join('|'); }).join(';');
      const text = label ? label.textContent : '';
      if (seen.has(sig) && seen.get(sig) !== text) problems.push(`legend entries "${seen.get(sig)}" and "${text}" have the same swatch`);
      seen.set(sig, text);
    });
    // a dotted or dashed trace must stay visible on the page's background: 2 px at least, contrast 3:1
    const bg = (() => { for (let e = gd; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
                          if (c && !/rgba\(.*, 0\)$|transparent/.test(c)) return c; } return 'rgb(255, 255, 255)'; })();
    const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
                                 .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)]; return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
    gd.querySelectorAll('.scatterlayer .trace .js-line').forEach(p => {
      const s = getComputedStyle(p);
      if (!s.strokeDasharray || s.strokeDasharray === 'none') return;
      const tr = p.closest('.trace'), i = [...gd.querySelectorAll('.scatterlayer .trace')].indexOf(tr);
      const name = (gd.data.filter(t => (t.type || 'scatter') === 'scatter' && t.visible !== false && t.visible !== 'legendonly')[i] || {}).name || 'a trace';
      const c = rgb(s.stroke), b = rgb(bg), a = (c[3] == null ? 1 : c[3]) * Number(s.strokeOpacity) * Number(s.opacity);
      const seen = c.slice(0, 3).map((v, k) => a * v + (1 - a) * b[k]);
      if (parseFloat(s.strokeWidth) < 2 || contrast(seen, b) < 3)
        problems.push(`dotted trace "${name}" is faint (${s.strokeWidth}, contrast ${contrast(seen, b).toFixed(1)}:1)`);
    });
    charts.push({name, box, title, axisTitles, legend, areas, modebar, problems: [...new Set(problems)]});
  });
  return charts;
}
"""
