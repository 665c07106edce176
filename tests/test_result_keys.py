"""Results are keyed on what determines them: the syntax tree of the code a run executes, its config with
its seed (fields at their defaults left out), the corpus and the device. A comment, a docstring or a
reformat leaves every result current; a change of what the code computes makes the results stale; an
edited run config makes that run's seeds stale, and `--list` says which part changed."""
import json
import shutil

import pytest

from conftest import ROOT
from models.config import TrainConfig
from models.measure import code_key, config_key, main, stale

RUN_CODE = ["models/model.py", "models/train.py", "models/config.py", "models/corpus.py"]


@pytest.fixture
def models_copy(tmp_path):
    """models/ and the committed results, in a folder of their own (the checkout is never edited)."""
    for rel in ["models", "data/results"]:
        shutil.copytree(ROOT / rel, tmp_path / rel, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def edit(path, change):
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


def test_the_run_code_is_found_by_its_imports():
    assert sorted(code_key(ROOT, "models.train")) == sorted(["models/__init__.py", *RUN_CODE])


@pytest.mark.parametrize("module", RUN_CODE)
def test_a_comment_or_a_docstring_leaves_every_result_as_it_was(models_copy, module):
    before = stale(models_copy)
    edit(models_copy / module, lambda t: "# a comment on top\n" + t.replace("\n\n\n", "\n\n\n# another\n", 1))
    if module == "models/model.py":
        edit(models_copy / module, lambda t: t.replace('"""y = x / √(mean(x²) + ε) · g, g = 1 at init',
                                                      '"""A docstring, reworded. y = x / √(mean(x²) + ε) · g', 1))
    assert stale(models_copy) == before


def test_a_change_of_what_the_model_computes_makes_every_run_stale(models_copy):
    edit(models_copy / "models/model.py", lambda t: t.replace("return x + fx if self.residual else fx",
                                                              "return x + 2 * fx if self.residual else fx"))
    found = stale(models_copy)
    runs = [k for k in found if k.startswith("data/results/cpu/")]
    exp = json.loads((ROOT / "models/experiments.json").read_text(encoding="utf-8"))
    assert len(runs) == len(exp["runs"]) * len(exp["seeds"])
    assert all(found[k] in ("models/model.py changed", "missing") for k in runs)
    assert "data/results/norm-bench-cpu.json" not in found or found["data/results/norm-bench-cpu.json"] != "models/model.py changed"


def test_an_edited_run_config_makes_that_runs_seeds_stale_and_says_why(models_copy, capsys):
    before = stale(models_copy)
    path = models_copy / "models/experiments.json"
    edit(path, lambda t: t.replace('"c4_layernorm": {"norm_type": "layernorm"}',
                                   '"c4_layernorm": {"norm_type": "layernorm", "lr": 1e-3}'))
    exp = json.loads(path.read_text(encoding="utf-8"))
    new = {k: v for k, v in stale(models_copy).items() if before.get(k) != v}
    assert new == {f"data/results/cpu/c4_layernorm/seed{s}.json": "config changed" for s in exp["seeds"]
                   if f"data/results/cpu/c4_layernorm/seed{s}.json" not in before}


def test_a_field_at_its_default_leaves_the_key_of_a_run_that_does_not_use_it():
    cfg = TrainConfig.model_validate(json.loads((ROOT / "models/experiments.json").read_text())["base"])
    assert config_key(cfg) == config_key(cfg.model_copy(update={"trace_steps": 0}))
    assert config_key(cfg) != config_key(cfg.model_copy(update={"trace_steps": 10}))
    assert config_key(cfg) != config_key(cfg.model_copy(update={"lr": cfg.lr / 2}))


def test_list_names_what_is_stale_or_says_all_is_current(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    found = stale(ROOT)
    assert out == ([f"{p}: {why}" for p, why in found.items()] if found else ["all results current"])
