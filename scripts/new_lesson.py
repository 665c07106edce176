#!/usr/bin/env python3
"""Start a new lesson (and its chapter, when the chapter is new) in both languages, ready to build.

    make new-lesson ID=c9-1 SLUG=probe [TITLE_ZH=… TITLE_EN=…]
    .venv/bin/python scripts/new_lesson.py c9-1 probe [--title-zh … --title-en …] [--namespace …]

It writes, and touches nothing else:
    lessons/c<N>_<namespace>/__init__.py   the lesson's unit: its names, title, question and pages
    lessons/c<N>_<namespace>/numbers.py    its registry numbers (one to start with)
    docs/c<N>/<slug>.md, <slug>.en.md      its pages: a section with an id and that number
and, when no unit writes chapter c<N> yet,
    chapters/c<N>/__init__.py              the chapter's unit
    docs/c<N>/index.md, index.en.md        its overview, which lists its lessons by itself
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

numbers.py    its registry numbers (${NS}.*), each with its formula and the file it reads
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
    title=${TITLE},
    question=${QUESTION},
    numbers=numbers.add_numbers,
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
lessons share goes here (numbers, widgets, tables), as chapters/c4/ does."""
from __future__ import annotations

from pathlib import Path

from course.core.units import Unit

UNIT = Unit(
    id="c${CHAPTER}",
    folder=Path(__file__).resolve().parent,
    namespace="c${CHAPTER}",
    kind="chapter",
    order=(${CHAPTER},),
    title=${TITLE},
    question=${QUESTION},
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


def words(d: dict) -> str:
    return "{" + ", ".join(f'"{lang}": {json.dumps(d[lang], ensure_ascii=False)}' for lang in ("zh", "en")) + "}"


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
    from course.project import project_at
    from course.core.units import discover
    units = discover(project_at(root).unit_packages)
    taken = {u.id for u in units.all} | {u.namespace for u in units.all}
    if ns in taken:
        fail(f"the name {ns!r} is already a unit's id or namespace: choose another SLUG (or NS=)")
    written = units.written()
    if ref in written:
        fail(f"{ref} is already written ({written[ref].where}, docs/{written[ref].page}.md)")
    course_map = json.loads((root / "data" / "course-map.json").read_text(encoding="utf-8"))
    entry = planned(course_map, ref)
    default = {"zh": slug.replace("-", " "), "en": slug.replace("-", " ").capitalize()}
    t = {lang: title.get(lang) or entry.get("title", {}).get(lang) or default[lang] for lang in ("zh", "en")}
    q = {lang: question.get(lang) or entry.get("question", {}).get(lang) or PLACEHOLDER_QUESTION[lang]
         for lang in ("zh", "en")}
    package = f"c{chapter}_{ns}"
    fill = dict(REF=ref, REF_NAME=ref.upper(), NS=ns, PACKAGE=package, CHAPTER=chapter, NUMBER=number, SLUG=slug, TITLE=words(t),
                QUESTION=words(q), TITLE_ZH=t["zh"], TITLE_EN=t["en"], QUESTION_ZH=q["zh"], QUESTION_EN=q["en"])
    files = {
        root / "lessons" / package / "__init__.py": LESSON_INIT.substitute(fill),
        root / "lessons" / package / "numbers.py": LESSON_NUMBERS.substitute(fill),
        root / "docs" / f"c{chapter}" / f"{slug}.md": LESSON_PAGE["zh"].substitute(fill),
        root / "docs" / f"c{chapter}" / f"{slug}.en.md": LESSON_PAGE["en"].substitute(fill),
    }
    if f"c{chapter}" not in written:
        ch = planned(course_map, f"c{chapter}")
        ct = {lang: ch.get("title", {}).get(lang) or {"zh": f"第 {chapter} 章", "en": f"Chapter {chapter}"}[lang]
              for lang in ("zh", "en")}
        cq = {lang: ch.get("question", {}).get(lang) or PLACEHOLDER_CHAPTER_QUESTION[lang] for lang in ("zh", "en")}
        cfill = dict(CHAPTER=chapter, TITLE=words(ct), QUESTION=words(cq), TITLE_ZH=ct["zh"], TITLE_EN=ct["en"],
                     QUESTION_ZH=cq["zh"], QUESTION_EN=cq["en"])
        files[root / "chapters" / f"c{chapter}" / "__init__.py"] = CHAPTER_INIT.substitute(cfill)
        files[root / "docs" / f"c{chapter}" / "index.md"] = CHAPTER_PAGE["zh"].substitute(cfill)
        files[root / "docs" / f"c{chapter}" / "index.en.md"] = CHAPTER_PAGE["en"].substitute(cfill)
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
