"""The notebooks stage re-executes a notebook only when something it read changed: a registry key it looked
up, a project file it opened (data or the code it imports), a folder it listed, or its own source. Two
small probe notebooks in a copy of the project's code, each reading its own key; and the lesson's real
notebook, which an edit to the anchor model's config does not touch, and which reads no other lesson's code,
so that an edit of another lesson, or a new folder beside the lessons, re-executes nothing."""
import json
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from conftest import ROOT, SESSION_BUILD, run_build
from project_copy import edit_json

PROBE = """import json, sys, time
from pathlib import Path
root = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "course").is_dir())
sys.path.insert(0, str(root))
from course.core.lab import registry
reg = registry()
print("value:", reg[{key!r}]["value"])
{reads}
start = time.time(); time.sleep(1.5)
print("ran:", json.dumps([start, time.time()]))
"""
READS_DATA = """print("files:", sorted(p.name for p in (root / "data" / "probe").glob("*.json")))
print("a:", (root / "data" / "probe" / "a.json").read_text())
(root / "data" / "probe" / "written.txt").write_text("a write is no read")"""


def entry(value) -> dict:
    return {"key": "k", "value": value, "unit": "", "text": {"zh": str(value), "en": str(value)},
            "provenance": {"kind": "computed", "formula": "f", "sources": []}}


@pytest.fixture(scope="module")
def probes(tmp_path_factory, kernel):
    """The project's code, one registry with two keys, and two notebooks: a reads probe.read and data/probe,
    b reads probe.other."""
    root = tmp_path_factory.mktemp("keys") / "project"
    for part in ("cachekit", "course", "models"):
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "data" / "probe").mkdir(parents=True)
    (root / "data" / "probe" / "a.json").write_text('{"a": 1}')
    (root / ".build").mkdir()
    write_registry(root, read=1, other=1)
    for name, key, reads in (("a", "probe.read", READS_DATA), ("b", "probe.other", "")):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE.format(key=key, reads=reads))])
        (root / "docs" / "lab").mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, root / "docs" / "lab" / f"{name}.ipynb")
    return root


def write_registry(root, **values):
    reg = {f"probe.{k}": entry(v) for k, v in values.items()}
    (root / ".build" / "registry.json").write_text(json.dumps(reg), encoding="utf-8")


def execute(root) -> str:
    """The notebooks stage in the copy (its own course package first on the path); what it printed and
    logged (the stage says through the core's logger which notebooks it executes, as build.py shows it)."""
    run = ("import logging, sys; logging.basicConfig(stream=sys.stdout, level=logging.INFO, format='%(message)s'); "
           "from pathlib import Path; from course.core.notebooks import execute_stale; "
           "from course.core.project import Paths; print(execute_stale(Paths.under(Path.cwd(), 'unused')))")
    r = subprocess.run([sys.executable, "-c", run],
                       cwd=root, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def executed(out: str) -> set[str]:
    return set(re.findall(r"execute  lab/(\w+)\.ipynb", out))


def ran_at_the_same_time(root) -> bool:
    spans = []
    for name in ("a", "b"):
        nb = json.loads((root / f".build/notebooks/lab/{name}.ipynb").read_text())
        text = "".join("".join(o.get("text", "")) for o in nb["cells"][0]["outputs"])
        spans.append(json.loads(re.search(r"ran: (\[.*\])", text).group(1)))
    (a0, a1), (b0, b1) = spans
    return a0 < b1 and b0 < a1


def test_each_notebook_reruns_only_when_what_it_read_changes(probes):
    root = probes
    first = execute(root)
    assert executed(first) == {"a", "b"} and "2 of 2 notebooks executed" in first
    assert ran_at_the_same_time(root), "notebooks that must run did not run in parallel"
    record = json.loads((root / ".build/notebooks/lab/a.ipynb.reads.json").read_text())["reads"]
    assert record["keys"] == ["probe.read"] and not record["all_keys"]
    assert record["dirs"] == ["data/probe"]
    assert "data/probe/a.json" in record["files"] and "course/core/lab.py" in record["files"]
    assert "data/probe/written.txt" not in record["files"]  # written, not read
    assert ".build/registry.json" not in record["files"]    # read through the helper: its keys count instead
    assert json.loads((root / ".build/notebooks/lab/b.ipynb.reads.json").read_text())["reads"]["keys"] == ["probe.other"]

    assert executed(execute(root)) == set()                   # nothing changed

    write_registry(root, read=1, other=2)                     # a key only b read
    out = execute(root)
    assert executed(out) == {"b"} and "key probe.other changed" in out

    write_registry(root, read=2, other=2)                     # a key only a read
    assert executed(execute(root)) == {"a"}

    (root / "data/probe/b.json").write_text("{}")              # a new file in a folder a listed,
    (root / "data/probe/a.json").write_text('{"a": 2}')       # and a file a opened
    out = execute(root)
    assert executed(out) == {"a"} and "folder data/probe changed" in out and "file data/probe/a.json changed" in out

    lab = root / "course/core/lab.py"                          # the code both import: a comment is no change,
    lab.write_text(lab.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert executed(execute(root)) == set()
    lab.write_text(lab.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")   # code is
    out = execute(root)
    assert executed(out) == {"a", "b"} and "file course/core/lab.py changed" in out

    for name in ("a", "b"):                                    # the sources stay output-free
        assert not any(c.get("outputs") for c in json.loads((root / f"docs/lab/{name}.ipynb").read_text())["cells"])


def test_an_edit_the_lessons_notebook_does_not_read_leaves_it_executed(project_copy):
    """The anchor's FFN width feeds many numbers (the ledger, the FFN lesson), none of which the
    normalization notebook reads."""
    root = project_copy()  # with the session's registry and executed notebooks
    edit_json(root / "data/anchor-model.json", lambda d: d["config"]["text_config"].update(intermediate_size=16384))
    r = run_build(root, "--no-site", *SESSION_BUILD)
    assert r.returncode == 0, r.stderr
    assert "anchor.ffn_width: 17,408 → 16,384" in r.stdout
    line = next(l for l in r.stdout.splitlines() if l.startswith("notebooks"))
    assert "cached" in line, r.stdout


def test_a_lab_reads_no_other_lesson_and_an_edit_there_executes_no_notebook(built_paths, units, project_copy):
    """Each lab reads its own lesson's code and what the course shares (course.core.units.named_units), not
    every unit's, as discovery would: so neither a new folder in a package of units nor an edit of another
    lesson's code re-executes it."""
    from course.core.notebooks import executed_path, name, reads_path, sources
    from course.project import PROJECT
    rel = lambda p: p.relative_to(ROOT).as_posix()  # noqa: E731
    # the packages discovery walks for units (each subpackage a unit), as folders: lessons, chapters
    walked = [e.replace(".", "/") for e in PROJECT.unit_packages if not any(u.module == e for u in units.all)]
    notebooks = sources(built_paths)
    assert notebooks and walked, "no notebook, or no package of units, to check"
    owners = {src: units.owner_of_page(name(built_paths, src)) for src in notebooks}
    for src, owner in owners.items():
        others = [rel(u.folder) for u in units.lessons if u is not owner]
        assert owner is not None and others, f"{src.name}: no lesson owns it, or no other lesson to read"
        reads = json.loads(reads_path(built_paths, src).read_text(encoding="utf-8"))["reads"]
        assert any(f.startswith(rel(owner.folder) + "/") for f in reads["files"]), "the record holds no read"
        assert [f for f in reads["files"] if any(f.startswith(o + "/") for o in others)] == [], \
            f"{src.name} read other lessons' code"
        assert [d for d in reads["dirs"] if d in walked or any(d == o or d.startswith(o + "/") for o in others)] \
            == [], f"{src.name} listed the units' folders"

    root = project_copy()
    before = {src: executed_path(built_paths, src).read_bytes() for src in notebooks}
    new = root / walked[-1] / "added_by_a_test"                      # a new folder beside the lessons
    new.mkdir()
    (new / "notes.md").write_text("a lesson in the making\n", encoding="utf-8")
    other = next(u for u in units.lessons if u not in owners.values())
    code = root / rel(other.folder) / "__init__.py"                 # another lesson's code: its syntax tree
    code.write_text(code.read_text(encoding="utf-8") + "\n\ndef added_by_a_test():\n    return 1\n", encoding="utf-8")
    r = run_build(root, "--no-site", *SESSION_BUILD)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^numbers\s+ran", r.stdout, re.M), "the edit changed none of the build's code"
    assert "    execute  " not in r.stdout, r.stdout
    for src in notebooks:
        assert (root / executed_path(built_paths, src).relative_to(built_paths.root)).read_bytes() == before[src]
