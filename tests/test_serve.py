"""`mkdocs serve` on a fresh copy of the project (no registry, no figures, nothing built): it runs the cheap
stages itself and serves both languages; a saved edit to a data file reaches the served page with the old
→ new line in the terminal; a bad edit is reported like build.py reports it while the last good registry
keeps being served."""
import os
import re

import pytest

from dev_server import DevServer
from project_copy import edit_json, fresh_copy

LESSON = {"zh": "c4/normalization/", "en": "en/c4/normalization/"}
DRAFT = os.environ.get("COURSE_TEST_BUILD") == "draft"  # while the lessons' results are still being made


def hidden_size(html: str) -> str:
    return re.search(r'data-key="anchor\.hidden_size"[^>]*>([^<]*)<', html).group(1)


def set_hidden_size(root, value):
    edit_json(root / "data/anchor-model.json", lambda d: d["config"]["text_config"].update(hidden_size=value))


@pytest.fixture(scope="module")
def server(tmp_path_factory, built):
    """`mkdocs serve` on a fresh copy (`built` only orders it after the session's build, as a build test)."""
    root = fresh_copy(tmp_path_factory.mktemp("serve") / "project")
    assert not (root / ".build").exists()
    s = DevServer(root, draft=DRAFT)
    try:
        s.wait_for(r"Serving on http://127\.0\.0\.1")
        yield s
    finally:
        s.stop()


def test_serves_both_languages_without_a_build(server):
    assert "[numbers] running" in server.output and "[figures] running" in server.output
    assert "[notebooks]" not in server.output  # it executes no notebook, and it trains nothing:
    assert re.search(r"measurements +ran in .*(all results current|kept as committed)", server.output)
    for path, lang in (("", "zh"), ("en/", "en"), (LESSON["zh"], "zh"), (LESSON["en"], "en")):
        html = server.get(path)
        assert re.search(rf'<html lang="{lang}', html), path
    assert hidden_size(server.get(LESSON["en"])) == "5,120"
    assert "plotly-figure" in server.get(LESSON["en"])
    assert server.get("assets/figures/stream-rms.zh.json").startswith("{")  # the figures the stage just wrote
    assert "jp-Notebook" in server.get("c4/normalization-lab/")   # shown without outputs until build.py runs it


def test_saved_edits_reload_with_new_numbers_and_bad_ones_keep_the_last_good(server):
    root = server.root
    mark = len(server.lines)
    set_hidden_size(root, 4096)
    server.wait_until_served(LESSON["en"], r'data-key="anchor\.hidden_size"[^>]*>4,096<', timeout=300)
    assert hidden_size(server.get(LESSON["zh"])) == "4,096"
    assert "anchor.hidden_size: 5,120 → 4,096" in "\n".join(server.lines[mark:])

    mark = len(server.lines)
    set_hidden_size(root, "wide")
    after = server.wait_for(r"input error: data/anchor-model\.json: config\.text_config\.hidden_size: .*integer.*\"wide\"",
                            after=mark, timeout=300)
    server.wait_for(r"Reloading browsers", after=after, timeout=300)
    assert server.proc.poll() is None
    assert "Traceback" not in "\n".join(server.lines[mark:])
    assert hidden_size(server.get(LESSON["en"])) == "4,096"           # the last good registry

    set_hidden_size(root, 3072)                                        # fixed: serving goes on from there
    server.wait_until_served(LESSON["en"], r'data-key="anchor\.hidden_size"[^>]*>3,072<', timeout=300)


def test_an_edited_module_is_imported_afresh(server):
    """Serving keeps one process: an edit to the code that computes a number takes effect on the next rebuild."""
    numbers = server.root / "course/common/numbers.py"
    text = numbers.read_text(encoding="utf-8")
    assert 'computed("hidden_size", src("hidden_size"))' in text
    numbers.write_text(text.replace('computed("hidden_size", src("hidden_size"))',
                                    'computed("hidden_size, as edited", src("hidden_size"))'), encoding="utf-8")
    server.wait_until_served(LESSON["en"], r'data-key="anchor\.hidden_size"[^>]*data-tip="Computed: hidden_size, as edited;',
                             timeout=300)
    assert "reloaded the project's code (course/common/numbers.py" in server.output


def test_an_edit_of_the_small_models_code_reaches_the_page_it_computes_a_number_for(server):
    """The FFN width rule lives in models/config.py, which no list of inputs named: the numbers stage reads
    it through its imports, and serving watches models/ because a stage read code there."""
    config = server.root / "models/config.py"
    text = config.read_text(encoding="utf-8")
    rule = "return m * math.ceil(ratio * self.d_model / m)"
    assert rule in text
    before = re.search(r'data-key="project\.ffn_hidden"[^>]*>([^<]*)<', server.get("en/c4/ffn/")).group(1)
    config.write_text(text.replace(rule, "return m * math.floor(ratio * self.d_model / m)"), encoding="utf-8")
    server.wait_until_served("en/c4/ffn/", r'data-key="project\.ffn_hidden"[^>]*>336<', timeout=300)
    assert before == "344"


def test_a_prose_edit_converts_only_the_edited_page(server):
    """Both languages are rebuilt on every save, each as a build of its own; the pages whose Markdown did not
    change keep their earlier conversion in both, so a prose edit of one page converts that page alone."""
    page = server.root / "docs/c4/ffn.en.md"
    text = page.read_text(encoding="utf-8")
    mark = len(server.lines)
    page.write_text(text + "\nA sentence added by the test.\n", encoding="utf-8")
    server.wait_until_served("en/c4/ffn/", r"A sentence added by the test\.", timeout=300)
    server.wait_for(r"Reloading browsers", after=mark, timeout=300)
    said = "\n".join(server.lines[mark:])
    counts = [(int(a), int(b)) for a, b in re.findall(r"converted (\d+) of (\d+) pages afresh", said)][-2:]
    assert len(counts) == 2 and all(pages > 10 for _, pages in counts), counts
    assert sorted(fresh for fresh, _ in counts) == [0, 1], counts
