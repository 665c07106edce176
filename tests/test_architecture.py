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


def test_the_mkdocs_adapter_is_thin_and_patches_nothing_it_imports():
    """The plugin delegates (at most 150 lines); neither it nor its shims assign to anything they imported
    (a class, a module): a shim changes the one page, index or file it is handed."""
    plugin = ROOT / "course/mkdocs_plugin.py"
    assert len(plugin.read_text(encoding="utf-8").splitlines()) <= 150
    for path in (plugin, ROOT / "course/mkdocs_shims.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {(a.asname or a.name).split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names}
        targets = [t for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                   for t in (node.targets if isinstance(node, ast.Assign) else [node.target])]
        targets += [call.args[0] for call in ast.walk(tree) if isinstance(call, ast.Call) and call.args
                    and isinstance(call.func, ast.Name) and call.func.id == "setattr"]
        patched = []
        for t in targets:
            for part in ast.walk(t):
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id in imported:
                    patched.append(ast.unparse(t))
        assert patched == [], f"{path.name} assigns to what it imported: {patched}"
