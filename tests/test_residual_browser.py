"""Lesson C4-2 (residual) in headless Chromium, in both languages: its two widgets against their Python
twins, with the mouse and the keyboard; the chapter's simulator in this lesson's mode against its twin and
the numbers the prose quotes; widgets and measured figures in both palettes; no console errors and no
request to another host.

Read-outs carry their full-precision value in data-value (JSON); the tests compare those with the twins
and formulas, and the visible text with the registry's formatting.
"""
import json

import pytest

from browser_helpers import close, contrast, labels_in_language, root, text, value
from conftest import LANGS
from course.common import twins as sim
from lessons.c4_residual import formulas as f
from lessons.c4_residual import twins

NS = "residual."
PATHS = {"zh": "c4/residual/", "en": "en/c4/residual/"}


@pytest.fixture(scope="module")
def reg(registry):
    return registry


def open_tab_holding(v, selector):
    """Select the content tab that holds `selector`, as a reader would."""
    index = v.page.evaluate("""sel => { const block = document.querySelector(sel).closest('.tabbed-block');
                                          return [...block.parentElement.children].indexOf(block); }""", selector)
    v.page.locator(".tabbed-labels label").nth(index).click()


# ---------------------------------------------------------------- residual-paths

def all_paths(w):
    rows = w.locator("li.cw-path")
    return [tuple(int(b) for b in rows.nth(i).get_attribute("data-path").split(",") if b) for i in range(rows.count())]


def lit(w):
    rows = w.locator("li.cw-path")
    return [tuple(int(b) for b in rows.nth(i).get_attribute("data-path").split(",") if b)
            for i in range(rows.count()) if rows.nth(i).get_attribute("data-lit") == "true"]


@pytest.mark.parametrize("lang", LANGS)
def test_browser_residual_paths_light_the_paths_around_the_blocks_taken_out(open_page, reg, lang):
    v = open_page(PATHS[lang])
    open_tab_holding(v, '[data-widget="residual-paths"]')
    w = root(v.page, "residual-paths")
    labels_in_language(w, lang)
    n = reg[NS + "paths.default_blocks"].value
    assert all_paths(w) == twins.paths(n) and lit(w) == twins.paths(n)
    assert value(w, "paths") == f.path_count(n) and text(w, "paths") == reg[NS + "paths.default_count"].text[lang]
    assert value(w, "taken-out") == 0 and value(w, "paths-around") == f.path_count(n)

    w.locator('[data-block="2"]').click()                  # take block 2 out
    assert w.locator('[data-block="2"]').get_attribute("aria-pressed") == "true"
    assert lit(w) == twins.paths_around(n, {2})
    assert value(w, "paths-around") == f.paths_skipping(n, 1)
    assert text(w, "paths-around") == reg[NS + "paths.default_skipping_one"].text[lang]

    w.locator('[data-block="3"]').focus()                  # keyboard: Enter and Space press a block
    v.page.keyboard.press("Enter")
    assert lit(w) == twins.paths_around(n, {2, 3}) and value(w, "taken-out") == 2
    v.page.keyboard.press(" ")                              # and press it again to put it back
    assert lit(w) == twins.paths_around(n, {2}) and value(w, "taken-out") == 1
    lengths = w.locator('[data-readout="lengths"]')
    counts = json.loads(lengths.get_attribute("data-value"))
    assert counts["all"] == f.path_lengths(n) and counts["lit"] == f.path_lengths(n - 1) + [0]

    # a deeper stack: every block back in, 2^n paths, the identity path first
    s = w.locator('[data-control="blocks"]')
    s.focus()
    v.page.keyboard.press("End")
    top = reg[NS + "paths.max_blocks"].value
    assert s.input_value() == str(top) and value(w, "paths") == f.path_count(top)
    assert all_paths(w) == twins.paths(top) and value(w, "taken-out") == 0
    for b in (1, 4, 5):
        w.locator(f'[data-block="{b}"]').click()
    assert lit(w) == twins.paths_around(top, {1, 4, 5}) and value(w, "paths-around") == f.paths_skipping(top, 3)
    assert lit(w)[0] == ()                                  # the identity path survives any deletion
    v.check_clean()


# ---------------------------------------------------------------- variance-growth

@pytest.mark.parametrize("lang", LANGS)
def test_browser_variance_growth_against_the_square_root_law_and_the_simulator(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "variance-growth")
    labels_in_language(w, lang)
    g = twins.growth()
    n = reg[NS + "growth.at_default.n"].value
    assert w.locator('[data-control="writes"]').input_value() == str(n)
    for name in ("law", "sim", "independent"):
        assert text(w, name) == reg[f"{NS}growth.at_default.{name}"].text[lang]
    assert close(value(w, "law"), f.unit_write_std(n)) and close(value(w, "sim"), g.stream[n])
    assert close(value(w, "independent"), g.independent[n]) and close(value(w, "write"), g.write[n - 1])

    top = reg[NS + "growth.at_max.n"].value
    w.locator('[data-control="writes"]').fill(str(top))
    for name in ("law", "sim", "independent"):
        assert text(w, name) == reg[f"{NS}growth.at_max.{name}"].text[lang]
    assert text(w, "law") == reg["anchor.residual_std"].text[lang]
    assert text(w, "write") == reg[NS + "growth.last_write"].text[lang]

    s = w.locator('[data-control="writes"]')              # keyboard: one write less
    s.focus()
    v.page.keyboard.press("ArrowLeft")
    m = top - 1
    assert s.input_value() == str(m)
    assert close([value(w, k) for k in ("law", "sim", "independent", "write")],
                 [g.law[m], g.stream[m], g.independent[m], g.write[m - 1]])
    w.locator(".main-svg").first.wait_for(timeout=15000)  # the chart is drawn
    v.check_clean()


# ---------------------------------------------------------------- the chapter's simulator, residual mode

def set_sim(w, gain, residual, scale):
    w.locator('[data-control="gain"]').fill(str(gain))
    w.locator('[data-control="residual"]').set_checked(residual)
    w.locator('[data-control="scale"]').set_checked(scale)


def readings(w):
    return [value(w, "grad-ratio"), value(w, "stream-rms"), value(w, "read-rms")]


@pytest.mark.parametrize("lang", LANGS)
def test_browser_residual_sim_in_the_residual_lesson(open_page, reg, lang):
    v = open_page(PATHS[lang])
    w = root(v.page, "residual-sim", "residual")
    labels_in_language(w, lang)
    N, gain = reg[NS + "sim.default_layers"].value, reg[NS + "sim.default_gain"].value
    # on load: the bare stream, residual on, RMSNorm and write-back scaling off, the numbers the prose quotes
    assert w.locator('[data-control="layers"]').input_value() == str(N)
    assert w.locator('[data-control="residual"]').is_checked()
    assert not w.locator('[data-control="prenorm"]').is_checked() and not w.locator('[data-control="scale"]').is_checked()
    assert text(w, "grad-ratio") == reg[NS + "sim.on.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg[NS + "sim.on.stream_rms"].text[lang]
    assert text(w, "read-rms") == reg[NS + "sim.on.read_rms"].text[lang]

    w.locator('[data-control="residual"]').focus()        # keyboard: Space switches the residual off
    v.page.keyboard.press("Space")
    assert not w.locator('[data-control="residual"]').is_checked()
    assert text(w, "grad-ratio") == reg[NS + "sim.off.grad_ratio"].text[lang]
    assert text(w, "stream-rms") == reg[NS + "sim.off.stream_rms"].text[lang]

    # every row of the lesson's table, read off the widget
    from lessons.c4_residual.numbers import SIM_SETTINGS
    for name, (g, residual, prenorm, scale) in SIM_SETTINGS.items():
        assert not prenorm
        set_sim(w, g, residual, scale)
        r = sim.simulate(N, g, residual, prenorm, scale)
        assert close(readings(w), [r.grad_ratio, r.stream_rms, r.read_rms_top], rel=1e-9), name
        # a ratio under 0.01 reads in scientific form, as the page quotes it (its _exact key), not as "0.00"
        exact = f"{NS}sim.{name}.grad_ratio_exact"
        shown = reg[exact] if r.grad_ratio < 0.01 else reg[f"{NS}sim.{name}.grad_ratio"]
        assert text(w, "grad-ratio") == shown.text[lang], name
        assert text(w, "stream-rms") == reg[f"{NS}sim.{name}.stream_rms"].text[lang], name

    # the write sizes the growth chart relies on: the browser's simulator writes what the twin writes
    got = v.page.evaluate("s => CW.residualSim.simulate(s, 24, 1.3, true, false, false).write",
                          {k: getattr(sim.SIM, k) for k in ("seed", "width", "tokens", "eps", "layers_max")})
    assert close(got, sim.simulate(24, 1.3, True, False, False).write, rel=1e-12)
    set_sim(w, gain, True, False)
    v.check_clean()


# ---------------------------------------------------------------- palettes, figures, notes

@pytest.mark.parametrize("scheme,expected", [("light", "default"), ("dark", "slate")])
def test_residual_widgets_readable_in_both_palettes(open_page, scheme, expected):
    v = open_page(PATHS["zh"], scheme=scheme)
    assert v.page.locator("body").get_attribute("data-md-color-scheme") == expected
    open_tab_holding(v, '[data-widget="residual-paths"]')
    bg = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
    for name in ("residual-paths", "variance-growth", "residual-sim"):
        w = root(v.page, name)
        for el in w.locator(".cw-path-text, .cw-readout-value, .cw-block, label").all()[:12]:
            assert contrast(el.evaluate("e => getComputedStyle(e).color"), bg) >= 4.5, name
    lit = v.page.locator('[data-widget="residual-paths"] li.cw-path-lit .cw-path-text').first
    assert contrast(lit.evaluate("e => getComputedStyle(e).color"), bg) >= 4.5
    v.check_clean()


FIGURE_NAMES = ["residual-loss", "residual-stream-rms", "residual-block-grads"]


@pytest.mark.parametrize("lang,scheme", [("zh", "light"), ("en", "dark")])
def test_residual_figures_and_notes_draw(open_page, lang, scheme):
    v = open_page(PATHS[lang], scheme=scheme)
    page = v.page
    for name in FIGURE_NAMES:
        fig = page.locator(f'.plotly-figure[data-figure="{name}"]').first
        fig.scroll_into_view_if_needed()
        fig.locator(".main-svg").first.wait_for(timeout=15000)
        assert fig.get_attribute("aria-label")
    notes = page.locator('[data-table="measured-notes"]')
    assert notes.count() == 1 and notes.locator("li[data-claim]").count() > 0
    assert notes.locator('.reg-num[data-kind="measured"]').count() > 0
    v.check_clean()
