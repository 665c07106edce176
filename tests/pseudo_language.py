"""A pseudo language made from English, for the test that adding a language is adding files (and one line:
the language's code in the project's declaration, course/project.py's LANGUAGES).

Every English text becomes ⟦text⟧ in the pseudo language: each unit's words (words.xx.json beside
words.en.json, the core's too), every text a data file gives per language ({"zh": …, "en": …} gains "xx"),
every English page and notebook (docs/PAGE.xx.md beside docs/PAGE.en.md; a notebook's LANG = "en" is its
language), the site engine's entry for the language (mkdocs.yml's i18n plugin) and the theme's words for it.
A text that is a number (the count a language reads parameters in, "1e9") stays a number.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import yaml

from course.project import LANGUAGES

BASE = "en"     # the language the pseudo one is made from
# folders whose JSON files may hold texts per language (the results, the official configs and the built
# outputs hold none)
JSON_FOLDERS = ("course", "chapters", "lessons", "data")
SKIPPED = ("data/results", "data/model-configs", "node_modules", ".venv", ".build", "site", "figures")


def pseudo(text: str) -> str:
    try:
        float(text)
        return text
    except ValueError:
        return f"⟦{text}⟧"


def add_pseudo_language(root: Path, code: str = "xx") -> list[Path]:
    """Add the pseudo language `code` to the project at `root`; returns the files written or edited."""
    touched: list[Path] = []

    def write(path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")
        touched.append(path)

    # the declaration: one more code in the project's languages
    project = root / "course/project.py"
    text = project.read_text(encoding="utf-8")
    declared = re.search(r'^LANGUAGES = \(([^)]*)\)', text, re.M)
    write(project, text.replace(declared.group(0), f'LANGUAGES = ({declared.group(1)}, "{code}")'))
    # the words: beside every words.en.json
    for words in sorted(root.glob(f"**/words.{BASE}.json")):
        if any(part in SKIPPED for part in words.relative_to(root).parts):
            continue
        table = json.loads(words.read_text(encoding="utf-8"))
        write(words.with_name(f"words.{code}.json"),
              json.dumps({k: pseudo(v) for k, v in table.items()}, ensure_ascii=False, indent=1) + "\n")
    # the data files' texts per language (claims, label tables, the course map, the evolution table, …)
    for folder in JSON_FOLDERS:
        for path in sorted((root / folder).rglob("*.json")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith(SKIPPED) or re.search(r"words\.\w+\.json$", rel):
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
            if _with_pseudo(data, code):
                write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    # the pages and notebooks
    for page in sorted((root / "docs").rglob(f"*.{BASE}.md")):
        dest = page.with_name(page.name.replace(f".{BASE}.md", f".{code}.md"))
        shutil.copyfile(page, dest)
        touched.append(dest)
    for nb in sorted((root / "docs").rglob(f"*.{BASE}.ipynb")):
        text = nb.read_text(encoding="utf-8").replace(f'LANG = \\"{BASE}\\"', f'LANG = \\"{code}\\"')
        write(nb.with_name(nb.name.replace(f".{BASE}.ipynb", f".{code}.ipynb")), text)
    # the site engine: the language in mkdocs.yml's i18n plugin, the theme's words for it
    mkdocs = root / "mkdocs.yml"
    text = mkdocs.read_text(encoding="utf-8")
    config = yaml.load(text, Loader=_Loader)
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    base = next(lang for lang in i18n["languages"] if lang["locale"] == BASE)
    entry = [f"        - locale: {code}", f"          name: {pseudo(base['name'])}", "          build: true",
             f"          site_name: {json.dumps(pseudo(base['site_name']), ensure_ascii=False)}",
             "          nav_translations:"]
    entry += [f"            {k}: {json.dumps(pseudo(v), ensure_ascii=False)}" for k, v in base["nav_translations"].items()]
    anchor = "\n  - mkdocs-jupyter:"
    write(mkdocs, text.replace(anchor, "\n" + "\n".join(entry) + "\n" + anchor, 1))
    theme = root / "overrides/partials/languages"
    theme.mkdir(parents=True, exist_ok=True)
    import material
    partial = (Path(material.__file__).parent / f"templates/partials/languages/{BASE}.html").read_text(encoding="utf-8")
    write(theme / f"{code}.html", partial.replace(f'"language": "{BASE}"', f'"language": "{code}"'))
    return touched


def _with_pseudo(node, code: str) -> bool:
    """Give every text per language in `node` its pseudo one; whether any was given."""
    changed = False
    if isinstance(node, dict):
        if set(LANGUAGES) <= set(node) and isinstance(node[BASE], str) and code not in node:
            node[code] = pseudo(node[BASE])
            changed = True
        for v in list(node.values()):
            changed |= _with_pseudo(v, code)
    elif isinstance(node, list):
        for v in node:
            changed |= _with_pseudo(v, code)
    return changed


class _Loader(yaml.SafeLoader):
    """mkdocs.yml with its !ENV tags read as plain values."""


_Loader.add_constructor("!ENV", lambda loader, node: None)
