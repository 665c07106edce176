"""The notebooks stage: execute every hands-on notebook under docs/ into .build/notebooks/ (atomically).
The sources stay output-free; the site shows the executed copies, and `mkdocs serve` never executes anything."""
from __future__ import annotations

from pathlib import Path

from course.core.paths import DOCS, EXECUTED_NOTEBOOKS as EXECUTED


def sources() -> list[Path]:
    return sorted(DOCS.rglob("*.ipynb"))


def executed_path(source: Path) -> Path:
    return EXECUTED / source.relative_to(DOCS)


def execute(nb, folder: Path, timeout_s: int = 600):
    """Run a notebook (an nbformat node, changed in place: outputs and per-cell timings) in a fresh kernel
    whose working directory is `folder`, as the build does; a failing cell raises CellExecutionError."""
    from nbclient import NotebookClient
    # the kernel listens on loopback only; its start-up notice about that is not news
    NotebookClient(nb, kernel_name="python3", timeout=timeout_s, record_timing=True,
                   extra_arguments=["--IPKernelApp.log_level=ERROR"],
                   resources={"metadata": {"path": str(folder)}}).execute()
    return nb


def execute_all(timeout_s: int = 600) -> str:
    """Execute every notebook under docs/ into .build/notebooks/ (atomically). The sources stay
    output-free; the site shows the executed copies, and `mkdocs serve` never executes anything."""
    import nbformat

    from course.core.files import write_atomic
    for src in sources():
        nb = execute(nbformat.read(src, as_version=4), src.parent, timeout_s)
        write_atomic(executed_path(src), nbformat.writes(nb))
    return f"{len(sources())} notebooks executed"
