"""Promises a page makes are kept: a mention of another chapter or lesson is a cross-reference that the build
resolves (a link, or an entry of the course map for what is not written yet), never bare text; the course
map lists every planned entry the pages defer to, with those pages; a planned lesson, once written, turns
its references into links without an edit of the pages that name it."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import LANGS, ROOT
from course.core.references import LessonEntry, Written, build_references, load_course_map

# "C8", "C11", 「第 2 课」, "lesson 3": a chapter or lesson named in prose
BARE = re.compile(r"(?<![A-Za-z0-9_\-])C\d{1,2}(?![0-9A-Za-z_])|第\s*\d+\s*课|(?i:\blesson\s+\d+\b)")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class ArticleText(HTMLParser):
    """The text of a page's article a reader reads as prose: not its title (the page's own name), code,
    formulas, navigation, the text of a cross-reference link, or an abbreviation spelled out in its title
    (<abbr title="Colossal Clean Crawled Corpus">C4</abbr> is a corpus, not the chapter)."""
    SKIP = {"script", "style", "code", "pre", "nav", "h1", "svg", "template", "abbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []
        self.skip = 0
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        cls = (dict(attrs).get("class") or "").split()
        skipped = tag in self.SKIP or "xref" in cls or any(c.startswith(("katex", "arithmatex")) for c in cls)
        self.stack.append((tag, skipped, tag == "article"))
        self.skip += skipped
        self.depth += tag == "article"

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            t, skipped, article = self.stack.pop()
            self.skip -= skipped
            self.depth -= article
            if t == tag:
                break

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.parts.append(data)


def bare_mentions(text: str) -> list[str]:
    return [text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ") for m in BARE.finditer(text)]


def article_text(html: str) -> str:
    p = ArticleText()
    p.feed(html)
    return " ".join(p.parts)


def test_the_detector_finds_bare_mentions_and_passes_references():
    html = ('<article><h1>C4 一个 Transformer 块</h1><p>见 C8 第 2 课。</p><p>See lesson 3, or '
            '<a class="xref" href="x">C11 Linear attention (planned)</a>.</p><code>c8_postln_lr1e-3</code>'
            '<p>the <abbr title="Colossal Clean Crawled Corpus">C4</abbr> corpus</p></article>')
    found = bare_mentions(article_text(html))
    assert len(found) == 3 and not any("C11" in f and "planned" in f for f in found)


def test_no_page_names_a_chapter_or_lesson_outside_a_reference(site_dir):
    hits = {}
    for page in sorted(site_dir.rglob("index.html")):
        if page.relative_to(site_dir).parts[:1] in (("search",),):
            continue
        html = page.read_text(encoding="utf-8")
        if page.parent.name == "course-map":  # its headings are the chapters it lists: names, not prose
            html = re.sub(r'<h2 class="map-chapter".*?</h2>', "", html, flags=re.S)
        found = bare_mentions(article_text(html))
        if found:
            hits[page.relative_to(site_dir).as_posix()] = found[:5]
    assert hits == {}, json.dumps(hits, ensure_ascii=False, indent=1)


def label_texts(node) -> list[str]:
    if isinstance(node, dict):
        return [t for v in node.values() for t in label_texts(v)]
    return [node] if isinstance(node, str) else []


def test_no_widget_label_names_a_chapter_or_lesson_outside_a_reference():
    hits = []
    for path in sorted(ROOT.glob("*/**/js/*.labels.json")):
        for text in label_texts(json.loads(path.read_text(encoding="utf-8"))):
            bare = re.sub(r"<!--.*?-->", "", text)
            if BARE.search(bare):
                hits.append(f"{path.relative_to(ROOT)}: {text!r}")
    assert hits == [], "\n".join(hits)


def test_every_planned_entry_the_pages_defer_to_is_on_the_course_map_with_those_pages(site_dir):
    for lang, prefix in (("zh", ""), ("en", "en/")):
        course_map = (site_dir / prefix / "course-map" / "index.html").read_text(encoding="utf-8")
        for page in sorted((site_dir / prefix).rglob("index.html")):
            rel = page.relative_to(site_dir / prefix).parts
            if (lang == "zh" and rel[:1] == ("en",)) or rel[:1] in (("search",), ("course-map",)):
                continue
            for anchor in set(re.findall(r'class="xref xref-planned" href="[^"#]*#(map-[\w\-]+)"',
                                         page.read_text(encoding="utf-8"))):
                entry = re.search(rf'id="{anchor}".*?(?=<li>|<h2|</ul>)', course_map, re.S)
                assert entry, f"{page}: the course map has no entry {anchor}"
                here = "/".join(rel[:-1])
                assert here and f"{here}/" in entry.group(0), f"{anchor} does not list {here}/ among its pages"


def test_a_planned_lesson_written_as_a_unit_turns_its_references_into_links(units):
    course_map = load_course_map(ROOT / "data" / "course-map.json")
    written = units.written()
    # a topic the map gives a lesson: once that lesson is written, the topic's references reach its page
    topic = next((t for ch in course_map.chapters for t in ch.topics if t.lesson), None)
    assert topic is not None, "the course map gives no topic to a lesson"
    planned = topic.lesson
    without = {ref: w for ref, w in written.items() if ref != planned}
    new = Written(planned, "cx/new-lesson", {"zh": "新课", "en": "New lesson"}, {"zh": "问什么？", "en": "What?"})
    before = course_map.model_copy(update={"chapters": [
        ch.model_copy(update={"lessons": ch.lessons + [LessonEntry(id=planned, title=new.title, question=new.question)]})
        if ch.id == new.chapter else ch for ch in course_map.chapters]})
    planned_refs = build_references(before, without, ROOT / "docs", LANGS)
    written_refs = build_references(before, {**without, planned: new}, ROOT / "docs", LANGS)
    assert not planned_refs.target(planned).written
    assert written_refs.target(planned).page == "cx/new-lesson"
    assert written_refs.target(topic.id).page == "cx/new-lesson"
    assert written_refs.target(planned).title["en"] == "New lesson"


def test_a_topic_of_a_written_chapter_reads_as_a_later_lesson_not_as_a_planned_chapter(units):
    """A topic no lesson takes on yet, in a chapter that is written, says so ("C3 Attention · a later lesson");
    the same topic in a planned chapter keeps the planned mark."""
    course_map = load_course_map(ROOT / "data" / "course-map.json")
    written = units.written()
    refs = build_references(course_map, written, ROOT / "docs", LANGS)
    topics = [(ch.id, t.id) for ch in refs.map.chapters for t in ch.topics if not t.lesson]
    in_written = [(c, t) for c, t in topics if refs.target(c).written]
    assert in_written, "no topic of a written chapter is left to a later lesson: pick another case"
    chapter, topic = in_written[0]
    for lang in LANGS:
        label = refs.label(refs.target(topic), lang, None)
        assert refs.chapter(chapter).title[lang] in label and "·" in label, label
        assert "planned" not in label and "计划中" not in label, label
    # a topic of a planned chapter keeps the planned mark
    in_planned = [(c, t) for c, t in topics if not refs.target(c).written]
    assert in_planned, "every chapter with a topic is written: pick another case"
    assert refs.label(refs.target(in_planned[0][1]), "en", None).endswith(" (planned)")


def test_a_written_chapter_takes_its_planned_entry_s_place_with_its_unit_s_words(units):
    course_map = load_course_map(ROOT / "data" / "course-map.json")
    planned = next(ch for ch in course_map.chapters if ch.title is not None and not ch.lessons and not ch.side
                   and ch.id not in units.written())
    chapter = Written(planned.id, f"{planned.id}/index", {"zh": "改过的标题", "en": "A title of its own"},
                      {"zh": "问什么？", "en": "What?"})
    lesson = Written(f"{planned.id}-1", f"{planned.id}/probe", {"zh": "探针", "en": "Probe"},
                     {"zh": "问什么？", "en": "What?"})
    refs = build_references(course_map, {**units.written(), chapter.ref: chapter, lesson.ref: lesson}, ROOT / "docs", LANGS)
    planned_order = [ch.id for ch in course_map.chapters]
    assert [c.id for c in refs.map.chapters if c.id in planned_order] == planned_order  # the planned entry's place
    merged = refs.chapter(planned.id)
    assert merged.title["en"] == "A title of its own" and merged.topics == planned.topics
    assert [x.id for x in merged.lessons] == [lesson.ref] and refs.target(lesson.ref).written
    # a chapter the map does not plan gets its place by its number
    unplanned = Written("c99", "c99/index", {"zh": "九十九", "en": "Ninety-nine"}, {"zh": "问？", "en": "Q?"})
    refs = build_references(course_map, {**units.written(), "c99": unplanned}, ROOT / "docs", LANGS)
    numbered = [ch.id for ch in refs.map.chapters if not ch.side]
    assert numbered[-1] == "c99" and numbered == sorted(numbered, key=lambda c: int(c[1:]))


def test_an_unknown_reference_id_and_a_lesson_without_its_chapter_or_words_are_errors(units):
    course_map = load_course_map(ROOT / "data" / "course-map.json")
    written = units.written()
    refs = build_references(course_map, written, ROOT / "docs", LANGS)
    with pytest.raises(KeyError):
        refs.target("c99")
    orphan = Written("c99-1", "x/y", {"zh": "探针", "en": "Probe"}, {"zh": "问？", "en": "Q?"}, "lessons.x")
    with pytest.raises(ValueError, match="lessons.x: lesson c99-1 belongs to chapter c99"):
        build_references(course_map, {**written, "c99-1": orphan}, ROOT / "docs", LANGS)
    wordless = Written("c99", "c99/index", where="chapters.c99")
    with pytest.raises(ValueError, match="chapters.c99: c99 has no title"):
        build_references(course_map, {**written, "c99": wordless}, ROOT / "docs", LANGS)
