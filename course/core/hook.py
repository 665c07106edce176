"""mkdocs hook: expand shortcodes in every page, serve each unit's widget scripts and the figures, and give
each page only the scripts it uses (a widget's module, plotly.js where a figure or a widget draws with it)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs import plugins
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from course.core.errors import ShortcodeError
from course.core.paths import FIGURES, REGISTRY, relative
from course.core.registry import Registry
from course.core.shortcodes import PageContext, expand, page_lang
from course.core.units import Units, discover

PLOTLY = "assets/vendor/plotly.min.js"


class State:
    """What one build (or one rebuild of `mkdocs serve`) reads once: the units and the registry."""
    units: Units | None = None
    registry: Registry | None = None


STATE = State()


def unit_script(unit_id: str, script: str) -> str:
    return f"assets/units/{unit_id}/{script}"


# ---------------------------------------------------------------- mkdocs events

def on_config(config):
    import logging
    logging.getLogger("jieba").setLevel(logging.WARNING)  # search segmentation; its info lines are noise
    STATE.units = discover()
    if not REGISTRY.exists():
        raise ShortcodeError(f"{relative(REGISTRY)} is missing: run `python build.py` first")
    STATE.registry = Registry.read(REGISTRY)  # read on every build, so `mkdocs serve` picks up a rebuilt one
    return config


def on_page_markdown(markdown, page, config, files):
    ctx = PageContext(registry=STATE.registry, units=STATE.units, lang=page_lang(page), where=page.file.src_uri,
                      url=page.url, unit=STATE.units.owner_of_page(page.file.src_uri),
                      draft=os.environ.get("COURSE_DRAFT") == "1")
    return expand(markdown, ctx)


def notebook_page(f: File, config) -> File:
    """static-i18n rebuilds the file list after mkdocs-jupyter has wrapped its notebooks, so a
    notebook can render as raw JSON (static-i18n issue 198). Wrap each one again, keeping the
    language's destination, and point it at the copy the build executed."""
    from mkdocs_jupyter.plugin import NotebookFile

    from course.core.notebooks import EXECUTED, executed_path
    inner = f.file if isinstance(f, NotebookFile) else f
    source = Path(inner.abs_src_path)
    if not source.is_relative_to(EXECUTED):
        executed = executed_path(source)
        if not executed.exists():
            raise ShortcodeError(f"{f.src_uri} has not been executed: run `python build.py` first")
        inner.abs_src_path = str(executed)
    nb = NotebookFile(inner, **config)
    # the wrapper inherits File's cached properties, so it must be told each one explicitly
    nb.abs_src_path = inner.abs_src_path
    nb.dest_path, nb.abs_dest_path, nb.url = f.dest_path, f.abs_dest_path, f.url
    return nb


BLOCK_IN_P = re.compile(r'<p>(<div class="(?:cw|plotly-figure)" data-(?:widget|figure)="[^"]*"[^>]*>.*?</div>)</p>', re.S)


def on_page_content(html_out, page, config, files):
    """A widget or figure shortcode inside an indented block (a content tab) reaches Markdown as a
    paragraph, so its root comes out wrapped in <p>, which HTML does not allow around a <div>: unwrap it."""
    return BLOCK_IN_P.sub(r"\1", html_out)


WIDGET_ROOT = re.compile(r'data-widget="([\w\-]+)"')


def on_post_page(output, page, config):
    """Load what this page uses, and nothing else: each widget's module (and its stylesheet, if it has
    one), and plotly.js when a figure (a lesson's or a notebook's) or a widget that draws charts is on it."""
    names = sorted(set(WIDGET_ROOT.findall(output)))
    scripts, styles, plotly = [], [], 'class="plotly-figure"' in output
    for name in names:
        unit, widget = STATE.units.widget(name)
        scripts.append(unit_script(unit.id, widget.script))
        if unit.css(widget).exists():
            styles.append(unit_script(unit.id, unit.css(widget).name))
        plotly = plotly or widget.plotly
    if plotly:
        scripts.insert(0, PLOTLY)
    css = "".join(f'<link rel="stylesheet" href="{get_relative_url(s, page.url)}">' for s in styles)
    js = "".join(f'<script src="{get_relative_url(s, page.url)}"></script>' for s in scripts)
    return output.replace("</head>", css + "</head>", 1).replace("</body>", js + "</body>", 1)


@plugins.event_priority(-200)  # after static-i18n (-100) has rebuilt the file list for each language
def on_files(files, config):
    """Serve plotly.js from the installed plotly package, each unit's widget scripts and the built figures,
    never from a CDN; hand the notebooks back to mkdocs-jupyter, executed."""
    for f in [f for f in files if f.src_uri.endswith(".ipynb")]:
        files.remove(f)  # in place: static-i18n's own Files class must stay
        files.append(notebook_page(f, config))
    import plotly
    extra = {PLOTLY: Path(plotly.__file__).parent / "package_data" / "plotly.min.js"}
    for unit, widget in STATE.units.widgets():
        extra[unit_script(unit.id, widget.script)] = unit.js(widget)
        if unit.css(widget).exists():
            extra[unit_script(unit.id, unit.css(widget).name)] = unit.css(widget)
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
