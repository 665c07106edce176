"""The helpers a hands-on notebook imports: the build's registry and a Plotly figure that renders both in
Jupyter and on the built site (drawn by the site's one local plotly.js, never a CDN)."""
from __future__ import annotations

import html
import json

from course.core.paths import REGISTRY, ROOT, relative


def registry() -> dict:
    """The build's registry: {key: {value, text, provenance, ...}}. Run `python build.py` first."""
    return json.loads(REGISTRY.read_text(encoding="utf-8"))


class Numbers:
    """The build's registry as a notebook reads it, in the notebook's language: `value(key)` to compute
    with, `text(key)` written exactly as the lesson page writes it."""

    def __init__(self, lang: str):
        if not REGISTRY.exists():
            raise FileNotFoundError(f"{relative(REGISTRY)} is missing: run `python build.py` once in {ROOT}")
        from course.core.registry import Registry
        self.registry, self.lang = Registry.read(REGISTRY), lang

    def value(self, key: str):
        return self.registry[key].value

    def text(self, key: str) -> str:
        return self.registry[key].text[self.lang]


def show(fig, alt: str | None = None) -> None:
    """Display a Plotly figure. Jupyter draws the Plotly MIME bundle; the site's exported HTML keeps the
    text/html part, a div that docs/assets/js/figures.js draws with the page's palette. `alt` is its text
    alternative for screen readers (the figure's title if none is given)."""
    from IPython.display import display
    spec = json.loads(fig.to_json())
    label = alt or spec["layout"].get("title", {}).get("text", "")
    # the page draws with its own palette (CW.layout), as the lessons' figures do: no Plotly template
    page_spec = {**spec, "layout": {k: v for k, v in spec["layout"].items() if k != "template"}}
    div = (f'<div class="plotly-figure" role="figure" aria-label="{html.escape(label)}" '
           f'data-inline="{html.escape(json.dumps(page_spec), quote=True)}"></div>')
    display({"application/vnd.plotly.v1+json": spec, "text/html": div}, raw=True)
