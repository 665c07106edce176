"""The hands-on notebook: executed by the build, rendered as a page in both languages (not as raw
JSON, which is what static-i18n + mkdocs-jupyter give by themselves), offered for download."""
import json

import pytest
import yaml

from conftest import ROOT

PAGES = {"zh": "c4/normalization-lab/", "en": "en/c4/normalization-lab/"}


def test_sources_are_committed_without_outputs():
    for src in (ROOT / "docs").rglob("*.ipynb"):
        nb = json.loads(src.read_text(encoding="utf-8"))
        assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), src


def test_serving_never_executes():
    cfg = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    jupyter = next(p["mkdocs-jupyter"] for p in cfg["plugins"] if isinstance(p, dict) and "mkdocs-jupyter" in p)
    assert jupyter["execute"] == "false"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_renders_as_a_page_with_its_outputs(site_dir, lang):
    html = (site_dir / PAGES[lang] / "index.html").read_text(encoding="utf-8")
    assert '"cell_type"' not in html and '"nbformat"' not in html, "the notebook rendered as raw JSON"
    assert "jp-Notebook" in html or "jp-Cell" in html
    assert "matches F.layer_norm, F.rms_norm and the lesson" in html.split("jp-OutputArea", 1)[1]
    assert "BatchNorm(apple) = [0.0, 0.0, 0.0, 0.0]" in html
    assert 'class="plotly-figure"' in html and "cdn.plot.ly" not in html


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_offered_for_download_with_outputs(site_dir, lang):
    [nb_file] = list((site_dir / PAGES[lang]).glob("*.ipynb"))
    nb = json.loads(nb_file.read_text(encoding="utf-8"))
    assert any(c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_figure_draws_in_the_browser(open_page, lang):
    v = open_page(PAGES[lang])
    v.page.locator(".plotly-figure .main-svg").first.wait_for()
    v.check_clean()
