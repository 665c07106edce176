"""The measured section's figures in headless Chromium, both languages, both palettes.

Runs when the lesson page exists (docs/c4/normalization.md, written with the lesson); skipped before."""
import pytest

from conftest import ROOT

PAGE = ROOT / "docs" / "c4" / "normalization.md"
FIGURE_NAMES = ["ablation-curves", "stream-rms", "block-grads", "norm-bench"]

pytestmark = pytest.mark.skipif(not PAGE.exists(), reason="the lesson page docs/c4/normalization.md is not written yet")


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
