"""What a site engine's adapter keeps for one session: a site build, or every rebuild of `mkdocs serve`
(which rebuilds in one process, each language as a build of its own).

The adapter hands each event's plain values here (a page's source path, URL and Markdown; the folders
to watch) and gets plain values back. This module keeps:

- the project, imported from the checkout being built (not from wherever an editable install points),
  and imported afresh when one of its modules, or a file its units read when imported, was edited;
- the cheap stages (validate, the measurement check, numbers, figures), run before each build when what
  they read changed: while serving, a failure is reported and the pages keep the last good registry;
- the notebook pages: which executed copy each shows, and why that copy is stale;
- the serve-time memos: what converting a page made, a page's search entries, the theme's compiled
  templates (each keyed on everything that determines it), and each notebook's rendered HTML, kept on
  disk in .build/notebook-html/ across sessions.

It knows no site engine: `course/mkdocs_plugin.py` adapts MkDocs to it.
"""
from __future__ import annotations

import hashlib
import importlib
import logging
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Callable

import jinja2

log = logging.getLogger(__name__)


def forget_outside(root: str, package: str) -> None:
    """Drop the modules of `package` that were imported from another checkout than `root`."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        file = getattr(sys.modules[name], "__file__", None) or ""
        if file and not os.path.realpath(file).startswith(os.path.realpath(root) + os.sep):
            del sys.modules[name]
    importlib.invalidate_caches()


def load_project(root: Path, spec: str):
    """The project `spec` names ("module:NAME") of the checkout at `root`, imported from that checkout:
    its root goes first on sys.path, and the project's packages imported from elsewhere are forgotten."""
    root_s = str(root)
    if sys.path[:1] != [root_s]:
        sys.path[:] = [root_s] + [p for p in sys.path if p != root_s]
    module, _, name = spec.partition(":")
    forget_outside(root_s, module.split(".")[0])  # the adapter itself may have been imported from elsewhere
    project = getattr(importlib.import_module(module), name)
    for package in project.code_packages:
        forget_outside(root_s, package)
    if Path(project.paths.root).resolve() != root:
        raise RuntimeError(f"{spec} describes {project.paths.root}, not the project at {root}")
    return project


class Recent(dict):
    """A memo for a serve session that forgets its oldest entries beyond `size`: a long session of edits
    makes new entries, and a page's old versions are never asked for again. An entry asked for again
    counts as new (each language is a build of its own, so an entry is asked for every other build)."""

    def __init__(self, size: int = 512):
        super().__init__()
        self.size = size

    def take(self, key):
        """The entry for `key`, made the newest, or None."""
        if key not in self:
            return None
        self[key] = self.pop(key)
        return self[key]

    def keep(self, key, value) -> None:
        self[key] = value
        while len(self) > self.size:
            self.pop(next(iter(self)))


class TemplateCode(jinja2.BytecodeCache):
    """Jinja's compiled templates (its documented bytecode cache), kept in memory for a serve session:
    each rebuild (each language's, too) makes a new Jinja environment, which would compile every template
    again. Jinja checks an entry against its template's source, so an edited override is compiled afresh."""

    def __init__(self):
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.codes:
            bucket.bytecode_from_string(self.codes[bucket.key])

    def dump_bytecode(self, bucket):
        self.codes[bucket.key] = bucket.bytecode_to_string()


def key_of(*parts) -> str:
    """A memo's key: a digest of what determines the entry."""
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()


class NotebookRender:
    """A notebook page's rendered HTML, table of contents and title, kept in `folder` across sessions: one
    slot per page source (a new render replaces the old), the file named by the executed notebook's bytes
    and the renderer's settings and version (the render depends on nothing else)."""

    def __init__(self, folder: Path, src_uri: str, executed: Path, settings: dict, version: str):
        self.folder = folder
        self.slot = hashlib.sha256(src_uri.encode()).hexdigest()[:12]
        key = hashlib.sha256(executed.read_bytes() + repr((sorted(settings.items()), version)).encode())
        self.entry = folder / f"{self.slot}-{key.hexdigest()[:24]}.pickle"

    def load(self):
        """(content, toc, title) as rendered before, or None."""
        return pickle.loads(self.entry.read_bytes()) if self.entry.exists() else None

    def keep(self, content, toc, title) -> None:
        from course.core.files import write_atomic
        for old in self.folder.glob(f"{self.slot}-*.pickle"):
            old.unlink()
        write_atomic(self.entry, pickle.dumps((content, toc, title)))


class Session:
    """One adapter session: `spec` names the project ("module:NAME"); `serving` keeps the memos."""

    def __init__(self, spec: str, serving: bool):
        self.spec, self.serving = spec, serving
        self.project = self.pipeline = self.site = None
        self.imported_at = time.time()  # when the project's modules were (re)imported
        self.said: set[str] = set()     # notices already given while serving (each once)
        self.notebooks: dict[str, tuple[str, Path, Path]] = {}  # page URL → (src_uri, source, download to write)
        self.stale_notebooks: dict[str, list[str]] = {}        # page URL → why its executed copy is out of date
        self.rendered = Recent()        # while serving: what converting a page made, by what it was given
        self.search_entries = Recent()  # while serving: a page's search entries, by what they follow from
        self.template_code = TemplateCode() if serving else None
        self.converted = [0, 0]         # while serving: pages this build converted afresh, pages it rendered
        self.formulas = None            # the formulas rendered so far (course/core/math.py), kept across rebuilds
        if serving:
            sys.dont_write_bytecode = True  # compiled files written into watched folders would trigger a rebuild

    def notice(self, text: str) -> None:
        if text not in self.said:
            self.said.add(text)
            log.info(text)

    def begin(self, root: Path, draft: bool):
        """Before a build: the project (its edited code imported afresh), the cheap stages run where what
        they read changed (current after a build.py run: each is checked, none reruns), and the site's side of
        the build (course/core/site.py), which is returned."""
        self.project = load_project(root, self.spec)
        if self.serving:
            self._forget_edited_code()
            self.converted = [0, 0]
        from course.core.pipeline import Pipeline  # imported now: the project's modules may just have been forgotten
        from course.core.site import Site
        if self.pipeline is None:
            self.pipeline = Pipeline(self.project)
        self._refresh_stages(draft)
        self.notebooks, self.stale_notebooks = {}, {}
        self.site = Site.load(self.project, self.pipeline.units, draft)
        if self.formulas is None:
            from course.core.math import Formulas
            self.formulas = Formulas(self.project.paths.katex_js, self.project.paths.rendered_formulas)
        return self.site

    def _forget_edited_code(self) -> None:
        """When a module of the project (or a file its units read when imported, a label table say) was
        edited since it was imported, forget the project's modules so that this rebuild computes with the
        edited code."""
        from course.core.pipeline import forget_modules
        packages, paths = self.project.code_packages, self.project.paths
        loaded = [sys.modules[n] for n in list(sys.modules) if n.split(".")[0] in packages]
        files = [Path(m.__file__) for m in loaded if getattr(m, "__file__", None)]
        if self.pipeline is not None:
            files += [paths.root / f for f in self.pipeline._discovered[1].files]
        edited = sorted({paths.relative(f) for f in files if f.exists() and f.stat().st_mtime > self.imported_at})
        if edited:
            forget_modules(packages)
            self.pipeline = None
            log.info(f"    reloaded the project's code ({', '.join(edited[:3])}{' …' if len(edited) > 3 else ''} edited)")
        self.imported_at = time.time()

    def _refresh_stages(self, draft: bool) -> None:
        """Run the cheap stages whose inputs changed. While serving, a failure is reported and the last
        good registry stays in use (a report, not a warning: under the site's `strict: true` a warning
        would stop the rebuild, and the point is to keep serving); in a plain build it stops the build."""
        from course.core.pipeline import CHEAP, Options
        try:
            for o in self.pipeline.run(Options(no_train=True, draft=draft), CHEAP):
                if o.status == "ran":
                    log.info(f"{o.stage:<14} ran in {o.seconds:.2f} s: {o.note}")
        except Exception as e:
            if not self.serving or not self.project.paths.registry.exists():
                raise
            from course.core.errors import describe_failure
            log.info(f"\n{describe_failure(e)}\n(the pages keep the last good registry until this is fixed)\n")

    def notebook(self, url: str, src_uri: str, source: Path, download: Path) -> Path | None:
        """The executed copy a notebook page shows (None: its source, without outputs, while serving); its
        download, the learner's copy, is written to `download` after the build."""
        from course.core.errors import ShortcodeError
        paths = self.project.paths
        if source.is_relative_to(paths.executed_notebooks):
            return None
        self.notebooks[url] = (src_uri, source, download)
        executed, stale = self.site.executed_notebook(source)
        shown = paths.relative(source)
        if executed is not None:
            if stale and self.serving:
                self.stale_notebooks[url] = stale
                self.notice(f"    notebook {shown} is stale ({'; '.join(stale[:3])}): `python build.py` executes it again")
            return executed
        if not self.serving:
            raise ShortcodeError(f"{src_uri} has not been executed: run `python build.py` first")
        self.stale_notebooks[url] = stale
        self.notice(f"    notebook {shown} shown without outputs: `python build.py` executes it")
        return None

    def notebook_render(self, src_uri: str, executed: Path, settings: dict, version: str) -> NotebookRender:
        return NotebookRender(self.project.paths.build / "notebook-html", src_uri, executed, settings, version)

    def page_html(self, html: str, url: str, locale: str | None) -> str:
        """A page's HTML as the site shows it (a notebook page's with the course's additions)."""
        if url in self.notebooks:
            html = self.site.notebook_html(html, self.notebooks[url][0], url, locale)
        return self.site.unwrap_blocks(html)

    def notebook_alternates(self, url: str, alternates: list[dict]) -> list[dict]:
        """A notebook page's links to itself in each language (the language switch's and the alternate links:
        {"lang", "link", …} each) where the notebook is written in that language; the others as given."""
        langs = self.site.languages
        stem = langs.stem(self.notebooks[url][0])
        return [dict(alt, link=langs.url_in(url, alt["lang"]))
                if (self.project.paths.docs / langs.page_file(stem, alt["lang"], ".ipynb")).exists() else alt
                for alt in alternates]

    def page_output(self, output: str, url: str, relative: Callable[[str], str]) -> str:
        """A page's final HTML, marked when it shows a stale notebook (only while serving: a build executes
        every stale notebook), with the hint for moving among its numbers and its formulas rendered, its scripts
        deferred (Site.deferred); and what it needs beside the theme's files (Site.page_assets), linked by
        `relative` (a site path as seen from this page)."""
        if url in self.stale_notebooks:
            output = self.site.mark_stale(output, url, self.stale_notebooks[url])
        output = self.site.number_keys_hint(output, url)
        output = self.formulas.page(output)
        if url in self.notebooks:  # the notebook renderer inlines all of JupyterLab's stylesheet
            from course.core.css import prune_inline_styles
            output = prune_inline_styles(output)
        return self.site.page_assets(output).link(self.site.deferred(output), relative)

    def reused_render(self, key: str):
        """While serving, what converting a page with this key made in an earlier rebuild, or None."""
        cached = self.rendered.take(key)
        self.converted[0] += cached is None
        self.converted[1] += 1
        return cached

    def rank_search(self, site_dir: Path) -> None:
        """Once the site's search index is written: each unit's page gets its subjects (course/core/search.py)."""
        from course.core.search import add_subjects
        add_subjects(site_dir / "search" / "search_index.json", self.site.units)

    def finish(self, site_dir: Path) -> None:
        """After a build: each notebook's download becomes the learner's copy; the i18n sitemap (written
        at the site root, listing every language) is placed beside every other page too: Material fetches
        sitemap.xml beside each of a page's alternate links (overrides/main.html), which name the page
        itself in each language."""
        from course.core.files import write_atomic
        self.formulas.save()
        for url, (src_uri, source, dest) in self.notebooks.items():
            if dest.parent.is_dir():
                write_atomic(dest, self.site.learner_notebook(source, src_uri, url))
        if self.serving:
            fresh, pages = self.converted
            log.info(f"    converted {fresh} of {pages} pages afresh, the others as in an earlier rebuild")
        sitemap = site_dir / "sitemap.xml"
        if sitemap.exists():
            text = sitemap.read_bytes()
            for page in site_dir.rglob("index.html"):
                if page.parent != site_dir:
                    write_atomic(page.parent / "sitemap.xml", text)
