#!/usr/bin/env python3
"""Time one recompute of the residual-stream simulator at N = 128 in headless Chromium (goal: ≤ 16 ms,
one frame at 60 Hz, so dragging a slider stays smooth).

It loads the widget's own JavaScript (docs/assets/js/format.js and common.js, course/common/js/residual-sim.js)
and the site's plotly.js into a bare page with one residual-sim root written by course/core/widgets.py, then
reports the
median over repetitions of
  * compute: CW.residualSim.simulate() alone (weights for the new N, forward, backward);
  * update:  what one move of the N slider costs before the browser may paint: the `input` event's
             compute and read-outs (the chart is redrawn at the next animation frame);
  * redraw:  that chart redraw (Plotly.react of the per-layer curves).

    .venv/bin/python scripts/bench_widgets.py [--reps 50]

With --built, it times instead the widgets of the built site (site/, from `python build.py`) that PAGE_WIDGETS
names, on their own pages, under Chromium's 4× CPU throttling (Lighthouse's mobile setting): one move of a
control (its `input` or `change` event, alternating two values) and the layout it forces, before the browser
may paint; goal ≤ 16 ms.

    .venv/bin/python scripts/bench_widgets.py --built [--reps 30] [--throttle 4]
"""
from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's packages, before any editable install's

from course.core.browser import launch, serve  # noqa: E402
from course.paths import DOCS, PLOTLY_JS, REGISTRY, ROOT  # noqa: E402

N = 128


def widget_root() -> str:
    if not REGISTRY.exists():
        subprocess.run([sys.executable, "build.py", "--no-site", "--no-train"], cwd=ROOT, check=True)
    from course.core.registry import Registry
    from course.project import units as discover
    from course.core.widgets import render
    _, widget = discover().widget("residual-sim")
    return render(widget, "normalization", "en", Registry.read(REGISTRY))


# widget → (its page in site/, the control a reader moves, two values to alternate, the event it fires)
PAGE_WIDGETS = {
    "kv-calculator": ("c3/kv-cache/", "context", ("20", "10"), "input"),
    "attention-explorer": ("c3/attention/", "scale", ("3.7", "0.4"), "input"),
}

TIME_MOVES = """([name, control, values, event, reps]) => {
    const root = document.querySelector(`[data-widget="${name}"]`);
    const input = root.querySelector(`[data-control="${control}"]`);
    const out = [];
    for (let i = 0; i < reps + 5; i++) {
        input.value = values[i % 2];
        const t0 = performance.now();
        input.dispatchEvent(new Event(event, {bubbles: true}));
        void root.offsetHeight;            // the layout the change forces, before a paint
        if (i >= 5) out.push(performance.now() - t0);   // the first five warm up
    }
    return out;
}"""


def bench_built(reps: int, throttle: float) -> int:
    from playwright.sync_api import sync_playwright
    site = ROOT / "site"
    if not site.exists():
        print("site/ is missing: run `python build.py` first", file=sys.stderr)
        return 2
    out = {}
    with sync_playwright() as p, serve(site) as base:
        browser = launch(p)
        for name, (page_path, control, values, event) in PAGE_WIDGETS.items():
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{base}/{page_path}", wait_until="load")
            page.evaluate("window.CW && CW.wakeAll && CW.wakeAll()")  # start what waits for a reader to come near
            page.wait_for_function(f"document.querySelector('[data-widget=\"{name}\"]')?.dataset.ready === 'true'")
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            times = page.evaluate(TIME_MOVES, [name, control, list(values), event, reps])
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            q = statistics.quantiles(times, n=4)
            out[name] = {"median_ms": round(statistics.median(times), 2), "q1_ms": round(q[0], 2),
                         "q3_ms": round(q[2], 2), "max_ms": round(max(times), 2),
                         "meets_goal": statistics.median(times) <= 16}
            page.close()
        version = browser.version
        browser.close()
    print(json.dumps({"throttle": throttle, "reps": reps, "goal_ms": 16, "widgets": out, "browser": version,
                      "cpu": platform.processor() or platform.machine()}, indent=1, ensure_ascii=False))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--built", action="store_true", help="time the built site's widgets of PAGE_WIDGETS, throttled")
    ap.add_argument("--throttle", type=float, default=4.0, help="with --built: Chromium's CPU slow-down factor")
    args = ap.parse_args()
    if args.built:
        return bench_built(args.reps, args.throttle)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for js in (DOCS / "assets/js/format.js", DOCS / "assets/js/common.js", ROOT / "course/common/js/residual-sim.js"):
            shutil.copy(js, tmp / js.name)
        shutil.copy(PLOTLY_JS, tmp / "plotly.min.js")  # the bundle the site serves
        (tmp / "index.html").write_text(
            "<!doctype html><html lang='en'><head><link rel='icon' href='data:,'></head><body data-md-color-scheme='default'>" + widget_root() +
            "<script src='plotly.min.js'></script><script src='format.js'></script><script src='common.js'></script>"
            "<script src='residual-sim.js'></script></body></html>", encoding="utf-8")
        with sync_playwright() as p, serve(tmp) as base:
            browser = launch(p)
            page = browser.new_page()
            page.goto(f"{base}/index.html", wait_until="networkidle")
            page.evaluate("window.CW && CW.wakeAll && CW.wakeAll()")  # start what waits for a reader to come near
            page.wait_for_function("document.querySelector('[data-widget]').dataset.ready === 'true'")
            times = page.evaluate("""([N, reps]) => {
                const root = document.querySelector('[data-widget="residual-sim"]');
                const spec = JSON.parse(root.dataset.config).spec;
                const compute = [], update = [];
                for (let i = 0; i < 5; i++) CW.residualSim.simulate(spec, N, 1, true, true, true);   // warm-up
                for (let i = 0; i < reps; i++) {
                    const t0 = performance.now();
                    CW.residualSim.simulate(spec, N, 1, true, i % 2 === 0, true);
                    compute.push(performance.now() - t0);
                }
                const slider = root.querySelector('[data-control="layers"]');
                for (let i = 0; i < reps; i++) {
                    slider.value = i % 2 ? N : N - 1;   // alternate, so every move changes the weights
                    const t0 = performance.now();
                    slider.dispatchEvent(new Event('input', {bubbles: true}));
                    update.push(performance.now() - t0);
                }
                return {compute, update, version: navigator.userAgent};
            }""", [N, args.reps])
            redraw = page.evaluate("""async (reps) => {
                const react = Plotly.react, out = [];
                Plotly.react = function () { const t0 = performance.now(); const r = react.apply(this, arguments);
                                             out.push(performance.now() - t0); return r; };
                const slider = document.querySelector('[data-control="layers"]');
                for (let i = 0; i < reps; i++) {
                    slider.value = i % 2 ? 128 : 127;
                    slider.dispatchEvent(new Event('input', {bubbles: true}));
                    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
                }
                Plotly.react = react;
                return out;
            }""", args.reps)
            browser.close()

    med_c, med_u = statistics.median(times["compute"]), statistics.median(times["update"])
    med_r = statistics.median(redraw)
    print(json.dumps({
        "N": N, "reps": args.reps,
        "compute_ms_median": round(med_c, 2), "update_ms_median": round(med_u, 2),
        "redraw_ms_median": round(med_r, 2),
        "goal_ms": 16, "meets_goal": med_u <= 16,
        "browser": times["version"], "cpu": platform.processor() or platform.machine(),
    }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
