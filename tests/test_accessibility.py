"""axe-core on every page, in both languages and both palettes: no serious or critical violations."""
import json

import pytest

from conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def site_pages(site_dir):
    return sorted(str(p.parent.relative_to(site_dir)).replace(".", "") + "/"
                  for p in site_dir.rglob("index.html"))


def axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations) -> str:
    return json.dumps([{"id": v["id"], "impact": v["impact"], "help": v["help"],
                        "nodes": [n["target"] for n in v["nodes"][:5]]} for v in violations], indent=1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations(site_dir, open_page, scheme):
    assert AXE.exists(), "make test installs axe-core (npm ci)"
    failures = {}
    for path in site_pages(site_dir):
        v = open_page(path.lstrip("/"), scheme=scheme)
        found = axe_violations(v.page)
        if found:
            failures[path] = describe(found)
        v.check_clean()
        v.page.close()
    assert failures == {}, "\n".join(f"{p}: {d}" for p, d in failures.items())


def test_every_figure_has_a_text_alternative_in_its_language(site_dir):
    import re
    for page in site_dir.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        for m in re.finditer(r'<div class="plotly-figure"[^>]*>', html):
            tag = m.group(0)
            label = re.search(r'aria-label="([^"]*)"', tag)
            assert label and len(label.group(1)) > 20, f"{page}: {tag[:120]}"
            if 'data-lang="en"' in tag:
                assert not re.search(r"[\u4e00-\u9fff]", label.group(1)), f"{page}: Chinese alt on an English page"


def test_plotly_js_is_served_once_and_never_inlined(site_dir):
    from course.paths import PLOTLY_URI
    copies = [p for p in site_dir.rglob("*.js") if "plotly" in p.name]
    assert [p.relative_to(site_dir).as_posix() for p in copies] == [PLOTLY_URI]
    for page in site_dir.rglob("*.html"):
        assert page.stat().st_size < 1_000_000 or "plotly.js v" not in page.read_text(encoding="utf-8"), page
