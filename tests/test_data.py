"""The data files carry the official values unaltered, with provenance that can be checked."""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

@pytest.fixture(scope="module")
def configs(shared) -> Path:
    """The official config collection beside the project (shared/ next to the checkout, as in CI)."""
    path = shared / "model-configs"
    assert path.is_dir(), f"{path} is missing: the data files cannot be checked against the official configs"
    return path


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
    subprocess.run([sys.executable, str(ROOT / "scripts" / "import_configs.py"), str(configs), "--out", str(tmp_path)],
                   check=True)
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
