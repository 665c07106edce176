"""The notebooks stage: execute every hands-on notebook under docs/ into .build/notebooks/ (atomically).
The sources stay output-free; the site shows the executed copies, and `mkdocs serve` never executes anything."""
from __future__ import annotations

from pathlib import Path

from course.core.paths import DOCS, EXECUTED_NOTEBOOKS as EXECUTED


def sources() -> list[Path]:
    return sorted(DOCS.rglob("*.ipynb"))


def executed_path(source: Path) -> Path:
    return EXECUTED / source.relative_to(DOCS)


def execute_all(timeout_s: int = 600) -> str:
    """Execute every notebook under docs/ into .build/notebooks/ (atomically). The sources stay
    output-free; the site shows the executed copies, and `mkdocs serve` never executes anything."""
    import nbformat
    from nbclient import NotebookClient

    from course.core.files import write_atomic
    for src in sources():
        nb = nbformat.read(src, as_version=4)
        # the kernel listens on loopback only; its start-up notice about that is not news
        NotebookClient(nb, kernel_name="python3", timeout=timeout_s,
                       extra_arguments=["--IPKernelApp.log_level=ERROR"],
                       resources={"metadata": {"path": str(src.parent)}}).execute()
        write_atomic(executed_path(src), nbformat.writes(nb))
    return f"{len(sources())} notebooks executed"
