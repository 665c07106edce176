#!/usr/bin/env python3
"""Lighthouse (mobile, simulated throttling) on lesson pages against a plain mkdocs-material page of the same
prose, in the same run on the same machine (a script, not a test: it measures).

The plain page: the lesson's own Markdown built by mkdocs-material with its default theme and search, and
nothing of this project (no plugin, no widget, no figure, no script of ours); for a lab, its notebook built by
the same theme with mkdocs-jupyter's defaults. Both sites are served from
loopback with text files gzip-compressed, as a static host sends them. Each page is measured REPS times,
the pages taking turns; the medians and ranges are printed, and written as JSON with --json.

    python scripts/bench_lighthouse.py [--reps 3] [--pages c4/normalization en/c4/gating … | --all] [--json FILE]

--all measures every lesson page and lab, in both languages. The JSON records the commit, the date, the machine
and its load average before and after.

Needs the built site (`python build.py` first), Debian's chromium, and Node.js: Lighthouse 12.2.3 is
installed into .build/lighthouse on first use (npm, from the npm registry).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course.core.browser import CHROMIUM, serve
from course.paths import BUILD, DOCS, ROOT, SITE
from course.project import units

LIGHTHOUSE = "12.2.3"
PAGES = ["c4/normalization", "c8/postln-warmup", "en/c4/gating"]
AUDITS = {"fcp": "first-contentful-paint", "lcp": "largest-contentful-paint", "tbt": "total-blocking-time",
          "si": "speed-index", "cls": "cumulative-layout-shift", "bytes": "total-byte-weight", "dom": "dom-size"}


def lighthouse() -> Path:
    home = BUILD / "lighthouse"
    cli = home / "node_modules" / ".bin" / "lighthouse"
    if not cli.exists():
        home.mkdir(parents=True, exist_ok=True)
        print(f"installing lighthouse@{LIGHTHOUSE} into {home} …", file=sys.stderr)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(home),
                        f"lighthouse@{LIGHTHOUSE}"], check=True)
    return cli


def source_of(page: str) -> Path:
    """docs/ source of a built page: en/c4/gating → docs/c4/gating.en.md, c4/normalization → docs/c4/normalization.md,
    a lab: c4/normalization-lab → docs/c4/normalization-lab.ipynb."""
    en = page.startswith("en/")
    stem = page.removeprefix("en/")
    for suffix in (".md", ".ipynb"):
        path = DOCS / (stem + (".en" if en else "") + suffix)
        if path.exists():
            return path
    raise SystemExit(f"{page}: no Markdown or notebook source at {DOCS / stem}.*")


def plain_site(pages: list[str], out: Path) -> None:
    """The same prose as a plain mkdocs-material site: each page's Markdown, with the project's snippet
    includes dropped, or its notebook, built with the theme's defaults."""
    docs = out / "docs"
    notebooks = False
    for page in pages:
        source = source_of(page)
        target = docs / (page + source.suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".ipynb":
            notebooks = True
            shutil.copyfile(source, target)
            continue
        text = source.read_text(encoding="utf-8")
        text = re.sub(r"^-{2}8<-{2}.*$", "", text, flags=re.M)
        target.write_text(text, encoding="utf-8")
    (docs / "index.md").write_text("# plain\n", encoding="utf-8")
    (out / "mkdocs.yml").write_text(
        "site_name: plain\nuse_directory_urls: true\ntheme:\n  name: material\n  font: false\n"
        + ("plugins: [search, mkdocs-jupyter]\n" if notebooks else "")
        + "markdown_extensions: [admonition, attr_list, md_in_html, tables, toc, pymdownx.details, pymdownx.superfences,\n"
        "  {pymdownx.tabbed: {alternate_style: true}}, {pymdownx.arithmatex: {generic: true}}]\n", encoding="utf-8")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    subprocess.run([str(mkdocs), "build", "-q", "-f", str(out / "mkdocs.yml"), "-d", str(out / "site")], check=True)


def run_once(cli: Path, url: str, report: Path) -> dict:
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    subprocess.run([str(cli), url, "--quiet", "--output=json", f"--output-path={report}",
                    "--only-categories=performance,accessibility,best-practices",
                    "--chrome-flags=--headless=new --no-sandbox --disable-gpu"], check=True, env=env)
    r = json.loads(report.read_text(encoding="utf-8"))
    row = {k: round(v["score"] * 100) for k, v in r["categories"].items()}
    row.update({k: r["audits"][a]["numericValue"] for k, a in AUDITS.items()})
    return row


def every_page() -> list[str]:
    """Every lesson's pages and every lab (a notebook in docs/), in each language."""
    stems = [p for u in units().all if u.kind == "lesson" for p in u.pages]
    stems += sorted(str(nb.relative_to(DOCS).with_suffix("")) for nb in DOCS.rglob("*.ipynb") if not nb.stem.endswith(".en"))
    return stems + ["en/" + s for s in stems]


def conditions() -> dict:
    """What the figures were measured on: the commit (and whether the tree differed from it), the date, the
    machine and how busy it was."""
    git = lambda *a: subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    cpu = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text()) if Path("/proc/cpuinfo").exists() else None
    return {"commit": git("rev-parse", "HEAD"), "changed_files": git("status", "--porcelain", "--untracked-files=no").splitlines(),
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "cpu": cpu.group(1) if cpu else "",
            "cores": os.cpu_count(), "load_average": list(os.getloadavg())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pages", nargs="+", default=PAGES)
    ap.add_argument("--all", action="store_true", help="every lesson page and lab, in both languages")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.all:
        args.pages = every_page()
    before = conditions()
    if not (SITE / "index.html").exists():
        raise SystemExit("site/ is not built: run `python build.py` first")
    cli = lighthouse()
    runs: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        plain_site(args.pages, tmp / "plain")
        with serve(SITE, compress=True) as ours, serve(tmp / "plain" / "site", compress=True) as plain:
            for rep in range(args.reps):
                for page in args.pages:
                    for kind, base in (("lesson", ours), ("plain", plain)):
                        name = f"{kind} {page}"
                        print(f"[{rep + 1}/{args.reps}] {name}", file=sys.stderr, flush=True)
                        runs.setdefault(name, []).append(run_once(cli, f"{base}/{page}/", tmp / "report.json"))
    summary = {"conditions": before | {"load_average_after": list(os.getloadavg())}}
    print(f"\nat {before['commit'][:10]}{' (with changes)' if before['changed_files'] else ''}, {before['date']}, "
          f"{before['cpu']} ({before['cores']} cores), load average {before['load_average'][0]:.2f} before, "
          f"{summary['conditions']['load_average_after'][0]:.2f} after")
    print(f"Lighthouse {LIGHTHOUSE}, mobile, simulated throttling; {args.reps} runs each; median [min–max]")
    print(f"{'page':38} {'perf':>12} {'a11y':>5} {'b.p.':>5} {'TBT ms':>16} {'LCP s':>14} {'KB':>7} {'DOM':>6}")
    for name, rows in runs.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        span = {k: (min(r[k] for r in rows), max(r[k] for r in rows)) for k in rows[0]}
        summary[name] = {"median": med, "range": span, "runs": rows}
        print(f"{name:38} {med['performance']:>4.0f} [{span['performance'][0]}–{span['performance'][1]}]"
              f" {med['accessibility']:>5.0f} {med['best-practices']:>5.0f}"
              f" {med['tbt']:>6.0f} [{span['tbt'][0]:.0f}–{span['tbt'][1]:.0f}]"
              f" {med['lcp'] / 1000:>5.1f} [{span['lcp'][0] / 1000:.1f}–{span['lcp'][1] / 1000:.1f}]"
              f" {med['bytes'] / 1024:>7.0f} {med['dom']:>6.0f}")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
