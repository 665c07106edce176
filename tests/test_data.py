"""The data files carry the official values unaltered, with provenance that can be checked."""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from course.paths import MODEL_CONFIGS


@pytest.fixture(scope="module")
def configs() -> Path:
    """The official config collection the importer reads, in the repository."""
    assert (MODEL_CONFIGS / "SOURCES.md").is_file(), \
        f"{MODEL_CONFIGS} has no SOURCES.md: the data files cannot be checked against the official configs"
    return MODEL_CONFIGS


def load(name):
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))


def test_anchor_config_is_the_official_file_unaltered(configs):
    anchor = load("anchor-model.json")
    src = configs / anchor["provenance"]["copied_file"]
    raw = src.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == anchor["provenance"]["sha256"]
    assert len(raw) == anchor["provenance"]["bytes"]
    assert json.loads(raw) == anchor["config"]


def test_data_files_are_what_the_importer_writes(configs, tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts" / "import_configs.py"), "--out", str(tmp_path)],
                   check=True)   # its default folder: the configs in the repository
    for name in ("anchor-model.json", "frontier-models.json"):
        assert (tmp_path / name).read_text(encoding="utf-8") == (ROOT / "data" / name).read_text(encoding="utf-8"), name


def test_every_frontier_model_has_a_provenance_grade():
    for m in load("frontier-models.json")["models"]:
        assert m["provenance"]["grade"] in {"official file", "official code", "vendored copy", "report",
                                            "paper table", "secondary source"}, m["name"]


def test_anchor_facts_name_their_source():
    facts = load("anchor-model.json")["facts"]
    assert facts["norm_style"]["value"] == "zero_centered" and "1 + w" in facts["norm_style"]["meaning"]
    assert facts["official_parameter_total"]["value"] == 27_781_427_952
    assert "header" in facts["official_parameter_total"]["source"]


def test_every_copied_config_is_in_the_repository_unaltered(configs):
    """Each file a data record names as its copy is in data/model-configs/, with the bytes its record hashed,
    and SOURCES.md says where it came from."""
    sources = (configs / "SOURCES.md").read_text(encoding="utf-8")
    records = [load("anchor-model.json")["provenance"]] + [m["provenance"] for m in load("frontier-models.json")["models"]]
    copied = [r for r in records if "copied_file" in r]
    assert len(copied) >= 10, "the importer no longer records the files it copied"
    for r in copied:
        raw = (configs / r["copied_file"]).read_bytes()
        assert (len(raw), hashlib.sha256(raw).hexdigest()) == (r["bytes"], r["sha256"]), r["copied_file"]
        assert f"`{r['copied_file']}`" in sources, f"SOURCES.md does not list {r['copied_file']}"
