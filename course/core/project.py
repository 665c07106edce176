"""What a project hands the core: where its files are, which packages hold its units, how to load its
validated inputs and, if it measures anything, how to check and refresh its measurements.

The core knows no chapter, no lesson and no model: a project describes itself with a `Project` (this
course's is `course/project.py`), and the build's command line and the MkDocs adapter pass it on.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Protocol

from course.core.languages import Languages


@dataclass(frozen=True)
class Paths:
    """Every path the core reads or writes, under one root."""
    root: Path
    docs: Path
    build: Path                 # everything the build derives and nobody commits
    site: Path
    figures: Path               # each figure: NAME.json (what the pages draw) and NAME.LANG.html (standalone)
    plotly_uri: str             # plotly.js, vendored under docs/ (the one copy every chart loads)
    katex_uri: str              # KaTeX's folder, vendored under docs/: katex.min.js renders the formulas at build
    course_map: Path            # every chapter, lesson and topic the course names, written or planned

    @classmethod
    def under(cls, root: Path, plotly_uri: str, course_map: str = "data/course-map.json",
              katex_uri: str = "assets/vendor/katex") -> "Paths":
        return cls(root=root, docs=root / "docs", build=root / ".build", site=root / "site",
                   figures=root / "figures", plotly_uri=plotly_uri, katex_uri=katex_uri, course_map=root / course_map)

    @property
    def plotly_js(self) -> Path:
        return self.docs / self.plotly_uri

    @property
    def katex_js(self) -> Path:
        return self.docs / self.katex_uri / "katex.min.js"

    @property
    def katex_css_uri(self) -> str:
        return f"{self.katex_uri}/katex.min.css"

    def katex_font_uri(self, name: str) -> str:
        return f"{self.katex_uri}/fonts/KaTeX_{name}.woff2"

    @property
    def rendered_formulas(self) -> Path:
        return self.build / "formulas.json"

    @property
    def registry(self) -> Path:
        return self.build / "registry.json"

    @property
    def stage_state(self) -> Path:
        return self.build / "stages.json"

    @property
    def executed_notebooks(self) -> Path:
        return self.build / "notebooks"

    def relative(self, path: Path) -> str:
        """A project path as messages name it: relative to the root, else whole."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()


class Measurements(Protocol):
    """A project that measures (trains, benchmarks) tells the build how to keep its results current."""

    def stale(self) -> dict[str, str]:
        """Result file → why it is stale or missing; {} when every result is current."""

    def refresh(self, force: bool) -> str:
        """Remake what is stale (everything when `force`); a one-line summary."""

    def outputs(self) -> list[Path]:
        """The result files a fresh measurement leaves behind."""


@dataclass(frozen=True)
class Project:
    paths: Paths
    # where the units are: a module whose UNIT is one, or a package each of whose subpackages defines UNIT;
    # listed in build order (the course-wide unit first, so every chapter and lesson can quote its numbers)
    unit_packages: tuple[str, ...]
    # the project's own top-level packages: imports are followed through these for the stages' keys, and
    # `mkdocs serve` re-imports them when one of their modules is edited
    code_packages: tuple[str, ...]
    load_inputs: Callable[[], Any]                # the validated inputs every unit's numbers receive
    figure_sources: Callable[[], Any]             # what the figure builders draw from (measured results)
    # the languages the site is written in, the default (served at the site's root) first: every page, every
    # unit's words file (course/core/words.py) and every figure comes in each (course/core/languages.py)
    languages: tuple[str, ...]
    measurements: Optional[Measurements] = None

    def __post_init__(self):
        Languages(self.languages)   # one or more, each once
