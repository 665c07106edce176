#!/usr/bin/env python3
"""Time a warm no-op `python build.py` against a bare `mkdocs build` of the same site (a script, not a test).

Both run as fresh processes, after one warm-up each, alternating so drift hits both alike;
prints the medians, the spread and the ratio (goal: ≤ 1.5×). The build never trains: it runs with
--frozen, or with --no-train --draft given --draft (while results are missing).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's packages, before any editable install's

from course.paths import ROOT
REPS = 7


def timed(cmd: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def main() -> None:
    draft = "--draft" in sys.argv[1:]
    py = sys.executable
    mkdocs = str(Path(py).parent / "mkdocs")
    out = tempfile.mkdtemp(prefix="bare-site-")
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_DRAFT", "COURSE_TEST_BUILD")}
    bare_env = {**env, "COURSE_DRAFT": "1"} if draft else env
    build = [py, "build.py", *(("--no-train", "--draft") if draft else ("--frozen",))]
    bare = [mkdocs, "build", "--strict", "--quiet", "--site-dir", out]
    timed(build, env), timed(bare, bare_env)  # warm-up: caches filled, nothing left to recompute
    a, b = [], []
    for _ in range(REPS):
        a.append(timed(build, env))
        b.append(timed(bare, bare_env))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"warm no-op build.py : median {ma:.2f} s  (min {min(a):.2f}, max {max(a):.2f}, n={REPS})")
    print(f"bare mkdocs build   : median {mb:.2f} s  (min {min(b):.2f}, max {max(b):.2f}, n={REPS})")
    print(f"ratio               : {ma / mb:.2f}x  (goal <= 1.5x)")


if __name__ == "__main__":
    main()
