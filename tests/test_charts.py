"""Every chart the site draws (the lessons' figures, the notebooks' figures, the charting widgets) draws with
the vendored plotly.js bundle in both palettes, each trace type one the bundle has; and every widget fits a
phone-width screen (390 px): the page does not scroll sideways, nothing overflows the widget, and no axis
title of a chart lies on a plot area or on another title."""
import re

import pytest

from conftest import LANGS, lesson_path
from course.paths import PLOTLY_JS, PLOTLY_URI

PHONE = 390
VENDORED_VERSION = re.search(r"plotly\.js \(cartesian - minified\) v([\d.]+)", PLOTLY_JS.read_text(encoding="utf-8")[:300]).group(1)

SHOW_TAB_OF = """el => {  // a widget or figure in a content tab that is not selected: select that tab
    const block = el.closest('.tabbed-block');
    if (!block || block.offsetParent !== null) return false;
    const index = Array.from(block.parentElement.children).indexOf(block);
    block.closest('.tabbed-set').querySelectorAll(':scope > .tabbed-labels > label')[index].click();
    return true;
}"""

CHARTS_DRAWN = """() => [...document.querySelectorAll('.js-plotly-plot, .plotly-figure, .cw-chart')]
                     .every(e => e.querySelector('.main-svg'))"""

TRACE_TYPES = """() => {
    const known = new Set(Object.keys(Plotly.PlotSchema.get().traces));
    const plots = [...document.querySelectorAll('.js-plotly-plot')];
    return {plots: plots.length,
            unknown: plots.flatMap(gd => gd.data.map(t => t.type || 'scatter').filter(t => !known.has(t))),
            // a line or bar chart draws its traces as .trace groups; a heatmap draws an image in its .hm group
            empty: plots.filter(gd => !gd.querySelector('.trace, .hm image')).map(gd => gd.getAttribute('aria-label'))};
}"""

# each chart's axis titles must lie off every plot area and off each other
OVERLAPS = """root => {
    const box = e => e.getBoundingClientRect();
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const found = [];
    root.querySelectorAll('.js-plotly-plot').forEach(gd => {
        const titles = [...gd.querySelectorAll('g[class^="g-"][class$="title"] text')]
            .filter(t => t.textContent.trim() && !t.closest('.g-gtitle'));
        const areas = [...gd.querySelectorAll('.nsewdrag')];
        titles.forEach((t, i) => {
            areas.forEach(a => meet(box(t), box(a)) &&
                found.push(`axis title "${t.textContent}" lies on the plot area ${a.dataset.subplot}`));
            titles.slice(i + 1).forEach(u => meet(box(t), box(u)) &&
                found.push(`axis titles "${t.textContent}" and "${u.textContent}" overlap`));
        });
    });
    return found;
}"""


def pages_with_charts(site_dir) -> list[str]:
    found = []
    for page in sorted(site_dir.rglob("index.html")):
        if PLOTLY_URI.rsplit("/", 1)[-1] in page.read_text(encoding="utf-8"):
            found.append(str(page.parent.relative_to(site_dir)).replace(".", "") + "/")
    return [p.lstrip("/") for p in found]


def reveal_all(page):
    for el in page.locator("[data-widget], .plotly-figure").all():
        el.evaluate(SHOW_TAB_OF)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_chart_draws_with_the_vendored_bundle(site_dir, open_page, scheme):
    paths = pages_with_charts(site_dir)
    assert any("normalization-lab" in p for p in paths) and any(p.endswith("c4/normalization/") for p in paths)
    for path in paths:
        v = open_page(path, scheme=scheme)
        reveal_all(v.page)
        v.page.wait_for_function(CHARTS_DRAWN, timeout=30000)
        assert v.page.evaluate("() => !!window.Plotly && Plotly.version") == VENDORED_VERSION
        got = v.page.evaluate(TRACE_TYPES)
        assert got["plots"] > 0 and got["unknown"] == [] and got["empty"] == [], (path, got)
        assert any(PLOTLY_URI in u for u in v.requested), path  # the vendored file, nothing else
        v.check_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_every_widget_fits_a_phone_width_screen(open_page, units, lang):
    problems = []
    for unit in units.lessons:
        v = open_page(lesson_path(unit, lang), width=PHONE)
        page = v.page
        roots = page.locator("[data-widget]")
        assert roots.count() > 0
        for i in range(roots.count()):
            w = roots.nth(i)
            name = f'{lesson_path(unit, lang)} {w.get_attribute("data-widget")} {w.get_attribute("data-mode") or ""}'
            w.evaluate(SHOW_TAB_OF)
            w.scroll_into_view_if_needed()
            v.settle()  # a chart drawn while hidden follows its new width
            page.wait_for_function(CHARTS_DRAWN, timeout=30000)
            box = w.bounding_box()
            if box["x"] < 0 or box["x"] + box["width"] > PHONE + 0.5:
                problems.append(f"{name}: spans x {box['x']:.0f}..{box['x'] + box['width']:.0f} of {PHONE}")
            inner = w.evaluate("e => [e.scrollWidth, e.clientWidth]")
            if inner[0] > inner[1] + 1:
                problems.append(f"{name}: its content is {inner[0]} px wide in {inner[1]} px")
            problems += [f"{name}: {p}" for p in w.evaluate(OVERLAPS)]
        page_width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        if page_width[0] > page_width[1]:
            problems.append(f"{lesson_path(unit, lang)}: the page scrolls sideways ({page_width[0]} px in {page_width[1]})")
        v.check_clean()
    assert problems == [], "\n".join(problems)


def test_the_ready_wait_waits_for_a_chart_being_drawn(open_page):
    """Visit.settle, which the browser tests wait on instead of a pause, sees a draw under way: CW.draw counts
    as busy until its last fitting pass is done, and a draw that never ends keeps the page from settling."""
    v = open_page("c4/normalization/")
    busy_then_idle = v.page.evaluate("""() => {
        const gd = document.querySelector('.plotly-figure');
        const drawn = CW.draw(gd, gd.data, gd.layout, {displayModeBar: false});
        const busy = !CW.idle();
        return drawn.then(() => [busy, CW.idle()]);
    }""")
    assert busy_then_idle == [True, True]
    v.page.evaluate("() => { CW.track(new Promise(() => {})); }")
    with pytest.raises(AssertionError, match="chart draws"):
        v.settle(timeout_ms=500)
