"""Chinese typography (course/core/typography.py): the checker itself, the mechanical pass, and the files
the pass has been run on so far.

Scope, for now: the files nobody else is rewriting — docs/index.md, docs/c4/index.md, docs/course-map.md,
docs/appendix/*.md (their built articles, without what shortcodes insert: tables, numbers' tooltips), the
Chinese strings of mkdocs.yml outside the navigation, the templates in overrides/, the diagrams in
docs/assets/, the chapter's table labels, and the 404 page. The lesson pages, their label tables and the
data files (evolution.json, course-map.json, the registry's provenance texts) are being rewritten; to hold
every page to the rule once they are, replace MY_PAGES by every built Chinese page and drop the `skip`
selectors:

    for page in chinese_pages(site_dir):            # scripts/check_typography.py lists them
        assert check_html(page.read_text(encoding="utf-8"), region="<article") == []
    for table in label_tables():
        assert check_labels(json.loads(table.read_text(encoding="utf-8"))) == []

(`python scripts/check_typography.py --article` prints the counts that test would see.)
"""
import json
import re

import pytest

from course.paths import DOCS, ROOT
from course.core.typography import check_html, check_labels, check_text, fullwidth

# each page, and what to leave out of it: what a shortcode inserts there comes from files other people edit
# (data/evolution.json, data/course-map.json, data/citations.json, the registry's provenance texts)
SHORTCODES = ("[data-table]", ".reg-num", "td.na-source")
MY_PAGES = {"index.html": SHORTCODES, "c4/index.html": SHORTCODES, "appendix/numbers/index.html": SHORTCODES,
            "appendix/references/index.html": SHORTCODES, "course-map/index.html": SHORTCODES + ("ul", "h2")}


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
    ("计算 `best_line()` 的结果", []),                       # code in backticks
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
])
def test_fullwidth_converts_prose_and_leaves_code_math_and_links(before, after):
    assert fullwidth(before) == after
    assert check_text(re.sub(r"<!--.*?-->|`[^`]*`|\$[^$]*\$|\]\([^)]*\)", " ", after)) == []


# ---------------------------------------------------------------- the files the pass has been run on

def test_my_markdown_sources_are_clean():
    for name in ["index.md", "c4/index.md", "course-map.md", "appendix/numbers.md", "appendix/references.md"]:
        text = (DOCS / name).read_text(encoding="utf-8")
        assert fullwidth(text) == text, f"docs/{name}: the mechanical pass would still change it"
        prose = re.sub(r"<!--.*?-->|`[^`]*`|\]\([^)]*\)", " ", text)
        assert check_text(prose) == [], (name, check_text(prose))


def test_my_built_pages_are_clean(site_dir):
    problems = {}
    for name, skip in MY_PAGES.items():
        found = check_html((site_dir / name).read_text(encoding="utf-8"), skip=skip, region="<article")
        if found:
            problems[name] = [str(f) for f in found]
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
