"""Chinese typography (course/core/typography.py): the checker itself, the mechanical pass, and the course
held to it. From the sources, in the fast tier (`make check`): every Chinese Markdown page and notebook's
prose, the Chinese strings of the data the pages show, the units' titles, the widget label tables, the
templates and the registry's tooltips. From the built site (build tier): what only the build makes, every
Chinese page as rendered, its navigation, tooltips, tables and alt texts, the 404 page and the footer
(`python scripts/check_typography.py --show 5` prints what that test would see)."""
import json
import re

import pytest

from course.paths import DOCS, ROOT
from course.core.typography import HIDDEN, check_figure, check_html, check_labels, check_text, fullwidth, masked_like

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


def test_check_figure_reads_names_hovers_titles_and_the_alt_but_not_plotlys_markup():
    figure = {"data": [{"name": "种子 1337: 基线", "hovertemplate": "步 %{x}：%{y:.3f}<extra></extra>",
                        "hovertext": ["基线（不加门）, 初始化时", "层 2：0.5"], "x": [1, 2]}],
              "layout": {"title": {"text": "损失<br><sub>三个种子(均值)</sub>"}, "xaxis": {"title": {"text": "步"}},
                         "annotations": [{"text": "峰值;此处"}]},
              "alt": "折线图:三条曲线"}
    assert sorted((path, f.mark) for path, f in check_figure(figure)) == [
        ("alt", ":"), ("data[0].hovertext[0]", ","), ("data[0].name", ":"), ("layout.annotations[0].text", ";"),
        ("layout.title.text", "("), ("layout.title.text", ")")]


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


# ---------------------------------------------------------------- the sources (fast tier: no build)

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
MASKED = "\ue000"   # what masked_like puts for code, math, shortcodes, tags and link targets
FIX = ("write ，：；（） beside Chinese, a space between a Chinese character and a Latin letter or digit, and no "
       "space beside a full-width mark (course/core/typography.py; fullwidth() makes the mechanical changes)")


def markdown_prose(text: str) -> list[tuple[int, str]]:
    """The prose of a Markdown page as (line, text) runs, as a reader sees it: code, math, shortcodes, tags and
    link targets stand in as one hidden mark; a heading's {#id}, the list, quote and admonition markers and
    the bold markers go; a table row is one run a cell (its pipes are Markdown, not prose)."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    runs = []
    for n, line in enumerate(masked_like(text).split("\n"), 1):
        line = re.sub(f"{MASKED}+", HIDDEN, line)
        line = re.sub(r"\s*\{[#.:][^}]*\}\s*$", "", line)
        line = re.sub(r"^\s*(?:[-*+]|\d+\.|>|#{1,6}|!!!|\?\?\?\+?)\s+", "", line)
        line = line.replace("**", "").replace("[", "")
        if line.lstrip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                runs += [(n, c) for c in cells if c]
        elif line.strip():
            runs.append((n, line.strip()))
    return runs


def markdown_findings(text: str, name: str) -> list[str]:
    return [f"{name} line {n}: {f}" for n, run in markdown_prose(text) for f in check_text(run)]


def test_the_markdown_reader_sees_prose_and_leaves_markdown_out():
    page = ("# 标题\n\n## 问题 {#question}\n\n残差:x 有64层，<!-- n:a.b --> 个。\n\n| 符号 | 含义 |\n|---|---|\n"
            "| $d$ | 宽度(按 config) |\n\n**先给答案。** 假如 `a:b` 与 $f(x),g$ 见[数字](a.md)一页\n\n```\n残差:x\n```\n")
    found = [(n, f.kind, f.mark) for n, run in markdown_prose(page) for f in check_text(run)]
    assert found == [(5, "halfwidth", ":"), (5, "spacing", "有6"), (5, "spacing", "4层"), (9, "halfwidth", "("),
                     (11, "space", " ")]


def chinese_sources() -> list:
    """Every Chinese page of docs/ (Markdown, and the Markdown cells of a notebook)."""
    return sorted(p for p in list(DOCS.rglob("*.md")) + list(DOCS.rglob("*.ipynb"))
                  if not p.name.endswith((".en.md", ".en.ipynb")))


def test_every_chinese_markdown_page_is_clean():
    """Every Chinese page under docs/, a lesson's included: what the built-page check below would find in its
    prose, found in the Markdown (the navigation, tooltips and tables the build adds are checked there)."""
    from course.project import units
    pages = chinese_sources()
    missing = [f"docs/{stem}.md" for u in units().all for stem in u.pages if DOCS / f"{stem}.md" not in pages]
    assert missing == [], f"pages the units name are missing: {missing}"
    problems = []
    for path in pages:
        name = path.relative_to(ROOT).as_posix()
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            for i, c in enumerate(cells):
                if c["cell_type"] == "markdown":
                    problems += markdown_findings("".join(c["source"]), f"{name} cell {i}")
        else:
            problems += markdown_findings(path.read_text(encoding="utf-8"), name)
    assert problems == [], FIX + ":\n" + "\n".join(problems)


def zh_strings(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "zh" and isinstance(v, str):
                yield v
            else:
                yield from zh_strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from zh_strings(v)


def test_every_chinese_string_the_pages_show_from_data_and_units_is_clean():
    """The course map, the evolution table, the lessons' reading notes and every unit's titles and questions."""
    from course.project import units
    problems = []
    for path in [ROOT / "data/course-map.json", ROOT / "data/evolution.json", *sorted(ROOT.glob("lessons/*/claims.json"))]:
        for text in zh_strings(json.loads(path.read_text(encoding="utf-8"))):
            problems += markdown_findings(text, path.relative_to(ROOT).as_posix())
    for u in units().all:
        for field in ("title", "question", "notebook_title", "notebook_question", "overview"):
            words = getattr(u, field)
            if words:
                problems += [f"{u.module}: {field} {f}" for f in check_text(words["zh"])]
    assert problems == [], FIX + ":\n" + "\n".join(problems)


def chinese_pages(site_dir):
    return sorted(p for p in site_dir.rglob("*.html") if p.relative_to(site_dir).parts[0] not in ("en", "assets")
                  and p.name in ("index.html", "404.html"))


def test_every_built_chinese_page_is_clean(site_dir, units):
    """Prose, tables, tooltips and alt texts of every Chinese page (the navigation and the footer included)."""
    pages = chinese_pages(site_dir)
    missing = [stem for u in units.all for stem in u.pages + u.notebooks
               if site_dir / stem.removesuffix("index") / "index.html" not in pages]
    assert missing == [], f"the units' pages are not built as {site_dir}/PAGE/index.html: {missing}"
    problems = {}
    for page in pages:
        found = check_html(page.read_text(encoding="utf-8"))
        if found:
            problems[page.relative_to(site_dir).as_posix()] = [str(f) for f in found[:5]] + [f"({len(found)} in all)"]
    assert problems == {}


def test_every_widget_label_table_is_clean():
    from course.project import units
    tables = {t.relative_to(ROOT).as_posix(): json.loads(t.read_text(encoding="utf-8"))
              for top in ("course", "chapters", "lessons") for t in (ROOT / top).rglob("js/*.labels.json")}
    tables.update({f"{u.module} widget {w.name}": w.labels for u, w in units().widgets()})
    problems = {name: [str(f) for f in found] for name, table in tables.items() if (found := check_labels(table))}
    assert problems == {}, FIX


def test_every_figures_chinese_text_is_clean():
    """Every figure's legends, hovers, titles, annotations and text alternative, as its code builds it in
    Chinese from the committed results (course/core/figures.py)."""
    from course.project import PROJECT, units
    sources = PROJECT.figure_sources()
    figures = [f for _, f in units().figures()]
    assert figures, "no unit has a figure"
    problems = {f.name: [str(x) for _, x in found[:5]] + [f"({len(found)} in all)"]
                for f in figures if (found := check_figure(f.build(sources, "zh")))}
    assert problems == {}


def test_the_templates_are_clean():
    for t in sorted((ROOT / "overrides").rglob("*.html")):
        src = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", t.read_text(encoding="utf-8"), flags=re.S)
        assert check_html(src) == [], (t.relative_to(ROOT).as_posix(), [str(f) for f in check_html(src)], FIX)


def test_the_404_page_and_the_footer_are_clean(site_dir, units):
    found = check_html((site_dir / "404.html").read_text(encoding="utf-8"), skip=("nav",))
    assert found == [], [str(f) for f in found]
    chapter = units.chapters[0].pages[0]   # any page with a page before it; the first chapter's overview
    page = (site_dir / chapter.removesuffix("index") / "index.html").read_text(encoding="utf-8")
    footer = page[page.index('<footer class="md-footer">'):page.index("</footer>")]
    assert check_html(footer) == [] and "上一页：" in footer


def test_the_diagrams_and_the_chapter_table_labels_are_clean():
    for svg in sorted((DOCS / "assets/diagrams").glob("*.zh.svg")):
        assert check_html(svg.read_text(encoding="utf-8")) == [], svg.name
    def words(folder: str, prefix: str) -> dict:
        table = json.loads((ROOT / folder / "words.zh.json").read_text(encoding="utf-8"))
        return {k: v for k, v in table.items() if k.startswith(prefix)}
    for labels in (words("course/common", "evolution."), words("course/core", "numbers.")):
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


def test_no_chinese_tooltip_is_english_prose(reg):
    """A number's provenance on a Chinese page speaks Chinese (a formula or a file name may stay as it is)."""
    english = sorted({n.hover("zh") for n in reg.numbers.values() if english_prose(n.hover("zh"))})
    assert english == [], f"{len(english)} Chinese tooltips are English prose, e.g. {english[:5]}"
