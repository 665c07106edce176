"""The machinery every lesson shares: paths, the number registry and its formats, input loading, shortcodes,
the mkdocs hook, tables, claims, figure and widget helpers. It knows no lesson: lessons are discovered
(course/core/units.py) and bring their own numbers, widgets, figures and claims."""
