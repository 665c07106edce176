"""Interactive widgets: the root element each `<!-- widget:NAME [mode] -->` shortcode becomes.

Each widget is a small JavaScript module in docs/assets/js/widgets/ that finds its root by
`data-widget="NAME"` and reads its settings (numbers from the registry) from `data-config`.
"""
from __future__ import annotations

WIDGETS: dict = {}


def render(name: str, mode: str | None, lang: str) -> str:
    if name not in WIDGETS:
        from course.shortcodes import ShortcodeError
        raise ShortcodeError(f"unknown widget {name!r} (known: {', '.join(WIDGETS) or 'none yet'})")
    return WIDGETS[name](mode, lang)
