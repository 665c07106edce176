"""Lesson C4-3's own page checks (the lesson contract test holds what every lesson shares): the numbers its
"Done when" names, the diagrams drawn in each language, the clickable formula's terms, the widgets' labels
quoted from their label tables, the links to the hands-on notebook, and headings that show no escapes."""
from __future__ import annotations

import re

import pytest

from course.paths import DOCS

PAGES = {"zh": DOCS / "c4/normalization.md", "en": DOCS / "c4/normalization.en.md"}
DIAGRAMS = DOCS / "assets/diagrams"
SNIPPET = re.compile(r'^\s*--8<-- "([\w.\-]+)"\s*$', re.M)
NS = "normalization."

# The lesson's worked numbers, each rendered from the registry (a key) as the lesson shows it.
DONE_WHEN = {
    NS + "worked.x.layernorm": "[−1.069, −0.535, 0, 1.604]",
    NS + "worked.x.rms": "3.536",
    NS + "worked.x.rmsnorm": "[0.283, 0.566, 0.849, 1.697]",
    NS + "worked.shifted.rms": "5.339",
    NS + "worked.shifted.rmsnorm": "[0.562, 0.749, 0.937, 1.499]",
    "anchor.params.norms": "660,480",
    "anchor.norm_share": "0.0024%",
    NS + "norms.all.params": "700,928",
    NS + "sqrt_d": "71.55",
    "anchor.hidden_size": "5,120",
}


def text(lang: str) -> str:
    return PAGES[lang].read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_done_when_numbers_are_on_the_page_from_the_registry(lang, registry):
    for key, shown in DONE_WHEN.items():
        assert f"<!-- n:{key} -->" in text(lang), key
        assert registry[key].text[lang] == shown, f"{key}: registry shows {registry[key].text[lang]!r}"


def test_same_diagrams_drawn_in_each_language():
    zh, en = SNIPPET.findall(text("zh")), SNIPPET.findall(text("en"))
    assert [n.replace(".zh.", ".") for n in zh] == [n.replace(".en.", ".") for n in en]
    assert all(n.endswith(".zh.svg") for n in zh) and all(n.endswith(".en.svg") for n in en)
    assert {n.split(".")[0] for n in zh} == {"batch-stats", "token-stats", "placement"}
    for name in zh + en:
        svg = (DIAGRAMS / name).read_text(encoding="utf-8")
        assert svg.lstrip().startswith("<svg") and "\n\n" not in svg, f"{name}: <svg> blocks (its panels), no blank line"
        assert not re.search(r'(fill|stroke)="(?!none)[^"]*"', svg), f"{name}: colors come from course.css"
    panels = lambda name: (DIAGRAMS / name).read_text(encoding="utf-8").count("<svg")
    assert [panels(n) for n in zh] == [panels(n) for n in en], "a diagram has as many panels in each language"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formula_has_every_term_and_its_explanation(lang):
    md = text(lang)
    terms = re.findall(r'data-term="([\w\-]+)"', md)
    explained = re.findall(r'data-term-text="([\w\-]+)"', md)
    assert set(terms) == set(explained) == {"x", "mean-square", "eps", "sqrt", "one-plus-w", "w"}
    assert 'data-readout="term-explanation"' in md
    assert "<!-- n:anchor.eps plain -->" in md


NOTEBOOK_LINK = re.compile(r"\]\(normalization-lab\.ipynb\)")
# the sections the hands-on notebook extends: each links to it in its own prose
NOTEBOOK_SECTIONS = ("design-it-yourself", "step-rmsnorm", "simulator", "measured")
HEADING = re.compile(r"^#{2,6} .*\{#([\w\-]+)\}\s*$", re.M)


def sections(md: str) -> dict[str, str]:
    """Section id → its text up to the next heading of any level."""
    marks = list(HEADING.finditer(md))
    return {m.group(1): md[m.end():(marks[i + 1].start() if i + 1 < len(marks) else len(md))]
            for i, m in enumerate(marks)}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lesson_links_its_notebook_where_the_notebook_extends_it(lang):
    body = sections(text(lang))
    for section in NOTEBOOK_SECTIONS:
        assert NOTEBOOK_LINK.search(body[section]), f"{lang}: section {section} does not link normalization-lab.ipynb"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_links_resolve_in_the_built_page(lang, site_dir):
    page = site_dir / ("en/" if lang == "en" else "") / "c4/normalization/index.html"
    html = page.read_text(encoding="utf-8")
    assert html.count('href="../normalization-lab/"') >= len(NOTEBOOK_SECTIONS)
    assert (page.parent.parent / "normalization-lab" / "index.html").is_file()


ADMONITION_TITLE = re.compile(r'^\s*[!?]{3}\+? \w+ "(.*)"\s*$', re.M)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_admonition_titles_carry_no_escaped_quotes(lang, site_dir):
    """A title like "\\"After …\\" ✗" shows its backslashes on the page: quote with “ ” or 「」 instead."""
    titles = ADMONITION_TITLE.findall(text(lang))
    assert titles and not [t for t in titles if "\\" in t], titles
    html = (site_dir / ("en/" if lang == "en" else "") / "c4/normalization/index.html").read_text(encoding="utf-8")
    shown = re.findall(r'<p class="admonition-title">(.*?)</p>', html)
    assert shown and not [t for t in shown if "\\" in t], shown


# What the prose says about a widget's controls and read-outs it quotes from the widget's label table.
QUOTED_LABELS = {
    "ln-rms-playground": ("scale", "shift"),
    "residual-sim": ("prenorm", "residual", "scale", "readRms", "streamRms", "gradRatio"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_prose_quotes_widget_labels_from_their_tables(lang, units):
    md = text(lang)
    for widget, keys in QUOTED_LABELS.items():
        units.widget(widget)  # a widget of the course
        for key in keys:
            assert f"<!-- label:{widget}.{key} -->" in md, f"{lang}: {widget}.{key} is not quoted by shortcode"
    # the playground's buttons: the label's text followed by the registry's number, never typed
    for key, number in (("scale", "worked.scale"), ("shift", "worked.shift")):
        assert f"<!-- label:ln-rms-playground.{key} --><!-- n:{NS}{number} -->" in md
    prose = re.sub(r"<!--.*?-->|\$\$.*?\$\$|\$[^$\n]*\$", "", md, flags=re.S)   # no shortcodes, no math
    assert not re.search(r"[×+]\s?\d", prose), "a button label typed with its number"
