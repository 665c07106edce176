"""axe-core on every page, in both languages and both palettes: no serious or critical violations."""
import json

from conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def site_pages(site_dir):
    return sorted(str(p.parent.relative_to(site_dir)).replace(".", "") + "/"
                  for p in site_dir.rglob("index.html"))


def axe_violations(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (`rules`: only those rules)."""
    if not page.evaluate("() => 'axe' in window"):
        page.add_script_tag(path=str(AXE))
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    result = page.evaluate("async (options) => await axe.run(document, options)", options)
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations) -> str:
    return json.dumps([{"id": v["id"], "impact": v["impact"], "help": v["help"],
                        "nodes": [n["target"] for n in v["nodes"][:5]]} for v in violations], indent=1)


# What a palette changes is color: in the second palette only axe's rules that read colors run again (the
# structure, names and roles a page has do not depend on its palette).
COLOR_RULES = ["color-contrast", "link-in-text-block"]


def switch_palette(v, to: str) -> None:
    """Click mkdocs-material's palette toggle, as a reader does, and wait until every chart has redrawn. The
    click is the element's own (no pointer left hovering the button, whose tooltip would be fading in)."""
    v.page.locator('form[data-md-component="palette"] label:not([hidden])').evaluate("label => label.click()")
    v.settle()
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == to


def test_no_serious_accessibility_violations_in_either_palette(site_dir, open_page):
    """Each page is opened in the light palette, checked with every rule, switched to the dark palette with the
    reader's toggle (its charts redraw in the dark colors) and checked again with the color rules."""
    assert AXE.exists(), "make test installs axe-core (npm ci)"
    failures = {}
    for path in site_pages(site_dir):
        v = open_page(path.lstrip("/"), scheme="light")
        for scheme, rules in (("default", None), ("slate", COLOR_RULES)):
            if rules:
                switch_palette(v, scheme)
            found = axe_violations(v.page, rules)
            if found:
                failures[f"{path} ({scheme})"] = describe(found)
        v.check_clean()
        v.page.context.close()
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
