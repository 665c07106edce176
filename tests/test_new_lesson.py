"""`make new-lesson ID=c<N>-<n> SLUG=<slug>` (scripts/new_lesson.py) starts a lesson, and its chapter when
the chapter is new, in both languages: the README's recipe is what it does. What it writes stays in the
lesson's, the chapter's and the pages' folders, builds strict with no other edit, and keeps the lesson rules."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SESSION_BUILD, run_build
from project_copy import SKIP

sys.path.insert(0, str(ROOT / "scripts"))
import new_lesson  # noqa: E402


def snapshot(root: Path) -> dict[str, str]:
    """Every source file of a project copy → a hash of its bytes (what the build derives left out)."""
    skip = SKIP | {".build", "figures", "site"}
    out = {}
    for p in root.rglob("*"):
        rel = p.relative_to(root)
        if p.is_file() and not skip & set(rel.parts) and p.suffix != ".pyc":
            out[rel.as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def planned_chapter() -> str:
    """A numbered chapter the course map plans and no unit writes yet (the map plans c9 today)."""
    import json

    from course.project import units
    written = units().written()
    course_map = json.loads((ROOT / "data" / "course-map.json").read_text(encoding="utf-8"))
    return next(ch["id"] for ch in course_map["chapters"]
                if ch["id"][1:].isdigit() and ch["id"] not in written and not ch.get("side"))


def test_it_refuses_a_bad_id_a_taken_name_and_a_written_lesson(capsys):
    from course.project import units
    lesson = units().lessons[0]
    for args, says in ((("c9", "probe"), "expected c<chapter>-<lesson>"),
                       (("c9-1", "Probe"), "expected lower-case words"),
                       (("c99-1", lesson.namespace.replace("_", "-")), "already a unit's id or namespace"),
                       ((lesson.ref, "another-probe"), f"{lesson.ref} is already written")):
        with pytest.raises(SystemExit) as e:
            new_lesson.plan(ROOT, *args, None, {}, {})
        assert e.value.code == 2
        assert says in capsys.readouterr().err, args


def test_it_plans_only_the_lesson_s_chapter_s_and_pages_folders():
    chapter = planned_chapter()
    files = new_lesson.plan(ROOT, f"{chapter}-1", "probe", None, {}, {})
    folders = {f"lessons/{chapter}_probe", f"chapters/{chapter}", f"docs/{chapter}"}
    written = {p.relative_to(ROOT).as_posix() for p in files}
    assert written and all(any(w.startswith(f + "/") for f in folders) for w in written), sorted(written)
    assert f"chapters/{chapter}/__init__.py" in written and f"docs/{chapter}/probe.en.md" in written


def test_a_new_lesson_in_a_planned_chapter_builds_strict_and_keeps_the_lesson_rules(project_copy):
    root = project_copy()   # the built session project: results, registry and executed notebooks as they are
    chapter = planned_chapter()
    before = snapshot(root)
    make = subprocess.run(["make", "--no-print-directory", "new-lesson", f"ID={chapter}-1", "SLUG=probe",
                           "STAMP=", f"PY={sys.executable}"], cwd=root, capture_output=True, text=True)
    assert make.returncode == 0, make.stdout + make.stderr
    after = snapshot(root)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    folders = (f"lessons/{chapter}_probe/", f"chapters/{chapter}/", f"docs/{chapter}/")
    assert changed and all(c.startswith(folders) for c in changed), f"outside the lesson's folders: {changed}"

    r = run_build(root, *SESSION_BUILD)   # mkdocs.yml is strict (--frozen, or the draft build while drafting)
    assert r.returncode == 0, r.stdout + r.stderr
    executed = [line for line in r.stdout.splitlines() if line.strip().startswith("execute ")]
    assert not executed, f"a new lesson re-executed another lesson's notebook: {executed}"
    site = root / "site"
    import json
    course_map = json.loads((root / "data" / "course-map.json").read_text(encoding="utf-8"))
    title = next(ch["title"] for ch in course_map["chapters"] if ch["id"] == chapter)
    for lang, prefix in (("zh", ""), ("en", "en/")):
        lesson = site / prefix / chapter / "probe" / "index.html"
        assert lesson.exists(), f"{lesson} was not built"
        home = (site / prefix / "index.html").read_text(encoding="utf-8")
        # the planned chapter's title, in the navigation and the home page's contents, linked to its overview
        assert f'href="{chapter}/">{chapter.upper()} {title[lang]}</a>' in home, f"{lang}: no {chapter} in the contents"
        assert f'href="{chapter}/probe/"' in home, f"{lang}: the lesson is not in the navigation"
        overview = (site / prefix / chapter / "index.html").read_text(encoding="utf-8")
        assert 'href="probe/"' in overview, f"{lang}: the chapter's overview does not list its lesson"

    # the fast tier's lesson rules hold for the new lesson too (what `make check` runs on it)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_TESTRUNUID")}
    check = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:xdist",
                            "-m", "not build and not browser and not slow",
                            "tests/test_lessons_contract.py", "tests/test_nav.py", "tests/test_references.py"],
                           cwd=root, capture_output=True, text=True, env=env, timeout=600)
    assert check.returncode == 0, check.stdout[-4000:] + check.stderr[-2000:]
    assert "[probe]" in check.stdout, "the lesson rules did not run on the new lesson"
