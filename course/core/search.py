"""Search that finds the lesson: the page a unit writes ranks first for the subjects a reader names it by.

The site engine writes one search index for the whole site (Material for MkDocs: `search/search_index.json`,
`{"config": {"separator", "fields", …}, "docs": [{"location", "title", "text"}, …]}`, lunr in a web worker).
It ranks a page by its headings and prose, so a chapter's overview, whose title names all its lessons, or a
page that mentions a word often could come before the lesson about it. After the engine has written the index,
`add_subjects` gives each unit's page its subjects (the unit's words "subjects", as the language lists them)
in a field of their own, weighted a hundred times a title: a query that names a subject finds that page first.

A subject is indexed in the words the index already has: a script written without spaces (a Han run) is cut
into the index's own words by the longest match, as the search worker cuts a query
(docs/assets/js/search-worker.js), so "残差流" becomes the words "残差" and "流" that the prose was indexed by,
and a query for it finds the subject and the prose alike. Nothing here names a language: the words and their
separators are the index's and the units'.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from course.core.errors import InputError
from course.core.files import write_atomic
from course.core.languages import Languages
from course.core.units import Units
from course.core.words import core_words

FIELD = "subjects"
TITLE_TIMES = 100          # a subject weighs this many times a title (the index's own title boost)
UNSPACED = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")   # Han: the script the worker segments
MARKUP = re.compile(r"<[^>]+>")
WORD_MARK = "\u200b"       # how the index marks a word boundary inside a Han run


class SearchIndexError(InputError):
    kind = "search index error"


def vocabulary(docs: list[dict], separator: re.Pattern) -> set[str]:
    """Every word the index holds in these entries' titles and text (markup dropped)."""
    words = set()
    for d in docs:
        for value in (d.get("title") or "", d.get("text") or ""):
            words.update(w for w in separator.split(MARKUP.sub(" ", value)) if w)
    return words


def longest_match(run: str, words: set[str]) -> list[str]:
    """A run of an unspaced script cut into the longest words of `words`, left to right (a character no word
    starts with stands alone). The search worker cuts a query the same way (search-worker.js, `cut`), and
    also keeps whole a rest that begins a word (one still being typed)."""
    out, i = [], 0
    while i < len(run):
        j = next((j for j in range(len(run), i + 1, -1) if run[i:j] in words), i + 1)
        out.append(run[i:j])
        i = j
    return out


def indexed(subject: str, words: set[str]) -> str:
    """A subject as the index writes its prose: each Han run cut into the index's words."""
    return UNSPACED.sub(lambda m: WORD_MARK + WORD_MARK.join(longest_match(m.group(0), words)) + WORD_MARK,
                        subject).strip(WORD_MARK)


def subjects(units: Units, lang: str) -> dict[str, list[str]]:
    """Each unit's first page (its URL path in `lang`) → its subjects in that language, for the units that
    name some."""
    sep = core_words().word(lang, "join.list", {})
    prefix = Languages(units.languages).url_prefix(lang)
    return {f"{prefix}{u.pages[0]}/": [s.strip() for s in u.subjects[lang].split(sep) if s.strip()]
            for u in units.all if u.pages and u.subjects}


def add_subjects(index_path: Path, units: Units) -> None:
    """Rewrite the site's search index (atomically) with every unit's subjects on its page's entry, in each
    language the index holds (an engine may write it after each language's build, the others' still to come).
    A unit whose page the index lacks in such a language is an error naming it; a site without a search
    index is left as it is."""
    if not index_path.exists():
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    config, docs = index["config"], index["docs"]
    separator = re.compile(config["separator"])
    languages = Languages(units.languages)
    by_location = {d["location"]: d for d in docs}
    for lang in languages:
        own = [d for d in docs if languages.of_url(d["location"]) == lang]
        if not own:
            continue
        words = vocabulary(own, separator)
        for url, named in subjects(units, lang).items():
            if url not in by_location:
                raise SearchIndexError(f"{index_path}: no entry for {url}, the page whose subjects are "
                                       f"{named!r} (words 'subjects', language {lang})")
            by_location[url][FIELD] = [indexed(s, words) for s in named]
    title = config["fields"].get("title", {}).get("boost", 1)
    config["fields"][FIELD] = {"boost": TITLE_TIMES * title}
    write_atomic(index_path, json.dumps(index, ensure_ascii=False, separators=(",", ":")))
