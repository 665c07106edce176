"""Lesson C8-2 (warmup) in headless Chromium, in both languages: both widgets against their Python twins
(lessons/c8_postln_warmup/twins.py), with the mouse and the keyboard, and their read-outs in the form the
prose quotes them from the registry; no console errors and no request to another host.

Read-outs carry their full-precision value in data-value (JSON); the tests compare those with the twins,
and the visible text with the registry's formatting."""
import pytest

from browser_helpers import close, labels_in_language, root, text, value
from conftest import LANGS
from lessons.c8_postln_warmup import twins as tw

NS = "warmup."
PATHS = {"zh": "c8/postln-warmup/", "en": "en/c8/postln-warmup/"}


@pytest.fixture(scope="module")
def reg(registry):
    return registry


# ---------------------------------------------------------------- warmup-explorer

def twin(reg, warmup, after="cosine", beta2=None, scale=0.0, signal=None, draws=None):
    spec = tw.EXPLORER
    return tw.explore(spec, reg[NS + "steps"].value, reg[NS + "beta1"].value, beta2 or reg[NS + "beta2"].value,
                      warmup, after, scale, spec.default_signal if signal is None else signal, draws)


def same(w, e):
    assert close(value(w, "step1"), e.step1) and close(value(w, "step1-nobc"), e.step1_nobc)
    assert close(value(w, "travel"), e.travel) and close(value(w, "travel-nowarmup"), e.travel_nowarmup)
    assert close(value(w, "travel-ratio"), e.travel_ratio)


@pytest.mark.parametrize("lang", LANGS)
def test_browser_warmup_explorer_is_its_twin(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "warmup-explorer")
    labels_in_language(w, lang)
    draws = tw.explorer_draws(tw.EXPLORER, reg[NS + "steps"].value)
    same(w, twin(reg, tw.EXPLORER.default_warmup, draws=draws))
    for name, key in (("step1", "explorer.step1"), ("travel-ratio", "explorer.travel_ratio")):
        assert text(w, name) == reg[NS + key].text[lang], name          # what the prose quotes

    w.locator('[data-control="warmup"]').fill("0")                    # no warmup: a whole lr on step 1
    same(w, twin(reg, 0, draws=draws))
    assert close(value(w, "step1"), 1.0, rel=1e-6)
    w.locator('[data-control="beta2-adam"]').check()                  # Adam's default β2
    same(w, twin(reg, 0, beta2=reg["kingma.beta2"].value, draws=draws))
    w.locator('[data-control="scale"]').fill("-3")                    # a thousand times smaller
    w.locator('[data-control="signal"]').fill("0")                    # pure noise
    w.locator('[data-control="after-constant"]').check()
    same(w, twin(reg, 0, "constant", reg["kingma.beta2"].value, -3.0, 0.0, draws))

    s = w.locator('[data-control="warmup"]')                          # keyboard: one notch of the slider
    s.focus()
    v.page.keyboard.press("ArrowRight")
    same(w, twin(reg, int(s.input_value()), "constant", reg["kingma.beta2"].value, -3.0, 0.0, draws))
    v.check_clean()


# ---------------------------------------------------------------- depth-grads

@pytest.mark.parametrize("lang", LANGS)
def test_browser_depth_grads_is_its_twin(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "depth-grads")
    labels_in_language(w, lang)
    spec, eps = tw.DEPTH, reg["project.eps"].value
    z = tw.depth_draws(spec)
    presets = tw.depth_presets(spec.width, reg["project.init_std"].value, reg["project.d_model"].value)

    def check(layers, preset, scale):
        post = tw.stack(spec, z, layers, "post", presets[preset], scale, eps)
        pre = tw.stack(spec, z, layers, "pre", presets[preset], scale, eps)
        c = tw.depth_curve(spec, z, presets[preset], scale, eps)
        assert close(value(w, "post-last"), post.w2_grad[-1]) and close(value(w, "pre-last"), pre.w2_grad[-1])
        assert close(value(w, "pre-over-post"), pre.w2_grad[-1] / post.w2_grad[-1])
        assert close(value(w, "pre-rms"), pre.last_norm_rms)
        assert close(value(w, "post-depth-ratio"), c.post[-1] / c.post[0])
        assert close(value(w, "pre-depth-ratio"), c.pre[-1] / c.pre[0])

    check(spec.default_layers, "xavier", False)
    assert text(w, "post-depth-ratio") == reg[NS + "sim.xavier.post.depth_ratio"].text[lang]
    assert text(w, "pre-depth-ratio") == reg[NS + "sim.xavier.pre.depth_ratio"].text[lang]
    w.locator('[data-control="init-ours"]').check()                   # our model's scale ...
    w.locator('[data-control="scale"]').check()                       # ... with GPT-2's write-back rule
    check(spec.default_layers, "ours", True)
    assert text(w, "pre-depth-ratio") == reg[NS + "sim.ours.pre.depth_ratio"].text[lang]
    w.locator('[data-control="layers"]').fill("30")
    check(30, "ours", True)
    s = w.locator('[data-control="layers"]')
    s.focus()
    v.page.keyboard.press("ArrowLeft")                                # keyboard: one layer fewer
    check(29, "ours", True)
    v.check_clean()
