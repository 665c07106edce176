"""The site as a new reader meets it, in Chromium, in both languages, at 390 and 1280 px: search that finds
Chinese and stays in the page's language, the 404 page a static host serves (under a sub-path too), the
footer, the evolution table, the numbers appendix, the keyboard's way through a lesson and the
residual simulator's read-out at its extremes (formulas on a phone: tests/test_charts.py)."""
import json
import re
from pathlib import Path

import pytest

from conftest import LANGS, ROOT, Visit
from course.core.browser import QuietHandler, serve

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
READY = """() => { const m = document.querySelector('.md-search-result__meta');
                   return m && !/初始化|Initializing|键入以开始|Type to start/.test(m.textContent); }"""


def search(v: Visit, query: str):
    """Type the query as an input method commits Chinese (no keyup carries it); the results' paths,
    the line above them, and their previews."""
    p = v.page
    p.locator(".md-search__input").click()
    p.keyboard.type(query)
    p.wait_for_function(READY, timeout=30000)
    p.wait_for_timeout(300)
    paths = p.locator(".md-search-result__item > a.md-search-result__link").evaluate_all(
        "as => as.map(a => new URL(a.href).pathname)")
    previews = p.locator(".md-search-result__article").all_inner_texts()
    return paths, p.locator(".md-search-result__meta").inner_text(), previews


def page_text(site_dir: Path, path: str) -> str:
    return re.sub(r"<[^>]+>", "", (site_dir / path.lstrip("/") / "index.html").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- search

@pytest.mark.parametrize("lang", LANGS)
def test_the_index_is_fetched_when_search_opens_not_before(open_page, lang):
    v = open_page(("en/" if lang == "en" else "") + "c4/ffn/", width=1280)
    assert not [u for u in v.requested if "search_index" in u]   # the page alone does not fetch it
    search(v, "FFN")
    assert len([u for u in v.requested if "search_index.json" in u]) == 1
    v.check_clean()


@pytest.mark.parametrize("query,lesson", [("残差", "/c4/residual/"), ("归一化", "/c4/normalization/"),
                                          ("苹果", "/c4/normalization/")])
def test_a_chinese_query_finds_the_chinese_pages_that_contain_it(site_dir, open_page, query, lesson):
    v = open_page("c4/", width=1280)
    paths, meta, _ = search(v, query)
    assert paths, meta
    assert lesson in paths, paths
    assert not [p for p in paths if p.startswith("/en/")], paths           # the page's language only
    for p in set(paths):
        assert query in page_text(site_dir, p), f"{p} does not contain {query}"
    v.check_clean()


def test_an_english_query_finds_lesson_3_and_only_english_pages(open_page):
    v = open_page("en/c4/", width=1280)
    paths, _, previews = search(v, "normalization")
    assert "/en/c4/normalization/" in paths, paths
    assert all(p.startswith("/en/") for p in paths), paths
    v.check_clean()


@pytest.mark.parametrize("lang,query", [("zh", "RMSNorm"), ("en", "RMSNorm"), ("zh", "苹果")])
def test_previews_are_prose_not_notebook_code(open_page, lang, query):
    v = open_page(("en/" if lang == "en" else "") + "c4/", width=1280)
    paths, _, previews = search(v, query)
    assert any("normalization-lab" in p for p in paths), paths
    for text in previews:
        assert not re.search(r"In \[\d*\]:|Copied!|LABELS = \{|^import |def \w+\(", text, re.M), text[:300]
    v.check_clean()


@pytest.mark.parametrize("lang,query,line", [("zh", "鳄梨", "没有找到符合条件的结果"), ("en", "zzzqqq", "No matching documents")])
def test_a_query_that_matches_nothing_says_so(open_page, lang, query, line):
    v = open_page(("en/" if lang == "en" else "") + "c4/", width=1280)
    paths, meta, _ = search(v, query)
    assert paths == [] and meta.strip() == line
    v.check_clean()


# ---------------------------------------------------------------- the 404 page a static host serves

class StaticHost(QuietHandler):
    """A static host: a missing address answers 404 with the site's 404.html, as GitHub Pages does."""

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def static_host(site_dir):
    import functools
    import http.server
    import threading
    handler = type("Handler", (StaticHost,), {"prefix": "/course"})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/course"
    httpd.shutdown()
    httpd.server_close()


def test_404_has_no_root_absolute_asset_paths(site_dir):
    html = (site_dir / "404.html").read_text(encoding="utf-8")
    assert not re.findall(r'(?:href|src)="/(?!/)', html)
    assert 'lang="zh"' in html and 'lang="en"' in html and "找不到这一页" in html and "Page not found" in html


@pytest.mark.parametrize("address", ["404.html", "no-such-page/", "c4/old-lesson/", "en/c4/a/b/c"])
def test_404_is_styled_and_bilingual_under_a_sub_path(browser, static_host, address):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        v = Visit(ctx.new_page(), static_host)
        v.goto(address)
        p = v.page
        assert p.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
        assert p.evaluate("() => [...document.styleSheets].some(s => /main\\.[0-9a-f]+\\.min\\.css/.test(s.href || ''))")
        h1 = p.locator("article h1").inner_text()
        assert "找不到这一页" in h1 and "Page not found" in h1
        homes = p.locator("article a").evaluate_all("as => as.map(a => new URL(a.href).pathname)")
        assert homes == ["/course/", "/course/en/"], homes
        # the missing address itself answers 404, and so may the page's probes for the site's root (…/404.html)
        failed = [e for e in v.console_errors if not (e.startswith("HTTP 404") and (
            e.rstrip("/").endswith(address.rstrip("/")) or e.endswith("/404.html")) or "status of 404" in e)]
        assert failed == [] and v.external == [], failed
        p.locator("article a").first.click()
        p.wait_for_load_state("networkidle")
        assert p.locator("html").get_attribute("lang") == "zh" and p.url.endswith("/course/")
    finally:
        ctx.close()


# ---------------------------------------------------------------- footer and permalinks in the page's language

@pytest.mark.parametrize("lang", LANGS)
def test_footer_permalinks_and_neighbours_speak_the_pages_language(site_dir, units, lang):
    for unit in units.lessons:
        path = ("en/" if lang == "en" else "") + unit.pages[0] + "/index.html"
        html = (site_dir / path).read_text(encoding="utf-8")
        assert "Permanent link" not in html, path
        assert ('title="本节链接"' if lang == "zh" else 'title="Link to this section"') in html, path
        assert ("本站用" in html) == (lang == "zh") and ("Made with" in html) == (lang == "en"), path
        assert "md-footer__link--prev" in html and "md-footer__link--next" in html, path
        assert ('aria-label="上一页：' if lang == "zh" else 'aria-label="Previous: ') in html, path


# ---------------------------------------------------------------- the evolution table

@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_the_evolution_table_shows_the_anchor_without_sideways_scrolling(open_page, lang, width):
    v = open_page(("en/" if lang == "en" else "") + "c4/", width=width)
    got = v.page.evaluate("""() => {
        const t = document.querySelector('[data-table=evolution]');
        t.scrollIntoView();
        const box = t.getBoundingClientRect(), cap = t.querySelector('caption').getBoundingClientRect();
        const anchors = [...t.querySelectorAll('td.evo-anchor')].map(c => c.getBoundingClientRect());
        return {inside: anchors.length > 0 && anchors.every(a => a.left >= box.left - 1 && a.right <= box.right + 1 && a.width > 40),
                header: [...t.querySelectorAll('thead th')].every(h => h.getBoundingClientRect().right <= box.right + 1),
                cards: getComputedStyle(t.querySelector('td')).display === 'block',
                caption: cap.left >= 0 && cap.right <= innerWidth, sideways: document.documentElement.scrollWidth > innerWidth,
                scrolls: t.scrollWidth > t.clientWidth + 1};
    }""")
    assert got["inside"] and got["caption"] and not got["sideways"] and not got["scrolls"], got
    assert got["cards"] == (width == 390), got        # a card per part on a phone, the whole table on a desktop
    if width == 1280:
        assert got["header"], got
    v.check_clean()


# ---------------------------------------------------------------- the numbers appendix

@pytest.mark.parametrize("lang", LANGS)
def test_the_numbers_appendix_is_grouped_filterable_and_fits_a_phone(open_page, registry, units, lang):
    prefix = "en/" if lang == "en" else ""
    v = open_page(prefix + "appendix/numbers/", width=390)
    p = v.page
    height, sideways = p.evaluate("() => [document.documentElement.scrollHeight, document.documentElement.scrollWidth > innerWidth]")
    assert height < 5000 and not sideways, (height, sideways)        # it was 2.3 million px tall
    groups = p.locator(".na-group > summary").all_inner_texts()
    listed = p.evaluate("() => [...document.querySelectorAll('tr[id^=\"num-\"]')].map(r => r.id.slice(4))")
    # one group a lesson whose numbers the site uses, in the course's order, headed by the chapter and the
    # lesson (two chapters may each have a lesson 2), then the course's
    lessons = [u for u in units.lessons if u.namespace and any(k.startswith(u.namespace + ".") for k in listed)]
    assert lessons, "the appendix lists no lesson's number"
    assert len(groups) == len(lessons) + 1, (groups, [u.id for u in lessons])
    first = lessons[0].order
    assert groups[0].startswith(f"C{first[0]} 第 {first[1]} 课" if lang == "zh" else f"C{first[0]} Lesson {first[1]}"), groups
    assert p.locator(".na-group > summary .xref").count() == len(groups) - 1
    p.locator(".na-filter").fill("anchor.hidden_size")
    row = p.locator('[id="num-anchor.hidden_size"]')
    row.wait_for(state="visible")
    shown = p.locator(".na-shown").inner_text()
    rows = p.evaluate("() => [...document.querySelectorAll('tr[id^=\"num-\"]')].map(r => r.id.slice(4))")
    assert set(rows) <= set(registry.numbers) and len(rows) == len(set(rows)), "rows are registry keys, each once"
    assert re.search(r"\b1\b", shown) and str(len(rows)) in shown.replace(",", ""), shown   # "1 of N shown"
    assert p.evaluate("() => document.documentElement.scrollWidth > innerWidth") is False
    # a link to one number opens the groups around it
    v2 = open_page(prefix + "appendix/numbers/#num-ffn.act.default_x", width=390)
    v2.page.locator('[id="num-ffn.act.default_x"]').wait_for(state="visible")
    v.check_clean()
    v2.check_clean()


# ---------------------------------------------------------------- the keyboard

STOPS = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(e => e.tabIndex >= 0 && !e.disabled && !e.closest('[hidden]') && e.getClientRects().length > 0
                 && !(e.type === 'radio' && !e.checked))"""


def test_numbers_are_one_tab_stop_per_paragraph_and_the_arrows_move_among_them(open_page):
    v = open_page("c4/ffn/", width=1280)
    p = v.page
    p.wait_for_function("() => [...document.querySelectorAll('[data-widget]')].every(w => w.dataset.ready)")
    stops = p.evaluate(f"() => ({STOPS})().length")
    blocks = p.evaluate("""() => new Set([...document.querySelectorAll('.reg-num')].filter(n => n.getClientRects().length).map(n =>
        n.closest('p, li, td, th, dd, dt, caption, figcaption, summary, h1, h2, h3, h4, h5, h6, .cw-note, .admonition-title')
        || n.parentElement)).size""")
    numbers = p.evaluate(f"() => ({STOPS})().filter(e => e.classList.contains('reg-num')).length")
    assert numbers == blocks and stops < 250, (numbers, blocks, stops)   # it was 409 stops, 288 of them numbers
    # the arrows go through one paragraph's numbers
    first = p.locator("p:has(.reg-num + .reg-num, .reg-num ~ .reg-num) .reg-num").first
    first.focus()
    key = first.get_attribute("data-key")
    p.keyboard.press("ArrowRight")
    now = p.evaluate("() => document.activeElement.dataset.key")
    assert now and now != key
    assert p.evaluate("() => document.activeElement.tabIndex") == 0
    assert p.locator(".reg-num-tip").inner_text() == p.evaluate("() => document.activeElement.dataset.tip")   # its provenance shows
    v.check_clean()


def test_a_content_tab_with_focus_is_outlined(open_page):
    v = open_page("c4/ffn/", width=1280)
    p = v.page
    radio = p.locator(".tabbed-set > input").first
    radio.evaluate("e => e.scrollIntoView()")
    p.keyboard.press("Tab")            # keyboard modality, so :focus-visible applies
    radio.focus()
    outline = radio.evaluate("""e => { const set = e.closest('.tabbed-set');
        const i = [...set.querySelectorAll(':scope > input')].indexOf(e);
        const s = getComputedStyle(set.querySelectorAll(':scope > .tabbed-labels > label')[i]);
        return [s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
    assert outline[0] == "solid" and outline[1] >= 2, outline
    v.check_clean()


# (formulas on a phone: tests/test_charts.py, in the visit of every lesson at a phone's width)

# ---------------------------------------------------------------- the residual simulator at its extremes

def test_the_residual_simulator_reads_its_extremes_in_scientific_form(open_page):
    v = open_page("c4/residual/", width=1280)
    p = v.page
    w = p.locator('[data-widget="residual-sim"]').first
    w.scroll_into_view_if_needed()
    out = []
    for gain, residual in (("min", False), ("max", False)):
        w.locator('[data-control="layers"]').evaluate("e => { e.value = e.max; e.dispatchEvent(new Event('input')); }")
        w.locator('[data-control="gain"]').evaluate(f"e => {{ e.value = e.{gain}; e.dispatchEvent(new Event('input')); }}")
        w.locator('[data-control="residual"]').set_checked(residual)
        v.settle()   # the widget redraws on the next frame
        text = w.locator('[data-readout="grad-ratio"]').inner_text()
        value = json.loads(w.locator('[data-readout="grad-ratio"]').get_attribute("data-value"))
        ticks = w.locator(".js-plotly-plot").nth(1).evaluate(
            "gd => [gd._fullLayout.yaxis.tickvals || [], [...gd.querySelectorAll('.ytick text')].map(t => t.textContent)]")
        out.append((text, value, ticks))
    for text, value, (vals, labels) in out:
        assert re.fullmatch(r"\u2212?\d(\.\d)?e\u2212?\d+", text), text        # not 21 digits, not 0.00
        mant, exp = text.replace("\u2212", "-").split("e")
        assert abs(float(mant) * 10 ** int(exp) - value) <= 0.051 * abs(value)
        assert len(labels) >= 2 and len(set(labels)) == len(labels), labels
        for label, at in zip(labels, vals):   # each label reads as the value it marks
            x = float(label.replace("\u2212", "-").replace(",", ""))
            assert abs(x - at) <= 0.02 * at, (label, at)
    v.check_clean()


# ---------------------------------------------------------------- accessibility of what changed

@pytest.mark.parametrize("path", ["c4/", "en/appendix/numbers/", "appendix/numbers/", "c4/residual/"])
def test_no_serious_accessibility_violations_on_the_changed_pages_at_a_phones_width(open_page, path):
    """At 390 px, with the first groups of the numbers appendix open (tests/test_accessibility.py reads every
    page at a desktop's width)."""
    assert AXE.exists(), "axe-core: npm ci (or a link to a checkout's node_modules)"
    v = open_page(path, width=390)
    v.page.evaluate("() => document.querySelectorAll('.na-group, .na-sub').forEach((d, i) => { if (i < 3) d.open = true; })")
    v.page.add_script_tag(path=str(AXE))
    result = v.page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    bad = [(x["id"], [n["target"] for n in x["nodes"][:3]]) for x in result["violations"] if x["impact"] in ("serious", "critical")]
    assert bad == []
    v.check_clean()


def test_no_serious_accessibility_violations_on_the_404_page(browser, static_host):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.goto(static_host + "/c4/old-lesson/", wait_until="networkidle")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        assert [x["id"] for x in result["violations"] if x["impact"] in ("serious", "critical")] == []
    finally:
        ctx.close()
