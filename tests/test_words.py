"""Words are data: each unit's words (and the core's) in one file per declared language, the same keys in each;
a word missing in one language, or asked for and absent, fails naming the unit's folder, the key and the
language."""
import json

import pytest

from conftest import LANGS, ROOT
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
