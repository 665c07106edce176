"""Lesson C4-1 (FFN) in headless Chromium, in both languages: the calculator, the activation explorer and the
ring classifier against their Python twins (mouse and keyboard), the measured figures and the parameter
ledger in both palettes, axe-core with every tab of the page opened, and a phone-width layout; no console
errors and no request to another host.

Read-outs carry their full-precision value in data-value (JSON); the tests compare those with the lesson's
formulas and twins, and the visible text with the registry's formatting.
"""
import json
import math

import pytest

from browser_helpers import close, labels_in_language, root, text, value
from conftest import LANGS
from lessons.c4_ffn import formulas as f
from lessons.c4_ffn import twins
from test_accessibility import AXE, COLOR_RULES, axe_violations, describe, switch_palette

NS = "ffn."
PATHS = {"zh": "c4/ffn/", "en": "en/c4/ffn/"}


@pytest.fixture(scope="module")
def reg(registry):
    return registry


def js_round(x: float) -> int:
    """JavaScript's Math.round: halves go up (Python's round goes to even)."""
    return math.floor(x + 0.5)


def open_tab_of(page, widget):
    """A widget in a content tab that is not selected: select that tab."""
    if widget.is_visible():
        return
    block = widget.locator("xpath=ancestor::div[contains(@class,'tabbed-block')]")
    index = block.evaluate("b => Array.from(b.parentElement.children).indexOf(b)")
    block.locator("xpath=ancestor::div[contains(@class,'tabbed-set')]").locator(".tabbed-labels > label").nth(index).click()


def widget(page, name, mode=None):
    sel = f'[data-widget="{name}"]' + (f'[data-mode="{mode}"]' if mode else "")
    open_tab_of(page, page.locator(sel).first)
    return root(page, name, mode)


def slider(w, control, v):
    """Set a range input as a reader's drag would (fill dispatches input and change)."""
    w.locator(f'[data-control="{control}"]').fill(str(v))
    return float(w.locator(f'[data-control="{control}"]').input_value())


# ---------------------------------------------------------------- the FFN calculator

@pytest.mark.parametrize("lang", LANGS)
def test_browser_ffn_calculator(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = widget(v.page, "ffn-calculator")
    labels_in_language(w, lang)
    # it opens on the anchor, with the registry's numbers
    assert value(w, "width") == reg["anchor.ffn_width"].value
    assert text(w, "width") == reg["anchor.ffn_width"].text[lang]
    assert text(w, "params") == reg["anchor.layer.ffn_params"].text[lang]
    assert close(value(w, "equal-width"), reg[NS + "anchor.two_matrix_equal_width"].value)
    cfg = json.loads(w.get_attribute("data-config"))
    for p in cfg["presets"]:                                    # every preset: the twin's arithmetic
        w.locator(f'[data-preset="{p["id"]}"]').click()
        assert w.locator(f'[data-preset="{p["id"]}"]').get_attribute("aria-pressed") == "true"
        d, width, kind = p["d"]["value"], p["width"]["value"], p["kind"]
        other = "two_matrix" if kind == "swiglu" else "swiglu"
        assert value(w, "width") == width and value(w, "params") == f.ffn_params(d, width, kind), p["id"]
        assert close(value(w, "equal-width"), f.equal_params_width(width, kind, other))
        assert w.locator(f'input[data-control="kind"][value="{kind}"]').is_checked()
    # GPT-2's equal-parameter width is 8d/3
    w.locator('[data-preset="gpt2"]').click()
    assert close(value(w, "equal-width"), 8 * reg["gpt2.hidden_size"].value / 3)
    # switch the form: same width, two thirds of the weights; no preset is pressed any more
    w.locator('[data-preset="llama2-7b"]').click()
    three = value(w, "params")
    w.locator('input[data-control="kind"][value="two_matrix"]').check()
    assert value(w, "params") * 3 == three * 2
    assert w.locator('[aria-pressed="true"]').count() == 0
    # the sliders: d keeps the ratio, the ratio sets the width
    d = slider(w, "d", 2048)
    ratio = slider(w, "ratio", 3.5)
    assert value(w, "width") == js_round(ratio * d) == 7168
    assert value(w, "params") == f.ffn_params(2048, 7168, "two_matrix")
    assert close(value(w, "equal-ratio"), f.equal_params_width(7168, "two_matrix", "swiglu") / 2048)
    # keyboard: one step of the d slider keeps d_ff / d
    s = w.locator('[data-control="d"]')
    s.focus()
    v.page.keyboard.press("ArrowRight")
    d2 = float(s.input_value())
    assert d2 == d + cfg["dRange"]["step"] and value(w, "width") == js_round(7168 / 2048 * d2)
    v.check_clean()


# ---------------------------------------------------------------- the activation explorer

@pytest.mark.parametrize("lang", LANGS)
def test_browser_activation_explorer(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = widget(v.page, "activation-explorer")
    labels_in_language(w, lang)
    for name in f.ACTIVATIONS:
        assert text(w, name) == reg[f"{NS}act.{name}_at_x"].text[lang]
    assert text(w, "product") == reg[NS + "act.swiglu_at_ab"].text[lang]
    for x in (-3.5, -1.3, -0.75, 0, 0.4, 2.35):
        x = slider(w, "x", x)
        for name, fn in f.ACTIVATIONS.items():
            assert close(value(w, name), fn(x), rel=1e-12), (name, x)
    for a, b in ((-2.5, 4), (0.6, -1.2), (4, 4)):
        a, b = slider(w, "a", a), slider(w, "b", b)
        assert close(value(w, "silu-a"), f.silu(a), rel=1e-12)
        assert close(value(w, "product"), f.swiglu_product(a, b), rel=1e-12)
    assert close(value(w, "product"), reg[NS + "act.swiglu_corner"].value, rel=1e-12)   # the corner the page quotes
    s = w.locator('[data-control="x"]')
    s.focus()
    before = float(s.input_value())
    v.page.keyboard.press("ArrowLeft")
    x = float(s.input_value())
    assert x < before and close(value(w, "gelu"), f.gelu_tanh(x), rel=1e-12)
    assert w.locator(".main-svg").count() >= 2                  # both charts drawn
    v.check_clean()


# ---------------------------------------------------------------- the ring classifier

@pytest.mark.parametrize("lang", LANGS)
def test_browser_ring_classifier_relu_units(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = widget(v.page, "ring-classifier", "relu")
    labels_in_language(w, lang)
    assert ("Teaching data" if lang == "en" else "教学数据") in w.inner_text()
    spec, pts = twins.RING, twins.ring_points()
    assert value(w, "correct") == reg[f"{NS}ring.relu.k{spec.k_default}.correct"].value
    for k in range(spec.k_min, spec.k_max + 1):
        slider(w, "k", k)
        scores = twins.relu_scores(pts, k, spec.threshold)
        assert value(w, "correct") == twins.correct(pts, scores), k
        missed = sum(1 for p, s in zip(pts, scores) if p.label == twins.RING_CLASS and not s > 0)
        assert value(w, "missed-ring") == missed and value(w, "missed-center") == 0
    s = w.locator('[data-control="k"]')
    s.focus()
    v.page.keyboard.press("ArrowLeft")
    assert value(w, "correct") == twins.correct(pts, twins.relu_scores(pts, spec.k_max - 1, spec.threshold))
    v.check_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_browser_ring_classifier_one_line(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = widget(v.page, "ring-classifier", "linear")
    labels_in_language(w, lang)
    pts = twins.ring_points()
    # the browser's scan of the grid finds the twin's best line
    assert value(w, "best-correct") == reg[NS + "ring.best_line.correct"].value
    assert text(w, "best-accuracy") == reg[NS + "ring.best_line.accuracy"].text[lang]
    for angle, offset in ((0, 1.0), (90, -0.4), (150, 0.8), (244, 1.7)):
        a, b = slider(w, "angle", angle), slider(w, "offset", offset)
        assert value(w, "correct") == twins.correct(pts, twins.line_scores(pts, a, b)), (a, b)
    w.locator('[data-control="show-best"]').focus()
    v.page.keyboard.press("Enter")
    assert value(w, "correct") == reg[NS + "ring.best_line.correct"].value
    assert close(value(w, "accuracy"), reg[NS + "ring.best_line.accuracy"].value)
    v.check_clean()


# ---------------------------------------------------------------- figures, table, palettes, axe, phone width

FIGURES = ["ffn-ledger", "ffn-width-sweep", "ffn-gelu-swiglu"]


@pytest.mark.parametrize("lang,scheme", [("zh", "light"), ("en", "dark"), ("zh", "dark"), ("en", "light")])
def test_figures_and_width_table_draw(open_page, reg, lang, scheme):
    v = open_page(PATHS[lang], scheme=scheme)
    page = v.page
    for name in FIGURES:
        fig = page.locator(f'.plotly-figure[data-figure="{name}"]').first
        fig.scroll_into_view_if_needed()
        fig.locator(".main-svg").first.wait_for(timeout=15000)
        assert fig.get_attribute("aria-label")
    table = page.locator('[data-table="ffn-widths"]')
    rows = table.locator("tbody tr")
    # the page's count of gated rows is the table's: every row whose form is "gated", the anchor's included
    gated = reg[NS + "models.gated.count"].value
    assert rows.count() == gated + 2     # + the two two-matrix models
    gated_label = {"zh": "门控三矩阵", "en": "gated"}[lang]
    assert sum(rows.nth(i).locator("td").nth(4).inner_text() == gated_label for i in range(rows.count())) == gated
    assert table.locator('tr[data-model="qwen3_32b"]').inner_text().count(reg[NS + "models.qwen3_32b.ratio"].text[lang])
    assert page.locator('[data-table="measured-notes"] li[data-claim]').count() > 0
    v.check_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_every_tab_is_accessible(open_page, lang):
    """axe-core on the page once with each tab of the design section selected (the site-wide test sees
    only the first tab of each set): every rule in the light palette, then the color rules in the dark one."""
    assert AXE.exists()
    v = open_page(PATHS[lang], scheme="light")
    labels = v.page.locator(".tabbed-set").first.locator(".tabbed-labels > label")
    for scheme, rules in (("default", None), ("slate", COLOR_RULES)):
        if rules:
            switch_palette(v, scheme)
        for i in range(labels.count()):
            labels.nth(i).click()
            found = axe_violations(v.page, rules)
            assert found == [], f"tab {i + 1} ({scheme}): {describe(found)}"
    v.check_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_widgets_fit_a_phone(open_page, lang):
    v = open_page(PATHS[lang], width=390)
    page = v.page
    for name, mode in (("ffn-calculator", None), ("activation-explorer", None), ("ring-classifier", "linear"),
                       ("ring-classifier", "relu")):
        w = widget(page, name, mode)
        v.settle()   # a chart in a tab that was hidden fits itself once shown
        for part in [w] + w.locator(".cw-chart").all():
            box = part.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, mode, box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    v.check_clean()
