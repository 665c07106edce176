#!/usr/bin/env python3
"""Build the course: validate → measurements → numbers → figures → notebooks → site.

Each stage reruns only when the hash of its inputs (code and data) changed since it last succeeded;
every output is written atomically, so a failed build leaves the previous site, figures and results
as they were. The stages' work lives in course/ (core, chapter), lessons/ and models/, never here.

    python build.py                 build what changed, then the site
    python build.py --rerun numbers force one stage (and whatever its new outputs change)
    python build.py --no-site       stop before the site (make serve lets `mkdocs serve` build it)
    python build.py --frozen        never train: fail, naming each result that is stale or missing
    python build.py --no-train      never train: report stale or missing results, build with what is there
    python build.py --draft         while writing a lesson: unknown keys show as ⟨key?⟩, failing claims warn
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

from course.core.paths import BUILD, FIGURES, REGISTRY, ROOT, SITE, STAGE_STATE


def files(*patterns: str) -> list[Path]:
    return [p for pat in patterns for p in ROOT.glob(pat) if p.is_file() and "__pycache__" not in p.parts]


CODE = ("course/**/*.py", "lessons/**/*.py")
LESSON_DATA = ("lessons/**/*.json",)
CHAPTER_DATA = ("data/*.json", "models/experiments.json", "models/config.py")
RESULTS = ("data/results/**/*.json",)


@dataclass
class Stage:
    name: str
    inputs: Callable[[], list[Path]]
    run: Callable[[argparse.Namespace], str]  # returns a one-line summary
    outputs: Callable[[], list[Path]] = lambda: []


class StaleResults(RuntimeError):
    pass


# ---------------------------------------------------------------- the stages

def units():
    from course.core.units import discover
    return discover()


def run_validate(args) -> str:
    return "; ".join(u.validate() for u in units().all if u.validate)


def run_measurements(args) -> str:
    from models.measure import refresh, stale
    if args.frozen or args.no_train:
        found = stale(ROOT)
        if not found:
            return "all results current"
        lines = [f"{path}: {why}" for path, why in found.items()]
        if args.frozen:
            raise StaleResults(f"{len(found)} result(s) stale or missing (run `make refresh` and commit):\n    "
                               + "\n    ".join(lines))
        for line in lines:
            print(f"    stale    {line}")
        return f"{len(found)} stale or missing, kept as committed (--no-train)"
    return refresh(ROOT, force=bool({"measurements", "all"} & set(args.rerun)))


def run_numbers(args) -> str:
    from course.chapter.schema import load_inputs
    from course.core.claims import ClaimError
    from course.core.numbers import build_registry, check_all_claims
    from course.core.registry import changes
    us = units()
    reg = build_registry(us, load_inputs())
    try:
        claims = check_all_claims(us, reg)  # a reading note our results no longer support stops the build here
    except ClaimError as e:
        if not args.draft:
            raise
        print(f"    draft: {e}")
        claims = "not all"
    old = json.loads(REGISTRY.read_text(encoding="utf-8")) if REGISTRY.exists() else {}
    new = reg.to_json()
    reg.write(REGISTRY)
    diff = changes(old, new) if old else []
    for line in diff[:200]:
        print(f"    changed  {line}")
    if len(diff) > 200:
        print(f"    ... and {len(diff) - 200} more")
    return (f"{len(new)} numbers, {claims} claims hold"
            + (f", {len(diff)} changed since the previous build" if old else " (first build)"))


def run_figures(args) -> str:
    from course.chapter.measured import load_results
    from course.core.figures import write_figures
    return f"{len(write_figures(units(), load_results()))} figures"


def figure_outputs() -> list[Path]:
    return [FIGURES / f"{f.name}.json" for _, f in units().figures()]


def measurement_outputs() -> list[Path]:
    from models.measure import expected_outputs
    return expected_outputs(ROOT)


def run_notebooks(args) -> str:
    from course.core.notebooks import execute_all
    return execute_all()


def notebook_outputs() -> list[Path]:
    from course.core.notebooks import executed_path, sources
    return [executed_path(p) for p in sources()]


STAGES = [
    Stage("validate", lambda: files(*CHAPTER_DATA, *LESSON_DATA, *CODE), run_validate),
    # inputs of the runs only: a data file the small model does not read never retrains it
    Stage("measurements", lambda: files("models/*.py", "models/experiments.json"), run_measurements,
          measurement_outputs),
    Stage("numbers", lambda: files(*CHAPTER_DATA, *LESSON_DATA, *RESULTS, *CODE), run_numbers, lambda: [REGISTRY]),
    # a figure may draw from the chapter's inputs too (the anchor's parameter ledger), not only from results
    Stage("figures", lambda: files(*CHAPTER_DATA, *RESULTS, *CODE), run_figures, figure_outputs),
    Stage("notebooks", lambda: files("docs/**/*.ipynb", "course/core/notebooks.py", "course/core/lab.py")
          + [REGISTRY], run_notebooks, notebook_outputs),
]


# ---------------------------------------------------------------- the site

def build_site(strict: bool = True) -> str:
    """mkdocs build into a temporary folder, then swap it in: site/ is never half-written."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    tmp, old = SITE.with_name("site.tmp"), SITE.with_name("site.old")
    for p in (tmp, old):
        shutil.rmtree(p, ignore_errors=True)
    try:
        cfg = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp), strict=strict)
        build(cfg)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if SITE.exists():
        SITE.rename(old)
    tmp.rename(SITE)
    shutil.rmtree(old, ignore_errors=True)
    pages = sum(1 for _ in SITE.rglob("index.html"))
    return f"{pages} pages in site/"


# ---------------------------------------------------------------- orchestration

def main(argv: list[str] | None = None) -> int:
    names = [s.name for s in STAGES] + ["site"]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rerun", action="append", default=[], choices=names + ["all"], metavar="STAGE",
                    help=f"rerun a stage even if its inputs are unchanged: {', '.join(names)} or all")
    ap.add_argument("--no-site", action="store_true", help="stop before building the site")
    ap.add_argument("--frozen", action="store_true", help="never train; fail if a result is stale or missing")
    ap.add_argument("--no-train", action="store_true", help="never train; report stale results, use what is there")
    ap.add_argument("--draft", action="store_true", help="unknown keys as ⟨key?⟩ and failing claims as warnings")
    args = ap.parse_args(argv)
    if args.draft:
        os.environ["COURSE_DRAFT"] = "1"
    else:
        os.environ.pop("COURSE_DRAFT", None)  # a real build never renders draft placeholders
    from course.core.files import hash_files
    from course.core.schema import InputError

    state = json.loads(STAGE_STATE.read_text()) if STAGE_STATE.exists() else {}
    summary: list[tuple[str, str, float, str]] = []
    try:
        for stage in STAGES:
            t0 = time.perf_counter()
            # the measurement policy is part of that stage's key: a --no-train pass never hides a stale result
            policy = "frozen" if args.frozen else "no-train" if args.no_train else ""
            digest = hash_files(stage.inputs(), ROOT, extra=stage.name + (policy if stage.name == "measurements" else ""))
            fresh = (state.get(stage.name) == digest and all(p.exists() for p in stage.outputs())
                     and stage.name not in args.rerun and "all" not in args.rerun)
            if fresh:
                summary.append((stage.name, "cached", time.perf_counter() - t0, ""))
                continue
            print(f"[{stage.name}] running", flush=True)
            note = stage.run(args)
            if not (stage.name == "measurements" and "stale or missing" in note):
                state[stage.name] = digest
            BUILD.mkdir(exist_ok=True)
            from course.core.files import write_atomic
            write_atomic(STAGE_STATE, json.dumps(state, indent=1) + "\n")
            summary.append((stage.name, "ran", time.perf_counter() - t0, note))
        if not args.no_site:
            t0 = time.perf_counter()
            note = build_site()
            summary.append(("site", "ran", time.perf_counter() - t0, note))
    except Exception as e:  # every failure ends in one readable message and exit code 2
        kind = "input error" if isinstance(e, InputError) else "stale results" if isinstance(e, StaleResults) \
            else "build failed"
        print(f"\n{kind}: {e}", file=sys.stderr)
        print("nothing was overwritten: site/, figures/ and results are as before", file=sys.stderr)
        return 2
    print("\nstage          status   seconds  note")
    for name, status, secs, note in summary:
        print(f"{name:<14} {status:<8} {secs:7.2f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
