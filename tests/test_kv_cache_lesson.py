"""Lesson C3-2 (KV cache): the calculator's Python twin against course/common/kv_cache.py and the registry, the
table's coverage, the measured section's numbers from a run's config, and in Chromium the calculator against
its twin in both languages (its settings changed as a reader would), with no console error or outside request."""
import json
from types import SimpleNamespace

import pytest

from browser_helpers import labels_in_language, root, text, value
from conftest import LANGS, widget_config
from course.common.kv_cache import plans
from course.core.registry import table_rows
from lessons.c3_kv_cache import twins
from lessons.c3_kv_cache.numbers import GROUPS, add_runs, ordered, size

PATHS = {"zh": "c3/kv-cache/", "en": "en/c3/kv-cache/"}
CONTEXTS = (1, 127, 128, 129, 1024, 32768, 131072, 1 << 20)


@pytest.fixture(scope="module")
def found(inputs):
    done, missing = plans(inputs)
    assert missing == []
    return ordered(done, inputs)


def test_twin_kv_calculator_gives_what_the_cache_plans_give(found, inputs):
    """Every model, context, batch and byte width: the twin's parts add up to kv_cache.py's total, and each
    group holds the parts of its kind."""
    models = {m["id"]: m for m in twins.calculator_models(found, inputs)}
    assert len(models) == len(found)
    for p, m in zip(found, models.values()):
        for T in CONTEXTS:
            for batch in (1, 8):
                for b in twins.BYTES_PER_ENTRY:
                    got = twins.cache_bytes(m, T, batch, b)
                    assert got["total"] == p.bytes_at(T, b, batch), (p.model, T, batch, b)
                    assert got["total"] == sum(got[g] for g in GROUPS)
        long = twins.cache_bytes(m, 1 << 20)
        assert long["state"] == p.fixed_bytes()
        assert (long["state"] > 0) == any(x.grows == "fixed" for x in p.parts)


def test_twin_kv_calculator_agrees_with_the_registry_and_the_page_s_config(found, inputs, reg):
    """At 32k and 128k, BF16, one sequence, the twin gives the table's numbers; the widget's config carries the
    twin's models, in the table's order, and its defaults are models of the data."""
    models = twins.calculator_models(found, inputs)
    for m in models:
        k = f"kv_cache.models.{m['id']}"
        for key, T in (("at_32k", 32768), ("at_128k", 131072)):
            b = twins.cache_bytes(m, T)["total"]
            assert reg[f"{k}.{key}"].value == b and reg[f"{k}.{key}"].text["en"] == size(b)
        if m["max"]:
            assert reg[f"{k}.at_max"].value == twins.cache_bytes(m, m["max"])["total"]
    cfg = widget_config(reg, "kv-calculator")
    assert cfg["models"] == json.loads(json.dumps(models))
    assert set(cfg["initial"]["models"]) <= {m["id"] for m in models}
    assert 2 ** cfg["initial"]["context_exponent"] == reg["kv_cache.context.long"].value


def test_the_table_covers_every_model_of_the_data_with_the_anchor_last(reg, inputs):
    rows = table_rows(reg, "kv_cache.models.rows")
    assert len(rows) >= 10 and len(rows) == len(inputs.frontier.models) + 1
    assert rows[-1]["anchor"] and not any(r["anchor"] for r in rows[:-1])
    years = [r["year"] for r in rows[:-1]]
    assert years == sorted(years)


def test_the_measured_numbers_come_from_each_run_s_config(reg):
    """With the runs in the experiments (as the retrain branch has them): each run's key/value heads, its
    cache per token, and the key and value weights it drops, from its config; without results, nothing measured."""
    from course.core.registry import Registry
    from course.project import LANGUAGES

    def config(n_kv):
        return SimpleNamespace(n_layer=4, d_model=128, n_head=4, n_kv_head=n_kv)
    configs = {"c3_baseline": config(None), "c3_kv2": config(2), "c3_kv1": config(1)}
    exp = SimpleNamespace(runs=dict.fromkeys(configs), config=configs.__getitem__)
    r = Registry(languages=LANGUAGES)
    add_runs(r.scope("kv_cache"), SimpleNamespace(experiments=exp, results=SimpleNamespace(runs={})))
    assert r.value("kv_cache.runs.c3_baseline.n_kv_head") == 4
    assert r.value("kv_cache.runs.c3_kv2.saved_params") == 4 * 2 * 128 * 2 * 32
    assert r.value("kv_cache.runs.c3_kv1.saved_params") == 4 * 2 * 128 * 3 * 32
    assert [r.value(f"kv_cache.runs.{k}.bytes_per_token") for k in configs] == [2048, 1024, 512]
    assert not any(k.startswith("kv_cache.compare.") for k in r.numbers)


def test_what_the_prose_says_of_the_table_holds(found, reg, inputs):
    """Step 2's "GQA is the most common choice" (more models than any other kind); the anchor's total at 128k
    is its full layers' own bytes plus the fixed state, counted once; a maximum context taken from a paper is
    marked, and its 32k/128k figures lie beyond it; Kimi K3's row reads mla_use_nope from the data."""
    from collections import Counter
    kinds = Counter(p.attention for p in found)
    assert kinds.most_common(1)[0][0] == "GQA" and list(kinds.values()).count(kinds["GQA"]) == 1
    assert reg["kv_cache.models.count_gqa"].value == kinds["GQA"]
    assert reg["kv_cache.models.anchor.at_128k"].value == (reg["kv_cache.anchor.full_at_128k"].value
                                                          + reg["kv_cache.models.anchor.fixed"].value)
    assert reg["kv_cache.anchor.fixed_ssm_dtype"].value > reg["kv_cache.models.anchor.fixed"].value
    rows = {r["slug"]: r for r in table_rows(reg, "kv_cache.models.rows")}
    for s in ("llama_2_7b", "deepseek_llm_67b"):
        assert rows[s]["max_from_paper"] and rows[s]["beyond"] == ["at_32k", "at_128k"]
    assert rows["kimi_k3"]["nope"] and not rows["deepseek_v3"]["nope"]


def test_the_narrowing_note_fails_when_the_gap_widens_at_the_end(inputs):
    """runs.c3_kv1.narrowed is the smallest shrink of the one-head gap from its widest to the last evaluation:
    a seed whose gap is widest at the end gives 0, which the note's check (> the pair margin) rejects."""
    from course.core.registry import Registry
    from course.project import LANGUAGES
    from lessons.c3_kv_cache.numbers import add_narrowing
    results = inputs.results
    kv1 = [r.model_copy(deep=True) for r in results.runs["c3_kv1"]]
    kv1[0].val.loss[-1] = max(kv1[0].val.loss) + 1.0
    r = Registry(languages=LANGUAGES)
    add_narrowing(r.scope("kv_cache"), SimpleNamespace(runs={**results.runs, "c3_kv1": kv1}))
    assert r.value("kv_cache.runs.c3_kv1.narrowed") <= 0


def readouts(w, ids):
    return {i: {g: value(w, f"{g}.{i}") for g in (*GROUPS, "total")} for i in ids}


@pytest.mark.parametrize("lang", LANGS)
def test_browser_kv_calculator(open_page, registry, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "kv-calculator")
    labels_in_language(w, lang)
    cfg = json.loads(w.get_attribute("data-config"))
    models = {m["id"]: m for m in cfg["models"]}
    on = list(cfg["initial"]["models"])
    # it opens at 128k, BF16, one sequence, with the table's numbers
    for i in on:
        assert value(w, f"total.{i}") == registry[f"kv_cache.models.{i}.at_128k"].value
        assert text(w, f"total.{i}") == registry[f"kv_cache.models.{i}.at_128k"].text[lang]
    # a reader's settings: 1,024 tokens, a batch of 8, FP8; one model off, one on
    w.locator('[data-control="context"]').fill(str(cfg["contextExponents"][0]))
    w.locator('[data-control="batch"]').fill("3")
    w.locator('input[data-control="bytes"][value="1"]').check()
    w.locator('[data-control="model-deepseek_v3"]').uncheck()
    w.locator('[data-control="model-kimi_k3"]').check()
    on = [m for m in models if m in set(on) - {"deepseek_v3"} | {"kimi_k3"}]
    assert w.locator("tbody tr[data-shown]").count() == len(on) and w.locator("tbody tr:not([hidden])").count() == len(on)
    T = 2 ** cfg["contextExponents"][0]
    got = readouts(w, on)
    for i in on:
        want = twins.cache_bytes(models[i], T, 8, 1)
        assert got[i] == {g: want[g] for g in (*GROUPS, "total")}, i
        assert text(w, f"total.{i}") == size(want["total"])
    # beyond a model's maximum context the row says so
    w.locator('[data-control="model-gpt_2_small"]').check()
    w.locator('[data-control="context"]').fill(str(cfg["contextExponents"][1]))
    assert w.locator('tr[data-model="gpt_2_small"]').get_attribute("data-beyond") == "true"
    assert w.locator('tr[data-model="deepseek_v4_flash"]').get_attribute("data-beyond") == "false"   # its maximum is 2^20
    v.check_clean()
