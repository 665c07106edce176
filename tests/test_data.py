"""The data files carry the official values unaltered, with provenance that can be checked."""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

CONFIGS = ROOT.parent / "shared" / "model-configs"
needs_configs = pytest.mark.skipif(not CONFIGS.is_dir(), reason="the official config collection is not beside the project")


def load(name):
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))


@needs_configs
def test_anchor_config_is_the_official_file_unaltered():
    anchor = load("anchor-model.json")
    src = CONFIGS / anchor["provenance"]["copied_file"]
    raw = src.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == anchor["provenance"]["sha256"]
    assert len(raw) == anchor["provenance"]["bytes"]
    assert json.loads(raw) == anchor["config"]


@needs_configs
def test_data_files_are_what_the_importer_writes(tmp_path):
    for name in ("import_configs.py",):
        (tmp_path / name).write_bytes((ROOT / "data" / name).read_bytes())
    subprocess.run([sys.executable, str(tmp_path / "import_configs.py"), str(CONFIGS)], check=True)
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
