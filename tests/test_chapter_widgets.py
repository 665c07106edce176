"""The chapter's widgets and the machinery every widget shares: the residual-stream simulator's Python
twin (its PRNG, its story, its backward pass) and the registry keys the lessons quote from it; the
decoder-flow's configuration per lesson; widget roots, modes, label tables, and the rule that no
registry number is typed into a widget's JavaScript."""
import html
import json
import math
import re

import pytest

from course.common import twins
from course.core import widgets
from conftest import LANGS
from course.project import units as discover

UNITS = discover()



# ---------------------------------------------------------------- PRNG

def test_twin_residual_sim_prng_is_the_published_mulberry32():
    # first outputs of the reference JavaScript mulberry32(0), as 32-bit integers
    r = twins.Mulberry32(0)
    assert [round(r.uniform() * 2**32) for _ in range(3)] == [1144304738, 1416247, 958946056]


def test_normals_look_standard():
    r = twins.Mulberry32(twins.SIM.seed)
    xs = [r.normal() for _ in range(20000)]
    mu = sum(xs) / len(xs)
    var = sum((x - mu) ** 2 for x in xs) / len(xs)
    assert abs(mu) < 0.03 and abs(var - 1) < 0.05


# ---------------------------------------------------------------- the simulator

N, G = twins.SIM.default_layers, twins.SIM.default_gain


@pytest.fixture(scope="module")
def story():
    return {
        "residual_only": twins.simulate(N, G, residual=True, prenorm=False, scale=False),
        "prenorm": twins.simulate(N, G, residual=True, prenorm=True, scale=False),
        "prenorm_scaled": twins.simulate(N, G, residual=True, prenorm=True, scale=True),
    }


def test_twin_residual_sim_normalization_steadies_what_each_sublayer_reads(story):
    # residual only: the higher the sublayer, the larger what it reads
    assert story["residual_only"].read[-1] > 3 * story["residual_only"].read[0]
    # pre-RMSNorm: every sublayer reads RMS 1
    for name in ("prenorm", "prenorm_scaled"):
        assert story[name].read == pytest.approx([1.0] * N, abs=1e-5)
    # and the gradient reaching the bottom is no longer many times the top's
    assert story["prenorm"].grad_ratio < story["residual_only"].grad_ratio / 2


def test_twin_residual_sim_stream_growth_needs_the_write_back_scaling(story):
    # normalization alone leaves the stream growing ...
    assert story["prenorm"].stream_rms > 2.5
    assert story["prenorm"].stream_rms < story["residual_only"].stream_rms
    # ... the 1/√N write-back keeps it near its start, and the gradients near even
    assert story["prenorm_scaled"].stream_rms < 1.5
    assert 0.5 < story["prenorm_scaled"].grad_ratio < 1.5
    assert story["residual_only"].grad_ratio > story["prenorm"].grad_ratio > story["prenorm_scaled"].grad_ratio


def test_twin_residual_sim_backward_matches_finite_differences():
    """The hand-written backward is the derivative of the loss: check ‖∂L/∂x_0‖ by nudging x_0."""
    spec = twins.SimSpec(width=6, tokens=2, default_layers=3)
    for kw in (dict(residual=True, prenorm=True, scale=True), dict(residual=True, prenorm=False, scale=False)):
        r = twins.simulate(3, 1.3, spec=spec, **kw)
        num = _numeric_input_grad(spec, 3, 1.3, **kw)
        assert r.grad[0] == pytest.approx(math.sqrt(sum(v * v for v in num)), rel=1e-5)


def _numeric_input_grad(spec, layers, gain, residual, prenorm, scale, h=1e-6):
    d, T = spec.width, spec.tokens
    rng = twins.Mulberry32(spec.seed)
    x0 = [[rng.normal() for _ in range(d)] for _ in range(T)]
    c = [rng.normal() / math.sqrt(d) for _ in range(d)]
    W = [[[rng.normal() * gain / math.sqrt(d) for _ in range(d)] for _ in range(d)] for _ in range(layers)]
    s = 1 / math.sqrt(layers) if scale else 1.0

    def loss(x):
        for Wl in W:
            u = [[v / math.sqrt(sum(a * a for a in row) / d + spec.eps) for v in row] for row in x] if prenorm else x
            F = [[math.tanh(sum(Wl[i][j] * ut[j] for j in range(d))) for i in range(d)] for ut in u]
            x = [[(x[t][i] if residual else 0.0) + s * F[t][i] for i in range(d)] for t in range(T)]
        return sum(c[i] * x[t][i] for t in range(T) for i in range(d)) / T

    out = []
    for t in range(T):
        for i in range(d):
            up = [row[:] for row in x0]
            dn = [row[:] for row in x0]
            up[t][i] += h
            dn[t][i] -= h
            out.append((loss(up) - loss(dn)) / (2 * h))
    return out


def test_twin_residual_sim_a_new_n_regenerates_the_weights():
    a = twins.simulate(8, 1.0, True, True, False)
    assert twins.simulate(9, 1.0, True, True, False).stream_rms != a.stream_rms


# ---------------------------------------------------------------- the numbers lessons quote from the simulator

SIM_KEYS = ["sim.default_layers", "sim.default_gain"] + [
    f"sim.{s}.{m}" for s in ("residual_only", "prenorm", "prenorm_scaled") for m in ("grad_ratio", "stream_rms")]


@pytest.mark.parametrize("key", SIM_KEYS)
def test_twin_residual_sim_feeds_the_normalization_lessons_keys(reg, key, story):
    n = reg["normalization." + key]
    assert n.provenance.kind == "computed" and "course/common/twins.py" in n.source("en")
    assert f"seed {twins.SIM.seed}" in n.hover("en")
    if key == "sim.default_layers":
        assert n.value == N
    elif key == "sim.default_gain":
        assert n.value == G
    else:
        _, setting, metric = key.split(".")
        r = story[setting]
        assert n.value == (r.grad_ratio if metric == "grad_ratio" else r.stream_rms)


def test_twin_residual_sim_stream_starts_near_one(reg, story):
    start = reg["normalization.sim.start_stream_rms"].value
    assert start == story["residual_only"].stream[0] == story["prenorm"].stream[0]
    assert abs(start - 1) < 0.1


# ---------------------------------------------------------------- widget roots, modes and labels

def _config(root_html: str) -> dict:
    m = re.search(r'data-config="([^"]*)"', root_html)
    return json.loads(html.unescape(m.group(1)))


@pytest.mark.parametrize("unit,widget", UNITS.widgets(), ids=[w.name for _, w in UNITS.widgets()])
def test_every_widget_root_in_every_mode_and_language(reg, unit, widget):
    for mode in widget.modes or (None,):
        for lang in LANGS:
            out = widgets.render(widget, mode, lang, reg)
            assert "\n" not in out and f'data-widget="{widget.name}"' in out and f'data-lang="{lang}"' in out
            cfg = _config(out)
            assert cfg["labels"] == widget.labels


def test_twin_decoder_flow_lights_each_lessons_part(reg):
    _, flow = UNITS.widget("decoder-flow")
    lessons = {u.id for u in UNITS.lessons if u.order[0] == 4}   # the chapter's own lessons (C4's widget)
    assert lessons <= set(flow.modes), "every lesson of the chapter has its view of the decoder layer"
    for mode in flow.modes:
        cfg = _config(widgets.render(flow, mode, "en", reg))
        current = [p["id"] for p in cfg["parts"] if p["status"] in ("current", "gate")]
        assert current and cfg["initial"] == current[0]
    # lesson 4 teaches the gates inside attention and the FFN, not the parts themselves: they say so, and their
    # tag names where the rest of each part is taught (a part marked plainly "this lesson" names no other lesson)
    cfg = _config(widgets.render(flow, "gating", "en", reg))
    assert [p["id"] for p in cfg["parts"] if p["status"] == "gate"] == ["attention", "ffn"]
    assert not [p for p in cfg["parts"] if p["status"] == "current"]
    assert "{where}" in flow.labels["gateTag"]["en"] and "{where}" in flow.labels["gateTag"]["zh"]
    assert flow.labels["status"]["taught"]["en"] != "learned"   # "learned" means trainable in this course
    cfg = _config(widgets.render(flow, "normalization", "en", reg))
    assert [p["id"] for p in cfg["parts"] if p["status"] == "current"] == ["norm1", "norm2"]
    by_id = {p["id"]: p for p in cfg["parts"]}
    assert by_id["ffn"]["params"]["value"] == reg["anchor.layer.ffn_params"].value
    assert by_id["attention"]["shape"][1] == reg["anchor.q_proj_out"].value


def test_unknown_widget_or_mode_fails(reg):
    from course.core.errors import ShortcodeError
    from course.core.shortcodes import PageContext, expand
    ctx = PageContext(registry=reg, units=UNITS, lang="zh", where="page.md")
    with pytest.raises(ShortcodeError, match="page.md: unknown widget 'nope'"):
        expand("<!-- widget:nope -->", ctx)
    with pytest.raises(ShortcodeError, match="modes"):
        expand("<!-- widget:batchnorm-demo fancy -->", ctx)
    with pytest.raises(ShortcodeError, match="takes no mode"):
        expand("<!-- widget:ln-rms-playground improved -->", ctx)
    with pytest.raises(ShortcodeError, match="unknown label"):
        expand("<!-- label:residual-sim.no_such_label -->", ctx)


def test_a_label_in_the_prose_is_the_widgets_own(reg):
    from course.core.shortcodes import PageContext, expand
    _, sim = UNITS.widget("residual-sim")
    for lang in LANGS:
        ctx = PageContext(registry=reg, units=UNITS, lang=lang, where="page.md")
        assert expand("<!-- label:residual-sim.readRms -->", ctx) == html.escape(sim.labels["readRms"][lang])


def _numbers_in(value) -> set[float]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {float(value)}
    if isinstance(value, list):
        return set().union(*(_numbers_in(v) for v in value)) if value else set()
    return set()


def test_no_registry_number_is_typed_into_the_javascript(reg):
    """Numbers the widgets start from travel through data-config; the JS may hold only plumbing
    (0, 1, 2, bit-mixing constants, layout sizes), none of them a value the registry or a twin defines. A line
    marked `// formula:` writes out a published formula (RAdam's rectification, a cosine schedule): its
    constants are the formula's, not settings."""
    from dataclasses import asdict
    defined = set()
    for key, n in reg.numbers.items():
        if n.provenance.kind != "measured":   # measured values are whatever the runs gave; the JS shows none
            defined |= _numbers_in(n.value)
    defined |= {float(v) for v in asdict(twins.SIM).values() if not isinstance(v, bool)}
    defined -= {0.0, 1.0, 2.0}
    defined -= {7.0, 14.0, 15.0, 61.0}   # mulberry32's own shifts and multiplier (the algorithm, not a setting)
    literal = re.compile(r"(?<![\w.$#])(\d+\.\d+|\d+)(?![\w.])")
    scripts = [u.js(w) for u, w in UNITS.widgets()]
    for path in scripts:
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if "// formula:" not in line)
        code = re.sub(r"//[^\n]*", "", code)                                 # comments may name values
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)                     # so may strings
        found = {float(m) for m in literal.findall(code)}
        assert not (found & defined), f"{path.name} types registry numbers {sorted(found & defined)}"


def test_widget_root_inside_a_tab_is_not_left_in_a_paragraph():
    from course.core.site import Site
    root = '<div class="cw" data-widget="batchnorm-demo" data-config="{}"><noscript>n</noscript></div>'
    out = Site.unwrap_blocks(f"<p>{root}</p>\n<p>text</p>")
    assert out == f"{root}\n<p>text</p>"


def test_label_tables_have_both_languages(tmp_path):
    bad = tmp_path / "x.labels.json"
    bad.write_text(json.dumps({"title": {"zh": "标题"}}), encoding="utf-8")
    with pytest.raises(widgets.WidgetError, match="x.labels.json: labels.title: a label needs exactly zh and en"):
        widgets.check_labels(widgets.load_labels(bad), bad.name, ("zh", "en"))
