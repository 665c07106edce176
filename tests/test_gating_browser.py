"""Lesson C4-4 (gating) in headless Chromium, in both languages: its widgets with the mouse and the keyboard,
their read-outs against the Python twins and the registry, the who-gates table, the measured figures, and
readable colors in both palettes; no console errors and no request to another host.

Read-outs carry their full-precision value in data-value (JSON); the tests compare those with the lesson's
twins and formulas, and the visible text with the registry's formatting.
"""
import pytest

from browser_helpers import close, contrast, labels_in_language, root, text, value
from conftest import LANGS
from course.core.formats import percent
from lessons.c4_gating import formulas as f
from lessons.c4_gating import twins

NS = "gating."
PATHS = {"zh": "c4/gating/", "en": "en/c4/gating/"}


@pytest.fixture(scope="module")
def reg(registry):
    return registry


def open_tab_of(v, selector: str) -> None:
    """Select the lesson tab that holds `selector` (the design-it-yourself plans sit in tabs)."""
    index = v.page.evaluate(f"""() => {{
        const block = document.querySelector('{selector}').closest('.tabbed-block');
        return [...block.parentElement.children].indexOf(block); }}""")
    v.page.locator(".tabbed-labels label").nth(index).click()


# ---------------------------------------------------------------- attention-sink

@pytest.mark.parametrize("lang", LANGS)
def test_browser_attention_sink(open_page, reg, lang):
    """Both plans, in one visit: the naive one, then the improved one in its tab."""
    v = open_page(PATHS[lang])
    for mode in ("naive", "improved"):
        check_attention_sink(v, reg, lang, mode)
    v.check_clean()


def check_attention_sink(v, reg, lang: str, mode: str) -> None:
    if mode == "improved":
        open_tab_of(v, '[data-widget="attention-sink"][data-mode="improved"]')
    w = root(v.page, "attention-sink", mode)
    labels_in_language(w, lang)
    toy = twins.sink_toy()
    start = twins.sink_row(toy, "nothing", toy.sink_logit.default)
    assert close(value(w, "weights"), start.weights) and close(value(w, "output"), start.output) and close(value(w, "first-token"), start.first_token)
    assert text(w, "first-token") == percent(start.first_token, 1)
    assert text(w, "weight-sum") == reg[NS + "sink.nothing.weight_sum"].text[lang]
    assert text(w, "output-norm") == reg[NS + "sink.nothing.output_norm"].text[lang]

    # the first token's logit, typed into the slider and then one keyboard step
    sink = w.locator('[data-control="sink-logit"]')
    sink.fill(str(reg[NS + "sink.sink_high"].value))
    parked = twins.sink_row(toy, "nothing", reg[NS + "sink.sink_high"].value)
    assert close(value(w, "first-token"), parked.first_token) and close(value(w, "weight-sum"), 1.0)
    assert text(w, "first-token") == reg[NS + "sink.nothing_sink.first_token"].text[lang]
    assert text(w, "output-norm") == reg[NS + "sink.nothing_sink.output_norm"].text[lang]
    sink.focus()
    v.page.keyboard.press("ArrowRight")
    stepped = float(sink.input_value())
    assert stepped > reg[NS + "sink.sink_high"].value
    assert close(value(w, "output"), twins.sink_row(toy, "nothing", stepped).output)

    # the "found" case, chosen with the keyboard: the parked weight drowns the match
    radios = w.locator('input[data-control="case"]')
    radios.nth(1).focus()
    v.page.keyboard.press("ArrowUp")
    assert radios.nth(0).is_checked()
    found = twins.sink_row(toy, "found", stepped)
    assert close(value(w, "weights"), found.weights)
    assert close(value(w, "first-token"), found.first_token) and close(value(w, "output"), found.output)

    if mode == "naive":
        assert w.locator('[data-control="gate-on"]').count() == 0 and w.locator('[data-readout="gate"]').count() == 0
    else:
        assert text(w, "gate") == ("关" if lang == "zh" else "off") and close(value(w, "written"), found.output)
        w.locator('[data-control="gate-on"]').check()
        g = toy.gate_logit.default
        shut = twins.sink_row(toy, "found", stepped, g)
        assert close(value(w, "gate"), f.sigmoid(g)) and close(value(w, "written"), shut.written)
        assert text(w, "gate") == reg[NS + "sink.gate"].text[lang]
        w.locator('[data-control="gate-logit"]').fill(str(reg[NS + "sink.gate_open_logit"].value))
        sink.fill("0")
        assert text(w, "written-norm") == reg[NS + "sink.found.written_norm"].text[lang]
        assert text(w, "gate") == reg[NS + "sink.gate_open"].text[lang]


# ---------------------------------------------------------------- swiglu-surface

@pytest.mark.parametrize("lang", LANGS)
def test_browser_swiglu_surface(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "swiglu-surface")
    labels_in_language(w, lang)
    w.locator(".main-svg").first.wait_for(timeout=15000)
    extent, points = reg[NS + "surface.extent"].value, reg[NS + "surface.points"].value
    limits = [None, reg["gpt_oss.swiglu_limit"].value, reg["deepseek_v4.swiglu_limit"].value]
    a = b = reg["deepseek_v4.swiglu_limit"].value
    assert close(value(w, "point-unclamped"), f.swiglu(a, b)) and close(value(w, "point"), f.swiglu(a, b))
    radios = w.locator('input[data-control="clamp"]')
    assert radios.count() == len(limits)
    radios.first.focus()
    for i, (name, limit) in enumerate(zip(("none", "gpt_oss", "deepseek_v4"), limits)):
        if i:
            v.page.keyboard.press("ArrowDown")           # a radio group moves with the arrow keys
        assert radios.nth(i).is_checked()
        z = f.surface(extent, points, limit)
        assert close(value(w, "max"), max(max(r) for r in z)) and close(value(w, "min"), min(min(r) for r in z))
        assert text(w, "max") == reg[f"{NS}surface.max.{name}"].text[lang]
        assert close(value(w, "point"), f.swiglu(a, b, limit))
    # move the point: the read-out follows the twin, clamped and not
    w.locator('[data-control="gate-input"]').fill("-3")
    w.locator('[data-control="up-input"]').fill("11.5")
    assert close(value(w, "point"), f.swiglu(-3, 11.5, limits[-1]))
    assert close(value(w, "point-unclamped"), f.swiglu(-3, 11.5))
    v.check_clean()


# ---------------------------------------------------------------- qproj-split

@pytest.mark.parametrize("lang", LANGS)
def test_browser_qproj_split(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "qproj-split")
    labels_in_language(w, lang)
    heads, head_dim = reg["anchor.num_heads"].value, reg["anchor.head_dim"].value
    blocks = w.locator(".qp-head")
    assert blocks.count() == heads
    assert value(w, "head-query") == list(f.head_slices(0, head_dim)["query"])
    assert value(w, "head-gate") == list(f.head_slices(0, head_dim)["gate"])
    assert value(w, "gate-width") == reg[NS + "qproj.gate"].value
    split = f.q_proj_split(heads, head_dim, True)
    assert close(value(w, "gate-share"), split["gate"] / split["out"])
    assert text(w, "gate-params") == reg[NS + "gate.per_layer_params"].text[lang]
    slider = w.locator('[data-control="head"]')
    slider.fill(str(heads))
    last = f.head_slices(heads - 1, head_dim)
    assert value(w, "head-gate") == list(last["gate"]) and last["gate"][1] == reg["anchor.q_proj_out"].value
    assert "qp-selected" in blocks.nth(heads - 1).get_attribute("class")
    slider.focus()
    v.page.keyboard.press("ArrowLeft")
    assert value(w, "head-query") == list(f.head_slices(heads - 2, head_dim)["query"])
    assert w.locator(".qp-selected").count() == 1
    v.check_clean()


# ---------------------------------------------------------------- the table, the figures, the palettes

@pytest.mark.parametrize("lang,scheme", [("zh", "light"), ("en", "dark")])
def test_gating_table_and_figures_draw(open_page, reg, lang, scheme):
    v = open_page(PATHS[lang], scheme=scheme)
    page = v.page
    table = page.locator('[data-table="output-gates"]')
    rows = table.locator("tbody tr")
    from course.common.schema import load_inputs
    stated = [m for m in load_inputs().frontier.models if m.attn_output_gate is not None]
    assert rows.count() == len(stated) + 1                     # and the anchor
    yes = "是" if lang == "zh" else "yes"
    gate = [r.locator('td[data-col="gate"]').inner_text().strip() for r in rows.all()]
    assert sum(g == yes for g in gate) == reg[NS + "output_gate.gated"].value
    # every "no" that no config key records says it is inferred
    how = [r.locator('td[data-col="how"]').get_attribute("data-how") for r in rows.all()]
    assert how.count("inferred") == reg[NS + "output_gate.inferred"].value
    assert all(h != "inferred" or g != yes for h, g in zip(how, gate))
    for name in ("first-token-attention", "ffn-activation"):
        fig = page.locator(f'.plotly-figure[data-figure="{name}"]').first
        fig.locator(".main-svg").first.wait_for(timeout=15000)
        assert fig.get_attribute("aria-label")
    notes = page.locator('[data-table="measured-notes"]')
    assert notes.locator("li[data-claim]").count() > 0
    assert notes.locator('.reg-num[data-kind="measured"]').count() > 0
    v.check_clean()


@pytest.mark.parametrize("scheme,expected", [("light", "default"), ("dark", "slate")])
def test_gating_widgets_readable_in_both_palettes(open_page, scheme, expected):
    v = open_page(PATHS["en"], scheme=scheme, width=390)
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == expected
    bg = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
    for name in ("attention-sink", "swiglu-surface", "qproj-split"):
        w = v.page.locator(f'[data-widget="{name}"]:visible').first
        for part in w.locator(".cw-readout-value, label, caption").all()[:6]:
            assert contrast(part.evaluate("e => getComputedStyle(e).color"), bg) >= 4.5, (name, part.inner_text())
        box = w.bounding_box()
        assert box and box["width"] <= 390, (name, box)      # fits a phone's width
    v.page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{'default' if expected == 'slate' else 'slate'}')")
    v.settle()                                                # the surface redraws in the other palette
    v.check_clean()
