"""Atomic writes and content hashes: the two things every stage needs to be safe and cacheable."""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Iterable


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write to a temporary file beside `path`, then rename over it: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if isinstance(data, bytes) else {"encoding": "utf-8"})) as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes files private; these are ordinary project files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def hash_files(paths: Iterable[Path], root: Path, extra: str = "") -> str:
    """sha256 over the relative names and bytes of `paths` (sorted), plus an optional string."""
    h = hashlib.sha256(extra.encode())
    for p in sorted(set(paths)):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()
