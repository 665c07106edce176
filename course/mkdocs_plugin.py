"""The MkDocs adapter: a plugin (registered as `course` under the `mkdocs.plugins` entry point) that hands
MkDocs' events to the engine-independent core (course/core/session.py, which holds what a session keeps,
and course/core/site.py, the pages' side of a build). It holds no logic of its own; where MkDocs or another
plugin has no hook, course/mkdocs_shims.py works around it.

    plugins:
      - course:
          project: course.project:PROJECT   # the Project the core builds
          draft: !ENV [COURSE_DRAFT, false] # unknown keys as ⟨key?⟩, failing reading notes as warnings

`mkdocs serve` works without running build.py first: before each build the core runs its cheap stages
when what they read changed (after build.py has run them, it finds them current). The core's
messages go to MkDocs' logger, so `--strict` and `-q` apply to them.
"""
from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from course import mkdocs_shims as shims

log = get_plugin_logger("course")


class ToMkDocs(logging.Handler):
    """Hands the core's messages to MkDocs' logger, at the level MkDocs shows (`-q`, `-v`)."""

    def emit(self, record):
        if log.logger.isEnabledFor(record.levelno):
            log.logger.handle(record)


class CourseConfig(base.Config):
    project = c.Type(str, default="course.project:PROJECT")
    draft = c.Type(bool, default=False)
    # the written chapters and their lessons (from the units) follow this page's entry in `nav`
    chapters_after = c.Type(str, default="course-map.md")


class CoursePlugin(BasePlugin[CourseConfig]):
    """One instance per `mkdocs serve` session (it defines on_startup, so MkDocs keeps it across rebuilds)."""

    def __init__(self):
        self.command, self.session, self.site = "build", None, None

    def on_startup(self, command, dirty):
        self.command = command

    def on_config(self, config):
        from course.core.session import Session
        core = logging.getLogger("course")
        if not core.handlers:  # a command that shows the core's messages itself (build.py) keeps them
            core.addHandler(ToMkDocs())
            core.setLevel(logging.INFO)
            core.propagate = False
        logging.getLogger("jieba").setLevel(logging.WARNING)  # search segmentation; its info lines are noise
        self.session = self.session or Session(self.config.project, serving=self.command == "serve")
        root = Path(config.config_file_path).resolve().parent
        self.site = self.session.begin(root, self.config.draft)
        i18n = config.plugins.get("i18n")  # static-i18n builds each language the project declares
        self.site.check_languages([lang.locale for lang in i18n.config.languages] if i18n else [], "mkdocs.yml (i18n)")
        config.nav = self.site.nav(config.nav or [], self.config.chapters_after)
        return config

    @event_priority(-150)  # after static-i18n's (-100) translations of the titles mkdocs.yml gives
    def on_nav(self, nav, config, files):
        self.site.retitle(nav.items)  # each written chapter and its pages in the page's language
        return nav

    @event_priority(-200)  # after static-i18n (-100) has rebuilt the file list for each language
    def on_files(self, files, config):
        """Serve the units' widget scripts and the built figures; hand the notebooks back to mkdocs-jupyter,
        executed; then survey every page (the course map's deferrals, the registry keys the site uses)."""
        from course.core.site import PageSource
        for f in [f for f in files if f.src_uri.endswith(".ipynb")]:
            source = Path(shims.notebook_source(f))
            executed = self.session.notebook(f.url, f.src_uri, source, Path(f.abs_dest_path).parent / source.name)
            files.remove(f)  # in place: static-i18n's own Files class must stay
            files.append(shims.notebook_file(f, config, executed))
        for uri, src in self.site.generated_files().items():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(src)))
        pages = [PageSource(f.src_uri, Path(f.abs_src_path), f.url)
                 for f in files.documentation_pages() if f.src_uri.endswith(".md")]
        self.site.survey(pages + [PageSource(u, s, url) for url, (u, s, _) in self.session.notebooks.items()])
        return files

    def on_pre_build(self, config):  # the search plugin made this build's index in its on_config
        search = config.plugins.get("material/search")
        if self.session.serving and getattr(search, "search_index", None) is not None:
            shims.reuse_search_entries(search.search_index, self.session.search_entries)

    def on_env(self, env, config, files):
        if self.session.template_code is not None:
            env.bytecode_cache = self.session.template_code
        return env

    @event_priority(-100)  # after mkdocs-jupyter's on_pre_page has given a notebook page its own render
    def on_pre_page(self, page, config, files):
        if page.url in self.session.notebooks:
            from mkdocs_jupyter import __version__
            shims.reuse_notebook_render(page, self.session.notebook_render(
                page.file.src_uri, Path(page.file.abs_src_path), config.plugins["mkdocs-jupyter"].config, __version__))
        return page

    def on_page_markdown(self, markdown, page, config, files):
        if page.url in self.session.notebooks:  # a notebook renders from its file (mkdocs-jupyter), not this text
            return markdown
        markdown = self.site.expand(markdown, page.file.src_uri, page.url, getattr(page.file, "locale", None))
        if self.session.serving:  # a page converted as in an earlier rebuild is not converted again
            from course.core.session import key_of
            key = key_of(page.file.src_uri, page.url, markdown,
                         sorted(f"{f.src_uri}>{f.url}" for f in files.documentation_pages()),
                         repr(config["markdown_extensions"]), repr(config["mdx_configs"]))
            shims.reuse_render(page, self.session.reused_render(key), lambda made: self.session.rendered.keep(key, made))
        return markdown

    def on_page_content(self, html, page, config, files):
        return self.session.page_html(html, page.url, getattr(page.file, "locale", None))

    def on_page_context(self, context, page, config, nav):
        """static-i18n gives a notebook no translation (it takes it for an asset): a lab's language links are
        set here, after its hook (priority 50). The template reads them as an attribute."""
        if page.url in self.session.notebooks and getattr(config.extra, "alternate", None):
            config.extra.alternate = self.session.notebook_alternates(page.url, config.extra.alternate)
        return context

    def on_post_page(self, output, page, config):
        return self.session.page_output(output, page.url, lambda path: get_relative_url(path, page.url))

    def _finish(self, config):
        self.session.finish(Path(config["site_dir"]))

    @event_priority(-200)  # after static-i18n's (-100), which builds the other languages and writes the search index
    def _rank_search(self, config):
        self.session.rank_search(Path(config["site_dir"]))

    on_post_build = CombinedEvent(_finish, _rank_search)

    def on_serve(self, server, config, builder):
        """Watch every folder the stages read from or import code from (derived from what they read)."""
        for folder in self.session.pipeline.watched_folders():
            server.watch(str(folder))
        return server
