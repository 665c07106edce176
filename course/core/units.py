"""Chapters and lessons as units the build discovers.

A unit is everything one chapter or one lesson brings: its registry numbers, its widgets (each with its
JavaScript module, its configuration from the registry and its label table), its figures, its tables, its
reading notes (claims) and the pages and notebooks it owns. The chapter (course/chapter/) holds what its
lessons share; each lesson is a package `lessons/<name>/` whose `__init__.py` defines `LESSON`. Adding a
lesson means adding its package and its pages: nothing here names one.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from course.core.paths import LESSONS
from course.core.registry import LANGS, Registry, Scope


@dataclass
class WidgetContext:
    """What a widget's `config` function sees: the registry, the page's language and the chosen mode."""
    registry: Registry
    lang: str
    mode: Optional[str]

    def num(self, key: str) -> dict:
        """A registry number as a widget needs it: the value to compute with, the text, the source."""
        n = self.registry[key]
        return {"key": key, "value": n.value, "text": n.text, "source": {lang: n.hover(lang) for lang in LANGS}}

    def value(self, key: str):
        return self.registry[key].value


@dataclass(frozen=True)
class Widget:
    """An interactive widget: `<!-- widget:NAME [mode] -->` on a page becomes its root element, and the page
    loads `script` (a file in the unit's js/ folder). `labels` is the widget's label table (key → {zh, en}):
    the script shows them, and the prose quotes them with `<!-- label:NAME.KEY -->`, so the two never drift."""
    name: str
    script: str
    config: Callable[[WidgetContext], dict]
    labels: dict[str, dict[str, str]]
    modes: tuple[str, ...] = ()     # the first is the default; () means the widget takes no mode
    plotly: bool = False            # draws with plotly.js, which the page then loads


@dataclass(frozen=True)
class Figure:
    """A Plotly figure built from measured results: `build(sources, lang)` → {data, layout, alt}."""
    name: str
    build: Callable[[Any, str], dict]


@dataclass(frozen=True)
class Unit:
    id: str                         # the chapter's id ("c4") or the lesson's name ("normalization")
    folder: Path                    # where its code, JavaScript and data live
    namespace: str                  # registry prefix: "" for the chapter, the lesson's name for a lesson
    order: tuple = ()               # (chapter, lesson number): the order lessons are listed and built in
    title: dict[str, str] = field(default_factory=dict)
    numbers: Optional[Callable[[Scope, Any], None]] = None   # adds its numbers, given the chapter's context
    validate: Optional[Callable[[], str]] = None            # checks its own data files; a one-line summary
    widgets: tuple[Widget, ...] = ()
    figures: tuple[Figure, ...] = ()
    tables: dict[str, Callable] = field(default_factory=dict)  # NAME → render(page_context)
    claims: Optional[Path] = None   # its reading notes, checked against the registry by the build
    pages: tuple[str, ...] = ()     # docs paths without suffix: "c4/normalization" (zh .md, en .en.md)
    notebooks: tuple[str, ...] = ()  # docs paths without suffix: "c4/normalization-lab" (.ipynb, .en.ipynb)

    @property
    def is_lesson(self) -> bool:
        return bool(self.namespace)

    @property
    def ref(self) -> str:
        """Its id in cross-references and on the course map: a chapter's own id ("c4"), a lesson's
        "c{chapter}-{number}" ("c4-2")."""
        return f"c{self.order[0]}-{self.order[1]}" if self.is_lesson else self.id

    @property
    def chapter_ref(self) -> str:
        return f"c{self.order[0]}" if self.is_lesson else self.id

    def written_refs(self) -> dict[str, str]:
        """Reference id → docs page for what this unit writes: its page, and its notebook as REF-lab."""
        out = {self.ref: self.pages[0]} if self.pages else {}
        out.update({f"{self.ref}-lab": nb for nb in self.notebooks[:1]})
        return out

    def js(self, widget: Widget) -> Path:
        return self.folder / "js" / widget.script

    def css(self, widget: Widget) -> Path:
        """The widget's own stylesheet, js/NAME.css beside its module (optional: most use course.css)."""
        return self.js(widget).with_suffix(".css")


@dataclass(frozen=True)
class Units:
    """Every unit of the course, the chapter first, then the lessons in order."""
    all: tuple[Unit, ...]

    @property
    def lessons(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.all if u.is_lesson)

    @property
    def chapter(self) -> Unit:
        return next(u for u in self.all if not u.is_lesson)

    def owner_of_page(self, src_uri: str) -> Optional[Unit]:
        """The unit a docs page belongs to (c4/normalization.md, c4/normalization.en.md, its notebook)."""
        stem = src_uri.removesuffix(".ipynb").removesuffix(".md").removesuffix(".en")
        for u in self.all:
            if stem in u.pages or stem in u.notebooks:
                return u
        return None

    def widget(self, name: str) -> tuple[Unit, Widget]:
        for u in self.all:
            for w in u.widgets:
                if w.name == name:
                    return u, w
        raise KeyError(name)

    def widgets(self) -> list[tuple[Unit, Widget]]:
        return [(u, w) for u in self.all for w in u.widgets]

    def figures(self) -> list[tuple[Unit, Figure]]:
        return [(u, f) for u in self.all for f in u.figures]


def discover() -> Units:
    """The chapter (course.chapter.CHAPTER) and every lesson package under lessons/ (its LESSON), checked
    for clashes: two units may not share a namespace, a widget name or a figure name."""
    from course.chapter import CHAPTER
    lessons = []
    for info in sorted(pkgutil.iter_modules([str(LESSONS)]), key=lambda i: i.name):
        if info.ispkg:
            module = importlib.import_module(f"lessons.{info.name}")
            lesson = getattr(module, "LESSON", None)
            if not isinstance(lesson, Unit):
                raise RuntimeError(f"lessons/{info.name}/__init__.py defines no LESSON = Unit(...)")
            lessons.append(lesson)
    units = (CHAPTER, *sorted(lessons, key=lambda u: u.order))
    for kind, names in (("namespace", [u.namespace for u in units if u.namespace]),
                        ("widget", [w.name for u in units for w in u.widgets]),
                        ("figure", [f.name for u in units for f in u.figures])):
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise RuntimeError(f"two units define the same {kind}: {', '.join(dupes)}")
    return Units(units)
