#!/usr/bin/env python3
"""Start a new lesson (and its chapter, when the chapter is new) in both languages, ready to build.

    make new-lesson ID=c9-1 SLUG=probe [TITLE_ZH=… TITLE_EN=…]
    .venv/bin/python scripts/new_lesson.py c9-1 probe [--title-zh … --title-en …] [--namespace …]

It writes, and touches nothing else:
    lessons/c<N>_<namespace>/__init__.py   the lesson's unit: its names and pages
    lessons/c<N>_<namespace>/words.zh.json, words.en.json   its words, one file per language: its title,
                                           question and subjects (what search finds it by: its title to
                                           start with) (course/core/words.py)
    lessons/c<N>_<namespace>/numbers.py    its registry numbers (one to start with)
    docs/c<N>/<slug>.md, <slug>.en.md      its pages: a section with an id and that number
and, when no unit writes chapter c<N> yet,
    chapters/c<N>/__init__.py              the chapter's unit
    chapters/c<N>/words.zh.json, .en.json  its title and question
    docs/c<N>/index.md, index.en.md        its overview, which lists its lessons by itself
It writes a page and a words file for each of the project's languages (course/project.py's LANGUAGES); a
language it has no starting page for (LESSON_PAGE, CHAPTER_PAGE) is an error.
A chapter the course map (data/course-map.json) plans takes that entry's title and question (and a lesson
it plans, its own); the navigation, the home page's contents, the chapter's lesson list and the course map
follow from the units. A lesson has two names: its reference id (`c9-1`, from its chapter and number: what
`<!-- ref:c9-1 -->` and the course map use) and its registry namespace (the slug with `_` for `-` unless
`--namespace` says otherwise: its keys are `probe.*`, and the unit's id is the same name).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"^c([1-9][0-9]*)-([1-9][0-9]*)$")
SLUG = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

LESSON_INIT = Template('''\
"""Lesson ${REF_NAME} "${TITLE_EN}": say here in a sentence what it teaches.

numbers.py       its registry numbers (${NS}.*), each with its formula and the file it reads
words.LANG.json  its words, one file per language: its title and the question it answers, and whatever its
                 numbers, figures and tables say (WORDS = words(__file__), from course.project)
"""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit
from lessons.${PACKAGE} import numbers

UNIT = Unit(
    id="${NS}",  # the lesson's name, which is also its registry namespace: its keys are ${NS}.*
    folder=Path(__file__).resolve().parent,
    namespace="${NS}",
    order=(${CHAPTER}, ${NUMBER}),  # chapter ${CHAPTER}, lesson ${NUMBER}: its reference id is ${REF} (<!-- ref:${REF} -->)
    numbers=numbers.add_numbers,   # its title and question are in words.LANG.json
    pages=("c${CHAPTER}/${SLUG}",),  # docs/c${CHAPTER}/${SLUG}.md (Chinese) and docs/c${CHAPTER}/${SLUG}.en.md (English)
)
''')

LESSON_NUMBERS = Template('''\
"""Lesson ${REF_NAME}'s registry numbers (${NS}.*): each names the formula and the file it was computed from, which
the page shows on hover. A page names a number by key: <!-- n:${NS}.anchor_layers -->."""
from __future__ import annotations

from course.common.numbers import anchor_source, computed
from course.common.schema import Inputs
from course.core.formats import integer
from course.core.registry import Scope


def add_numbers(reg: Scope, inputs: Inputs) -> None:
    layers = inputs.anchor.config.text_config.num_hidden_layers
    reg.add("anchor_layers", layers, integer(layers),
            computed("num_hidden_layers", anchor_source("num_hidden_layers")))
''')

LESSON_PAGE = {
    "zh": Template('''\
# 第 ${NUMBER} 课 ${TITLE_ZH}

## 这一课要回答的问题 {#question}

${QUESTION_ZH}

这一页是 `make new-lesson` 写下的起点，请换成这一课的内容。页面上的每个数字都从注册表来，例如锚点模型的层数：<!-- n:${NS}.anchor_layers -->。
'''),
    "en": Template('''\
# Lesson ${NUMBER} ${TITLE_EN}

## The question of this lesson {#question}

${QUESTION_EN}

This page is the starting point that `make new-lesson` wrote: replace it with the lesson. Every number on a page comes from the registry, such as the anchor model's number of layers: <!-- n:${NS}.anchor_layers -->.
'''),
}

CHAPTER_INIT = Template('''\
"""Chapter C${CHAPTER}, "${TITLE_EN}": its overview page, which lists its written lessons by itself. What its
lessons share goes here (numbers, widgets, tables), as chapters/c4/ does. Its title and the question it
answers are in words.LANG.json."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit

UNIT = Unit(
    id="c${CHAPTER}",
    folder=Path(__file__).resolve().parent,
    namespace="c${CHAPTER}",
    kind="chapter",
    order=(${CHAPTER},),
    pages=("c${CHAPTER}/index",),
)
''')

CHAPTER_PAGE = {
    "zh": Template('''\
# C${CHAPTER} ${TITLE_ZH}

${QUESTION_ZH}这一页是 `make new-lesson` 写下的起点，请换成这一章的概览。

## 本章各课 {#lessons}

<!-- table:lessons -->
'''),
    "en": Template('''\
# C${CHAPTER} ${TITLE_EN}

${QUESTION_EN} This page is the starting point that `make new-lesson` wrote: replace it with the chapter's overview.

## Lessons in this chapter {#lessons}

<!-- table:lessons -->
'''),
}

PLACEHOLDER_QUESTION = {"zh": "这一课要回答什么问题？", "en": "What question does this lesson answer?"}
PLACEHOLDER_CHAPTER_QUESTION = {"zh": "这一章要回答什么问题？", "en": "What question does this chapter answer?"}
CHAPTER_TITLE = {"zh": "第 {chapter} 章", "en": "Chapter {chapter}"}


def words_files(folder: Path, languages: tuple[str, ...], **texts: dict) -> dict[Path, str]:
    """A unit's words files, one per language: key → that language's text (texts: key → {lang: text})."""
    return {folder / f"words.{lang}.json": json.dumps({k: t[lang] for k, t in texts.items()}, ensure_ascii=False,
                                                      indent=1) + "\n" for lang in languages}


def planned(course_map: dict, ref: str) -> dict:
    """The course map's planned entry for a chapter ("c9") or a lesson ("c9-1"), or {}."""
    chapter = ref.split("-")[0]
    for ch in course_map["chapters"]:
        if ch["id"] == chapter:
            return ch if ref == chapter else next((x for x in ch.get("lessons", []) if x["id"] == ref), {})
    return {}


def fail(text: str) -> None:
    print(f"make new-lesson: {text}", file=sys.stderr)
    sys.exit(2)


def plan(root: Path, ref: str, slug: str, namespace: str | None, title: dict, question: dict) -> dict[Path, str]:
    """Every file to write → its text. Fails (exit 2) on a bad name or a name already taken."""
    m, s = ID.match(ref), SLUG.match(slug)
    if not m:
        fail(f"ID={ref!r}: expected c<chapter>-<lesson>, such as c9-1")
    if not s:
        fail(f"SLUG={slug!r}: expected lower-case words joined by '-', such as probe or kv-cache")
    chapter, number = int(m.group(1)), int(m.group(2))
    ns = namespace or slug.replace("-", "_")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", ns):
        fail(f"namespace {ns!r}: expected a Python name in lower case")
    sys.path.insert(0, str(root))
    from course.core.languages import Languages
    from course.core.units import discover
    from course.project import project_at
    project = project_at(root)
    langs = project.languages
    missing = [lang for lang in langs if lang not in LESSON_PAGE or lang not in CHAPTER_PAGE]
    if missing:
        fail(f"no starting page in {', '.join(missing)}: add one to LESSON_PAGE and CHAPTER_PAGE "
             f"(scripts/new_lesson.py)")
    units = discover(project.unit_packages, langs)
    taken = {u.id for u in units.all} | {u.namespace for u in units.all}
    if ns in taken:
        fail(f"the name {ns!r} is already a unit's id or namespace: choose another SLUG (or NS=)")
    written = units.written()
    if ref in written:
        fail(f"{ref} is already written ({written[ref].where}, docs/{written[ref].page}.md)")
    course_map = json.loads((root / "data" / "course-map.json").read_text(encoding="utf-8"))
    entry = planned(course_map, ref)
    default = {lang: slug.replace("-", " ") for lang in langs} | {"en": slug.replace("-", " ").capitalize()}
    t = {lang: title.get(lang) or entry.get("title", {}).get(lang) or default[lang] for lang in langs}
    q = {lang: question.get(lang) or entry.get("question", {}).get(lang) or PLACEHOLDER_QUESTION[lang]
         for lang in langs}
    package = f"c{chapter}_{ns}"
    fill = dict(REF=ref, REF_NAME=ref.upper(), NS=ns, PACKAGE=package, CHAPTER=chapter, NUMBER=number, SLUG=slug)
    fill |= {f"{k}_{lang.upper()}": v[lang] for k, v in (("TITLE", t), ("QUESTION", q)) for lang in langs}
    fill.setdefault("TITLE_EN", t[langs[0]])   # the docstring's
    page = Languages(langs).page_file
    files = {
        root / "lessons" / package / "__init__.py": LESSON_INIT.substitute(fill),
        **words_files(root / "lessons" / package, langs, title=t, question=q, subjects=t),  # searched for by its title
        root / "lessons" / package / "numbers.py": LESSON_NUMBERS.substitute(fill),
        **{root / "docs" / page(f"c{chapter}/{slug}", lang): LESSON_PAGE[lang].substitute(fill) for lang in langs},
    }
    if f"c{chapter}" not in written:
        ch = planned(course_map, f"c{chapter}")
        ct = {lang: ch.get("title", {}).get(lang) or CHAPTER_TITLE[lang].format(chapter=chapter) for lang in langs}
        cq = {lang: ch.get("question", {}).get(lang) or PLACEHOLDER_CHAPTER_QUESTION[lang] for lang in langs}
        cfill = dict(CHAPTER=chapter) | {f"{k}_{lang.upper()}": v[lang] for k, v in (("TITLE", ct), ("QUESTION", cq))
                                          for lang in langs}
        cfill.setdefault("TITLE_EN", ct[langs[0]])
        files[root / "chapters" / f"c{chapter}" / "__init__.py"] = CHAPTER_INIT.substitute(cfill)
        files.update(words_files(root / "chapters" / f"c{chapter}", langs, title=ct, question=cq))
        files.update({root / "docs" / page(f"c{chapter}/index", lang): CHAPTER_PAGE[lang].substitute(cfill)
                      for lang in langs})
    existing = [p.relative_to(root).as_posix() for p in files if p.exists()]
    if existing or (root / "lessons" / package).exists():
        fail(f"{', '.join(existing) or 'lessons/' + package} already exists: nothing was written")
    return files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("id", help="the lesson's reference id: c<chapter>-<lesson>, such as c9-1")
    ap.add_argument("slug", help="its page's name in docs/c<chapter>/, such as probe (lower case, '-' between words)")
    ap.add_argument("--namespace", help="its registry namespace (default: the slug with '_' for '-')")
    ap.add_argument("--title-zh", default="")
    ap.add_argument("--title-en", default="")
    ap.add_argument("--question-zh", default="")
    ap.add_argument("--question-en", default="")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    a = ap.parse_args()
    files = plan(a.root.resolve(), a.id, a.slug, a.namespace, {"zh": a.title_zh, "en": a.title_en},
                 {"zh": a.question_zh, "en": a.question_en})
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"  wrote {path.relative_to(a.root.resolve()).as_posix()}")
    print("Next: `.venv/bin/python build.py --no-train` (or `make serve`), then write the pages; README, "
          "\"Adding a lesson\", says what else a lesson may bring.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
