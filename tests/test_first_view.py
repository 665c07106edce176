"""A lesson's first view carries no chart code: plotly.js, a figure's data and a widget start only when a reader
comes near them (docs/assets/js/common.js CW.whenNear), and the formulas arrive rendered (course/core/math.py).
Then scrolling to a figure draws it, and the page is whole once everything has been reached."""
import pytest

from conftest import SETTLED, Visit, page_url
from test_charts import WHOLE

pytestmark = pytest.mark.browser

PAGES = [("c4/normalization", "zh"), ("c8/postln-warmup", "zh"), ("c4/gating", "en")]


@pytest.mark.parametrize("stem,lang", PAGES)
def test_the_first_screen_loads_no_chart_code_and_a_figure_draws_when_reached(browser, server, stem, lang):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        visit = Visit(page, server)
        page.goto(f"{server}/{page_url(stem, lang)}", wait_until="load")
        page.wait_for_timeout(500)   # a frame or two for anything that would start on its own
        first = page.evaluate("""() => ({
            plotly: !!window.Plotly,
            widgets: [...document.querySelectorAll('[data-widget]')].length,
            started: [...document.querySelectorAll('[data-widget]')].filter(w => w.dataset.ready === 'true')
                       .map(w => w.getBoundingClientRect().top),
            figures: document.querySelectorAll('.plotly-figure').length,
            katex: document.querySelectorAll('.arithmatex .katex').length,
            tex: [...document.querySelectorAll('.arithmatex')].filter(e => !e.querySelector('.katex')).length,
            height: innerHeight})""")
        assert first["figures"] and first["katex"], f"{stem}: the page has no figure or no formula to test with"
        assert first["tex"] == 0, f"{stem}: {first['tex']} formulas were not rendered by the build"
        assert not first["plotly"], f"{stem}: plotly.js ran with the first view"
        assert not any("plotly" in u or "/assets/figures/" in u for u in visit.requested), \
            f"{stem}: chart code or data was fetched with the first view: {[u for u in visit.requested if 'plotly' in u or 'figures' in u]}"
        # a widget starts only within a screen's height of the viewport
        assert all(top < 2 * first["height"] + 1 for top in first["started"]), first["started"]
        assert len(first["started"]) < first["widgets"], f"{stem}: every widget started with the first view"

        fig = page.locator(".plotly-figure").first
        fig.scroll_into_view_if_needed()
        fig.locator(".main-svg").first.wait_for(timeout=30000)
        assert any("plotly" in u for u in visit.requested), "the figure drew without the page's plotly.js"
        assert page.evaluate(SETTLED, 30000) is None   # every widget and figure, once reached, is whole
        visit.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("stem,lang", PAGES)
def test_the_fonts_a_page_preloads_are_the_ones_its_formulas_draw_with(browser, server, stem, lang):
    """Each KaTeX font a page preloads (course/core/site.py, KATEX_FIRST_FONTS) is one the page draws with once
    loaded: a preload the page does not use would only take bandwidth from the first view."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        visit = Visit(page, server)
        page.goto(f"{server}/{page_url(stem, lang)}", wait_until="load")
        state = page.evaluate("""async () => {
            await document.fonts.ready;
            const preloaded = [...document.querySelectorAll('link[rel=preload][as=font]')].map(l => l.href);
            const used = [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family + '|' + f.style + '|' + f.weight);
            const fetched = performance.getEntriesByType('resource').map(e => e.name);
            return {preloaded, used, fetched};
        }""")
        assert state["preloaded"], f"{stem}: no font preloaded on a page with formulas"
        for href in state["preloaded"]:
            face = href.rsplit("/KaTeX_", 1)[1].removesuffix(".woff2")          # "Main-Regular", "Math-Italic"
            family, _, style = face.partition("-")
            want = f"KaTeX_{family}|{'italic' if 'Italic' in style else 'normal'}|{'700' if 'Bold' in style else '400'}"
            assert want in state["used"], f"{stem}: preloads {face}, which the page does not draw with: {state['used']}"
            assert state["fetched"].count(href) == 1, f"{stem}: {face} fetched {state['fetched'].count(href)} times"
        visit.check_clean()
    finally:
        ctx.close()


# CW.layOutRest held back (common.js hands it to the load event as it defines it): the test starts it itself
HOLD = """(() => {
    const CW = window.CW = window.CW || {};
    Object.defineProperty(CW, 'layOutRest', {configurable: true,
        set(f) { CW.__pass = f; }, get() { return () => Promise.resolve(); }});
})();"""
# the blocks of the lesson that course.css defers and that show an element: where each is, and whether its
# content is laid out
BLOCKS = """() => {
    const inside = b => [...b.children].find(c => !c.hidden && getComputedStyle(c).display !== 'none');
    return [...document.querySelectorAll('.md-content__inner > *')]
        .filter(b => getComputedStyle(b).contentVisibility === 'auto' && inside(b))
        .map(b => ({top: b.getBoundingClientRect().top, what: b.tagName + '.' + b.className,
                    shown: inside(b).checkVisibility({contentVisibilityAuto: true})}));
}"""
# the pass started: how many blocks still wait once it has taken its first task, and then its end
PASS = """async () => {
    const pass = CW.__pass();
    const waiting = document.querySelectorAll('.md-content__inner > :not(.laid-out)').length;
    await pass;
    return waiting - document.querySelectorAll('.md-content__inner > :not(.laid-out)').length;
}"""
# the tops of the headings and the page's height
WHERE = "() => [...document.querySelectorAll('.md-typeset :is(h2, h3)')].map(h => Math.round(h.getBoundingClientRect().top + scrollY)).concat([document.documentElement.scrollHeight])"


@pytest.mark.parametrize("stem,lang", PAGES)
def test_a_block_far_down_is_laid_out_after_the_load_and_then_the_page_is_whole(browser, server, stem, lang):
    """With scripts, a block of a lesson is laid out when a reader comes near it (docs/assets/course.css); once the
    page has loaded, CW.layOutRest (common.js) lays out the rest, a few blocks per task, after which no heading
    moves when every block is laid out."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.add_init_script(HOLD)
        visit = Visit(page, server)
        visit.goto(page_url(stem, lang))   # settled: widgets and figures near the first screen have started
        blocks = page.evaluate(BLOCKS)
        near = [b for b in blocks if b["top"] < 844]
        far = [b for b in blocks if b["top"] > 3 * 844]
        assert near and far, f"{stem}: no block on the first screen or none three screens down to test with"
        assert all(b["shown"] for b in near), f"{stem}: a block on the first screen was not laid out: {[b['what'] for b in near if not b['shown']]}"
        assert not any(b["shown"] for b in far), \
            f"{stem}: blocks three screens down were laid out with the first view: {[b['what'] for b in far if b['shown']][:5]}"
        assert page.evaluate(PASS) > 0, f"{stem}: the pass laid out every block in its first task"
        after = page.evaluate(WHERE)
        page.add_style_tag(content=WHOLE)
        assert page.evaluate(WHERE) == after, f"{stem}: the headings moved when the page was laid out whole"
        visit.check_clean()
    finally:
        ctx.close()


# where a heading's top is in the view
HEADING_AT = "id => Math.round(document.getElementById(id).getBoundingClientRect().top)"


@pytest.mark.parametrize("stem,lang", PAGES)
def test_a_reload_at_mid_page_on_a_phone_returns_to_the_same_place(browser, server, stem, lang):
    """A browser restores a reloaded page at the same offset in pixels; while blocks above still have guessed
    heights and widgets above have not started, that is elsewhere in the lesson. common.js keeps the reader's
    place instead (overrides/main.html turns the browser's off): a heading three fifths down, 100 px from the
    top of the view before the reload, is there after it, and still once every widget has started."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        visit = Visit(page, server)
        visit.goto(page_url(stem, lang))
        headings = page.evaluate("() => [...document.querySelectorAll('.md-typeset h2[id]')].map(h => h.id)")
        assert len(headings) >= 3, f"{stem}: too few headings to test with"
        target = headings[len(headings) * 3 // 5]
        for _ in range(3):   # a chart drawn as it comes into view may move it: scroll until it holds
            page.evaluate(f"id => scrollTo(0, scrollY + document.getElementById(id).getBoundingClientRect().top - 100)", target)
            page.wait_for_timeout(300)
        assert page.evaluate(HEADING_AT, target) == 100, f"{stem}: could not bring #{target} to 100 px"
        page.reload(wait_until="load")
        page.wait_for_function("() => window.CW && CW.idle()")   # the pass that lays out the rest has ended
        first = page.evaluate(HEADING_AT, target)
        visit.settle()
        then = page.evaluate(HEADING_AT, target)
        assert abs(first - 100) <= 2 and abs(then - 100) <= 2, \
            f"{stem}: #{target} was at 100 px before the reload, at {first} px after it, and at {then} px once every widget had started"
        visit.check_clean()
    finally:
        ctx.close()


# the tallest block of the lesson that is a widget, if it is taller than the view by at least 100 px
TALL_WIDGET = """() => [...document.querySelectorAll('.md-content__inner > [data-widget], .md-content__inner > * > [data-widget]')]
    .map(w => w.closest('.md-content__inner > *')).filter(b => b.getBoundingClientRect().height > innerHeight + 100)
    .sort((a, b) => b.getBoundingClientRect().height - a.getBoundingClientRect().height)[0] || null"""


@pytest.mark.parametrize("stem,lang", PAGES)
def test_a_reload_inside_a_tall_widget_and_a_return_from_a_link_keep_the_place(browser, server, stem, lang):
    """Two places the heading test does not reach: a view that begins inside a widget taller than the screen, with
    the block after it below the view (restored while the widget has not started yet, so once it has, the view
    must be as far into it again), and the place a link within the page leaves, which going back returns to (the
    browser's own return is off)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        visit = Visit(page, server)
        visit.goto(page_url(stem, lang))
        tall = page.evaluate_handle(TALL_WIDGET)
        assert tall.evaluate("b => !!b"), f"{stem}: no widget taller than the view to test with"
        into = tall.evaluate("b => Math.round(Math.min(400, b.getBoundingClientRect().height - innerHeight - 50))")
        for _ in range(3):
            tall.evaluate(f"b => scrollTo(0, scrollY + b.getBoundingClientRect().top + {into})")
            page.wait_for_timeout(300)
        index = tall.evaluate("b => [...b.parentElement.children].indexOf(b)")
        where = f"() => Math.round(document.querySelector('.md-content__inner').children[{index}].getBoundingClientRect().top)"
        assert page.evaluate(where) == -into
        page.reload(wait_until="load")
        visit.settle()
        page.wait_for_timeout(300)
        assert abs(page.evaluate(where) + into) <= 2, \
            f"{stem}: the widget's top was at {-into} px before the reload, at {page.evaluate(where)} px after it"

        # a link within the page, then back
        link = page.evaluate_handle("""() => [...document.querySelectorAll('.md-content__inner a[href^="#"]:not(.headerlink)')]
            .find(a => { const t = document.getElementById(decodeURIComponent(a.hash.slice(1)));
                         return t && Math.abs(t.getBoundingClientRect().top - a.getBoundingClientRect().top) > 3 * innerHeight; })""")
        assert link.evaluate("a => !!a"), f"{stem}: no link to a place within the page three screens away"
        link.evaluate("a => a.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(300)
        at = link.evaluate("a => Math.round(a.getBoundingClientRect().top)")
        link.evaluate("a => a.click()")
        page.wait_for_timeout(300)
        assert abs(link.evaluate("a => a.getBoundingClientRect().top") - at) > 844, f"{stem}: the link did not move the view"
        page.go_back()
        page.wait_for_timeout(300)
        assert abs(link.evaluate("a => a.getBoundingClientRect().top") - at) <= 2, \
            f"{stem}: the link was at {at} px; after going back it is at {link.evaluate('a => Math.round(a.getBoundingClientRect().top)')} px"
        visit.check_clean()
    finally:
        ctx.close()
