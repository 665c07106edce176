"""Figures as files: besides the data the pages load, the build writes each figure as a standalone page per
language into figures/, sharing one local plotly.js (no CDN), which draws in the reader's palette."""
import re

import pytest

from conftest import LANGS, ROOT, Visit
from course.core.browser import serve
from course.core.figures import PALETTES
from course.paths import PLOTLY_JS

CJK = re.compile(r"[\u4e00-\u9fff]")


def figure_names(units) -> list[str]:
    return [f.name for _, f in units.figures()]


def test_each_figure_has_a_standalone_page_per_language(built_paths, units):
    FIGURES = built_paths.figures
    assert (FIGURES / PLOTLY_JS.name).read_bytes() == PLOTLY_JS.read_bytes()
    for name in figure_names(units):
        for lang in LANGS:
            html = (FIGURES / f"{name}.{lang}.html").read_text(encoding="utf-8")
            assert re.search(rf'<html lang="{lang}"', html)
            assert re.findall(r'<script src="([^"]+)"', html) == [PLOTLY_JS.name]  # the one local copy
            assert "http://" not in html and "https://" not in html.replace("https://plotly.com", "")
            caption = re.search(r"<figcaption>(.*?)</figcaption>", html, re.S).group(1)
            assert caption.strip() and (bool(CJK.search(caption)) == (lang == "zh"))  # the alt text, in its language


def test_the_standalone_palettes_are_the_sites_chart_colors():
    common = (ROOT / "docs/assets/js/common.js").read_text(encoding="utf-8")
    dark, light = re.search(r"CW\.dark\(\)\s*\?\s*(\{[^}]*\})\s*:\s*(\{[^}]*\})", common).groups()
    for scheme, js in (("dark", dark), ("light", light)):
        for part in ("fg", "grid"):
            assert re.search(rf'{part}: "{PALETTES[scheme][part]}"', js), (scheme, part)


@pytest.fixture(scope="module")
def figures_server(built_paths):
    with serve(built_paths.figures) as base:
        yield base


def draws(units) -> list[tuple[str, str, str]]:
    """(figure, language, palette): each figure in each language once, its two languages in the two palettes,
    which palette goes with which language alternating from one figure to the next."""
    schemes = ["light", "dark"]
    return [(name, lang, schemes[(i + j) % 2]) for i, name in enumerate(figure_names(units))
            for j, lang in enumerate(LANGS)]


def test_standalone_figures_draw_in_the_readers_palette(browser, figures_server, units):
    seen = {(lang, scheme) for _, lang, scheme in draws(units)}
    assert seen == {(lang, scheme) for lang in LANGS for scheme in PALETTES}   # every pairing is drawn
    for name, lang, scheme in draws(units):
        ctx = browser.new_context(color_scheme=scheme)
        try:
            v = Visit(ctx.new_page(), figures_server)
            v.goto(f"{name}.{lang}.html")
            v.page.locator("#figure .main-svg").first.wait_for(timeout=30000)
            # a line or bar chart draws .trace groups; a heatmap draws an image in its .hm group
            assert v.page.locator("#figure .trace, #figure .hm image").count() > 0, name
            fill = v.page.locator("#figure .xtick text").first.evaluate("t => getComputedStyle(t).fill")
            want = PALETTES[scheme]["fg"].lstrip("#")
            assert fill == "rgb({}, {}, {})".format(*(int(want[i:i + 2], 16) for i in (0, 2, 4))), (name, lang, fill)
            v.check_clean()
        finally:
            ctx.close()
