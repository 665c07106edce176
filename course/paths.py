"""Every path of this project, defined once: the core's layout (course/core/project.py's `Paths`: docs/,
.build/, site/, figures/, the registry, …) and, in `CoursePaths`, the paths only this course has. The
core receives them through course/project.py; the tests and scripts import the names below."""
from __future__ import annotations

from pathlib import Path

from course.core.project import Paths

# plotly.js: the official cartesian bundle (scatter, bar, heatmap, contour, box, histogram, ...), vendored
# with its license; the one copy every page with a chart and every standalone figure file loads
PLOTLY_URI = "assets/vendor/plotly/plotly-cartesian.min.js"


class CoursePaths(Paths):
    """The core's paths under a root (this checkout, or a copy the tests edit), and this course's own."""

    @classmethod
    def at(cls, root: Path) -> "CoursePaths":
        return cls.under(root, PLOTLY_URI)

    @property
    def data(self) -> Path:
        """The inputs authors edit."""
        return self.root / "data"

    @property
    def model_configs(self) -> Path:
        """The official configs scripts/import_configs.py reads."""
        return self.data / "model-configs"

    @property
    def results(self) -> Path:
        """The small model's committed results (written by models/measure.py)."""
        return self.data / "results"

    @property
    def lessons(self) -> Path:
        return self.root / "lessons"


PATHS = CoursePaths.at(Path(__file__).resolve().parents[1])
ROOT, DATA, DOCS, LESSONS, FIGURES, SITE = PATHS.root, PATHS.data, PATHS.docs, PATHS.lessons, PATHS.figures, PATHS.site
COURSE_MAP, MODEL_CONFIGS, RESULTS = PATHS.course_map, PATHS.model_configs, PATHS.results
BUILD, REGISTRY, STAGE_STATE = PATHS.build, PATHS.registry, PATHS.stage_state
EXECUTED_NOTEBOOKS, PLOTLY_JS = PATHS.executed_notebooks, PATHS.plotly_js


def relative(path: Path) -> str:
    """A project path as messages name it: relative to the working directory (a copy of the project
    is built from its own root) or to this project, else whole."""
    for base in (Path.cwd(), ROOT):
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()
