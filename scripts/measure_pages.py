#!/usr/bin/env python3
"""Measure every built page in headless Chromium (a script, not a test).

For each page of site/ (both languages): bytes of the page and its page-specific assets (the HTML
and the figure data it loads; the assets every page shares, such as plotly.js, are counted once,
separately, since a browser caches them), requests to other hosts, time to first contentful paint,
and time until the page is interactive (DOMContentLoaded, with every figure and widget drawn).
Goals: page-specific ≤ 1 MB; 0 requests to other hosts. Run `python build.py` first.

    python scripts/measure_pages.py [SITE_DIR]     (default: this checkout's site/)
"""
import statistics
import sys
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's packages, before any editable install's

from course.core.browser import LOCAL_HOSTS, launch, serve
from course.paths import SITE

SHARED = ("/assets/javascripts/", "/assets/stylesheets/", "/assets/vendor/", "/assets/js/", "/assets/course.css",
          "/search/", "/assets/images/", "/sitemap.xml")
REPS = 3


def measure(browser, base: str, path: str) -> dict:
    ctx = browser.new_context()
    page = ctx.new_page()
    sizes, external = {}, []

    def on_response(r):
        url = urlparse(r.url)
        if url.hostname not in LOCAL_HOSTS:
            return
        try:
            sizes[url.path] = len(r.body())
        except Exception:
            pass
    page.on("response", on_response)
    page.route("**/*", lambda r: (external.append(r.request.url), r.abort()) if urlparse(r.request.url).hostname
               not in (*LOCAL_HOSTS, None) else r.continue_())
    page.goto(base + "/" + path, wait_until="load")
    page.evaluate("window.CW && CW.wakeAll && CW.wakeAll()")  # start what waits for a reader to come near
    page.wait_for_function("""() => [...document.querySelectorAll('.plotly-figure, .cw-chart')]
                                      .every(e => e.querySelector('.main-svg'))""", timeout=30000)
    timing = page.evaluate("""() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        return {fcp: fcp ? fcp.startTime : null, dcl: nav.domContentLoadedEventEnd, ready: performance.now()};
    }""")
    ctx.close()
    own = sum(v for k, v in sizes.items() if not k.startswith(SHARED))
    shared = sum(v for k, v in sizes.items() if k.startswith(SHARED))
    return {"own": own, "shared": shared, "external": len(external), **timing}


def main() -> None:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else SITE  # another built site, e.g. one kept from before a change
    if not site.exists():
        sys.exit("site/ is missing: run `python build.py` first")
    from playwright.sync_api import sync_playwright
    pages = sorted(str(p.parent.relative_to(site)).replace(".", "") + "/" for p in site.rglob("index.html"))
    print(f"{'page':34} {'own KB':>8} {'shared KB':>10} {'other hosts':>11} {'FCP ms':>8} {'ready ms':>9}")
    worst = 0
    with sync_playwright() as p, serve(site) as base:
        browser = launch(p)
        for path in pages:
            runs = [measure(browser, base, path.lstrip("/")) for _ in range(REPS)]
            med = {k: statistics.median(r[k] for r in runs if r[k] is not None) for k in ("fcp", "ready")}
            r = runs[0]
            worst = max(worst, r["own"])
            print(f"/{path.lstrip('/'):33} {r['own'] / 1024:8.0f} {r['shared'] / 1024:10.0f} {r['external']:11d} "
                  f"{med['fcp']:8.0f} {med['ready']:9.0f}")
        browser.close()
    print(f"\nlargest page-specific weight: {worst / 1024:.0f} KB (goal ≤ 1024 KB); medians of {REPS} loads")


if __name__ == "__main__":
    main()
