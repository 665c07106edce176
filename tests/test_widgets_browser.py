"""The lesson's widgets in headless Chromium, in both languages: behaviour, agreement with the Python twin,
keyboard use, palettes, no console errors and no request to another host.

Read-outs carry their full-precision value in data-value (JSON); the tests compare those with
course/twins.py and course/formulas.py, and the visible text with the registry's formatting.
"""
import json
import math
import re
from pathlib import Path

import pytest

from course import formulas as f
from course import twins
from course.registry import Registry

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "docs/c4/normalization.md"
pytestmark = pytest.mark.skipif(not LESSON.exists(), reason="the normalization lesson page is not in docs/ yet")

PATHS = {"zh": "c4/normalization/", "en": "en/c4/normalization/"}
LANGS = ["zh", "en"]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def reg(site_dir) -> Registry:
    return Registry.read(ROOT / ".build" / "registry.json")


def root(page, name, mode=None):
    sel = f'[data-widget="{name}"]' + (f'[data-mode="{mode}"]' if mode else "")
    r = page.locator(sel).first
    r.scroll_into_view_if_needed()
    assert r.get_attribute("data-ready") == "true", f"{name} did not initialize"
    return r


def value(widget, name):
    return json.loads(widget.locator(f'[data-readout="{name}"]').get_attribute("data-value"))


def text(widget, name):
    return widget.locator(f'[data-readout="{name}"]').inner_text()


def close(a, b, rel=1e-6):
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, rel) for x, y in zip(a, b))
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


def labels_in_language(widget, lang):
    """Every control has an accessible name, and the widget speaks the page's language."""
    for c in widget.locator("input[data-control]").all():
        cid = c.get_attribute("id")
        assert cid and widget.locator(f'label[for="{cid}"]').count() == 1, f"unlabelled control {c.get_attribute('data-control')}"
    words = widget.inner_text()
    if lang == "zh":
        assert CJK.search(widget.locator("legend, label, .cw-readout-label").first.inner_text() + words)
    else:
        labels = " ".join(widget.locator("legend, label, .cw-readout-label, caption, th[scope=col]").all_inner_texts())
        # English labels: the only Chinese left is the example sentence's tokens
        assert not CJK.search(re.sub(r"[小明把苹果给了王我饿今天下午们在公园里吃一个大西瓜]", "", labels)), labels


# ---------------------------------------------------------------- LayerNorm vs RMSNorm

@pytest.mark.parametrize("lang", LANGS)
def test_ln_rms_playground(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "ln-rms-playground")
    labels_in_language(w, lang)
    x = reg["worked.x"].value
    rows = w.locator('[data-readout="log"] tbody tr')
    assert rows.count() == 1
    assert close(value(w, "layernorm"), f.layernorm(x)) and close(value(w, "rmsnorm"), f.rmsnorm(x))
    assert text(w, "layernorm") == reg["worked.x.layernorm"].text[lang]
    assert text(w, "rmsnorm") == reg["worked.x.rmsnorm"].text[lang]
    sqrt_d = math.sqrt(len(x))
    assert close(value(w, "rms-length"), sqrt_d)

    ln0, rn0 = value(w, "layernorm"), value(w, "rmsnorm")
    w.locator('[data-control="scale3"]').click()            # scale invariance: neither column moves
    assert close(value(w, "layernorm"), ln0) and close(value(w, "rmsnorm"), rn0)
    assert close(value(w, "rms-length"), sqrt_d) and rows.count() == 2
    assert text(w, "rmsnorm") == reg["worked.scaled.rmsnorm"].text[lang]

    w.locator('[data-control="reset"]').click()
    w.locator('[data-control="shift2"]').click()            # no shift invariance for RMSNorm
    assert close(value(w, "layernorm"), ln0)
    assert not close(value(w, "rmsnorm"), rn0, rel=1e-3)
    assert close(value(w, "rmsnorm"), f.rmsnorm(reg["worked.shifted"].value))
    assert text(w, "rmsnorm") == reg["worked.shifted.rmsnorm"].text[lang]
    assert close(value(w, "rms-length"), sqrt_d) and rows.count() == 4
    assert rows.nth(3).locator("td").nth(1).inner_text() == reg["worked.shifted"].text[lang]

    # keyboard: type into a dimension and press Enter; press a button with Space
    field = w.locator('[data-control="x"][data-index="3"]')
    field.focus()
    field.press("Control+a")
    field.type("-4.5")
    field.press("Enter")
    now = [a + reg["worked.shift"].value for a in x]
    now[3] = -4.5
    assert close(value(w, "layernorm"), f.layernorm(now)) and close(value(w, "rmsnorm"), f.rmsnorm(now))
    assert close(value(w, "rms-length"), sqrt_d) and rows.count() == 5
    w.locator('[data-control="reset"]').focus()
    v.page.keyboard.press("Space")
    assert close(value(w, "rmsnorm"), rn0) and rows.count() == 6
    v.check_clean()


# ---------------------------------------------------------------- BatchNorm demo

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("mode", ["naive", "improved"])
def test_batchnorm_demo(open_page, lang, mode):
    v = open_page(PATHS[lang])
    if mode == "improved":  # the improved plan sits in one of the lesson's tabs: open that tab
        tab = v.page.evaluate("""() => {
            const block = document.querySelector('[data-widget="batchnorm-demo"][data-mode="improved"]')
                                  .closest('.tabbed-block');
            return [...block.parentElement.children].indexOf(block); }""")
        v.page.locator(".tabbed-labels label").nth(tab).click()
    w = root(v.page, "batchnorm-demo", mode)
    labels_in_language(w, lang)
    assert ("by hand for teaching" if lang == "en" else "为教学手工编的数据") in w.inner_text()
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
    v.check_clean()


# ---------------------------------------------------------------- the residual-stream simulator

def set_sim(w, layers, gain, residual, prenorm, scale):
    w.locator('[data-control="layers"]').fill(str(layers))
    w.locator('[data-control="gain"]').fill(str(gain))
    for name, on in (("residual", residual), ("prenorm", prenorm), ("scale", scale)):
        w.locator(f'[data-control="{name}"]').set_checked(on)


def readings(w):
    return value(w, "grad-ratio"), value(w, "stream-rms"), value(w, "read-rms")


SETTINGS = [(32, 1.0, True, False, False), (32, 1.0, True, True, False), (32, 1.0, True, True, True),
            (7, 2.5, True, False, True), (50, 0.5, False, True, False), (1, 1.0, True, True, False),
            (128, 1.0, True, True, True)]


@pytest.mark.parametrize("lang", LANGS)
def test_residual_sim_defaults_and_story(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "residual-sim")
    labels_in_language(w, lang)
    # on load: N and gain from the registry, pre-RMSNorm on, and the numbers the prose quotes
    assert w.locator('[data-control="layers"]').input_value() == str(reg["sim.default_layers"].value)
    assert w.locator('[data-control="prenorm"]').is_checked()
    assert text(w, "grad-ratio") == reg["sim.prenorm.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg["sim.prenorm.stream_rms"].text[lang]
    prenorm = readings(w)

    w.locator('[data-control="prenorm"]').focus()         # keyboard: Space toggles the checkbox
    v.page.keyboard.press("Space")
    off = readings(w)
    assert text(w, "grad-ratio") == reg["sim.residual_only.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg["sim.residual_only.stream_rms"].text[lang]
    assert off[0] > prenorm[0] and off[1] > prenorm[1] and off[2] > 2 * prenorm[2]   # what sublayers read grows

    v.page.keyboard.press("Space")
    w.locator('[data-control="scale"]').check()
    scaled = readings(w)
    assert text(w, "grad-ratio") == reg["sim.prenorm_scaled.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg["sim.prenorm_scaled.stream_rms"].text[lang]
    assert scaled[1] < prenorm[1] and abs(scaled[0] - 1) < abs(prenorm[0] - 1)
    assert close(prenorm[2], 1.0, rel=1e-5) and close(scaled[2], 1.0, rel=1e-5)   # normalization fixes the read

    # keyboard: the N slider moves by one with the arrow keys and regenerates the run
    s = w.locator('[data-control="layers"]')
    s.focus()
    v.page.keyboard.press("ArrowLeft")
    assert s.input_value() == str(reg["sim.default_layers"].value - 1)
    r = twins.simulate(reg["sim.default_layers"].value - 1, reg["sim.default_gain"].value, True, True, True)
    assert close(list(readings(w)), [r.grad_ratio, r.stream_rms, r.read_rms_top])
    v.check_clean()


def test_residual_sim_equals_the_python_twin(open_page):
    v = open_page(PATHS["en"])
    w = root(v.page, "residual-sim")
    # the browser's PRNG is the twin's, draw for draw
    seq = v.page.evaluate("s => { const r = new CW.Mulberry32(s); return Array.from({length: 5}, () => r.normal()); }",
                          twins.SIM.seed)
    rng = twins.Mulberry32(twins.SIM.seed)
    assert close(seq, [rng.normal() for _ in range(5)], rel=1e-14)
    for setting in SETTINGS:
        set_sim(w, *setting)
        r = twins.simulate(*setting)
        got = readings(w)
        assert close(list(got), [r.grad_ratio, r.stream_rms, r.read_rms_top]), (setting, got, r)
    v.check_clean()


# ---------------------------------------------------------------- weight decay

@pytest.mark.parametrize("lang", LANGS)
def test_weight_decay_is_the_closed_form(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "weight-decay")
    labels_in_language(w, lang)
    lr, wd = reg["project.lr"].value, reg["project.weight_decay"].value
    assert text(w, "standard-gain") == reg["wd.standard_gain"].text[lang]
    assert text(w, "zero-centered-gain") == reg["wd.zero_centered_gain"].text[lang]
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


# ---------------------------------------------------------------- decoder flow

PART_KEYS = {"norm1": "anchor.layer.norm_params", "norm2": "anchor.layer.norm_params",
             "attention": "anchor.layer.full_attention_params", "gated-deltanet": "anchor.layer.gated_deltanet_params",
             "ffn": "anchor.layer.ffn_params"}


@pytest.mark.parametrize("lang", LANGS)
def test_decoder_flow_parts_match_the_registry(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "decoder-flow")
    d = reg["anchor.hidden_size"].value
    parts = w.locator('[data-control="part"]')
    assert parts.count() == 8
    for i in range(parts.count()):
        p = parts.nth(i)
        pid = p.get_attribute("data-part")
        if i % 2:
            p.click()
        else:                                              # keyboard: focus and Enter
            p.focus()
            v.page.keyboard.press("Enter")
        assert p.get_attribute("aria-pressed") == "true"
        shape = value(w, "part-shape")
        assert shape[0] == d and shape[-1] == d and f"[{d}]" in text(w, "part-shape")
        if pid in PART_KEYS:
            assert value(w, "part-params") == reg[PART_KEYS[pid]].value
            assert text(w, "part-params") == reg[PART_KEYS[pid]].text[lang]
        else:
            assert value(w, "part-params") == 0
    w.locator('[data-part="ffn"]').click()
    assert value(w, "part-shape")[1] == reg["anchor.ffn_width"].value
    # the parts taught so far are marked apart from the one this lesson adds and the ones still to come
    assert w.locator('[data-part="norm1"]').get_attribute("class").count("cw-part-current") == 1
    assert "cw-part-later" in w.locator('[data-part="gated-deltanet"]').get_attribute("class")
    assert "cw-part-taught" in w.locator('[data-part="ffn"]').get_attribute("class")
    v.check_clean()


# ---------------------------------------------------------------- palettes

def _luminance(rgb: str) -> float:
    r, g, b = (int(c) / 255 for c in re.findall(r"\d+", rgb)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("scheme,expected", [("light", "default"), ("dark", "slate")])
def test_widgets_readable_in_both_palettes(open_page, scheme, expected):
    v = open_page(PATHS["zh"], scheme=scheme)
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == expected
    for w in v.page.locator("[data-widget]:visible").all():
        fg, bg = w.evaluate("e => { const s = getComputedStyle(e); return [s.color, s.backgroundColor]; }")
        if "rgba(0, 0, 0, 0)" in bg:
            bg = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
        lf, lb = _luminance(fg), _luminance(bg)
        contrast = (max(lf, lb) + 0.05) / (min(lf, lb) + 0.05)
        assert contrast >= 4.5, (w.get_attribute("data-widget"), fg, bg, contrast)
        for label in w.locator(".cw-readout-value").all()[:2]:
            c = label.evaluate("e => getComputedStyle(e).color")
            lc = _luminance(c)
            assert (max(lc, lb) + 0.05) / (min(lc, lb) + 0.05) >= 4.5
    # switching the palette redraws the charts without errors
    v.page.evaluate("document.body.setAttribute('data-md-color-scheme', "
                    f"'{'default' if expected == 'slate' else 'slate'}')")
    v.page.wait_for_timeout(200)
    v.check_clean()


# ---------------------------------------------------------------- page switches

def test_widgets_reinitialize_on_document_switch(open_page):
    """mkdocs-material announces every new page content on document$; a widget root that arrives with it is
    built, and roots already built are left alone."""
    v = open_page(PATHS["en"])
    counts = v.page.evaluate("""() => {
        const old = document.querySelector('[data-widget="ln-rms-playground"]');
        const fresh = document.createElement('div');
        for (const a of ['class', 'data-widget', 'data-config', 'data-lang']) fresh.setAttribute(a, old.getAttribute(a));
        old.parentNode.appendChild(fresh);
        document$.next(document);
        return [old.querySelectorAll('[data-control="scale3"]').length, fresh.dataset.ready,
                fresh.querySelectorAll('[data-control="scale3"]').length];
    }""")
    assert counts == [1, "true", 1]
    fresh = v.page.locator('[data-widget="ln-rms-playground"]').nth(1)
    fresh.locator('[data-control="shift2"]').click()
    assert fresh.locator('[data-readout="log"] tbody tr').count() == 2
    assert v.page.locator('[data-widget="ln-rms-playground"]').first.locator('[data-readout="log"] tbody tr').count() == 1
    v.check_clean()
