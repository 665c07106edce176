"""The course, its chapters and its lessons as units the build discovers.

A unit is everything one part of the course brings: its registry numbers, its widgets (each with its
JavaScript module, its configuration from the registry and its label table), its figures, its tables, its
reading notes (claims) and the pages and notebooks it owns. There are three kinds: the course itself (what
every chapter shares), a chapter (what its lessons share, and its overview page) and a lesson. The project
names the packages that hold them (`Project.unit_packages`); each unit module defines `UNIT = Unit(...)`.
Adding a chapter or a lesson means adding its package and its pages: nothing here names one.

What a unit says (its title, the question it answers, its numbers' and figures' words) is in its words
files, `words.LANG.json` beside its code, one per declared language (course/core/words.py); discovering
the units checks that every language has every word, and gives each unit its title and question from them.
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Optional

from course.core.references import Written
from course.core.registry import Registry, Scope, SourceReader
from course.core.languages import Languages
from course.core.words import Words, core_words, unit_words


@dataclass
class WidgetContext:
    """What a widget's `config` function sees: the registry, the page's language and the chosen mode."""
    registry: Registry
    lang: str
    mode: Optional[str]

    def num(self, key: str) -> dict:
        """A registry number as a widget needs it: the value to compute with, the text, the source."""
        n = self.registry[key]
        return {"key": key, "value": n.value, "text": n.text, "source": {lang: n.hover(lang) for lang in n.text}}

    def value(self, key: str):
        return self.registry[key].value


@dataclass(frozen=True)
class Widget:
    """An interactive widget: `<!-- widget:NAME [mode] -->` on a page becomes its root element, and the page
    loads `script` (a file in the unit's js/ folder). `labels` is the widget's label table (key → one text
    per language, course/core/widgets.py):
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
    id: str                         # the course's ("course"), a chapter's ("c4") or a lesson's name ("normalization")
    folder: Path                    # where its code, JavaScript and data live
    namespace: str                  # registry prefix: "" for the course, the chapter's or lesson's name otherwise
    kind: Literal["course", "chapter", "lesson"] = "lesson"
    order: tuple = ()               # (chapter number,) or (chapter number, lesson number): listing and build order
    # a chapter's or lesson's title and the question it answers, in each language, from its words ("title",
    # "question"; discover() fills them in): the course map, the navigation, the home page's contents and the
    # chapter's lesson list name it by these (the navigation adds the lesson's number, a reference the
    # chapter: references.py)
    title: dict[str, str] = field(default_factory=dict)
    question: dict[str, str] = field(default_factory=dict)
    numbers: Optional[Callable[[Scope, Any], None]] = None   # adds its numbers, given the chapter's context
    # how a reader is told of the sources its numbers read (its data files, its simulations), in its words
    sources: tuple[SourceReader, ...] = ()
    validate: Optional[Callable[[Any], str]] = None         # checks its data, given the inputs; a one-line summary
    widgets: tuple[Widget, ...] = ()
    figures: tuple[Figure, ...] = ()
    tables: dict[str, Callable] = field(default_factory=dict)  # NAME → render(page_context)
    claims: Optional[Path] = None   # its reading notes, checked against the registry by the build
    questions: Optional[Path] = None  # its check-yourself questions (course/core/questions.py)
    pages: tuple[str, ...] = ()     # docs paths without language or suffix: "c4/normalization" (.md, .en.md)
    notebooks: tuple[str, ...] = ()  # docs paths without suffix: "c4/normalization-lab" (.ipynb, .en.ipynb)
    notebook_title: dict[str, str] = field(default_factory=dict)     # its first notebook's, as `title`
    notebook_question: dict[str, str] = field(default_factory=dict)  # (words "notebook.title", "notebook.question")
    overview: dict[str, str] = field(default_factory=dict)  # a chapter's overview page in the navigation, if
                                                            # not the course's word for an overview ("overview")
    # what a reader names when searching for it (words "subjects", listed as the language lists them): search
    # ranks its page first for them (course/core/search.py)
    subjects: dict[str, str] = field(default_factory=dict)
    module: str = ""                # the module that defines it (set by discover)
    words: Optional[Words] = None   # its words files (set by discover)

    @property
    def is_lesson(self) -> bool:
        return self.kind == "lesson"

    @property
    def ref(self) -> Optional[str]:
        """Its id in cross-references and on the course map: a chapter's "c{number}" ("c4"), a lesson's
        "c{chapter}-{number}" ("c4-2"); the course has none."""
        if self.kind == "course":
            return None
        return f"c{self.order[0]}-{self.order[1]}" if self.is_lesson else f"c{self.order[0]}"

    @property
    def chapter_ref(self) -> Optional[str]:
        return None if self.kind == "course" else f"c{self.order[0]}"

    def written(self) -> list[Written]:
        """What this unit writes, as references name it: its page, and its notebook as REF-lab."""
        if self.ref is None:
            return []
        where = f"{self.module or self.id} (UNIT)"
        out = [Written(self.ref, self.pages[0], self.title, self.question, where)] if self.pages else []
        out += [Written(f"{self.ref}-lab", nb, self.notebook_title, self.notebook_question, where)
                for nb in self.notebooks[:1]]
        return out

    def js(self, widget: Widget) -> Path:
        return self.folder / "js" / widget.script

    def css(self, widget: Widget) -> Path:
        """The widget's own stylesheet, js/NAME.css beside its module (optional: most use course.css)."""
        return self.js(widget).with_suffix(".css")


@dataclass(frozen=True)
class Units:
    """Every unit of the course in build order: the course, the chapters, then the lessons."""
    all: tuple[Unit, ...]
    languages: tuple[str, ...] = ()   # the project's, first the default

    @property
    def lessons(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.all if u.kind == "lesson")

    @property
    def chapters(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.all if u.kind == "chapter")

    def chapter_of(self, unit: Optional[Unit]) -> Optional[Unit]:
        if unit is None or unit.kind == "course":
            return None
        return next((c for c in self.chapters if c.order[:1] == unit.order[:1]), None)

    def scopes(self, unit: Optional[Unit]) -> list[Unit]:
        """Where a page's shortcodes look for a table: its own unit, its chapter, the course."""
        chain = [unit, self.chapter_of(unit)] + [u for u in self.all if u.kind == "course"]
        out: list[Unit] = []
        for u in chain:
            if u is not None and all(u is not v for v in out):
                out.append(u)
        return out

    def owner_of_page(self, src_uri: str) -> Optional[Unit]:
        """The unit a docs page belongs to (c4/normalization.md, c4/normalization.en.md, its notebook)."""
        stem = Languages(self.languages).stem(src_uri) if self.languages else src_uri
        for u in self.all:
            if stem in u.pages or stem in u.notebooks:
                return u
        return None

    def written(self) -> dict[str, Written]:
        """Reference id → what a unit writes there (its page, title and question), for every unit."""
        return {w.ref: w for u in self.all for w in u.written()}

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


# what a unit's words give it: its field → the word's key
SAID = {"title": "title", "question": "question", "notebook_title": "notebook.title",
        "notebook_question": "notebook.question", "overview": "overview", "subjects": "subjects"}


def _as_found(unit: Unit, module: str, languages: tuple[str, ...]) -> Unit:
    """The unit with the module that defines it, its words (checked: every language has every word) and
    what they give it. Without languages (a notebook that asks in one language) its words are only opened."""
    words = unit_words(unit.folder, languages)
    said = {}
    if languages:
        words.check()
        said = {f: words(key) for f, key in SAID.items() if words.has(key)}
        check_labels(unit, languages)
    return dataclasses.replace(unit, module=module, words=words, **said)


def check_labels(unit: Unit, languages: tuple[str, ...]) -> None:
    from course.core.widgets import check_labels as check
    for w in unit.widgets:
        check(w.labels, f"{w.name} (js/{Path(w.script).stem}.labels.json)", languages)


def unit_in(module_name: str, languages: tuple[str, ...] = ()) -> Unit:
    """The unit one module defines (its UNIT), imported alone: no other unit's code is imported or read."""
    module = importlib.import_module(module_name)
    unit = getattr(module, "UNIT", None)
    if not isinstance(unit, Unit):
        raise RuntimeError(f"{module_name} (its __init__.py) defines no UNIT = Unit(...)")
    return _as_found(unit, module.__name__, languages)


def named_units(modules: tuple[str, ...], languages: tuple[str, ...] = ()) -> Units:
    """The units the named modules define, and no others: for code that knows which units it quotes (a lesson's
    lab, the course's and its own widgets). Discovery (`discover`) imports every unit of the project, so a
    notebook that used it would read, and be re-executed for, every lesson's code."""
    return Units(tuple(unit_in(m, languages) for m in modules), tuple(languages))


def _units_in(entry: str, languages: tuple[str, ...]) -> list[Unit]:
    """The unit a module defines, or the units of every subpackage of a package (each its own UNIT)."""
    module = importlib.import_module(entry)
    if isinstance(getattr(module, "UNIT", None), Unit):
        return [_as_found(module.UNIT, entry, languages)]
    if not hasattr(module, "__path__"):
        raise RuntimeError(f"{entry} defines no UNIT = Unit(...)")
    found = []
    for info in sorted(pkgutil.iter_modules(module.__path__), key=lambda i: i.name):
        if info.ispkg:
            found.append(unit_in(f"{entry}.{info.name}", languages))
    return found


KIND_ORDER = {"course": 0, "chapter": 1, "lesson": 2}


def discover(packages: tuple[str, ...], languages: tuple[str, ...] = ()) -> Units:
    """Every unit in `packages` (see Project.unit_packages), in build order, checked for clashes: two units
    may not share an id, a namespace, a widget name or a figure name; and the core's and every unit's words
    in `languages` (Project.languages), checked for a word missing in one of them."""
    if languages:
        core_words(languages).check()
    found = [u for entry in packages for u in _units_in(entry, languages)]
    units = tuple(sorted(found, key=lambda u: (KIND_ORDER[u.kind], u.order)))
    for kind, names in (("id", [u.id for u in units]),
                        ("namespace", [u.namespace for u in units if u.namespace]),
                        ("widget", [w.name for u in units for w in u.widgets]),
                        ("figure", [f.name for u in units for f in u.figures])):
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise RuntimeError(f"two units define the same {kind}: {', '.join(dupes)}")
    return Units(units, tuple(languages))
