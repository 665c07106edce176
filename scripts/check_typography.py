#!/usr/bin/env python3
"""Chinese typography of the built Chinese pages, of the widgets' label tables (their zh side) and of the
built figures' Chinese text (legends, hovers, titles, annotations, text alternatives), by
course/core/typography.py: half-width , : ; ( ) next to Chinese characters, and Chinese characters right
beside Latin letters or digits. Code, formulas and a tooltip's identifiers are not counted.

    python scripts/check_typography.py              counts per page and per label table
    python scripts/check_typography.py --show 5     and the first 5 findings of each
    python scripts/check_typography.py --article    the pages' article only (not the navigation, header, footer)
    python scripts/check_typography.py --site DIR   another built site

Exits 1 when anything is found (so it can gate a build once the lesson pages are rewritten).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course.paths import FIGURES, ROOT, SITE
from course.core.typography import check_figure, check_html, check_labels, counts


def chinese_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html")
                  if not p.relative_to(site).parts[0] == "en" and (p.name == "index.html" or p.name == "404.html")
                  and "assets" not in p.relative_to(site).parts)


def label_tables(root: Path = ROOT) -> list[Path]:
    return sorted(list(root.glob("lessons/*/js/*.labels.json")) + list(root.glob("course/common/js/*.labels.json")) + list(root.glob("chapters/*/js/*.labels.json")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=SITE)
    ap.add_argument("--show", type=int, default=0, help="print the first N findings of each file")
    ap.add_argument("--article", action="store_true", help="only the pages' <article>")
    args = ap.parse_args()
    if not args.site.exists():
        sys.exit(f"{args.site} is missing: build the site first")
    total = {"halfwidth": 0, "spacing": 0, "space": 0}
    print(f"{'half-width':>10} {'spacing':>8} {'space':>6}  file")
    rows = [(p.relative_to(args.site).as_posix(),
             check_html(p.read_text(encoding="utf-8"), region="<article" if args.article else None))
            for p in chinese_pages(args.site)]
    rows += [(p.relative_to(ROOT).as_posix(), [f for _, f in check_labels(json.loads(p.read_text(encoding="utf-8")))])
             for p in label_tables()]
    rows += [(p.relative_to(ROOT).as_posix(), [f for _, f in check_figure(json.loads(p.read_text(encoding="utf-8"))["zh"])])
             for p in sorted(FIGURES.glob("*.json"))]
    for name, found in rows:
        c = counts(found)
        total = {k: total[k] + c[k] for k in total}
        print(f"{c['halfwidth']:>10} {c['spacing']:>8} {c['space']:>6}  {name}")
        for f in found[:args.show]:
            print(f"{'':>20}{f}")
    print(f"{total['halfwidth']:>10} {total['spacing']:>8} {total['space']:>6}  in all")
    return 1 if any(total.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
