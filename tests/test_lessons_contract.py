"""The contract every lesson keeps, checked for each lesson package the build discovers: a new lesson gets
these checks by existing. All of it is read from the sources (its package, its two Markdown pages, the
registry computed in-process), so `make check` runs it without building the site; only the last test
(that the numbers reach the built HTML in their provenance spans) needs the built site.

What a lesson must have: a package `lessons/<package>/__init__.py` whose UNIT has an id equal to its
namespace, an order (chapter, n) of a chapter that exists (`chapters/c<chapter>/`), a title in both
languages with the question it answers, and a page `docs/c<chapter>/<slug>.md` with its English twin `.en.md`; each page opens with a
title and has sections with ids (`## … {#id}`), the same in both languages, and names the same numbers,
labels and shortcodes. Every shortcode on a page resolves (a registry key, a widget's label, a widget,
a figure, a table, a reference and its section) and no registry number is typed into its prose.
What a lesson may have (numbers, widgets, figures, claims, a notebook) is held to the rules for what it
has: its numbers carry its namespace, each widget has its module, a twin test and a browser test, each
figure a text alternative in each language, each notebook both language versions."""
from __future__ import annotations

import ast
import functools
import os
import re

import pytest

from conftest import LANGS
from course.paths import DOCS, ROOT
from course.project import units as discover

UNITS = discover()
# COURSE_TEST_BUILD=draft (a lesson written before its runs' results exist, conftest.py): a key the registry
# does not hold yet shows as ⟨key?⟩, as the draft build shows it, instead of failing here
DRAFT = os.environ.get("COURSE_TEST_BUILD") == "draft"
LESSONS = UNITS.lessons
IDS = [u.id for u in LESSONS]
SHORTCODE = re.compile(r"<!--\s*(n|label|table|figure|widget|question):([\w.\-]+)(?:\s+(\w+))?\s*-->")
ANY_SHORTCODE = re.compile(r"<!--\s*(n|label|table|figure|widget|ref|question):([\w.\-]+(?:#[\w\-]+)?)(?:\s+(\w+))?\s*-->")
HEADING_ID = re.compile(r"^#{2,6} .*\{#([\w\-]+)\}\s*$", re.M)
CJK = re.compile(r"[\u3400-\u9fff]")


def page_path(stem: str, lang: str, suffix: str = ".md"):
    return DOCS / (f"{stem}{suffix}" if lang == "zh" else f"{stem}.en{suffix}")


def page(unit, lang: str) -> str:
    path = page_path(unit.pages[0], lang)
    assert path.exists(), (f"{path.relative_to(ROOT)} is missing: lesson {unit.id} ({unit.module}) names the page "
                           f"{unit.pages[0]!r}; write it in Chinese (docs/{unit.pages[0]}.md) and in English "
                           f"(docs/{unit.pages[0]}.en.md)")
    return path.read_text(encoding="utf-8")


def shortcodes(md: str, kinds: tuple[str, ...]) -> list[str]:
    return [f"{k}:{n}" + (f" {m}" if m else "") for k, n, m in SHORTCODE.findall(md) if k in kinds]


def where(unit) -> str:
    return f"lesson {unit.id} ({unit.module.replace('.', '/')}/__init__.py)"


def test_lessons_are_discovered_in_chapter_order():
    assert LESSONS, "no lesson package under lessons/: README.md, 'Adding a lesson', says what one holds"
    assert list(LESSONS) == sorted(LESSONS, key=lambda u: u.order), "discover() lists lessons in (chapter, n) order"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_a_lesson_has_what_every_lesson_must_have(unit):
    """Its identity (namespace = id, order (chapter, n) of an existing chapter), its titles and its page."""
    assert unit.namespace == unit.id, f"{where(unit)}: give it namespace={unit.id!r}, the same as its id"
    assert len(unit.order) == 2 and all(isinstance(x, int) and x > 0 for x in unit.order), \
        f"{where(unit)}: order={unit.order!r}; a lesson's order is (chapter, n), e.g. order=(9, 1)"
    chapters = {c.order[0]: c for c in UNITS.chapters}
    assert unit.order[0] in chapters, (
        f"{where(unit)}: chapter C{unit.order[0]} has no package; create chapters/c{unit.order[0]}/__init__.py "
        f"with UNIT = Unit(id='c{unit.order[0]}', kind='chapter', order=({unit.order[0]},), namespace='c{unit.order[0]}', "
        f"pages=('c{unit.order[0]}/index',)), and its title and question in words.LANG.json beside it "
        f"(README.md, 'Adding a chapter')")
    same = [u.id for u in LESSONS if u.order == unit.order and u is not unit]
    assert not same, f"{where(unit)}: lessons {same} have the same order {unit.order}; each lesson its own n"
    for lang in LANGS:
        assert unit.title.get(lang), f"{where(unit)}: add its title in {lang} (\"title\" in words.{lang}.json)"
    assert unit.pages, f"{where(unit)}: name its page, pages=('c{unit.order[0]}/<slug>',)"
    for lang in ("zh", "en"):
        text = page(unit, lang)
        assert re.match(r"\s*# \S", text), f"docs/{page_path(unit.pages[0], lang).relative_to(DOCS)}: start the page with its title, '# …'"
    for stem in unit.notebooks:
        for lang in ("zh", "en"):
            path = page_path(stem, lang, ".ipynb")
            assert path.exists(), f"{where(unit)} names the notebook {stem!r}: {path.relative_to(ROOT)} is missing"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_both_languages_have_the_same_sections(unit):
    zh, en = HEADING_ID.findall(page(unit, "zh")), HEADING_ID.findall(page(unit, "en"))
    stem = unit.pages[0]
    assert zh, f"docs/{stem}.md has no section with an id: give each section one, '## 问题 {{#question}}'"
    assert zh == en, (f"docs/{stem}.md and docs/{stem}.en.md: give both the same section ids in the same order\n"
                      f"zh {zh}\nen {en}")


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_both_languages_name_the_same_numbers_labels_and_shortcodes(unit):
    stem = unit.pages[0]
    for kinds in (("n", "label"), ("table", "figure", "widget", "question")):
        zh, en = shortcodes(page(unit, "zh"), kinds), shortcodes(page(unit, "en"), kinds)
        if kinds == ("n", "label"):
            zh, en = set(zh), set(en)
        assert zh == en, (f"docs/{stem}.md and docs/{stem}.en.md name different {'/'.join(kinds)} shortcodes"
                          + ("" if kinds == ("n", "label") else " (or in another order)")
                          + f": only zh {sorted(set(zh) - set(en))}; only en {sorted(set(en) - set(zh))}")


@pytest.fixture(scope="module")
def refs():
    """The course's references as the build makes them: the course map's plans with the written units in it."""
    from course.core.references import build_references, load_course_map
    return build_references(load_course_map(ROOT / "data" / "course-map.json"), UNITS.written(), DOCS, LANGS)


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_the_course_map_lists_the_lesson_with_its_question(unit, refs):
    """The course map, the navigation and the chapter's lesson list name a lesson by its unit's title and
    question: nothing to add to data/course-map.json."""
    for lang in LANGS:
        assert unit.question.get(lang), f"{where(unit)}: add the question it answers in {lang} (\"question\" in words.{lang}.json)"
    assert refs.target(unit.ref).written and refs.target(unit.ref).page == unit.pages[0], \
        f"{where(unit)}: the course map does not reach its page"
    lessons = [x.id for x in refs.chapter(unit.chapter_ref).lessons]
    assert unit.ref in lessons, f"{where(unit)}: chapter {unit.chapter_ref}'s lesson list lacks {unit.ref}"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_every_shortcode_on_the_pages_resolves(unit, reg, refs):
    """What the build expands, expanded here (a figure only by name: its drawing needs the built figures):
    an unknown key, label, widget, figure, table or reference fails the build, and here first."""
    from course.core.errors import ShortcodeError
    from course.core.shortcodes import PageContext, expand
    figures = {f.name for _, f in UNITS.figures()}
    problems = []
    for lang in ("zh", "en"):
        src = page_path(unit.pages[0], lang).relative_to(DOCS).as_posix()
        ctx = PageContext(registry=reg, units=UNITS, lang=lang, where=f"docs/{src}", refs=refs, unit=unit,
                          url=("en/" if lang == "en" else "") + unit.pages[0] + "/", draft=DRAFT)
        for m in ANY_SHORTCODE.finditer(page(unit, lang)):
            kind, name, _ = m.groups()
            if kind == "figure":
                if name not in figures:
                    problems.append(f"docs/{src}: unknown figure {name!r} in {m.group(0)}: add it to a unit's "
                                    f"figures (known: {', '.join(sorted(figures))})")
                continue
            try:
                expand(m.group(0), ctx)
            except ShortcodeError as e:
                problems.append(str(e))
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_the_lessons_numbers_carry_its_name(unit, reg):
    """A lesson's numbers are the keys under its namespace (its Scope prefixes them): a numbers function adds
    at least one, and no line of the lesson's package defines a key outside it. A lesson without numbers=…
    has none (it may quote the course's and its chapter's)."""
    own = sorted(k for k in reg.numbers if k.startswith(unit.namespace + "."))
    if unit.numbers is None:
        assert own == [], f"{where(unit)} has no numbers=…, yet the registry holds {own[:5]}"
        return
    assert own, f"{where(unit)}: its numbers function adds no number under {unit.namespace}.; add one or drop numbers=…"
    folder = str(unit.folder.resolve()) + "/"
    stray = sorted(k for k, n in reg.numbers.items()
                   if n.defined_at.startswith(folder) and not k.startswith(unit.namespace + "."))
    assert stray == [], (f"{where(unit)} defines keys outside its namespace {unit.namespace!r}: {stray[:5]}; add them "
                         f"through the Scope the numbers function is given (reg.add('name', …) → {unit.namespace}.name)")


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_no_registry_number_is_typed_into_the_prose(unit, reg):
    from test_pages import typed_numbers_in
    for lang in ("zh", "en"):
        hits = typed_numbers_in(page(unit, lang), reg)
        assert hits == [], (f"docs/{page_path(unit.pages[0], lang).relative_to(DOCS)}: registry numbers typed by "
                            f"hand; write <!-- n:KEY --> instead: {hits}")


@functools.cache
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
    test_browser_<widget> drives the widget in Chromium and compares its read-outs with the twin.
    A unit without widgets has nothing to show here."""
    names = collected_test_names()
    for w in unit.widgets:
        stem = w.name.replace("-", "_")
        assert unit.js(w).exists(), f"{w.name}: {unit.js(w).relative_to(ROOT)} is missing (the widget's module)"
        assert any(n.startswith(f"test_twin_{stem}") for n in names), \
            f"widget {w.name} of {unit.id}: write a test named test_twin_{stem}… (its Python twin against the formulas)"
        assert any(n.startswith(f"test_browser_{stem}") for n in names), \
            f"widget {w.name} of {unit.id}: write a test named test_browser_{stem}… (the widget in Chromium against its twin)"


@pytest.mark.parametrize("unit", LESSONS, ids=IDS)
def test_every_figure_has_a_text_alternative_in_each_language(unit):
    """For each figure the lesson has (none is fine)."""
    if not unit.figures:
        return
    from course.common.measured import load_results
    results = load_results()
    for fig in unit.figures:
        for lang in ("zh", "en"):
            built = fig.build(results, lang)
            alt = built.get("alt", "")
            assert len(alt) > 40, f"figure {fig.name} of {unit.id} ({lang}): give it an alt text of a sentence or more"
            assert bool(CJK.search(alt)) == (lang == "zh"), f"figure {fig.name} ({lang}): write its alt in the page's language"
            assert built["layout"]["title"]["text"], f"figure {fig.name} ({lang}): give it a title"


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
    import html as h
    for lang in ("zh", "en"):
        html = (site_dir / ("en/" if lang == "en" else "") / unit.pages[0] / "index.html").read_text(encoding="utf-8")
        for key in {n for k, n, m in SHORTCODE.findall(page(unit, lang)) if k == "n" and m != "plain"}:
            if DRAFT and key not in registry:
                continue   # shown as ⟨key?⟩ until its results exist
            text = registry[key].text[lang]
            assert re.search(rf'data-key="{re.escape(key)}"[^>]*>{re.escape(h.escape(text))}</span>', html), \
                f"{unit.pages[0]} ({lang}): {key} = {text!r} is not in a provenance span"
