"""The notebooks stage: execute each hands-on notebook under docs/ into .build/notebooks/ (atomically), and
only when something it reads has changed. The sources stay output-free; the site shows the executed copies.

A notebook is keyed on its own source and on what it read the last time it ran, not on the whole registry:
the registry keys it looked up through course.core.lab.registry() (their current entries), every project
file it opened (the code it imports, such as course/core/lab.py or a lesson's lab module, and any data
file) and every project folder it listed. Its kernel records these (course/core/notebook_recorder.py), and
the record is kept beside the executed copy as NAME.ipynb.reads.json, with a fingerprint of each input.
An edit that touches none of them leaves the notebook as it is. Notebooks that must run, run at the
same time, one kernel each.

A lab asks before it answers. Its source is the answer key; cells say by their tags what they are:
    setup    finding the project and loading its code: folded away on the page, hidden in the learner's copy
    answer   the answer key (the answer to a prediction, a reference solution, the reasoning): folded on the
             page under the question, left out of the learner's copy
    check    holds the prediction (or the reader's code) against the run: folded with its answer on the page,
             kept in the learner's copy, where it asks for a prediction the learner has not written yet
    page     about the published page (its outputs, the download): left out of the learner's copy
The build executes the answer key (course.core.lab.ANSWER_KEY_ENV set), so an answer that stops holding, or
a missing one, fails the build; the page shows that executed copy, and its download is the learner's copy.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from cachekit import module_digest
from course.core.project import Paths

log = logging.getLogger(__name__)

RECORDER = Path(__file__).with_name("notebook_recorder.py")

SETUP, ANSWER, CHECK, PAGE = "setup", "answer", "check", "page"


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def learner_copy(nb, markdown: Callable[[str], str] | None = None):
    """The copy a learner downloads (an nbformat node; `nb` is left as it is): the answer key without its
    answer cells and page notes, with no outputs, its set-up cells' code hidden in Jupyter; `markdown`
    rewrites each Markdown cell (the site expands its shortcodes to plain text)."""
    import copy
    out = copy.deepcopy(nb)
    out.cells = [c for c in out.cells if not {ANSWER, PAGE} & set(tags(c))]
    for c in out.cells:
        c.metadata.pop("execution", None)
        if c.cell_type == "code":
            c.outputs, c.execution_count = [], None
            if SETUP in tags(c):
                c.metadata.setdefault("jupyter", {})["source_hidden"] = True
        elif c.cell_type == "markdown" and markdown is not None:
            c.source = markdown(c.source)
    return out


def sources(paths: Paths) -> list[Path]:
    return sorted(paths.docs.rglob("*.ipynb"))


def executed_path(paths: Paths, source: Path) -> Path:
    return paths.executed_notebooks / source.relative_to(paths.docs)


def reads_path(paths: Paths, source: Path) -> Path:
    executed = executed_path(paths, source)
    return executed.with_name(executed.name + ".reads.json")


def name(paths: Paths, source: Path) -> str:
    return source.relative_to(paths.docs).as_posix()


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


def _entry(entry: dict) -> dict:
    """A registry entry without the line that defined it: moving that line changes no number."""
    return {k: v for k, v in entry.items() if k != "defined_at"}


def fingerprint(paths: Paths, source: Path, reads: Reads, registry: dict | None) -> dict[str, str]:
    """Each input of the notebook → a short hash of what it holds now. `registry` is the registry's JSON
    (None when there is none yet). Code is keyed on its syntax tree: an edited comment re-executes nothing."""
    out = {"source": _sha(source.read_bytes()),
           "executor": _sha(Path(__file__).read_bytes() + RECORDER.read_bytes())}
    for rel in reads.files:
        p = paths.root / rel
        out[f"file {rel}"] = module_digest(p)[:16] if p.is_file() else "missing"
    for rel in reads.dirs:
        p = paths.root / rel
        out[f"folder {rel}"] = _sha("\0".join(sorted(os.listdir(p))).encode()) if p.is_dir() else "missing"
    if reads.all_keys:
        everything = {k: _entry(v) for k, v in (registry or {}).items()}
        out["registry"] = _sha(json.dumps(everything, sort_keys=True).encode()) if registry else "missing"
    else:
        for key in reads.keys:
            entry = (registry or {}).get(key)
            out[f"key {key}"] = _sha(json.dumps(_entry(entry), sort_keys=True).encode()) if entry is not None \
                else "missing"
    return out


def read_registry(paths: Paths) -> dict | None:
    return json.loads(paths.registry.read_text(encoding="utf-8")) if paths.registry.exists() else None


def why_stale(paths: Paths, source: Path, registry: dict | None) -> list[str]:
    """[] when the executed copy is current; otherwise what changed since it was executed."""
    record = reads_path(paths, source)
    if not executed_path(paths, source).exists() or not record.exists():
        return ["never executed"]
    stored = json.loads(record.read_text(encoding="utf-8"))
    now = fingerprint(paths, source, Reads(**stored["reads"]), registry)
    return [f"{k} changed" for k in now if stored["fingerprint"].get(k) != now[k]]


def stage_key(paths: Paths) -> str:
    """The stage's cache key: every notebook's current fingerprint of what it read last time."""
    registry = read_registry(paths)
    h = hashlib.sha256()
    for src in sources(paths):
        record = reads_path(paths, src)
        reads = Reads(**json.loads(record.read_text(encoding="utf-8"))["reads"]) if record.exists() else Reads()
        h.update(json.dumps([name(paths, src), fingerprint(paths, src, reads, registry)], sort_keys=True).encode())
    return h.hexdigest()


def kernel_env(answer_key: bool, **extra: str) -> dict:
    """The environment of a notebook's kernel: this process's, and whether it runs the answer key."""
    from course.core.lab import ANSWER_KEY_ENV
    env = {k: v for k, v in os.environ.items() if k != ANSWER_KEY_ENV}
    return {**env, **({ANSWER_KEY_ENV: "1"} if answer_key else {}), **extra}


def coalesce_streams(cell, **_) -> None:
    """Merge each run of consecutive stream outputs of one name (stdout, stderr) in a code cell into one.
    The kernel sends what a cell prints whenever its buffer is flushed (a timer, every fraction of a second),
    so the same prints come back as one output or as several by how the run was timed; merged, every run of
    a notebook gives the same outputs, and so the same page. Outputs of other kinds (a figure, an error) keep
    their place between the prints (nbclient's own `coalesce_streams` would move every print of a cell
    together)."""
    merged = []
    for out in cell.get("outputs", []):
        last = merged[-1] if merged else None
        if last is not None and out.output_type == last.output_type == "stream" and out.name == last.name:
            last.text += out.text
        else:
            merged.append(out)
    if cell.get("outputs"):
        cell.outputs = merged


def client(nb, folder: Path, timeout_s: int, *kernel_args: str):
    """A client that runs `nb` (an nbformat node, changed in place: outputs, their consecutive prints
    merged, and per-cell timings) in a fresh kernel whose working directory is `folder`, as the build does."""
    from nbclient import NotebookClient
    # the kernel listens on loopback only; its start-up notice about that is not news
    return NotebookClient(nb, kernel_name="python3", timeout=timeout_s, record_timing=True,
                          on_cell_executed=coalesce_streams,
                          extra_arguments=["--IPKernelApp.log_level=ERROR", *kernel_args],
                          resources={"metadata": {"path": str(folder)}})


def execute(nb, folder: Path, timeout_s: int = 600, answer_key: bool = True):
    """Run a notebook as the build does (as its answer key), without recording its reads (tests,
    scripts/time_notebooks.py); `answer_key=False` runs it as a learner's copy. A failing cell raises
    CellExecutionError."""
    client(nb, folder, timeout_s).execute(env=kernel_env(answer_key))
    return nb


async def _execute(paths: Paths, src: Path, timeout_s: int) -> tuple[object, Reads]:
    import nbformat

    nb = nbformat.read(src, as_version=4)
    fd, log = tempfile.mkstemp(prefix="reads-", suffix=".jsonl")
    os.close(fd)
    # the recorder starts with the kernel, before the first cell, and leaves the execution counts alone
    start = (f"import runpy; runpy.run_path({str(RECORDER)!r}, run_name='course_notebook_recorder', "
             f"init_globals={{'LOG': {log!r}, 'ROOT': {str(paths.root)!r}}})")
    try:
        from course.core.lab import REGISTRY_ENV
        env = kernel_env(True, **{REGISTRY_ENV: str(paths.registry)})
        await client(nb, src.parent, timeout_s, f"--IPKernelApp.exec_lines={start}").async_execute(env=env)
        return nb, Reads.from_log(Path(log).read_text(encoding="utf-8"))
    finally:
        os.unlink(log)


def html_outputs(paths: Paths, only: Path | None = None) -> list[str]:
    """The HTML outputs of every executed notebook, or of the one of source `only` (a lab's figures are among
    them)."""
    out = []
    for src in [only] if only else sources(paths):
        path = executed_path(paths, src)
        if path.exists():
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                for o in cell.get("outputs", []):
                    text = o.get("data", {}).get("text/html")
                    if text:
                        out.append("".join(text) if isinstance(text, list) else text)
    return out


def execute_stale(paths: Paths, timeout_s: int = 600, workers: int | None = None, force: bool = False) -> str:
    """Execute, at the same time, every notebook whose inputs changed (all of them with `force`); write each
    executed copy and its record of reads atomically. A notebook that fails is named; the others are kept."""
    import asyncio

    import nbformat

    from course.core.files import write_atomic
    registry = read_registry(paths)
    todo = {src: (["forced"] if force else why_stale(paths, src, registry)) for src in sources(paths)}
    todo = {src: why for src, why in todo.items() if why}
    for src, why in todo.items():
        shown = why if len(why) <= 3 else why[:3] + [f"and {len(why) - 3} more"]
        log.info(f"    execute  {name(paths, src)}: {'; '.join(shown)}")
    limit = workers or max(1, min(len(todo), os.cpu_count() or 1))

    async def run_all():
        gate = asyncio.Semaphore(limit)

        async def one(src):
            async with gate:
                return await _execute(paths, src, timeout_s)
        return await asyncio.gather(*(one(src) for src in todo), return_exceptions=True)

    failed = []
    for src, outcome in zip(todo, asyncio.run(run_all()) if todo else []):
        if isinstance(outcome, BaseException):
            failed.append(f"{name(paths, src)}: {type(outcome).__name__}: {str(outcome).strip()[-2000:]}")
            continue
        nb, reads = outcome
        write_atomic(executed_path(paths, src), nbformat.writes(nb))
        record = {"reads": reads.__dict__, "fingerprint": fingerprint(paths, src, reads, registry)}
        write_atomic(reads_path(paths, src), json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    if failed:
        raise RuntimeError("notebook failed:\n" + "\n".join(failed))
    total = len(sources(paths))
    return f"{len(todo)} of {total} notebooks executed, {total - len(todo)} current"
