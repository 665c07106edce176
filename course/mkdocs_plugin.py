"""The MkDocs adapter: a plugin (registered as `course` under the `mkdocs.plugins` entry point) that hands
MkDocs' events to the engine-independent core (course/core/site.py, course/core/pipeline.py).

    plugins:
      - course:
          project: course.project:PROJECT   # the Project the core builds
          draft: !ENV [COURSE_DRAFT, false] # unknown keys as ⟨key?⟩, failing reading notes as warnings

`mkdocs serve` works without running build.py first: before each build the plugin runs the core's cheap
stages (validate, the measurement check, numbers, figures) when what they read changed. It never trains
and never executes a notebook: it shows the executed copy and says when that copy is stale. While serving,
a bad edit is reported (file, field, expectation) and the pages keep the last good registry; an edited
module of the project is imported afresh on the next rebuild, and every folder the stages read from is
watched. `build.py` runs the stages itself and tells the plugin so (`stages_current`).
"""
from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path

import jinja2
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url


def _forget_outside(root: str, package: str) -> None:
    """Drop the modules of `package` that were imported from another checkout than `root`."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        file = getattr(sys.modules[name], "__file__", None) or ""
        if file and not os.path.realpath(file).startswith(os.path.realpath(root) + os.sep):
            del sys.modules[name]
    importlib.invalidate_caches()


class Recent(dict):
    """A memo for a `mkdocs serve` session that forgets its oldest entries beyond `size`: a long session of
    edits makes new entries, and a page's old versions are never asked for again. An entry asked for again
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
    """Jinja's compiled theme templates, kept in memory for a `mkdocs serve` session: each rebuild (each
    language's, too) makes a new Jinja environment, which would compile every template again. Jinja checks
    an entry against its template's source, so an edited override is compiled afresh."""

    def __init__(self):
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.codes:
            bucket.bytecode_from_string(self.codes[bucket.key])

    def dump_bytecode(self, bucket):
        self.codes[bucket.key] = bucket.bytecode_to_string()


def notebook_render_entry(folder: Path, src_uri: str, executed: Path, settings) -> tuple[str, Path]:
    """Where the HTML of a notebook page is kept: its slot (one per page source, so a new render replaces
    the old) and its file, named by the executed notebook's bytes and mkdocs-jupyter's settings and version."""
    import hashlib

    from mkdocs_jupyter import __version__ as jupyter_version
    slot = hashlib.sha256(src_uri.encode()).hexdigest()[:12]
    key = hashlib.sha256(executed.read_bytes() + repr((sorted(settings.items()), jupyter_version)).encode())
    return slot, folder / f"{slot}-{key.hexdigest()[:24]}.pickle"


def reuse_search_entries() -> None:
    """While serving, the search plugin indexes every page of both languages on every rebuild (about a
    quarter of a rebuild, jieba segmenting the Chinese). A page's entries follow from its HTML, table of
    contents, URL, metadata and the plugin's settings, so a page with all of those as before gets the
    entries it got then. Installed for `mkdocs serve` only; a build indexes every page afresh."""
    import hashlib

    from material.plugins.search.plugin import SearchIndex
    index_page = SearchIndex.add_entry_from_context
    if getattr(index_page, "reuses_entries", False):
        return
    made = Recent()

    def add_entry_from_context(self, page):
        key = hashlib.sha256(repr((page.url, page.content, str(page.toc), page.meta, page.title,
                                   sorted(self.config.items()))).encode()).hexdigest()
        entries = made.take(key)
        if entries is None:
            before = len(self.entries)
            index_page(self, page)
            made.keep(key, self.entries[before:])
        else:
            self.entries.extend(entries)
    add_entry_from_context.reuses_entries = True
    SearchIndex.add_entry_from_context = add_entry_from_context


class CourseConfig(base.Config):
    project = c.Type(str, default="course.project:PROJECT")
    draft = c.Type(bool, default=False)
    # the written chapters and their lessons (from the units) follow this page's entry in `nav`
    chapters_after = c.Type(str, default="course-map.md")
    # set by build.py, which has just run the stages in the same process
    stages_current = c.Type(bool, default=False)


class CoursePlugin(BasePlugin[CourseConfig]):
    """One instance per `mkdocs serve` session (it defines on_startup, so MkDocs keeps it across rebuilds)."""

    def __init__(self):
        self.command = "build"
        self.said: set[str] = set()     # notices already printed while serving (each once)
        self.imported_at = time.time()  # when the project's modules were (re)imported
        self.project = None
        self.pipeline = None
        self.site = None
        self.stale_notebooks: dict[str, list[str]] = {}   # page URL → why its executed copy is out of date
        self.notebooks: dict[str, tuple[str, Path, Path]] = {}  # page URL → (src_uri, source, download to write)
        self.rendered = Recent()  # while serving: what Markdown made of a page, by what it was given
        self.converted = [0, 0]   # while serving: pages this build converted afresh, pages it rendered
        self.template_code = None  # while serving: the theme's compiled templates

    # ------------------------------------------------------------ helpers

    @property
    def serving(self) -> bool:
        return self.command == "serve"

    def notice(self, text: str) -> None:
        if text not in self.said:
            self.said.add(text)
            print(text, flush=True)

    def _load_project(self, config):
        """The project of the mkdocs.yml being built, imported from that checkout (not from wherever an
        editable install points): its root goes first on sys.path."""
        root = str(Path(config.config_file_path).resolve().parent)
        if sys.path[:1] != [root]:
            sys.path[:] = [root] + [p for p in sys.path if p != root]
        module, _, name = self.config.project.partition(":")
        _forget_outside(root, module.split(".")[0])  # this very plugin may have been imported from elsewhere
        project = getattr(importlib.import_module(module), name)
        for package in project.code_packages:
            _forget_outside(root, package)
        if Path(project.paths.root).resolve() != Path(root):
            raise RuntimeError(f"{self.config.project} describes {project.paths.root}, not the project at {root}")
        return project

    def _forget_edited_code(self) -> None:
        """`mkdocs serve` rebuilds in one process: when a module of the project (or a file its units read
        when imported, a label table say) was edited since it was imported, forget the project's modules
        so that this rebuild computes with the edited code."""
        from course.core.pipeline import forget_modules
        packages = self.project.code_packages
        loaded = [sys.modules[n] for n in list(sys.modules) if n.split(".")[0] in packages]
        files = [Path(m.__file__) for m in loaded if getattr(m, "__file__", None)]
        if self.pipeline is not None:
            root = self.project.paths.root
            files += [root / f for f in self.pipeline._discovered[1].files]
        edited = sorted({self.project.paths.relative(f) for f in files
                         if f.exists() and f.stat().st_mtime > self.imported_at})
        if edited:
            forget_modules(packages)
            self.pipeline = None
            print(f"    reloaded the project's code ({', '.join(edited[:3])}{' …' if len(edited) > 3 else ''} edited)",
                  flush=True)
        self.imported_at = time.time()

    def _refresh_stages(self) -> None:
        """Run the cheap stages whose inputs changed. While serving, a failure is reported and the last
        good registry stays in use; in a plain `mkdocs build` it stops the build."""
        from course.core.pipeline import CHEAP, Options
        try:
            for o in self.pipeline.run(Options(no_train=True, draft=self.config.draft), CHEAP):
                if o.status == "ran":
                    print(f"{o.stage:<14} ran in {o.seconds:.2f} s: {o.note}", flush=True)
        except Exception as e:
            if not self.serving or not self.project.paths.registry.exists():
                raise
            from course.core.errors import describe_failure
            print(f"\n{describe_failure(e)}\n(the pages keep the last good registry until this is fixed)\n",
                  file=sys.stderr, flush=True)

    # ------------------------------------------------------------ MkDocs events

    def on_startup(self, command, dirty):
        self.command = command
        if command == "serve":
            sys.dont_write_bytecode = True  # compiled files written into watched folders would trigger a rebuild
            reuse_search_entries()
            self.template_code = TemplateCode()

    def on_config(self, config):
        import logging
        logging.getLogger("jieba").setLevel(logging.WARNING)  # search segmentation; its info lines are noise
        self.project = self._load_project(config)
        if self.serving:
            self._forget_edited_code()
            self.converted = [0, 0]
        from course.core.pipeline import Pipeline
        from course.core.site import Site
        if self.pipeline is None:
            self.pipeline = Pipeline(self.project)
        if not self.config.stages_current:
            self._refresh_stages()
        self.site = Site.load(self.project, self.pipeline.units, self.config.draft)
        config.nav = self.site.nav(config.nav or [], self.config.chapters_after)
        return config

    @event_priority(-150)  # after static-i18n's (-100) translations of the titles mkdocs.yml gives
    def on_nav(self, nav, config, files):
        """Title each written chapter and its pages in the page's language (the units give the titles)."""
        from mkdocs.structure.nav import Section
        from mkdocs.structure.pages import Page

        def retitle(items) -> None:
            for item in items:
                page = item if isinstance(item, Page) else \
                    next((p for p in getattr(item, "children", None) or [] if isinstance(p, Page)), None)
                title = page and self.site.nav_title(page.file.src_uri, getattr(page.file, "locale", None),
                                                     section=isinstance(item, Section))
                if title:
                    item.title = title
                if isinstance(item, Section):
                    retitle(item.children)
        retitle(nav.items)
        return nav

    @event_priority(-200)  # after static-i18n (-100) has rebuilt the file list for each language
    def on_files(self, files, config):
        """Serve the units' widget scripts and the built figures; hand the notebooks back to mkdocs-jupyter,
        executed; then survey every page (the course map's deferrals, the registry keys the site uses)."""
        self.stale_notebooks, self.notebooks = {}, {}
        from course.core.site import PageSource
        for f in [f for f in files if f.src_uri.endswith(".ipynb")]:
            files.remove(f)  # in place: static-i18n's own Files class must stay
            files.append(self._notebook_page(f, config))
        for uri, src in self.site.generated_files().items():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(src)))
        pages = [PageSource(f.src_uri, Path(f.abs_src_path), f.url)
                 for f in files.documentation_pages() if f.src_uri.endswith(".md")]
        self.site.survey(pages + [PageSource(uri, src, url) for url, (uri, src, _) in self.notebooks.items()])
        return files

    def _notebook_page(self, f: File, config) -> File:
        """static-i18n rebuilds the file list after mkdocs-jupyter has wrapped its notebooks, so a notebook
        can render as raw JSON (static-i18n issue 198). Wrap each one again, keeping the language's
        destination, and point it at the copy the build executed."""
        from mkdocs_jupyter.plugin import NotebookFile

        from course.core.errors import ShortcodeError
        inner = f.file if isinstance(f, NotebookFile) else f
        source = Path(inner.abs_src_path)
        paths = self.project.paths
        if not source.is_relative_to(paths.executed_notebooks):
            # its download: the learner's copy, written where mkdocs-jupyter copies the notebook it renders
            self.notebooks[f.url] = (f.src_uri, source, Path(f.abs_dest_path).parent / source.name)
        if not source.is_relative_to(paths.executed_notebooks):
            executed, stale = self.site.executed_notebook(source)
            shown = paths.relative(source)
            if executed is not None:
                inner.abs_src_path = str(executed)
                if stale and self.serving:
                    self.stale_notebooks[f.url] = stale
                    self.notice(f"    notebook {shown} is stale ({'; '.join(stale[:3])}): `python build.py` "
                                "executes it again")
            elif self.serving:
                self.stale_notebooks[f.url] = stale
                self.notice(f"    notebook {shown} shown without outputs: `python build.py` executes it")
            else:
                raise ShortcodeError(f"{f.src_uri} has not been executed: run `python build.py` first")
        nb = NotebookFile(inner, **config)
        # the wrapper inherits File's cached properties, so it must be told each one explicitly
        nb.abs_src_path = inner.abs_src_path
        nb.dest_path, nb.abs_dest_path, nb.url = f.dest_path, f.abs_dest_path, f.url
        return nb

    def on_env(self, env, config, files):
        if self.template_code is not None:
            env.bytecode_cache = self.template_code
        return env

    @event_priority(-100)  # after mkdocs-jupyter's on_pre_page has given a notebook page its own render
    def on_pre_page(self, page, config, files):
        if page.url in self.notebooks:
            self._cache_notebook_render(page, config)
        return page

    def _cache_notebook_render(self, page, config) -> None:
        """mkdocs-jupyter converts a notebook to HTML on every build (its own cache evicts the other
        language's entry, since each language is a build of its own). The conversion depends only on the
        executed notebook and mkdocs-jupyter's settings, so its result is kept in .build/notebook-html/,
        one entry per notebook, keyed on both."""
        import pickle
        import types

        from course.core.files import write_atomic
        folder = self.project.paths.build / "notebook-html"
        slot, entry = notebook_render_entry(folder, page.file.src_uri, Path(page.file.abs_src_path),
                                            config.plugins["mkdocs-jupyter"].config)
        original = page.render

        def render(this, config, files):
            if entry.exists():
                this.content, this.toc, title = pickle.loads(entry.read_bytes())
                if title is not None:
                    this.title = title
                return
            original(config, files)
            for old in folder.glob(f"{slot}-*.pickle"):
                old.unlink()
            # the title mkdocs-jupyter set from the notebook's first heading, if it set one
            write_atomic(entry, pickle.dumps((this.content, this.toc, vars(this).get("title"))))
        page.render = types.MethodType(render, page)

    def on_page_markdown(self, markdown, page, config, files):
        if page.url in self.notebooks:  # a notebook renders from its file (mkdocs-jupyter), not this text
            return markdown
        markdown = self.site.expand(markdown, page.file.src_uri, page.url, getattr(page.file, "locale", None))
        if self.serving:
            self._reuse_render(page, markdown, config, files)
        return markdown

    def _reuse_render(self, page, markdown: str, config, files) -> None:
        """While serving, a page whose expanded Markdown, place and neighbours are as in an earlier rebuild is
        not converted again: its HTML, table of contents and anchors come from that rebuild. A saved edit of
        one page then converts that page alone (both languages are rebuilt on every save, each as a build of
        its own, so an entry outlives the other language's build)."""
        import hashlib
        import types
        signature = "\0".join(sorted(f"{f.src_uri}>{f.url}" for f in files.documentation_pages()))
        key = hashlib.sha256("\0".join([page.file.src_uri, page.url, markdown, signature,
                                         repr(config["markdown_extensions"]), repr(config["mdx_configs"])])
                             .encode()).hexdigest()
        cached = self.rendered.take(key)
        self.converted[0] += cached is None
        self.converted[1] += 1
        original = type(page).render

        def render(this, config, files):
            if cached is not None:
                this.content, this.toc, this._title_from_render = cached["content"], cached["toc"], cached["title"]
                this.present_anchor_ids = cached["anchors"]
                this.links_to_anchors = {files.get_file_from_path(uri): links
                                         for uri, links in cached["links"].items() if files.get_file_from_path(uri)}
                return
            original(this, config, files)
            self.rendered.keep(key, {"content": this.content, "toc": this.toc, "title": this._title_from_render,
                                  "anchors": this.present_anchor_ids,
                                  "links": {f.src_uri: links for f, links in (this.links_to_anchors or {}).items()}})
        page.render = types.MethodType(render, page)

    def on_page_content(self, html, page, config, files):
        if page.url in self.notebooks:
            src_uri = self.notebooks[page.url][0]
            html = self.site.notebook_html(html, src_uri, page.url, getattr(page.file, "locale", None))
        return self.site.unwrap_blocks(html)

    def on_post_page(self, output, page, config):
        if page.url in self.stale_notebooks:  # only while serving: a build executes every stale notebook
            output = self.site.mark_stale(output, page.url, self.stale_notebooks[page.url])
        styles, scripts = self.site.page_assets(output)
        css = "".join(f'<link rel="stylesheet" href="{get_relative_url(s, page.url)}">' for s in styles)
        js = "".join(f'<script src="{get_relative_url(s, page.url)}"></script>' for s in scripts)
        return output.replace("</head>", css + "</head>", 1).replace("</body>", js + "</body>", 1)

    def on_post_build(self, config):
        """Each notebook's download becomes the learner's copy (mkdocs-jupyter copied the executed one).
        Material's language switcher fetches sitemap.xml beside the other language's root; the i18n
        sitemap (which lists both languages) is written at the site root only, so place it there too."""
        from course.core.files import write_atomic
        for url, (src_uri, source, dest) in self.notebooks.items():
            if dest.parent.is_dir():
                write_atomic(dest, self.site.learner_notebook(source, src_uri, url))
        if self.serving:
            fresh, pages = self.converted
            print(f"    converted {fresh} of {pages} pages afresh, the others as in an earlier rebuild", flush=True)
        site = Path(config["site_dir"])
        sitemap = site / "sitemap.xml"
        if sitemap.exists() and (site / "en").is_dir():
            (site / "en" / "sitemap.xml").write_bytes(sitemap.read_bytes())

    def on_serve(self, server, config, builder):
        """Watch every folder the stages read from or import code from (derived from what they read, not
        a list): an edit of a number's source anywhere reloads the pages with the new number."""
        for folder in self.pipeline.watched_folders():
            server.watch(str(folder))
        return server
