"""The helpers a hands-on notebook imports: the build's registry and a Plotly figure that renders both in
Jupyter and on the built site (drawn by the site's one local plotly.js, never a CDN)."""
from __future__ import annotations

import html
import json

from course.core.paths import REGISTRY


def registry() -> dict:
    """The build's registry: {key: {value, text, provenance, ...}}. Run `python build.py` first."""
    return json.loads(REGISTRY.read_text(encoding="utf-8"))


def show(fig) -> None:
    """Display a Plotly figure. Jupyter draws the Plotly MIME bundle; the site's exported HTML keeps the
    text/html part, a div that docs/assets/js/figures.js draws with the page's palette."""
    from IPython.display import display
    spec = json.loads(fig.to_json())
    div = (f'<div class="plotly-figure" role="figure" aria-label="{html.escape(spec["layout"].get("title", {}).get("text", ""))}" '
           f'data-inline="{html.escape(json.dumps(spec), quote=True)}"></div>')
    display({"application/vnd.plotly.v1+json": spec, "text/html": div}, raw=True)
