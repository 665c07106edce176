"""Each page loads what it uses and nothing more: a widget's module only where that widget is; plotly.js is
never loaded with a page, only named (<meta name="course-plotly">) where a figure or a charting widget draws, for
common.js to load when a reader comes near a chart; KaTeX's stylesheet only where a formula is, and KaTeX's
script nowhere (the build renders the formulas); the home page and the appendix load none of these."""
import re

from conftest import LANGS, page_url
from course.paths import PLOTLY_URI

SCRIPT = re.compile(r'<script (?:defer )?src="([^"]+)"')
ANY_SCRIPT_FILE = re.compile(r'<script\b([^>]*)\bsrc="([^"]+)"')
PRELOAD = re.compile(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" crossorigin>')
PLOTLY_META = re.compile(r'<meta name="course-plotly" content="([^"]+)">')
STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"')


def scripts(site_dir, path: str) -> list[str]:
    html = (site_dir / path / "index.html").read_text(encoding="utf-8")
    return SCRIPT.findall(html)


def test_the_home_page_and_the_appendix_load_no_plotly_and_no_widget(site_dir):
    for lang in LANGS:
        prefix = "en/" if lang == "en" else ""
        for page in ("", "appendix/numbers/", "appendix/references/"):
            found = scripts(site_dir, prefix + page)
            html = (site_dir / (prefix + page) / "index.html").read_text(encoding="utf-8")
            assert not any("plotly" in s for s in found) and not PLOTLY_META.search(html), f"{prefix + page} names plotly.js"
            assert not any("/units/" in s for s in found), f"{prefix + page} loads widget modules: {found}"


def test_every_page_loads_exactly_its_widgets_and_plotly_only_if_it_draws(site_dir, units):
    """Every page of the built site (a chapter's overview, a lesson, a lab, the home page, the appendix): it
    loads the module of each widget it shows and no other, and plotly.js only when it holds a figure or a
    widget that draws with it."""
    pages = sorted(p.parent.relative_to(site_dir).as_posix() for p in site_dir.rglob("index.html")
                   if p.parent.relative_to(site_dir).parts[:1] not in (("search",), ("assets",)))
    built = {("" if p == "." else p + "/") for p in pages}
    unit_pages = {page_url(stem, lang) for u in units.all for stem in u.pages for lang in LANGS}
    assert unit_pages <= built, f"the units' pages are not all built: {sorted(unit_pages - built)}"
    for path in sorted(built):
        html = (site_dir / path / "index.html").read_text(encoding="utf-8")
        used = set(re.findall(r'data-widget="([\w\-]+)"', html))
        loaded = {s.rsplit("/", 1)[-1] for s in scripts(site_dir, path) if "/units/" in s}
        assert loaded == {units.widget(n)[1].script for n in used}, (path, loaded, used)
        needs_plotly = 'class="plotly-figure"' in html or any(units.widget(n)[1].plotly for n in used)
        assert not any("plotly" in s or "katex" in s for s in scripts(site_dir, path)), f"{path} loads plotly.js or KaTeX"
        named = PLOTLY_META.findall(html)
        assert bool(named) == needs_plotly, path
        for src in named:   # the one vendored copy, where the page says
            assert (site_dir / path / src).resolve() == (site_dir / PLOTLY_URI).resolve(), (path, src)
        has_math = 'class="katex' in html
        assert any("katex.min.css" in s for s in STYLESHEET.findall(html)) == has_math, path
        assert not re.search(r'class="arithmatex">\\[(\[]', html), f"{path}: a formula left as TeX for the browser"


def test_every_script_of_a_page_is_deferred_and_search_comes_before_the_theme(site_dir):
    """No script blocks the parser or the first paint (course/core/site.py, Site.deferred): each one a page
    loads from a file is deferred (run in order once the page is parsed), and search.js still runs before
    Material's bundle, which asks for the search index as soon as it runs."""
    pages = [p for p in site_dir.rglob("index.html") if "assets" not in p.parts]
    assert len(pages) > 20, "the built site has too few pages to check"
    for page in pages:
        html = page.read_text(encoding="utf-8")
        found = ANY_SCRIPT_FILE.findall(html)
        assert found, f"{page}: no script found"
        blocking = [src for attrs, src in found if src and "defer" not in attrs and "async" not in attrs]
        assert not blocking, f"{page}: scripts that block the parser: {blocking}"
        order = [src.rsplit("/", 1)[-1] for _, src in found]
        bundle = next(i for i, s in enumerate(order) if s.startswith("bundle."))
        assert "search.js" in order[:bundle], f"{page}: search.js does not come before Material's bundle: {order}"


def test_a_page_with_formulas_preloads_the_fonts_its_formulas_draw_with(site_dir):
    """KaTeX's default face on every page with a formula, and its italic letters' face where a formula has
    one; the fonts exist; a page without formulas preloads nothing."""
    with_math = 0
    for page in site_dir.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        fonts = PRELOAD.findall(html)
        for src in fonts:
            assert (page.parent / src).resolve().exists(), f"{page}: preloads a missing font {src}"
        names = {f.rsplit("/", 1)[-1] for f in fonts}
        if 'class="katex' in html:
            with_math += 1
            assert "KaTeX_Main-Regular.woff2" in names, page
            assert ("KaTeX_Math-Italic.woff2" in names) == bool(re.search(r'class="[^"]*\bmathnormal\b', html)), page
        else:
            assert not names, f"{page}: preloads fonts but has no formula: {names}"
    assert with_math >= 10, "too few pages with formulas to check"


def test_no_page_carries_a_script_without_a_file_or_a_mathjax_configuration(site_dir):
    """A lab's page is nbconvert's HTML, whose MathJax loader names no file (`<script src="">`, not valid HTML);
    the site renders formulas at build time, so neither the loader nor its configuration is kept."""
    labs = 0
    for page in site_dir.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        labs += "jupyter-wrapper" in html
        assert not re.search(r'<script\b[^>]*\bsrc=""', html), f"{page}: a script with an empty src"
        assert "text/x-mathjax-config" not in html, f"{page}: a MathJax configuration"
    assert labs >= 2, "no lab page to check"


def test_every_script_a_page_names_exists(site_dir):
    for page in site_dir.rglob("index.html"):
        for src in SCRIPT.findall(page.read_text(encoding="utf-8")):
            if src.startswith(("http:", "https:", "//")):
                raise AssertionError(f"{page}: script from another host: {src}")
            assert (page.parent / src.split("?")[0]).resolve().exists(), f"{page}: {src}"
