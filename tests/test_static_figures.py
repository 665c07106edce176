"""Every figure's static rendering (course/core/static_figures.py), made at build time: each page places one in
every figure's root, in each palette, with its size and text alternative; it shows with JavaScript off, in the
reader's palette; and a printed lesson (Chromium's print to PDF) shows every figure as its image, whichever
charts were drawn, with its formulas and tables inside the paper's width. Renderings are keyed on what draws
them, and the build says so when no browser is there to draw them."""
from __future__ import annotations

import posixpath
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser

import pytest

from conftest import LANGS, page_url, placed
from course.core import browser as core_browser
from course.core import static_figures
from course.core.notebooks import html_outputs, sources
from course.paths import DOCS, PATHS
from course.project import units as discover

UNITS = discover()
# every page of a unit (lessons and chapter overviews), in every language, and the labs
STEMS = [stem for u in UNITS.all for stem in u.pages]
NOTEBOOKS = [src.relative_to(DOCS).with_suffix("").as_posix() for src in sources(PATHS)]
LABS = [(nb.removesuffix(".en"), "en" if nb.endswith(".en") else LANGS[0]) for nb in NOTEBOOKS]
PAGES = [(stem, lang) for stem in STEMS for lang in LANGS] + LABS
LESSONS = [(stem, lang) for u in UNITS.lessons for stem in u.pages for lang in LANGS] + LABS
PRINT_WIDTH = 718   # CSS px: A4 (210 mm) less Chromium's default print margins (1 cm each side)


def expected_figures(stem: str, lang: str, built_paths) -> int:
    """How many figures the page's source places: its figure shortcodes, or a lab's own figures."""
    if (stem, lang) in LABS:
        source = built_paths.docs / (stem + (".en" if lang == "en" else "") + ".ipynb")
        return sum(1 for text in html_outputs(built_paths, source) for _ in static_figures.inline_figures(text))
    return len(placed(stem, "figure", lang))


class Figures(HTMLParser):
    """Each figure root of a page: its attributes and the attributes of the images its static rendering holds."""

    def __init__(self):
        super().__init__()
        self.figures, self.depth, self.open = [], 0, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "plotly-figure" in (a.get("class") or "").split():
            self.figures.append({"attrs": a, "static": 0, "images": [], "sources": []})
            self.open, self.depth = self.figures[-1], 0
        elif self.open is not None:
            if tag == "div":
                self.depth += 1
                self.open["static"] += "figure-static" in (a.get("class") or "").split()
            elif tag in ("img", "source"):
                self.open["images" if tag == "img" else "sources"].append(a)

    def handle_endtag(self, tag):
        if self.open is not None and tag == "div":
            if self.depth == 0:
                self.open = None
            self.depth -= 1


@pytest.mark.parametrize("stem,lang", PAGES)
def test_every_figure_holds_its_static_rendering(stem, lang, site_dir, built_paths):
    page_dir = site_dir / page_url(stem, lang)
    parser = Figures()
    parser.feed((page_dir / "index.html").read_text(encoding="utf-8"))
    want = expected_figures(stem, lang, built_paths)
    assert len(parser.figures) == want, f"{page_url(stem, lang)}: {len(parser.figures)} figures, its source places {want}"
    for fig in parser.figures:
        name = fig["attrs"].get("data-figure", "a lab's figure")
        assert fig["static"] == 1, f"{page_url(stem, lang)}: figure {name} holds no .figure-static"
        palettes = sorted(i["class"].removeprefix("figure-static-") for i in fig["images"])
        assert palettes == sorted(static_figures.SCHEMES), f"{page_url(stem, lang)}: figure {name}'s images: {palettes}"
        assert len(fig["sources"]) == len(fig["images"]), f"{name}: an image without its phone rendering"
        for img in fig["images"]:
            assert img["alt"] == fig["attrs"]["aria-label"] and img["alt"].strip(), f"{name}: the image's alt"
            assert img["loading"] == "lazy", f"{name}: the image loads eagerly"
        for img in fig["images"] + fig["sources"]:
            assert int(img["width"]) > 0 and int(img["height"]) > 0, f"{name}: an image has no size"
            src = img.get("src") or img["srcset"]
            served = site_dir / posixpath.normpath(posixpath.join(page_url(stem, lang), src))
            assert served.is_file() and served.stat().st_size > 0, f"{name}: {src} is not served"


# ------------------------------------------------------------ with JavaScript off, and in print

SHOWN = r"""() => [...document.querySelectorAll('.plotly-figure')].map(root => {
    const shown = [...root.querySelectorAll('.figure-static img')].filter(i => getComputedStyle(i).display !== 'none');
    const box = root.getBoundingClientRect(), W = document.documentElement.clientWidth;
    return {name: root.dataset.figure || "a lab's figure", shown: shown.map(i => i.className),
            narrow: shown.every(i => /\.narrow\.\w+$/.test(i.currentSrc)),
            loaded: shown.every(i => i.complete && i.naturalWidth > 0),
            inside: shown.every(i => { const b = i.getBoundingClientRect();
                                       return b.width > 100 && b.height > 50 && b.left >= -1 && b.right <= W + 1; }),
            drawn: [...root.querySelectorAll(':scope > .plot-container')].some(e => getComputedStyle(e).display !== 'none'),
            tall: box.height};
})"""


def check_shown(figures: list[dict], palette: str, where: str, want: int, narrow: bool = False) -> None:
    assert len(figures) == want, f"{where}: {len(figures)} figures, its source places {want}"
    for f in figures:
        assert f["narrow"] == narrow, f"{where}: {f['name']} shows its {'wide' if narrow else 'narrow'} rendering"
        assert f["shown"] == [f"figure-static-{palette}"], f"{where}: {f['name']} shows {f['shown']}, not its {palette} image"
        assert f["loaded"], f"{where}: {f['name']}'s {palette} image did not load"
        assert f["inside"], f"{where}: {f['name']}'s image is not within the page's width"


@pytest.mark.parametrize("stem,lang", PAGES)
def test_without_javascript_every_figure_shows_its_image(stem, lang, browser, server, built_paths):
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(f"{server}/{page_url(stem, lang)}", wait_until="load")
        want = expected_figures(stem, lang, built_paths)
        check_shown(page.evaluate(SHOWN), "light", page_url(stem, lang), want)
        # what the palette switch sets (its images loaded with the page: without scripts nothing loads lazily)
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
        check_shown(page.evaluate(SHOWN), "dark", page_url(stem, lang) + " (dark)", want)
        page.set_viewport_size({"width": 390, "height": 844})   # a phone: the narrow rendering
        # the images shown (the other palette's stay hidden) load as a reader scrolls to them (the phone's are
        # fetched lazily); polled by the clock: a page without scripts runs no animation frames
        figures = page.locator(".plotly-figure .figure-static")
        for i in range(figures.count()):
            figures.nth(i).scroll_into_view_if_needed()
            page.wait_for_function("""i => [...document.querySelectorAll('.plotly-figure .figure-static')][i]
                                          .querySelectorAll('img').values().every(m => m.complete || !m.offsetParent)""",
                                   arg=i, polling=100)
        check_shown(page.evaluate(SHOWN), "dark", page_url(stem, lang) + " (dark, phone)", want, narrow=True)
        widgets = page.locator("[data-widget]")
        for i in range(widgets.count()):   # a widget says, in the page's language, that it needs JavaScript
            assert widgets.nth(i).inner_text().strip(), f"{page_url(stem, lang)}: a widget shows nothing without JavaScript"
    finally:
        ctx.close()


# formulas, tables and whatever scrolls on screen, in print: inside the paper's width, nothing cut
TOO_WIDE = """() => {
    const W = document.documentElement.clientWidth, out = [];
    document.querySelectorAll('.katex-display, .katex-display > .katex, .md-typeset table, .md-typeset__scrollwrap, .cw-scroll, pre').forEach(e => {
        if (!e.getClientRects().length) return;
        const b = e.getBoundingClientRect(), what = (e.className || e.tagName) + ' "' + e.textContent.trim().slice(0, 40) + '"';
        if (b.right > W + 1 || b.left < -1) out.push(`${what} spans ${Math.round(b.left)}–${Math.round(b.right)} px of ${W}`);
        if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
            out.push(`${what} is cut: ${e.scrollWidth} px in ${e.clientWidth}`);
    });
    return out;
}"""


@pytest.mark.parametrize("stem,lang", LESSONS)
def test_a_printed_lesson_shows_every_figure_formula_and_table(stem, lang, open_page, built_paths):
    v = open_page(page_url(stem, lang), width=PRINT_WIDTH)   # every chart drawn, in the reader's light palette
    page = v.page
    drawn = page.evaluate("[...document.querySelectorAll('.plotly-figure')].map(r => r.classList.contains('figure-drawn'))")
    assert all(drawn), f"{page_url(stem, lang)}: figures.js did not mark every drawn figure: {drawn}"
    assert page.evaluate("[...document.querySelectorAll('.figure-static')].every(s => getComputedStyle(s).display === 'none')"), \
        f"{page_url(stem, lang)}: a drawn figure still shows its static image on screen"
    pdf = page.pdf(format="A4")   # as a reader's print does, Chromium loads every lazy image before it prints
    assert pdf.startswith(b"%PDF")
    page.emulate_media(media="print")
    where = f"{page_url(stem, lang)} (print)"
    figures = page.evaluate(SHOWN)
    check_shown(figures, "light", where, expected_figures(stem, lang, built_paths))
    assert not [f["name"] for f in figures if f["drawn"]], f"{where}: drawn charts print beside their images"
    assert page.evaluate(TOO_WIDE) == [], f"{where}: wider than the paper or cut"
    v.check_clean()


# ------------------------------------------------------------ the renderings' keys, and a missing browser

def test_a_rendering_is_remade_only_when_what_draws_it_changed(tmp_path, monkeypatch):
    made = []

    def fake(jobs, paths):
        made.extend((j.stem, j.variant) for j in jobs)
        return [{"data": b"<svg/>", "format": "svg", "width": 720, "height": 400} for _ in jobs]
    monkeypatch.setattr(static_figures, "_render", fake)
    spec = {"data": [{"x": [1, 2], "y": [3, 4]}], "layout": {"title": {"text": "t"}}, "alt": "a line"}
    jobs = lambda s: static_figures.jobs("f.zh", s)  # noqa: E731
    every = len(static_figures.SCHEMES) * len(static_figures.SIZES)
    out = tmp_path / "static"
    index = static_figures.render(jobs(spec), out, PATHS)
    assert len(set(made)) == every, made
    assert {e["file"] for e in index["f.zh"].values()} == {p.name for p in out.glob("*.svg")}

    made.clear()
    static_figures.render(jobs({**spec, "alt": "another text alternative"}), out, PATHS)
    assert made == [], "the text alternative is no part of the drawing"
    static_figures.render(jobs({**spec, "layout": {"title": {"text": "u"}}}), out, PATHS)
    assert len(made) == every, "a changed layout draws again"

    made.clear()
    monkeypatch.setattr(static_figures, "renderer_key", lambda paths: "another plotly.js")
    static_figures.render(jobs({**spec, "layout": {"title": {"text": "u"}}}), out, PATHS)
    assert len(made) == every, "a changed renderer draws again"

    static_figures.render([], out, PATHS)
    assert [p.name for p in out.iterdir()] == [static_figures.INDEX], "a rendering nothing names is removed"


def test_no_browser_is_a_clear_build_error(monkeypatch):
    monkeypatch.setattr(core_browser, "CHROMIUM", "/nonexistent/chromium")
    # in a thread of its own, as in the build's process: a browser test's Playwright may be running in this one
    with ThreadPoolExecutor(1) as pool:
        attempt = pool.submit(static_figures._render, static_figures.jobs("f.zh", {"data": [], "layout": {}}), PATHS)
        with pytest.raises(static_figures.BrowserMissing, match="make browser"):
            attempt.result()
    assert issubclass(static_figures.BrowserMissing, static_figures.KnownError)   # exit 2 with its one line


def test_the_labs_figures_are_found_in_their_outputs(built_paths):
    found = [spec for text in html_outputs(built_paths) for _, spec, _ in static_figures.inline_figures(text)]
    assert found and all(spec.get("data") for spec in found), "the executed labs show no figure of their own"
