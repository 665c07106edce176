"""mkdocs hook: expand shortcodes in every page (course/shortcodes.py) and ship the local assets."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from mkdocs import plugins
from mkdocs.structure.files import File

# mkdocs loads this file by path; make the project's `course` package importable for a plain `mkdocs serve`.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from course import shortcodes  # noqa: E402
from course.shortcodes import FIGURES  # noqa: E402


# ---------------------------------------------------------------- mkdocs events

def on_config(config):
    import logging
    logging.getLogger("jieba").setLevel(logging.WARNING)  # search segmentation; its info lines are noise
    shortcodes.reset()  # re-read the registry on every build, so `mkdocs serve` picks up a rebuilt one
    return config


def on_page_markdown(markdown, page, config, files):
    return shortcodes.expand(markdown, shortcodes.page_lang(page), page.file.src_uri)


def notebook_page(f: File, config) -> File:
    """static-i18n rebuilds the file list after mkdocs-jupyter has wrapped its notebooks, so a
    notebook can render as raw JSON (static-i18n issue 198). Wrap each one again, keeping the
    language's destination, and point it at the copy the build executed."""
    from mkdocs_jupyter.plugin import NotebookFile

    from course.notebook import EXECUTED, executed_path
    inner = f.file if isinstance(f, NotebookFile) else f
    source = Path(inner.abs_src_path)
    if not source.is_relative_to(EXECUTED):
        executed = executed_path(source)
        if not executed.exists():
            raise shortcodes.ShortcodeError(f"{f.src_uri} has not been executed: run `python build.py` first")
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


@plugins.event_priority(-200)  # after static-i18n (-100) has rebuilt the file list for each language
def on_files(files, config):
    """Serve plotly.js from the installed plotly package and the built figures, never from a CDN;
    hand the notebooks back to mkdocs-jupyter, executed."""
    for f in [f for f in files if f.src_uri.endswith(".ipynb")]:
        files.remove(f)  # in place: static-i18n's own Files class must stay
        files.append(notebook_page(f, config))
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


