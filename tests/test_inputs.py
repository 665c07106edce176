"""Bad inputs: each gives one readable message naming the file and field, exit code 2, no traceback,
and leaves site/, figures/ and the registry exactly as they were."""

import pytest

from conftest import run_build
from project_copy import copy_project, edit_json


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = copy_project(tmp_path_factory.mktemp("bad") / "project")
    r = run_build(root, "--frozen")
    assert r.returncode == 0, r.stderr
    return root


def text(root, name):
    return (root / name).read_text(encoding="utf-8")


def set_text_config(key, value):
    return lambda p: edit_json(p, lambda d: d["config"]["text_config"].__setitem__(key, value))


def drop_text_config(key):
    return lambda p: edit_json(p, lambda d: d["config"]["text_config"].pop(key))


def model_named(name, change):
    def wrapped(d):
        m = next(m for m in d["models"] if m["name"] == name)
        change(m)
    return wrapped


BAD = [
    ("malformed JSON", "data/anchor-model.json", lambda p: p.write_text(text(p.parents[1], "data/anchor-model.json")[:-40]),
     ["data/anchor-model.json", "not valid JSON", "line"]),
    ("missing field", "data/anchor-model.json", drop_text_config("hidden_size"),
     ["data/anchor-model.json", "config.text_config.hidden_size", "missing"]),
    ("wrong type", "data/anchor-model.json", set_text_config("hidden_size", "wide"),
     ["config.text_config.hidden_size", "valid integer", '"wide"']),
    ("zero size", "data/anchor-model.json", set_text_config("intermediate_size", 0),
     ["config.text_config.intermediate_size", "greater than 0", "got 0"]),
    ("negative size", "data/anchor-model.json", set_text_config("num_attention_heads", -24),
     ["config.text_config.num_attention_heads", "greater than 0", "-24"]),
    ("layer_types too short", "data/anchor-model.json",
     lambda p: edit_json(p, lambda d: d["config"]["text_config"]["layer_types"].pop()),
     ["config.text_config", "layer_types has 63 entries but num_hidden_layers is 64"]),
    ("unknown layer type", "data/anchor-model.json",
     lambda p: edit_json(p, lambda d: d["config"]["text_config"]["layer_types"].__setitem__(0, "sliding")),
     ["config.text_config.layer_types.0", "'full_attention' or 'linear_attention'"]),
    ("unknown top-level field", "data/anchor-model.json", lambda p: edit_json(p, lambda d: d.update(extra=1)),
     ["data/anchor-model.json", "extra", "unknown field"]),
    ("bad sha256", "data/anchor-model.json", lambda p: edit_json(p, lambda d: d["provenance"].update(sha256="xyz")),
     ["provenance.sha256", "pattern"]),
    ("frontier wrong type", "data/frontier-models.json",
     lambda p: edit_json(p, model_named("GPT-2 small", lambda m: m.update(num_layers=[12]))),
     ["data/frontier-models.json", "models.1.num_layers", "valid integer"]),
    ("frontier duplicate", "data/frontier-models.json",
     lambda p: edit_json(p, lambda d: d["models"].append(d["models"][0])),
     ["data/frontier-models.json", "names must be unique", "Transformer base"]),
    ("frontier model the course needs", "data/frontier-models.json",
     lambda p: edit_json(p, lambda d: d.update(models=[m for m in d["models"] if m["name"] != "GPT-2 small"])),
     ["data/frontier-models.json", "GPT-2 small"]),
    ("citation of an unknown paper", "data/citations.json",
     lambda p: edit_json(p, lambda d: d["numbers"][0].update(paper="nobody2099")),
     ["data/citations.json", "nobody2099"]),
    ("experiment override unknown key", "models/experiments.json",
     lambda p: edit_json(p, lambda d: d["runs"]["c4_postln"].update(lrr=1)),
     ["models/experiments.json", "runs.c4_postln", "lrr"]),
    ("heads do not tile the width", "models/experiments.json",
     lambda p: edit_json(p, lambda d: d["base"].update(n_head=3)),
     ["models/experiments.json", "multiple of n_head"]),
    ("missing data file", "data/citations.json", lambda p: p.unlink(), ["data/citations.json", "file not found"]),
    ("unknown key in a page", "docs/c4/index.en.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- n:anchor.no_such_number -->\n", encoding="utf-8"),
     ["c4/index.en.md", "unknown registry key 'anchor.no_such_number'"]),
    ("teaching vector of the wrong length", "lessons/c4_normalization/teaching-vectors.json",
     lambda p: edit_json(p, lambda d: d["tokens"]["苹果"].update(vector=[1.0, 2.0])),
     ["lessons/c4_normalization/teaching-vectors.json", "苹果", "2 numbers, expected dims = 4"]),
    ("claim naming an unknown key", "lessons/c4_normalization/claims.json",
     lambda p: edit_json(p, lambda d: d["claims"][0].update(check="{run.no_such_run.final_val_loss} > 0")),
     ["lessons/c4_normalization/claims.json", "unknown registry keys", "run.no_such_run.final_val_loss"]),
    ("unknown widget label", "docs/c4/normalization.en.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- label:residual-sim.nope -->\n", encoding="utf-8"),
     ["c4/normalization.en.md", "unknown label", "residual-sim.nope"]),
    ("unknown table", "docs/c4/index.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- table:nope -->\n", encoding="utf-8"),
     ["c4/index.md", "unknown table 'nope'"]),
]


@pytest.mark.parametrize("label,rel,damage,expected", BAD, ids=[b[0] for b in BAD])
def test_bad_input_fails_clearly_and_keeps_outputs(project, label, rel, damage, expected):
    target = project / rel
    original = target.read_bytes()
    kept = {p: p.read_bytes() for p in [project / "site/index.html", project / "site/en/c4/index.html",
                                        project / ".build/registry.json"]}
    try:
        damage(target)
        r = run_build(project, "--frozen")
    finally:
        target.write_bytes(original)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    for piece in expected:
        assert piece in r.stderr, f"{piece!r} not in:\n{r.stderr}"
    for p, before in kept.items():
        assert p.read_bytes() == before, f"{p} was overwritten"
    assert not (project / "site.tmp").exists()
