"""Check-yourself questions (course/core/questions.py, docs/assets/js/questions.js): what a number's answer
asks for, how a typed answer is read, the same in Python and in the page's script; every question of every
lesson checked against the registry as its page shows it; a bad question stops the build naming it; and in
Chromium, one question answered right and one wrong, in each language, with the worked route hidden until
the first attempt."""
from __future__ import annotations

import html
import json
import re
import subprocess

import pytest

from conftest import LANGS, lesson_path
from course.core.errors import ShortcodeError
from course.core.questions import Target, accepts, load_questions, question_ids, target
from course.paths import DOCS, ROOT
from course.project import units as discover

UNITS = discover()
ASKING = [u for u in UNITS.lessons if u.questions]


# ---------------------------------------------------------------- what a shown number asks for

@pytest.mark.parametrize("text, value, tolerance, before, after", [
    ("70,272", 70272, 0.5, "", ""),
    ("2.30 GB", 2.3, 0.005, "", " GB"),
    ("82.2%", 82.2, 0.05, "", "%"),
    ("\u22120.125", -0.125, 0.0005, "", ""),
    ("8 亿", 8, 0.5, "", " 亿"),
    ("1,048,576", 1048576, 0.5, "", ""),
])
def test_a_shown_number_gives_its_digits_and_half_a_unit_of_its_last_digit(text, value, tolerance, before, after):
    t = target(text)
    assert (t.value, t.tolerance, t.before, t.after) == pytest.approx((value, tolerance, before, after))


@pytest.mark.parametrize("text", ["3.5e\u221210", "1/16", "16 × 1,024", "none", "BF16 2"])
def test_a_shown_text_with_no_number_or_more_than_one_is_refused(text):
    with pytest.raises(ValueError, match="exactly one number"):
        target(text)


GB = Target(2.3, 0.005, "", " GB")
COUNT = Target(70272.0, 0.5, "", "")
SHARE = Target(82.2, 0.05, "", "%")
TYPED = [  # (typed, target, verdict): True right, False wrong, None not a number
    ("2.30", GB, True), ("2.3", GB, True), ("2.304", GB, True), ("2.3 GB", GB, True), ("２.３０", GB, True),
    ("2.31", GB, False), ("2.2", GB, False), ("2.3 MB", GB, None), ("", GB, None), ("abc", GB, None),
    ("70,272", COUNT, True), ("70272", COUNT, True), ("70 272", COUNT, True), ("７０，２７２", COUNT, True),
    ("70,273", COUNT, False), ("70,272.4", COUNT, True), ("70,272.6", COUNT, False),
    ("82.2%", SHARE, True), ("82.2", SHARE, True), ("82.24", SHARE, True), ("82.3", SHARE, False),
    ("\u221282.2", SHARE, False), ("-", SHARE, None),
]


@pytest.mark.parametrize("typed, t, verdict", TYPED)
def test_a_typed_answer_is_right_within_the_tolerance_and_forgives_its_form(typed, t, verdict):
    assert accepts(typed, t) is verdict


def node_accepts(cases: list[tuple[str, Target]]) -> list:
    script = (f"require({json.dumps(str(DOCS / 'assets/js/questions.js'))});"
              f"const Q = globalThis.CWQuestions;"
              f"process.stdout.write(JSON.stringify({json.dumps([[s, t.__dict__] for s, t in cases], ensure_ascii=False)}"
              f".map(([s, t]) => Q.accepts(s, t))));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_twin_questions_the_page_s_script_reads_a_typed_answer_as_python_does():
    cases = [(typed, t) for typed, t, _ in TYPED]
    assert node_accepts(cases) == [accepts(typed, t) for typed, t in cases]


# ---------------------------------------------------------------- every lesson's questions

def rendered(unit, lang: str, reg, refs=None) -> dict[str, str]:
    """Every question on the lesson's page in `lang`, expanded as the build expands it: id → its HTML."""
    from course.core.shortcodes import PageContext, expand
    stem = unit.pages[0]
    md = (DOCS / (stem + (".en.md" if lang == "en" else ".md"))).read_text(encoding="utf-8")
    ctx = PageContext(registry=reg, units=UNITS, lang=lang, where=stem, unit=unit, refs=refs,
                      url=("en/" if lang == "en" else "") + stem + "/")
    return {qid: expand(f"<!-- question:{qid} -->", ctx) for qid in question_ids(md)}


def attrs(html_out: str) -> dict[str, str]:
    head = re.match(r"<div ([^>]*)>", html_out).group(1)
    return {k: html.unescape(v) for k, v in re.findall(r'([\w\-]+)="([^"]*)"', head)}


@pytest.fixture(scope="module")
def refs():
    from course.core.references import build_references, load_course_map
    return build_references(load_course_map(ROOT / "data" / "course-map.json"), UNITS.written(), DOCS, LANGS)


@pytest.mark.parametrize("unit", ASKING, ids=[u.id for u in ASKING])
def test_twin_questions_every_answer_is_the_registry_s_number_as_its_page_shows_it(unit, reg, refs):
    """A number's answer on the page is its registry text's digits, with half a unit of the last digit; the
    shown text is accepted and a value three tolerances off is not, in Python and in the page's script. A
    choice's answer is one of its choices and what supports it holds (rendering checks it)."""
    declared = load_questions(unit.questions)
    checks = []
    for lang in LANGS:
        shown = rendered(unit, lang, reg, refs)
        for qid, out in shown.items():
            q, a = declared.get(qid), attrs(out)
            assert a["data-question"] == f"{unit.id}.{qid}"
            if q.number is None:
                assert a["data-kind"] == "choice" and a["data-answer"] == q.answer in q.choices
                continue
            text = reg[q.number].text[lang]
            t = target(text)
            assert (float(a["data-target"]), float(a["data-tolerance"]), a["data-before"], a["data-after"]) == \
                (t.value, t.tolerance, t.before, t.after), f"{unit.id}.{qid} ({lang})"
            off = Target(t.value, t.tolerance, "", "")
            for typed, verdict in ((text, True), (repr(t.value + 3 * t.tolerance), False),
                                   (repr(t.value - 3 * t.tolerance), False)):
                assert accepts(typed, t) is verdict, f"{unit.id}.{qid} ({lang}): {typed!r}"
                checks.append((typed, t, verdict))
            assert accepts(repr(t.value), off)
    assert node_accepts([(s, t) for s, t, _ in checks]) == [v for _, _, v in checks]


@pytest.mark.parametrize("unit", ASKING, ids=[u.id for u in ASKING])
def test_every_question_is_placed_once_in_each_language_in_the_same_order(unit):
    declared = [q.id for q in load_questions(unit.questions).questions]
    for lang in LANGS:
        stem = unit.pages[0] + (".en.md" if lang == "en" else ".md")
        placed = question_ids((DOCS / stem).read_text(encoding="utf-8"))
        assert placed == declared, f"docs/{stem}: place each of {unit.id}'s questions once, in questions.json's order"


@pytest.mark.parametrize("unit", ASKING, ids=[u.id for u in ASKING])
def test_every_question_has_its_words_in_every_language_and_types_no_registry_number(unit, reg):
    from test_pages import registry_forms, typed_numbers_in
    forms = registry_forms(reg)
    for q in load_questions(unit.questions).questions:
        keys = ["ask", "route"] + [f"choice.{c}" for c in q.choices]
        for lang in LANGS:
            for k in keys:
                text = unit.words.lang(lang)(f"question.{q.id}.{k}")
                assert text, f"{unit.id}: question.{q.id}.{k} ({lang})"
                hits = typed_numbers_in(text, reg, forms)
                assert hits == [], f"{unit.id}: question.{q.id}.{k} ({lang}): write <!-- n:KEY --> for {hits}"


# ---------------------------------------------------------------- a bad question stops the build

@pytest.fixture
def probe(tmp_path):
    """A lesson of its own in a temporary folder and a registry of two numbers: make(questions, words) →
    the Chinese page's context, the lesson's questions.json and words files written as given."""
    from course.core.registry import Computed, Registry
    from course.core.shortcodes import PageContext
    from course.core.units import Unit, Units
    from course.core.words import Words
    reg = Registry(languages=("zh", "en"))
    reg.add("probe.bytes", 70272, "70,272", Computed(formula="x", sources=["probe"]))
    reg.add("probe.two", 2, "2 × 3", Computed(formula="x", sources=["probe"]))

    def make(questions: dict, words: dict) -> PageContext:
        folder = tmp_path / "lessons" / "c9_probe"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "questions.json").write_text(json.dumps(questions), encoding="utf-8")
        for lang, table in words.items():
            (folder / f"words.{lang}.json").write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
        unit = Unit(id="probe", folder=folder, namespace="probe", order=(9, 1), questions=folder / "questions.json",
                    words=Words(folder, ("zh", "en")))
        return PageContext(registry=reg, units=Units((unit,), ("zh", "en")), lang="zh", where="c9/probe.md", unit=unit)
    return make, reg


def expand_one(ctx, qid: str) -> str:
    from course.core.shortcodes import expand
    return expand(f"<!-- question:{qid} -->", ctx)


def test_a_question_shows_its_answer_s_words_and_hides_nothing_from_a_reader_without_script(probe):
    make, _ = probe
    ctx = make({"questions": [{"id": "bytes", "number": "probe.bytes"}]},
               {"zh": {"question.bytes.ask": "每个 token 多少字节？", "question.bytes.route": "<!-- n:probe.bytes -->。"},
                "en": {"question.bytes.ask": "How many bytes per token?", "question.bytes.route": "<!-- n:probe.bytes -->."}})
    out = expand_one(ctx, "bytes")
    a = attrs(out)
    assert a["data-target"] == "70272.0" and a["data-tolerance"] == "0.5" and a["data-kind"] == "number"
    assert 'class="cq-form" hidden' in out and '<details class="cq-route">' in out and 'data-key="probe.bytes"' in out


@pytest.mark.parametrize("question, words, says", [
    ({"id": "bytes", "number": "probe.nothing"}, {}, "unknown registry key 'probe.nothing'"),
    ({"id": "bytes", "number": "probe.two"}, {}, "exactly one number"),
    ({"id": "pick", "choices": ["a", "b"], "answer": "a", "check": "{probe.bytes} < 10", "why": "small"}, {},
     "no longer supported"),
    ({"id": "pick", "choices": ["a", "b"], "answer": "a", "claim": "nowhere"}, {}, "reading note 'nowhere'"),
])
def test_a_bad_question_stops_the_build_naming_it(probe, question, words, says):
    make, _ = probe
    base = {f"question.{question['id']}.{k}": "?" for k in ("ask", "route", "choice.a", "choice.b")}
    ctx = make({"questions": [question]}, {lang: base | words for lang in ("zh", "en")})
    with pytest.raises(ShortcodeError, match=re.escape(says)):
        expand_one(ctx, question["id"])


def test_an_unknown_question_is_named(probe):
    make, _ = probe
    ctx = make({"questions": [{"id": "bytes", "number": "probe.bytes"}]},
               {lang: {"question.bytes.ask": "?", "question.bytes.route": "?"} for lang in ("zh", "en")})
    with pytest.raises(ShortcodeError, match=r"unknown question 'nothing'"):
        expand_one(ctx, "nothing")


@pytest.mark.parametrize("data, says", [
    ({"questions": [{"id": "x", "number": "k", "choices": ["a", "b"], "answer": "a", "check": "1", "why": "w"}]},
     "either a number"),
    ({"questions": [{"id": "x", "choices": ["a", "b"], "answer": "c", "check": "1", "why": "w"}]}, "not one of its choices"),
    ({"questions": [{"id": "x", "choices": ["a", "b"], "answer": "a"}]}, "what supports its answer"),
    ({"questions": [{"id": "x", "number": "k"}, {"id": "x", "number": "j"}]}, "asked twice"),
])
def test_a_malformed_questions_file_is_refused_naming_what_is_wrong(tmp_path, data, says):
    from course.core.errors import InputError
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match=says):
        load_questions(path)


# ---------------------------------------------------------------- in the page

@pytest.mark.parametrize("lang", LANGS)
def test_browser_questions_one_answered_right_and_one_wrong(open_page, registry, lang):
    """On the first lesson that asks: its first number question answered with the registry's shown text is
    right, and a value three tolerances off is wrong; the worked route is hidden until the first attempt."""
    unit = ASKING[0]
    declared = load_questions(unit.questions).questions
    numeric = [q for q in declared if q.number]
    v = open_page(lesson_path(unit, lang))
    page = v.page
    first, second = numeric[0], numeric[1] if len(numeric) > 1 else numeric[0]
    for q, right in ((first, True), (second, False)):
        box = page.locator(f'[data-question="{unit.id}.{q.id}"]')
        box.scroll_into_view_if_needed()
        assert box.get_attribute("data-ready") == "true"
        route = box.locator(".cq-route")
        assert not route.is_visible(), f"{q.id}: the worked route shows before an attempt"
        text = registry[q.number].text[lang]
        t = target(text)
        typed = text if right else repr(round(t.value + 3 * t.tolerance, 12))
        box.locator(".cq-input").fill("")
        box.locator(".cq-check").click()
        assert box.get_attribute("data-verdict") == "none" and not route.is_visible()
        box.locator(".cq-input").fill(typed)
        box.locator(".cq-input").press("Enter")
        assert box.get_attribute("data-verdict") == ("right" if right else "wrong")
        assert accepts(typed, t) is right   # the twin agrees
        assert route.is_visible()
        verdict = box.locator(".cq-verdict").inner_text()
        assert verdict and bool(re.search(r"[\u4e00-\u9fff]", verdict)) == (lang == "zh")
    choices = [q for q in declared if q.choices]
    if choices:
        q = choices[0]
        box = page.locator(f'[data-question="{unit.id}.{q.id}"]')
        wrong = next(c for c in q.choices if c != q.answer)
        box.locator(f'input[value="{wrong}"]').check()
        box.locator(".cq-check").click()
        assert box.get_attribute("data-verdict") == "wrong"
        box.locator(f'input[value="{q.answer}"]').check()
        box.locator(".cq-check").click()
        assert box.get_attribute("data-verdict") == "right"
    v.check_clean()
