"""The contract every lesson keeps, checked for each lesson package the build discovers: a new lesson gets
these checks by existing. Its two language pages have the same section ids, registry keys, labels and
shortcodes; no registry number is typed into its prose; its registry keys carry its name; every widget has
a Python twin test and a browser test; every figure has a text alternative in each language; its pages are
in the navigation in both languages."""
from __future__ import annotations

import ast
import re

import pytest

from course.paths import DOCS, ROOT
from course.project import units as discover

UNITS = discover()
LESSONS = UNITS.lessons
IDS = [u.id for u in LESSONS]
SHORTCODE = re.compile(r"<!--\s*(n|label|table|figure|widget):([\w.\-]+)(?:\s+(\w+))?\s*-->")
HEADING_ID = re.compile(r"^#{2,6} .*\{#([\w\-]+)\}\s*$", re.M)
CJK = re.compile(r"[\u3400-\u9fff]")


def page(unit, lang: str) -> str:
    suffix = ".md" if lang == "zh" else ".en.md"
    return (DOCS / f"{unit.pages[0]}{suffix}").read_text(encoding="utf-8")


def shortcodes(md: str, kinds: tuple[str, ...]) -> list[str]:
    return [f"{k}:{n}" + (f" {m}" if m else "") for k, n, m in SHORTCODE.findall(md) if k in kinds]


def test_lessons_are_discovered_in_chapter_order():
    assert LESSONS, "no lesson package under lessons/"
    assert list(LESSONS) == sorted(LESSONS, key=lambda u: u.order)
    assert all(u.namespace == u.id for u in LESSONS)


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_both_languages_have_the_same_sections(unit):
    zh, en = HEADING_ID.findall(page(unit, "zh")), HEADING_ID.findall(page(unit, "en"))
    assert zh and zh == en, f"zh {zh}\nen {en}"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_both_languages_name_the_same_numbers_labels_and_shortcodes(unit):
    for kinds in (("n", "label"), ("table", "figure", "widget")):
        zh, en = shortcodes(page(unit, "zh"), kinds), shortcodes(page(unit, "en"), kinds)
        if kinds == ("n", "label"):
            zh, en = set(zh), set(en)
        assert zh == en, f"{kinds}: only zh {sorted(set(zh) - set(en))}; only en {sorted(set(en) - set(zh))}"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_every_named_number_exists_and_the_lesson_keys_carry_its_name(unit, registry):
    named = {n for k, n, _ in SHORTCODE.findall(page(unit, "zh") + page(unit, "en")) if k == "n"}
    assert named and named <= set(registry.numbers), sorted(named - set(registry.numbers))
    from course.common.schema import load_inputs
    from course.core.registry import Registry
    own = Registry()
    unit.numbers(own.scope(unit.namespace), load_inputs())
    assert own.numbers and all(k.startswith(unit.namespace + ".") for k in own.numbers)
    chapter_keys = set(registry.numbers) - {k for u in LESSONS for k in registry.numbers if k.startswith(u.namespace + ".")}
    assert not any(k.split(".")[0] in IDS for k in chapter_keys)


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_no_registry_number_is_typed_into_the_prose(unit, registry):
    from test_pages import typed_numbers_in
    for lang in ("zh", "en"):
        hits = typed_numbers_in(page(unit, lang), registry)
        assert hits == [], f"{unit.pages[0]} ({lang}): registry numbers typed by hand (use <!-- n:KEY -->): {hits}"


def collected_test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


@pytest.mark.parametrize("unit", UNITS.all, ids=[u.id for u in UNITS.all])
def test_every_widget_has_a_twin_test_and_a_browser_test(unit):
    """By name: test_twin_<widget> compares the Python twin with the formulas or the registry, and
    test_browser_<widget> drives the widget in Chromium and compares its read-outs with the twin."""
    names = collected_test_names()
    for w in unit.widgets:
        stem = w.name.replace("-", "_")
        assert any(n.startswith(f"test_twin_{stem}") for n in names), f"no test_twin_{stem}* for widget {w.name}"
        assert any(n.startswith(f"test_browser_{stem}") for n in names), f"no test_browser_{stem}* for widget {w.name}"
        assert unit.js(w).exists(), f"{w.name}: {unit.js(w)} is missing"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_every_figure_has_a_text_alternative_in_each_language(unit):
    from course.common.measured import load_results
    results = load_results()
    for fig in unit.figures:
        for lang in ("zh", "en"):
            built = fig.build(results, lang)
            alt = built.get("alt", "")
            assert len(alt) > 40, f"{fig.name} ({lang}): no real text alternative"
            assert bool(CJK.search(alt)) == (lang == "zh"), f"{fig.name} ({lang}): alt is not in the page's language"
            assert built["layout"]["title"]["text"], f"{fig.name} ({lang}): no title"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_pages_exist_in_both_languages(unit):
    """Each page and notebook of the lesson in both languages (the navigation lists them: tests/test_nav.py)."""
    for stem in unit.pages + unit.notebooks:
        suffix = ".ipynb" if stem in unit.notebooks else ".md"
        for path in (DOCS / f"{stem}{suffix}", DOCS / f"{stem}.en{suffix}"):
            assert path.exists(), f"{path.relative_to(ROOT)} is missing: write it (same section ids in both languages)"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_the_built_pages_carry_the_numbers_in_provenance_spans(unit, site_dir, registry):
    """Every number the page names reaches the built HTML inside its span, in each language's text."""
    for lang in ("zh", "en"):
        html = (site_dir / ("en/" if lang == "en" else "") / unit.pages[0] / "index.html").read_text(encoding="utf-8")
        for key in {n for k, n, m in SHORTCODE.findall(page(unit, lang)) if k == "n" and m != "plain"}:
            text = registry[key].text[lang]
            import html as h
            assert re.search(rf'data-key="{re.escape(key)}"[^>]*>{re.escape(h.escape(text))}</span>', html), \
                f"{unit.pages[0]} ({lang}): {key} = {text!r} is not in a provenance span"
