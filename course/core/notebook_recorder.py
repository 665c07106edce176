"""Records what code reads: inside a notebook's kernel (started there by course/core/notebooks.py), so that
the build re-executes a notebook only when one of those things changes; and, through the same audit hook,
inside the build itself (course/core/reads.py), so that a stage reruns only when what it read changed.

Recorded, as JSON lines appended to a log: every project file the kernel opens for reading (the code it
imports, any data it loads), every project directory it lists (a glob over results, say), and every
registry key it looks up through course.core.lab.registry(), which announces them as audit events. Only
what lies under the project root counts, and not the build's own outputs; the Python environment is
pinned, so it is not recorded. Standard library only: this runs before the notebook has put the project
on sys.path.
"""
from __future__ import annotations

RUN_NAME = "course_notebook_recorder"
EVENTS = {"open", "os.listdir", "os.scandir", "course.lab.registry", "course.lab.key", "course.lab.all"}
SKIPPED = (".venv", ".git", "node_modules", "site", "site.tmp", "site.old", ".pytest_cache",
           ".build/notebooks", ".build/notebook-html")


def audit_hook(root: str, note, from_code, skipped=SKIPPED):
    """An audit hook (for sys.addaudithook) that calls note(kind, value) for each read of a project file
    ("file"), each listing of a project folder ("dir") and each registry key looked up through
    course.core.lab ("key", "all_keys"), when from_code() says the event came from the code being recorded."""
    import os
    import sys

    root = os.path.realpath(root)
    registry = os.path.join(root, ".build", "registry.json")
    skipped = tuple(os.path.join(root, s) + os.sep for s in skipped)
    helper = {"opening_registry": False}

    def project_path(path) -> str | None:
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, (str, os.PathLike)) or os.fspath(path).startswith("<"):
            return None  # a file descriptor, or a name such as "<unknown>" that is no file
        full = os.path.realpath(os.path.join(os.getcwd(), os.fspath(path) or "."))
        if not full.startswith(root + os.sep) or full.startswith(skipped):
            return None
        head, name = os.path.split(full)
        if os.path.basename(head) == "__pycache__":  # compiled code stands for its source
            full = os.path.join(os.path.dirname(head), name.split(".", 1)[0] + ".py")
        return os.path.relpath(full, root).replace(os.sep, "/")

    def on_sys_path(path) -> bool:
        """Listing or probing a folder on sys.path is the import system (or importlib.metadata) looking for
        modules and distributions, not the code reading data."""
        full = os.path.realpath(os.path.join(os.getcwd(), os.fsdecode(path) or "."))
        return any(full == os.path.realpath(os.path.join(os.getcwd(), p or ".")) for p in sys.path if isinstance(p, str))

    def hook(event: str, args: tuple) -> None:
        if event not in EVENTS:
            return
        if event == "open":
            path, mode, flags = args
            rel = project_path(path)  # first: most files a process opens lie outside the project
            if not rel or on_sys_path(path):
                return
            if any(c in mode for c in "wax+") if isinstance(mode, str) else flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                return  # a write is no read
            if helper["opening_registry"] and os.path.join(root, rel) == registry:
                helper["opening_registry"] = False  # read through the helper: its keys are recorded instead
                return
            if from_code():
                note("file", rel)
        elif event in ("os.listdir", "os.scandir"):
            if sys._getframe(1).f_code.co_filename.startswith("<frozen importlib"):
                return  # the import system filling its cache of a package's folder
            path = args[0] if args[0] is not None else "."
            rel = project_path(path)
            if rel and not on_sys_path(path) and from_code():
                note("dir", rel)
        elif event == "course.lab.registry":
            helper["opening_registry"] = True
        elif event == "course.lab.key":
            note("key", args[0])
        elif event == "course.lab.all":
            note("all_keys", True)
    return hook


def start(log_path: str, root: str) -> None:
    """In a notebook's kernel: append each new read of the notebook's own code to `log_path`."""
    import json
    import sys

    log = open(log_path, "a", encoding="utf-8")  # opened before the hook: writing to it raises no event
    seen: set = set()

    def note(kind: str, value) -> None:
        if (kind, value) not in seen:
            seen.add((kind, value))
            log.write(json.dumps({kind: value}) + "\n")
            log.flush()

    def from_notebook() -> bool:
        """Whether the notebook's own code (a cell, or what a cell calls) caused this event, rather than the
        kernel starting up or the import system probing where modules might be."""
        frame = sys._getframe(2)
        if frame.f_code.co_filename.startswith("<frozen zipimport"):
            return False
        while frame is not None:
            code = frame.f_code.co_filename
            if "ipykernel_" in code or code.startswith("<ipython-input"):
                return True
            frame = frame.f_back
        return False

    note("started", True)
    sys.addaudithook(audit_hook(root, note, from_notebook))


if __name__ == RUN_NAME:  # run by the kernel's start-up line, with LOG and ROOT given
    start(LOG, ROOT)  # noqa: F821 (both are passed in by runpy.run_path's init_globals)
