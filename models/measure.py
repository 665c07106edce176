"""Keep data/results/ in step with the code: rerun exactly the results whose inputs changed.

A training result is keyed by the hash of the model code (model.py, corpus.py, train.py), the run's own
config and the corpus file; a benchmark result by the hash of bench.py and its device. Editing one run's
config reruns that run only; editing a data file the model does not read (the anchor's config, say)
reruns nothing. Results of a device this machine lacks (a GPU run) are kept and reported if stale.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import platform
import subprocess
from pathlib import Path

from course.files import write_atomic
from course.schema import Experiments, TrainConfig, load

RUN_CODE = ("models/model.py", "models/corpus.py", "models/train.py")
BENCH_CODE = ("models/bench.py",)
RESULTS = Path("data/results")


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
    return load(root / "models/experiments.json", Experiments)


def run_one(root: Path, name: str, cfg: TrainConfig, out_dir: Path, quick: bool = False,
            progress: bool = True) -> dict:
    from models.train import quick_config, train
    if quick:
        cfg = quick_config(cfg)
    result = train(name, cfg, progress=progress)
    result = {"hash": run_hash(root, cfg), "quick": quick, "provenance": provenance(root, "cpu", cfg.seed), **result}
    write_atomic(out_dir / f"{name}.json", json.dumps(result, indent=1, allow_nan=False) + "\n")
    return result


def bench_one(root: Path, device: str, out_dir: Path) -> dict:
    from models.bench import run_bench
    result = {"hash": bench_hash(root, device), "provenance": provenance(root, device, None), **run_bench(device)}
    write_atomic(out_dir / f"norm-bench-{device}.json", json.dumps(result, indent=1) + "\n")
    return result


def stored_hash(path: Path) -> str | None:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("hash")
    except (OSError, ValueError):
        return None


def stale(root: Path) -> dict[str, str]:
    """Result file → why it must be rerun, for every expected result whose stored hash is not current."""
    out = {}
    exp, corpus_sha = experiments(root), corpus_sha256()
    for name in exp.runs:
        path = root / RESULTS / f"{name}.json"
        h = stored_hash(path)
        if h != run_hash(root, exp.config(name), corpus_sha):
            out[path.relative_to(root).as_posix()] = "missing" if h is None else "code or config changed"
    for path in sorted((root / RESULTS).glob("norm-bench-*.json")):
        device = path.stem.removeprefix("norm-bench-")
        if stored_hash(path) != bench_hash(root, device):
            out[path.relative_to(root).as_posix()] = "bench.py changed"
    for device in devices_here():
        path = root / RESULTS / f"norm-bench-{device}.json"
        if not path.exists():
            out[path.relative_to(root).as_posix()] = "missing"
    return out


def expected_outputs(root: Path) -> list[Path]:
    """The results a fresh stage must find: every run's, and the CPU benchmark. (A GPU benchmark is
    made by `refresh` on a machine that has one; checking for a GPU here would import torch.)"""
    return ([root / RESULTS / f"{n}.json" for n in experiments(root).runs]
            + [root / RESULTS / "norm-bench-cpu.json"])


def refresh(root: Path, force: bool = False, progress: bool = True) -> str:
    """Rerun stale results (all of them when `force`); return a one-line summary."""
    exp, out_dir = experiments(root), root / RESULTS
    todo = stale(root)
    reran, kept_stale = [], []
    for name in exp.runs:
        path = (RESULTS / f"{name}.json").as_posix()
        if force or path in todo:
            run_one(root, name, exp.config(name), out_dir, progress=progress)
            reran.append(name)
    known = {p.stem.removeprefix("norm-bench-") for p in out_dir.glob("norm-bench-*.json")}
    for device in sorted(known | set(devices_here())):
        path = (RESULTS / f"norm-bench-{device}.json").as_posix()
        if device not in devices_here():
            if path in todo:
                kept_stale.append(path)
            continue
        if force or path in todo:
            print(f"    norm-bench on {device} ...", flush=True)
            bench_one(root, device, out_dir)
            reran.append(f"norm-bench-{device}")
    note = f"reran {len(reran)}: {', '.join(reran)}" if reran else "all results current"
    if kept_stale:
        note += f"; STALE and not rerunnable here (no such device): {', '.join(kept_stale)}"
    return note
