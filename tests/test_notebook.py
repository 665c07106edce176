"""The hands-on notebook (docs/c4/normalization-lab.ipynb and .en.ipynb): committed without outputs, the same
cells in both languages, every prediction and "your turn" cell followed by its answer and a check; executed
with quick settings its answer key passes, and in a learner's copy a wrong solution or a wrong prediction
makes its check fail with a message that says why. The build executes its answer key in full and the site renders it as a page in both languages (not as raw
JSON, which is what static-i18n + mkdocs-jupyter give by themselves), offering the learner's copy for
download. (tests/test_lab_answers.py holds what the lab asks before it answers.)"""
from __future__ import annotations

import ast
import json
import re
import string

import nbformat
import pytest
import torch
import yaml
from nbclient.exceptions import CellExecutionError

from conftest import ROOT
from course.core.notebooks import executed_path, execute

PAGES = {"zh": "c4/normalization-lab/", "en": "en/c4/normalization-lab/"}
SOURCES = {"zh": ROOT / "docs/c4/normalization-lab.ipynb", "en": ROOT / "docs/c4/normalization-lab.en.ipynb"}
# the sections a lesson page links to (explicit anchors, the same in both languages), in order
SECTIONS = ["batchnorm-batches", "batchnorm-running-statistics", "your-turn-batchnorm-inference", "scale-and-shift",
            "rmsnorm-length", "your-turn-zero-centered", "residual-stream", "pre-norm-vs-post-ln", "timing"]
ANCHOR = re.compile(r'<span id="([\w\-]+)"></span>')


def read(lang: str):
    return nbformat.read(SOURCES[lang], as_version=4)


def tagged(nb, tag: str) -> list[int]:
    return [i for i, c in enumerate(nb.cells) if tag in c.metadata.get("tags", [])]


def code_shape(source: str) -> str:
    """The code's syntax tree with every string blanked (comments are no part of it): what must match
    across the two languages."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = "<str>"
    return ast.dump(tree)


def strings_of(source: str) -> list[str]:
    """The code's string constants other than docstrings (which, like comments, are in the notebook's language)."""
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def flat(labels: dict, prefix: str = "") -> dict[str, str]:
    out = {}
    for k, v in labels.items():
        out.update(flat(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k: v})
    return out


# ---------------------------------------------------------------- the committed sources

def test_sources_are_committed_without_outputs():
    for src in (ROOT / "docs").rglob("*.ipynb"):
        nb = json.loads(src.read_text(encoding="utf-8"))
        for c in nb["cells"]:
            if c["cell_type"] == "code":
                assert not c.get("outputs") and c.get("execution_count") is None, src


def test_serving_never_executes():
    cfg = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    jupyter = next(p["mkdocs-jupyter"] for p in cfg["plugins"] if isinstance(p, dict) and "mkdocs-jupyter" in p)
    assert jupyter["execute"] == "false"


def test_both_languages_have_the_same_cells_and_the_same_code():
    """The same cells (ids and tags) in both languages; code cells differ only in their comments and
    docstrings (written in the notebook's language), and the set-up cell in its strings as well (LANG and
    the messages it prints before the lab's module is found); Markdown cells have the same section anchors."""
    zh, en = read("zh"), read("en")
    assert [(c.cell_type, c.id, c.metadata.get("tags", [])) for c in zh.cells] == \
           [(c.cell_type, c.id, c.metadata.get("tags", [])) for c in en.cells]
    for i, (a, b) in enumerate(zip(zh.cells, en.cells)):
        if a.cell_type != "code":
            assert ANCHOR.findall(a.source) == ANCHOR.findall(b.source), f"cell {i}: section anchors differ"
            continue
        assert code_shape(a.source) == code_shape(b.source), f"cell {a.id}: the code differs between the languages"
        if "setup" not in a.metadata.get("tags", []):
            assert strings_of(a.source) == strings_of(b.source), f"cell {a.id}: strings differ (they go in the lesson's words, lab.*)"
    anchors = [a for c in zh.cells if c.cell_type == "markdown" for a in ANCHOR.findall(c.source)]
    assert anchors == SECTIONS


def test_labels_have_the_same_keys_and_placeholders_in_both_languages():
    from lessons.c4_normalization.lab import labels
    zh, en = flat(labels("zh")), flat(labels("en"))
    assert zh.keys() == en.keys()
    for k in zh:
        assert placeholders(zh[k]) == placeholders(en[k]), k
        # English names the example's words in Chinese only where it glosses them: apple (苹果)
        assert not re.search(r"[\u3400-\u9fff]", en[k].replace("(苹果)", "")), (k, en[k])


def messages(lang: str) -> dict[str, str]:
    """What the lab's checks say in one language: the words check.* of the lesson."""
    words = json.loads((ROOT / f"lessons/c4_normalization/words.{lang}.json").read_text(encoding="utf-8"))
    return {k.removeprefix("check."): v for k, v in words.items() if k.startswith("check.")}


def test_chinese_labels_and_messages_use_full_width_punctuation():
    """Half-width , : ; ( ) ? next to a Chinese character is a converted sentence, not a native one."""
    from lessons.c4_normalization.lab import labels
    texts = list(flat(labels("zh")).values()) + list(messages("zh").values())
    for text in texts:
        assert not re.search(r"[\u3400-\u9fff][,:;()?]|[,:;()?][\u3400-\u9fff]", text), text


def test_every_prediction_is_answered_and_checked_after_it():
    """Each prediction and each "your turn" cell holds its placeholder; after it come (before the next one)
    the answer key's cells and then a check (answer cells after the check discuss the answer further). Every
    check but the timing's asserts (check_prediction or a check_* of the lesson's lab module raises
    AssertionError); the timing compares only."""
    nb = read("en")
    asks = sorted(tagged(nb, "prediction") + tagged(nb, "your-turn"))
    assert len(tagged(nb, "prediction")) == 7 and len(tagged(nb, "your-turn")) == 2
    for i, nxt in zip(asks, asks[1:] + [len(nb.cells)]):
        assert "..." in nb.cells[i].source, f"cell {nb.cells[i].id} has no placeholder"
        after = range(i + 1, nxt)
        answers = [j for j in after if "answer" in nb.cells[j].metadata.get("tags", [])]
        checks = [j for j in after if "check" in nb.cells[j].metadata.get("tags", [])]
        assert answers and checks and min(answers) < min(checks), f"cell {nb.cells[i].id}: no answer before its check"
        assert all(nb.cells[j].cell_type == "code" for j in checks)
    asserting = [nb.cells[j].source for j in tagged(nb, "check") if "lab.check_" in nb.cells[j].source]
    assert len(asserting) == len(tagged(nb, "check")) - 1
    assert [nb.cells[j].source for j in tagged(nb, "check") if "lab.check_" not in nb.cells[j].source] == \
           ["lab.compare_faster(predicted_faster, here, committed, LANG)"]


def test_prose_names_no_registry_number(registry):
    from test_pages import prose_text, typed_numbers_in
    for src in SOURCES.values():
        assert typed_numbers_in(prose_text(src), registry) == [], src


# ---------------------------------------------------------------- the checks of the "your turn" cells

def zero_centered(x, w, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * (1 + w)


@pytest.mark.parametrize("wrong, says", [
    (lambda x, w, eps: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w, "not w"),
    (lambda x, w, eps: torch.nn.functional.layer_norm(x, x.shape[-1:], eps=eps) * (1 + w), "that is LayerNorm"),
    (lambda x, w, eps: x * torch.rsqrt(x.pow(2).mean(0, keepdim=True) + eps) * (1 + w), "last dimension"),
    (lambda x, w, eps: x / (x.pow(2).mean(-1, keepdim=True) + eps) * (1 + w), "square root"),
    (lambda x, w, eps: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True)) * (1 + w), "inside the square root"),
    (lambda x, w, eps: x / (x.pow(2).mean(-1, keepdim=True).sqrt() + eps) * (1 + w), "inside the square root"),
    (lambda x, w, eps: (x * (1 + w)).tolist(), "should return a tensor"),
], ids=["gain-w", "layernorm", "wrong-dim", "no-root", "no-eps", "eps-outside", "not-a-tensor"])
def test_zero_centered_check_names_the_mistake(wrong, says):
    from lessons.c4_normalization import lab
    lab.check_rmsnorm_zero_centered(zero_centered, "en")
    with pytest.raises(AssertionError, match=says):
        lab.check_rmsnorm_zero_centered(wrong, "en")
    with pytest.raises(AssertionError):  # the same diagnosis in Chinese
        lab.check_rmsnorm_zero_centered(wrong, "zh")


def test_batchnorm_inference_check_names_the_mistake():
    from lessons.c4_normalization import lab
    batches = [b.vectors for b in lab.teaching_batches("en")]
    bn = torch.nn.BatchNorm1d(4, eps=1e-5, momentum=None, affine=False, dtype=torch.float64)
    for x in batches[:-1]:
        bn(x)
    lab.check_batchnorm_inference(lambda x, m, v, eps: (x - m) / torch.sqrt(v + eps), bn, batches, "en")
    assert bn.training, "the check leaves the module in the mode it found it"
    with pytest.raises(AssertionError, match="training mode"):
        lab.check_batchnorm_inference(lambda x, m, v, eps: (x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + eps),
                                      bn, batches, "en")
    with pytest.raises(AssertionError, match="variance"):
        lab.check_batchnorm_inference(lambda x, m, v, eps: (x - m) / (v + eps), bn, batches, "en")


def test_check_messages_exist_in_both_languages_with_the_same_placeholders():
    zh, en = messages("zh"), messages("en")
    assert zh.keys() == en.keys()
    for key in zh:
        assert placeholders(zh[key]) == placeholders(en[key]), key


def test_check_prediction_passes_a_right_one_and_fails_a_wrong_one(capsys, monkeypatch):
    from course.core.lab import ANSWER_KEY_ENV
    from lessons.c4_normalization import lab
    assert lab.check_prediction("Is it?", True, True, "en") is True
    assert "✓ Is it? You predicted yes; the run gives yes." in capsys.readouterr().out
    monkeypatch.delenv(ANSWER_KEY_ENV, raising=False)  # a learner's copy: an unwritten prediction is asked for
    assert lab.check_prediction("Is it?", ..., True, "en") is False  # so the check shows nothing that answers it
    assert "Write your prediction first: Is it?" in capsys.readouterr().out
    with pytest.raises(AssertionError, match="You predicted 2.000; the run gives 1.000"):
        lab.check_prediction("How much?", 2.0, 1.0, "en", tol=0.05)
    with pytest.raises(AssertionError, match="你的预测：否；运行结果：是"):
        lab.check_prediction("是吗?", False, True, "zh")


def test_the_training_cell_prints_the_config_its_runs_trained_with():
    from lessons.c4_normalization import lab
    cfg = lab.tiny_config("post", steps=10, seed=1338)  # as "Try it yourself" edits the cell's first line
    got = lab.run_config({"config": cfg.model_dump()})
    assert (got.max_steps, got.warmup_steps, got.seed, got.d_model) == (10, 1, 1338, lab.TINY["d_model"])


# ---------------------------------------------------------------- executing it

@pytest.fixture
def quick(monkeypatch, kernel, built):
    """Quick settings for every kernel started in the test, reading the session build's registry."""
    from course.core.lab import REGISTRY_ENV
    monkeypatch.setenv("COURSE_LAB_QUICK", "1")
    monkeypatch.setenv(REGISTRY_ENV, str(built / ".build" / "registry.json"))
    monkeypatch.delenv("COURSE_ROOT", raising=False)


def error_of(nb) -> str:
    return "\n".join(f"{o.ename}: {o.evalue}" for c in nb.cells if c.cell_type == "code"
                     for o in c.get("outputs", []) if o.output_type == "error")


def check_outputs(nb) -> list[str]:
    return ["".join(o.get("text", "") for o in nb.cells[i].outputs) for i in tagged(nb, "check")
            if "lab.check_" in nb.cells[i].source]


def test_answer_key_runs_with_quick_settings_and_every_check_passes(quick):
    nb = execute(read("en"), SOURCES["en"].parent)
    assert error_of(nb) == ""
    outs = check_outputs(nb)
    assert outs and all(o.startswith("✓") for o in outs), outs
    setup = "".join(o.get("text", "") for o in nb.cells[tagged(nb, "setup")[-1]].outputs)
    assert "Project: ../.." in setup and "quick settings" in setup


WRONG = {  # what a reader might write in a learner's copy, and what the check must say about it
    "s4-stub": ("def rmsnorm_zero_centered(x, w, eps):\n"
                "    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w\n",
                "the gain is 1 + w, not w"),
    "s2-stub": ("def batchnorm_inference(x, running_mean, running_var, eps):\n"
                "    return (x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + eps)\n",
                "that is training mode"),
    "s1-predict": ("predicted_copy_same = False\n", "You predicted no; the run gives yes"),
}


def learner_up_to_check(cell_id: str, source: str):
    """The learner's copy with one cell rewritten, up to the first check after it."""
    from course.core.notebooks import learner_copy
    nb = learner_copy(read("en"))
    target = next(i for i, c in enumerate(nb.cells) if c.id == cell_id)
    nb.cells[target].source = source
    end = next(i for i in tagged(nb, "check") if i > target)
    nb.cells = nb.cells[:end + 1]
    return nb


@pytest.mark.parametrize("cell_id", list(WRONG))
def test_a_wrong_answer_makes_its_check_cell_fail(quick, cell_id):
    nb = learner_up_to_check(cell_id, WRONG[cell_id][0])
    with pytest.raises(CellExecutionError) as e:
        execute(nb, SOURCES["en"].parent, answer_key=False)
    assert "AssertionError" in str(e.value) and WRONG[cell_id][1] in str(e.value)
    failed = [i for i, c in enumerate(nb.cells) if any(o.output_type == "error" for o in c.get("outputs", []))]
    assert failed == [len(nb.cells) - 1], "the check cell, and only it, fails"


def setup_only(lang: str = "en"):
    nb = read(lang)
    nb.cells = nb.cells[:tagged(nb, "setup")[-1] + 1]
    return nb


def test_notebook_finds_the_project_when_downloaded_next_to_the_repository(quick, tmp_path):
    (tmp_path / "course-repository").symlink_to(ROOT, target_is_directory=True)
    nb = execute(setup_only(), tmp_path)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert "Project: course-repository " in text and str(tmp_path) not in text


def test_notebook_says_what_it_needs_when_no_project_is_found(quick, tmp_path):
    with pytest.raises(CellExecutionError) as e:
        execute(setup_only(), tmp_path)
    assert "Cannot find the project" in str(e.value) and "COURSE_ROOT" in str(e.value)


# ---------------------------------------------------------------- the build's executed copy and the site

@pytest.mark.parametrize("lang", ["zh", "en"])
def test_build_executed_every_exercise_in_full(built_paths, lang):
    nb = nbformat.read(executed_path(built_paths, built_paths.docs / SOURCES[lang].relative_to(ROOT / "docs")),
                       as_version=4)
    assert error_of(nb) == ""
    outs = check_outputs(nb)
    assert len(outs) == len(tagged(read(lang), "check")) - 1 and all(o.startswith("✓") for o in outs), outs
    for i in tagged(nb, "run") + tagged(nb, "figure"):
        assert nb.cells[i].outputs, f"cell {i} shows nothing"
    setup = "".join(o.get("text", "") for o in nb.cells[tagged(nb, "setup")[-1]].outputs)
    assert setup and "COURSE_LAB_QUICK" not in setup, "the site shows the full settings"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_renders_as_a_page_with_its_outputs(site_dir, lang):
    html = (site_dir / PAGES[lang] / "index.html").read_text(encoding="utf-8")
    assert '"cell_type"' not in html and '"nbformat"' not in html, "the notebook rendered as raw JSON"
    assert "jp-Notebook" in html or "jp-Cell" in html
    for section in SECTIONS:
        assert f'id="{section}"' in html, section
    ids = re.findall(r'\sid="([^"]*)"', html)
    assert "" not in ids and len(ids) == len(set(ids)), "every id on the page is non-empty and unique"
    outputs = html.split("jp-OutputArea", 1)[1]
    assert outputs.count("✓") >= len(tagged(read(lang), "check")) - 1
    assert html.count('class="plotly-figure"') == len(tagged(read(lang), "figure")) and "cdn.plot.ly" not in html


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_offered_for_download_as_the_learners_copy(site_dir, lang):
    [nb_file] = list((site_dir / PAGES[lang]).glob("*.ipynb"))
    nb = json.loads(nb_file.read_text(encoding="utf-8"))
    kept = [c["id"] for c in nb["cells"]]
    assert kept == [c.id for c in read(lang).cells if not {"answer", "page"} & set(c.metadata.get("tags", []))]
    assert not any(c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
    html = (site_dir / PAGES[lang] / "index.html").read_text(encoding="utf-8")
    assert f'href="{nb_file.name}"' in html or f"/{nb_file.name}" in html, "no download link to the notebook"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_figures_draw_in_the_browser(open_page, lang):
    v = open_page(PAGES[lang])
    v.page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # a run's folded output
    figures = v.page.locator(".plotly-figure")
    for i in range(figures.count()):
        figures.nth(i).locator(".main-svg").first.wait_for()
    assert figures.count() == len(tagged(read(lang), "figure"))
    v.check_clean()
