"""Bad inputs: each gives one readable message naming the file and field, and stops the build before it
writes anything. Each is checked in-process, through the stage or page that reads the file; a few are
built in a subprocess too, to show the exit code 2, no traceback, and site/, figures/ and the registry
exactly as they were."""
import json
import shutil

import pytest

from conftest import ROOT, run_build
from course.core.errors import KnownError, describe_failure
from course.core.pipeline import Options, Pipeline
from project_copy import copy_project, edit_json


@pytest.fixture(scope="module")
def data_copy(tmp_path_factory):
    """The inputs a build reads from the project's data (not its code), in a folder of their own."""
    root = tmp_path_factory.mktemp("bad") / "project"
    for rel in ("data", "docs", "models"):
        shutil.copytree(ROOT / rel, root / rel, ignore=shutil.ignore_patterns("__pycache__", "results"))
    shutil.copytree(ROOT / "data" / "results", root / "data" / "results")
    return root


def text(root, name):
    return (root / name).read_text(encoding="utf-8")


def set_text_config(key, value):
    return lambda p: edit_json(p, lambda d: d["config"]["text_config"].__setitem__(key, value))


def drop_text_config(key):
    return lambda p: edit_json(p, lambda d: d["config"]["text_config"].pop(key))


def model_named(name, change):
    def wrapped(d):
        m = next(m for m in d["models"] if m["name"] == name)
        change(m)
    return wrapped


# the first chapter of the course map with a topic, whichever it is: its first topic made to name a lesson
# the chapter does not list
MAP_CHAPTER = next(c["id"] for c in json.loads((ROOT / "data/course-map.json").read_text(encoding="utf-8"))["chapters"]
                   if c["topics"])
UNLISTED_LESSON = f"{MAP_CHAPTER}-99"


def name_an_unlisted_lesson(course_map: dict) -> None:
    chapter = next(c for c in course_map["chapters"] if c["id"] == MAP_CHAPTER)
    assert UNLISTED_LESSON not in {lesson["id"] for lesson in chapter["lessons"]}
    chapter["topics"][0].update(lesson=UNLISTED_LESSON)


BAD = [
    ("malformed JSON", "data/anchor-model.json", lambda p: p.write_text(text(p.parents[1], "data/anchor-model.json")[:-40]),
     ["data/anchor-model.json", "not valid JSON", "line"]),
    ("missing field", "data/anchor-model.json", drop_text_config("hidden_size"),
     ["data/anchor-model.json", "config.text_config.hidden_size", "missing"]),
    ("wrong type", "data/anchor-model.json", set_text_config("hidden_size", "wide"),
     ["config.text_config.hidden_size", "valid integer", '"wide"']),
    ("zero size", "data/anchor-model.json", set_text_config("intermediate_size", 0),
     ["config.text_config.intermediate_size", "greater than 0", "got 0"]),
    ("negative size", "data/anchor-model.json", set_text_config("num_attention_heads", -24),
     ["config.text_config.num_attention_heads", "greater than 0", "-24"]),
    ("layer_types too short", "data/anchor-model.json",
     lambda p: edit_json(p, lambda d: d["config"]["text_config"]["layer_types"].pop()),
     ["config.text_config", "layer_types has 63 entries but num_hidden_layers is 64"]),
    ("unknown layer type", "data/anchor-model.json",
     lambda p: edit_json(p, lambda d: d["config"]["text_config"]["layer_types"].__setitem__(0, "sliding")),
     ["config.text_config.layer_types.0", "'full_attention' or 'linear_attention'"]),
    ("unknown top-level field", "data/anchor-model.json", lambda p: edit_json(p, lambda d: d.update(extra=1)),
     ["data/anchor-model.json", "extra", "unknown field"]),
    ("bad sha256", "data/anchor-model.json", lambda p: edit_json(p, lambda d: d["provenance"].update(sha256="xyz")),
     ["provenance.sha256", "pattern"]),
    ("frontier wrong type", "data/frontier-models.json",
     lambda p: edit_json(p, model_named("GPT-2 small", lambda m: m.update(num_layers=[12]))),
     ["data/frontier-models.json", "models.1.num_layers", "valid integer"]),
    ("frontier duplicate", "data/frontier-models.json",
     lambda p: edit_json(p, lambda d: d["models"].append(d["models"][0])),
     ["data/frontier-models.json", "names must be unique", "Transformer base"]),
    ("frontier layer_types too short", "data/frontier-models.json",
     lambda p: edit_json(p, model_named("gpt-oss-20b", lambda m: m["layer_types"].pop())),
     ["data/frontier-models.json", "layer_types has 23 entries but num_layers is 24"]),
    ("frontier attention key for no field", "data/frontier-models.json",
     lambda p: edit_json(p, model_named("gpt-oss-20b", lambda m: m["attention_keys"].update(window="sliding_window"))),
     ["data/frontier-models.json", "attention_keys names fields the schema does not have: window"]),
    ("frontier model the course needs", "data/frontier-models.json",
     lambda p: edit_json(p, lambda d: d.update(models=[m for m in d["models"] if m["name"] != "GPT-2 small"])),
     ["data/frontier-models.json", "GPT-2 small"]),
    ("citation of an unknown paper", "data/citations.json",
     lambda p: edit_json(p, lambda d: d["numbers"][0].update(paper="nobody2099")),
     ["data/citations.json", "nobody2099"]),
    ("experiment override unknown key", "models/experiments.json",
     lambda p: edit_json(p, lambda d: d["runs"]["c4_postln"].update(lrr=1)),
     ["models/experiments.json", "runs.c4_postln", "lrr"]),
    ("heads do not tile the width", "models/experiments.json",
     lambda p: edit_json(p, lambda d: d["base"].update(n_head=3)),
     ["models/experiments.json", "multiple of n_head"]),
    ("missing data file", "data/citations.json", lambda p: p.unlink(), ["data/citations.json", "file not found"]),
    ("course map naming an unknown lesson", "data/course-map.json",
     lambda p: edit_json(p, name_an_unlisted_lesson), ["course map", UNLISTED_LESSON]),
]

PAGES = [
    ("unknown key in a page", "docs/c4/index.en.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- n:anchor.no_such_number -->\n", encoding="utf-8"),
     ["c4/index.en.md", "unknown registry key 'anchor.no_such_number'"]),
    ("unknown reference", "docs/c4/index.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- ref:c99 -->\n", encoding="utf-8"),
     ["c4/index.md", "unknown reference 'c99'"]),
    ("unknown section of a lesson", "docs/c4/index.en.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- ref:c4-2#no-such-section -->\n", encoding="utf-8"),
     ["c4/index.en.md", "c4/residual has no heading with id 'no-such-section'"]),
    ("unknown widget label", "docs/c4/normalization.en.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- label:residual-sim.nope -->\n", encoding="utf-8"),
     ["c4/normalization.en.md", "unknown label", "residual-sim.nope"]),
    ("unknown table", "docs/c4/index.md",
     lambda p: p.write_text(p.read_text(encoding="utf-8") + "\n<!-- table:nope -->\n", encoding="utf-8"),
     ["c4/index.md", "unknown table 'nope'"]),
]

# files of the units themselves (read from their package): built in a subprocess on a copy of the project
UNIT_FILES = [
    ("teaching vector of the wrong length", "lessons/c4_normalization/teaching-vectors.json",
     lambda p: edit_json(p, lambda d: d["tokens"]["苹果"].update(vector=[1.0, 2.0])),
     ["lessons/c4_normalization/teaching-vectors.json", "苹果", "2 numbers, expected dims = 4"]),
    ("claim naming an unknown key", "lessons/c4_normalization/claims.json",
     lambda p: edit_json(p, lambda d: d["claims"][0].update(check="{run.no_such_run.final_val_loss} > 0")),
     ["lessons/c4_normalization/claims.json", "unknown registry keys", "run.no_such_run.final_val_loss"]),
]


def damaged(root, rel, damage):
    """Damage one file of `root`; a context that puts it back."""
    import contextlib

    @contextlib.contextmanager
    def ctx():
        target = root / rel
        original = target.read_bytes()
        try:
            damage(target)
            yield target
        finally:
            target.write_bytes(original)
    return ctx()


@pytest.mark.parametrize("label,rel,damage,expected", BAD, ids=[b[0] for b in BAD])
def test_bad_input_stops_the_stage_that_reads_it_with_one_clear_message(data_copy, tmp_path, label, rel, damage, expected):
    from course.project import project_at
    project = project_at(data_copy)
    with damaged(data_copy, rel, damage):
        with pytest.raises(KnownError) as e:
            Pipeline(project).run(Options(frozen=True), ("validate", "numbers"), on_start=lambda s: None)
    message = describe_failure(e.value)
    assert "Traceback" not in message
    for piece in expected:
        assert piece in message, f"{piece!r} not in:\n{message}"


@pytest.mark.parametrize("label,rel,damage,expected", PAGES, ids=[b[0] for b in PAGES])
def test_a_page_naming_something_unknown_fails_with_the_page_and_the_name(reg, units, built, data_copy, label, rel,
                                                                         damage, expected):
    from course.core.errors import ShortcodeError
    from course.core.references import build_references, load_course_map
    from course.core.site import Site
    from course.project import project_at
    project = project_at(built)   # the session's built project: its figures exist (a fresh clone has none)
    refs = build_references(load_course_map(project.paths.course_map), units.written(), project.paths.docs, project.languages)
    site = Site(project, units, reg, refs)
    with damaged(data_copy, rel, damage) as page:
        src = rel.removeprefix("docs/")
        with pytest.raises(ShortcodeError) as e:
            site.expand(page.read_text(encoding="utf-8"), src, src.replace(".en.md", "/").replace(".md", "/"))
    for piece in expected:
        assert piece in str(e.value), f"{piece!r} not in:\n{e.value}"


@pytest.fixture(scope="module")
def built_copy(built, tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("badbuild") / "project", source=built, keep_build=True)


@pytest.mark.parametrize("label,rel,damage,expected", UNIT_FILES + [BAD[1], PAGES[0]],
                         ids=[b[0] for b in UNIT_FILES + [BAD[1], PAGES[0]]])
def test_a_build_stopped_by_bad_input_exits_2_and_keeps_every_output(built_copy, label, rel, damage, expected):
    project = built_copy
    kept = {p: p.read_bytes() for p in [project / "site/index.html", project / "site/en/c4/index.html",
                                        project / ".build/registry.json", *sorted((project / "figures").glob("*.json"))]}
    with damaged(project, rel, damage):
        r = run_build(project, "--frozen")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "site/ is as before" in r.stderr
    for piece in expected:
        assert piece in r.stderr, f"{piece!r} not in:\n{r.stderr}"
    for p, before in kept.items():
        assert p.read_bytes() == before, f"{p} was overwritten"
    assert not (project / "site.tmp").exists()


def test_an_unexpected_error_shows_where_it_happened(built_copy):
    """A bug (here a KeyError in a lesson's numbers code) is no input error: the build prints its traceback
    with the file and line, and says what it left on disk."""
    numbers = built_copy / "lessons/c4_ffn/numbers.py"
    original = numbers.read_text(encoding="utf-8")
    numbers.write_text(original + "\n\n_add_numbers = add_numbers\n\n\ndef add_numbers(reg, inputs):\n"
                       "    _add_numbers(reg, inputs)\n    reg['ffn.no_such_key']\n", encoding="utf-8")
    try:
        r = run_build(built_copy, "--frozen", "--no-site")
    finally:
        numbers.write_text(original, encoding="utf-8")
    assert r.returncode == 2
    assert "Traceback" in r.stderr and "KeyError: 'ffn.no_such_key'" in r.stderr
    assert 'lessons/c4_ffn/numbers.py", line ' in r.stderr
    assert "site/ is as before" in r.stderr
