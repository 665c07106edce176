#!/usr/bin/env python3
"""Build the course: validate → measurements → numbers → figures → notebooks → site.

A thin command line over the core (course/core/pipeline.py runs the stages, each only when what it read
or the code it runs changed; course/mkdocs_plugin.py adapts MkDocs for the site). Every output is written
atomically and site/ is swapped in whole, so a failed build leaves the previous site as it was.

    python build.py                 build what changed, then the site
    python build.py --rerun numbers force one stage (and whatever its new outputs change)
    python build.py --no-site       stop before the site
    python build.py --frozen        never train: fail, naming each result that is stale or missing
    python build.py --no-train      never train: report stale or missing results, build with what is there
    python build.py --draft         while writing a lesson: unknown keys show as ⟨key?⟩, failing claims warn

`mkdocs serve` (and a bare `mkdocs build`) runs the cheap stages itself, never training.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shutil
import sys
import time

from course.core.errors import KnownError, describe_failure
from course.core.pipeline import STAGES, Options, Outcome, Pipeline
from course.project import PROJECT


@contextlib.contextmanager
def environment(**values: str | None):
    """The process's environment with `values` set (None: unset), and as it was afterwards."""
    def put(items) -> None:
        for k, v in items:
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    before = [(k, os.environ.get(k)) for k in values]
    put(values.items())
    try:
        yield
    finally:
        put(before)


def build_site(draft: bool, strict: bool = True) -> str:
    """mkdocs build into a temporary folder, then swap it in: site/ is never half-written."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    site = PROJECT.paths.site
    tmp, old = site.with_name("site.tmp"), site.with_name("site.old")
    for p in (tmp, old):
        shutil.rmtree(p, ignore_errors=True)
    try:
        # --draft is the site's COURSE_DRAFT (mkdocs.yml's `draft` of the course plugin), set while the
        # configuration is read; the plugin checks the cheap stages itself and finds them current
        with environment(COURSE_DRAFT="true" if draft else None):
            cfg = load_config(str(PROJECT.paths.root / "mkdocs.yml"), site_dir=str(tmp), strict=strict)
        build(cfg)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if site.exists():
        site.rename(old)
    tmp.rename(site)
    shutil.rmtree(old, ignore_errors=True)
    return f"{sum(1 for _ in site.rglob('index.html'))} pages in site/"


def what_was_kept(pipeline: Pipeline, checked: bool) -> str:
    """What a failed build left on disk, said as it is (site/ is swapped in only when the site is built;
    `checked`: the measurements were only checked, not made)."""
    outputs = {"measurements": "results", "numbers": "the registry", "figures": "figures/",
               "notebooks": "the executed notebooks"}
    renewed = [outputs[s] for s in pipeline.ran if s in outputs and not (s == "measurements" and checked)]
    said = "site/ is as before"
    if renewed:
        said += f"; rebuilt before the failure (and current): {', '.join(renewed)}"
    return said + "; every other output is as before"


def show_progress() -> None:
    """The core's messages (a stage starting, a number that changed, a notebook executed) go to this
    command's standard output as they come, as plain lines: they are what a build reports while it runs.
    The failure and the stages' table below are the command's result, printed."""
    core = logging.getLogger("course")
    if not core.handlers:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("%(message)s"))
        core.addHandler(handler)
        core.setLevel(logging.INFO)
        core.propagate = False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rerun", action="append", default=[], choices=list(STAGES) + ["all"], metavar="STAGE",
                    help=f"rerun a stage even if its inputs are unchanged: {', '.join(STAGES)} or all")
    ap.add_argument("--no-site", action="store_true", help="stop before building the site")
    ap.add_argument("--frozen", action="store_true", help="never train; fail if a result is stale or missing")
    ap.add_argument("--no-train", action="store_true", help="never train; report stale results, use what is there")
    ap.add_argument("--draft", action="store_true", help="unknown keys as ⟨key?⟩ and failing claims as warnings")
    args = ap.parse_args(argv)
    show_progress()
    options = Options(rerun=frozenset(args.rerun), frozen=args.frozen, no_train=args.no_train, draft=args.draft)
    pipeline = Pipeline(PROJECT)
    try:
        summary = pipeline.run(options)
        if not args.no_site:
            t0 = time.perf_counter()
            note = build_site(args.draft)
            summary.append(Outcome("site", "ran", time.perf_counter() - t0, note))
    except Exception as e:
        print(f"\n{describe_failure(e)}", file=sys.stderr)
        print(("" if isinstance(e, KnownError) else "\n") + what_was_kept(pipeline, bool(options.policy)), file=sys.stderr)
        return 2
    print("\nstage          status   seconds  note")
    for o in summary:
        print(f"{o.stage:<14} {o.status:<8} {o.seconds:7.2f}  {o.note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
