"""Cross-references: a page names another chapter, lesson, section or planned topic by id, like a number.

    <!-- ref:c4-2 -->                a lesson (c{chapter}-{lesson}); its notebook is c4-3-lab
    <!-- ref:c4-2#step-init -->      a section of a written lesson, by its heading id
    <!-- ref:c5 -->                  a chapter
    <!-- ref:c8.qk-norm -->          a topic the course map promises to a chapter or lesson

The course map (`data/course-map.json`, the `CourseMap` schema below) lists what the course plans: the
chapters, lessons and topics it names before they are written. What is written is a unit the build
discovered, and the unit gives its title and the question it answers (`Written`); the map the build uses
is the planned one with the written units in it (`with_written`): a written chapter or lesson takes its
planned entry's place, or a place by its number. A written reference becomes a link to its page, titled in
the page's language. A planned one links to its entry on the course map page and says it is planned; the
map lists, for each, the pages that defer to it. When a planned lesson is written (a unit with that id),
every reference to it, and to the topics it takes on, becomes a link to it with no edit of the pages that
refer to it. An unknown id fails the build.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Optional

from pydantic import Field

from course.core.languages import Languages
from course.core.schema import Bilingual, Strict, load
from course.core.words import core_words

REF = re.compile(r"<!--\s*ref:([\w.\-]+)(?:#([\w\-]+))?(?:\s+(\w+))?\s*-->")
HEADING_ID = re.compile(r"^#{1,6}\s+(.*?)\s*\{#([\w\-]+)[^}]*\}\s*$", re.M)


def planned_mark(lang: str) -> str:
    """What a planned target's label ends with ("（计划中）", " (planned)")."""
    return core_words().lang(lang)("ref.planned")


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
    title: Optional[Bilingual] = None     # a written chapter's come from its unit
    question: Optional[Bilingual] = None
    side: bool = False              # a side lesson rather than a numbered chapter
    lessons: list[LessonEntry] = []
    topics: list[Topic] = []


class CourseMap(Strict):
    chapters: list[ChapterEntry]


@dataclass(frozen=True)
class Written:
    """A page a unit writes, as references name it: its id ("c4-2", "c4", "c4-3-lab"), its docs page, and
    the title and question its unit gives (empty: the course map's planned entry gives them)."""
    ref: str
    page: str
    title: dict = field(default_factory=dict)
    question: dict = field(default_factory=dict)
    where: str = ""                 # the unit that writes it, for messages

    @property
    def chapter(self) -> str:
        return self.ref.split("-", 1)[0]

    @property
    def is_chapter(self) -> bool:
        return "-" not in self.ref


def _lesson_order(lesson_id: str) -> tuple:
    """c4-3 before c4-3-lab before c4-4."""
    number, _, lab = lesson_id.split("-", 1)[1].partition("-")
    return int(number), lab


def _chapter_order(ch: "ChapterEntry") -> tuple:
    """Numbered chapters by their number, side chapters after them."""
    number = ch.id[1:]
    return (1, 0) if ch.side or not number.isdigit() else (0, int(number))


def _words(given: dict, planned: Optional[Bilingual], what: str, w: Written) -> Bilingual:
    if given:
        return Bilingual(given)
    if planned is None:
        raise ValueError(f"{w.where}: {w.ref} has no {what}: give its unit one (the course map plans no "
                         f"entry {w.ref} that has one)")
    return planned


def with_written(course_map: CourseMap, written: dict[str, Written]) -> CourseMap:
    """The course map with the written units in it. A written chapter or lesson takes its planned entry's
    place, with its unit's title and question; one the map does not plan gets its place by its number. A
    planned chapter must have a title and a question; a written lesson needs its chapter, written or planned."""
    chapters = {c.id: c for c in course_map.chapters}
    for w in sorted(written.values(), key=lambda w: not w.is_chapter):   # chapters first
        if w.is_chapter:
            planned = chapters.get(w.ref)
            chapters[w.ref] = ChapterEntry(
                id=w.ref, title=_words(w.title, planned and planned.title, "title", w),
                question=_words(w.question, planned and planned.question, "question", w),
                side=planned.side if planned else False, lessons=planned.lessons if planned else [],
                topics=planned.topics if planned else [])
            continue
        ch = chapters.get(w.chapter)
        if ch is None:
            raise ValueError(f"{w.where}: lesson {w.ref} belongs to chapter {w.chapter}, which is neither "
                             "written (chapters/) nor planned on the course map")
        planned = next((x for x in ch.lessons if x.id == w.ref), None)
        lesson = LessonEntry(id=w.ref, title=_words(w.title, planned and planned.title, "title", w),
                             question=_words(w.question, planned and planned.question, "question", w))
        lessons = sorted([x for x in ch.lessons if x.id != w.ref] + [lesson], key=lambda x: _lesson_order(x.id))
        chapters[w.chapter] = ch.model_copy(update={"lessons": lessons})
    for ch in chapters.values():
        if ch.title is None or ch.question is None:
            raise ValueError(f"chapter {ch.id} is planned without a title and a question")
    return CourseMap(chapters=sorted(chapters.values(), key=_chapter_order))


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
    languages: Languages
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
            path = self.docs / self.languages.page_file(page, lang)
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
            else:
                say = core_words().lang(lang)
                text = say("ref.lesson_short", number=t.number) if short else \
                    say("ref.lesson", number=t.number, title=t.title[lang])
            if t.chapter != here_chapter:
                text = f"{ch.id.upper()} {text}"
        elif t.kind == "chapter" and short:
            text = ch.id.upper()
        elif t.kind == "topic" and self.target(ch.id).written:
            # a topic no lesson takes on yet, in a chapter that is written: "C3 Attention · a later lesson", not
            # "C3 Attention (planned)", which reads as if the chapter were planned (the topic is the tooltip)
            return core_words().lang(lang)("ref.later", chapter=name)
        else:
            text = name
        return text if t.written else text + planned_mark(lang)


def nav_entries(refs: References, lang: str, overview: dict[str, dict]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The written chapters as the navigation lists them, in the map's order: (the chapter's title, [(an
    entry's title, its docs page)]), its overview page first (titled `overview[chapter]` or the course's
    word for an overview), then its written lessons and notebooks. A notebook's page ends in ".ipynb"."""
    say = core_words().lang(lang)
    out = []
    for ch in refs.map.chapters:
        chapter = refs.target(ch.id)
        items = [(overview.get(ch.id, {}).get(lang) or say("nav.overview"), chapter.page + ".md")] \
            if chapter.written else []
        for lesson in ch.lessons:
            t = refs.target(lesson.id)
            if not t.written:
                continue
            if t.number.endswith("-lab"):
                items.append((t.title[lang], t.page + ".ipynb"))
            else:
                items.append((say("nav.lesson", number=t.number, title=t.title[lang]), t.page + ".md"))
        if items:
            out.append((refs.label(chapter, lang, None).removesuffix(planned_mark(lang)), items))
    return out


def map_anchor(ref: str) -> str:
    return "map-" + ref.replace(".", "-")


def load_course_map(path: Path) -> CourseMap:
    return load(path, CourseMap)


def build_references(course_map: CourseMap, written: dict[str, Written], docs: Path,
                     languages: tuple[str, ...]) -> References:
    """`course_map`: the planned course; `written`: reference id → what a unit the build discovered writes
    there (`Units.written()`: lessons, chapters, notebooks); `languages`: the project's, in each of which
    every entry needs its words."""
    course_map = with_written(course_map, written)
    _check_languages(course_map, languages)
    page = {ref: w.page for ref, w in written.items()}
    targets: dict[str, Target] = {}
    for ch in course_map.chapters:
        targets[ch.id] = Target(ch.id, ch.id, "chapter", ch.title, page.get(ch.id))
        for lesson in ch.lessons:
            number = lesson.id.split("-", 1)[1]
            targets[lesson.id] = Target(lesson.id, ch.id, "lesson", lesson.title, page.get(lesson.id), number)
        for topic in ch.topics:
            if topic.lesson and topic.lesson not in {x.id for x in ch.lessons}:
                raise ValueError(f"course map: topic {topic.id} names lesson {topic.lesson}, which chapter "
                                 f"{ch.id} does not list")
            targets[topic.id] = Target(topic.id, ch.id, "topic", topic.title, None)
    return References(course_map, targets, docs, Languages(tuple(languages)))


def _check_languages(course_map: CourseMap, languages) -> None:
    """Every title and question of the map (the planned entries', and the written units') in every language."""
    for ch in course_map.chapters:
        entries = [(ch.id, "title", ch.title), (ch.id, "question", ch.question)]
        entries += [(x.id, what, getattr(x, what)) for x in ch.lessons for what in ("title", "question")]
        entries += [(x.id, "title", x.title) for x in ch.topics]
        for ref, what, words in entries:
            if words is not None and words.missing(languages):
                raise ValueError(f"{ref}: its {what} has no words in {', '.join(words.missing(languages))} "
                                 f"(a written unit's come from its words files, a planned entry's from the map)")


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


class MapWords:
    """The course map's words in one language (course/core/words.LANG.json, "map.*"), by their short names."""

    def __init__(self, lang: str):
        self.say = core_words().lang(lang)

    def __getitem__(self, name: str) -> str:
        if name == "comma":
            return self.say("join.list")
        if name == "semi":
            return self.say("join.clauses")
        return self.say(f"map.{name}")

    def taken_on(self, lesson: str) -> str:
        return self.say("map.taken_on", lesson=lesson)


def contents_markdown(refs: References, lang: str, link, chapter: Optional[str] = None) -> str:
    """A list of what is written, each linked with the question it answers: every written chapter (the
    home page's contents), or with `chapter` that chapter's written lessons and notebooks (its overview's
    list), in the map's order."""
    t = MapWords(lang)
    if chapter is None:
        entries = [(c.id, c.question) for c in refs.map.chapters if refs.target(c.id).written]
    else:
        entries = [(x.id, x.question) for x in refs.chapter(chapter).lessons if refs.target(x.id).written]
    lines = []
    for ref, question in entries:
        target = refs.target(ref)
        label = html.escape(refs.label(target, lang, chapter))
        between = t["dash"] if target.number and target.number.endswith("-lab") else t["colon"]
        lines.append(f'- <a class="xref" href="{link(target.page)}">{label}</a>{between}{question[lang]}')
    return "\n".join(lines) + "\n"


def course_map_markdown(refs: References, lang: str, deferrals: dict[str, list[tuple[str, str]]], link) -> str:
    """The course map page's body: every chapter, its lessons and the topics pages defer to it, each with
    its status and the pages that refer to it. `deferrals`: reference id → [(page title, docs page)]."""
    t = MapWords(lang)
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
            where = t.taken_on(f'<a class="xref" href="{link(tt.page)}">{html.escape(refs.label(tt, lang, ch.id))}</a>') \
                if tt.written else t["planned"]
            out.append(f'- <span id="{map_anchor(topic.id)}">{topic.title[lang]}</span>{t["open"]}{where}{t["close"]}'
                       + _deferred(topic.id, deferrals, t, link))
        out.append("")
    return "\n".join(out)


def _deferring_pages(ref: str, deferrals: dict, t: MapWords, link) -> str:
    return t["comma"].join(f'<a class="xref" href="{link(page)}">{html.escape(title)}</a>'
                           for title, page in deferrals.get(ref, []))


def _deferred(ref: str, deferrals: dict, t: MapWords, link) -> str:
    if not deferrals.get(ref):
        return ""
    return f"{t['semi']}{t['deferred_by']}{t['colon']}{_deferring_pages(ref, deferrals, t, link)}"


def find_references(text: str) -> list[str]:
    """The target ids a text refers to, in order."""
    return [m.group(1) for m in REF.finditer(text)]
