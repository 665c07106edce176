"""Every built Chinese page is written in the project's own words: the seed-overlap tool finds no passage
it shares with the seed lesson and no sentence that reads as a near copy of one."""
from __future__ import annotations

import subprocess
import sys



def chinese_pages(site_dir):
    """site/**/index.html, except the English site and the search page."""
    return sorted(p for p in site_dir.rglob("index.html")
                  if p.relative_to(site_dir).parts[0] not in ("en", "search"))


def test_built_chinese_pages_share_nothing_with_the_seed(site_dir, shared):
    TOOL = shared / "tools" / "seed_overlap.py"
    assert TOOL.is_file(), f"the seed-overlap tool is missing: {TOOL}"
    pages = chinese_pages(site_dir)
    assert site_dir / "c4" / "normalization" / "index.html" in pages and site_dir / "c4" / "index.html" in pages
    r = subprocess.run([sys.executable, str(TOOL), *map(str, pages)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"pages carry sentences of the seed lesson:\n{r.stdout}{r.stderr}"
