#!/usr/bin/env python3
"""How long does `make refresh` take on this machine, chapter by chapter? (A script, not a test.)

Retraining every result takes hours, so this times a sample and scales it. For each kind of run in
models/experiments.json (its depth, whether it records a trace, whether it trains at all), one run of that
kind trains for --steps and for 3 × --steps steps, --reps times each, two processes side by side on one thread
each, as the refresh runs them (models/measure.py). The difference of the two medians gives the time per step;
what is left of the shorter run is the run's fixed cost (loading the corpus and the model, the first steps'
warm-up, the probes, the write-up). Each run's estimate is its fixed cost plus its steps at that rate (a run
that only probes its initialization: the median of such runs). The sum over runs and seeds, divided by the two workers, estimates the refresh of
each chapter's runs. Run it on an idle machine: other work stretches every figure.

    .venv/bin/python scripts/time_refresh.py [--steps 20] [--reps 1]
    .venv/bin/python scripts/time_refresh.py --recorded

--recorded trains nothing: it reads the wall time each committed result recorded when it was trained
(`timing.wall_s`, data/results/cpu/RUN/seedS.json) and gives, per kind of run, the fastest, the median and
the slowest, and each chapter's refresh at the fastest and at the median rates. On a machine shared with other
work the fastest runs are the nearest to an idle machine's. A run that only probes its initialization records
no wall time; the sampled figure (a few seconds each) is left out of these totals.
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
    """What sets a run's cost per step: its depth, whether it records per-update traces or probes, and
    whether it trains at all (max_steps 0 only probes the initialization)."""
    return (cfg.n_layer, bool(cfg.trace_steps or cfg.probe_steps), cfg.max_steps == 0)


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


def chapter_of(name: str) -> str:
    """c3_* → C3, c8_* → C8; the C4 lessons' runs are named c1_, c2_, c4_, c4g_."""
    return name.split("_")[0] if name.startswith(("c3", "c8")) else "c4"


def label(k: tuple) -> str:
    layers, records, steps = k
    return f"{layers}-layer run of {steps} steps" + (" recording its first updates" if records else "")


def recorded() -> int:
    """The committed results' own wall times, by kind of run, and what they add up to for each chapter's
    refresh (the sum of its results' wall times over two workers)."""
    import json
    exp = experiments(ROOT)
    walls: dict[tuple, list[float]] = {}
    total: dict[str, float] = {}
    probes: dict[str, int] = {}
    for name in exp.runs:
        cfg = exp.config(name)
        k = kind(cfg)[:2] + (cfg.max_steps,)
        for seed in exp.seeds:
            path = ROOT / "data" / "results" / "cpu" / name / f"seed{seed}.json"
            result = json.loads(path.read_text(encoding="utf-8"))
            if cfg.max_steps == 0:
                probes[chapter_of(name)] = probes.get(chapter_of(name), 0) + 1
                continue
            walls.setdefault(k, []).append(result["timing"]["wall_s"])
            total[chapter_of(name)] = total.get(chapter_of(name), 0.0) + result["timing"]["wall_s"]
    print("wall time each committed result recorded when it was trained, one thread per run, two runs side by side")
    for k, ws in sorted(walls.items()):
        print(f"  a {label(k)}: {len(ws):>3} results, fastest {min(ws):.0f} s, median {statistics.median(ws):.0f} s, "
              f"slowest {max(ws):.0f} s")
    for chapter in sorted(total):
        n = probes.get(chapter, 0)
        print(f"  {chapter.upper()}'s results: {total[chapter] / 2 / 60:.0f} min with two workers, as recorded"
              + (f" (and {n} init-only probes, not recorded)" if n else ""))
    print(f"  all: {sum(total.values()) / 2 / 60:.0f} min")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--recorded", action="store_true", help="read the committed results' wall times; train nothing")
    args = ap.parse_args()
    if args.recorded:
        return recorded()
    exp = experiments(ROOT)
    kinds: dict[tuple, str] = {}
    for name in exp.runs:
        kinds.setdefault(kind(exp.config(name)), name)
    trained = [n for k, n in kinds.items() if not k[2]]
    jobs = [(n, steps) for n in trained for steps in (args.steps, 3 * args.steps) for _ in range(args.reps)]
    jobs += [(n, 0) for k, n in kinds.items() if k[2] for _ in range(args.reps)]
    print(f"{len(kinds)} kinds of run, {args.reps} × {args.steps} and {3 * args.steps} steps, 2 processes of 1 thread "
          f"(allocator: {', '.join(ALLOCATOR)})", flush=True)
    with worker_environment(), mp.get_context("spawn").Pool(2) as pool:
        pool.map(timed, [(trained[0], 0)] * 2)   # warm-up: imports, the corpus, the page cache
        times = pool.map(timed, jobs)
    by_job: dict[tuple[str, int], list[float]] = {}
    for job, t in zip(jobs, times):
        by_job.setdefault(job, []).append(t)
    probe_s = statistics.median(t for (n, steps), ts in by_job.items() if steps == 0 for t in ts)
    per_step, fixed = {}, {}
    for k, name in kinds.items():
        if k[2]:
            continue
        short, long = (statistics.median(by_job[(name, s)]) for s in (args.steps, 3 * args.steps))
        per_step[k] = (long - short) / (2 * args.steps)
        fixed[k] = short - args.steps * per_step[k]
        spread = [f"{min(by_job[(name, s)]):.1f}–{max(by_job[(name, s)]):.1f}" for s in (args.steps, 3 * args.steps)]
        print(f"  {name:<34} {k[0]:>2} layers{' records' if k[1] else '':<8} {1000 * per_step[k]:6.1f} ms/step, "
              f"{fixed[k]:.1f} s fixed (medians of {args.reps}: {short:.1f} s and {long:.1f} s; "
              f"{spread[0]} s and {spread[1]} s)")
    probes = [t for (n, steps), ts in by_job.items() if steps == 0 for t in ts]
    print(f"  a run that only probes its initialization: {probe_s:.1f} s (median; {min(probes):.1f}–{max(probes):.1f} s)")
    chapters: dict[str, float] = {}
    for name in exp.runs:
        cfg = exp.config(name)
        est = probe_s if cfg.max_steps == 0 else fixed[kind(cfg)] + per_step[kind(cfg)] * cfg.max_steps
        chapter = chapter_of(name)
        chapters[chapter] = chapters.get(chapter, 0.0) + est * len(exp.seeds)
    for chapter, total in chapters.items():
        print(f"  {chapter.upper()}'s results: {total / 2 / 60:.0f} min with two workers ({total / 60:.0f} min of one core)")
    print(f"  all results: {sum(chapters.values()) / 2 / 60:.0f} min with two workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
