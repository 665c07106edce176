"""mkdocs hook: expand shortcodes in every page (course/shortcodes.py) and ship the local assets."""
from __future__ import annotations

import sys
from pathlib import Path

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
