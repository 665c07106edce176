"""Every path of this project, defined once (the core receives them through course/project.py)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
COURSE_MAP = DATA / "course-map.json"  # what the course plans: chapters, lessons and topics not yet written
MODEL_CONFIGS = DATA / "model-configs"  # the official configs scripts/import_configs.py reads
RESULTS = DATA / "results"           # the small model's committed results (written by models/measure.py)
DOCS = ROOT / "docs"
LESSONS = ROOT / "lessons"
FIGURES = ROOT / "figures"           # each figure: NAME.json (what the pages draw) and NAME.LANG.html (standalone)
BUILD = ROOT / ".build"              # everything else the build derives; never committed
REGISTRY = BUILD / "registry.json"
STAGE_STATE = BUILD / "stages.json"
EXECUTED_NOTEBOOKS = BUILD / "notebooks"
SITE = ROOT / "site"
# plotly.js: the official cartesian bundle (scatter, bar, heatmap, contour, box, histogram, ...), vendored
# with its license; the one copy every page with a chart and every standalone figure file loads
PLOTLY_URI = "assets/vendor/plotly/plotly-cartesian.min.js"
PLOTLY_JS = DOCS / PLOTLY_URI


def relative(path: Path) -> str:
    """A project path as messages name it: relative to the working directory (a copy of the project
    is built from its own root) or to this project, else whole."""
    for base in (Path.cwd(), ROOT):
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()
