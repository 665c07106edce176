#!/usr/bin/env python3
"""Build the course: validate → measurements → numbers → figures → notebooks → site.

Each stage reruns only when the hash of its inputs (code and data) changed since it last succeeded;
every output is written atomically, so a failed build leaves the previous site, figures and results
as they were. Formulas live in course/, the small model in models/, never here.

    python build.py                 build what changed, then the site
    python build.py --rerun numbers force one stage (and whatever its new outputs change)
    python build.py --no-site       stop before the site (make serve lets `mkdocs serve` build it)
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / ".build"
STATE = BUILD / "stages.json"
REGISTRY = BUILD / "registry.json"


def files(*patterns: str) -> list[Path]:
    return [p for pat in patterns for p in ROOT.glob(pat) if p.is_file() and "__pycache__" not in p.parts]


@dataclass
class Stage:
    name: str
    inputs: Callable[[], list[Path]]
    run: Callable[[argparse.Namespace], str]  # returns a one-line summary
    outputs: Callable[[], list[Path]] = lambda: []


# ---------------------------------------------------------------- the stages

def run_validate(args) -> str:
    from course.schema import load_inputs
    inputs = load_inputs(ROOT)
    return f"{len(inputs.frontier.models)} frontier models, {len(inputs.citations.numbers)} cited numbers"


def run_measurements(args) -> str:
    from models.measure import refresh
    return refresh(ROOT, force=bool({"measurements", "all"} & set(args.rerun)))


def run_numbers(args) -> str:
    from course.claims import check_claims
    from course.numbers import build_registry
    from course.registry import changes
    from course.schema import load_inputs
    reg = build_registry(load_inputs(ROOT))
    claims = check_claims(reg)  # a reading note our results no longer support stops the build here
    old = json.loads(REGISTRY.read_text(encoding="utf-8")) if REGISTRY.exists() else {}
    new = reg.to_json()
    reg.write(REGISTRY)
    diff = changes(old, new) if old else []
    for line in diff:
        print(f"    changed  {line}")
    return (f"{len(new)} numbers, {claims} claims hold"
            + (f", {len(diff)} changed since the previous build" if old else " (first build)"))


def run_figures(args) -> str:
    from course.figures import write_figures
    return f"{len(write_figures(ROOT))} figures"


def figure_outputs() -> list[Path]:
    from course.figures import FIGURES
    return [ROOT / "figures" / f"{name}.json" for name in FIGURES]


def measurement_outputs() -> list[Path]:
    from models.measure import expected_outputs
    return expected_outputs(ROOT)


def run_notebooks(args) -> str:
    from course.notebook import execute_all
    return execute_all()


STAGES = [
    Stage("validate", lambda: files("data/*.json", "models/experiments.json", "course/schema.py"), run_validate),
    # inputs of the runs only: a data file the small model does not read never retrains it
    Stage("measurements", lambda: files("models/*.py", "models/experiments.json"), run_measurements,
          measurement_outputs),
    Stage("numbers", lambda: files("data/*.json", "data/results/*.json", "models/experiments.json", "course/*.py"),
          run_numbers, lambda: [REGISTRY]),
    Stage("figures", lambda: files("data/results/*.json", "course/figures.py", "course/measured.py",
                                   "course/registry.py", "course/schema.py"), run_figures, figure_outputs),
    Stage("notebooks", lambda: files("docs/**/*.ipynb", "course/notebook.py") + [REGISTRY], run_notebooks,
          lambda: [BUILD / "notebooks" / p.relative_to(ROOT / "docs") for p in files("docs/**/*.ipynb")]),
]


# ---------------------------------------------------------------- the site

def build_site(strict: bool = True) -> str:
    """mkdocs build into a temporary folder, then swap it in: site/ is never half-written."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    tmp, old, site = ROOT / "site.tmp", ROOT / "site.old", ROOT / "site"
    for p in (tmp, old):
        shutil.rmtree(p, ignore_errors=True)
    try:
        cfg = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp), strict=strict)
        build(cfg)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if site.exists():
        site.rename(old)
    tmp.rename(site)
    shutil.rmtree(old, ignore_errors=True)
    pages = sum(1 for _ in site.rglob("index.html"))
    return f"{pages} pages in site/"


# ---------------------------------------------------------------- orchestration

def main(argv: list[str] | None = None) -> int:
    names = [s.name for s in STAGES] + ["site"]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rerun", action="append", default=[], choices=names + ["all"], metavar="STAGE",
                    help=f"rerun a stage even if its inputs are unchanged: {', '.join(names)} or all")
    ap.add_argument("--no-site", action="store_true", help="stop before building the site")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.pop("COURSE_DRAFT", None)  # a real build never renders draft placeholders
    from course.files import hash_files, write_atomic

    state = json.loads(STATE.read_text()) if STATE.exists() else {}
    summary: list[tuple[str, str, float, str]] = []
    try:
        for stage in STAGES:
            t0 = time.perf_counter()
            digest = hash_files(stage.inputs(), ROOT, extra=stage.name)
            fresh = (state.get(stage.name) == digest and all(p.exists() for p in stage.outputs())
                     and stage.name not in args.rerun and "all" not in args.rerun)
            if fresh:
                summary.append((stage.name, "cached", time.perf_counter() - t0, ""))
                continue
            print(f"[{stage.name}] running", flush=True)
            note = stage.run(args)
            state[stage.name] = digest
            write_atomic(STATE, json.dumps(state, indent=1) + "\n")
            summary.append((stage.name, "ran", time.perf_counter() - t0, note))
        if not args.no_site:
            t0 = time.perf_counter()
            note = build_site()
            summary.append(("site", "ran", time.perf_counter() - t0, note))
    except Exception as e:  # every failure ends in one readable message and exit code 2
        from course.schema import InputError
        kind = "input error" if isinstance(e, InputError) else "build failed"
        print(f"\n{kind}: {e}", file=sys.stderr)
        print("nothing was overwritten: site/, figures/ and results are as before", file=sys.stderr)
        return 2
    print("\nstage          status   seconds  note")
    for name, status, secs, note in summary:
        print(f"{name:<14} {status:<8} {secs:7.2f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
