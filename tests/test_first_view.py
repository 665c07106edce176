"""A lesson's first view carries no chart code: plotly.js, a figure's data and a widget start only when a reader
comes near them (docs/assets/js/common.js CW.whenNear), and the formulas arrive rendered (course/core/math.py).
Then scrolling to a figure draws it, and the page is whole once everything has been reached."""
import pytest

from conftest import SETTLED, Visit, page_url

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
