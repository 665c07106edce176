"""The flow runs one way. The core (course/core/) is a library: it imports nothing of the build's command
line, this course's units, the lessons, the chapters, the small model or a site engine; the small model
(models/) imports nothing of the site; the MkDocs adapter is a plugin registered as an entry point."""
import ast
from importlib.metadata import entry_points

from conftest import ROOT

FORBIDDEN_IN_CORE = ("build", "course.common", "course.project", "course.paths", "course.mkdocs_plugin",
                     "course.mkdocs_shims",
                     "chapters", "lessons", "models", "mkdocs")


def imports(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_core_imports_nothing_of_the_project_or_an_engine():
    bad = {f"{p.relative_to(ROOT)}: {n}" for p in (ROOT / "course/core").glob("*.py") for n in imports(p)
           if any(n == f or n.startswith(f + ".") for f in FORBIDDEN_IN_CORE)}
    assert bad == set()


def test_the_small_model_imports_nothing_of_the_site():
    bad = {f"{p.relative_to(ROOT)}: {n}" for p in (ROOT / "models").glob("*.py") for n in imports(p)
           if n.split(".")[0] in ("course", "lessons", "chapters", "build", "mkdocs")}
    assert bad == set()


def test_the_mkdocs_adapter_is_a_plugin_entry_point():
    found = [e for e in entry_points(group="mkdocs.plugins") if e.name == "course"]
    assert [e.value for e in found] == ["course.mkdocs_plugin:CoursePlugin"]
    assert "hooks:" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
