#!/usr/bin/env python3
"""How long does `make refresh` take on this machine, chapter by chapter? (A script, not a test.)

Retraining every result takes hours, so this times a sample and scales it. For each kind of run in
models/experiments.json (its depth, whether it records a trace, whether it trains at all), one run of that
kind trains for --steps steps, --reps times, two processes side by side on one thread each, as the refresh
runs them (models/measure.py); the median time per step, times each run's steps, plus the median time of a
run that only probes its initialization (loading the corpus and the model, the probes, the write-up), gives
each run's estimated time. The sum over runs and seeds, divided by the two workers, estimates the refresh of
each chapter's runs. Run it on an idle machine: other work stretches every figure.

    .venv/bin/python scripts/time_refresh.py [--steps 40] [--reps 3]
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.measure import ALLOCATOR, experiments, worker_environment  # noqa: E402


def kind(cfg) -> tuple:
    return (cfg.n_layer, bool(cfg.trace_steps), cfg.max_steps == 0)


def timed(args: tuple[str, int]) -> float:
    """Seconds for one run of `name` cut to `steps` steps, in this process on one thread."""
    name, steps = args
    import torch
    torch.set_num_threads(1)
    from models.train import train
    cfg = experiments(ROOT).config(name)
    cfg = cfg.model_copy(update={"max_steps": min(cfg.max_steps, steps)})
    t0 = time.perf_counter()
    train(name, cfg, progress=False)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    exp = experiments(ROOT)
    kinds: dict[tuple, str] = {}
    for name in exp.runs:
        kinds.setdefault(kind(exp.config(name)), name)
    probe = next((n for k, n in kinds.items() if k[2]), None)
    jobs = [(n, args.steps) for n in kinds.values() for _ in range(args.reps)]
    if probe is None:
        jobs += [(next(iter(exp.runs)), 0)] * args.reps
    print(f"{len(kinds)} kinds of run, {args.reps} × {args.steps} steps each, 2 processes of 1 thread "
          f"(allocator: {', '.join(ALLOCATOR)})", flush=True)
    with worker_environment(), mp.get_context("spawn").Pool(2) as pool:
        pool.map(timed, [(probe or jobs[-1][0], 0)] * 2)   # warm-up: imports, the corpus, the page cache
        times = pool.map(timed, jobs)
    by_name: dict[str, list[float]] = {}
    for (name, steps), t in zip(jobs, times):
        by_name.setdefault(name if steps else "(probe)", []).append(t)
    fixed = statistics.median(by_name[probe or "(probe)"])
    per_step = {}
    for k, name in kinds.items():
        ts = by_name[name]
        if not k[2]:
            per_step[k] = (statistics.median(ts) - fixed) / args.steps
            print(f"  {name:<34} {k[0]:>2} layers{' traced' if k[1] else '':<7} "
                  f"{1000 * per_step[k]:6.1f} ms/step (median of {len(ts)}, {min(ts):.1f}–{max(ts):.1f} s)")
    print(f"  a run that trains nothing: {fixed:.1f} s (median)")
    chapters: dict[str, float] = {}
    for name in exp.runs:
        cfg = exp.config(name)
        est = fixed + (0 if cfg.max_steps == 0 else per_step[kind(cfg)] * cfg.max_steps)
        chapter = name.split("_")[0] if name.startswith("c8") else "c4"
        chapters[chapter] = chapters.get(chapter, 0.0) + est * len(exp.seeds)
    for chapter, total in chapters.items():
        print(f"  {chapter.upper()}'s results: {total / 2 / 60:.0f} min with two workers ({total / 60:.0f} min of one core)")
    print(f"  all results: {sum(chapters.values()) / 2 / 60:.0f} min with two workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
