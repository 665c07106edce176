"""Cross-references: a page names another chapter, lesson, section or planned topic by id, like a number.

    <!-- ref:c4-2 -->                a lesson (c{chapter}-{lesson}); its notebook is c4-3-lab
    <!-- ref:c4-2#step-init -->      a section of a written lesson, by its heading id
    <!-- ref:c5 -->                  a chapter
    <!-- ref:c8.qk-norm -->          a topic the course map promises to a chapter or lesson

The course map (`data/course-map.json`, the `CourseMap` schema below) lists every chapter, lesson and
topic the course names, written or planned. A written one is a unit the build discovered; its reference
becomes a link to its page, titled in the page's language. A planned one links to its entry on the course
map page and says it is planned; the map lists, for each, the pages that defer to it. When a planned lesson
is written (a unit with that id), every reference to it, and to the topics it takes on, becomes a link
to it with no edit of the pages that refer to it. An unknown id fails the build.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Optional

from pydantic import Field

from course.core.schema import Bilingual, Strict, load

REF = re.compile(r"<!--\s*ref:([\w.\-]+)(?:#([\w\-]+))?(?:\s+(\w+))?\s*-->")
HEADING_ID = re.compile(r"^#{1,6}\s+(.*?)\s*\{#([\w\-]+)[^}]*\}\s*$", re.M)
PLANNED = {"zh": "（计划中）", "en": " (planned)"}


class Topic(Strict):
    id: str = Field(pattern=r"^[a-z0-9]+\.[a-z0-9\-]+$")
    title: Bilingual
    lesson: Optional[str] = None    # the lesson that takes this topic on, once the map knows it


class LessonEntry(Strict):
    id: str = Field(pattern=r"^[a-z0-9]+-[0-9]+(-lab)?$")
    title: Bilingual
    question: Bilingual


class ChapterEntry(Strict):
    id: str = Field(pattern=r"^[a-z0-9]+$")
    title: Bilingual
    question: Bilingual
    side: bool = False              # a side lesson rather than a numbered chapter
    lessons: list[LessonEntry] = []
    topics: list[Topic] = []


class CourseMap(Strict):
    chapters: list[ChapterEntry]


@dataclass(frozen=True)
class Target:
    """Something a reference can point at."""
    id: str
    chapter: str                    # the chapter's id ("c4")
    kind: str                       # "chapter", "lesson" or "topic"
    title: Bilingual                # the map's title (a topic's: what is deferred to it)
    page: Optional[str] = None      # docs path without suffix when written ("c4/residual")
    number: Optional[str] = None    # the lesson's number within its chapter ("2", "3-lab")

    @property
    def written(self) -> bool:
        return self.page is not None


@dataclass
class References:
    """Every target of the course: the map's entries, joined with the units that write them."""
    map: CourseMap
    targets: dict[str, Target]
    docs: Path
    _headings: dict = field(default_factory=dict)

    def __contains__(self, ref: str) -> bool:
        return ref in self.targets

    def target(self, ref: str) -> Target:
        if ref not in self.targets:
            raise KeyError(ref)
        t = self.targets[ref]
        if t.kind == "topic":
            topic = next(x for c in self.map.chapters for x in c.topics if x.id == ref)
            if topic.lesson:  # a topic a lesson takes on reads as that lesson, written or planned
                lesson = self.targets[topic.lesson]
                return Target(ref, t.chapter, "lesson", lesson.title, lesson.page, lesson.number)
        return t

    def chapter(self, chapter_id: str) -> ChapterEntry:
        return next(c for c in self.map.chapters if c.id == chapter_id)

    def headings(self, page: str, lang: str) -> dict[str, str]:
        """Heading id → heading text (Markdown source) of a written page in one language."""
        key = (page, lang)
        if key not in self._headings:
            path = self.docs / (page + (".en.md" if lang == "en" else ".md"))
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            self._headings[key] = {m.group(2): m.group(1) for m in HEADING_ID.finditer(text)}
        return self._headings[key]

    def label(self, t: Target, lang: str, here_chapter: Optional[str], short: bool = False) -> str:
        """The link text: 'C5 初始化与学习率预热（计划中）', '第 2 课 残差', 'C8 Lesson 2 (Why Post-LN …)'."""
        ch = self.chapter(t.chapter)
        name = ch.title[lang] if ch.side else f"{ch.id.upper()} {ch.title[lang]}"
        if t.kind == "lesson":
            if t.number.endswith("-lab"):
                text = t.title[lang]
            elif lang == "zh":
                text = f"第 {t.number} 课" + ("" if short else f" {t.title.zh}")
            else:
                text = f"Lesson {t.number}" + ("" if short else f" ({t.title.en})")
            if t.chapter != here_chapter:
                text = f"{ch.id.upper()} {text}"
        elif t.kind == "chapter" and short:
            text = ch.id.upper()
        else:
            text = name
        return text if t.written else text + PLANNED[lang]


def map_anchor(ref: str) -> str:
    return "map-" + ref.replace(".", "-")


def load_course_map(path: Path) -> CourseMap:
    return load(path, CourseMap)


def build_references(course_map: CourseMap, written: dict[str, str], docs: Path) -> References:
    """`written`: reference id → docs page of every unit the build discovered (lessons, chapters,
    notebooks). A written unit the map does not list is an error: the map lists the whole course."""
    targets: dict[str, Target] = {}
    for ch in course_map.chapters:
        targets[ch.id] = Target(ch.id, ch.id, "chapter", ch.title, written.get(ch.id))
        for lesson in ch.lessons:
            number = lesson.id.split("-", 1)[1]
            targets[lesson.id] = Target(lesson.id, ch.id, "lesson", lesson.title, written.get(lesson.id), number)
        for topic in ch.topics:
            if topic.lesson and topic.lesson not in {x.id for x in ch.lessons}:
                raise ValueError(f"course map: topic {topic.id} names lesson {topic.lesson}, which chapter "
                                 f"{ch.id} does not list")
            targets[topic.id] = Target(topic.id, ch.id, "topic", topic.title, None)
    missing = sorted(set(written) - set(targets))
    if missing:
        raise ValueError(f"course map: units {', '.join(missing)} are written but the map does not list them")
    return References(course_map, targets, docs)


def link_html(refs: References, ref: str, anchor: Optional[str], mode: Optional[str], lang: str,
              here_chapter: Optional[str], link, expand_plain) -> str:
    """One reference as HTML. `link(page, anchor)` makes a relative link from the current page;
    `expand_plain(text)` expands the shortcodes of a heading to plain text."""
    if mode not in (None, "short"):
        raise ValueError(f"unknown reference mode {mode!r} (known: short)")
    t = refs.target(ref)
    text = refs.label(t, lang, here_chapter, short=mode == "short")
    if anchor:
        if not t.written or t.kind == "topic":
            raise ValueError(f"ref:{ref}#{anchor}: only a written lesson's sections can be named")
        heading = refs.headings(t.page, lang).get(anchor)
        if heading is None:
            raise ValueError(f"ref:{ref}#{anchor}: {t.page} has no heading with id {anchor!r}")
        text = f"{text} · {expand_plain(heading)}"
    if t.written:
        return f'<a class="xref" href="{link(t.page, anchor or "")}">{html.escape(text)}</a>'
    tip = html.escape(t.title[lang] if t.kind == "topic" else refs.chapter(t.chapter).title[lang], quote=True)
    return (f'<a class="xref xref-planned" href="{link("course-map", map_anchor(ref))}" title="{tip}">'
            f'{html.escape(text)}</a>')


MAP_TEXT = {
    "zh": {"written": "已写成", "planned": "计划中", "deferred_by": "推迟到这里的页面",
           "taken_on": "由{lesson}讲", "colon": "：", "semi": "；", "open": "（", "close": "）", "comma": "、",
           "stop": "。", "after_stop": ""},
    "en": {"written": "written", "planned": "planned", "deferred_by": "deferred to from",
           "taken_on": "taken on by {lesson}", "colon": ": ", "semi": "; ", "open": " (", "close": ")",
           "comma": ", ", "stop": ".", "after_stop": " "},
}


def course_map_markdown(refs: References, lang: str, deferrals: dict[str, list[tuple[str, str]]], link) -> str:
    """The course map page's body: every chapter, its lessons and the topics pages defer to it, each with
    its status and the pages that refer to it. `deferrals`: reference id → [(page title, docs page)]."""
    t = MAP_TEXT[lang]
    out = []
    for ch in refs.map.chapters:
        target = refs.target(ch.id)
        status = t["written"] if target.written or any(refs.target(x.id).written for x in ch.lessons) else t["planned"]
        name = ch.title[lang] if ch.side else f"{ch.id.upper()} {ch.title[lang]}"
        out.append(f"## {name} {{#{map_anchor(ch.id)} .map-chapter}}\n")
        # the stop outside the emphasis: a full-width one takes no space after it, and `*计划中。*一` would not close
        out.append(f"*{status}*{t['stop']}{t['after_stop']}{ch.question[lang]}\n")
        if not target.written and deferrals.get(ch.id):   # pages that defer to a planned chapter as a whole
            out.append(f"{t['deferred_by'][:1].upper()}{t['deferred_by'][1:]}{t['colon']}"
                       f"{_deferring_pages(ch.id, deferrals, t, link)}{t['stop']}\n")
        for lesson in ch.lessons:
            lt = refs.target(lesson.id)
            label = html.escape(refs.label(lt, lang, ch.id))
            shown = f'<a class="xref" href="{link(lt.page)}">{label}</a>' if lt.written else label
            out.append(f'- <span id="{map_anchor(lesson.id)}">{shown}</span>{t["colon"]}{lesson.question[lang]}'
                       + _deferred(lesson.id, deferrals, t, link))
        if ch.lessons:
            out.append("")
        for topic in ch.topics:
            tt = refs.target(topic.id)
            where = t["taken_on"].format(lesson=f'<a class="xref" href="{link(tt.page)}">{html.escape(refs.label(tt, lang, ch.id))}</a>') \
                if tt.written else t["planned"]
            out.append(f'- <span id="{map_anchor(topic.id)}">{topic.title[lang]}</span>{t["open"]}{where}{t["close"]}'
                       + _deferred(topic.id, deferrals, t, link))
        out.append("")
    return "\n".join(out)


def _deferring_pages(ref: str, deferrals: dict, t: dict, link) -> str:
    return t["comma"].join(f'<a class="xref" href="{link(page)}">{html.escape(title)}</a>'
                           for title, page in deferrals.get(ref, []))


def _deferred(ref: str, deferrals: dict, t: dict, link) -> str:
    if not deferrals.get(ref):
        return ""
    return f"{t['semi']}{t['deferred_by']}{t['colon']}{_deferring_pages(ref, deferrals, t, link)}"


def find_references(text: str) -> list[str]:
    """The target ids a text refers to, in order."""
    return [m.group(1) for m in REF.finditer(text)]
