"""The normalization lesson's widgets and their Python twins: the BatchNorm demo's arithmetic on the
teaching vectors, the LayerNorm/RMSNorm playground and the weight-decay chart against the lesson's
formulas, and the registry numbers each widget starts from."""
import json

import pytest
from conftest import widget_config as config

from course.core.schema import InputError
from course.project import units as discover
from lessons.c4_normalization import formulas as f
from lessons.c4_normalization import twins

UNITS = discover()
NS = "normalization."




# ---------------------------------------------------------------- normalization arithmetic

def test_twin_batchnorm_demo_is_layernorm_down_each_feature():
    """BatchNorm normalizes each feature over the batch: per column, that is formulas.layernorm."""
    tv = twins.teaching_vectors()
    batch = [tv.tokens[t].vector for t in tv.example.tokens]
    out = twins.batchnorm(batch, tv.batchnorm_eps)
    for j in range(tv.dims):
        col = [row[j] for row in batch]
        assert [row[j] for row in out] == pytest.approx(f.layernorm(col, tv.batchnorm_eps), rel=1e-12)


def test_twin_batchnorm_demo_cases_tell_the_lesson():
    tv = twins.teaching_vectors()
    cases = {c.id: c for c in twins.batch_cases(tv)}
    assert list(cases) == ["none"] + [c.id for c in tv.companions] + ["single"]
    # BatchNorm's 苹果 depends on its companions ...
    outs = [tuple(round(v, 9) for v in c.batchnorm) for k, c in cases.items() if k != "single"]
    assert len(set(outs)) == len(outs)
    # ... and is all zeros when the batch is the one token being generated
    assert cases["single"].tokens == [tv.focus] and cases["single"].batchnorm == [0.0] * tv.dims
    # RMSNorm uses 苹果's own row only: the same in every case, and the formula's value
    own = f.rmsnorm(tv.tokens[tv.focus].vector)
    assert all(c.rmsnorm == own for c in cases.values())
    # padding counts: the padded batch holds the example, the short sentence and [PAD]s up to the example's length
    padded = cases["padded"]
    assert padded.tokens.count(tv.pad.token) == len(tv.example.tokens) - 3
    assert len(padded.tokens) == 2 * len(tv.example.tokens)


def test_twin_batchnorm_demo_teaching_vectors_are_validated(tmp_path):
    data = json.loads(twins.TEACHING_VECTORS.read_text(encoding="utf-8"))
    data["tokens"]["苹果"]["vector"] = [1.0, 2.0]
    bad = tmp_path / "teaching-vectors.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError, match="苹果.*2 numbers"):
        twins.teaching_vectors(bad)




def test_twin_batchnorm_demo_config_is_the_teaching_data(reg):
    tv = twins.teaching_vectors()
    cfg = config(reg, "batchnorm-demo", "improved")
    assert cfg["tokens"] == {k: v.model_dump() for k, v in tv.tokens.items()} and cfg["focus"] == tv.focus
    assert cfg["source"] == "lessons/c4_normalization/teaching-vectors.json"
    assert cfg["hidden"]["value"] == reg["anchor.hidden_size"].value


def test_twin_ln_rms_playground_starts_from_the_worked_example(reg):
    cfg = config(reg, "ln-rms-playground")
    x = cfg["x"]["value"]
    assert x == reg[NS + "worked.x"].value
    assert f.layernorm(x) == reg[NS + "worked.x.layernorm"].value
    assert f.rmsnorm([v + cfg["shift"]["value"] for v in x]) == reg[NS + "worked.shifted.rmsnorm"].value
    assert f.rmsnorm([v * cfg["scale"]["value"] for v in x]) == pytest.approx(reg[NS + "worked.x.rmsnorm"].value)


def test_twin_weight_decay_is_the_closed_form_of_the_project_config(reg):
    cfg = config(reg, "weight-decay")
    lr, wd = cfg["lr"]["value"], cfg["weightDecay"]["value"]
    assert (lr, wd) == (reg["project.lr"].value, reg["project.weight_decay"].value)
    gain, steps = cfg["gain"]["value"], cfg["steps"]["value"]
    assert f.standard_gain_after_decay(gain, lr, wd, steps) == reg[NS + "wd.standard_gain"].value
    assert f.zero_centered_gain_after_decay(gain, lr, wd, steps) == reg[NS + "wd.zero_centered_gain"].value
    assert reg[NS + "wd.standard_gain"].value < 1 < reg[NS + "wd.zero_centered_gain"].value < gain
