"""Keep data/results/ in step with the code: rerun exactly the results whose inputs changed.

A training result is keyed by the hash of the model code (model.py, corpus.py, train.py, config.py), its
run's config with its seed, and the corpus file; a benchmark result by the hash of bench.py and its device.
Editing one run's config reruns that run's seeds only; editing a data file the model does not read (the
anchor's config, say) reruns nothing. Results of a device this machine lacks (a GPU run) are kept and
reported if stale. Independent runs train in parallel processes, one thread each, with a progress bar
per process.

    python -m models.measure                 rerun what is stale
    python -m models.measure --force         rerun everything
    python -m models.measure --only c4_postln --workers 1
    python -m models.measure --list          what is stale, and why; trains nothing
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import queue
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from models.config import Experiments, TrainConfig, load_experiments
from models.results import RESULTS, bench_path, dumps, run_path, stored_hash, write_atomic

ROOT = Path(__file__).resolve().parent.parent
RUN_CODE = ("models/model.py", "models/corpus.py", "models/train.py", "models/config.py")
BENCH_CODE = ("models/bench.py",)


def _sha(root: Path, files: tuple[str, ...], *extra: str) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.encode() + b"\0" + (root / f).read_bytes() + b"\0")
    for e in extra:
        h.update(e.encode() + b"\0")
    return h.hexdigest()


def corpus_sha256() -> str:
    from models.corpus import corpus_path
    return hashlib.sha256(corpus_path().read_bytes()).hexdigest()


def run_hash(root: Path, cfg: TrainConfig, corpus_sha: str | None = None) -> str:
    return _sha(root, RUN_CODE, json.dumps(cfg.model_dump(), sort_keys=True), corpus_sha or corpus_sha256())


def bench_hash(root: Path, device: str) -> str:
    return _sha(root, BENCH_CODE, device)


def devices_here() -> list[str]:
    import torch  # here, not at the top: a warm build that reruns nothing never pays for importing torch
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def git_commit(root: Path) -> str:
    """HEAD, marked '+modified' when the measuring code differs from it: the hash still ties the result
    to the exact code, and the commit then names the nearest committed ancestor."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "models"], cwd=root, capture_output=True,
                               text=True, check=True).stdout.strip()
        return head + ("+modified" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def provenance(root: Path, device: str, seed: int | None) -> dict:
    import torch

    from models.bench import device_name
    return {"device": device, "device_name": device_name(device), "torch": torch.__version__,
            "python": platform.python_version(), "threads": torch.get_num_threads(), "seed": seed,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "commit": git_commit(root)}


def experiments(root: Path) -> Experiments:
    return load_experiments(root)


def run_one(root: Path, name: str, cfg: TrainConfig, out_dir: Path | None = None, quick: bool = False,
            progress=True) -> dict:
    """Train one run of one seed and write its result (under data/results/, or `out_dir` for the tests)."""
    from models.train import quick_config, train
    if quick:
        cfg = quick_config(cfg)
    result = train(name, cfg, progress=progress)
    result = {"hash": run_hash(root, cfg), "quick": quick, "provenance": provenance(root, "cpu", cfg.seed), **result}
    path = (out_dir / name / f"seed{cfg.seed}.json") if out_dir else run_path(root, name, cfg.seed)
    write_atomic(path, dumps(result))
    return result


def bench_one(root: Path, device: str) -> dict:
    from models.bench import run_bench
    result = {"hash": bench_hash(root, device), "provenance": provenance(root, device, None), **run_bench(device)}
    write_atomic(bench_path(root, device), dumps(result))
    return result


def stale(root: Path) -> dict[str, str]:
    """Result file → why it must be rerun, for every expected result whose stored hash is not current."""
    out = {}
    exp, corpus_sha = experiments(root), corpus_sha256()
    for name, seed in exp.jobs():
        path = run_path(root, name, seed)
        h = stored_hash(path)
        if h != run_hash(root, exp.config(name, seed), corpus_sha):
            out[path.relative_to(root).as_posix()] = "missing" if h is None else "code or config changed"
    for path in sorted((root / RESULTS).glob("norm-bench-*.json")):
        device = path.stem.removeprefix("norm-bench-")
        if stored_hash(path) != bench_hash(root, device):
            out[path.relative_to(root).as_posix()] = "bench.py changed"
    if not bench_path(root, "cpu").exists():
        out[bench_path(root, "cpu").relative_to(root).as_posix()] = "missing"
    return out


def expected_outputs(root: Path) -> list[Path]:
    """The results a fresh stage must find: every run's seeds, and the CPU benchmark. (A GPU benchmark is
    made by `refresh` on a machine that has one; checking for a GPU here would import torch.)"""
    exp = experiments(root)
    return [run_path(root, n, s) for n, s in exp.jobs()] + [bench_path(root, "cpu")]


# ---------------------------------------------------------------- training in parallel processes

def _worker(root: str, name: str, seed: int, threads: int, slot: int, messages, quick: bool = False,
            out_dir: str | None = None) -> dict:
    """One (run, seed) in a process of its own, on `threads` threads; progress goes to `messages`."""
    import torch
    torch.set_num_threads(threads)
    cfg = experiments(Path(root)).config(name, seed)
    steps = quick_steps(cfg) if quick else cfg.max_steps
    report = lambda step, info: messages.put((slot, name, seed, step, steps, info["val"]))  # noqa: E731
    r = run_one(Path(root), name, cfg, Path(out_dir) if out_dir else None, quick=quick, progress=report)
    m = r["metrics"]
    return {"run": name, "seed": seed, "wall_s": r["timing"]["wall_s"], "final_val_loss": m["final_val_loss"],
            "diverged": m["diverged"]}


def quick_steps(cfg: TrainConfig) -> int:
    from models.train import quick_config
    return quick_config(cfg).max_steps


def train_jobs(root: Path, jobs: list[tuple[str, int]], workers: int, progress: bool = True, quick: bool = False,
               out_dir: Path | None = None) -> list[dict]:
    """Train every (run, seed) of `jobs`, `workers` at a time, each process on cores/workers threads:
    on two cores two single-thread processes get more done than one process on two threads.
    Shows one bar for the whole refresh and one per process (the run and seed it is training).
    `quick` and `out_dir` are the tests': a few steps each, written outside data/results/."""
    import multiprocessing as mp

    from tqdm import tqdm
    workers = max(1, min(workers, len(jobs)))
    threads = max(1, (os.cpu_count() or 1) // workers)
    ctx = mp.get_context("spawn")  # a fresh interpreter per process: no OpenMP state inherited through fork
    manager = ctx.Manager()
    messages = manager.Queue()
    total = tqdm(total=len(jobs), desc=f"{len(jobs)} runs, {workers} at a time", unit="run", position=0,
                 disable=not progress)
    bars = [tqdm(total=1, position=i + 1, bar_format="{desc}", disable=not progress) for i in range(workers)]
    done: list[dict] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        free = list(range(workers))
        pending = list(jobs)
        running = {}
        while pending or running:
            while pending and free:
                slot = free.pop(0)
                name, seed = pending.pop(0)
                running[pool.submit(_worker, str(root), name, seed, threads, slot, messages, quick,
                                    str(out_dir) if out_dir else None)] = slot
            try:
                while True:
                    slot, name, seed, step, steps, val = messages.get(timeout=0.5)
                    shown = f"{val:.3f}" if val is not None else "nan"
                    bars[slot].set_description_str(f"  {name} seed {seed}: step {step}/{steps}, val {shown}")
            except queue.Empty:
                pass
            for fut in [f for f in running if f.done()]:
                slot = running.pop(fut)
                r = fut.result()  # a crashed run stops the refresh with its error; finished results stay
                done.append(r)
                free.append(slot)
                total.update(1)
                loss = "diverged" if r["diverged"] else f"{r['final_val_loss']:.4f}"
                total.write(f"  done {r['run']} seed {r['seed']}: val {loss}, {r['wall_s']:.0f} s "
                            f"({len(done)}/{len(jobs)}, {time.perf_counter() - t0:.0f} s elapsed)")
    for b in bars:
        b.close()
    total.close()
    manager.shutdown()
    return done


def refresh(root: Path, force: bool = False, progress: bool = True, workers: int | None = None,
            only: list[str] | None = None) -> str:
    """Rerun stale results (all of them when `force`), then the benchmark if stale; a one-line summary."""
    exp = experiments(root)
    todo = stale(root)
    unknown = sorted(set(only or []) - set(exp.runs))
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: no such run in models/experiments.json")
    jobs = [(n, s) for n, s in exp.jobs() if (not only or n in only)
            and (force or run_path(root, n, s).relative_to(root).as_posix() in todo)]
    t0 = time.perf_counter()
    if jobs:
        train_jobs(root, jobs, workers or os.cpu_count() or 1, progress=progress)
    reran = [f"{n}/seed{s}" for n, s in jobs]
    kept_stale = []
    if not only:
        known = {p.stem.removeprefix("norm-bench-") for p in (root / RESULTS).glob("norm-bench-*.json")}
        here = devices_here()
        for device in sorted(known | set(here)):
            path = bench_path(root, device).relative_to(root).as_posix()
            if device not in here:
                if path in todo:
                    kept_stale.append(path)
                continue
            if force or path in todo:
                print(f"    norm-bench on {device} ...", flush=True)
                bench_one(root, device)
                reran.append(f"norm-bench-{device}")
    if reran:
        note = f"reran {len(reran)} in {time.perf_counter() - t0:.0f} s: {', '.join(reran[:6])}"
        note += f" and {len(reran) - 6} more" if len(reran) > 6 else ""
    else:
        note = "all results current"
    if kept_stale:
        note += f"; STALE and not rerunnable here (no such device): {', '.join(kept_stale)}"
    return note


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true", help="rerun even results that are current")
    ap.add_argument("--only", nargs="+", metavar="RUN", help="only these runs (every seed of each)")
    ap.add_argument("--workers", type=int, default=None, help="parallel processes (default: one per core)")
    ap.add_argument("--list", action="store_true", help="list stale results and why; train nothing")
    args = ap.parse_args(argv)
    if args.list:
        for path, why in stale(ROOT).items():
            print(f"{path}: {why}")
        return 0
    print(refresh(ROOT, force=args.force, workers=args.workers, only=args.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
