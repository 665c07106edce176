"""The search index's subjects (course/core/search.py): each unit's page gets its subjects in the index's own
words, in a field that outweighs a title, and a unit whose page the index lacks stops the build."""
import json

import pytest

from course.core.search import FIELD, SearchIndexError, add_subjects, longest_match
from course.core.units import Unit, Units
from course.project import LANGUAGES, units as discover

LANGS = tuple(LANGUAGES)
WORD = "\u200b"   # how the index marks a word boundary in a Han run


def index_with(tmp_path, docs: list[dict]):
    path = tmp_path / "search_index.json"
    config = {"separator": r"[\s\u200b、,]+", "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}}}
    path.write_text(json.dumps({"config": config, "docs": docs}), encoding="utf-8")
    return path


def unit(tmp_path, subjects: dict[str, str]) -> Units:
    return Units((Unit(id="probe", folder=tmp_path, namespace="probe", order=(9, 1), pages=("c9/probe",),
                       subjects=subjects),), LANGS)


def test_a_han_run_is_cut_into_the_longest_words_of_the_index():
    words = {"残差", "流", "残", "差流"}
    assert longest_match("残差流", words) == ["残差", "流"]
    assert longest_match("残差流差", words) == ["残差", "流", "差"]   # a character no word starts with stands alone


def test_a_units_page_gets_its_subjects_in_the_indexs_words_and_the_field_outweighs_a_title(tmp_path):
    default, *others = LANGS
    docs = [{"location": "c9/probe/", "title": f"残差{WORD}流", "text": ""},
            {"location": "c9/probe/#step", "title": "x", "text": ""},
            *({"location": f"{lang}/c9/probe/", "title": "residual stream", "text": ""} for lang in others)]
    path = index_with(tmp_path, docs)
    add_subjects(path, unit(tmp_path, {lang: "残差流" if lang == default else "residual stream" for lang in LANGS}))
    out = json.loads(path.read_text(encoding="utf-8"))
    by = {d["location"]: d for d in out["docs"]}
    assert by["c9/probe/"][FIELD] == [f"残差{WORD}流"]
    assert FIELD not in by["c9/probe/#step"]
    assert all(by[f"{lang}/c9/probe/"][FIELD] == ["residual stream"] for lang in others)
    assert out["config"]["fields"][FIELD]["boost"] > out["config"]["fields"]["title"]["boost"]


def test_a_unit_whose_page_the_index_lacks_is_an_error_naming_the_page(tmp_path):
    path = index_with(tmp_path, [{"location": "c9/other/", "title": "x", "text": ""}])
    with pytest.raises(SearchIndexError, match="c9/probe/"):
        add_subjects(path, unit(tmp_path, {lang: "x" for lang in LANGS}))


def test_every_lesson_names_its_subjects_in_every_language():
    missing = [f"{u.module}: {lang}" for u in discover().lessons for lang in LANGS if not u.subjects.get(lang, "").strip()]
    assert missing == [], "lessons without words 'subjects' (what a reader searches for them by):\n" + "\n".join(missing)
