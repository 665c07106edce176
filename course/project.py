"""This course as a project the core builds: its paths, where its units live, its inputs, its measurements.

`build.py` (the command line) and the MkDocs plugin (course/mkdocs_plugin.py) both hand `PROJECT` to the
core (course/core/), which knows nothing else about this course.
"""
from __future__ import annotations

from pathlib import Path

from course.core.project import Project
from course.paths import ROOT, CoursePaths


class SmallModelMeasurements:
    """The project's training runs and benchmarks (models/measure.py), as the build's measurements stage
    sees them: on the reference device (the CPU every machine has), whose results the pages quote."""

    def __init__(self, root: Path):
        self.root = root

    def stale(self) -> dict[str, str]:
        from models.measure import stale
        return stale(self.root)

    def refresh(self, force: bool) -> str:
        from models.measure import refresh
        return refresh(self.root, force=force)

    def outputs(self) -> list[Path]:
        from models.measure import expected_outputs
        return expected_outputs(self.root)


def project_at(root: Path) -> Project:
    """The course with its data under `root` (this checkout, or a copy of it the tests edit)."""
    paths = CoursePaths.at(root)

    def load_inputs():
        from course.common.schema import load_inputs as load
        return load(root)

    def figure_sources():
        from course.common.measured import load_results
        return load_results(paths.results)

    return Project(
        paths=paths,
        unit_packages=("course.common", "chapters", "lessons"),
        code_packages=("cachekit", "chapters", "course", "lessons", "models"),
        load_inputs=load_inputs,
        figure_sources=figure_sources,
        measurements=SmallModelMeasurements(root),
    )


PROJECT = project_at(ROOT)


def units():
    """This course's units, as the build discovers them (for the tests, the scripts and the lab)."""
    from course.core.units import discover
    return discover(PROJECT.unit_packages)
