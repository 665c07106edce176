"""Helpers the hands-on notebook imports: registry access and a Plotly figure that renders both in
Jupyter and on the built site (drawn by the site's one local plotly.js, never a CDN)."""
from __future__ import annotations

import html
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def registry() -> dict:
    """The build's registry: {key: {value, text, provenance, ...}}. Run `python build.py` first."""
    return json.loads((ROOT / ".build" / "registry.json").read_text(encoding="utf-8"))


def show(fig) -> None:
    """Display a Plotly figure. Jupyter draws the Plotly MIME bundle; the site's exported HTML keeps the
    text/html part, a div that docs/assets/js/figures.js draws with the page's palette."""
    from IPython.display import display
    spec = json.loads(fig.to_json())
    div = (f'<div class="plotly-figure" role="figure" aria-label="{html.escape(spec["layout"].get("title", {}).get("text", ""))}" '
           f'data-inline="{html.escape(json.dumps(spec), quote=True)}"></div>')
    display({"application/vnd.plotly.v1+json": spec, "text/html": div}, raw=True)


# ---------------------------------------------------------------- the build's side

EXECUTED = ROOT / ".build" / "notebooks"


def sources() -> list[Path]:
    return sorted((ROOT / "docs").rglob("*.ipynb"))


def executed_path(source: Path) -> Path:
    return EXECUTED / source.relative_to(ROOT / "docs")


def execute_all(timeout_s: int = 600) -> str:
    """Execute every notebook under docs/ into .build/notebooks/ (atomically). The sources stay
    output-free; the site shows the executed copies, and `mkdocs serve` never executes anything."""
    import nbformat
    from nbclient import NotebookClient

    from course.files import write_atomic
    for src in sources():
        nb = nbformat.read(src, as_version=4)
        # the kernel listens on loopback only; its start-up notice about that is not news
        NotebookClient(nb, kernel_name="python3", timeout=timeout_s,
                       extra_arguments=["--IPKernelApp.log_level=ERROR"],
                       resources={"metadata": {"path": str(src.parent)}}).execute()
        write_atomic(executed_path(src), nbformat.writes(nb))
    return f"{len(sources())} notebooks executed"
