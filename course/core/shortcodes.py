"""Shortcodes: how pages name registry numbers, widget labels, generated tables, figures and widgets.

Shortcodes are HTML comments, so they can never clash with LaTeX or Markdown:
    <!-- n:KEY -->              the number, with its provenance on hover and keyboard focus
    <!-- n:KEY plain -->        the bare text (inside math, SVG text or attributes)
    <!-- label:WIDGET.KEY -->   a label from a widget's label table, as the widget shows it
    <!-- table:NAME -->         a generated table: the page's lesson's, the chapter's, or the core's
    <!-- figure:NAME -->        a Plotly figure from figures/NAME.json, drawn by the site's local plotly.js
    <!-- widget:NAME [mode] --> an interactive widget's root element
    <!-- ref:ID[#SECTION] [short] -->  a link to another chapter, lesson, section or planned topic
                                (course/core/references.py)
    <!-- question:ID -->        one of the page's lesson's check-yourself questions (course/core/questions.py)
An unknown key or shortcode fails the build with the page and the key. While drafting, an author may set
COURSE_DRAFT=1 to see unknown keys as ⟨key?⟩ instead; `build.py` and the tests never set it.
"""
from __future__ import annotations

import html
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from course.core import widgets
from course.core.errors import ShortcodeError
from course.core.languages import Languages
from course.core.questions import question_html
from course.core.references import References, link_html
from course.core.static_figures import STATIC, URL, images_html, read_index
from course.core.registry import Registry
from course.core.tables import TABLES
from course.core.words import core_words
from course.core.units import Unit, Units

SHORTCODE = re.compile(r"<!--\s*(n|label|table|figure|widget|ref|question):([\w.\-]+(?:#[\w\-]+)?)(?:\s+(\w+))?\s*-->")


@dataclass
class PageContext:
    """Everything a shortcode on one page may need; the hook makes one per page, so nothing is global."""
    registry: Registry
    units: Units
    lang: str
    where: str                      # the page's source path, for error messages
    figures: Optional[Path] = None  # where the built figures are (figures/NAME.json)
    url: str = ""                   # the page's URL in the site ("c4/normalization/", "en/c4/normalization/")
    unit: Optional[Unit] = None     # the lesson (or chapter) the page belongs to
    draft: bool = False
    refs: Optional[References] = None
    deferrals: dict = field(default_factory=dict)   # reference id → [(page title, page)] in this language
    widgets_used: set = field(default_factory=set)
    refs_used: list = field(default_factory=list)   # the reference ids this page names, in order
    used_keys: set = field(default_factory=set)     # the site's used registry keys (what the appendix lists)
    surveying: bool = False                         # a pass that only learns what the page refers to

    def expand(self, markdown: str) -> str:
        return expand(markdown, self)

    def link(self, page: str, anchor: str = "") -> str:
        """A relative link from this page to a docs page ("c4/ffn"), in this page's language."""
        target = Languages(self.units.languages).url_prefix(self.lang) + page.removesuffix("index").rstrip("/") + "/"
        here = self.url if self.url.endswith("/") or not self.url else posixpath.dirname(self.url) + "/"
        rel = posixpath.relpath(target, here or ".") + "/"
        return rel.replace("//", "/") + (f"#{anchor}" if anchor else "")

    def asset(self, path: str) -> str:
        """A relative URL from this page to a file the site serves ("assets/figures/x.svg")."""
        here = self.url if self.url.endswith("/") or not self.url else posixpath.dirname(self.url) + "/"
        return posixpath.relpath(path, here or ".")


def number_html(ctx: PageContext, key: str, mode: Optional[str]) -> str:
    n = ctx.registry[key]
    text = n.text[ctx.lang]
    if mode == "plain":
        return text
    if mode is not None:
        raise ShortcodeError(f"unknown number mode {mode!r}")
    tip = n.hover(ctx.lang)
    label = core_words().lang(ctx.lang)("hover.label", text=text, tip=tip)
    return (f'<span class="reg-num" data-key="{key}" data-kind="{n.provenance.kind}" tabindex="0" '
            f'data-tip="{html.escape(tip, quote=True)}" aria-label="{html.escape(label, quote=True)}">{html.escape(text)}</span>')


def label_html(ctx: PageContext, ref: str) -> str:
    name, _, path = ref.partition(".")
    try:
        _, widget = ctx.units.widget(name)
    except KeyError:
        raise ShortcodeError(f"unknown widget {name!r} in label:{ref}") from None
    return html.escape(widgets.label(widget, path, ctx.lang))


def figure_html(ctx: PageContext, name: str) -> str:
    """The figure's root, with its text alternative already in the HTML (readable without JavaScript) and its
    static rendering in each palette (course/core/static_figures.py), which shows until the chart is drawn,
    without JavaScript and in print. role=figure, not img: the drawn chart holds controls (legend, menus) a
    reader can operate."""
    if not any(f.name == name for _, f in ctx.units.figures()):
        raise ShortcodeError(f"unknown figure {name!r}")
    path = ctx.figures / f"{name}.json"
    if not path.exists():
        raise ShortcodeError(f"figure {name!r} has no figures/{name}.json (is the figures stage run?)")
    alt = json.loads(path.read_text(encoding="utf-8"))[ctx.lang].get("alt", "")
    static = read_index(ctx.figures / STATIC).get(f"{name}.{ctx.lang}")
    if not static:
        raise ShortcodeError(f"figure {name!r} has no static rendering in {ctx.lang} under figures/{STATIC}/ "
                             "(is the figures stage run?)")
    images = images_html(static, alt, lambda file: ctx.asset(f"{URL}/{STATIC}/{file}"))
    return (f'<div class="plotly-figure" data-figure="{name}" data-lang="{ctx.lang}" role="figure" '
            f'aria-label="{html.escape(alt, quote=True)}">{images}</div>')


def ref_html(ctx: PageContext, name: str, mode: Optional[str]) -> str:
    if ctx.refs is None:
        raise ShortcodeError("ref: no course map is loaded")
    ref, _, anchor = name.partition("#")
    ctx.refs_used.append(ref)
    try:
        return link_html(ctx.refs, ref, anchor or None, mode, ctx.lang, ctx.unit.chapter_ref if ctx.unit else None,
                         ctx.link, lambda text: re.sub(r"<[^>]+>", "", expand(text, ctx)))
    except ValueError as e:
        raise ShortcodeError(str(e)) from None


def plain_refs(ctx: PageContext, text: str, lang: str) -> str:
    """A text with its cross-references as their titles in `lang`, without links (a widget's label)."""
    from course.core.references import REF
    if ctx.refs is None or "ref:" not in text:
        return text

    def title(m: re.Match) -> str:
        ref, anchor, mode = m.groups()
        ctx.refs_used.append(ref)
        target = ctx.refs.target(ref)
        return ctx.refs.label(target, lang, ctx.unit.chapter_ref if ctx.unit else None, short=mode == "short")
    return REF.sub(title, text)


def table_html(ctx: PageContext, name: str) -> str:
    for tables in [u.tables for u in ctx.units.scopes(ctx.unit)] + [TABLES]:
        if name in tables:
            return tables[name](ctx)
    raise ShortcodeError(f"unknown table {name!r}")


def widget_html(ctx: PageContext, name: str, mode: Optional[str]) -> str:
    try:
        _, widget = ctx.units.widget(name)
    except KeyError:
        raise ShortcodeError(f"unknown widget {name!r} (known: {', '.join(w.name for _, w in ctx.units.widgets())})") from None
    ctx.widgets_used.add(name)
    try:
        return widgets.render(widget, mode, ctx.lang, ctx.registry, resolve=lambda text, lang: plain_refs(ctx, text, lang))
    except widgets.WidgetError as e:
        raise ShortcodeError(str(e)) from None


def expand(markdown: str, ctx: PageContext) -> str:
    def one(m: re.Match) -> str:
        kind, name, mode = m.groups()
        try:
            if kind == "n":
                return number_html(ctx, name, mode)
            if kind == "ref":
                return ref_html(ctx, name, mode)
            if mode is not None and kind in ("label", "table", "figure", "question"):
                raise ShortcodeError(f"{kind}:{name} takes no mode")
            if kind == "label":
                return label_html(ctx, name)
            if kind == "table":
                return table_html(ctx, name)
            if kind == "widget":
                return widget_html(ctx, name, mode)
            if kind == "question":
                return question_html(ctx, name)
            return figure_html(ctx, name)
        except KeyError as e:
            if ctx.draft:
                return f"⟨{name}?⟩"
            what = {"label": "label", "ref": "reference"}.get(kind, "registry key")
            shown = e.args[0] if kind == "label" else repr(name)
            if kind == "question":   # an unknown question, or its answer's unknown key
                what, shown = ("question", f"{name!r} (not in its unit's questions.json)") if e.args[0] == name \
                    else ("registry key", repr(e.args[0]))
            raise ShortcodeError(f"{ctx.where}: unknown {what} {shown} in {m.group(0)}") from None
        except ShortcodeError as e:
            if ctx.draft:
                return f"⟨{m.group(0)[4:-3].strip()}: {e}⟩"
            raise ShortcodeError(e.args[0] if str(e).startswith(ctx.where) else f"{ctx.where}: {e}") from None
    return SHORTCODE.sub(one, markdown)
