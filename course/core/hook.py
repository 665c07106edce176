"""mkdocs hook: keep the registry current, expand shortcodes in every page, serve each unit's widget scripts
and the figures, and give each page only the scripts it uses (a widget's module, plotly.js where a figure
or a widget draws with it).

`mkdocs serve` works without running build.py first: before each build the hook runs build.py's cheap
stages (validate, the measurement check, numbers, figures) when their inputs changed or their outputs are
missing. It never trains: a missing or stale result is reported and the committed one is used. It never
executes a notebook either: it shows the executed copy (or, before the first `python build.py`, the
notebook without outputs) and says when that copy is stale. While serving, a bad edit is reported like
build.py reports it (file, field, expectation) and the pages keep the last good registry; an edited module
of the project is imported afresh on the next rebuild.
"""
from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

from mkdocs import plugins
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parents[2]

PROJECT_PACKAGES = ("course", "lessons", "models", "build")


class State:
    """What one build (or one rebuild of `mkdocs serve`) reads once: the units and the registry."""
    command = "build"           # or "serve" (mkdocs' on_startup)
    units = None
    registry = None
    refs = None                 # the course map's targets (course/core/references.py)
    deferrals: dict = {}        # lang → reference id → [(page title, page)]: who refers to what
    imported_at = time.time()   # when the project's modules were (re)imported
    said: set = set()           # notices already printed while serving (each is printed once)


STATE = State()


def unit_script(unit_id: str, script: str) -> str:
    return f"assets/units/{unit_id}/{script}"


def serving() -> bool:
    return STATE.command == "serve"


def notice(text: str) -> None:
    """A line for the author's terminal, printed once per `mkdocs serve` session."""
    if text not in STATE.said:
        STATE.said.add(text)
        print(text, flush=True)


def project_first_on_path() -> None:
    """The hook serves the project it belongs to, whichever checkout mkdocs was started in: its packages
    (course, lessons, models) and build.py come from this checkout, not from wherever an editable install
    points. (mkdocs restores sys.path after loading a hook, so this is done when the hook runs.)"""
    if sys.path[:1] != [str(ROOT)]:
        sys.path[:] = [str(ROOT)] + [p for p in sys.path if p != str(ROOT)]


# ---------------------------------------------------------------- keeping the registry current

def forget_edited_code() -> None:
    """`mkdocs serve` rebuilds in one process. When a module of the project was edited after it was imported,
    forget every module of the project, so that this rebuild computes with the edited code."""
    loaded = [n for n in sys.modules if n.split(".")[0] in PROJECT_PACKAGES]
    edited = [n for n in loaded if getattr(sys.modules[n], "__file__", None)
              and os.path.exists(sys.modules[n].__file__)
              and os.path.getmtime(sys.modules[n].__file__) > STATE.imported_at]
    if edited:
        import importlib
        for n in loaded:
            del sys.modules[n]
        importlib.invalidate_caches()
        print(f"    reloaded the project's code ({', '.join(sorted(edited)[:3])}{' …' if len(edited) > 3 else ''} edited)")
    STATE.imported_at = time.time()


def refresh_stages() -> None:
    """Run build.py's cheap stages whose inputs changed. While serving, a failure is reported and the last
    good registry stays in use; in a plain `mkdocs build` it stops the build."""
    import build
    draft = os.environ.get("COURSE_DRAFT") == "1"
    try:
        for name, status, secs, note in build.run_stages(build.serving_args(draft), build.CHEAP):
            if status == "ran":
                print(f"{name:<14} ran in {secs:.2f} s: {note}", flush=True)
    except Exception as e:
        from course.core.paths import REGISTRY
        if not serving() or not REGISTRY.exists():
            raise
        print(f"\n{build.failure(e)}\n(the pages keep the last good registry until this is fixed)\n",
              file=sys.stderr, flush=True)


# ---------------------------------------------------------------- mkdocs events

def on_startup(command, dirty):
    project_first_on_path()
    STATE.command = command
    if command == "serve":
        sys.dont_write_bytecode = True  # compiled files written into watched folders would trigger a rebuild


def on_config(config):
    import logging
    logging.getLogger("jieba").setLevel(logging.WARNING)  # search segmentation; its info lines are noise
    project_first_on_path()
    if serving():
        forget_edited_code()
    if os.environ.get("COURSE_STAGES_CURRENT") != "1":  # build.py has just run them
        refresh_stages()
    from course.core.errors import ShortcodeError
    from course.core.paths import REGISTRY, relative
    from course.core.registry import Registry
    from course.core.units import discover
    STATE.units = discover()
    if not REGISTRY.exists():
        raise ShortcodeError(f"{relative(REGISTRY)} is missing: run `python build.py` first")
    STATE.registry = Registry.read(REGISTRY)  # read on every build, so `mkdocs serve` picks up a rebuilt one
    STATE.refs = course_references(STATE.units)
    return config


def course_references(units):
    from course.core.paths import COURSE_MAP, DOCS
    from course.core.references import build_references, load_course_map
    written = {ref: page for u in units.all for ref, page in u.written_refs().items()}
    try:
        return build_references(load_course_map(COURSE_MAP), written, DOCS)
    except ValueError as e:
        from course.core.errors import ShortcodeError
        raise ShortcodeError(str(e)) from None


def page_context(f: File, url: str, draft: bool):
    from course.core.shortcodes import PageContext, page_lang

    class _Page:  # page_lang reads page.file only
        file = f
    lang = page_lang(_Page)
    return PageContext(registry=STATE.registry, units=STATE.units, lang=lang, where=f.src_uri, url=url,
                       unit=STATE.units.owner_of_page(f.src_uri), draft=draft, refs=STATE.refs,
                       deferrals=STATE.deferrals.get(lang, {}))


def collect_deferrals(files) -> dict:
    """Which page refers to what, over every page, before any is rendered: the course map lists them."""
    from course.core.shortcodes import expand
    out: dict = {}
    for f in files.documentation_pages():
        if not f.src_uri.endswith(".md"):
            continue
        text = Path(f.abs_src_path).read_text(encoding="utf-8")
        ctx = page_context(f, f.url, draft=True)
        expand(text, ctx)
        title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), f.src_uri)
        title = re.sub(r"<!--.*?-->", "", title).strip()
        page = f.src_uri.removesuffix(".md").removesuffix(".en")
        for ref in dict.fromkeys(ctx.refs_used):
            out.setdefault(ctx.lang, {}).setdefault(ref, []).append((title, page))
    return out


def on_page_markdown(markdown, page, config, files):
    from course.core.shortcodes import expand
    return expand(markdown, page_context(page.file, page.url, os.environ.get("COURSE_DRAFT") == "1"))


def notebook_page(f: File, config) -> File:
    """static-i18n rebuilds the file list after mkdocs-jupyter has wrapped its notebooks, so a
    notebook can render as raw JSON (static-i18n issue 198). Wrap each one again, keeping the
    language's destination, and point it at the copy the build executed."""
    from mkdocs_jupyter.plugin import NotebookFile

    from course.core.errors import ShortcodeError
    from course.core.notebooks import EXECUTED, executed_path, name, read_registry, why_stale
    inner = f.file if isinstance(f, NotebookFile) else f
    source = Path(inner.abs_src_path)
    if not source.is_relative_to(EXECUTED):
        executed = executed_path(source)
        if executed.exists():
            inner.abs_src_path = str(executed)
            stale = why_stale(source, read_registry()) if serving() else []
            if stale:
                notice(f"    notebook {name(source)} is stale ({'; '.join(stale[:3])}): `python build.py` "
                       "executes it again")
        elif serving():
            notice(f"    notebook {name(source)} shown without outputs: `python build.py` executes it")
        else:
            raise ShortcodeError(f"{f.src_uri} has not been executed: run `python build.py` first")
    nb = NotebookFile(inner, **config)
    # the wrapper inherits File's cached properties, so it must be told each one explicitly
    nb.abs_src_path = inner.abs_src_path
    nb.dest_path, nb.abs_dest_path, nb.url = f.dest_path, f.abs_dest_path, f.url
    return nb


# Markdown wraps raw HTML that sits inside an indented block (a content tab) in <p>, which HTML does not
# allow around a block: a widget's or figure's root, a <figure> with an inlined diagram and its caption.
BLOCK = "div|figure|figcaption|svg|table|details"
BLOCK_IN_P = re.compile(rf"<p>(<(?:{BLOCK})\b(?:(?!</?p\b).)*?</(?:{BLOCK})>)</p>", re.S)


def on_page_content(html_out, page, config, files):
    """Unwrap every paragraph that holds nothing but block-level markup (the lesson pages stay as written)."""
    return BLOCK_IN_P.sub(r"\1", html_out)


WIDGET_ROOT = re.compile(r'data-widget="([\w\-]+)"')


def on_post_page(output, page, config):
    """Load what this page uses, and nothing else: each widget's module (and its stylesheet, if it has
    one), and plotly.js when a figure (a lesson's or a notebook's) or a widget that draws charts is on it."""
    from course.core.paths import PLOTLY_URI
    names = sorted(set(WIDGET_ROOT.findall(output)))
    scripts, styles, plotly = [], [], 'class="plotly-figure"' in output
    for name in names:
        unit, widget = STATE.units.widget(name)
        scripts.append(unit_script(unit.id, widget.script))
        if unit.css(widget).exists():
            styles.append(unit_script(unit.id, unit.css(widget).name))
        plotly = plotly or widget.plotly
    if plotly:
        scripts.insert(0, PLOTLY_URI)
    css = "".join(f'<link rel="stylesheet" href="{get_relative_url(s, page.url)}">' for s in styles)
    js = "".join(f'<script src="{get_relative_url(s, page.url)}"></script>' for s in scripts)
    return output.replace("</head>", css + "</head>", 1).replace("</body>", js + "</body>", 1)


@plugins.event_priority(-200)  # after static-i18n (-100) has rebuilt the file list for each language
def on_files(files, config):
    """Serve each unit's widget scripts and the built figures (plotly.js is a vendored file under docs/),
    never from a CDN; hand the notebooks back to mkdocs-jupyter, executed."""
    from course.core.paths import FIGURES
    for f in [f for f in files if f.src_uri.endswith(".ipynb")]:
        files.remove(f)  # in place: static-i18n's own Files class must stay
        files.append(notebook_page(f, config))
    extra = {}
    for unit, widget in STATE.units.widgets():
        extra[unit_script(unit.id, widget.script)] = unit.js(widget)
        if unit.css(widget).exists():
            extra[unit_script(unit.id, unit.css(widget).name)] = unit.css(widget)
    for fig in sorted(FIGURES.glob("*.json")):
        extra[f"assets/figures/{fig.name}"] = fig
    for uri, src in extra.items():
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(src)))
    STATE.deferrals = collect_deferrals(files)
    return files


def on_post_build(config):
    """Material's language switcher fetches sitemap.xml beside the other language's root; the i18n
    sitemap (which lists both languages) is written at the site root only, so place it there too."""
    site = Path(config["site_dir"])
    sitemap = site / "sitemap.xml"
    if sitemap.exists() and (site / "en").is_dir():
        (site / "en" / "sitemap.xml").write_bytes(sitemap.read_bytes())
