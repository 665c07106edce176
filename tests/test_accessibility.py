"""axe-core on every page, in both languages and both palettes: no serious or critical violations."""
import json
import re

import pytest

from browser_helpers import contrast

from conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def site_pages(site_dir):
    return sorted(str(p.parent.relative_to(site_dir)).replace(".", "") + "/"
                  for p in site_dir.rglob("index.html"))


def axe_violations(page, within: str | None = None) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (`within`: a CSS selector, only
    in the elements it selects)."""
    if not page.evaluate("() => 'axe' in window"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async ([within]) => await axe.run(within ? {include: [[within]]} : document, "
                           "{resultTypes: ['violations']})", [within])
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations) -> str:
    return json.dumps([{"id": v["id"], "impact": v["impact"], "help": v["help"],
                        "nodes": [n["target"] for n in v["nodes"][:5]]} for v in violations], indent=1)


# the reader's palette (prefers-color-scheme) → mkdocs-material's scheme on <body>
PALETTE = {"light": "default", "dark": "slate"}


def switch_palette(v, to: str) -> None:
    """Click mkdocs-material's palette toggle, as a reader does, and wait until every chart has redrawn. The
    click is the element's own (no pointer left hovering the button, whose tooltip would be fading in)."""
    v.page.locator('form[data-course-palette] label:not([hidden])').evaluate("label => label.click()")
    v.settle()
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == to


def visits(site_dir) -> list[tuple[str, str]]:
    """(page, palette): every page once, a page's two languages in the two palettes, which language goes with
    which palette alternating from one page to the next, so that each language is read in each palette.
    What a palette changes is colors, the same in both languages (one stylesheet); a page's text, names and
    roles are its language's."""
    pages = [p.lstrip("/") for p in site_pages(site_dir)]
    english = [p for p in pages if p.startswith("en/")]
    pairs = [(p, "en/" + p if "en/" + p in english else None) for p in pages if p not in english]
    pairs += [(None, p) for p in english if p.removeprefix("en/") not in pages]
    schemes = ["light", "dark"]
    return [(page, schemes[(i + j) % 2]) for i, pair in enumerate(pairs) for j, page in enumerate(pair) if page is not None]


def test_the_visits_read_every_page_and_each_language_in_each_palette(site_dir):
    seen = visits(site_dir)
    assert sorted(p for p, _ in seen) == sorted(p.lstrip("/") for p in site_pages(site_dir))
    assert {(p.startswith("en/"), s) for p, s in seen} == {(e, s) for e in (False, True) for s in ("light", "dark")}


def test_no_serious_accessibility_violations_in_either_palette(site_dir, open_page):
    """Each page opened once, in the palette `visits` gives it (the reader's system setting, which the site
    follows), and checked with every rule."""
    assert AXE.exists(), "make test installs axe-core (npm ci)"
    failures = {}
    for path, scheme in visits(site_dir):
        v = open_page(path, scheme=scheme)
        assert v.page.locator("body").get_attribute("data-md-color-scheme") == PALETTE[scheme]
        found = axe_violations(v.page)
        if found:
            failures[f"{path} ({scheme})"] = describe(found)
        v.check_clean()
        v.page.context.close()
    assert failures == {}, "\n".join(f"{p}: {d}" for p, d in failures.items())


# each prompt's text color, its opacity and the color behind it (the nearest ancestor's that has one)
PROMPTS = """() => [...document.querySelectorAll('.jupyter-wrapper :is(.jp-InputPrompt, .jp-OutputPrompt)')]
    .filter(p => p.textContent.trim() && p.getClientRects().length).map(p => {
        let a = p, bg = 'rgba(0, 0, 0, 0)';
        while (a && bg === 'rgba(0, 0, 0, 0)') { bg = getComputedStyle(a).backgroundColor; a = a.parentElement; }
        const s = getComputedStyle(p);
        return {fg: s.color, opacity: +s.opacity, bg};
    })"""


def rgba(text: str) -> tuple[float, float, float, float]:
    parts = [float(x) for x in re.findall(r"[\d.]+", text)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_labs_prompts_read_at_the_contrast_of_text(open_page, scheme):
    """A notebook's prompts ("In [2]:"), which its stylesheet draws grey at half opacity (2.2:1 on white), read at
    4.5:1 or more (docs/assets/course.css). axe passes them over as long as no block around them is contained."""
    v = open_page("c4/normalization-lab/", scheme=scheme)
    prompts = v.page.evaluate(PROMPTS)
    assert prompts, "the lab shows no prompt to test with"
    for p in prompts:
        r, g, b, a = rgba(p["fg"])
        br, bg_, bb, _ = rgba(p["bg"])
        a *= p["opacity"]
        drawn = "rgb({}, {}, {})".format(*(round(c * a + d * (1 - a)) for c, d in ((r, br), (g, bg_), (b, bb))))
        assert contrast(drawn, p["bg"]) >= 4.5, (scheme, p)
    v.check_clean()


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
