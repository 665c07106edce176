#!/usr/bin/env python3
"""What a reader meets on the built site, measured in headless Chromium (a script, not a test).

  search    Chinese and English queries from a page of each language: the results' pages and languages,
            the line shown when nothing matches, and whether the index was fetched before search opened
  charts    every chart at 390 and 1280 px, both languages and palettes: the layout problems that
            course.core.figures.CHART_BOXES finds (text over text, text cut by the chart, small plot areas)
  appendix  the numbers appendix's height at 390 px, and whether the page scrolls sideways
  table     the evolution table: which columns are in view without scrolling, at 390 and 1280 px
  tabs      tab stops on each lesson page: in all, and before the first widget's first control

    python scripts/measure_reader.py [search|charts|appendix|table|tabs ...] [--site SITE_DIR]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course.core.browser import launch, serve
from course.core.figures import CHART_BOXES
from course.paths import SITE

WIDTHS = (390, 1280)
ONLY: list[str] = []
LESSONS = ("c4/ffn/", "c4/residual/", "c4/normalization/", "c4/gating/")
QUERIES = {"zh": ["残差", "归一化", "苹果", "RMSNorm", "不存在的词语"], "en": ["normalization", "residual", "apple", "zzzqqq"]}


def search(browser, base: str) -> list[dict]:
    out = []
    for lang, queries in QUERIES.items():
        for q in queries:
            ctx = browser.new_context()
            page = ctx.new_page()
            fetched = []
            page.on("request", lambda r: "search_index" in r.url and fetched.append(r.url))
            page.goto(f"{base}/{'en/' if lang == 'en' else ''}c4/", wait_until="networkidle")
            before = len(fetched)
            page.locator("label.md-search__icon[for=__search]").first.click() if page.viewport_size["width"] < 960 \
                else page.locator(".md-search__input").click()
            page.locator(".md-search__input").focus()
            page.keyboard.type(q)   # insertText for CJK, as an input method commits it: no keyup with the text
            page.wait_for_timeout(500)
            try:                     # the worker builds its index once the index has arrived
                page.wait_for_function("""() => { const m = document.querySelector('.md-search-result__meta');
                    return m && !/初始化|Initializing/.test(m.textContent); }""", timeout=20000)
            except Exception:
                pass
            page.wait_for_timeout(800)
            meta = page.locator(".md-search-result__meta").inner_text()
            links = page.locator(".md-search-result__item > a.md-search-result__link").evaluate_all(
                "as => as.map(a => new URL(a.href).pathname)")
            teaser = page.locator(".md-search-result__item article").first.inner_text()[:120] if links else ""
            out.append({"lang": lang, "query": q, "meta": meta, "results": len(links),
                        "other_language": sum(("/en/" in p) != (lang == "en") for p in links),
                        "pages": links[:6], "teaser": teaser, "index_before_open": before > 0,
                        "index_fetched": fetched})
            ctx.close()
    return out


def charts_of(page, path: str) -> list[dict]:
    page.evaluate("""() => document.querySelectorAll('.tabbed-set').forEach(s => s.querySelectorAll(':scope > input')
                      .forEach(() => {}))""")
    page.evaluate("window.CW && CW.wakeAll && CW.wakeAll()")  # start what waits for a reader to come near
    page.wait_for_function("() => [...document.querySelectorAll('.plotly-figure, .cw-chart')].every(e => e.querySelector('.main-svg'))",
                           timeout=30000)
    page.wait_for_timeout(300)
    found = []
    # charts in content tabs: show each tab in turn
    tabs = page.locator(".tabbed-labels > label")
    for i in range(-1, tabs.count()):
        if i >= 0:
            tabs.nth(i).click()
            page.wait_for_timeout(400)
        for c in page.evaluate(CHART_BOXES, page.locator("article").element_handle()):
            if not any(f["name"] == c["name"] for f in found):
                found.append(c)
    return found


def charts(browser, base: str, site: Path) -> dict:
    pages = sorted(str(p.parent.relative_to(site)).replace(".", "") + "/" for p in site.rglob("index.html")
                   if "plotly-cartesian" in p.read_text(encoding="utf-8"))
    report = {}
    for path in pages:
        path = path.lstrip("/")
        if ONLY and not any(o in path for o in ONLY):
            continue
        for width in WIDTHS:
            for scheme in ("light", "dark"):
                ctx = browser.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme)
                page = ctx.new_page()
                page.goto(f"{base}/{path}", wait_until="networkidle")
                for c in charts_of(page, path):
                    if c["problems"]:
                        report[f"{path} {width} {scheme} {c['name']}"] = c["problems"]
                ctx.close()
    return report


def appendix(browser, base: str) -> list[dict]:
    out = []
    for lang in ("zh", "en"):
        for width in WIDTHS:
            ctx = browser.new_context(viewport={"width": width, "height": 844})
            page = ctx.new_page()
            page.goto(f"{base}/{'en/' if lang == 'en' else ''}appendix/numbers/", wait_until="networkidle")
            h, sw, iw = page.evaluate("() => [document.documentElement.scrollHeight, document.documentElement.scrollWidth, innerWidth]")
            out.append({"lang": lang, "width": width, "height_px": h, "sideways": sw > iw})
            ctx.close()
    return out


def table(browser, base: str) -> list[dict]:
    out = []
    for lang in ("zh", "en"):
        for width in WIDTHS:
            ctx = browser.new_context(viewport={"width": width, "height": 844})
            page = ctx.new_page()
            page.goto(f"{base}/{'en/' if lang == 'en' else ''}c4/", wait_until="networkidle")
            got = page.evaluate("""() => {
                const t = document.querySelector('[data-table=evolution]');
                const view = t.getBoundingClientRect();
                const cols = [...t.querySelectorAll('thead th')].map(th => {
                    const b = th.getBoundingClientRect();
                    return {text: th.innerText.split('\\n')[0], shown: b.left >= view.left - 1 && b.right <= view.right + 1 && b.width > 0};
                });
                const cap = t.querySelector('caption, figcaption');
                return {table_width: Math.round(t.scrollWidth), box_width: Math.round(view.width),
                        in_view: cols.filter(c => c.shown).length, columns: cols.length,
                        anchor_in_view: cols.some(c => c.shown && /锚点|anchor/.test(c.text)),
                        caption_cut: cap ? cap.getBoundingClientRect().right > innerWidth + 1 : null,
                        sideways: document.documentElement.scrollWidth > innerWidth};
            }""")
            out.append({"lang": lang, "width": width, **got})
            ctx.close()
    return out


def tabs(browser, base: str) -> list[dict]:
    out = []
    for lang in ("zh", "en"):
        for path in LESSONS:
            ctx = browser.new_context(viewport={"width": 1280, "height": 844})
            page = ctx.new_page()
            page.goto(f"{base}/{'en/' if lang == 'en' else ''}{path}", wait_until="networkidle")
            page.evaluate("window.CW && CW.wakeAll && CW.wakeAll()")  # start what waits for a reader to come near
            page.wait_for_function("""() => [...document.querySelectorAll('[data-widget]')].every(w => w.dataset.ready)
                                      && [...document.querySelectorAll('.plotly-figure')].every(e => e.querySelector('.main-svg'))""",
                                   timeout=30000)
            page.wait_for_timeout(500)
            got = page.evaluate("""() => {
                const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
                    .filter(e => e.tabIndex >= 0 && !e.disabled && !e.closest('[hidden], [inert]')
                                 && getComputedStyle(e).visibility !== 'hidden' && e.getClientRects().length > 0);
                // radio groups are one stop
                const stops = all.filter(e => !(e.type === 'radio' && !e.checked && all.some(o => o !== e && o.type === 'radio' && o.name === e.name && o.checked)));
                const first = stops.findIndex(e => e.closest('[data-widget]'));
                return {stops: stops.length, numbers: stops.filter(e => e.classList.contains('reg-num')).length,
                        modebar: stops.filter(e => e.closest('.modebar')).length, before_first_widget: first};
            }""")
            out.append({"page": ("en/" if lang == "en" else "") + path, **got})
            ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", nargs="*", default=["search", "charts", "appendix", "table", "tabs"])
    ap.add_argument("--site", type=Path, default=SITE)
    ap.add_argument("--json", type=Path, help="also write the report here")
    ap.add_argument("--pages", nargs="*", default=[], help="charts: only pages whose path contains one of these")
    args = ap.parse_args()
    ONLY.extend(args.pages)
    from playwright.sync_api import sync_playwright
    report = {}
    with serve(args.site) as base, sync_playwright() as p:
        browser = launch(p)
        for what in args.what:
            fn = globals()[what]
            report[what] = fn(browser, base, args.site) if what == "charts" else fn(browser, base)
            print(f"== {what}")
            print(json.dumps(report[what], ensure_ascii=False, indent=1))
        browser.close()
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
