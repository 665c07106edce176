"""The course engine, as a library: the number registry and its formats, input loading, the stages of the
build (pipeline), shortcodes and cross-references, tables, claims, figure and widget helpers, the notebook
runner and the pages' side of a build (site). It knows no chapter, no lesson, no model and no site engine:
a project describes itself with a `Project` (project.py) and an adapter (course/mkdocs_plugin.py) drives it."""
