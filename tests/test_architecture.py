"""The flow runs one way. The core (course/core/) is a library: it imports nothing of the build's command
line, this course's units, the lessons, the chapters, the small model or a site engine; the small model
(models/) imports nothing of the site; the MkDocs adapter is a plugin registered as an entry point."""
import ast
import re
from importlib.metadata import entry_points

from conftest import LANGS, ROOT

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


# ---------------------------------------------------------------- languages are data

UNIT_CODE = ("lessons", "chapters", "course/common")
CJK = re.compile(r"[\u3400-\u9fff]")


def language_findings(path, root=ROOT) -> list[str]:
    """Where a unit's code holds words or branches on a language, instead of asking its words files: a string
    that is a language's code ({"zh": …}, lang == "en", x["zh"]), a name or keyword with a language's code as
    a part (what_zh, zh=…), a comparison with the page's language (lang == …, " " * (lang == …)), a Chinese
    string outside a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}

    def is_lang(node) -> bool:
        return (isinstance(node, ast.Name) and node.id == "lang") or (isinstance(node, ast.Attribute) and node.attr == "lang")

    def named_after_a_language(name: str) -> bool:
        return any(part.lower() in LANGS for part in name.split("_"))

    out = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in LANGS:
                out.append(f"{where}: the language code {node.value!r}")
            elif CJK.search(node.value):
                out.append(f"{where}: Chinese words in code: {node.value[:40]!r}")
        elif isinstance(node, ast.Compare) and any(is_lang(x) for x in [node.left, *node.comparators]):
            out.append(f"{where}: a comparison with the page's language")
        elif isinstance(node, ast.Name) and named_after_a_language(node.id):
            out.append(f"{where}: the name {node.id!r}")
        elif isinstance(node, ast.arg) and named_after_a_language(node.arg):
            out.append(f"{where}: the parameter {node.arg!r}")
        elif isinstance(node, ast.keyword) and node.arg and named_after_a_language(node.arg):
            out.append(f"{where}: the keyword {node.arg}=")
    return out


def test_units_name_no_language_and_hold_no_words_in_code():
    """Languages are data: the course's, its chapters' and its lessons' code computes and names keys, and
    their words are in each unit's words.LANG.json (course/core/words.py); nothing in their code says which
    languages there are, so adding one is adding files."""
    files = [p for top in UNIT_CODE for p in sorted((ROOT / top).rglob("*.py"))]
    assert files
    found = [f for p in files for f in language_findings(p)]
    assert found == [], "\n".join(found)


def script_language_findings(path, root=ROOT) -> list[str]:
    """Where a script (the site's, a widget's) names a language instead of taking the page's from the page: a
    language's code as a string ("zh"), a key ({zh: …}) or a property (labels.en), or Chinese words in code."""
    codes = "|".join(map(re.escape, LANGS))
    patterns = {"the language code": rf"""(["'])({codes})\1""", "a key named after a language": rf"(?<![\w.$])({codes})\s*:",
                "a property named after a language": rf"\.({codes})\b", "Chinese words in code": CJK.pattern}
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"), flags=re.S)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        code = re.sub(r"(^|\s)//.*$", "", line)   # a comment may say which languages there are
        out += [f"{path.relative_to(root)}:{n}: {what}: {code.strip()[:60]}"
                for what, pattern in patterns.items() if re.search(pattern, code)]
    return out


def test_scripts_name_no_language():
    """The site's and the widgets' scripts take the page's language from the page (<html lang>, data-lang) and
    look labels up by it (docs/assets/js/common.js CW.lang, CW.t): none names a language, so a new one needs
    no script edited, and a label missing in it is an error rather than another language's text."""
    files = sorted((ROOT / "docs/assets/js").glob("*.js")) + [p for top in UNIT_CODE for p in sorted((ROOT / top).rglob("js/*.js"))]
    assert len(files) > 10
    found = [f for p in files for f in script_language_findings(p)]
    assert found == [], "\n".join(found)


def test_the_script_language_test_finds_a_code_a_key_and_a_property(tmp_path):
    sample = tmp_path / "sample.js"
    sample.write_text('// a comment may name zh and en\n'
                      'var HINT = { zh: "中文", en: "English" };\n'
                      'var l = lang.indexOf("zh") === 0 ? labels.zh : labels.en;\n', encoding="utf-8")
    found = script_language_findings(sample, tmp_path)
    assert len(found) == 4, found   # line 2: a key, Chinese words; line 3: a code, a property (each kind once a line)


def test_the_language_test_finds_a_bilingual_literal_and_a_branch(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""A docstring may say 中文."""\n'
                      'T = {"zh": "标题", "en": "Title"}\n'
                      'def f(lang, what_zh):\n'
                      '    return "，" if lang == LANG else ", "\n', encoding="utf-8")
    found = language_findings(sample, tmp_path)
    assert len(found) == 5, found   # "zh", "en", 标题, what_zh, lang == …
