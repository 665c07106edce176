"""Lesson C4-3 (normalization) in headless Chromium, in both languages: its widgets' behaviour and their
agreement with the Python twins, the clickable formula with the mouse and the keyboard, the diagrams and
the measured figures in both palettes; no console errors and no request to another host.

Read-outs carry their full-precision value in data-value (JSON); the tests compare those with the lesson's
twins and formulas, and the visible text with the registry's formatting.
"""
import math
import re

import pytest

from browser_helpers import close, labels_in_language, root, text, value
from conftest import LANGS
from lessons.c4_normalization import formulas as f
from lessons.c4_normalization import twins

NS = "normalization."
PATHS = {"zh": "c4/normalization/", "en": "en/c4/normalization/"}


@pytest.fixture(scope="module")
def reg(registry):
    return registry


# ---------------------------------------------------------------- LayerNorm vs RMSNorm

@pytest.mark.parametrize("lang", LANGS)
def test_browser_ln_rms_playground(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "ln-rms-playground")
    labels_in_language(w, lang)
    x = reg[NS + "worked.x"].value
    rows = w.locator('[data-readout="log"] tbody tr')
    assert rows.count() == 1
    assert close(value(w, "layernorm"), f.layernorm(x)) and close(value(w, "rmsnorm"), f.rmsnorm(x))
    assert text(w, "layernorm") == reg[NS + "worked.x.layernorm"].text[lang]
    assert text(w, "rmsnorm") == reg[NS + "worked.x.rmsnorm"].text[lang]
    sqrt_d = math.sqrt(len(x))
    assert close(value(w, "rms-length"), sqrt_d)

    # each button reads as its label-table prefix followed by the registry's number, as the prose quotes it
    labels = w.evaluate("r => JSON.parse(r.dataset.config).labels")
    for control, key in (("scale3", "scale"), ("shift2", "shift")):
        shown = w.locator(f'[data-control="{control}"]').inner_text()
        assert shown == labels[key][lang] + reg[NS + f"worked.{key}"].text[lang], shown

    ln0, rn0 = value(w, "layernorm"), value(w, "rmsnorm")
    w.locator('[data-control="scale3"]').click()            # scale invariance: neither column moves
    assert close(value(w, "layernorm"), ln0) and close(value(w, "rmsnorm"), rn0)
    assert close(value(w, "rms-length"), sqrt_d) and rows.count() == 2
    assert text(w, "rmsnorm") == reg[NS + "worked.scaled.rmsnorm"].text[lang]

    w.locator('[data-control="reset"]').click()
    w.locator('[data-control="shift2"]').click()            # no shift invariance for RMSNorm
    assert close(value(w, "layernorm"), ln0)
    assert not close(value(w, "rmsnorm"), rn0, rel=1e-3)
    assert close(value(w, "rmsnorm"), f.rmsnorm(reg[NS + "worked.shifted"].value))
    assert text(w, "rmsnorm") == reg[NS + "worked.shifted.rmsnorm"].text[lang]
    assert close(value(w, "rms-length"), sqrt_d) and rows.count() == 4
    assert rows.nth(3).locator("td").nth(1).inner_text() == reg[NS + "worked.shifted"].text[lang]

    # keyboard: type into a dimension and press Enter; press a button with Space
    field = w.locator('[data-control="x"][data-index="3"]')
    field.focus()
    field.press("Control+a")
    field.type("-4.5")
    field.press("Enter")
    now = [a + reg[NS + "worked.shift"].value for a in x]
    now[3] = -4.5
    assert close(value(w, "layernorm"), f.layernorm(now)) and close(value(w, "rmsnorm"), f.rmsnorm(now))
    assert close(value(w, "rms-length"), sqrt_d) and rows.count() == 5
    w.locator('[data-control="reset"]').focus()
    v.page.keyboard.press("Space")
    assert close(value(w, "rmsnorm"), rn0) and rows.count() == 6
    v.check_clean()


# ---------------------------------------------------------------- BatchNorm demo

@pytest.mark.parametrize("lang", LANGS)
def test_browser_batchnorm_demo(open_page, lang):
    """Both plans, in one visit: the naive one, then the improved one in its tab."""
    v = open_page(PATHS[lang])
    for mode in ("naive", "improved"):
        check_batchnorm_demo(v, lang, mode)
    v.check_clean()


def check_batchnorm_demo(v, lang: str, mode: str) -> None:
    if mode == "improved":  # the improved plan sits in one of the lesson's tabs: open that tab
        tab = v.page.evaluate("""() => {
            const block = document.querySelector('[data-widget="batchnorm-demo"][data-mode="improved"]')
                                  .closest('.tabbed-block');
            return [...block.parentElement.children].indexOf(block); }""")
        v.page.locator(".tabbed-labels label").nth(tab).click()
    w = root(v.page, "batchnorm-demo", mode)
    labels_in_language(w, lang)
    assert ("by hand for teaching" if lang == "en" else "为教学手工编写的数据") in w.inner_text()
    tv = twins.teaching_vectors()
    cases = twins.batch_cases(tv)
    radios = w.locator('input[data-control="companion"]')
    assert radios.count() == len(cases)
    seen = []
    radios.first.focus()
    for i, case in enumerate(cases):
        if i:
            v.page.keyboard.press("ArrowDown")            # a radio group moves with the arrow keys
        assert radios.nth(i).is_checked()
        assert value(w, "batch-size") == len(case.tokens)
        bn = value(w, "batchnorm")
        assert close(bn, case.batchnorm), (case.id, bn, case.batchnorm)
        if mode == "improved":
            assert close(value(w, "rmsnorm"), case.rmsnorm)
        else:
            assert w.locator('[data-readout="rmsnorm"]').count() == 0
        seen.append(tuple(round(a, 9) for a in bn))
        assert w.locator(f'tr[data-case="{case.id}"]').get_attribute("aria-current") == "true"
    # BatchNorm's 苹果 changes with its companions, and is all zeros in a one-token batch
    assert len(set(seen[:-1])) == len(seen) - 1
    assert seen[-1] == (0.0,) * tv.dims and text(w, "batchnorm") == "[0, 0, 0, 0]"


# ---------------------------------------------------------------- weight decay

@pytest.mark.parametrize("lang", LANGS)
def test_browser_weight_decay_is_the_closed_form(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "weight-decay")
    labels_in_language(w, lang)
    lr, wd = reg["project.lr"].value, reg["project.weight_decay"].value
    assert text(w, "standard-gain") == reg[NS + "wd.standard_gain"].text[lang]
    assert text(w, "zero-centered-gain") == reg[NS + "wd.zero_centered_gain"].text[lang]
    for gain, steps in ((1.5, 5000), (2.25, 12000), (0.6, 300), (1.0, 20000), (3.0, 0)):
        w.locator('[data-control="trained-gain"]').fill(str(gain))
        w.locator('[data-control="steps"]').fill(str(steps))
        assert close(value(w, "standard-gain"), f.standard_gain_after_decay(gain, lr, wd, steps))
        assert close(value(w, "zero-centered-gain"), f.zero_centered_gain_after_decay(gain, lr, wd, steps))
    s = w.locator('[data-control="steps"]')
    s.focus()
    v.page.keyboard.press("ArrowLeft")                     # keyboard: one step of the slider
    steps = int(s.input_value())
    assert steps < 20000
    assert close(value(w, "standard-gain"), f.standard_gain_after_decay(3.0, lr, wd, steps))
    v.check_clean()


# ---------------------------------------------------------------- the formula and the diagrams

TERMS = ["x", "sqrt", "mean-square", "eps", "one-plus-w", "w"]  # in reading (and Tab) order
DIAGRAMS = ["batch-stats", "token-stats", "placement"]


def _squash(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def explanation(page, name: str) -> str:
    return _squash(page.locator(f'[data-term-text="{name}"]').evaluate("e => e.textContent"))


def readout(page):
    return page.locator('[data-readout="term-explanation"]')


def check_terms_on_click(page, lang: str) -> None:
    out = readout(page)
    seen = set()
    for name in TERMS:
        page.locator(f'[data-formula] [data-term="{name}"]').click()
        assert out.get_attribute("data-showing") == name
        shown = _squash(out.inner_text())
        assert shown == explanation(page, name) and shown, (lang, name, shown)
        seen.add(shown)
    assert len(seen) == len(TERMS), "each term has its own explanation"
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", out.inner_text()), "the Chinese page explains in Chinese"
    else:
        assert re.search(r"\b(the|is|of)\b", out.inner_text()), "the English page explains in English"


def check_terms_on_keyboard(page) -> None:
    out = readout(page)
    page.locator('[data-formula] [data-term="x"]').focus()
    for i, name in enumerate(TERMS):
        if i:
            page.keyboard.press("Tab")
        active = page.evaluate("() => document.activeElement.getAttribute('data-term')")
        assert active == name, f"Tab order: expected {name}, focus is on {active}"
        assert out.get_attribute("data-showing") == name, f"focus on {name} shows its explanation"
        page.keyboard.press("Enter" if i % 2 else " ")
        assert out.get_attribute("data-showing") == name
        assert page.locator(f'[data-formula] [data-term="{name}"]').get_attribute("aria-pressed") == "true"
        assert _squash(out.inner_text()) == explanation(page, name)


def _rgb(css: str) -> tuple[float, ...]:
    return tuple(float(v) for v in re.findall(r"[\d.]+", css)[:3])


def check_diagrams(page) -> None:
    bg = _rgb(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))
    for name in DIAGRAMS:
        fig = page.locator(f'[data-diagram="{name}"]')
        assert fig.count() == 1, name
        if not fig.is_visible():  # a diagram in a tab that is not selected: select that tab
            block = fig.locator("xpath=ancestor::div[contains(@class,'tabbed-block')]")
            index = block.evaluate("b => Array.from(b.parentElement.children).indexOf(b)")
            tabs = block.locator("xpath=ancestor::div[contains(@class,'tabbed-set')]")
            tabs.locator(".tabbed-labels > label").nth(index).click()
        panels = fig.locator("svg").all()   # a diagram may come in panels, one <svg> each
        assert panels, name
        for svg in panels:
            box = svg.bounding_box()
            assert box and box["width"] > 100 and box["height"] > 50, (name, box)
            strokes = svg.evaluate("""s => Array.from(s.querySelectorAll('.dg-line, .dg-main, .dg-arrow, .dg-focus, .dg-norm'))
                .map(e => { const c = getComputedStyle(e); return [c.stroke, c.strokeWidth, c.visibility]; })""")
            assert strokes, name
            for stroke, width, visibility in strokes:
                assert stroke not in ("none", "") and float(width.rstrip("px")) > 0 and visibility == "visible"
                distance = sum((a - b) ** 2 for a, b in zip(_rgb(stroke), bg)) ** 0.5
                assert distance > 60, f"{name}: stroke {stroke} barely differs from the background {bg}"
            fills = svg.evaluate("s => Array.from(s.querySelectorAll('text')).map(t => getComputedStyle(t).fill)")
            for fill in fills:
                assert sum((a - b) ** 2 for a, b in zip(_rgb(fill), bg)) ** 0.5 > 60, f"{name}: text {fill} on {bg}"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formula_terms_explain_themselves_on_click(open_page, lang):
    v = open_page(PATHS[lang])
    assert v.page.locator("html").get_attribute("lang").startswith(lang)
    check_terms_on_click(v.page, lang)
    v.check_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_formula_terms_explain_themselves_on_keyboard(open_page, lang):
    v = open_page(PATHS[lang])
    check_terms_on_keyboard(v.page)
    v.check_clean()


@pytest.mark.parametrize("lang,scheme", [("zh", "light"), ("en", "dark")])   # each language, each palette once
def test_diagrams_render_in_both_palettes(open_page, lang, scheme):
    v = open_page(PATHS[lang], scheme=scheme)
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
    check_diagrams(v.page)
    v.check_clean()


# ---------------------------------------------------------------- the measured figures

FIGURE_NAMES = ["ablation-curves", "stream-rms", "block-grads", "lr-check", "decay-gains", "norm-bench"]

@pytest.mark.parametrize("lang,scheme", [("zh", "light"), ("en", "dark")])
def test_measured_figures_draw_without_errors(open_page, lang, scheme):
    v = open_page(("en/" if lang == "en" else "") + "c4/normalization/", scheme=scheme)
    page = v.page
    shown = [n for n in FIGURE_NAMES if page.locator(f'.plotly-figure[data-figure="{n}"]').count()]
    assert shown, "the page shows none of the measured figures"
    for name in shown:
        fig = page.locator(f'.plotly-figure[data-figure="{name}"]').first
        fig.locator(".main-svg").first.wait_for(timeout=15000)
        assert fig.get_attribute("aria-label")  # the alt text of the page's language
    if "ablation-curves" in shown:  # the metric switch redraws the curves
        curves = page.locator('.plotly-figure[data-figure="ablation-curves"]').first
        curves.locator(".updatemenu-button").nth(2).click()
        page.wait_for_function(
            "() => document.querySelector('.plotly-figure[data-figure=\"ablation-curves\"]').layout.yaxis.type === 'log'")
    notes = page.locator('[data-table="measured-notes"]')
    if notes.count():
        assert notes.locator("li[data-claim]").count() > 0
        assert notes.locator('.reg-num[data-kind="measured"]').count() > 0
    v.check_clean()
