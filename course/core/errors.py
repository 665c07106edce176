"""The build's known errors: each ends in one readable message (what kind of problem, and where), which the
command line prints before exiting with 2. Anything else is a bug somewhere and is shown with its traceback."""
from __future__ import annotations

import traceback


class KnownError(Exception):
    """A problem the build expects and explains: its message names the file and what was expected."""
    kind = "build error"


class InputError(KnownError):
    """A data file is unreadable or invalid. The message names the file, the field and what was expected."""
    kind = "input error"


class ShortcodeError(KnownError, RuntimeError):
    """A page names something that does not exist: a registry key, a widget, a label, a table, a figure, a
    reference."""
    kind = "page error"


class ClaimError(KnownError, RuntimeError):
    """A reading note the results no longer support."""
    kind = "reading notes"


class MissingTool(KnownError):
    """A program the build runs (Node.js, a browser) is not installed."""
    kind = "missing tool"


class StaleResults(KnownError, RuntimeError):
    """Publishing (--frozen) found results that are stale or missing."""
    kind = "stale results"


def describe_failure(e: BaseException) -> str:
    """One line for a known error; the traceback (file and line) for anything else."""
    if isinstance(e, KnownError):
        return f"{e.kind}: {e}"
    return "build failed with an unexpected error:\n" + "".join(traceback.format_exception(e)).rstrip()
