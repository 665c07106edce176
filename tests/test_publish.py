"""Publishing: the workflow's build step is `make publish` (build.py --frozen), and it is run here as the
workflow runs it, on fresh copies of the project (no .build/, no site/, no figures). It never trains: on a
copy whose committed results are current it builds the site; on a copy with one run's config edited it
fails and names that run's results."""
import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import ROOT, seed_notebooks
from project_copy import edit_json

WORKFLOW = ROOT / ".github/workflows/pages.yml"


def steps() -> list[dict]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["build"]["steps"]


def step_running(word: str) -> dict:
    return next(s for s in steps() if word in s.get("name", "").lower())


def publish(root: Path) -> subprocess.CompletedProcess:
    """The workflow's build step, run in `root` with this environment's Python in place of .venv's (the
    install step is the workflow's; STAMP= skips it here)."""
    command = step_running("build")["run"].strip()
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_DRAFT", "COURSE_TEST_BUILD")}
    return subprocess.run(f"{command} STAMP= PY={sys.executable}", shell=True, cwd=root, capture_output=True,
                          text=True, env=env, timeout=1800)


def test_the_workflow_installs_the_project_and_publishes_with_the_frozen_build():
    assert step_running("install")["run"].strip() == "make install TORCH=cpu"   # the CPU-only torch
    assert step_running("build")["run"].strip() == "make publish"
    # --no-print-directory: under `make test` this make is a sub-make, which would announce its directory
    make = subprocess.run(["make", "--no-print-directory", "-n", "publish", "STAMP=", "PY=python"], cwd=ROOT,
                          capture_output=True, text=True)
    *browser, build = make.stdout.strip().splitlines()
    assert build == "python build.py --frozen", make.stdout
    assert "apt-get install" in "".join(browser) and "chromium" in "".join(browser), make.stdout  # static figures
    # -B: print the install recipe even where .venv is already installed (as it is under make test)
    install = subprocess.run(["make", "--no-print-directory", "-n", "-B", "install"], cwd=ROOT, capture_output=True,
                             text=True).stdout
    assert "-r requirements.txt" in install and "-e ." in install  # the pins, then the project itself
    assert "whl/cpu" not in install  # by default every package comes from PyPI (as on CI)
    cpu = subprocess.run(["make", "--no-print-directory", "-n", "-B", "install", "TORCH=cpu"], cwd=ROOT,
                         capture_output=True, text=True).stdout.splitlines()
    torch_line = next(i for i, line in enumerate(cpu) if "--index-url" in line)
    assert "--no-deps" in cpu[torch_line] and "torch==" in cpu[torch_line] and "whl/cpu" in cpu[torch_line]
    assert torch_line < next(i for i, line in enumerate(cpu) if "-r requirements.txt" in line)  # torch first
    upload = next(s for s in steps() if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "site"


def test_publishing_a_fresh_copy_uses_the_committed_results(project_copy, built):
    """With every committed result current, the site is built and nothing trains; with any stale or missing
    (while the runs are still being made), it fails and names exactly those. (The copy gets the session's
    executed notebooks, each keyed on what it read, so it is re-executed only if that differs here.)"""
    from models.measure import stale
    expected = stale(ROOT)
    root = project_copy(fresh=True)
    seed_notebooks(built, root)
    results = {p: p.read_bytes() for p in (root / "data/results").rglob("*.json")}
    r = publish(root)
    if not expected:
        assert r.returncode == 0, r.stdout + r.stderr
        assert (root / "site/index.html").exists() and (root / "site/en/index.html").exists()
    else:
        assert r.returncode != 0
        assert f"{len(expected)} result(s) stale or missing" in r.stderr, r.stderr
        for path in expected:
            assert path in r.stderr, path
        assert not (root / "site").exists()
    assert {p: p.read_bytes() for p in (root / "data/results").rglob("*.json")} == results  # nothing trained


def test_publishing_after_a_run_config_edit_fails_and_names_that_run(project_copy):
    root = project_copy(fresh=True)
    exp = json.loads((root / "models/experiments.json").read_text(encoding="utf-8"))
    edit_json(root / "models/experiments.json", lambda d: d["runs"]["c4_layernorm"].update(lr=1e-3))
    results = {p: p.read_bytes() for p in (root / "data/results").rglob("*.json")}
    r = publish(root)
    assert r.returncode != 0
    assert "stale results:" in r.stderr and "Traceback" not in r.stderr
    for seed in exp["seeds"]:
        path = f"data/results/cpu/c4_layernorm/seed{seed}.json"
        assert (f"{path}: config changed" if (root / path).exists() else f"{path}: missing") in r.stderr, r.stderr
    changed = [line for line in r.stderr.splitlines() if "config changed" in line]
    assert changed and all("c4_layernorm/" in line for line in changed), changed  # that run, and no other
    assert {p: p.read_bytes() for p in (root / "data/results").rglob("*.json")} == results  # nothing trained
    assert not (root / "site").exists()
