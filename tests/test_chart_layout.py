"""Every chart the site draws, at a phone's width (390 px) and a desktop's (1280 px), in both languages and
both palettes (each pair of those in one visit): its title, axis titles, legend, tick labels and plot areas, measured in Chromium, lie
clear of each other and inside the chart (course.core.figures.CHART_BOXES says what it checks: no text
over text, no text cut by the chart's box, the modebar off the title, plot areas large enough to read,
legend entries drawn differently, dotted traces visible on the background). With every chart drawn, the
same visit checks that each one drew with the vendored plotly.js bundle, each trace type one the bundle has."""
import re

import pytest

from conftest import LANGS, page_url, placed
from course.core.figures import CHART_BOXES
from course.paths import PLOTLY_JS, PLOTLY_URI
from course.project import units as discover

WIDTHS = [390, 1280]
DRAWN = """() => [...document.querySelectorAll('.plotly-figure, .cw-chart')].every(e => e.querySelector('.main-svg'))
              && [...document.querySelectorAll('[data-widget]')].every(w => w.dataset.ready)"""
VENDORED_VERSION = re.search(r"plotly\.js \(cartesian - minified\) v([\d.]+)", PLOTLY_JS.read_text(encoding="utf-8")[:300]).group(1)
TRACE_TYPES = """() => {
    const known = new Set(Object.keys(Plotly.PlotSchema.get().traces));
    const plots = [...document.querySelectorAll('.js-plotly-plot')];
    return {version: Plotly.version, plots: plots.length,
            unknown: plots.flatMap(gd => gd.data.map(t => t.type || 'scatter').filter(t => !known.has(t))),
            // a line or bar chart draws its traces as .trace groups; a heatmap draws an image in its .hm group
            empty: plots.filter(gd => !gd.querySelector('.trace, .hm image')).map(gd => gd.getAttribute('aria-label'))};
}"""


def chart_pages(site_dir, lang) -> list[str]:
    pages = []
    for page in sorted(site_dir.rglob("index.html")):
        rel = page.parent.relative_to(site_dir).as_posix()
        if (rel.startswith("en") == (lang == "en")) and PLOTLY_URI.rsplit("/", 1)[-1] in page.read_text(encoding="utf-8"):
            pages.append("" if rel == "." else rel + "/")
    return pages


def pages_that_draw(units, lang) -> list[str]:
    """The pages whose Markdown places a figure or a widget that draws with plotly.js."""
    charting = {w.name for _, w in units.widgets() if w.plotly}
    return sorted(page_url(stem, lang) for u in units.all for stem in u.pages
                  if placed(stem, "figure", lang) or set(placed(stem, "widget", lang)) & charting)


def every_chart(v) -> list[dict]:
    """Each chart once, the ones in content tabs too (each tab shown in turn)."""
    page = v.page
    page.wait_for_function(DRAWN, timeout=30000)
    found = {}
    labels = page.locator(".tabbed-labels > label")
    for i in range(-1, labels.count()):
        if i >= 0:
            labels.nth(i).click()
            v.settle()   # a chart shown at a new width is fitted again
        for c in page.evaluate(CHART_BOXES, page.locator("article").element_handle()):
            found.setdefault(c["name"], c)
    return list(found.values())


def bundle_problems(v) -> list[str]:
    """What is wrong with the plotly.js that drew the page's charts (all drawn: every tab has been shown)."""
    got = v.page.evaluate(TRACE_TYPES)
    problems = []
    if got["version"] != VENDORED_VERSION:
        problems.append(f"drawn by plotly.js {got['version']}, not the vendored {VENDORED_VERSION}")
    if got["plots"] == 0:
        problems.append("no chart drawn")
    problems += [f"trace type {t} is not in the bundle" for t in got["unknown"]]
    problems += [f"chart {name} drew no trace" for name in got["empty"]]
    if not any(PLOTLY_URI in u for u in v.requested):
        problems.append(f"plotly.js not loaded from {PLOTLY_URI}")
    return problems


SCHEMES = ["light", "dark"]
# Language, width and palette, each pair of their values in one visit (a pairwise design: four visits of every
# chart page instead of eight). A chart's boxes depend on its text and its width; its palette changes colors
# only, which the color checks (dotted traces on the background, legend entries told apart) read.
VISITS = [(lang, width, SCHEMES[(i + j) % 2]) for i, lang in enumerate(LANGS) for j, width in enumerate(WIDTHS)]


def test_the_visits_see_every_pair_of_language_width_and_palette():
    pairs = lambda a, b: {(v[a], v[b]) for v in VISITS}
    assert pairs(0, 1) == {(lang, w) for lang in LANGS for w in WIDTHS}
    assert pairs(0, 2) == {(lang, s) for lang in LANGS for s in SCHEMES}
    assert pairs(1, 2) == {(w, s) for w in WIDTHS for s in SCHEMES}


@pytest.mark.parametrize("lang,width,scheme", VISITS)
def test_every_chart_fits_its_box_and_draws_with_the_vendored_bundle(site_dir, open_page, units, lang, width, scheme):
    """Every page that loads plotly.js: those whose Markdown places a chart, and the labs that draw one."""
    pages = chart_pages(site_dir, lang)
    expected = pages_that_draw(units, lang)
    assert expected, "no page places a figure or a charting widget"
    assert set(expected) <= set(pages), f"pages that place a chart but load no plotly.js: {sorted(set(expected) - set(pages))}"
    problems = []
    for path in pages:
        v = open_page(path, scheme=scheme, width=width)
        found = every_chart(v)
        if not found:
            problems.append(f"{path}: loads plotly.js and draws no chart")
        for c in found:
            assert c["areas"], f"{path} {c['name']}: no plot area"
            problems += [f"{path} {c['name']}: {p}" for p in c["problems"]]
        problems += [f"{path}: {p}" for p in bundle_problems(v)]
        sideways = v.page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        if sideways > 0:
            problems.append(f"{path}: the page scrolls {sideways} px sideways")
        v.check_clean()
        v.page.close()
    assert problems == [], "\n".join(problems)


def test_the_check_sees_what_the_issue_saw(open_page, units):
    """The check is not blind: a chart drawn the old way (title centered under the modebar, legend at a
    fraction of the plot below it, at 390 px) shows the problems the issue reported (on the first page that
    draws a chart, where plotly.js is loaded)."""
    pages = pages_that_draw(units, "zh")
    assert pages, "no page places a figure or a charting widget"
    v = open_page(pages[0], width=390)
    v.page.wait_for_function(DRAWN, timeout=30000)
    got = v.page.evaluate("""async (check) => {
        const wrap = document.createElement('div'), el = document.createElement('div');
        el.style.width = '358px';
        wrap.appendChild(el);
        document.querySelector('article').appendChild(wrap);
        await Plotly.newPlot(el, [1, 2, 3].map(i => ({x: [1, 2, 3], y: [i, 2 * i, 3 * i], name: 'a long legend entry ' + i,
                                                      line: {dash: i === 1 ? 'dot' : 'solid', width: 1}})),
            {title: {text: 'A long title that a phone cannot hold on one line, centered as plotly.js does'},
             legend: {orientation: 'h', y: -0.2}, xaxis: {title: {text: 'the x-axis title'}}, height: 460,
             margin: {l: 60, r: 20, t: 60, b: 50}},   // the site's old base_layout
            {displaylogo: false});
        const found = (0, eval)('(' + check + ')')(wrap);
        wrap.remove();
        return found.length === 1 ? found[0].problems : null;
    }""", CHART_BOXES)
    assert got and any("cut by the chart's box" in p for p in got), got
    assert any("modebar lies on the title" in p for p in got), got
    assert any("lies on the legend" in p for p in got), got
    assert any("dotted trace" in p for p in got), got


# each plotly.js draw of a lesson's figure, with the geometry it drew: its margins, plot size and height
RECORD_DRAWS = """
Object.defineProperty(window, "Plotly", {configurable: true, set(plotly) {
    const react = plotly.react;
    window.__draws = [];
    plotly.react = function (gd) {
        return Promise.resolve(react.apply(this, arguments)).then(result => {
            const s = gd._fullLayout._size, index = [...document.querySelectorAll(".plotly-figure")].indexOf(gd);
            if (index >= 0) __draws.push([`${gd.dataset.figure} (${index})`,
                                          [s.t, s.b, s.l, s.r, s.w, s.h, gd._fullLayout.height].map(Math.round).join(" ")]);
            return result;
        });
    };
    delete window.Plotly;
    window.Plotly = plotly;
}});
"""


FIGURE_PAGES = [page_url(stem) for u in discover().all for stem in u.pages if placed(stem, "figure")]


@pytest.mark.parametrize("path", FIGURE_PAGES or ["(no page places a figure)"])
def test_a_figure_is_drawn_again_only_to_change_it(open_page, path):
    """The fitting loop (CW.draw) redraws a chart while its text does not fit; a redraw that draws the same
    geometry again is wasted work (as when the margin asked for lies under what the automargin reserves).
    On every page that places a figure."""
    assert FIGURE_PAGES, "no page places a figure (<!-- figure:NAME -->)"
    draws = open_page(path, init_script=RECORD_DRAWS).page.evaluate("() => __draws")
    figures = {}
    for name, geometry in draws:
        figures.setdefault(name, []).append(geometry)
    assert figures, f"{path}: no figure drawn"
    repeated = {name: g for name, g in figures.items() if any(a == b for a, b in zip(g, g[1:]))}
    assert repeated == {}, repeated
