"""The build's stages: validate → measurements → numbers → figures → notebooks (the site is the engine's).

Each stage reruns only when something it depends on changed since it last succeeded: the code it can run
(the import closure, through the project's packages, of the stage's own modules and the units' — keyed on
syntax trees, so a comment changes nothing) and every project file it read and folder it listed the last
time it ran (recorded while it ran, course/core/reads.py). Nobody keeps a list of a stage's inputs. The
notebooks stage keys each notebook on what its kernel read (course/core/notebooks.py).

Every output is written atomically; a stage that fails leaves its previous outputs and its record as they
were, so the next build retries it.
"""
from __future__ import annotations

import hashlib
import json
import logging
import sys
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable, Optional

from cachekit import import_closure, load_memo, module_digest, save_memo, write_atomic
from course.core.errors import StaleResults
from course.core.project import Project
from course.core.reads import Reads, fingerprint, recorder
from course.core.units import Units, discover

log = logging.getLogger(__name__)

STAGES = ("validate", "measurements", "numbers", "figures", "notebooks")
CHEAP = ("validate", "measurements", "numbers", "figures")   # what `mkdocs serve` refreshes by itself


@dataclass(frozen=True)
class Options:
    rerun: frozenset = frozenset()   # stage names to rerun even if fresh ("all" for every one)
    frozen: bool = False             # never measure: fail on a stale or missing result
    no_train: bool = False           # never measure: report stale results, use the committed ones
    draft: bool = False              # failing reading notes warn instead of stopping the build

    @property
    def policy(self) -> str:
        """The measurement policy: '' (remake what is stale), 'frozen' or 'no-train'."""
        return "frozen" if self.frozen else "no-train" if self.no_train else ""

    def forced(self, stage: str) -> bool:
        return stage in self.rerun or "all" in self.rerun


@dataclass
class Outcome:
    stage: str
    status: str          # "ran" or "cached"
    seconds: float
    note: str


@dataclass
class Pipeline:
    """The stages of one project, run in one process (a build, or each rebuild of `mkdocs serve`)."""
    project: Project
    ran: list[str] = field(default_factory=list)   # stages that completed in this process (their outputs are new)

    @cached_property
    def _discovered(self) -> tuple[Units, Reads]:
        with recorder(self.project.paths.root).recording() as reads:
            units = discover(self.project.unit_packages, self.project.languages)
        return units, reads

    @property
    def units(self) -> Units:
        return self._discovered[0]

    # ------------------------------------------------------------ keys

    def code_modules(self, stage: str) -> list[str]:
        """The modules a stage can run: this module, the units' modules, and the measurements adapter's."""
        roots = [__name__] + [u.module for u in self.units.all]
        if stage == "measurements" and self.project.measurements is not None:
            roots.append(type(self.project.measurements).__module__)
        return roots

    def code_key(self, stage: str) -> str:
        root = self.project.paths.root
        modules = import_closure(root, self.code_modules(stage), self.project.code_packages)
        h = hashlib.sha256()
        for name, path in sorted(modules.items()):
            h.update(f"{name}\0{module_digest(path)}\0".encode())
        return h.hexdigest()

    def key(self, stage: str, options: Options, reads: Reads) -> str:
        """The stage's key from the reads its record holds (the files discovering the units read are merged
        into the record when it is written): which process computes it, and what that process imported
        before, cannot change it."""
        parts = [stage, self._policy_for(stage, options), self.code_key(stage),
                 fingerprint(self.project.paths.root, reads)]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    @staticmethod
    def _policy_for(stage: str, options: Options) -> str:
        # a check of the measurements keeps its own record, so that switching between --frozen and a plain
        # build does not redo either
        return options.policy if stage == "measurements" else ""

    def state_name(self, stage: str, options: Options) -> str:
        policy = self._policy_for(stage, options)
        return f"{stage}:{policy}" if policy else stage

    def read_state(self) -> dict:
        path = self.project.paths.stage_state
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def write_state(self, state: dict) -> None:
        write_atomic(self.project.paths.stage_state, json.dumps(state, indent=1, ensure_ascii=False) + "\n")

    # ------------------------------------------------------------ running

    def run(self, options: Options, names: tuple[str, ...] = STAGES,
            on_start: Callable[[str], None] = lambda s: log.info(f"[{s}] running")) -> list[Outcome]:
        """Run each stage of `names` whose inputs changed since it last succeeded. A stage that fails
        raises and leaves its old outputs and record."""
        memo = self.project.paths.build / "code-keys.json"
        load_memo(memo)
        try:
            return self._run(options, names, on_start)
        finally:
            save_memo(memo)

    def _run(self, options: Options, names: tuple[str, ...], on_start: Callable[[str], None]) -> list[Outcome]:
        outcomes = []
        for stage in (s for s in STAGES if s in names):
            t0 = time.perf_counter()
            state = self.read_state()
            name = self.state_name(stage, options)
            record = state.get(name, {})
            if not options.forced(stage) and self._fresh(stage, options, record):
                outcomes.append(Outcome(stage, "cached", time.perf_counter() - t0, record.get("note", "")))
                continue
            on_start(stage)
            with recorder(self.project.paths.root).recording() as reads:
                note = getattr(self, f"run_{stage}")(options)
            reads.add(self._discovered[1])
            self.ran.append(stage)
            state = self.read_state()
            state[name] = {"key": self._stage_key(stage, options, reads), "reads": reads.as_json(), "note": note}
            self.write_state(state)
            outcomes.append(Outcome(stage, "ran", time.perf_counter() - t0, note))
        return outcomes

    def _stage_key(self, stage: str, options: Options, reads: Reads) -> str:
        if stage == "notebooks":
            from course.core.notebooks import stage_key
            from course.core.static_figures import renderer_key
            # what each notebook's kernel read, and what draws the static renderings of its figures
            return stage_key(self.project.paths) + renderer_key(self.project.paths)
        return self.key(stage, options, reads)

    def _fresh(self, stage: str, options: Options, record: dict) -> bool:
        if "key" not in record:
            return False
        if record["key"] != self._stage_key(stage, options, Reads.from_json(record.get("reads", {}))):
            return False
        checking = stage == "measurements" and options.policy
        return checking or all(p.exists() for p in self.outputs(stage))

    def watched_folders(self) -> list[Path]:
        """The project's top-level folders that hold code the stages run or files they read."""
        root, state = self.project.paths.root, self.read_state()
        rels = set(self._discovered[1].files)
        for record in state.values():
            if isinstance(record, dict):
                rels |= set(record.get("reads", {}).get("files", [])) | set(record.get("reads", {}).get("dirs", []))
        for stage in CHEAP:
            modules = import_closure(root, self.code_modules(stage), self.project.code_packages)
            rels |= {self.project.paths.relative(p) for p in modules.values()}
        docs = self.project.paths.relative(self.project.paths.docs)
        tops = sorted({r.split("/")[0] for r in rels if "/" in r} - {docs})
        return [root / t for t in tops if (root / t).is_dir()]

    def outputs(self, stage: str) -> list[Path]:
        paths = self.project.paths
        if stage == "measurements":
            return self.project.measurements.outputs() if self.project.measurements else []
        if stage == "numbers":
            return [paths.registry]
        if stage == "figures":
            from course.core.figures import figure_files
            return figure_files([f.name for _, f in self.units.figures()], paths, self.project.languages)
        if stage == "notebooks":
            from course.core.notebooks import executed_path, sources
            from course.core.static_figures import INDEX, INLINE
            return [executed_path(paths, p) for p in sources(paths)] + [paths.figures / INLINE / INDEX]
        return []

    # ------------------------------------------------------------ the stages

    def run_validate(self, options: Options) -> str:
        from course.core.errors import InputError
        from course.core.references import build_references, load_course_map
        inputs = self.project.load_inputs()
        paths = self.project.paths
        try:
            refs = build_references(load_course_map(paths.course_map), self.units.written(), paths.docs,
                                    self.project.languages)
        except ValueError as e:
            raise InputError(f"{paths.relative(paths.course_map)}: {e}") from None
        notes = [u.validate(inputs) for u in self.units.all if u.validate]
        return "; ".join(notes + [f"{len(refs.targets)} chapters, lessons and topics on the course map"])

    def run_measurements(self, options: Options) -> str:
        m = self.project.measurements
        if m is None:
            return "nothing to measure"
        if options.frozen or options.no_train:
            found = m.stale()
            if not found:
                return "all results current"
            lines = [f"{path}: {why}" for path, why in found.items()]
            if options.frozen:
                raise StaleResults(f"{len(found)} result(s) stale or missing (run `make refresh` and commit):\n    "
                                   + "\n    ".join(lines))
            for line in lines:
                log.info(f"    stale    {line}")
            return f"{len(found)} stale or missing, kept as committed (--no-train)"
        return m.refresh(force=options.forced("measurements"))

    def run_numbers(self, options: Options) -> str:
        from course.core.claims import ClaimError
        from course.core.numbers import build_registry, check_all_claims
        from course.core.registry import changes
        paths = self.project.paths
        reg = build_registry(self.units, self.project.load_inputs(), paths.root)
        try:
            claims = check_all_claims(self.units, reg, paths)  # a note the results no longer support stops here
        except ClaimError as e:
            if not options.draft:
                raise
            log.info(f"    draft: {e}")  # a report: a warning would stop a strict build, which --draft lets go on
            claims = "not all"
        old = json.loads(paths.registry.read_text(encoding="utf-8")) if paths.registry.exists() else {}
        new = reg.to_json()
        reg.write(paths.registry)
        diff = changes(old, new) if old else []
        for line in diff[:200]:
            log.info(f"    changed  {line}")
        if len(diff) > 200:
            log.info(f"    ... and {len(diff) - 200} more")
        return (f"{len(new)} numbers, {claims} claims hold"
                + (f", {len(diff)} changed since the previous build" if old else " (first build)"))

    def run_figures(self, options: Options) -> str:
        from course.core.figures import write_figures
        return f"{len(write_figures(self.units, self.project.figure_sources(), self.project.paths))} figures"

    def run_notebooks(self, options: Options) -> str:
        from course.core.notebooks import execute_stale, html_outputs
        from course.core.static_figures import render_inline
        note = execute_stale(self.project.paths, force=options.forced("notebooks"))
        return f"{note}; {render_inline(self.project.paths, html_outputs(self.project.paths))} figures of theirs as static images"


def forget_modules(packages: tuple[str, ...]) -> None:
    """Drop every imported module of these packages, so the next import reads the edited code."""
    import importlib
    for name in [n for n in sys.modules if n.split(".")[0] in packages]:
        del sys.modules[name]
    importlib.invalidate_caches()
