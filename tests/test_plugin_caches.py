"""What the course plugin keeps between builds and rebuilds: a notebook page's HTML (keyed on the executed
notebook and mkdocs-jupyter's settings) and, while serving, a page's search entries (keyed on what the
search plugin reads of the page), the bounded memo they and the Markdown conversions are kept in, and the
theme's compiled templates."""
from types import SimpleNamespace

from course.mkdocs_plugin import notebook_render_entry, reuse_search_entries


def test_a_notebook_render_is_keyed_on_the_executed_notebook_and_the_settings(tmp_path):
    nb = tmp_path / "lab.ipynb"
    nb.write_text('{"cells": []}', encoding="utf-8")
    settings = {"execute": False, "include_source": True}
    slot, entry = notebook_render_entry(tmp_path, "c4/lab.ipynb", nb, settings)
    assert notebook_render_entry(tmp_path, "c4/lab.ipynb", nb, dict(settings)) == (slot, entry)
    other_lang, other_entry = notebook_render_entry(tmp_path, "c4/lab.en.ipynb", nb, settings)
    assert other_lang != slot and other_entry != entry        # each language keeps its own entry
    assert notebook_render_entry(tmp_path, "c4/lab.ipynb", nb, {**settings, "include_source": False})[1] != entry
    nb.write_text('{"cells": [1]}', encoding="utf-8")                 # executed again, with other outputs
    again_slot, again = notebook_render_entry(tmp_path, "c4/lab.ipynb", nb, settings)
    assert again_slot == slot and again != entry and again.name.startswith(slot + "-")


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
    reuse_search_entries()
    reuse_search_entries()  # installed once, however often serving starts
    assert SearchIndex.add_entry_from_context.reuses_entries

    def entries(*pages):
        index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=["trimmer"], fields={})
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


def test_a_serve_memo_keeps_what_is_asked_for_and_forgets_the_oldest():
    from course.mkdocs_plugin import Recent
    memo = Recent(size=2)
    memo.keep("zh page", 1)
    memo.keep("en page", 2)
    assert memo.take("zh page") == 1      # asked for again (the next rebuild of that language): newest now
    memo.keep("an edited page", 3)
    assert memo.take("en page") is None and memo.take("zh page") == 1 and memo.take("an edited page") == 3
    assert memo.take("never kept") is None


def test_compiled_templates_are_reused_across_environments_and_redone_when_edited(tmp_path):
    import jinja2

    from course.mkdocs_plugin import TemplateCode
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
