#!/usr/bin/env python3
"""How long do `make check` and `make test` take on a fresh clone on this machine? (A script, not a test.)

Each repetition clones the committed HEAD into a temporary folder with nothing beside it (as anyone's clone
is), runs the one-time installs (the venv, chromium, axe-core: not timed), then times `make check` and
`make test` there. Prints the medians and the spread, and the count of tests that passed. Run it on an idle
machine: other work stretches every figure. The working tree's uncommitted changes are not in the clone.

    .venv/bin/python scripts/time_tests.py [--reps 3] [--check-only]
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTALLS = ["install", "browser", "node_modules/axe-core/axe.min.js"]


def make(clone: Path, *targets: str, log: Path) -> float:
    """Seconds `make TARGETS` took in the clone; its output goes to `log`; a failure ends the script."""
    t0 = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        r = subprocess.run(["make", *targets], cwd=clone, stdout=out, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"make {' '.join(targets)} failed in {clone} (exit {r.returncode}); its output: {log}")
    return seconds


def passed(log: Path) -> int:
    counts = re.findall(r"(\d+) passed", log.read_text(encoding="utf-8"))
    return int(counts[-1]) if counts else 0


def spread(values: list[float], unit: float, name: str) -> str:
    v = [x / unit for x in values]
    return f"median {statistics.median(v):.1f} {name} ({min(v):.1f}–{max(v):.1f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--check-only", action="store_true", help="time make check alone")
    args = ap.parse_args()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    if subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout.strip():
        print("note: the working tree has uncommitted changes; the clones hold HEAD only", flush=True)
    checks, tests, counts = [], [], {}
    logs = Path(tempfile.mkdtemp(prefix="time-tests-logs-"))
    for rep in range(args.reps):
        with tempfile.TemporaryDirectory(prefix="time-tests-") as tmp:
            clone = Path(tmp) / "main"
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
            make(clone, *INSTALLS, log=logs / f"install-{rep}.log")
            checks.append(make(clone, "check", log=logs / f"check-{rep}.log"))
            counts["check"] = passed(logs / f"check-{rep}.log")
            line = f"  {rep + 1}/{args.reps}: make check {checks[-1]:.1f} s"
            if not args.check_only:
                tests.append(make(clone, "test", log=logs / f"test-{rep}.log"))
                counts["test"] = passed(logs / f"test-{rep}.log")
                line += f", make test {tests[-1] / 60:.1f} min"
            print(line, flush=True)
    print(f"fresh clones of {head}, {args.reps} each, after the one-time installs (logs: {logs}):")
    print(f"  make check: {counts['check']} passed, {spread(checks, 1, 's')}")
    if tests:
        print(f"  make test:  {counts['test']} passed, {spread(tests, 60, 'min')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
