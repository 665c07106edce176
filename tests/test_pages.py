"""Pages refer to numbers by key only; the strict build is clean; search covers both languages;
an edited model config flows through to both languages' pages."""
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, run_build
from project_copy import copy_project, edit_json

SHORTCODE = re.compile(r"<!--.*?-->", re.S)
URL = re.compile(r"https?://\S+|arXiv:\S+")


def typed_forms(text: str) -> set[str]:
    """What a hand-typed copy of a registry text would look like: each number of 3+ digits or with a
    decimal point, with and without thousands separators, each entry of a vector on its own, and
    scientific forms with either minus. A date is only itself (its year alone is no registry number)."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return {text}
    forms = set()
    for tok in re.findall(r"\d[\d,]*(?:\.\d+)?", text):
        digits = tok.replace(",", "").replace(".", "")
        if len(digits) >= 3 or "." in tok:
            forms |= {tok, tok.replace(",", "")}
    if re.fullmatch(r"\d(?:\.\d+)?e\u2212\d+", text):
        forms |= {text, text.replace("\u2212", "-")}
    return forms


# A section's or a numbered result's number names a place in a paper ("§3.2.1", "Theorem 4.2", 「定理 4.2」), and
# a model's name ("Llama 3.1 8B", "gpt-oss-120b") names a model: neither is a quantity a reader could mistake
# for one of the registry's
SECTION = re.compile(r"(?:Sections?|§|第|Theorem|Lemma|Corollary|定理|引理|推论)\s*\d+(?:\.\d+)+(?:\s*节)?")


def model_names() -> list[str]:
    data = json.loads((ROOT / "data" / "frontier-models.json").read_text(encoding="utf-8"))
    anchor = json.loads((ROOT / "data" / "anchor-model.json").read_text(encoding="utf-8"))["name"]
    return sorted([m["name"] for m in data["models"]] + [anchor], key=len, reverse=True)


MODEL_NAMES = re.compile("|".join(re.escape(n) for n in model_names()))


def prose(text: str) -> str:
    """What a reader sees typed: no shortcodes or comments, tags, code, link targets or URLs, section numbers
    or model names."""
    text = SHORTCODE.sub(" ", text)
    text = SECTION.sub(" ", text)
    text = MODEL_NAMES.sub(" ", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    return URL.sub(" ", text)


def registry_forms(registry) -> dict[str, tuple[str, bool]]:
    """form → (key, whether the registry shows it as a percentage)"""
    forms = {}
    for key, n in registry.numbers.items():
        for lang_text in n.text.values():
            for form in typed_forms(lang_text):
                forms.setdefault(form, (key, f"{form}%" in lang_text))
    return forms


# where a typed number ends: not inside a longer number or word, nor before a percent sign unless the
# registry shows the number as a percentage ("100%" is not the number 100: the sign makes it another quantity)
NUMBER_GOES_ON = re.compile(r"\w|[.,]\d")
NUMBER_GOES_ON_OR_PERCENT = re.compile(r"\w|[.,]\d|%")


def typed_numbers_in(text: str, registry, forms=None) -> list[str]:
    """Every registry number typed into `text` by hand, as 'form (key) at line N'."""
    forms = forms or registry_forms(registry)
    body = prose(text)
    lengths = sorted({len(f) for f in forms})
    hits = []
    # every form starts with a digit (typed_forms): look only where a number starts, for each form's length
    for start in (m.start() for m in re.finditer(r"(?<![\w.,])\d", body)):
        for length in lengths:
            form = body[start:start + length]
            if len(form) < length:
                break
            if form in forms:
                key, percent = forms[form]
                if not (NUMBER_GOES_ON if percent else NUMBER_GOES_ON_OR_PERCENT).match(body, start + length):
                    hits.append(f"{form!r} ({key}) at line {body.count(chr(10), 0, start) + 1}")
    return hits


def prose_sources() -> list[Path]:
    """Every file whose text becomes page prose: Markdown pages, notebooks, the bilingual data tables,
    the lessons' reading notes and the widgets' label tables."""
    return (sorted(ROOT.glob("docs/**/*.md")) + sorted(ROOT.glob("docs/**/*.ipynb"))
            + [ROOT / "data" / "evolution.json"] + sorted(ROOT.glob("lessons/*/claims.json"))
            + sorted(ROOT.glob("lessons/*/js/*.labels.json")) + sorted(ROOT.glob("course/common/js/*.labels.json"))
            + sorted(ROOT.glob("chapters/*/js/*.labels.json")))


def prose_text(path: Path) -> str:
    if path.suffix == ".ipynb":  # a notebook's prose is its Markdown cells; its code computes
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    if path.suffix == ".json":  # a data table's prose is its zh/en strings; claim checks are code
        found = []

        def walk(node):
            if isinstance(node, dict):
                for k, v in node.items():
                    found.append(v) if k in ("zh", "en") and isinstance(v, str) else walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        walk(json.loads(path.read_text(encoding="utf-8")))
        return "\n".join(found)
    return path.read_text(encoding="utf-8")


def test_no_registry_number_typed_into_a_page(reg):
    """From the sources and the registry computed in-process: no build needed (`make check`)."""
    forms = registry_forms(reg)
    hits = [f"{path.relative_to(ROOT)}: {h}" for path in prose_sources()
            for h in typed_numbers_in(prose_text(path), reg, forms)]
    assert hits == [], "numbers typed by hand (use <!-- n:KEY -->):\n" + "\n".join(hits)


def test_typed_number_detector_catches_hand_typed_numbers():
    assert "660,480" in typed_forms("660,480") and "660480" in typed_forms("660,480")
    assert "71.55" in typed_forms("71.55") and "1e-6" in typed_forms("1e\u22126")
    assert typed_forms("4") == set()
    assert typed_forms("2026-11-30") == {"2026-11-30"}
    from course.core.registry import Computed, Registry
    from course.project import LANGUAGES
    reg = Registry(languages=LANGUAGES)
    reg.add("x.params", 660480, "660,480", Computed(formula="f", sources=["s"]))
    reg.add("x.share", 0.616, "61.6%", Computed(formula="f", sources=["s"]))
    assert typed_numbers_in("the model has 660,480 of them <!-- n:x.params -->", reg) != []
    assert typed_numbers_in("<!-- n:x.params --> and 61.6% and `660480` in code", reg) == ["'61.6' (x.share) at line 1"]
    # a paper's numbered place is not a quantity; the same digits elsewhere are
    reg.add("x.ratio", 4.2, "4.2", Computed(formula="f", sources=["s"]))
    for place in ("DeepNet's Theorem 4.2 bounds it", "DeepNet 的定理 4.2 给的是上界", "as §4.2 says", "见第 4.2 节"):
        assert typed_numbers_in(place, reg) == [], place
    assert typed_numbers_in("the ratio is 4.2 here", reg) == ["'4.2' (x.ratio) at line 1"]


def test_strict_build_has_no_warnings(built):
    log = (built / ".build" / "session-build.log").read_text(encoding="utf-8")
    assert "site " in log and "WARNING" not in log, log


def test_both_languages_built(site_dir, units):
    """The home page, the appendix and every page of every unit (each chapter's overview, each lesson)."""
    from conftest import page_url
    stems = ["index", "appendix/numbers", "appendix/references"] + [s for u in units.all for s in u.pages]
    for page in [page_url(stem) + "index.html" for stem in stems]:
        zh, en = site_dir / page, site_dir / "en" / page
        assert zh.exists() and en.exists(), page
        assert '<html lang="zh"' in zh.read_text(encoding="utf-8")
        assert '<html lang="en"' in en.read_text(encoding="utf-8")


def test_a_lesson_page_folds_the_later_lessons_rows_of_the_evolution_table(site_dir):
    """Lesson 3's page shows the rows of lessons 1-3 and only a link for lesson 4's; the chapter page shows all."""
    import re
    rows = re.compile(r'<tr role="row"[^>]*data-lesson="([^"]+)">(.*?)</tr>', re.S)
    for lang in ("", "en/"):
        lesson = dict(rows.findall((site_dir / f"{lang}c4/normalization/index.html").read_text(encoding="utf-8")))
        chapter = dict(rows.findall((site_dir / f"{lang}c4/index.html").read_text(encoding="utf-8")))
        assert set(lesson) == set(chapter) == {"ffn", "residual", "normalization", "gating"}
        assert 'class="evo-later"' in lesson["gating"] and 'href="../gating/"' in lesson["gating"]
        assert all('evo-later' not in lesson[r] for r in ("ffn", "residual", "normalization"))
        assert all('evo-later' not in cells for cells in chapter.values())


def test_search_index_holds_chinese_words_and_english_words(site_dir):
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "zh" in index["config"]["lang"] and "en" in index["config"]["lang"]
    text = " ".join(d["text"] + " " + d["title"] for d in index["docs"])
    # jieba segments Chinese with zero-width spaces, which the configured separator splits on
    assert "\u200b" in text and "归一化" in text
    assert "normalization" in text.lower()
    assert any(d["location"].startswith("en/") for d in index["docs"])


def test_numbers_appendix_lists_the_numbers_the_site_uses_with_their_defining_line(site_dir, registry, built):
    html = (site_dir / "en/appendix/numbers/index.html").read_text(encoding="utf-8")
    listed = set(re.findall(r'<tr id="num-([^"]+)"', html))
    assert listed and listed <= set(registry.numbers)   # only the used ones (test_every_computed_number_is_read)
    on_pages = set()
    for page in (site_dir / "en").rglob("index.html"):
        on_pages |= set(re.findall(r'data-key="([^"]+)"', page.read_text(encoding="utf-8")))
    assert on_pages <= listed, sorted(on_pages - listed)[:10]
    for key in listed:
        where = registry[key].defined_at
        path, _, line = where.rpartition(":")
        assert (built / path).is_file() and int(line) > 0, (key, where)
        assert f"<code>{where}</code>" in html


# Numbers computed although nothing reads them, each with the reason it must be computed anyway. Empty: a
# number earns its place by being read.
UNREAD_BUT_COMPUTED: dict[str, str] = {}
# families a lesson's code adds alike for every member it walks (a pattern, matched whole, and why): the pages
# read the members they discuss
UNREAD_FAMILIES: dict[str, str] = {
    r"kv_cache\.models\.[a-z0-9_]+\.(num_heads|num_kv_heads|head_dim|group|entries_per_layer|layers\.[a-z_]+"
    r"|compress_entries|csa_ratio|hca_ratio|index_head_dim|window_only_layers)":
        "a model's config facts, added alike for every model of the KV-cache table",
    r"attention\.toy\.[a-z_.0-9]+": "the teaching example at every slider position and mask, added alike",
    r"(ffn\.runs|run|residual\.(compare|layers|stall)|normalization\.(compare|other_cpu\.compare|postln_learns"
    r"|preln_trace|longer\.late)|gating\.(clamp|compare)|warmup\.(best_below_unigram|fu|long|plateau|plateau_end|trace))\.[a-zA-Z0-9_.-]+"
    r"\.(min|max|range|diff)":
        "a statistic over seeds that one call adds with its siblings, for every run of its loop",
    r"(gating\.clamp\.least\.acting_steps|gating\.fta\.c4g_attn_gate\.end\.top_below_line"
    r"|kv_cache\.calculator\.max_context|kv_cache\.runs\.c3_kv2\.saved_share|normalization\.lab_bench\.copy\.min_ms"
    r"|run\.c4_baseline\.init_first_token_attention|attention\.cost\.skipped"
    r"|warmup\.left\.c8_postln_L12_lr1e-3_nowarmup_eps1e-16|warmup\.long\.[a-z0-9_-]+\.extra_steps"
    r"|warmup\.split\.lowest_stalled\.val[0-9]\.(below|above)_unigram|warmup\.trace\.[a-zA-Z0-9_-]+\.steps"
    r"|warmup\.trace\.c8_postln_lr1e-3_warmup25\.(off_plateau|lower_over_upper\.tail\.on_plateau\.min))":
        "a member of a set one loop adds alike (seed roles, runs, contexts, timings); the pages read the others",
}


def test_every_computed_number_is_read(site_dir, registry):
    """A number that no page, reading note (its sentence or its check), widget, table or notebook reads is not
    computed. What reads a key is what the build recorded (course/core/site.py, Site.survey) and the numbers
    appendix lists: every key a page or a notebook's Markdown looked up while its shortcodes, tables and
    widget configs were expanded, every key a note's sentence names or its check evaluates, every key a
    notebook's kernel looked up when it last ran. (scripts/unread_keys.py records the same reads from a whole
    build by instrumenting the registry, and groups what it finds unread by the code that defines it.)"""
    listed = set()
    for page in site_dir.rglob("appendix/numbers/index.html"):   # every language's appendix
        listed |= set(re.findall(r'<tr id="num-([^"]+)"', page.read_text(encoding="utf-8")))
    family = re.compile("|".join(f"(?:{p})" for p in UNREAD_FAMILIES))
    unread = sorted(k for k in set(registry.numbers) - listed - set(UNREAD_BUT_COMPUTED) if not family.fullmatch(k))
    assert listed and not unread, (
        f"{len(unread)} computed number(s) that nothing reads: stop computing them (a local value, if another "
        "number needs it), or name the reason in UNREAD_BUT_COMPUTED:\n"
        + "\n".join(f"    {k}  (defined at {registry[k].defined_at})" for k in unread[:200]))
    assert not set(UNREAD_BUT_COMPUTED) - set(registry.numbers), "an allowed key that is no longer computed"
    unused = [p for p in UNREAD_FAMILIES if not any(re.fullmatch(p, k) for k in set(registry.numbers) - listed)]
    assert not unused, f"a family that no unread key matches any more: drop it {unused}"


@pytest.fixture(scope="module")
def edited_project(built, tmp_path_factory):
    """The session's built project, copied, with the anchor's FFN width edited (a field the lab does not
    read: its notebooks stay as executed) and rebuilt."""
    root = copy_project(tmp_path_factory.mktemp("edit") / "project", source=built, keep_build=True)
    edit_json(root / "data/anchor-model.json", lambda d: d["config"]["text_config"].update(intermediate_size=16384))
    r = run_build(root, "--frozen")
    assert r.returncode == 0, r.stderr
    return root, r.stdout


def test_edited_ffn_width_reaches_both_pages(edited_project):
    root, _ = edited_project
    for page in ["c4/ffn/index.html", "en/c4/ffn/index.html", "c4/index.html", "en/c4/index.html"]:
        html = (root / "site" / page).read_text(encoding="utf-8")
        assert re.search(r'data-key="anchor.ffn_width"[^>]*>16,384<', html), page
        assert ">17,408<" not in html, page


def test_rebuild_reports_changed_numbers_and_never_retrains(edited_project):
    _, out = edited_project
    assert "anchor.ffn_width: 17,408 → 16,384" in out
    for line in out.splitlines():
        if line.startswith(("measurements", "notebooks")):
            assert "cached" in line, line


def test_warm_rebuild_skips_every_stage(edited_project):
    root, _ = edited_project
    r = run_build(root, "--frozen")
    assert r.returncode == 0
    stages = [l for l in r.stdout.splitlines() if l and l.split()[0] in ("validate", "measurements", "numbers", "figures",
                                                                          "notebooks")]
    assert len(stages) == 5 and all("cached" in l for l in stages), r.stdout
