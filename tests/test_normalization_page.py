"""Lesson C4-3's own page checks (the lesson contract test holds what every lesson shares): the numbers its
"Done when" names, the diagrams drawn in each language, the clickable formula's terms."""
from __future__ import annotations

import re

import pytest

from course.core.paths import DOCS

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
        assert svg.lstrip().startswith("<svg") and "\n\n" not in svg, f"{name}: one <svg> block, no blank line"
        assert not re.search(r'(fill|stroke)="(?!none)[^"]*"', svg), f"{name}: colors come from course.css"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formula_has_every_term_and_its_explanation(lang):
    md = text(lang)
    terms = re.findall(r'data-term="([\w\-]+)"', md)
    explained = re.findall(r'data-term-text="([\w\-]+)"', md)
    assert set(terms) == set(explained) == {"x", "mean-square", "eps", "sqrt", "one-plus-w", "w"}
    assert 'data-readout="term-explanation"' in md
    assert "<!-- n:anchor.eps plain -->" in md
