"""Lesson C3-1 (attention): the widget's Python twin against the lesson's formula and the registry, the cost
formulas against hand counts, the measured statistics from a run's attention record, and in Chromium the widget
against its twin in both languages (its scale and mask changed as a reader would), with no console error or
outside request."""
import json
import math
from types import SimpleNamespace

import pytest

from browser_helpers import close, labels_in_language, root, text, value
from conftest import LANGS, widget_config
from course.core.formats import fixed
from lessons.c3_attention import formulas as f
from lessons.c3_attention import twins
from lessons.c3_attention.numbers import attention_metrics

PATHS = {"zh": "c3/attention/", "en": "en/c3/attention/"}


def test_twin_attention_explorer_is_softmax_attention_with_the_causal_mask():
    t = twins.teaching()
    for causal in (True, False):
        for m in (0.0, 0.5, 1.0, 4.0):
            w = twins.weights(t, m, causal)
            for i, row in enumerate(w):
                seen = [x for x in row if x is not None]
                assert math.isclose(sum(seen), 1.0)
                assert len(seen) == (i + 1 if causal else len(t.tokens))   # itself and the tokens before it
                s = [m * sum(a * b for a, b in zip(t.q[i], k)) / math.sqrt(t.d) for k in t.k][:len(seen)]
                want = f.softmax(s)
                assert all(math.isclose(a, b) for a, b in zip(seen, want))
            out = twins.outputs(t, m, causal)
            assert out[0] == t.v[0] if causal else True          # the first token reads only itself
    # at m = 0 every visible score is equal: the causal mean
    assert all(math.isclose(x, 1 / (i + 1)) for i, row in enumerate(twins.weights(t, 0.0, True)) for x in row if x is not None)


def test_twin_attention_explorer_gives_the_registry_s_numbers_and_the_page_s_config(reg):
    t = twins.teaching()
    w = twins.weights(t, t.scale.default, True)[t.reader]
    for j, x in enumerate(w):
        if x is not None:
            assert reg[f"attention.toy.masked.default.w{j}"].value == x
    leak = twins.weights(t, t.scale.default, False)[t.reader]
    assert max(range(len(leak)), key=leak.__getitem__) == t.tokens.index("给了") == t.reader + 1
    cfg = widget_config(reg, "attention-explorer")
    assert (cfg["q"], cfg["k"], cfg["v"], cfg["tokens"], cfg["reader"]) == (t.q, t.k, t.v, t.tokens, t.reader)


def test_the_cost_formulas_count_llama_3_1_8b_by_hand(reg):
    d, heads, kv, hd, w = 4096, 32, 8, 128, 14336
    c = f.LayerCost(f.ffn_weights(d, w, True), f.gqa_projection_weights(d, heads, kv, hd), f.per_key_flops(heads, hd, hd))
    assert c.ffn_flops == 2 * 3 * d * w and c.projection_flops == 2 * (2 * d * heads * hd + 2 * d * kv * hd)
    assert c.per_key == 4 * heads * hd
    assert math.isclose(c.attention_flops(c.crossover), c.ffn_flops)
    assert reg["attention.cost.llama_3_1_8b.crossover"].value == c.crossover
    assert f.LayerCost(1, 5, 2).crossover == 0.0          # projections alone above the FFN: no crossover


def test_the_shortest_crossover_is_qwen3_next_s_whose_ffn_is_not_much_costlier_than_its_projections(reg):
    # the page names the model with the shortest crossover and says why; Qwen3-Next counts its shared expert
    rows = [r["slug"] for r in json.loads(reg["attention.cost.rows"].value)]
    shortest = min(rows, key=lambda s: reg[f"attention.cost.{s}.crossover"].value)
    assert shortest == "qwen3_next_80b_a3b"
    k = "attention.cost.qwen3_next_80b_a3b"
    assert reg[f"{k}.ffn_flops"].value < 1.5 * reg[f"{k}.projection_flops"].value
    assert reg[f"{k}.ffn_flops"].value == 2 * (10 + 1) * 3 * 2048 * 512


def test_the_saturation_and_the_init_prediction_follow_footnote_4(reg):
    assert reg["attention.anchor.sqrt_head_dim"].value ** 2 == reg["anchor.head_dim"].value
    assert reg["attention.saturation.unscaled.max_weight"].value > 5 * reg["attention.saturation.scaled.max_weight"].value
    p = reg["attention.project.unscaled_std_init"].value
    assert math.isclose(p, math.sqrt(32) * 128 * 0.02 ** 2)


def test_the_runs_statistics_are_the_layers_mean_at_the_first_and_last_evaluation():
    a = SimpleNamespace(step=[0, 50], score_std=[[0.2, 0.4, None, 0.3], [1.0, 2.0, 3.0, 2.0]],
                        entropy=[[3.0, 3.0, 3.0, 3.0], [1.5, 3.0, 1.5, 3.0]], uniform_entropy=3.0)
    r = SimpleNamespace(attention=a)
    assert attention_metrics(r, 0) == {"score_std": pytest.approx(0.3), "entropy_share": pytest.approx(1.0)}
    assert attention_metrics(r, -1) == {"score_std": pytest.approx(2.0), "entropy_share": pytest.approx(0.75)}
    assert attention_metrics(SimpleNamespace(), 0) == {}


@pytest.mark.parametrize("lang", LANGS)
def test_browser_attention_explorer(open_page, registry, lang):
    v = open_page(PATHS[lang])
    from test_ffn_browser import open_tab_of   # the widget sits in the design exercise's third tab
    open_tab_of(v.page, v.page.locator('[data-widget="attention-explorer"]').first)
    w = root(v.page, "attention-explorer")
    labels_in_language(w, lang)
    cfg = json.loads(w.get_attribute("data-config"))
    t = twins.teaching()
    r = cfg["reader"]
    n = len(cfg["tokens"])

    def matrix():
        return [[value(w, f"w.{i}.{j}") for j in range(n)] for i in range(n)]

    def agrees(m, causal):
        want = twins.weights(t, m, causal)
        got = matrix()
        for i in range(n):
            for j in range(n):
                assert (got[i][j] is None) == (want[i][j] is None), (i, j)
                if want[i][j] is not None:
                    assert close(got[i][j], want[i][j]), (m, causal, i, j)
        assert close(value(w, "reader-output"), twins.outputs(t, m, causal)[r])
        assert close(value(w, "reader-entropy"), twins.entropy(want[r]))
    # the defaults, with the registry's text
    agrees(t.scale.default, True)
    assert text(w, f"w.{r}.1") == registry["attention.toy.masked.default.w1"].text[lang]
    # a reader's moves: the scale to its ends and between, the mask off and on
    for m in (0, 2.5, t.scale.max):
        w.locator('[data-control="scale"]').fill(str(m))
        agrees(m, True)
    w.locator('[data-control="mask"]').uncheck()
    agrees(t.scale.max, False)
    w.locator('[data-control="scale"]').fill(str(t.scale.default))
    agrees(t.scale.default, False)
    assert text(w, f"w.{r}.3") == registry["attention.toy.unmasked.default.w3"].text[lang]
    assert w.locator(".cw-alert").inner_text().strip()
    w.locator('[data-control="mask"]').check()
    assert not w.locator(".cw-alert").inner_text().strip()
    v.check_clean()


def fake_run(name: str, seed: int, n_layer: int = 4, stats: bool = True, scores: bool = True):
    """What the lessons' code reads of one result of models/results.py (RunResult): enough to add their numbers."""
    attention = None
    if stats:
        std = [0.05 * (1 + i) for i in range(n_layer)] if scores else [None] * n_layer
        attention = SimpleNamespace(step=[0, 400], score_std=[std, [2 * x if x else None for x in std]],
                                    entropy=[[3.8] * n_layer, [2.5] * n_layer], uniform_entropy=3.87)
    loss = 4.5 + 0.01 * seed % 7
    return SimpleNamespace(run=name, config=SimpleNamespace(seed=seed), attention=attention,
                           metrics=SimpleNamespace(final_val_loss=loss),
                           corpus=SimpleNamespace(unigram_floor=6.4),
                           val=SimpleNamespace(step=[0, 200, 400], loss=[7.6, 6.0, loss]),
                           provenance=SimpleNamespace(date="2026-12-31", commit="0" * 10, device_name="cpu", cpu="AMD EPYC"),
                           parameters=1_000_000)


def test_the_measured_keys_the_pages_and_notes_name_are_those_the_lessons_add_once_the_results_exist(reg):
    """With results for every run of the two lessons (made up here: their values do not matter), every key under
    attention. or kv_cache. that a C3 page or reading note names exists: the drafts only wait for the results."""
    import re
    from course.core.registry import Registry
    from course.paths import DOCS, ROOT
    from course.project import LANGUAGES
    from lessons.c3_attention.numbers import add_runs as attention_runs
    from lessons.c3_kv_cache.numbers import add_runs as kv_runs
    seeds = (1337, 1338, 1339)
    runs = {name: [fake_run(name, s, scores=name != "c3_causal_mean", stats=not name.startswith("c3_kv"))
                   for s in seeds] for name in ("c3_baseline", "c3_no_scale", "c3_causal_mean", "c3_kv2", "c3_kv1")}
    runs["c4_baseline"] = [fake_run("c4_baseline", s, stats=False) for s in seeds]   # C3-2 sets the KV runs beside it
    other = SimpleNamespace(cpu="Intel Xeon", source_commit="0" * 7,
                            final_val_loss={"c4_baseline": {str(s): 4.6 for s in seeds}})
    config = lambda n_kv: SimpleNamespace(n_layer=4, d_model=128, n_head=4, n_kv_head=n_kv)  # noqa: E731
    configs = {"c3_baseline": config(None), "c3_kv2": config(2), "c3_kv1": config(1)}
    inputs = SimpleNamespace(results=SimpleNamespace(runs=runs), cross_machine=other,
                             experiments=SimpleNamespace(runs=dict.fromkeys(configs), config=configs.__getitem__,
                                                         base=SimpleNamespace(d_model=128, n_head=4)))
    r = Registry(languages=LANGUAGES)
    attention_runs(r.scope("attention"), inputs)
    kv_runs(r.scope("kv_cache"), inputs)
    texts = [p.read_text(encoding="utf-8") for p in sorted((DOCS / "c3").glob("*.md"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "lessons").glob("c3_*/claims.json"))]
    named = {k for t in texts for k in re.findall(r"(?:n:|\{)((?:attention|kv_cache)\.[\w.\-]+)", t)}
    missing = sorted(k for k in named if k not in reg and k not in r)
    assert missing == [], f"keys no code adds, even with results: {missing}"
