"""Lesson C4-3 (normalization): the two language pages say the same things with the same numbers.

Static checks on the Markdown (always run) and on the shortcodes expanded with this checkout's registry;
the check on the built site needs a strict build, which succeeds once every key the page names exists.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = {"zh": ROOT / "docs/c4/normalization.md", "en": ROOT / "docs/c4/normalization.en.md"}
REGISTRY_FILE = ROOT / ".build/registry.json"

# The spec's ten sections, in order (LESSON-SPEC.md "Page sections"), with step 1-5 and the table of section 4.
SECTIONS = ["question", "from-what-we-know", "design-it-yourself", "modern-practice", "step-layernorm",
            "step-rmsnorm", "step-zero-centered", "step-placement", "step-elsewhere", "evolution", "measured",
            "misconceptions", "evidence", "one-sentence", "next-gap", "you-may-ask"]

# "Done when" of the lesson issue: these numbers appear on the page, each rendered from the registry.
DONE_WHEN = {
    "worked.x.layernorm": "[−1.069, −0.535, 0, 1.604]",
    "worked.x.rms": "3.536",
    "worked.x.rmsnorm": "[0.283, 0.566, 0.849, 1.697]",
    "worked.shifted.rms": "5.339",
    "worked.shifted.rmsnorm": "[0.562, 0.749, 0.937, 1.499]",
    "anchor.params.norms": "660,480",
    "anchor.norm_share": "0.0024%",
    "anchor.sqrt_d": "71.55",
    "anchor.hidden_size": "5,120",
}

DIAGRAMS = ROOT / "docs/assets/diagrams"
SNIPPET = re.compile(r'^\s*--8<-- "([\w.\-]+)"\s*$', re.M)
NUMBER = re.compile(r"<!--\s*n:([\w.\-]+)(?:\s+plain)?\s*-->")
OTHER = re.compile(r"<!--\s*(widget|figure|table):([\w.\-]+)(?:\s+(\w+))?\s*-->")


def text(lang: str) -> str:
    return PAGES[lang].read_text(encoding="utf-8")


def heading_ids(md: str) -> list[str]:
    return re.findall(r"^#{2,6} .*\{#([\w\-]+)\}\s*$", md, flags=re.M)


def registry_texts() -> dict[str, str]:
    """Every number's English text: this checkout's registry, plus the built one if there is one."""
    from course.numbers import build_registry
    from course.schema import load_inputs
    texts = {k: n.text["en"] for k, n in build_registry(load_inputs(ROOT)).numbers.items()}
    if REGISTRY_FILE.exists():
        texts.update({k: v["text"]["en"] for k, v in json.loads(REGISTRY_FILE.read_text()).items()})
    return texts


def prose(md: str) -> str:
    """What a reader sees typed: without comments (shortcodes), tags and attributes, code and link targets."""
    md = re.sub(r"<!--.*?-->", " ", md, flags=re.S)
    md = re.sub(r"<[^>]*>", " ", md)
    md = re.sub(r"`[^`]*`", " ", md)
    md = re.sub(r"\]\([^)]*\)", "] ", md)
    return md


def typed_forms(t: str) -> set[str]:
    """The ways a number could be typed: as shown, with a hyphen for the minus, without thousands
    separators, and each entry of a vector on its own (1.604 of [−1.069, −0.535, 0, 1.604])."""
    parts = [t] + ([p.strip() for p in t.strip("[]").split(",")] if t.startswith("[") else [])
    forms = set()
    for p in parts:
        forms |= {p, p.replace("\u2212", "-"), p.lstrip("\u2212")}
        if re.fullmatch(r"\d{1,3}(,\d{3})+", p):
            forms.add(p.replace(",", ""))
    return {f for f in forms if len(f) >= 3 and re.search(r"\d", f)}


def test_same_sections_in_the_same_order():
    zh, en = heading_ids(text("zh")), heading_ids(text("en"))
    assert zh == en, f"zh {zh}\nen {en}"
    assert zh == SECTIONS


def test_same_registry_numbers():
    zh, en = set(NUMBER.findall(text("zh"))), set(NUMBER.findall(text("en")))
    assert zh == en, f"only zh: {sorted(zh - en)}; only en: {sorted(en - zh)}"
    assert set(DONE_WHEN) <= zh


def test_same_widgets_figures_and_tables():
    zh, en = OTHER.findall(text("zh")), OTHER.findall(text("en"))
    assert zh == en
    names = {f"{k}:{n}" + (f" {m}" if m else "") for k, n, m in zh}
    assert {"widget:decoder-flow", "widget:batchnorm-demo", "widget:batchnorm-demo improved",
            "widget:ln-rms-playground", "widget:residual-sim", "widget:weight-decay", "table:evolution",
            "table:measured-notes", "figure:ablation-curves", "figure:stream-rms", "figure:block-grads",
            "figure:norm-bench"} <= names


def test_done_when_numbers_come_from_the_registry():
    texts = registry_texts()
    for key, shown in DONE_WHEN.items():
        assert texts[key] == shown, f"{key}: registry shows {texts[key]!r}, the lesson expects {shown!r}"


def test_same_diagrams_drawn_in_each_language():
    zh, en = SNIPPET.findall(text("zh")), SNIPPET.findall(text("en"))
    assert [n.replace(".zh.", ".") for n in zh] == [n.replace(".en.", ".") for n in en]
    assert all(n.endswith(".zh.svg") for n in zh) and all(n.endswith(".en.svg") for n in en)
    assert {n.split(".")[0] for n in zh} == {"batch-stats", "token-stats", "placement"}
    for name in zh + en:
        svg = (DIAGRAMS / name).read_text(encoding="utf-8")
        assert svg.lstrip().startswith("<svg") and "\n\n" not in svg, f"{name}: one <svg> block, no blank line"
        assert not re.search(r'(fill|stroke)="(?!none)[^"]*"', svg), f"{name}: colors come from course.css"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_registry_number_typed_by_hand(lang):
    drawn = [(DIAGRAMS / n).read_text(encoding="utf-8") for n in SNIPPET.findall(text(lang))]
    body = prose(text(lang) + "\n".join(drawn))  # the diagrams' labels, not their coordinates
    typed = []
    for key, t in registry_texts().items():
        # one- and two-character numbers (2, 64, 7%) are too common to tell apart: typed_forms drops them
        for form in typed_forms(t):
            if re.search(r"(?<![\w.,])" + re.escape(form) + r"(?![\w]|[.,]\d)", body):
                typed.append(f"{form} ({key})")
    assert typed == [], f"{PAGES[lang].name}: registry numbers typed by hand: {typed}"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formula_has_every_term_and_its_explanation(lang):
    md = text(lang)
    terms = re.findall(r'data-term="([\w\-]+)"', md)
    explained = re.findall(r'data-term-text="([\w\-]+)"', md)
    assert set(terms) == set(explained) == {"x", "mean-square", "eps", "sqrt", "one-plus-w", "w"}
    assert 'data-readout="term-explanation"' in md
    assert "<!-- n:anchor.eps plain -->" in md


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_numbers_expand_into_provenance_spans(lang, monkeypatch):
    """Expand the page with this checkout's registry (keys from other branches shown as placeholders):
    every "Done when" number is a .reg-num span."""
    from course import shortcodes
    from course.numbers import build_registry
    from course.schema import load_inputs
    monkeypatch.setenv("COURSE_DRAFT", "1")
    monkeypatch.setattr(shortcodes, "_registry", build_registry(load_inputs(ROOT)))
    out = shortcodes.expand(text(lang), lang, PAGES[lang].name)
    for key, shown in DONE_WHEN.items():
        assert re.search(r'<span class="reg-num" data-key="' + re.escape(key) + r'"[^>]*>' + re.escape(shown)
                         + "</span>", out), key


def test_built_pages_show_the_numbers_in_provenance_spans(site_dir):
    from html.parser import HTMLParser

    class RegNums(HTMLParser):
        def __init__(self):
            super().__init__()
            self.depth, self.found = 0, {}

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "reg-num" in (a.get("class") or "").split():
                self.depth, self.key, self.buf = 1, a.get("data-key"), ""
            elif self.depth:
                self.depth += 1

        def handle_endtag(self, tag):
            if self.depth:
                self.depth -= 1
                if not self.depth:
                    self.found.setdefault(self.key, set()).add(self.buf)

        def handle_data(self, data):
            if self.depth:
                self.buf += data

    for path in ("c4/normalization/index.html", "en/c4/normalization/index.html"):
        p = RegNums()
        p.feed((site_dir / path).read_text(encoding="utf-8"))
        for key, shown in DONE_WHEN.items():
            assert shown in p.found.get(key, set()), f"{path}: {key} = {shown} is not in a .reg-num"


READY = "sim.default_layers" in (json.loads(REGISTRY_FILE.read_text()) if REGISTRY_FILE.exists() else {})
if not READY:
    try:
        READY = "sim.default_layers" in registry_texts()
    except Exception:
        READY = False
if not READY:
    # the strict build needs the keys, widgets and figures of the simulator and the runs (other branches)
    test_built_pages_show_the_numbers_in_provenance_spans = pytest.mark.skip(
        reason="the strict build needs sim.* keys, widgets and figures that are not in this checkout yet")(
        test_built_pages_show_the_numbers_in_provenance_spans)
