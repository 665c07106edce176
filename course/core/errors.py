"""The build's own errors, each ending in one readable message (build.py prints it and exits with 2)."""


class ShortcodeError(RuntimeError):
    """A page names something that does not exist: a registry key, a widget, a label, a table, a figure."""
