"""Widget roots: what `<!-- widget:NAME [mode] -->` becomes on a page, and the label tables.

A widget's JavaScript module finds its root by `data-widget="NAME"` and reads everything it starts from in
`data-config`: the numbers (from the registry, through WidgetContext.num), the settings its unit passes,
and its label table. Nothing a widget shows is typed into its JavaScript.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Callable

from course.core.registry import Registry
from course.core.units import Widget, WidgetContext
from course.core.words import core_words


class WidgetError(RuntimeError):
    pass


def load_labels(path: Path) -> dict:
    """A widget's label table: key → one text per language ({"zh": …, "en": …}), a language-neutral text (a
    code name such as q_proj), or a group of labels. Which keys are languages is the project's to say:
    discovering the units checks every table against the declared languages (`check_labels`)."""
    labels = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(labels, dict):
        raise WidgetError(f"{path.name}: expected a table of labels")
    return labels


def check_labels(labels: dict, where: str, languages: tuple[str, ...]) -> None:
    """A label names a language (one of `languages`) only if it has a text in each of them."""
    def check(node, at):
        if isinstance(node, dict) and set(node) & set(languages):
            if set(node) != set(languages) or not all(isinstance(v, str) for v in node.values()):
                raise WidgetError(f"{where}: {at}: a label needs exactly {' and '.join(languages)}, got {sorted(node)}")
            return
        if isinstance(node, dict) and all(isinstance(v, (dict, str)) for v in node.values()):
            for k, v in node.items():
                if isinstance(v, str):
                    continue  # a language-neutral label (a code name such as q_proj)
                check(v, f"{at}.{k}")
            return
        raise WidgetError(f"{where}: {at}: expected a text in each of {', '.join(languages)} or a group of labels")
    check(labels, "labels")


def is_label(node, lang: str) -> bool:
    """A label in each language (checked when the units are discovered), which has `lang`."""
    return isinstance(node, dict) and isinstance(node.get(lang), str)


def label(widget: Widget, path: str, lang: str) -> str:
    """One label of the table in the page's language, by dotted path (`toggles.residual`)."""
    node = widget.labels
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(f"{widget.name}.{path}")
        node = node[part]
    if is_label(node, lang):
        return node[lang]
    if isinstance(node, str):
        return node
    raise KeyError(f"{widget.name}.{path}")


def resolved_labels(labels: dict, resolve: Callable[[str, str], str], languages: tuple[str, ...]) -> dict:
    """The label table with `resolve(text, lang)` applied to every label (it turns a cross-reference such as
    `<!-- ref:c4-2 short -->` into the title the page's language gives it); a language-neutral label that
    changes becomes one per language."""
    def walk(node):
        if isinstance(node, dict) and languages and all(is_label(node, lang) for lang in languages):
            return {lang: resolve(text, lang) for lang, text in node.items()}
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, str):
            shown = {lang: resolve(node, lang) for lang in languages}
            return node if all(v == node for v in shown.values()) else shown
        return node
    return walk(labels)


def render(widget: Widget, mode: str | None, lang: str, registry: Registry,
           resolve: Callable[[str, str], str] | None = None) -> str:
    if widget.modes:
        mode = mode or widget.modes[0]
        if mode not in widget.modes:
            raise WidgetError(f"widget {widget.name!r} has modes {widget.modes}, got {mode!r}")
    elif mode is not None:
        raise WidgetError(f"widget {widget.name!r} takes no mode, got {mode!r}")
    labels = resolved_labels(widget.labels, resolve, registry.languages) if resolve else widget.labels
    config = {**widget.config(WidgetContext(registry, lang, mode)), "labels": labels}
    data = html.escape(json.dumps(config, ensure_ascii=False, separators=(",", ":")), quote=True)
    noscript = core_words().lang(lang)("widget.noscript")
    attrs = f'class="cw" data-widget="{widget.name}" data-lang="{lang}" data-config="{data}"'
    if mode:
        attrs += f' data-mode="{mode}"'
    # one line, so Markdown (also inside an indented tab) keeps it as a raw HTML block
    return f'<div {attrs}><noscript>{noscript}</noscript></div>'
