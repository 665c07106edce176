"""mkdocs hook: put registry numbers and generated tables into pages, and ship local assets.

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
import os
import re
from pathlib import Path

from mkdocs.structure.files import File

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


def page_lang(page, config) -> str:
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
    if not (FIGURES / f"{name}.json").exists():
        raise ShortcodeError(f"figure {name!r} has no figures/{name}.json (is the figures stage run?)")
    return f'<div class="plotly-figure" data-figure="{name}" data-lang="{lang}" role="img"></div>'


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
        except RuntimeError as e:
            # ShortcodeError, caught by its base: mkdocs loads this file as a hook module, so the class that
            # course.tables / course.widgets raise (imported from course.hook) is not this module's class
            if not isinstance(e, ShortcodeError) and type(e).__name__ != "ShortcodeError":
                raise
            if draft:
                return f"⟨{m.group(0)[4:-3].strip()}: {e}⟩"
            raise ShortcodeError(f"{where}: {e}") from None
    return SHORTCODE.sub(one, markdown)


# ---------------------------------------------------------------- mkdocs events

def on_config(config):
    global _registry
    _registry = None  # re-read on every build, so `mkdocs serve` picks up a rebuilt registry
    return config


def on_page_markdown(markdown, page, config, files):
    return expand(markdown, page_lang(page, config), page.file.src_uri)


def on_files(files, config):
    """Serve plotly.js from the installed plotly package and the built figures, never from a CDN."""
    import plotly
    plotly_js = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    extra = {"assets/vendor/plotly.min.js": plotly_js}
    for fig in sorted(FIGURES.glob("*.json")):
        extra[f"assets/figures/{fig.name}"] = fig
    for uri, src in extra.items():
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(src)))
    return files


def on_post_build(config):
    """Material's language switcher fetches sitemap.xml beside the other language's root; the i18n
    sitemap (which lists both languages) is written at the site root only, so place it there too."""
    site = Path(config["site_dir"])
    sitemap = site / "sitemap.xml"
    if sitemap.exists() and (site / "en").is_dir():
        (site / "en" / "sitemap.xml").write_bytes(sitemap.read_bytes())
