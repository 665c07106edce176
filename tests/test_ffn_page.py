"""Lesson C4-1's own page checks (the lesson contract test holds what every lesson shares): the numbers its
"Done when" names, each from the registry as the page shows it; the equal-parameter derivation; the next
gap's link to lesson 2 once that page exists."""
from __future__ import annotations

import re

import pytest

from course.paths import DOCS

PAGES = {"zh": DOCS / "c4/ffn.md", "en": DOCS / "c4/ffn.en.md"}

DONE_WHEN = {
    "anchor.hidden_size": "5,120",
    "anchor.ffn_width": "17,408",
    "anchor.ffn_ratio": "3.4d",
    "anchor.ffn_share": "61.6%",
    "transformer_base.hidden_size": "512",
    "transformer_base.ffn_width": "2,048",
    "gpt2.hidden_size": "768",
    "gpt2.ffn_width": "3,072",
    "ffn.llama2.width_by_rule": "11,008",
    "ffn.deepseek_llm_67b.width_by_rule": "22,016",
    "vaswani.dff_1024.ppl": "5.12",
    "vaswani.dff_2048.ppl": "4.92",
    "vaswani.dff_4096.ppl": "4.75",
    "shazeer.gelu.loss": "1.983",
    "shazeer.swiglu.loss": "1.944",
    "project.ffn_hidden": "344",
}


def text(lang: str) -> str:
    return PAGES[lang].read_text(encoding="utf-8")


def section(md: str, anchor: str) -> str:
    start = md.index(f"{{#{anchor}}}")
    nxt = re.search(r"^## ", md[start:], re.M)
    return md[start:start + nxt.start()] if nxt else md[start:]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_done_when_numbers_are_on_the_page_from_the_registry(lang, registry):
    for key, shown in DONE_WHEN.items():
        assert f"<!-- n:{key} -->" in text(lang), key
        assert registry[key].text[lang] == shown, f"{key}: registry shows {registry[key].text[lang]!r}"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_page_derives_the_equal_parameter_width(lang):
    md = section(text(lang), "step-swiglu")
    assert r"3 \cdot d \cdot d_\text{ff} = 2 \cdot d \cdot 4d" in md and r"d_\text{ff} = \frac{8d}{3}" in md


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_next_gap_leads_to_lesson_2_by_its_cross_reference(lang):
    """The next gap names lesson 2 by its id (<!-- ref:c4-2 -->), which renders as a link once the page is
    written and as a planned lesson before; a hand-written link to residual.md would do neither."""
    md = section(text(lang), "next-gap")
    assert ("残差" if lang == "zh" else "residual") in md
    assert re.search(r"<!--\s*ref:c4-2(\s|-->)", md), "the next gap must refer to lesson 2 as <!-- ref:c4-2 -->"
    assert "residual.md" not in md, "refer to lesson 2 by its id, not by a hand-written link"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_apple_reads_only_the_tokens_before_it(lang):
    """The anchor is a causal decoder: in 小明把苹果给了小王, 苹果 can read 小明 and 把, never 给了 or 小王."""
    md = section(text(lang), "from-what-we-know")
    assert "小明" in md and "把" in md
    assert "who gave it to whom" not in md and "谁把它给了谁" not in md


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_ring_toy_says_it_is_teaching_data(lang, registry):
    md = section(text(lang), "design-it-yourself")
    assert ("手工摆好" if lang == "zh" else "placed by hand") in md
    from course.project import units as discover
    _, ring = discover().widget("ring-classifier")
    assert ("教学数据" if lang == "zh" else "Teaching data") in ring.labels["data"][lang]
