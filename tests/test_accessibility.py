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
