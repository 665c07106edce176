"""Keep data/results/ in step with the code: rerun exactly the results whose inputs changed.

A training result is keyed by what determines it: the code the run executes (models/train.py and every
module of models/ it imports, each keyed on its syntax tree, so a comment, a docstring or a reformat
changes nothing), the run's config with its seed, the corpus file and the kind of device. A benchmark
result is keyed the same way by models/bench.py's code and its device. Editing one run's config reruns
that run's seeds only; editing a data file the model does not read (the anchor's config, say) reruns
nothing. Results of a device this machine lacks (a GPU's) are kept and reported if stale, never retrained.
Independent runs train in parallel processes, one thread each, with a progress bar per process.

What reproduces: on one machine a rerun gives the same bytes (one thread per run, the same torch). On
another CPU the matmul kernels round differently in the last bits, and training grows that: the same
runs trained on two CPUs (data/cross-machine.json, scripts/cross_machine.py) ended within 1e-6 of each
other for the Pre-Norm runs at lr 1e-3 but up to 0.08 apart at 3e-3, and up to 0.88 for a Post-LN run at
1e-3 whose seed sits at the edge of leaving the unigram plateau: a run can settle differently. The pages state those
figures (measure.drift.*); tests/test_claims_robust.py holds every note to a small shift of every result.

    python -m models.measure                 rerun what is stale (on the GPU if there is one)
    python -m models.measure --device cpu    ... on the CPU (the results the pages quote)
    python -m models.measure --force         rerun everything
    python -m models.measure --only c4_postln --workers 1
    python -m models.measure --list          what is stale, and why; trains nothing
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import hashlib
import json
import os
import platform
import queue
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cachekit import import_closure, module_digest, write_atomic
from models.config import Experiments, TrainConfig, corpus_path, load_experiments
from models.results import DEVICES, REFERENCE_DEVICE, RESULTS, bench_path, dumps, run_path, stored, stored_hash

ROOT = Path(__file__).resolve().parent.parent
RUN_ENTRY, BENCH_ENTRY = "models.train", "models.bench"
# glibc hands large freed blocks (the logits of every step) back to the system and maps them afresh on the
# next step: about 7% of a run went to page faults. Keeping them in the heap changes no number.
ALLOCATOR = {"MALLOC_MMAP_THRESHOLD_": str(32 * 2**20), "MALLOC_TRIM_THRESHOLD_": str(2**30)}


def code_key(root: Path, entry: str) -> dict[str, str]:
    """Each module of models/ that `entry` can run → the key of its syntax tree."""
    modules = import_closure(root, [entry], ["models"])
    return {p.relative_to(root).as_posix(): module_digest(p) for p in sorted(modules.values())}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def config_key(cfg: TrainConfig) -> str:
    # a field at its default is left out: adding a field with a default keeps every existing key
    return _sha(json.dumps(cfg.model_dump(exclude_defaults=True), sort_keys=True))


def corpus_sha256() -> str:
    return hashlib.sha256(corpus_path().read_bytes()).hexdigest()


def run_key(root: Path, cfg: TrainConfig, device: str = REFERENCE_DEVICE, corpus_sha: str | None = None,
            code: dict | None = None) -> dict:
    return {"code": code or code_key(root, RUN_ENTRY), "config": config_key(cfg),
            "corpus": corpus_sha or corpus_sha256(), "device": device}


def key_hash(key: dict) -> str:
    return _sha(json.dumps(key, sort_keys=True))


def run_hash(root: Path, cfg: TrainConfig, device: str = REFERENCE_DEVICE, corpus_sha: str | None = None) -> str:
    return key_hash(run_key(root, cfg, device, corpus_sha))


def bench_hash(root: Path, device: str) -> str:
    return key_hash({"code": code_key(root, BENCH_ENTRY), "device": device})


def why_changed(old: dict | None, new: dict) -> str:
    """Which part of a result's key changed: the modules by name, the config, the corpus."""
    if old is None:
        return "missing"
    was = old.get("key")
    if not isinstance(was, dict):
        return "keyed by an older scheme"
    parts = [f"{m} changed" for m in sorted(set(was.get("code", {})) | set(new["code"]))
             if was.get("code", {}).get(m) != new["code"].get(m)]
    parts += [f"{p} changed" for p in ("config", "corpus") if was.get(p) != new[p]]
    return ", ".join(parts) or "hash differs"


def devices_here() -> list[str]:
    import torch  # here, not at the top: a build that trains nothing never pays for importing torch
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def resolve_device(device: str) -> str:
    if device == "auto":
        return devices_here()[-1]
    if device not in devices_here():
        raise ValueError(f"device {device!r} is not available on this machine (have: {', '.join(devices_here())})")
    return device


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

    from models.bench import cpu_name, device_name
    return {"device": device, "device_name": device_name(device), "cpu": cpu_name(), "torch": torch.__version__,
            "python": platform.python_version(), "threads": torch.get_num_threads(), "seed": seed,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "commit": git_commit(root)}


def experiments(root: Path) -> Experiments:
    return load_experiments(root)


def run_one(root: Path, name: str, cfg: TrainConfig, out_dir: Path | None = None, quick: bool = False,
            progress=True, device: str = REFERENCE_DEVICE) -> dict:
    """Train one run of one seed on `device` and write its result (under data/results/, or `out_dir`)."""
    from models.train import quick_config, train
    if quick:
        cfg = quick_config(cfg)
    result = train(name, cfg, progress=progress, device=device)
    key = run_key(root, cfg, device)
    result = {"hash": key_hash(key), "key": key, "quick": quick, "provenance": provenance(root, device, cfg.seed),
              **result}
    path = (out_dir / name / f"seed{cfg.seed}.json") if out_dir else run_path(root, name, cfg.seed, device)
    write_atomic(path, dumps(result))
    return result


def bench_one(root: Path, device: str) -> dict:
    from models.bench import run_bench
    result = {"hash": bench_hash(root, device), "provenance": provenance(root, device, None), **run_bench(device)}
    write_atomic(bench_path(root, device), dumps(result))
    return result


def result_devices(root: Path) -> list[str]:
    """The reference device and every device that has results on disk."""
    return [d for d in DEVICES if d == REFERENCE_DEVICE or (root / RESULTS / d).is_dir()]


def stale(root: Path, devices: list[str] | None = None) -> dict[str, str]:
    """Result file → why it must be rerun. On the reference device every run's every seed is expected; on
    another device only the results that exist are checked (a GPU's are made where there is one)."""
    out = {}
    exp, corpus_sha, code = experiments(root), corpus_sha256(), code_key(root, RUN_ENTRY)
    for device in devices or result_devices(root):
        for name, seed in exp.jobs():
            path = run_path(root, name, seed, device)
            if device != REFERENCE_DEVICE and not path.exists():
                continue
            key = run_key(root, exp.config(name, seed), device, corpus_sha, code)
            if stored_hash(path) != key_hash(key):
                out[path.relative_to(root).as_posix()] = why_changed(stored(path), key)
    for path in sorted((root / RESULTS).glob("norm-bench-*.json")):
        device = path.stem.removeprefix("norm-bench-")
        if stored_hash(path) != bench_hash(root, device):
            out[path.relative_to(root).as_posix()] = "models/bench.py changed"
    if not bench_path(root, REFERENCE_DEVICE).exists():
        out[bench_path(root, REFERENCE_DEVICE).relative_to(root).as_posix()] = "missing"
    return out


def expected_outputs(root: Path) -> list[Path]:
    """The results a fresh stage must find: every run's seeds on the reference device, and its benchmark.
    (A GPU's are made by `refresh` on a machine that has one; checking for a GPU here would import torch.)"""
    exp = experiments(root)
    return [run_path(root, n, s) for n, s in exp.jobs()] + [bench_path(root, REFERENCE_DEVICE)]


# ---------------------------------------------------------------- training in parallel processes

def _worker(root: str, name: str, seed: int, device: str, slot: int, messages, quick: bool = False,
            out_dir: str | None = None) -> dict:
    """One (run, seed) in a process of its own, on one thread (so that a rerun gives the same bytes);
    progress goes to `messages`."""
    import torch
    torch.set_num_threads(1)
    cfg = experiments(Path(root)).config(name, seed)
    steps = quick_steps(cfg) if quick else cfg.max_steps
    report = lambda step, info: messages.put((slot, name, seed, step, steps, info["val"]))  # noqa: E731
    r = run_one(Path(root), name, cfg, Path(out_dir) if out_dir else None, quick=quick, progress=report,
                device=device)
    m = r["metrics"]
    return {"run": name, "seed": seed, "wall_s": r["timing"]["wall_s"], "final_val_loss": m["final_val_loss"],
            "diverged": m["diverged"]}


def quick_steps(cfg: TrainConfig) -> int:
    from models.train import quick_config
    return quick_config(cfg).max_steps


@contextlib.contextmanager
def worker_environment():
    """The allocator settings for the processes started inside (a spawned interpreter reads them at start)."""
    saved = {k: os.environ.get(k) for k in ALLOCATOR}
    os.environ.update(ALLOCATOR)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def train_jobs(root: Path, jobs: list[tuple[str, int]], workers: int, progress: bool = True, quick: bool = False,
               out_dir: Path | None = None, device: str = REFERENCE_DEVICE) -> list[dict]:
    """Train every (run, seed) of `jobs` on `device`, `workers` at a time, each process on one thread: on
    two cores two single-thread processes get more done than one process on two threads.
    Shows one bar for the whole refresh and one per process (the run and seed it is training).
    `quick` and `out_dir` are the tests': a few steps each, written outside data/results/."""
    import multiprocessing as mp

    from tqdm import tqdm
    workers = max(1, min(workers, len(jobs)))
    ctx = mp.get_context("spawn")  # a fresh interpreter per process: no OpenMP state inherited through fork
    manager = ctx.Manager()
    messages = manager.Queue()
    total = tqdm(total=len(jobs), desc=f"{len(jobs)} runs, {workers} at a time", unit="run", position=0,
                 disable=not progress)
    bars = [tqdm(total=1, position=i + 1, bar_format="{desc}", disable=not progress) for i in range(workers)]
    done: list[dict] = []
    t0 = time.perf_counter()
    with worker_environment(), ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        free = list(range(workers))
        pending = list(jobs)
        running = {}
        while pending or running:
            while pending and free:
                slot = free.pop(0)
                name, seed = pending.pop(0)
                running[pool.submit(_worker, str(root), name, seed, device, slot, messages, quick,
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
            only: list[str] | None = None, device: str = REFERENCE_DEVICE) -> str:
    """Rerun the stale results of `device` (all of them when `force`), then the benchmarks if stale; a
    one-line summary. The build refreshes the reference device's; `python -m models.measure` any."""
    exp = experiments(root)
    device = resolve_device(device)
    todo = stale(root, sorted(set(result_devices(root)) | {device}))
    unknown = sorted(set(only or []) - set(exp.runs))
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: no such run in models/experiments.json")
    path_of = lambda n, s: run_path(root, n, s, device).relative_to(root).as_posix()  # noqa: E731
    jobs = [(n, s) for n, s in exp.jobs() if (not only or n in only)
            and (force or path_of(n, s) in todo or not (root / path_of(n, s)).exists())]
    t0 = time.perf_counter()
    if jobs:
        train_jobs(root, jobs, workers or os.cpu_count() or 1, progress=progress, device=device)
    reran = [f"{n}/seed{s}" for n, s in jobs]
    kept_stale = sorted(p for p in todo if p.split("/")[2] not in devices_here() and p.split("/")[2] in DEVICES)
    if not only:
        known = {p.stem.removeprefix("norm-bench-") for p in (root / RESULTS).glob("norm-bench-*.json")}
        here = devices_here()
        for bench_device in sorted(known | set(here)):
            path = bench_path(root, bench_device).relative_to(root).as_posix()
            if bench_device not in here:
                if path in todo:
                    kept_stale.append(path)
                continue
            if force or path in todo:
                print(f"    norm-bench on {bench_device} ...", flush=True)
                bench_one(root, bench_device)
                reran.append(f"norm-bench-{bench_device}")
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
    ap.add_argument("--device", default="auto", choices=("auto", *DEVICES),
                    help="where to train (default: the GPU if there is one, else the CPU)")
    ap.add_argument("--list", action="store_true", help="list stale results and why; train nothing")
    args = ap.parse_args(argv)
    if args.list:
        found = stale(ROOT)
        for path, why in found.items():
            print(f"{path}: {why}")
        if not found:
            print("all results current")
        return 0
    print(refresh(ROOT, force=args.force, workers=args.workers, only=args.only, device=args.device))
    return 0


if __name__ == "__main__":
    sys.exit(main())
