"""What a stage of the build read: every project file it opened and every project folder it listed, recorded
while it runs by the same audit hook a notebook's kernel uses (course/core/notebook_recorder.py), and a
fingerprint of each, so that the stage reruns exactly when one of them changed.

Code is keyed on its syntax tree (cachekit), so an edited comment reruns nothing; a data file on its
bytes; a folder on the names it holds (a new result file in a folder a stage globbed reruns that stage).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cachekit import module_digest
from course.core import notebook_recorder

# the build's own bookkeeping is no input of any stage
SKIPPED = notebook_recorder.SKIPPED + (".build/stages.json", ".build/code-keys.json", "figures")


@dataclass
class Reads:
    files: set[str] = field(default_factory=set)    # project paths, relative to the root
    dirs: set[str] = field(default_factory=set)

    def add(self, other: "Reads") -> None:
        self.files |= other.files
        self.dirs |= other.dirs

    def as_json(self) -> dict:
        return {"files": sorted(self.files), "dirs": sorted(self.dirs)}

    @classmethod
    def from_json(cls, d: dict) -> "Reads":
        return cls(set(d.get("files", [])), set(d.get("dirs", [])))


class Recorder:
    """One audit hook per process (an audit hook cannot be removed), routed to the recordings open now."""

    def __init__(self, root: Path):
        self.root = root
        self.active: list[Reads] = []
        sys.addaudithook(notebook_recorder.audit_hook(str(root), self._note, lambda: bool(self.active), SKIPPED))

    def _note(self, kind: str, value) -> None:
        for reads in self.active:
            (reads.files if kind == "file" else reads.dirs if kind == "dir" else set()).add(value)

    @contextlib.contextmanager
    def recording(self):
        reads = Reads()
        self.active.append(reads)
        try:
            yield reads
        finally:
            self.active.remove(reads)


_RECORDERS: dict[Path, Recorder] = {}


def recorder(root: Path) -> Recorder:
    root = root.resolve()
    if root not in _RECORDERS:
        _RECORDERS[root] = Recorder(root)
    return _RECORDERS[root]


def fingerprint(root: Path, reads: Reads) -> str:
    """One hash over what the recorded files and folders hold now."""
    h = hashlib.sha256()
    for rel in sorted(reads.files):
        p = root / rel
        h.update(f"file {rel}\0{module_digest(p) if p.is_file() else 'missing'}\0".encode())
    for rel in sorted(reads.dirs):
        p = root / rel
        names = sorted(os.listdir(p)) if p.is_dir() else ["<missing>"]
        h.update(f"dir {rel}\0{chr(0).join(names)}\0".encode())
    return h.hexdigest()
