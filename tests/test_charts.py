"""What fits a phone-width screen (390 px) on a lesson page: nothing overflows a widget, no axis title of a
chart lies on a plot area or on another title, every display formula fits or scrolls by itself (the check
runs in tests/test_chart_layout.py's visit of every lesson at that width). (That every chart draws with
the vendored plotly.js bundle is checked where every chart is drawn anyway: tests/test_chart_layout.py.)"""
import pytest

from conftest import LANGS, page_url, placed

PHONE = 390

SHOW_TAB_OF = """el => {  // a widget or figure in a content tab that is not selected: select that tab
    const block = el.closest('.tabbed-block');
    if (!block || block.offsetParent !== null) return false;
    const index = Array.from(block.parentElement.children).indexOf(block);
    block.closest('.tabbed-set').querySelectorAll(':scope > .tabbed-labels > label')[index].click();
    return true;
}"""

CHARTS_DRAWN = """() => [...document.querySelectorAll('.js-plotly-plot, .plotly-figure, .cw-chart')]
                     .every(e => e.querySelector('.main-svg'))"""

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


# display formulas cut at the screen's edge (one that scrolls by itself is focusable: tabindex 0), contents
# entries showing raw TeX, and whether the page scrolls sideways
FORMULAS = """() => ({
    raw: [...document.querySelectorAll('.md-nav__link')].filter(a => a.textContent.includes('\\\\(')).map(a => a.textContent.trim()),
    cut: [...document.querySelectorAll('div.arithmatex')].filter(d => {
        const r = d.getBoundingClientRect();
        return r.right > innerWidth + 1 || r.left < -1 || (d.scrollWidth > d.clientWidth + 1 && d.tabIndex !== 0);
    }).length,
    sideways: document.documentElement.scrollWidth > innerWidth})"""


def phone_problems(v, placed_widgets: list[str]) -> list[str]:
    """What does not fit on a lesson page opened at 390 px (tests/test_chart_layout.py calls this in its visit
    of every lesson at a phone's width): each widget the page places (`placed_widgets`: a lesson may place
    none) must lie inside the screen and its content inside it; each display formula must fit or scroll by
    itself; the contents list must render math, not TeX."""
    page, where = v.page, v.page.url
    problems = []
    formulas = page.evaluate(FORMULAS)
    if formulas != {"raw": [], "cut": 0, "sideways": False}:
        problems.append(f"{where}: formulas {formulas}")
    roots = page.locator("[data-widget]")
    if roots.count() != len(placed_widgets):
        return problems + [f"{where}: {roots.count()} widgets drawn for {placed_widgets}"]
    for i in range(roots.count()):
        w = roots.nth(i)
        name = f'{where} {w.get_attribute("data-widget")} {w.get_attribute("data-mode") or ""}'
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
    return problems


def test_some_lesson_places_a_widget(units):
    """The phone check of widgets has something to check (a lesson may place none; the course has some)."""
    assert any(placed(u.pages[0], "widget", lang) for u in units.lessons for lang in LANGS)


def test_the_ready_wait_waits_for_a_chart_being_drawn(open_page, units):
    """Visit.settle, which the browser tests wait on instead of a pause, sees a draw under way: CW.draw counts
    as busy until its last fitting pass is done, and a draw that never ends keeps the page from settling.
    On the first page that places a figure."""
    stem = next((p for u in units.all for p in u.pages if placed(p, "figure")), None)
    assert stem, "no page places a figure (<!-- figure:NAME -->) to draw"
    v = open_page(page_url(stem))
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
