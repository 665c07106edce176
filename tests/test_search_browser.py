"""The site's search, as a reader types: every prefix of the words in the lessons' titles, in each language,
finds the page it comes from, and the search worker never fails a query (a prefix once made it throw:
mkdocs.yml says why digits separate words)."""
import re
from urllib.parse import urlparse

import pytest

from conftest import LANGS

CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
# the search worker's own warning for a query it failed on (Material's search worker)
FAILED = "Invalid query"


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
    box.type(query)
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
    missed = []
    for path, title in titles.items():
        for word in words(title, lang):
            for n in range(1, len(word) + 1):
                found = search(v.page, word[:n])
                if n == len(word) and not any(urlparse(url).path.endswith(path) for url in found):
                    missed.append(f"{word!r} (from {path}'s title) does not find {path}")
    assert warnings == [], warnings
    assert missed == [], "\n".join(missed)
    v.check_clean()
