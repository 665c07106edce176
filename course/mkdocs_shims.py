"""Where MkDocs or another plugin offers no hook for what the course needs, the one place that works
around it. Each function names the upstream limitation; none patches a class: each acts on the one
object it is given (a page, a search index, a file), for one build. tests/test_plugin_caches.py holds them.

- MkDocs has no event that can supply a page's HTML instead of converting its Markdown: `Page.render` runs
  for every page between `on_page_markdown` and `on_page_content` (mkdocs/commands/build.py,
  `_build_page`). `reuse_render` and `reuse_notebook_render` give one page a render that takes the kept
  result.
- Material's search plugin indexes every page on every build and offers no cache or hook for a page's
  entries (`SearchIndex.add_entry_from_context`, called from its `on_page_context`). `reuse_search_entries`
  gives one build's index a method that takes a page's kept entries.
- mkdocs-static-i18n rebuilds the file list after mkdocs-jupyter has wrapped its notebooks, so a notebook
  can render as raw JSON (mkdocs-static-i18n issue 198). `notebook_file` wraps it again.
"""
from __future__ import annotations

import types


def reuse_render(page, cached, keep) -> None:
    """This page's render takes `cached` (what converting it made in an earlier build) when there is one,
    else converts and hands the result to `keep`."""
    convert = type(page).render

    def render(this, config, files):
        if cached is not None:
            this.content, this.toc, this._title_from_render = cached["content"], cached["toc"], cached["title"]
            this.present_anchor_ids = cached["anchors"]
            this.links_to_anchors = {files.get_file_from_path(uri): links
                                     for uri, links in cached["links"].items() if files.get_file_from_path(uri)}
            return
        convert(this, config, files)
        keep({"content": this.content, "toc": this.toc, "title": this._title_from_render,
              "anchors": this.present_anchor_ids,
              "links": {f.src_uri: links for f, links in (this.links_to_anchors or {}).items()}})
    page.render = types.MethodType(render, page)


def reuse_notebook_render(page, kept) -> None:
    """This notebook page's render (mkdocs-jupyter's, given to it in its `on_pre_page`) takes the kept one
    (`kept`: a course.core.session.NotebookRender) when there is one, else renders and keeps it."""
    convert = page.render

    def render(this, config, files):
        stored = kept.load()
        if stored is not None:
            this.content, this.toc, title = stored
            if title is not None:
                this.title = title
            return
        convert(config, files)
        kept.keep(this.content, this.toc, vars(this).get("title"))  # the title from the first heading, if set
    page.render = types.MethodType(render, page)


def reuse_search_entries(index, memo) -> None:
    """This build's search index (Material's `SearchIndex`) gives a page the entries it got in an earlier
    build when its HTML, table of contents, URL, metadata and the plugin's settings are as then (`memo`:
    a course.core.session.Recent)."""
    from course.core.session import key_of
    index_page = type(index).add_entry_from_context
    settings = sorted(index.config.items())

    def add_entry_from_context(page):
        key = key_of(page.url, page.content, str(page.toc), repr(page.meta), page.title, repr(settings))
        entries = memo.take(key)
        if entries is None:
            before = len(index.entries)
            index_page(index, page)
            memo.keep(key, index.entries[before:])
        else:
            index.entries.extend(entries)
    index.add_entry_from_context = add_entry_from_context


def notebook_file(f, config, executed):
    """A notebook page's file wrapped for mkdocs-jupyter again, keeping the language's destination, and
    pointed at the executed copy when there is one."""
    from mkdocs_jupyter.plugin import NotebookFile
    inner = f.file if isinstance(f, NotebookFile) else f
    if executed is not None:
        inner.abs_src_path = str(executed)
    nb = NotebookFile(inner, **config)
    # the wrapper inherits File's cached properties, so it must be told each one explicitly
    nb.abs_src_path = inner.abs_src_path
    nb.dest_path, nb.abs_dest_path, nb.url = f.dest_path, f.abs_dest_path, f.url
    return nb


def notebook_source(f):
    """The notebook a page's file (wrapped by mkdocs-jupyter or not) was made from."""
    from mkdocs_jupyter.plugin import NotebookFile
    return (f.file if isinstance(f, NotebookFile) else f).abs_src_path
