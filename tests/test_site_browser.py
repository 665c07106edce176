"""The built site in headless Chromium: numbers with provenance, language switch, palettes, no other hosts.
The pages: the home page, the first chapter's overview (whichever chapter the units put first) and the
numbers appendix."""
import pytest

from conftest import LANGS, lesson_path, page_url, placed
from course.project import units as discover

CHAPTER = discover().chapters[0].pages[0]   # "c4/index" while C4 is the first chapter
PAGES = ["index", CHAPTER, "appendix/numbers"]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("stem", PAGES)
def test_pages_load_clean_with_provenance(open_page, lang, stem):
    """A page whose Markdown names numbers shows them with their provenance on hover."""
    v = open_page(page_url(stem, lang))
    nums = v.page.locator(".reg-num")
    if placed(stem, "n", lang):
        assert nums.count() > 0
        nums.first.hover()
        tip = v.page.locator(".reg-num-tip")
        tip.wait_for()
        assert tip.inner_text().startswith("计算" if lang == "zh" else "Computed"), tip.inner_text()
    assert v.page.locator("html").get_attribute("lang").startswith(lang)
    v.check_clean()


def test_number_shows_provenance_on_focus(open_page, registry):
    """The first number the English home page names."""
    named = placed("index", "n", "en")
    assert named, "docs/index.en.md names no number (<!-- n:KEY -->)"
    key = named[0]
    v = open_page("en/")
    num = v.page.locator(f'.reg-num[data-key="{key}"]').first
    num.focus()
    assert num.evaluate("e => document.activeElement === e")
    tip = v.page.locator(".reg-num-tip")
    tip.wait_for()
    # the tooltip and the accessible name both carry the registry's account of the number, in the reader's words
    told = registry[key].hover("en")
    assert told in tip.inner_text()
    assert told in num.get_attribute("aria-label")
    v.page.keyboard.press("Escape")
    assert tip.is_hidden()
    v.check_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_number_tooltip_fits_a_phone_and_hides_nothing_it_explains(open_page, lang):
    """At 390 px a tap on a number in a table opens its provenance within the screen, and the box covers
    neither the number nor the rest of its row."""
    stem = "c3/kv-cache"
    v = open_page(page_url(stem, lang), width=390)
    num = v.page.locator("td .reg-num").first
    assert num.count(), f"{stem} has no number in a table cell"
    num.scroll_into_view_if_needed()
    num.click()   # a tap focuses it
    tip = v.page.locator(".reg-num-tip")
    tip.wait_for()
    box, row = tip.bounding_box(), num.evaluate(
        "e => { const r = e.closest('tr').getBoundingClientRect(); return {y: r.top + scrollY, bottom: r.bottom + scrollY}; }")
    viewport = v.page.evaluate("document.documentElement.clientWidth")
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport, (box, viewport)
    assert box["y"] + box["height"] <= row["y"] or box["y"] >= row["bottom"], (box, row)
    assert tip.inner_text() == num.get_attribute("data-tip")
    v.page.locator("h1").first.click()   # a tap elsewhere closes it
    assert tip.is_hidden()
    v.check_clean()


def test_language_switcher_lands_on_same_page(open_page):
    v = open_page(page_url(CHAPTER))
    v.page.locator(".md-select").first.hover()
    v.page.locator('a[hreflang="en"]').first.click()
    v.page.wait_for_load_state("networkidle")
    assert v.page.url.rstrip("/").endswith("/" + page_url(CHAPTER, "en").rstrip("/"))
    v.check_clean()


@pytest.mark.parametrize("scheme,expected", [("light", "default"), ("dark", "slate")])
def test_palette_follows_reader(open_page, scheme, expected):
    v = open_page(page_url(CHAPTER), scheme=scheme)
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == expected
    v.check_clean()


RECORD_BODY_CHANGES = """window.__bodyChanges = [];
new MutationObserver(function (records) {
  records.forEach(function (r) {
    if (r.target === document.body)
      window.__bodyChanges.push({name: r.attributeName, content: !!document.querySelector('.md-content')});
  });
}).observe(document, {attributes: true, subtree: true});"""


def test_palette_is_set_while_parsing_and_a_choice_is_remembered(open_page):
    """The palette (overrides/partials/javascripts/palette.html) sets <body>'s colors while the header is parsed:
    after that nothing on load touches them, nor sets the theme's data-md-color-switching (each restyled the
    whole page). The toggle shown switches, stores the choice, and the next page opens with it."""
    v = open_page(page_url(CHAPTER), scheme="dark", init_script=RECORD_BODY_CHANGES)
    body = v.page.locator("body")
    assert body.get_attribute("data-md-color-scheme") == "slate"
    changes = v.page.evaluate("window.__bodyChanges")
    assert any(c["name"] == "data-md-color-scheme" for c in changes), "the recorder saw no palette being set"
    late = [c["name"] for c in changes if c["content"] and c["name"].startswith("data-md-color")]
    assert not late, f"<body>'s colors changed once the content was there (a restyle of the whole page): {late}"
    assert v.page.evaluate("document.querySelector('meta[name=color-scheme]').content") == "dark"
    toggles = v.page.locator("form[data-course-palette] label:not([hidden])")
    assert toggles.count() == 1
    toggles.first.click()
    assert body.get_attribute("data-md-color-scheme") == "default"
    assert v.page.evaluate("document.querySelector('meta[name=color-scheme]').content") != "dark"
    assert "data-md-color-switching" not in [c["name"] for c in v.page.evaluate("window.__bodyChanges")]
    v.goto(page_url("index"))
    assert body.get_attribute("data-md-color-scheme") == "default", "the reader's choice was not remembered"
    v.check_clean()


@pytest.fixture(scope="module")
def subpath_server(site_dir):
    """The same site served under /course/, as a static host publishing it at a sub-path would."""
    from course.core.browser import serve
    with serve(site_dir, prefix="/course") as base:
        yield base


@pytest.mark.parametrize("path", ["", "en/", page_url(CHAPTER), page_url(CHAPTER, "en"), "en/appendix/numbers/"])
def test_site_works_under_a_sub_path(browser, subpath_server, path):
    from conftest import Visit
    ctx = browser.new_context()
    try:
        v = Visit(ctx.new_page(), subpath_server)
        v.goto(path)
        assert v.page.locator("article h1").count() == 1
        v.page.locator(".md-select").first.hover()
        other = v.page.locator(".md-select__link").nth(1 if not path.startswith("en") else 0)
        other.click()
        v.page.wait_for_load_state("networkidle")
        assert "/course/" in v.page.url
        v.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_scripts_speak_the_page_s_language_and_say_when_a_text_is_missing(open_page, lang):
    """The scripts take the page's language from the page (<html lang>, a widget's or figure's data-lang) and
    look every label up in it: no script names a language. A label or figure without the page's language is a
    console error and shows as ⟨LANG?⟩ on the page, never as another language's text."""
    from course.core.words import core_words
    v = open_page(lesson_path(discover().lessons[0], lang))   # widgets, figures and numbers
    v.settle()
    assert v.page.evaluate("CW.lang()") == lang
    assert v.page.evaluate("[...document.querySelectorAll('[data-widget], .plotly-figure')].length") > 0
    assert v.page.evaluate("[...document.querySelectorAll('[data-lang]')].every(e => CW.lang(e) === CW.lang())")
    labels = {code: f"label in {code}" for code in LANGS}
    assert v.page.evaluate("labels => CW.t(labels)", labels) == labels[lang]
    # the hint for moving among a paragraph's numbers: written by the build in the page's language
    assert v.page.locator("#reg-num-hint").text_content() == core_words().lang(lang)("reg_num.hint")
    v.check_clean()

    assert v.page.evaluate("labels => { document.documentElement.lang = 'qq'; return CW.t(labels); }", labels) == "⟨qq?⟩"
    figure = next(f.name for _, f in discover().figures())
    v.page.evaluate("""name => { const el = document.createElement('div');
        el.className = 'plotly-figure'; el.dataset.figure = name; el.dataset.lang = 'qq'; el.id = 'qq-figure';
        document.querySelector('article').appendChild(el); document$.next(document); }""", figure)
    v.page.wait_for_function("() => document.getElementById('qq-figure').textContent === '⟨qq?⟩'")
    errors = [e for e in v.console_errors if "no text in the page's language (qq)" in e]
    assert any("label" in e for e in errors) and any(f"figure {figure}" in e for e in errors), v.console_errors
