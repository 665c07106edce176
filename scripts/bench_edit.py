#!/usr/bin/env python3
"""Time what an author waits for after editing a number's source (a script, not a test).

In a throwaway copy of the project, built once first, the anchor model's intermediate_size in
data/anchor-model.json is switched back and forth (17,408 ↔ 16,384: the ledger and the FFN lesson's
numbers change, no notebook reads them, nothing trains). An edit of a field the lab notebook reads
(hidden_size, say) also re-executes the notebooks, which this does not time. Measured, each as a median:

1. edit-rebuild: the edit, then `python build.py` as a fresh process, against a bare
   `mkdocs build --strict` of the same site (run right after, when nothing is left to refresh);
   alternating, after one warm-up of each (goal: ratio ≤ 1.5×);
2. serve-reload: under `mkdocs serve`, from saving the edit to the page serving the new number
   (goal: within 5 s);
3. serve-prose: under `mkdocs serve`, from saving a prose edit of one English page (a sentence appended)
   to that page serving it (goal: within 3 s).

    python scripts/bench_edit.py [--reps 5] [--draft]

--draft builds with `--no-train --draft` (and serves with COURSE_DRAFT=1), for while results are missing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's packages and test helpers, before any editable install's
from dev_server import MKDOCS, DevServer  # noqa: E402
from project_copy import copy_project, edit_json  # noqa: E402

SIZES = (16384, 17408)
PAGE = "en/c4/ffn/"


def set_ffn_width(root: Path, value: int) -> None:
    edit_json(root / "data/anchor-model.json", lambda d: d["config"]["text_config"].update(intermediate_size=value))


def timed(cmd: list[str], root: Path, env: dict) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return time.perf_counter() - t0


def summary(name: str, xs: list[float]) -> str:
    return f"{name:<22}: median {statistics.median(xs):6.2f} s  (min {min(xs):.2f}, max {max(xs):.2f}, n={len(xs)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--draft", action="store_true", help="build with --no-train --draft; serve with COURSE_DRAFT=1")
    ap.add_argument("--serve-only", action="store_true", help="skip the edit-rebuild comparison (2 and 3 only)")
    args = ap.parse_args()
    root = copy_project(Path(tempfile.mkdtemp(prefix="bench-edit-")) / "project")
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_DRAFT", "COURSE_TEST_BUILD")}
    build = [sys.executable, "build.py", *(("--no-train", "--draft") if args.draft else ("--frozen",))]
    bare_env = {**env, **({"COURSE_DRAFT": "1"} if args.draft else {})}
    bare = [str(MKDOCS), "build", "--strict", "--quiet", "--site-dir", tempfile.mkdtemp(prefix="bare-site-")]

    timed(build, root, env), timed(bare, root, bare_env)  # warm-up: caches filled, notebooks executed
    if not args.serve_only:
        rebuild, plain = [], []
        for i in range(args.reps):
            set_ffn_width(root, SIZES[i % 2])
            rebuild.append(timed(build, root, env))
            plain.append(timed(bare, root, bare_env))
        print(summary("edit → build.py", rebuild))
        print(summary("bare mkdocs build", plain))
        print(f"{'ratio':<22}: {statistics.median(rebuild) / statistics.median(plain):.2f}x  (goal <= 1.5x)")

    server = DevServer(root, draft=args.draft)
    try:
        server.wait_for(r"Serving on http")
        reload, prose = [], []
        start = json.loads((root / "data/anchor-model.json").read_text(encoding="utf-8"))["config"]["text_config"]
        first = SIZES.index(start["intermediate_size"]) + 1  # never the value the file holds now
        for i in range(args.reps):
            value, mark = SIZES[(first + i) % 2], len(server.lines)
            set_ffn_width(root, value)
            reload.append(server.wait_until_served(PAGE, rf'data-key="anchor\.ffn_width"[^>]*>{value:,}<'))
            server.wait_for(r"Reloading browsers", after=mark, timeout=300)  # the whole rebuild is over
            time.sleep(1)
        page = root / "docs/c4/ffn.en.md"
        text = page.read_text(encoding="utf-8")
        for i in range(args.reps):
            mark = len(server.lines)
            page.write_text(text + f"\nA sentence added by the benchmark, edit {i}.\n", encoding="utf-8")
            prose.append(server.wait_until_served(PAGE, rf"added by the benchmark, edit {i}\."))
            server.wait_for(r"Reloading browsers", after=mark, timeout=300)
            time.sleep(1)
        page.write_text(text, encoding="utf-8")
    finally:
        server.stop()
    print(summary("serve: data edit → page", reload))
    print(summary("serve: prose edit → page", prose))
    print(f"\nmachine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
