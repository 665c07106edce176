#!/usr/bin/env python3
"""Execute each hands-on notebook once, as the build does, and report its wall time (a script, not a test).

    python scripts/time_notebooks.py            every notebook under docs/, full settings (what the build runs)
    python scripts/time_notebooks.py --quick    with COURSE_LAB_QUICK=1 (the tests' settings)
    python scripts/time_notebooks.py docs/c4/normalization-lab.en.ipynb

Each notebook runs as the build runs it: its answer key (course/core/notebooks.py). Per notebook it prints
the wall time from kernel start to the last cell, the CPU time the kernel used (user + system: a shared
machine's load stretches the wall time far more than this), the load average before and after, and its
slowest cells (the times nbclient records for each cell). Nothing is written: the executed copies are
dropped. Exits 1 if a notebook fails or takes longer than --budget seconds of wall time (the goal: 20 s
per language on the 2-core build machine when nothing else runs on it).
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's code, before any installed copy
from course.core.notebooks import execute, sources  # noqa: E402
from course.paths import relative  # noqa: E402
from course.project import PROJECT  # noqa: E402


def cell_seconds(cell) -> float:
    """How long one executed cell ran, from nbclient's timing metadata."""
    t = cell.get("metadata", {}).get("execution", {})
    try:
        start, end = (datetime.fromisoformat(t[k].replace("Z", "+00:00"))
                      for k in ("iopub.execute_input", "shell.execute_reply"))
    except KeyError:
        return 0.0
    return (end - start).total_seconds()


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min)"


def kernel_cpu() -> float:
    """CPU seconds used by this process's finished children: the kernels, once each is shut down."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def first_line(cell) -> str:
    src = "".join(cell["source"]).strip().splitlines()
    return src[0][:70] if src else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="*", type=Path, help="notebooks to run (default: every one under docs/)")
    ap.add_argument("--quick", action="store_true", help="set COURSE_LAB_QUICK=1, the tests' shorter settings")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds a notebook may take (default 20)")
    ap.add_argument("--slowest", type=int, default=5, help="how many of the slowest cells to list")
    args = ap.parse_args(argv)
    import nbformat

    if args.quick:
        os.environ["COURSE_LAB_QUICK"] = "1"
    else:
        os.environ.pop("COURSE_LAB_QUICK", None)
    paths = [p.resolve() for p in args.notebooks] or sources(PROJECT.paths)
    print(f"{'quick' if args.quick else 'full'} settings, {os.cpu_count()} CPUs, load average {load()}")
    failed = False
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        before = load()
        cpu0 = kernel_cpu()
        t0 = time.perf_counter()
        try:
            execute(nb, path.parent)
        except Exception as e:  # a failing cell: report it, go on with the next notebook
            print(f"{relative(path)}: FAILED after {time.perf_counter() - t0:.1f} s\n{e}")
            failed = True
            continue
        wall = time.perf_counter() - t0
        cpu = kernel_cpu() - cpu0
        over = wall > args.budget
        failed |= over
        print(f"{relative(path)}: {wall:.1f} s wall ({'OVER' if over else 'within'} the {args.budget:.0f} s budget), "
              f"kernel CPU {cpu:.1f} s; load average {before} before, {load()} after")
        timed = sorted(((cell_seconds(c), i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"),
                       key=lambda t: -t[0])
        for seconds, i, c in timed[:args.slowest]:
            print(f"    cell {c.get('id', i)!s:<18} {seconds:6.1f} s  {first_line(c)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
