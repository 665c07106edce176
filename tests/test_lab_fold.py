"""How a lab's page folds its cells and what its download holds, on a small notebook rendered by nbconvert
as mkdocs-jupyter renders the site's (no kernel, no build): the set-up folds into one closed block, each
answer with its check into another (a reference solution after a "your turn" says so), the output of a run
between a prediction and its answer into a closed block of its own (its code stays in view) unless the run
is marked `keep-open`, everything else stays as it is; the learner's copy leaves out the answers and the
page notes, keeps no output, and writes its references as plain text, with no HTML entity left."""
from __future__ import annotations

import re

import nbformat
import pytest

from course.core.notebooks import learner_copy
from course.core.site import fold_groups, folded_outputs, notebook_cells
from course.project import LANGUAGES


def cell(kind: str, cid: str, tags: list[str], source: str, printed: str | None = None):
    make = nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell
    made = make(source, id=cid, metadata={"tags": tags} if tags else {})
    if printed is not None:  # as the build's execution left it
        made.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed + "\n")]
    return made


def small_lab():
    return nbformat.v4.new_notebook(cells=[
        cell("md", "intro", [], "# A lab"),
        cell("md", "about", ["page"], "About this page."),
        cell("md", "setup-md", ["setup"], "What it needs."),
        cell("code", "setup", ["setup"], "LANG = 'en'"),
        cell("md", "q", [], "**Predict.** How much?"),
        cell("code", "predict", ["prediction"], "predicted = ...  # your prediction"),
        cell("code", "run", ["run"], "actual = 2\nprint('<div>not a cell</div>')", "the run gives 2"),
        cell("code", "given", ["run", "keep-open"], "print('what to reason from')", "what to reason from"),
        cell("md", "why", ["answer"], "**Answer: 2.** Because <!-- ref:c15 -->."),  # a planned chapter, so a planned link
        cell("code", "key", ["answer"], "predicted = 2"),
        cell("code", "check", ["check"], "assert predicted == actual; print('✓ right')"),
        cell("code", "more", ["run"], "print('after the answer')", "after the answer"),
        cell("md", "your-turn", [], "Your turn: write `f`."),
        cell("code", "stub", ["your-turn"], "def f():\n    ..."),
        cell("code", "solution", ["answer"], "def f():\n    return 2"),
        cell("code", "solution-check", ["check"], "assert f() == 2; print('✓ written')"),
    ])


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    from mkdocs_jupyter import convert
    path = tmp_path_factory.mktemp("lab") / "lab.ipynb"
    nbformat.write(small_lab(), path)
    return convert.nb2html(str(path))


def test_every_cell_is_found_once_with_its_tags(rendered):
    cells = notebook_cells(rendered)
    assert len(cells) == len(small_lab().cells)
    assert [sorted(c.tags) for c in cells] == [sorted(c.metadata.get("tags", [])) for c in small_lab().cells]
    assert [c.markdown for c in cells] == [c.cell_type == "markdown" for c in small_lab().cells]
    for c in cells:  # each is one whole element
        text = rendered[c.start:c.end]
        assert text.count("<div") == len(re.findall(r"</div\s*>", text))


def test_setup_and_answers_fold_and_nothing_else(rendered):
    groups = [[sorted(c.tags) for c in g] for g in fold_groups(notebook_cells(rendered))]
    assert groups == [[[]], [["page"]], [["setup"], ["setup"]], [[]], [["prediction"]], [["run"]],
                      [["keep-open", "run"]], [["answer"], ["answer"], ["check"]], [["run"]], [[]], [["your-turn"]],
                      [["answer"], ["check"]]]


def test_only_runs_between_a_prediction_and_its_answer_fold_their_output(rendered):
    cells = notebook_cells(rendered)
    assert folded_outputs(cells) == {6}  # `run`; not `given` (kept open), not `more` (after the answer)


def site_for_tests():
    from course.core.references import build_references, load_course_map
    from course.core.registry import Registry
    from course.core.site import Site
    from course.project import PROJECT, units
    found = units()
    return Site(PROJECT, found, Registry(languages=LANGUAGES), build_references(load_course_map(PROJECT.paths.course_map),
                                                             found.written(), PROJECT.paths.docs, PROJECT.languages))


def test_page_shows_answers_only_inside_closed_blocks_labelled_in_its_language(rendered):
    site = site_for_tests()
    for lang, src in (("zh", "c4/normalization-lab.ipynb"), ("en", "c4/normalization-lab.en.ipynb")):
        url = ("en/" if lang == "en" else "") + "c4/normalization-lab/"
        page = site.notebook_html(rendered, src, url)
        blocks = re.findall(r"<details class=\"lab-fold lab-(\w+)[^\"]*\"><summary>(.*?)</summary>(.*?)</details>", page, re.S)
        assert [(kind, summary) for kind, summary, _ in blocks] == [
            ("setup", site.fold_summary("setup", lang)), ("output", site.fold_summary("output", lang)),
            ("answer", site.fold_summary("answer", lang)), ("answer", site.fold_summary("solution", lang))]
        outside = re.sub(r"<details.*?</details>", "", page, flags=re.S)
        assert "✓ right" not in outside and "predicted</span> <span class=\"o\">=</span> <span class=\"mi\">2" not in outside
        assert "✓ right" in blocks[2][2] and "✓ written" in blocks[3][2] and "<details open" not in page
        assert "<!-- ref:" not in page and 'class="xref' in blocks[2][2]  # the shortcode became a link
        assert "not a cell" in outside  # a printed tag stays text, inside its own cell
        # the run's output (not its code) folds; the kept-open run and the run after the answer show theirs
        assert "the run gives 2" in blocks[1][2] and "the run gives 2" not in outside
        assert "jp-OutputArea" in blocks[1][2] and "jp-InputArea" not in blocks[1][2]
        assert "<pre>what to reason from" in outside and "<pre>after the answer" in outside


def test_learner_copy_writes_references_as_plain_text_without_entities(tmp_path, monkeypatch):
    import html

    import course.core.site as site_module
    nb = nbformat.v4.new_notebook(cells=[cell("md", "q", [], "From <!-- ref:c4-3#modern-practice -->, step 3.")])
    path = tmp_path / "lab.ipynb"
    nbformat.write(nb, path)
    # a title with an apostrophe and an ampersand, escaped as the rendered link has them
    monkeypatch.setattr(site_module, "expand", lambda text, ctx: '<a class="xref" href="x">the anchor&#x27;s norm '
                                                                  '&amp; its gain</a>')
    out = nbformat.reads(site_for_tests().learner_notebook(path, "c4/normalization-lab.en.ipynb",
                                                           "en/c4/normalization-lab/"), as_version=4)
    assert out.cells[0].source == "From the anchor's norm & its gain, step 3."
    assert html.unescape(out.cells[0].source) == out.cells[0].source


def test_learner_copy_has_placeholders_no_answers_no_outputs():
    nb = small_lab()
    out = learner_copy(nb, markdown=lambda text: text.upper())
    assert [c.id for c in out.cells] == ["intro", "setup-md", "setup", "q", "predict", "run", "given", "check",
                                         "more", "your-turn", "stub", "solution-check"]
    assert all(not c.get("outputs") for c in out.cells if c.cell_type == "code")
    assert out.cells[2].metadata["jupyter"]["source_hidden"] is True
    assert out.cells[0].source == "# A LAB"
    assert nb.cells[6].outputs, "the answer key it was made from is left as it was"
