#!/usr/bin/env python3
"""Build the course: validate → measurements → numbers → figures → notebooks → site.

Each stage reruns only when the hash of its inputs (code and data) changed since it last succeeded;
every output is written atomically, so a failed build leaves the previous site, figures and results
as they were. The stages' work lives in course/ (core, chapter), lessons/ and models/, never here.

    python build.py                 build what changed, then the site
    python build.py --rerun numbers force one stage (and whatever its new outputs change)
    python build.py --no-site       stop before the site
    python build.py --frozen        never train: fail, naming each result that is stale or missing
    python build.py --no-train      never train: report stale or missing results, build with what is there
    python build.py --draft         while writing a lesson: unknown keys show as ⟨key?⟩, failing claims warn

`mkdocs serve` (and a bare `mkdocs build`) runs the CHEAP stages itself through run_stages, never training,
when their inputs changed or their outputs are missing (course/core/hook.py).
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
from typing import Callable, Optional

from course.core.files import hash_files, write_atomic
from course.core.paths import BUILD, PLOTLY_JS, REGISTRY, ROOT, SITE, STAGE_STATE


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
    # a stage that knows its inputs better than a list of files keys itself (the notebooks: what each one read)
    key: Optional[Callable[[], str]] = None
    # the measurements under --frozen or --no-train are not made but checked against what these return (the
    # committed results): those are inputs then, and a missing output is what the check reports, not a reason to rerun
    checked: Optional[Callable[[], list[Path]]] = None

    def checking(self, args) -> bool:
        return self.checked is not None and bool(policy(args))

    def state_name(self, args) -> str:
        """Where its key is kept: a check keeps its own entry, so switching between `--frozen` and a plain
        build does not redo either."""
        return f"{self.name}:{policy(args)}" if self.checking(args) else self.name

    def digest(self, args) -> str:
        if self.key:
            return self.key()
        inputs = self.inputs() + (self.checked() if self.checking(args) else [])
        return hash_files(inputs, ROOT, extra=self.state_name(args))

    def fresh(self, args, state: dict, digest: str) -> bool:
        if self.name in args.rerun or "all" in args.rerun or state.get(self.state_name(args)) != digest:
            return False
        return self.checking(args) or all(p.exists() for p in self.outputs())


def policy(args) -> str:
    """The measurement policy: '' (train what is stale), 'frozen' or 'no-train'."""
    return "frozen" if args.frozen else "no-train" if args.no_train else ""


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
    from course.core.figures import figure_files
    return figure_files([f.name for _, f in units().figures()])


def measurement_outputs() -> list[Path]:
    from models.measure import expected_outputs
    return expected_outputs(ROOT)


def run_notebooks(args) -> str:
    from course.core.notebooks import execute_stale
    return execute_stale(force=bool({"notebooks", "all"} & set(args.rerun)))


def notebook_outputs() -> list[Path]:
    from course.core.notebooks import executed_path, sources
    return [executed_path(p) for p in sources()]


def notebook_key() -> str:
    from course.core.notebooks import stage_key
    return stage_key()


STAGES = [
    Stage("validate", lambda: files(*CHAPTER_DATA, *LESSON_DATA, *CODE), run_validate),
    # inputs of the runs only: a data file the small model does not read never retrains it
    Stage("measurements", lambda: files("models/*.py", "models/experiments.json"), run_measurements,
          measurement_outputs, checked=lambda: files(*RESULTS)),
    Stage("numbers", lambda: files(*CHAPTER_DATA, *LESSON_DATA, *RESULTS, *CODE), run_numbers, lambda: [REGISTRY]),
    # a figure may draw from the chapter's inputs too (the anchor's parameter ledger), not only from results
    Stage("figures", lambda: files(*CHAPTER_DATA, *RESULTS, *CODE) + [PLOTLY_JS], run_figures, figure_outputs),
    # each notebook is keyed on its own source and on what it read when it last ran (course/core/notebooks.py)
    Stage("notebooks", lambda: files("docs/**/*.ipynb"), run_notebooks, notebook_outputs, key=notebook_key),
]
CHEAP = ("validate", "measurements", "numbers", "figures")  # what `mkdocs serve` refreshes by itself


def run_stages(args: argparse.Namespace, names: tuple[str, ...] | None = None) -> list[tuple[str, str, float, str]]:
    """Run each stage (of `names`, else all) whose inputs changed since it last succeeded; return
    (stage, 'ran' | 'cached', seconds, note) for each. A stage that fails raises, leaving its old outputs."""
    state = json.loads(STAGE_STATE.read_text()) if STAGE_STATE.exists() else {}
    notes = state.setdefault("notes", {})
    summary = []
    for stage in STAGES:
        if names is not None and stage.name not in names:
            continue
        t0 = time.perf_counter()
        digest = stage.digest(args)
        if stage.fresh(args, state, digest):
            summary.append((stage.name, "cached", time.perf_counter() - t0, notes.get(stage.state_name(args), "")))
            continue
        print(f"[{stage.name}] running", flush=True)
        note = stage.run(args)
        # the notebooks learn what they read by running: key them on that
        state[stage.state_name(args)] = stage.digest(args) if stage.key else digest
        notes[stage.state_name(args)] = note
        BUILD.mkdir(exist_ok=True)
        write_atomic(STAGE_STATE, json.dumps(state, indent=1, ensure_ascii=False) + "\n")
        summary.append((stage.name, "ran", time.perf_counter() - t0, note))
    return summary


def failure(e: Exception) -> str:
    """One readable line for a build that stopped: what kind of problem, and the message."""
    from course.core.schema import InputError
    kind = "input error" if isinstance(e, InputError) else "stale results" if isinstance(e, StaleResults) \
        else "build failed"
    return f"{kind}: {e}"


def serving_args(draft: bool) -> argparse.Namespace:
    """What `mkdocs serve` builds with: never training (a stale result is reported, the committed one used)."""
    return argparse.Namespace(rerun=[], no_site=True, frozen=False, no_train=True, draft=draft)


# ---------------------------------------------------------------- the site

def build_site(strict: bool = True) -> str:
    """mkdocs build into a temporary folder, then swap it in: site/ is never half-written."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    tmp, old = SITE.with_name("site.tmp"), SITE.with_name("site.old")
    for p in (tmp, old):
        shutil.rmtree(p, ignore_errors=True)
    os.environ["COURSE_STAGES_CURRENT"] = "1"  # the hook need not check the stages this build has just run
    try:
        cfg = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp), strict=strict)
        build(cfg)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        os.environ.pop("COURSE_STAGES_CURRENT", None)
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
    try:
        summary = run_stages(args)
        if not args.no_site:
            t0 = time.perf_counter()
            note = build_site()
            summary.append(("site", "ran", time.perf_counter() - t0, note))
    except Exception as e:  # every failure ends in one readable message and exit code 2
        print(f"\n{failure(e)}", file=sys.stderr)
        print("nothing was overwritten: site/, figures/ and results are as before", file=sys.stderr)
        return 2
    print("\nstage          status   seconds  note")
    for name, status, secs, note in summary:
        print(f"{name:<14} {status:<8} {secs:7.2f}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
