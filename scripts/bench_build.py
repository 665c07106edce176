#!/usr/bin/env python3
"""Time a warm no-op `python build.py` against a bare `mkdocs build` of the same site (a script, not a test).

Both run as fresh processes, after one warm-up each, alternating so drift hits both alike;
prints the medians, the spread and the ratio (goal: ≤ 1.5×).
"""
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from course.core.paths import ROOT
REPS = 7


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    py = sys.executable
    mkdocs = str(Path(py).parent / "mkdocs")
    out = tempfile.mkdtemp(prefix="bare-site-")
    build = [py, "build.py"]
    bare = [mkdocs, "build", "--strict", "--quiet", "--site-dir", out]
    timed(build), timed(bare)  # warm-up: caches filled, nothing left to recompute
    a, b = [], []
    for _ in range(REPS):
        a.append(timed(build))
        b.append(timed(bare))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"warm no-op build.py : median {ma:.2f} s  (min {min(a):.2f}, max {max(a):.2f}, n={REPS})")
    print(f"bare mkdocs build   : median {mb:.2f} s  (min {min(b):.2f}, max {max(b):.2f}, n={REPS})")
    print(f"ratio               : {ma / mb:.2f}x  (goal <= 1.5x)")


if __name__ == "__main__":
    main()
