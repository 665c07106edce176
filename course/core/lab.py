"""The helpers a hands-on notebook imports: the build's registry, a Plotly figure that renders both in
Jupyter and on the built site (drawn by the site's one local plotly.js, never a CDN), and what a check does
with a prediction the learner has not written yet.

A lab asks before it answers (course/core/notebooks.py): each prediction cell holds a placeholder, `...`,
which the learner replaces; the cells tagged `answer` hold the answer key. The learner's copy has no answer
cells, so a check there may meet the placeholder and asks for a prediction; the build runs the answer key
(ANSWER_KEY_ENV set), where a placeholder that reaches a check is a fault of the notebook."""
from __future__ import annotations

import html
import json
import os
import sys
from pathlib import Path

# the build tells a notebook's kernel where the registry is; a notebook run by hand finds it above itself
REGISTRY_ENV = "COURSE_REGISTRY"
# set to "1" where the notebook runs as its answer key (the build, and the tests that hold its answers)
ANSWER_KEY_ENV = "COURSE_LAB_ANSWER_KEY"
PLACEHOLDER = ...  # what a prediction cell holds until the learner writes a prediction


def answer_key() -> bool:
    """Whether this kernel runs the notebook's answer key rather than a learner's copy."""
    return os.environ.get(ANSWER_KEY_ENV) == "1"


def unanswered(value) -> bool:
    """Whether a prediction (or a part of one: a list's entry, a dict's value) is still the placeholder."""
    if value is PLACEHOLDER:
        return True
    if isinstance(value, dict):
        return any(unanswered(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(unanswered(v) for v in value)
    return False


def ask_first(text: str) -> None:
    """A check that met the placeholder: in a learner's copy it prints `text` (which asks for the prediction
    first) and lets the notebook run on; in the answer key it fails, since an answer cell is missing."""
    if answer_key():
        raise AssertionError(f"the answer key reaches a check with its placeholder still in place: {text}")
    print(text)


def registry_path() -> Path:
    if os.environ.get(REGISTRY_ENV):
        return Path(os.environ[REGISTRY_ENV])
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / ".build" / "registry.json").exists():
            return folder / ".build" / "registry.json"
    raise FileNotFoundError("no .build/registry.json here or in a folder above: run `python build.py` once "
                            "in the project")


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
    path = registry_path()
    sys.audit("course.lab.registry")  # the file is read through this helper: the keys read are what counts
    return RegistryReads(json.loads(path.read_text(encoding="utf-8")))


class Numbers:
    """The build's registry as a notebook reads it, in the notebook's language: `value(key)` to compute
    with, `text(key)` written exactly as the lesson page writes it."""

    def __init__(self, lang: str):
        # through registry(): the build learns which keys the notebook read, not just that it read the file
        self.entries, self.lang = registry(), lang

    def value(self, key: str):
        return self.entries[key]["value"]

    def text(self, key: str) -> str:
        return self.entries[key]["text"][self.lang]


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
