"""What a session keeps between builds and rebuilds (course/core/session.py), and the shims that hand it
to MkDocs and its plugins (course/mkdocs_shims.py): a notebook page's HTML (keyed on the executed notebook
and mkdocs-jupyter's settings) and, while serving, a page's conversion and search entries (keyed on what
converting and indexing read of the page), the bounded memo they are kept in, and the theme's compiled
templates."""
from types import SimpleNamespace

from course import mkdocs_shims as shims
from course.core.session import NotebookRender, Recent, TemplateCode


def test_a_notebook_render_is_keyed_on_the_executed_notebook_and_the_settings(tmp_path):
    nb = tmp_path / "lab.ipynb"
    nb.write_text('{"cells": []}', encoding="utf-8")
    settings = {"execute": False, "include_source": True}

    def entry(src_uri="c4/lab.ipynb", settings=settings, version="0.25"):
        return NotebookRender(tmp_path, src_uri, nb, settings, version)
    first = entry()
    assert entry(settings=dict(settings)).entry == first.entry
    other_lang = entry("c4/lab.en.ipynb")
    assert other_lang.slot != first.slot and other_lang.entry != first.entry  # each language keeps its own
    assert entry(settings={**settings, "include_source": False}).entry != first.entry
    assert entry(version="0.26").entry != first.entry
    first.keep("<p>html</p>", ["toc"], None)
    nb.write_text('{"cells": [1]}', encoding="utf-8")                 # executed again, with other outputs
    again = entry()
    assert again.slot == first.slot and again.entry != first.entry and again.load() is None
    again.keep("<p>new</p>", [], "Lab")
    assert [p.name for p in tmp_path.glob("*.pickle")] == [again.entry.name]  # the new render replaces the old
    assert again.load() == ("<p>new</p>", [], "Lab")


def test_the_session_build_keeps_one_render_per_notebook_page(built):
    """Both languages' labs stay cached after a build (mkdocs-jupyter's own cache evicts the other
    language's entry, as each language builds on its own)."""
    entries = sorted((built / ".build" / "notebook-html").glob("*.pickle"))
    slots = {e.name.split("-")[0] for e in entries}
    assert len(entries) == len(slots) == len(list((built / "docs").rglob("*.ipynb")))


def page(url: str, content: str):
    return SimpleNamespace(url=url, content=content, toc=[], meta={}, title=url)


def test_serving_reuses_a_pages_search_entries_only_while_the_page_is_unchanged(monkeypatch):
    from material.plugins.search import plugin
    from material.plugins.search.plugin import SearchIndex
    parsed = []

    class CountingParser(plugin.Parser):
        def feed(self, data):
            parsed.append(data)
            super().feed(data)
    monkeypatch.setattr(plugin, "Parser", CountingParser)
    memo = Recent()
    unpatched = SearchIndex.add_entry_from_context

    def entries(*pages):  # a new index per rebuild, as the search plugin makes one per build
        index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=["trimmer"], fields={})
        shims.reuse_search_entries(index, memo)
        for p in pages:
            index.add_entry_from_context(p)
        return [(e["location"], e["text"]) for e in index.entries]

    a, b = page("a/", "<h1 id='a'>Alpha</h1><p>first text</p>"), page("b/", "<h1 id='b'>Beta</h1><p>second</p>")
    first = entries(a, b)
    assert first and len(parsed) == 2
    assert entries(a, b) == first and len(parsed) == 2           # the next rebuild parses neither page
    edited = entries(page("a/", "<h1 id='a'>Alpha</h1><p>edited text</p>"), b)
    assert len(parsed) == 3                                       # only the edited one
    assert any("edited text" in text for _, text in edited) and not any("first text" in t for _, t in edited)
    assert [e for e in edited if e[0].startswith("b/")] == [e for e in first if e[0].startswith("b/")]
    assert SearchIndex.add_entry_from_context is unpatched        # the class is as Material wrote it


def test_serving_converts_a_page_once_and_then_takes_what_it_made():
    linked = type("File", (), {"src_uri": "b.md"})()  # a page it links to (hashable, as MkDocs' File is)

    class Page:  # what MkDocs' Page.render sets
        renders = 0

        def render(self, config, files):
            Page.renders += 1
            self.content, self.toc, self._title_from_render = f"<p>{self.markdown}</p>", ["toc"], "T"
            self.present_anchor_ids, self.links_to_anchors = {"a"}, {linked: {"x": 1}}
    files = SimpleNamespace(get_file_from_path=lambda uri: f"file {uri}" if uri == "b.md" else None)
    unpatched, kept = Page.render, {}
    first = Page()
    first.markdown = "text"
    shims.reuse_render(first, None, lambda made: kept.update(made))
    first.render({}, files)
    again = Page()
    shims.reuse_render(again, dict(kept), lambda made: kept.update(made))
    again.render({}, files)
    assert Page.renders == 1 and again.content == first.content == "<p>text</p>" and again.toc == ["toc"]
    assert again._title_from_render == "T" and again.present_anchor_ids == {"a"}
    assert again.links_to_anchors == {"file b.md": {"x": 1}}  # the linked page as this build's file
    assert Page.render is unpatched                           # each page got its own render; the class none


def test_a_serve_memo_keeps_what_is_asked_for_and_forgets_the_oldest():
    memo = Recent(size=2)
    memo.keep("zh page", 1)
    memo.keep("en page", 2)
    assert memo.take("zh page") == 1      # asked for again (the next rebuild of that language): newest now
    memo.keep("an edited page", 3)
    assert memo.take("en page") is None and memo.take("zh page") == 1 and memo.take("an edited page") == 3
    assert memo.take("never kept") is None


def test_compiled_templates_are_reused_across_environments_and_redone_when_edited(tmp_path):
    import jinja2

    code = TemplateCode()
    template = tmp_path / "page.html"
    template.write_text("{{ a }} one", encoding="utf-8")

    def render():  # a new environment per rebuild, as MkDocs makes one per build
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), bytecode_cache=code)
        return env.get_template("page.html").render(a=1)
    assert render() == "1 one" and len(code.codes) == 1
    kept = dict(code.codes)
    assert render() == "1 one" and code.codes == kept         # compiled once, loaded after
    template.write_text("{{ a }} two", encoding="utf-8")
    assert render() == "1 two" and code.codes != kept          # the edited source is compiled again
