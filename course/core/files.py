"""Atomic writes and content hashes: the two things every stage needs to be safe and cacheable."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

from models.results import write_atomic  # one implementation, shared with the small model's results

__all__ = ["write_atomic", "hash_files"]


def hash_files(paths: Iterable[Path], root: Path, extra: str = "") -> str:
    """sha256 over the relative names and bytes of `paths` (sorted), plus an optional string."""
    h = hashlib.sha256(extra.encode())
    for p in sorted(set(paths)):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()
