"""Words are data: each unit's words (and the core's) in one file per declared language, the same keys in each;
a word missing in one language, or asked for and absent, fails naming the unit's folder, the key and the
language."""
import json
import os

import pytest

from conftest import LANGS, ROOT
from course.core.languages import Languages
from course.core.words import Words, WordsError, core_words


def words_at(tmp_path, tables: dict, languages=("zh", "en")) -> Words:
    folder = tmp_path / "lessons" / "c9_probe"
    folder.mkdir(parents=True)
    for lang, table in tables.items():
        (folder / f"words.{lang}.json").write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    return Words(folder, languages)


def test_a_word_comes_in_every_language_with_its_blanks_filled(tmp_path):
    w = words_at(tmp_path, {"zh": {"right": "{k} 个单元分对的点数", "run": "{what}，种子 {seeds}"},
                            "en": {"right": "{k} units: points right", "run": "{what}, seeds {seeds}"}})
    assert w("right", k=3) == {"zh": "3 个单元分对的点数", "en": "3 units: points right"}
    assert w.lang("en")("right", k=4) == "4 units: points right"
    # a value may itself be one text per language
    assert w("run", what=w("right", k=2), seeds="1/2") == {"zh": "2 个单元分对的点数，种子 1/2",
                                                         "en": "2 units: points right, seeds 1/2"}
    assert w.join("list", ["a", {"zh": "乙", "en": "b"}]) == {"zh": "a、乙", "en": "a, b"}
    assert w.used == {"right", "run"}


def test_a_missing_word_names_the_unit_the_key_and_the_language(tmp_path):
    w = words_at(tmp_path, {"zh": {"title": "探针", "only_zh": "只有中文"}, "en": {"title": "Probe"}})
    with pytest.raises(WordsError, match=r"lessons/c9_probe: no word 'only_zh' in words.en.json \(language en\)"):
        w.check()
    with pytest.raises(WordsError, match=r"lessons/c9_probe: no word 'nothing' in words.zh.json \(language zh\)"):
        w("nothing")


def test_a_missing_words_file_and_a_blank_the_code_does_not_fill_are_named(tmp_path):
    w = words_at(tmp_path, {"zh": {"x": "{n} 行"}}, languages=("zh", "en", "xx"))
    with pytest.raises(WordsError, match=r"lessons/c9_probe: words.en.json is missing \(language en\)"):
        w.check()
    with pytest.raises(WordsError, match="has the blank 'n', which the code does not fill"):
        w.lang("zh")("x")


def test_every_words_file_of_the_course_has_every_language_with_the_same_keys():
    folders = {p.parent for p in ROOT.glob("**/words.*.json") if ".venv" not in p.parts and "node_modules" not in p.parts}
    assert ROOT / "course/core" in folders
    for folder in sorted(folders):
        Words(folder, tuple(LANGS)).check()
        keys = [list(json.loads((folder / f"words.{lang}.json").read_text(encoding="utf-8"))) for lang in LANGS]
        assert all(k == keys[0] for k in keys), f"{folder}: the words files list their keys in different orders"


def test_the_core_has_its_own_words_in_each_language():
    core = core_words(tuple(LANGS))
    core.check()
    assert core.lang(LANGS[0])("rows", n=3) == "3 行"


def test_every_word_is_asked_for(units, reg, tmp_path):
    """No unit keeps a word nobody asks for: everything the build says is said here, in every language, and
    each unit's words record what was asked (their numbers' provenance as the registry was built, their
    figures, every page's shortcodes with the tables, widgets and references they expand); a word only the
    lab's notebook asks for (lab.*, check.*) is named in the lab's code or its notebook's cells."""
    import ast

    from course.core.figures import build_figures
    from course.core.references import build_references, load_course_map
    from course.core.shortcodes import PageContext, expand
    from course.project import PROJECT
    langs = PROJECT.languages
    for n in reg.numbers.values():        # the hover of every number, in every language
        for lang in langs:
            n.hover(lang)
    from course.core.static_figures import INDEX, STATIC, jobs
    figures = build_figures(units, PROJECT.figure_sources())
    for name, fig in figures.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(fig, ensure_ascii=False), encoding="utf-8")
    # the static renderings' index, as the figures stage writes it (no image is drawn: pages only link them)
    (tmp_path / STATIC).mkdir()
    (tmp_path / STATIC / INDEX).write_text(json.dumps(
        {f"{name}.{lang}": {j.variant: {"file": f"{name}.{lang}.{j.variant}.svg", "width": 1, "height": 1}
                            for j in jobs(name, {})} for name in figures for lang in langs}), encoding="utf-8")
    refs = build_references(load_course_map(PROJECT.paths.course_map), units.written(), PROJECT.paths.docs, langs)
    docs = PROJECT.paths.docs
    for page in sorted(docs.rglob("*.md")):
        src = page.relative_to(docs).as_posix()
        lang = Languages(langs).of_page(src)
        stem = Languages(langs).stem(src)
        ctx = PageContext(registry=reg, units=units, lang=lang, where=src, figures=tmp_path, refs=refs,
                          unit=units.owner_of_page(src), url=Languages(langs).url_prefix(lang) + stem + "/",
                          used_keys=set(reg.numbers), draft=os.environ.get("COURSE_TEST_BUILD") == "draft")
        expand(page.read_text(encoding="utf-8"), ctx)
    unused = [f"{u.words.owner}: {key}" for u in units.all for key in u.words.keys() if not asked(u, key)]
    assert unused == [], "words nobody asks for (remove them from every words.LANG.json):\n" + "\n".join(unused)


# the words a data value picks (a model config's provenance grade, a reference's kind): one per value the
# schema allows, whichever the data uses today
DATA_KEYED = {"grade.": ("FileProvenance", "grade"), "reference.": ("Paper", "kind")}


def strings_in(*sources: str) -> set[str]:
    """Every string constant of some Python sources (a notebook cell that is not Python is skipped)."""
    import ast
    out = set()
    for text in sources:
        try:
            out |= {n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        except SyntaxError:
            pass
    return out


def asked(unit, key: str) -> bool:
    """A word is asked for when the build asked for it (its `used`), when the unit's code names its key (a
    branch the committed data does not take: a single device, a missing run), or, for a word the data picks,
    when the schema allows that value. The lab's words are asked for by its notebook: lab.KEY where a cell or
    the lab's code names KEY, check.KEY where the lab's code does."""
    import typing

    import nbformat

    from course.common import schema
    if key in unit.words.used or key in ("title", "question", "notebook.title", "notebook.question", "overview"):
        return True
    code = [p.read_text(encoding="utf-8") for p in sorted(unit.folder.glob("*.py"))]
    for prefix, (model, field) in DATA_KEYED.items():
        if key.startswith(prefix) and unit.id == "course":
            allowed = typing.get_args(getattr(schema, model).model_fields[field].annotation)
            return key.removeprefix(prefix) in {v.replace(" ", "_") for v in allowed}
    if key.startswith(("lab.", "check.")):
        cells = [c.source for nb in unit.notebooks for lang_nb in sorted(ROOT.glob(f"docs/{nb}*.ipynb"))
                 for c in nbformat.read(lang_nb, as_version=4).cells if c.cell_type == "code"]
        return key.split(".")[-1] in strings_in(*code, *(cells if key.startswith("lab.") else []))
    return key in strings_in(*code)
