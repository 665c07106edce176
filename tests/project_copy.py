"""A throwaway copy of the project, for tests that edit inputs and rebuild."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from course.paths import ROOT

SKIP = {".venv", ".git", "site", "site.tmp", "site.old", ".pytest_cache", "__pycache__", "node_modules"}


def copy_project(dest: Path, source: Path = ROOT, keep_build: bool = False) -> Path:
    """The project's files (not its .git or .venv); with `keep_build`, what the build derived too."""
    skip = SKIP - ({"site"} if keep_build else set())
    shutil.copytree(source, dest, ignore=lambda d, names: [n for n in names if n in skip
                                                           or (not keep_build and d == str(source) and n == ".build")])
    return dest


def fresh_copy(dest: Path, source: Path = ROOT) -> Path:
    """The project as a fresh clone has it: sources and committed results, nothing the build derives."""
    copy_project(dest, source)
    for derived in (".build", "site", "figures"):
        shutil.rmtree(dest / derived, ignore_errors=True)
    return dest


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
