"""Every widget fits a phone-width screen (390 px): the page does not scroll sideways, nothing overflows the
widget, and no axis title of a chart lies on a plot area or on another title. (That every chart draws with
the vendored plotly.js bundle is checked where every chart is drawn anyway: tests/test_chart_layout.py.)"""
import pytest

from conftest import LANGS, lesson_path, page_url, placed

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


@pytest.mark.parametrize("lang", LANGS)
def test_every_widget_fits_a_phone_width_screen(open_page, units, lang):
    """Every lesson page that places a widget (a lesson without widgets has none to fit)."""
    problems = []
    with_widgets = [u for u in units.lessons if placed(u.pages[0], "widget", lang)]
    assert with_widgets, "no lesson page places a widget: nothing to fit (this test is about widgets)"
    for unit in with_widgets:
        v = open_page(lesson_path(unit, lang), width=PHONE)
        page = v.page
        roots = page.locator("[data-widget]")
        assert roots.count() == len(placed(unit.pages[0], "widget", lang)), \
            f"{lesson_path(unit, lang)}: {roots.count()} widgets drawn for {placed(unit.pages[0], 'widget', lang)}"
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
