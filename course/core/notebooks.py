"""The notebooks stage: execute each hands-on notebook under docs/ into .build/notebooks/ (atomically), and
only when something it reads has changed. The sources stay output-free; the site shows the executed copies.

A notebook is keyed on its own source and on what it read the last time it ran, not on the whole registry:
the registry keys it looked up through course.core.lab.registry() (their current entries), every project
file it opened (the code it imports, such as course/core/lab.py or a lesson's lab module, and any data
file) and every project folder it listed. Its kernel records these (course/core/notebook_recorder.py), and
the record is kept beside the executed copy as NAME.ipynb.reads.json, with a fingerprint of each input.
An edit that touches none of them leaves the notebook as it is. Notebooks that must run, run at the
same time, one kernel each.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from course.core.paths import DOCS, EXECUTED_NOTEBOOKS as EXECUTED, REGISTRY, ROOT

RECORDER = Path(__file__).with_name("notebook_recorder.py")


def sources() -> list[Path]:
    return sorted(DOCS.rglob("*.ipynb"))


def executed_path(source: Path) -> Path:
    return EXECUTED / source.relative_to(DOCS)


def reads_path(source: Path) -> Path:
    executed = executed_path(source)
    return executed.with_name(executed.name + ".reads.json")


def name(source: Path) -> str:
    return source.relative_to(DOCS).as_posix()


@dataclass
class Reads:
    """What one execution of a notebook read."""
    files: list[str] = field(default_factory=list)   # project paths, relative to the root
    dirs: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    all_keys: bool = False                           # it walked the whole registry

    @classmethod
    def from_log(cls, text: str) -> "Reads":
        entries = [json.loads(line) for line in text.splitlines() if line.strip()]
        if {"started": True} not in entries:
            raise RuntimeError("the notebook's kernel did not record its reads (course/core/notebook_recorder.py)")
        got = lambda kind: sorted({e[kind] for e in entries if kind in e})  # noqa: E731
        return cls(files=got("file"), dirs=got("dir"), keys=got("key"),
                   all_keys=any("all_keys" in e for e in entries))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def fingerprint(source: Path, reads: Reads, registry: dict | None) -> dict[str, str]:
    """Each input of the notebook → a short hash of what it holds now. `registry` is the registry's JSON
    (None when there is none yet)."""
    out = {"source": _sha(source.read_bytes()),
           "executor": _sha(Path(__file__).read_bytes() + RECORDER.read_bytes())}
    for rel in reads.files:
        p = ROOT / rel
        out[f"file {rel}"] = _sha(p.read_bytes()) if p.is_file() else "missing"
    for rel in reads.dirs:
        p = ROOT / rel
        out[f"folder {rel}"] = _sha("\0".join(sorted(os.listdir(p))).encode()) if p.is_dir() else "missing"
    if reads.all_keys:
        out["registry"] = _sha(REGISTRY.read_bytes()) if REGISTRY.exists() else "missing"
    else:
        for key in reads.keys:
            entry = (registry or {}).get(key)
            out[f"key {key}"] = _sha(json.dumps(entry, sort_keys=True).encode()) if entry is not None else "missing"
    return out


def read_registry() -> dict | None:
    return json.loads(REGISTRY.read_text(encoding="utf-8")) if REGISTRY.exists() else None


def why_stale(source: Path, registry: dict | None) -> list[str]:
    """[] when the executed copy is current; otherwise what changed since it was executed."""
    record = reads_path(source)
    if not executed_path(source).exists() or not record.exists():
        return ["never executed"]
    stored = json.loads(record.read_text(encoding="utf-8"))
    now = fingerprint(source, Reads(**stored["reads"]), registry)
    return [f"{k} changed" for k in now if stored["fingerprint"].get(k) != now[k]]


def stage_key() -> str:
    """The stage's cache key: every notebook's current fingerprint of what it read last time."""
    registry = read_registry()
    h = hashlib.sha256()
    for src in sources():
        record = reads_path(src)
        reads = Reads(**json.loads(record.read_text(encoding="utf-8"))["reads"]) if record.exists() else Reads()
        h.update(json.dumps([name(src), fingerprint(src, reads, registry)], sort_keys=True).encode())
    return h.hexdigest()


def client(nb, folder: Path, timeout_s: int, *kernel_args: str):
    """A client that runs `nb` (an nbformat node, changed in place: outputs and per-cell timings) in a fresh
    kernel whose working directory is `folder`, as the build does."""
    from nbclient import NotebookClient
    # the kernel listens on loopback only; its start-up notice about that is not news
    return NotebookClient(nb, kernel_name="python3", timeout=timeout_s, record_timing=True,
                          extra_arguments=["--IPKernelApp.log_level=ERROR", *kernel_args],
                          resources={"metadata": {"path": str(folder)}})


def execute(nb, folder: Path, timeout_s: int = 600):
    """Run a notebook as the build does, without recording its reads (tests, scripts/time_notebooks.py);
    a failing cell raises CellExecutionError."""
    client(nb, folder, timeout_s).execute()
    return nb


async def _execute(src: Path, timeout_s: int) -> tuple[object, Reads]:
    import nbformat

    nb = nbformat.read(src, as_version=4)
    fd, log = tempfile.mkstemp(prefix="reads-", suffix=".jsonl")
    os.close(fd)
    # the recorder starts with the kernel, before the first cell, and leaves the execution counts alone
    start = (f"import runpy; runpy.run_path({str(RECORDER)!r}, run_name='course_notebook_recorder', "
             f"init_globals={{'LOG': {log!r}, 'ROOT': {str(ROOT)!r}}})")
    try:
        await client(nb, src.parent, timeout_s, f"--IPKernelApp.exec_lines={start}").async_execute()
        return nb, Reads.from_log(Path(log).read_text(encoding="utf-8"))
    finally:
        os.unlink(log)


def execute_stale(timeout_s: int = 600, workers: int | None = None, force: bool = False) -> str:
    """Execute, at the same time, every notebook whose inputs changed (all of them with `force`); write each
    executed copy and its record of reads atomically. A notebook that fails is named; the others are kept."""
    import asyncio

    import nbformat

    from course.core.files import write_atomic
    registry = read_registry()
    todo = {src: (["forced"] if force else why_stale(src, registry)) for src in sources()}
    todo = {src: why for src, why in todo.items() if why}
    for src, why in todo.items():
        shown = why if len(why) <= 3 else why[:3] + [f"and {len(why) - 3} more"]
        print(f"    execute  {name(src)}: {'; '.join(shown)}", flush=True)
    limit = workers or max(1, min(len(todo), os.cpu_count() or 1))

    async def run_all():
        gate = asyncio.Semaphore(limit)

        async def one(src):
            async with gate:
                return await _execute(src, timeout_s)
        return await asyncio.gather(*(one(src) for src in todo), return_exceptions=True)

    failed = []
    for src, outcome in zip(todo, asyncio.run(run_all()) if todo else []):
        if isinstance(outcome, BaseException):
            failed.append(f"{name(src)}: {type(outcome).__name__}: {str(outcome).strip()[-2000:]}")
            continue
        nb, reads = outcome
        write_atomic(executed_path(src), nbformat.writes(nb))
        record = {"reads": reads.__dict__, "fingerprint": fingerprint(src, reads, registry)}
        write_atomic(reads_path(src), json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    if failed:
        raise RuntimeError("notebook failed:\n" + "\n".join(failed))
    total = len(sources())
    return f"{len(todo)} of {total} notebooks executed, {total - len(todo)} current"
