"""Chinese typography (course/core/typography.py): the checker itself, the mechanical pass, and every built
Chinese page, tooltip, alt text and widget label table held to it (`python scripts/check_typography.py
--show 5` prints what the page test would see)."""
import json
import re

import pytest

from course.paths import DOCS, ROOT
from course.core.typography import HIDDEN, check_html, check_labels, check_text, fullwidth

# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("text,kinds", [
    ("残差:x + F(x)", ["halfwidth"]),                       # a colon after Chinese
    ("梯度之比(底层 ÷ 顶层)", ["halfwidth", "halfwidth"]),   # both parentheses
    ("GELU(宽 512)结束", ["halfwidth", "halfwidth"]),
    ("用 RMSNorm, 先预测", ["halfwidth"]),                  # a comma, then a space, then Chinese
    ("锚点模型有64层", ["spacing", "spacing"]),
    ("用RMSNorm", ["spacing"]),
    ("锚点模型有 64 层，残差流宽 5,120 维（按 config 数出）", []),
    ("x + F(x) 的输出", []),                                # a formula's parentheses are not prose
    ("逐元素乘上 σ(门)，再送进", []),                        # nor a function applied to a word
    ("RMS(写入)² 之和", []),
    ("宽度(按 config)", ["halfwidth"]),                    # a parenthesis after Chinese is still prose
    ("计算 `best_line()` 的结果", []),                       # code in backticks
    ("先给答案。 假如", ["space"]),                          # a space after a full-width mark
    ("的分歧（计划中） 去比较", ["space"]),
    ("训练 ，再看", ["space"]),                               # and before one
])
def test_check_text_finds_half_width_marks_and_missing_spaces(text, kinds):
    assert sorted(f.kind for f in check_text(text)) == sorted(kinds)


def test_check_html_leaves_code_formulas_and_tooltip_identifiers_out():
    html = ('<p>先看代码 <code>f(x):y</code>，再看公式 <span class="arithmatex">\\(a,b\\)</span>。</p>'
            '<pre>LABELS = {"a": "残差:"}</pre>'
            '<span class="reg-num" title="计算：best_line()：the grid；来源：course/common/twins.py (simulate)" '
            'aria-label="1: 计算:x">1</span>'
            '<p title="梯度(底层">文字</p>')
    found = check_html(html)
    # the only finding: the half-width "(" of a title that is prose
    assert [(f.kind, f.mark, f.where) for f in found] == [("halfwidth", "(", "title")]


def test_check_html_reads_across_inline_tags_but_not_across_blocks_or_line_breaks():
    assert [f.kind for f in check_html("<p>锚点模型<strong>Qwen</strong></p>")] == ["spacing"]
    assert check_html("<td>锚点模型<br><small>Qwen3</small></td><td><div>OpenAI</div>两个矩阵</td>") == []


def test_check_html_sees_the_space_after_a_bold_lead_in_but_not_code_beside_a_mark():
    assert [f.kind for f in check_html("<p><strong>先给答案。</strong> 假如</p>")] == ["space"]
    assert check_html("<p>运行 <code>build.py</code>。然后，<code>x</code> 里</p>") == []


def test_check_html_reads_tooltips_and_alt_texts():
    found = check_html('<img alt="折线图:三条曲线"><span class="reg-num" title="计算:bottom / top">3</span>')
    assert sorted((f.where, f.mark) for f in found) == [("alt", ":"), ("title", ":")]


def test_check_labels_reads_the_chinese_side_only():
    table = {"a": {"zh": "残差:x", "en": "Residual: x"}, "b": {"c": {"zh": "对", "en": "ok (yes)"}}}
    assert [(path, f.mark) for path, f in check_labels(table)] == [("a", ":")]


# ---------------------------------------------------------------- the mechanical pass

@pytest.mark.parametrize("before,after", [
    ("参数(按官方 config 数出来,与合计 <!-- n:a.b --> 一致)。", "参数（按官方 config 数出来，与合计 <!-- n:a.b --> 一致）。"),
    ("- **计算**:由 config(`data/a.json`)现算;", "- **计算**：由 config（`data/a.json`）现算；"),
    ("残差:x + F(x) 的输出", "残差：x + F(x) 的输出"),
    ("[数字与出处](appendix/numbers.md)一页", "[数字与出处](appendix/numbers.md)一页"),
    ("用 RMSNorm, 先预测", "用 RMSNorm，先预测"),
    ("有64层", "有 64 层"),
    ("公式 $f(x),g(x)$ 里", "公式 $f(x),g(x)$ 里"),
    ("**先给答案。** 假如", "**先给答案**。假如"),                 # betterem would not close `**…。**假`
    ("- **为什么？** 因为", "- **为什么**？因为"),
    ("**「残差只为梯度？」** 不是", "「**残差只为梯度？**」不是"),
    ("`a **b。** c` 与 $x**y。** z$", "`a **b。** c` 与 $x**y。** z$"),   # code and math stay
])
def test_fullwidth_converts_prose_and_leaves_code_math_and_links(before, after):
    assert fullwidth(before) == after
    assert check_text(re.sub(r"<!--.*?-->|`[^`]*`|\$[^$]*\$|\]\([^)]*\)", HIDDEN, after)) == []


# ---------------------------------------------------------------- the files the pass has been run on

def test_my_markdown_sources_are_clean():
    for name in ["index.md", "c4/index.md", "course-map.md", "appendix/numbers.md", "appendix/references.md"]:
        text = (DOCS / name).read_text(encoding="utf-8")
        assert fullwidth(text) == text, f"docs/{name}: the mechanical pass would still change it"
        prose = re.sub(r"<!--.*?-->|`[^`]*`|\]\([^)]*\)", HIDDEN, text)
        assert check_text(prose) == [], (name, check_text(prose))


def chinese_pages(site_dir):
    return sorted(p for p in site_dir.rglob("*.html") if p.relative_to(site_dir).parts[0] not in ("en", "assets")
                  and p.name in ("index.html", "404.html"))


def test_every_built_chinese_page_is_clean(site_dir):
    """Prose, tables, tooltips and alt texts of every Chinese page (the navigation and the footer included)."""
    pages = chinese_pages(site_dir)
    assert len(pages) >= 10, f"only {len(pages)} Chinese pages found in {site_dir}"
    problems = {}
    for page in pages:
        found = check_html(page.read_text(encoding="utf-8"))
        if found:
            problems[page.relative_to(site_dir).as_posix()] = [str(f) for f in found[:5]] + [f"({len(found)} in all)"]
    assert problems == {}


def test_every_widget_label_table_is_clean():
    tables = sorted(t for top in ("course", "chapters", "lessons") for t in (ROOT / top).rglob("js/*.labels.json"))
    assert len(tables) >= 10, f"only {len(tables)} label tables found"
    problems = {t.relative_to(ROOT).as_posix(): [str(f) for f in found]
                for t in tables if (found := check_labels(json.loads(t.read_text(encoding="utf-8"))))}
    assert problems == {}


def test_the_404_page_the_footer_and_the_templates_are_clean(site_dir):
    found = check_html((site_dir / "404.html").read_text(encoding="utf-8"), skip=("nav",))
    assert found == [], [str(f) for f in found]
    page = (site_dir / "c4/index.html").read_text(encoding="utf-8")
    footer = page[page.index('<footer class="md-footer">'):page.index("</footer>")]
    assert check_html(footer) == [] and "上一页：" in footer
    for t in sorted((ROOT / "overrides").rglob("*.html")):
        src = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", t.read_text(encoding="utf-8"), flags=re.S)
        assert check_html(src) == [], t


def test_the_diagrams_and_the_chapter_table_labels_are_clean():
    for svg in sorted((DOCS / "assets/diagrams").glob("*.zh.svg")):
        assert check_html(svg.read_text(encoding="utf-8")) == [], svg.name
    from course.common.tables import LABELS
    from course.core.tables import LABELS as APPENDIX
    for labels in (LABELS["zh"], APPENDIX["zh"]):
        for key, text in labels.items():
            assert check_text(text) == [], (key, text)


def test_mkdocs_yml_chinese_strings_outside_the_navigation_are_clean():
    """The nav and its translations are another task's (a nav title is also the key of its translation)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = re.sub(r"(?ms)^\s*nav_translations:.*?(?=^\s*- mkdocs-jupyter)", "", text)
    text = text[:text.index("\nnav:")] if "\nnav:" in text else text
    values = [v.split("#")[0] for v in re.findall(r":\s+(.*)$", text, flags=re.M)]
    for v in values:
        assert check_text(v) == [], v


# English prose: two or more of these words once code, identifiers, file names and formulas are left out
ENGLISH = re.compile(r"\b(the|of|and|with|from|over|per|each|every|at|in|an|is|by|to|for|when|where|than|"
                     r"that|which|on|its|into|after|before|between|minus)\b", re.I)


def english_prose(text: str) -> bool:
    text = re.sub(r"`[^`]*`|\S*[_/.=()\[\]]\S*", " ", text)   # code, identifiers, paths, calls
    return len(ENGLISH.findall(text)) >= 2


def test_english_prose_detector():
    assert english_prose("计算：the margin every reading note's check keeps；来源：lessons/c4_ffn/numbers.py")
    assert not english_prose("计算：num_attention_heads × head_dim；来源：data/anchor-model.json (config.text_config.num_attention_heads)")
    assert not english_prose("实测：c4_baseline，种子 1337/1338/1339；设备 Intel(R) Xeon(R) Processor；2026-12-01；提交 e1ae1e3")
    assert not english_prose("引用：Shazeer 2020，表 1，FFN_SwiGLU 在 65,536 步时的对数困惑度（T5-base）")


def test_no_chinese_tooltip_is_english_prose(registry):
    """A number's provenance on a Chinese page speaks Chinese (a formula or a file name may stay as it is)."""
    english = sorted({n.hover("zh") for n in registry.numbers.values() if english_prose(n.hover("zh"))})
    assert english == [], f"{len(english)} Chinese tooltips are English prose, e.g. {english[:5]}"
