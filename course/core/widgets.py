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

from course.core.registry import LANGS, Registry
from course.core.units import Widget, WidgetContext


class WidgetError(RuntimeError):
    pass


def load_labels(path: Path) -> dict:
    """A widget's label table (key → {zh, en}, possibly nested), checked for both languages."""
    labels = json.loads(path.read_text(encoding="utf-8"))

    def check(node, where):
        if isinstance(node, dict) and set(node) & set(LANGS):
            if set(node) != set(LANGS) or not all(isinstance(v, str) for v in node.values()):
                raise WidgetError(f"{path.name}: {where}: a label needs exactly {' and '.join(LANGS)}, got {sorted(node)}")
            return
        if isinstance(node, dict) and all(isinstance(v, (dict, str)) for v in node.values()):
            for k, v in node.items():
                if isinstance(v, str):
                    continue  # a language-neutral label (a code name such as q_proj)
                check(v, f"{where}.{k}")
            return
        raise WidgetError(f"{path.name}: {where}: expected {{zh, en}} or a group of labels")
    check(labels, path.stem)
    return labels


def label(widget: Widget, path: str, lang: str) -> str:
    """One label of the table in the page's language, by dotted path (`toggles.residual`)."""
    node = widget.labels
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(f"{widget.name}.{path}")
        node = node[part]
    if isinstance(node, dict) and set(node) == set(LANGS):
        return node[lang]
    if isinstance(node, str):
        return node
    raise KeyError(f"{widget.name}.{path}")


def resolved_labels(labels: dict, resolve: Callable[[str, str], str]) -> dict:
    """The label table with `resolve(text, lang)` applied to every label (it turns a cross-reference such as
    `<!-- ref:c4-2 short -->` into the title the page's language gives it); a language-neutral label that
    changes becomes one per language."""
    def walk(node):
        if isinstance(node, dict) and set(node) == set(LANGS) and all(isinstance(v, str) for v in node.values()):
            return {lang: resolve(text, lang) for lang, text in node.items()}
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, str):
            shown = {lang: resolve(node, lang) for lang in LANGS}
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
    labels = resolved_labels(widget.labels, resolve) if resolve else widget.labels
    config = {**widget.config(WidgetContext(registry, lang, mode)), "labels": labels}
    data = html.escape(json.dumps(config, ensure_ascii=False, separators=(",", ":")), quote=True)
    noscript = "这个交互组件需要 JavaScript。" if lang == "zh" else "This interactive widget needs JavaScript."
    attrs = f'class="cw" data-widget="{widget.name}" data-lang="{lang}" data-config="{data}"'
    if mode:
        attrs += f' data-mode="{mode}"'
    # one line, so Markdown (also inside an indented tab) keeps it as a raw HTML block
    return f'<div {attrs}><noscript>{noscript}</noscript></div>'
