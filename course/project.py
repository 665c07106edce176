"""This course as a project the core builds: its languages, its paths, where its units live, its inputs, its
measurements.

`build.py` (the command line) and the MkDocs plugin (course/mkdocs_plugin.py) both hand `PROJECT` to the
core (course/core/), which knows nothing else about this course.
"""
from __future__ import annotations

from pathlib import Path

from course.core.project import Project
from course.core.words import Words, unit_words
from course.paths import ROOT, CoursePaths

# The languages the course is written in, declared here and nowhere else: Chinese, the default (served at
# the site's root), and English (under en/). Each has its pages (docs/PAGE.md, docs/PAGE.en.md), its words
# file beside every unit's code (words.zh.json, words.en.json) and beside the core's, and an entry in
# mkdocs.yml's i18n plugin (the site engine's, which the course plugin holds to this list).
LANGUAGES = ("zh", "en")


def words(module_file: str) -> Words:
    """The words of the unit whose module this is (`words(__file__)`): words.LANG.json in its folder, in
    every language of the course. `WORDS("key")` is the word in each; `WORDS.lang(lang)("key")` in one."""
    return unit_words(Path(module_file).resolve().parent, LANGUAGES)


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
        languages=LANGUAGES,
        measurements=SmallModelMeasurements(root),
    )


PROJECT = project_at(ROOT)


def units():
    """This course's units, as the build discovers them (for the tests, the scripts and the lab)."""
    from course.core.units import discover
    return discover(PROJECT.unit_packages, PROJECT.languages)
