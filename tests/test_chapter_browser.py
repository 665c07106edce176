"""The chapter's shared widgets in headless Chromium, in both languages and every page that uses them: the
residual-stream simulator against its Python twin in each lesson's mode, the decoder-flow against the
registry; every widget readable in both palettes, and rebuilt on mkdocs-material's page switches."""
import pytest

from browser_helpers import close, contrast, labels_in_language, root, text, value
from conftest import LANGS
from course.common import twins

NORM = "normalization."
PATHS = {"zh": "c4/normalization/", "en": "en/c4/normalization/"}


@pytest.fixture(scope="module")
def reg(registry):
    return registry


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
def test_browser_residual_sim_in_the_normalization_lesson(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "residual-sim", "normalization")
    labels_in_language(w, lang)
    # on load: N and gain from the registry, pre-RMSNorm on, and the numbers the prose quotes
    assert w.locator('[data-control="layers"]').input_value() == str(reg[NORM + "sim.default_layers"].value)
    assert w.locator('[data-control="prenorm"]').is_checked()
    assert text(w, "grad-ratio") == reg[NORM + "sim.prenorm.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg[NORM + "sim.prenorm.stream_rms"].text[lang]
    prenorm = readings(w)

    w.locator('[data-control="prenorm"]').focus()         # keyboard: Space toggles the checkbox
    v.page.keyboard.press("Space")
    off = readings(w)
    assert text(w, "grad-ratio") == reg[NORM + "sim.residual_only.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg[NORM + "sim.residual_only.stream_rms"].text[lang]
    assert off[0] > prenorm[0] and off[1] > prenorm[1] and off[2] > 2 * prenorm[2]   # what sublayers read grows

    v.page.keyboard.press("Space")
    w.locator('[data-control="scale"]').check()
    scaled = readings(w)
    assert text(w, "grad-ratio") == reg[NORM + "sim.prenorm_scaled.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg[NORM + "sim.prenorm_scaled.stream_rms"].text[lang]
    assert scaled[1] < prenorm[1] and abs(scaled[0] - 1) < abs(prenorm[0] - 1)
    assert close(prenorm[2], 1.0, rel=1e-5) and close(scaled[2], 1.0, rel=1e-5)   # normalization fixes the read

    # keyboard: the N slider moves by one with the arrow keys and regenerates the run
    s = w.locator('[data-control="layers"]')
    s.focus()
    v.page.keyboard.press("ArrowLeft")
    assert s.input_value() == str(reg[NORM + "sim.default_layers"].value - 1)
    r = twins.simulate(reg[NORM + "sim.default_layers"].value - 1, reg[NORM + "sim.default_gain"].value, True, True, True)
    assert close(list(readings(w)), [r.grad_ratio, r.stream_rms, r.read_rms_top])
    v.check_clean()


def test_browser_residual_sim_equals_the_python_twin(open_page):
    v = open_page(PATHS["en"])
    w = root(v.page, "residual-sim", "normalization")
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


# ---------------------------------------------------------------- decoder flow

PART_KEYS = {"norm1": "anchor.layer.norm_params", "norm2": "anchor.layer.norm_params",
             "attention": "anchor.layer.full_attention_params", "gated-deltanet": "anchor.layer.gated_deltanet_params",
             "ffn": "anchor.layer.ffn_params"}


@pytest.mark.parametrize("lang", LANGS)
def test_browser_decoder_flow_parts_match_the_registry(open_page, reg, lang):
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
    # the parts taught so far are marked apart from the one this lesson adds and those another chapter teaches
    assert w.locator('[data-part="norm1"]').get_attribute("class").count("cw-part-current") == 1
    assert "cw-part-elsewhere" in w.locator('[data-part="gated-deltanet"]').get_attribute("class")
    assert "cw-part-taught" in w.locator('[data-part="ffn"]').get_attribute("class")
    v.check_clean()


# ---------------------------------------------------------------- palettes

@pytest.mark.parametrize("scheme,expected", [("light", "default"), ("dark", "slate")])
def test_widgets_readable_in_both_palettes(open_page, scheme, expected):
    v = open_page(PATHS["zh"], scheme=scheme)
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == expected
    for w in v.page.locator("[data-widget]:visible").all():
        fg, bg = w.evaluate("e => { const s = getComputedStyle(e); return [s.color, s.backgroundColor]; }")
        if "rgba(0, 0, 0, 0)" in bg:
            bg = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert contrast(fg, bg) >= 4.5, (w.get_attribute("data-widget"), fg, bg)
        for label in w.locator(".cw-readout-value").all()[:2]:
            assert contrast(label.evaluate("e => getComputedStyle(e).color"), bg) >= 4.5
    # switching the palette redraws the charts without errors
    v.page.evaluate("document.body.setAttribute('data-md-color-scheme', "
                    f"'{'default' if expected == 'slate' else 'slate'}')")
    v.settle()
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
