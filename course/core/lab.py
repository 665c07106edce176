"""The helpers a hands-on notebook imports: the build's registry and a Plotly figure that renders both in
Jupyter and on the built site (drawn by the site's one local plotly.js, never a CDN)."""
from __future__ import annotations

import html
import json
import sys

from course.core.paths import REGISTRY


class RegistryReads(dict):
    """The registry as a plain dict that announces every key the notebook looks up (as an audit event:
    nothing listens outside the build, and then it costs nothing). The build's kernel records them, so a
    notebook is re-executed only when a number it read changes (course/core/notebooks.py)."""

    def __getitem__(self, key):
        sys.audit("course.lab.key", key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        sys.audit("course.lab.key", key)
        return super().get(key, default)

    def __contains__(self, key):
        sys.audit("course.lab.key", key)
        return super().__contains__(key)

    # walking the whole registry reads every number in it
    def __iter__(self):
        sys.audit("course.lab.all")
        return super().__iter__()

    def keys(self):
        sys.audit("course.lab.all")
        return super().keys()

    def values(self):
        sys.audit("course.lab.all")
        return super().values()

    def items(self):
        sys.audit("course.lab.all")
        return super().items()

    def copy(self):
        sys.audit("course.lab.all")
        return dict(super().items())


def registry() -> RegistryReads:
    """The build's registry: {key: {value, text, provenance, ...}}. Run `python build.py` first."""
    sys.audit("course.lab.registry")  # the file is read through this helper: the keys read are what counts
    return RegistryReads(json.loads(REGISTRY.read_text(encoding="utf-8")))


def show(fig) -> None:
    """Display a Plotly figure. Jupyter draws the Plotly MIME bundle; the site's exported HTML keeps the
    text/html part, a div that docs/assets/js/figures.js draws with the page's palette."""
    from IPython.display import display
    spec = json.loads(fig.to_json())
    div = (f'<div class="plotly-figure" role="figure" aria-label="{html.escape(spec["layout"].get("title", {}).get("text", ""))}" '
           f'data-inline="{html.escape(json.dumps(spec), quote=True)}"></div>')
    display({"application/vnd.plotly.v1+json": spec, "text/html": div}, raw=True)
