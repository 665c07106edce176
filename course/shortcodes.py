"""Shortcodes: how pages name registry numbers, generated tables, figures and widgets.

Shortcodes are HTML comments, so they can never clash with LaTeX or Markdown:
    <!-- n:KEY -->         the number, with its provenance on hover and keyboard focus
    <!-- n:KEY plain -->   the bare text (inside math, SVG text or attributes)
    <!-- table:NAME -->    a table generated from data (see course/tables.py)
    <!-- figure:NAME -->   a Plotly figure from figures/NAME.json, rendered by the site's one plotly.js
    <!-- widget:NAME [mode] -->  an interactive widget's root element (see course/widgets.py)
An unknown key or shortcode fails the build with the page and the key. While drafting, an author may set
COURSE_DRAFT=1 to see unknown keys as ⟨key?⟩ instead; `build.py` and the tests never set it.
"""
from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

from course.registry import Registry

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / ".build" / "registry.json"
FIGURES = ROOT / "figures"
SHORTCODE = re.compile(r"<!--\s*(n|table|figure|widget):([\w.\-]+)(?:\s+(\w+))?\s*-->")

_registry: Registry | None = None


class ShortcodeError(RuntimeError):
    pass


def registry() -> Registry:
    global _registry
    if _registry is None:
        if not REGISTRY.exists():
            raise ShortcodeError(f"{REGISTRY.relative_to(ROOT)} is missing: run `python build.py` first")
        _registry = Registry.read(REGISTRY)
    return _registry


def reset() -> None:
    global _registry
    _registry = None


def page_lang(page) -> str:
    uri = page.file.src_uri
    if uri.endswith(".en.md") or uri.startswith("en/"):
        return "en"
    return getattr(page.file, "locale", None) or "zh"


def number_html(key: str, mode: str | None, lang: str) -> str:
    n = registry()[key]
    text = n.text[lang]
    if mode == "plain":
        return text
    tip = html.escape(n.hover(lang), quote=True)
    return (f'<span class="reg-num" data-key="{key}" data-kind="{n.provenance.kind}" tabindex="0" '
            f'title="{tip}" aria-label="{html.escape(text)}: {tip}">{html.escape(text)}</span>')


def figure_html(name: str, lang: str) -> str:
    """The figure's root, with its text alternative already in the HTML (readable without JavaScript).
    role=figure, not img: the drawn chart holds controls (legend, menus) a reader can operate."""
    path = FIGURES / f"{name}.json"
    if not path.exists():
        raise ShortcodeError(f"figure {name!r} has no figures/{name}.json (is the figures stage run?)")
    alt = json.loads(path.read_text(encoding="utf-8"))[lang].get("alt", "")
    return (f'<div class="plotly-figure" data-figure="{name}" data-lang="{lang}" role="figure" '
            f'aria-label="{html.escape(alt, quote=True)}"></div>')


def expand(markdown: str, lang: str, where: str) -> str:
    from course import tables, widgets
    draft = os.environ.get("COURSE_DRAFT") == "1"

    def one(m: re.Match) -> str:
        kind, name, mode = m.groups()
        try:
            if kind == "n":
                if mode not in (None, "plain"):
                    raise ShortcodeError(f"unknown number mode {mode!r}")
                return number_html(name, mode, lang)
            if kind == "table":
                return tables.render(name, lang, lambda md: expand(md, lang, where))
            if kind == "widget":
                return widgets.render(name, mode, lang)
            return figure_html(name, lang)
        except KeyError:
            if draft:
                return f"⟨{name}?⟩"
            raise ShortcodeError(f"{where}: unknown registry key {name!r} in {m.group(0)}") from None
        except ShortcodeError as e:
            if draft:
                return f"⟨{m.group(0)[4:-3].strip()}: {e}⟩"
            raise ShortcodeError(f"{where}: {e}") from None
    return SHORTCODE.sub(one, markdown)
