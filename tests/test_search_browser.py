"""The site's search, as a reader types: every prefix of the words in the lessons' titles, in each language,
finds the page it comes from; a query that names a lesson's subject finds that lesson first (each lesson's
words "subjects", course/core/search.py); a Chinese query is highlighted in the words jieba found, not
character by character (docs/assets/js/search-worker.js); and the search worker never fails a query (a
prefix once made it throw: mkdocs.yml says why digits separate words)."""
import re
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import LANGS, lesson_path

CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
# the search worker's own warning for a query it failed on (Material's search worker)
FAILED = "Invalid query"

# What a reader types → the lesson (its reference) that query names, in each language: the subjects of every
# lesson, in the words its pages use, with and without a space between Latin and Chinese.
NAMES = {
    "zh": {"注意力": "c3-1", "因果掩码": "c3-1", "多头注意力": "c3-1",
           "KV 缓存": "c3-2", "KV缓存": "c3-2", "GQA": "c3-2", "MLA": "c3-2",
           "FFN": "c4-1", "前馈网络": "c4-1", "SwiGLU": "c4-1",
           "残差": "c4-2", "残差流": "c4-2", "残差连接": "c4-2",
           "归一化": "c4-3", "层归一化": "c4-3", "RMSNorm": "c4-3", "LayerNorm": "c4-3",
           "门控": "c4-4", "GLU": "c4-4",
           "预热": "c8-2", "学习率预热": "c8-2", "Post-LN": "c8-2"},
    "en": {"attention": "c3-1", "causal mask": "c3-1", "multi-head attention": "c3-1",
           "KV cache": "c3-2", "GQA": "c3-2", "MLA": "c3-2",
           "FFN": "c4-1", "feed-forward": "c4-1", "SwiGLU": "c4-1",
           "residual": "c4-2", "residual stream": "c4-2", "skip connection": "c4-2",
           "normalization": "c4-3", "RMSNorm": "c4-3", "LayerNorm": "c4-3",
           "gating": "c4-4", "GLU": "c4-4",
           "warmup": "c8-2", "warm-up": "c8-2", "Post-LN": "c8-2"},
}
# inputs that are all syntax to lunr's query parser, or nothing it can search for
ODD = ["*", "~", "^", ":", "+", "-", "7", "42", "a:", "~1", "^2", "+-", "*a", "a*b", "title:", "~a", "a~b", "a^b",
       "^a", "a~1", "a^2 b", "归~一", "归^化", "\\", "\"\"", "‘", "。"]


def lesson_titles(site_dir, lang: str) -> dict[str, str]:
    """URL path → the <h1> of every lesson page in the language (a lesson sits two levels down: c4/ffn/)."""
    titles = {}
    for page in sorted(site_dir.rglob("index.html")):
        parts = page.parent.relative_to(site_dir).parts
        english = parts[:1] == ("en",)
        parts = parts[1:] if english else parts
        if english != (lang == "en") or len(parts) != 2:
            continue
        h1 = re.search(r"<h1[^>]*>(.*?)</h1>", page.read_text(encoding="utf-8"), re.S)
        if h1:
            titles["/".join(parts) + "/"] = re.sub(r"<[^>]+>", "", h1.group(1)).replace("\u200b", "")
    return titles


def words(title: str, lang: str) -> list[str]:
    """The words a reader might search a title for: English words of five letters or more; Chinese runs of
    two characters or more, cut at punctuation, up to four characters."""
    if lang == "en":
        return [w.lower() for w in re.findall(r"[A-Za-z]{5,}", title)]
    return [run[:4] for run in CJK_RUN.findall(title)]


def search(page, query: str) -> list[str]:
    """Type `query` into Material's search box and return the URLs of its results, once they are in."""
    box = page.locator("input.md-search__input")
    box.fill("")
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")   # the last results gone
    # Material queries on the box's keyup: the query is filled in at once and one keyup follows, so the worker
    # answers this query alone (typing each character would ask it every shorter prefix again; a Chinese
    # character has no key to press)
    box.fill(query)
    box.dispatch_event("keyup", {"key": query[-1]})
    # in: a result is listed, or the count says none matched ("No matching documents", "没有找到符合条件的结果")
    page.wait_for_function("""() => document.querySelector('.md-search-result__item')
        || /^(No matching|没有找到)/.test(document.querySelector('.md-search-result__meta').textContent)""",
                           timeout=10000)
    return page.eval_on_selector_all(".md-search-result__item > .md-search-result__link", "as => as.map(a => a.href)")


@pytest.mark.parametrize("lang", LANGS)
def test_every_prefix_of_a_lesson_title_word_finds_its_lesson(site_dir, open_page, lang):
    titles = lesson_titles(site_dir, lang)
    assert titles, f"no lesson page in {lang}"
    v = open_page("en/" if lang == "en" else "")
    warnings = []
    v.page.on("console", lambda m: FAILED in m.text and warnings.append(m.text))
    v.page.evaluate("document.getElementById('__search').checked = true")
    v.page.locator("input.md-search__input").focus()
    missed, results = [], {}   # each query typed once (titles share words and prefixes)
    for path, title in titles.items():
        for word in words(title, lang):
            for n in range(1, len(word) + 1):
                if word[:n] not in results:
                    results[word[:n]] = search(v.page, word[:n])
                found = results[word[:n]]
                if n == len(word) and not any(urlparse(url).path.endswith(path) for url in found):
                    missed.append(f"{word!r} (from {path}'s title) does not find {path}")
    assert warnings == [], warnings
    assert missed == [], "\n".join(missed)
    v.check_clean()


def search_page(open_page, lang: str):
    """A page of the language with Material's search open and its worker's failures recorded."""
    v = open_page("en/" if lang == "en" else "")
    failed = []
    v.page.on("console", lambda m: FAILED in m.text and failed.append(m.text))
    v.page.evaluate("document.getElementById('__search').checked = true")
    v.page.locator("input.md-search__input").focus()
    return v, failed


@pytest.mark.parametrize("lang", LANGS)
def test_a_query_that_names_a_lessons_subject_finds_that_lesson_first(open_page, units, lang):
    lessons = {u.ref: lesson_path(u, lang) for u in units.lessons}
    assert set(NAMES[lang].values()) <= set(lessons), f"no such lesson: {set(NAMES[lang].values()) - set(lessons)}"
    assert set(lessons) <= set(NAMES[lang].values()), f"no query names {set(lessons) - set(NAMES[lang].values())}"
    v, failed = search_page(open_page, lang)
    wrong = []
    for query, ref in NAMES[lang].items():
        found = [urlparse(url).path.lstrip("/") for url in search(v.page, query)]
        if not found or not found[0].startswith(lessons[ref]):
            wrong.append(f"{query!r} finds {found[:3]} first, not {ref} ({lessons[ref]})")
    assert failed == [], failed
    assert wrong == [], "\n".join(wrong)
    v.check_clean()


def test_a_chinese_query_is_highlighted_in_the_words_jieba_found(open_page):
    """Each mark in the results, and each term a result's link asks its page to highlight (?h=), begins with a
    word jieba cut the query into (a word may go on: the last is a prefix), so "归一化" marks 归一化, never
    each 一 of the page."""
    import jieba
    v, failed = search_page(open_page, LANGS[0])
    stray = []
    for query in [q for q in NAMES[LANGS[0]] if CJK_RUN.fullmatch(q)]:
        cut = [w for w in jieba.cut(query) if w.strip()]
        links = search(v.page, query)
        marks = v.page.eval_on_selector_all(".md-search-result__item mark", "ms => ms.map(m => m.textContent)")
        asked = {t for url in links for t in " ".join(parse_qs(urlparse(url).query).get("h", [])).split()}
        assert marks and asked, f"{query!r}: nothing highlighted"
        stray += [f"{query!r} (jieba: {' / '.join(cut)}) highlights {m!r}"
                  for m in sorted(set(marks) | asked) if not any(m.replace("\u200b", "").startswith(w) for w in cut)]
    assert failed == [], failed
    assert stray == [], "\n".join(stray)
    v.check_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_no_query_makes_the_search_worker_fail(open_page, lang):
    """Every prefix of one to three characters of the queries above, and inputs that are all query syntax."""
    v, failed = search_page(open_page, lang)
    typed = dict.fromkeys(q[:n] for q in NAMES[lang] for n in (1, 2, 3) if q[:n].strip())
    for query in [*typed, *ODD]:
        search(v.page, query)
    assert failed == [], failed
    v.check_clean()
