"""What a cache needs, for the build and for the small model's refresh alike: content keys of files and of
Python code, and atomic writes. It imports nothing of the project, so both sides can use it without
depending on each other.

A code key is taken over the syntax tree, not the bytes: comments, docstrings, blank lines and layout do not
change it, a change of what the code computes does. `import_closure` follows a module's imports (those at
the top and those inside functions) through the project's own packages, so a key covers every module the
code it keys can run.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Iterable

__all__ = ["write_atomic", "hash_files", "code_digest", "module_digest", "import_closure", "module_file",
           "load_memo", "save_memo"]

# What parsing a file gave, by (kind, path, mtime, size): a file not touched since is not parsed again. It can
# be kept between processes (load_memo/save_memo), which makes a build that changed nothing cheap to key.
_MEMO: dict[str, object] = {}


def _memo_key(kind: str, path: Path) -> str:
    st = path.stat()
    # the absolute path, not the resolved one: resolving every part of every path keyed was most of a
    # rebuild's staleness check while serving, and a file reached by two names only costs a second entry
    return f"{kind}\0{os.path.abspath(path)}\0{st.st_mtime_ns}\0{st.st_size}"


def load_memo(path: Path) -> None:
    try:
        _MEMO.update(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass


def save_memo(path: Path) -> None:
    write_atomic(path, json.dumps(_MEMO, sort_keys=True))


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


# ---------------------------------------------------------------- keys of code

def _without_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def code_digest(source: str) -> str:
    """sha256 of a module's syntax tree without docstrings: comments and layout leave it unchanged."""
    tree = _without_docstrings(ast.parse(source))
    return hashlib.sha256(ast.dump(tree, include_attributes=False).encode()).hexdigest()


def module_digest(path: Path) -> str:
    """The code key of a Python file, or of any other file's bytes (a JSON file a module reads)."""
    key = _memo_key("digest", path)
    if key not in _MEMO:
        _MEMO[key] = _digest(path)
    return _MEMO[key]


def _digest(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".py":
        try:
            return code_digest(data.decode("utf-8"))
        except SyntaxError:
            pass  # a file that does not parse is keyed on its bytes: editing it still changes the key
    return hashlib.sha256(data).hexdigest()


def module_file(root: Path, module: str) -> Path | None:
    """models.train → root/models/train.py, a package → its __init__.py; None outside the project."""
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name a module imports, at its top or inside functions, absolute or relative."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[:len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)  # `from pkg import module`
    return names


def import_closure(root: Path, modules: Iterable[str], packages: Iterable[str]) -> dict[str, Path]:
    """The modules `modules` can run, following imports through `packages` (the project's own, under
    `root`): module name → file. Imports of anything else (the standard library, installed packages) are
    the environment's, which the project pins, and are not followed."""
    packages = tuple(packages)
    found: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in found or name.split(".")[0] not in packages:
            continue
        path = module_file(root, name)
        if path is None:
            continue
        found[name] = path
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)  # importing a.b runs a/__init__.py first
        key = _memo_key(f"imports {name}", path)
        if key not in _MEMO:
            _MEMO[key] = sorted(_imported(ast.parse(path.read_bytes()), name, path.name == "__init__.py"))
        todo.extend(_MEMO[key])
    return found
